"""`nutcore serve`: the WebSocket transport of the engine protocol and the page, in a real browser
(Playwright driving the system's Chromium, tests/helpers/browser.py). A full game of every game through the
page, the human's moves by clicks; an illegal click refused; the AI panel; hot seat; and for the
games of hidden information, that the page shows a seat nothing it has not seen: at the human's
turns the test swaps the server's true state for another the seat cannot tell from it, and the page
must then look exactly the same."""

from __future__ import annotations

import contextlib
import json
import random
import re
import threading
import time

import pytest

import nutcore

uvicorn = pytest.importorskip("uvicorn")
pytest.importorskip("starlette")
ws_client = pytest.importorskip("websockets.sync.client")

from nutcore.engine import MAX_LINE_BYTES  # noqa: E402
from nutcore.web.server import bind, create_app, url_of  # noqa: E402

HIDDEN = [g for g in nutcore.list_games() if nutcore.load_game(g).hidden_information]
PERFECT = [g for g in nutcore.list_games() if not nutcore.load_game(g).hidden_information]

# Small games where the rules allow: the human plays one seat against the greedy bot.
GAMES = {
    "auf_die_nuesse": {"turn_cap": 6},
    "purzelbaum": {"turn_cap": 10},
    "ritter": {"turn_cap": 16},
    "nutz": {"turn_cap": 14},
}


@contextlib.contextmanager
def serving(app, port: int = 0):
    """`app` (nutcore serve's) on 127.0.0.1:`port` (0: a free one), served by uvicorn in a thread:
    its base URL."""
    sock = bind("127.0.0.1", port)
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws_max_size=MAX_LINE_BYTES + 1024))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    try:
        yield url_of(sock)
    finally:
        srv.should_exit = True
        thread.join(10)
        sock.close()


@pytest.fixture(scope="module")
def server():
    """The app on a free port, served by uvicorn in a thread: (base URL, app)."""
    app = create_app()
    with serving(app) as url:
        yield url, app


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server[0])
    pg.wait_for_selector("body[data-ready=true]", timeout=15000)
    yield pg
    context.close()
    assert not errors, errors  # no uncaught exception in the page


# ----- driving the page


def set_seat(page, s: int, spec: str) -> None:
    """Seat s plays `spec`: a choice of the seat's list where it is one, else a custom spec."""
    values = page.eval_on_selector_all(f"#seat-choice-{s} option", "os => os.map(o => o.value)")
    if spec in values and spec != "custom":
        page.select_option(f"#seat-choice-{s}", spec)
    else:
        page.select_option(f"#seat-choice-{s}", "custom")
        page.fill(f"#seat-{s}", spec)


def setup(page, game: str, seats: list[str], params: dict, seed: int = 1) -> None:
    if page.is_hidden("#setup"):  # folded away after a Start
        page.click("#new-game")
    page.select_option("#game", game)
    page.select_option("#players", str(len(seats)))
    for s, spec in enumerate(seats):
        set_seat(page, s, spec)
    # The fields in the closed "Parameters and seed" box, and no pause between automatic steps.
    page.evaluate(
        """([params, seed]) => {
            document.getElementById('params').value = params;
            document.getElementById('seed').value = seed;
            document.getElementById('delay').value = '0';
        }""",
        [json.dumps(params), str(seed)],
    )


def renders(page) -> int:
    return int(page.evaluate("Number(document.body.dataset.renders || 0)"))


def wait_settled(page, after: int, timeout: float = 30000) -> str:
    """Waits for a drawing after `after` that waits for the user; its phase."""
    page.wait_for_function(
        f"Number(document.body.dataset.renders || 0) > {after} && document.body.dataset.phase !== 'auto'",
        timeout=timeout,
    )
    return page.evaluate("document.body.dataset.phase")


def move_then_undo(page, actions):
    """Plays the first of `actions` (the moves on offer), then Undo: the same moves on offer again."""
    history_before = page.locator("#history .step").count()
    click_move(page, actions[0])
    assert page.locator("#history .step").count() > history_before
    assert page.is_enabled("#undo")
    n = renders(page)
    page.click("#undo")
    wait_settled(page, n)
    assert page.locator("#history .step").count() == history_before
    assert legal_actions(page) == actions


def start(page, game, seats, params, seed=1) -> str:
    setup(page, game, seats, params, seed)
    before = renders(page)
    page.click("#start")
    return wait_settled(page, before)


