"""libnutcore's C ABI (cpp/include/nutcore.h, docs/embedding.md) through an independent ctypes client
(tests/helpers/capi_client.py): the direct calls against the Python package, whole games of every game, the
error contract (bad handles, bad values, bad JSON, calls in the wrong order: an error, never a
crash) and the engine handle itself. The engine protocol through the handle is tested by the engine
tests on the "capi" transport."""

from __future__ import annotations

import ctypes
import json
import threading
import time
from ctypes import byref, c_int, c_size_t, c_void_p

import pytest
from capi_client import (
    NC_ABI_VERSION,
    NC_CHANCE,
    NC_CLOSED,
    NC_INVALID_ARGUMENT,
    NC_INVALID_HANDLE,
    NC_OK,
    NC_STOPPED,
    NC_TERMINAL,
    NC_TIMEOUT,
    CapiBot,
    CapiError,
    CapiGame,
    CapiState,
    call_handle,
    call_string,
    last_error,
    lib,
)
from protocol import InProcess

import nutcore
from playing import winter_start

GAMES = nutcore.list_games()
SENTINEL = 0x5EED


def _status_of(fn, *args) -> int:
    """fn(*args); its status, asserting that a failure left a message and NC_OK none."""
    status = fn(*args)
    message = last_error()
    if status == NC_OK:
        assert message == "", (fn.__name__, message)
    else:
        assert message, (fn.__name__, status, "no nc_last_error message")
    return status


def _fails(status_expected: int, fn, *args) -> str:
    """fn(*args) answers status_expected with a message; the message."""
    status = fn(*args)
    message = last_error()
    assert status == status_expected, (fn.__name__, status, message)
    assert message, (fn.__name__, "no nc_last_error message")
    return message


def _to_decision(state: CapiState, seed: int = 1) -> None:
    while state.current_player() == NC_CHANCE:
        state.apply(state.sample_chance(seed))
        seed += 1


def _chance_state(name: str) -> CapiState:
    """A state of `name` at a chance node."""
    state = CapiGame(name, {"players": 2}).new_state()
    bot = CapiBot("greedy")
    bot.reset(1)
    for _ in range(500):
        player = state.current_player()
        if player == NC_CHANCE:
            return state
        assert player != NC_TERMINAL
        state.apply(bot.move(state))
    raise AssertionError(f"{name}: no chance node")


def _terminal_state(name: str = "auf_die_nuesse") -> CapiState:
    state = CapiGame(name, {"players": 2}).new_state()
    bot = CapiBot("greedy")
    bot.reset(3)
    seed = 0
    while state.current_player() != NC_TERMINAL:
        if state.current_player() == NC_CHANCE:
            seed += 1
            state.apply(state.sample_chance(seed))
        else:
            state.apply(bot.move(state))
    return state


# ----- versions and the list of games


def test_versions_and_game_names():
    assert lib.nc_abi_version() == NC_ABI_VERSION == 2
    assert lib.nc_version().decode() == nutcore.__version__
    count = lib.nc_game_count()
    names = [lib.nc_game_name(i).decode() for i in range(count)]
    assert set(names) == set(nutcore.list_games()) and len(names) == len(set(names)) == count
    assert lib.nc_game_name(-1) is None
    assert lib.nc_game_name(count) is None
    assert lib.nc_game_name(2**31 - 1) is None


def test_list_games_is_the_protocols():
    listed = json.loads(call_string(lib.nc_list_games))
    engine = InProcess()
    try:
        assert listed == engine.ask(cmd="list_games")["games"]
    finally:
        engine.close()
    assert [g["name"] for g in listed] == nutcore.list_games()


@pytest.mark.parametrize("name", GAMES)
def test_game_params_and_players(name):
    for players in (2, 3, 4):
        game = CapiGame(name, {"players": players})
        assert game.num_players() == players
        assert game.params() == nutcore.load_game(name, players=players).params
        game.close()
    for default in (None, "", b""):
        game = CapiGame(name, default)
        assert game.params() == nutcore.load_game(name).params and game.num_players() == 2
        game.close()


# ----- whole games


def _play(name: str, seed: int) -> tuple[list[int], CapiState]:
    """A whole 2-player game: seat 0 by nc_best_move, seat 1 by the greedy bot, chance by
    nc_state_sample_chance; its action ids and the final state."""
    game = CapiGame(name, {"players": 2})
    state = game.new_state()
    game.close()  # a state keeps its game alive
    bot = CapiBot("greedy")
    bot.reset(seed)
    actions: list[int] = []
    while True:
        player = state.current_player()
        status = state.status()
        assert status["terminal"] == (player == NC_TERMINAL) and status["chance"] == (player == NC_CHANCE)
        if player == NC_TERMINAL:
            break
        legal = state.legal_action_ids()
        if player == NC_CHANCE:
            action = state.sample_chance(seed * 100_000 + len(actions))
        elif player == 0:
            result = state.best_move({"iterations": 50, "seed": len(actions) + seed})
            action = result["action"]
            assert result["action_string"] == state.action_string(action)
        else:
            assert player == 1
            action = bot.move(state)
        assert action in legal
        state.apply(action)
        actions.append(action)
        assert len(actions) < 20_000
    bot.close()
    return actions, state


@pytest.mark.parametrize("name", GAMES)
def test_full_game_and_python_replay(name):
    actions, state = _play(name, seed=7)
    status = state.status()
    assert status["terminal"] and not status["chance"]
    assert sum(status["returns"]) == pytest.approx(1)
    assert state.legal_actions() == [] and state.legal_action_ids() == []
    end = state.to_json()

    py = nutcore.load_game(name, players=2).new_initial_state()
    for action in actions:
        py.apply_action(action)
    assert py.is_terminal()
    assert py.to_json() == end
    assert py.returns() == pytest.approx(status["returns"])
    assert py.scores() == status["scores"]


