"""Purzelbaum: the rulebook's rules and example as tests, on the C++ core and the reference."""

from __future__ import annotations

import pytest

N_ENDS, N_HOLES = 16, 20


def position(
    players,
    *,
    season="winter",
    phase="dig",
    current=0,
    turn=20,
    shover=None,
    target=None,
    end=None,
    ends=(),
    holes=None,
    leaves=None,
    nuts=None,
):
    """A canonical JSON position. `holes` maps hole -> (white, leaf, nuts); other holes are green
    and empty in winter, green and empty in autumn too unless given."""
    hole_list = [{"white": False, "leaf": False, "nuts": 0} for _ in range(N_HOLES)]
    for h, (white, leaf, count) in (holes or {}).items():
        hole_list[h] = {"white": white, "leaf": leaf, "nuts": count}
    current_player = -1 if phase == "tumble" else -4 if phase == "terminal" else current
    return {
        "game": "purzelbaum",
        "players": players,
        "season": season,
        "phase": phase,
        "current_player": current_player,
        "turn": turn,
        "shover": shover,
        "target": target,
        "end": end,
        "ends": [e in ends for e in range(N_ENDS)],
        "holes": hole_list,
        "leaves": list(leaves or [0] * players),
        "nuts": list(nuts or [0] * players),
    }


def load(impl, players, data):
    return impl.load_game("purzelbaum", players=players).state_from_json(data)


def act(state, text):
    state.apply_action(state.string_to_action(text))


def test_scoring_example_clara_nicolas_benjamin(impl):
    # Clara 5 nuts + 6 leaves = 11; Nicolas 11 with one nut fewer; Benjamin 7 nuts + 3 leaves = 10.
    data = position(3, season="over", phase="terminal", leaves=[6, 7, 3], nuts=[5, 4, 7])
    state = load(impl, 3, data)
    assert state.scores() == [11, 11, 10]
    assert state.returns() == [1.0, 0.0, 0.0]


def test_full_ties_share(impl):
    data = position(2, season="over", phase="terminal", leaves=[8, 8], nuts=[8, 8])
    assert load(impl, 2, data).returns() == [0.5, 0.5]


def autumn_position(players, shots_done, **kwargs):
    # `shots_done` ends are empty; their targets are white with the leaf on (misses) and the nuts
    # buried in hole 19.
    ends = tuple(range(shots_done, N_ENDS))
    holes = {h: (True, True, 0) for h in range(shots_done)}
    holes[19] = (holes.get(19, (False, False, 0))[0], holes.get(19, (False, False, 0))[1], shots_done)
    return position(players, season="autumn", phase="shove", ends=ends, holes=holes, turn=shots_done, **kwargs)


def test_autumn_hit_takes_the_leaf_and_buries_in_the_target(impl):
    state = load(impl, 2, autumn_position(2, 2, current=0))
    assert "target 5 end 3" in [state.action_to_string(a) for a in state.legal_actions()]
    assert "target 0 end 3" not in [state.action_to_string(a) for a in state.legal_actions()]  # white
    act(state, "target 5 end 3")
    assert state.is_chance_node()
    outcomes = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
    assert sum(outcomes.values()) == pytest.approx(1.0)
    act(state, "hit")
    j = state.to_json()
    assert j["leaves"] == [1, 0] and j["holes"][5] == {"white": True, "leaf": False, "nuts": 1}
    assert j["ends"][3] is False and j["current_player"] == 1 and j["turn"] == 3


def test_autumn_miss_leaves_the_leaf_on_the_target_and_buries_elsewhere(impl):
    state = load(impl, 2, autumn_position(2, 2, current=1))
    act(state, "target 5 end 3")
    act(state, "lands at hole 7")
    j = state.to_json()
    assert j["leaves"] == [0, 0]
    assert j["holes"][5] == {"white": True, "leaf": True, "nuts": 0}
    assert j["holes"][7] == {"white": False, "leaf": False, "nuts": 1}  # burying never flips a disk
    assert j["current_player"] == 0


def test_off_the_box_the_left_neighbour_buries(impl):
    state = load(impl, 3, autumn_position(3, 2, current=2))
    act(state, "target 5 end 3")
    act(state, "off the box")
    j = state.to_json()
    assert (j["phase"], j["current_player"], j["shover"]) == ("bury", 0, 2)
    assert len(state.legal_actions()) == N_HOLES
    act(state, "bury 0")  # a white disk with a leaf: it stays so
    j = state.to_json()
    assert j["holes"][0] == {"white": True, "leaf": True, "nuts": 1}
    assert (j["phase"], j["current_player"]) == ("shove", 0)


def test_winter_arrives_after_the_last_nut_fewest_leaves_start_latest_seat_on_ties(impl):
    # One nut left on the tree, 8 leaves on disks, 7 collected: 3, 2, 2. Seats 1 and 2 tie for the
    # fewest leaves; seat 2 sits later in the order of play, so seat 2 starts the winter.
    holes = {h: (True, h % 2 == 0, 1) for h in range(15)}
    data = position(3, season="autumn", phase="shove", ends=(15,), holes=holes, leaves=[3, 2, 2], turn=15)
    state = load(impl, 3, data)
    act(state, "target 16 end 15")
    act(state, "lands at hole 17")
    j = state.to_json()
    assert (j["season"], j["phase"], j["current_player"]) == ("winter", "dig", 2)
    assert all(h["white"] for h in j["holes"])  # snow everywhere


def test_winter_digging(impl):
    holes = {0: (True, True, 2), 1: (True, False, 0), 2: (True, True, 0)}
    data = position(2, current=0, holes=holes, leaves=[5, 9], nuts=[4, 10])
    state = load(impl, 2, data)
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["dig 0", "dig 1", "dig 2"]
    act(state, "dig 0")  # a leaf and two nuts: the disk stays white
    j = state.to_json()
    assert j["leaves"] == [6, 9] and j["nuts"] == [6, 10] and j["holes"][0] == {"white": True, "leaf": False, "nuts": 0}
    act(state, "dig 2")  # seat 1: a leaf, no nut: the disk turns green
    j = state.to_json()
    assert j["leaves"] == [6, 10] and j["holes"][2]["white"] is False
    # Two white disks with nothing left: seat 0 digs one, then seat 1's only choice is forced.
    act(state, "dig 1")
    assert state.is_terminal() and state.scores() == [12, 20]
