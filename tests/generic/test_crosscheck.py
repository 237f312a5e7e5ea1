"""Cross-check: the C++ core of every game against its independent Python reference, step by step.

Random games (chance outcomes drawn by their probabilities, decisions uniformly) are played in both
implementations with the same actions. After every step the player to move, the legal actions and
their strings, the chance outcomes (their probabilities to 1e-12) and the canonical JSON must agree
(in games of hidden information each seat's view too, and what it sees of each move played);
at the end, returns and scores. NUTCORE_CROSSCHECK_GAMES sets the games per game and player count (CI: 300),
NUTCORE_CROSSCHECK_SEED the seed.
"""

from __future__ import annotations

import os
import random

import pytest

import nutcore
import nutcore.reference
from playing import random_step

GAMES = int(os.environ.get("NUTCORE_CROSSCHECK_GAMES", "300"))
SEED = int(os.environ.get("NUTCORE_CROSSCHECK_SEED", "2026"))


def assert_same(native, reference, where):
    assert native.current_player() == reference.current_player(), where
    assert native.is_chance_node() == reference.is_chance_node(), where
    assert native.is_terminal() == reference.is_terminal(), where
    legal = native.legal_actions()
    assert legal == reference.legal_actions(), where
    assert [native.action_to_string(a) for a in legal] == [reference.action_to_string(a) for a in legal], where
    # The same outcomes; their probabilities to 1e-12 (Purzelbaum's come from two computations of
    # its model, the reference's with libm, the game's with functions of its own).
    native_chance, reference_chance = native.chance_outcomes(), reference.chance_outcomes()
    assert [a for a, _ in native_chance] == [a for a, _ in reference_chance], where
    assert all(abs(p - q) <= 1e-12 for (_, p), (_, q) in zip(native_chance, reference_chance)), where
    assert native.to_json() == reference.to_json(), where
    if hasattr(reference, "information_state_string"):  # games of hidden information
        for p in range(len(native.returns())):
            assert native.information_state_string(p) == reference.information_state_string(p), (where, p)
            assert native.observation_string(p) == reference.observation_string(p), (where, p)
            assert native.observation_tensor(p).tolist() == list(reference.observation_tensor(p)), (where, p)


def play_one(game, ref_game, rng, where):
    native = game.new_initial_state()
    reference = ref_game.new_initial_state()
    steps = 0
    while True:
        assert_same(native, reference, (where, steps))
        if native.is_terminal():
            break
        if native.is_chance_node():
            actions, probs = zip(*native.chance_outcomes())
            action = rng.choices(actions, probs)[0]
        else:
            action = rng.choice(native.legal_actions())
        if hasattr(reference, "observe_action"):  # what each seat sees of it
            for p in range(len(native.returns())):
                assert native.observe_action(action, p) == reference.observe_action(action, p), (where, steps, p)
        native.apply_action(action)
        reference.apply_action(action)
        steps += 1
    assert native.returns() == reference.returns(), where
    assert native.scores() == reference.scores(), where
    assert native.history() == reference.history(), where
    return steps


GAME_NAMES = nutcore.list_games()

