"""Die Ritter von der Haselnuss: the rules (docs/rules/ritter.md), each test run on the C++ core
and on the Python reference (written from the docs alone)."""

from __future__ import annotations

import json
import random

import pytest
from ritter_positions import BUSHES, THIEVES, position

import nutcore
from nutcore.reference import ritter

GAME = None  # set for each test to the implementation under test


def _native(players=2, **params):
    return nutcore.load_game("ritter", players=players, **params)


@pytest.fixture(autouse=True, params=["native", "reference"])
def implementation(request):
    global GAME
    GAME = _native if request.param == "native" else ritter.Game
    yield request.param
    GAME = None


def load(data, **params):
    game = GAME(players=data["players"], **params)
    return game.state_from_json(data)


def act(state, text):
    state.apply_action(state.string_to_action(text))


def ends(state):
    return sorted(state.action_to_string(a)[3:] for a in state.legal_actions())


def shout_position(players, drawer_at="B1", carried=None, scores=None, stacks=None, **kw):
    """Seat 0 (turn 0) draws at `drawer_at`: phase shout, seat 1 to shout."""
    knights = [drawer_at] + ["B%d" % (s + 4) for s in range(1, players)]
    return position(
        players,
        phase="shout",
        drawer=0,
        knights=knights,
        carried=carried,
        scores=scores,
        stacks=stacks,
        **kw,
    )


# -- parameters, actions ------------------------------------------------------------------------


def test_params_in_table_order_with_the_board_in_full():
    game = GAME()
    params = game.params
    assert list(params) == [
        "players",
        "board",
        "stack_size",
        "hazelnuts",
        "thieves_per_kind",
        "die",
        "delivery_points",
        "shout_points",
        "score_floor",
        "score_target",
        "empty_stacks_to_end",
        "shout_resolution",
        "turn_cap",
    ]
    assert params["board"] == ritter.DEFAULT_BOARD
    assert params["die"] == [1, 1, 2, 2, 3, 3] and params["delivery_points"] == [1, 3, 6, 10]
    assert game.num_distinct_actions() == 42
    assert game.observation_tensor_shape() == [121]
    assert GAME(players=3).observation_tensor_shape() == [23 + 33 + 40 + 30 + 24]
    assert GAME(**{k: v for k, v in params.items() if k != "players"}) == game
    assert GAME(turn_cap=60000).params["turn_cap"] == 60000


@pytest.mark.parametrize(
    "params",
    [
        dict(players=1),
        dict(players=5),
        dict(players=True),
        dict(colour="red"),
        dict(stack_size=0),
        dict(stack_size=6),  # 32 + 24 != 48
        dict(hazelnuts=31),
        dict(thieves_per_kind=61),
        dict(die=[]),
        dict(die=[1, 7]),
        dict(die=[1] * 13),
        dict(delivery_points=[]),
        dict(delivery_points=[1, -1]),
        dict(delivery_points=[0] * 9),
        dict(shout_points=26),
        dict(score_floor=1),
        dict(score_target=0),
        dict(empty_stacks_to_end=0),
        dict(empty_stacks_to_end=9),
        dict(shout_resolution="all"),
        dict(turn_cap=0),
        dict(turn_cap=60001),
        dict(board={"bushes": ["A", "B"], "edges": [["A", "B"]]}),
        dict(board={"bushes": ["A", "A"], "hiding_places": [], "edges": [["A", "A"]]}),
        dict(board={"bushes": ["A", "B"], "hiding_places": [], "edges": [["A", "A"]]}),
        dict(board={"bushes": ["A", "B"], "hiding_places": [], "edges": [["A", "B"], ["B", "A"]]}),
        dict(board={"bushes": ["A", "B", "C"], "hiding_places": [], "edges": [["A", "B"]]}),
        dict(board={"bushes": ["A", "B"], "hiding_places": ["too_long_9"], "edges": [["A", "B"]]}),
        dict(board={"bushes": ["A", "B"], "hiding_places": [], "edges": [["A", "X"]]}),
        dict(board={"bushes": ["A"], "hiding_places": ["H"], "edges": [["A", "H"]]}),
    ],
)
def test_bad_parameters_are_refused(params):
    with pytest.raises(ValueError):
        GAME(**params)