def click_move(page, action: str, blocked: list | None = None) -> bool:
    """Clicks a board target of `action` when the board shows one, else its move button; whether a
    target was clicked. A target that cannot be clicked (covered by another element) is noted in
    `blocked` and the button is used."""
    from playwright.sync_api import Error as PlaywrightError

    before = renders(page)
    target = page.locator(f'#board .target[data-action="{action}"]')
    used_target = target.count() > 0
    if used_target:
        try:
            target.first.click(timeout=3000)
        except PlaywrightError:
            used_target = False
            if blocked is not None:
                blocked.append(page.eval_on_selector(f'button.move[data-action="{action}"]', "b => b.textContent"))
    if not used_target:
        show_move_list(page)
        page.locator(f'button.move[data-action="{action}"]').click()
    wait_settled(page, before)
    return used_target


def legal_actions(page) -> list[str]:
    return page.eval_on_selector_all("button.move", "bs => bs.map(b => b.dataset.action)")


def show_move_list(page) -> None:
    """Where the board offers every move itself, the move buttons sit in a closed "All moves as a
    list" (#move-list): opens it, as a player who prefers the list does."""
    if page.locator("#move-list:not([open]) > summary").count():
        page.click("#move-list > summary")


def engine_of(app):
    """The server-side engine of the test's only connection."""
    engines = list(app.state.engines)
    assert len(engines) == 1, engines
    return engines[0]


def page_snapshot(page) -> str:
    """Everything the page shows of the game (the error box aside): the HTML of the board, the
    moves, the text board, the AI panel and the move list."""
    return page.evaluate(
        """() => ['board', 'moves', 'text-board', 'ai', 'history', 'status']
            .map(id => document.getElementById(id).outerHTML).join('\\n')"""
    )


def swap_for_twin(engine, seat: int, rng: random.Random) -> tuple[bool, list[str]]:
    """Replaces the engine's true state by another that `seat` cannot tell from it. Returns whether
    the two differ, and the lines of the true state's full text board that the other lacks (what
    depends on cards the seat has not seen: the page must never show them)."""
    state = engine._full_state()
    view = state.information_state_string(seat)
    for _ in range(30):
        world = state.resample_from_infostate(seat, rng.getrandbits(62))
        if world.information_state_string(seat) == view:
            engine._replace_full_state(world)
            other = set(str(world).splitlines())
            return str(world) != str(state), [line for line in str(state).splitlines() if line not in other]
    return False, []


def play_through(page, app, game: str, params: dict, *, seat_checks: bool = False, seed: int = 1) -> dict:
    """A whole game, the human at seat 0 against greedy; returns counts of what happened."""
    rng = random.Random(seed)
    phase = start(page, game, ["human", "greedy"], params, seed)
    counts = {"moves": 0, "targets": 0, "twins": 0, "twins_differ": 0}
    blocked: list[str] = []
    while phase != "over":
        assert phase == "move", phase
        actions = legal_actions(page)
        assert actions
        if seat_checks and counts["moves"] % 3 == 0:
            twin_check(page, app, rng, counts)
        counts["targets"] += click_move(page, rng.choice(actions), blocked)
        counts["moves"] += 1
        assert counts["moves"] < 400
        phase = page.evaluate("document.body.dataset.phase")
    assert page.text_content("#status").startswith("Game over")
    assert not blocked, f"board targets covered by other elements: {blocked}"
    assert page.locator("button.move").count() == 0
    return counts


def twin_check(page, app, rng, counts) -> None:
    """The page must show the same whatever the cards the seat has not seen: swap the server's truth
    for a world the seat cannot tell from it, have the page draw again (a forged click is refused
    and the page asks for the board and the moves again), compare."""
    engine = engine_of(app)
    before = page_snapshot(page)
    differ, secret = swap_for_twin(engine, 0, rng)
    counts["twins"] += 1
    counts["twins_differ"] += differ
    n = renders(page)
    forged_click(page)
    wait_settled(page, n)
    assert page.is_visible("#error")
    assert page_snapshot(page) == before
    text = page.evaluate("document.documentElement.outerHTML")
    leaked = [line for line in secret if line in text]
    assert not leaked, leaked


def forged_click(page) -> None:
    """A move button whose action was changed in the page to one that is not legal."""
    page.evaluate(
        """() => { const b = document.querySelector('button.move'); b.dataset.action = '987654'; b.click(); }"""
    )


# ----- whole games


