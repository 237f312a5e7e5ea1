"""The engine protocol (docs/engine-protocol.md), driven as a client drives it, on every door to the
one C++ engine (tests/helpers/protocol.py's TRANSPORTS: the Python binding, `nutcore engine`, the
nutcore-engine binary, the C ABI, the WebSocket of `nutcore serve`, the WebAssembly build through
its JavaScript API): whole games, searches with progress lines and stop, the hidden-information
rules (every reply is a function of what the seat knows, checked against a twin engine whose
truth differs in what the seat has not seen), undo, limits, and a fuzz of malformed lines. What no
client may see, the tests read through --test-hooks (_full_state, _replace_full_state, _reseed)."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path

import pytest
from protocol import PATIENCE, TRANSPORTS, connect, to_decision

import nutcore
from nutcore import engine as engine_module
from playing import random_step, winter_start

HIDDEN = [g for g in nutcore.list_games() if nutcore.load_game(g).hidden_information]

HOOKS = "--test-hooks"


@pytest.fixture(params=TRANSPORTS)
def transport(request):
    return request.param


@pytest.fixture
def proc(transport):
    p = connect(transport, HOOKS)
    yield p
    p.close()


def truth(client, new_game_reply: dict):
    """The engine's true position (the test hook), as a native state of the game it plays."""
    params = new_game_reply["params"]
    game = nutcore.load_game(new_game_reply["game"], **params)
    return game.state_from_json(client.ok(cmd="_full_state")["position"])


# ----- basics


def _doc_command_table() -> dict[str, set[str]]:
    """docs/engine-protocol.md's command table: each command's request fields, as the backquoted
    names of its "request fields" cell (JSON literals aside; `go`'s "the fields of `best_move`"
    read as those fields, less those it names after "except")."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "engine-protocol.md").read_text(encoding="utf-8")
    rows = doc.split("| command | request fields | answer |\n|---|---|---|\n", 1)[1].split("\n\n", 1)[0]
    table: dict[str, set[str]] = {}
    excepted: dict[str, set[str]] = {}
    for row in rows.splitlines():
        _, name, fields, _answer, _ = row.split("|")
        name = name.strip().strip("`")
        excepted[name] = set(re.findall(r"except `([a-z_]+)`", fields))
        table[name] = set(re.findall(r"`([a-z_]+)`", fields)) - {"null", "true", "false"} - excepted[name]
    for name, fields in table.items():
        for other in fields & set(table):
            table[name] = (fields - {other}) | (table[other] - excepted[name])
    return table


def test_the_protocol_doc_lists_the_engine_command_table():
    """The doc's table and hello's commands are the engine's one command table, fields and all."""
    engine_table = {name: set(fields) for name, fields in nutcore._core.engine_commands()}
    doc_table = _doc_command_table()
    assert doc_table == engine_table and list(doc_table) == list(engine_table)  # in hello's order too
    client = connect("python")
    try:
        assert client.ask(cmd="hello")["commands"] == [name for name, _ in nutcore._core.engine_commands()]
    finally:
        client.close()


def test_hello_and_list_games(proc):
    hello = proc.ask(cmd="hello", id="h")
    assert hello["type"] == "hello" and hello["id"] == "h"
    assert hello["protocol"] == engine_module.PROTOCOL_VERSION and hello["version"] == nutcore.__version__
    assert {"new_game", "apply", "chance", "best_move", "go", "stop", "quit"} <= set(hello["commands"])
    games = proc.ask(cmd="list_games")["games"]
    assert [g["name"] for g in games] == nutcore.list_games()
    for g in games:
        lo, hi = g["players"]["min"], g["players"]["max"]
        assert (lo, hi) == (2, 4)
        assert [p["players"] for p in g["default_params"]] == list(range(lo, hi + 1))
        assert g["default_params"][-1] == nutcore.load_game(g["name"], players=hi).params
        state = nutcore.load_game(g["name"]).new_initial_state()
        assert g["hidden_information"] == state.hidden_information
        assert g["algorithms"] == ["auto", *state.algorithms]
    assert proc.ask(cmd="quit", id="q") == {"type": "quit", "id": "q"}
    code, err = proc.finish()
    assert code == 0 and "Traceback" not in err


def test_list_games_offers_each_game_s_default_bot_example_bots_and_levels(proc):
    """What a front end offers comes from list_games (the page re-derives none of it): the bot the
    engine plays where a request names none, example bots of every algorithm the game has, and the
    levels as nutcore's levels API has them."""
    from nutcore import _core
    from nutcore.bots import NUM_LEVELS, level_settings

    assert NUM_LEVELS == _core.NUM_LEVELS
    for g in proc.ask(cmd="list_games")["games"]:
        name = g["name"]
        assert g["bots"][0] == g["default_bot"] and len(set(g["bots"])) == len(g["bots"])
        assert {"greedy", "random"} <= set(g["bots"])
        kinds = set()
        for spec in g["bots"]:
            parts = _core.parse_bot_spec(spec)
            assert parts["name"] == spec  # written canonically
            kinds.add(parts["kind"])
        assert kinds == {"greedy", "random", *g["algorithms"]}  # auto and every algorithm the game has
        assert [level["bot"] for level in g["levels"]] == [f"level:{n}" for n in range(1, NUM_LEVELS + 1)]
        for n, level in enumerate(g["levels"], 1):
            parts = _core.parse_bot_spec(level["plays"])
            options = {**parts["settings"], **{k: parts[k] for k in ("noise", "memory") if k in parts}}
            assert (parts["kind"], options) == level_settings(name, n), (name, n)
        # The default bot is what go plays without one: the same move and search from the same seed.
        played = []
        for fields in ({}, {"bot": g["default_bot"]}):
            proc.ok(cmd="new_game", game=name, players=2, seed=5, seat=None)
            to_decision(proc)
            reply = proc.ok(cmd="go", **fields)
            played.append((reply["move"], {k: v for k, v in reply["result"].items() if k != "elapsed"}))
        assert played[0] == played[1], name


def test_full_game_against_itself_and_replay(proc):
    """A whole Auf die Nüsse! game, the engine's bots on both seats; replaying its moves and chance
    outcomes by id (one apply) and by string reaches the same end; the same seed, the same game."""
    new = proc.ask(cmd="new_game", game="auf_die_nuesse", players=2, seed=11)
    assert new["seed"] == 11 and new["seat"] is None and not new["hidden_information"]
    moves, bots = [], ["greedy", "mcts:iterations=30"]
    status = new["status"]
    while not status["terminal"]:
        if status["chance"]:
            reply = proc.ask(cmd="chance")
            moves.append(reply["outcome"])
            assert 0 < reply["outcome"]["probability"] <= 1
        else:
            reply = proc.ask(cmd="go", bot=bots[status["current_player"]])
            assert reply["type"] == "go" and reply["player"] == status["current_player"] and not reply["hidden"]
            moves.append(reply["move"])
        status = reply["status"]
        assert len(moves) < 5000
    assert sum(status["returns"]) == pytest.approx(1) and status["scores"] is not None
    end = proc.ask(cmd="get_position")["position"]
    assert proc.ask(cmd="legal")["moves"] == []

    proc.ask(cmd="new_game", game="auf_die_nuesse", players=2, seed=99)
    replay = proc.ask(cmd="apply", moves=[m["action"] for m in moves])
    assert [m["action"] for m in replay["applied"]] == [m["action"] for m in moves]
    assert replay["status"] == status
    assert proc.ask(cmd="get_position")["position"] == end

    proc.ask(cmd="new_game", game="auf_die_nuesse", players=2, seed=5)
    assert proc.ask(cmd="apply", moves=[m["action_string"] for m in moves])["status"] == status
    assert proc.ask(cmd="get_position")["position"] == end
    code, _ = proc.finish()  # the end of input ends the engine
    assert code == 0


