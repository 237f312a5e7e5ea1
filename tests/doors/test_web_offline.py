"""The page offline and light (docs/web.md, "Offline and installed"): the exported folder's web
manifest and service worker, whose cache lets the page reload and play in Chromium with no server
at all; the gzipped siblings export-web writes; `nutcore serve` sending the module gzipped to a
browser that accepts it; and the module's size as README and docs/web.md state it, measured."""

from __future__ import annotations

import gzip
import json
import re
import shutil
import time
import urllib.request
from pathlib import Path

import pytest
from browser import static_server
from test_web import GAMES, click_move, legal_actions, server, serving, start  # noqa: F401 (server: a fixture)
from wasm_support import module_dir

from nutcore.web import export

ROOT = Path(__file__).resolve().parents[2]
SIZE_TOLERANCE = 0.10  # a stated size may be rounded, not stale: within 10 % of the measured one


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return export.export(tmp_path_factory.mktemp("site") / "nutcore", module_dir())


def _files_of(sw_text: str) -> tuple[str, list[str]]:
    """The VERSION and FILES that export-web wrote into sw.js."""
    version = re.search(r"^const VERSION = (.*?);(?: //.*)?$", sw_text, re.M)
    files = re.search(r"^const FILES = (.*?);(?: //.*)?$", sw_text, re.M)
    assert version and files, sw_text[:500]
    return json.loads(version.group(1)), json.loads(files.group(1))


# ----- what export-web writes


def test_the_manifest_is_valid_and_linked_from_the_exported_page(folder):
    page = (folder / "index.html").read_text(encoding="utf-8")
    link = re.search(r'<link rel="manifest" href="([^"]+)">', page)
    assert link, "no manifest link"
    manifest_path = folder / link.group(1)
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    for field in ("name", "short_name", "start_url", "display", "theme_color", "icons"):
        assert manifest.get(field), field
    assert manifest["display"] == "standalone"
    # Its URLs are relative to the manifest: the start page is the exported folder's index.html.
    assert (manifest_path.parent / manifest["start_url"]).resolve() == folder.resolve()
    sizes = set()
    for icon in manifest["icons"]:
        assert (manifest_path.parent / icon["src"]).is_file(), icon
        sizes.add(icon["sizes"])
        if icon["type"] == "image/png":
            data = (manifest_path.parent / icon["src"]).read_bytes()
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
            assert icon["sizes"] == f"{width}x{height}", icon
    assert {"192x192", "512x512"} <= sizes  # what Chromium asks of an installable page


def test_the_service_worker_keeps_every_file_the_export_wrote(folder):
    version, files = _files_of((folder / "sw.js").read_text(encoding="utf-8"))
    written = {p.relative_to(folder).as_posix() for p in (folder / "static").rglob("*") if p.is_file()}
    assert set(files) == {"./"} | {f for f in written if not f.endswith(".gz")}
    for needed in ("static/worker.js", "static/offline.js", "static/wasm/nutcore-engine.wasm"):
        assert needed in files
    assert re.fullmatch(r"[0-9a-f]{16}", version)
    assert not (folder / "static" / "sw.js").exists()  # only the filled-in one, at the root


def test_a_new_file_or_a_changed_byte_is_a_new_version(tmp_path, monkeypatch):
    """Files added to static/ later are kept with no list to update, and any change makes a new
    version, hence a new worker and cache in the browser."""
    first = _files_of((export.export(tmp_path / "a", module_dir()) / "sw.js").read_text(encoding="utf-8"))
    assert first == _files_of((export.export(tmp_path / "b", module_dir()) / "sw.js").read_text(encoding="utf-8"))
    static = tmp_path / "static"
    shutil.copytree(export.STATIC, static)
    (static / "boards" / "extra.js").write_text("export const added = 1;\n")
    monkeypatch.setattr(export, "STATIC", static)
    added = _files_of((export.export(tmp_path / "c", module_dir()) / "sw.js").read_text(encoding="utf-8"))
    assert "static/boards/extra.js" in added[1] and added[0] != first[0]
    (static / "boards" / "extra.js").write_text("export const added = 2;\n")
    changed = _files_of((export.export(tmp_path / "d", module_dir()) / "sw.js").read_text(encoding="utf-8"))
    assert changed[1] == added[1] and changed[0] != added[0]


