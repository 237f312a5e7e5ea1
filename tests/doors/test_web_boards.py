"""The web page's game boards (python/nutcore/web/static/boards/<game>.js) in a real browser.

Each board module is imported by a tiny harness page (tests/helpers/web_boards_harness.html) served with the
package's static folder over a local HTTP server (ES modules do not load from file://). For every game
and player count, views of positions from seeded random play are rendered: the whole state
(`to_json()`, as a host sees it) and, for the games of hidden information, each seat's
`observation_json(seat)`. Checked: no JavaScript error, one <svg>, every clickable target names one
of the legal moves given, nothing a seat has not seen in the DOM of its view, and clicks (two-step
choices included) call ctx.play with the move's id."""

from __future__ import annotations

import pathlib
import random
import re

import pytest
from browser import QuietFiles, launch, static_server, sync_playwright

import nutcore

TESTS = pathlib.Path(__file__).resolve().parents[1] / "helpers"
STATIC = pathlib.Path(nutcore.__file__).resolve().parent / "web" / "static"
HARNESS = TESTS / "web_boards_harness.html"
GAMES = tuple(nutcore.list_games())
HIDDEN = tuple(g for g in GAMES if nutcore.load_game(g).hidden_information)
POSITIONS = 30
THIEVES = ("Max", "Leo", "Fritz")

# Boards other than the default ones, for the generic layouts (the board is data: params).
VARIANTS = {
    "ritter": {
        "board": {
            "bushes": ["N", "NE", "SE", "S", "SW", "NW"],
            "hiding_places": ["DEN"],
            "edges": [
                ["N", "NE"],
                ["NE", "SE"],
                ["SE", "S"],
                ["S", "SW"],
                ["SW", "NW"],
                ["NW", "N"],
                ["DEN", "N"],
                ["DEN", "S"],
            ],
        },
        "stack_size": 6,
        "hazelnuts": 24,
        "thieves_per_kind": 4,
    },
    "purzelbaum": {
        "branch_lengths": [1.5, 2.0],
        "holes": [[-2, -2], [0, -2], [2, -2], [-2, 2], [0, 2], [2, 2]],
    },
}


class _Handler(QuietFiles):
    """/boards/... from the package's static folder, anything else the harness page."""

    def translate_path(self, path):
        path = path.split("?", 1)[0]
        if path.startswith("/boards/"):
            return str(STATIC / path.lstrip("/"))
        return str(HARNESS)


@pytest.fixture(scope="module")
def server():
    with static_server(handler=_Handler) as url:
        yield url.rstrip("/")


@pytest.fixture(scope="module")
def page(server):
    with sync_playwright() as playwright:
        browser = launch(playwright)
        page = browser.new_page(viewport={"width": 900, "height": 700})
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        page.on("console", lambda msg: msg.type == "error" and page.errors.append(msg.text))
        page.goto(f"{server}/harness.html")
        page.wait_for_function("window.__ready === true")
        yield page
        browser.close()


def _legal(state):
    if state.is_terminal() or state.is_chance_node():
        return []
    return [{"action": a, "action_string": state.action_to_string(a)} for a in state.legal_actions()]


def _positions(game, players, seed, count=POSITIONS, **params):
    """`count` positions spread over one seeded random game (its start and its end included), each with
    the last move before it."""
    g = nutcore.load_game(game, players=players, **params)
    state = g.new_initial_state()
    rng = random.Random(seed)
    trail = [(state.clone(), None)]
    while not state.is_terminal():
        player = state.current_player()
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            action = rng.choices(actions, probs)[0]
        else:
            action = rng.choice(state.legal_actions())
        last = {"player": player, "action_string": state.action_to_string(action)}
        state.apply_action(action)
        trail.append((state.clone(), last))
    picks = sorted({round(i * (len(trail) - 1) / (count - 1)) for i in range(count)})
    return g, [trail[i] for i in picks]


