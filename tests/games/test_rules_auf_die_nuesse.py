"""Auf die Nüsse!: the rulebook's own worked examples (the English edition) and the
project's rulings (docs/rules/auf_die_nuesse.md), as tests.
Each test runs against the C++ core and the Python reference (the `impl` fixture)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from auf_die_nuesse_positions import act, chance_strings, full_store, legal_strings, position, store


def load(impl, players, data):
    return impl.load_game("auf_die_nuesse", players=players).state_from_json(data)


def dice_distribution(occupied):
    """Independent count of the roll outcomes over the 216 ordered (green, white, white) rolls."""
    counts = {}
    for g, w1, w2 in itertools.product(range(1, 7), repeat=3):
        free = sorted({g + w1, g + w2} - set(occupied))
        key = "roll fail" if not free else "roll " + " or ".join(map(str, free))
        counts[key] = counts.get(key, 0) + 1
    return {k: Fraction(v, 216) for k, v in counts.items()}


def test_roll_outcomes_are_aggregated_with_exact_probabilities(impl):
    # Anna rolls green 2, whites 1 and 6: she may use space 3 or space 8.
    state = load(impl, 2, position(2, phase="roll", start_track=[5, 9, 10]))
    outcomes = chance_strings(state)
    assert "roll 3 or 8" in outcomes
    expected = dice_distribution([5, 9, 10])
    assert outcomes.keys() == expected.keys()
    for name, p in expected.items():
        assert outcomes[name] == float(p)
    assert sum(outcomes.values()) == pytest.approx(1.0, abs=1e-12)
    act(state, "roll 3 or 8")
    assert legal_strings(state) == ["space 3", "space 8"]
    act(state, "space 8")
    assert state.to_json()["start_track"] == [5, 8, 9, 10]
    assert legal_strings(state) == ["roll", "stop"]


def test_failed_roll_marlene(impl):
    # Marlene rolls green 4, whites 5 and 6: spaces 9 and 10, both already hers. The roll fails:
    # her start-track squirrels go back to her supply and the next player's turn begins.
    data = position(3, phase="roll", active=0, start_track=[3, 6, 9, 10], board={"A": [1, 0, 0]})
    state = load(impl, 3, data)
    assert state.to_json()["supply"][0] == 15 - 1 - 4
    fail_probability = chance_strings(state)["roll fail"]
    assert fail_probability == float(dice_distribution([3, 6, 9, 10])["roll fail"])
    # (4, 5, 6) is one of the rolls that fail; the chance node aggregates all of them.
    act(state, "roll fail")
    after = state.to_json()
    assert after["start_track"] == []
    assert after["supply"][0] == 15 - 1
    assert after["board"]["A"] == [1, 0, 0]  # the board is untouched
    assert after["active"] == 1 and after["phase"] == "roll" and after["turn"] == 6


def test_a_single_free_space_is_placed_without_a_decision(impl):
    state = load(impl, 2, position(2, phase="roll", start_track=[8]))
    act(state, "roll 2")
    assert state.to_json()["start_track"] == [2, 8]
    assert state.to_json()["phase"] == "roll_or_stop"


def test_stop_pushes_each_start_space_into_the_two_area_above(impl):
    state = load(impl, 2, position(2, phase="roll_or_stop", start_track=[2, 5, 7, 9, 12]))
    act(state, "stop")
    board = state.to_json()["board"]
    assert [board[s][0] for s in "ABRDE"] == [1, 1, 1, 1, 1]
    assert state.to_json()["active"] == 1


def test_chain_marlene_christine_anna(impl):
    # The rulebook's example. Seats: Marlene (red) 0, Christine (blue) 1, Anna (white) 2, black 3.
    # Marlene ends her turn with three squirrels in the 2-4 space; Christine's blue squirrel there
    # is pushed into L, where Christine then has three; she pushes black, white and red into the
    # 4-area, where Anna then has four.
    data = position(
        4,
        phase="roll_or_stop",
        active=0,
        start_track=[2, 4],
        board={"A": [1, 1, 0, 0], "L": [1, 2, 1, 1], "4": [0, 0, 3, 0]},
        face_up=["acorn", "walnut", "beechnut", "hazelnut"],
    )
    state = load(impl, 4, data)
    act(state, "stop")
    j = state.to_json()
    # Marlene took two of her three squirrels back and the acorn under 2-4; her third stays.
    assert j["board"]["A"] == [1, 0, 0, 0]
    assert j["board"]["L"] == [1, 3, 1, 1]
    assert j["supply"][0] == 15 - 2  # 1 in A, 1 in L
    assert (j["phase"], j["seat"], j["pending"], j["refill_slot"]) == ("refill", 0, "acorn", 0)
    act(state, "draw walnut")  # a new nut is laid from the draw pile
    assert state.to_json()["phase"] == "place" and state.current_player() == 0
    act(state, "store 0")
    j = state.to_json()
    # Christine has three in L: she takes them back and pushes everybody else's into the 4-area.
    assert (j["phase"], j["seat"], j["check_space"]) == ("take", 1, "L")
    assert j["board"]["L"] == [0, 0, 0, 0]
    assert j["board"]["4"] == [1, 0, 4, 1]
    assert legal_strings(state) == ["take slot 0", "take slot 1"]  # the nuts under 2-4 and 5-6
    act(state, "take slot 1")  # the walnut
    act(state, "draw acorn")
    assert state.to_json()["pending"] == "walnut" and state.current_player() == 1
    act(state, "store 0")
    j = state.to_json()
    # Anna has four in the 4-area: she chooses any of the four face-up nuts.
    assert (j["phase"], j["seat"], j["check_space"]) == ("take", 2, "4")
    assert j["board"]["4"] == [1, 0, 0, 1]  # the others are not pushed any further
    assert legal_strings(state) == ["take slot 0", "take slot 1", "take slot 2", "take slot 3"]


def test_four_squirrels_in_the_two_to_four_space_take_two_nuts(impl):
    data = position(
        2,
        phase="roll_or_stop",
        start_track=[2, 3, 4],
        board={"A": [1, 0]},
        face_up=["hazelnut", "walnut", "walnut", "walnut"],
    )
    state = load(impl, 2, data)
    act(state, "stop")
    assert state.to_json()["pending"] == "hazelnut"
    act(state, "draw acorn")  # the newly laid nut ...
    act(state, "store 0")
    j = state.to_json()
    # ... goes at once to the same player for the other two squirrels.
    assert (j["phase"], j["pending"], j["seat"], j["refill_slot"]) == ("refill", "acorn", 0, 0)
    assert j["board"]["A"] == [0, 0]
    act(state, "draw beechnut")
    act(state, "store 2")
    j = state.to_json()
    assert j["stores"][0][0] == store("hazelnut", 1) and j["stores"][0][2] == store("acorn", 1)
    assert j["face_up"][0] == "beechnut"


def test_several_players_collect_in_one_space_active_first_then_clockwise(impl):
    # Seat 2 is active and collects in A and in B, pushing seat 0's squirrel from A and those of
    # seats 1 and 3 from B into L. There seats 0 and 3 now both have three; seat 3 sits closest
    # clockwise to seat 2, so seat 3 collects first.
    data = position(
        4,
        phase="roll_or_stop",
        active=2,
        start_track=[2, 3, 5, 6],
        board={"A": [1, 0, 0, 0], "B": [0, 1, 0, 1], "L": [2, 0, 0, 2]},
    )
    state = load(impl, 4, data)
    act(state, "stop")
    for _ in range(2):  # seat 2's nuts from A and from B
        act(state, "draw walnut")
        act(state, "store 0" if state.to_json()["pending"] != "walnut" else "store 2")
    j = state.to_json()
    assert (j["phase"], j["seat"], j["check_space"]) == ("take", 3, "L")
    # Seat 1's squirrel, pushed from B into L, is pushed on into the 4-area by seat 3's collection;
    # seat 0 has three as well, so it is not pushed.
    assert j["board"]["L"] == [3, 0, 0, 0] and j["board"]["4"] == [0, 1, 0, 0]
    act(state, "take slot 0")
    act(state, "draw walnut")
    act(state, "store 0")
    j = state.to_json()
    assert (j["phase"], j["seat"]) == ("take", 0)
    assert j["board"]["L"] == [0, 0, 0, 0] and j["board"]["4"] == [0, 1, 0, 0]


def test_raccoon_steal_and_david(impl):
    stores = {
        1: {0: store("hazelnut", 1), 2: full_store(2), 4: store("walnut", 2, jokers=2)},
        2: {0: store("acorn", 1), 1: store("acorn", 1)},
    }
    data = position(3, phase="roll_or_stop", active=0, start_track=[7], board={"R": [1, 0, 0]}, stores=stores, david=2)
    state = load(impl, 3, data)
    act(state, "stop")
    j = state.to_json()
    # Two squirrels in the raccoon space: choose any of the four face-up nuts ...
    assert (j["phase"], j["check_space"], j["steal_next"]) == ("take", "R", True)
    assert legal_strings(state) == [f"take slot {i}" for i in range(4)]
    act(state, "take slot 3")
    act(state, "draw walnut")
    act(state, "store 7")
    # ... and steal: not from seat 2 (David stands there), not from a full store, never jokers.
    assert legal_strings(state) == ["steal seat 1 store 0", "no steal"]
    act(state, "steal seat 1 store 0")
    j = state.to_json()
    assert j["david"] == 1
    assert j["stores"][1][0] == store(None, 0)
    assert (j["phase"], j["pending"], j["seat"]) == ("place", "hazelnut", 0)
    act(state, "store 0")
    assert state.to_json()["stores"][0][0] == store("hazelnut", 1)


def test_raccoon_steal_is_optional_and_identical_stores_are_offered_once(impl):
    stores = {1: {0: store("acorn", 1), 1: store("acorn", 1), 3: store("walnut", 1)}}
    data = position(2, phase="roll_or_stop", active=0, start_track=[7], board={"R": [1, 0]}, stores=stores)
    state = load(impl, 2, data)
    act(state, "stop")
    act(state, "take slot 0")
    act(state, "draw walnut")
    act(state, "store 0")
    assert legal_strings(state) == ["steal seat 1 store 0", "steal seat 1 store 3", "no steal"]
    act(state, "no steal")
    j = state.to_json()
    assert j["david"] is None and j["stores"][1][0] == store("acorn", 1)


def test_nut_placement_rules(impl):
    stores = {0: {0: store("walnut", 1), 2: store("hazelnut", 2), 3: full_store(3)}}
    data = position(2, stage="check", phase="place", seat=0, check_space="A", pending="walnut", stores=stores)
    state = load(impl, 2, data)
    # Walnut fits the walnut store and any empty store (one of each identical empty pair).
    assert legal_strings(state) == ["store 0", "store 1", "store 4", "store 6", "store 7"]
    act(state, "store 0")
    assert state.to_json()["stores"][0][0] == full_store(0)  # full: turned over
    assert state.scores()[0] == 5 + 10 + 2


def test_a_nut_that_fits_nowhere_is_discarded(impl):
    stores = {0: {i: full_store(i) for i in range(7)}}
    stores[0][7] = store("acorn", 3)
    data = position(2, stage="check", phase="place", seat=0, check_space="A", pending="walnut", stores=stores)
    state = load(impl, 2, data)
    j = state.to_json()
    assert j["pending"] is None and j["stores"][0][7] == store("acorn", 3)
    assert j["active"] == 1 and j["phase"] == "roll"


def test_jokers_may_be_kept_and_placed_at_the_end_of_the_own_turn(impl):
    data = position(
        2,
        stage="check",
        phase="place",
        seat=0,
        check_space="A",
        pending="walnut/acorn",
        stores={0: {0: store("walnut", 1)}},
    )
    state = load(impl, 2, data)
    strings = legal_strings(state)
    assert "keep joker" in strings and "joker walnut/acorn as walnut store 0" in strings
    assert "joker walnut/acorn as acorn store 0" not in strings
    act(state, "keep joker")
    j = state.to_json()
    assert j["kept_jokers"][0]["walnut/acorn"] == 1
    # After the collection check, the active player may place kept jokers, or be done.
    assert j["phase"] == "kept_jokers" and state.current_player() == 0
    assert legal_strings(state)[-1] == "done"
    act(state, "joker walnut/acorn as walnut store 0")
    j = state.to_json()
    assert j["stores"][0][0] == full_store(0)
    assert j["active"] == 1


def test_stolen_nuts_never_include_joker_nuts(impl):
    stores = {1: {7: store("walnut", 3, jokers=2)}}
    data = position(2, phase="roll_or_stop", active=0, start_track=[7], board={"R": [1, 0]}, stores=stores)
    state = load(impl, 2, data)
    act(state, "stop")
    act(state, "take slot 0")
    act(state, "draw walnut")
    act(state, "store 0")
    act(state, "steal seat 1 store 7")
    assert state.to_json()["stores"][1][7] == store("walnut", 2, jokers=2)
    act(state, "store 1")
    # Only joker nuts are left there: no further steal could take from it.
    assert state.to_json()["stores"][0][1] == store("walnut", 1)


def test_pre_placement_before_the_first_turn(impl):
    game = impl.load_game("auf_die_nuesse", players=4)
    state = game.new_initial_state()
    for card in ["walnut", "hazelnut", "beechnut", "acorn"]:
        act(state, f"draw {card}")
    for seat in range(4):
        act(state, "draw acorn")
        assert state.current_player() == seat
        act(state, "store 0")
    # Seat 1 may put one squirrel, seat 2 two, seat 3 three: 2-area only, never R, one per space.
    for seat, count in [(1, 1), (2, 2), (3, 3)]:
        assert state.current_player() == seat
        assert legal_strings(state) == ["stop", "put A", "put B", "put D", "put E"]
        for k in range(count):
            act(state, ["put A", "put D", "put E"][k])
    j = state.to_json()
    assert j["board"]["A"] == [0, 1, 1, 1] and j["board"]["D"] == [0, 0, 1, 1] and j["board"]["R"] == [0, 0, 0, 0]
    assert (j["stage"], j["phase"], j["active"]) == ("turn", "roll", 0)
    assert j["draw_pile"] == 60 - 4 - 4 - 8


def test_pre_placement_may_stop_early(impl):
    game = impl.load_game("auf_die_nuesse", players=3)
    state = game.new_initial_state()
    for card in ["walnut", "hazelnut", "beechnut", "acorn", "acorn", "acorn", "acorn"]:
        act(state, f"draw {card}")
        if state.current_player() >= 0:
            act(state, "store 0")
    act(state, "put B")  # seat 1's one squirrel
    act(state, "put E")  # seat 2's first of two
    assert state.current_player() == 2
    assert legal_strings(state) == ["stop", "put A", "put B", "put D"]
    act(state, "stop")
    j = state.to_json()
    assert j["board"]["B"] == [0, 1, 0] and j["board"]["E"] == [0, 0, 1] and j["phase"] == "roll"


def test_setup_removes_nuts_for_fewer_players(impl):
    for players, size in [(2, 52), (3, 56), (4, 60)]:
        j = impl.load_game("auf_die_nuesse", players=players).new_initial_state().to_json()
        assert sum(j["unseen"].values()) == size
        assert j["unseen"]["walnut/hazelnut"] == 2
        assert j["draw_pile"] == size - 4 - players - 8 and j["reserve"] == 8


def test_final_scoring_uwe_33(impl):
    # Uwe: three full stores (5 + 10 + 15) and two partly filled ones (2 + 1) = 33.
    stores = {
        0: {0: full_store(0), 2: full_store(2), 4: full_store(4), 6: store("walnut", 2), 7: store("acorn", 1)},
        1: {7: store("beechnut", 5)},
    }
    data = position(
        2,
        stage="over",
        phase="terminal",
        stores=stores,
        end_triggered=True,
        draw_pile=0,
        face_up=[None, None, None, None],
    )
    state = load(impl, 2, data)
    assert state.scores() == [33, 5]
    assert state.returns() == [1.0, 0.0]


def test_tie_break_most_valuable_full_store(impl):
    # Both have 30 points; seat 1's most valuable full store (30) beats seat 0's (15 + 15).
    stores = {0: {4: full_store(4), 5: full_store(5)}, 1: {7: full_store(7)}}
    data = position(2, stage="over", phase="terminal", stores=stores, end_triggered=True, draw_pile=0)
    state = load(impl, 2, data)
    assert state.scores() == [30, 30]
    assert state.returns() == [0.0, 1.0]


def test_complete_ties_share_the_win(impl):
    stores = {0: {7: full_store(7)}, 1: {7: full_store(7)}, 2: {0: store("walnut", 1)}}
    data = position(3, stage="over", phase="terminal", stores=stores, end_triggered=True, draw_pile=0)
    state = load(impl, 3, data)
    assert state.returns() == [0.5, 0.5, 0.0]


def test_end_of_game_reserve_push_and_final_distribution(impl):
    # The draw pile is empty when seat 1 collects in A: the 8 set-aside nuts become the pile and
    # the end is triggered. The check is finished, every squirrel goes into the 4-area, and each
    # player takes one face-up nut per four of theirs, clockwise from the active player.
    data = position(
        3,
        phase="roll_or_stop",
        active=1,
        start_track=[2, 3],
        draw_pile=0,
        board={"B": [1, 0, 1], "L": [2, 1, 1], "R3": [2, 0, 0], "4": [0, 2, 3]},
        kept_jokers={2: {"walnut/hazelnut": 1}},
        unseen={"walnut": 2, "hazelnut": 2, "beechnut": 2, "acorn": 2},
    )
    state = load(impl, 3, data)
    act(state, "stop")
    j = state.to_json()
    assert j["end_triggered"] and j["reserve"] == 0 and j["draw_pile"] == 8 and j["phase"] == "refill"
    draw_a_kind(state)
    assert state.to_json()["draw_pile"] == 7
    act(state, "store 0")
    j = state.to_json()
    assert (j["stage"], j["phase"]) == ("final", "take")
    assert j["board"]["A"] == [0, 0, 0] and j["board"]["L"] == [0, 0, 0]
    # seat 0: B 1 + L 2 + R3 2 = 5; seat 1: L 1 + 4-area 2 = 3; seat 2: B 1 + L 1 + 4-area 3 = 5.
    # Seat 1 (fewer than 4) takes nothing; seat 2 is next clockwise and takes first.
    assert j["seat"] == 2 and j["board"]["4"] == [5, 3, 1]
    act(state, "take slot 2")  # the beechnut
    draw_a_kind(state)
    act(state, "store 0")
    j = state.to_json()
    assert (j["phase"], j["seat"], j["board"]["4"]) == ("take", 0, [1, 3, 1])
    act(state, "take slot 3")  # the acorn
    draw_a_kind(state)
    act(state, "store 2")
    # Then kept jokers are placed (compulsory where they fit), and the game is over.
    assert (state.to_json()["phase"], state.current_player()) == ("final_jokers", 2)
    assert "done" not in legal_strings(state)
    act(state, "joker walnut/hazelnut as hazelnut store 1")
    assert state.is_terminal()
    j = state.to_json()
    assert j["kept_jokers"][2]["walnut/hazelnut"] == 0 and j["stores"][2][1] == store("hazelnut", 1, jokers=1)


def draw_a_kind(state):
    """Apply the first chance outcome that draws a plain nut (the reserve's content is random)."""
    for a, _ in state.chance_outcomes():
        if "/" not in state.action_to_string(a):
            state.apply_action(a)
            return
    raise AssertionError("no plain nut left to draw")


def test_turn_cap_ends_the_game_as_it_stands(impl):
    game = impl.load_game("auf_die_nuesse", players=2, turn_cap=6)
    data = position(
        2,
        phase="roll_or_stop",
        turn=5,
        start_track=[12],
        kept_jokers={0: {"beechnut/acorn": 1}},
        stores={0: {0: full_store(0)}},
    )
    state = game.state_from_json(data)
    act(state, "stop")
    assert state.to_json()["phase"] == "kept_jokers"
    act(state, "done")
    assert state.is_terminal()
    assert state.to_json()["kept_jokers"][0]["beechnut/acorn"] == 1
    assert state.scores() == [5, 0] and state.returns() == [1.0, 0.0]


def test_an_empty_supply_cannot_roll(impl):
    game = impl.load_game("auf_die_nuesse", players=2, squirrels=3)
    data = position(2, phase="roll_or_stop", start_track=[6], board={"A": [1, 0], "D": [1, 0]})
    data["supply"] = [0, 3]
    state = game.state_from_json(data)
    # With no squirrel left, "stop" is the only action: it is applied at once (a forced move).
    j = state.to_json()
    assert j["active"] == 1 and j["board"]["B"] == [1, 0]