def test_the_gzipped_siblings_are_the_files(folder):
    siblings = list(folder.rglob("*.gz"))
    assert {"nutcore-engine.wasm.gz", "nutcore-engine.js.gz", "index.html.gz", "sw.js.gz"} <= {p.name for p in siblings}
    for gz in siblings:
        assert gzip.decompress(gz.read_bytes()) == gz.with_suffix("").read_bytes(), gz


# ----- the page offline, in Chromium


def test_the_exported_page_reloads_and_plays_offline(browser, folder):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    problems: list[str] = []
    pg.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    pg.on("console", lambda m: problems.append(f"console: {m.text}") if m.type == "error" else None)
    with static_server(folder) as url:
        pg.goto(url)
        pg.wait_for_selector("body[data-ready=true]", timeout=30000)
        # ready never settles without a registration: the test waits for it with a timeout.
        pg.evaluate("() => { navigator.serviceWorker.ready.then(r => { window.swScope = r.scope; }); }")
        pg.wait_for_function("window.swScope !== undefined", timeout=30000)
        assert pg.evaluate("window.swScope") == url
        pg.wait_for_function("navigator.serviceWorker.controller !== null", timeout=30000)
    # The server is gone, and the browser is offline too: everything comes from the worker's cache.
    context.set_offline(True)
    responses: list = []
    pg.on("response", lambda r: responses.append(r))
    pg.reload()
    pg.wait_for_selector("body[data-ready=true]", timeout=30000)
    assert pg.text_content("#connection").startswith("in this page (WebAssembly")
    assert responses and all(r.from_service_worker for r in responses), [r.url for r in responses]
    assert any(r.url.endswith("/static/worker.js") for r in responses)
    phase = start(pg, "auf_die_nuesse", ["human", "greedy"], GAMES["auf_die_nuesse"])
    assert phase == "move"
    steps = pg.locator("#history .step").count()
    click_move(pg, legal_actions(pg)[0])
    assert pg.locator("#history .step").count() > steps
    context.close()
    assert not problems, problems


def _until(pg, expression: str, timeout: float = 30.0):
    """Polls an async expression in the page (caches and registrations answer by promise) until
    it is truthy; its value."""
    from playwright.sync_api import Error as PlaywrightError

    deadline = time.monotonic() + timeout
    while True:
        try:
            value = pg.evaluate(expression)
        except PlaywrightError as e:  # a reload under way: ask the next document
            if "context was destroyed" not in str(e):
                raise
            value = None
        if value:
            return value
        assert time.monotonic() < deadline, f"still false after {timeout} s: {expression}"
        time.sleep(0.1)


STYLE = "fetch('static/style.css').then(r => r.text())"
CACHES = "caches.keys().then(k => k.filter(n => n.startsWith('nutcore-page-')))"


def _controlled(pg) -> None:
    pg.wait_for_selector("body[data-ready=true]", timeout=30000)
    pg.wait_for_function("navigator.serviceWorker.controller !== null", timeout=30000)


def test_a_new_export_takes_over_and_replaces_the_old_cache(browser, tmp_path, monkeypatch):
    site = export.export(tmp_path / "site", module_dir())
    old_version = _files_of((site / "sw.js").read_text(encoding="utf-8"))[0]
    context = browser.new_context()
    pg = context.new_page()
    with static_server(site) as url:
        pg.goto(url)
        _controlled(pg)
        assert _until(pg, CACHES) == [f"nutcore-page-{old_version}"]
        static = tmp_path / "static"
        shutil.copytree(export.STATIC, static)
        (static / "added.txt").write_text("a file added after the first export\n")
        with open(static / "style.css", "a", encoding="utf-8") as f:
            f.write("/* the second export */\n")
        monkeypatch.setattr(export, "STATIC", static)
        export.export(site, module_dir(), force=True)
        new_version = _files_of((site / "sw.js").read_text(encoding="utf-8"))[0]
        assert new_version != old_version
        # A load finds the new worker and installs it in the background, the old one in charge...
        pg.reload()
        _until(pg, "navigator.serviceWorker.getRegistration().then(r => !!(r && r.waiting))")
        assert "second export" not in pg.evaluate(STYLE)  # the old cache still answers
        # ...and once no page of the old version is open, the new one is in charge, and the old
        # cache is gone. (offline.js also asks it to take over at a page's load; Chromium does not
        # always let it then, so that is not what this test waits for.)
        pg.close()
        pg = context.new_page()
        pg.goto(url)
        _controlled(pg)
        assert _until(pg, f"{CACHES}.then(k => k.length === 1 && k[0])") == f"nutcore-page-{new_version}"
        assert "second export" in pg.evaluate(STYLE)
    context.set_offline(True)  # and the new cache holds what the second export added
    assert pg.evaluate("fetch('static/added.txt').then(r => r.text())").startswith("a file added")
    context.close()


