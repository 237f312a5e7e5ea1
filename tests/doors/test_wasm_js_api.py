"""The JavaScript API of the WebAssembly engine (cpp/wasm/nutcore.js, docs/web.md), in plain Node
with no flags (tests/helpers/wasm_js_api.mjs runs each case), its TypeScript declarations, and the Node
example of docs/web.md run as written."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from wasm_support import missing, module_dir, node

import nutcore

HERE = Path(__file__).resolve().parents[1] / "helpers"
ROOT = HERE.parents[1]


def run_case(name: str, timeout: float = 600) -> dict:
    out = subprocess.run(
        [node(), str(HERE / "wasm_js_api.mjs"), str(module_dir()), name],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout)


def test_a_full_game_of_every_game():
    r = run_case("games")
    assert r.pop("closed")["type"] == "quit"
    assert sorted(r) == sorted(nutcore.list_games())
    for name, game in r.items():
        assert game["moves"] > 5 and sum(game["returns"]) == pytest.approx(1), (name, game)


def test_progress_lines_go_to_on_info():
    r = run_case("progress")
    reply, infos = r["reply"], r["infos"]
    assert reply["type"] == "best_move" and reply["stopped"] is False
    assert len(infos) >= 2  # 0.8 s, a line every 0.25 s
    assert all(i["type"] == "info" and i["id"] == reply["id"] and i["command"] == "best_move" for i in infos)
    assert [i["elapsed"] for i in infos] == sorted(i["elapsed"] for i in infos)


def test_requests_sent_at_once_are_all_answered_in_order():
    r = run_case("queued")
    assert r["resolved"] == list(range(len(r["commands"])))
    replies = r["replies"]
    # Each reply is its own request's: its command, or an error naming it.
    for command, reply in zip(r["commands"], replies, strict=True):
        assert command in (reply["type"], reply.get("command")) or command in reply["message"], (command, reply)
    assert len({reply["id"] for reply in replies}) == len(replies)
    assert replies[6]["id"] == 42  # a request's own id is kept
    # One at a time: each search answered before the next request was sent, so none was busy.
    assert [replies[i]["type"] for i in (1, 3)] == ["best_move", "go"], replies
    assert all(reply.get("error") != "busy" for reply in replies), replies
    assert replies[2]["status"]["searching"] is False
    assert replies[7]["error"] == "unknown_command" and replies[8]["type"] == "hello"


def test_stop_ends_a_running_search():
    r = run_case("stop")
    reply = r["reply"]
    assert reply["type"] == "best_move" and reply["stopped"] is True and reply["result"]["stopped"] is True
    assert r["stopReply"]["type"] == "stop" and r["infos"] >= 1
    assert r["after"]["status"]["searching"] is False


def test_quit_during_a_search_answers_the_search_first_and_quit_last():
    r = run_case("quit")
    assert r["reply"]["type"] == "best_move" and r["reply"]["stopped"] is True
    assert r["order"] == ["search", "quit"]
    lines = r["lines"]
    assert lines[-2:] == ["best_move", "quit"] and set(lines[:-2]) <= {"info"}
    assert r["closed"] is True and r["sendAfter"] is False
    assert r["after"] == {"rejected": "the engine has quit"}


def test_close_sends_quit_and_resolves_on_its_reply():
    r = run_case("close")
    assert r["hello"] == "hello" and r["reply"]["type"] == "quit"
    assert r["same"] is True and r["closed"] is True
    assert r["after"] == {"rejected": "the engine has quit"}


def test_a_bad_request_resolves_with_its_error_reply():
    r = run_case("bad")
    assert r["unknown"]["type"] == "error" and r["unknown"]["error"] == "unknown_command"
    assert r["noGame"]["error"] == "no_game"
    assert r["badField"]["error"] == "bad_request" and r["badField"]["command"] == "new_game"
    # An id the engine cannot read: its reply has none, and still answers the request.
    assert r["badId"]["error"] == "bad_request" and "id" not in r["badId"]
    assert [line.get("error") for line in r["raw"]] == ["bad_request", "bad_json"]
    assert r["after"] == "hello"  # the engine goes on
    assert 'unknown key "no_such_limit"' in r["limits"]


def test_the_module_loads_from_bytes_a_path_or_a_url_at_once_and_leaves_no_globals():
    r = run_case("sources")
    assert r == {"hellos": ["hello"] * 3, "dirname": "undefined", "require": "undefined"}


def test_the_raw_module_keeps_progress_lines_for_a_host_without_hooks():
    """Without nutcoreHost a search's progress lines wait for nc_engine_receive (they were dropped),
    and a host without take is no error (it threw inside the search)."""
    r = run_case("raw")
    assert r["made"] == 0 and r["newGame"] == 0
    assert r["noHost"][-1] == "best_move" and r["noHost"].count("info") >= 1, r["noHost"]
    assert r["noTake"] == ["best_move"]  # the host took the progress lines
    assert r["gameLoad"] == r["stateNew"] == r["sample"] == 0 and r["action"] >= 0
    assert r["numberSeed"] == "TypeError"  # a 64-bit argument must be a BigInt
    assert r["playouts"] == 0 and r["transitions"] > 3 * 20  # a 64-bit out-parameter


# ----- the TypeScript declarations

USAGE_TS = """\
import { createEngine, loadModule, Engine, InfoReply, Reply } from "./nutcore.js";

