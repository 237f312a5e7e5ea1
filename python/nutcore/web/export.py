"""`nutcore export-web DIR`: the page with the engine inside it, as a static folder (docs/web.md).

The folder holds index.html, static/ (the page, the boards, worker.js) and static/wasm/ (the
engine built for WebAssembly, MODULE_FILES: its JavaScript API nutcore.js, with its types and
package.json, over nutcore-engine.js and nutcore-engine.wasm). Any static file server
serves it; the page then runs the engine in a Web Worker, and no nutcore process is needed.
"""

from __future__ import annotations

import shutil
from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"
# The module's files, as CMakeLists.txt installs them; the page's worker imports nutcore.js.
MODULE_FILES = ("nutcore.js", "nutcore.d.ts", "package.json", "nutcore-engine.js", "nutcore-engine.wasm")
HOW_TO_BUILD = (
    "the WebAssembly engine is not built: install emscripten (Debian, Ubuntu: apt-get install emscripten) "
    "and reinstall nutcore (pip install .), or pass --wasm with a build folder (docs/web.md)"
)


def built_module() -> Path | None:
    """The folder of the WebAssembly engine that pip built with the package, if it did."""
    from nutcore import _core

    folder = Path(_core.__file__).resolve().parent / "wasm"
    return folder if all((folder / f).is_file() for f in MODULE_FILES) else None


def export(
    target: str | Path, wasm: str | Path | None = None, *, force: bool = False, test_hooks: bool = False
) -> Path:
    """Writes the static folder `target`; the engine comes from `wasm` (a folder holding
    MODULE_FILES) or the package. `test_hooks` is for test suites only: the page
    then asks the engine for the test commands that show the truth behind a seat."""
    if wasm is not None:
        source = Path(wasm)
        lacking = [f for f in MODULE_FILES if not (source / f).is_file()]
        if lacking:
            raise ValueError(f"{wasm}: no {', '.join(lacking)} there")
    else:
        built = built_module()
        if built is None:
            raise ValueError(HOW_TO_BUILD)
        source = built
    out = Path(target)
    if out.exists() and not out.is_dir():
        raise ValueError(f"{out}: not a folder")
    if out.is_dir() and any(out.iterdir()) and not force:
        raise ValueError(f"{out}: not empty (--force writes over it)")
    out.mkdir(parents=True, exist_ok=True)
    static = out / "static"
    if static.exists():
        shutil.rmtree(static)
    shutil.copytree(STATIC, static, ignore=shutil.ignore_patterns("index.html", "__pycache__"))
    (static / "wasm").mkdir()
    for name in MODULE_FILES:
        shutil.copyfile(source / name, static / "wasm" / name)
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    server_meta = '<meta name="nutcore-engine" content="server">'
    if server_meta not in page:
        raise RuntimeError("index.html has lost its nutcore-engine meta")
    worker_meta = '<meta name="nutcore-engine" content="worker">'
    if test_hooks:
        worker_meta += '\n<meta name="nutcore-test-hooks" content="on">'
    (out / "index.html").write_text(page.replace(server_meta, worker_meta), encoding="utf-8")
    return out
