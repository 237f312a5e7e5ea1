"""MCTS's move order and progressive widening (issue 13): a game's order_actions hook lists its
legal moves best first, and a widened node chooses among only the first ceil(widening * sqrt(n + 1))."""

from __future__ import annotations

import math
import random

import pytest

import nutcore
from nutcore import _core
from playing import random_step

PERFECT = [g for g in nutcore.list_games() if not nutcore.load_game(g).hidden_information]


def purzelbaum_decisions(count: int, seed: int):
    """Decision states of every phase (shove, bury, dig) from random games."""
    game = nutcore.load_game("purzelbaum", players=2)
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node() and rng.random() < 0.3:
                out.append(state.clone())
            random_step(state, rng)
    return out[:count]


def test_order_is_a_permutation_of_the_legal_moves_led_by_the_greedy_one():
    phases = set()
    for state in purzelbaum_decisions(150, seed=3):
        ordered = _core.ordered_actions(state)
        assert sorted(ordered) == sorted(state.legal_actions())
        assert ordered[0] == _core.greedy_action(state)
        phases.add(state.to_json()["phase"])
    assert {"shove", "dig"} <= phases


def test_shoves_come_by_falling_hit_probability():
    # Seats of different skill: each is ordered by its own hit chances.
    game = nutcore.load_game("purzelbaum", players=2, skill_sigma=[0.3, 0.8])
    rng = random.Random(5)
    seats = set()
    state = game.new_initial_state()
    while len(seats) < 2:
        if not state.is_chance_node() and state.to_json()["phase"] == "shove":
            hits = []
            for action in _core.ordered_actions(state):
                child = state.clone()
                child.apply_action(action)
                hits.append(dict(child.chance_outcomes()).get(child.string_to_action("hit"), 0.0))
            assert hits == sorted(hits, reverse=True) and hits[0] > hits[-1]
            seats.add(state.current_player())
        random_step(state, rng)


@pytest.mark.parametrize("widening, iterations", [(0.5, 100), (1.0, 400), (2.0, 50)])
def test_a_widened_root_tries_only_its_first_moves(widening, iterations):
    state = nutcore.load_game("purzelbaum", players=2).new_initial_state()
    result = nutcore.best_move(state, "mcts", iterations=iterations, seed=1, widening=widening)
    tried = {s.action for s in result.actions if s.visits}
    opened = math.ceil(widening * math.sqrt(iterations))  # the root's visits before its last choice
    assert len(tried) <= opened < len(state.legal_actions())
    assert tried == set(_core.ordered_actions(state)[: len(tried)])
    unwidened = nutcore.best_move(state, "mcts", iterations=iterations, seed=1)
    assert len({s.action for s in unwidened.actions if s.visits}) == min(iterations, len(state.legal_actions()))


def test_games_without_an_order_ignore_widening():
    game = nutcore.load_game("auf_die_nuesse", players=2)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        random_step(state, random.Random(len(state.history())))
    plain = nutcore.best_move(state, "mcts", iterations=300, seed=4)
    widened = nutcore.best_move(state, "mcts", iterations=300, seed=4, widening=0.1)
    assert [(s.action, s.visits) for s in plain.actions] == [(s.action, s.visits) for s in widened.actions]


def last_move_states(name: str, count: int, seed: int):
    """Decision states whose every legal move ends the game."""
    game = nutcore.load_game(name, players=2)
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node():
                ends = []
                for action in state.legal_actions():
                    child = state.clone()
                    child.apply_action(action)
                    ends.append(child if child.is_terminal() else None)
                if all(ends):
                    out.append((state.clone(), ends))
                    break
            random_step(state, rng)
    return out


def mixed_reward(end, seat: int, margin: float, scale: float) -> float:
    scores = end.scores()
    lead = scores[seat] - max(s for q, s in enumerate(scores) if q != seat)
    return (1 - margin) * end.returns()[seat] + margin * (0.5 + 0.5 * math.tanh(lead / scale))


@pytest.mark.parametrize("name", PERFECT)
@pytest.mark.parametrize("margin, scale", [(0.0, 10.0), (0.3, 4.0), (1.0, 2.5)])
def test_a_margin_mixes_the_points_lead_into_the_reward(name, margin, scale):
    # Where every move ends the game each move's value is exactly its reward to the mover.
    for state, ends in last_move_states(name, 3, seed=11):
        seat = state.current_player()
        result = nutcore.best_move(state, "mcts", iterations=50, seed=2, margin=margin, margin_scale=scale)
        want = {a: mixed_reward(end, seat, margin, scale) for a, end in zip(state.legal_actions(), ends)}
        for stat in result.actions:
            assert stat.value == pytest.approx(want[stat.action], abs=1e-6)
