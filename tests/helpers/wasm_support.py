"""The WebAssembly engine for the tests (docs/web.md): the module pip built into the package (or
NUTCORE_WASM_DIR, a build folder), and Node. Outside CI a missing one skips with the reason; in CI
(CI=true, set by .ci/run, which installs emscripten) it fails, so that a broken build never passes
as skipped."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from nutcore.web import export

HERE = Path(__file__).resolve().parent


def missing(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"WebAssembly tests in CI: {reason}")
    pytest.skip(reason)


def module_dir() -> Path:
    """The folder with the module's files (export.MODULE_FILES)."""
    given = os.environ.get("NUTCORE_WASM_DIR")
    folder = Path(given) if given else export.built_module()
    if folder is None or not all((folder / f).is_file() for f in export.MODULE_FILES):
        missing(export.HOW_TO_BUILD)
    return folder


def node() -> str:
    path = shutil.which("node") or shutil.which("nodejs")
    if path is None:
        missing("no Node.js (it comes with emscripten: apt-get install emscripten)")
    return path


def run_node(*args: str, timeout: float = 600) -> list[dict]:
    """tests/helpers/wasm_node.mjs on the module: its JSON lines."""
    import json

    out = subprocess.run(
        [node(), str(HERE / "wasm_node.mjs"), str(module_dir()), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
