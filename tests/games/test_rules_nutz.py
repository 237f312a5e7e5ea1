"""Nutz!: the rules (docs/rules/nutz.md), each test run on the C++ core and on the Python reference
(written from the docs alone)."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

import nutcore
from nutcore.reference import nutz

GAME = None  # set for each test to the implementation under test


def _native(players=2, **params):
    return nutcore.load_game("nutz", players=players, **params)


@pytest.fixture(autouse=True, params=["native", "reference"])
def implementation(request):
    global GAME
    GAME = _native if request.param == "native" else nutz.Game
    yield request.param
    GAME = None


CARDS_FILE = Path(nutcore.__file__).resolve().parent / "data" / "nutz_cards.json"
DEFAULT_CARDS = json.loads(CARDS_FILE.read_text())

TYPES = [
    "hazelnut",
    "hazelnut*",
    "acorn",
    "acorn*",
    "walnut",
    "berries",
    "berries*",
    "mushrooms",
    "fox",
    "owl",
    "marten",
]
KINDS = ["hazelnut", "acorn", "walnut", "berries", "mushrooms", "fox", "owl", "marten"]
FOOD = KINDS[:5]
DECK_2P = [10, 4, 7, 3, 8, 9, 3, 10, 3, 4, 3]
DECK_3P = [14, 4, 11, 3, 10, 11, 3, 12, 5, 4, 3]
ROUNDS = {2: 7, 3: 6, 4: 5}

# action ids
TAKE = {j: 149 + j for j in range(1, 6)}
APPLY = {k: 155 + i for i, k in enumerate(KINDS)}
PLAY = {k: 165 + i for i, k in enumerate(KINDS)}


def summer(card, tree, down=False):
    return 10 * TYPES.index(card) + 2 * (tree - 1) + (1 if down else 0)


def act(state, *texts):
    for text in texts:
        state.apply_action(state.string_to_action(text))


def load(data, **params):
    return GAME(players=data["players"], **params).state_from_json(data)


def lines(state, seat):
    return state.information_state_string(seat).split("\n")


def position(
    players=2,
    phase="summer",
    *,
    round=1,
    step=0,
    squirrels=None,
    tokens=None,
    hands=None,
    trees=None,
    taken=None,
    pending=(),
    displays=None,
    discarded=None,
    last_squirrel=None,
    turn=None,
    current=None,
    dealt_rounds=None,
    lost=None,
    params=None,
):
    """A canonical JSON position. `trees` maps a tree (1-based) to its column, each card
    (TYPE, by) or (TYPE, by, True) when face down; `displays` and `discarded` are per seat dicts.
    Unless given: squirrels 1..N (seat order), tokens 1 each, the supply what is left, the turn,
    the seat to act and the last squirrel token as the phase implies; the deck holds the cards not
    dealt yet, taken from the types in type order, and the cards dealt that are neither in hands,
    columns, displays, pending nor discarded unseen count as revealed (collected and lost): `lost`
    if given, else the first types' cards (the deck is filled from the last type back)."""
    params = dict(params or {})
    game = GAME(players=players, **params)
    init = game.new_initial_state().to_json()
    counts = init["deck"]
    names = list(counts)
    food = list(init["displays"][0])
    n, c = players, players + 1
    rounds = game.params["last_tree_tokens"]
    squirrels = list(squirrels or range(1, n + 1))
    order = sorted(range(n), key=lambda s: squirrels[s])
    hands = [sorted(h, key=names.index) for h in (hands or [[] for _ in range(n)])]
    columns = [[] for _ in range(c)]
    for j, cards in (trees or {}).items():
        columns[j - 1] = [{"card": e[0], "face_down": len(e) > 2 and bool(e[2]), "by": e[1]} for e in cards]
    taken = list(taken or [None] * c)
    displays = [{k: (displays or [{}] * n)[s].get(k, 0) for k in food} for s in range(n)]
    discarded = [{t: (discarded or [{}] * n)[s].get(t, 0) for t in names} for s in range(n)]
    before = (round - 1) * 4 * n
    if turn is None:
        turn = {
            "squirrels": 0,
            "deal": before,
            "summer": before + step,
            "winter": before + 3 * n + step,
            "predators": before + 3 * n + step + 1,
        }.get(phase, 4 * n * rounds)
    if current is None:
        if phase in ("squirrels", "deal"):
            current = -1
        elif phase == "terminal":
            current = -4
        else:
            current = order[step % n]
    if last_squirrel is None:
        if phase in ("deal", "summer"):
            last_squirrel = 1
        elif phase in ("winter", "predators"):
            last_squirrel = 0 if taken[-1] is not None else 1
        else:
            last_squirrel = 0
    last_tree = 0 if phase == "squirrels" else rounds - round
    if phase == "squirrels":
        tokens = [0] * n
        squirrels = [squirrels[s] if s < step else None for s in range(n)]
    tokens = list(tokens or [1] * n)
    face_down = sum(1 for col in columns for e in col if e["face_down"])
    supply = game.params["moon_tokens"] - sum(tokens) - last_tree - last_squirrel - face_down

    def dealt_by(r):
        return 0 if r <= 0 else n * (5 + 3 * (r - 1))

    if dealt_rounds is not None:
        dealt = dealt_by(dealt_rounds)
    elif phase == "squirrels":
        dealt = 0
    elif phase == "deal":
        dealt = dealt_by(round - 1) + sum(len(h) for h in hands) - (0 if round == 1 else 2 * n)
    elif phase in ("final", "terminal"):
        dealt = dealt_by(rounds)
    else:
        dealt = dealt_by(round)
    free = dict(counts)
    revealed = {t: 0 for t in names}
    for h in hands:
        for t in h:
            free[t] -= 1
    for col in columns:
        for e in col:
            free[e["card"]] -= 1
            if not e["face_down"]:
                revealed[e["card"]] += 1
    for d in discarded:
        for t, x in d.items():
            free[t] -= x
    collected = {k: sum(d[k] for d in displays) for k in food}
    for k in pending:
        collected[k] = collected.get(k, 0) + 1
    for k, need in collected.items():
        for t in names:
            if t.rstrip("*") == k and need:
                x = min(need, free[t])
                free[t] -= x
                revealed[t] += x
                need -= x
        assert need == 0, "not enough %s cards" % k
    for t, x in (lost or {}).items():
        free[t] -= x
        revealed[t] += x
    assert all(v >= 0 for v in free.values())
    deck = {t: 0 for t in names}
    left = sum(counts.values()) - dealt
    for t in reversed(names):
        x = min(left, free[t])
        deck[t] = x
        left -= x
        revealed[t] += free[t] - x
    assert left == 0, "not enough cards for the deck"
    if lost is not None:
        assert sum(free.values()) == sum(deck.values()), "the lost cards do not add up"
    return {
        "game": "nutz",
        "players": n,
        "phase": phase,
        "current_player": current,
        "round": round,
        "turn": turn,
        "step": step,
        "squirrels": squirrels,
        "tokens": tokens,
        "supply": supply,
        "last_tree": last_tree,
        "last_squirrel_token": last_squirrel,
        "hands": hands,
        "trees": columns,
        "taken": taken,
        "pending": list(pending),
        "displays": displays,
        "deck": deck,
        "revealed": revealed,
        "discarded_unseen": discarded,
    }


def after_squirrels(players, numbers, **params):
    state = GAME(players=players, **params).new_initial_state()
    for k in numbers:
        act(state, "squirrel %d" % k)
    return state


# -- parameters, the card set, actions ----------------------------------------------------------


def canonical_default():
    spec = copy.deepcopy(DEFAULT_CARDS)
    for kind in spec["kinds"]:
        kind["cards"] = [
            {"count": g["count"], "moons": g.get("moons", 0), "three_plus": g.get("three_plus", False)}
            for g in kind["cards"]
        ]
    return spec


def test_params_in_table_order_and_defaults_per_player_count():
    game = GAME()
    params = game.params
    assert list(params) == [
        "players",
        "cards",
        "last_tree_tokens",
        "moon_tokens",
        "token_cap",
        "remove_three_plus",
        "turn_cap",
    ]
    assert params["cards"] == canonical_default()
    assert json.dumps(params["cards"]) == json.dumps(canonical_default())  # key order too
    assert params["moon_tokens"] == 15 and params["token_cap"] == 3 and params["turn_cap"] == 200
    assert game.num_distinct_actions() == 206
    for players, rounds, remove, length in ((2, 7, True, 235), (3, 6, False, 311), (4, 5, False, 395)):
        game = GAME(players=players)
        assert game.params["last_tree_tokens"] == rounds and game.params["remove_three_plus"] is remove
        assert game.observation_tensor_shape() == [length]
        assert GAME(**game.params) == game
    assert GAME(turn_cap=60000).params["turn_cap"] == 60000


