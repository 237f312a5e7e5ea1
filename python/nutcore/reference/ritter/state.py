"""Ritter's state: the rules as implemented (docs/rules/ritter.md), plain and slow on purpose.

The state holds the whole truth: the stacks with their known tops (kind and who has seen it),
the pool of undrawn cards per kind, and every shout. What one seat knows is rendered by
`information_state_string`, `observation_tensor` and `resample_from_infostate`.
"""

from __future__ import annotations

import array
import operator
import random

from .actions import (
    CHANCE,
    FIRST_RIGHT_BASE,
    FIRST_SHOUT_BASE,
    FIRST_WRONG_BASE,
    HAZELNUT,
    ROLL_BASE,
    SHOUT_CHOICES,
    SILENT,
    TERMINAL,
    THIEVES,
    card_of_draw,
    check_action,
    draw_action,
)

PLACE, ROLL, MOVE, SHOUT, DRAW = "place", "roll", "move", "shout", "draw"
FIRST_RIGHT, FIRST_WRONG, FIRST_SHOUT = "first_right", "first_wrong", "first_shout"
TERMINAL_PHASE = "terminal"
PHASES = (PLACE, ROLL, MOVE, SHOUT, DRAW, FIRST_RIGHT, FIRST_WRONG, FIRST_SHOUT, TERMINAL_PHASE)
CHANCE_PHASES = (ROLL, DRAW, FIRST_RIGHT, FIRST_WRONG, FIRST_SHOUT)
FIRST_PHASES = (FIRST_RIGHT, FIRST_WRONG, FIRST_SHOUT)
DRAWING_PHASES = (SHOUT, DRAW) + FIRST_PHASES  # a drawer is set
KINDS = (HAZELNUT,) + THIEVES  # pool / card kinds, index 0 hazelnut, 1 + thief kind
SHOUT_CELLS = ("none", "hidden") + SHOUT_CHOICES  # the tensor's one-hot per seat

JSON_KEYS = (
    "game",
    "players",
    "phase",
    "current_player",
    "turn",
    "drawer",
    "roll",
    "knights",
    "scores",
    "carried",
    "stacks",
    "pool",
    "shouts",
    "card",
)
STACK_KEYS = ("bush", "cards", "top", "seen_by")
POOL_KEYS = ("hazelnuts",) + THIEVES


def _float32(values):
    """The values rounded to float32, as Python floats."""
    return array.array("f", values).tolist()


