"""Search: forced wins found, exact algorithms equal to brute force, determinism, bad options."""

from __future__ import annotations

import json
import random
import threading
import time

import numpy as np
import pytest

import nutcore
from auf_die_nuesse_positions import position, store
from nutcore import _core
from playing import first_decision, random_step, winter_start


def random_decision_state(players, seed, min_steps=30, params=None):
    game = nutcore.load_game("auf_die_nuesse", players=players, **(params or {}))
    rng = random.Random(seed)
    state = game.new_initial_state()
    steps = 0
    while True:
        if state.is_terminal():
            state = game.new_initial_state()
            steps = 0
        if not state.is_chance_node() and steps >= min_steps:
            return game, state
        random_step(state, rng)
        steps += 1


def final_joker_position():
    # End of the game: seat 0 places its last kept joker. Seat 1 leads 10 to 8; only completing the
    # walnut store (+4) wins, every other placement (+1) loses.
    stores = {
        0: {0: store("walnut", 1), 2: store("hazelnut", 2), 4: store("beechnut", 1), 6: store("acorn", 4)},
        1: {2: store("acorn", 2), 7: store("beechnut", 5), 5: store("walnut", 3)},
    }
    return position(
        2,
        stage="final",
        phase="final_jokers",
        seat=0,
        active=0,
        stores=stores,
        kept_jokers={0: {"walnut/beechnut": 1}},
        end_triggered=True,
        draw_pile=0,
    )


@pytest.mark.parametrize("algorithm", ["mcts", "expectimax"])
def test_search_finds_the_winning_move(algorithm):
    game = nutcore.load_game("auf_die_nuesse", players=2)
    state = game.state_from_json(final_joker_position())
    assert state.scores() == [8, 10]
    result = nutcore.best_move(
        state, algorithm=algorithm, seed=1, **({"iterations": 500} if algorithm == "mcts" else {})
    )
    assert result.action_string == "joker walnut/beechnut as walnut store 0"
    after = state.clone()
    after.apply_action(result.action)
    assert after.is_terminal() and after.returns() == [1.0, 0.0]
    if algorithm == "mcts":
        best = max(result.actions, key=lambda s: s.visits)
        assert best.value == pytest.approx(1.0) and all(s.value == 0.0 for s in result.actions if s is not best)


def test_search_avoids_the_losing_take():
    # Final distribution: seat 0 takes one face-up nut. Only the hazelnut completes its store and
    # overtakes seat 1; any other card loses. Nothing is left to draw, so no chance intervenes.
    stores = {0: {2: store("hazelnut", 2)}, 1: {4: store("acorn", 3), 6: store("walnut", 4)}}
    data = position(
        2,
        stage="final",
        phase="take",
        seat=0,
        active=0,
        stores=stores,
        end_triggered=True,
        draw_pile=0,
        face_up=["walnut", "acorn", "hazelnut", "beechnut"],
        board={"4": [0, 3]},
    )
    game = nutcore.load_game("auf_die_nuesse", players=2)
    state = game.state_from_json(data)
    assert state.scores() == [2, 7]
    for algorithm in ("mcts", "expectimax"):
        result = nutcore.best_move(
            state, algorithm=algorithm, seed=3, **({"iterations": 400} if algorithm == "mcts" else {})
        )
        assert result.action_string == "take slot 2", algorithm


def brute_expectimax(state, depth):
    """Plain recursive expectimax with the same evaluation: margin for 2 players, max-n otherwise."""
    n = len(state.returns())
    if depth == 0 or state.is_terminal():
        v = _core.evaluate(state)
        return [v[0] - v[1], v[1] - v[0]] if n == 2 else v
    if state.is_chance_node():
        total = [0.0] * n
        for a, p in state.chance_outcomes():
            child = state.clone()
            child.apply_action(a)
            for i, x in enumerate(brute_expectimax(child, depth - 1)):
                total[i] += p * x
        return total
    mover = state.current_player()
    best = None
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        v = brute_expectimax(child, depth - 1)
        if best is None or v[mover] > best[mover]:
            best = v
    return best


