"""Screenshots of every game's board in the web page (`nutcore serve`), for docs/images/<game>.png.

    python bench/screenshots.py [--out docs/images] [--moves 6]
    python bench/screenshots.py --exported     # docs/images/web-worker.png

Starts the server on a free port, opens the page in the system's Chromium (Playwright; set
NUTCORE_CHROMIUM to choose the browser), plays a few moves of each game as seat 0 against the AI
(seeded: the same pictures every run) and saves the board.

With --exported: the folder that `nutcore export-web` writes, on a plain static server with no
nutcore process, where the engine runs in a Web Worker. A few moves of Auf die Nüsse! against
greedy, then a hint, and the whole page.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import sync_playwright

import nutcore
from nutcore.engine import MAX_LINE_BYTES
from nutcore.web import export
from nutcore.web.server import bind, create_app, url_of

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from browser import static_server  # noqa: E402


def chromium() -> str:
    path = os.environ.get("NUTCORE_CHROMIUM") or next(
        filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None
    )
    if path is None:
        sys.exit("screenshots: no Chromium found (apt-get install chromium, or set NUTCORE_CHROMIUM)")
    return path


def settle(page, before: int) -> str:
    page.wait_for_function(
        f"Number(document.body.dataset.renders || 0) > {before} && document.body.dataset.phase !== 'auto'",
        timeout=60000,
    )
    return page.evaluate("document.body.dataset.phase")


def play(page, game: str, seats: list[str], moves: int, seed: int) -> None:
    """Sets up `game` with these seats, starts it and plays seat 0's first `moves` moves at random."""
    rng = random.Random(seed)
    if page.is_hidden("#setup"):  # folded away after the last Start
        page.click("#new-game")
    page.select_option("#game", game)
    page.select_option("#players", str(len(seats)))
    for s, spec in enumerate(seats):
        offered = page.eval_on_selector_all(f"#seat-choice-{s} option", "os => os.map(o => o.value)")
        if spec in offered:
            page.select_option(f"#seat-choice-{s}", spec)
        else:
            page.select_option(f"#seat-choice-{s}", "custom")
            page.fill(f"#seat-{s}", spec)
    page.evaluate(
        "s => { document.getElementById('seed').value = s; document.getElementById('delay').value = '0'; }", str(seed)
    )
    renders = lambda: int(page.evaluate("Number(document.body.dataset.renders || 0)"))  # noqa: E731
    before = renders()
    page.click("#start")
    phase = settle(page, before)
    for _ in range(moves):
        if phase != "move":
            break
        actions = page.eval_on_selector_all("button.move", "bs => bs.map(b => b.dataset.action)")
        before = renders()
        # The button's own click: where the board offers the moves, the buttons sit in a closed list.
        page.eval_on_selector(f'button.move[data-action="{rng.choice(actions)}"]', "b => b.click()")
        phase = settle(page, before)


def shoot(page, game: str, moves: int, out: Path, seed: int) -> Path:
    play(page, game, ["human", "greedy", "greedy"], moves, seed)
    path = out / f"{game}.png"
    page.locator("#board").screenshot(path=str(path))
    return path


def shoot_exported(browser, out: Path, moves: int, seed: int) -> Path:
    """The exported page on a static server (the engine in the page's worker), after a hint."""
    with tempfile.TemporaryDirectory() as tmp, static_server(export.export(Path(tmp) / "site")) as url:
        page = browser.new_page(viewport={"width": 1280, "height": 900}, device_scale_factor=1)
        page.goto(url)
        page.wait_for_selector("body[data-ready=true]")
        play(page, "auf_die_nuesse", ["human", "greedy"], moves, seed)
        page.click("#hint")
        page.wait_for_function("!document.querySelector('#ai-best').textContent.includes('so far')")
        page.wait_for_function("document.querySelector('#ai-best').textContent.includes('chance to win')")
        path = out / "web-worker.png"
        page.screenshot(path=str(path), full_page=True)
        return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "images"))
    parser.add_argument("--moves", type=int, default=6, help="seat 0's moves before the picture")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--exported", action="store_true", help="the exported page, for web-worker.png")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.exported:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
            print(shoot_exported(browser, out, args.moves, args.seed))
            browser.close()
        return 0

    sock = bind("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning", ws_max_size=MAX_LINE_BYTES + 1024))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 900}, device_scale_factor=1)
            page.goto(url_of(sock))
            page.wait_for_selector("body[data-ready=true]")
            for game in nutcore.list_games():
                print(shoot(page, game, args.moves, out, args.seed))
            browser.close()
    finally:
        server.should_exit = True
        thread.join(10)
    print(json.dumps({"games": nutcore.list_games(), "out": str(out)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
