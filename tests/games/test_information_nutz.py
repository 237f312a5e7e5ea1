"""Nutz! information sets: what a seat knows never depends on a card it has not seen (others'
hands, their face-down cards and discards, the deck), what it has seen is in its view, resampling
follows the exact posterior, and search and the greedy bot read nothing hidden."""

from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest

import nutcore
from playing import assert_same_view, chi2_sf, positions


def nutz_positions(players, seed, count, **params):
    game = nutcore.load_game("nutz", players=players, **params)
    return game, positions(game, seed, count, every=3)


def hidden_places(data, player):
    """The places `player` cannot see, as (getter, setter) over the JSON, with their cards."""
    places = []  # (kind, seat or (tree, index), list of type names)
    for q, hand in enumerate(data["hands"]):
        if q != player:
            places.append(("hand", q, list(hand)))
    for j, column in enumerate(data["trees"]):
        for i, card in enumerate(column):
            if card["face_down"] and card["by"] != player:
                places.append(("down", (j, i), [card["card"]]))
    for q, discards in enumerate(data["discarded_unseen"]):
        if q != player:
            places.append(("discarded", q, [t for t, c in discards.items() for _ in range(c)]))
    places.append(("deck", None, [t for t, c in data["deck"].items() for _ in range(c)]))
    return places


def rearrange(data, player, rng):
    """Another state the seat cannot tell apart: the cards it has not seen dealt anew over the
    places it cannot see (each place keeping its size). None if that changes nothing."""
    places = hidden_places(data, player)
    cards = [c for _, _, cs in places for c in cs]
    shuffled = cards[:]
    rng.shuffle(shuffled)
    if sorted(shuffled) == sorted(cards) and shuffled == cards:
        return None
    types = list(data["deck"])
    order = {t: i for i, t in enumerate(types)}
    out = {
        **data,
        "hands": [list(h) for h in data["hands"]],
        "trees": [[dict(c) for c in col] for col in data["trees"]],
        "discarded_unseen": [dict(d) for d in data["discarded_unseen"]],
        "deck": dict(data["deck"]),
    }
    at = 0
    for kind, where, cs in places:
        new = shuffled[at : at + len(cs)]
        at += len(cs)
        if kind == "hand":
            out["hands"][where] = sorted(new, key=order.get)
        elif kind == "down":
            out["trees"][where[0]][where[1]]["card"] = new[0]
        elif kind == "discarded":
            out["discarded_unseen"][where] = {t: new.count(t) for t in types}
        else:
            out["deck"] = {t: new.count(t) for t in types}
    return None if out == data else out


