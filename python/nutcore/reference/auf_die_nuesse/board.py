"""Components of "Auf die Nüsse!": card types, board spaces, start track.

Everything here follows the tables in docs/rules/auf_die_nuesse.md
("Components and names").
"""

GAME_NAME = "auf_die_nuesse"

# --- Cards --------------------------------------------------------------
# Card types in index order: the four kinds, then the six jokers.  A joker's
# *first* kind is the one named first.
KINDS = ["walnut", "hazelnut", "beechnut", "acorn"]
NUM_KINDS = 4
JOKER_KINDS = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]  # joker t = card 4+t
NUM_JOKERS = 6
CARD_NAMES = KINDS + ["%s/%s" % (KINDS[a], KINDS[b]) for a, b in JOKER_KINDS]
NUM_CARDS = 10
CARD_INDEX = {name: i for i, name in enumerate(CARD_NAMES)}
JOKER_NAMES = CARD_NAMES[NUM_KINDS:]


def is_joker(card):
    return card >= NUM_KINDS


# --- Board --------------------------------------------------------------
# idx, name, threshold k, where pushed squirrels go, face-up slots it takes from.
SPACE_NAMES = ["A", "B", "R", "D", "E", "L", "R3", "Rt", "4"]
SPACE_INDEX = {name: i for i, name in enumerate(SPACE_NAMES)}
NUM_SPACES = 9
A, B, R, D, E, L, R3, RT, FOUR = range(9)
THRESHOLD = [2, 2, 2, 2, 2, 3, 3, 3, 4]
PUSHED_TO = [L, L, R3, RT, RT, FOUR, FOUR, FOUR, None]  # none from the 4-area
ALL_SLOTS = [0, 1, 2, 3]
TAKES_FROM = [[0], [1], ALL_SLOTS, [2], [3], [0, 1], ALL_SLOTS, [2, 3], ALL_SLOTS]
RACCOON_SPACES = (R, R3)  # collector may steal afterwards
TWO_AREA = [A, B, R, D, E]
THREE_AREA = [L, R3, RT]
PRE_PLACE_SPACES = [A, B, D, E]  # never R

# Start track spaces 2..12 and the 2-area space above each.
START_SPACES = list(range(2, 13))
START_TO_SPACE = {2: A, 3: A, 4: A, 5: B, 6: B, 7: R, 8: D, 9: D, 10: E, 11: E, 12: E}

NUM_SLOTS = 4
NUM_STORES = 8
