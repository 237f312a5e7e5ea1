"""The observation tensors of the games of perfect information (docs/rules/auf_die_nuesse.md and
docs/rules/purzelbaum.md, "Observation tensor"): the C++ decodes the packed state; here every
segment is built again from the canonical JSON (to_json), by the docs' layout, over random positions
of every player count, for every seat."""

from __future__ import annotations

import random

import numpy as np
import pytest

import nutcore
from playing import random_step

CARDS = ["walnut", "hazelnut", "beechnut", "acorn", "walnut/hazelnut", "walnut/beechnut", "walnut/acorn",
         "hazelnut/beechnut", "hazelnut/acorn", "beechnut/acorn"]  # fmt: skip
SPACES = ["A", "B", "R", "D", "E", "L", "R3", "Rt", "4"]
STAGES = ["setup", "turn", "check", "final", "over"]
ADN_PHASES = ["deal_face_up", "deal_start_nut", "place", "pre_place", "roll", "choose_space", "roll_or_stop",
              "take", "refill", "steal", "kept_jokers", "final_jokers", "terminal"]  # fmt: skip
SEASONS = ["autumn", "winter", "over"]
PURZEL_PHASES = ["shove", "tumble", "bury", "dig", "terminal"]


def one_hot(index, size):
    v = [0.0] * size
    if index is not None and 0 <= index < size:
        v[index] = 1.0
    return v


def adn_tensor(d, viewer):
    n = d["players"]
    out = one_hot(viewer, n) + one_hot(d["current_player"], n)
    out += one_hot(STAGES.index(d["stage"]), 5) + one_hot(ADN_PHASES.index(d["phase"]), 13)
    out += [d["turn"]] + one_hot(d["active"], n) + one_hot(d["seat"], n)
    out += one_hot(None if d["check_space"] is None else SPACES.index(d["check_space"]), 9)
    out += one_hot(None if d["pending"] is None else CARDS.index(d["pending"]), 10)
    out += [float(d["steal_next"])] + one_hot(d["refill_slot"], 4)
    roll = d["roll_choice"] or [None, None]
    out += one_hot(None if roll[0] is None else roll[0] - 2, 11) + one_hot(None if roll[1] is None else roll[1] - 2, 11)
    out += [d["pre_place_left"]] + [float(sp in d["start_track"]) for sp in range(2, 13)]
    out += [c for sp in SPACES for c in d["board"][sp]] + list(d["supply"])
    for row in d["stores"]:
        for store in row:
            kind = None if store["kind"] is None else CARDS.index(store["kind"])
            out += one_hot(kind, 4) + [store["nuts"], store["jokers"]]
    out += [kept[j] for kept in d["kept_jokers"] for j in CARDS[4:]]
    out += [d["unseen"][c] for c in CARDS]
    for card in d["face_up"]:
        out += one_hot(10 if card is None else CARDS.index(card), 11)
    out += [d["draw_pile"], d["reserve"]] + one_hot(d["david"], n) + [float(d["end_triggered"])]
    return out


def purzelbaum_tensor(d, viewer):
    n, holes, ends = d["players"], d["holes"], d["ends"]
    out = one_hot(viewer, n) + one_hot(d["current_player"], n)
    out += one_hot(SEASONS.index(d["season"]), 3) + one_hot(PURZEL_PHASES.index(d["phase"]), 5) + [d["turn"]]
    out += one_hot(d["shover"], n) + one_hot(d["target"], len(holes)) + one_hot(d["end"], len(ends))
    out += [float(e) for e in ends]
    for hole in holes:
        out += [float(hole["white"]), float(hole["leaf"]), hole["nuts"]]
    return out + list(d["leaves"]) + list(d["nuts"])


@pytest.mark.parametrize("name, expected", [("auf_die_nuesse", adn_tensor), ("purzelbaum", purzelbaum_tensor)])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_tensor_is_the_positions_json_decoded(name, expected, players):
    game = nutcore.load_game(name, players=players)
    rng = random.Random(players)
    checked = 0
    for _ in range(6):
        state = game.new_initial_state()
        while not state.is_terminal():
            data = state.to_json()
            for viewer in range(players):
                tensor = state.observation_tensor(viewer)
                assert len(tensor) == game.observation_tensor_shape()[0]
                assert tensor.tolist() == pytest.approx(expected(data, viewer)), (data["phase"], viewer)
                checked += 1
            if rng.random() < 0.2:  # every few steps: the whole game is long
                random_step(state, rng)
            for _ in range(rng.randrange(1, 6)):
                if state.is_terminal():
                    break
                random_step(state, rng)
        data = state.to_json()
        assert state.observation_tensor(0).tolist() == pytest.approx(expected(data, 0))
    assert checked > 100


@pytest.mark.parametrize("name", ["auf_die_nuesse", "purzelbaum"])
def test_the_tensor_tells_the_viewer_and_nothing_hidden(name):
    state = nutcore.load_game(name, players=3).new_initial_state()
    tensors = [np.array(state.observation_tensor(p)) for p in range(3)]
    assert all((a != b).sum() == 2 for a, b in [(tensors[0], tensors[1]), (tensors[1], tensors[2])])  # the viewer