def _cases(game, players, seed, count=POSITIONS, **params):
    """The views to render: (view, ctx, truth, seat) with ctx as the page builds it (seat None: a host)."""
    g, trail = _positions(game, players, seed, count, **params)
    cases = []
    for state, last in trail:
        mover = state.current_player() if state.current_player() >= 0 else None
        legal = _legal(state)
        base = {"players": players, "toMove": mover, "last": last}
        truth = state.to_json()
        # A host (or a perfect-information game): the whole state; the legal moves of whoever is to move.
        cases.append((truth, {**base, "seat": None, "legal": legal}, truth, None))
        if game in HIDDEN:
            for seat in range(players):
                view = state.observation_json(seat)
                # The page tells a seat only its own last move here (a card dealt to another seat is secret).
                own = last if last and last["player"] == seat else None
                ctx = {**base, "seat": seat, "legal": legal if mover == seat else [], "last": own}
                cases.append((view, ctx, truth, seat))
    return g, cases


def _render_all(page, game, params, cases):
    """Renders every case in one round trip; returns the harness summaries."""
    return page.evaluate(
        """async ([game, params, cases]) => {
            const out = [];
            for (const [view, ctx] of cases) out.push(await window.renderBoard(game, view, {...ctx, params}));
            return out;
        }""",
        [game, params, [[view, ctx] for view, ctx, _, _ in cases]],
    )


def _check_hidden(game, params, view, truth, seat, probes):
    """Nothing seat has not seen appears where the board draws it; what it has seen does. Returns the
    number of hidden things checked."""
    checked = 0
    if game == "ritter":
        for stack in truth["stacks"]:
            probe = probes.get(f"top:{stack['bush']}")
            if stack["top"] is None:
                continue
            assert probe is not None, f"known top on {stack['bush']} not drawn"
            if seat in stack["seen_by"]:
                assert stack["top"] in probe, f"seat {seat} saw {stack['top']} on {stack['bush']}: {probe!r}"
            else:
                assert not any(t in probe for t in THIEVES), f"seat {seat} never saw {stack['bush']}'s top: {probe!r}"
                checked += 1
        for other, shout in enumerate(view["shouts"]):
            if shout == "hidden":
                probe = probes.get(f"shout:{other}", "")
                assert not any(word in probe for word in (*THIEVES, "silent")), f"seat {other}'s open shout: {probe!r}"
                checked += 1
    elif game == "nutz":
        kinds = [k["name"] for k in params["cards"]["kinds"]]
        for other, hand in enumerate(truth["hands"]):
            for i, card in enumerate(hand):
                probe = probes.get(f"hand:{other}:{i}")
                assert probe is not None, f"seat {other}'s hand card {i} not drawn"
                if other == seat:
                    assert card.rstrip("*") in probe, f"own card {card}: {probe!r}"
                else:
                    assert not any(k in probe for k in kinds), f"seat {seat} sees seat {other}'s card: {probe!r}"
                    checked += 1
        for j, column in enumerate(truth["trees"], start=1):
            for k, card in enumerate(column):
                probe = probes[f"tree:{j}:{k}"]
                if not card["face_down"] or card["by"] == seat:
                    assert card["card"].rstrip("*") in probe, f"tree {j} card {k} ({card}): {probe!r}"
                else:
                    assert not any(k_ in probe for k_ in kinds), f"seat {seat} sees a face-down card: {probe!r}"
                    checked += 1
    return checked


CONFIGS = [(game, players, {}) for game in GAMES for players in (2, 3, 4)] + [
    (game, 2, params) for game, params in VARIANTS.items()
]


@pytest.mark.parametrize(
    ("game", "players", "params"), CONFIGS, ids=[f"{g}-{n}{'-variant' if p else ''}" for g, n, p in CONFIGS]
)
def test_boards_render_views_of_random_play(page, game, players, params):
    page.errors.clear()
    g, cases = _cases(game, players, seed=100 * players + len(game), count=10 if params else POSITIONS, **params)
    summaries = _render_all(page, game, g.params, cases)
    assert page.errors == [], page.errors
    hidden_checked = targets_seen = 0
    for (view, ctx, truth, seat), summary in zip(cases, summaries):
        where = f"{game} {players}p phase {view.get('phase')} turn {view.get('turn')} seat {seat}"
        assert summary["errors"] == [], (where, summary["errors"])
        assert summary["svgs"] == 1, where
        legal_ids = {str(m["action"]) for m in ctx["legal"]}
        assert set(summary["targets"]) <= legal_ids, (where, summary["targets"], legal_ids)
        targets_seen += len(summary["targets"])
        if seat is not None:
            hidden_checked += _check_hidden(game, g.params, view, truth, seat, summary["probes"])
    assert targets_seen > 0, "no clickable target in any position"
    if game in HIDDEN and not params:
        assert hidden_checked > 0, "no hidden card met: the hidden-information check checked nothing"


