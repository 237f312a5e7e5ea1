"""The canonical JSON of a state (doc section "Canonical JSON") and its loader.

`state_from_json` checks every field and the consistency rules that hold in
every reachable state (doc: "Positions the loaders accept", and the field table),
raising ValueError naming the problem, and then applies forced moves like any
transition.
"""

from .board import (
    CARD_INDEX,
    CARD_NAMES,
    FOUR,
    GAME_NAME,
    JOKER_KINDS,
    JOKER_NAMES,
    KINDS,
    NUM_CARDS,
    NUM_KINDS,
    NUM_SLOTS,
    NUM_SPACES,
    NUM_STORES,
    PRE_PLACE_SPACES,
    RACCOON_SPACES,
    SPACE_INDEX,
    SPACE_NAMES,
    TAKES_FROM,
    THREE_AREA,
    THRESHOLD,
    TWO_AREA,
)
from .state import State

KEYS = [
    "game",
    "players",
    "stage",
    "phase",
    "current_player",
    "active",
    "turn",
    "seat",
    "check_space",
    "pending",
    "steal_next",
    "refill_slot",
    "roll_choice",
    "pre_place_left",
    "start_track",
    "board",
    "supply",
    "stores",
    "kept_jokers",
    "face_up",
    "unseen",
    "draw_pile",
    "reserve",
    "end_triggered",
    "david",
]

STAGES = ["setup", "turn", "check", "final", "over"]
# Which stage each phase belongs to.
PHASE_STAGES = {
    "deal_face_up": ("setup",),
    "deal_start_nut": ("setup",),
    "place": ("setup", "check", "final"),
    "pre_place": ("setup",),
    "roll": ("turn",),
    "choose_space": ("turn",),
    "roll_or_stop": ("turn",),
    "take": ("check", "final"),
    "refill": ("check", "final"),
    "steal": ("check",),
    "kept_jokers": ("turn",),
    "final_jokers": ("final",),
    "terminal": ("over",),
}


# =========================================================================
# to_json
# =========================================================================
def _card(c):
    return None if c is None else CARD_NAMES[c]


def state_to_json(st):
    n = st._n
    caps = st._game.capacities
    stores = []
    for seat in range(n):
        row = []
        for s in range(NUM_STORES):
            kind, nuts, jokers = st.stores[seat][s]
            if nuts == caps[s]:  # full: no kind, no joker count
                row.append({"kind": None, "nuts": caps[s], "jokers": 0})
            else:
                row.append({"kind": None if kind is None else KINDS[kind], "nuts": nuts, "jokers": jokers})
        stores.append(row)
    return {
        "game": GAME_NAME,
        "players": n,
        "stage": st.stage,
        "phase": st.phase,
        "current_player": st.current_player(),
        "active": st.active,
        "turn": st.turn,
        "seat": st.seat,
        "check_space": None if st.check_space is None else SPACE_NAMES[st.check_space],
        "pending": _card(st.pending),
        "steal_next": st.steal_next,
        "refill_slot": st.refill_slot,
        "roll_choice": None if st.roll_choice is None else list(st.roll_choice),
        "pre_place_left": st.pre_place_left,
        "start_track": sorted(st.start_track),
        "board": {SPACE_NAMES[sp]: list(st.board[sp]) for sp in range(NUM_SPACES)},
        "supply": [st.supply(seat) for seat in range(n)],
        "stores": stores,
        "kept_jokers": [{JOKER_NAMES[t]: st.kept[seat][t] for t in range(len(JOKER_NAMES))} for seat in range(n)],
        "face_up": [_card(c) for c in st.face_up],
        "unseen": {CARD_NAMES[c]: st.unseen[c] for c in range(NUM_CARDS)},
        "draw_pile": st.draw_pile,
        "reserve": st.reserve,
        "end_triggered": st.end_triggered,
        "david": st.david,
    }


# =========================================================================
# state_from_json: field parsing
# =========================================================================
def _fail(msg, *args):
    raise ValueError("state_from_json: " + (msg % args if args else msg))


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _int(d, key, low, high):
    x = d[key]
    if not _is_int(x):
        _fail("%s must be an int, got %r", key, x)
    if not low <= x <= high:
        _fail("%s=%d out of range %d..%d", key, x, low, high)
    return x


def _opt_int(d, key, low, high):
    if d[key] is None:
        return None
    return _int(d, key, low, high)


def _int_value(x, what, low, high):
    if not _is_int(x):
        _fail("%s must be an int, got %r", what, x)
    if not low <= x <= high:
        _fail("%s=%d out of range %d..%d", what, x, low, high)
    return x


