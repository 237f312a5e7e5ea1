"""Action encoding: one id space (0..291) for decisions and chance outcomes.

See the table "Action encoding" in docs/rules/auf_die_nuesse.md.
"""

from .board import CARD_NAMES, JOKER_KINDS, KINDS, NUM_CARDS

NUM_DISTINCT_ACTIONS = 292

ROLL = 0
STOP = 1
# 2..12: "space N", id = N
TAKE_BASE = 13  # 13..16 "take slot I"
STORE_BASE = 17  # 17..24 "store S"
JOKER_BASE = 25  # 25..120 "joker T as K store S" = 25 + 16*t + 8*c + s
KEEP_JOKER = 121
STEAL_BASE = 122  # 122..153 "steal seat V store S" = 122 + 8*v + s
NO_STEAL = 154
DONE = 155
PUT_BASE = 156  # 156..159 "put A", "put B", "put D", "put E"
PUT_SPACES = ["A", "B", "D", "E"]
DRAW_BASE = 160  # 160..169 "draw C"
ROLL_FAIL = 170
ROLL_BASE = 171  # 171 + 11*(a-2) + (b-2), a <= b


def space_action(n):
    return n


def take_action(slot):
    return TAKE_BASE + slot


def store_action(s):
    return STORE_BASE + s


def joker_action(t, c, s):
    """Joker type t (card 4+t), its kind number c (0 first, 1 second), store s."""
    return JOKER_BASE + 16 * t + 8 * c + s


def steal_action(v, s):
    return STEAL_BASE + 8 * v + s


def draw_action(card):
    return DRAW_BASE + card


def roll_action(a, b):
    """Roll outcome allowing spaces a and b (a <= b; a == b is the single space a)."""
    assert a <= b
    return ROLL_BASE + 11 * (a - 2) + (b - 2)


def decode_roll(action):
    """Roll outcome id -> (a, b) with a <= b, or None if the id is not a roll outcome."""
    if not ROLL_BASE <= action < NUM_DISTINCT_ACTIONS:
        return None
    a, b = divmod(action - ROLL_BASE, 11)
    a, b = a + 2, b + 2
    if a > b:
        return None
    return a, b


def _build_strings():
    strings = {ROLL: "roll", STOP: "stop"}
    for n in range(2, 13):
        strings[space_action(n)] = "space %d" % n
    for i in range(4):
        strings[take_action(i)] = "take slot %d" % i
    for s in range(8):
        strings[store_action(s)] = "store %d" % s
    for t, kinds in enumerate(JOKER_KINDS):
        for c in range(2):
            for s in range(8):
                strings[joker_action(t, c, s)] = "joker %s as %s store %d" % (CARD_NAMES[4 + t], KINDS[kinds[c]], s)
    strings[KEEP_JOKER] = "keep joker"
    for v in range(4):
        for s in range(8):
            strings[steal_action(v, s)] = "steal seat %d store %d" % (v, s)
    strings[NO_STEAL] = "no steal"
    strings[DONE] = "done"
    for i, name in enumerate(PUT_SPACES):
        strings[PUT_BASE + i] = "put %s" % name
    for c in range(NUM_CARDS):
        strings[draw_action(c)] = "draw %s" % CARD_NAMES[c]
    strings[ROLL_FAIL] = "roll fail"
    for a in range(2, 13):
        for b in range(a, 13):
            if a == b:
                strings[roll_action(a, b)] = "roll %d" % a
            else:
                strings[roll_action(a, b)] = "roll %d or %d" % (a, b)
    return strings


ACTION_STRINGS = _build_strings()
STRING_ACTIONS = {s: a for a, s in ACTION_STRINGS.items()}
assert len(STRING_ACTIONS) == len(ACTION_STRINGS)


def action_to_string(action):
    if isinstance(action, bool) or not isinstance(action, int) or action not in ACTION_STRINGS:
        raise ValueError("not an action id of auf_die_nuesse: %r" % (action,))
    return ACTION_STRINGS[action]


def string_to_action(text):
    if not isinstance(text, str) or text not in STRING_ACTIONS:
        raise ValueError("unknown action string: %r" % (text,))
    return STRING_ACTIONS[text]
