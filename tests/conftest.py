"""Shared fixtures: every rule test runs against both implementations of a game; the browser tests
share a headless Chromium per module."""

from __future__ import annotations

import pytest

import nutcore
import nutcore.reference


class Implementation:
    def __init__(self, name, load_game):
        self.name = name
        self.load_game = load_game

    def __repr__(self):
        return self.name


NATIVE = Implementation("native", nutcore.load_game)
REFERENCE = Implementation("reference", nutcore.reference.load_game)


@pytest.fixture(params=[NATIVE, REFERENCE], ids=lambda impl: impl.name)
def impl(request):
    return request.param


@pytest.fixture(scope="module")
def browser():
    """The system's Chromium, headless, through Playwright (tests/helpers/browser.py)."""
    from browser import launch, sync_playwright

    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()