def _render_one(page, game, params, view, ctx):
    return page.evaluate(
        "([game, view, ctx]) => window.renderBoard(game, view, ctx)", [game, view, {**ctx, "params": params}]
    )


def _click(page, selector):
    page.locator(selector).first.click()
    return page.evaluate("window.__played.slice()")


@pytest.mark.parametrize("game", GAMES)
def test_clicking_a_target_plays_its_move(page, game):
    """A real mouse click on a target (not hidden under another element) plays it; for a two-step
    choice (a Purzelbaum branch end, a Nutz! hand card) after the selection click."""
    page.errors.clear()
    g, cases = _cases(game, 3, seed=7)
    clicked = set()
    for view, ctx, _, seat in cases:
        if not ctx["legal"] or (game in HIDDEN and seat is None):
            continue
        summary = _render_one(page, game, g.params, view, ctx)
        strings = {m["action"]: m["action_string"] for m in ctx["legal"]}
        if summary["selects"] and not summary["targets"]:
            first = page.locator(".select").first
            step = first.get_attribute("data-end") or first.get_attribute("data-probe")
            first.click()
            summary = page.evaluate("window.summary()")
            assert summary["targets"], f"no targets after choosing {step}"
            played = _click(page, ".target")
            assert [str(a) for a in played] == summary["targets"][:1]
            move = strings[played[0]]
            if game == "purzelbaum":
                assert move.endswith(f"end {step}"), (move, step)
            else:
                _, s, i = step.split(":")
                card = view["hands"][int(s)][int(i)]
                assert move.startswith(f"{card} "), (move, card)
            clicked.add("two-step")
        elif summary["targets"]:
            kind = strings[int(summary["targets"][0])].split()[0]
            if kind in clicked:
                continue
            played = _click(page, ".target")
            assert [str(a) for a in played] == summary["targets"][:1], (played, summary["targets"])
            clicked.add(kind)
    assert page.errors == [], page.errors
    assert clicked, f"{game}: no target clicked"
    if game in ("purzelbaum", "nutz"):
        assert "two-step" in clicked


def test_purzelbaum_disks_are_clickable_at_their_centre(page):
    """The tree's branches lie under the disks, and once a branch end is chosen the ends do too: a disk
    takes a click at its centre."""
    page.errors.clear()
    g, cases = _cases("purzelbaum", 2, seed=3, count=3)
    view, ctx, _, _ = cases[0]  # the start: every disk green, every end full
    _render_one(page, "purzelbaum", g.params, view, ctx)
    covered = []
    for end in page.eval_on_selector_all(".select[data-end]", "ns => ns.map(n => n.getAttribute('data-end'))"):
        page.locator(f'.select[data-end="{end}"]').click()
        covered += page.evaluate(
            """() => [...document.querySelectorAll('#board .target')].flatMap(t => {
                const r = t.querySelector('.hit').getBoundingClientRect();
                const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                return hit && hit.closest('.target') === t ? [] : [t.getAttribute('data-action')];
            })"""
        )
        # Once an end is chosen the disks lie over the ends: Escape drops the choice before the next end.
        page.keyboard.press("Escape")
    assert page.errors == [], page.errors
    assert not covered, f"disks whose centre another element covers: {sorted(set(covered))}"


# ----- move entry on the board, the hint and the last move, points, phone layouts

ENTRY_POSITIONS = 8
MOVES_PER_POSITION = 24
# The last moves that have a place on the board (marked with class "last").
PLACED_LAST = {
    "auf_die_nuesse": (
        r"^(space \d+|take slot \d|store \d|put [ABDE]|steal seat \d store \d|joker \S+ as \S+ store \d)$"
    ),
    "nutz": r"^(take tree \d+|\S+ (face down )?to tree \d+)$",
    "purzelbaum": r"^(target \d+ end \d+|bury \d+|dig \d+|lands at hole \d+)$",
    "ritter": r"^to \S+$",
}
PLAYER_CONFIGS = [(game, players) for game in GAMES for players in (2, 3, 4)]
PLAYER_IDS = [f"{g}-{n}" for g, n in PLAYER_CONFIGS]