def test_small_board_needs_as_many_bushes_as_players():
    board = {"bushes": ["A", "B"], "hiding_places": ["H"], "edges": [["A", "B"], ["B", "H"]]}
    GAME(players=2, board=board, stack_size=3, hazelnuts=0, thieves_per_kind=2)
    with pytest.raises(ValueError):
        GAME(players=3, board=board, stack_size=3, hazelnuts=0, thieves_per_kind=2)


def test_action_strings():
    state = GAME().new_initial_state()
    expected = {
        0: "to B1",
        7: "to B8",
        8: "to H1",
        9: "to H2",
        10: "to node 10",
        15: "to node 15",
        16: "silent",
        17: "shout Max",
        19: "shout Fritz",
        20: "roll 1",
        25: "roll 6",
        26: "draw hazelnut",
        29: "draw Fritz",
        30: "first right: seat 0",
        37: "first wrong: seat 3",
        41: "first shout: seat 3",
    }
    for a, text in expected.items():
        assert state.action_to_string(a) == text
    for a in range(42):
        assert state.string_to_action(state.action_to_string(a)) == a
    for bad in ("to B9", "shout max", "roll 7", "to node 3", ""):
        with pytest.raises(ValueError):
            state.string_to_action(bad)
    for bad in (-1, 42, True):
        with pytest.raises(ValueError):
            state.action_to_string(bad)


# -- setup, roll, walk --------------------------------------------------------------------------


def test_setup_places_on_free_bushes_then_seat_0_rolls():
    state = GAME(players=3).new_initial_state()
    assert state.to_json()["phase"] == "place" and state.current_player() == 0
    assert state.legal_actions() == list(range(8))
    act(state, "to B3")
    assert state.current_player() == 1 and 2 not in state.legal_actions()
    act(state, "to B1")
    act(state, "to B8")
    assert state.is_chance_node() and state.to_json()["turn"] == 0
    assert state.chance_outcomes() == [(20, 2 / 6), (21, 2 / 6), (22, 2 / 6)]
    assert state.information_state_string(1).split("\n")[1:3] == ["turn 0: seat 0 rolls", "knights: B3 B1 B8"]


def test_forced_placement_and_single_face_die_are_not_in_history():
    board = {"bushes": ["A", "B"], "hiding_places": ["H"], "edges": [["A", "B"], ["B", "H"], ["H", "A"]]}
    game = GAME(board=board, stack_size=3, hazelnuts=0, thieves_per_kind=2, die=[1, 1])
    state = game.new_initial_state()
    act(state, "to B")  # seat 1 must take A, the roll is always 1
    data = state.to_json()
    assert data["knights"] == ["B", "A"] and data["phase"] == "move" and data["roll"] == 1
    assert state.history() == [1]
    assert ends(state) == ["A", "H"]


def test_no_straight_reversal_and_revisits():
    state = load(position(phase="move", roll=2, knights=["B1", "B5"]))
    assert ends(state) == ["B3", "B6", "B7", "B8", "H1"]  # never B1-B2-B1
    state = load(position(phase="move", roll=3, knights=["B1", "B5"]))
    assert "B1" in ends(state)  # B1-H1-B8-B1
    state = load(position(phase="move", roll=1, knights=["B1", "B5"]))
    assert ends(state) == ["B2", "B8", "H1"]


def test_entering_an_empty_stack_ends_the_walk():
    state = load(position(phase="move", roll=3, knights=["B1", "B5"], stacks={"B2": 0}))
    assert ends(state) == ["B1", "B2", "B3", "B6", "B7"]  # B4, B5 only through B2
    act(state, "to B2")
    data = state.to_json()
    assert data["phase"] == "roll" and data["turn"] == 1 and data["knights"] == ["B2", "B5"]