@pytest.mark.parametrize("game", PERFECT)
def test_full_game_perfect_information(page, server, game):
    counts = play_through(page, server[1], game, GAMES[game])
    assert counts["moves"] >= 3
    if game == "auf_die_nuesse":
        chance = page.eval_on_selector_all("#history .step.chance", "ls => ls.map(l => l.textContent)")
        assert chance and "(hidden)" not in chance, chance[:5]
        who = page.eval_on_selector_all("#history .who", "ls => ls.map(l => l.textContent)")
        assert "You" in who and "Hazel" in who, who


@pytest.mark.parametrize("game", HIDDEN)
def test_full_game_hidden_information_shows_only_the_seat_view(page, server, game):
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    counts = play_through(page, server[1], game, GAMES[game], seat_checks=True)
    assert counts["twins"] >= 2 and counts["twins_differ"] >= 1, counts
    # One human: the page played seat 0's connection, so it was never sent another seat's view.
    replies = [json.loads(f) for f in frames]
    assert any(r["type"] == "new_game" and r["seat"] == 0 for r in replies)
    assert all(r.get("seat") in (0, None) for r in replies if r["type"] == "board")
    assert not any(r["type"] == "get_position" for r in replies)
    # Another seat's private draws and moves reached the page as hidden: only their public part,
    # without the action's id (engine-protocol.md, "What a seat sees of a move").
    assert any(r["type"] == "chance" and r["hidden"] and r["outcome"]["action"] is None for r in replies)
    assert any(r["type"] == "go" and r["player"] == 1 and r["hidden"] and r["move"]["action"] is None for r in replies)
    assert page.is_disabled("#save")  # a seat's connection may not read the position


def test_the_twin_check_catches_a_page_that_shows_the_truth(page, server):
    """The check above can fail: a page that draws the true state (as a host would) differs."""
    start(page, "nutz", ["human", "greedy"], GAMES["nutz"])
    engine = engine_of(server[1])
    truth = str(engine._full_state())
    page.evaluate("t => { document.getElementById('text-board').textContent = t; }", truth)
    before = page_snapshot(page)
    differ, secret = swap_for_twin(engine, 0, random.Random(5))
    assert differ
    page.evaluate("t => { document.getElementById('text-board').textContent = t; }", str(engine._full_state()))
    assert page_snapshot(page) != before
    assert any(line in before for line in secret)


# ----- the page's controls


def test_illegal_click_hint_undo_and_save(page, server):
    phase = start(page, "auf_die_nuesse", ["human", "greedy"], GAMES["auf_die_nuesse"])
    assert phase == "move"
    actions = legal_actions(page)
    # A forged action: the engine's error is shown and the turn goes on.
    n = renders(page)
    forged_click(page)
    wait_settled(page, n)
    assert "not a legal move" in page.text_content("#error")
    assert legal_actions(page) == actions
    # The hint fills the AI panel while the AI thinks (the search so far, a bar per move), then with
    # the best move, its value, a bar per move.
    page.select_option("#hint-budget", "1")
    page.click("#hint")
    page.wait_for_function("document.querySelector('#ai-best').textContent.includes('so far')", timeout=20000)
    assert page.locator("#ai-bars li").count() == len(actions)
    page.wait_for_function("document.querySelector('#ai-best').textContent.includes('chance to win')", timeout=20000)
    best = page.text_content("#ai-best")
    assert "chance to win" in best and "so far" not in best
    assert page.locator("#ai-bars li").count() == len(actions)
    assert page.locator("#ai-bars li.best").count() == 1
    # A legal click after the refused one; then undo takes it back.
    move_then_undo(page, actions)
    # Save downloads the position as JSON; load plays it on.
    with page.expect_download() as download:
        page.click("#save")
    with open(download.value.path(), encoding="utf-8") as f:
        saved = json.load(f)
    assert saved["game"] == "auf_die_nuesse" and saved["position"]["current_player"] == 0
    path = download.value.path()
    n = renders(page)
    page.set_input_files("#load", str(path))
    wait_settled(page, n)
    assert legal_actions(page) == actions
    assert "Game loaded" in page.text_content("#history")


