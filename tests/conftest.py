"""Shared fixtures: every rule test runs against both implementations of a game."""

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