@pytest.mark.parametrize("name", ["ritter", "purzelbaum"])
def test_go_plays_levels_and_forgetful_bots(proc, name):
    # Levels and bots with imperfect memory or noise play as bots (not as a bare best_move).
    h = proc
    seat = {"seat": None} if nutcore.load_game(name).hidden_information else {}
    status = h.ok(cmd="new_game", game=name, players=2, seed=5, **seat)["status"]
    bots = ["level:1", "level:5", "greedy:memory=0.5,noise=0.2", "level:6"]
    moves = 0
    while not status["terminal"] and moves < 40:
        if status["chance"]:
            status = h.ok(cmd="chance")["status"]
            continue
        reply = h.ok(cmd="go", bot=bots[moves % len(bots)])
        assert reply["move"] is not None and reply["result"] is None
        status, moves = reply["status"], moves + 1
    assert moves == 40 or status["terminal"]
    assert h.ask(cmd="go", bot="level:12")["error"] == "bad_request"


@pytest.mark.parametrize("name", nutcore.list_games())
def test_every_game_plays_through_and_seeds_repeat(proc, name):
    def play(seed):
        h = proc
        players = 2
        seat = {"seat": None} if nutcore.load_game(name).hidden_information else {}
        status = h.ok(cmd="new_game", game=name, players=players, seed=seed, **seat)["status"]
        log = []
        while not status["terminal"]:
            reply = h.ok(cmd="chance") if status["chance"] else h.ok(cmd="go", bot="greedy")
            log.append(reply.get("outcome") or reply.get("move"))
            status = reply["status"]
        board = h.ok(cmd="board")
        assert board["text"] and board["json"]["players"] == players
        return log, status

    first = play(3)
    assert first == play(3)
    assert first != play(4)


# ----- searches


def test_best_move_progress_lines_and_stop(proc):
    proc.ask(cmd="new_game", game="auf_die_nuesse", seed=2)
    while proc.ask(cmd="status")["status"]["chance"]:
        proc.ask(cmd="chance")
    legal = {m["action"] for m in proc.ask(cmd="legal")["moves"]}
    proc.send(cmd="best_move", id="think", time_limit=60, threads=1)
    lines, infos = [], []
    while len(infos) < 3:  # three with the search's figures (on a loaded machine the first may have none yet)
        line = proc.get()
        assert line["type"] == "info" and len(lines) < 200, line
        lines.append(line)
        if "iterations" in line:
            infos.append(line)
    assert all(i["id"] == "think" and set(i) >= {"type", "id", "command", "elapsed", "budget"} for i in lines)
    assert all(i["command"] == "best_move" and i["budget"] == {"iterations": None, "time_limit": 60} for i in lines)
    elapsed = [i["elapsed"] for i in lines]
    # Every 0.25 s: the lower bounds are the engine's; upper ones would time the machine, not the engine.
    assert elapsed == sorted(elapsed) and elapsed[0] > 0.2 and all(b - a > 0.15 for a, b in zip(elapsed, elapsed[1:]))
    # The search so far, live: growing iterations, every legal move with its visits.
    counts = [i["iterations"] for i in infos]
    assert counts == sorted(counts) and counts[0] > 0 and counts[-1] > counts[0]
    for i in infos:
        assert {a["action"] for a in i["actions"]} == legal
        assert sum(a["visits"] for a in i["actions"]) <= i["iterations"]
        assert all(set(a) == {"action", "action_string", "visits", "value"} for a in i["actions"])
    # The engine keeps reading: reads are answered, a second search and state changes are refused.
    assert proc.ask(cmd="second", id="x")["error"] == "unknown_command"
    assert proc.ask(cmd="best_move", iterations=10)["error"] == "busy"
    assert proc.ask(cmd="apply", moves=[sorted(legal)[0]])["error"] == "busy"
    assert proc.ask(cmd="status")["status"]["searching"] is True
    assert {m["action"] for m in proc.ask(cmd="legal")["moves"]} == legal
    stopped_at = time.monotonic()
    assert proc.ask(cmd="stop", id="s") == {"type": "stop", "id": "s", "searching": True}
    result = None
    while result is None:
        line = proc.get(timeout=5)
        if line["type"] == "best_move":
            result = line
    assert time.monotonic() - stopped_at < PATIENCE  # not its 60 s: the stop ended it
    assert result["id"] == "think" and result["stopped"] is True
    r = result["result"]
    assert r["stopped"] and r["action"] in legal and r["iterations"] > 0
    assert sum(a["visits"] for a in r["actions"]) > 0 and {a["action"] for a in r["actions"]} == legal
    # The slot is free again; stop with nothing running says so.
    quick = proc.ask(cmd="best_move", iterations=50, seed=1)
    assert quick["type"] == "best_move" and not quick["stopped"] and quick["result"]["iterations"] == 50
    assert proc.ask(cmd="stop")["searching"] is False
    assert proc.ask(cmd="status")["status"]["searching"] is False


def test_quit_and_end_of_input_during_a_search(proc, transport):
    proc.ask(cmd="new_game", game="auf_die_nuesse", seed=2)
    while proc.ask(cmd="status")["status"]["chance"]:
        proc.ask(cmd="chance")
    proc.send(cmd="best_move", id="long", time_limit=600)
    assert proc.get()["type"] == "info"  # it is under way
    proc.send(cmd="quit", id="q")
    replies = []
    while not replies or replies[-1]["type"] != "quit":
        replies.append(proc.get(timeout=5))
    kinds = [r["type"] for r in replies if r["type"] != "info"]
    assert kinds == ["best_move", "quit"]  # the search answers first, then quit
    code, err = proc.finish()
    assert code == 0 and "Traceback" not in err

    p = connect(transport)  # the end of input in the middle of a search ends the engine promptly
    p.ask(cmd="new_game", game="auf_die_nuesse", seed=2)
    while p.ask(cmd="status")["status"]["chance"]:
        p.ask(cmd="chance")
    p.send(cmd="best_move", time_limit=600)
    start = time.monotonic()
    code, err = p.finish(timeout=5)
    assert code == 0 and time.monotonic() - start < PATIENCE and "Traceback" not in err  # not its 600 s


def _same_answer(a: dict, b: dict) -> bool:
    return all(a[key] == b[key] for key in ("action", "value", "actions"))


def test_stopping_expectimax_answers_its_last_complete_depth(proc):
    h = proc
    h.ok(cmd="new_game", game="auf_die_nuesse", seed=4)
    to_decision(h)
    h.send(cmd="best_move", id="deep", algorithm="expectimax", options={"depth": 40})
    time.sleep(0.3)
    h.send(cmd="stop", id="stop")
    replies = h.final_replies(["deep", "stop"], timeout=5)
    assert replies["stop"]["searching"] is True
    deep = replies["deep"]
    assert (deep["type"], deep["stopped"]) == ("best_move", True), deep
    r = deep["result"]
    assert r["stopped"] is True and r["complete"] is False and 1 <= r["depth"] < r["max_depth"] == 40
    fixed = h.ok(cmd="best_move", algorithm="expectimax", options={"depth": r["depth"]})
    assert fixed["stopped"] is False and _same_answer(fixed["result"], r)


