"""Ritter positions for tests: a canonical JSON position on the default board from a few facts
(the rule tests and the searches' tests build theirs with it)."""

from __future__ import annotations

BUSHES = ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8"]
THIEVES = ["Max", "Leo", "Fritz"]


def position(
    players=2,
    *,
    phase="roll",
    turn=0,
    current=None,
    drawer=None,
    roll=None,
    knights=None,
    scores=None,
    carried=None,
    stacks=None,
    pool=None,
    shouts=None,
    card=None,
    stack_size=7,
    hazelnuts=32,
    thieves=8,
):
    """A canonical JSON position on the default board. `stacks` maps a bush to its height or to
    (height, top, seen_by); the others are full. Unless given, the pool holds every thief not on a
    known top (none removed) and the hazelnuts that make the heights add up."""
    stack_list = [{"bush": b, "cards": stack_size, "top": None, "seen_by": []} for b in BUSHES]
    for name, spec in (stacks or {}).items():
        height, top, seen = (spec, None, []) if isinstance(spec, int) else spec
        stack_list[BUSHES.index(name)] = {"bush": name, "cards": height, "top": top, "seen_by": list(seen)}
    if pool is None:
        tops = [sum(1 for s in stack_list if s["top"] == t) for t in THIEVES]
        undrawn = sum(s["cards"] for s in stack_list) - sum(tops)
        pool = {"hazelnuts": undrawn - sum(thieves - k for k in tops)}
        pool.update({t: thieves - k for t, k in zip(THIEVES, tops)})
    if current is None:
        current = {"move": turn % players, "terminal": -4, "shout": None, "place": None}.get(phase, -1)
        if phase == "shout":
            current = (drawer + 1) % players
    return {
        "game": "ritter",
        "players": players,
        "phase": phase,
        "current_player": current,
        "turn": turn,
        "drawer": drawer,
        "roll": roll,
        "knights": list(knights or BUSHES[:players]),
        "scores": list(scores or [0] * players),
        "carried": list(carried or [0] * players),
        "stacks": stack_list,
        "pool": pool,
        "shouts": list(shouts or [None] * players),
        "card": card,
    }
