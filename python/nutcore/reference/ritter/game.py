"""Ritter's parameters and the Game object (docs/rules/ritter.md, "Parameters")."""

from __future__ import annotations

import copy

from .actions import NUM_DISTINCT_ACTIONS, action_names
from .board import DEFAULT_BOARD, Board
from .serialize import state_from_json
from .state import State

GAME_NAME = "ritter"

SEPARATE, FIRST_ONLY = "separate", "first_only"

# In the doc's table order; `players` comes first and is not in **params.
PARAMETERS = (
    "board",
    "stack_size",
    "hazelnuts",
    "thieves_per_kind",
    "die",
    "delivery_points",
    "shout_points",
    "score_floor",
    "score_target",
    "empty_stacks_to_end",
    "shout_resolution",
    "turn_cap",
)

DEFAULTS = {
    "stack_size": 7,
    "hazelnuts": 32,
    "thieves_per_kind": 8,
    "die": [1, 1, 2, 2, 3, 3],
    "delivery_points": [1, 3, 6, 10],
    "shout_points": 2,
    "score_floor": -3,
    "score_target": 25,
    "empty_stacks_to_end": 2,
    "shout_resolution": SEPARATE,
    "turn_cap": 500,
}


def _integer(value, what, lo, hi=None):
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("ritter: %s must be an int, not %r" % (what, value))
    if value < lo or (hi is not None and value > hi):
        bounds = "%d..%d" % (lo, hi) if hi is not None else "at least %d" % lo
        raise ValueError("ritter: %s must be %s, not %d" % (what, bounds if hi is None else "in " + bounds, value))
    return int(value)


def _int_list(value, what, min_len, max_len, lo, hi=None):
    if not isinstance(value, (list, tuple)):
        raise ValueError("ritter: %s must be a list of ints, not %r" % (what, value))
    if not min_len <= len(value) <= max_len:
        raise ValueError("ritter: %s needs %d..%d entries, not %d" % (what, min_len, max_len, len(value)))
    return [_integer(x, "%s[%d]" % (what, i), lo, hi) for i, x in enumerate(value)]


class Game:
    """Die Ritter von der Haselnuss for `players` seats (2..4); parameters by name, see docs/rules/ritter.md."""

    name = GAME_NAME

    def __init__(self, players=2, **params):
        unknown = sorted(set(params) - set(PARAMETERS))
        if unknown:
            raise ValueError(
                "ritter has no parameter %s; known: players, %s"
                % (", ".join(map(repr, unknown)), ", ".join(PARAMETERS))
            )
        n = _integer(players, "players", 2, 4)
        board = Board(copy.deepcopy(params.get("board", DEFAULT_BOARD)))

        def get(key):
            return params.get(key, DEFAULTS[key])

        stack_size = _integer(get("stack_size"), "stack_size", 1, 15)
        hazelnuts = _integer(get("hazelnuts"), "hazelnuts", 0, 255)
        thieves = _integer(get("thieves_per_kind"), "thieves_per_kind", 0, 60)
        die = _int_list(get("die"), "die", 1, 12, 1, 6)
        delivery = _int_list(get("delivery_points"), "delivery_points", 1, 8, 0)
        shout_points = _integer(get("shout_points"), "shout_points", 0, 25)
        floor = _integer(get("score_floor"), "score_floor", -25, 0)
        target = _integer(get("score_target"), "score_target", 1, 100)
        empty_to_end = _integer(get("empty_stacks_to_end"), "empty_stacks_to_end", 1, board.num_bushes)
        resolution = get("shout_resolution")
        if not isinstance(resolution, str) or resolution not in (SEPARATE, FIRST_ONLY):
            raise ValueError("ritter: shout_resolution must be %r or %r, not %r" % (SEPARATE, FIRST_ONLY, resolution))
        turn_cap = _integer(get("turn_cap"), "turn_cap", 1, 60000)

        cards = hazelnuts + 3 * thieves
        if cards != board.num_bushes * stack_size:
            raise ValueError(
                "ritter: the cards must fill the stacks exactly: hazelnuts + 3 * thieves_per_kind = %d + 3 * %d = %d, "
                "but %d bushes * stack_size %d = %d"
                % (hazelnuts, thieves, cards, board.num_bushes, stack_size, board.num_bushes * stack_size)
            )
        if board.num_bushes < n:
            raise ValueError("ritter: %d players need at least %d bushes, the board has %d" % (n, n, board.num_bushes))

        self._players = n
        self.board = board
        self.stack_size = stack_size
        self.hazelnuts = hazelnuts
        self.thieves_per_kind = thieves
        self.die = tuple(die)
        self.delivery_points = tuple(delivery)
        self.shout_points = shout_points
        self.score_floor = floor
        self.score_target = target
        self.empty_stacks_to_end = empty_to_end
        self.shout_resolution = resolution
        self.turn_cap = turn_cap
        self.action_names = action_names(board.names)
        self.action_ids = {name: a for a, name in enumerate(self.action_names)}

    # -- the game object's API -------------------------------------------------------------------

    @property
    def params(self):
        return {
            "players": self._players,
            "board": self.board.spec(),
            "stack_size": self.stack_size,
            "hazelnuts": self.hazelnuts,
            "thieves_per_kind": self.thieves_per_kind,
            "die": list(self.die),
            "delivery_points": list(self.delivery_points),
            "shout_points": self.shout_points,
            "score_floor": self.score_floor,
            "score_target": self.score_target,
            "empty_stacks_to_end": self.empty_stacks_to_end,
            "shout_resolution": self.shout_resolution,
            "turn_cap": self.turn_cap,
        }

    def num_players(self):
        return self._players

    def num_distinct_actions(self):
        return NUM_DISTINCT_ACTIONS

    def new_initial_state(self):
        return State(self)

    def state_from_json(self, data):
        return state_from_json(self, data)

    def observation_tensor_shape(self):
        n, v, b = self._players, self.board.num_nodes, self.board.num_bushes
        return [23 + 11 * n + 5 * b + n * v + n * b]

    def delivery_value(self, carried):
        """Points for delivering `carried` hazelnuts (0 for none; beyond the table, its last entry)."""
        if carried <= 0:
            return 0
        return self.delivery_points[min(carried, len(self.delivery_points)) - 1]

    def __eq__(self, other):
        return isinstance(other, Game) and self.params == other.params

    __hash__ = None

    def __repr__(self):
        return "ritter.Game(%s)" % ", ".join("%s=%r" % kv for kv in self.params.items())