def test_a_stuck_walk_ends_where_it_is_stuck():
    board = {"bushes": ["A", "B", "C"], "hiding_places": [], "edges": [["A", "B"], ["B", "C"]]}
    game = GAME(board=board, stack_size=4, hazelnuts=0, thieves_per_kind=4)
    state = game.new_initial_state()
    act(state, "to B")
    act(state, "to A")
    act(state, "roll 3")
    assert ends(state) == ["A", "C"]


# -- hiding places ------------------------------------------------------------------------------


@pytest.mark.parametrize("carried, points", [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 10), (7, 10)])
def test_delivery_table(carried, points):
    data = position(phase="move", roll=1, knights=["B1", "B5"], carried=[carried, 0], stacks={"B3": 0}, scores=[2, 0])
    state = load(data)
    act(state, "to H1")
    after = state.to_json()
    assert after["scores"] == [2 + points, 0] and after["carried"] == [0, 0]
    assert after["phase"] == "roll" and after["turn"] == 1


def test_delivery_table_beyond_its_end_and_custom():
    data = position(phase="move", roll=1, knights=["B1", "B5"], carried=[3, 0], stacks={"B3": 0})
    state = load(data, delivery_points=[2, 5])
    act(state, "to H1")
    assert state.scores() == [5, 0]


def test_delivery_reaching_the_target_wins_at_once():
    data = position(phase="move", roll=1, knights=["B1", "B5"], carried=[4, 0], stacks={"B3": 0}, scores=[20, 24])
    state = load(data)
    act(state, "to H1")
    assert state.is_terminal() and state.scores() == [25, 24]
    assert state.returns() == [1.0, 0.0]
    assert state.to_json()["turn"] == 0  # the game ended at once; the turn was not counted (reading)


# -- shouts and the card ------------------------------------------------------------------------


def test_shout_phase_and_draw_probabilities():
    state = load(shout_position(3))
    assert state.current_player() == 1 and state.legal_actions() == [16, 17, 18, 19]
    act(state, "shout Leo")
    assert state.current_player() == 2
    assert state.information_state_string(2).endswith("shouts: - ? -")
    assert state.information_state_string(1).endswith("shouts: - Leo -")
    act(state, "silent")
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(26, 32 / 56), (27, 8 / 56), (28, 8 / 56), (29, 8 / 56)]
    assert state.information_state_string(0).split("\n")[1] == "turn 0: seat 0 draws at B1"


def test_right_shout_takes_the_drawers_hazelnuts_and_removes_the_thief():
    stacks = {"B1": (5, "Max", [1]), "B2": 6}
    state = load(shout_position(2, carried=[1, 0], stacks=stacks))
    act(state, "shout Max")  # a known top: no chance node
    data = state.to_json()
    assert data["scores"] == [0, 2] and data["carried"] == [0, 0]
    assert data["stacks"][0] == {"bush": "B1", "cards": 4, "top": None, "seen_by": []}
    assert data["phase"] == "roll" and data["turn"] == 1
    assert "revealed: hazelnuts 3, Max 1, Leo 0, Fritz 0" in state.information_state_string(0)


def test_wrong_shout_and_the_floor():
    state = load(shout_position(2, scores=[0, -2], carried=[1, 0], stacks={"B1": 6}))
    act(state, "shout Fritz")
    act(state, "draw hazelnut")
    data = state.to_json()
    assert data["scores"] == [0, -3]  # -2 - 2 stops at the floor -3
    assert data["carried"] == [2, 0]  # a hazelnut always goes to the drawer
    assert data["stacks"][0]["cards"] == 5


def test_wrong_name_at_a_thief_is_wrong_and_removes_it():
    state = load(shout_position(2, stacks={"B1": 6}))
    act(state, "shout Leo")
    act(state, "draw Max")
    data = state.to_json()
    assert data["scores"] == [0, -2] and data["stacks"][0]["top"] is None
    assert data["pool"]["Max"] == 7
    assert "revealed: hazelnuts 1, Max 1, Leo 0, Fritz 0" in state.information_state_string(0)


