"""Loading Nutz!'s canonical JSON (docs/rules/nutz.md, "Canonical JSON" and "Loaders"): every range
and the consistency of the counts are checked; a forced decision at the loaded node is applied."""

from __future__ import annotations

from .actions import CHANCE, TERMINAL
from .state import (
    CARD_KEYS,
    COLUMN_SIZE,
    DEAL,
    FINAL,
    HAND_SIZE,
    JSON_KEYS,
    PHASES,
    PLAYS_PER_SEAT,
    PREDATORS,
    SQUIRRELS,
    SUMMER,
    TERMINAL_PHASE,
    WINTER,
    State,
)

KEPT = 2  # cards each seat keeps in hand from one round to the next


def _fail(message):
    raise ValueError("nutz: state: " + message)


def _int(value, what, lo, hi):
    if isinstance(value, bool) or not isinstance(value, int):
        _fail("%s must be an int, not %r" % (what, value))
    if not lo <= value <= hi:
        _fail("%s must be in %d..%d, not %d" % (what, lo, hi, value))
    return int(value)


def _list(value, what, length=None, most=None):
    if not isinstance(value, list):
        _fail("%s must be a list, not %r" % (what, value))
    if length is not None and len(value) != length:
        _fail("%s must have %d entries, not %d" % (what, length, len(value)))
    if most is not None and len(value) > most:
        _fail("%s has %d entries, at most %d" % (what, len(value), most))
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


def _counts(value, what, names, highs):
    """An object from every name to a count 0..high, as a list in the names' order."""
    _keys(value, what, names)
    return [_int(value[name], "%s[%r]" % (what, name), 0, hi) for name, hi in zip(names, highs)]


def _sorted_names(value, what, names, most):
    """A list of names sorted by their number (repeats allowed), as numbers."""
    numbers = [names.index(_str(x, "%s[%d]" % (what, i), names)) for i, x in enumerate(_list(value, what, most=most))]
    if numbers != sorted(numbers):
        _fail("%s must be sorted by number, not %r" % (what, value))
    return numbers