@pytest.mark.parametrize(
    "players,depth,seed", [(2, 1, 1), (2, 2, 2), (2, 3, 3), (2, 3, 4), (3, 2, 5), (3, 3, 6), (4, 2, 7)]
)
def test_expectimax_equals_brute_force(players, depth, seed):
    for k in range(3):
        _, state = random_decision_state(players, seed * 10 + k, min_steps=40 + 13 * k)
        mover = state.current_player()
        exact = {}
        for stat in nutcore.best_move(state, algorithm="expectimax", depth=depth, pruning=False).actions:
            child = state.clone()
            child.apply_action(stat.action)
            exact[stat.action] = brute_expectimax(child, depth - 1)[mover]
            assert stat.value == pytest.approx(exact[stat.action], abs=1e-9), stat.action_string
        best_value = max(exact.values())
        for star2 in (False, True):
            pruned = nutcore.best_move(state, algorithm="expectimax", depth=depth, pruning=True, star2=star2)
            assert_pruned_values(pruned, exact, best_value, players)


def same_answer(a, b):
    """Two searches' action, value per seat and per-move values, equal to the bit."""
    return (a.action, a.value, [(s.action, s.value) for s in a.actions]) == (
        b.action,
        b.value,
        [(s.action, s.value) for s in b.actions],
    )


# Expectimax to a fixed depth as it answered before it deepened iteratively (a build of ca942d5):
# each depth keeps its move order and ties (the 3- and 4-player positions end in ties), so a search
# that completes its depth answers as it did. (position, depth, options): action, value, per-move values.
EXPECTIMAX_BEFORE_DEEPENING = [
    (
        ("random", 2, 11),
        3,
        {},
        1,
        [1.0625000000000002, -1.0625000000000002],
        [(0, 0.5868055555555555), (1, 1.0625000000000002)],
    ),
    (
        ("random", 2, 12),
        4,
        {},
        10,
        [-5.424652777777777, 5.424652777777777],
        [(10, -5.424652777777777), (11, -5.4692129629629616)],
    ),
    (
        ("random", 2, 13),
        3,
        {"star2": True},
        6,
        [-5.877777777777776, 5.877777777777776],
        [(6, 5.877777777777776), (11, 5.627777777777778)],
    ),
    (
        ("random", 2, 14),
        2,
        {"pruning": False},
        17,
        [-2.0250000000000004, 2.0250000000000004],
        [
            (17, 2.0250000000000004),
            (18, 0.5250000000000005),
            (19, 0.552777777777778),
            (22, 0.46250000000000013),
            (23, 0.37500000000000006),
            (24, 0.4416666666666663),
        ],
    ),
    (
        ("random", 3, 15),
        3,
        {},
        0,
        [6.452546296296299, 4.619097222222223, 2.9999999999999987],
        [(0, 6.452546296296299), (1, 5.659722222222221)],
    ),
    (("random", 4, 16), 2, {}, 3, [4.9375, 5.555555555555555, 5.6875, 2.5], [(3, 5.6875), (8, 5.6875)]),
    (
        ("first", 2),
        7,
        {},
        3,
        [1.6645034241953702, -1.6645034241953702],
        [(3, 1.6645034241953702), (5, 1.661318519629883)],
    ),
    (
        ("first", 2),
        6,
        {"star2": True},
        5,
        [1.2843167724051205, -1.2843167724051205],
        [(3, 1.2770686871284855), (5, 1.2843167724051205)],
    ),
    (
        ("first", 3),
        6,
        {},
        156,
        [2.389609053497942, 2.3500000000000005, 3.2777777777777777],
        [
            (1, 1.6000000000000003),
            (156, 2.3500000000000005),
            (157, 2.3500000000000005),
            (158, 2.3500000000000005),
            (159, 2.3500000000000005),
        ],
    ),
    (
        ("first", 4),
        5,
        {},
        19,
        [1.6, 2.35, 3.25, 2.5277777777777777],
        [(17, 2.5), (19, 2.5277777777777777), (21, 2.4375), (23, 2.35), (24, 2.4166666666666665)],
    ),
]