@pytest.mark.parametrize("name", GAMES)
def test_positions_agree_with_the_python_package(name):
    actions, _ = _play(name, seed=3)
    py_game = nutcore.load_game(name, players=2)
    game = CapiGame(name, {"players": 2})
    py_walk = py_game.new_initial_state()
    checked = 0
    for step, action in enumerate(actions):
        if step % max(1, len(actions) // 12) == 0:
            text = json.dumps(py_walk.to_json())
            py = py_game.state_from_json(json.loads(text))
            state = game.state_from_json(text)
            assert state.to_json() == py.to_json() == json.loads(text)
            legal = state.legal_actions()
            ids = state.legal_action_ids()
            assert ids == [m["action"] for m in legal]
            if py.is_chance_node():
                assert state.current_player() == NC_CHANCE
                outcomes = py.chance_outcomes()
                assert ids == [a for a, _ in outcomes]
                assert [m["probability"] for m in legal] == pytest.approx([p for _, p in outcomes])
            else:
                assert state.current_player() == py.current_player() >= 0
                assert ids == py.legal_actions()
                assert all("probability" not in m for m in legal)
            assert [m["action_string"] for m in legal] == [py.action_to_string(a) for a in ids]
            for m in legal:
                assert state.string_to_action(m["action_string"]) == m["action"]
                assert state.action_string(m["action"]) == m["action_string"]
            for seat in range(2):
                assert state.observation_json(seat) == py.observation_json(seat)
            status = state.status()
            assert status["scores"] == py.scores()
            assert status["returns"] == pytest.approx(py.returns())
            # the protocol's status: current_player null at a chance node
            assert status["current_player"] == (None if py.is_chance_node() else py.current_player())
            state.close()
            checked += 1
        py_walk.apply_action(action)
    assert checked >= min(10, len(actions))  # every position of a short game


def test_best_move_is_the_python_packages():
    game = CapiGame("auf_die_nuesse", {"players": 2})
    state = game.new_state()
    _to_decision(state, seed=5)
    py = nutcore.load_game("auf_die_nuesse", players=2).state_from_json(state.to_json())
    for request in ({"iterations": 120, "seed": 9}, {"algorithm": "mcts", "iterations": 80, "seed": 2}):
        ours = state.best_move(request)
        theirs = nutcore.best_move(py, **request).to_dict()
        for key in ("action", "action_string", "algorithm", "value", "actions", "iterations", "nodes", "seed"):
            assert ours[key] == theirs[key], key
        assert ours == {**ours, **{k: v for k, v in theirs.items() if k not in ("elapsed",)}}
        assert state.best_move(request)["actions"] == ours["actions"]  # a seed reproduces a search
    default = state.best_move(None)
    assert default["action"] in state.legal_action_ids()
    assert state.best_move("")["action"] in state.legal_action_ids()


def _ask(engine: int, **msg) -> dict:
    """One request through an engine handle; its reply (progress lines skipped)."""
    msg.setdefault("id", "q")
    assert lib.nc_engine_send(engine, json.dumps(msg).encode()) == NC_OK
    return _reply(engine, msg["id"])


def _without_elapsed(result: dict) -> dict:
    return {k: v for k, v in result.items() if k != "elapsed"}


def test_best_move_takes_the_protocols_request():
    """nc_best_move reads the protocol's best_move request (options nested) with the protocol's own
    checks and messages, and the same search comes of it; options beside the fields (the older
    form) give that search too."""
    state = CapiGame("auf_die_nuesse", {"players": 2}).new_state()
    _to_decision(state, seed=5)
    engine = _engine()
    _ask(engine, cmd="new_game", game="auf_die_nuesse", players=2, seed=1)
    _ask(engine, cmd="set_position", position=state.to_json())
    for request in (
        {"algorithm": "mcts", "iterations": 80, "seed": 2, "options": {"exploration": 0.5, "max_nodes": 5000}},
        {"algorithm": "expectimax", "seed": 1, "options": {"depth": 2, "pruning": False}},
        {"iterations": 60, "seed": 3, "options": {}},
    ):
        ours = state.best_move(request)
        theirs = _ask(engine, cmd="best_move", **request)["result"]
        flat = state.best_move({**{k: v for k, v in request.items() if k != "options"}, **request["options"]})
        assert _without_elapsed(ours) == _without_elapsed(theirs) == _without_elapsed(flat), request
    out = c_void_p(SENTINEL)
    for bad in (
        {"options": {"iterations": 5}},
        {"options": {"stop": True, "seed": 1}},
        {"options": 3},
        {"options": None},
        {"options": {"warp": 9}},
        {"options": {"exploration": -1}},
        {"algorithm": "expectimax", "options": {"exploration": 1}},
        {"iterations": None},
        {"iterations": 1.5},
        {"iterations": True},
        {"seed": "7"},
        {"time_limit": "soon"},
        {"algorithm": 5},
        {"algorithm": "solver", "iterations": 5},
    ):
        message = _fails(
            NC_INVALID_ARGUMENT, lib.nc_best_move, state.handle, json.dumps(bad).encode(), None, byref(out)
        )
        refused = _ask(engine, cmd="best_move", **bad)
        assert refused["error"] == "bad_request" and refused["message"] == message, (bad, refused, message)
    twice = b'{"exploration": 1, "options": {"exploration": 1}}'
    assert "given twice" in _fails(NC_INVALID_ARGUMENT, lib.nc_best_move, state.handle, twice, None, byref(out))
    assert out.value == SENTINEL
    lib.nc_engine_free(engine)


def _walk(name: str, steps: int, seed: int = 1) -> CapiState:
    """A 2-player game of `name` after `steps` greedy moves and drawn outcomes (or at its end)."""
    state = CapiGame(name, {"players": 2}).new_state()
    bot = CapiBot("greedy")
    bot.reset(seed)
    for step in range(steps):
        player = state.current_player()
        if player == NC_TERMINAL:
            break
        state.apply(state.sample_chance(seed + step) if player == NC_CHANCE else bot.move(state))
    return state


@pytest.mark.parametrize("name", GAMES)
def test_state_board_is_the_protocols_board(name):
    """nc_state_board draws what the protocol's board draws for the same position: for every seat
    and none, memory aids on and off; with aids a seat's text is the package's information state."""
    engine = _engine()
    differed = False
    for steps in (0, 15, 40, 90):
        state = _walk(name, steps)
        _ask(engine, cmd="new_game", game=name, players=2, seat=None, seed=1)
        _ask(engine, cmd="set_position", position=state.to_json())
        py = nutcore.load_game(name, players=2).state_from_json(state.to_json())
        for seat in (None, 0, 1):
            for aids in (True, False):
                ours = state.board(seat, aids)
                theirs = _ask(engine, cmd="board", seat=seat, memory_aids=aids)
                assert ours == {k: theirs[k] for k in ("seat", "memory_aids", "text", "json")}, (steps, seat, aids)
            if seat is not None:
                assert state.board(seat)["text"] == py.information_state_string(seat)
                assert state.board(seat)["json"] == state.observation_json(seat)
                drawn = [(b["text"], b["json"]) for b in (state.board(seat, True), state.board(seat, False))]
                differed |= drawn[0] != drawn[1]
    assert state.board()["text"] == str(py)
    # The boards with and without memory aids differ somewhere exactly in the memory games.
    listed = {g["name"]: g for g in json.loads(call_string(lib.nc_list_games))}
    assert differed == listed[name]["memory_aids"]
    lib.nc_engine_free(engine)


def test_exact_searches_take_a_time_limit():
    """nc_best_move's time_limit for expectimax (its deepest complete depth) and the solver
    (NC_STOPPED when it cannot finish); iterations and threads stay refused."""
    state = CapiGame("auf_die_nuesse", {"players": 2}).new_state()
    _to_decision(state, seed=5)
    start = time.monotonic()
    deep = state.best_move({"algorithm": "expectimax", "depth": 30, "time_limit": 0.2})
    assert time.monotonic() - start < 20  # loose (a shared machine); depth 30 alone would take years
    assert deep["complete"] is False and deep["stopped"] is False and 1 <= deep["depth"] < deep["max_depth"] == 30
    fixed = state.best_move({"algorithm": "expectimax", "depth": deep["depth"]})
    assert all(fixed[key] == deep[key] for key in ("action", "value", "actions"))
    out = c_void_p(SENTINEL)
    for bad in (b'{"algorithm": "expectimax", "iterations": 5}', b'{"algorithm": "solver", "threads": 2}'):
        assert "takes no iterations or threads" in _fails(
            NC_INVALID_ARGUMENT, lib.nc_best_move, state.handle, bad, None, byref(out)
        )
    bot = CapiBot("expectimax:depth=30,time_limit=0.1")
    bot.reset(1)
    assert bot.move(state) in state.legal_action_ids()
    # The solver on a Purzelbaum winter (15,118 positions): within a minute, not within 1 µs.
    winter = winter_start()
    capi_winter = CapiGame("purzelbaum", {"players": 2}).state_from_json(winter.to_json())
    assert capi_winter.best_move({"algorithm": "solver", "time_limit": 60})["action"] == nutcore.solve(winter).action
    request = b'{"algorithm": "solver", "time_limit": 1e-6}'
    assert "stopped" in _fails(NC_STOPPED, lib.nc_best_move, capi_winter.handle, request, None, byref(out))
    assert out.value == SENTINEL


HIDDEN = [g for g in GAMES if nutcore.load_game(g).new_initial_state().hidden_information]


def _seat0_twins(name: str, bot_seed: int, from_step: int, seat0_to_move: bool):
    """Along a game of greedy bots, six times (at least three): the true state and a twin that
    seat 0 cannot tell from it (the package's resample_from_infostate), both as C ABI states, with
    the step."""
    game = CapiGame(name)
    py_game = nutcore.load_game(name)
    state = game.new_state()
    bot = CapiBot("greedy")
    bot.reset(bot_seed)
    checked = step = 0
    while checked < 6 and state.current_player() != NC_TERMINAL and step < 400:
        player = state.current_player()
        if step > from_step and (player == 0 or not seat0_to_move):
            py = py_game.state_from_json(state.to_json())
            for seed in range(5):
                other = py.resample_from_infostate(0, seed).to_json()
                if other != py.to_json():
                    yield state, game.state_from_json(other), step
                    checked += 1
                    break
        state.apply(state.sample_chance(step) if player == NC_CHANCE else bot.move(state))
        step += 1
    assert checked >= 3


@pytest.mark.parametrize("name", HIDDEN)
def test_searches_read_only_what_the_seat_knows(name):
    """Two true states that seat 0 cannot tell apart (the same observation_json(0)) get the same
    nc_best_move from seat 0 with the same seed."""
    for state, twin, step in _seat0_twins(name, bot_seed=1, from_step=6, seat0_to_move=True):
        assert twin.observation_json(0) == state.observation_json(0)
        request = {"iterations": 100, "seed": step}
        ours, theirs = state.best_move(request), twin.best_move(request)
        ours.pop("elapsed"), theirs.pop("elapsed")
        assert ours == theirs, step


@pytest.mark.parametrize("name", HIDDEN)
def test_a_seats_board_shows_nothing_it_has_not_seen(name):
    """Two true states that differ only in what seat 0 has not seen give seat 0 the same
    nc_state_board, memory aids on and off, while the whole positions' boards tell them apart."""
    for state, twin, step in _seat0_twins(name, bot_seed=2, from_step=4, seat0_to_move=False):
        for aids in (True, False):
            assert twin.board(0, aids) == state.board(0, aids), (step, aids)
        assert twin.board() != state.board()  # the whole positions do differ


def test_clone_is_independent_and_states_outlive_their_game():
    game = CapiGame("purzelbaum", {"players": 2})
    state = game.new_state()
    game.close()
    _to_decision(state)
    copy = CapiState(call_handle(lib.nc_state_clone, state.handle))
    before = state.to_json()
    copy.apply(copy.legal_action_ids()[0])
    assert state.to_json() == before != copy.to_json()
    assert state.best_move({"iterations": 50, "seed": 1})["action"] in state.legal_action_ids()


def test_legal_action_ids_buffer():
    state = CapiGame("auf_die_nuesse").new_state()
    _to_decision(state, seed=2)
    full = [m["action"] for m in state.legal_actions()]
    assert len(full) >= 2
    count = c_size_t(SENTINEL)
    assert lib.nc_state_legal_action_ids(state.handle, None, 0, byref(count)) == NC_OK
    assert count.value == len(full)
    buf = (c_int * len(full))(*([-7] * len(full)))
    assert lib.nc_state_legal_action_ids(state.handle, buf, 1, byref(count)) == NC_OK
    assert count.value == len(full) and buf[0] == full[0] and list(buf[1:]) == [-7] * (len(full) - 1)
    assert state.legal_action_ids(capacity=1) == full
    assert state.legal_action_ids(capacity=1000) == full


def test_bots():
    state = CapiGame("auf_die_nuesse").new_state()
    _to_decision(state, seed=4)
    for spec in ("greedy", "random", "auto:iterations=50", "mcts:iterations=50", "level:1"):
        bot = CapiBot(spec)
        bot.reset(11)
        first = bot.move(state)
        assert first in state.legal_action_ids(), spec
        bot.reset(11)
        assert bot.move(state) == first, spec  # reset with a seed: the same game again
        bot.close()
    before = state.to_json()
    CapiBot("greedy").move(state)
    assert state.to_json() == before  # a bot's move is not applied


# ----- the error contract


def test_last_error_is_empty_after_success_and_per_thread():
    assert lib.nc_game_load(b"no_such_game", None, byref(c_void_p())) == NC_INVALID_ARGUMENT
    message = last_error()
    assert message
    seen = []
    other = threading.Thread(target=lambda: seen.append(last_error()))
    other.start()
    other.join()
    assert seen == [""]  # the other thread has made no failing call
    assert last_error() == message  # until this thread's next call
    out = c_void_p()
    assert lib.nc_game_load(b"auf_die_nuesse", None, byref(out)) == NC_OK
    assert last_error() == ""
    lib.nc_game_free(out)


def test_last_error_is_cleared_by_every_successful_call():
    game = CapiGame("auf_die_nuesse")
    state = game.new_state()
    bot = CapiBot("greedy")
    engine = call_handle(lib.nc_engine_new, None)
    s, i, n = c_void_p(), c_int(), c_size_t()
    calls = [
        (lib.nc_list_games, (byref(s),)),
        (lib.nc_game_load, (b"ritter", b'{"players": 3}', byref(s))),
        (lib.nc_game_params, (game.handle, byref(s))),
        (lib.nc_game_num_players, (game.handle, byref(i))),
        (lib.nc_state_new, (game.handle, byref(s))),
        (lib.nc_state_clone, (state.handle, byref(s))),
        (lib.nc_state_to_json, (state.handle, byref(s))),
        (lib.nc_state_current_player, (state.handle, byref(i))),
        (lib.nc_state_status, (state.handle, byref(s))),
        (lib.nc_state_legal_actions, (state.handle, byref(s))),
        (lib.nc_state_legal_action_ids, (state.handle, None, 0, byref(n))),
        (lib.nc_state_action_string, (state.handle, state.legal_action_ids()[0], byref(s))),
        (lib.nc_state_string_to_action, (state.handle, state.legal_actions()[0]["action_string"].encode(), byref(i))),
        (lib.nc_state_sample_chance, (state.handle, 5, byref(i))),
        (lib.nc_state_observation_json, (state.handle, 1, byref(s))),
        (lib.nc_bot_new, (b"random", byref(s))),
        (lib.nc_bot_reset, (bot.handle, 3)),
        (lib.nc_engine_new, (None, byref(s))),
        (lib.nc_engine_send, (engine, b'{"cmd": "hello"}')),
        (lib.nc_engine_receive, (engine, 5000, byref(s))),
        (lib.nc_state_apply, (state.handle, state.legal_action_ids()[0])),
    ]
    frees = {
        "nc_game_load": lib.nc_game_free,
        "nc_state_new": lib.nc_state_free,
        "nc_state_clone": lib.nc_state_free,
        "nc_bot_new": lib.nc_bot_free,
        "nc_engine_new": lib.nc_engine_free,
    }
    for fn, args in calls:
        assert lib.nc_state_apply(state.handle, -1) == NC_INVALID_ARGUMENT and last_error()
        assert fn(*args) == NC_OK, (fn.__name__, last_error())
        assert last_error() == "", fn.__name__
        if fn.__name__ in frees:
            frees[fn.__name__](s)
        elif args and args[-1] is not None and s.value:
            lib.nc_free(s)
        s = c_void_p()
    lib.nc_engine_free(engine)


def test_independent_handles_on_threads_at_once():
    """Different handles from different threads at once (each state and bot on its own thread only):
    the same results as one after another, and each thread's own nc_last_error."""
    game = CapiGame("auf_die_nuesse")
    positions = []
    for seed in range(4):
        state = game.new_state()
        _to_decision(state, seed=10 * seed)
        positions.append(state.to_json_text())
        state.close()

    def handles(k: int) -> tuple:  # made on the main thread: the game handle is not shared
        bot = CapiBot("auto:iterations=100")
        bot.reset(k)
        return game.state_from_json(positions[k]), bot

    def work(k: int, state: CapiState, bot: CapiBot) -> tuple:
        result = state.best_move({"iterations": 200, "seed": k})
        failed = lib.nc_state_apply(state.handle, -1 - k)
        message = last_error()
        move = bot.move(state)
        return result["actions"], move, failed, message, last_error()

    sequential = [work(k, *handles(k)) for k in range(4)]
    made = [handles(k) for k in range(4)]
    results: dict = {}
    threads = [threading.Thread(target=lambda k=k: results.__setitem__(k, work(k, *made[k]))) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert [results.get(k) for k in range(4)] == sequential
    for _, _, failed, message, after in sequential:
        assert failed == NC_INVALID_ARGUMENT and message and after == ""


def test_null_handles():
    s = c_void_p()
    i = c_int()
    size = c_size_t()
    for fn, args in [
        (lib.nc_game_params, (None, byref(s))),
        (lib.nc_game_num_players, (None, byref(i))),
        (lib.nc_state_new, (None, byref(s))),
        (lib.nc_state_from_json, (None, b"{}", byref(s))),
        (lib.nc_state_clone, (None, byref(s))),
        (lib.nc_state_to_json, (None, byref(s))),
        (lib.nc_state_current_player, (None, byref(i))),
        (lib.nc_state_status, (None, byref(s))),
        (lib.nc_state_legal_actions, (None, byref(s))),
        (lib.nc_state_legal_action_ids, (None, None, 0, byref(size))),
        (lib.nc_state_action_string, (None, 0, byref(s))),
        (lib.nc_state_string_to_action, (None, b"x", byref(i))),
        (lib.nc_state_apply, (None, 0)),
        (lib.nc_state_sample_chance, (None, 1, byref(i))),
        (lib.nc_state_observation_json, (None, 0, byref(s))),
        (lib.nc_state_board, (None, 0, 1, byref(s))),
        (lib.nc_best_move, (None, None, None, byref(s))),
        (lib.nc_bot_reset, (None, 1)),
        (lib.nc_bot_move, (None, None, None, byref(i))),
        (lib.nc_stop_trigger, (None,)),
        (lib.nc_stop_reset, (None,)),
        (lib.nc_stop_triggered, (None, byref(i))),
        (lib.nc_engine_send, (None, b'{"cmd": "hello"}')),
        (lib.nc_engine_receive, (None, 0, byref(s))),
    ]:
        _fails(NC_INVALID_HANDLE, fn, *args)
    assert s.value is None and i.value == 0 and size.value == 0  # out parameters untouched
    bot = CapiBot("greedy")
    _fails(NC_INVALID_HANDLE, lib.nc_bot_move, bot.handle, None, None, byref(i))
    for free in (
        lib.nc_game_free,
        lib.nc_state_free,
        lib.nc_bot_free,
        lib.nc_engine_free,
        lib.nc_stop_free,
        lib.nc_free,
    ):
        free(None)  # ignored


def test_null_values():
    state = CapiGame("auf_die_nuesse").new_state()
    i = c_int(SENTINEL)
    _fails(NC_INVALID_ARGUMENT, lib.nc_game_load, None, None, byref(c_void_p()))
    ritter = CapiGame("ritter")  # held: a temporary's handle would be freed before the call
    _fails(NC_INVALID_ARGUMENT, lib.nc_state_from_json, ritter.handle, None, byref(c_void_p()))
    _fails(NC_INVALID_ARGUMENT, lib.nc_state_string_to_action, state.handle, None, byref(i))
    _fails(NC_INVALID_ARGUMENT, lib.nc_bot_new, None, byref(c_void_p()))
    # NULL out parameters
    _fails(NC_INVALID_ARGUMENT, lib.nc_state_to_json, state.handle, None)
    _fails(NC_INVALID_ARGUMENT, lib.nc_state_current_player, state.handle, None)
    _fails(NC_INVALID_ARGUMENT, lib.nc_state_legal_action_ids, state.handle, None, 0, None)
    _fails(NC_INVALID_ARGUMENT, lib.nc_game_load, b"ritter", None, None)
    _fails(NC_INVALID_ARGUMENT, lib.nc_list_games, None)
    _fails(NC_INVALID_ARGUMENT, lib.nc_state_new, ritter.handle, None)
    _fails(NC_INVALID_ARGUMENT, lib.nc_game_num_players, ritter.handle, None)
    _fails(NC_INVALID_ARGUMENT, lib.nc_state_observation_json, state.handle, 0, None)
    _fails(NC_INVALID_ARGUMENT, lib.nc_state_board, state.handle, 0, 1, None)
    _fails(NC_INVALID_ARGUMENT, lib.nc_best_move, state.handle, None, None, None)
    _fails(NC_INVALID_ARGUMENT, lib.nc_bot_new, b"greedy", None)
    _fails(NC_INVALID_ARGUMENT, lib.nc_engine_new, None, None)
    count = c_size_t(SENTINEL)
    _fails(NC_INVALID_ARGUMENT, lib.nc_state_legal_action_ids, state.handle, None, 5, byref(count))  # no buffer
    assert count.value == SENTINEL
    engine = call_handle(lib.nc_engine_new, None)
    _fails(NC_INVALID_ARGUMENT, lib.nc_engine_send, engine, None)
    _fails(NC_INVALID_ARGUMENT, lib.nc_engine_receive, engine, 0, None)
    lib.nc_engine_free(engine)
    assert i.value == SENTINEL


def test_freed_and_foreign_handles():
    game = CapiGame("auf_die_nuesse")
    state = game.new_state()
    bot = CapiBot("greedy")
    s = c_void_p(SENTINEL)
    i = c_int(SENTINEL)
    # a handle of another kind
    _fails(NC_INVALID_HANDLE, lib.nc_state_to_json, game.handle, byref(s))
    _fails(NC_INVALID_HANDLE, lib.nc_state_apply, bot.handle, 0)
    _fails(NC_INVALID_HANDLE, lib.nc_game_params, state.handle, byref(s))
    _fails(NC_INVALID_HANDLE, lib.nc_state_new, state.handle, byref(s))
    _fails(NC_INVALID_HANDLE, lib.nc_bot_move, state.handle, state.handle, None, byref(i))
    _fails(NC_INVALID_HANDLE, lib.nc_bot_move, bot.handle, game.handle, None, byref(i))
    _fails(NC_INVALID_HANDLE, lib.nc_engine_send, state.handle, b'{"cmd": "hello"}')
    # never made by the library: memory of this process, and an address nobody owns
    foreign = ctypes.create_string_buffer(256)
    _fails(NC_INVALID_HANDLE, lib.nc_state_to_json, ctypes.addressof(foreign), byref(s))
    _fails(NC_INVALID_HANDLE, lib.nc_game_num_players, 0x10, byref(i))
    # freed
    raw_state, raw_game, raw_bot = state.handle, game.handle, bot.handle
    state.close()
    _fails(NC_INVALID_HANDLE, lib.nc_state_to_json, raw_state, byref(s))
    _fails(NC_INVALID_HANDLE, lib.nc_state_apply, raw_state, 0)
    _fails(NC_INVALID_HANDLE, lib.nc_state_current_player, raw_state, byref(i))
    game.close()
    _fails(NC_INVALID_HANDLE, lib.nc_state_new, raw_game, byref(s))
    bot.close()
    _fails(NC_INVALID_HANDLE, lib.nc_bot_reset, raw_bot, 1)
    engine = c_void_p()
    assert lib.nc_engine_new(None, byref(engine)) == NC_OK
    raw_engine = engine.value
    lib.nc_engine_free(raw_engine)
    _fails(NC_INVALID_HANDLE, lib.nc_engine_send, raw_engine, b'{"cmd": "hello"}')
    _fails(NC_INVALID_HANDLE, lib.nc_engine_receive, raw_engine, 0, byref(s))
    assert s.value == SENTINEL and i.value == SENTINEL
    # freeing twice (and freeing a foreign pointer) is ignored
    lib.nc_state_free(raw_state)
    lib.nc_game_free(raw_game)
    lib.nc_bot_free(raw_bot)
    lib.nc_engine_free(raw_engine)
    lib.nc_state_free(ctypes.addressof(foreign))
    state.close()  # and the wrapper's close is idempotent
    assert CapiGame("ritter").num_players() == 2  # the library lives on


@pytest.mark.parametrize("name", GAMES)
def test_illegal_actions_change_nothing(name):
    state = CapiGame(name).new_state()
    bot = CapiBot("greedy")
    bot.reset(2)
    for step in range(30):
        player = state.current_player()
        if player == NC_TERMINAL:
            break
        legal = set(state.legal_action_ids())
        before = state.to_json_text()
        for bad in (-1, -(2**31), 2**31 - 1, max(legal) + 1000, *sorted(set(range(max(legal) + 2)) - legal)[:3]):
            _fails(NC_INVALID_ARGUMENT, lib.nc_state_apply, state.handle, bad)
            assert state.to_json_text() == before, (step, bad)
        _fails(NC_INVALID_ARGUMENT, lib.nc_state_string_to_action, state.handle, b"no such move", byref(c_int()))
        _fails(NC_INVALID_ARGUMENT, lib.nc_state_string_to_action, state.handle, b"\xff\xfe", byref(c_int()))
        _fails(NC_INVALID_ARGUMENT, lib.nc_state_action_string, state.handle, -1, byref(c_void_p()))
        state.apply(state.sample_chance(step) if player == NC_CHANCE else bot.move(state))
    end = _terminal_state()
    before = end.to_json_text()
    _fails(NC_INVALID_ARGUMENT, lib.nc_state_apply, end.handle, 0)
    assert end.to_json_text() == before


BAD_JSON = [
    b"{",
    b"{players: 2}",
    b'{"players": 2,}',
    b'{"players": 2} extra',
    b'{"players": NaN}',
    b'{"players": Infinity}',
    b'{"players": 1e999}',
    b'{"players": "\xff"}',  # not UTF-8
    b'\xef\xbb{"players": 2}',
    b'{"players": 2, "players": 3}',  # a key given twice (the protocol's strict JSON)
    b"[" * 100_000 + b"]" * 100_000,
    b'{"players": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    b'{"players": ' + b'{"a": ' * 100_000 + b"1" + b"}" * 100_001,
]


def test_bad_params():
    out = c_void_p(SENTINEL)
    for params in [
        *BAD_JSON,
        b"[1,2]",
        b'"players"',
        b"2",
        b"null",
        b'{"players": "2"}',
        b'{"players": true}',
        b'{"players": 2.5}',
        b'{"players": 1}',
        b'{"players": 5}',
        b'{"players": 18446744073709551618}',
        b'{"no_such_param": 1}',
        b'{"players": 2, "pad": "' + b"x" * 10_000_000 + b'"}',  # 10 MB
        b'{"players": [' + b"0," * 5_000_000 + b"0]}",  # 10 MB
    ]:
        _fails(NC_INVALID_ARGUMENT, lib.nc_game_load, b"auf_die_nuesse", params, byref(out))
    for name in (b"", b"no_such_game", b"\xff", b"auf_die_nuesse ", b"AUF_DIE_NUESSE"):
        _fails(NC_INVALID_ARGUMENT, lib.nc_game_load, name, None, byref(out))
    assert out.value == SENTINEL


def test_bad_positions():
    game = CapiGame("auf_die_nuesse")
    good = game.new_state().to_json()
    out = c_void_p(SENTINEL)
    for position in [
        *BAD_JSON,
        b"[]",
        b"{}",
        json.dumps({**good, "game": "ritter"}).encode(),
        json.dumps({**good, "players": 3}).encode(),
        json.dumps({**good, "supply": "x"}).encode(),
        json.dumps({**good, "turn": -5}).encode(),
        json.dumps({**good, "extra": 1}).encode(),
        json.dumps({**good, "pad": "x" * 10_000_000}).encode(),  # 10 MB
        json.dumps(good).encode()[:-1],
    ]:
        _fails(NC_INVALID_ARGUMENT, lib.nc_state_from_json, game.handle, position, byref(out))
    assert out.value == SENTINEL
    assert game.state_from_json(good).to_json() == good


def test_bad_requests_and_wrong_order():
    state = CapiGame("auf_die_nuesse").new_state()
    greedy = CapiBot("greedy")  # held: a temporary's handle would be freed before the call
    out = c_void_p(SENTINEL)
    i = c_int(SENTINEL)
    # at a chance node: no search, no bot move
    assert state.current_player() == NC_CHANCE
    _fails(NC_INVALID_ARGUMENT, lib.nc_best_move, state.handle, b'{"iterations": 50}', None, byref(out))
    _fails(NC_INVALID_ARGUMENT, lib.nc_bot_move, greedy.handle, state.handle, None, byref(i))
    _to_decision(state, seed=8)
    before = state.to_json_text()
    # at a decision node: no chance to sample
    _fails(NC_INVALID_ARGUMENT, lib.nc_state_sample_chance, state.handle, 1, byref(i))
    for request in [
        *BAD_JSON,
        b"[1,2]",
        b'{"iterations": "x"}',
        b'{"iterations": 0}',
        b'{"iterations": -1}',
        b'{"iterations": true}',
        b'{"iterations": 1.5}',
        b'{"iterations": 18446744073709551616}',
        b'{"time_limit": -1}',
        b'{"time_limit": "1"}',
        b'{"threads": 0}',
        b'{"seed": -1}',
        b'{"seed": 18446744073709551616}',
        b'{"algorithm": "no_such_algorithm"}',
        b'{"algorithm": "ismcts"}',  # not offered for a game of perfect information
        b'{"iteration": 50}',  # a misspelt field
        b'{"iterations": 50, "exploration": "wide"}',
        b'{"iterations": 50, "pad": "' + b"x" * 10_000_000 + b'"}',  # 10 MB
    ]:
        _fails(NC_INVALID_ARGUMENT, lib.nc_best_move, state.handle, request, None, byref(out))
    assert state.to_json_text() == before
    for spec in (b"", b"no_such_bot", b"\xff", b"auto:iterations=0", b"level:12", b"greedy:memory=x", b"mcts:,"):
        _fails(NC_INVALID_ARGUMENT, lib.nc_bot_new, spec, byref(out))
    for seat in (-1, 2, 1000):
        _fails(NC_INVALID_ARGUMENT, lib.nc_state_observation_json, state.handle, seat, byref(out))
    for seat in (-2, 2, 1000):  # -1 is NC_NO_SEAT
        _fails(NC_INVALID_ARGUMENT, lib.nc_state_board, state.handle, seat, 1, byref(out))
    # at the end of the game
    end = _terminal_state()
    _fails(NC_INVALID_ARGUMENT, lib.nc_best_move, end.handle, b'{"iterations": 50}', None, byref(out))
    _fails(NC_INVALID_ARGUMENT, lib.nc_state_sample_chance, end.handle, 1, byref(i))
    _fails(NC_INVALID_ARGUMENT, lib.nc_bot_move, greedy.handle, end.handle, None, byref(i))
    assert out.value == SENTINEL and i.value == SENTINEL
    assert state.best_move({"iterations": 50, "seed": 1})["action"] in state.legal_action_ids()


def test_sample_chance_follows_the_probabilities():
    state = _chance_state("auf_die_nuesse")
    outcomes = {m["action"]: m["probability"] for m in state.legal_actions()}
    assert len(outcomes) >= 2 and sum(outcomes.values()) == pytest.approx(1)
    draws = [state.sample_chance(seed) for seed in range(2000)]
    assert set(draws) <= set(outcomes)
    assert [state.sample_chance(seed) for seed in range(50)] == draws[:50]  # a seed, the same draw
    for action, p in outcomes.items():
        assert draws.count(action) / len(draws) == pytest.approx(p, abs=0.06)


@pytest.mark.parametrize("name", GAMES)
def test_random_playouts_are_the_python_packages(name):
    """nc_state_random_playouts from the start and from a later position: the transitions that the
    package's random_playouts counts, game by game the same generators."""
    game = nutcore.load_game(name, players=2)
    state = CapiGame(name, {"players": 2}).new_state()
    assert state.random_playouts(30, 7) == int(game.random_playouts(30, seed=7)[1].sum())
    assert state.random_playouts(0, 7) == 0
    _to_decision(state, seed=4)
    here = game.state_from_json(state.to_json())
    assert state.random_playouts(20, 3) == int(game.random_playouts(20, seed=3, state=here)[1].sum())
    out = ctypes.c_int64(SENTINEL)
    _fails(NC_INVALID_ARGUMENT, lib.nc_state_random_playouts, state.handle, -1, 1, None, byref(out))
    _fails(NC_INVALID_ARGUMENT, lib.nc_state_random_playouts, state.handle, 1, 1, None, None)
    assert out.value == SENTINEL


# ----- the engine handle, directly


def _engine(limits=None) -> int:
    return call_handle(lib.nc_engine_new, limits)


def _receive(engine: int, timeout_ms: int = 20_000) -> tuple[int, dict | None]:
    out = c_void_p()
    status = lib.nc_engine_receive(engine, timeout_ms, byref(out))
    if status != NC_OK:
        return status, None
    try:
        return status, json.loads(ctypes.string_at(out.value))
    finally:
        lib.nc_free(out)


def _reply(engine: int, rid) -> dict:
    while True:
        status, reply = _receive(engine)
        assert status == NC_OK, (status, last_error())
        if reply.get("id") == rid and reply["type"] != "info":
            return reply


def test_engine_bad_limits():
    out = c_void_p(SENTINEL)
    for limits in [
        *BAD_JSON,
        b"[1]",
        b'{"iterations": "x"}',
        b'{"iterations": 0}',
        b'{"threads": -1}',
        b'{"file_params": 1}',
        b'{"no_such_limit": 1}',
    ]:
        _fails(NC_INVALID_ARGUMENT, lib.nc_engine_new, limits, byref(out))
    assert out.value == SENTINEL


def test_engine_handle():
    for default in (None, b""):
        engine = _engine(default)
        out = c_void_p(SENTINEL)
        assert _status_of(lib.nc_engine_receive, engine, 0, byref(out)) == NC_TIMEOUT
        assert out.value == SENTINEL
        start = time.monotonic()
        assert lib.nc_engine_receive(engine, 100, byref(out)) == NC_TIMEOUT
        assert 0.05 < time.monotonic() - start < 5
        assert lib.nc_engine_send(engine, b'{"cmd": "hello", "id": 1}\n') == NC_OK
        hello = _reply(engine, 1)
        assert hello["type"] == "hello" and hello["protocol"] == 1 and hello["version"] == nutcore.__version__
        assert lib.nc_engine_send(engine, b'{"cmd": "hello", "id": 2}') == NC_OK  # the newline is optional
        assert _receive(engine, -1)[1]["id"] == 2
        assert lib.nc_engine_send(engine, b"not json") == NC_OK
        assert _receive(engine)[1]["error"] == "bad_json"
        # by default no file is read for a client
        request = {"cmd": "new_game", "game": "nutz", "seat": None, "id": 3, "params": {"cards": "/etc/hostname"}}
        assert lib.nc_engine_send(engine, json.dumps(request).encode()) == NC_OK
        assert _reply(engine, 3)["error"] == "bad_request"
        assert lib.nc_engine_send(engine, b'{"cmd": "quit", "id": "q"}') == NC_OK
        assert _reply(engine, "q") == {"type": "quit", "id": "q"}
        assert _status_of(lib.nc_engine_receive, engine, 0, byref(out)) == NC_CLOSED
        assert lib.nc_engine_receive(engine, 1000, byref(out)) == NC_CLOSED
        assert lib.nc_engine_receive(engine, -1, byref(out)) == NC_CLOSED
        assert out.value == SENTINEL
        lib.nc_engine_free(engine)


def test_engine_send_is_one_line():
    """One nc_engine_send is one line, never split at a newline: two requests in one send get one
    reply, bad_json saying why, and neither runs; a request written over several lines is one."""
    engine = _engine()
    for send in (
        lambda text: lib.nc_engine_send(engine, text),
        lambda text: lib.nc_engine_send_bytes(engine, text, len(text)),
    ):
        assert send(b'{"cmd": "hello", "id": 1}\n{"cmd": "hello", "id": 2}\n') == NC_OK
        status, reply = _receive(engine)
        assert status == NC_OK and reply["type"] == "error" and reply["error"] == "bad_json", reply
        assert "newline" in reply["message"] and "id" not in reply
        assert _receive(engine, 0)[0] == NC_TIMEOUT  # the one reply: neither hello ran
        assert send(b'{"cmd": "hello",\n "id": 3}\r\n') == NC_OK
        assert _receive(engine)[1]["type"] == "hello"
        assert _receive(engine, 0)[0] == NC_TIMEOUT
    lib.nc_engine_free(engine)


def test_engine_limits_hold():
    engine = _engine(b'{"iterations": 100}')
    lib.nc_engine_send(engine, b'{"cmd": "new_game", "game": "purzelbaum", "seed": 1, "id": 1}')
    assert _reply(engine, 1)["type"] == "new_game"
    lib.nc_engine_send(engine, b'{"cmd": "best_move", "iterations": 1000, "id": 2}')
    refused = _reply(engine, 2)
    assert refused["type"] == "error" and refused["error"] == "bad_request" and "at most" in refused["message"]
    lib.nc_engine_send(engine, b'{"cmd": "best_move", "iterations": 100, "seed": 1, "id": 3}')
    assert _reply(engine, 3)["type"] == "best_move"
    lib.nc_engine_free(engine)


def test_engine_free_stops_a_search_and_receive_waits_while_send_runs():
    engine = _engine()
    lib.nc_engine_send(engine, b'{"cmd": "new_game", "game": "purzelbaum", "seed": 1, "id": 1}')
    assert _reply(engine, 1)["type"] == "new_game"
    got = []
    reader = threading.Thread(target=lambda: got.append(_receive(engine, 20_000)))
    reader.start()  # receive waits on one thread while another sends
    time.sleep(0.05)
    lib.nc_engine_send(engine, b'{"cmd": "best_move", "time_limit": 600, "id": "long"}')
    reader.join(20)
    assert got and got[0][0] == NC_OK and got[0][1]["id"] == "long"
    start = time.monotonic()
    lib.nc_engine_free(engine)  # stops the running search and waits for it
    assert time.monotonic() - start < 20  # loose (a shared machine): not the search's 600 s


def test_engine_receive_after_quit_with_replies_pending():
    engine = _engine()
    for rid in range(5):
        lib.nc_engine_send(engine, json.dumps({"cmd": "hello", "id": rid}).encode())
    lib.nc_engine_send(engine, b'{"cmd": "quit", "id": "q"}')
    ids = []
    while True:
        status, reply = _receive(engine, 5000)
        if status == NC_CLOSED:
            break
        assert status == NC_OK
        ids.append(reply["id"])
    assert ids == [0, 1, 2, 3, 4, "q"]  # every reply is taken before NC_CLOSED
    lib.nc_engine_free(engine)


def test_errors_never_raise_past_the_wrapper():
    with pytest.raises(CapiError) as info:
        CapiGame("no_such_game")
    assert info.value.status == NC_INVALID_ARGUMENT and info.value.message
    state = CapiGame("ritter").new_state()
    with pytest.raises(CapiError) as info:
        state.apply(-3)
    assert info.value.status == NC_INVALID_ARGUMENT
    state.close()
    with pytest.raises(CapiError) as info:
        state.to_json()
    assert info.value.status == NC_INVALID_HANDLE


def test_capi_engine_transport():
    from capi_client import CapiEngine

    engine = CapiEngine("--limits", '{"iterations": 500}')
    try:
        assert engine.ask(cmd="hello")["protocol"] == 1
        engine.write(b'{"cmd": "hello", "id": "a"}\n\n{"cmd": "status", "id": "b"}\n')
        assert [engine.get()["id"] for _ in range(2)] == ["a", "b"]
        assert engine.ask(cmd="new_game", game="purzelbaum", seed=1)["type"] == "new_game"
        assert engine.ask(cmd="best_move", iterations=501)["error"] == "bad_request"  # the limits hold
        assert engine.ask(cmd="quit", id="q") == {"type": "quit", "id": "q"}
        engine._reader.join(5)
        assert not engine._reader.is_alive() and engine.closed_by_engine  # NC_CLOSED ended the reader
        assert engine.finish() == (0, "")
        assert engine.garbage == [] and all(line.startswith(b"{") for line in engine.raw_lines)
    finally:
        engine.close()
        engine.close()
