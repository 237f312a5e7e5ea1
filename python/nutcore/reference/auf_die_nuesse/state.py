"""The state of a game of "Auf die Nüsse!" and the rules that move it on.

The code follows the rulebook's structure; section names in the comments refer
to docs/rules/auf_die_nuesse.md ("the doc"), which is the contract.

Control flow: `apply_action` performs one decision or chance outcome and then
runs every automatic step (pushing squirrels, finding the next collector,
discarding a nut that fits nowhere, ...) until the game stands at a chance node,
at a decision, or is over.  Finally every decision with exactly one legal
action is applied at once ("Forced moves"), without entering the history.
Everything needed to continue is stored in the fields that the canonical JSON
shows, so a state loaded from JSON continues exactly like the original.
"""

import copy

from . import actions as act
from .board import (
    ALL_SLOTS,
    CARD_NAMES,
    FOUR,
    JOKER_KINDS,
    KINDS,
    NUM_CARDS,
    NUM_KINDS,
    NUM_SLOTS,
    NUM_SPACES,
    NUM_STORES,
    PRE_PLACE_SPACES,
    PUSHED_TO,
    RACCOON_SPACES,
    SPACE_NAMES,
    START_TO_SPACE,
    TAKES_FROM,
    THREE_AREA,
    THRESHOLD,
    TWO_AREA,
    is_joker,
)

CHANCE = -1
TERMINAL = -4

# Phases that are chance nodes; every other phase but `terminal` is a decision.
CHANCE_PHASES = ("deal_face_up", "deal_start_nut", "roll", "refill")


def _roll_table():
    """For every set of occupied start-track spaces we need P(F); precompute the
    216 ordered dice (g, w1, w2) as candidate pairs (g+w1, g+w2)."""
    return [(g + w1, g + w2) for g in range(1, 7) for w1 in range(1, 7) for w2 in range(1, 7)]


_DICE = _roll_table()