class State:
    """A Ritter position. Seat 0 starts; play passes to seat + 1 mod N; turn T is seat T mod N's."""

    def __init__(self, game):
        self._game = game
        n, b = game.num_players(), game.board.num_bushes
        self._phase = PLACE
        self._current = 0
        self._turn = 0
        self._drawer = None  # phases shout, draw, first_*
        self._roll = None  # phase move
        self._knights = [None] * n  # node ids
        self._scores = [0] * n
        self._carried = [0] * n
        self._cards = [game.stack_size] * b  # stack heights
        self._top = [None] * b  # a known thief on top: its name
        self._seen = [frozenset()] * b  # who has seen the known top
        self._pool = [game.hazelnuts] + [game.thieves_per_kind] * 3  # undrawn, per KINDS
        self._shouts = [None] * n  # None, "silent" or a thief's name
        self._card = None  # phases first_*: the card being resolved
        self._card_seen = frozenset()  # while resolving: who had seen the card (a known top)
        self._history = []
        self._apply_forced()

    # -- queries ---------------------------------------------------------------------------------

    def get_game(self):
        return self._game

    def num_players(self):
        return len(self._scores)

    def current_player(self):
        return self._current

    def is_chance_node(self):
        return self._phase in CHANCE_PHASES

    def is_terminal(self):
        return self._phase == TERMINAL_PHASE

    def phase(self):
        return self._phase

    def mover(self):
        """The seat whose turn it is (turn T belongs to seat T mod N)."""
        return self._turn % len(self._scores)

    def legal_actions(self):
        if self._phase == PLACE:
            return [b for b in range(self._game.board.num_bushes) if b not in self._knights]
        if self._phase == MOVE:
            return sorted(self.walk_ends(self._knights[self._current], self._roll))
        if self._phase == SHOUT:
            return [SILENT + i for i in range(len(SHOUT_CHOICES))]
        return []

    def chance_outcomes(self):
        if self._phase == ROLL:
            die = self._game.die
            return [(ROLL_BASE + k, die.count(k) / len(die)) for k in sorted(set(die))]
        if self._phase == DRAW:
            total = sum(self._pool)
            return [(draw_action(KINDS[i]), self._pool[i] / total) for i in range(4) if self._pool[i] > 0]
        for phase, base, seats in (
            (FIRST_RIGHT, FIRST_RIGHT_BASE, self._right_shouters),
            (FIRST_WRONG, FIRST_WRONG_BASE, self._wrong_shouters),
            (FIRST_SHOUT, FIRST_SHOUT_BASE, self._all_shouters),
        ):
            if self._phase == phase:
                candidates = seats()
                return [(base + s, 1 / len(candidates)) for s in candidates]
        return []

    def walk_ends(self, start, steps):
        """Every node where a walk of exactly `steps` steps from `start` can end (a set of ids)."""
        board = self._game.board
        ends, visited = set(), set()
        todo = [(start, None, steps)]
        while todo:
            item = todo.pop()
            if item in visited:
                continue
            visited.add(item)
            node, previous, left = item
            if left == 0:
                ends.add(node)
                continue
            onward = [m for m in board.neighbours[node] if m != previous]
            if not onward:  # stuck: no edge but the one it came by
                ends.add(node)
                continue
            for m in onward:
                if board.is_bush(m) and self._cards[m] == 0:
                    ends.add(m)  # entering an empty bush ends the walk
                else:
                    todo.append((m, node, left - 1))
        return ends

    def action_to_string(self, action):
        return self._game.action_names[check_action(action)]

    def string_to_action(self, text):
        if not isinstance(text, str) or text not in self._game.action_ids:
            raise ValueError("ritter: unknown action %r" % (text,))
        return self._game.action_ids[text]

    def scores(self):
        return list(self._scores)

    def returns(self):
        n = len(self._scores)
        if not self.is_terminal():
            return [0.0] * n
        best = max(self._scores)
        winners = [p for p in range(n) if self._scores[p] == best]
        share = 1.0 / len(winners)
        return [share if p in winners else 0.0 for p in range(n)]

    def history(self):
        return list(self._history)

    def empty_stacks(self):
        return sum(1 for c in self._cards if c == 0)

    def revealed(self):
        """Cards revealed so far: [hazelnuts drawn, Max, Leo, Fritz removed from play]. The card being
        resolved in phases first_* has left its stack and counts as drawn (a hazelnut) or removed."""
        g = self._game
        tops = [sum(1 for t in self._top if t == name) for name in THIEVES]
        return [g.hazelnuts - self._pool[0]] + [g.thieves_per_kind - self._pool[1 + k] - tops[k] for k in range(3)]

    def clone(self):
        twin = State.__new__(State)
        twin.__dict__.update(self.__dict__)
        for key in ("_knights", "_scores", "_carried", "_cards", "_top", "_seen", "_pool", "_shouts", "_history"):
            setattr(twin, key, list(getattr(self, key)))
        return twin

    __copy__ = clone

    def __deepcopy__(self, memo):
        return self.clone()

    # -- moves -----------------------------------------------------------------------------------

    def apply_action(self, action):
        action = check_action(action)
        if self.is_terminal():
            raise ValueError("ritter: the game is over; no action %s can be applied" % self.action_to_string(action))
        if self.is_chance_node():
            allowed = [a for a, _ in self.chance_outcomes()]
        else:
            allowed = self.legal_actions()
        if action not in allowed:
            raise ValueError(
                "ritter: illegal action %s in phase %s; legal: %s"
                % (self.action_to_string(action), self._phase, ", ".join(self.action_to_string(a) for a in allowed))
            )
        self._history.append(action)
        self._do(action)
        self._apply_forced()

    def _apply_forced(self):
        """A decision with exactly one legal action is taken at once (not in the history)."""
        while self._phase in (PLACE, MOVE):
            legal = self.legal_actions()
            if len(legal) != 1:
                break
            self._do(legal[0])

    def _do(self, action):
        n = len(self._scores)
        phase = self._phase
        if phase == PLACE:
            seat = self._current
            self._knights[seat] = action
            if seat + 1 == n:
                self._start_turn()
            else:
                self._current = seat + 1
        elif phase == ROLL:
            self._set_roll(action - ROLL_BASE)
        elif phase == MOVE:
            self._arrive(action)
        elif phase == SHOUT:
            self._shouts[self._current] = SHOUT_CHOICES[action - SILENT]
            following = (self._current + 1) % n
            if following == self._drawer:
                self._reveal()
            else:
                self._current = following
        elif phase == DRAW:
            self._take(card_of_draw(action), from_pool=True)
        elif phase == FIRST_RIGHT:
            self._reward(action - FIRST_RIGHT_BASE)
            self._resolve_wrong()
        elif phase == FIRST_WRONG:
            self._penalize(action - FIRST_WRONG_BASE)
            self._finish_card()
        elif phase == FIRST_SHOUT:
            self._count_shout(action - FIRST_SHOUT_BASE)
            self._finish_card()
        else:  # pragma: no cover - apply_action checks first
            raise AssertionError(phase)

    def _start_turn(self):
        self._phase, self._current, self._roll = ROLL, CHANCE, None
        faces = set(self._game.die)
        if len(faces) == 1:  # a chance node with one outcome is not a node
            self._set_roll(faces.pop())

    def _set_roll(self, k):
        self._roll = k
        self._phase = MOVE
        self._current = self.mover()

    def _arrive(self, node):
        g = self._game
        mover = self.mover()
        self._knights[mover] = node
        self._roll = None
        if not g.board.is_bush(node):  # a hiding place: deliver
            points = g.delivery_value(self._carried[mover])
            self._carried[mover] = 0
            self._scores[mover] = min(g.score_target, self._scores[mover] + points)
            if self._scores[mover] >= g.score_target:
                self._end_game()
            else:
                self._end_turn()
        elif self._cards[node] == 0:
            self._end_turn()
        else:
            self._drawer = mover
            self._shouts = [None] * len(self._scores)
            self._phase = SHOUT
            self._current = (mover + 1) % len(self._scores)

    def _reveal(self):
        """All shouts are made: the card comes off the stack (a chance node unless it is known)."""
        bush = self._knights[self._drawer]
        if self._top[bush] is not None:
            self._take(self._top[bush], from_pool=False)
            return
        kinds = [KINDS[i] for i in range(4) if self._pool[i] > 0]
        if len(kinds) == 1:
            self._take(kinds[0], from_pool=True)
        else:
            self._phase, self._current = DRAW, CHANCE

    def _take(self, card, from_pool):
        bush = self._knights[self._drawer]
        self._cards[bush] -= 1
        if from_pool:
            self._pool[KINDS.index(card)] -= 1
            self._card_seen = frozenset()
        else:
            self._card_seen = self._seen[bush]
            self._top[bush] = None
            self._seen[bush] = frozenset()
        self._card = card
        if self._game.shout_resolution == "separate":
            self._resolve_right()
        else:
            self._resolve_first_only()

    # Shouters in seat order.
    def _right_shouters(self):
        return [s for s, x in enumerate(self._shouts) if x is not None and x == self._card]

    def _wrong_shouters(self):
        return [s for s, x in enumerate(self._shouts) if x in THIEVES and x != self._card]

    def _all_shouters(self):
        return [s for s, x in enumerate(self._shouts) if x in THIEVES]

    def _resolve_right(self):
        right = self._right_shouters()
        if len(right) >= 2:
            self._phase, self._current = FIRST_RIGHT, CHANCE
            return
        if right:
            self._reward(right[0])
        self._resolve_wrong()

    def _resolve_wrong(self):
        wrong = self._wrong_shouters()
        if len(wrong) >= 2:
            self._phase, self._current = FIRST_WRONG, CHANCE
            return
        if wrong:
            self._penalize(wrong[0])
        self._finish_card()

    def _resolve_first_only(self):
        shouters = self._all_shouters()
        if len(shouters) >= 2:
            self._phase, self._current = FIRST_SHOUT, CHANCE
            return
        if shouters:
            self._count_shout(shouters[0])
        self._finish_card()

    def _count_shout(self, seat):
        if self._shouts[seat] == self._card:
            self._reward(seat)
        else:
            self._penalize(seat)

    def _reward(self, seat):
        g = self._game
        self._scores[seat] = min(g.score_target, self._scores[seat] + g.shout_points)
        self._carried[self._drawer] = 0

    def _penalize(self, seat):
        g = self._game
        self._scores[seat] = max(g.score_floor, self._scores[seat] - g.shout_points)

    def _finish_card(self):
        drawer, card = self._drawer, self._card
        bush = self._knights[drawer]
        if card == HAZELNUT:
            self._carried[drawer] += 1
        elif not self._all_shouters():  # nobody shouted: back on top, the drawer has seen it
            self._cards[bush] += 1
            self._top[bush] = card
            self._seen[bush] = self._card_seen | {drawer}
        # else: a thief that drew a shout is removed from play
        self._drawer, self._card, self._card_seen = None, None, frozenset()
        self._shouts = [None] * len(self._scores)
        if max(self._scores) >= self._game.score_target:
            self._end_game()
        else:
            self._end_turn()

    def _end_turn(self):
        g = self._game
        self._turn += 1
        if self.empty_stacks() >= g.empty_stacks_to_end or self._turn >= g.turn_cap:
            self._end_game()
        else:
            self._start_turn()

    def _end_game(self):
        self._phase, self._current = TERMINAL_PHASE, TERMINAL
        self._drawer = self._roll = self._card = None
        self._card_seen = frozenset()
        self._shouts = [None] * len(self._scores)

    # -- the canonical JSON ----------------------------------------------------------------------

    def to_json(self):
        names = self._game.board.names
        return {
            "game": "ritter",
            "players": len(self._scores),
            "phase": self._phase,
            "current_player": self._current,
            "turn": self._turn,
            "drawer": self._drawer,
            "roll": self._roll,
            "knights": [None if k is None else names[k] for k in self._knights],
            "scores": list(self._scores),
            "carried": list(self._carried),
            "stacks": [
                {"bush": names[b], "cards": self._cards[b], "top": self._top[b], "seen_by": sorted(self._seen[b])}
                for b in range(len(self._cards))
            ],
            "pool": dict(zip(POOL_KEYS, self._pool)),
            "shouts": list(self._shouts),
            "card": self._card,
        }

    def _key(self):
        return (
            self._phase,
            self._current,
            self._turn,
            self._drawer,
            self._roll,
            tuple(self._knights),
            tuple(self._scores),
            tuple(self._carried),
            tuple(self._cards),
            tuple(self._top),
            tuple(self._seen),
            tuple(self._pool),
            tuple(self._shouts),
            self._card,
        )

    def __eq__(self, other):
        if not isinstance(other, State):
            return NotImplemented
        return self._game == other._game and self._key() == other._key()

    __hash__ = None

    # -- what one seat knows ---------------------------------------------------------------------

    def _check_player(self, player):
        n = len(self._scores)
        try:
            seat = None if isinstance(player, bool) else operator.index(player)
        except TypeError:
            seat = None
        if seat is None or not 0 <= seat < n:
            raise ValueError("ritter: player must be a seat 0..%d, not %r" % (n - 1, player))
        return seat

    def _shout_seen_by(self, seat, viewer):
        """What `viewer` sees of `seat`'s shout: None (-), "?" (hidden) or the shout."""
        shout = self._shouts[seat]
        if shout is None:
            return None
        if seat == viewer or self._phase in FIRST_PHASES:
            return shout
        return "?"

    def _phase_line(self):
        names = self._game.board.names
        t = self._turn
        if self._phase == PLACE:
            return "setup: seat %d places" % self._current
        if self._phase == ROLL:
            return "turn %d: seat %d rolls" % (t, self.mover())
        if self._phase == MOVE:
            return "turn %d: seat %d moves %d" % (t, self.mover(), self._roll)
        if self._phase in DRAWING_PHASES:
            where = names[self._knights[self._drawer]]
            if self._phase == SHOUT:
                return "turn %d: seat %d draws at %s; seat %d shouts" % (t, self._drawer, where, self._current)
            if self._phase == DRAW:
                return "turn %d: seat %d draws at %s" % (t, self._drawer, where)
            return "turn %d: seat %d drew %s at %s" % (t, self._drawer, self._card, where)
        return "turn %d: game over" % t

    def observe_action(self, action, player):
        """What `player` sees of `action` (legal here) as it is played: (text, whole), whole when it
        knows which action it was. Others' shouts stay secret until the card is resolved; the event
        that resolves it tells the card (unless it is a thief nobody shouted at, which only the
        drawer and those who saw it before know) and every shout, right or wrong."""
        p = self._check_player(player)
        self._check_playable(action)
        text = self.action_to_string(action)
        phase, drawer = self._phase, self._drawer
        if phase not in (SHOUT, DRAW):
            return text, True
        # Play it on a copy and catch the card as it comes off the stack.
        after = self.clone()
        taken = []
        take = after._take

        def catch(card, from_pool):
            bush = after._knights[after._drawer]
            taken.append((card, list(after._shouts), frozenset() if from_pool else after._seen[bush]))
            take(card, from_pool)

        after._take = catch
        after._do(action)
        seen, whole = text, True
        if phase == SHOUT and self._current != p:
            seen, whole = "a secret shout", False
        if not taken:
            return seen, whole
        card, shouts, seen_before = taken[0]
        known = card == HAZELNUT or any(x in THIEVES for x in shouts) or p == drawer or p in seen_before
        if phase == DRAW:
            seen, whole = (text, True) if known else ("draw a thief", False)
        else:
            seen += "; card: " + (card if known else "a thief")
        parts = []
        for seat, x in enumerate(shouts):
            if seat != drawer:
                verdict = "" if x == "silent" else " (right)" if x == card else " (wrong)"
                parts.append("seat %d %s%s" % (seat, x, verdict))
        return seen + "; shouts: " + ", ".join(parts), whole

    def _check_playable(self, action):
        action = check_action(action)
        allowed = [a for a, _ in self.chance_outcomes()] if self.is_chance_node() else self.legal_actions()
        if self.is_terminal() or action not in allowed:
            raise ValueError("ritter: action %s is not legal here" % self.action_to_string(action))
        return action

    def information_state_string(self, player):
        p = self._check_player(player)
        names = self._game.board.names
        stacks = []
        for b, height in enumerate(self._cards):
            text = "%s %d" % (names[b], height)
            if self._top[b] is not None:
                kind = self._top[b] if p in self._seen[b] else "?"
                text += " top %s seen %s" % (kind, "".join(str(s) for s in sorted(self._seen[b])))
            stacks.append(text)
        shown = [self._shout_seen_by(s, p) for s in range(len(self._shouts))]
        lines = [
            "view of seat %d" % p,
            self._phase_line(),
            "knights: " + " ".join("-" if k is None else names[k] for k in self._knights),
            "scores: " + " ".join(str(x) for x in self._scores),
            "carried: " + " ".join(str(x) for x in self._carried),
            "stacks: " + ", ".join(stacks),
            "revealed: hazelnuts %d, Max %d, Leo %d, Fritz %d" % tuple(self.revealed()),
            "shouts: " + " ".join("-" if x is None else x for x in shown),
        ]
        return "\n".join(lines)

    def observation_string(self, player):
        return self.information_state_string(player)

    def observation_tensor(self, player):
        p = self._check_player(player)
        g = self._game
        n, v, nb = len(self._scores), g.board.num_nodes, g.board.num_bushes

        def one_hot(size, index):
            cells = [0.0] * size
            if index is not None:
                cells[index] = 1.0
            return cells

        out = []
        out += one_hot(n, p)
        out += one_hot(n, self._current if self._current >= 0 else None)
        out += one_hot(len(PHASES), PHASES.index(self._phase))
        out += one_hot(6, self._roll - 1 if self._phase == MOVE else None)
        out += one_hot(n, self._drawer if self._phase in DRAWING_PHASES else None)
        for s in range(n):
            out += one_hot(v, self._knights[s])
        out += [x / g.score_target for x in self._scores]
        out += [c / 4 for c in self._carried]
        out += [c / g.stack_size for c in self._cards]
        out += [1.0 if t is not None else 0.0 for t in self._top]
        for b in range(nb):
            seen = self._top[b] is not None and p in self._seen[b]
            out += one_hot(3, THIEVES.index(self._top[b]) if seen else None)
        for b in range(nb):
            out += [1.0 if s in self._seen[b] else 0.0 for s in range(n)]
        rev = self.revealed()
        out += [rev[0] / max(1, g.hazelnuts)] + [r / max(1, g.thieves_per_kind) for r in rev[1:]]
        for s in range(n):
            x = self._shout_seen_by(s, p)
            out += one_hot(6, SHOUT_CELLS.index("none" if x is None else "hidden" if x == "?" else x))
        out += one_hot(4, KINDS.index(self._card) if self._phase in FIRST_PHASES else None)
        assert len(out) == g.observation_tensor_shape()[0]
        return _float32(out)

    def resample_from_infostate(self, player, seed):
        """A full state drawn from the posterior given `player`'s view (docs/rules/ritter.md,
        "Information"), with Python's `random.Random(seed)`: the kinds of the known tops the player
        has not seen, one after another in node order, in proportion to the thieves of each kind the
        player cannot place; the pool is what remains; others' hidden shouts uniformly."""
        p = self._check_player(player)
        rng = random.Random(seed)
        g = self._game
        twin = self.clone()
        removed = self.revealed()[1:]
        free = [g.thieves_per_kind - removed[k] for k in range(3)]  # thieves p cannot place yet
        for b, top in enumerate(self._top):
            if top is not None and p in self._seen[b]:
                free[THIEVES.index(top)] -= 1
        for b, top in enumerate(self._top):
            if top is None or p in self._seen[b]:
                continue
            k = rng.choices(range(3), weights=free)[0]
            free[k] -= 1
            twin._top[b] = THIEVES[k]
        for k in range(3):
            tops = sum(1 for t in twin._top if t == THIEVES[k])
            twin._pool[1 + k] = g.thieves_per_kind - removed[k] - tops
        if self._phase in (SHOUT, DRAW):
            for s, shout in enumerate(self._shouts):
                if shout is not None and s != p:
                    twin._shouts[s] = rng.choice(SHOUT_CHOICES)
        twin._history = []
        return twin

    # -- text ------------------------------------------------------------------------------------

    def __str__(self):
        g = self._game
        names = g.board.names
        lines = [
            "Die Ritter von der Haselnuss, %d players: phase %s; %s"
            % (len(self._scores), self._phase, self._phase_line())
        ]
        for s in range(len(self._scores)):
            where = "-" if self._knights[s] is None else names[self._knights[s]]
            shout = "" if self._shouts[s] is None else ", shouts %s" % self._shouts[s]
            lines.append(
                "seat %d: at %s, score %d, carries %d%s" % (s, where, self._scores[s], self._carried[s], shout)
            )
        for b, height in enumerate(self._cards):
            top = ""
            if self._top[b] is not None:
                top = ", top %s seen by %s" % (self._top[b], ",".join(map(str, sorted(self._seen[b]))))
            lines.append("%s: %d cards%s" % (names[b], height, top))
        lines.append("pool: " + ", ".join("%s %d" % kv for kv in zip(POOL_KEYS, self._pool)))
        if self._card is not None:
            lines.append("card being resolved: %s" % self._card)
        return "\n".join(lines)

    def __repr__(self):
        return "<ritter.State %s turn %d player %d>" % (self._phase, self._turn, self._current)