def state_from_json(game, data):
    """Validate a canonical JSON dict and build the state."""
    n, c = game.num_players(), game.num_trees()
    types, kinds = game.types, game.kinds
    y = len(types)
    type_names, kind_names = game.type_names, game.kind_names
    rounds = game.last_tree_tokens
    _keys(data, "the state", JSON_KEYS)
    _str(data["game"], "game", ("nutz",))
    if _int(data["players"], "players", 2, 4) != n:
        _fail("players is %d, the game has %d" % (data["players"], n))
    phase = _str(data["phase"], "phase", PHASES)
    current = _int(data["current_player"], "current_player", TERMINAL, n - 1)
    round_ = _int(data["round"], "round", 1, rounds)
    turn = _int(data["turn"], "turn", 0, game.turn_cap)
    step_max = {SUMMER: PLAYS_PER_SEAT * n - 1, TERMINAL_PHASE: 0}.get(phase, n - 1)
    step = _int(data["step"], "step", 0, step_max)

    squirrels = [
        None if k is None else _int(k, "squirrels[%d]" % s, 1, c)
        for s, k in enumerate(_list(data["squirrels"], "squirrels", n))
    ]
    tokens = [_int(x, "tokens[%d]" % s, 0, game.token_cap) for s, x in enumerate(_list(data["tokens"], "tokens", n))]
    supply = _int(data["supply"], "supply", 0, game.moon_tokens)
    last_tree = _int(data["last_tree"], "last_tree", 0, rounds)
    last_squirrel = _int(data["last_squirrel_token"], "last_squirrel_token", 0, 1)

    hands = []
    for s, hand in enumerate(_list(data["hands"], "hands", n)):
        cards = [0] * y
        for t in _sorted_names(hand, "hands[%d]" % s, type_names, HAND_SIZE):
            cards[t] += 1
        hands.append(cards)

    trees = []
    for j, column in enumerate(_list(data["trees"], "trees", c)):
        entries = []
        for i, card in enumerate(_list(column, "trees[%d]" % j, most=COLUMN_SIZE)):
            what = "trees[%d][%d]" % (j, i)
            _keys(card, what, CARD_KEYS)
            t = type_names.index(_str(card["card"], what + ".card", type_names))
            down = card["face_down"]
            if not isinstance(down, bool):
                _fail("%s.face_down must be true or false, not %r" % (what, down))
            by = _int(card["by"], what + ".by", 0, n - 1)
            entries.append((t, down, by))
        trees.append(entries)

    taken = [
        None if s is None else _int(s, "taken[%d]" % j, 0, n - 1)
        for j, s in enumerate(_list(data["taken"], "taken", c))
    ]

    pending = [0] * len(kinds)
    for k in _sorted_names(data["pending"], "pending", kind_names, None):
        if kinds[k].food:
            _fail("pending names %r, which is not a predator" % kind_names[k])
        pending[k] += 1

    food_names = [kind_names[k] for k in game.food_kinds]
    kind_cards = [sum(t.count for t in types if t.kind == k) for k in range(len(kinds))]
    displays = []
    for s, obj in enumerate(_list(data["displays"], "displays", n)):
        counts = _counts(obj, "displays[%d]" % s, food_names, [kind_cards[k] for k in game.food_kinds])
        display = [0] * len(kinds)
        for k, count in zip(game.food_kinds, counts):
            display[k] = count
        displays.append(display)
    highs = [t.count for t in types]
    deck = _counts(data["deck"], "deck", type_names, highs)
    revealed = _counts(data["revealed"], "revealed", type_names, highs)
    discarded = [
        _counts(obj, "discarded_unseen[%d]" % s, type_names, highs)
        for s, obj in enumerate(_list(data["discarded_unseen"], "discarded_unseen", n))
    ]

    # -- the counts ----------------------------------------------------------------------------
    face_down = [0] * y
    face_up = [0] * y
    for column in trees:
        for t, down, _ in column:
            (face_down if down else face_up)[t] += 1
    for t, card in enumerate(types):
        held = sum(h[t] for h in hands)
        lost = sum(d[t] for d in discarded)
        if deck[t] + held + face_down[t] + lost + revealed[t] != card.count:
            _fail(
                "%s: deck %d + hands %d + face down %d + discarded unseen %d + revealed %d is not the %d cards "
                "of the type" % (card.name, deck[t], held, face_down[t], lost, revealed[t], card.count)
            )
        if revealed[t] < face_up[t]:
            _fail("%s: %d face up in the columns, only %d revealed" % (card.name, face_up[t], revealed[t]))
    for k in range(len(kinds)):
        gone = sum(revealed[t] - face_up[t] for t, card in enumerate(types) if card.kind == k)
        held = sum(d[k] for d in displays) + pending[k]
        if held > gone:
            _fail("%s: %d in displays or pending, only %d revealed and collected" % (kind_names[k], held, gone))
    in_columns = sum(face_down)
    total = sum(tokens) + supply + last_tree + last_squirrel + in_columns
    if total != game.moon_tokens:
        _fail(
            "tokens: players %d + supply %d + last tree %d + last squirrel %d + face-down cards %d = %d, not %d"
            % (sum(tokens), supply, last_tree, last_squirrel, in_columns, total, game.moon_tokens)
        )
    dealt = [k for k in squirrels if k is not None]
    if len(set(dealt)) != len(dealt):
        _fail("squirrel numbers must be distinct, not %r" % squirrels)

    sizes = [sum(h) for h in hands]
    by_seat = [sum(1 for column in trees for _, _, by in column if by == s) for s in range(n)]
    cards_in_columns = sum(by_seat)
    no_taken = all(s is None for s in taken)
    in_deck = sum(deck)

    def expect(condition, message):
        if not condition:
            _fail("in phase %s (round %d, step %d): %s" % (phase, round_, step, message))

    def expect_deck(rounds_dealt, extra=0):
        cards = game.cards_in_game - game.dealt_by_round(rounds_dealt) - extra
        expect(in_deck == cards, "the deck must hold %d cards, not %d" % (cards, in_deck))

    if phase == SQUIRRELS:
        expect(current == CHANCE, "current_player must be -1")
        expect(round_ == 1 and turn == 0, "round must be 1 and turn 0")
        expect(all((squirrels[s] is not None) == (s < step) for s in range(n)), "seats 0..step-1 have a number")
        expect(not any(tokens) and last_tree == 0 and last_squirrel == 0, "every token is in the supply")
        expect(not any(sizes) and not cards_in_columns and no_taken and not any(pending), "nothing is dealt")
        expect(not any(map(any, displays)) and not any(revealed) and not any(map(any, discarded)), "nothing is dealt")
    else:
        if any(k is None for k in squirrels):
            _fail("every seat has a squirrel number after phase squirrels")
        if last_tree != rounds - round_:
            _fail("last_tree must be last_tree_tokens - round = %d, not %d" % (rounds - round_, last_tree))
        order = sorted(range(n), key=lambda s: squirrels[s])
        before = (round_ - 1) * (PLAYS_PER_SEAT + 1) * n  # turns of the rounds before this one
        kept = 0 if round_ == 1 else KEPT
        summer_step = winter_takes = None  # the summer or winter situation to check
        if phase == DEAL:
            expect(current == CHANCE, "current_player must be -1")
            expect(turn == before, "turn must be %d" % before)
            for i in range(n):
                lo, hi = (HAND_SIZE, HAND_SIZE) if i < step else (kept, HAND_SIZE - 1) if i == step else (kept, kept)
                expect(lo <= sizes[i] <= hi, "seat %d must hold %d..%d cards, not %d" % (i, lo, hi, sizes[i]))
            expect(not cards_in_columns and no_taken and not any(pending), "the columns are empty")
            expect(last_squirrel == 1, "the last squirrel card holds a token")
            expect_deck(round_ - 1, sum(sizes) - kept * n)
        elif phase == SUMMER:
            expect(current == order[step % n], "seat %d must play" % order[step % n])
            summer_step = step
        elif phase in (WINTER, PREDATORS):
            expect(current == order[step], "seat %d must take" % order[step])
            winter_takes = step + (1 if phase == PREDATORS else 0)
            expect(bool(any(pending)) == (phase == PREDATORS), "predators are pending in phase predators only")
        elif phase == FINAL:
            expect(round_ == rounds, "the final phase follows the last round")
            expect(current == order[step], "seat %d must play" % order[step])
            for i, s in enumerate(order):
                lo, hi = (0, 0) if i < step else (1, KEPT) if i == step else (KEPT, KEPT)
                expect(lo <= sizes[s] <= hi, "seat %d must hold %d..%d cards, not %d" % (s, lo, hi, sizes[s]))
            expect(not cards_in_columns and no_taken and not any(pending), "the columns are empty")
            expect(last_squirrel == 0, "no token on the last squirrel card")
            expect(turn == before + (PLAYS_PER_SEAT + 1) * n, "turn must be %d" % (before + (PLAYS_PER_SEAT + 1) * n))
            expect_deck(rounds)
        else:  # terminal
            expect(current == TERMINAL and no_taken and not any(pending), "current_player -4, nothing taken or pending")
            k = turn - before
            if round_ == rounds and k == (PLAYS_PER_SEAT + 1) * n:  # the final phase is over
                expect(not any(sizes) and not cards_in_columns, "hands and columns are empty")
                expect(last_squirrel == 0, "no token on the last squirrel card")
                expect_deck(rounds)
            else:  # ended by the turn cap before a summer play or a winter take
                expect(turn == game.turn_cap, "a game ends at the end of the last round or at the turn cap")
                expect(0 <= k < (PLAYS_PER_SEAT + 1) * n, "turn %d does not fall in round %d" % (turn, round_))
                if k < PLAYS_PER_SEAT * n:
                    summer_step = k
                else:
                    winter_takes = k - PLAYS_PER_SEAT * n
        if summer_step is not None:
            expect(turn == before + summer_step, "turn must be %d" % (before + summer_step))
            for i, s in enumerate(order):
                plays = summer_step // n + (1 if i < summer_step % n else 0)
                expect(sizes[s] == HAND_SIZE - plays, "seat %d must hold %d cards" % (s, HAND_SIZE - plays))
                expect(by_seat[s] == plays, "seat %d must have played %d cards" % (s, plays))
            expect(no_taken and not any(pending), "no tree is taken")
            expect(last_squirrel == 1, "the last squirrel card holds a token")
            expect_deck(round_)
        if winter_takes is not None:
            expect(
                turn == before + PLAYS_PER_SEAT * n + winter_takes,
                "turn must be %d" % (before + PLAYS_PER_SEAT * n + winter_takes),
            )
            expect(all(size == KEPT for size in sizes), "every seat holds %d cards" % KEPT)
            expect(all(b <= PLAYS_PER_SEAT for b in by_seat), "a seat plays %d cards a summer" % PLAYS_PER_SEAT)
            if winter_takes == 0:
                expect(all(b == PLAYS_PER_SEAT for b in by_seat), "every summer play is in the columns")
            if phase == TERMINAL_PHASE:
                empty = sum(1 for column in trees if not column)
                expect(empty >= winter_takes, "%d trees taken, but only %d empty" % (winter_takes, empty))
                expect(last_squirrel == 1 or winter_takes > 0, "the last squirrel card holds a token")
            else:
                takers = [s for s in taken if s is not None]
                expect(
                    sorted(takers) == sorted(order[:winter_takes]),
                    "seats %r (the first in the order) have taken one tree each" % (order[:winter_takes],),
                )
                expect(all(not trees[j] for j in range(c) if taken[j] is not None), "a taken tree's column is empty")
                expect(last_squirrel == (0 if taken[c - 1] is not None else 1), "the last squirrel token")
            expect_deck(round_)
        if phase in (SUMMER, WINTER):
            expect(turn < game.turn_cap, "turn %d is the turn cap: the game would be over" % turn)

    state = State.__new__(State)
    state._game = game
    state._phase, state._current, state._round, state._turn, state._step = phase, current, round_, turn, step
    state._squirrels, state._tokens = squirrels, tokens
    state._supply, state._last_tree, state._last_squirrel = supply, last_tree, last_squirrel
    state._hands, state._trees, state._taken, state._pending = hands, trees, taken, pending
    state._displays, state._deck, state._revealed, state._discarded = displays, deck, revealed, discarded
    state._history = []
    state._apply_forced()
    return state
