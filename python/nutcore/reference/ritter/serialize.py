"""Loading Ritter's canonical JSON (docs/rules/ritter.md, "Canonical JSON"): every range and the
consistency of the counts are checked; forced decisions at the loaded node are applied."""

from __future__ import annotations

from .actions import CHANCE, HAZELNUT, SHOUT_CHOICES, TERMINAL, THIEVES
from .state import (
    DRAW,
    DRAWING_PHASES,
    FIRST_PHASES,
    FIRST_RIGHT,
    FIRST_SHOUT,
    FIRST_WRONG,
    JSON_KEYS,
    KINDS,
    MOVE,
    PHASES,
    PLACE,
    POOL_KEYS,
    SHOUT,
    STACK_KEYS,
    TERMINAL_PHASE,
    State,
)


def _fail(message):
    raise ValueError("ritter state: " + message)


def _int(value, what, lo, hi):
    if isinstance(value, bool) or not isinstance(value, int):
        _fail("%s must be an int, not %r" % (what, value))
    if not lo <= value <= hi:
        _fail("%s must be in %d..%d, not %d" % (what, lo, hi, value))
    return int(value)


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


def _null(value, what, phase):
    if value is not None:
        _fail("%s must be null in phase %s, not %r" % (what, phase, value))


def state_from_json(game, data):
    """Validate a canonical JSON dict and build the state."""
    n = game.num_players()
    board = game.board
    nb = board.num_bushes
    _keys(data, "the state", JSON_KEYS)
    _str(data["game"], "game", ("ritter",))
    if _int(data["players"], "players", 2, 4) != n:
        _fail("players is %d, the game has %d" % (data["players"], n))
    phase = _str(data["phase"], "phase", PHASES)
    current = _int(data["current_player"], "current_player", TERMINAL, n - 1)
    turn = _int(data["turn"], "turn", 0, game.turn_cap)
    drawing = phase in DRAWING_PHASES

    drawer = None
    if drawing:
        drawer = _int(data["drawer"], "drawer", 0, n - 1)
    else:
        _null(data["drawer"], "drawer", phase)
    roll = None
    if phase == MOVE:
        roll = _int(data["roll"], "roll", 1, 6)
        if roll not in game.die:
            _fail("roll %d is not a face of the die %r" % (roll, list(game.die)))
    else:
        _null(data["roll"], "roll", phase)

    knights = []
    for s, name in enumerate(_list(data["knights"], "knights", n)):
        if name is None:
            knights.append(None)
        else:
            knights.append(board.ids[_str(name, "knights[%d]" % s, board.names)])
    scores = [
        _int(x, "scores[%d]" % s, game.score_floor, game.score_target)
        for s, x in enumerate(_list(data["scores"], "scores", n))
    ]
    carried = [
        _int(x, "carried[%d]" % s, 0, game.hazelnuts) for s, x in enumerate(_list(data["carried"], "carried", n))
    ]

    cards, top, seen = [], [], []
    for b, obj in enumerate(_list(data["stacks"], "stacks", nb)):
        what = "stacks[%d]" % b
        _keys(obj, what, STACK_KEYS)
        if obj["bush"] != board.names[b]:
            _fail("%s.bush must be %r (bushes in node order), not %r" % (what, board.names[b], obj["bush"]))
        height = _int(obj["cards"], what + ".cards", 0, game.stack_size)
        kind = None if obj["top"] is None else _str(obj["top"], what + ".top", THIEVES)
        raw_seen = obj["seen_by"]
        if not isinstance(raw_seen, list):
            _fail("%s.seen_by must be a list of seats, not %r" % (what, raw_seen))
        seats = [_int(s, what + ".seen_by[%d]" % i, 0, n - 1) for i, s in enumerate(raw_seen)]
        if any(a >= b2 for a, b2 in zip(seats, seats[1:])):
            _fail("%s.seen_by must be distinct seats in ascending order, not %r" % (what, seats))
        if (kind is None) != (not seats):
            _fail("%s: top is non-null exactly when seen_by is non-empty" % what)
        if kind is not None and height == 0:
            _fail("%s: an empty stack has no top" % what)
        cards.append(height)
        top.append(kind)
        seen.append(frozenset(seats))

    _keys(data["pool"], "pool", POOL_KEYS)
    pool = [_int(data["pool"]["hazelnuts"], "pool.hazelnuts", 0, game.hazelnuts)]
    pool += [_int(data["pool"][name], "pool." + name, 0, game.thieves_per_kind) for name in THIEVES]

    shouts = []
    for s, x in enumerate(_list(data["shouts"], "shouts", n)):
        shouts.append(None if x is None else _str(x, "shouts[%d]" % s, SHOUT_CHOICES))
    card = None
    if phase in FIRST_PHASES:
        card = _str(data["card"], "card", KINDS)
    else:
        _null(data["card"], "card", phase)

    # The cards of each kind: pool + known tops + removed (the card being resolved included) + drawn.
    tops = [sum(1 for t in top if t == name) for name in THIEVES]
    drawn = game.hazelnuts - pool[0]
    if card == HAZELNUT and drawn < 1:
        _fail("the card being resolved is a hazelnut, but no hazelnut has left the pool")
    for k, name in enumerate(THIEVES):
        removed = game.thieves_per_kind - pool[1 + k] - tops[k]
        least = 1 if card == name else 0
        if removed < least:
            _fail(
                "%d %s in the pool and %d on top%s: more than the %d cards of the kind"
                % (pool[1 + k], name, tops[k], " and the card being resolved" if least else "", game.thieves_per_kind)
            )
    if sum(cards) != sum(pool) + sum(tops):
        _fail(
            "the stacks hold %d cards, but the pool has %d and %d known tops lie on them"
            % (sum(cards), sum(pool), sum(tops))
        )
    if sum(carried) > drawn:
        _fail("%d hazelnuts carried, only %d drawn" % (sum(carried), drawn))

    # The player to act, the knights, the setup.
    placed = sum(1 for k in knights if k is not None)
    if phase == PLACE:
        if turn != 0:
            _fail("turn must be 0 at setup, not %d" % turn)
        if current < 0 or any((knights[s] is not None) != (s < current) for s in range(n)):
            _fail("at setup seats 0..S-1 have placed their knights and seat S is to place (current_player S)")
        on = [k for k in knights if k is not None]
        if any(not board.is_bush(k) for k in on) or len(set(on)) != len(on):
            _fail("at setup the knights stand on distinct bushes")
        if (
            any(c != game.stack_size for c in cards)
            or any(top)
            or pool != [game.hazelnuts] + [game.thieves_per_kind] * 3
            or any(scores)
            or any(carried)
        ):
            _fail("at setup the stacks are full, the pool holds every card and all scores and carried are 0")
    else:
        if placed != n:
            _fail("after setup every knight stands on a node")
        if phase == MOVE:
            expected = turn % n
        elif phase == SHOUT:
            expected = None
        elif phase == TERMINAL_PHASE:
            expected = TERMINAL
        else:
            expected = CHANCE
        if expected is not None and current != expected:
            _fail("current_player must be %d in phase %s, not %d" % (expected, phase, current))
    if phase != TERMINAL_PHASE and turn >= game.turn_cap:
        _fail("turn %d has reached the turn cap %d: the game would be over" % (turn, game.turn_cap))

    # The draw being resolved.
    if drawing:
        if drawer != turn % n:
            _fail("drawer must be %d (turn %d is seat %d's), not %d" % (turn % n, turn, turn % n, drawer))
        bush = knights[drawer]
        if not board.is_bush(bush):
            _fail("the drawer's knight must stand on a bush, not %s" % board.names[bush])
        if phase in (SHOUT, DRAW) and cards[bush] == 0:
            _fail("the drawer's bush %s has no card to draw" % board.names[bush])
        if phase in (DRAW,) + FIRST_PHASES and top[bush] is not None:
            _fail("in phase %s the drawer's bush %s has no known top" % (phase, board.names[bush]))
        if shouts[drawer] is not None:
            _fail("the drawer does not shout")
        order = [(drawer + i) % n for i in range(1, n)]
        if phase == SHOUT:
            if current == drawer or current < 0:
                _fail("current_player must be a shouting seat (not the drawer) in phase shout, not %d" % current)
            made = order[: order.index(current)]
        else:
            made = order
        for s in order:
            if (shouts[s] is not None) != (s in made):
                _fail("shouts: seats %s have shouted and no other" % (made,))
    elif any(x is not None for x in shouts):
        _fail("shouts must all be null in phase %s" % phase)

    right = [s for s in range(n) if shouts[s] is not None and shouts[s] == card]
    wrong = [s for s in range(n) if shouts[s] in THIEVES and shouts[s] != card]
    if phase in (FIRST_RIGHT, FIRST_WRONG) and game.shout_resolution != "separate":
        _fail("phase %s needs shout_resolution 'separate'" % phase)
    if phase == FIRST_SHOUT and game.shout_resolution != "first_only":
        _fail("phase first_shout needs shout_resolution 'first_only'")
    if phase == FIRST_RIGHT and len(right) < 2:
        _fail("phase first_right needs several right shouts")
    if phase == FIRST_WRONG and len(wrong) < 2:
        _fail("phase first_wrong needs several wrong shouts")
    if phase == FIRST_SHOUT and len(right) + len(wrong) < 2:
        _fail("phase first_shout needs several shouts")

    # The end of the game.
    at_target = [s for s in range(n) if scores[s] == game.score_target]
    if len(at_target) > 1:
        _fail("only one seat can reach the target")
    if at_target and phase not in (TERMINAL_PHASE, FIRST_WRONG):
        _fail("a score at the target %d ends the game" % game.score_target)
    if at_target and phase == FIRST_WRONG and at_target[0] not in right:
        _fail("in phase first_wrong only the right shouter can be at the target")
    empty = [b for b in range(nb) if cards[b] == 0]
    if phase in FIRST_PHASES:
        empty = [b for b in empty if b != knights[drawer]]  # that stack lost its card in this turn
    if phase not in (PLACE, TERMINAL_PHASE) and len(empty) >= game.empty_stacks_to_end:
        _fail("%d empty stacks at the start of a turn: the game would be over" % len(empty))
    if phase == TERMINAL_PHASE and not at_target and len(empty) < game.empty_stacks_to_end and turn < game.turn_cap:
        _fail("a finished game needs a score at the target, %d empty stacks or the turn cap" % game.empty_stacks_to_end)

    state = State.__new__(State)
    state._game = game
    state._phase, state._current, state._turn = phase, current, turn
    state._drawer, state._roll = drawer, roll
    state._knights, state._scores, state._carried = knights, scores, carried
    state._cards, state._top, state._seen, state._pool = cards, top, seen, pool
    state._shouts, state._card = shouts, card
    state._card_seen = frozenset()
    state._history = []
    state._apply_forced()
    return state