def _name(x, table, what, allow_none=False):
    if x is None and allow_none:
        return None
    if not isinstance(x, str) or x not in table:
        _fail("%s: unknown name %r", what, x)
    return table[x]


def _list(x, length, what):
    if not isinstance(x, list) or len(x) != length:
        _fail("%s must be a list of %d, got %r", what, length, x)
    return x


def _dict(x, keys, what):
    if not isinstance(x, dict):
        _fail("%s must be an object, got %r", what, x)
    if set(x) != set(keys):
        missing = sorted(set(keys) - set(x))
        extra = sorted(set(x) - set(keys), key=str)
        _fail("%s: missing keys %s, unknown keys %s", what, missing, extra)
    return x


def state_from_json(game, d):
    d = _dict(d, KEYS, "state")
    p = game.params
    n = p["players"]
    caps = game.capacities

    if d["game"] != GAME_NAME:
        _fail("game must be %r, got %r", GAME_NAME, d["game"])
    if not _is_int(d["players"]) or d["players"] != n:
        _fail("players must be %d (the game's), got %r", n, d["players"])

    st = State(game)
    # --- control fields ---------------------------------------------------
    if not isinstance(d["stage"], str) or d["stage"] not in STAGES:
        _fail("unknown stage %r", d["stage"])
    if not isinstance(d["phase"], str) or d["phase"] not in PHASE_STAGES:
        _fail("unknown phase %r", d["phase"])
    st.stage, st.phase = d["stage"], d["phase"]
    if st.stage not in PHASE_STAGES[st.phase]:
        _fail("phase %s does not belong to stage %s", st.phase, st.stage)
    current = _int(d, "current_player", -4, n - 1)
    st.active = _int(d, "active", 0, n - 1)
    st.turn = _int(d, "turn", 0, p["turn_cap"])
    st.seat = _opt_int(d, "seat", 0, n - 1)
    st.check_space = _name(d["check_space"], SPACE_INDEX, "check_space", allow_none=True)
    st.pending = _name(d["pending"], CARD_INDEX, "pending", allow_none=True)
    if not isinstance(d["steal_next"], bool):
        _fail("steal_next must be a bool, got %r", d["steal_next"])
    st.steal_next = d["steal_next"]
    st.refill_slot = _opt_int(d, "refill_slot", 0, NUM_SLOTS - 1)
    if d["roll_choice"] is not None:
        rc = _list(d["roll_choice"], 2, "roll_choice")
        a = _int_value(rc[0], "roll_choice[0]", 2, 12)
        b = _int_value(rc[1], "roll_choice[1]", 2, 12)
        if not a < b:
            _fail("roll_choice must be [a, b] with a < b, got %r", rc)
        st.roll_choice = (a, b)
    st.pre_place_left = _int(d, "pre_place_left", 0, 3)

    # --- material -----------------------------------------------------------
    track = d["start_track"]
    if not isinstance(track, list):
        _fail("start_track must be a list, got %r", track)
    for x in track:
        _int_value(x, "start_track space", 2, 12)
    if any(track[i] >= track[i + 1] for i in range(len(track) - 1)):
        _fail("start_track must be strictly ascending, got %r", track)
    st.start_track = set(track)

    board = _dict(d["board"], SPACE_NAMES, "board")
    for sp in range(NUM_SPACES):
        row = _list(board[SPACE_NAMES[sp]], n, "board[%s]" % SPACE_NAMES[sp])
        st.board[sp] = [_int_value(x, "board[%s]" % SPACE_NAMES[sp], 0, p["squirrels"]) for x in row]

    supply = _list(d["supply"], n, "supply")
    for seat in range(n):
        _int_value(supply[seat], "supply[%d]" % seat, 0, p["squirrels"])
        used = sum(st.board[sp][seat] for sp in range(NUM_SPACES))
        if seat == st.active:
            used += len(st.start_track)
        if used > p["squirrels"]:
            _fail("seat %d has %d squirrels out, more than squirrels=%d", seat, used, p["squirrels"])
        if supply[seat] != p["squirrels"] - used:
            _fail("supply[%d]=%d but squirrels - board - start track = %d", seat, supply[seat], p["squirrels"] - used)

    stores = _list(d["stores"], n, "stores")
    for seat in range(n):
        row = _list(stores[seat], NUM_STORES, "stores[%d]" % seat)
        for s in range(NUM_STORES):
            what = "stores[%d][%d]" % (seat, s)
            obj = _dict(row[s], ["kind", "nuts", "jokers"], what)
            kind = _name(obj["kind"], {k: i for i, k in enumerate(KINDS)}, what + ".kind", allow_none=True)
            nuts = _int_value(obj["nuts"], what + ".nuts", 0, caps[s])
            jokers = _int_value(obj["jokers"], what + ".jokers", 0, caps[s])
            if kind is None:
                if nuts not in (0, caps[s]) or jokers != 0:
                    _fail("%s: a store without kind is empty (0 nuts) or full (%d nuts, 0 jokers)", what, caps[s])
            else:
                if not 1 <= nuts < caps[s]:
                    _fail("%s: a store of a kind holds 1..%d nuts, got %d", what, caps[s] - 1, nuts)
                if jokers > nuts:
                    _fail("%s: more jokers than nuts", what)
            st.stores[seat][s] = [kind, nuts, jokers]

    kept = _list(d["kept_jokers"], n, "kept_jokers")
    for seat in range(n):
        obj = _dict(kept[seat], JOKER_NAMES, "kept_jokers[%d]" % seat)
        st.kept[seat] = [
            _int_value(obj[name], "kept_jokers[%d][%s]" % (seat, name), 0, game.deck[NUM_KINDS + t])
            for t, name in enumerate(JOKER_NAMES)
        ]

    face = _list(d["face_up"], NUM_SLOTS, "face_up")
    st.face_up = [_name(c, CARD_INDEX, "face_up[%d]" % i, allow_none=True) for i, c in enumerate(face)]

    unseen = _dict(d["unseen"], CARD_NAMES, "unseen")
    st.unseen = [
        _int_value(unseen[CARD_NAMES[c]], "unseen[%s]" % CARD_NAMES[c], 0, game.deck[c]) for c in range(NUM_CARDS)
    ]

    st.draw_pile = _int(d, "draw_pile", 0, game.deck_size)
    st.reserve = _int(d, "reserve", 0, p["reserve"])
    if not isinstance(d["end_triggered"], bool):
        _fail("end_triggered must be a bool, got %r", d["end_triggered"])
    st.end_triggered = d["end_triggered"]
    st.david = _opt_int(d, "david", 0, n - 1)

    _check_consistency(game, st)

    if st.current_player() != current:
        _fail("current_player=%d but phase %s gives %d", current, st.phase, st.current_player())
    # Forced moves, and decisions without a legal action, are carried out as after
    # any transition (doc: "Forced moves").
    st._apply_forced_moves()
    return st


