"""Games and states pickle (multiprocessing, Ray, PettingZoo) and copy: a game through its name and
parameters, a state through its validated compact encoding and its history. Also the bound on a
game's length that the adapters declare."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

import nutcore
from nutcore import games as nutcore_games
from playing import random_step


def states_along_a_game(game, seed):
    """Clones of the state at several points of one random game, the start and the end included."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = [state.clone()]
    step = 0
    while not state.is_terminal():
        random_step(state, rng)
        step += 1
        if step % 23 == 0:
            out.append(state.clone())
    out.append(state.clone())
    return out


@pytest.mark.parametrize("name", nutcore.list_games())
@pytest.mark.parametrize("players", [2, 3, 4])
def test_games_and_states_pickle_to_equal_objects(name, players):
    game = nutcore.load_game(name, players=players)
    again = pickle.loads(pickle.dumps(game))
    assert again == game and again.params == game.params and type(again) is type(game)
    assert copy.copy(game) == game and copy.deepcopy(game) == game
    for state in states_along_a_game(game, seed=players):
        for protocol in (0, pickle.HIGHEST_PROTOCOL):
            twin = pickle.loads(pickle.dumps(state, protocol=protocol))
            assert twin == state
            assert twin.history() == state.history()
            assert twin.get_game() == game
            assert twin.serialize() == state.serialize()
        for twin in (copy.copy(state), copy.deepcopy(state)):
            assert twin == state and twin.history() == state.history()


@pytest.mark.parametrize("name", nutcore.list_games())
def test_an_unpickled_state_plays_on_like_the_original(name):
    game = nutcore.load_game(name, players=3)
    rng = random.Random(7)
    state = game.new_initial_state()
    for _ in range(40):
        if state.is_terminal():
            break
        random_step(state, rng)
    twin = pickle.loads(pickle.dumps(state))
    rng_a, rng_b = random.Random(1), random.Random(1)
    while not state.is_terminal():
        assert random_step(state, rng_a) == random_step(twin, rng_b)
    assert twin.is_terminal() and twin.returns() == state.returns() and twin.history() == state.history()


def test_a_pickle_keeps_non_default_parameters():
    base = nutcore.load_game("nutz", players=2).params["cards"]
    cards = {**base, "name": "a variant", "kinds": [dict(k) for k in base["kinds"]]}
    cards["kinds"][0] = {**cards["kinds"][0], "score": {"each": 2}}
    for game in (
        nutcore.load_game("nutz", players=2, cards=cards, token_cap=4),
        nutcore.load_game("ritter", players=3, score_target=12, shout_resolution="first_only"),
        nutcore.load_game("purzelbaum", players=2, skill_sigma=[0.3, 0.7]),
        nutcore.load_game("auf_die_nuesse", players=4, turn_cap=50),
    ):
        again = pickle.loads(pickle.dumps(game))
        assert again == game and again != nutcore.load_game(game.name, players=game.num_players())
        state = game.new_initial_state()
        assert pickle.loads(pickle.dumps(state)).get_game() == game


def test_unpickling_validates_what_it_is_given():
    game = nutcore.load_game("ritter", players=2)
    good = game.new_initial_state().serialize()
    with pytest.raises(ValueError):
        nutcore_games._state_from_pickle(game, good[:-3], [])
    with pytest.raises(ValueError):
        nutcore_games._state_from_pickle(game, b"\x00" * len(good), [])
    with pytest.raises(ValueError):
        nutcore_games._state_from_pickle(game, good, [-1])
    with pytest.raises(ValueError):
        nutcore_games._state_from_pickle(game, good, ["to B1"])
    with pytest.raises(ValueError):
        nutcore_games._game_from_pickle("ritter", {"players": 9})
    with pytest.raises(ValueError):
        nutcore_games._game_from_pickle("chess", {"players": 2})
    with pytest.raises(ValueError):
        nutcore_games._game_from_pickle("ritter", {"players": 2, "no_such_parameter": 1})


@pytest.mark.parametrize("name", nutcore.list_games())
@pytest.mark.parametrize("players", [2, 4])
def test_games_never_exceed_their_declared_length(name, players):
    # max_game_length() is a bound argued from the rules (cpp/games/<g>/); random games must respect it.
    game = nutcore.load_game(name, players=players, turn_cap=30)
    bound = game.max_game_length()
    assert isinstance(bound, int) and bound > 0
    _, lengths = game.random_playouts(300, seed=players)
    assert lengths.max() <= bound
    outcomes = [a for s in states_along_a_game(game, seed=1) if s.is_chance_node() for a, _ in s.chance_outcomes()]
    assert outcomes and max(outcomes) < game.max_chance_outcomes()
    assert nutcore.load_game(name, players=players).max_game_length() > bound  # it grows with the cap