@pytest.mark.parametrize(
    "params",
    [
        dict(players=1),
        dict(players=5),
        dict(players=True),
        dict(colour="red"),
        dict(last_tree_tokens=0),
        dict(last_tree_tokens=13),
        dict(moon_tokens=0),
        dict(moon_tokens=61),
        dict(token_cap=1),  # the last seat in the first order starts with 2
        dict(token_cap=16),
        dict(remove_three_plus="yes"),
        dict(remove_three_plus=1),
        dict(turn_cap=0),
        dict(turn_cap=60001),
        dict(cards=42),
        dict(cards=["hazelnut"]),
        dict(players=4, moon_tokens=9),  # 5 + 4 + 1 = 10 tokens at set-up
        dict(players=2, last_tree_tokens=8, moon_tokens=10),
        dict(players=2, last_tree_tokens=12),  # 76 cards needed, 64 in the 2-player deck
        dict(players=3, remove_three_plus=True, last_tree_tokens=7),  # 69 > 64
        dict(players=4, last_tree_tokens=6, moon_tokens=16, remove_three_plus=True),  # 80 > 64
        dict(players=4, last_tree_tokens=7),  # 92 > 80
    ],
)
def test_bad_parameters_are_refused(params):
    with pytest.raises(ValueError, match="^nutz"):
        GAME(**params)


def test_limits_that_just_fit():
    GAME(players=4, moon_tokens=10)
    GAME(players=2, last_tree_tokens=12, remove_three_plus=False)  # 76 <= 80, 12 + 3 <= 15
    GAME(players=3, remove_three_plus=True, last_tree_tokens=6)  # 60 <= 64
    GAME(players=4, last_tree_tokens=6, moon_tokens=11)  # 80 <= 80
    GAME(players=2, last_tree_tokens=1, moon_tokens=4, token_cap=2)
    # at most 60 cards of one type in a game: the 3+ cards count only when they are in
    spec = _cards_with(lambda s: s["kinds"][0].update(cards=[{"count": 40}, {"count": 40, "three_plus": True}]))
    assert GAME(players=2, cards=spec).new_initial_state().to_json()["deck"]["hazelnut"] == 40
    with pytest.raises(ValueError, match="^nutz"):
        GAME(players=3, cards=spec)


def test_two_player_deck_leaves_out_the_three_plus_cards():
    for players, deck in ((2, DECK_2P), (3, DECK_3P), (4, DECK_3P)):
        data = GAME(players=players).new_initial_state().to_json()
        assert data["deck"] == dict(zip(TYPES, deck))
        assert list(data["deck"]) == TYPES
    assert sum(DECK_2P) == 64 and sum(DECK_3P) == 80
    assert list(GAME(players=2, remove_three_plus=False).new_initial_state().to_json()["deck"].values()) == DECK_3P
    assert (
        list(GAME(players=4, remove_three_plus=True, last_tree_tokens=4).new_initial_state().to_json()["deck"].values())
        == DECK_2P
    )


def test_action_strings():
    state = GAME().new_initial_state()
    expected = {
        0: "hazelnut to tree 1",
        1: "hazelnut face down to tree 1",
        9: "hazelnut face down to tree 5",
        10: "hazelnut* to tree 1",
        42: "walnut to tree 2",
        107: "marten face down to tree 4",
        110: "type 11 to tree 1",
        149: "type 14 face down to tree 5",
        150: "take tree 1",
        154: "take tree 5",
        155: "apply hazelnut",
        160: "apply fox",
        162: "apply marten",
        163: "apply kind 8",
        164: "apply kind 9",
        165: "play hazelnut",
        172: "play marten",
        173: "play kind 8",
        175: "squirrel 1",
        179: "squirrel 5",
        180: "deal hazelnut",
        181: "deal hazelnut*",
        190: "deal marten",
        191: "deal type 11",
        194: "deal type 14",
        195: "action 195",
        205: "action 205",
    }
    for a, text in expected.items():
        assert state.action_to_string(a) == text
    for a in range(206):
        assert state.string_to_action(state.action_to_string(a)) == a
    for bad in ("hazelnut to tree 6", "play fox ", "deal type 3", "apply kind 5", "squirrel 0", "action 3", ""):
        with pytest.raises(ValueError):
            state.string_to_action(bad)
    for bad in (-1, 206, True):
        with pytest.raises(ValueError):
            state.action_to_string(bad)


def _cards_with(change):
    spec = copy.deepcopy(DEFAULT_CARDS)
    change(spec)
    return spec


def _kind(spec, name):
    return next(k for k in spec["kinds"] if k["name"] == name)


def _too_many_types(spec):
    spec["kinds"] = [
        {"name": "nut%d" % i, "score": {"each": 1}, "cards": [{"count": 5, "moons": m} for m in range(4)]}
        for i in range(4)
    ]


BAD_CARD_SETS = [
    ("", lambda s: s.update(colour="red")),
    ("", lambda s: s.update(name="x" * 81)),
    ("", lambda s: s.update(name=7)),
    ("", lambda s: s.pop("kinds")),
    ("", lambda s: s.update(kinds=[])),
    (
        "",
        lambda s: s["kinds"].extend(
            {"name": "x%d" % i, "score": {"each": 1}, "cards": [{"count": 1}]} for i in range(3)
        ),
    ),
    ("kinds[0]", lambda s: s["kinds"][0].update(colour="brown")),
    ("kinds[0]", lambda s: s["kinds"][0].update(name="Hazelnut")),
    ("kinds[0]", lambda s: s["kinds"][0].update(name="a" * 17)),
    ("kinds[0]", lambda s: s["kinds"][0].update(name="")),
    ("kinds[", lambda s: s["kinds"][7].update(name="owl")),
    ("kinds[0]", lambda s: s["kinds"][0].pop("score")),
    ("kinds[0]", lambda s: s["kinds"][0].update(predator=_kind(s, "owl")["predator"])),
    ("kinds[0]", lambda s: s["kinds"][0].update(score={"each": 21})),
    ("kinds[0]", lambda s: s["kinds"][0].update(score={"each": -1})),
    ("kinds[0]", lambda s: s["kinds"][0].update(score={"each": 1.0})),
    ("kinds[0]", lambda s: s["kinds"][0].update(score={"each": 1, "beyond": 2})),
    ("kinds[0]", lambda s: s["kinds"][0].update(score={"points": 1})),
    ("kinds[3]", lambda s: s["kinds"][3].update(score={"set": []})),
    ("kinds[3]", lambda s: s["kinds"][3].update(score={"set": [1] * 11})),
    ("kinds[3]", lambda s: s["kinds"][3].update(score={"set": [1, 101]})),
    ("kinds[3]", lambda s: s["kinds"][3].update(score={"set": [1, 3], "beyond": 51})),
    ("kinds[4]", lambda s: s["kinds"][4].update(score={"groups": 0, "points": 5})),
    ("kinds[4]", lambda s: s["kinds"][4].update(score={"groups": 2, "points": 101})),
    ("kinds[4]", lambda s: s["kinds"][4].update(score={"groups": 2})),
    ("kinds[0]", lambda s: s["kinds"][0].update(cards=[])),
    ("kinds[0]", lambda s: s["kinds"][0].update(cards=[{"count": 1}] * 5)),
    ("kinds[0]", lambda s: s["kinds"][0]["cards"].__setitem__(0, {"count": 0})),
    ("kinds[0]", lambda s: s["kinds"][0]["cards"].__setitem__(0, {"count": 61})),
    ("kinds[0]", lambda s: s["kinds"][0]["cards"].__setitem__(0, {"count": True})),
    ("kinds[0]", lambda s: s["kinds"][0]["cards"].__setitem__(0, {"moons": 1})),
    ("kinds[0]", lambda s: s["kinds"][0]["cards"].__setitem__(0, {"count": 10, "moons": 4})),
    ("kinds[0]", lambda s: s["kinds"][0]["cards"].__setitem__(0, {"count": 10, "three_plus": "yes"})),
    ("kinds[0]", lambda s: s["kinds"][0]["cards"].__setitem__(0, {"count": 10, "colour": "brown"})),
    ("hazelnut", lambda s: s["kinds"][0].update(cards=[{"count": 40}, {"count": 21}])),  # 61 of one type
    ("", lambda s: [k.update(cards=[{"count": 60}]) for k in s["kinds"][:5]]),  # 300 + 12 > 240 cards
    ("kinds[6]", lambda s: _kind(s, "owl")["predator"].update(of=["fox"])),
    ("kinds[6]", lambda s: _kind(s, "owl")["predator"].update(of=["berries "])),
    ("kinds[6]", lambda s: _kind(s, "owl")["predator"].update(of=[])),
    ("kinds[6]", lambda s: _kind(s, "owl")["predator"].update(of=["berries", "berries"])),
    ("kinds[6]", lambda s: _kind(s, "owl")["predator"].update(target="me")),
    ("kinds[6]", lambda s: _kind(s, "owl")["predator"].update(discard="some")),
    ("kinds[6]", lambda s: _kind(s, "owl")["predator"].update(count=1)),  # count only with 'highest'
    ("kinds[6]", lambda s: _kind(s, "owl")["predator"].update(colour="grey")),
    ("kinds[6]", lambda s: _kind(s, "owl")["predator"].pop("target")),
    ("kinds[5]", lambda s: _kind(s, "fox")["predator"].update(of=["hazelnut", "berries"])),  # not scored 'each'
    ("kinds[5]", lambda s: _kind(s, "fox")["predator"].update(count=0)),
    ("kinds[5]", lambda s: _kind(s, "fox")["predator"].update(count=11)),
    ("kinds[5]", lambda s: _kind(s, "fox")["predator"].pop("count")),
    ("", _too_many_types),
]