@pytest.mark.parametrize("case", EXPECTIMAX_BEFORE_DEEPENING, ids=lambda c: f"{c[0][0]}-{c[0][1]}p-depth{c[1]}")
def test_expectimax_to_its_full_depth_answers_as_before_deepening(case):
    where, depth, options, action, value, actions = case
    state = (
        random_decision_state(where[1], where[2], min_steps=45)[1] if where[0] == "random" else first_decision(where[1])
    )
    result = nutcore.best_move(state, algorithm="expectimax", depth=depth, **options)
    assert result.action == action
    assert result.value == pytest.approx(value, rel=1e-12, abs=1e-12)
    assert [s.action for s in result.actions] == [a for a, _ in actions]
    assert [s.value for s in result.actions] == pytest.approx([v for _, v in actions], rel=1e-12, abs=1e-12)
    assert result.extra["depth"] == result.extra["max_depth"] == depth
    assert result.extra["complete"] is True and result.extra["stopped"] is False


@pytest.mark.parametrize("players", [2, 3])
def test_expectimax_with_a_time_limit_answers_its_deepest_complete_depth(players):
    # Depth 30 would take years (each ply costs about 8 times the last: depth 8 is ~1 s here).
    state = first_decision(players)
    start = time.monotonic()
    result = nutcore.best_move(state, algorithm="expectimax", depth=30, time_limit=0.2)
    assert time.monotonic() - start < 20  # loose: the machine is shared; without the limit, years
    depth = result.extra["depth"]
    assert 1 <= depth < 30 and result.extra["max_depth"] == 30
    assert result.extra["complete"] is False and result.extra["stopped"] is False
    fixed = nutcore.best_move(state, algorithm="expectimax", depth=depth)
    assert fixed.extra["complete"] is True and same_answer(result, fixed)
    assert result.nodes > fixed.nodes  # every depth's nodes, the one cut short included


def test_expectimax_with_a_time_limit_and_no_depth_deepens_past_the_default():
    state = first_decision(2)
    result = nutcore.best_move(state, algorithm="expectimax", time_limit=1.0)
    assert result.extra["max_depth"] == 64 and 3 < result.extra["depth"] < 64  # depth 4 is ~700 nodes
    assert same_answer(result, nutcore.best_move(state, algorithm="expectimax", depth=result.extra["depth"]))
    # A depth given bounds it; without a time limit the default depth holds.
    bounded = nutcore.best_move(state, algorithm="expectimax", depth=2, time_limit=30.0)
    assert (bounded.extra["depth"], bounded.extra["complete"]) == (2, True)
    assert nutcore.best_move(state, algorithm="expectimax").extra["depth"] == 3


def test_expectimax_deepening_ends_where_every_line_ends_the_game():
    # One move left, then the game is over: depth 1 sees every end, and deeper searches would see
    # the same tree, so a time-limited search answers at once with the full depth, complete.
    state = nutcore.load_game("auf_die_nuesse", players=2).state_from_json(final_joker_position())
    result = nutcore.best_move(state, algorithm="expectimax", time_limit=600)
    assert result.action_string == "joker walnut/beechnut as walnut store 0"
    assert (result.extra["depth"], result.extra["complete"]) == (64, True)
    # Depth 1's leaves are at its horizon (where no search asks whether the game ended), depth 2's
    # all at the end: the deepening stops there, as a search to depth 2 does.
    two = nutcore.best_move(state, algorithm="expectimax", depth=2)
    assert result.nodes == two.nodes and same_answer(result, two)