def test_separate_several_right_then_one_wrong():
    stacks = {"B1": (6, "Fritz", [0]), "B2": 5}
    state = load(shout_position(4, carried=[3, 0, 0, 0], stacks=stacks))
    act(state, "shout Fritz")
    act(state, "shout Leo")
    act(state, "shout Fritz")
    assert state.is_chance_node() and state.chance_outcomes() == [(31, 0.5), (33, 0.5)]
    data = state.to_json()
    assert data["phase"] == "first_right" and data["card"] == "Fritz"
    assert data["stacks"][0]["cards"] == 5 and data["stacks"][0]["top"] is None
    assert state.information_state_string(0).split("\n")[1] == "turn 0: seat 0 drew Fritz at B1"
    assert state.information_state_string(0).endswith("shouts: - Fritz Leo Fritz")
    assert load(json.loads(json.dumps(data))).to_json() == data
    act(state, "first right: seat 3")
    data = state.to_json()
    assert data["scores"] == [0, 0, -2, 2] and data["carried"] == [0, 0, 0, 0]
    assert data["phase"] == "roll" and data["stacks"][0]["cards"] == 5


def test_separate_one_right_then_several_wrong():
    stacks = {"B1": (6, "Max", [0]), "B2": 6}
    state = load(shout_position(4, carried=[2, 0, 0, 0], stacks=stacks))
    for text in ("shout Leo", "shout Max", "shout Fritz"):
        act(state, text)
    data = state.to_json()
    assert data["phase"] == "first_wrong" and data["scores"] == [0, 0, 2, 0] and data["carried"] == [0, 0, 0, 0]
    assert state.chance_outcomes() == [(34 + 1, 0.5), (34 + 3, 0.5)]
    assert load(json.loads(json.dumps(data))).to_json() == data
    act(state, "first wrong: seat 1")
    assert state.scores() == [0, -2, 2, 0]


def test_first_only_counts_one_shout():
    stacks = {"B1": (6, "Max", [0]), "B2": 6}
    data = shout_position(3, carried=[2, 0, 0], stacks=stacks)
    state = load(data, shout_resolution="first_only")
    act(state, "shout Max")
    act(state, "shout Leo")
    assert state.to_json()["phase"] == "first_shout"
    assert state.chance_outcomes() == [(39, 0.5), (40, 0.5)]
    twin = state.clone()
    act(state, "first shout: seat 2")  # the wrong one counts, the right one is ignored
    assert state.scores() == [0, 0, -2] and state.to_json()["carried"] == [2, 0, 0]
    assert state.to_json()["stacks"][0]["cards"] == 5  # shouted at: removed all the same
    act(twin, "first shout: seat 1")
    assert twin.scores() == [0, 2, 0] and twin.to_json()["carried"] == [0, 0, 0]
    # the same shouts in "separate": both count
    state = load(data)
    act(state, "shout Max")
    act(state, "shout Leo")
    assert state.scores() == [0, 2, -2]


def test_unshouted_thief_goes_back_and_the_drawer_has_seen_it():
    stacks = {"B1": (4, "Leo", [2]), "B2": 6}
    state = load(shout_position(3, stacks=stacks))
    act(state, "silent")
    act(state, "silent")
    data = state.to_json()
    assert data["stacks"][0] == {"bush": "B1", "cards": 4, "top": "Leo", "seen_by": [0, 2]}
    assert "B1 4 top Leo seen 02" in state.information_state_string(0)
    assert "B1 4 top ? seen 02" in state.information_state_string(1)
    # a new thief from the pool
    state = load(shout_position(2, stacks={"B3": 6}))
    act(state, "silent")
    act(state, "draw Fritz")
    data = state.to_json()
    assert data["stacks"][0] == {"bush": "B1", "cards": 7, "top": "Fritz", "seen_by": [0]}
    assert data["pool"]["Fritz"] == 7 and data["phase"] == "roll"