@pytest.mark.parametrize("where, change", BAD_CARD_SETS)
def test_card_set_mistakes_are_refused(where, change):
    with pytest.raises(ValueError, match="^nutz") as info:
        GAME(cards=_cards_with(change))
    assert where in str(info.value)


def test_card_set_from_a_file_and_its_canonical_form(tmp_path):
    spec = {
        "kinds": [
            {"name": "nut", "score": {"each": 2}, "cards": [{"count": 25}, {"moons": 2, "count": 10}]},
            {"name": "berry", "score": {"set": [1, 4]}, "cards": [{"count": 12, "three_plus": True}, {"count": 8}]},
            {"name": "hawk", "predator": {"target": "others", "of": ["nut"], "count": 2, "discard": "highest"}},
            {"name": "frost", "predator": {"discard": "all", "of": ["berry", "nut"], "target": "everyone"}},
        ]
    }
    spec["kinds"][2]["cards"] = [{"count": 3}]
    spec["kinds"][3]["cards"] = [{"count": 2, "moons": 1}]
    canonical = {
        "name": "unnamed",
        "kinds": [
            {
                "name": "nut",
                "score": {"each": 2},
                "cards": [
                    {"count": 25, "moons": 0, "three_plus": False},
                    {"count": 10, "moons": 2, "three_plus": False},
                ],
            },
            {
                "name": "berry",
                "score": {"set": [1, 4], "beyond": 0},
                "cards": [{"count": 12, "moons": 0, "three_plus": True}, {"count": 8, "moons": 0, "three_plus": False}],
            },
            {
                "name": "hawk",
                "predator": {"discard": "highest", "count": 2, "of": ["nut"], "target": "others"},
                "cards": [{"count": 3, "moons": 0, "three_plus": False}],
            },
            {
                "name": "frost",
                "predator": {"discard": "all", "of": ["berry", "nut"], "target": "everyone"},
                "cards": [{"count": 2, "moons": 1, "three_plus": False}],
            },
        ],
    }
    path = tmp_path / "set.json"
    path.write_text(json.dumps(spec))
    for cards in (str(path), path, spec):
        game = GAME(cards=cards)
        assert json.dumps(game.params["cards"]) == json.dumps(canonical)
        deck = game.new_initial_state().to_json()["deck"]
        assert deck == {"nut": 25, "nut**": 10, "berry": 8, "hawk": 3, "frost*": 2}
    assert GAME(cards=str(path)) == GAME(cards=canonical)
    assert GAME(cards=str(CARDS_FILE)) == GAME()
    state = GAME(cards=path).new_initial_state()
    assert state.action_to_string(20) == "berry to tree 1"
    assert state.action_to_string(157) == "apply hawk" and state.action_to_string(168) == "play frost"
    assert state.action_to_string(184) == "deal frost*" and state.action_to_string(185) == "deal type 5"
    # with the 3+ cards in, berries have 20 cards
    assert GAME(players=3, cards=path).new_initial_state().to_json()["deck"]["berry"] == 20
    with pytest.raises(ValueError, match="^nutz"):
        GAME(cards=str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.json"
    bad.write_text('{"kinds": [')
    with pytest.raises(ValueError, match="^nutz"):
        GAME(cards=bad)


def test_a_kind_without_cards_in_the_game_keeps_its_number():
    spec = _cards_with(lambda s: s["kinds"][2].update(cards=[{"count": 10, "three_plus": True}]))  # walnut: 3+ only
    spec["kinds"][0]["cards"].append({"count": 2, "moons": 1})  # merged with the other hazelnut*
    game = GAME(players=2, cards=spec)
    deck = game.new_initial_state().to_json()["deck"]
    assert list(deck) == ["hazelnut", "hazelnut*", "acorn", "acorn*", "berries", "berries*", "mushrooms"] + KINDS[5:]
    assert deck["hazelnut*"] == 6
    state = game.new_initial_state()
    assert state.action_to_string(167) == "play walnut" and state.action_to_string(40) == "berries to tree 1"
    assert list(state.to_json()["displays"][0]) == FOOD
    assert game.observation_tensor_shape() == [13 + 10 + 6 + 9 * (5 + 10) + 40 + 8 + 10]
    assert list(GAME(players=3, cards=spec).new_initial_state().to_json()["deck"])[4] == "walnut"


# -- set-up -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players, numbers, order, tokens, last_tree",
    [
        (2, [3, 1], [1, 0], [2, 1], 6),
        (3, [4, 1, 3], [1, 2, 0], [2, 1, 1], 5),
        (4, [2, 5, 1, 4], [2, 0, 3, 1], [1, 2, 1, 1], 4),
    ],
)
def test_squirrels_and_set_up(players, numbers, order, tokens, last_tree):
    state = GAME(players=players).new_initial_state()
    data = state.to_json()
    assert data["phase"] == "squirrels" and data["current_player"] == -1 and state.is_chance_node()
    assert data["tokens"] == [0] * players and data["supply"] == 15 and data["last_tree"] == 0
    assert data["last_squirrel_token"] == 0 and data["round"] == 1 and data["squirrels"] == [None] * players
    assert lines(state, 0)[3] == "order: -"
    dealt = []
    for seat, k in enumerate(numbers):
        left = [x for x in range(1, players + 2) if x not in dealt]
        assert state.chance_outcomes() == [(174 + x, 1 / len(left)) for x in left]
        assert state.to_json()["step"] == seat
        act(state, "squirrel %d" % k)
        dealt.append(k)
    data = state.to_json()
    assert data["squirrels"] == numbers
    assert data["tokens"] == tokens
    assert data["last_tree"] == last_tree and data["last_squirrel_token"] == 1
    assert data["supply"] == 15 - (last_tree + 1) - (players + 1)
    assert data["phase"] == "deal" and data["step"] == 0 and data["round"] == 1 and state.is_chance_node()
    assert lines(state, 0)[3] == "order: " + " ".join(map(str, order))
    assert lines(state, 0)[4] == "tokens: %s, supply 5, last tree %d, last squirrel 1" % (
        " ".join(map(str, tokens)),
        last_tree,
    )
    assert state.history() == [174 + k for k in numbers]


def test_set_up_follows_the_parameters():
    state = after_squirrels(2, [1, 2], last_tree_tokens=3, moon_tokens=20)
    data = state.to_json()
    assert data["last_tree"] == 2 and data["last_squirrel_token"] == 1
    assert data["tokens"] == [1, 2] and data["supply"] == 20 - 3 - 3


