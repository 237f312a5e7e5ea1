"""The game object: parameters, the deck, and state factories."""

from .actions import NUM_DISTINCT_ACTIONS
from .board import GAME_NAME, JOKER_KINDS, NUM_CARDS, NUM_KINDS

# name -> (default, kind, low, high); see the "Parameters" table of the doc.
# For the two removal parameters the upper bound is `nuts_per_kind`.
_INT_PARAMS = {
    "players": (2, 2, 4),
    "turn_cap": (400, 1, 65535),
    "squirrels": (15, 1, 15),
    "reserve": (8, 0, 40),
    "nuts_per_kind": (12, 1, 40),
    "jokers_per_pair": (2, 0, 10),
    "removed_per_kind_2p": (2, 0, None),
    "removed_per_kind_3p": (1, 0, None),
}
_LIST_PARAMS = {
    "store_capacities": ([2, 2, 3, 3, 4, 4, 5, 6], 1, 7),
    "store_values": ([5, 5, 10, 10, 15, 15, 20, 30], 0, 1000),
}
PARAM_ORDER = [
    "players",
    "turn_cap",
    "squirrels",
    "reserve",
    "nuts_per_kind",
    "jokers_per_pair",
    "removed_per_kind_2p",
    "removed_per_kind_3p",
    "store_capacities",
    "store_values",
]


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _check_params(players, params):
    unknown = set(params) - set(PARAM_ORDER)
    if unknown:
        raise ValueError("unknown parameter(s) for %s: %s" % (GAME_NAME, ", ".join(sorted(unknown))))
    given = dict(params)
    given["players"] = players
    out = {}
    for name in PARAM_ORDER:
        if name in _INT_PARAMS:
            default, low, high = _INT_PARAMS[name]
            value = given.get(name, default)
            if not _is_int(value):
                raise ValueError("parameter %s must be an int, got %r" % (name, value))
            if high is None:  # removal: 0..nuts_per_kind
                high = out["nuts_per_kind"]
            if not low <= value <= high:
                raise ValueError("parameter %s=%d out of range %d..%d" % (name, value, low, high))
            out[name] = value
        else:
            default, low, high = _LIST_PARAMS[name]
            value = given.get(name, default)
            if not isinstance(value, (list, tuple)) or len(value) != 8:
                raise ValueError("parameter %s must be a list of 8 ints, got %r" % (name, value))
            for v in value:
                if not _is_int(v):
                    raise ValueError("parameter %s must hold ints, got %r" % (name, v))
                if not low <= v <= high:
                    raise ValueError("parameter %s: %d out of range %d..%d" % (name, v, low, high))
            out[name] = list(value)
    return out


class Game:
    """Auf die Nüsse! for 2-4 players with the parameters of the doc's table."""

    def __init__(self, players=2, **params):
        self._params = _check_params(players, params)
        p = self._params
        n = p["players"]
        # Set-up: with 2 or 3 players some nuts of each kind go back to the box;
        # jokers are never removed.
        removed = {2: p["removed_per_kind_2p"], 3: p["removed_per_kind_3p"], 4: 0}[n]
        self.deck = [p["nuts_per_kind"] - removed] * NUM_KINDS + [p["jokers_per_pair"]] * len(JOKER_KINDS)
        assert len(self.deck) == NUM_CARDS
        self.deck_size = sum(self.deck)
        if self.deck_size < 4 + n + p["reserve"]:
            raise ValueError(
                "deck of %d cards is too small: need at least 4 + players + reserve = %d"
                % (self.deck_size, 4 + n + p["reserve"])
            )
        # draw pile after dealing 4 face up, one start nut each and the reserve.
        self.initial_draw_pile = self.deck_size - 4 - n - p["reserve"]
        self.capacities = list(p["store_capacities"])
        self.values = list(p["store_values"])

    # --- info ------------------------------------------------------------
    @property
    def params(self):
        return {k: (list(v) if isinstance(v, list) else v) for k, v in self._params.items()}

    def name(self):
        return GAME_NAME

    def num_players(self):
        return self._params["players"]

    def num_distinct_actions(self):
        return NUM_DISTINCT_ACTIONS

    def __repr__(self):
        return "Game(%s)" % ", ".join("%s=%r" % kv for kv in self._params.items())

    # --- states ----------------------------------------------------------
    def new_initial_state(self):
        from .state import State

        return State(self)

    def state_from_json(self, d):
        from .serialize import state_from_json

        return state_from_json(self, d)
