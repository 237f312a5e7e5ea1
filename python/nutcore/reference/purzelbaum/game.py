"""Purzelbaum's parameters and the Game object (docs/rules/purzelbaum.md, "Parameters")."""

from __future__ import annotations

import math

from ..tumble_model import (
    DEFAULT_BRANCH_LENGTHS,
    DEFAULT_HALF_BOX,
    DEFAULT_HIT_RADIUS,
    DEFAULT_HOLES,
    DEFAULT_SIGMA,
    check_geometry,
    outcome_table,
)
from .actions import MAX_ENDS, MAX_HOLES, NUM_DISTINCT_ACTIONS
from .state import State, state_from_json

GAME_NAME = "purzelbaum"

DEFAULT_TURN_CAP = 200
PARAMETERS = ("skill_sigma", "hit_radius", "branch_lengths", "holes", "half_box", "turn_cap")


def _number(value, what):
    """A finite real number as a float; bool is not a number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("purzelbaum: %s must be a number, not %r" % (what, value))
    try:
        result = float(value)
    except (OverflowError, ValueError):
        raise ValueError("purzelbaum: %s must be a finite number, not %r" % (what, value)) from None
    if not math.isfinite(result):
        raise ValueError("purzelbaum: %s must be a finite number, not %r" % (what, value))
    return result


def _integer(value, what, lo, hi):
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("purzelbaum: %s must be an int, not %r" % (what, value))
    if not lo <= value <= hi:
        raise ValueError("purzelbaum: %s must be in %d..%d, not %d" % (what, lo, hi, value))
    return int(value)


def _sequence(value, what):
    if not isinstance(value, (list, tuple)):
        raise ValueError("purzelbaum: %s must be a list, not %r" % (what, value))
    return list(value)


def _sigma(value, what):
    sigma = _number(value, what)
    if not 0 < sigma <= 10:
        raise ValueError("purzelbaum: %s must be in (0, 10], not %r" % (what, value))
    return sigma


class Game:
    """Purzelbaum for `players` seats (2..4); parameters by name, see docs/rules/purzelbaum.md."""

    name = GAME_NAME

    def __init__(self, players=2, **params):
        unknown = sorted(set(params) - set(PARAMETERS))
        if unknown:
            raise ValueError(
                "purzelbaum has no parameter %s; known: players, %s"
                % (", ".join(map(repr, unknown)), ", ".join(PARAMETERS))
            )
        n = _integer(players, "players", 2, 4)

        half_box = _number(params.get("half_box", DEFAULT_HALF_BOX), "half_box")
        if not 0 < half_box <= 10:
            raise ValueError("purzelbaum: half_box must be in (0, 10], not %r" % (half_box,))

        turn_cap = _integer(params.get("turn_cap", DEFAULT_TURN_CAP), "turn_cap", 1, 10000)

        lengths = _sequence(params.get("branch_lengths", DEFAULT_BRANCH_LENGTHS), "branch_lengths")
        if not 1 <= len(lengths) <= MAX_ENDS // 2:
            raise ValueError("purzelbaum: branch_lengths needs 1..8 numbers, not %d" % len(lengths))
        branch_lengths = []
        for i, x in enumerate(lengths):
            length = _number(x, "branch_lengths[%d]" % i)
            if not 0 < length < 3:
                raise ValueError("purzelbaum: branch_lengths[%d] must be in (0, 3), not %r" % (i, x))
            branch_lengths.append(length)

        raw_holes = _sequence(params.get("holes", DEFAULT_HOLES), "holes")
        if not 2 <= len(raw_holes) <= MAX_HOLES:
            raise ValueError("purzelbaum: holes needs 2..20 points, not %d" % len(raw_holes))
        holes = []
        for i, point in enumerate(raw_holes):
            pair = _sequence(point, "holes[%d]" % i)
            if len(pair) != 2:
                raise ValueError("purzelbaum: holes[%d] must be a pair [x, y], not %r" % (i, point))
            x = _number(pair[0], "holes[%d] x" % i)
            y = _number(pair[1], "holes[%d] y" % i)
            if not (abs(x) < half_box and abs(y) < half_box):
                raise ValueError("purzelbaum: hole %d at %r is not inside the box" % (i, [x, y]))
            if (x, y) in holes:
                raise ValueError("purzelbaum: two holes at %r" % ([x, y],))
            holes.append((x, y))
        if len(holes) < 2 * len(branch_lengths):
            raise ValueError(
                "purzelbaum: %d holes for %d branch ends; every shove needs a green target"
                % (len(holes), 2 * len(branch_lengths))
            )

        hit_radius = _number(params.get("hit_radius", DEFAULT_HIT_RADIUS), "hit_radius")
        if not hit_radius > 0:
            raise ValueError("purzelbaum: hit_radius must be positive, not %r" % (hit_radius,))
        check_geometry(tuple(holes), half_box, hit_radius)  # hit_radius below half the closest distance

        sigma = params.get("skill_sigma", DEFAULT_SIGMA)
        if isinstance(sigma, (list, tuple)):
            if len(sigma) != n:
                raise ValueError(
                    "purzelbaum: skill_sigma needs one number or one per seat (%d), not %d" % (n, len(sigma))
                )
            sigmas = [_sigma(s, "skill_sigma[%d]" % i) for i, s in enumerate(sigma)]
        else:
            sigmas = [_sigma(sigma, "skill_sigma")] * n

        self._players = n
        self.skill_sigma = tuple(sigmas)
        self.hit_radius = hit_radius
        self.branch_lengths = tuple(branch_lengths)
        self.holes = tuple(holes)
        self.half_box = half_box
        self.turn_cap = turn_cap
        self.num_holes = len(holes)
        self.num_ends = 2 * len(branch_lengths)

    # -- the game object's API -------------------------------------------------------------------

    @property
    def params(self):
        return {
            "players": self._players,
            "skill_sigma": list(self.skill_sigma),
            "hit_radius": self.hit_radius,
            "branch_lengths": list(self.branch_lengths),
            "holes": [[x, y] for x, y in self.holes],
            "half_box": self.half_box,
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

    def outcome_row(self, seat, end, target):
        """The model's 2 + len(holes) probabilities for a shove by `seat` (k = 0 hit, 1 + h, off)."""
        table = outcome_table(self.skill_sigma[seat], self.holes, self.branch_lengths, self.half_box, self.hit_radius)
        return table[end][target]

    def __eq__(self, other):
        return isinstance(other, Game) and self.params == other.params

    __hash__ = None

    def __repr__(self):
        return "purzelbaum.Game(%s)" % ", ".join("%s=%r" % kv for kv in self.params.items())