def test_deal_five_then_three_only_the_receiver_sees():
    state = after_squirrels(2, [2, 1])
    assert state.chance_outcomes() == [(180 + t, c / 64) for t, c in enumerate(DECK_2P)]
    act(state, "deal walnut")
    assert state.chance_outcomes()[0] == (180, 10 / 63) and state.chance_outcomes()[4] == (184, 7 / 63)
    twin = state.clone()
    act(state, "deal hazelnut")
    act(twin, "deal owl")
    assert lines(state, 1) == lines(twin, 1) and lines(state, 0) != lines(twin, 0)
    act(state, "deal fox", "deal hazelnut")
    assert state.to_json()["step"] == 0 and lines(state, 1)[6] == "hand sizes: 4 0"
    act(state, "deal acorn*")
    data = state.to_json()
    assert data["step"] == 1 and data["hands"][0] == ["hazelnut", "hazelnut", "acorn*", "walnut", "fox"]
    assert lines(state, 0)[5] == "hand: hazelnut hazelnut acorn* walnut fox"
    assert lines(state, 1)[5] == "hand: -"
    assert lines(state, 1)[1] == "round 1, turn 0: seat 1 is dealt a card"
    for _ in range(5):
        act(state, "deal berries")
    data = state.to_json()
    assert data["phase"] == "summer" and data["step"] == 0 and data["deck"]["berries"] == 4
    assert state.current_player() == 1  # squirrel 1
    assert sum(data["deck"].values()) == 54

    # a later round deals 3 each
    hands = [["walnut", "owl"], ["hazelnut", "berries"]]
    data = position(phase="deal", round=2, hands=hands, displays=[{"acorn": 2}, {"hazelnut": 1}])
    state = load(data)
    assert sum(state.to_json()["deck"].values()) == 64 - 10
    act(state, "deal acorn", "deal acorn")
    assert state.to_json()["step"] == 0
    act(state, "deal fox")
    assert state.to_json()["step"] == 1 and state.to_json()["hands"][0] == ["acorn", "acorn", "walnut", "fox", "owl"]
    act(state, "deal marten", "deal marten", "deal marten")
    data = state.to_json()
    assert data["phase"] == "summer" and data["hands"][1] == ["hazelnut", "berries", "marten", "marten", "marten"]
    assert state.chance_outcomes() == []


# -- summer -------------------------------------------------------------------------------------


def test_order_of_play_skips_the_missing_number():
    state = after_squirrels(3, [4, 1, 3])
    for card in ("hazelnut", "acorn", "walnut"):
        for _ in range(5):
            act(state, "deal " + card)
    seen = []
    while state.to_json()["phase"] == "summer":
        seen.append(state.current_player())
        state.apply_action(state.legal_actions()[0])
    assert seen == [1, 2, 0] * 3
    seen = []
    while state.to_json()["phase"] == "winter":
        seen.append(state.current_player())
        state.apply_action(state.legal_actions()[-1])
    assert seen == [1, 2, 0]


def _summer_four_played(tokens=(0, 1)):
    # 2 players in seat order, step 4: tree 1 is full, tree 2 holds one card; seat 0 to play
    trees = {1: [("acorn", 0), ("berries", 1), ("mushrooms", 0)], 2: [("hazelnut", 1)]}
    hands = [["hazelnut", "walnut", "walnut"], ["owl", "fox", "acorn"]]
    return position(phase="summer", step=4, tokens=list(tokens), hands=hands, trees=trees)


def test_three_cards_per_tree_and_face_down_only_with_a_token():
    state = load(_summer_four_played(tokens=(0, 1)))
    assert state.current_player() == 0
    assert state.legal_actions() == [summer("hazelnut", 2), summer("hazelnut", 3), summer("walnut", 2), 44]
    state = load(_summer_four_played(tokens=(1, 0)))
    assert state.legal_actions() == [2, 3, 4, 5, 42, 43, 44, 45]


def test_a_face_down_card_carries_a_token_and_is_hidden():
    state = load(_summer_four_played(tokens=(1, 0)))
    before = state.to_json()
    act(state, "walnut face down to tree 2")
    data = state.to_json()
    assert data["tokens"] == [0, 0] and data["supply"] == before["supply"]
    assert data["trees"][1] == [
        {"card": "hazelnut", "face_down": False, "by": 1},
        {"card": "walnut", "face_down": True, "by": 0},
    ]
    assert data["revealed"] == before["revealed"] and data["turn"] == 5 and data["step"] == 5
    assert lines(state, 1)[8] == "tree 2: hazelnut by 1, ? face down by 0"
    assert lines(state, 0)[8] == "tree 2: hazelnut by 1, walnut face down by 0"
    assert state.current_player() == 1
    assert state.legal_actions() == [summer(card, tree) for card in ("acorn", "fox", "owl") for tree in (2, 3)]
    # face up: public at once
    state = load(_summer_four_played(tokens=(1, 0)))
    act(state, "walnut to tree 3")
    assert state.to_json()["revealed"]["walnut"] == before["revealed"]["walnut"] + 1
    assert lines(state, 1)[9] == "tree 3: walnut by 0"


# -- winter -------------------------------------------------------------------------------------


def _winter(tokens=(0, 0), **params):
    # 2 players, winter step 0; tree 3 (the last) holds two moon icons and a face-down card
    trees = {
        1: [("walnut", 0), ("mushrooms", 1)],
        2: [("hazelnut", 0)],
        3: [("hazelnut*", 0), ("acorn*", 1), ("berries", 1, True)],
    }
    hands = [["fox", "owl"], ["walnut", "walnut"]]
    return position(phase="winter", tokens=list(tokens), hands=hands, trees=trees, params=params)


def test_winter_collection_tokens_icons_and_the_cap():
    state = load(_winter())
    data = state.to_json()
    assert data["supply"] == 15 - 6 - 1 - 1 and state.legal_actions() == [150, 151, 152]
    assert lines(state, 1)[1] == "round 1, turn 6: winter, seat 0 takes"
    act(state, "take tree 3")
    data = state.to_json()
    # 1 face-down token + the last squirrel token = 2, one icon reaches the cap 3, the other does nothing
    assert data["tokens"] == [3, 0] and data["supply"] == 6 and data["last_squirrel_token"] == 0
    assert data["displays"][0] == {"hazelnut": 1, "acorn": 1, "walnut": 0, "berries": 1, "mushrooms": 0}
    assert data["revealed"]["berries"] == 1 and data["trees"][2] == []
    assert data["taken"] == [None, None, 0] and data["turn"] == 7
    assert data["phase"] == "winter" and data["step"] == 1 and state.current_player() == 1
    assert state.legal_actions() == [150, 151]
    assert lines(state, 1)[9] == "tree 3: taken by 0"
    assert data["squirrels"] == [1, 2]  # the new numbers come at the end of the round


def test_winter_icons_while_the_supply_lasts():
    # last_tree_tokens 3, moon_tokens 6: 6 - 1 - 2 - 1 - 1 = 1 token in the supply
    params = dict(last_tree_tokens=3, moon_tokens=6, token_cap=5)
    state = load(_winter(tokens=(1, 0), **params), **params)
    assert state.to_json()["supply"] == 1
    act(state, "take tree 3")
    data = state.to_json()
    assert data["tokens"] == [4, 0] and data["supply"] == 0


def test_winter_excess_tokens_go_to_the_supply():
    state = load(_winter(tokens=(3, 0)))
    supply = state.to_json()["supply"]
    act(state, "take tree 3")
    data = state.to_json()
    assert data["tokens"] == [3, 0] and data["supply"] == supply + 2
    # a tree other than the last leaves the last squirrel token in place
    state = load(_winter(tokens=(3, 0)))
    act(state, "take tree 1")
    data = state.to_json()
    assert data["last_squirrel_token"] == 1 and data["tokens"] == [3, 0] and data["supply"] == supply
    assert data["displays"][0]["walnut"] == 1 and data["displays"][0]["mushrooms"] == 1


def test_face_down_cards_bring_their_tokens_and_moon_icons():
    trees = {
        1: [("hazelnut*", 0, True), ("berries*", 1, True)],
        2: [("walnut", 0), ("walnut", 1)],
        3: [("acorn", 0), ("acorn", 1)],
    }
    state = load(position(phase="winter", tokens=[0, 0], hands=[["owl"] * 2] * 2, trees=trees))
    before = state.to_json()
    assert before["supply"] == 15 - 6 - 1 - 2
    act(state, "take tree 1")
    data = state.to_json()
    assert data["tokens"] == [3, 0] and data["supply"] == before["supply"] - 1  # 2 tokens, then one icon of two
    assert data["revealed"]["hazelnut*"] == 1 and data["revealed"]["berries*"] == 1
    assert data["displays"][0] == {"hazelnut": 1, "acorn": 0, "walnut": 0, "berries": 1, "mushrooms": 0}
    assert lines(state, 1)[7] == "tree 1: taken by 0"