def _movers(game, players, seed, count):
    """The views a player to move sees (its own seat's view in a game of hidden information), with the
    legal moves: (view, ctx)."""
    g, cases = _cases(game, players, seed, count)
    out = []
    for view, ctx, _, seat in cases:
        if ctx["legal"] and (seat is not None or game not in HIDDEN):
            out.append((view, ctx))
    return g, out


@pytest.mark.parametrize(("game", "players"), PLAYER_CONFIGS, ids=PLAYER_IDS)
def test_every_legal_move_is_reachable_on_the_board(page, game, players):
    """Clicking through the board's steps (a target, or a step that leads to it) plays exactly the intended
    move, for every legal move of sampled positions, and boardEntry says so."""
    page.errors.clear()
    g, movers = _movers(game, players, seed=31 * players + 5, count=3 * ENTRY_POSITIONS)
    rng = random.Random(players)
    reached = 0
    stepped = 0
    for view, ctx in movers[::3]:
        legal = ctx["legal"]
        assert page.evaluate("([g, l, c]) => window.callBoard(g, 'boardEntry', [l, c])", [game, legal, ctx]) is True
        actions = [m["action"] for m in legal]
        if len(actions) > MOVES_PER_POSITION:
            actions = rng.sample(actions, MOVES_PER_POSITION)
        results = page.evaluate(
            "([g, v, c, a]) => window.reachAll(g, v, c, a)", [game, view, {**ctx, "params": g.params}, actions]
        )
        for r in results:
            assert r["played"] == [r["action"]], (game, players, view.get("phase"), r)
            reached += 1
            stepped += r["steps"] > 0
    assert page.errors == [], page.errors
    assert reached > 0
    if game in ("purzelbaum", "nutz"):
        assert stepped > 0, "no move took a step: the steps were not tried"


def test_board_entry_is_false_for_a_move_the_board_does_not_draw(page):
    for game in GAMES:
        legal = [{"action": 999, "action_string": "an unknown move"}]
        assert page.evaluate("([g, l]) => window.callBoard(g, 'boardEntry', [l, {}])", [game, legal]) is False


@pytest.mark.parametrize(("game", "players"), PLAYER_CONFIGS, ids=PLAYER_IDS)
def test_hint_and_last_move_are_marked(page, game, players):
    """ctx.hint marks the target (or first step) of that move and nothing else; ctx.last marks a place
    for the moves that have one, and no .last without a last move."""
    page.errors.clear()
    g, movers = _movers(game, players, seed=11 * players + 1, count=24)
    rng = random.Random(players + 100)
    marked_last = 0
    for view, ctx in movers[::2]:
        hint = rng.choice(ctx["legal"])["action"]
        _render_one(page, game, g.params, view, {**ctx, "hint": hint, "last": None})
        marks = page.evaluate("window.marks()")
        assert marks["hinted"], (game, view.get("phase"), hint)
        assert all(str(hint) in ids for ids in marks["hinted"]), (hint, marks["hinted"])
        assert marks["last"] == 0
    _, cases = _cases(game, players, seed=11 * players + 1, count=24)
    for view, ctx, _, _ in cases:
        last = ctx["last"]
        by_a_player = last and last["player"] is not None and last["player"] >= 0
        if by_a_player and re.match(PLACED_LAST[game], last["action_string"]):
            _render_one(page, game, g.params, view, ctx)
            assert page.evaluate("window.marks()")["last"] >= 1, last
            marked_last += 1
    assert page.errors == [], page.errors
    assert marked_last > 0, "no last move with a place met"


def _final(game, players, seed):
    g = nutcore.load_game(game, players=players)
    state = g.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return g, state