def test_exact_searches_take_a_time_limit(proc):
    h = proc
    h.ok(cmd="new_game", game="auf_die_nuesse", seed=4)
    to_decision(h)
    start = time.monotonic()
    reply = h.ok(cmd="best_move", algorithm="expectimax", time_limit=0.2, options={"depth": 30})
    assert time.monotonic() - start < 20  # loose (a shared machine); depth 30 alone would take years
    r = reply["result"]
    assert reply["stopped"] is False and r["stopped"] is False and r["complete"] is False
    assert 1 <= r["depth"] < r["max_depth"] == 30
    assert _same_answer(h.ok(cmd="best_move", algorithm="expectimax", options={"depth": r["depth"]})["result"], r)
    assert h.ok(cmd="best_move", algorithm="expectimax", time_limit=0.2)["result"]["max_depth"] == 64
    for bad in ({"iterations": 10}, {"threads": 2}):
        err = h.ask(cmd="best_move", algorithm="expectimax", time_limit=1, **bad)
        assert err["error"] == "bad_request" and "takes no iterations or threads" in err["message"], err
    # A bot's time limit: played as best_move (its result shown), or as a bot (noise).
    go = h.ok(cmd="go", bot="expectimax:depth=30,time_limit=0.2")
    assert go["result"]["complete"] is False and go["result"]["depth"] >= 1
    to_decision(h)
    assert h.ok(cmd="go", bot="expectimax:depth=30,time_limit=0.2,noise=0.01")["move"] is not None
    # The solver: a Purzelbaum winter (15,118 positions) solved within a minute, not within 1 µs.
    winter = winter_start()
    h.ok(cmd="new_game", game="purzelbaum", players=2)
    h.ok(cmd="set_position", position=winter.to_json())
    solved = h.ok(cmd="best_move", algorithm="solver", time_limit=60)["result"]
    assert solved["action"] == nutcore.solve(winter).action
    err = h.ask(cmd="best_move", algorithm="solver", time_limit=1e-6)
    assert (err["type"], err["error"], err["command"]) == ("error", "stopped", "best_move")
    assert h.ok(cmd="best_move", time_limit=1e-6)["result"]["algorithm"] == "solver"  # "auto" takes no limit there


def test_go_plays_the_search_and_its_options(proc):
    h = proc
    h.ok(cmd="new_game", game="auf_die_nuesse", seed=4)
    status = to_decision(h)
    before = {m["action"] for m in h.ok(cmd="legal")["moves"]}
    reply = h.ok(cmd="go", algorithm="mcts", iterations=40, options={"exploration": 0.5})
    assert reply["player"] == status["current_player"] and reply["move"]["action"] in before
    assert h.ask(cmd="go", bot="greedy", iterations=5)["error"] == "bad_request"
    # The search's statistics come with the move; the greedy bot has none.
    assert reply["result"]["action"] == reply["move"]["action"] and reply["result"]["iterations"] == 40
    to_decision(h)
    assert h.ok(cmd="go", bot="greedy")["result"] is None
    assert h.ask(cmd="go", bot="warp")["error"] == "bad_request"


def test_go_with_a_bot_that_does_not_search_answers_at_once(proc):
    """greedy and random answer go as they are asked, like any command that needs no search: a
    request right behind it finds the engine idle (on the old engine they ran on a search thread,
    and the request behind got busy), and nothing stops them half way."""
    h = proc
    for bot, game in [("greedy", "auf_die_nuesse"), ("random", "ritter"), ("level:1", "purzelbaum")]:
        h.ok(cmd="new_game", game=game, seed=5, seat=None)
        for step in range(12):
            if to_decision(h)["terminal"]:
                break
            go, after = f"go-{bot}-{step}", f"after-{bot}-{step}"
            h.send(cmd="go", bot=bot, id=go)
            h.send(cmd="undo", id=after)  # refused as busy while a search runs
            replies = h.final_replies([go, after])
            assert replies[go]["type"] == "go" and replies[go]["stopped"] is False, replies
            assert replies[after]["error"] == "not_now", replies  # nothing of its own to undo: idle


# ----- hidden information


def _strip(reply: dict) -> dict:
    """A reply without what legitimately differs between two runs: ids and timings, and the shouts
    a Ritter card's resolution makes public (the twin's truth holds other open shouts, and the
    view forgets them when the turn ends: test_information checks them against the truth)."""
    out = {k: v for k, v in reply.items() if k not in ("id", "elapsed")}
    if isinstance(out.get("result"), dict):
        out["result"] = {k: v for k, v in out["result"].items() if k != "elapsed"}
    for key in ("move", "outcome"):
        if isinstance(out.get(key), dict):
            out[key] = {**out[key], "action_string": out[key]["action_string"].partition("; shouts: ")[0]}
    if isinstance(out.get("applied"), list):
        out["applied"] = [{**m, "action_string": m["action_string"].partition("; shouts: ")[0]} for m in out["applied"]]
    return out


class _Twin:
    """A second engine for the same seat, whose truth is, before every compared request, a world
    the seat cannot tell from the first engine's, with the same generator state on both."""

    def __init__(self, h, new: dict, seat: int, rng: random.Random, connect_twin):
        self.h, self.new, self.seat, self.rng = h, new, seat, rng
        self.twin = connect_twin()
        params = {k: v for k, v in new["params"].items() if k != "players"}
        self.twin.ok(cmd="new_game", game=new["game"], players=new["players"], seat=seat, seed=0, params=params)

    def prepare(self) -> None:
        state = truth(self.h, self.new)
        for _ in range(20):
            world = state.resample_from_infostate(self.seat, self.rng.getrandbits(62))
            # Loading resolves a chance node with one outcome at once; such a world is of no use here.
            self.twin.ok(cmd="_replace_full_state", position=world.to_json())
            if self.view(self.twin) == state.information_state_string(self.seat):
                seed = self.rng.getrandbits(64)
                self.h.ok(cmd="_reseed", seed=seed)
                self.twin.ok(cmd="_reseed", seed=seed)
                return
        raise AssertionError("no world the seat cannot tell apart")

    def view(self, client) -> str:
        return truth(client, self.new).information_state_string(self.seat)


def _hidden_game(
    connect_one, name: str, players: int, seat: int, seed: int
) -> tuple[int, list[tuple[dict, dict, dict]]]:
    """Plays a whole game on one connection for `seat` (its own moves by best_move + apply, the
    other seats by go, chance by the engine) and sends every request also to a twin engine whose
    true state differs in what the seat has not seen. Returns the number of compared replies and
    the differences: a request that changes nothing must get the same reply from both; one that
    moves must get the same reply whenever the seat's views afterwards agree."""
    h = connect_one()
    new = h.ok(cmd="new_game", game=name, players=players, seat=seat, seed=seed)
    status = new["status"]
    rng = random.Random(seed)
    twin = _Twin(h, new, seat, rng, connect_one)
    compared, diffs = 0, []

    def both(msg: dict, moves: bool) -> dict:
        nonlocal compared
        twin.prepare()
        a, b = h.ask(**msg), twin.twin.ask(**msg)
        if moves and twin.view(h) != twin.view(twin.twin):
            return a
        compared += 1
        if _strip(a) != _strip(b):
            diffs.append((msg, a, b))
        return a

    steps = 0
    while not status["terminal"]:
        steps += 1
        assert steps < 3000
        for read in ({"cmd": "legal"}, {"cmd": "board"}, {"cmd": "status"}, {"cmd": "get_position"}):
            both(read, moves=False)
        if status["chance"]:
            reply = both({"cmd": "chance"}, moves=True)
        elif status["current_player"] == seat:
            best = both({"cmd": "best_move", "iterations": 40, "seed": steps}, moves=False)
            reply = both({"cmd": "apply", "moves": [best["result"]["action_string"]]}, moves=True)
        else:
            assert h.ask(cmd="best_move", iterations=10)["error"] == "hidden"
            reply = both({"cmd": "go", "bot": "greedy" if steps % 2 else "ismcts:iterations=20"}, moves=True)
        assert reply["type"] != "error", reply
        status = reply["status"]
    assert h.ask(cmd="get_position")["error"] == "hidden"  # even at the end (cards discarded unseen)
    assert status["returns"] == truth(h, new).returns()  # the result is announced
    h.close()
    twin.twin.close()
    return compared, diffs


