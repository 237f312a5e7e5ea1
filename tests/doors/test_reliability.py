"""Reliability at the boundary: each defect found by trying nutcore as a new user would, pinned by a
test (booleans are never ints, integers of any size are range-checked, numpy integers work, foreign
objects compare unequal, bad settings fail when given, the headline call works in every phase)."""

from __future__ import annotations

import random
import threading

import numpy as np
import pytest

import nutcore
from nutcore import _core
from playing import decision_after, play_randomly, random_step


def decision_state(name="auf_die_nuesse", players=2, seed=1, min_steps=10):
    state = decision_after(name, players, seed, min_steps)
    return nutcore.load_game(name, players=players), state


def winter_state(players=2, seed=5):
    game = nutcore.load_game("purzelbaum", players=players)
    rng = random.Random(seed)
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.to_json()["season"] == "winter" and len(state.legal_actions()) > 3:
                return game, state
            random_step(state, rng)


# 2. The headline call in every phase: "auto" solves Purzelbaum's winter and ignores the MCTS budget.


@pytest.mark.parametrize("budget", [{}, {"iterations": 1000}, {"time_limit": 0.05}, {"threads": 2}])
def test_best_move_auto_in_winter_takes_any_budget(budget):
    _, state = winter_state()
    result = nutcore.best_move(state, seed=1, **budget)
    assert result.algorithm == "solver" and result.action in state.legal_actions()
    assert result.action == nutcore.solve(state).action


def test_best_move_auto_still_checks_the_budget_in_winter():
    _, state = winter_state()
    for bad in [{"iterations": 0}, {"time_limit": -1}, {"threads": 0}, {"exploration": "x"}, {"depth": 3}]:
        with pytest.raises(ValueError):
            nutcore.best_move(state, **bad)


def test_explicit_exact_algorithms_refuse_iterations_and_threads_but_take_a_time_limit():
    _, state = winter_state()
    for algorithm in ("solver", "expectimax"):
        for bad in ({"iterations": 10}, {"threads": 2}):
            with pytest.raises(ValueError, match="takes no iterations or threads"):
                nutcore.best_move(state, algorithm=algorithm, **bad)
    solved = nutcore.best_move(state, algorithm="solver", time_limit=30.0)
    assert solved.action == nutcore.solve(state).action
    deep = nutcore.best_move(state, algorithm="expectimax", depth=2, time_limit=30.0)
    assert deep.extra["depth"] == 2 and deep.extra["complete"] is True


def test_best_move_along_whole_games_in_every_phase():
    # The README's call, at every decision of random games of every game and player count.
    for name in nutcore.list_games():
        for players in (2, 3, 4):
            game = nutcore.load_game(name, players=players)
            rng = random.Random(players)
            state = game.new_initial_state()
            while not state.is_terminal():
                if not state.is_chance_node() and rng.random() < 0.3:
                    assert nutcore.best_move(state, iterations=30, seed=1).action in state.legal_actions()
                random_step(state, rng)


# 3. Comparisons with foreign objects answer False.


def test_states_compare_unequal_to_foreign_objects():
    _, state = decision_state()
    _, other = decision_state("purzelbaum")
    assert not (state == None)  # noqa: E711
    assert state != 5 and state != "state" and state != other and other != state
    assert (state == other) is False
    assert state in [None, state] and other not in [None, state]
    assert state == state.clone()
    with pytest.raises(TypeError):
        hash(state)


def test_games_are_values():
    a = nutcore.load_game("auf_die_nuesse", players=3)
    b = nutcore.load_game("auf_die_nuesse", players=3)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != nutcore.load_game("auf_die_nuesse", players=2)
    assert a != None and a != nutcore.load_game("purzelbaum", players=3)  # noqa: E711


# 4 and 8. Integers of any size, numpy integers, and never booleans.


@pytest.mark.parametrize("seed", [2**63, 2**64 - 1, np.uint64(2**64 - 1), np.int32(7)])
def test_any_64_bit_seed_works(seed):
    _, state = decision_state()
    result = nutcore.best_move(state, iterations=50, seed=seed)
    assert result.extra["seed"] == int(seed)
    assert nutcore.best_move(state, iterations=50, seed=seed).action == result.action
    game = nutcore.load_game("auf_die_nuesse")
    assert game.random_playouts(2, seed)[1].shape == (2,)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"seed": 2**64},
        {"seed": -1},
        {"seed": True},
        {"seed": 1.0},
        {"iterations": 2**63},
        {"iterations": 2**200},
        {"iterations": True},
        {"iterations": 10.0},
        {"max_nodes": 2**63},
        {"max_nodes": 10},
        {"threads": 2**64},
        {"threads": True},
        {"time_limit": True},
        {"time_limit": float("nan")},
        {"time_limit": float("inf")},
        {"time_limit": 0},
        {"time_limit": "1"},
        {"exploration": float("nan")},
        {"exploration": -1.0},
        {"heuristic_rollouts": "no"},
        {"heuristic_rollouts": 0},
        {"stop": "please"},
        {"algorithm": None},
        {"algorithm": "warp"},
    ],
)
def test_bad_mcts_arguments_are_value_errors(kwargs):
    _, state = decision_state()
    before = state.serialize()
    with pytest.raises(ValueError):
        nutcore.best_move(state, **kwargs)
    assert state.serialize() == before