def test_a_stop_during_deepening_answers_the_last_complete_depth():
    state = first_decision(3)
    token = nutcore.StopToken()
    threading.Timer(0.2, token.stop).start()
    result = nutcore.best_move(state, algorithm="expectimax", depth=30, time_limit=3600, stop=token)
    depth = result.extra["depth"]
    assert 1 <= depth < 30 and result.extra["complete"] is False and result.extra["stopped"] is True
    assert same_answer(result, nutcore.best_move(state, algorithm="expectimax", depth=depth))
    token.reset()
    token.stop()  # before depth 1: no answer at all
    with pytest.raises(nutcore.SearchStopped):
        nutcore.best_move(state, algorithm="expectimax", depth=30, time_limit=3600, stop=token)


def test_the_solver_with_a_time_limit_it_cannot_keep_answers_stopped():
    state = winter_start()
    solved = nutcore.solve(state)
    assert solved.nodes > 10_000  # thousands of stop polls (one per 1,024 calls)
    with pytest.raises(nutcore.SearchStopped):
        nutcore.best_move(state, algorithm="solver", time_limit=1e-6)
    enough = nutcore.best_move(state, algorithm="solver", time_limit=60)
    assert (enough.action, enough.value) == (solved.action, solved.value)
    # The caller's stop reaches a solver through its time limit's flag.
    token = nutcore.StopToken()
    token.stop()
    with pytest.raises(nutcore.SearchStopped):
        nutcore.best_move(state, algorithm="solver", time_limit=60, stop=token)


def test_auto_gives_its_exact_choice_no_time_limit():
    # "auto" solves Purzelbaum's winter (tens of milliseconds at most) whatever its time limit: the
    # exact answer, never `stopped` for want of time (docs: README, best_move).
    state = winter_start()
    result = nutcore.best_move(state, time_limit=1e-6, seed=1)
    assert result.algorithm == "solver" and result.action == nutcore.solve(state).action


def test_bots_take_a_time_limit_for_the_exact_searches():
    state = first_decision(2)
    bot = nutcore.make_bot("expectimax:depth=30,time_limit=0.1")
    bot.reset(1)
    assert bot.step(state) in state.legal_actions()
    # The solver bot plays greedy where its solver cannot finish in time (greedy elsewhere too):
    # here greedy digs another hole than the solver (10,582 positions).
    winter = winter_start(players=3, seed=6)
    assert _core.greedy_action(winter) != nutcore.solve(winter).action
    for spec, expected in (("solver:time_limit=1e-6", _core.greedy_action(winter)), ("solver:time_limit=60", None)):
        bot = nutcore.make_bot(spec)
        bot.reset(1)
        assert bot.step(winter) == (expected if expected is not None else nutcore.solve(winter).action), spec


def assert_pruned_values(pruned, exact, best_value, players):
    assert exact[pruned.action] == pytest.approx(best_value, abs=1e-9)
    for stat in pruned.actions:
        if stat.action == pruned.action or players > 2:
            assert stat.value == pytest.approx(exact[stat.action], abs=1e-9)
        else:  # fail-soft bound for the moves the window cut
            assert exact[stat.action] <= stat.value + 1e-9 and stat.value <= best_value + 1e-9


def brute_turn(state, me, turn):
    """The rest of the turn by brute force over the state API: the value of each choice."""
    j = state.to_json()
    if j["turn"] != turn or j["stage"] != "turn" or j["phase"] not in ("roll_or_stop", "choose_space", "roll"):
        return _core._testing.adn_heuristic_margin(state, me)  # the turn is over
    if state.is_chance_node():
        total = 0.0
        for a, p in state.chance_outcomes():
            child = state.clone()
            child.apply_action(a)
            total += p * brute_turn(child, me, turn)
        return total
    return max(brute_value(state, a, me) for a in state.legal_actions())


def brute_value(state, action, me):
    child = state.clone()
    child.apply_action(action)
    return brute_turn(child, me, state.to_json()["turn"])


