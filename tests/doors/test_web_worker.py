"""The page with no server: the folder `nutcore export-web` writes, served by a plain static file
server (Python's http.server, as `python -m http.server` runs it), in Chromium. The engine runs in
the page's Web Worker (worker.js, the WebAssembly build). A full game of every game by clicks;
hint with live progress, stop, undo, save and load; hot seat; the memory aids; for the games of
hidden information the twin check of test_web.py, here on the worker: at the human's turns the
test swaps the worker's true state for another the seat cannot tell from it, and neither the page
nor anything the worker sends it may change. Throughout, the console shows no error and the page
loads nothing from another origin."""

from __future__ import annotations

import json
import random
import re
import shutil
from urllib.parse import urlsplit

import pytest
from browser import static_server
from test_wasm_js_api import _doc_block
from test_web import (
    GAMES,
    HIDDEN,
    PERFECT,
    click_move,
    forged_click,
    legal_actions,
    move_then_undo,
    page_snapshot,
    renders,
    set_seat,
    setup,
    start,
    wait_settled,
)
from wasm_support import module_dir

import nutcore
from nutcore.web import export


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The exported folder (with the test hooks) on a static server: its base URL."""
    folder = export.export(tmp_path_factory.mktemp("site") / "nutcore", module_dir(), test_hooks=True)
    with static_server(folder) as url:
        yield url


class Worker:
    """The page's Web Worker, as the test sees it: the lines it posted to the page (recorded in the
    worker, from the first message after the engine is ready) and the test hooks straight to its
    engine, whose replies never reach the page."""

    def __init__(self, handle):
        self.handle = handle
        handle.evaluate(
            """() => {
                self.nutcoreSent = [];
                const post = self.postMessage.bind(self);
                self.postMessage = (m) => { self.nutcoreSent.push(m); post(m); };
            }"""
        )

    def sent(self) -> list[dict]:
        return [json.loads(m) for m in self.handle.evaluate("() => self.nutcoreSent") if isinstance(m, str)]

    def direct(self, request: dict) -> dict:
        replies = self.handle.evaluate("line => self.nutcoreDirect(line)", json.dumps(request))
        reply = json.loads(replies[-1])
        assert reply["type"] != "error", reply
        return reply


@pytest.fixture
def page(browser, site):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    problems: list[str] = []
    origins: set[str] = set()
    pg.on("pageerror", lambda e: problems.append(f"page error: {e}"))

    def console(where):
        return lambda m: problems.append(f"{where} console {m.type}: {m.text}") if m.type == "error" else None

    pg.on("console", console("page"))
    pg.on("worker", lambda w: w.on("console", console("worker")))
    pg.on("request", lambda r: origins.add(f"{urlsplit(r.url).scheme}://{urlsplit(r.url).netloc}"))
    pg.goto(site)
    pg.wait_for_selector("body[data-ready=true]", timeout=30000)
    assert pg.text_content("#connection").startswith("in this page (WebAssembly")
    assert len(pg.workers) == 1
    pg.worker = Worker(pg.workers[0])
    yield pg
    context.close()
    assert not problems, problems
    assert origins == {site.rstrip("/")}, origins  # nothing from another origin


def test_setup_lists_the_games_by_title(page):
    titles = page.eval_on_selector_all("#game option", "os => os.map(o => [o.value, o.textContent])")
    expected = {g["name"]: g["title"] for g in nutcore._core.game_infos()}
    assert dict(titles) == expected
    assert "Auf die Nüsse!" in expected.values()


# ----- whole games


def play(page, game: str, params: dict, seed: int = 1, twins: bool = False) -> dict:
    """A whole game by clicks, the human at seat 0 against greedy."""
    rng = random.Random(seed)
    phase = start(page, game, ["human", "greedy"], params, seed)
    counts = {"moves": 0, "twins": 0, "twins_differ": 0}
    while phase != "over":
        assert phase == "move", phase
        actions = legal_actions(page)
        assert actions
        if twins and counts["moves"] % 3 == 0:
            twin_check(page, game, params, rng, counts)
        click_move(page, rng.choice(actions))
        counts["moves"] += 1
        assert counts["moves"] < 400
        phase = page.evaluate("document.body.dataset.phase")
    assert page.text_content("#status").startswith("Game over")
    return counts


@pytest.mark.parametrize("game", PERFECT)
def test_full_game_perfect_information(page, game):
    assert play(page, game, GAMES[game])["moves"] >= 3


@pytest.mark.parametrize("game", HIDDEN)
def test_full_game_hidden_information_shows_only_the_seat_view(page, game):
    counts = play(page, game, GAMES[game], twins=True)
    assert counts["twins"] >= 2 and counts["twins_differ"] >= 1, counts
    replies = page.worker.sent()
    assert any(r["type"] == "new_game" and r["seat"] == 0 for r in replies)
    assert all(r.get("seat") in (0, None) for r in replies if r["type"] == "board")
    assert not any(r["type"] in ("get_position", "_full_state") for r in replies)
    assert page.is_disabled("#save")


def _without_ids(replies: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "id"} for r in replies]


def twin_check(page, game, params, rng, counts) -> None:
    """The seat's page, and the worker's messages to it, must be the same whatever the cards the
    seat has not seen: a forged click makes the page ask for the moves and the board again, before
    and after the worker's true state is swapped for a world the seat cannot tell from it."""

    def redraw() -> list[dict]:
        before = len(page.worker.sent())
        n = renders(page)
        forged_click(page)
        wait_settled(page, n)
        return _without_ids(page.worker.sent()[before:])

    worker = page.worker
    first = redraw()
    snapshot = page_snapshot(page)
    truth = worker.direct({"cmd": "_full_state"})["position"]
    state = nutcore.load_game(game, players=2, **params).state_from_json(truth)
    view = state.information_state_string(0)
    for _ in range(30):
        world = state.resample_from_infostate(0, rng.getrandbits(62))
        if world.information_state_string(0) == view:
            break
    else:
        pytest.fail("no twin found")
    worker.direct({"cmd": "_replace_full_state", "position": world.to_json()})
    counts["twins"] += 1
    counts["twins_differ"] += str(world) != str(state)
    assert redraw() == first  # every message the worker sent the page, the same
    assert page_snapshot(page) == snapshot
    secret = [line for line in str(state).splitlines() if line not in set(str(world).splitlines())]
    text = page.evaluate("document.documentElement.outerHTML")
    assert not [line for line in secret if line in text]