@pytest.mark.parametrize(
    "options",
    [
        {"depth": True},
        {"depth": 2**64},
        {"depth": 0},
        {"depth": 2.0},
        {"bound": 0},
        {"bound": -5.0},
        {"bound": float("nan")},
        {"bound": float("inf")},
        {"bound": True},
        {"pruning": "yes"},
        {"star2": 1},
    ],
)
def test_bad_expectimax_options_are_value_errors(options):
    _, state = decision_state()
    with pytest.raises(ValueError):
        nutcore.best_move(state, algorithm="expectimax", **options)


def test_the_native_entry_point_checks_its_own_arguments():
    # best_move crosses into C++ once, with its settings as given: C++ checks every one.
    _, state = decision_state()
    for settings in (
        {"iterations": 2**63},
        {"seed": -1},
        {"algorithm": "expectimax", "bound": 0.0},
        {"algorithm": "expectimax", "depth": True},
        {"algorithm": "mcts", "determinizations": 3},
        {"algorithm": None},
    ):
        with pytest.raises(ValueError):
            _core.best_move(state, settings)


def test_numpy_integers_work_wherever_ints_do():
    game = nutcore.load_game("auf_die_nuesse", players=np.int64(3))
    assert game.num_players() == 3
    _, state = decision_state()
    result = nutcore.best_move(
        state, iterations=np.int64(40), threads=np.int8(1), seed=np.uint32(5), max_nodes=np.int64(10**5)
    )
    assert result.iterations == 40
    state.apply_action(np.int16(result.action))
    assert state.history()[-1] == result.action
    assert state.action_to_string(np.int64(result.action)) == result.action_string
    assert nutcore.best_move(decision_state()[1], algorithm="expectimax", depth=np.int64(2)).action >= 0
    returns, lengths = game.random_playouts(np.int64(3), seed=np.int64(4))
    assert lengths.shape == (3,)
    purzel = nutcore.load_game("purzelbaum", players=2, turn_cap=np.int64(500), skill_sigma=np.float32(0.5))
    assert purzel.params["turn_cap"] == 500


@pytest.mark.parametrize("bad", [True, False, np.True_, 1.0, "1", None, 2**64, -(2**70), [1]])
def test_bad_actions_are_value_errors_and_change_nothing(bad):
    _, state = decision_state()
    before = state.serialize()
    with pytest.raises(ValueError, match="illegal action"):
        state.apply_action(bad)
    assert state.serialize() == before


@pytest.mark.parametrize("bad", [True, 1.5, 2**64, -1, "3"])
def test_action_to_string_checks_its_argument(bad):
    _, state = decision_state()
    with pytest.raises(ValueError):
        state.action_to_string(bad)


def test_random_playouts_check_their_arguments():
    game = nutcore.load_game("auf_die_nuesse")
    for n, seed in [(True, 0), (-1, 0), (2**64, 0), (1.0, 0), (2, -1), (2, 2**64), (2, True)]:
        with pytest.raises(ValueError):
            game.random_playouts(n, seed)
    assert game.random_playouts(0)[0].shape == (0, 2)


def test_deserialize_takes_any_bytes_like_and_names_the_wrong_type():
    game, state = decision_state()
    data = state.serialize()
    assert game.deserialize_state(bytearray(data)) == state == game.deserialize_state(memoryview(data))
    with pytest.raises(TypeError, match="must be bytes"):
        game.deserialize_state(data.hex())


# 5. Huge time limits: no overflow; both limits apply.


def test_huge_time_limit_with_iterations_runs_the_iterations():
    _, state = decision_state()
    result = nutcore.best_move(state, iterations=500, time_limit=1e10, seed=3)
    assert result.iterations == 500
    assert result.extra["stopped"] is False
    same = nutcore.best_move(state, iterations=500, seed=3)
    assert [(s.action, s.visits) for s in result.actions] == [(s.action, s.visits) for s in same.actions]


def test_tiny_time_limit_still_searches():
    _, state = decision_state()
    result = nutcore.best_move(state, time_limit=1e-9, seed=3)
    assert result.iterations >= 1 and result.action in state.legal_actions()


# 6. Purzelbaum's terminal bytes are canonical.


def test_no_byte_edit_of_a_finished_purzelbaum_loads_as_a_different_state():
    for players in (2, 3, 4):
        game = nutcore.load_game("purzelbaum", players=players)
        state = play_randomly(game.new_initial_state(), random.Random(players), 10**6)
        assert state.is_terminal()
        raw = state.serialize()
        for offset in range(8, len(raw)):
            for value in range(256):
                if value == raw[offset]:
                    continue
                edited = raw[:offset] + bytes([value]) + raw[offset + 1 :]
                try:
                    loaded = game.deserialize_state(edited)
                except ValueError:
                    continue
                # Whatever loads is canonical: its JSON describes exactly it, and it differs.
                assert loaded.to_json() != state.to_json()
                assert game.state_from_json(loaded.to_json()).serialize() == edited