def test_turn_solver_equals_brute_force():
    game = nutcore.load_game("auf_die_nuesse", players=3)
    rng = random.Random(11)
    checked = 0
    for track in ([6, 8], [5, 7], [4, 9, 10], [2, 12]):
        # Eleven squirrels on the board leave few in the supply, so that brute force stays small.
        data = position(
            3,
            phase="roll_or_stop",
            active=1,
            start_track=track,
            board={
                "A": [0, 1, 1],
                "B": [1, 1, 0],
                "R": [0, 1, 0],
                "D": [0, 1, 0],
                "E": [1, 1, 0],
                "L": [0, 2, 1],
                "R3": [1, 2, 0],
                "Rt": [0, 2, 2],
            },
            stores={1: {0: store("walnut", 1), 7: store("acorn", 4)}, 2: {6: store("hazelnut", 3)}},
            face_up=[rng.choice(["walnut", "acorn", "hazelnut"]) for _ in range(4)],
        )
        state = game.state_from_json(data)
        assert state.to_json()["supply"][1] == 4 - len(track)
        result = nutcore.best_move(state, algorithm="solver")
        for stat in result.actions:
            assert stat.value == pytest.approx(brute_value(state, stat.action, 1), abs=1e-9), stat.action_string
        checked += 1
    assert checked == 4


def test_turn_solver_at_a_choice_of_spaces():
    game = nutcore.load_game("auf_die_nuesse", players=2)
    data = position(
        2,
        phase="choose_space",
        roll_choice=[5, 9],
        start_track=[3],
        board={
            "A": [1, 1],
            "B": [1, 0],
            "R": [1, 0],
            "D": [1, 1],
            "E": [0, 1],
            "L": [2, 0],
            "R3": [2, 1],
            "Rt": [2, 2],
            "4": [2, 0],
        },
    )
    state = game.state_from_json(data)
    result = nutcore.best_move(state, algorithm="solver")
    assert [s.action_string for s in result.actions] == ["space 5", "space 9"]
    for stat in result.actions:
        assert stat.value == pytest.approx(brute_value(state, stat.action, 0), abs=1e-9)


def test_solver_needs_a_turn_decision():
    game = nutcore.load_game("auf_die_nuesse", players=2)
    state = game.state_from_json(final_joker_position())
    with pytest.raises(ValueError):
        nutcore.best_move(state, algorithm="solver")


def test_same_seed_same_search():
    _, state = random_decision_state(3, 21, 80)
    a = nutcore.best_move(state, iterations=700, seed=42)
    b = nutcore.best_move(state, iterations=700, seed=42)
    assert a.action == b.action and [vars(s) for s in a.actions] == [vars(s) for s in b.actions]
    assert a.iterations == 700 and a.nodes == b.nodes
    for threads in (2, 3):
        c = nutcore.best_move(state, iterations=700, seed=42, threads=threads)
        d = nutcore.best_move(state, iterations=700, seed=42, threads=threads)
        assert c.iterations == 700 and [vars(s) for s in c.actions] == [vars(s) for s in d.actions]


def test_time_limit_and_statistics():
    _, state = random_decision_state(2, 5, 60)
    result = nutcore.best_move(state, time_limit=0.05, threads=2, seed=1)
    assert 0.04 < result.elapsed < 1.0 and result.iterations > 0
    assert sum(s.visits for s in result.actions) <= result.iterations
    assert result.extra["bytes_per_node"] == 24 and result.nodes > len(result.actions)
    assert sorted(s.action for s in result.actions) == state.legal_actions()
    assert sum(result.value) == pytest.approx(1.0)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"iterations": 0},
        {"iterations": -5},
        {"iterations": 1.5},
        {"time_limit": -1.0},
        {"time_limit": 0},
        {"threads": 0},
        {"threads": 1000},
        {"algorithm": "alphazero"},
        {"exploration": -1.0},
        {"widening": -1.0},
        {"margin": 1.5},
        {"margin": -0.1},
        {"margin_scale": 0},
        {"playout_weight": 1.5},
        {"playout_weight": -0.5},
        {"widening": float("nan")},
        {"algorithm": "ismcts", "widening": 1.0},
        {"depth_limit": 3},
        {"seed": "abc"},
        {"algorithm": "expectimax", "depth": 0},
        {"algorithm": "expectimax", "iterations": 100},
        {"algorithm": "expectimax", "threads": 2},
        {"algorithm": "expectimax", "time_limit": 0},
        {"algorithm": "solver", "threads": 2},
        {"algorithm": "solver", "iterations": 100},
        {"algorithm": "solver", "time_limit": -1.0},
    ],
)
def test_bad_search_options_are_rejected(kwargs):
    _, state = random_decision_state(2, 8, 50)
    with pytest.raises(ValueError):
        nutcore.best_move(state, **kwargs)