def test_the_twin_check_catches_a_page_that_shows_the_truth(page):
    """The check above can fail: a page that draws the true state (as a host would) differs."""
    start(page, "nutz", ["human", "greedy"], GAMES["nutz"])
    game = nutcore.load_game("nutz", players=2, **GAMES["nutz"])
    truth = game.state_from_json(page.worker.direct({"cmd": "_full_state"})["position"])
    page.evaluate("t => { document.getElementById('text-board').textContent = t; }", str(truth))
    before = page_snapshot(page)
    rng = random.Random(5)
    view = truth.information_state_string(0)
    world = next(
        w
        for w in (truth.resample_from_infostate(0, rng.getrandbits(62)) for _ in range(30))
        if w.information_state_string(0) == view and str(w) != str(truth)
    )
    page.worker.direct({"cmd": "_replace_full_state", "position": world.to_json()})
    shown = game.state_from_json(page.worker.direct({"cmd": "_full_state"})["position"])
    page.evaluate("t => { document.getElementById('text-board').textContent = t; }", str(shown))
    assert page_snapshot(page) != before


# ----- the page's controls


def test_hint_with_progress_stop_undo_save_and_load(page):
    phase = start(page, "auf_die_nuesse", ["human", "greedy"], GAMES["auf_die_nuesse"])
    assert phase == "move"
    actions = legal_actions(page)
    # A long hint: live statistics while the worker searches, then Stop ends it at once.
    page.select_option("#hint-budget", "3")
    page.click("#hint")
    page.wait_for_function("document.querySelector('#ai-best').textContent.includes('so far')", timeout=20000)
    assert page.locator("#ai-bars li").count() == len(actions)
    assert page.is_enabled("#stop")
    page.click("#stop")
    page.wait_for_function("document.querySelector('#ai-title').textContent.includes('(stopped)')", timeout=5000)
    elapsed = float(page.text_content("#ai-progress").split()[0])
    assert elapsed < 2.9, elapsed
    assert "chance to win" in page.text_content("#ai-best")
    # A move, then undo takes it back.
    move_then_undo(page, actions)
    # Save, then load: the same position.
    with page.expect_download() as download:
        page.click("#save")
    path = download.value.path()
    with open(path, encoding="utf-8") as f:
        assert json.load(f)["game"] == "auf_die_nuesse"
    n = renders(page)
    page.set_input_files("#load", str(path))
    wait_settled(page, n)
    assert legal_actions(page) == actions
    assert "Game loaded" in page.text_content("#history")