@pytest.mark.parametrize("name", HIDDEN)
def test_hidden_information_replies_depend_only_on_the_seat_view(transport, name):
    compared, diffs = _hidden_game(lambda: connect(transport, HOOKS), name, 3, seat=1, seed=7)
    assert compared > 300
    assert not diffs, diffs[0]


class _Leaky:
    """A door that tells more than the seat's view: every reply gains what `leak` makes of the
    engine's truth. The twin check must catch it."""

    def __init__(self, client, leak):
        self.client, self.leak, self.new = client, leak, None

    def __getattr__(self, name):
        return getattr(self.client, name)

    def ask(self, **msg):
        reply = self.client.ask(**msg)
        if msg["cmd"] == "new_game":
            self.new = reply
        elif self.new is not None and not msg["cmd"].startswith("_") and reply["type"] != "error":
            reply = {**reply, "leak": self.leak(truth(self.client, self.new))}
        return reply

    def ok(self, **msg):
        reply = self.ask(**msg)
        assert reply["type"] == msg["cmd"], reply
        return reply


@pytest.mark.parametrize(
    "leak",
    [
        lambda state: str(state),  # the whole board, every hand and the deck
        lambda state: state.legal_actions() if not state.is_chance_node() else state.chance_outcomes(),  # others' moves
    ],
    ids=["board", "lists"],
)
def test_the_hidden_information_check_can_fail(leak):
    """A door that tells more than the seat's view is caught by the same check."""
    _, diffs = _hidden_game(lambda: _Leaky(connect("python", HOOKS), leak), "nutz", 3, seat=1, seed=7)
    assert diffs


def _which_moves(before, after) -> list[int]:
    """The moves or outcomes that take `before` to `after` (positions of the same game; two wrong
    shouts of a card already resolved leave the same position)."""
    moves = [a for a, _ in before.chance_outcomes()] if before.is_chance_node() else before.legal_actions()
    found = []
    for a in moves:
        state = before.clone()
        state.apply_action(a)
        if state.to_json() == after.to_json():
            found.append(a)
    assert found
    return found


def _check_seen(move, state, actions: list[int], seat: int) -> tuple[str, bool]:
    """A reply's move (or an applied entry) is what the game's observe hook shows the seat of the
    move played (one of `actions`): the id only with a move seen whole, no probability."""
    assert move is not None and "probability" not in move
    for action in actions:
        text, whole = state.observe_action(action, seat)
        if move["action_string"] == text:
            assert move["action"] == (action if whole else None)
            return text, whole
    raise AssertionError((move, [state.observe_action(a, seat) for a in actions]))


def test_hidden_information_seat_rules(proc):
    h = proc
    err = h.ask(cmd="new_game", game="ritter", players=2)
    assert err["error"] == "bad_request" and "seat" in err["message"]
    assert h.ask(cmd="new_game", game="ritter", players=2, seat=2)["error"] == "bad_request"
    new = h.ok(cmd="new_game", game="ritter", players=2, seat=1, seed=3)
    assert new["seat"] == 1 and new["hidden_information"]
    assert h.ask(cmd="get_position")["error"] == "hidden"
    assert h.ask(cmd="board", seat=0)["error"] == "hidden"
    board = h.ok(cmd="board")
    state = truth(h, new)
    assert board["seat"] == 1 and board["text"] == state.information_state_string(1)
    if hasattr(state, "observation_json"):
        assert board["json"] == state.observation_json(1)
    assert new["status"]["scores"] is None and new["status"]["returns"] is None  # read from the board
    # Seat 1 plays its own moves; the client may neither list nor give seat 0's moves or the chance
    # outcomes (a list of them could give away cards), and the engine's replies to chance and to go
    # for seat 0 tell what seat 1 sees of them (the game's observe hook), no search statistics.
    rng = random.Random(1)
    refused = {"chance": 0, "other": 0}
    own = 0
    for _ in range(400):
        state = truth(h, new)
        if state.is_terminal():
            break
        legal = h.ok(cmd="legal")
        if state.is_chance_node():
            assert legal["hidden"] and legal["moves"] is None
            err = h.ask(cmd="apply", moves=[state.chance_outcomes()[0][0]])
            assert err["error"] == "hidden" and "send chance" in err["message"]
            refused["chance"] += 1
            reply = h.ok(cmd="chance")
            _, whole = _check_seen(reply["outcome"], state, _which_moves(state, truth(h, new)), 1)
            assert reply["hidden"] == (not whole)
        elif state.current_player() == 1:
            assert not legal["hidden"] and [m["action"] for m in legal["moves"]] == state.legal_actions()
            reply = h.ok(cmd="apply", moves=[rng.choice(legal["moves"])["action"]])
            _check_seen(reply["applied"][0], state, [reply["applied"][0]["action"]], 1)
            own += 1
        else:
            assert legal["hidden"] and legal["moves"] is None
            err = h.ask(cmd="apply", moves=[state.legal_actions()[0]])
            assert err["error"] == "hidden" and "send go" in err["message"]
            refused["other"] += 1
            reply = h.ok(cmd="go", bot="random")
            _, whole = _check_seen(reply["move"], state, _which_moves(state, truth(h, new)), 1)
            assert reply["hidden"] == (not whole) and reply["result"] is None
        assert truth(h, new).is_terminal() or reply["status"]["scores"] is None
    assert own > 5 and refused["chance"] > 5 and refused["other"] > 5


# What a person at the table sees, as a seat's connection must show it (issue 46): per game, a
# pattern of the text and whether the move is seen whole (its id told), each met in one game.
PUBLIC_FACTS = {
    "ritter": {
        "a die roll": (r"roll \d$", True),
        "the other knight's walk": (r"to \w+$", True),
        "the seat's own draw": (r"draw (hazelnut|Max|Leo|Fritz)(; shouts: seat 0 .*)?$", True),
        "the other seat's secret shout": (r"a secret shout$", False),
        "the shouts, right or wrong, once the card is resolved": (r".*; shouts: seat \d \w+ \((right|wrong)\)", None),
    },
    "nutz": {
        "the squirrel numbers dealt": (r"squirrel \d$", True),
        "the seat's own cards dealt": (r"deal \w+\**$", True),
        "a card dealt to the other seat": (r"deal a card to seat 0$", False),
        "the other seat's card played face up": (r"\w+\** to tree \d$", True),
        "the other seat's card played face down, without the card": (r"a card face down to tree \d$", False),
        "a tree taken, and the face-down cards it turns over": (r"take tree \d; face down: \w+", True),
    },
}