def test_search_needs_a_decision_node():
    game = nutcore.load_game("auf_die_nuesse", players=2)
    with pytest.raises(ValueError, match="chance"):
        nutcore.best_move(game.new_initial_state())


def test_bots_and_match():
    game = nutcore.load_game("auf_die_nuesse", players=3)
    result = nutcore.play_match(game, ["greedy", "random", "mcts:iterations=30"], games=3, seed=4)
    assert [b.name for b in result.bots] == ["greedy", "random", "mcts:iterations=30"]
    assert all(b.games == 3 for b in result.bots)
    assert sum(b.win_share for b in result.bots) == pytest.approx(1.0)
    for b in result.bots:
        assert 0.0 <= b.ci95[0] <= b.win_share <= b.ci95[1] <= 1.0
    again = nutcore.play_match(game, ["greedy", "random", "mcts:iterations=30"], games=3, seed=4)
    assert [b.returns for b in again.bots] == [b.returns for b in result.bots]
    assert "win share" in result.table() and "repeated" not in result.table()
    repeated = nutcore.play_match(game, ["greedy", "random"], games=2, seed=4)
    assert [b.games for b in repeated.bots] == [4, 2] and "repeated" in repeated.table()
    for bad in (["greedy"] * 4, [], ["alphazero"], ["mcts:iterations"]):
        with pytest.raises(ValueError):
            nutcore.play_match(game, bad, games=1)


def test_rotation_puts_every_bot_in_every_seat():
    game = nutcore.load_game("auf_die_nuesse", players=2)
    seats = []

    class Spy(nutcore.RandomBot):
        def step(self, state):
            seats.append(state.current_player())
            return super().step(state)

    nutcore.play_match(game, [Spy(), "random"], games=2, seed=1)
    assert set(seats) == {0, 1}