def test_a_bot_thinks_with_progress_and_stop_pauses_it(page):
    setup(page, "purzelbaum", ["mcts:iterations=100000000", "greedy"], GAMES["purzelbaum"])
    page.click("#start")
    page.wait_for_function("document.querySelector('#ai-best').textContent.includes('so far')", timeout=20000)
    page.click("#stop")
    page.wait_for_function("!document.querySelector('#resume').hidden", timeout=5000)
    # Its best move so far is played at once.
    page.wait_for_function("document.querySelector('#history .who')?.textContent === 'Hazel'", timeout=3000)
    history = page.eval_on_selector_all("#history .step", "ls => ls.map(l => l.textContent)")
    assert history, history  # its best move so far was played
    page.wait_for_timeout(500)
    assert page.eval_on_selector_all("#history .step", "ls => ls.map(l => l.textContent)") == history  # paused
    page.click("#resume")  # Continue: the next steps run, and seat 0 thinks again
    page.wait_for_function(f"document.querySelectorAll('#history .step').length > {len(history)}", timeout=20000)
    page.click("#stop")


def test_hot_seat(page):
    phase = start(page, "ritter", ["human", "human"], GAMES["ritter"], seed=3)
    assert phase == "curtain"
    game = nutcore.load_game("ritter", players=2, **GAMES["ritter"])
    for _ in range(6):
        if page.evaluate("document.body.dataset.phase") != "curtain":
            break
        seat = page.worker.direct({"cmd": "status"})["status"]["current_player"]
        n = renders(page)
        page.click("#curtain-button")
        assert wait_settled(page, n) == "move"
        state = game.state_from_json(page.worker.direct({"cmd": "_full_state"})["position"])
        # That seat's view and nothing more; without memory aids not even the kinds of the known
        # tops it has seen (what lies in front of it now).
        unaided = re.sub(r" top \S+ seen \d+", "", state.information_state_string(seat))
        assert page.text_content("#text-board") == unaided
        assert page.is_disabled("#save")
        click_move(page, legal_actions(page)[0])


# ----- memory aids


def _position_with_memory(game: str, params: dict, seed: int = 3):
    """A position, seat 0 to move, in which seat 0 has something to remember: a known top it has
    seen (Ritter), nuts buried in a hole (Purzelbaum)."""
    g = nutcore.load_game(game, players=2, **params)
    rng = random.Random(seed)
    for _ in range(200):
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                actions, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(actions, probs)[0])
                continue
            if s.current_player() == 0:
                j = s.to_json()
                if game == "ritter" and any(0 in st["seen_by"] for st in j["stacks"]):
                    return j
                if game == "purzelbaum" and any(h["nuts"] > 0 for h in j["holes"]):
                    return j
            s.apply_action(rng.choice(s.legal_actions()))
    pytest.fail("no such position")


@pytest.mark.parametrize("aids", [False, True], ids=["aids-off", "aids-on"])
@pytest.mark.parametrize("game", [g for g in nutcore.list_games() if g in ("ritter", "purzelbaum")])
def test_memory_aids(page, tmp_path, game, aids):
    params = {**GAMES[game], "turn_cap": 200}
    position = _position_with_memory(game, params)
    saved = tmp_path / "position.json"
    saved.write_text(json.dumps({"game": game, "players": 2, "params": params, "position": position}))
    page.select_option("#game", game)
    assert page.is_visible("#memory-aids") and not page.is_checked("#memory-aids")  # off by default
    if aids:
        page.check("#memory-aids")
    page.evaluate("document.getElementById('delay').value = '0'")
    set_seat(page, 1, "greedy")
    n = renders(page)
    page.set_input_files("#load", str(saved))
    assert wait_settled(page, n) == "move"
    text = page.text_content("#text-board")
    board = page.inner_html("#board")
    if game == "ritter":
        assert (" top " in text) == aids
        assert ('data-probe="top:' in board) == aids
        for st in position["stacks"]:
            if 0 in st["seen_by"]:  # with the aids, the kind seat 0 saw, on its bush
                assert page.locator(f'[data-probe="top:{st["bush"]}"]').count() == int(aids)
                if aids:
                    assert page.text_content(f'[data-probe="top:{st["bush"]}"]') == st["top"]
    else:
        assert ("L leaf, nuts)" in text) == aids
    board_replies = [r for r in page.worker.sent() if r["type"] == "board"]
    assert board_replies and all(r["memory_aids"] == aids for r in board_replies)
    # The hint, which without the aids searches as a player who forgot (the protocol's best_move
    # memory_aids, tests/doors/test_engine.py), answers in the worker too.
    page.select_option("#hint-budget", "0.3")
    page.click("#hint")
    page.wait_for_function("document.getElementById('ai-title').textContent.includes('would play')", timeout=20000)
    assert page.is_hidden("#error") and [r for r in page.worker.sent() if r["type"] == "best_move"]