def forced_apart(state, twin):
    """Whether loading the rearranged state applied a forced move the original did not have (a
    seat whose two last cards are of one kind plays them at once): the rules make that public."""
    return twin.current_player() != state.current_player() or twin.to_json()["phase"] != state.to_json()["phase"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_seat_knows_nothing_of_cards_it_has_not_seen(players):
    game, states = nutz_positions(players, seed=10 + players, count=300)
    rng = random.Random(players)
    checked = 0
    for state in states:
        data = state.to_json()
        for p in range(players):
            other = rearrange(data, p, rng)
            if other is None:
                continue
            twin = game.state_from_json(other)
            if forced_apart(state, twin):
                continue
            assert twin != state
            assert_same_view(twin, state, p)
            checked += 1
    assert checked > 200


@pytest.mark.parametrize("players", [2, 4])
def test_a_seat_sees_its_own_hand_and_face_down_cards(players):
    # Swapping a card of seat q's hand (or a face-down card q played) with a deck card of another
    # type changes q's view and no other seat's.
    game, states = nutz_positions(players, seed=20 + players, count=600)
    checked = Counter()
    for state in states:
        data = state.to_json()
        types = list(data["deck"])
        spare = [t for t in types if data["deck"][t] > 0]
        for q in range(players):
            targets = [("hand", i, t) for i, t in enumerate(data["hands"][q])][:1]
            targets += [
                ("down", (j, i), c["card"])
                for j, col in enumerate(data["trees"])
                for i, c in enumerate(col)
                if c["face_down"] and c["by"] == q
            ]
            for kind, where, old in targets:
                new = next((t for t in spare if t != old), None)
                if new is None:
                    continue
                other = {
                    **data,
                    "hands": [list(h) for h in data["hands"]],
                    "trees": [[dict(c) for c in col] for col in data["trees"]],
                    "deck": dict(data["deck"]),
                }
                if kind == "hand":
                    hand = other["hands"][q]
                    hand[where] = new
                    hand.sort(key=types.index)
                else:
                    other["trees"][where[0]][where[1]]["card"] = new
                other["deck"][new] -= 1
                other["deck"][old] += 1
                twin = game.state_from_json(other)
                if forced_apart(state, twin):
                    continue
                for p in range(players):
                    same = twin.information_state_string(p) == state.information_state_string(p)
                    assert same == (p != q), (kind, p, q)
                    assert (twin.information_key(p) == state.information_key(p)) == same
                    assert np.array_equal(twin.observation_tensor(p), state.observation_tensor(p)) == same
                    assert (twin.observation_json(p) == state.observation_json(p)) == same
                checked[kind] += 1
    assert checked["hand"] > 50 and checked["down"] > 10


def test_information_keys_and_strings_agree():
    game, states = nutz_positions(3, seed=5, count=1200)
    by_key = {}
    for state in states:
        for p in range(3):
            text = state.information_state_string(p)
            assert by_key.setdefault(state.information_key(p), text) == text
    assert len(set(by_key.values())) == len(by_key) > 500


# ---------------------------------------------------------------------------------------------
# The posterior, against enumeration: every arrangement of the unseen cards over the hidden places
# is equally likely, so the opponent's hand is a uniform draw from the unseen cards, and the
# opponent's face-down card a uniform draw from the rest.

SMALL_SET = {
    "name": "small",
    "kinds": [
        {"name": "nut", "score": {"each": 1}, "cards": [{"count": 14}, {"count": 4, "moons": 1}]},
        {"name": "berry", "score": {"set": [1, 3, 6]}, "cards": [{"count": 10}]},
        {
            "name": "fox",
            "predator": {"discard": "highest", "count": 1, "of": ["nut"], "target": "self"},
            "cards": [{"count": 4}],
        },
    ],
}


def multiset_ways(pool, chosen):
    return math.prod(math.comb(pool[t], chosen.get(t, 0)) for t in pool)


def test_resampling_matches_the_exact_posterior():
    # A 2-player position in summer where the opponent has played a card face down.
    game = nutcore.load_game("nutz", players=2, cards=SMALL_SET, last_tree_tokens=3)
    rng = random.Random(4)
    found = None
    for _ in range(2000):
        state = game.new_initial_state()
        while not state.is_terminal():
            data = state.to_json()
            if data["phase"] == "summer" and not state.is_chance_node():
                p = state.current_player()
                downs = [c for col in data["trees"] for c in col if c["face_down"] and c["by"] != p]
                if len(downs) == 1 and data["round"] == 1:
                    found = (state, p)
                    break
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                legal = state.legal_actions()
                downs = [a for a in legal if "face down" in state.action_to_string(a)]
                state.apply_action(rng.choice(downs if downs and rng.random() < 0.5 else legal))
        if found:
            break
    assert found, "no position with one face-down card of the opponent"
    state, p = found
    q = 1 - p
    data = state.to_json()
    view = state.information_state_string(p)
    unseen_line = next(line for line in view.split("\n") if line.startswith("unseen:"))
    pool = {}
    for item in unseen_line[len("unseen: ") :].split(", "):
        name, count = item.rsplit(" ", 1)
        if int(count):
            pool[name] = int(count)
    m = sum(pool.values())
    h = len(data["hands"][q])
    # exact P(hand = H, face-down = t)
    exact = {}

    def hands(types, left):
        if not types:
            if left == 0:
                yield {}
            return
        t, rest = types[0], types[1:]
        for c in range(min(left, pool[t]) + 1):
            for tail in hands(rest, left - c):
                yield {t: c, **tail}

    for hand in hands(sorted(pool), h):
        p_hand = multiset_ways(pool, hand) / math.comb(m, h)
        for t in pool:
            left = pool[t] - hand.get(t, 0)
            if left:
                key = (tuple(sorted((k, v) for k, v in hand.items() if v)), t)
                exact[key] = p_hand * left / (m - h)
    assert sum(exact.values()) == pytest.approx(1.0)
    samples = 6000
    counts = Counter()
    for seed in range(samples):
        sample = state.resample_from_infostate(p, seed)
        got = sample.to_json()
        assert sample.information_state_string(p) == view
        down = next(c["card"] for col in got["trees"] for c in col if c["face_down"] and c["by"] == q)
        counts[(tuple(sorted(Counter(got["hands"][q]).items())), down)] += 1
    assert set(counts) <= set(exact)
    cells = [k for k in exact if exact[k] * samples >= 5]
    stat = sum((counts[k] - samples * exact[k]) ** 2 / (samples * exact[k]) for k in cells)
    rest = samples - sum(counts[k] for k in cells)
    rest_p = 1.0 - sum(exact[k] for k in cells)
    if rest_p * samples >= 5:
        stat += (rest - samples * rest_p) ** 2 / (samples * rest_p)
        cells.append(None)
    assert len(cells) >= 10
    assert chi2_sf(stat, len(cells) - 1) > 1e-4, (stat, len(cells))


# ---------------------------------------------------------------------------------------------
# Search and the greedy bot read nothing hidden.


def mover_twins(game, states, rng):
    """(state, twin) for decisions among `states`: the twin is another state the seat to move
    cannot tell from it (at the same node)."""
    for state in states:
        if state.is_terminal() or state.is_chance_node():
            continue
        other = rearrange(state.to_json(), state.current_player(), rng)
        if other is None:
            continue
        twin = game.state_from_json(other)
        if not forced_apart(state, twin):
            yield state, twin


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("algorithm", ["ismcts", "pimc", "auto"])
def test_search_gives_the_same_result_on_states_the_mover_cannot_tell_apart(players, algorithm):
    game, states = nutz_positions(players, seed=40 + players, count=400)
    rng = random.Random(players)
    pairs = 0
    for state, twin in mover_twins(game, states, rng):
        if len(state.legal_actions()) < 2:
            continue
        ra = nutcore.best_move(state, algorithm, iterations=200, seed=9)
        rb = nutcore.best_move(twin, algorithm, iterations=200, seed=9)
        assert ra.action == rb.action
        assert [(s.action, s.visits, s.value) for s in ra.actions] == [
            (s.action, s.visits, s.value) for s in rb.actions
        ]
        assert nutcore._core.greedy_action(state) == nutcore._core.greedy_action(twin)
        pairs += 1
        if pairs == 6:
            break
    assert pairs == 6


def test_greedy_reads_nothing_hidden_anywhere():
    game, states = nutz_positions(3, seed=77, count=800)
    rng = random.Random(1)
    checked = 0
    for state, twin in mover_twins(game, states, rng):
        assert nutcore._core.greedy_action(state) == nutcore._core.greedy_action(twin)
        checked += 1
    assert checked > 100


def test_bots_play_nutz_through_the_generic_layers():
    game = nutcore.load_game("nutz", players=3)
    state = game.new_initial_state()
    rng = random.Random(2)
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(actions, probs)[0])
    result = nutcore.best_move(state, iterations=100, seed=3)
    assert result.algorithm == "ismcts" and result.action in state.legal_actions()
    assert state.algorithms == ("ismcts", "pimc")
    with pytest.raises(ValueError, match="not available for nutz"):
        nutcore.best_move(state, "mcts")
    match = nutcore.play_match(game, ["ismcts:iterations=30", "greedy", "pimc:iterations=30"], games=3, seed=1)
    assert match.games == 3 and [b.name for b in match.bots] == ["ismcts:iterations=30", "greedy", "pimc:iterations=30"]
    assert sum(b.win_share * b.games for b in match.bots) == pytest.approx(3)  # every game has its winners
    assert match.mean_length > 100


def test_ismcts_memory_guard_counts_children():
    # max_nodes bounds nodes and their children together: a Nutz node holds up to 50 children.
    game = nutcore.load_game("nutz", players=2)
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(actions, probs)[0])
    small = nutcore.best_move(state, "ismcts", iterations=3000, max_nodes=1000, seed=1)
    large = nutcore.best_move(state, "ismcts", iterations=3000, seed=1)
    assert small.extra["tree_bytes"] <= 1000 * 24 + 4096 * 4  # entries of at most 24 bytes, plus the table
    assert large.extra["tree_bytes"] > 20 * small.extra["tree_bytes"]
    assert small.action in state.legal_actions()