def test_a_click_during_the_pause_between_automatic_steps(page, server):
    """After an automatic step the page draws the human's turn, with live moves, and then pauses. A
    click in that pause is the human's move: the one game loop takes it up, and no second loop
    draws a chance outcome twice or asks the bot to move on the human's turn."""
    sent: list[dict] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(json.loads(payload))))
    page.reload()
    page.wait_for_selector("body[data-ready=true]", timeout=15000)
    # A bot that thinks for longer than the pause, so that a second loop would meet its search.
    setup(page, "purzelbaum", ["human", "mcts:time_limit=1"], GAMES["purzelbaum"], seed=2)
    page.evaluate("document.getElementById('delay').value = '800'")
    n = renders(page)
    page.click("#start")
    assert wait_settled(page, n) == "move"
    rng = random.Random(3)
    rounds = 2
    for _ in range(rounds + 1):
        # click_move returns at the first drawing of the human's turn: the one in the pause.
        click_move(page, rng.choice(legal_actions(page)))
    page.wait_for_timeout(2500)  # long enough for a second loop, were there one, to act
    assert page.is_hidden("#error"), page.text_content("#error")
    assert page.evaluate("document.body.dataset.phase") == "move"
    steps = [m["cmd"] for m in sent if m["cmd"] in ("apply", "chance", "go")]
    # Purzelbaum: the human shoves, the nut tumbles, the bot shoves, its nut tumbles.
    assert steps == ["apply", "chance", "go", "chance"] * (rounds + 1), steps


def test_hot_seat_hides_the_board_between_two_humans(page, server):
    phase = start(page, "ritter", ["human", "human"], GAMES["ritter"], seed=3)
    assert phase == "curtain"
    assert page.is_visible("#curtain") and "Player 1" in page.text_content("#curtain")
    assert page.locator("#board svg, #board pre").count() == 0 and page.text_content("#text-board") == ""
    engine = engine_of(server[1])
    assert engine._seat is None  # the page hosts the game
    for _ in range(4):
        seat = engine._full_state().current_player()
        n = renders(page)
        page.click("#curtain-button")
        assert wait_settled(page, n) == "move"
        view = engine._full_state().information_state_string(seat)
        assert page.text_content("#text-board") == view  # that seat's view, nothing more
        assert page.is_disabled("#save")
        n = renders(page)
        show_move_list(page)
        page.locator("button.move").first.click()
        phase = wait_settled(page, n)
        if phase != "curtain":
            break
        assert page.text_content("#text-board") == "" and page.locator("button.move").count() == 0
    history = page.eval_on_selector_all("#history .step", "ls => ls.map(l => l.textContent)")
    assert history and all(h.endswith("(hidden)") for h in history), history


def test_watching_bots_and_stopping_a_search(page, server):
    setup(page, "auf_die_nuesse", ["mcts:iterations=2000000,time_limit=20", "greedy"], {"turn_cap": 3})
    page.click("#start")
    # The bot thinks for up to 20 s: the page stays responsive, shows progress, and Stop ends it.
    page.wait_for_function("document.getElementById('ai-progress').textContent.includes('thinking')", timeout=20000)
    page.click("#stop")
    page.wait_for_selector("#resume:not([hidden])", timeout=10000)
    page.wait_for_selector("#ai-bars li", timeout=10000)  # statistics (the progress lines show them too)
    # The stopped search's move arrives after its last progress line: wait for it, not for the bars.
    page.wait_for_function("document.getElementById('ai-title').textContent.includes('played')", timeout=10000)


# ----- the WebSocket


def ask(ws, **msg) -> dict:
    ws.send(json.dumps(msg))
    while True:
        reply = json.loads(ws.recv(timeout=30))
        if reply.get("id") == msg.get("id") and reply["type"] != "info":
            return reply