class State:
    """A game state.  Build with `Game.new_initial_state()` or `Game.state_from_json()`."""

    def __init__(self, game):
        self._game = game
        p = game.params
        n = p["players"]
        self._n = n
        self._squirrels = p["squirrels"]
        self._turn_cap = p["turn_cap"]
        # --- control -------------------------------------------------------
        self.stage = "setup"
        self.phase = "deal_face_up"  # Set-up 1: four chance draws fill slots 0..3
        self.active = 0
        self.turn = 0
        self.seat = None
        self.check_space = None  # index into SPACE_NAMES
        self.pending = None  # card type
        self.steal_next = False
        self.refill_slot = None
        self.roll_choice = None  # (a, b)
        self.pre_place_left = 0
        # --- material ------------------------------------------------------
        self.start_track = set()  # occupied start spaces (active player's)
        self.board = [[0] * n for _ in range(NUM_SPACES)]
        # stores[seat][s] = [kind or None, nuts, jokers]; full <=> nuts == capacity
        self.stores = [[[None, 0, 0] for _ in range(NUM_STORES)] for _ in range(n)]
        self.kept = [[0] * len(JOKER_KINDS) for _ in range(n)]
        self.face_up = [None] * NUM_SLOTS
        self.unseen = list(game.deck)
        self.draw_pile = game.initial_draw_pile  # Set-up 3
        self.reserve = p["reserve"]
        self.end_triggered = False
        self.david = None  # David starts with nobody
        self._history = []

    # =====================================================================
    # Public API
    # =====================================================================
    def get_game(self):
        return self._game

    def num_players(self):
        return self._n

    def current_player(self):
        if self.phase == "terminal":
            return TERMINAL
        if self.phase in CHANCE_PHASES:
            return CHANCE
        if self.phase in ("choose_space", "roll_or_stop", "kept_jokers"):
            return self.active
        return self.seat

    def is_chance_node(self):
        return self.phase in CHANCE_PHASES

    def is_terminal(self):
        return self.phase == "terminal"

    def history(self):
        return list(self._history)

    def clone(self):
        return copy.deepcopy(self)

    def __deepcopy__(self, memo):
        new = copy.copy(self)  # shares the (immutable) game
        for name in ("start_track", "board", "stores", "kept", "face_up", "unseen", "_history"):
            setattr(new, name, copy.deepcopy(getattr(self, name), memo))
        return new

    def chance_outcomes(self):
        """(action, probability) in ascending action order; [] at decisions."""
        if self.phase == "roll":
            return self._roll_outcomes()
        if self.phase in ("deal_face_up", "deal_start_nut", "refill"):
            total = sum(self.unseen)
            return [(act.draw_action(c), self.unseen[c] / total) for c in range(NUM_CARDS) if self.unseen[c] > 0]
        return []

    def legal_actions(self):
        """Ascending legal decision actions; empty at chance nodes and when terminal."""
        if self.is_chance_node() or self.is_terminal():
            return []
        return sorted(self._decision_actions())

    def apply_action(self, action):
        if isinstance(action, bool) or not isinstance(action, int):
            raise ValueError("action must be an int, got %r" % (action,))
        if self.is_terminal():
            raise ValueError("the game is over; no action can be applied")
        if self.is_chance_node():
            legal = [a for a, _ in self.chance_outcomes()]
        else:
            legal = self.legal_actions()
        if action not in legal:
            raise ValueError(
                "illegal action %d (%s) in phase %s" % (action, act.ACTION_STRINGS.get(action, "?"), self.phase)
            )
        self._history.append(action)
        self._apply(action)
        self._apply_forced_moves()

    def action_to_string(self, action):
        return act.action_to_string(action)

    def string_to_action(self, text):
        return act.string_to_action(text)

    def supply(self, seat):
        """Squirrels minus those on the board and (for the active seat) the start track."""
        on_board = sum(self.board[sp][seat] for sp in range(NUM_SPACES))
        on_track = len(self.start_track) if seat == self.active else 0
        return self._squirrels - on_board - on_track

    # --- Scoring ------------------------------------------------------------
    def scores(self):
        """Points: a full store scores its value, every other store 1 per nut.
        Kept jokers score nothing."""
        caps, vals = self._game.capacities, self._game.values
        result = []
        for seat in range(self._n):
            pts = 0
            for s, (_kind, nuts, _jokers) in enumerate(self.stores[seat]):
                pts += vals[s] if nuts == caps[s] else nuts
            result.append(pts)
        return result

    def best_full_store(self, seat):
        """Value of the seat's most valuable full store (0 if none): the tie-break."""
        caps, vals = self._game.capacities, self._game.values
        return max([vals[s] for s in range(NUM_STORES) if self.stores[seat][s][1] == caps[s]], default=0)

    def returns(self):
        """1/k to each of k tied winners, 0 to everyone else; zeros before the end."""
        if not self.is_terminal():
            return [0.0] * self._n
        pts = self.scores()
        best = max(pts)
        tied = [s for s in range(self._n) if pts[s] == best]
        # Tie: the player with the most valuable full store wins; then share.
        best_store = max(self.best_full_store(s) for s in tied)
        winners = [s for s in tied if self.best_full_store(s) == best_store]
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(self._n)]

    def to_json(self):
        from .serialize import state_to_json

        return state_to_json(self)

    # =====================================================================
    # Stores: "Receiving a nut"
    # =====================================================================
    def _is_full(self, seat, s):
        return self.stores[seat][s][1] == self._game.capacities[s]

    def _fits(self, seat, s, kind):
        """A nut of kind K fits store s when s is not full and s is empty or holds K."""
        st_kind, nuts, _ = self.stores[seat][s]
        if self._is_full(seat, s):
            return False
        return nuts == 0 or st_kind == kind

    def _store_key(self, seat, s):
        caps, vals = self._game.capacities, self._game.values
        kind, nuts, jokers = self.stores[seat][s]
        return (caps[s], vals[s], kind, nuts, jokers)

    def _distinct_stores(self, seat, ok):
        """Stores s with ok(s), offering identical stores once (lowest index)."""
        seen = set()
        out = []
        for s in range(NUM_STORES):
            key = self._store_key(seat, s)
            if key in seen:
                continue
            seen.add(key)
            if ok(s):
                out.append(s)
        return out

    def _store_options(self, seat, kind):
        return self._distinct_stores(seat, lambda s: self._fits(seat, s, kind))

    def _put_nut(self, seat, s, kind, joker):
        """Place a nut of `kind` into store s; the last nut makes the store full
        (its nuts go back to the box, it has no kind any more)."""
        store = self.stores[seat][s]
        assert self._fits(seat, s, kind)
        store[0] = kind
        store[1] += 1
        if joker:
            store[2] += 1
        if store[1] == self._game.capacities[s]:
            store[0] = None
            store[2] = 0

    def _joker_actions(self, seat, types):
        """`joker T as K store S` for joker types T, either kind K, stores K fits."""
        out = []
        for t in types:
            for c in range(2):
                for s in self._store_options(seat, JOKER_KINDS[t][c]):
                    out.append(act.joker_action(t, c, s))
        return out

    def _kept_joker_actions(self, seat):
        return self._joker_actions(seat, [t for t in range(len(JOKER_KINDS)) if self.kept[seat][t] > 0])

    def _place_joker_action(self, seat, action):
        t, rest = divmod(action - act.JOKER_BASE, 16)
        c, s = divmod(rest, 8)
        self._put_nut(seat, s, JOKER_KINDS[t][c], joker=True)
        return t

    # =====================================================================
    # Raccoon: "The raccoon steal"
    # =====================================================================
    def _steal_targets(self):
        """V another seat without David; store S of V not full with a non-joker nut."""
        out = []
        for v in range(self._n):
            if v == self.seat or v == self.david:
                continue

            def ok(s, v=v):
                kind, nuts, jokers = self.stores[v][s]
                return not self._is_full(v, s) and kind is not None and nuts - jokers >= 1

            for s in self._distinct_stores(v, ok):
                out.append(act.steal_action(v, s))
        return out

    # =====================================================================
    # Legal decisions per phase
    # =====================================================================
    def _decision_actions(self):
        ph, seat = self.phase, self.seat
        if ph == "place":
            card = self.pending
            if not is_joker(card):
                return [act.store_action(s) for s in self._store_options(seat, card)]
            return self._joker_actions(seat, [card - NUM_KINDS]) + [act.KEEP_JOKER]
        if ph == "pre_place":
            out = [act.STOP]
            if self.pre_place_left > 0 and self.supply(seat) > 0:
                for i, sp in enumerate(PRE_PLACE_SPACES):
                    if self.board[sp][seat] == 0:  # at most one of its own per space
                        out.append(act.PUT_BASE + i)
            return out
        if ph == "choose_space":
            return [act.space_action(x) for x in self.roll_choice]
        if ph == "roll_or_stop":
            return ([act.ROLL] if self.supply(self.active) > 0 else []) + [act.STOP]
        if ph == "take":
            return [act.take_action(i) for i in self._takeable_slots()]
        if ph == "steal":
            return self._steal_targets() + [act.NO_STEAL]
        if ph == "kept_jokers":
            return self._kept_joker_actions(self.active) + [act.DONE]
        if ph == "final_jokers":
            return self._kept_joker_actions(seat)
        raise AssertionError("no decisions in phase %s" % ph)

    def _takeable_slots(self):
        """Slots the space allows that hold a card (any slot in the final stage)."""
        allowed = TAKES_FROM[self.check_space] if self.stage == "check" else ALL_SLOTS
        return [i for i in allowed if self.face_up[i] is not None]

    def _apply_forced_moves(self):
        """Forced moves: a decision with exactly one legal action is applied at once.
        A decision with no legal action at all does what the rules say instead
        (only possible in a loaded position; the transitions below never stop there)."""
        while not self.is_chance_node() and not self.is_terminal():
            legal = self._decision_actions()
            if len(legal) == 1:
                self._apply(legal[0])
            elif not legal:
                self._no_legal_action()
            else:
                break

    def _no_legal_action(self):
        ph = self.phase
        if ph == "place":
            # A nut that fits no store is discarded.
            self.pending = None
            self._after_place()
        elif ph == "take":
            # A take from empty slots yields no card.
            self._after_place()
        elif ph == "final_jokers":
            # Final jokers that fit nowhere are discarded.
            self._final_jokers()
        else:
            raise AssertionError("phase %s always has a legal action" % ph)

    # =====================================================================
    # Chance: dice and draws
    # =====================================================================
    def _roll_outcomes(self):
        """Three dice; candidates g+w1 and g+w2; aggregated by the set F of free
        candidates: `roll fail`, `roll a`, `roll a or b`; probability count/216."""
        counts = {}
        for c1, c2 in _DICE:
            free = sorted({c for c in (c1, c2) if c not in self.start_track})
            if not free:
                a = act.ROLL_FAIL
            elif len(free) == 1:
                a = act.roll_action(free[0], free[0])
            else:
                a = act.roll_action(free[0], free[1])
            counts[a] = counts.get(a, 0) + 1
        return [(a, counts[a] / 216) for a in sorted(counts)]

    def _draw(self, action):
        card = action - act.DRAW_BASE
        self.unseen[card] -= 1
        return card

    # =====================================================================
    # Transitions
    # =====================================================================
    def _apply(self, a):
        ph = self.phase
        if ph == "deal_face_up":
            # Set-up 1: slots 0, 1, 2, 3 in order; set-up draws leave draw_pile alone.
            card = self._draw(a)
            slot = self.face_up.index(None)
            self.face_up[slot] = card
            if None not in self.face_up:
                self.phase = "deal_start_nut"
                self.seat = 0
        elif ph == "deal_start_nut":
            # Set-up 2: each seat receives one nut and places it at once.
            self.pending = self._draw(a)
            self._enter_place()
        elif ph == "place":
            self._apply_place(a)
        elif ph == "pre_place":
            # Set-up 4: one squirrel per action into A, B, D or E; `stop` ends early.
            if a == act.STOP:
                self._start_pre_place(self.seat + 1)
            else:
                self.board[PRE_PLACE_SPACES[a - act.PUT_BASE]][self.seat] += 1
                self.pre_place_left -= 1
                if self.pre_place_left == 0:
                    self._start_pre_place(self.seat + 1)
        elif ph == "roll":
            self._apply_roll(a)
        elif ph == "choose_space":
            self.roll_choice = None
            self.start_track.add(a)
            self.phase = "roll_or_stop"
        elif ph == "roll_or_stop":
            if a == act.ROLL:
                self.phase = "roll"
            else:
                # Ending the turn successfully: every start-track squirrel moves
                # into the 2-area space above it.
                for x in self.start_track:
                    self.board[START_TO_SPACE[x]][self.active] += 1
                self.start_track = set()
                self._start_check()
        elif ph == "take":
            self._take(a - act.TAKE_BASE)
        elif ph == "refill":
            # Collection 3: the taken slot is refilled from the pile.
            card = self._draw(a)
            self.draw_pile -= 1
            self.face_up[self.refill_slot] = card
            self.refill_slot = None
            self._enter_place()
        elif ph == "steal":
            self._apply_steal(a)
        elif ph == "kept_jokers":
            # Kept jokers may be placed at the end of the holder's own turn.
            if a == act.DONE:
                self._end_turn()
            else:
                t = self._place_joker_action(self.active, a)
                self.kept[self.active][t] -= 1
                self._enter_kept_jokers()
        elif ph == "final_jokers":
            # End 3: kept jokers must be placed while any fits.
            t = self._place_joker_action(self.seat, a)
            self.kept[self.seat][t] -= 1
            self._final_jokers()
        else:
            raise AssertionError("cannot act in phase %s" % ph)

    # --- Set-up -----------------------------------------------------------------
    def _start_pre_place(self, seat):
        """Set-up 4: seat 1 may put 1 squirrel, seat 2 two, seat 3 three."""
        self.pre_place_left = 0
        if seat >= self._n:
            # Set-up 5: stage turn, active seat 0, turn counter 0.
            self.seat = None
            self.stage = "turn"
            self.active = 0
            self.turn = 0
            self._start_turn()
            return
        self.seat = seat
        self.phase = "pre_place"
        self.pre_place_left = seat

    # --- A turn -----------------------------------------------------------------
    def _start_turn(self):
        """The active player must roll if their supply is not empty; with an empty
        supply their only action is `stop` (a forced move)."""
        self.stage = "turn"
        self.seat = None
        self.phase = "roll" if self.supply(self.active) > 0 else "roll_or_stop"

    def _apply_roll(self, a):
        if a == act.ROLL_FAIL:
            # Failed roll: all start-track squirrels return to the supply; the turn
            # ends (and the collection check still runs).
            self.start_track = set()
            self._start_check()
            return
        x, y = act.decode_roll(a)
        if x == y:
            self.start_track.add(x)  # a squirrel from the supply goes on space x
            self.phase = "roll_or_stop"
        else:
            self.roll_choice = (x, y)
            self.phase = "choose_space"

    def _end_turn(self):
        """The turn counter increases; at turn_cap the game is over as it stands;
        otherwise the next seat clockwise starts its turn."""
        self.turn += 1
        if self.turn >= self._turn_cap:
            self._game_over()
            return
        self.active = (self.active + 1) % self._n
        self._start_turn()

    def _game_over(self):
        self.stage = "over"
        self.phase = "terminal"
        self.seat = None
        self.check_space = None
        self.pending = None
        self.steal_next = False
        self.refill_slot = None
        self.roll_choice = None
        self.pre_place_left = 0

    # --- The collection check ---------------------------------------------------
    def _start_check(self):
        self.stage = "check"
        self.check_space = 0
        self.seat = None
        self._check_continue()

    def _clockwise_from_active(self):
        return [(self.active + i) % self._n for i in range(self._n)]

    def _check_continue(self):
        """Spaces in index order A, B, R, D, E, L, R3, Rt, 4.  In the current space,
        the first seat clockwise from the active one with at least k squirrels
        collects; repeat until nobody has k there, then go to the next space."""
        self.steal_next = False
        while self.check_space < NUM_SPACES:
            sp = self.check_space
            k = THRESHOLD[sp]
            for seat in self._clockwise_from_active():
                if self.board[sp][seat] >= k:
                    self._collect(seat)
                    return
            self.check_space += 1
        self.check_space = None
        self.seat = None
        self._after_check()

    def _collect(self, collector):
        sp = self.check_space
        k = THRESHOLD[sp]
        self.seat = collector
        # 1. k squirrels back to the supply; other seats with fewer than k there are
        #    pushed to the space above (none from the 4-area); seats with k or more stay.
        self.board[sp][collector] -= k
        above = PUSHED_TO[sp]
        if above is not None:
            for other in range(self._n):
                if other != collector and self.board[sp][other] < k:
                    self.board[above][other] += self.board[sp][other]
                    self.board[sp][other] = 0
        # 5. (noted now) at R and R3 the collector may steal after placing.
        self.steal_next = sp in RACCOON_SPACES
        # 2. take a face-up card from the allowed slots; no card if all are empty.
        if self._takeable_slots():
            self.phase = "take"  # a single slot is applied as a forced move
        else:
            self._after_place()

    def _take(self, slot):
        """Collection 2-3: take the card; the end may be triggered; refill the slot."""
        self.pending = self.face_up[slot]
        self.face_up[slot] = None
        if self.draw_pile == 0 and not self.end_triggered:
            # End of the game triggered: the set-aside nuts become the draw pile.
            self.end_triggered = True
            self.draw_pile = self.reserve
            self.reserve = 0
        if self.draw_pile > 0:
            self.phase = "refill"
            self.refill_slot = slot
        else:
            self._enter_place()  # the slot stays empty

    def _enter_place(self):
        """Receiving a nut: place at once; a kind fitting no store is discarded."""
        self.phase = "place"
        card = self.pending
        if not is_joker(card) and not self._store_options(self.seat, card):
            self.pending = None
            self._after_place()

    def _apply_place(self, a):
        seat, card = self.seat, self.pending
        if a == act.KEEP_JOKER:
            self.kept[seat][card - NUM_KINDS] += 1  # kept jokers wait in front of the player
        elif a >= act.JOKER_BASE:
            self._place_joker_action(seat, a)
        else:
            self._put_nut(seat, a - act.STORE_BASE, card, joker=False)
        self.pending = None
        self._after_place()

    def _after_place(self):
        if self.stage == "setup":
            if self.seat + 1 < self._n:
                self.seat += 1
                self.phase = "deal_start_nut"
            else:
                self._start_pre_place(1)
        elif self.stage == "check":
            if self.steal_next:
                self._enter_steal()
            else:
                self._check_continue()  # the loop continues in the same space
        elif self.stage == "final":
            self._final_serve()
        else:
            raise AssertionError(self.stage)

    def _enter_steal(self):
        """At R and R3: optional steal; skipped if there is no legal target."""
        if self._steal_targets():
            self.phase = "steal"
        else:
            self._check_continue()

    def _apply_steal(self, a):
        self.steal_next = False
        if a == act.NO_STEAL:
            self._check_continue()
            return
        v, s = divmod(a - act.STEAL_BASE, 8)
        store = self.stores[v][s]
        kind = store[0]
        store[1] -= 1  # joker nuts are never taken
        if store[1] == 0:
            store[0] = None  # a store emptied by theft is empty again
        self.david = v  # David moves in front of the victim
        self.pending = kind  # the thief places the stolen nut at once
        self._enter_place()

    def _after_check(self):
        """After the last space: the end, or kept jokers, then the next turn."""
        if self.end_triggered:
            self._start_final()
            return
        self.stage = "turn"
        self._enter_kept_jokers()

    def _enter_kept_jokers(self):
        """Skipped when none of the active player's kept jokers fits anywhere."""
        if self._kept_joker_actions(self.active):
            self.phase = "kept_jokers"
            self.seat = None
        else:
            self._end_turn()

    # --- End of the game --------------------------------------------------------
    def _start_final(self):
        """End 1: every squirrel on the board is pushed into the 4-area."""
        self.stage = "final"
        for sp in TWO_AREA + THREE_AREA:
            for seat in range(self._n):
                self.board[FOUR][seat] += self.board[sp][seat]
                self.board[sp][seat] = 0
        self.seat = self.active
        self._final_serve()

    def _final_serve(self):
        """End 2: seats clockwise from the active one; while the seat has 4 squirrels
        in the 4-area it returns them and takes any face-up card (none if all are
        empty).  All of one seat's nuts before the next seat."""
        while True:
            seat = self.seat
            if self.board[FOUR][seat] >= 4:
                self.board[FOUR][seat] -= 4
                if self._takeable_slots():
                    self.phase = "take"
                    return
                continue
            nxt = (seat + 1) % self._n
            if nxt == self.active:
                self.seat = self.active
                self._final_jokers()
                return
            self.seat = nxt

    def _final_jokers(self):
        """End 3: seats clockwise from the active one place kept jokers while any
        fits (compulsory, no `done`); those that fit nowhere are then discarded."""
        while True:
            seat = self.seat
            if self._kept_joker_actions(seat):
                self.phase = "final_jokers"
                return
            self.kept[seat] = [0] * len(JOKER_KINDS)
            nxt = (seat + 1) % self._n
            if nxt == self.active:
                self._game_over()  # End 4
                return
            self.seat = nxt

    # =====================================================================
    # Text
    # =====================================================================
    def __str__(self):
        lines = []
        lines.append(
            "Auf die Nüsse! %d players, stage %s, phase %s, turn %d, active seat %d"
            % (self._n, self.stage, self.phase, self.turn, self.active)
        )
        extra = []
        if self.seat is not None:
            extra.append("seat %d" % self.seat)
        if self.check_space is not None:
            extra.append("checking %s" % SPACE_NAMES[self.check_space])
        if self.pending is not None:
            extra.append("pending %s" % CARD_NAMES[self.pending])
        if self.refill_slot is not None:
            extra.append("refilling slot %d" % self.refill_slot)
        if self.roll_choice is not None:
            extra.append("choose space %d or %d" % self.roll_choice)
        if self.pre_place_left:
            extra.append("may put %d more" % self.pre_place_left)
        if self.steal_next:
            extra.append("steal next")
        if extra:
            lines.append("  " + ", ".join(extra))
        track = " ".join(str(x) if x in self.start_track else "." for x in range(2, 13))
        lines.append("start track (2..12): %s" % track)
        for sp in range(NUM_SPACES):
            lines.append(
                "  %-2s (k=%d): %s" % (SPACE_NAMES[sp], THRESHOLD[sp], " ".join(str(c) for c in self.board[sp]))
            )
        lines.append("face up: %s" % ", ".join(CARD_NAMES[c] if c is not None else "-" for c in self.face_up))
        lines.append(
            "draw pile %d, reserve %d, end triggered %s, David %s"
            % (
                self.draw_pile,
                self.reserve,
                self.end_triggered,
                "nobody" if self.david is None else "seat %d" % self.david,
            )
        )
        caps = self._game.capacities
        pts = self.scores()
        for seat in range(self._n):
            parts = []
            for s, (kind, nuts, jokers) in enumerate(self.stores[seat]):
                if nuts == caps[s]:
                    parts.append("%d:FULL" % s)
                elif nuts == 0:
                    parts.append("%d:-/%d" % (s, caps[s]))
                else:
                    parts.append(
                        "%d:%d/%d %s%s" % (s, nuts, caps[s], KINDS[kind], " (%d j)" % jokers if jokers else "")
                    )
            kept = ", ".join(
                "%dx %s" % (cnt, CARD_NAMES[NUM_KINDS + t]) for t, cnt in enumerate(self.kept[seat]) if cnt
            )
            lines.append(
                "seat %d: supply %d, %d points; stores %s%s"
                % (seat, self.supply(seat), pts[seat], "; ".join(parts), "; kept " + kept if kept else "")
            )
        return "\n".join(lines)
