"""Throughput of random playouts: the C++ core against the Python reference.

    python -m pytest bench --benchmark-columns=mean,ops,rounds

Each benchmark stores transitions per second (actions applied, decisions and chance outcomes) in
extra_info; bench/throughput.py prints both and their ratio from one run.
"""

from __future__ import annotations

import random

import pytest

import nutcore
import nutcore.reference


def reference_playouts(game, n, seed):
    """The reference has no C++ loop: play in Python, chance by its exact probabilities."""
    rng = random.Random(seed)
    steps = 0
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps


@pytest.mark.parametrize("name", nutcore.list_games())
@pytest.mark.parametrize("players", [2, 4])
def test_native_random_playouts(benchmark, name, players):
    game = nutcore.load_game(name, players=players)
    _, lengths = benchmark(game.random_playouts, 200, 1)
    benchmark.extra_info["transitions_per_round"] = int(lengths.sum())
    benchmark.extra_info["transitions_per_second"] = lengths.sum() / benchmark.stats.stats.mean


@pytest.mark.parametrize("name", nutcore.list_games())
@pytest.mark.parametrize("players", [2, 4])
def test_reference_random_playouts(benchmark, name, players):
    game = nutcore.reference.load_game(name, players=players)
    steps = benchmark.pedantic(reference_playouts, args=(game, 2, 1), rounds=3, iterations=1)
    benchmark.extra_info["transitions_per_round"] = steps
    benchmark.extra_info["transitions_per_second"] = steps / benchmark.stats.stats.mean