@pytest.mark.parametrize(("game", "players"), PLAYER_CONFIGS, ids=PLAYER_IDS)
def test_points_add_up_to_the_score(page, game, players):
    page.errors.clear()
    for seed in range(3):
        g, state = _final(game, players, seed)
        scores = state.scores()
        views = [state.to_json()] + ([state.observation_json(s) for s in range(players)] if game in HIDDEN else [])
        for view in views:
            parts = page.evaluate("([g, v, p]) => window.callBoard(g, 'points', [v, p])", [game, view, g.params])
            assert isinstance(parts, list) and len(parts) == players, parts
            for s, seat_parts in enumerate(parts):
                assert all(isinstance(p["label"], str) and p["label"] for p in seat_parts)
                assert not any(re.search(r"[a-z]_[a-z]", p["label"]) for p in seat_parts), seat_parts
                assert sum(p["value"] for p in seat_parts) == scores[s], (seed, s, seat_parts, scores)
    assert page.errors == [], page.errors


# The boards with a phone layout so far (Auf die Nüsse! and Nutz! still draw their wide board).
PHONE_CONFIGS = [(game, players) for game, players in PLAYER_CONFIGS if game in ("purzelbaum", "ritter")]


@pytest.mark.parametrize(("game", "players"), PHONE_CONFIGS, ids=[f"{g}-{n}" for g, n in PHONE_CONFIGS])
def test_phone_layout_text_is_large_and_apart(page, game, players):
    """At 390 px: every board text at least 11 px on screen, no two texts overlapping, no internal
    identifier (snake_case) in the text."""
    page.errors.clear()
    g, cases = _cases(game, players, seed=17 * players, count=8)
    page.evaluate("window.setWidth(390)")
    try:
        for view, ctx, _, seat in cases:
            _render_one(page, game, g.params, view, ctx)
            texts = page.evaluate("window.texts()")
            where = (game, players, view.get("phase"), seat)
            small = [(t["text"], round(t["px"], 1)) for t in texts if t["px"] < 11]
            assert not small, (where, small)
            snake = [t["text"] for t in texts if re.search(r"[a-z]_[a-z]", t["text"])]
            assert not snake, (where, snake)
            for i, a in enumerate(texts):
                for b in texts[i + 1 :]:
                    w = min(a["box"][2], b["box"][2]) - max(a["box"][0], b["box"][0])
                    h = min(a["box"][3], b["box"][3]) - max(a["box"][1], b["box"][1])
                    assert w <= 1 or h <= 1, (where, a["text"], b["text"])
    finally:
        page.evaluate("window.setWidth(900)")
    assert page.errors == [], page.errors


def test_purzelbaum_choice_is_shown_and_cancelled(page):
    """A chosen branch end carries class chosen; Escape or the cancel button drops it."""
    page.errors.clear()
    g, cases = _cases("purzelbaum", 2, seed=3, count=3)
    view, ctx, _, _ = cases[0]
    _render_one(page, "purzelbaum", g.params, view, ctx)
    page.locator(".select[data-end]").first.click()
    assert page.evaluate("window.marks()")["chosen"] == 1
    page.keyboard.press("Escape")
    assert page.evaluate("window.marks()")["chosen"] == 0
    page.locator(".select[data-end]").first.click()
    page.locator(".select.cancel").click()
    assert page.evaluate("window.marks()")["chosen"] == 0
    assert page.errors == [], page.errors


def test_auf_die_nuesse_jokers_go_through_the_chooser(page):
    """A store a joker can enter in several ways opens the chooser; each of its buttons plays its move."""
    page.errors.clear()
    through_chooser = 0
    for seed in range(6):
        g, movers = _movers("auf_die_nuesse", 3, seed, 120)
        for view, ctx in movers:
            if not any(m["action_string"].startswith("joker ") for m in ctx["legal"]):
                continue
            actions = [m["action"] for m in ctx["legal"]]
            results = page.evaluate(
                "([g, v, c, a]) => window.reachAll(g, v, c, a)",
                ["auf_die_nuesse", view, {**ctx, "params": g.params}, actions],
            )
            for r in results:
                assert r["played"] == [r["action"]], r
                through_chooser += r["steps"] > 0
        if through_chooser:
            break
    assert page.errors == [], page.errors
    assert through_chooser > 0, "no joker met with a choice to make"