def test_single_outcome_draw_is_not_a_node():
    # 16 cards: 13 hazelnuts left in the pool, no thief: the draw resolves at once
    stacks = {b: 0 for b in BUSHES[2:]}
    stacks.update({"B1": 7, "B2": 6})
    pool = {"hazelnuts": 13, "Max": 0, "Leo": 0, "Fritz": 0}
    state = load(shout_position(2, stacks=stacks, pool=pool), empty_stacks_to_end=8)
    act(state, "shout Max")
    data = state.to_json()
    assert data["carried"] == [1, 0] and data["scores"] == [0, -2] and data["phase"] == "roll"


# -- the end ------------------------------------------------------------------------------------


def test_end_by_empty_stacks_after_the_turn():
    state = load(shout_position(2, stacks={"B1": 1, "B5": 0}))
    act(state, "silent")
    act(state, "draw hazelnut")
    assert state.is_terminal() and state.to_json()["turn"] == 1
    assert state.returns() == [0.5, 0.5] and state.scores() == [0, 0]


def test_unshouted_last_thief_does_not_empty_the_stack():
    state = load(shout_position(2, stacks={"B1": 1, "B5": 0}))
    act(state, "silent")
    act(state, "draw Max")
    assert not state.is_terminal() and state.to_json()["stacks"][0]["top"] == "Max"


def test_target_reached_by_a_shout_on_another_players_turn():
    stacks = {"B1": (6, "Leo", [1]), "B2": 6}
    state = load(shout_position(2, scores=[10, 24], stacks=stacks))
    act(state, "shout Leo")
    assert state.is_terminal() and state.scores() == [10, 25] and state.returns() == [0.0, 1.0]
    data = state.to_json()
    assert data["drawer"] is None and data["card"] is None and data["shouts"] == [None, None]


def test_target_by_a_right_shout_still_resolves_the_wrong_shouts():
    # reading: the game ends at the end of the resolution, so a first_wrong node still follows
    stacks = {"B1": (6, "Max", [0]), "B2": 6}
    state = load(shout_position(4, scores=[0, 24, 0, 0], stacks=stacks))
    for text in ("shout Max", "shout Leo", "shout Fritz"):
        act(state, text)
    data = state.to_json()
    assert data["phase"] == "first_wrong" and data["scores"] == [0, 25, 0, 0] and not state.is_terminal()
    assert load(json.loads(json.dumps(data))).to_json() == data
    act(state, "first wrong: seat 2")
    assert state.is_terminal() and state.scores() == [0, 25, -2, 0] and state.returns() == [0.0, 1.0, 0.0, 0.0]
    assert state.to_json()["turn"] == 0


def test_end_by_turn_cap():
    data = position(phase="move", turn=2, roll=1, knights=["B1", "B5"], stacks={"B3": 0})
    state = load(data, turn_cap=3)
    act(state, "to H1")
    assert state.is_terminal() and state.to_json()["turn"] == 3 and state.current_player() == -4
    assert state.legal_actions() == [] and state.chance_outcomes() == []
    with pytest.raises(ValueError):
        state.apply_action(0)


def test_highest_score_wins_ties_share():
    data = position(3, phase="terminal", turn=500, knights=["B1", "B2", "B3"], scores=[4, 7, 7])
    assert load(data).returns() == [0.0, 0.5, 0.5]


# -- JSON loading -------------------------------------------------------------------------------


def _broken(**changes):
    data = shout_position(2, stacks={"B1": (6, "Max", [1]), "B2": 6})
    data.update(changes)
    return data


