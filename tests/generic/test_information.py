"""Information sets: the API on every game, and on Ritter (hidden thief cards) that what a seat
knows never depends on a card it has not seen, that resampling keeps the seat's knowledge and
follows the exact posterior, and that search and bots read nothing hidden."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

import nutcore
from playing import chi2_sf, positions


@pytest.mark.parametrize("name", nutcore.list_games())
@pytest.mark.parametrize("players", [2, 3, 4])
def test_information_api_on_every_game(name, players):
    game = nutcore.load_game(name, players=players)
    shape = game.observation_tensor_shape()
    assert isinstance(shape, list) and len(shape) == 1 and shape[0] > 0
    for state in positions(game, seed=players, count=40):
        for p in range(players):
            text = state.information_state_string(p)
            assert isinstance(text, str) and text
            assert state.observation_string(p) == text
            tensor = state.observation_tensor(p)
            assert tensor.dtype == np.float32 and list(tensor.shape) == shape
            assert np.all(np.isfinite(tensor))
            sample = state.resample_from_infostate(p, seed=p)
            assert sample.information_state_string(p) == text
            assert sample.information_key(p) == state.information_key(p)
            assert np.array_equal(sample.observation_tensor(p), tensor)
            view = state.observation_json(p)
            assert sample.observation_json(p) == view
            assert game.hidden_information or view == state.to_json()
            if p == state.current_player():  # a seat's choices are part of what it knows (ISMCTS relies on it)
                for seed in range(8):
                    assert state.resample_from_infostate(p, seed=seed).legal_actions() == state.legal_actions()
            if not game.hidden_information:
                assert sample == state  # perfect information: the state is all there is
        for bad in (-1, players, 1.5, "0", True, None):
            with pytest.raises(ValueError):
                state.information_state_string(bad)
            with pytest.raises(ValueError):
                state.resample_from_infostate(bad, 0)
    assert game.new_initial_state().hidden_information == game.hidden_information
    assert game.hidden_information == (name in ("ritter", "nutz"))


def test_chi2_helper():
    assert chi2_sf(3.841, 1) == pytest.approx(0.05, abs=1e-3)
    assert chi2_sf(18.307, 10) == pytest.approx(0.05, abs=1e-3)


HIDDEN = [g for g in nutcore.list_games() if nutcore.load_game(g).hidden_information]


def _moves(state):
    return [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()


def _after(state, action):
    state = state.clone()
    state.apply_action(action)
    return state


def _public_part(state, action, text):
    """The text without what the event makes public of the truth: Ritter's shouts, told once the
    card is resolved (checked here against the truth's own shouts; the information state forgets
    them when the turn ends, so a twin may hold others)."""
    head, sep, shouts = text.partition("; shouts: ")
    if sep:
        truth = list(state.to_json()["shouts"])
        if state.to_json()["phase"] == "shout":
            truth[state.current_player()] = state.action_to_string(action).removeprefix("shout ")
        for entry in shouts.split(", "):
            seat, said = re.fullmatch(r"seat (\d) (\w+)(?: \((?:right|wrong)\))?", entry).groups()
            assert truth[int(seat)] == said, (text, truth)
    return head


def _observe_twins(name, players, observe):
    """The twin check on `observe` (observe_action's signature): (pairs compared, pairs seen in
    part, the failures)."""
    game = nutcore.load_game(name, players=players)
    rng = random.Random(players)
    pairs = partial = 0
    failures = []
    for state in positions(game, seed=20 + players, count=120, every=3):
        if state.is_terminal():
            continue
        for p in range(players):
            seen = {a: observe(state, a, p) for a in _moves(state)}
            afters = {a: _after(state, a) for a in seen}
            views = {a: after.information_state_string(p) for a, after in afters.items()}
            # A move seen whole is told from the others that leave p the same view only where
            # they leave the same position (the order of two public plays).
            for a, (_, seen_whole) in seen.items():
                for a2 in seen:
                    if seen_whole and a2 != a and views[a2] == views[a]:
                        pairs += 1
                        if afters[a2].to_json() != afters[a].to_json():
                            failures.append((state, p, a, a2))
            for _ in range(2):
                twin = state.resample_from_infostate(p, rng.getrandbits(62))
                if twin.information_state_string(p) != state.information_state_string(p) or twin.is_terminal():
                    continue
                twin_moves = _moves(twin)
                twin_views = {b: _after(twin, b).information_state_string(p) for b in twin_moves}
                for b in twin_moves:
                    text, whole = observe(twin, b, p)
                    for a, (seen_text, seen_whole) in seen.items():
                        if views[a] != twin_views[b]:
                            continue
                        pairs += 1
                        partial += not seen_whole
                        if not seen_whole or a == b:
                            same = _public_part(twin, b, text) == _public_part(state, a, seen_text)
                            ok = same and (seen_whole or not whole)
                        else:
                            ok = twin_views.get(a) == views[a]
                        if not ok:
                            failures.append((state, p, a, b))
    return pairs, partial, failures


@pytest.mark.parametrize("name", HIDDEN)
@pytest.mark.parametrize("players", [2, 3])
def test_what_a_seat_sees_of_a_move_depends_only_on_what_it_knows(name, players):
    """The twin check on observe_action. Seat p cannot tell state s from a world w drawn from its
    view; a move a at s and b at w that leave it knowing the same must be seen alike: where p sees
    a only in part, b is seen in part by the same text; where it sees a whole (its id told), a is
    also possible at w with the same view after, so the id tells nothing of where p stands, and no
    other move at s leaves p that view but from the same position; and the same id is seen by the
    same text. Else a text or an id would tell a card or a choice p has not seen."""
    pairs, partial, failures = _observe_twins(name, players, lambda s, a, p: s.observe_action(a, p))
    assert pairs > 1000 and partial > 100, (pairs, partial)
    assert not failures, failures[0]


@pytest.mark.parametrize("name", HIDDEN)
def test_the_observe_twin_check_can_fail(name):
    """Telling every move whole, as the engine's own moves (the hidden cards dealt and played face
    down, the shouts), is caught by the same check."""
    _, _, failures = _observe_twins(name, 2, lambda s, a, p: (s.action_to_string(a), True))
    assert failures


@pytest.mark.parametrize("name", HIDDEN)
def test_a_seat_sees_its_own_moves_whole(name):
    """Its own decisions are seen whole, by their action string (and what they reveal after it)."""
    game = nutcore.load_game(name, players=3)
    for state in positions(game, seed=5, count=150, every=2):
        if state.is_terminal() or state.is_chance_node():
            continue
        p = state.current_player()
        for a in state.legal_actions():
            text, whole = state.observe_action(a, p)
            assert whole and text.startswith(state.action_to_string(a)), (state, a)


@pytest.mark.parametrize("name", [g for g in nutcore.list_games() if g not in HIDDEN])
def test_perfect_information_moves_are_seen_whole(name):
    game = nutcore.load_game(name, players=2)
    for state in positions(game, seed=3, count=40, every=5):
        if state.is_terminal():
            with pytest.raises(ValueError):
                state.observe_action(0, 0)
            continue
        for a in _moves(state):
            assert state.observe_action(a, 1) == (state.action_to_string(a), True)
