"""The engine built for WebAssembly, headless in Node (tests/wasm_node.mjs): a full game of every
game through the protocol, with a search's progress, a status and a stop while it runs; the
`nutcore bench` workload, whose node counts must be the native build's to the node; and
`nutcore export-web`, the static folder that holds it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from wasm_support import module_dir, run_node

import nutcore
from nutcore import benchmark
from nutcore.web import export


def test_a_full_game_of_every_game_through_the_protocol():
    rows = {r["game"]: r for r in run_node("games")}
    titles = {g["name"]: g["title"] for g in nutcore._core.game_infos()}
    assert sorted(rows) == sorted(nutcore.list_games())
    for name, r in rows.items():
        assert r["errors"] == [], (name, r["errors"])
        assert r["moves"] >= 5 and r["searches"] >= 1, r
        assert sum(r["returns"]) == pytest.approx(1), r  # the game ended, with a winner or a shared win
        # The long search: its progress lines, a status answered while it ran, and the stop.
        interrupted = r["interrupted"]
        assert interrupted["stopped"] is True and interrupted["info_lines"] >= 1, r
        assert interrupted["status_searching"] is True and interrupted["stop_searching"] is True, r
        hidden = nutcore.load_game(name).hidden_information
        # Seat 0's connection: another seat's draws stay hidden on games of hidden information.
        assert (r["hidden"] > 0) == hidden, r
    assert {n: r["title"] for n, r in rows.items()} == titles


def test_the_bench_workload_gives_the_native_counts(tmp_path):
    """Determinism across builds: the same searches give the same node counts, the same playouts the
    same transitions, as the native build's `nutcore bench` (its signature)."""
    work = tmp_path / "workload.json"
    work.write_text(json.dumps(benchmark.workload()))
    wasm = {r["game"]: r for r in run_node("bench", str(work))}
    native = {r.game: r for r in benchmark.run()}
    assert sorted(wasm) == sorted(native)
    for name, r in wasm.items():
        assert (r["nodes"], r["transitions"]) == (native[name].nodes, native[name].transitions), name
        assert r["positions"] == benchmark.POSITIONS and r["iterations"] == benchmark.POSITIONS * benchmark.ITERATIONS
    signature = sum(r["nodes"] for r in wasm.values())
    assert f"signature {signature} " in benchmark.report(list(native.values()))


def test_bench_writes_its_workload(tmp_path):
    path = tmp_path / "w.json"
    out = subprocess.run(
        [sys.executable, "-m", "nutcore", "bench", "--game", "ritter", "--workload", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    work = json.loads(path.read_text())
    assert [g["name"] for g in work["games"]] == ["ritter"]
    assert len(work["games"][0]["searches"]) == benchmark.POSITIONS


def test_the_module_exports_the_whole_abi():
    """cpp/wasm/exports.txt (the module's exports) lists every call of cpp/include/nutcore.h, and
    malloc and free for the strings a host passes in."""
    root = Path(__file__).resolve().parent.parent
    declared = set(re.findall(r"NC_API [^;]*?\b(nc_\w+)\(", (root / "cpp/include/nutcore.h").read_text()))
    listed = (root / "cpp/wasm/exports.txt").read_text().strip().strip("[]").split(",")
    assert sorted(listed) == sorted(["_" + name for name in declared] + ["_malloc", "_free"])


# ----- nutcore export-web


def test_export_web_writes_a_static_folder(tmp_path):
    folder = module_dir()
    out = export.export(tmp_path / "site", folder)
    index = (out / "index.html").read_text(encoding="utf-8")
    assert '<meta name="nutcore-engine" content="worker">' in index
    assert "nutcore-test-hooks" not in index  # only with --test-hooks, for the test suites
    assert 'src="/' not in index and 'href="/' not in index  # relative: any folder of any host
    for name in ["static/app.js", "static/worker.js", "static/style.css", "static/boards/common.js"]:
        assert (out / name).is_file(), name
    for name in export.MODULE_FILES:
        assert (out / "static" / "wasm" / name).read_bytes() == (folder / name).read_bytes()
    assert not (out / "static" / "index.html").exists()
    # A folder that is not empty is written over only when asked.
    with pytest.raises(ValueError, match="not empty"):
        export.export(out, folder)
    export.export(out, folder, force=True, test_hooks=True)
    assert '<meta name="nutcore-test-hooks" content="on">' in (out / "index.html").read_text(encoding="utf-8")


def test_export_web_without_the_module_says_how_to_get_it(tmp_path, monkeypatch):
    monkeypatch.setattr(export, "built_module", lambda: None)
    with pytest.raises(ValueError) as e:
        export.export(tmp_path / "site")
    assert "apt-get install emscripten" in str(e.value) and "\n" not in str(e.value)
    assert not (tmp_path / "site").exists()
    with pytest.raises(ValueError, match="no nutcore-engine.js"):
        export.export(tmp_path / "site", tmp_path)


def test_export_web_command_line(tmp_path):
    folder = module_dir()
    out = subprocess.run(
        [sys.executable, "-m", "nutcore", "export-web", str(tmp_path / "site"), "--wasm", str(folder)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert "http.server" in out.stdout
    again = subprocess.run(
        [sys.executable, "-m", "nutcore", "export-web", str(tmp_path / "site"), "--wasm", str(folder)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert again.returncode == 2 and again.stderr.count("\n") == 1 and "not empty" in again.stderr
