"""`nutcore export-web DIR`: the page with the engine inside it, as a static folder (docs/web.md).

The folder holds index.html, static/ (the page, the boards, worker.js) and static/wasm/ (the
engine built for WebAssembly, MODULE_FILES: its JavaScript API nutcore.js, with its types and
package.json, over nutcore-engine.js and nutcore-engine.wasm). Any static file server
serves it; the page then runs the engine in a Web Worker, and no nutcore process is needed.
At the root, sw.js (the service worker that keeps all of it for offline use) lists every file the
export wrote, and each text file and the module have a gzipped sibling (NAME.gz) for hosts that
serve those.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"
# The module's files, as CMakeLists.txt installs them; the page's worker imports nutcore.js.
MODULE_FILES = ("nutcore.js", "nutcore.d.ts", "package.json", "nutcore-engine.js", "nutcore-engine.wasm")
# The service worker's template (static/sw.js) and the lines of it an export fills in.
SERVICE_WORKER = "sw.js"
VERSION_LINE = "const VERSION = null; // nutcore export-web: VERSION"
FILES_LINE = "const FILES = []; // nutcore export-web: FILES"
# Gzipped siblings for these; images of formats that compress themselves are left alone.
COMPRESSED_SUFFIXES = (".html", ".js", ".css", ".svg", ".json", ".webmanifest", ".ts", ".wasm")
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
    then asks the engine for the test commands that show the full state behind a seat."""
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
    # sw.js goes to the root, filled in (below); the shipped one is the server's retiring worker.
    shutil.copytree(STATIC, static, ignore=shutil.ignore_patterns("index.html", SERVICE_WORKER, "__pycache__", "*.gz"))
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
    for stale in out.glob("*.gz"):  # of an export written over (static/ is new)
        stale.unlink()
    write_service_worker(out)
    write_gzipped(out)
    return out


def precache_list(out: Path) -> list[str]:
    """What the service worker keeps, as URLs relative to the folder: the page ("./", which
    index.html also answers) and every file under static/ the export wrote, whatever they are."""
    files = sorted(p.relative_to(out).as_posix() for p in (out / "static").rglob("*") if p.is_file())
    return ["./", *(f for f in files if not f.endswith(".gz"))]


def write_service_worker(out: Path) -> None:
    """sw.js at the folder's root, with the files to keep and a version that changes with any of
    their bytes: a new export is a new worker, whose cache replaces the old one."""
    files = precache_list(out)
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.encode() + b"\0")
        digest.update((out / ("index.html" if f == "./" else f)).read_bytes())
    template = (STATIC / SERVICE_WORKER).read_text(encoding="utf-8")
    if VERSION_LINE not in template or FILES_LINE not in template:
        raise RuntimeError(f"{SERVICE_WORKER} has lost the lines export-web fills in")
    worker = template.replace(VERSION_LINE, f"const VERSION = {json.dumps(digest.hexdigest()[:16])};").replace(
        FILES_LINE, f"const FILES = {json.dumps(files)};"
    )
    (out / SERVICE_WORKER).write_text(worker, encoding="utf-8")


def write_gzipped(out: Path) -> None:
    """NAME.gz beside each text file and the module, for hosts that send a file's precompressed
    sibling to browsers that accept gzip (nginx's gzip_static; docs/web.md)."""
    for path in sorted(out.rglob("*")):
        if path.is_file() and path.suffix in COMPRESSED_SUFFIXES:
            # mtime 0: the same export, byte for byte, gives the same files.
            path.with_name(path.name + ".gz").write_bytes(gzip.compress(path.read_bytes(), 9, mtime=0))