@pytest.mark.parametrize("name", sorted(PUBLIC_FACTS))
def test_a_seat_is_shown_what_the_table_sees(proc, name):
    """On a seat's connection, chance and another seat's moves tell what a person at the table sees
    (on the old engine every such reply was "hidden": null)."""
    h = proc
    new = h.ok(cmd="new_game", game=name, players=2, seat=1, seed=5)
    found = dict.fromkeys(PUBLIC_FACTS[name], False)
    status = new["status"]
    for step in range(3000):
        if status["terminal"] or all(found.values()):
            break
        state = truth(h, new)
        if status["chance"]:
            reply = h.ok(cmd="chance")
            move = reply["outcome"]
        elif status["current_player"] == 1:
            legal = h.ok(cmd="legal")["moves"]
            reply = h.ok(cmd="apply", moves=[legal[step % len(legal)]["action"]])
            move = reply["applied"][0]
        else:
            reply = h.ok(cmd="go", bot="random")
            move = reply["move"]
        _check_seen(move, state, _which_moves(state, truth(h, new)), 1)
        for fact, (pattern, whole) in PUBLIC_FACTS[name].items():
            if re.match(pattern, move["action_string"]) and whole in (None, move["action"] is not None):
                found[fact] = True
        status = reply["status"]
    assert all(found.values()), found


def test_hosting_a_hidden_game_sees_everything(proc):
    h = proc
    new = h.ok(cmd="new_game", game="nutz", players=2, seat=None, seed=1)
    while truth(h, new).is_chance_node():
        reply = h.ok(cmd="chance")
        assert not reply["hidden"] and reply["outcome"]["probability"] > 0
    state = truth(h, new)
    assert h.ok(cmd="get_position")["position"] == state.to_json()
    assert h.ok(cmd="board")["text"] == str(state)
    assert h.ok(cmd="board", seat=0)["text"] == state.information_state_string(0)
    assert h.ok(cmd="best_move", iterations=20)["result"]["searching_player"] == state.current_player()


# ----- undo


def _until_seat(h, seat: int, bot: str = "greedy") -> dict:
    """Chance and the engine's bots until `seat` is to move (or the end); the last status."""
    status = h.ok(cmd="status")["status"]
    while not status["terminal"] and status["current_player"] != seat:
        status = (h.ok(cmd="chance") if status["chance"] else h.ok(cmd="go", bot=bot))["status"]
    return status


def _played(name: str, seed: int, keep) -> dict:
    """A position of a random game for which `keep(position)` holds."""
    game = nutcore.load_game(name, players=2)
    rng = random.Random(seed)
    for _ in range(100):
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node() and keep(state.to_json()):
                return state.to_json()
            random_step(state, rng)
    raise AssertionError("no such position")


def test_board_without_memory_aids_shows_what_lies_in_front_now(proc):
    """board {"memory_aids": false}: a memory game's board without what only a memory keeps (the
    kinds of the known tops, who saw them; the nuts in each hole), the rest as the view has it;
    the same view for a game that asks nothing to be remembered."""
    aids = {g["name"]: g["memory_aids"] for g in proc.ask(cmd="list_games")["games"]}
    assert aids == {"auf_die_nuesse": False, "nutz": False, "purzelbaum": True, "ritter": True}
    # Ritter, seat 0's connection, a position in which seat 0 has seen a known top.
    position = _played("ritter", 3, lambda j: j["current_player"] == 0 and any(0 in s["seen_by"] for s in j["stacks"]))
    proc.ok(cmd="new_game", game="ritter", players=2, seat=0, seed=1)
    proc.ok(cmd="set_position", position=position)
    full = proc.ok(cmd="board")
    assert full["memory_aids"] is True
    unaided = proc.ok(cmd="board", memory_aids=False)
    assert unaided["memory_aids"] is False and unaided["seat"] == 0
    assert all(s["top"] is None and s["seen_by"] == [] for s in unaided["json"]["stacks"])
    assert [s["cards"] for s in unaided["json"]["stacks"]] == [s["cards"] for s in full["json"]["stacks"]]
    assert {k: v for k, v in unaided["json"].items() if k != "stacks"} == {
        k: v for k, v in full["json"].items() if k != "stacks"
    }
    assert " top " in full["text"] and " top " not in unaided["text"]
    assert unaided["text"].splitlines()[0] == full["text"].splitlines()[0] == "view of seat 0"
    # Purzelbaum (perfect information): every hole's nuts hidden, the disks and leaves shown.
    position = _played("purzelbaum", 4, lambda j: any(h["nuts"] > 0 for h in j["holes"]))
    proc.ok(cmd="new_game", game="purzelbaum", players=2, seed=1)
    proc.ok(cmd="set_position", position=position)
    full, unaided = proc.ok(cmd="board"), proc.ok(cmd="board", memory_aids=False)
    assert full["json"] == position
    assert [h["nuts"] for h in unaided["json"]["holes"]] == ["hidden"] * len(position["holes"])
    assert [(h["white"], h["leaf"]) for h in unaided["json"]["holes"]] == [
        (h["white"], h["leaf"]) for h in position["holes"]
    ]
    assert "nuts):" in full["text"] and "nuts):" not in unaided["text"]
    # A game without memory aids: the same board either way.
    proc.ok(cmd="new_game", game="auf_die_nuesse", players=2, seed=1)
    unaided, full = proc.ok(cmd="board", memory_aids=False, id="b"), proc.ok(cmd="board", id="b")
    assert {**unaided, "memory_aids": True} == full
    for bad in (1, "no", None):
        assert proc.ask(cmd="board", memory_aids=bad)["error"] == "bad_request"


def _seen_top_twin(position: dict, kind: str) -> dict:
    """The Ritter position with another card of `kind` on the top seat 0 has seen (the pool pays for
    it): a position seat 0 tells apart only by what it saw there."""
    pool_key = {"Max": "Max", "Leo": "Leo", "Fritz": "Fritz"}
    twin = json.loads(json.dumps(position))
    stack = next(s for s in twin["stacks"] if 0 in s["seen_by"])
    twin["pool"][pool_key[stack["top"]]] += 1
    twin["pool"][pool_key[kind]] -= 1
    stack["top"] = kind
    return twin


def test_best_move_without_memory_aids_searches_as_a_mover_who_forgot(proc):
    """best_move {"memory_aids": false}: the search of a mover who forgot what the game asks it to
    remember. Two positions that differ only in the kind of a top the seat once saw (and so look the
    same on the board without memory aids) get the same answer from the same seed; with memory
    aids, as by default, the seen kind counts."""
    position = _played("ritter", 3, lambda j: j["current_player"] == 0 and any(0 in s["seen_by"] for s in j["stacks"]))
    seen = next(s["top"] for s in position["stacks"] if 0 in s["seen_by"])
    twins = [_seen_top_twin(position, kind) for kind in ("Max", "Leo", "Fritz") if kind != seen]
    proc.ok(cmd="new_game", game="ritter", players=2, seat=0, seed=1)

    def answers(pos: dict, **fields) -> tuple:
        proc.ok(cmd="set_position", position=pos)
        r = proc.ok(cmd="best_move", iterations=200, seed=5, **fields)["result"]
        board = proc.ok(cmd="board", memory_aids=False)["json"]
        return r["action"], [(a["action"], a["visits"]) for a in r["actions"]], board

    forgetful = answers(position, memory_aids=False)
    remembering = answers(position)
    assert answers(position, memory_aids=True)[:2] == remembering[:2]  # true is the default
    differ = 0
    for twin in twins:
        other = answers(twin, memory_aids=False)
        assert other[2] == forgetful[2]  # the board without memory aids cannot tell them apart
        assert other[:2] == forgetful[:2]
        differ += answers(twin)[:2] != remembering[:2]
    assert differ >= 1  # remembering the top changes the search
    # A game with nothing to remember searches the same either way.
    proc.ok(cmd="new_game", game="auf_die_nuesse", players=2, seed=2)
    _until_seat(proc, 0)
    plain = proc.ok(cmd="best_move", iterations=100, seed=3)["result"]
    without = proc.ok(cmd="best_move", iterations=100, seed=3, memory_aids=False)["result"]
    assert (without["action"], without["actions"]) == (plain["action"], plain["actions"])
    for bad in (0, "no", None):
        assert proc.ask(cmd="best_move", iterations=10, memory_aids=bad)["error"] == "bad_request"


