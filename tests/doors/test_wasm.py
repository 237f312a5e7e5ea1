"""The engine built for WebAssembly, headless in Node (tests/helpers/wasm_node.mjs): a full game of every
game through the protocol, with a search's progress, a status and a stop while it runs; the
`nutcore bench` workload, whose node counts must be the native build's to the node; and
`nutcore export-web`, the static folder that holds it."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from wasm_support import module_dir, run_node

import nutcore
from nutcore import benchmark
from nutcore.web import export
from playing import first_decision, random_step, winter_start


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


def test_longer_searches_give_the_native_counts(tmp_path):
    """Ten times the bench's iterations: the trees grow into corners (Purzelbaum's widening reaches
    shoves whose hit probabilities tie) where any difference in a probability's last bit shows."""
    work = benchmark.workload(iterations=10 * benchmark.ITERATIONS)
    path = tmp_path / "workload.json"
    path.write_text(json.dumps(work))
    wasm = {r["game"]: r for r in run_node("bench", str(path))}
    native = {r.game: r for r in (benchmark.bench_game(e, work["iterations"]) for e in work["games"])}
    assert {g: (r["nodes"], r["transitions"]) for g, r in wasm.items()} == {
        g: (r.nodes, r.transitions) for g, r in native.items()
    }


def _chance_positions(game, count, seed):
    """Positions along random games: every chance node's and some decisions'."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(positions) < count:
            if state.is_chance_node() or rng.random() < 0.1:
                positions.append(state.to_json())
            random_step(state, rng)
    return positions


# Purzelbaum's probabilities come from a numerical model: several skills and a smaller meadow.
MODEL_PARAMS = [
    {"players": 3, "skill_sigma": [0.05, 0.7, 2.5]},
    {"players": 2, "skill_sigma": [0.3, 9.0], "branch_lengths": [1.1, 2.4, 0.7]},
]


def test_chance_outcomes_are_the_native_ones_to_the_bit(tmp_path):
    cases = [(name, {}) for name in nutcore.list_games()] + [("purzelbaum", p) for p in MODEL_PARAMS]
    work = []
    for i, (name, params) in enumerate(cases):
        game = nutcore.load_game(name, **params)
        work.append({"name": name, "params": params, "positions": _chance_positions(game, 150, i)})
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(work))
    rows = run_node("chance", str(path))
    assert len(rows) == len(work)
    for case, row in zip(work, rows):
        game = nutcore.load_game(case["name"], **case["params"])
        for position, listed in zip(case["positions"], row["legal"], strict=True):
            state = game.state_from_json(position)
            if state.is_chance_node():
                expected = [[a, p] for a, p in state.chance_outcomes()]
                assert [[x["action"], x["probability"]] for x in listed] == expected, (case["name"], position)
            else:
                assert [x["action"] for x in listed] == state.legal_actions(), (case["name"], position)
                strings = [state.action_to_string(a) for a in state.legal_actions()]
                assert [x["action_string"] for x in listed] == strings


def test_time_limits_and_stops_of_the_exact_searches_without_threads(tmp_path):
    """No watcher thread here: a time limit reaches expectimax and the solver through the stop
    polls' lender (core/deadline.h), chained to the engine's, which still sends its progress lines
    and takes the stop meanwhile."""
    adn = first_decision(2)
    winter = winter_start()
    deep = {"algorithm": "expectimax", "depth": 30, "time_limit": 0.3}
    cases = {
        "requests": [
            {"name": "auf_die_nuesse", "params": {}, "position": adn.to_json(), "request": deep},
            {"name": "purzelbaum", "params": {}, "position": winter.to_json(), "request": {"algorithm": "solver"}},
            {
                "name": "purzelbaum",
                "params": {},
                "position": winter.to_json(),
                "request": {"algorithm": "solver", "time_limit": 1e-6},
            },
        ],
        "engine": {"name": "auf_die_nuesse", "position": adn.to_json()},
    }
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases))
    timed, solved, cut, engine_timed, engine_stopped = run_node("exact", str(path))

    def same_as_native(result):
        fixed = nutcore.best_move(adn, algorithm="expectimax", depth=result["depth"]).to_dict()
        return all(result[key] == fixed[key] for key in ("action", "value", "actions"))

    r = timed["result"]
    assert timed["seconds"] < 20  # loose: the machine is shared; depth 30 alone would take years
    assert r["complete"] is False and r["stopped"] is False and 1 <= r["depth"] < r["max_depth"] == 30
    assert same_as_native(r)
    assert solved["result"]["action"] == nutcore.solve(winter).action
    assert cut["status"] == 3 and "stopped" in cut["error"]  # NC_STOPPED
    reply = engine_timed["reply"]
    assert reply["stopped"] is False and reply["result"]["complete"] is False and same_as_native(reply["result"])
    assert engine_timed["info_lines"] >= 1 and engine_timed["seconds"] < 20
    reply = engine_stopped["reply"]
    assert reply["type"] == "best_move" and reply["stopped"] is True, reply
    assert reply["result"]["stopped"] is True and 1 <= reply["result"]["depth"] < 40
    assert same_as_native(reply["result"]) and engine_stopped["info_lines"] >= 1


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
    root = Path(__file__).resolve().parents[2]
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
    # app.js's modules, all of them (the page loads them by relative import).
    page = sorted(p.name for p in (export.STATIC / "page").glob("*.js"))
    assert page and sorted(p.name for p in (out / "static" / "page").glob("*.js")) == page
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
    with pytest.raises(ValueError, match="no nutcore.js, nutcore.d.ts, package.json, nutcore-engine.js, "):
        export.export(tmp_path / "site", tmp_path)
    # A folder with the module but not its JavaScript API (as built before nutcore.js) names what it lacks.
    for name in ["nutcore-engine.js", "nutcore-engine.wasm"]:
        (tmp_path / name).write_text("")
    with pytest.raises(ValueError, match=r"no nutcore.js, nutcore.d.ts, package.json there"):
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