# =========================================================================
# state_from_json: consistency rules
# =========================================================================
def _check_consistency(game, st):
    p = game.params
    n = p["players"]
    ph, stage = st.phase, st.stage

    # --- which fields a phase needs ---------------------------------------------
    if ph in ("deal_face_up", "roll", "choose_space", "roll_or_stop", "kept_jokers", "terminal"):
        if st.seat is not None:
            _fail("seat must be null in phase %s", ph)
    elif st.seat is None:
        _fail("phase %s needs a seat", ph)
    if (stage == "check") != (st.check_space is not None):
        _fail("check_space must be set exactly in stage check")
    if (ph in ("place", "refill")) != (st.pending is not None):
        _fail("pending must be set exactly in phases place and refill")
    if (ph == "refill") != (st.refill_slot is not None):
        _fail("refill_slot must be set exactly in phase refill")
    if (ph == "choose_space") != (st.roll_choice is not None):
        _fail("roll_choice must be set exactly in phase choose_space")
    if ph == "pre_place":
        if not 1 <= st.pre_place_left <= st.seat:
            _fail("pre_place_left=%d out of range 1..%d for seat %d", st.pre_place_left, st.seat, st.seat)
    elif st.pre_place_left != 0:
        _fail("pre_place_left must be 0 outside phase pre_place")
    if st.steal_next:
        if stage != "check" or st.check_space not in RACCOON_SPACES:
            _fail("steal_next is only true during a collection at R or R3")
        if ph not in ("take", "refill", "place", "steal"):
            _fail("steal_next cannot be true in phase %s", ph)
    if ph == "steal" and not st.steal_next:
        _fail("phase steal needs steal_next")
    if stage == "check" and st.check_space in RACCOON_SPACES and ph in ("take", "refill"):
        if not st.steal_next:
            _fail("a collection at %s before its steal needs steal_next", SPACE_NAMES[st.check_space])
    if (
        stage == "check"
        and ph == "place"
        and st.check_space in RACCOON_SPACES
        and not st.steal_next
        and st.pending >= NUM_KINDS
    ):
        _fail("a stolen nut cannot be a joker")

    # --- stage-wide rules ---------------------------------------------------------
    if stage != "over" and st.turn >= p["turn_cap"]:
        _fail("turn=%d must be below turn_cap=%d", st.turn, p["turn_cap"])
    if stage == "over" and not st.end_triggered and st.turn != p["turn_cap"]:
        _fail("a game over without the end triggered must have reached turn_cap")
    if stage == "over" and st.end_triggered and st.turn >= p["turn_cap"]:
        _fail("turn=%d must be below turn_cap=%d", st.turn, p["turn_cap"])
    if stage == "turn" and st.end_triggered:
        _fail("end_triggered cannot be true in stage turn")
    if stage == "final" and not st.end_triggered:
        _fail("stage final needs end_triggered")
    if stage == "setup":
        if st.active != 0 or st.turn != 0:
            _fail("during set-up active and turn are 0")
        if st.david is not None or st.end_triggered:
            _fail("during set-up David is with nobody and the end is not triggered")
    if st.end_triggered:
        if st.reserve != 0:
            _fail("reserve must be 0 once the end is triggered")
        if st.draw_pile > p["reserve"]:
            _fail("draw_pile=%d larger than the reserve after the end was triggered", st.draw_pile)
    else:
        if st.reserve != p["reserve"]:
            _fail("reserve must be %d before the end is triggered", p["reserve"])
        if st.draw_pile > game.initial_draw_pile:
            _fail("draw_pile=%d larger than at the start (%d)", st.draw_pile, game.initial_draw_pile)
    if stage == "setup" and st.draw_pile != game.initial_draw_pile:
        _fail("set-up draws do not change draw_pile")
    if ph == "refill" and st.draw_pile == 0:
        _fail("phase refill needs a non-empty draw pile")

    # --- start track: only while the active player is rolling -------------------
    if st.start_track and ph not in ("roll", "choose_space", "roll_or_stop"):
        _fail("start_track must be empty in phase %s", ph)
    if ph in ("roll", "choose_space") and st.supply(st.active) == 0:
        _fail("phase %s needs squirrels in the supply", ph)
    if ph == "roll_or_stop" and not st.start_track and st.supply(st.active) > 0:
        _fail("roll_or_stop with an empty start track only happens with an empty supply")
    if ph == "choose_space" and (st.roll_choice[0] in st.start_track or st.roll_choice[1] in st.start_track):
        _fail("roll_choice must name free start-track spaces")

    # --- board ----------------------------------------------------------------
    order = [(st.active + i) % n for i in range(n)]
    if stage == "setup":
        for sp in range(NUM_SPACES):
            for seat in range(n):
                cnt = st.board[sp][seat]
                if sp not in PRE_PLACE_SPACES and cnt:
                    _fail("during set-up squirrels stand only in A, B, D, E")
                if cnt > 1:
                    _fail("pre-placement puts at most one squirrel of a seat per space")
        for seat in range(n):
            placed = sum(st.board[sp][seat] for sp in PRE_PLACE_SPACES)
            if ph != "pre_place" or seat > st.seat:
                limit_ok = placed == 0
            elif seat == st.seat:
                limit_ok = placed == seat - st.pre_place_left
            else:
                limit_ok = placed <= seat
            if not limit_ok:
                _fail("seat %d has %d pre-placed squirrels, impossible in phase %s", seat, placed, ph)
    elif stage == "turn" or (stage == "over" and not st.end_triggered):
        _check_below_threshold(st, range(NUM_SPACES))
    elif stage == "check":
        cs = st.check_space
        _check_below_threshold(st, range(cs))
        k = THRESHOLD[cs]
        pos = order.index(st.seat)
        for i, seat in enumerate(order):
            if seat == st.seat:
                continue
            cnt = st.board[cs][seat]
            if cs == FOUR:
                bad = i < pos and cnt >= k
            else:
                bad = (i < pos and cnt != 0) or (0 < cnt < k)
            if bad:
                _fail(
                    "%d squirrels of seat %d in %s cannot stand there while seat %d collects",
                    cnt,
                    seat,
                    SPACE_NAMES[cs],
                    st.seat,
                )
    else:  # final, or over after the end of the game
        for sp in TWO_AREA + THREE_AREA:
            if any(st.board[sp]):
                _fail("after the end only the 4-area holds squirrels")
        served = order if ph in ("final_jokers", "terminal") else order[: order.index(st.seat)]
        for seat in served:
            if st.board[FOUR][seat] >= 4:
                _fail("seat %d still has 4 squirrels in the 4-area after being served", seat)

    # --- kept jokers at the end ---------------------------------------------------
    if stage == "over" and st.end_triggered and any(any(row) for row in st.kept):
        _fail("no kept jokers are left after the game end")
    if ph == "final_jokers":
        for seat in order[: order.index(st.seat)]:
            if any(st.kept[seat]):
                _fail("seat %d placed its kept jokers already", seat)

    # --- cards ---------------------------------------------------------------
    _check_cards(game, st)

    # --- per-phase details ----------------------------------------------------
    if ph == "refill":
        if st.face_up[st.refill_slot] is not None:
            _fail("the slot being refilled must be empty")
        if stage == "check" and st.refill_slot not in TAKES_FROM[st.check_space]:
            _fail("slot %d cannot be taken from at %s", st.refill_slot, SPACE_NAMES[st.check_space])
    if ph == "place" and stage == "setup" and st.pending is None:
        _fail("place needs a pending card")


