"""Playwright with the system's Chromium (Playwright cannot download its own browser here): the
browser tests' shared launcher. Outside CI a missing Playwright or Chromium skips with the reason;
in CI (CI=true, set by .ci/run) it fails, so that a broken install never passes as skipped."""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import shutil
import threading

import pytest

CANDIDATES = ("chromium", "chromium-browser", "google-chrome")


def chromium_executable() -> str:
    """The system Chromium (NUTCORE_CHROMIUM overrides), or skip / fail with the reason."""
    path = os.environ.get("NUTCORE_CHROMIUM") or next(filter(None, map(shutil.which, CANDIDATES)), None)
    if path is None:
        _missing("no Chromium found (apt-get install chromium, or set NUTCORE_CHROMIUM)")
    return path


def _missing(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"browser tests in CI: {reason}")
    pytest.skip(reason)


def launch(playwright):
    """A headless Chromium from the system packages."""
    return playwright.chromium.launch(executable_path=chromium_executable(), args=["--no-sandbox"])


def sync_playwright():
    try:
        from playwright.sync_api import sync_playwright as start
    except ImportError:
        _missing("Playwright is not installed (pip install 'nutcore[test]')")
    return start()


class QuietFiles(http.server.SimpleHTTPRequestHandler):
    """A static file handler that keeps the test output clean."""

    def log_message(self, *args):
        pass


@contextlib.contextmanager
def static_server(folder=None, handler=QuietFiles, port=0):
    """A plain static file server on 127.0.0.1 (`port`, by default a free one), serving `folder`
    (or whatever `handler` serves): its base URL, ending in /."""
    if folder is not None:
        handler = functools.partial(handler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
