"""Playwright with the system's Chromium (Playwright cannot download its own browser here): the
browser tests' shared launcher. Outside CI a missing Playwright or Chromium skips with the reason;
in CI (CI=true, set by .ci/run) it fails, so that a broken install never passes as skipped."""

from __future__ import annotations

import os
import shutil

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