def test_memory_aids_are_offered_for_memory_games_only(page):
    for g in nutcore._core.game_infos():
        page.select_option("#game", g["name"])
        assert page.is_visible("#memory-aids") == g["memory_aids"], g["name"]
    assert {g["name"] for g in nutcore._core.game_infos() if g["memory_aids"]} == {"ritter", "purzelbaum"}


def test_without_memory_aids_the_move_list_starts_at_the_humans_last_move(page):
    phase = start(page, "ritter", ["human", "greedy"], GAMES["ritter"], seed=4)
    rng = random.Random(2)
    moves = 0
    while phase == "move" and moves < 4:
        click_move(page, rng.choice(legal_actions(page)))
        moves += 1
        phase = page.evaluate("document.body.dataset.phase")
    who = page.eval_on_selector_all("#history .who", "ls => ls.map(l => l.textContent)")
    assert who and who[0] == "You", who
    assert who.count("You") == 1, who


WORKER_EXAMPLE_PAGE = """<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module">
const worker = new Worker("worker.js", { type: "module" });
const seen = [];
let waiting = null;
worker.onmessage = ({ data }) => {
  seen.push(data);
  if (waiting && waiting.test(data)) { const w = waiting; waiting = null; w.resolve(data); }
};
const next = (test) => new Promise((resolve) => { waiting = { test, resolve }; });
const ask = (request) => {
  const r = next((m) => m.type === request.cmd || m.type === "error");
  worker.postMessage(request);
  return r;
};
let { status } = await ask({ cmd: "new_game", game: "auf_die_nuesse", seed: 1 });
while (status.chance) ({ status } = await ask({ cmd: "chance" }));
const searched = next((m) => m.type === "best_move" || m.type === "error");
const firstInfo = new Promise((resolve) => { const t = setInterval(() => {
  if (seen.some((m) => m.type === "info")) { clearInterval(t); resolve(); } }, 10); });
worker.postMessage({ cmd: "best_move", time_limit: 60 });
await firstInfo;
worker.postMessage({ cmd: "stop" });
const reply = await searched;
window.result = { reply, seen };
</script>"""


def test_the_web_worker_example_of_the_docs_runs(browser, tmp_path):
    """docs/web.md's Web Worker example, as written, started by a page as its comment says: the
    page posts requests, gets progress lines and replies back, and a stop ends a long search."""
    example = _doc_block("### In a Web Worker")
    folder = tmp_path / "site"
    shutil.copytree(module_dir(), folder / "wasm")
    (folder / "worker.js").write_text(example)
    (folder / "index.html").write_text(WORKER_EXAMPLE_PAGE)
    with static_server(folder) as url:
        context = browser.new_context()
        pg = context.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        pg.goto(url)
        pg.wait_for_function("window.result !== undefined", timeout=120000)
        result = pg.evaluate("window.result")
        context.close()
    assert not errors, errors
    reply = result["reply"]
    assert reply["type"] == "best_move" and reply["stopped"] is True, reply
    assert reply["result"]["action_string"]
    types = [m["type"] for m in result["seen"]]
    assert "info" in types and types.index("stop") < types.index("best_move"), types


def test_a_long_move_list_keeps_its_turn_numbers_whole(page, tmp_path):
    """Turn numbers of 100 and more are shown whole, not clipped at the list's left edge; a saved
    move list comes back with Load."""
    g = nutcore.load_game("auf_die_nuesse", players=2, turn_cap=20)
    state = g.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(actions, probs)[0])
    history = [{"text": f"move {i}", "own": False, "chance": False, "player": i % 2} for i in range(130)]
    saved = tmp_path / "long.json"
    saved.write_text(
        json.dumps(
            {
                "game": "auf_die_nuesse",
                "players": 2,
                "params": {"turn_cap": 20},
                "position": state.to_json(),
                "history": history,
            }
        )
    )
    page.evaluate("document.getElementById('delay').value = '0'")
    n = renders(page)
    page.set_input_files("#load", str(saved))
    wait_settled(page, n)
    numbers = page.eval_on_selector_all("#history .n", "ns => ns.map(n => n.textContent)")
    assert numbers[:3] == ["1", "2", "3"] and "130" in numbers, numbers[-3:]
    page.eval_on_selector("#history", "h => { h.scrollTop = h.scrollHeight; }")
    clipped = page.evaluate(
        """() => {
            const box = document.getElementById('history').getBoundingClientRect();
            return [...document.querySelectorAll('#history .n')].filter(n => {
                const r = n.getBoundingClientRect();
                return r.left < box.left || n.scrollWidth > n.clientWidth + 1;
            }).map(n => n.textContent);
        }"""
    )
    assert not clipped, clipped
