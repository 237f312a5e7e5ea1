"""Nutz!'s action ids and strings (docs/rules/nutz.md, "Action encoding").

The 206 ids are fixed whatever the card set; the strings name the set's card types and kinds.
"""

from __future__ import annotations

import operator

MAX_TYPES = 15
MAX_KINDS = 10
MAX_TREES = 5

SUMMER_BASE = 0  # 0..149: id = 10 * type + 2 * (J - 1) + down
TAKE_BASE = 149  # 150..154: take tree J, id = 149 + J
APPLY_BASE = 155  # 155..164: apply KIND
PLAY_BASE = 165  # 165..174: play KIND
SQUIRREL_BASE = 174  # 175..179: squirrel K, id = 174 + K
DEAL_BASE = 180  # 180..194: deal TYPE
RESERVED_BASE = 195  # 195..205: unused
NUM_DISTINCT_ACTIONS = 206

CHANCE = -1
TERMINAL = -4


def summer_action(type_index, tree, down):
    """The id of playing a card of `type_index` under tree `tree` (1-based), face down if `down`."""
    return SUMMER_BASE + 10 * type_index + 2 * (tree - 1) + (1 if down else 0)


def decode_summer(action):
    """(type, tree 1-based, face down) of a summer id 0..149."""
    return action // 10, (action % 10) // 2 + 1, action % 2 == 1


def action_names(type_names, kind_names):
    """The 206 action strings for a game whose types and kinds (in number order) have these names."""

    def type_name(t):
        return type_names[t] if t < len(type_names) else "type %d" % t

    def kind_name(k):
        return kind_names[k] if k < len(kind_names) else "kind %d" % k

    names = []
    for action in range(NUM_DISTINCT_ACTIONS):
        if action < TAKE_BASE + 1:
            t, tree, down = decode_summer(action)
            names.append("%s%s to tree %d" % (type_name(t), " face down" if down else "", tree))
        elif action < APPLY_BASE:
            names.append("take tree %d" % (action - TAKE_BASE))
        elif action < PLAY_BASE:
            names.append("apply " + kind_name(action - APPLY_BASE))
        elif action < SQUIRREL_BASE + 1:
            names.append("play " + kind_name(action - PLAY_BASE))
        elif action < DEAL_BASE:
            names.append("squirrel %d" % (action - SQUIRREL_BASE))
        elif action < RESERVED_BASE:
            names.append("deal " + type_name(action - DEAL_BASE))
        else:
            names.append("action %d" % action)
    return tuple(names)


def check_action(action):
    """`action` as an int id 0..205, or ValueError."""
    try:
        index = None if isinstance(action, bool) else operator.index(action)
    except TypeError:
        index = None
    if index is None or not 0 <= index < NUM_DISTINCT_ACTIONS:
        raise ValueError("nutz: no action with id %r (ids are 0..%d)" % (action, NUM_DISTINCT_ACTIONS - 1))
    return index