def test_undo_takes_back_the_connection_s_last_moves(proc):
    h = proc
    h.ok(cmd="new_game", game="auf_die_nuesse", players=2, seed=5)
    err = h.ask(cmd="undo")
    assert err["error"] == "not_now" and "none" in err["message"]
    positions = []
    for _ in range(3):
        _until_seat(h, 0)
        positions.append(h.ok(cmd="get_position")["position"])
        move = h.ok(cmd="legal")["moves"][-1]["action"]
        h.ok(cmd="apply", moves=[move])
        h.ok(cmd="status")
        _until_seat(h, 0)  # the other seat's moves and chance since: undone with it
    assert h.ask(cmd="undo", count=4)["error"] == "not_now"  # all or nothing
    assert h.ask(cmd="undo", count=0)["error"] == "bad_request"
    assert h.ask(cmd="undo", steps=1)["error"] == "bad_request"
    reply = h.ok(cmd="undo")
    assert reply["undone"] == 1 and reply["status"]["current_player"] == 0
    assert h.ok(cmd="get_position")["position"] == positions[2]
    assert h.ok(cmd="undo", count=2)["undone"] == 2
    assert h.ok(cmd="get_position")["position"] == positions[0]
    assert h.ask(cmd="undo")["error"] == "not_now"  # nothing before the first of them
    # Busy during a search; after set_position there is nothing to take back.
    h.send(cmd="best_move", time_limit=5, id="long")
    assert h.ask(cmd="undo")["error"] == "busy"
    h.ok(cmd="stop")
    h.reply_to("long")  # the search's own reply
    h.ok(cmd="set_position", position=positions[0])
    assert h.ask(cmd="undo")["error"] == "not_now"


def test_undo_on_a_seat_s_connection_reveals_nothing_and_redraws_the_hidden_cards(proc):
    """A seat goes back to before its own last move; the reply is the status; the truth behind its
    view is drawn afresh (else undo and replay would sample the hidden cards again and again)."""
    h = proc
    new = h.ok(cmd="new_game", game="nutz", players=3, seat=1, seed=9)
    rng = random.Random(2)
    changed = 0
    for _ in range(6):
        status = _until_seat(h, 1)
        if status["terminal"]:
            break
        view = truth(h, new).information_state_string(1)
        before = truth(h, new).to_json()
        h.ok(cmd="apply", moves=[rng.choice(h.ok(cmd="legal")["moves"])["action"]])
        _until_seat(h, 1)
        a = h.ok(cmd="undo")
        # The reply is the status alone, which the seat knows: its turn, no scores before the end.
        assert set(a) == {"type", "id", "undone", "status"}
        assert a["status"] == {
            "current_player": 1,
            "chance": False,
            "terminal": False,
            "scores": None,
            "returns": None,
            "searching": False,
        }
        assert truth(h, new).information_state_string(1) == view
        changed += truth(h, new).to_json() != before
        h.ok(cmd="apply", moves=[rng.choice(h.ok(cmd="legal")["moves"])["action"]])
    assert changed >= 3


def _play_noting_replies(h, steps: int, rng: random.Random, by_apply) -> list[tuple]:
    """Plays up to `steps` steps: chance, the connection's own moves by apply where `by_apply(step,
    player)` says so (a random legal one), the engine's by go (a search or a bot) otherwise. Per
    step (player, move, hidden) as the replies showed it."""
    shown = []
    for step in range(steps):
        status = h.ok(cmd="status")["status"]
        if status["terminal"]:
            break
        player = status["current_player"]
        if status["chance"]:
            reply = h.ok(cmd="chance")
            shown.append((None, reply["outcome"], reply["hidden"]))
        elif by_apply(step, player):
            move = rng.choice(h.ok(cmd="legal")["moves"])
            applied = h.ok(cmd="apply", moves=[move["action"]])["applied"][0]
            shown.append((player, {"action": applied["action"], "action_string": applied["action_string"]}, False))
        else:
            reply = h.ok(cmd="go", iterations=20) if step % 2 else h.ok(cmd="go", bot="random")
            shown.append((reply["player"], reply["move"], reply["hidden"]))
    return shown


@pytest.mark.parametrize("game", nutcore.list_games())
def test_record_is_the_game_so_far_and_replays_to_the_position(proc, game):
    """A host's record: every move and chance outcome in order, by apply, chance and go (a bot's
    and a search's), which replayed through the Python API from the start reaches the engine's
    position; set_position starts it again."""
    h = proc
    host = {"seat": None} if nutcore.load_game(game).hidden_information else {}
    new = h.ok(cmd="new_game", game=game, players=2, seed=11, **host)
    assert h.ok(cmd="record")["moves"] == []
    shown = _play_noting_replies(h, 30, random.Random(4), lambda step, _: step % 3 == 0)
    record = h.ok(cmd="record")
    assert record["game"] == game and record["seat"] is None and record["status"] == h.ok(cmd="status")["status"]
    assert [(m["player"], m["move"], m["hidden"]) for m in record["moves"]] == shown
    assert not any(hidden for _, _, hidden in shown)
    state = nutcore.load_game(game, **new["params"]).new_initial_state()
    for _, move, _ in shown:
        state.apply_action(move["action"])
    assert state.to_json() == truth(h, new).to_json()
    h.ok(cmd="set_position", position=truth(h, new).to_json())
    assert h.ok(cmd="record")["moves"] == []


def test_undo_takes_moves_off_the_record(proc):
    h = proc
    h.ok(cmd="new_game", game="auf_die_nuesse", players=2, seed=5)
    _until_seat(h, 0)
    before = h.ok(cmd="record")["moves"]
    h.ok(cmd="apply", moves=[h.ok(cmd="legal")["moves"][-1]["action"]])
    _until_seat(h, 0)
    assert len(h.ok(cmd="record")["moves"]) > len(before) + 1
    h.ok(cmd="undo")
    assert h.ok(cmd="record")["moves"] == before


@pytest.mark.parametrize("game", ["nutz", "ritter"])
def test_a_seat_s_record_holds_what_it_saw_when_it_was_played(proc, game):
    """On a seat's connection the record is the seat's: its own moves in full, the others' and
    chance's as they were shown in go's and chance's replies; and it does not change when the
    truth behind the seat's view is swapped for a twin."""
    h = proc
    new = h.ok(cmd="new_game", game=game, players=2, seat=0, seed=3)
    shown = _play_noting_replies(h, 25, random.Random(8), lambda _, player: player == 0)
    record = h.ok(cmd="record")
    assert record["seat"] == 0
    assert [(m["player"], m["move"], m["hidden"]) for m in record["moves"]] == shown
    assert any(hidden for _, _, hidden in shown) and any(not hidden for _, _, hidden in shown)
    twin = truth(h, new).resample_from_infostate(0, 77)
    h.ok(cmd="_replace_full_state", position=twin.to_json())
    assert h.ok(cmd="record")["moves"] == record["moves"]