def test_an_empty_tree_may_be_taken():
    state = _to_summer(GAME())
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])  # trees 1 and 2 fill up
    assert state.to_json()["trees"][2] == [] and state.legal_actions() == [150, 151, 152]
    act(state, "take tree 3", "take tree 1")
    data = state.to_json()
    assert data["phase"] == "deal" and data["round"] == 2 and data["squirrels"] == [3, 1]
    assert data["tokens"] == [2, 2] and data["supply"] == 5 and data["last_tree"] == 5
    assert data["displays"][1]["hazelnut"] == 3 and sum(data["displays"][0].values()) == 0


# -- predators ----------------------------------------------------------------------------------


def _predator_winter(displays):
    trees = {
        1: [("fox", 0), ("walnut", 1), ("hazelnut", 0)],
        2: [("owl", 1), ("berries", 0), ("marten", 1)],
    }
    hands = [["acorn", "acorn"], ["acorn", "acorn"]]
    return position(phase="winter", round=3, hands=hands, trees=trees, displays=displays)


def test_food_joins_first_then_the_fox_takes_the_highest_nut():
    state = load(_predator_winter([{"acorn": 1}, {}]))
    act(state, "take tree 1")
    data = state.to_json()
    assert data["displays"][0] == {"hazelnut": 1, "acorn": 1, "walnut": 0, "berries": 0, "mushrooms": 0}
    assert data["phase"] == "winter" and state.current_player() == 1 and data["pending"] == []
    assert state.history() == [150]  # one kind pending: applied at once
    assert data["revealed"]["fox"] >= 1
    state = load(_predator_winter([{"hazelnut": 2}, {}]))
    act(state, "take tree 1")
    assert state.to_json()["displays"][0]["hazelnut"] == 3 and state.to_json()["displays"][0]["walnut"] == 0
    state = load(_predator_winter([{"acorn": 2, "walnut": 1}, {}]))
    act(state, "take tree 1")
    assert state.to_json()["displays"][0] == {"hazelnut": 1, "acorn": 2, "walnut": 1, "berries": 0, "mushrooms": 0}


def test_two_predators_in_the_order_chosen():
    state = load(_predator_winter([{"berries": 2, "mushrooms": 3, "acorn": 1}, {"berries": 1, "mushrooms": 2}]))
    act(state, "take tree 2")
    data = state.to_json()
    assert data["phase"] == "predators" and state.current_player() == 0 and data["step"] == 0
    assert data["pending"] == ["owl", "marten"] and data["displays"][0]["berries"] == 3
    assert state.legal_actions() == [APPLY["owl"], APPLY["marten"]]
    assert lines(state, 1)[1] == "round 3, turn 23: seat 0 applies predators"
    assert lines(state, 1)[10] == "pending: owl marten"
    act(state, "apply marten")
    data = state.to_json()
    assert data["displays"][0] == {"hazelnut": 0, "acorn": 1, "walnut": 0, "berries": 0, "mushrooms": 0}
    assert data["displays"][1] == {"hazelnut": 0, "acorn": 0, "walnut": 0, "berries": 1, "mushrooms": 2}
    assert data["phase"] == "winter" and data["pending"] == [] and state.current_player() == 1
    assert state.history() == [151, APPLY["marten"]]


def _custom_cards():
    def predator(discard, of, target, count=None):
        spec = {"discard": discard, "of": of, "target": target}
        if count is not None:
            spec["count"] = count
        return spec

    return {
        "name": "custom",
        "kinds": [
            {"name": "nut", "score": {"each": 2}, "cards": [{"count": 15}]},
            {"name": "cone", "score": {"each": 2}, "cards": [{"count": 15}]},
            {"name": "seed", "score": {"each": 1}, "cards": [{"count": 15}]},
            {"name": "berry", "score": {"set": [2, 4]}, "cards": [{"count": 15}]},
            {
                "name": "fox",
                "predator": predator("highest", ["seed", "cone", "nut"], "self", 1),
                "cards": [{"count": 3}],
            },
            {"name": "hawk", "predator": predator("highest", ["nut", "seed"], "others", 2), "cards": [{"count": 3}]},
            {"name": "storm", "predator": predator("all", ["berry", "cone"], "everyone"), "cards": [{"count": 3}]},
            {"name": "bear", "predator": predator("all", ["nut"], "self"), "cards": [{"count": 3}]},
        ],
    }


def _custom_winter(trees):
    displays = [
        {"nut": 1, "cone": 1, "seed": 1, "berry": 2},
        {"nut": 1, "seed": 2, "berry": 1, "cone": 1},
        {"berry": 3},
    ]
    hands = [["nut", "nut"]] * 3
    params = dict(cards=_custom_cards())
    data = position(3, "winter", round=3, hands=hands, trees=trees, displays=displays, params=params)
    return load(data, **params)


def test_predator_targets_counts_and_ties():
    trees = {
        1: [("hawk", 0), ("seed", 1), ("seed", 2)],
        2: [("storm", 1), ("berry", 2), ("nut", 0)],
        3: [("fox", 2), ("cone", 0), ("cone", 1)],
    }
    state = _custom_winter(trees)
    hawk = state.clone()
    act(hawk, "take tree 1")  # others: two cards each, the highest first
    data = hawk.to_json()
    assert [d["nut"] for d in data["displays"]] == [1, 0, 0]
    assert [d["seed"] for d in data["displays"]] == [3, 1, 0]
    storm = state.clone()
    act(storm, "take tree 2")  # everyone: all berries and cones
    data = storm.to_json()
    assert data["displays"] == [
        {"nut": 2, "cone": 0, "seed": 1, "berry": 0},
        {"nut": 1, "cone": 0, "seed": 2, "berry": 0},
        {"nut": 0, "cone": 0, "seed": 0, "berry": 0},
    ]
    fox = state.clone()
    act(fox, "take tree 3")  # nut and cone tie at 2 points: the lower kind number goes
    assert fox.to_json()["displays"][0] == {"nut": 0, "cone": 3, "seed": 1, "berry": 2}
    assert fox.to_json()["displays"][1] == {"nut": 1, "cone": 1, "seed": 2, "berry": 1}


def test_the_order_of_two_predators_matters():
    trees = {
        1: [("bear", 0), ("fox", 1), ("seed", 2)],
        2: [("seed", 0), ("seed", 1), ("seed", 2)],
        3: [("seed", 0), ("seed", 1), ("seed", 2)],
    }
    state = _custom_winter(trees)
    act(state, "take tree 1")
    assert state.to_json()["pending"] == ["fox", "bear"] and state.legal_actions() == [159, 162]
    assert state.to_json()["displays"][0] == {"nut": 1, "cone": 1, "seed": 2, "berry": 2}
    first_fox = state.clone()
    act(first_fox, "apply fox")  # fox takes the nut, the bear finds none
    assert first_fox.to_json()["displays"][0] == {"nut": 0, "cone": 1, "seed": 2, "berry": 2}
    act(state, "apply bear")  # the bear takes the nut, the fox a cone
    assert state.to_json()["displays"][0] == {"nut": 0, "cone": 0, "seed": 2, "berry": 2}
    assert state.to_json()["phase"] == "winter" and state.current_player() == 1


# -- end of the round ---------------------------------------------------------------------------


def _round_end(taken, trees, tokens):
    return position(
        phase="winter",
        step=1,
        squirrels=[1, 3],
        tokens=tokens,
        hands=[["owl", "owl"], ["fox", "fox"]],
        trees=trees,
        taken=taken,
        displays=[{"walnut": 1}, {}],
    )


