"""Nutz!'s state: the rules as implemented (docs/rules/nutz.md), plain and slow on purpose.

The state holds the whole truth: every hand, the deck, the columns with their face-down cards and
the cards discarded unseen. What one seat knows is rendered by `information_state_string`,
`observation_tensor` and `resample_from_infostate`.
"""

from __future__ import annotations

import array
import operator
import random

from .actions import (
    APPLY_BASE,
    CHANCE,
    DEAL_BASE,
    PLAY_BASE,
    SQUIRREL_BASE,
    TAKE_BASE,
    TERMINAL,
    check_action,
    decode_summer,
    summer_action,
)

SQUIRRELS, DEAL, SUMMER, WINTER, PREDATORS, FINAL = "squirrels", "deal", "summer", "winter", "predators", "final"
TERMINAL_PHASE = "terminal"
PHASES = (SQUIRRELS, DEAL, SUMMER, WINTER, PREDATORS, FINAL, TERMINAL_PHASE)
CHANCE_PHASES = (SQUIRRELS, DEAL)
DECISION_PHASES = (SUMMER, WINTER, PREDATORS, FINAL)

HAND_SIZE = 5
DEAL_LATER = 3
PLAYS_PER_SEAT = 3
COLUMN_SIZE = 3

JSON_KEYS = (
    "game",
    "players",
    "phase",
    "current_player",
    "round",
    "turn",
    "step",
    "squirrels",
    "tokens",
    "supply",
    "last_tree",
    "last_squirrel_token",
    "hands",
    "trees",
    "taken",
    "pending",
    "displays",
    "deck",
    "revealed",
    "discarded_unseen",
)
CARD_KEYS = ("card", "face_down", "by")


def _float32(values):
    """The values rounded to float32, as Python floats."""
    return array.array("f", values).tolist()


def _card_list(names):
    return " ".join(names) if names else "-"