def test_websocket_bad_input_limits_and_a_socket_closed_mid_search(server):
    url, app = server
    wsurl = url.replace("http://", "ws://") + "ws"
    with ws_client.connect(wsurl) as ws:
        ws.send("this is not JSON")
        assert json.loads(ws.recv(timeout=10))["error"] == "bad_json"
        ws.send(b"\xff\xfe")
        assert json.loads(ws.recv(timeout=10))["error"] == "bad_json"
        assert ask(ws, cmd="warp", id=1)["error"] == "unknown_command"
        ws.send("[1, 2]")
        assert json.loads(ws.recv(timeout=10))["error"] == "bad_request"
        # No file is read for a client: a parameter that is data is given as data.
        err = ask(ws, cmd="new_game", game="nutz", players=2, seat=0, params={"cards": "/etc/passwd"}, id=2)
        assert err["error"] == "bad_request" and "no files" in err["message"]
        assert (
            ask(ws, cmd="new_game", game="ritter", players=2, seat=0, params={"shout_resolution": "separate"}, id=3)[
                "type"
            ]
            == "new_game"
        )
        assert ask(ws, cmd="new_game", game="auf_die_nuesse", players=2, seed=1, id=4)["type"] == "new_game"
        while ask(ws, cmd="status", id=5)["status"]["chance"]:
            ask(ws, cmd="chance", id=6)
        for bad in ({"time_limit": 3600}, {"threads": 1000}, {"iterations": 10**12}, {"options": {"max_nodes": 10**9}}):
            err = ask(ws, cmd="best_move", id=7, **bad)
            assert err["error"] == "bad_request" and "at most" in err["message"], err
        err = ask(ws, cmd="go", bot="mcts:iterations=999999999999", id=8)
        assert err["error"] == "bad_request" and "at most" in err["message"]
        assert ask(ws, cmd="best_move", iterations=50, id=9)["type"] == "best_move"
        # An illegal move: the engine's error; the connection lives on.
        assert ask(ws, cmd="apply", moves=["store 99"], id=10)["error"] == "illegal_move"
        assert ask(ws, cmd="hello", id=11)["type"] == "hello"

    # A socket closed in the middle of a long search: the search stops, another client is served.
    with ws_client.connect(wsurl) as first:
        ask(first, cmd="new_game", game="auf_die_nuesse", players=2, seed=2, id=1)
        while ask(first, cmd="status", id=2)["status"]["chance"]:
            ask(first, cmd="chance", id=3)
        first.send(json.dumps({"cmd": "best_move", "time_limit": 25, "id": "long"}))
        assert json.loads(first.recv(timeout=10))["type"] == "info"  # it is running
    with ws_client.connect(wsurl) as second:
        assert ask(second, cmd="hello", id=1)["type"] == "hello"
        ask(second, cmd="new_game", game="purzelbaum", players=2, seed=3, id=2)
        assert ask(second, cmd="legal", id=3)["type"] == "legal"
    deadline = time.monotonic() + 5
    while app.state.engines or any(t.name.startswith("nutcore-best_move") for t in threading.enumerate()):
        assert time.monotonic() < deadline, "the closed socket's search still runs"
        time.sleep(0.05)


def test_websocket_refuses_other_origins(server):
    url, _ = server
    wsurl = url.replace("http://", "ws://") + "ws"
    from websockets.exceptions import InvalidStatus

    with pytest.raises(InvalidStatus, match="403"):
        with ws_client.connect(wsurl, origin="http://evil.example", open_timeout=5):
            pass
    with ws_client.connect(wsurl, origin=url.rstrip("/")) as ws:  # the page's own origin
        assert ask(ws, cmd="hello", id=1)["type"] == "hello"


def test_serve_without_the_web_extra_says_what_to_install(monkeypatch, capsys):
    import builtins

    real = builtins.__import__

    def no_uvicorn(name, *args, **kwargs):
        if name == "uvicorn":
            raise ImportError("No module named 'uvicorn'", name="uvicorn")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_uvicorn)
    from nutcore.cli import main

    assert main(["serve", "--port", "0"]) == 2
    assert 'pip install "nutcore[web]"' in capsys.readouterr().err


def test_games_listed_by_the_page_are_the_engine_s(page):
    names = page.eval_on_selector_all("#game option", "os => os.map(o => o.value)")
    assert names == nutcore.list_games()


def test_the_seats_choices_are_the_engine_s(page, server):
    """Per game the page offers what list_games says, and nothing of its own but a person and a custom
    spec: the engine's default bot, then its levels in order, each described in words; the default bot
    on the seats after the first."""
    wsurl = server[0].replace("http://", "ws://") + "ws"
    with ws_client.connect(wsurl) as ws:
        games = ask(ws, cmd="list_games", id=1)["games"]
    for g in games:
        page.select_option("#game", g["name"])
        values = page.eval_on_selector_all("#seat-choice-1 option", "os => os.map(o => o.value)")
        assert values == ["human", g["default_bot"], *[level["bot"] for level in g["levels"]], "custom"], g["name"]
        labels = page.eval_on_selector_all("#seat-choice-1 option", "os => os.map(o => o.textContent)")
        n = len(g["levels"])
        for i, label in enumerate(labels[2:-1]):
            assert label.startswith(f"Level {i + 1} of {n} · "), label
            assert not re.search(r"[a-z](:[a-z]|=|_)", label), label  # words, not the spec
        assert page.input_value("#seat-choice-0") == "human" and page.input_value("#seat-choice-1") == g["default_bot"]


# ----- a page a new player can pick up (issue 46)


