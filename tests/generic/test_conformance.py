"""The conformance harness: checks every game in nutcore.list_games() must pass, whatever its
rules (in the spirit of OpenSpiel's RandomSimTest). Game-specific tests live in their own files."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nutcore
from playing import chi2_sf, corrupted_bytes, play_randomly, random_step

GAMES = [(name, players) for name in nutcore.list_games() for players in (2, 3, 4)]


@pytest.fixture(params=GAMES, ids=lambda g: f"{g[0]}-{g[1]}p")
def game(request):
    name, players = request.param
    return nutcore.load_game(name, players=players)


def test_game_object(game):
    assert game.num_players() == game.params["players"]
    assert game.num_distinct_actions() > 0
    again = nutcore.load_game(game.name, **game.params)
    assert again.params == game.params


def test_random_simulation(game):
    rng = random.Random(game.num_players())
    n = game.num_players()
    distinct = game.num_distinct_actions()
    for _ in range(5):
        state = game.new_initial_state()
        history = []
        while not state.is_terminal():
            player = state.current_player()
            if state.is_chance_node():
                assert player == nutcore.CHANCE and state.legal_actions() == []
                outcomes = state.chance_outcomes()
                actions = [a for a, _ in outcomes]
                assert actions == sorted(set(actions)) and all(0 <= a < distinct for a in actions)
                assert all(p > 0 for _, p in outcomes) and abs(sum(p for _, p in outcomes) - 1) < 1e-12
            else:
                assert 0 <= player < n and state.chance_outcomes() == []
                legal = state.legal_actions()
                assert legal == sorted(set(legal)) and all(0 <= a < distinct for a in legal)
                for a in legal:
                    assert state.string_to_action(state.action_to_string(a)) == a
            assert state.returns() == [0.0] * n
            history.append(random_step(state, rng))
        assert state.current_player() == nutcore.TERMINAL
        assert state.legal_actions() == [] and state.chance_outcomes() == []
        assert abs(sum(state.returns()) - 1.0) < 1e-12 and len(state.scores()) == n
        assert state.history() == history


def test_encodings_round_trip_everywhere(game):
    rng = random.Random(7)
    state = game.new_initial_state()
    while not state.is_terminal():
        if rng.random() < 0.2:
            assert game.deserialize_state(state.serialize()) == state
            data = state.to_json()
            loaded = game.state_from_json(json.loads(json.dumps(data)))  # through the text, as files do
            assert loaded == state and loaded.to_json() == data
            assert str(loaded) == str(state)
        random_step(state, rng)
    assert game.deserialize_state(state.serialize()) == state


def test_clone_and_replay(game):
    rng = random.Random(3)
    state = game.new_initial_state()
    for _ in range(30):  # every game lasts longer than this
        random_step(state, rng)
    copy = state.clone()
    replay = game.new_initial_state()
    for a in state.history():
        replay.apply_action(a)
    assert replay == state == copy
    random_step(copy, rng)
    assert copy != state


def test_illegal_actions_change_nothing(game):
    rng = random.Random(5)
    state = game.new_initial_state()
    for _ in range(60):
        allowed = set(state.legal_actions()) | {a for a, _ in state.chance_outcomes()}
        before = state.to_json()
        for bad in [
            -1,
            game.num_distinct_actions(),
            *[a for a in range(game.num_distinct_actions()) if a not in allowed][:5],
        ]:
            with pytest.raises(ValueError):
                state.apply_action(bad)
        assert state.to_json() == before
        random_step(state, rng)


def test_random_playouts_in_cpp(game):
    returns, lengths = game.random_playouts(20, seed=1)
    assert returns.shape == (20, game.num_players()) and (abs(returns.sum(axis=1) - 1) < 1e-12).all()
    assert (lengths > 0).all()


def test_random_action_draws_as_listing_does(game):
    # random_playout's contract for a game that draws a uniform action without listing them
    # (Purzelbaum's shoves): the same action, and the same draws from the generator, as listing.
    rng = random.Random(4)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 150:
        if not state.is_chance_node():
            for seed in range(20):
                drawn, listed, in_step = state._random_action_pair(seed + 1000 * checked)
                assert drawn == listed and in_step
            checked += 1
        random_step(state, rng)
    with pytest.raises(ValueError):
        play_randomly(state, rng, 10**6)._random_action_pair(1)


def test_sample_chance_follows_chance_outcomes(game):
    # Playouts and searches draw chance outcomes with sample_chance, which games may compute without
    # listing the outcomes (dice, a card from a pile, a tumble read from its table): its frequencies
    # must be chance_outcomes' probabilities (chi-squared, cells of expected count >= 5, the rest pooled).
    rng = random.Random(11)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 8:
        if state.is_chance_node():
            probability = dict(state.chance_outcomes())
            draws = 3000
            counts = Counter(state._sample_chance(seed + 100_000 * checked) for seed in range(draws))
            assert set(counts) <= set(probability)
            big = [a for a, p in probability.items() if p * draws >= 5]
            cells = [(counts[a], probability[a] * draws) for a in big]
            rest = [a for a in probability if a not in big]
            if sum(probability[a] for a in rest) * draws >= 5:
                cells.append((sum(counts[a] for a in rest), sum(probability[a] for a in rest) * draws))
            if len(cells) > 1:
                stat = sum((seen - expected) ** 2 / expected for seen, expected in cells)
                assert chi2_sf(stat, len(cells) - 1) > 1e-4, (stat, cells)
                checked += 1
        random_step(state, rng)
    assert checked > 0
    with pytest.raises(ValueError):
        play_randomly(state, rng, 10**6)._sample_chance(1)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_corrupted_bytes_load_or_raise(game, seed, data):
    # Whatever loads must be canonical (equal to its own JSON round trip) and play to the end.
    state = play_randomly(game.new_initial_state(), random.Random(seed), seed % 80)
    try:
        loaded = game.deserialize_state(corrupted_bytes(state, data))
    except ValueError:
        return
    assert game.state_from_json(loaded.to_json()) == loaded
    play_randomly(loaded, random.Random(seed), 10**5)
    assert loaded.is_terminal()