async function main(): Promise<void> {
  const engine: Engine = await createEngine({ limits: { iterations: 1000 } });
  const infos: InfoReply[] = [];
  const reply: Reply = await engine.request({ cmd: "best_move", id: 1 }, { onInfo: (i) => infos.push(i) });
  const off: () => boolean = engine.onLine((line: string) => console.log(line.length));
  off();
  engine.send('{"cmd": "status"}');
  await engine.stop();
  const quit: Reply = await engine.close();
  const M = await loadModule({ wasm: new Uint8Array(0) });
  const cell: number = M._malloc(4);
  M._nc_state_sample_chance(0, 5n, cell);
  console.log(reply.type, quit.type, engine.closed, M.UTF8ToString(M._nc_last_error()));
}
main();
"""


def tsc() -> str:
    path = shutil.which("tsc")
    if path is None:
        missing("no TypeScript compiler (Debian, Ubuntu: apt-get install node-typescript)")
    return path


def test_the_type_declarations_compile_with_a_usage(tmp_path):
    for name in ["nutcore.js", "nutcore.d.ts"]:
        shutil.copyfile(ROOT / "cpp/wasm" / name, tmp_path / name)
    (tmp_path / "usage.ts").write_text(USAGE_TS)
    (tmp_path / "wrong.ts").write_text('import { createEngine } from "./nutcore.js";\ncreateEngine({ limits: 3 });\n')
    args = [tsc(), "--noEmit", "--strict", "--target", "es2020", "--module", "es2020", "--moduleResolution", "node"]
    ok = subprocess.run([*args, str(tmp_path / "usage.ts")], capture_output=True, text=True, timeout=300)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    # The declarations do check: a wrong use fails.
    wrong = subprocess.run([*args, str(tmp_path / "wrong.ts")], capture_output=True, text=True, timeout=300)
    assert wrong.returncode != 0 and "Limits" in wrong.stdout, wrong.stdout


# ----- docs/web.md


def _doc_block(heading: str) -> str:
    text = (ROOT / "docs/web.md").read_text(encoding="utf-8")
    section = text.split(heading, 1)[1]
    return re.search(r"```js\n(.*?)```", section, re.S).group(1)


def test_the_node_example_of_the_docs_runs(tmp_path):
    """The Node example of docs/web.md, as written, next to the built module."""
    folder = tmp_path / "wasm"
    shutil.copytree(module_dir(), folder)
    (folder / "example.mjs").write_text(_doc_block("### In Node"))
    out = subprocess.run([node(), "example.mjs"], cwd=folder, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "best move:" in out.stdout and "quit" in out.stdout, out.stdout


def test_no_experimental_fetch_flag_is_left_anywhere():
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    flag = "--no-" + "experimental-fetch"
    users = [f for f in files if (ROOT / f).is_file() and flag in (ROOT / f).read_text(errors="replace")]
    assert users == []
