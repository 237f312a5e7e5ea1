"""Building Auf die Nüsse! positions for tests, in the canonical JSON form of
docs/rules/auf_die_nuesse.md. The builder derives the card bookkeeping (unseen cards, draw pile)
from what the test places, so a test only states what matters to it."""

from __future__ import annotations

import copy

KINDS = ["walnut", "hazelnut", "beechnut", "acorn"]
JOKERS = ["walnut/hazelnut", "walnut/beechnut", "walnut/acorn", "hazelnut/beechnut", "hazelnut/acorn", "beechnut/acorn"]
CARDS = KINDS + JOKERS
SPACES = ["A", "B", "R", "D", "E", "L", "R3", "Rt", "4"]
CAPACITIES = [2, 2, 3, 3, 4, 4, 5, 6]
VALUES = [5, 5, 10, 10, 15, 15, 20, 30]


def deck(players):
    removed = {2: 2, 3: 1, 4: 0}[players]
    return {c: (12 - removed if c in KINDS else 2) for c in CARDS}


def empty_store():
    return {"kind": None, "nuts": 0, "jokers": 0}


def store(kind, nuts, jokers=0):
    return {"kind": kind, "nuts": nuts, "jokers": jokers}


def full_store(index):
    return {"kind": None, "nuts": CAPACITIES[index], "jokers": 0}


def position(
    players,
    *,
    stage="turn",
    phase="roll_or_stop",
    active=0,
    current_player=None,
    turn=5,
    seat=None,
    check_space=None,
    pending=None,
    steal_next=False,
    refill_slot=None,
    roll_choice=None,
    pre_place_left=0,
    start_track=(),
    board=None,
    stores=None,
    kept_jokers=None,
    face_up=("walnut", "hazelnut", "beechnut", "acorn"),
    reserve=8,
    end_triggered=False,
    draw_pile=None,
    david=None,
    unseen=None,
):
    """A consistent position. `board` maps space names to per-seat counts (missing spaces: zeros);
    `stores` maps seat -> {store index: store dict}; the unseen cards are the deck minus every card
    in view, less the cards gone to full stores so that the unseen cards are exactly the draw pile
    (default: 10 cards drawn since the set-up) and the reserve."""
    n = players
    full_board = {sp: [0] * n for sp in SPACES}
    for sp, counts in (board or {}).items():
        full_board[sp] = list(counts)
    all_stores = [[empty_store() for _ in range(8)] for _ in range(n)]
    for p, row in (stores or {}).items():
        for i, st in row.items():
            all_stores[p][i] = copy.deepcopy(st)
    kept = [{j: 0 for j in JOKERS} for _ in range(n)]
    for p, row in (kept_jokers or {}).items():
        kept[p].update(row)
    given_unseen = unseen
    unseen = deck(n)
    for c in face_up:
        if c is not None:
            unseen[c] -= 1
    if pending is not None:
        unseen[pending] -= 1
    for p in range(n):
        for j in JOKERS:
            unseen[j] -= kept[p][j]
        for st in all_stores[p]:
            if st["kind"] is not None:
                unseen[st["kind"]] -= st["nuts"] - st["jokers"]
                # joker nuts in stores: take them from the first joker types that contain the kind
                left = st["jokers"]
                for j in JOKERS:
                    while left and st["kind"] in j.split("/") and unseen[j] > 0:
                        unseen[j] -= 1
                        left -= 1
    # Cards in full stores were boxed; a test that models that passes `draw_pile` explicitly.
    in_view = sum(1 for c in face_up if c is not None) + (pending is not None)
    in_view += sum(sum(row.values()) for row in kept)
    in_view += sum(st["nuts"] for row in all_stores for st in row)
    if draw_pile is None:  # a mid-game default: some cards have been drawn since the set-up
        size = sum(deck(n).values())
        draw_pile = min(size - 4 - n - reserve - 10, size - in_view - (0 if end_triggered else reserve))
    if given_unseen is not None:  # the test says exactly which cards are left
        unseen = {c: given_unseen.get(c, 0) for c in CARDS}
    # Surplus unseen cards were boxed in full stores or discarded; take them out evenly by kind,
    # so that every kind stays drawable.
    surplus = sum(unseen.values()) - draw_pile - (0 if end_triggered else reserve)
    assert surplus >= 0, "draw_pile larger than the cards left"
    while surplus:
        for c in sorted(CARDS, key=lambda c: -unseen[c])[:1]:
            unseen[c] -= 1
            surplus -= 1
    supply = []
    for p in range(n):
        on_board = sum(full_board[sp][p] for sp in SPACES) + (len(start_track) if p == active else 0)
        supply.append(15 - on_board)
    if current_player is None:
        if phase in ("deal_face_up", "deal_start_nut", "roll", "refill"):
            current_player = -1
        elif phase == "terminal":
            current_player = -4
        elif phase in ("choose_space", "roll_or_stop", "kept_jokers"):
            current_player = active
        else:
            current_player = seat
    return {
        "game": "auf_die_nuesse",
        "players": n,
        "stage": stage,
        "phase": phase,
        "current_player": current_player,
        "active": active,
        "turn": turn,
        "seat": seat,
        "check_space": check_space,
        "pending": pending,
        "steal_next": steal_next,
        "refill_slot": refill_slot,
        "roll_choice": list(roll_choice) if roll_choice else None,
        "pre_place_left": pre_place_left,
        "start_track": sorted(start_track),
        "board": full_board,
        "supply": supply,
        "stores": all_stores,
        "kept_jokers": kept,
        "face_up": list(face_up),
        "unseen": unseen,
        "draw_pile": draw_pile,
        "reserve": 0 if end_triggered else reserve,
        "end_triggered": end_triggered,
        "david": david,
    }


def act(state, text):
    """Apply an action given by its string."""
    state.apply_action(state.string_to_action(text))


def legal_strings(state):
    return [state.action_to_string(a) for a in state.legal_actions()]


def chance_strings(state):
    return {state.action_to_string(a): p for a, p in state.chance_outcomes()}
