"""Ritter's action ids and strings (docs/rules/ritter.md, "Action encoding").

The 42 ids are fixed whatever the board; the strings of ids 0..15 name the board's nodes.
"""

from __future__ import annotations

import operator

MAX_NODES = 16

TO_BASE = 0  # 0..15: to NODE (place the knight / end the walk)
SILENT = 16
SHOUT_BASE = 17  # 17, 18, 19: shout Max, Leo, Fritz
ROLL_BASE = 19  # 20..25: roll K, id = 19 + K
DRAW_HAZELNUT = 26
DRAW_THIEF_BASE = 27  # 27, 28, 29: draw Max, Leo, Fritz
FIRST_RIGHT_BASE = 30  # 30..33
FIRST_WRONG_BASE = 34  # 34..37
FIRST_SHOUT_BASE = 38  # 38..41
NUM_DISTINCT_ACTIONS = 42

CHANCE = -1
TERMINAL = -4

THIEVES = ("Max", "Leo", "Fritz")  # kinds 0, 1, 2
HAZELNUT = "hazelnut"
SHOUT_CHOICES = ("silent",) + THIEVES  # what a seat may shout, in action-id order


def _fixed_name(action):
    """The string of an id that does not name a node (16..41)."""
    if action == SILENT:
        return "silent"
    if SHOUT_BASE <= action < SHOUT_BASE + 3:
        return "shout " + THIEVES[action - SHOUT_BASE]
    if ROLL_BASE + 1 <= action <= ROLL_BASE + 6:
        return "roll %d" % (action - ROLL_BASE)
    if action == DRAW_HAZELNUT:
        return "draw hazelnut"
    if DRAW_THIEF_BASE <= action < DRAW_THIEF_BASE + 3:
        return "draw " + THIEVES[action - DRAW_THIEF_BASE]
    if FIRST_RIGHT_BASE <= action < FIRST_WRONG_BASE:
        return "first right: seat %d" % (action - FIRST_RIGHT_BASE)
    if FIRST_WRONG_BASE <= action < FIRST_SHOUT_BASE:
        return "first wrong: seat %d" % (action - FIRST_WRONG_BASE)
    return "first shout: seat %d" % (action - FIRST_SHOUT_BASE)


def action_names(node_names):
    """The 42 action strings for a board whose nodes (in id order) are `node_names`."""
    names = []
    for action in range(NUM_DISTINCT_ACTIONS):
        if action < MAX_NODES:
            names.append("to " + node_names[action] if action < len(node_names) else "to node %d" % action)
        else:
            names.append(_fixed_name(action))
    return tuple(names)


def check_action(action):
    """`action` as an int id 0..41, or ValueError."""
    try:
        index = None if isinstance(action, bool) else operator.index(action)
    except TypeError:
        index = None
    if index is None or not 0 <= index < NUM_DISTINCT_ACTIONS:
        raise ValueError("ritter: no action with id %r (ids are 0..%d)" % (action, NUM_DISTINCT_ACTIONS - 1))
    return index


def card_of_draw(action):
    """The card ("hazelnut" or a thief's name) of a draw outcome."""
    return HAZELNUT if action == DRAW_HAZELNUT else THIEVES[action - DRAW_THIEF_BASE]


def draw_action(card):
    return DRAW_HAZELNUT if card == HAZELNUT else DRAW_THIEF_BASE + THIEVES.index(card)