def test_game_over_screen(page, server):
    """At the end: who won in words, each seat's points, why the game ended, Play again; no old hint
    and no Undo."""
    phase = start(page, "auf_die_nuesse", ["human", "greedy"], GAMES["auf_die_nuesse"])
    page.click("#hint")
    page.wait_for_function("document.querySelector('#ai-best').textContent.includes('chance to win')", timeout=20000)
    rng = random.Random(4)
    while phase != "over":
        click_move(page, rng.choice(legal_actions(page)))
        phase = page.evaluate("document.body.dataset.phase")
    assert page.is_visible("#game-over")
    returns = engine_of(server[1])._full_state().returns()
    title = page.text_content("#over-title")
    if returns[0] == returns[1]:
        assert title == "It is a draw."
    else:
        assert title == ("You won!" if returns[0] > returns[1] else "Hazel won.")
    points = page.eval_on_selector_all("#over-points > li", "ls => ls.map(l => l.textContent)")
    assert len(points) == 2 and points[0].startswith("You: ") and points[1].startswith("Hazel: "), points
    assert all("points" in p for p in points)
    assert "limit of 6 turns" in page.text_content("#over-reason")
    assert page.text_content("#ai-best") == "" and page.locator("#ai-bars li").count() == 0
    assert page.is_disabled("#undo")
    n = renders(page)
    page.click("#play-again")
    assert wait_settled(page, n) == "move"
    assert page.is_hidden("#game-over") and page.locator("#history .step").count() > 0


@pytest.mark.parametrize("spec", ["Hard", "level 5", "level:12", "mcts:iterations"])
def test_a_custom_bot_is_checked_at_start(page, spec):
    setup(page, "auf_die_nuesse", ["human", spec], GAMES["auf_die_nuesse"])
    page.click("#start")
    page.wait_for_selector("#error:not([hidden])", timeout=5000)
    assert "Player 2" in page.text_content("#error") and "not a bot" in page.text_content("#error")
    assert page.evaluate("document.body.dataset.renders") is None  # no game was started


def test_a_level_is_a_choice_and_thinking_shows_progress_on_a_hidden_game(page):
    """The levels are offered by name; and on a game of hidden information, where the seat may not
    see the bot's statistics, its thinking still shows how long it has been at it."""
    setup(page, "nutz", ["human", "level:3"], GAMES["nutz"])
    assert page.input_value("#seat-choice-1") == "level:3" and page.is_hidden("#seat-1")
    set_seat(page, 1, "ismcts:iterations=2000000,time_limit=20")
    page.click("#start")
    # The human's moves until the bot thinks (it may move first).
    for _ in range(20):
        page.wait_for_function(
            "document.getElementById('ai-progress').textContent.includes('thinking')"
            " || document.querySelector('button.move:not(:disabled)') !== null",
            timeout=20000,
        )
        if "thinking" in page.text_content("#ai-progress"):
            break
        page.locator("button.move").first.evaluate("b => b.click()")
    page.wait_for_function("document.getElementById('ai-progress').textContent.includes('thinking')", timeout=20000)
    assert "is thinking" in page.text_content("#status")
    assert page.locator("#ai-bars li").count() == 0  # no statistics of another seat
    page.click("#stop")
    page.wait_for_selector("#resume:not([hidden])", timeout=10000)


def test_phone_layout(browser, server):
    """At 390 x 844: the setup folds away after Start, the board fills the width with text of at least
    11 px on screen, buttons are 44 px touch targets, and nothing scrolls by itself."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    pg = context.new_page()
    pg.goto(server[0])
    pg.wait_for_selector("body[data-ready=true]", timeout=15000)
    try:
        phase = start(pg, "auf_die_nuesse", ["human", "greedy"], GAMES["auf_die_nuesse"])
        assert pg.is_hidden("#setup") and pg.is_visible("#new-game")
        rng = random.Random(2)
        for _ in range(4):
            assert phase == "move"
            sizes = pg.evaluate(
                """() => {
                    const svg = document.querySelector('#board svg');
                    const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
                    const texts = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim());
                    return {width: svg.getBoundingClientRect().width,
                            min: Math.min(...texts.map(t => parseFloat(getComputedStyle(t).fontSize) * k))};
                }"""
            )
            assert sizes["width"] >= 390 - 2 * 16, sizes
            assert sizes["min"] >= 11 - 0.01, sizes  # layout rounds to 1/64 px
            boxes = pg.eval_on_selector_all(
                "button:not([hidden])",
                "bs => bs.filter(b => b.offsetParent !== null)"
                ".map(b => [b.id || b.textContent, b.getBoundingClientRect().height])",
            )
            small = [b for b in boxes if b[1] < 44]
            assert boxes and not small, small
            # A click as a tap would make it (no scrolling by the test driver): the window stays put.
            n = renders(pg)
            pg.evaluate(
                'a => document.querySelector(`button.move[data-action="${a}"]`).click()', rng.choice(legal_actions(pg))
            )
            phase = wait_settled(pg, n)
            assert pg.evaluate("window.scrollY") == 0
        pg.click("#new-game")
        assert pg.is_visible("#setup")
    finally:
        context.close()


PHASE_WORDS = re.compile(r"\b[a-z]+_[a-z_]+\b|\bterminal\b|\b[Ss]eat \d\b")


@pytest.mark.parametrize("game", nutcore.list_games())
def test_words_not_identifiers(page, server, game):
    """Through a whole game, the page's visible text holds no snake_case identifier, phase name or
    "seat N", and the game's "How to play" is there."""
    page.select_option("#game", game)
    page.wait_for_function("document.getElementById('rules-body').textContent.length > 300")
    phase = start(page, game, ["human", "greedy"], GAMES[game])
    rng = random.Random(6)
    seen: set[str] = set()
    while True:
        text = page.evaluate("document.body.innerText")
        seen.update(m.group(0) for m in PHASE_WORDS.finditer(text))
        if phase == "over":
            break
        click_move(page, rng.choice(legal_actions(page)))
        phase = page.evaluate("document.body.dataset.phase")
    assert not seen, sorted(seen)