# 9. Bad settings fail when the bot is made, with a ValueError.


@pytest.mark.parametrize(
    "spec",
    [
        "solver:anything=1",
        "random:x=1",
        "random:seed=-1",
        "greedy:fast=true",
        "mcts:iterations=0",
        "mcts:iterations=1e400",
        "mcts:iterations=99999999999999999999999",
        "mcts:warp=1",
        "mcts:iterations",
        "expectimax:depth=0",
        "expectimax:bound=0",
        "expectimax:iterations=5",
        "warp",
        "",
    ],
)
def test_bad_bot_specs(spec):
    with pytest.raises(ValueError):
        nutcore.make_bot(spec)


def test_not_a_state_or_not_a_game():
    game, state = decision_state()
    with pytest.raises(ValueError, match="not a nutcore state"):
        nutcore.best_move(game)
    with pytest.raises(ValueError, match="not a nutcore state"):
        nutcore.best_move(None)
    with pytest.raises(ValueError, match="not a nutcore state"):
        nutcore.solve(state.to_json())
    with pytest.raises(ValueError, match="not a nutcore game"):
        nutcore.play_match(None, ["greedy"])
    with pytest.raises(ValueError, match="not a nutcore game"):
        nutcore.play_match(state, ["greedy"])
    with pytest.raises(ValueError):
        nutcore.play_match(game, "greedy")
    with pytest.raises(ValueError):
        nutcore.play_match(game, [object()])
    with pytest.raises(ValueError):
        nutcore.play_match(game, ["greedy"], games=True)
    with pytest.raises(ValueError):
        nutcore.play_match(game, ["greedy"], seed=-1)
    with pytest.raises(ValueError):
        nutcore.load_game(None)


# 11. Bad Purzelbaum parameters are refused by name (the C++ loader checks them before it computes
# the tumbling model); tree memory is reported honestly.


@pytest.mark.parametrize(
    "params,problem",
    [
        ({"branch_lengths": [1.0] * 100}, "1..8 branches"),
        ({"players": 9}, "players must be in 2..4"),
        ({"turn_cap": 0}, "turn_cap"),
        ({"holes": [[0, 0]] * 40}, "2..20 holes"),
        ({"hit_radius": 5.0}, "hit_radius"),
        ({"skill_sigma": [0.5] * 7}, "skill_sigma"),
        ({"holes": [[0, 0], [5, 0], [1, 1]], "branch_lengths": [1.0]}, "outside the box"),
    ],
)
def test_purzelbaum_refuses_bad_parameters_by_name(params, problem):
    with pytest.raises(ValueError, match=problem):
        nutcore.load_game("purzelbaum", **params)


def test_tree_bytes_count_nodes_in_use():
    _, state = decision_state()
    for threads in (1, 4):
        result = nutcore.best_move(state, iterations=200, threads=threads, seed=1)
        extra = result.extra
        assert extra["tree_bytes"] == result.nodes * extra["bytes_per_node"]
        assert extra["reserved_bytes"] >= extra["tree_bytes"]


# Stop tokens: the mechanism a front end uses to end a search now.


def test_stop_token_ends_mcts_early_with_its_best_move_so_far():
    _, state = decision_state()
    token = nutcore.StopToken()
    threading.Timer(0.2, token.stop).start()
    result = nutcore.best_move(state, iterations=10**12, seed=1, stop=token)
    assert token.stopped and result.extra["stopped"] is True
    assert 0 < result.iterations < 10**12 and result.action in state.legal_actions()
    token.reset()
    assert not token.stopped
    assert nutcore.best_move(state, iterations=20, seed=1, stop=token).extra["stopped"] is False


def test_a_stopped_token_stops_every_search_at_once():
    _, state = decision_state()
    token = nutcore.StopToken()
    token.stop()
    with pytest.raises(nutcore.SearchStopped):
        nutcore.best_move(state, iterations=1000, stop=token)
    with pytest.raises(nutcore.SearchStopped):
        nutcore.best_move(state, algorithm="expectimax", depth=12, stop=token)
    _, winter = winter_state(players=3, seed=2)
    with pytest.raises(nutcore.SearchStopped):
        nutcore.solve(winter, stop=token)
    assert nutcore.solve(winter).action in winter.legal_actions()  # no token: solved


def test_stop_token_from_another_thread_ends_deep_expectimax_with_its_last_complete_depth():
    _, state = decision_state()
    token = nutcore.StopToken()
    threading.Timer(0.2, token.stop).start()
    result = nutcore.best_move(state, algorithm="expectimax", depth=14, stop=token)
    assert token.stopped
    depth = result.extra["depth"]
    assert 1 <= depth < 14 and result.extra["max_depth"] == 14
    assert result.extra["complete"] is False and result.extra["stopped"] is True
    fixed = nutcore.best_move(state, algorithm="expectimax", depth=depth)
    assert (result.action, result.value) == (fixed.action, fixed.value)
    assert [(a.action, a.value) for a in result.actions] == [(a.action, a.value) for a in fixed.actions]