def test_the_uncollected_last_tree_is_discarded_unseen():
    trees = {2: [("hazelnut", 0), ("acorn", 1, True)], 3: [("walnut", 0, True), ("berries", 1)]}
    state = load(_round_end([0, None, None], trees, [1, 1]))
    before = state.to_json()
    assert before["supply"] == 15 - 2 - 6 - 1 - 2 and state.current_player() == 1
    act(state, "take tree 2")
    data = state.to_json()
    assert data["tokens"] == [1, 2]
    assert data["supply"] == before["supply"] + 2  # the walnut's token and the last squirrel token
    assert data["discarded_unseen"][0]["walnut"] == 1 and sum(data["discarded_unseen"][1].values()) == 0
    assert data["revealed"]["walnut"] == before["revealed"]["walnut"]
    assert data["revealed"]["acorn"] == before["revealed"]["acorn"] + 1
    assert data["trees"] == [[], [], []] and data["taken"] == [None, None, None]
    assert data["squirrels"] == [1, 2]
    assert data["phase"] == "deal" and data["round"] == 2 and data["step"] == 0
    assert data["last_tree"] == 5 and data["last_squirrel_token"] == 1
    assert lines(state, 1)[-2] == "discarded unseen: 1 0; mine: -"
    assert lines(state, 0)[-2] == "discarded unseen: 1 0; mine: walnut"
    unseen = lambda seat: dict(x.rsplit(" ", 1) for x in lines(state, seat)[-3][len("unseen: ") :].split(", "))  # noqa: E731
    assert int(unseen(1)["walnut"]) == int(unseen(0)["walnut"]) + 1


def test_squirrel_numbers_become_the_next_order():
    trees = {1: [("hazelnut", 0), ("acorn", 1, True)], 2: [("walnut", 0, True), ("berries", 1)]}
    state = load(_round_end([None, None, 0], trees, [2, 1]))
    before = state.to_json()
    assert before["last_squirrel_token"] == 0 and before["squirrels"] == [1, 3]
    act(state, "take tree 1")
    data = state.to_json()
    assert data["squirrels"] == [3, 1]
    assert data["supply"] == before["supply"] + 1  # the walnut's token only
    assert data["discarded_unseen"][0]["walnut"] == 1
    assert data["last_tree"] == 5 and data["last_squirrel_token"] == 1
    for _ in range(6):
        act(state, "deal mushrooms")
    assert state.to_json()["phase"] == "summer" and state.current_player() == 1
    assert lines(state, 0)[3] == "order: 1 0"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_game_lasts_one_round_per_last_tree_token(players):
    rng = random.Random(players)
    game = GAME(players=players)
    state = game.new_initial_state()
    rounds_dealt = []
    while not state.is_terminal():
        data = state.to_json()
        if data["phase"] == "deal" and data["step"] == 0 and data["round"] not in rounds_dealt:
            rounds_dealt.append(data["round"])
            dealt = sum(len(h) for h in data["hands"])
            assert dealt == (0 if data["round"] == 1 else 2 * players)
            assert data["last_tree"] == ROUNDS[players] - data["round"]
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert rounds_dealt == list(range(1, ROUNDS[players] + 1))
    data = state.to_json()
    assert data["round"] == ROUNDS[players] and data["turn"] == 4 * players * ROUNDS[players]
    assert data["hands"] == [[]] * players and data["trees"] == [[]] * (players + 1)
    assert sum(data["deck"].values()) == (64 if players == 2 else 80) - players * (5 + 3 * (ROUNDS[players] - 1))
    short = GAME(players=players, last_tree_tokens=2).new_initial_state()
    while not short.is_terminal():
        if short.is_chance_node():
            short.apply_action(short.chance_outcomes()[0][0])
        else:
            short.apply_action(short.legal_actions()[-1])
    assert short.to_json()["round"] == 2 and short.to_json()["turn"] == 8 * players


# -- the final phase, scoring, the turn cap -----------------------------------------------------


def _final(hands, displays):
    return position(phase="final", round=7, squirrels=[2, 1], tokens=[1, 1], hands=hands, displays=displays)


def test_final_phase_order_and_predator_on_the_display_as_it_stands():
    data = _final(
        [["berries", "berries*"], ["walnut", "fox"]], [{"berries": 2, "walnut": 1}, {"acorn": 1, "hazelnut": 2}]
    )
    state = load(data)
    assert state.current_player() == 1 and data["last_tree"] == 0
    assert state.legal_actions() == [PLAY["walnut"], PLAY["fox"]]
    assert lines(state, 0)[1] == "round 7, turn 56: seat 1 plays its last cards"
    fox_first = state.clone()
    act(fox_first, "play fox")  # takes the acorn; then the walnut (forced) and seat 0's two berries (forced)
    assert fox_first.is_terminal() and fox_first.history() == [PLAY["fox"]]
    final = fox_first.to_json()
    assert final["displays"][1] == {"hazelnut": 2, "acorn": 0, "walnut": 1, "berries": 0, "mushrooms": 0}
    assert final["displays"][0]["berries"] == 4 and final["hands"] == [[], []]
    assert fox_first.scores() == [10 + 3, 2 + 3] and fox_first.returns() == [1.0, 0.0]
    for t in ("berries", "berries*", "walnut", "fox"):
        assert final["revealed"][t] == data["revealed"][t] + 1
    assert final["step"] == 0 and final["current_player"] == -4
    act(state, "play walnut")  # the fox (forced) takes the walnut just played
    assert state.to_json()["displays"][1] == {"hazelnut": 2, "acorn": 1, "walnut": 0, "berries": 0, "mushrooms": 0}
    assert state.scores() == [13, 4]


def test_final_phase_each_seat_chooses_its_own_order():
    data = _final([["hazelnut", "owl"], ["walnut", "mushrooms"]], [{"berries": 2}, {}])
    state = load(data)
    act(state, "play mushrooms")  # then the walnut, forced
    assert state.current_player() == 0 and state.to_json()["step"] == 1
    assert state.history() == [PLAY["mushrooms"]] and state.to_json()["hands"][1] == []
    assert state.legal_actions() == [PLAY["hazelnut"], PLAY["owl"]]
    act(state, "play owl")
    assert state.is_terminal() and state.scores() == [1, 3]


@pytest.mark.parametrize("berries, points", [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 15), (6, 20), (8, 30)])
@pytest.mark.parametrize("mushrooms, more", [(0, 0), (1, 0), (2, 5), (3, 5), (5, 10)])
def test_scoring(berries, points, mushrooms, more):
    displays = [{"berries": berries, "mushrooms": mushrooms}, {"hazelnut": 3, "acorn": 2, "walnut": 1}]
    state = load(position(phase="terminal", round=7, tokens=[3, 0], displays=displays))
    assert state.scores() == [points + more, 3 + 4 + 3]


def test_custom_scores():
    spec = _cards_with(lambda s: s["kinds"][4].update(score={"groups": 3, "points": 7}))
    spec["kinds"][3]["score"] = {"set": [2, 5]}
    displays = [{"berries": 4, "mushrooms": 7}, {"berries": 2, "mushrooms": 2}]
    state = load(position(phase="terminal", round=7, displays=displays, params=dict(cards=spec)), cards=spec)
    assert state.scores() == [5 + 14, 5]


def test_ties_share_the_win():
    displays = [{"walnut": 2}, {"acorn": 3}, {"hazelnut": 5}]
    state = load(position(3, "terminal", round=6, displays=displays))
    assert state.scores() == [6, 6, 5] and state.returns() == [0.5, 0.5, 0.0]
    state = load(position(3, "terminal", round=6))
    assert state.returns() == [1 / 3] * 3


def _to_summer(game):
    state = game.new_initial_state()
    act(state, "squirrel 1", "squirrel 2")
    for _ in range(10):
        act(state, "deal hazelnut")
    return state


def test_turn_cap_ends_the_game_as_it_stands():
    state = _to_summer(GAME(turn_cap=3))
    for _ in range(3):
        assert not state.is_terminal()
        state.apply_action(state.legal_actions()[0])
    data = state.to_json()
    assert state.is_terminal() and data["phase"] == "terminal" and data["turn"] == 3 and data["step"] == 0
    assert [len(h) for h in data["hands"]] == [3, 4] and sum(len(t) for t in data["trees"]) == 3
    assert state.scores() == [0, 0] and state.returns() == [0.5, 0.5] and state.current_player() == -4
    assert lines(state, 0)[1] == "round 1, turn 3: game over"
    assert load(json.loads(json.dumps(data)), turn_cap=3).to_json() == data
    with pytest.raises(ValueError):
        state.apply_action(0)
    # before the first winter take, then in mid-winter
    state = _to_summer(GAME(turn_cap=6))
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.to_json()["round"] == 1
    state = _to_summer(GAME(turn_cap=7))
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    act(state, "take tree 1")
    data = state.to_json()
    assert state.is_terminal() and data["taken"] == [None, None, None] and data["turn"] == 7
    assert data["displays"][0]["hazelnut"] == 3 and state.scores() == [3, 0] and state.returns() == [1.0, 0.0]
    assert load(json.loads(json.dumps(data)), turn_cap=7).to_json() == data