def _nutcore_serve(port: int):
    """`nutcore serve`'s app on 127.0.0.1:`port`, in a thread: its base URL."""
    from nutcore.web.server import create_app

    return serving(create_app(), port)


def test_nutcore_serve_on_the_address_of_an_exported_folder_gets_its_page_back(browser, folder):
    """An exported folder served on a port, then `nutcore serve` on the same port: the exported
    worker must not go on answering for the server's page."""
    context = browser.new_context()
    pg = context.new_page()
    with static_server(folder) as url:
        pg.goto(url)
        _controlled(pg)
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    with _nutcore_serve(port) as served:
        assert served == url
        pg.reload()  # the exported page from the cache, once; its worker then retires and reloads it
        pg.wait_for_function(
            "document.querySelector('meta[name=nutcore-engine]').content === 'server'"
            " && document.body.dataset.ready === 'true'",
            timeout=30000,
        )
        assert pg.text_content("#connection") == "connected"
        assert pg.evaluate("navigator.serviceWorker.controller") is None
        assert _until(pg, f"{CACHES}.then(k => k.length === 0)")
        assert pg.evaluate("navigator.serviceWorker.getRegistrations().then(rs => rs.length)") == 0
    context.close()


# ----- nutcore serve


def _get(url: str, accept: str | None) -> tuple[dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={"Accept-Encoding": accept} if accept else {})
    with urllib.request.urlopen(request, timeout=30) as response:  # urllib never decompresses
        return {k.lower(): v for k, v in response.headers.items()}, response.read()


@pytest.mark.parametrize(
    "path, file, media_type",
    [
        ("static/wasm/nutcore-engine.wasm", "nutcore-engine.wasm", "application/wasm"),
        ("static/wasm/nutcore-engine.js", "nutcore-engine.js", "text/javascript"),
        ("static/worker.js", None, "text/javascript"),
    ],
)
def test_serve_sends_the_module_gzipped_to_a_browser_that_accepts_it(request, path, file, media_type):
    url = request.getfixturevalue("server")[0]  # nutcore serve on a free port (test_web.py)
    raw = (module_dir() / file if file else export.STATIC / Path(path).name).read_bytes()
    headers, body = _get(url + path, "gzip, deflate, br")
    assert headers.get("content-encoding") == "gzip", headers
    assert headers["content-type"].split(";")[0] == media_type
    assert "accept-encoding" in headers.get("vary", "").lower()
    assert gzip.decompress(body) == raw
    assert len(body) < len(raw)
    headers, body = _get(url + path, None)
    assert "content-encoding" not in headers, headers
    assert headers["content-type"].split(";")[0] == media_type
    assert body == raw


def test_serve_answers_sw_js_with_the_worker_that_retires_an_exported_one(request):
    url = request.getfixturevalue("server")[0]
    headers, body = _get(url + "sw.js", None)
    assert headers["content-type"].split(";")[0] == "text/javascript"
    assert "no-store" in headers.get("cache-control", "")
    version, files = _files_of(body.decode())
    assert version is None and files == []


# ----- the size stated


def _stated_sizes(text: str) -> tuple[float, float]:
    """The module's size as the text states it: "3.1 MB, 1.1 MB gzipped" -> raw and gzipped MB."""
    found = re.search(r"([\d.]+) MB, ([\d.]+) MB gzipped", text)
    assert found, "no size of the module stated"
    return float(found.group(1)), float(found.group(2))


@pytest.mark.parametrize("doc", ["README.md", "docs/web.md"])
def test_the_size_stated_is_the_module_s(doc):
    raw = (module_dir() / "nutcore-engine.wasm").read_bytes()
    measured = (len(raw) / 1e6, len(gzip.compress(raw, 9)) / 1e6)
    stated = _stated_sizes((ROOT / doc).read_text(encoding="utf-8"))
    for said, size in zip(stated, measured):
        assert abs(said - size) <= SIZE_TOLERANCE * size, f"{doc} says {stated} MB, the module is {measured} MB"