def _check_below_threshold(st, spaces):
    for sp in spaces:
        for seat in range(st._n):
            if st.board[sp][seat] >= THRESHOLD[sp]:
                _fail(
                    "seat %d has %d squirrels in %s, which would have been collected",
                    seat,
                    st.board[sp][seat],
                    SPACE_NAMES[sp],
                )


def _check_cards(game, st):
    n = game.params["players"]
    ph, stage = st.phase, st.stage
    caps = game.capacities
    # Empty face-up slots.
    if stage == "setup" and ph == "deal_face_up":
        filled = sum(c is not None for c in st.face_up)
        if filled == NUM_SLOTS or any(c is None for c in st.face_up[:filled]):
            _fail("deal_face_up fills slots 0..3 in order; face_up=%r", st.face_up)
    else:
        for i, c in enumerate(st.face_up):
            if (
                c is None
                and not (ph == "refill" and i == st.refill_slot)
                and not (st.end_triggered and st.draw_pile == 0)
            ):
                _fail("face-up slot %d is empty although cards are left to draw", i)

    # Cards not yet drawn: the pile and the reserve (plus undealt set-up cards).
    undealt = 0
    if stage == "setup":
        if ph == "deal_face_up":
            undealt = sum(c is None for c in st.face_up) + n
        elif ph == "deal_start_nut":
            undealt = n - st.seat
        elif ph == "place":
            undealt = n - st.seat - 1
    if sum(st.unseen) != st.draw_pile + st.reserve + undealt:
        _fail(
            "sum(unseen)=%d but draw_pile + reserve (+ undealt set-up cards) = %d",
            sum(st.unseen),
            st.draw_pile + st.reserve + undealt,
        )

    # Set-up: each seat before the set-up seat received exactly one nut.
    if stage == "setup":
        for seat in range(n):
            have = sum(x[1] for x in st.stores[seat]) + sum(st.kept[seat])
            if ph == "deal_face_up":
                want = 0
            elif ph == "pre_place":
                want = 1
            else:
                want = 1 if seat < st.seat else 0
            if have != want:
                _fail("during set-up seat %d holds %d nuts, expected %d", seat, have, want)

    # Every card type: visible copies plus unseen copies cannot exceed the deck.
    known = list(st.unseen)
    for c in st.face_up:
        if c is not None:
            known[c] += 1
    if st.pending is not None:
        known[st.pending] += 1
    for seat in range(n):
        for t in range(len(JOKER_KINDS)):
            known[NUM_KINDS + t] += st.kept[seat][t]
    store_jokers = [0] * NUM_KINDS
    for seat in range(n):
        for kind, nuts, jokers in st.stores[seat]:
            if kind is not None:
                known[kind] += nuts - jokers  # non-joker nuts of a kind are that kind's cards
                store_jokers[kind] += jokers
    for c in range(NUM_CARDS):
        if known[c] > game.deck[c]:
            _fail("%d %s cards are accounted for, the deck has %d", known[c], CARD_NAMES[c], game.deck[c])
    # Jokers in stores must come from the joker cards left over (Hall's condition).
    left = [game.deck[NUM_KINDS + t] - known[NUM_KINDS + t] for t in range(len(JOKER_KINDS))]
    for mask in range(1, 1 << NUM_KINDS):
        need = sum(store_jokers[k] for k in range(NUM_KINDS) if mask >> k & 1)
        avail = sum(left[t] for t, (a, b) in enumerate(JOKER_KINDS) if (mask >> a & 1) or (mask >> b & 1))
        if need > avail:
            _fail("too many jokers in stores for the joker cards of the deck")
    # All cards together, full stores included.
    total = sum(known) + sum(store_jokers)
    for seat in range(n):
        for s, (kind, nuts, _j) in enumerate(st.stores[seat]):
            if kind is None and nuts == caps[s]:
                total += nuts
    if total > game.deck_size:
        _fail("%d cards are accounted for, the deck has %d", total, game.deck_size)