# -- JSON loading -------------------------------------------------------------------------------


def test_loader_applies_forced_moves():
    trees = {2: [("acorn", 1), ("acorn", 1)], 3: [("mushrooms", 0)]}
    displays = [{"acorn": 1, "hazelnut": 1, "walnut": 1}, {}]
    data = position(
        phase="predators",
        round=3,
        taken=[0, None, None],
        hands=[["owl"] * 2] * 2,
        trees=trees,
        displays=displays,
        pending=["fox", "fox"],
    )
    assert data["turn"] == 16 + 7 and data["current_player"] == 0
    state = load(data)
    out = state.to_json()
    assert out["phase"] == "winter" and out["step"] == 1 and out["pending"] == []
    assert out["displays"][0] == {"hazelnut": 1, "acorn": 0, "walnut": 0, "berries": 0, "mushrooms": 0}
    assert state.history() == []


def _changed(data, **changes):
    data = copy.deepcopy(data)
    data.update(changes)
    return data


def _edited(data, edit):
    data = copy.deepcopy(data)
    edit(data)
    return data


def _winter_supply():
    return _winter()["supply"]


BAD_POSITIONS = {
    "deck breaks the card identity": lambda: _edited(
        _winter(), lambda d: d["deck"].update(hazelnut=d["deck"]["hazelnut"] + 1)
    ),
    "revealed breaks the card identity": lambda: _edited(_winter(), lambda d: d["revealed"].update(hazelnut=0)),
    "tokens not conserved": lambda: _changed(_winter(), tokens=[0, 1]),
    "tokens above the cap": lambda: _changed(_winter(), tokens=[4, 0], supply=_winter_supply() - 4),
    "squirrel numbers not distinct": lambda: _changed(_winter(), squirrels=[2, 2]),
    "a squirrel number missing": lambda: _changed(_winter(), squirrels=[1, None]),
    "turn": lambda: _changed(_winter(), turn=7),
    "round": lambda: _changed(_winter(), round=2),
    "last tree": lambda: _changed(_winter(), last_tree=5, supply=_winter_supply() + 1),
    "no last squirrel token in winter": lambda: _changed(_winter(), last_squirrel_token=0, supply=_winter_supply() + 1),
    "a tree taken at step 0": lambda: _changed(_winter(), taken=[1, None, None]),
    "current player": lambda: _changed(_winter(), current_player=1),
    "step 1 with nothing taken": lambda: _changed(_winter(), step=1, current_player=1, turn=7),
    "pending in winter": lambda: _changed(_winter(), pending=["fox"]),
    "predators with nothing pending": lambda: _changed(_winter(), phase="predators", turn=7),
    "game": lambda: _changed(_winter(), game="ritter"),
    "players": lambda: _changed(_winter(), players=3),
    "unknown key": lambda: _changed(_winter(), extra=1),
    "missing key": lambda: _edited(_winter(), lambda d: d.pop("revealed")),
    "unknown type": lambda: _changed(_winter(), hands=[["fox", "squirrel"], ["walnut", "walnut"]]),
    "face_down not a bool": lambda: _edited(_winter(), lambda d: d["trees"][0][0].update(face_down="yes")),
    "by not a seat": lambda: _edited(_winter(), lambda d: d["trees"][0][0].update(by=2)),
    "a hand of 3 in winter": lambda: _edited(
        _winter(), lambda d: (d["hands"][0].append("marten"), d["deck"].update(marten=d["deck"]["marten"] - 1))
    ),
    "7 cards in the columns": lambda: _edited(
        _winter(),
        lambda d: (
            d["trees"][1].append({"card": "walnut", "face_down": False, "by": 1}),
            d["deck"].update(walnut=d["deck"]["walnut"] - 1),
            d["revealed"].update(walnut=d["revealed"]["walnut"] + 1),
        ),
    ),
    "a token outside the supply in phase squirrels": lambda: _changed(
        position(phase="squirrels", step=1), tokens=[1, 0], supply=14
    ),
    "a squirrel number missing in phase squirrels": lambda: _changed(
        position(phase="squirrels", step=1), squirrels=[None, None]
    ),
    "no last squirrel token in deal": lambda: _edited(
        position(phase="deal", step=1, hands=[["acorn"] * 5, ["acorn"] * 2]),
        lambda d: d.update(last_squirrel_token=0, supply=d["supply"] + 1),
    ),
    "hand sizes in deal": lambda: _changed(
        position(phase="deal", step=1, hands=[["acorn"] * 5, ["acorn"] * 2]), step=0
    ),
    "no last squirrel token in summer": lambda: _edited(
        _summer_four_played(), lambda d: d.update(last_squirrel_token=0, supply=d["supply"] + 1)
    ),
    "columns in summer": lambda: _changed(_summer_four_played(), step=3, turn=3, current_player=1),
    "a last squirrel token in final": lambda: _edited(
        _final([["berries", "berries*"], ["walnut", "fox"]], [{}, {}]),
        lambda d: d.update(last_squirrel_token=1, supply=d["supply"] - 1),
    ),
    "final before the last round": lambda: _edited(
        _final([["berries", "berries*"], ["walnut", "fox"]], [{}, {}]),
        lambda d: d.update(round=6, last_tree=1, supply=d["supply"] - 1),
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_POSITIONS))
def test_loader_refuses_inconsistent_states(case):
    data = BAD_POSITIONS[case]()
    with pytest.raises(ValueError):
        load(data)


def test_test_positions_are_canonical():
    for data in (
        _winter(),
        _summer_four_played(),
        _info_position(),
        _predator_winter([{"berries": 2}, {"mushrooms": 1}]),
        _round_end([0, None, None], {2: [("hazelnut", 0)], 3: [("walnut", 0, True)]}, [1, 1]),
        _final([["berries", "berries*"], ["walnut", "fox"]], [{"berries": 1}, {}]),
        position(phase="deal", step=1, hands=[["acorn"] * 5, ["acorn"] * 2]),
        position(phase="squirrels", step=1),
        position(phase="terminal", round=7, displays=[{"walnut": 3}, {}]),
    ):
        state = load(data)
        assert state.to_json() == data and list(state.to_json()) == list(nutz.state.JSON_KEYS)


def test_loader_refuses_another_player_count_and_non_objects():
    game = GAME(players=2)
    with pytest.raises(ValueError):
        game.state_from_json(position(3, "deal"))
    for bad in (None, [], "nutz", 3):
        with pytest.raises(ValueError):
            game.state_from_json(bad)


# -- information --------------------------------------------------------------------------------


def _info_position():
    return position(
        phase="summer",
        round=2,
        step=3,
        squirrels=[3, 1],
        tokens=[0, 2],
        hands=[["hazelnut", "walnut", "walnut", "owl"], ["mushrooms", "fox", "marten"]],
        trees={1: [("acorn", 1), ("hazelnut*", 0, True)], 3: [("berries", 1, True)]},
        displays=[{"hazelnut": 2, "berries": 1}, {"acorn": 1}],
        discarded=[{}, {"walnut": 1}],
        lost={"marten": 1},
    )


