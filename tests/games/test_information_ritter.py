"""Die Ritter von der Haselnuss's information sets: what a seat knows never depends on a thief card it
has not seen, resampling keeps the seat's knowledge and follows the exact posterior, and search and
bots read nothing hidden (the generic checks on every game: tests/generic/test_information.py)."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest

import nutcore
from playing import assert_same_view, chi2_sf, positions, random_step

THIEVES = ("Max", "Leo", "Fritz")

# ---------------------------------------------------------------------------------------------
# Ritter: what a seat cannot see.


def unseen_tops(data, player):
    return [i for i, s in enumerate(data["stacks"]) if s["top"] is not None and player not in s["seen_by"]]


def shuffle_hidden(data, player, rng):
    """Another state the seat cannot tell apart: the kinds of the known tops it has not seen
    redrawn from the thieves it cannot place (the pool adjusted to match), and the other seats'
    open shouts replaced. None if nothing is hidden from the seat."""
    data = {
        **data,
        "stacks": [dict(s) for s in data["stacks"]],
        "pool": dict(data["pool"]),
        "shouts": list(data["shouts"]),
    }
    hidden = unseen_tops(data, player)
    changed = False
    if hidden:
        free = Counter()
        for k in THIEVES:
            free[k] += data["pool"][k]
        for i in hidden:
            free[data["stacks"][i]["top"]] += 1
        for i in hidden:
            choices = [k for k in THIEVES if free[k] > 0]
            kind = rng.choice(choices)
            changed |= kind != data["stacks"][i]["top"]
            data["stacks"][i]["top"] = kind
            free[kind] -= 1
        for k in THIEVES:
            data["pool"][k] = free[k]
    if data["phase"] in ("shout", "draw"):
        for q, x in enumerate(data["shouts"]):
            if q != player and x is not None:
                new = rng.choice(["silent", *THIEVES])
                changed |= new != x
                data["shouts"][q] = new
    return data if changed else None


def ritter_positions(players, seed, count):
    game = nutcore.load_game("ritter", players=players)
    return game, positions(game, seed, count, every=3)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_seat_knows_nothing_of_cards_it_has_not_seen(players):
    game, states = ritter_positions(players, seed=10 + players, count=400)
    rng = random.Random(players)
    checked = 0
    for state in states:
        data = state.to_json()
        for p in range(players):
            other = shuffle_hidden(data, p, rng)
            if other is None:
                continue
            twin = game.state_from_json(other)
            assert twin != state
            assert_same_view(twin, state, p)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("players", [2, 4])
def test_what_a_seat_has_seen_is_in_its_information_state(players):
    # Changing the kind of a top the seat has seen changes its view; the views of seats that have
    # not seen it stay the same.
    game, states = ritter_positions(players, seed=20 + players, count=1500)
    checked = 0
    for state in states:
        data = state.to_json()
        for i, stack in enumerate(data["stacks"]):
            if stack["top"] is None:
                continue
            kind = stack["top"]
            swap = next((k for k in THIEVES if k != kind and data["pool"][k] > 0), None)
            if swap is None:
                continue
            other = {**data, "stacks": [dict(s) for s in data["stacks"]], "pool": dict(data["pool"])}
            other["stacks"][i]["top"] = swap
            other["pool"][swap] -= 1
            other["pool"][kind] += 1
            twin = game.state_from_json(other)
            for p in range(players):
                same = twin.information_state_string(p) == state.information_state_string(p)
                assert same == (p not in stack["seen_by"])
                assert (twin.information_key(p) == state.information_key(p)) == same
                assert (twin.observation_json(p) == state.observation_json(p)) == same
            checked += 1
    assert checked > 15


def test_information_keys_and_strings_agree():
    # Equal keys exactly for equal strings, over many positions and seats.
    game, states = ritter_positions(3, seed=5, count=1500)
    by_key = {}
    for state in states:
        for p in range(3):
            text = state.information_state_string(p)
            assert by_key.setdefault(state.information_key(p), text) == text
    assert len(set(by_key.values())) == len(by_key) > 500


# ---------------------------------------------------------------------------------------------
# The posterior, against enumeration.


def exact_top_posterior(data, player, thieves_per_kind):
    """Enumerates the kinds of the known tops `player` has not seen: every arrangement of the
    cards it cannot place over the unknown positions is equally likely (a uniform shuffle), so an
    assignment of kinds to those tops weighs (pool size)! / prod(count of each kind left)!."""
    hidden = unseen_tops(data, player)
    removed = {k: thieves_per_kind - data["pool"][k] - sum(s["top"] == k for s in data["stacks"]) for k in THIEVES}
    seen = Counter(s["top"] for s in data["stacks"] if s["top"] is not None and player in s["seen_by"])
    free = {k: thieves_per_kind - removed[k] - seen[k] for k in THIEVES}
    weights = {}
    for kinds in itertools.product(THIEVES, repeat=len(hidden)):
        used = Counter(kinds)
        if any(used[k] > free[k] for k in THIEVES):
            continue
        w = 1.0
        for k in THIEVES:
            w /= math.factorial(free[k] - used[k])
        weights[kinds] = w
    total = sum(weights.values())
    return hidden, {k: w / total for k, w in weights.items()}


def find_position(players, want_hidden, seed, **params):
    game = nutcore.load_game("ritter", players=players, **params)
    rng = random.Random(seed)
    for _ in range(500):
        state = game.new_initial_state()
        while not state.is_terminal():
            random_step(state, rng)
            if state.is_terminal() or state.is_chance_node():
                continue
            p = state.current_player()
            if len(unseen_tops(state.to_json(), p)) >= want_hidden:
                return game, state, p
    raise AssertionError("no such position")


@pytest.mark.parametrize(
    ("players", "hidden", "params"),
    [
        (2, 2, {}),
        (3, 3, {}),
        # few thieves: the seat's own knowledge and the removed cards shape the posterior strongly
        (2, 2, {"stack_size": 3, "hazelnuts": 12, "thieves_per_kind": 4}),
    ],
)
def test_resampling_matches_the_exact_posterior(players, hidden, params):
    game, state, p = find_position(players, hidden, seed=players * 7 + hidden, **params)
    data = state.to_json()
    tops, exact = exact_top_posterior(data, p, game.params["thieves_per_kind"])
    samples = 4000
    counts = Counter()
    for seed in range(samples):
        sample = state.resample_from_infostate(p, seed)
        got = sample.to_json()
        counts[tuple(got["stacks"][i]["top"] for i in tops)] += 1
        assert sample.information_state_string(p) == state.information_state_string(p)
    assert set(counts) <= set(exact)
    cells = [k for k in exact if exact[k] * samples >= 5]
    stat = sum((counts[k] - samples * exact[k]) ** 2 / (samples * exact[k]) for k in cells)
    rest = samples - sum(counts[k] for k in cells)
    rest_p = 1.0 - sum(exact[k] for k in cells)
    if rest_p * samples >= 5:
        stat += (rest - samples * rest_p) ** 2 / (samples * rest_p)
        cells.append(None)
    assert len(cells) >= 3
    assert chi2_sf(stat, len(cells) - 1) > 1e-4, (stat, len(cells))


def test_hidden_shouts_are_resampled_uniformly():
    game = nutcore.load_game("ritter", players=4)
    rng = random.Random(3)
    state = game.new_initial_state()
    while not (state.to_json()["phase"] == "shout" and sum(x is not None for x in state.to_json()["shouts"]) == 2):
        if state.is_terminal():
            state = game.new_initial_state()
        random_step(state, rng)
    p = state.current_player()
    others = [q for q, x in enumerate(state.to_json()["shouts"]) if x is not None]
    counts = Counter()
    for seed in range(2000):
        shouts = state.resample_from_infostate(p, seed).to_json()["shouts"]
        counts.update((q, shouts[q]) for q in others)
    stat = sum((counts[(q, x)] - 500) ** 2 / 500 for q in others for x in ("silent", *THIEVES))
    assert chi2_sf(stat, 6) > 1e-4


# ---------------------------------------------------------------------------------------------
# Search and bots read nothing hidden.


def indistinguishable_pairs(players, count, seed):
    game, states = ritter_positions(players, seed=seed, count=600)
    rng = random.Random(seed)
    pairs = []
    for state in states:
        if state.is_terminal() or state.is_chance_node() or len(state.legal_actions()) < 2:
            continue
        p = state.current_player()
        other = shuffle_hidden(state.to_json(), p, rng)
        if other is not None:
            pairs.append((state, game.state_from_json(other)))
        if len(pairs) == count:
            break
    assert len(pairs) == count
    return pairs


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("algorithm", ["ismcts", "pimc", "auto"])
def test_search_gives_the_same_result_on_states_the_mover_cannot_tell_apart(players, algorithm):
    for a, b in indistinguishable_pairs(players, 6, seed=40 + players):
        ra = nutcore.best_move(a, algorithm, iterations=300, seed=9)
        rb = nutcore.best_move(b, algorithm, iterations=300, seed=9)
        assert ra.action == rb.action
        assert [(s.action, s.visits, s.value) for s in ra.actions] == [
            (s.action, s.visits, s.value) for s in rb.actions
        ]
        assert nutcore._core.greedy_action(a) == nutcore._core.greedy_action(b)
        assert nutcore._core.rollout_action(a) == nutcore._core.rollout_action(b)


def test_perfect_information_searches_are_not_offered():
    game = nutcore.load_game("ritter")
    state = game.new_initial_state()
    for algorithm in ("mcts", "expectimax", "solver"):
        with pytest.raises(ValueError, match="not available for ritter"):
            nutcore.best_move(state, algorithm)
    with pytest.raises(ValueError, match="no exact whole-game solver"):
        nutcore.solve(state)


def test_forgetful_bots_read_nothing_hidden():
    # Two states the mover cannot tell apart: its forgetful beliefs look the same to it, and bots
    # with imperfect memory choose the same move from them for the same seed.
    game, states = ritter_positions(2, seed=31, count=1000)
    rng = random.Random(31)
    checked = 0
    for state in states:
        if state.is_chance_node() or state.is_terminal():
            continue
        p = state.current_player()
        other = shuffle_hidden(state.to_json(), p, rng)
        if other is None:
            continue
        twin = game.state_from_json(other)
        assert_same_view(state.forget(p, 0.5, seed=checked), twin.forget(p, 0.5, seed=checked), p)
        for spec in ("greedy:memory=0.5", "level:5"):
            a, b = nutcore.make_bot(spec), nutcore.make_bot(spec)
            a.reset(checked)
            b.reset(checked)
            assert a.step(state) == b.step(twin), spec
        checked += 1
        if checked == 40:
            break
    assert checked >= 20