# Odd parameters reach rare corners of each game.
ODD_PARAMS = {
    # tiny decks end early, few squirrels empty the supply, a low cap ends games by the cap,
    # unusual stores change the twins
    "auf_die_nuesse": dict(
        turn_cap=25,
        squirrels=5,
        reserve=2,
        nuts_per_kind=4,
        jokers_per_pair=1,
        removed_per_kind_2p=1,
        removed_per_kind_3p=0,
        store_capacities=[1, 2, 2, 2, 3, 5, 7, 7],
        store_values=[1, 4, 4, 6, 9, 20, 40, 40],
    ),
    # a smaller meadow, fewer branches, a different sigma per seat, a cap reached in winter
    "purzelbaum": dict(
        skill_sigma=[0.2, 0.9, 0.5, 1.5][:2],
        hit_radius=0.3,
        branch_lengths=[1.0, 2.5, 1.7, 0.6, 2.0, 1.2],
        holes=[[x, y] for x in range(-2, 2) for y in range(-2, 1)],
        half_box=2.5,
        turn_cap=20,
    ),
    # a small board with a dead end (walks get stuck), a cul-de-sac hiding place, an odd die, few
    # cards, a low target and floor, one empty stack ends the game, the other shouting rule
    "ritter": dict(
        board={
            "bushes": ["A", "B", "C", "D", "E"],
            "hiding_places": ["Den"],
            "edges": [["A", "B"], ["B", "C"], ["C", "A"], ["C", "D"], ["D", "E"], ["B", "Den"]],
        },
        stack_size=3,
        hazelnuts=6,
        thieves_per_kind=3,
        die=[1, 2, 2, 4, 5],
        delivery_points=[2, 5],
        shout_points=3,
        score_floor=-5,
        score_target=9,
        empty_stacks_to_end=1,
        shout_resolution="first_only",
        turn_cap=60,
    ),
    # a card set with two moons on a card, equal nut values, a predator that takes two cards from
    # the others' displays, one that hits everyone, a self-predator partly marked 3+ (kept: the
    # 3+ cards stay in with 2 players too), few rounds and tokens, a cap of 2, the turn cap
    "nutz": dict(
        cards={
            "name": "odd",
            "kinds": [
                {
                    "name": "nut",
                    "score": {"each": 2},
                    "cards": [{"count": 9}, {"count": 3, "moons": 2}, {"count": 2, "three_plus": True}],
                },
                {"name": "pip", "score": {"each": 2}, "cards": [{"count": 6, "moons": 1}]},
                {"name": "gem", "score": {"each": 5}, "cards": [{"count": 4}]},
                {
                    "name": "berry",
                    "score": {"set": [2, 4], "beyond": 3},
                    "cards": [{"count": 8}, {"count": 2, "moons": 3}],
                },
                {"name": "shroom", "score": {"groups": 3, "points": 7}, "cards": [{"count": 9}]},
                {
                    "name": "wolf",
                    "predator": {"discard": "highest", "count": 2, "of": ["pip", "nut", "gem"], "target": "others"},
                    "cards": [{"count": 4}],
                },
                {
                    "name": "hawk",
                    "predator": {"discard": "all", "of": ["berry", "shroom"], "target": "everyone"},
                    "cards": [{"count": 3}],
                },
                {
                    "name": "rat",
                    "predator": {"discard": "highest", "count": 1, "of": ["nut", "pip"], "target": "self"},
                    "cards": [{"count": 5, "three_plus": True}, {"count": 3}],
                },
            ],
        },
        last_tree_tokens=3,
        moon_tokens=9,
        token_cap=2,
        remove_three_plus=False,
        turn_cap=25,
    ),
}


def odd_params(name, players):
    params = dict(ODD_PARAMS[name])
    if "skill_sigma" in params:
        params["skill_sigma"] = [0.2, 0.9, 0.5, 1.5][:players]
    return params


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_agree_step_by_step(name, players):
    game = nutcore.load_game(name, players=players)
    ref_game = nutcore.reference.load_game(name, players=players)
    rng = random.Random(SEED * 10 + players)
    total = sum(play_one(game, ref_game, rng, (name, players, i)) for i in range(GAMES))
    assert total > GAMES * 30  # real games were played


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_odd_parameters_agree(name, players):
    params = odd_params(name, players)
    game = nutcore.load_game(name, players=players, **params)
    ref_game = nutcore.reference.load_game(name, players=players, **params)
    assert game.params == ref_game.params
    rng = random.Random(SEED * 10 + players + 5)
    for i in range(max(GAMES // 3, 20)):
        play_one(game, ref_game, rng, ("odd", name, players, i))


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_loaded_positions_agree(name, players):
    # Positions met in play, loaded from JSON by both, must continue identically.
    game = nutcore.load_game(name, players=players)
    ref_game = nutcore.reference.load_game(name, players=players)
    rng = random.Random(SEED + players)
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if rng.random() < 0.05:
                data = state.to_json()
                assert_same(game.state_from_json(data), ref_game.state_from_json(data), data)
            random_step(state, rng)
