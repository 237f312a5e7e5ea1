"""Purzelbaum's action ids and strings (docs/rules/purzelbaum.md, "Action encoding").

The id space is fixed for the largest board (20 holes, 16 branch ends), whatever the parameters.
"""

from __future__ import annotations

import operator

MAX_HOLES = 20
MAX_ENDS = 16

SHOVE_BASE = 0  # 0..319: target T end E, id = 16 * T + E
DIG_BASE = 320  # 320..339: dig H
BURY_BASE = 340  # 340..359: bury H
HIT = 360  # chance: hit
LAND_BASE = 361  # 361..380: chance: lands at hole H
OFF_BOX = 381  # chance: off the box
NUM_DISTINCT_ACTIONS = 382

CHANCE = -1
TERMINAL = -4


def shove_id(target, end):
    return SHOVE_BASE + MAX_ENDS * target + end


def _name(action):
    if SHOVE_BASE <= action < DIG_BASE:
        target, end = divmod(action - SHOVE_BASE, MAX_ENDS)
        return "target %d end %d" % (target, end)
    if DIG_BASE <= action < BURY_BASE:
        return "dig %d" % (action - DIG_BASE)
    if BURY_BASE <= action < HIT:
        return "bury %d" % (action - BURY_BASE)
    if action == HIT:
        return "hit"
    if LAND_BASE <= action < OFF_BOX:
        return "lands at hole %d" % (action - LAND_BASE)
    return "off the box"


NAMES = tuple(_name(a) for a in range(NUM_DISTINCT_ACTIONS))
IDS = {name: a for a, name in enumerate(NAMES)}


def action_to_string(action):
    try:
        index = None if isinstance(action, bool) else operator.index(action)
    except TypeError:
        index = None
    if index is None or not 0 <= index < NUM_DISTINCT_ACTIONS:
        raise ValueError("purzelbaum: no action with id %r (ids are 0..%d)" % (action, NUM_DISTINCT_ACTIONS - 1))
    return NAMES[index]


def string_to_action(text):
    if not isinstance(text, str) or text not in IDS:
        raise ValueError("purzelbaum: unknown action %r" % (text,))
    return IDS[text]