class State:
    """A Nutz! position. Trees are numbered 1..N+1 in the rules and the JSON, 0..N in the lists."""

    def __init__(self, game):
        self._game = game
        n, c, y, k = game.num_players(), game.num_trees(), len(game.types), len(game.kinds)
        self._phase = SQUIRRELS
        self._current = CHANCE
        self._round = 1
        self._turn = 0
        self._step = 0
        self._squirrels = [None] * n  # 1..N+1
        self._tokens = [0] * n
        self._supply = game.moon_tokens
        self._last_tree = 0
        self._last_squirrel = 0
        self._hands = [[0] * y for _ in range(n)]  # per seat, cards per type
        self._trees = [[] for _ in range(c)]  # per tree, (type, face_down, by) in play order
        self._taken = [None] * c  # per tree, the seat that took it this winter
        self._pending = [0] * k  # pending predators per kind
        self._displays = [[0] * k for _ in range(n)]  # per seat, cards per kind (food kinds only)
        self._deck = [t.count for t in game.types]
        self._revealed = [0] * y
        self._discarded = [[0] * y for _ in range(n)]  # per seat, its face-down cards discarded unseen
        self._history = []

    # -- queries ---------------------------------------------------------------------------------

    def get_game(self):
        return self._game

    def num_players(self):
        return len(self._tokens)

    def current_player(self):
        return self._current

    def is_chance_node(self):
        return self._phase in CHANCE_PHASES

    def is_terminal(self):
        return self._phase == TERMINAL_PHASE

    def phase(self):
        return self._phase

    def order(self):
        """The seats in the order of play (by squirrel number); [] before every number is dealt."""
        if any(s is None for s in self._squirrels):
            return []
        return sorted(range(len(self._squirrels)), key=lambda s: self._squirrels[s])

    def legal_actions(self):
        g = self._game
        seat = self._current
        if self._phase == SUMMER:
            actions = []
            for t, held in enumerate(self._hands[seat]):
                if not held:
                    continue
                for tree in range(1, g.num_trees() + 1):
                    if len(self._trees[tree - 1]) < COLUMN_SIZE:
                        actions.append(summer_action(t, tree, False))
                        if self._tokens[seat] > 0:
                            actions.append(summer_action(t, tree, True))
            return actions
        if self._phase == WINTER:
            return [TAKE_BASE + j + 1 for j, s in enumerate(self._taken) if s is None]
        if self._phase == PREDATORS:
            return [APPLY_BASE + k for k, count in enumerate(self._pending) if count]
        if self._phase == FINAL:
            kinds = {g.types[t].kind for t, held in enumerate(self._hands[seat]) if held}
            return [PLAY_BASE + k for k in sorted(kinds)]
        return []

    def chance_outcomes(self):
        if self._phase == SQUIRRELS:
            left = [k for k in range(1, len(self._squirrels) + 2) if k not in self._squirrels]
            return [(SQUIRREL_BASE + k, 1 / len(left)) for k in left]
        if self._phase == DEAL:
            total = sum(self._deck)
            return [(DEAL_BASE + t, count / total) for t, count in enumerate(self._deck) if count]
        return []

    def action_to_string(self, action):
        return self._game.action_names[check_action(action)]

    def string_to_action(self, text):
        if not isinstance(text, str) or text not in self._game.action_ids:
            raise ValueError("nutz: unknown action %r" % (text,))
        return self._game.action_ids[text]

    def scores(self):
        kinds = self._game.kinds
        return [sum(kinds[k].points(d[k]) for k in self._game.food_kinds) for d in self._displays]

    def returns(self):
        n = len(self._tokens)
        if not self.is_terminal():
            return [0.0] * n
        scores = self.scores()
        best = max(scores)
        winners = [p for p in range(n) if scores[p] == best]
        share = 1.0 / len(winners)
        return [share if p in winners else 0.0 for p in range(n)]

    def history(self):
        return list(self._history)

    def clone(self):
        twin = State.__new__(State)
        twin.__dict__.update(self.__dict__)
        for key in ("_squirrels", "_tokens", "_taken", "_pending", "_deck", "_revealed", "_history"):
            setattr(twin, key, list(getattr(self, key)))
        for key in ("_hands", "_trees", "_displays", "_discarded"):
            setattr(twin, key, [list(x) for x in getattr(self, key)])
        return twin

    __copy__ = clone

    def __deepcopy__(self, memo):
        return self.clone()

    # -- moves -----------------------------------------------------------------------------------

    def apply_action(self, action):
        action = check_action(action)
        if self.is_terminal():
            raise ValueError("nutz: the game is over; no action %s can be applied" % self.action_to_string(action))
        if self.is_chance_node():
            allowed = [a for a, _ in self.chance_outcomes()]
        else:
            allowed = self.legal_actions()
        if action not in allowed:
            raise ValueError(
                "nutz: illegal action %s in phase %s; legal: %s"
                % (self.action_to_string(action), self._phase, ", ".join(self.action_to_string(a) for a in allowed))
            )
        self._history.append(action)
        self._do(action)
        self._apply_forced()

    def _apply_forced(self):
        """A decision with exactly one legal action is taken at once (not in the history)."""
        while self._phase in DECISION_PHASES:
            legal = self.legal_actions()
            if len(legal) != 1:
                break
            self._do(legal[0])

    def _do(self, action):
        phase = self._phase
        if phase == SQUIRRELS:
            self._deal_squirrel(action - SQUIRREL_BASE)
        elif phase == DEAL:
            self._deal_card(action - DEAL_BASE)
        elif phase == SUMMER:
            self._play_summer(*decode_summer(action))
        elif phase == WINTER:
            self._take(action - TAKE_BASE)
        elif phase == PREDATORS:
            self._apply_pending(action - APPLY_BASE)
        elif phase == FINAL:
            self._play_final(action - PLAY_BASE)
        else:  # pragma: no cover - apply_action checks first
            raise AssertionError(phase)

    # Squirrels and set-up.
    def _deal_squirrel(self, number):
        g = self._game
        n = len(self._squirrels)
        self._squirrels[self._step] = number
        if self._step + 1 < n:
            self._step += 1
            return
        last = self.order()[-1]
        self._last_tree = g.last_tree_tokens - 1
        self._last_squirrel = 1
        self._tokens = [2 if s == last else 1 for s in range(n)]
        self._supply = g.moon_tokens - g.last_tree_tokens - (n + 1)
        self._start_deal()

    def _start_deal(self):
        self._phase, self._current, self._step = DEAL, CHANCE, 0

    def _deal_card(self, t):
        n = len(self._tokens)
        self._deck[t] -= 1
        self._hands[self._step][t] += 1
        if sum(self._hands[self._step]) == HAND_SIZE:
            self._step += 1
            if self._step == n:
                self._phase, self._step = SUMMER, 0
                self._enter_summer_turn()

    # Summer.
    def _enter_summer_turn(self):
        if self._turn >= self._game.turn_cap:
            self._end_game()
            return
        order = self.order()
        self._current = order[self._step % len(order)]

    def _play_summer(self, t, tree, down):
        seat = self._current
        n = len(self._tokens)
        self._hands[seat][t] -= 1
        self._trees[tree - 1].append((t, down, seat))
        if down:
            self._tokens[seat] -= 1
        else:
            self._revealed[t] += 1
        self._turn += 1
        self._step += 1
        if self._step == PLAYS_PER_SEAT * n:
            self._phase, self._step = WINTER, 0
            self._enter_winter_turn()
        else:
            self._enter_summer_turn()

    # Winter and predators.
    def _enter_winter_turn(self):
        if self._turn >= self._game.turn_cap:
            self._end_game()
            return
        self._phase = WINTER
        self._current = self.order()[self._step]

    def _take(self, tree):
        g = self._game
        seat = self._current
        column = self._trees[tree - 1]
        gained, icons = 0, 0
        for t, down, _ in column:
            card = g.types[t]
            if down:
                self._revealed[t] += 1
                gained += 1
            icons += card.moons
            if g.kinds[card.kind].food:
                self._displays[seat][card.kind] += 1
            else:
                self._pending[card.kind] += 1
        if tree == g.num_trees() and self._last_squirrel:
            self._last_squirrel = 0
            gained += 1
        self._tokens[seat] += gained
        if self._tokens[seat] > g.token_cap:
            self._supply += self._tokens[seat] - g.token_cap
            self._tokens[seat] = g.token_cap
        for _ in range(icons):
            if self._supply > 0 and self._tokens[seat] < g.token_cap:
                self._supply -= 1
                self._tokens[seat] += 1
        self._trees[tree - 1] = []
        self._taken[tree - 1] = seat
        self._turn += 1
        if any(self._pending):
            self._phase = PREDATORS
        else:
            self._next_taker()

    def _apply_pending(self, kind):
        self._pending[kind] -= 1
        self._predator(kind, self._current)
        if not any(self._pending):
            self._next_taker()

    def _next_taker(self):
        self._step += 1
        if self._step == len(self._tokens):
            self._end_round()
        else:
            self._enter_winter_turn()

    def _predator(self, kind, seat):
        """Apply a predator of `kind` collected or played by `seat` to its target displays."""
        g = self._game
        pred = g.kinds[kind].predator
        n = len(self._tokens)
        if pred["target"] == "self":
            targets = [seat]
        elif pred["target"] == "others":
            targets = [s for s in range(n) if s != seat]
        else:
            targets = list(range(n))
        for s in targets:
            display = self._displays[s]
            if pred["discard"] == "all":
                for k in pred["of"]:
                    display[k] = 0
                continue
            for _ in range(pred["count"]):
                present = [k for k in pred["of"] if display[k] > 0]
                if not present:
                    break
                best = max(present, key=lambda k: (g.kinds[k].score[1], -k))
                display[best] -= 1

    # The end of the round, the final phase.
    def _end_round(self):
        g = self._game
        c = g.num_trees()
        for j in range(c):
            if self._taken[j] is not None:
                continue
            for t, down, by in self._trees[j]:
                if down:
                    self._discarded[by][t] += 1
                    self._supply += 1
            self._trees[j] = []
            if j == c - 1 and self._last_squirrel:
                self._last_squirrel = 0
                self._supply += 1
        for j, seat in enumerate(self._taken):
            if seat is not None:
                self._squirrels[seat] = j + 1
        self._taken = [None] * c
        if self._last_tree == 0:
            self._phase, self._step = FINAL, 0
            self._current = self.order()[0]
            return
        self._last_tree -= 1
        self._last_squirrel = 1
        self._round += 1
        self._start_deal()

    def _play_final(self, kind):
        g = self._game
        seat = self._current
        hand = self._hands[seat]
        t = min(t for t, held in enumerate(hand) if held and g.types[t].kind == kind)
        hand[t] -= 1
        self._revealed[t] += 1
        if g.kinds[kind].food:
            self._displays[seat][kind] += 1
        else:
            self._predator(kind, seat)
        if sum(hand) == 0:
            self._step += 1
            if self._step == len(self._tokens):
                self._end_game()
            else:
                self._current = self.order()[self._step]

    def _end_game(self):
        self._phase, self._current, self._step = TERMINAL_PHASE, TERMINAL, 0
        self._taken = [None] * len(self._taken)

    # -- the canonical JSON ----------------------------------------------------------------------

    def _hand_names(self, seat):
        names = self._game.type_names
        return [names[t] for t, held in enumerate(self._hands[seat]) for _ in range(held)]

    def to_json(self):
        g = self._game
        names, kinds = g.type_names, g.kind_names
        return {
            "game": "nutz",
            "players": len(self._tokens),
            "phase": self._phase,
            "current_player": self._current,
            "round": self._round,
            "turn": self._turn,
            "step": self._step,
            "squirrels": list(self._squirrels),
            "tokens": list(self._tokens),
            "supply": self._supply,
            "last_tree": self._last_tree,
            "last_squirrel_token": self._last_squirrel,
            "hands": [self._hand_names(s) for s in range(len(self._tokens))],
            "trees": [
                [{"card": names[t], "face_down": down, "by": by} for t, down, by in column] for column in self._trees
            ],
            "taken": list(self._taken),
            "pending": [kinds[k] for k, count in enumerate(self._pending) for _ in range(count)],
            "displays": [{kinds[k]: d[k] for k in g.food_kinds} for d in self._displays],
            "deck": dict(zip(names, self._deck)),
            "revealed": dict(zip(names, self._revealed)),
            "discarded_unseen": [dict(zip(names, d)) for d in self._discarded],
        }

    def _key(self):
        return (
            self._phase,
            self._current,
            self._round,
            self._turn,
            self._step,
            tuple(self._squirrels),
            tuple(self._tokens),
            self._supply,
            self._last_tree,
            self._last_squirrel,
            tuple(map(tuple, self._hands)),
            tuple(map(tuple, self._trees)),
            tuple(self._taken),
            tuple(self._pending),
            tuple(map(tuple, self._displays)),
            tuple(self._deck),
            tuple(self._revealed),
            tuple(map(tuple, self._discarded)),
        )

    def __eq__(self, other):
        if not isinstance(other, State):
            return NotImplemented
        return self._game == other._game and self._key() == other._key()

    __hash__ = None

    # -- what one seat knows ---------------------------------------------------------------------

    def _check_player(self, player):
        n = len(self._tokens)
        try:
            seat = None if isinstance(player, bool) else operator.index(player)
        except TypeError:
            seat = None
        if seat is None or not 0 <= seat < n:
            raise ValueError("nutz: player must be a seat 0..%d, not %r" % (n - 1, player))
        return seat

    def unseen(self, player):
        """Per type, the cards `player` has not seen: the type's cards minus the revealed ones, its
        own hand, its own face-down cards in the columns and its own cards discarded unseen."""
        g = self._game
        out = []
        for t, card in enumerate(g.types):
            mine = self._hands[player][t] + self._discarded[player][t]
            mine += sum(1 for column in self._trees for u, down, by in column if u == t and down and by == player)
            out.append(card.count - self._revealed[t] - mine)
        return out

    def _phase_text(self):
        s = self._current
        if self._phase == SQUIRRELS:
            return "seat %d is dealt a squirrel" % self._step
        if self._phase == DEAL:
            return "seat %d is dealt a card" % self._step
        if self._phase == SUMMER:
            return "summer, seat %d plays" % s
        if self._phase == WINTER:
            return "winter, seat %d takes" % s
        if self._phase == PREDATORS:
            return "seat %d applies predators" % s
        if self._phase == FINAL:
            return "seat %d plays its last cards" % s
        return "game over"

    def observe_action(self, action, player):
        """What `player` sees of `action` (legal here) as it is played: (text, whole), whole when it
        knows which action it was. A card dealt to another seat and another seat's face-down play
        show only their public part; taking a tree tells the face-down cards it turns over."""
        p = self._check_player(player)
        action = check_action(action)
        allowed = [a for a, _ in self.chance_outcomes()] if self.is_chance_node() else self.legal_actions()
        if self.is_terminal() or action not in allowed:
            raise ValueError("nutz: action %s is not legal here" % self.action_to_string(action))
        text = self.action_to_string(action)
        if self._phase == DEAL and self._step != p:
            return "deal a card to seat %d" % self._step, False
        if self._phase == SUMMER:
            _, tree, down = decode_summer(action)
            if down and self._current != p:
                return "a card face down to tree %d" % tree, False
        if self._phase == WINTER:
            names = self._game.type_names
            down = [names[t] for t, face_down, _ in self._trees[action - TAKE_BASE - 1] if face_down]
            if down:
                return text + "; face down: " + ", ".join(down), True
        return text, True

    def information_state_string(self, player):
        p = self._check_player(player)
        g = self._game
        names, kinds = g.type_names, g.kind_names
        n = len(self._tokens)
        order = self.order() if self._phase != SQUIRRELS else []
        lines = [
            "view of seat %d" % p,
            "round %d, turn %d: %s" % (self._round, self._turn, self._phase_text()),
            "squirrels: " + " ".join("-" if k is None else str(k) for k in self._squirrels),
            "order: " + (" ".join(map(str, order)) if order else "-"),
            "tokens: %s, supply %d, last tree %d, last squirrel %d"
            % (" ".join(map(str, self._tokens)), self._supply, self._last_tree, self._last_squirrel),
            "hand: " + _card_list(self._hand_names(p)),
            "hand sizes: " + " ".join(str(sum(h)) for h in self._hands),
        ]
        for j, column in enumerate(self._trees):
            if self._taken[j] is not None:
                text = "taken by %d" % self._taken[j]
            elif not column:
                text = "-"
            else:
                entries = []
                for t, down, by in column:
                    if not down:
                        entries.append("%s by %d" % (names[t], by))
                    elif by == p:
                        entries.append("%s face down by %d" % (names[t], by))
                    else:
                        entries.append("? face down by %d" % by)
                text = ", ".join(entries)
            lines.append("tree %d: %s" % (j + 1, text))
        pending = [kinds[k] for k, count in enumerate(self._pending) for _ in range(count)]
        lines.append("pending: " + _card_list(pending))
        for s in range(n):
            lines.append(
                "display %d: %s" % (s, ", ".join("%s %d" % (kinds[k], self._displays[s][k]) for k in g.food_kinds))
            )
        lines.append("revealed: " + ", ".join("%s %d" % kv for kv in zip(names, self._revealed)))
        lines.append("unseen: " + ", ".join("%s %d" % kv for kv in zip(names, self.unseen(p))))
        mine = [names[t] for t, count in enumerate(self._discarded[p]) for _ in range(count)]
        lines.append(
            "discarded unseen: %s; mine: %s" % (" ".join(str(sum(d)) for d in self._discarded), _card_list(mine))
        )
        lines.append("deck: %d" % sum(self._deck))
        return "\n".join(lines)

    def observation_string(self, player):
        return self.information_state_string(player)

    def observation_tensor(self, player):
        p = self._check_player(player)
        g = self._game
        n, c, y = len(self._tokens), g.num_trees(), len(g.types)

        def one_hot(size, index):
            cells = [0.0] * size
            if index is not None:
                cells[index] = 1.0
            return cells

        out = []
        out += one_hot(n, p)
        out += one_hot(n, self._current if self._current >= 0 else None)
        out += one_hot(len(PHASES), PHASES.index(self._phase))
        out += [self._round, self._turn]
        for k in self._squirrels:
            out += one_hot(c, None if k is None else k - 1)
        out += list(self._tokens) + [self._supply, self._last_tree, self._last_squirrel]
        out += list(self._hands[p])
        out += [sum(h) for h in self._hands]
        for j, column in enumerate(self._trees):
            taken = 1.0 if self._taken[j] is not None else 0.0
            for slot in range(COLUMN_SIZE):
                if slot < len(column):
                    t, down, by = column[slot]
                    visible = not down or by == p
                    out += [1.0, 1.0 if down else 0.0, taken] + one_hot(n, by) + one_hot(y, t if visible else None)
                else:
                    out += [0.0, 0.0, taken] + [0.0] * (n + y)
        out += list(self._pending)
        for d in self._displays:
            out += [d[k] for k in g.food_kinds]
        out += list(self._revealed)
        out += self.unseen(p)
        out += [sum(d) for d in self._discarded] + list(self._discarded[p])
        out += [sum(self._deck)]
        assert len(out) == g.observation_tensor_shape()[0]
        return _float32(out)

    def resample_from_infostate(self, player, seed):
        """A full state drawn from the posterior given `player`'s view (docs/rules/nutz.md,
        "Information"), with Python's `random.Random(seed)`: the cards unseen by the player in a
        uniformly random order, dealt to the other seats' hands (seats ascending), their face-down
        cards in the columns (trees ascending, each column in play order), their cards discarded
        unseen (seats ascending); the rest is the deck."""
        p = self._check_player(player)
        rng = random.Random(seed)
        n = len(self._tokens)
        pool = [t for t, count in enumerate(self.unseen(p)) for _ in range(count)]
        rng.shuffle(pool)
        twin = self.clone()
        y = len(self._game.types)
        cards = iter(pool)
        for s in range(n):
            if s != p:
                size = sum(self._hands[s])
                twin._hands[s] = [0] * y
                for _ in range(size):
                    twin._hands[s][next(cards)] += 1
        for j, column in enumerate(self._trees):
            twin._trees[j] = [(next(cards), down, by) if down and by != p else (t, down, by) for t, down, by in column]
        for s in range(n):
            if s != p:
                size = sum(self._discarded[s])
                twin._discarded[s] = [0] * y
                for _ in range(size):
                    twin._discarded[s][next(cards)] += 1
        twin._deck = [0] * y
        for t in cards:
            twin._deck[t] += 1
        twin._history = []
        return twin

    # -- text ------------------------------------------------------------------------------------

    def __str__(self):
        g = self._game
        names = g.type_names
        lines = [
            "Nutz!, %d players: round %d, turn %d, phase %s; %s"
            % (len(self._tokens), self._round, self._turn, self._phase, self._phase_text())
        ]
        lines.append(
            "tokens: %s, supply %d, last tree %d, last squirrel %d"
            % (" ".join(map(str, self._tokens)), self._supply, self._last_tree, self._last_squirrel)
        )
        scores = self.scores()
        for s in range(len(self._tokens)):
            number = "-" if self._squirrels[s] is None else str(self._squirrels[s])
            display = ", ".join("%s %d" % (g.kind_names[k], self._displays[s][k]) for k in g.food_kinds)
            lines.append(
                "seat %d: squirrel %s, hand %s, display %s (score %d)"
                % (s, number, _card_list(self._hand_names(s)), display, scores[s])
            )
        for j, column in enumerate(self._trees):
            entries = ["%s%s by %d" % (names[t], " face down" if down else "", by) for t, down, by in column]
            taken = "" if self._taken[j] is None else " (taken by %d)" % self._taken[j]
            lines.append("tree %d%s: %s" % (j + 1, taken, ", ".join(entries) if entries else "-"))
        if any(self._pending):
            lines.append("pending: " + " ".join(g.kind_names[k] for k, c in enumerate(self._pending) for _ in range(c)))
        lines.append("deck: " + ", ".join("%s %d" % kv for kv in zip(names, self._deck)))
        return "\n".join(lines)

    def __repr__(self):
        return "<nutz.State %s round %d turn %d player %d>" % (self._phase, self._round, self._turn, self._current)
