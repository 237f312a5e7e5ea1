"""The WebAssembly engine against the native one, for bench/RESULTS.md (docs/web.md).

    python bench/wasm_speed.py                 # the recorded run (about two minutes)
    python bench/wasm_speed.py --repeats 1     # a smoke test

Speed: the `nutcore bench` workload (benchmark.workload: four positions per game, each searched by
the game's default search on one thread, then random playouts), with as many iterations a search
as the native build runs in about SECONDS (a multiple of 10,000, at least 10,000; a short probe
sets it per game) so that every game's searches last long enough to time, run in one session by the native
build (the package's _core, through best_move), by the WebAssembly module in Node
(tests/helpers/wasm_node.mjs) and in headless Chromium (tests/helpers/wasm_workload.mjs in a page served by a
static server). Per game the best of --repeats runs of each; iterations a second and playout
transitions a second, and the ratio to native. The node counts must agree across the three (the
same searches), and the script says so.

Size: the module's bytes, raw and gzipped (level 9).

Start-up: the page that `nutcore export-web` writes, on a static server, in Chromium: the time from
navigation to the engine being ready (the games listed), and from Start to the first AI move (the
default bot of seat 0, the human at seat 1), as the page marks them (performance.mark).
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent / "tests"
sys.path.insert(0, str(TESTS))

from browser import launch, static_server, sync_playwright  # noqa: E402
from wasm_support import module_dir, node  # noqa: E402

import nutcore  # noqa: E402
from nutcore import benchmark  # noqa: E402
from nutcore.web import export  # noqa: E402

SECONDS = 0.25  # a native search's length to aim at


def timing_workload() -> dict:
    games = []
    for name in nutcore.list_games():
        probe = benchmark.bench_game(benchmark.workload([name], iterations=2_000)["games"][0], 2_000)
        rate = probe.positions * probe.iterations / probe.search_seconds
        iterations = max(10_000, round(rate * SECONDS / 10_000) * 10_000)
        games += benchmark.workload([name], iterations=iterations)["games"]
    return {"games": games}


def iterations_of(entry: dict) -> int:
    return entry["searches"][0]["request"]["iterations"]


def best(runs: list[dict]) -> dict:
    """Per game, the run with the shortest search time (and the shortest playout time)."""
    out = {}
    for run in runs:
        for r in run:
            b = out.setdefault(r["game"], dict(r))
            b["search_seconds"] = min(b["search_seconds"], r["search_seconds"])
            b["playout_seconds"] = min(b["playout_seconds"], r["playout_seconds"])
            assert (b["nodes"], b["transitions"]) == (r["nodes"], r["transitions"]), (b, r)
    return out


def native_runs(work: dict, repeats: int) -> dict:
    runs = []
    for _ in range(repeats):
        rows = [benchmark.bench_game(entry, iterations_of(entry)) for entry in work["games"]]
        runs.append(
            [
                {
                    "game": r.game,
                    "nodes": r.nodes,
                    "iterations": r.positions * r.iterations,
                    "search_seconds": r.search_seconds,
                    "transitions": r.transitions,
                    "playout_seconds": r.playout_seconds,
                }
                for r in rows
            ]
        )
    return best(runs)


def node_runs(work_file: Path, repeats: int) -> dict:
    runs = []
    for _ in range(repeats):
        out = subprocess.run(
            [node(), str(TESTS / "wasm_node.mjs"), str(module_dir()), "bench"] + [str(work_file)],
            capture_output=True,
            text=True,
            check=True,
        )
        runs.append([json.loads(line) for line in out.stdout.splitlines()])
    return best(runs)


def chromium_runs(work: dict, repeats: int, folder: Path) -> tuple[dict, dict]:
    """The workload in a page (main thread), and the exported page's start-up."""
    shutil.copyfile(TESTS / "wasm_workload.mjs", folder / "wasm_workload.mjs")
    with static_server(folder) as url, sync_playwright() as p:
        browser = launch(p)
        runs = []
        for _ in range(repeats):
            page = browser.new_page()
            page.goto(url + "index.html")
            page.wait_for_selector("body[data-ready=true]", timeout=30000)
            rows = page.evaluate(
                """async (work) => {
                    const { bench } = await import('./wasm_workload.mjs');
                    const { default: create } = await import('./static/wasm/nutcore-engine.js');
                    const M = await create();
                    const rows = [];
                    bench(M, (r) => rows.push(r), work);
                    return rows;
                }""",
                work,
            )
            runs.append(rows)
            page.close()
        startup = []
        for _ in range(repeats):
            page = browser.new_page()
            page.goto(url)
            page.wait_for_selector("body[data-ready=true]", timeout=30000)
            page.select_option("#game", "auf_die_nuesse")
            page.evaluate("document.getElementById('delay').value = '0'")
            # Seats are chosen from a list; a spec that is not on it is a custom bot (docs/web.md).
            page.select_option("#seat-choice-0", "custom")
            page.fill("#seat-0", "mcts:iterations=1000")
            page.select_option("#seat-choice-1", "human")
            page.click("#start")
            page.wait_for_function("performance.getEntriesByName('nutcore-first-ai-move').length > 0", timeout=30000)
            marks = page.evaluate(
                """() => Object.fromEntries(['nutcore-ready', 'nutcore-game-start', 'nutcore-first-ai-move']
                    .map(n => [n, performance.getEntriesByName(n)[0].startTime]))"""
            )
            startup.append(
                {
                    "ready": marks["nutcore-ready"] / 1000,
                    "first_move": (marks["nutcore-first-ai-move"] - marks["nutcore-game-start"]) / 1000,
                }
            )
            page.close()
        browser.close()
    return best(runs), {k: statistics.median(s[k] for s in startup) for k in ("ready", "first_move")}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--output", default=str(HERE / "RESULTS.md"), help="append the table here ('-': print only)")
    args = ap.parse_args()
    work = timing_workload()
    with tempfile.TemporaryDirectory() as tmp:
        work_file = Path(tmp) / "workload.json"
        work_file.write_text(json.dumps(work))
        site = export.export(Path(tmp) / "site", module_dir())
        native = native_runs(work, args.repeats)
        in_node = node_runs(work_file, args.repeats)
        in_chromium, startup = chromium_runs(work, args.repeats, site)
    same = all(
        (native[g]["nodes"], native[g]["transitions"]) == (d[g]["nodes"], d[g]["transitions"])
        for d in (in_node, in_chromium)
        for g in native
    )
    wasm = module_dir() / "nutcore-engine.wasm"
    raw = wasm.read_bytes()
    chromium_version = subprocess.run(
        [os.environ.get("NUTCORE_CHROMIUM") or shutil.which("chromium") or "chromium", "--version"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    node_version = subprocess.run([node(), "--version"], capture_output=True, text=True).stdout.strip()
    lines = [
        "",
        f"### WebAssembly against native ({datetime.date.today().isoformat()})",
        "",
        f"`python bench/wasm_speed.py --repeats {args.repeats}`; {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, nutcore {nutcore.__version__}, Node {node_version}, {chromium_version}. "
        f"The bench workload with longer searches (4 positions a game, one thread; iterations a search in the "
        "table, about a quarter of a second of the native build's time), the best of "
        f"{args.repeats} runs of each build. The three builds' node and playout transition counts "
        f"{'agree' if same else 'DISAGREE'}.",
        "",
        "| game | iterations a search | native it/s | Node it/s | ratio | Chromium it/s | ratio "
        "| native playouts/s | Node | ratio | Chromium | ratio |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for g in native:
        n, w, c = native[g], in_node[g], in_chromium[g]
        it = [r["iterations"] / r["search_seconds"] for r in (n, w, c)]
        tr = [r["transitions"] / r["playout_seconds"] for r in (n, w, c)]
        lines.append(
            f"| {g} | {n['iterations'] // benchmark.POSITIONS:,} "
            f"| {it[0]:,.0f} | {it[1]:,.0f} | {it[1] / it[0]:.2f} | {it[2]:,.0f} | {it[2] / it[0]:.2f} "
            f"| {tr[0]:,.0f} | {tr[1]:,.0f} | {tr[1] / tr[0]:.2f} | {tr[2]:,.0f} | {tr[2] / tr[0]:.2f} |"
        )
    lines += [
        "",
        f"Size: nutcore-engine.wasm {len(raw):,} bytes, {len(gzip.compress(raw, 9)):,} gzipped; "
        f"nutcore-engine.js {len((module_dir() / 'nutcore-engine.js').read_bytes()):,} bytes.",
        f"Start-up (the exported page on a static server, median of {args.repeats}): the engine ready "
        f"{startup['ready'] * 1000:.0f} ms after navigation; Start to the first AI move (MCTS, 1,000 iterations, "
        f"Auf die Nüsse!) {startup['first_move'] * 1000:.0f} ms; together {sum(startup.values()) * 1000:.0f} ms.",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if args.output != "-":
        with open(args.output, "a", encoding="utf-8") as f:
            f.write(text)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