def test_load_keeps_the_opponent_and_the_moves_then_another_game_starts(page, tmp_path):
    setup(page, "auf_die_nuesse", ["human", "level:3"], {"turn_cap": 20})
    n = renders(page)
    page.click("#start")
    wait_settled(page, n)
    click_move(page, legal_actions(page)[0])
    steps = page.eval_on_selector_all("#history .step", "ls => ls.map(l => l.textContent)")
    with page.expect_download() as download:
        page.click("#save")
    page.click("#new-game")
    set_seat(page, 1, "level:4")  # the opponent chosen now is the one that stays
    n = renders(page)
    page.set_input_files("#load", download.value.path())
    wait_settled(page, n)
    assert page.is_hidden("#error"), page.text_content("#error")
    assert page.input_value("#seat-choice-1") == "level:4"
    loaded = page.eval_on_selector_all("#history .step", "ls => ls.map(l => l.textContent)")
    assert loaded[: len(steps)] == steps and "Game loaded" in loaded[len(steps)], loaded
    # A new game of another kind: none of the loaded game's parameters follow it.
    setup(page, "nutz", ["human", "greedy"], {})
    n = renders(page)
    page.click("#start")
    wait_settled(page, n)
    assert page.is_hidden("#error"), page.text_content("#error")


def test_keyboard_load_and_focus_after_a_move(page):
    phase = start(page, "purzelbaum", ["human", "greedy"], GAMES["purzelbaum"])
    page.focus("#save")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "load-button"
    assert phase == "move"
    if page.locator("#move-list").count():  # the board offers the moves: the list opens by keyboard
        page.focus("#move-list > summary")
        page.keyboard.press("Enter")
    page.locator("button.move").first.focus()
    n = renders(page)
    page.keyboard.press("Enter")
    wait_settled(page, n)
    focused = page.evaluate("document.activeElement === document.body ? null : document.activeElement.className")
    assert focused == "move", focused


# ----- the board interface, app side (a test-only board module stands in for a game's)

# Targets for every legal move, the hinted one with class "hint"; what it was told, on <body>; every
# move offered on the board (boardEntry); the points in two parts that add up to the view's scores.
TEST_BOARD = """
export const rules = "<p>A board for the tests.</p>";
export function render(container, view, ctx) {
  document.body.dataset.boardHint = String(ctx.hint);
  document.body.dataset.boardLast = ctx.last ? ctx.last.action_string : "";
  for (const m of ctx.legal) {
    const t = document.createElement("span");
    t.className = m.action === ctx.hint ? "target hint" : "target";
    t.dataset.action = String(m.action);
    t.tabIndex = 0;
    t.setAttribute("role", "button");
    t.textContent = m.action_string;
    t.addEventListener("click", () => ctx.play(m.action));
    container.appendChild(t);
  }
}
export function boardEntry(legal, ctx) {
  return legal.length > 0 && ctx.legal.length === legal.length;
}
export function points(view) {
  return view.scores.map((v) => [{ label: "cards kept", value: v - 2 }, { label: "a bonus for testing", value: 2 }]);
}
"""


def use_test_board(page, game: str) -> None:
    page.route(
        f"**/static/boards/{game}.js",
        lambda route: route.fulfill(status=200, content_type="text/javascript", body=TEST_BOARD),
    )