# ----- limits for untrusted clients


def test_limits_cap_searches_and_refuse_file_parameters(transport):
    limits = {"iterations": 5000, "time_limit": 2, "threads": 1, "max_nodes": 10**5, "search_seconds": 0.3}
    h = connect(transport, "--limits", json.dumps(limits))
    err = h.ask(cmd="new_game", game="nutz", players=2, seat=0, params={"cards": "nutz_cards.json"})
    assert err["error"] == "bad_request" and "no files" in err["message"]
    h.ok(cmd="new_game", game="ritter", players=2, seat=0, params={"shout_resolution": "separate"})  # text by default
    h.ok(cmd="new_game", game="auf_die_nuesse", seed=3)
    to_decision(h)
    for bad in ({"iterations": 5001}, {"time_limit": 2.5}, {"threads": 2}, {"options": {"max_nodes": 10**6}}):
        err = h.ask(cmd="best_move", **bad)
        assert err["error"] == "bad_request" and "at most" in err["message"], (bad, err)
    assert "at most" in h.ask(cmd="go", bot="mcts:iterations=9000")["message"]
    # Bots that play as bots (levels, imperfect memory) stay within the limits too.
    assert "at most" in h.ask(cmd="go", bot="mcts:iterations=9000,memory=0.5")["message"]
    # Whatever the budget, a search ends after search_seconds with its best move so far.
    reply = h.ok(cmd="best_move", time_limit=2)
    assert reply["stopped"]  # ended by search_seconds (a search that reaches its time limit is not stopped)
    assert reply["result"]["nodes"] <= 10**5 + 1000  # the tree's cap, given by the limits
    assert h.ok(cmd="go", bot="level:6")["move"] is not None
    h.close()
    # A time-limited expectimax that names no depth deepens as far as the cap on depth.
    h = connect(transport, "--limits", json.dumps({**limits, "depth": 5}))
    h.ok(cmd="new_game", game="auf_die_nuesse", seed=3)
    to_decision(h)
    assert (
        "depth is at most 5 for this engine (its limits)"
        in h.ask(cmd="best_move", algorithm="expectimax", options={"depth": 6})["message"]
    )
    assert h.ok(cmd="best_move", algorithm="expectimax", time_limit=0.1)["result"]["max_depth"] == 5
    assert h.ok(cmd="best_move", algorithm="expectimax")["result"]["max_depth"] == 3
    h.ok(cmd="new_game", game="nutz", players=2, seat=0, seed=1)  # level 10 there: 6,000 iterations
    to_decision(h)
    assert "at most" in h.ask(cmd="go", bot="level:10")["message"]
    h.close()


# ----- bad input


def test_apply_is_all_or_nothing(proc):
    h = proc
    h.ok(cmd="new_game", game="auf_die_nuesse", seed=8)
    to_decision(h)
    before = h.ok(cmd="get_position")["position"]
    legal = h.ok(cmd="legal")["moves"]
    err = h.ask(cmd="apply", moves=[legal[0]["action"], "fly to the moon"])
    assert err["error"] == "illegal_move" and "move 1" in err["message"] and "fly to the moon" in err["message"]
    assert h.ask(cmd="apply", moves=[legal[0]["action"], 10**6])["error"] == "illegal_move"
    assert h.ask(cmd="apply", moves=[legal[0]["action"], True])["error"] == "bad_request"
    assert h.ok(cmd="get_position")["position"] == before
    ok = h.ok(cmd="apply", moves=[legal[0]["action_string"]])
    assert ok["applied"][0]["action"] == legal[0]["action"]


NO_GAME = ["legal", "board", "status", "chance", "get_position", "best_move", "go"]

BAD_LINES = [
    (b"not json", "bad_json"),
    (b"\xff\xfe{}", "bad_json"),
    (b"[1, 2]", "bad_request"),
    (b'"hello"', "bad_request"),
    (b"{}", "bad_request"),
    (b'{"cmd": 5}', "bad_request"),
    (b'{"cmd": "uci"}', "unknown_command"),
    (b'{"cmd": "hello", "id": [1]}', "bad_request"),
    (b'{"cmd": "hello", "id": true}', "bad_request"),
    (b'{"cmd": "hello", "verbose": true}', "bad_request"),
    (b'{"cmd": "new_game", "game": "auf_die_nuesse", "seed": NaN}', "bad_json"),
    (b'{"cmd": "new_game", "game": "auf_die_nuesse", "seed": Infinity}', "bad_json"),
    (b'{"cmd": "new_game", "game": "auf_die_nuesse", "seed": 1e999}', "bad_json"),
    (b'{"cmd": "new_game", "game": "auf_die_nuesse", "seed": 1' + b"0" * 5000 + b"}", "bad_json"),
    (b"[" * 100000 + b"]" * 100000, "bad_json"),
]

BAD_REQUESTS = [
    ({"cmd": "new_game"}, "bad_request", 'missing field "game"'),
    ({"cmd": "new_game", "game": "chess"}, "bad_request", "unknown game"),
    ({"cmd": "new_game", "game": 7}, "bad_request", "game must be a string"),
    ({"cmd": "new_game", "game": "auf_die_nuesse", "players": 7}, "bad_request", "2..4"),
    ({"cmd": "new_game", "game": "auf_die_nuesse", "players": True}, "bad_request", "integer"),
    ({"cmd": "new_game", "game": "auf_die_nuesse", "players": 2.0}, "bad_request", "integer"),
    ({"cmd": "new_game", "game": "auf_die_nuesse", "seed": -1}, "bad_request", "seed"),
    ({"cmd": "new_game", "game": "auf_die_nuesse", "seed": 2**64}, "bad_request", "seed"),
    ({"cmd": "new_game", "game": "auf_die_nuesse", "seed": 10**100}, "bad_request", "seed"),
    ({"cmd": "new_game", "game": "auf_die_nuesse", "params": {"turn_cap": -5}}, "bad_request", "turn_cap"),
    ({"cmd": "new_game", "game": "auf_die_nuesse", "params": {"warp": 1}}, "bad_request", "warp"),
    ({"cmd": "new_game", "game": "auf_die_nuesse", "params": {"players": 3}}, "bad_request", "own field"),
    ({"cmd": "new_game", "game": "auf_die_nuesse", "params": []}, "bad_request", "object"),
    ({"cmd": "new_game", "game": "ritter", "players": 2, "seat": -1}, "bad_request", "seat"),
    # Messages show the client's values as JSON, not as Python would print them.
    ({"cmd": "new_game", "game": "ritter", "seat": True}, "bad_request", "got true"),
    ({"cmd": "new_game", "game": "chess"}, "bad_request", 'unknown game "chess"; available: ["auf_die_nuesse"'),
]