def test_cli(tmp_path, capsys):
    from nutcore.cli import main

    assert main(["match", "auf_die_nuesse", "--bot", "greedy", "--bot", "random", "--games", "2", "--quiet"]) == 0
    assert "win share" in capsys.readouterr().out
    _, state = random_decision_state(2, 9, 40)
    path = tmp_path / "position.json"
    path.write_text(json.dumps(state.to_json()))
    assert main(["bestmove", "auf_die_nuesse", "--json", str(path), "--iterations", "50", "--seed", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["action"] in state.legal_actions() and out["iterations"] == 50
    path.write_text("{}")
    assert main(["bestmove", "auf_die_nuesse", "--json", str(path)]) == 2
    assert main(["playouts", "auf_die_nuesse", "--games", "10"]) == 0


def test_turn_solver_equals_brute_force_on_positions_from_play():
    # Few squirrels per player keep a turn short enough for brute force; the positions are the
    # roll / stop and choose-space decisions met along random games.
    game = nutcore.load_game("auf_die_nuesse", players=3, squirrels=3)
    rng = random.Random(17)
    state = game.new_initial_state()
    found = 0
    while found < 15:
        if state.is_terminal():
            state = game.new_initial_state()
        if state.to_json()["phase"] in ("roll_or_stop", "choose_space") and rng.random() < 0.2:
            result = nutcore.best_move(state, algorithm="solver")
            for stat in result.actions:
                expected = brute_value(state, stat.action, state.current_player())
                assert stat.value == pytest.approx(expected, abs=1e-9)
            assert result.action_string == max(result.actions, key=lambda s: s.value).action_string
            found += 1
        random_step(state, rng)


def test_cli_play_against_the_ai(monkeypatch, capsys):
    from nutcore.cli import main

    answers = iter(["hint", "nonsense"] + ["0"] * 1000)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["play", "purzelbaum", "--bot", "greedy", "--hint-iterations", "50", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "AI suggests:" in out and "not a legal move" in out and "game over" in out
    answers = iter(["quit"])
    assert main(["play", "auf_die_nuesse", "--players", "3", "--seat", "2", "--bot", "random"]) == 0
    assert "bye" in capsys.readouterr().out


@pytest.mark.parametrize("name, algorithm", [("auf_die_nuesse", "mcts"), ("ritter", "ismcts")])
def test_a_stop_token_shows_the_search_as_it_runs(name, algorithm):
    # StopToken.progress(): the root statistics the search reports while it runs (for front ends);
    # the last report is the finished search's own statistics, and reading it changes nothing.
    state = nutcore.load_game(name).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    token = nutcore.StopToken()
    assert token.progress() is None
    seen = []
    finished = threading.Event()

    def watch():
        while not finished.is_set():
            seen.append(token.progress())
            time.sleep(0.05)

    watcher = threading.Thread(target=watch)
    watcher.start()
    result = nutcore.best_move(state, algorithm=algorithm, time_limit=0.8, seed=3, stop=token)
    finished.set()
    watcher.join()
    live = [s["iterations"] for s in seen if s is not None]
    assert len(live) >= 2 and live == sorted(live) and live[0] < result.iterations
    final = token.progress()
    assert final["iterations"] == result.iterations
    assert [(a["action"], a["visits"]) for a in final["actions"]] == [(a.action, a.visits) for a in result.actions]
    again = nutcore.best_move(state, algorithm=algorithm, iterations=3000, seed=5, stop=token)
    plain = nutcore.best_move(state, algorithm=algorithm, iterations=3000, seed=5)
    assert [a.visits for a in again.actions] == [a.visits for a in plain.actions]
    assert token.progress()["iterations"] == 3000


@pytest.mark.parametrize("name, games", [("auf_die_nuesse", 300), ("purzelbaum", 600), ("ritter", 200), ("nutz", 300)])
def test_greedy_playouts_follow_the_greedy_policy(name, games):
    # _core.greedy_playouts (for bench/iteration_cost.py) against the same games played in Python,
    # the playout policy (rollout_action) at every decision and chance by its odds: the same
    # lengths and returns, within sampling error. (Uniformly random playouts differ clearly on
    # every game but Purzelbaum.)
    game = nutcore.load_game(name)
    start = game.new_initial_state()
    returns, lengths = _core.greedy_playouts(start, 2000, seed=4)
    again = _core.greedy_playouts(start, 2000, seed=4)
    np.testing.assert_array_equal(lengths, again[1])
    np.testing.assert_array_equal(returns, again[0])
    rng = random.Random(4)
    py_lengths, py_returns = [], []
    for _ in range(games):
        state, length = start.clone(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, odds = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, odds)[0])
            else:
                state.apply_action(_core.rollout_action(state))
            length += 1
        py_lengths.append(length)
        py_returns.append(state.returns()[0])
    for native, python in ((lengths, np.array(py_lengths)), (returns[:, 0], np.array(py_returns))):
        error = np.hypot(native.std() / len(native) ** 0.5, python.std() / len(python) ** 0.5)
        assert abs(native.mean() - python.mean()) < 5 * error + 1e-9
    random_lengths = game.random_playouts(2000, seed=4)[1]
    if name != "purzelbaum":
        error = np.hypot(lengths.std(), random_lengths.std()) / 2000**0.5
        assert abs(lengths.mean() - random_lengths.mean()) > 5 * error
