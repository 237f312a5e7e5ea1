"""nutcore.openspiel: every game as a pyspiel game, checked by OpenSpiel's own tests and bots."""

from __future__ import annotations

import json
import pickle
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is not installed (pip install 'nutcore[openspiel]')")

from open_spiel.python import observation as os_observation  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import nutcore  # noqa: E402
import nutcore.openspiel  # noqa: E402, F401  (registers the games)
from playing import play_randomly, table_seats  # noqa: E402

GAMES = nutcore.list_games()
HIDDEN = [g for g in GAMES if nutcore.load_game(g).hidden_information]
PERFECT = [g for g in GAMES if g not in HIDDEN]


def load(name, players=2, **params):
    return pyspiel.load_game(f"nutcore_{name}", {"players": players, **params})


def decision_states(game, seed, count=6, every=15):
    """`count` decision states met along random games (a new game when one ends)."""
    rng = random.Random(seed)
    out, state = [], game.new_initial_state()
    while len(out) < count:
        if state.is_terminal():
            state = game.new_initial_state()
        play_randomly(state, rng, rng.randrange(1, every))
        if not state.is_terminal() and not state.is_chance_node():
            out.append(state.clone())
    return out


def play_full_game(game, bots, seed):
    """One full game: bots[seat](state) -> action, chance sampled by a seeded generator."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            play_randomly(state, rng, 1)
        else:
            action = bots[state.current_player()](state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return state


def random_bot(seed):
    rng = random.Random(seed)
    return lambda state: rng.choice(state.legal_actions())


# --- the game types and infos ---


@pytest.mark.parametrize("name", GAMES)
def test_game_type_and_info(name):
    seats = table_seats(name)
    native = nutcore.load_game(name, players=seats)
    game = load(name, seats)
    kind = game.get_type()
    assert kind.short_name == f"nutcore_{name}"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    info = pyspiel.GameType.Information
    assert kind.information == (info.IMPERFECT_INFORMATION if native.hidden_information else info.PERFECT_INFORMATION)
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    declared = next(i for i in nutcore._core.game_infos() if i["name"] == name)
    assert (kind.min_num_players, kind.max_num_players) == (declared["min_players"], declared["max_players"])
    assert kind.provides_information_state_string and kind.provides_information_state_tensor
    assert kind.provides_observation_string and kind.provides_observation_tensor
    assert game.num_players() == seats
    assert game.num_distinct_actions() == native.num_distinct_actions()
    assert game.max_chance_outcomes() == native.max_chance_outcomes()
    assert game.max_game_length() == native.max_game_length()
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    assert game.observation_tensor_shape() == native.observation_tensor_shape()
    assert game.information_state_tensor_shape() == native.observation_tensor_shape()
    assert game.nutcore_game == native


# --- OpenSpiel's own test of a game ---


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test(name, players):
    # Clones, serialization round trips, legal-action masks, observations and returns, every step.
    pyspiel.random_sim_test(load(name, players), num_sims=8, serialize=True, verbose=False)


def test_random_sim_test_with_json_parameters():
    board = nutcore.load_game("ritter").params["board"]
    board["edges"] = board["edges"][:-1]  # one path fewer: a different, still connected board
    ritter = load("ritter", 3, board=json.dumps(board), die="[1, 2, 3, 1, 2, 3]")
    assert ritter.nutcore_game.params["board"] == board and ritter.nutcore_game.params["die"] == [1, 2, 3, 1, 2, 3]
    cards = nutcore.load_game("nutz").params["cards"]
    cards["name"] = "a variant (three kinds=fine, with commas)"
    nutz = load("nutz", 2, cards=json.dumps(cards), last_tree_tokens="5")
    assert nutz.nutcore_game.params["cards"]["name"] == cards["name"]
    for game in (ritter, nutz):
        # serialize=True also rebuilds the game from its string, commas and parentheses included.
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


# --- parameters ---


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", GAMES)
def test_defaults_are_the_games_own(name, players):
    game = load(name, players)
    assert game.nutcore_game.params == nutcore.load_game(name, players=players).params
    assert game.get_parameters() == ({} if players == 2 else {"players": players})


def test_parameter_specification():
    spec = pyspiel.load_game("nutcore_ritter").get_type().parameter_specification
    defaults = nutcore.load_game("ritter").params
    assert spec["players"] == 2
    assert spec["turn_cap"] == defaults["turn_cap"] and spec["shout_resolution"] == defaults["shout_resolution"]
    assert spec["board"] == "" and spec["die"] == ""  # JSON text; "" is the game's own default
    nutz = pyspiel.load_game("nutcore_nutz").get_type().parameter_specification
    assert nutz["cards"] == "" and nutz["last_tree_tokens"] == ""  # its default depends on the players
    assert nutz["moon_tokens"] == nutcore.load_game("nutz").params["moon_tokens"]


def test_scalar_and_json_parameters_reach_the_native_game():
    game = load("ritter", 3, turn_cap=300, shout_resolution="first_only", die="[1,1,1,2,2]")
    expected = nutcore.load_game("ritter", players=3, turn_cap=300, shout_resolution="first_only", die=[1, 1, 1, 2, 2])
    assert game.nutcore_game == expected
    nutz = load("nutz", 2, last_tree_tokens="6", remove_three_plus="false")
    assert nutz.nutcore_game == nutcore.load_game("nutz", players=2, last_tree_tokens=6, remove_three_plus=False)


@pytest.mark.parametrize(
    "params",
    [
        {"players": 3},
        {"players": 4, "turn_cap": 123},
        {"board": json.dumps({**nutcore.load_game("ritter").params["board"], "hiding_places": ["H1", "H2"]})},
        {"die": "[3,3,3,3,3,3]", "shout_resolution": "first_only"},
    ],
)
def test_game_strings_round_trip(params):
    game = pyspiel.load_game("nutcore_ritter", params)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.nutcore_game == game.nutcore_game
    # The percent-encoded form in get_parameters() is accepted as a parameter too.
    assert pyspiel.load_game("nutcore_ritter", game.get_parameters()).nutcore_game == game.nutcore_game
    copy = pickle.loads(pickle.dumps(game))
    assert copy.nutcore_game == game.nutcore_game


@pytest.mark.parametrize(
    ("params", "error", "words"),
    [
        ({"players": 5}, ValueError, "players must be in 2..4"),
        ({"players": 1}, ValueError, "players must be in 2..4"),
        ({"turn_cap": -5}, ValueError, "turn_cap"),
        ({"board": "{not json"}, ValueError, "parameter 'board' is not valid JSON"),
        ({"board": '{"bushes": []}'}, ValueError, "ritter"),
        ({"die": "[0, 1]"}, ValueError, "die faces"),
        ({"no_such_parameter": 1}, pyspiel.SpielError, "Unknown parameter 'no_such_parameter'"),
        ({"turn_cap": "300"}, pyspiel.SpielError, "Wrong type for parameter turn_cap"),
        ({"board": {"bushes": []}}, pyspiel.SpielError, "Wrong type for parameter board"),
    ],
)
def test_bad_parameters_give_clear_errors(params, error, words):
    with pytest.raises(error, match=words):
        pyspiel.load_game("nutcore_ritter", params)


def test_bad_nutz_cards_give_a_clear_error():
    with pytest.raises(ValueError, match="nutz"):
        load("nutz", cards=json.dumps({"name": "empty", "kinds": []}))


# --- states: the wrapped native state, clones, serialization ---


@pytest.mark.parametrize("name", GAMES)
def test_state_follows_the_native_state(name):
    game = load(name, table_seats(name))
    rng = random.Random(4)
    state = game.new_initial_state()
    native = nutcore.load_game(name, players=table_seats(name)).new_initial_state()
    while not state.is_terminal():
        assert state.current_player() == native.current_player()
        if state.is_chance_node():
            assert state.chance_outcomes() == native.chance_outcomes()
            actions, probs = zip(*state.chance_outcomes())
            assert state.legal_actions() == sorted(actions)  # OpenSpiel's legal chance outcomes
            action = rng.choices(actions, probs)[0]
        else:
            assert state.legal_actions() == native.legal_actions()
            action = rng.choice(state.legal_actions())
        assert state.action_to_string(state.current_player(), action) == native.action_to_string(action)
        state.apply_action(action)
        native.apply_action(action)
        assert str(state) == str(native)
    assert native.is_terminal() and state.returns() == native.returns()
    assert sum(state.returns()) == pytest.approx(1.0)
    assert state.history() == native.history()


@pytest.mark.parametrize("name", GAMES)
def test_clone_pickle_and_serialize(name):
    game = load(name, table_seats(name))
    for state in decision_states(game, seed=5, count=3, every=60):
        clone = state.clone()
        assert clone.nutcore_state is not state.nutcore_state
        clone.apply_action(clone.legal_actions()[-1])
        assert clone.history() != state.history() and str(state) == str(state.nutcore_state)
        for copy in (
            pickle.loads(pickle.dumps(state)),
            pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1],
            game.deserialize_state(state.serialize()),
        ):
            assert isinstance(copy, nutcore.openspiel.NutcoreState)
            assert str(copy) == str(state) and copy.history() == state.history()
            assert copy.nutcore_state.serialize() == state.nutcore_state.serialize()


def test_illegal_action_is_a_value_error_and_changes_nothing():
    state = load("auf_die_nuesse").new_initial_state()
    play_randomly(state, random.Random(1), 5)
    while state.is_chance_node():
        play_randomly(state, random.Random(2), 1)
    before = (str(state), state.history())
    illegal = next(a for a in range(state.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(ValueError):
        state.apply_action(illegal)
    assert (str(state), state.history()) == before


# --- observations ---


@pytest.mark.parametrize("name", GAMES)
def test_observations_are_the_native_seat_views(name):
    game = load(name, table_seats(name))
    shape = game.nutcore_game.observation_tensor_shape()
    info_obs = os_observation.make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    obs = os_observation.make_observation(game)
    for state in decision_states(game, seed=6):
        native = state.nutcore_state
        for p in range(game.num_players()):
            assert state.information_state_string(p) == native.information_state_string(p)
            assert state.observation_string(p) == native.observation_string(p)
            tensor = native.observation_tensor(p)
            assert list(tensor.shape) == shape
            np.testing.assert_array_equal(np.asarray(state.observation_tensor(p), np.float32), tensor)
            np.testing.assert_array_equal(np.asarray(state.information_state_tensor(p), np.float32), tensor)
            for observation in (info_obs, obs):
                observation.set_from(state, p)
                assert observation.tensor.shape == (int(np.prod(shape)),)
                np.testing.assert_array_equal(observation.tensor, tensor)
                (view,) = observation.dict.values()
                assert list(view.shape) == shape
            assert info_obs.string_from(state, p) == native.information_state_string(p)
            assert obs.string_from(state, p) == native.observation_string(p)


@pytest.mark.parametrize("name", PERFECT)
def test_public_observer_of_a_perfect_information_game(name):
    game = load(name)
    state = decision_states(game, seed=7, count=1)[0]
    for private in (pyspiel.PrivateInfoType.NONE, pyspiel.PrivateInfoType.ALL_PLAYERS):
        public = os_observation.make_observation(game, pyspiel.IIGObservationType(True, False, private))
        assert public.string_from(state, 1) == state.observation_string(1) == state.observation_string(0)
        # The tensors are seat-relative (a viewer segment): a public view is seat 0's, whoever asks.
        public.set_from(state, 1)
        np.testing.assert_array_equal(public.tensor, state.nutcore_state.observation_tensor(0))
        assert not np.array_equal(state.nutcore_state.observation_tensor(1), public.tensor)


@pytest.mark.parametrize("name", HIDDEN)
@pytest.mark.parametrize(
    "obs_type",
    [
        pyspiel.IIGObservationType(True, False, pyspiel.PrivateInfoType.NONE),  # public only
        pyspiel.IIGObservationType(True, True, pyspiel.PrivateInfoType.NONE),
        pyspiel.IIGObservationType(True, False, pyspiel.PrivateInfoType.ALL_PLAYERS),
        pyspiel.IIGObservationType(False, False, pyspiel.PrivateInfoType.SINGLE_PLAYER),
    ],
)
def test_no_public_or_all_players_observer_on_hidden_information(name, obs_type):
    with pytest.raises(ValueError, match="not available"):
        os_observation.make_observation(load(name), obs_type)


def test_observer_parameters_are_refused():
    with pytest.raises(ValueError, match="observers take no parameters"):
        os_observation.make_observation(load("ritter"), None, {"x": 1})


# --- resampling from an information state ---


@pytest.mark.parametrize("name", HIDDEN)
def test_resample_keeps_the_seats_information_state(name):
    game = load(name, table_seats(name))
    sampler = pyspiel.UniformProbabilitySampler(11, 0.0, 1.0)
    changed = 0
    for state in decision_states(game, seed=8, count=8, every=40):
        for p in range(game.num_players()):
            for _ in range(3):
                sample = state.resample_from_infostate(p, sampler)
                assert isinstance(sample, nutcore.openspiel.NutcoreState)
                assert sample.information_state_string(p) == state.information_state_string(p)
                assert sample.observation_tensor(p) == state.observation_tensor(p)
                assert sample.current_player() == state.current_player()
                changed += sample.nutcore_state.serialize() != state.nutcore_state.serialize()
    assert changed > 0  # the hidden part is really drawn again, not copied


@pytest.mark.parametrize("name", HIDDEN)
def test_resample_is_seeded_by_the_sampler(name):
    def sample(state, seed):
        sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
        return state.resample_from_infostate(1, sampler).nutcore_state.serialize()

    # A state where seat 1 does not know everything: different seeds draw different states.
    states = decision_states(load(name, table_seats(name)), seed=9, count=40, every=30)
    state = next(s for s in states if len({sample(s, seed) for seed in range(8)}) > 1)
    assert sample(state, 3) == sample(state, 3)
    draws = iter([0.25, 0.5])
    sample = state.resample_from_infostate(1, lambda: next(draws)).nutcore_state
    assert sample.serialize() == state.nutcore_state.resample_from_infostate(1, (2**30 << 32) | 2**31).serialize()


@pytest.mark.parametrize("name", PERFECT)
def test_resample_on_perfect_information_is_a_clone(name):
    state = decision_states(load(name), seed=10, count=1, every=40)[0]
    sample = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert str(sample) == str(state) and sample.nutcore_state is not state.nutcore_state


# --- OpenSpiel's bots play full games ---


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("name", GAMES)
def test_openspiel_mcts_plays_a_full_game(name, players):
    game = load(name, players)
    # step() releases the GIL and cannot call into a Python game: step_with_policy does the same search.
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 3), 2.0, 4, 50, False, 3, False)
    bots = [lambda s: bot.step_with_policy(s)[1]] + [random_bot(seat) for seat in range(1, players)]
    end = play_full_game(game, bots, seed=5)
    assert sum(end.returns()) == pytest.approx(1.0)
    root = bot.mcts_search(decision_states(game, seed=11, count=1)[0])
    assert root.explore_count == 4


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("name", HIDDEN)
def test_openspiel_python_ismcts_plays_a_full_game(name, players):
    game = load(name, players)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(6))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 6, random_state=np.random.RandomState(7))
    # Its search asserts that every state it resamples has the mover's information state.
    bots = [random_bot(seat) for seat in range(players - 1)] + [lambda s: bot.step(s)]
    end = play_full_game(game, bots, seed=9)
    assert sum(end.returns()) == pytest.approx(1.0)


# --- nutcore's searches and bots accept adapter states ---


@pytest.mark.parametrize("name", GAMES)
def test_best_move_and_bots_on_an_adapter_state(name):
    state = decision_states(load(name), seed=12, count=1, every=30)[0]
    before = str(state)
    on_adapter = nutcore.best_move(state, iterations=200, seed=3)
    on_native = nutcore.best_move(state.nutcore_state, iterations=200, seed=3)
    assert (on_adapter.action, on_adapter.algorithm) == (on_native.action, on_native.algorithm)
    assert on_adapter.action in state.legal_actions() and str(state) == before
    assert nutcore.make_bot("greedy").step(state) == nutcore.make_bot("greedy").step(state.nutcore_state)
    spec = "ismcts:iterations=50" if name in HIDDEN else "mcts:iterations=50"
    assert nutcore.make_bot(spec).step(state) in state.legal_actions()
    assert nutcore.make_bot("random").step(state) in state.legal_actions()


def test_best_move_refuses_a_plain_openspiel_state():
    with pytest.raises(ValueError, match="not a nutcore state"):
        nutcore.best_move(pyspiel.load_game("tic_tac_toe").new_initial_state())
