"""Purzelbaum at the boundary: bad parameters, inconsistent JSON and corrupted bytes raise
ValueError and nothing else."""

from __future__ import annotations

import copy
import random

import pytest

import nutcore
from playing import chi2_sf, play_randomly


@pytest.mark.parametrize(
    "params",
    [
        {"players": 5},
        {"players": "2"},
        {"skill_sigma": 0},
        {"skill_sigma": -1.0},
        {"skill_sigma": [0.5, 0.5, 0.5]},
        {"skill_sigma": True},
        {"hit_radius": 0.6},
        {"branch_lengths": []},
        {"branch_lengths": [1.0] * 9},
        {"holes": [[0, 0], [1, 0]]},  # fewer holes than branch ends
        {"holes": [[x, 0] for x in range(-8, 9)] + [[0, 1], [0, 2], [0, -1]]},  # outside the box
        {"turn_cap": 0},
        {"no_such_parameter": 1},
        {"tumble_tables": []},
    ],
)
def test_bad_parameters(params):
    with pytest.raises(ValueError):
        nutcore.load_game("purzelbaum", **params)


def midgame(players=3, seed=1, steps=20):
    game = nutcore.load_game("purzelbaum", players=players)
    return game, play_randomly(game.new_initial_state(), random.Random(seed), steps)


def edited(data, path, value):
    data = copy.deepcopy(data)
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


@pytest.mark.parametrize(
    "path,value",
    [
        (["holes", 0, "nuts"], 17),  # more nuts than the tree had
        (["leaves", 0], 9),  # leaves do not add up
        (["season"], "winter"),
        (["phase"], "dig"),
        (["phase"], "tumble"),
        (["current_player"], 3),
        (["ends"], [True] * 15),
        (["holes"], []),
        (["turn"], 999),
        (["shover"], 0),
        (["game"], "auf_die_nuesse"),
        (["players"], 2),
    ],
)
def test_inconsistent_json(path, value):
    game, state = midgame()
    data = state.to_json()
    game.state_from_json(data)
    with pytest.raises(ValueError):
        game.state_from_json(edited(data, path, value))


def test_a_leaf_on_a_green_disk_is_rejected():
    game, state = midgame()
    data = state.to_json()
    green = next(h for h, hole in enumerate(data["holes"]) if not hole["white"])
    white_leaf = next(h for h, hole in enumerate(data["holes"]) if hole["white"] and hole["leaf"])
    data["holes"][green]["leaf"] = True
    data["holes"][white_leaf]["leaf"] = False
    with pytest.raises(ValueError):
        game.state_from_json(data)


def test_bytes_of_another_game_are_rejected():
    game, state = midgame()
    other = nutcore.load_game("auf_die_nuesse", players=3).new_initial_state()
    with pytest.raises(ValueError):
        game.deserialize_state(other.serialize())


@pytest.mark.parametrize("opening", [True, False])
def test_uniform_shove_without_listing(opening):
    # Playouts draw a shove without listing the (up to 320) legal ones: uniform over the legal list,
    # at the opening and where some targets and branch ends are gone.
    game = nutcore.load_game("purzelbaum", players=2)
    state, rng = game.new_initial_state(), random.Random(2)
    while not opening and (state.is_chance_node() or len(state.legal_actions()) in (320, 20)):
        play_randomly(state, rng, 1)
    legal = state.legal_actions()
    assert state.action_to_string(legal[0]).startswith("target") and (len(legal) == 320) == opening
    per_action = 40
    counts = dict.fromkeys(legal, 0)
    for seed in range(per_action * len(legal)):
        counts[state._random_action_pair(seed)[0]] += 1
    chi2 = sum((c - per_action) ** 2 / per_action for c in counts.values())
    assert chi2_sf(chi2, len(legal) - 1) > 1e-4


def first_uniform(seed):
    """Rng(seed).uniform() of cpp/core/rng.h (splitmix64 seeding, xoshiro256**), in Python."""
    mask = (1 << 64) - 1
    words = []
    for _ in range(4):
        seed = (seed + 0x9E3779B97F4A7C15) & mask
        z = seed
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        words.append(z ^ (z >> 31))
    x = (words[1] * 5) & mask
    result = ((((x << 7) | (x >> 57)) & mask) * 9) & mask
    return (result >> 11) * 2.0**-53


def test_tumble_drawn_as_the_listed_outcomes_are():
    # sample_chance reads a tumble from precomputed thresholds; its contract is the draw of
    # sample_outcome over chance_outcomes: one uniform, the probabilities subtracted in list order,
    # the first that takes it below 0 (the last if rounding leaves some over). Exactly, draw by draw.
    game = nutcore.load_game("purzelbaum", players=3)
    state, rng = game.new_initial_state(), random.Random(8)
    tumbles = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            for seed in range(400):
                r = first_uniform(seed + 1000 * tumbles)
                listed = outcomes[-1][0]
                for action, probability in outcomes:
                    r -= probability
                    if r < 0:
                        listed = action
                        break
                assert state._sample_chance(seed + 1000 * tumbles) == listed
            tumbles += 1
        play_randomly(state, rng, 1)
    assert tumbles >= 10