def test_information_state_string_format():
    state = load(_info_position())
    assert state.current_player() == 0
    display = [
        "display 0: hazelnut 2, acorn 0, walnut 0, berries 1, mushrooms 0",
        "display 1: hazelnut 0, acorn 1, walnut 0, berries 0, mushrooms 0",
        "revealed: hazelnut 2, hazelnut* 0, acorn 2, acorn* 0, walnut 0, berries 1, berries* 0, mushrooms 0, "
        "fox 0, owl 0, marten 1",
    ]
    assert state.information_state_string(0) == "\n".join(
        [
            "view of seat 0",
            "round 2, turn 11: summer, seat 0 plays",
            "squirrels: 3 1",
            "order: 1 0",
            "tokens: 0 2, supply 5, last tree 5, last squirrel 1",
            "hand: hazelnut walnut walnut owl",
            "hand sizes: 4 3",
            "tree 1: acorn by 1, hazelnut* face down by 0",
            "tree 2: -",
            "tree 3: ? face down by 1",
            "pending: -",
            *display,
            "unseen: hazelnut 7, hazelnut* 3, acorn 5, acorn* 3, walnut 6, berries 8, berries* 3, mushrooms 10, "
            "fox 3, owl 3, marten 2",
            "discarded unseen: 0 1; mine: -",
            "deck: 48",
        ]
    )
    assert state.information_state_string(1) == "\n".join(
        [
            "view of seat 1",
            "round 2, turn 11: summer, seat 0 plays",
            "squirrels: 3 1",
            "order: 1 0",
            "tokens: 0 2, supply 5, last tree 5, last squirrel 1",
            "hand: mushrooms fox marten",
            "hand sizes: 4 3",
            "tree 1: acorn by 1, ? face down by 0",
            "tree 2: -",
            "tree 3: berries face down by 1",
            "pending: -",
            *display,
            "unseen: hazelnut 8, hazelnut* 4, acorn 5, acorn* 3, walnut 7, berries 7, berries* 3, mushrooms 9, "
            "fox 2, owl 4, marten 1",
            "discarded unseen: 0 1; mine: walnut",
            "deck: 48",
        ]
    )
    assert state.observation_string(1) == state.information_state_string(1)
    initial = GAME().new_initial_state()
    assert lines(initial, 1)[:11] == [
        "view of seat 1",
        "round 1, turn 0: seat 0 is dealt a squirrel",
        "squirrels: - -",
        "order: -",
        "tokens: 0 0, supply 15, last tree 0, last squirrel 0",
        "hand: -",
        "hand sizes: 0 0",
        "tree 1: -",
        "tree 2: -",
        "tree 3: -",
        "pending: -",
    ]
    assert lines(initial, 1)[-3:] == [
        "unseen: " + ", ".join("%s %d" % kv for kv in zip(TYPES, DECK_2P)),
        "discarded unseen: 0 0; mine: -",
        "deck: 64",
    ]
    act(initial, "squirrel 3")
    assert lines(initial, 0)[1:4] == ["round 1, turn 0: seat 1 is dealt a squirrel", "squirrels: 3 -", "order: -"]


def test_observation_tensor_segments():
    state = load(_info_position())
    t0, t1 = ([float(x) for x in state.observation_tensor(p)] for p in (0, 1))
    assert len(t0) == 235 and all(isinstance(x, float) for x in t0)
    assert t0[0:2] == [1, 0] and t1[0:2] == [0, 1] and t0[2:4] == [1, 0]
    assert t0[4:11] == [0, 0, 1, 0, 0, 0, 0] and t0[11:13] == [2, 11]
    assert t0[13:19] == [0, 0, 1, 1, 0, 0]
    assert t0[19:24] == [0, 2, 5, 5, 1]
    assert t0[24:35] == [1, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0] and t1[24:35] == [0] * 7 + [1, 1, 0, 1]
    assert t0[35:37] == [4, 3]
    one = lambda size, i: [1.0 if j == i else 0.0 for j in range(size)]  # noqa: E731
    tree1 = t0[37:85]
    assert tree1[0:16] == [1, 0, 0] + one(2, 1) + one(11, 2)
    assert tree1[16:32] == [1, 1, 0] + one(2, 0) + one(11, 1)
    assert t1[37 + 16 : 37 + 32] == [1, 1, 0] + one(2, 0) + [0] * 11
    assert tree1[32:48] == [0] * 16 and t0[85:133] == [0] * 48
    assert t0[133:149] == [1, 1, 0, 0, 1] + [0] * 11 and t1[133:149] == [1, 1, 0, 0, 1] + one(11, 5)
    assert t0[149:181] == [0] * 32
    assert t0[181:189] == [0] * 8
    assert t0[189:199] == [2, 0, 0, 1, 0, 0, 1, 0, 0, 0]
    assert t0[199:210] == [2, 0, 2, 0, 0, 1, 0, 0, 0, 0, 1]
    assert t0[210:221] == [7, 3, 5, 3, 6, 8, 3, 10, 3, 3, 2]
    assert t0[221:234] == [0, 1] + [0] * 11 and t1[221:234] == [0, 1] + one(11, 4)
    assert t0[234:] == [48]
    # a taken tree: the flag in its three slots
    state = load(_winter())
    act(state, "take tree 2")
    t = [float(x) for x in state.observation_tensor(1)]
    assert t[37 + 48 : 37 + 96 : 16] == [0, 0, 0] and t[37 + 48 + 2 : 37 + 96 : 16] == [1, 1, 1]
    assert t[2:4] == [0, 1] and t[4:11] == [0, 0, 0, 1, 0, 0, 0]


def _positions(players, games, seed, **params):
    """States met in random games."""
    game = GAME(players=players, **params)
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            yield state
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        yield state


def _swap_hidden(data, viewer):
    """The JSON with one card hidden from `viewer` (another seat's hand card or face-down card)
    exchanged with a card of another type from the deck, and the seat that holds it; or None."""
    names = list(data["deck"])
    for s, hand in enumerate(data["hands"]):
        if s == viewer:
            continue
        for i, card in enumerate(hand):
            for other in names:
                if other != card and data["deck"][other] > 0:
                    twin = copy.deepcopy(data)
                    twin["hands"][s][i] = other
                    twin["hands"][s].sort(key=names.index)
                    twin["deck"][other] -= 1
                    twin["deck"][card] += 1
                    return twin, s
    for j, column in enumerate(data["trees"]):
        for i, entry in enumerate(column):
            if entry["face_down"] and entry["by"] != viewer:
                for other in names:
                    if other != entry["card"] and data["deck"][other] > 0:
                        twin = copy.deepcopy(data)
                        twin["trees"][j][i]["card"] = other
                        twin["deck"][other] -= 1
                        twin["deck"][entry["card"]] += 1
                        return twin, entry["by"]
    return None


def test_information_hides_other_hands_and_face_down_cards():
    checked = 0
    for players in (2, 3, 4):
        game = GAME(players=players)
        for i, state in enumerate(_positions(players, 2, 5 + players)):
            if i % 3:
                continue
            data = state.to_json()
            for p in range(players):
                swapped = _swap_hidden(data, p)
                if swapped is None:
                    continue
                twin_data, owner = swapped
                twin = game.state_from_json(twin_data)
                if twin.to_json() != twin_data:  # loading applied a forced move
                    continue
                assert twin.information_state_string(p) == state.information_state_string(p)
                assert list(twin.observation_tensor(p)) == list(state.observation_tensor(p))
                assert twin.information_state_string(owner) != state.information_state_string(owner)
                assert list(twin.observation_tensor(owner)) != list(state.observation_tensor(owner))
                checked += 1
    assert checked > 100


def test_resample_keeps_the_view_and_varies_the_rest():
    checked = 0
    varied = 0
    for players in (2, 3, 4):
        game = GAME(players=players)
        for i, state in enumerate(_positions(players, 1, 11 + players)):
            if i % 4:
                continue
            for p in range(players):
                samples = [state.resample_from_infostate(p, seed=i * 10 + k) for k in range(4)]
                for sample in samples:
                    assert sample.information_state_string(p) == state.information_state_string(p)
                    assert list(sample.observation_tensor(p)) == list(state.observation_tensor(p))
                    assert sample.history() == []
                    data = sample.to_json()
                    mine = state.to_json()
                    assert data["hands"][p] == mine["hands"][p] and data["displays"] == mine["displays"]
                    assert data["discarded_unseen"][p] == mine["discarded_unseen"][p]
                    loaded = game.state_from_json(data)
                    forced = sample.current_player() >= 0 and len(sample.legal_actions()) == 1
                    if not forced:  # another seat's resampled hand may leave it a single choice
                        assert loaded.to_json() == data
                    checked += 1
                hidden = [json.dumps([s.to_json()["hands"], s.to_json()["deck"]]) for s in samples]
                varied += len(set(hidden)) > 1
    assert checked > 100 and varied > 20


def test_discarded_unseen_cards_are_resampled_for_others_only():
    trees = {2: [("hazelnut", 0), ("acorn", 1, True)], 3: [("walnut", 0, True), ("berries", 1)]}
    state = load(_round_end([0, None, None], trees, [1, 1]))
    act(state, "take tree 2")
    kinds = set()
    for seed in range(40):
        sample = state.resample_from_infostate(1, seed)
        lost = sample.to_json()["discarded_unseen"]
        assert sum(lost[0].values()) == 1 and sum(lost[1].values()) == 0
        kinds.add(next(t for t, x in lost[0].items() if x))
        assert sample.to_json()["hands"][1] == ["fox", "fox"]
        assert state.resample_from_infostate(0, seed).to_json()["discarded_unseen"][0]["walnut"] == 1
    assert len(kinds) > 3