IN_GAME = [
    ({"cmd": "set_position", "position": {"game": "auf_die_nuesse"}}, "bad_request", "set_position"),
    ({"cmd": "set_position", "position": "x"}, "bad_request", "object"),
    ({"cmd": "set_position"}, "bad_request", "missing field"),
    ({"cmd": "apply", "moves": []}, "bad_request", "1.."),
    ({"cmd": "apply", "moves": "store 0"}, "bad_request", "a list"),
    ({"cmd": "apply", "moves": [None]}, "bad_request", "action id or an action string"),
    ({"cmd": "apply", "moves": [-1]}, "illegal_move", "move 0"),
    ({"cmd": "apply", "moves": [2**70]}, "illegal_move", "move 0"),
    ({"cmd": "chance"}, "not_now", "not a chance node"),
    ({"cmd": "best_move", "iterations": 0}, "bad_request", "iterations"),
    ({"cmd": "best_move", "iterations": 1.5}, "bad_request", "integer"),
    ({"cmd": "best_move", "time_limit": -1}, "bad_request", "time_limit"),
    ({"cmd": "best_move", "time_limit": "soon"}, "bad_request", "number"),
    ({"cmd": "best_move", "threads": 10**9}, "bad_request", "threads"),
    ({"cmd": "best_move", "algorithm": "alphazero"}, "bad_request", "algorithm"),
    (
        {"cmd": "best_move", "algorithm": "ismcts"},
        "bad_request",
        'not available for auf_die_nuesse; choose from "auto"',
    ),
    (
        {"cmd": "best_move", "algorithm": "alphazero"},
        "bad_request",
        'unknown algorithm "alphazero"; choose from "auto"',
    ),
    ({"cmd": "best_move", "options": {"heuristic_rollouts": 1}}, "bad_request", "must be true or false, got 1"),
    ({"cmd": "best_move", "options": {"warp": 9}}, "bad_request", "warp"),
    ({"cmd": "best_move", "options": {"stop": True}}, "bad_request", "not in options"),
    ({"cmd": "best_move", "options": {"exploration": -1}}, "bad_request", "exploration"),
    ({"cmd": "best_move", "seed": 2**64}, "bad_request", "seed"),
    ({"cmd": "board", "seat": 9}, "bad_request", "seat"),
    ({"cmd": "legal", "seat": 0}, "bad_request", "unknown field"),
]


def test_malformed_lines_and_requests_get_clear_errors(proc):
    h = proc
    for cmd in NO_GAME:
        err = h.ask(cmd=cmd)
        assert (err["type"], err["error"], err["command"]) == ("error", "no_game", cmd), err
    for line, code in BAD_LINES:
        replies = h.raw(line)
        assert len(replies) == 1 and replies[0]["type"] == "error" and replies[0]["error"] == code, (line[:60], replies)
        assert len(replies[0]["message"]) < 400
    assert h.raw(b"  \r\n") == []  # blank lines are ignored
    for msg, code, words in BAD_REQUESTS:
        err = h.ask(**msg)
        assert err["type"] == "error" and err["error"] == code and words in err["message"], (msg, err)
    h.ok(cmd="new_game", game="auf_die_nuesse", seed=1)
    to_decision(h)
    for msg, code, words in IN_GAME:
        err = h.ask(**msg)
        assert err["type"] == "error" and err["error"] == code and words in err["message"], (msg, err)
    assert h.ok(cmd="hello")["protocol"] == engine_module.PROTOCOL_VERSION


def _random_json(rng: random.Random, depth: int = 0):
    kinds = ["int", "float", "str", "bool", "null"] + (["list", "dict"] if depth < 3 else [])
    kind = rng.choice(kinds)
    if kind == "int":
        return rng.choice([0, 1, -1, 2, 3, 7, 2**31, 2**63, 2**64, -(2**64), 10**30, rng.randrange(-100, 300)])
    if kind == "float":
        return rng.choice([0.5, -1.5, 1e300, 1e-300, 3.0])
    if kind == "str":
        return rng.choice(
            ["", "x", "store 0", "draw walnut", "auto", "mcts", "greedy", "ritter", "\u00fc" * 3, "a" * 200]
        )
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "null":
        return None
    if kind == "list":
        return [_random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["cmd", "id", "game", "moves", "seat", "seed", "params", "iterations", "options", "x"]
    return {rng.choice(keys): _random_json(rng, depth + 1) for _ in range(rng.randrange(5))}


VALID = [
    {"cmd": "hello"},
    {"cmd": "list_games"},
    {"cmd": "new_game", "game": "auf_die_nuesse", "players": 2, "seed": 3},
    {"cmd": "new_game", "game": "ritter", "players": 3, "seat": 1, "seed": 4},
    {"cmd": "new_game", "game": "nutz", "players": 2, "seat": 0, "params": {"turn_cap": 50}},
    {"cmd": "chance"},
    {"cmd": "legal"},
    {"cmd": "board"},
    {"cmd": "board", "seat": 0},
    {"cmd": "status"},
    {"cmd": "get_position"},
    {"cmd": "apply", "moves": [0, "store 2"]},
    {"cmd": "apply", "moves": ["roll 2"]},
    {"cmd": "best_move", "iterations": 20},
    {"cmd": "best_move", "time_limit": 0.05, "algorithm": "ismcts", "options": {"exploration": 0.5}},
    {"cmd": "go", "bot": "greedy"},
    {"cmd": "go", "iterations": 20},
    {"cmd": "stop"},
    {"cmd": "set_position", "position": {"game": "auf_die_nuesse", "players": 2}},
]


def _mutate(rng: random.Random, msg: dict) -> dict:
    msg = json.loads(json.dumps(msg))
    for _ in range(rng.randrange(1, 3)):
        op = rng.randrange(4)
        if op == 0 and msg:
            del msg[rng.choice(list(msg))]
        elif op == 1 and msg:
            msg[rng.choice(list(msg))] = _random_json(rng)
        elif op == 2:
            msg[rng.choice(["id", "seat", "moves", "options", "zzz", "iterations"])] = _random_json(rng)
        else:
            msg["cmd"] = rng.choice([c["cmd"] for c in VALID] + ["Hello", "", "quit ", "best_move\n"])
    return msg


def _fuzz_lines(seed: int, count: int) -> list[bytes]:
    rng = random.Random(seed)
    lines = []
    for i in range(count):
        kind = rng.randrange(5)
        if kind == 0:
            line = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60))).replace(b"\n", b" ")
        elif kind == 1:
            line = json.dumps(_random_json(rng)).encode()
        elif kind == 2:
            text = json.dumps(rng.choice(VALID))
            cut = rng.randrange(len(text))
            line = (text[:cut] + rng.choice(["", "}", "]", '"', ",", "\\", "\x00"]) + text[cut + 1 :]).encode()
        else:
            msg = _mutate(rng, rng.choice(VALID)) if kind == 3 else dict(rng.choice(VALID))
            if msg.get("cmd") == "quit":
                msg["cmd"] = "hello"
            if rng.random() < 0.5:
                msg.setdefault("id", i)
            line = json.dumps(msg).encode()
        if line.strip():
            lines.append(line)
        if i % 25 == 0:
            lines.append(b'{"cmd": "stop"}')  # a mutated search may have a long budget
    return lines


def test_fuzz_of_malformed_lines(proc):
    """A few hundred seeded lines of random bytes, random JSON and mutated commands: the engine
    answers every line (exactly one reply besides progress lines) and survives."""
    lines = _fuzz_lines(seed=2024, count=400)
    assert len(lines) > 400
    proc.write(b"".join(line + b"\n" for line in lines))
    proc.send(cmd="stop")
    proc.send(cmd="quit", id="end")
    answers = []
    while True:
        reply = proc.get(timeout=30)
        if reply["type"] != "info":
            answers.append(reply)
        if reply.get("id") == "end" and reply["type"] == "quit":
            break
    assert len(answers) == len(lines) + 2
    kinds = {r["type"] for r in answers}
    assert "error" in kinds and len(kinds) > 5  # plenty of valid commands went through too
    internal = [r for r in answers if r.get("error") == "internal"]
    assert not internal, internal[:3]
    code, err = proc.finish()
    assert code == 0 and "Traceback" not in err
