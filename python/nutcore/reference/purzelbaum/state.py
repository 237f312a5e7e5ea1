"""Purzelbaum's state: the rules as implemented (docs/rules/purzelbaum.md), plain and slow on purpose."""

from __future__ import annotations

import operator

from .actions import (
    BURY_BASE,
    CHANCE,
    DIG_BASE,
    HIT,
    LAND_BASE,
    MAX_ENDS,
    NUM_DISTINCT_ACTIONS,
    OFF_BOX,
    SHOVE_BASE,
    TERMINAL,
    action_to_string,
    shove_id,
    string_to_action,
)

AUTUMN, WINTER, OVER = "autumn", "winter", "over"
SHOVE, TUMBLE, BURY, DIG, TERMINAL_PHASE = "shove", "tumble", "bury", "dig", "terminal"
PHASES_OF_SEASON = {AUTUMN: (SHOVE, TUMBLE, BURY), WINTER: (DIG,), OVER: (TERMINAL_PHASE,)}

JSON_KEYS = (
    "game",
    "players",
    "season",
    "phase",
    "current_player",
    "turn",
    "shover",
    "target",
    "end",
    "ends",
    "holes",
    "leaves",
    "nuts",
)
HOLE_KEYS = ("white", "leaf", "nuts")


class State:
    """A Purzelbaum position. Seat 0 starts; the left neighbour of seat s is s + 1 mod N."""

    def __init__(self, game):
        self._game = game
        n, holes, ends = game.num_players(), game.num_holes, game.num_ends
        self._season = AUTUMN
        self._phase = SHOVE
        self._current = 0
        self._turn = 0
        self._shover = None  # the shove being resolved (phases tumble and bury)
        self._target = None
        self._end = None
        self._ends = [True] * ends  # the end still holds its nut and leaf
        self._white = [False] * holes  # disk colour: False green, True white
        self._leaf = [False] * holes  # a leaf lies on the disk
        self._hole_nuts = [0] * holes  # nuts buried in the hole
        self._leaves = [0] * n  # collected per seat
        self._nuts = [0] * n
        self._history = []
        self._apply_forced()

    # -- queries ---------------------------------------------------------------------------------

    def current_player(self):
        return self._current

    def is_chance_node(self):
        return self._phase == TUMBLE

    def is_terminal(self):
        return self._phase == TERMINAL_PHASE

    def legal_actions(self):
        g = self._game
        if self._phase == SHOVE:
            return [
                shove_id(t, e)
                for t in range(g.num_holes)
                if not self._white[t]
                for e in range(g.num_ends)
                if self._ends[e]
            ]
        if self._phase == BURY:
            return [BURY_BASE + h for h in range(g.num_holes)]
        if self._phase == DIG:
            return [DIG_BASE + h for h in range(g.num_holes) if self._white[h]]
        return []

    def chance_outcomes(self):
        if self._phase != TUMBLE:
            return []
        holes = self._game.num_holes
        row = self._game.outcome_row(self._shover, self._end, self._target)
        ids = [HIT] + [LAND_BASE + h for h in range(holes)] + [OFF_BOX]
        return [(a, p) for a, p in zip(ids, row) if p != 0.0]

    def action_to_string(self, action):
        return action_to_string(action)

    def string_to_action(self, text):
        return string_to_action(text)

    def scores(self):
        return [self._leaves[p] + self._nuts[p] for p in range(len(self._leaves))]

    def returns(self):
        n = len(self._leaves)
        if not self.is_terminal():
            return [0.0] * n
        keys = [(self._leaves[p] + self._nuts[p], self._nuts[p]) for p in range(n)]
        best = max(keys)
        winners = [p for p in range(n) if keys[p] == best]
        share = 1.0 / len(winners)
        return [share if p in winners else 0.0 for p in range(n)]

    def history(self):
        return list(self._history)

    def clone(self):
        twin = State.__new__(State)
        twin.__dict__.update(self.__dict__)
        for key in ("_ends", "_white", "_leaf", "_hole_nuts", "_leaves", "_nuts", "_history"):
            setattr(twin, key, list(getattr(self, key)))
        return twin

    def get_game(self):
        return self._game

    # -- moves -----------------------------------------------------------------------------------

    def apply_action(self, action):
        if isinstance(action, bool):
            raise ValueError("purzelbaum: an action is an int, not %r" % (action,))
        try:
            action = operator.index(action)
        except TypeError:
            raise ValueError("purzelbaum: an action is an int, not %r" % (action,)) from None
        if self.is_terminal():
            raise ValueError("purzelbaum: the game is over; no action %d can be applied" % action)
        if self.is_chance_node():
            allowed = [a for a, _ in self.chance_outcomes()]
        else:
            allowed = self.legal_actions()
        if action not in allowed:
            name = action_to_string(action) if 0 <= action < NUM_DISTINCT_ACTIONS else "id %d" % action
            raise ValueError(
                "purzelbaum: illegal action %s in phase %s; legal: %s"
                % (name, self._phase, ", ".join(action_to_string(a) for a in allowed))
            )
        self._history.append(action)
        self._do(action)
        self._apply_forced()

    def _apply_forced(self):
        """A decision with exactly one legal action is taken at once (not in the history)."""
        while self._phase in (SHOVE, BURY, DIG):
            legal = self.legal_actions()
            if len(legal) != 1:
                break
            self._do(legal[0])

    def _do(self, action):
        n = len(self._leaves)
        if self._phase == SHOVE:
            self._target, self._end = divmod(action - SHOVE_BASE, MAX_ENDS)
            self._shover = self._current
            self._phase = TUMBLE
            self._current = CHANCE
        elif self._phase == TUMBLE:
            shover, target, end = self._shover, self._target, self._end
            self._ends[end] = False  # the nut and the leaf have left the end
            self._white[target] = True  # the target disk is closed, white side up
            if action == HIT:
                self._leaves[shover] += 1
                self._hole_nuts[target] += 1
                self._finish_shove()
            elif action == OFF_BOX:
                self._leaf[target] = True
                self._phase = BURY  # the nut is in the air; the left neighbour chooses its hole
                self._current = (shover + 1) % n
            else:
                self._leaf[target] = True
                self._hole_nuts[action - LAND_BASE] += 1
                self._finish_shove()
        elif self._phase == BURY:
            self._hole_nuts[action - BURY_BASE] += 1  # burying never changes a disk
            self._finish_shove()
        elif self._phase == DIG:
            hole, seat = action - DIG_BASE, self._current
            if self._leaf[hole]:
                self._leaf[hole] = False
                self._leaves[seat] += 1
            found = self._hole_nuts[hole]
            self._nuts[seat] += found
            self._hole_nuts[hole] = 0
            if found == 0:
                self._white[hole] = False  # thawing: green side up
            self._turn += 1
            if not any(self._white):
                self._end_game()
            else:
                self._current = (seat + 1) % n
                if self._turn >= self._game.turn_cap:
                    self._end_game()
        else:  # pragma: no cover - apply_action checks first
            raise AssertionError(self._phase)

    def _finish_shove(self):
        shover = self._shover
        self._shover = self._target = self._end = None
        self._turn += 1
        if not any(self._ends):
            # Winter arrives: every green disk turns white; the fewest leaves begins, ties to the
            # latest seat in the original order.
            self._season, self._phase = WINTER, DIG
            self._white = [True] * len(self._white)
            n = len(self._leaves)
            self._current = min(range(n), key=lambda p: (self._leaves[p], -p))
        else:
            self._phase = SHOVE
            self._current = (shover + 1) % len(self._leaves)
        if self._turn >= self._game.turn_cap:
            self._end_game()

    def _end_game(self):
        self._season, self._phase, self._current = OVER, TERMINAL_PHASE, TERMINAL
        self._shover = self._target = self._end = None

    # -- encodings -------------------------------------------------------------------------------

    def to_json(self):
        return {
            "game": "purzelbaum",
            "players": len(self._leaves),
            "season": self._season,
            "phase": self._phase,
            "current_player": self._current,
            "turn": self._turn,
            "shover": self._shover,
            "target": self._target,
            "end": self._end,
            "ends": list(self._ends),
            "holes": [
                {"white": self._white[h], "leaf": self._leaf[h], "nuts": self._hole_nuts[h]}
                for h in range(len(self._white))
            ],
            "leaves": list(self._leaves),
            "nuts": list(self._nuts),
        }

    def _key(self):
        return (
            self._season,
            self._phase,
            self._current,
            self._turn,
            self._shover,
            self._target,
            self._end,
            tuple(self._ends),
            tuple(self._white),
            tuple(self._leaf),
            tuple(self._hole_nuts),
            tuple(self._leaves),
            tuple(self._nuts),
        )

    def __eq__(self, other):
        if not isinstance(other, State):
            return NotImplemented
        return self._game == other._game and self._key() == other._key()

    __hash__ = None

    def __str__(self):
        g = self._game
        n = len(self._leaves)
        if self._phase == TERMINAL_PHASE:
            who = "game over"
        elif self._phase == TUMBLE:
            who = "chance: seat %d's nut tumbles from end %d towards hole %d" % (self._shover, self._end, self._target)
        elif self._phase == BURY:
            who = "seat %d buries seat %d's nut (off the box; shove at hole %d from end %d)" % (
                self._current,
                self._shover,
                self._target,
                self._end,
            )
        else:
            who = "seat %d to %s" % (self._current, self._phase)
        lines = ["Purzelbaum, %d players: %s, turn %d, %s" % (n, self._season, self._turn, who)]
        ends = " ".join(("%d" % e) if self._ends[e] else "-" for e in range(g.num_ends))
        lines.append("branch ends holding nut and leaf: %s" % ends)
        lines.append("holes:")
        for h, (x, y) in enumerate(g.holes):
            parts = ["white" if self._white[h] else "green"]
            if self._leaf[h]:
                parts.append("leaf")
            if self._hole_nuts[h]:
                parts.append("%d nut%s" % (self._hole_nuts[h], "" if self._hole_nuts[h] == 1 else "s"))
            lines.append("  %2d (%g, %g): %s" % (h, x, y, ", ".join(parts)))
        for p in range(n):
            lines.append(
                "seat %d: %d leaves, %d nuts, %d points"
                % (p, self._leaves[p], self._nuts[p], self._leaves[p] + self._nuts[p])
            )
        return "\n".join(lines)

    def __repr__(self):
        return "<purzelbaum.State %s %s turn %d player %d>" % (self._season, self._phase, self._turn, self._current)


