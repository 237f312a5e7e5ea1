"""Argument checks at the Python boundary: every bad value is a ValueError that names it.

Integers are Python ints or anything with __index__ (numpy integers), never bools or floats, and
are range-checked whatever their size; reals are finite; flags are bools (numpy's included).
"""

from __future__ import annotations

import math
import numbers
import operator
import os
import stat
from typing import Any

import numpy as np

from . import _core
from ._core import Game, State

MAX_SEED = 2**64 - 1


def integer(value: Any, name: str, lo: int, hi: int) -> int:
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be an integer, not a bool")
    try:
        number = operator.index(value)
    except TypeError:
        raise ValueError(f"{name} must be an integer, got {value!r}") from None
    if not lo <= number <= hi:
        raise ValueError(f"{name} must be in {lo}..{hi}, got {number}")
    return number


def seed(value: Any, name: str = "seed") -> int:
    return integer(value, name, 0, MAX_SEED)


def real(value: Any, name: str, zero_allowed: bool = False) -> float:
    """A finite number > 0 (>= 0 with zero_allowed)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a number, got {value!r}")
    number = float(value)
    if not (math.isfinite(number) and (number > 0 or (zero_allowed and number == 0))):
        raise ValueError(f"{name} must be a finite number {'>=' if zero_allowed else '>'} 0, got {value!r}")
    return number


def flag(value: Any, name: str) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise ValueError(f"{name} must be True or False, got {value!r}")


def native_state(state: object) -> Any:
    """The native state itself, or the one an adapter wraps: any object whose `nutcore_state`
    attribute is a native state (nutcore.openspiel's states). Anything else is returned unchanged,
    for state_game_name (or the native call it goes to) to refuse."""
    inner = getattr(state, "nutcore_state", None)
    return inner if isinstance(inner, State) else state


def state_game_name(state: object, who: str) -> str:
    """The game name of a nutcore state; ValueError for anything else (a game, None, ...)."""
    return checked_state(state, who).game_name


def checked_state(state: object, who: str) -> State:
    """`state` if it is a native state; ValueError for anything else (a game, None, ...)."""
    if not isinstance(state, State):
        hint = " (a game: call game.new_initial_state())" if isinstance(state, Game) else ""
        raise ValueError(f"{who}: not a nutcore state: {state!r}{hint}")
    return state


def checked_game(game: object, who: str) -> Game:
    """`game` if it is a native game; ValueError for anything else."""
    if not isinstance(game, Game):
        raise ValueError(f"{who}: not a nutcore game (use nutcore.load_game): {game!r}")
    return game


def check_game(game: object, who: str) -> str:
    """The name of a nutcore game object; ValueError for anything else."""
    return checked_game(game, who).name


def network(value: object, who: str) -> _core.Network | None:
    """`value` if it is None or a nutcore.Network; else a ValueError naming `who`."""
    if value is not None and not isinstance(value, _core.Network):
        raise ValueError(f"{who}: network must be a nutcore.Network (nutcore.load_network), got {value!r}")
    return value


def read_small_file(path: str | bytes | os.PathLike[str] | os.PathLike[bytes], what: str, limit: int) -> bytes:
    """The bytes of a file that the caller names: a regular file (not a device, a pipe or a
    directory, which could block or never end) of at most `limit` bytes; every problem a
    ValueError."""
    shown = repr(os.fspath(path))
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below).
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as e:
        raise ValueError(f"{what}: cannot read {shown}: {e.strerror or e}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError(f"{what}: {shown} is not a regular file")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        data = b"".join(chunks)
    except OSError as e:
        raise ValueError(f"{what}: cannot read {shown}: {e.strerror or e}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise ValueError(f"{what}: {shown} is larger than {limit} bytes")
    return data