@pytest.mark.parametrize(
    "data",
    [
        _broken(game="purzelbaum"),
        _broken(players=3),
        _broken(turn=-1),
        _broken(drawer=1),
        _broken(roll=2),
        _broken(card="Max"),
        _broken(current_player=0),
        _broken(scores=[25, 0]),
        _broken(scores=[-4, 0]),
        _broken(carried=[5, 0]),
        _broken(knights=["B9", "B5"]),
        _broken(shouts=["silent", None]),
        _broken(shouts=[None, "Max"]),
        _broken(pool={"hazelnuts": 32, "Max": 7, "Leo": 8, "Fritz": 8}),
        _broken(pool={"hazelnuts": 30, "Max": 8, "Leo": 8, "Fritz": 8}),
        _broken(extra=1),
        position(phase="place", current=1, knights=["H1", None]),
        position(phase="roll", stacks={"B1": 0, "B2": 0}),
        position(phase="move", roll=4, knights=["B1", "B5"]),
        position(phase="terminal", turn=3),
        position(phase="roll", turn=500),
    ],
)
def test_loader_refuses_inconsistent_states(data):
    with pytest.raises(ValueError):
        load(data)


def test_loader_refuses_another_player_count_and_non_objects():
    game = GAME(players=2)
    with pytest.raises(ValueError):
        game.state_from_json(shout_position(3))
    for bad in (None, [], "ritter"):
        with pytest.raises(ValueError):
            game.state_from_json(bad)


def test_loader_applies_a_forced_move():
    # from B1 with roll 1 on a board where B1 has one neighbour
    board = {"bushes": ["A", "B", "C"], "hiding_places": [], "edges": [["A", "B"], ["B", "C"]]}
    game = GAME(board=board, stack_size=4, hazelnuts=0, thieves_per_kind=4)
    state = game.new_initial_state()
    act(state, "to A")
    act(state, "to C")
    data = state.to_json()
    data.update(phase="move", roll=1, current_player=0)
    loaded = game.state_from_json(data)
    assert loaded.to_json()["phase"] == "shout" and loaded.to_json()["knights"] == ["B", "C"]
    assert loaded.history() == []


# -- information --------------------------------------------------------------------------------


def test_information_state_string_format():
    stacks = {"B2": (6, None, []), "B3": (5, "Max", [1, 3]), "B4": (4, "Leo", [0])}
    data = shout_position(4, drawer_at="B2", stacks=stacks, scores=[1, -3, 0, 5], carried=[2, 0, 1, 0])
    data.update(shouts=[None, "Fritz", None, None], current_player=2)
    state = load(data)
    assert state.information_state_string(1) == "\n".join(
        [
            "view of seat 1",
            "turn 0: seat 0 draws at B2; seat 2 shouts",
            "knights: B2 B5 B6 B7",
            "scores: 1 -3 0 5",
            "carried: 2 0 1 0",
            "stacks: B1 7, B2 6, B3 5 top Max seen 13, B4 4 top ? seen 0, B5 7, B6 7, B7 7, B8 7",
            "revealed: hazelnuts 6, Max 0, Leo 0, Fritz 0",
            "shouts: - Fritz - -",
        ]
    )
    assert state.observation_string(3) == state.information_state_string(3)
    assert "shouts: - ? - -" in state.information_state_string(3)
    assert "B3 5 top ? seen 13, B4 4 top Leo seen 0, B5 7" in state.information_state_string(0)