# -- loading ----------------------------------------------------------------------------------------


def _fail(message):
    raise ValueError("purzelbaum state: " + message)


def _int(value, what, lo, hi):
    if isinstance(value, bool) or not isinstance(value, int):
        _fail("%s must be an int, not %r" % (what, value))
    if not lo <= value <= hi:
        _fail("%s must be in %d..%d, not %d" % (what, lo, hi, value))
    return int(value)


def _bool(value, what):
    if not isinstance(value, bool):
        _fail("%s must be true or false, not %r" % (what, value))
    return value


def _list(value, what, length):
    if not isinstance(value, list):
        _fail("%s must be a list, not %r" % (what, value))
    if len(value) != length:
        _fail("%s must have %d entries, not %d" % (what, length, len(value)))
    return value


def _keys(value, what, keys):
    if not isinstance(value, dict):
        _fail("%s must be an object, not %r" % (what, value))
    missing = [k for k in keys if k not in value]
    extra = [k for k in value if k not in keys]
    if missing:
        _fail("%s lacks %s" % (what, ", ".join(map(repr, missing))))
    if extra:
        _fail("%s has unknown %s" % (what, ", ".join(map(repr, extra))))


def _str(value, what, choices):
    if not isinstance(value, str) or value not in choices:
        _fail("%s must be one of %s, not %r" % (what, ", ".join(choices), value))
    return value


