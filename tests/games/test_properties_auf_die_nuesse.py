"""Property tests (hypothesis) for Auf die Nüsse!: invariants that hold in every reachable state,
and loaders that never do anything but load or raise ValueError."""

from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nutcore
from playing import corrupted_bytes, play_randomly, random_step

THRESHOLD = {"A": 2, "B": 2, "R": 2, "D": 2, "E": 2, "L": 3, "R3": 3, "Rt": 3, "4": 4}
GAMES = {n: nutcore.load_game("auf_die_nuesse", players=n) for n in (2, 3, 4)}
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_invariants(game, state, squirrels=15):
    j = state.to_json()
    n = j["players"]
    for p in range(n):
        out = sum(j["board"][sp][p] for sp in THRESHOLD) + (len(j["start_track"]) if p == j["active"] else 0)
        assert j["supply"][p] == squirrels - out >= 0
    if j["stage"] in ("turn", "setup"):
        for sp, k in THRESHOLD.items():
            assert max(j["board"][sp]) < k  # every space was checked
    if j["stage"] != "setup":
        assert sum(j["unseen"].values()) == j["draw_pile"] + j["reserve"]
    assert j["reserve"] in (0, 8) and (j["reserve"] == 0) == j["end_triggered"]
    for row in j["stores"]:
        for cap, store in zip([2, 2, 3, 3, 4, 4, 5, 6], row):
            assert 0 <= store["jokers"] <= store["nuts"] <= cap
            assert (store["kind"] is None) == (store["nuts"] in (0, cap))
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert all(p > 0 for _, p in outcomes)
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-12
        assert state.legal_actions() == []
    elif not state.is_terminal():
        legal = state.legal_actions()
        assert len(legal) >= 2 and legal == sorted(set(legal))
        assert state.current_player() in range(n)
    assert game.state_from_json(j) == state
    assert game.deserialize_state(state.serialize()) == state


@SETTINGS
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32 - 1))
def test_invariants_hold_along_random_games(players, seed):
    game = GAMES[players]
    rng = random.Random(seed)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        check_invariants(game, state)
        random_step(state, rng)
        steps += 1
        assert steps < 20000
    check_invariants(game, state)
    returns = state.returns()
    assert abs(sum(returns) - 1.0) < 1e-12
    scores = state.scores()
    winners = [p for p in range(players) if returns[p] > 0]
    assert all(scores[p] == max(scores) for p in winners)
    assert len(set(returns[p] for p in winners)) == 1


def random_midgame(players, seed):
    game = GAMES[players]
    rng = random.Random(seed)
    return game, play_randomly(game.new_initial_state(), rng, rng.randrange(400))


def paths(obj, prefix=()):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from paths(v, prefix + (i,))
    yield prefix


junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 20),
    st.sampled_from(["walnut", "A", "place", "x", ""]),
    st.lists(st.integers(0, 3), max_size=4),
)


@SETTINGS
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_mutated_json_loads_or_raises_value_error(players, seed, data):
    game, state = random_midgame(players, seed)
    original = state.to_json()
    mutated = copy.deepcopy(original)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from([p for p in paths(mutated) if p]))
        target = mutated
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = data.draw(junk)
    try:
        loaded = game.state_from_json(mutated)
    except ValueError:
        return
    # Whatever loads is a consistent position that plays on normally.
    check_invariants(game, loaded)


@SETTINGS
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_mutated_bytes_load_or_raise_value_error(players, seed, data):
    game, state = random_midgame(players, seed)
    try:
        loaded = game.deserialize_state(corrupted_bytes(state, data))
    except ValueError:
        return
    check_invariants(game, loaded)