def test_observation_tensor_segments():
    stacks = {"B3": (5, "Max", [1]), "B2": 6}
    data = shout_position(2, stacks=stacks, scores=[5, -3], carried=[2, 0])
    state = load(data)
    t1, t0 = ([float(x) for x in state.observation_tensor(p)] for p in (1, 0))
    assert len(t0) == 121 and all(isinstance(x, float) for x in t0)
    assert t1[0:2] == [0.0, 1.0] and t1[2:4] == [0.0, 1.0]  # viewer, to act
    assert t1[4:13] == [0, 0, 0, 1, 0, 0, 0, 0, 0]  # phase shout
    assert t1[13:19] == [0] * 6 and t1[19:21] == [1.0, 0.0]  # no roll; drawer 0
    knights = t1[21:41]
    assert knights[0] == 1.0 and knights[10 + 4] == 1.0 and sum(knights) == 2
    assert t1[41:43] == [pytest.approx(0.2), pytest.approx(-0.12)]
    assert t1[43:45] == [0.5, 0.0]
    assert t1[45:53][1] == pytest.approx(6 / 7) and t1[45:53][2] == pytest.approx(5 / 7)
    assert t1[53:61] == [0, 0, 1, 0, 0, 0, 0, 0]
    assert t1[61:85][6:9] == [1.0, 0.0, 0.0] and sum(t1[61:85]) == 1  # viewer 1 has seen B3's Max
    assert sum(t0[61:85]) == 0  # viewer 0 has not
    assert t1[85:101][4:6] == [0.0, 1.0]
    assert t1[101:105] == [pytest.approx(3 / 32), 0, 0, 0]
    assert t1[105:117] == [1, 0, 0, 0, 0, 0] + [1, 0, 0, 0, 0, 0]
    assert t1[117:121] == [0, 0, 0, 0]
    state.apply_action(19)  # seat 1 shouts Fritz
    t0, t1 = ([float(x) for x in state.observation_tensor(p)] for p in (0, 1))
    assert t0[105 + 6 : 117] == [0, 1, 0, 0, 0, 0] and t1[105 + 6 : 117] == [0, 0, 0, 0, 0, 1]


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
                legal = state.legal_actions()
                # shouts are mostly silent so thieves stay on the stacks
                if legal == [16, 17, 18, 19] and rng.random() < 0.8:
                    state.apply_action(16)
                else:
                    state.apply_action(rng.choice(legal))
        yield state


def _swap_unseen_top(game, state, viewer):
    """The state with the kind of one known top `viewer` has not seen changed, the pool adjusted
    (through the JSON form); None when no such change is possible."""
    data = state.to_json()
    for b, stack in enumerate(data["stacks"]):
        top = stack["top"]
        if top is None or viewer in stack["seen_by"]:
            continue
        for other in THIEVES:
            if other != top and data["pool"][other] > 0:
                data["stacks"][b]["top"] = other
                data["pool"][other] -= 1
                data["pool"][top] += 1
                return game.state_from_json(data), b
    return None


def test_info_string_never_depends_on_unseen_tops():
    checked = 0
    for players in (2, 3, 4):
        for state in _positions(players, 3, 7 + players, turn_cap=60):
            for p in range(players):
                swapped = _swap_unseen_top(GAME(players=players, turn_cap=60), state, p)
                if swapped is None:
                    continue
                twin, bush = swapped
                assert twin.information_state_string(p) == state.information_state_string(p)
                assert list(twin.observation_tensor(p)) == list(state.observation_tensor(p))
                for q in state.to_json()["stacks"][bush]["seen_by"]:
                    assert twin.information_state_string(q) != state.information_state_string(q)
                    assert list(twin.observation_tensor(q)) != list(state.observation_tensor(q))
                checked += 1
    assert checked > 50


def test_resample_keeps_the_view():
    checked = 0
    for players in (2, 4):
        for i, state in enumerate(_positions(players, 2, 3, turn_cap=40)):
            if i % 5:
                continue
            for p in range(players):
                sample = state.resample_from_infostate(p, seed=i)
                assert sample.information_state_string(p) == state.information_state_string(p)
                game = GAME(players=players, turn_cap=40)
                assert game.state_from_json(sample.to_json()).to_json() == sample.to_json()
                checked += 1
    assert checked > 20


def test_others_shouts_hidden_until_resolved():
    state = load(shout_position(3, stacks={"B1": 6}))
    act(state, "shout Max")
    twin = load(shout_position(3, stacks={"B1": 6}))
    act(twin, "silent")
    assert state.information_state_string(2) == twin.information_state_string(2)
    assert state.information_state_string(0) == twin.information_state_string(0)
    assert state.information_state_string(1) != twin.information_state_string(1)