def state_from_json(game, data):
    """Validate a canonical JSON dict (docs/rules/purzelbaum.md) and build the state; forced moves
    at the loaded node are applied."""
    n, holes, ends = game.num_players(), game.num_holes, game.num_ends
    _keys(data, "the state", JSON_KEYS)
    _str(data["game"], "game", ("purzelbaum",))
    if _int(data["players"], "players", 2, 4) != n:
        _fail("players is %d, the game has %d" % (data["players"], n))
    season = _str(data["season"], "season", (AUTUMN, WINTER, OVER))
    phase = _str(data["phase"], "phase", PHASES_OF_SEASON[season])
    current = _int(data["current_player"], "current_player", TERMINAL, n - 1)
    turn = _int(data["turn"], "turn", 0, game.turn_cap)

    resolving = phase in (TUMBLE, BURY)
    shove = {}
    for key, hi in (("shover", n - 1), ("target", holes - 1), ("end", ends - 1)):
        value = data[key]
        if resolving:
            shove[key] = _int(value, key, 0, hi)
        elif value is not None:
            _fail("%s must be null in phase %s" % (key, phase))

    on_tree = [_bool(v, "ends[%d]" % e) for e, v in enumerate(_list(data["ends"], "ends", ends))]
    white, leaf, hole_nuts = [], [], []
    for h, obj in enumerate(_list(data["holes"], "holes", holes)):
        _keys(obj, "holes[%d]" % h, HOLE_KEYS)
        white.append(_bool(obj["white"], "holes[%d].white" % h))
        leaf.append(_bool(obj["leaf"], "holes[%d].leaf" % h))
        hole_nuts.append(_int(obj["nuts"], "holes[%d].nuts" % h, 0, ends))
    leaves = [_int(v, "leaves[%d]" % p, 0, ends) for p, v in enumerate(_list(data["leaves"], "leaves", n))]
    nuts = [_int(v, "nuts[%d]" % p, 0, ends) for p, v in enumerate(_list(data["nuts"], "nuts", n))]

    # The player to move.
    if phase == TUMBLE:
        expected = "%d (chance)" % CHANCE
        ok = current == CHANCE
    elif phase == BURY:
        expected = "%d (the shover's left neighbour)" % ((shove["shover"] + 1) % n)
        ok = current == (shove["shover"] + 1) % n
    elif phase == TERMINAL_PHASE:
        expected = "%d (terminal)" % TERMINAL
        ok = current == TERMINAL
    else:
        expected = "a seat"
        ok = current >= 0
    if not ok:
        _fail("current_player must be %s in phase %s, not %d" % (expected, phase, current))

    # The shove being resolved.
    if phase == TUMBLE:
        if not on_tree[shove["end"]]:
            _fail("in phase tumble the end %d must still hold its nut and leaf" % shove["end"])
        if white[shove["target"]]:
            _fail("in phase tumble the target disk %d must still be green" % shove["target"])
    if phase == BURY:
        if on_tree[shove["end"]]:
            _fail("in phase bury the end %d must be empty" % shove["end"])
        if not (white[shove["target"]] and leaf[shove["target"]]):
            _fail("in phase bury the target disk %d must be white with the leaf on it" % shove["target"])

    # Every nut and leaf accounted for (in phase bury one nut is in the air).
    in_air = 1 if phase == BURY else 0
    nut_total = sum(on_tree) + sum(hole_nuts) + sum(nuts) + in_air
    if nut_total != ends:
        _fail(
            "%d nuts accounted for (ends, holes, players%s), the game has %d"
            % (nut_total, ", in the air" if in_air else "", ends)
        )
    leaf_total = sum(on_tree) + sum(leaf) + sum(leaves)
    if leaf_total != ends:
        _fail("%d leaves accounted for (ends, disks, players), the game has %d" % (leaf_total, ends))

    # Disks as the season allows.
    empty_ends = ends - sum(on_tree)
    green = [h for h in range(holes) if not white[h]]

    def autumn_problem():
        if sum(white) != empty_ends:
            return "in autumn one disk is white per emptied branch end (%d), not %d" % (empty_ends, sum(white))
        if any(leaf[h] for h in green):
            return "in autumn no green disk has a leaf"
        if any(nuts):
            return "nobody has collected nuts in autumn"
        return None

    def winter_problem():
        if any(on_tree):
            return "in winter no branch end holds a nut"
        if any(leaf[h] or hole_nuts[h] for h in green):
            return "in winter a green disk (dug up, nothing found) has no leaf and no nuts"
        return None

    if season == AUTUMN:
        problem = autumn_problem()
        if problem is None and phase == SHOVE and not any(on_tree):
            problem = "phase shove needs a branch end holding a nut"
    elif season == WINTER:
        problem = winter_problem()
        if problem is None and not any(white):
            problem = "in winter some disk is white (all green: the game is over)"
    else:
        problem = None
        if turn < game.turn_cap:
            problem = winter_problem()
            if problem is None and any(white):
                problem = "a game over before the turn cap has every disk green"
        elif autumn_problem() is not None and winter_problem() is not None:
            problem = "the disks fit neither autumn nor winter"
    if problem:
        _fail(problem)
    if season != OVER and turn >= game.turn_cap:
        _fail("turn %d has reached the turn cap %d: the game would be over" % (turn, game.turn_cap))

    state = State.__new__(State)
    state._game = game
    state._season, state._phase, state._current, state._turn = season, phase, current, turn
    state._shover = shove.get("shover")
    state._target = shove.get("target")
    state._end = shove.get("end")
    state._ends, state._white, state._leaf, state._hole_nuts = on_tree, white, leaf, hole_nuts
    state._leaves, state._nuts = leaves, nuts
    state._history = []
    state._apply_forced()
    return state