def hint_request(page, sent: list[dict]) -> dict:
    """Clicks Hint and waits for its move on the board; the best_move request it sent."""
    page.click("#hint")
    page.wait_for_selector("#board .target.hint", timeout=20000)
    asked = [m for m in sent if m["cmd"] == "best_move"]
    assert len(asked) == 1, asked
    return asked[0]


def test_the_hint_on_the_board_the_folded_moves_the_turn_summary_and_the_points(page, server):
    """With a board that offers every move and marks the hint: the move buttons fold into a closed
    list; the hint's move is marked on the board and said in words, and is gone after the next
    move; in a memory game without memory aids the hint is asked as a forgetful player; after the
    bot's turn a line says what it did and the board is told the last move; at the end each seat's
    points come with their parts."""
    sent: list[dict] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(json.loads(payload))))
    use_test_board(page, "ritter")
    page.reload()
    page.wait_for_selector("body[data-ready=true]", timeout=15000)
    phase = start(page, "ritter", ["human", "greedy"], {"turn_cap": 4}, seed=5)
    assert phase == "move"
    # The moves: targets on the board, the buttons in a closed list that still holds them all.
    assert page.is_visible("#move-list") and page.get_attribute("#move-list", "open") is None
    assert page.text_content("#move-list > summary") == "All moves as a list"
    targets = page.eval_on_selector_all("#board .target", "ts => ts.map(t => t.dataset.action)")
    assert targets == legal_actions(page) and page.is_hidden("button.move >> nth=0")
    # The hint: marked on the board (the move the panel names best), in words in the panel.
    request = hint_request(page, sent)
    assert request.get("memory_aids") is False  # Ritter is a memory game, played without aids
    hinted = page.eval_on_selector_all("#board .target.hint", "ts => ts.map(t => t.dataset.action)")
    assert len(hinted) == 1 and page.evaluate("document.body.dataset.boardHint") == hinted[0]
    best = page.text_content("#ai-bars li.best .numbers + span")
    assert best and best in page.text_content("#ai-best")
    assert re.search(r"chance to win|expected value", page.text_content("#ai-best"))
    # The next move takes the hint away, from the board and the panel.
    other = next((a for a in targets if a != hinted[0]), hinted[0])
    phase = wait_after(page, lambda: page.click(f'#board .target[data-action="{other}"]'))
    assert page.locator("#board .hint").count() == 0 and page.text_content("#ai-best") == ""
    seen_summary = seen_last = False
    rng = random.Random(5)
    while phase != "over":
        assert phase == "move", phase
        assert page.evaluate("document.body.dataset.boardHint") == "null"
        summary = page.text_content("#turn-summary") if page.is_visible("#turn-summary") else ""
        seen_summary |= summary.startswith("Hazel's turn: ")
        seen_last |= page.evaluate("document.body.dataset.boardLast") != ""
        action = rng.choice(page.eval_on_selector_all("#board .target", "ts => ts.map(t => t.dataset.action)"))
        phase = wait_after(page, lambda a=action: page.click(f'#board .target[data-action="{a}"]'))
    assert seen_summary and seen_last
    # The game-over screen: each seat's points and, below, the parts they came from.
    scores = engine_of(server[1])._full_state().to_json()["scores"]
    rows = page.locator("#over-points > li")
    assert rows.count() == 2
    for s in range(2):
        assert f": {scores[s]} points" in rows.nth(s).text_content()
        parts = rows.nth(s).locator(".points-parts li").all_text_contents()
        assert parts == [f"cards kept: {scores[s] - 2}", "a bonus for testing: 2"], (parts, scores)


def wait_after(page, act) -> str:
    n = renders(page)
    act()
    return wait_settled(page, n)


def test_with_memory_aids_the_hint_searches_what_the_seat_remembers(page, server):
    sent: list[dict] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(json.loads(payload))))
    use_test_board(page, "ritter")
    use_test_board(page, "auf_die_nuesse")
    page.reload()
    page.wait_for_selector("body[data-ready=true]", timeout=15000)
    setup(page, "ritter", ["human", "greedy"], {"turn_cap": 4}, seed=5)
    page.check("#memory-aids")
    assert wait_after(page, lambda: page.click("#start")) == "move"
    assert "memory_aids" not in hint_request(page, sent)
    # A game with nothing to remember asks as it always did.
    sent.clear()
    assert start(page, "auf_die_nuesse", ["human", "greedy"], GAMES["auf_die_nuesse"]) == "move"
    assert "memory_aids" not in hint_request(page, sent)
