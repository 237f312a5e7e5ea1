"""The games nutcore has, declared here and nowhere else in Python: a name and how to make the
native game from parameters (in C++ alone: Purzelbaum's tumbling model included). Everything else
a generic layer needs of a game (its algorithms, what "auto" picks, its solver) it asks the native
state, whose bindings live in cpp/games/<g>/python.cc; the plain-Python rules are
nutcore.reference.<g> (nutcore/reference/__init__.py lists them)."""

from __future__ import annotations

import functools
import json
import os
import stat
from typing import Any

from . import _checks, _core

# A card set is a few kB (the default one 1.2 kB); a file larger than this is not one.
MAX_CARD_FILE_BYTES = 1 << 20


def _read_json_file(path: Any, what: str) -> Any:
    """A JSON file that the caller names: a regular file (not a device, a pipe or a directory,
    which could block or never end) of at most MAX_CARD_FILE_BYTES; every problem a ValueError."""
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
        while size <= MAX_CARD_FILE_BYTES:
            chunk = os.read(fd, MAX_CARD_FILE_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        data = b"".join(chunks)
    except OSError as e:
        raise ValueError(f"{what}: cannot read {shown}: {e.strerror or e}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_CARD_FILE_BYTES:
        raise ValueError(f"{what}: {shown} is larger than {MAX_CARD_FILE_BYTES} bytes")
    try:
        return json.loads(data.decode("utf-8"))
    except RecursionError:
        raise ValueError(f"{what}: {shown}: the JSON is nested too deeply") from None
    except UnicodeDecodeError as e:
        raise ValueError(f"{what}: {shown} is not UTF-8 text ({e.reason})") from None
    except ValueError as e:
        raise ValueError(f"{what}: {shown} is not valid JSON: {e}") from None


def _load_nutz(params: dict[str, Any]):
    """Nutz!'s card set may be given as the path of a JSON file (a regular file of at most
    MAX_CARD_FILE_BYTES); the native game reads the object (without `cards` it uses the default
    set, data/nutz_cards.json, built into the core)."""
    cards = params.get("cards")
    if isinstance(cards, (str, os.PathLike)):
        params = {**params, "cards": _read_json_file(cards, "nutz: the card set")}
    return _core.NutzGame(params)


# Game name -> constructor from a parameter dict (players included). Games of the family that are
# not built yet are listed in PLANNED_GAMES so that load_game can say so plainly.
_GAMES = {
    "auf_die_nuesse": _core.AufDieNuesseGame,
    "purzelbaum": _core.PurzelbaumGame,
    "ritter": _core.RitterGame,
    "nutz": _load_nutz,
}
PLANNED_GAMES: tuple[str, ...] = ()

# Search settings that beat the generic defaults on a game, per algorithm, each measured against
# the greedy bot (bench/RESULTS.md, "A bias towards the greedy policy, and per-game defaults").
# best_move starts from them; a caller's own options override them.
_SEARCH_DEFAULTS: dict[str, dict[str, dict[str, Any]]] = {
    # A progressive bias towards the greedy policy: at 100 iterations 0.84 against greedy instead
    # of 0.42. (On Purzelbaum the same bias loses strength: 0.67 instead of 0.76 at 1,000.)
    "auf_die_nuesse": {"mcts": {"policy_bias": 1.0}},
}


def search_defaults(name: str, algorithm: str) -> dict[str, Any]:
    """The game's own defaults for a search algorithm's options (none: the generic ones)."""
    return dict(_SEARCH_DEFAULTS.get(name, {}).get(algorithm, {}))


# Difficulty levels a game sets apart from the generic table (nutcore.bots.LEVELS), so that its
# levels come out about equally spaced in rating (docs/levels.md has the measurements behind them).
_LEVELS: dict[str, dict[int, tuple[str, dict[str, Any]]]] = {
    # Search stops gaining against itself at about 300 iterations (1,000 still gains a little
    # against greedy); slips cost about 100 points per 0.15 of noise.
    "auf_die_nuesse": {
        1: ("greedy", {"noise": 0.6}),
        2: ("greedy", {"noise": 0.45}),
        3: ("greedy", {"noise": 0.3}),
        4: ("greedy", {"noise": 0.15}),
        5: ("greedy", {}),
        6: ("auto", {"iterations": 20}),
        7: ("auto", {"iterations": 50}),
        8: ("auto", {"iterations": 120}),
        9: ("auto", {"iterations": 300}),
        10: ("auto", {"iterations": 1000}),
    },
    # The generic table's last step (3,000 to 10,000 iterations) gained nothing, and its greedy
    # steps were uneven: one more greedy level, and budgets up to 3,000.
    "ritter": {
        1: ("greedy", {"noise": 0.6, "memory": 0.3}),
        2: ("greedy", {"noise": 0.45, "memory": 0.45}),
        3: ("greedy", {"noise": 0.3, "memory": 0.6}),
        4: ("greedy", {"noise": 0.15, "memory": 0.75}),
        5: ("greedy", {"memory": 0.9}),
        6: ("auto", {"iterations": 30, "memory": 0.9}),
        7: ("auto", {"iterations": 100, "memory": 0.95}),
        8: ("auto", {"iterations": 300}),
        9: ("auto", {"iterations": 1000}),
        10: ("auto", {"iterations": 3000}),
    },
    # Luck caps what search adds (MCTS wins about 75% against greedy at any budget), while slips
    # and memory decide a lot: most levels are greedy players, less noisy and forgetful each step,
    # the steps read off a first ladder (rating against noise is steep near 0 and flat above 0.4).
    "purzelbaum": {
        1: ("greedy", {"noise": 0.6, "memory": 0.3}),
        2: ("greedy", {"noise": 0.34, "memory": 0.56}),
        3: ("greedy", {"noise": 0.26, "memory": 0.64}),
        4: ("greedy", {"noise": 0.2, "memory": 0.7}),
        5: ("greedy", {"noise": 0.14, "memory": 0.78}),
        6: ("greedy", {"noise": 0.1, "memory": 0.83}),
        7: ("greedy", {"noise": 0.065, "memory": 0.88}),
        8: ("greedy", {"noise": 0.03, "memory": 0.94}),
        9: ("auto", {"iterations": 30}),
        10: ("auto", {"iterations": 1000}),
    },
    # Slips cost little in a game of hidden hands; beyond about 30 iterations each doubling of the
    # budget gains only some 35 points: few greedy levels, then budgets growing about 3-fold.
    "nutz": {
        1: ("greedy", {"noise": 0.8}),
        2: ("greedy", {"noise": 0.4}),
        3: ("greedy", {}),
        4: ("auto", {"iterations": 6}),
        5: ("auto", {"iterations": 15}),
        6: ("auto", {"iterations": 40}),
        7: ("auto", {"iterations": 120}),
        8: ("auto", {"iterations": 400}),
        9: ("auto", {"iterations": 1500}),
        10: ("auto", {"iterations": 6000}),
    },
}


def level_overrides(name: str) -> dict[int, tuple[str, dict[str, Any]]]:
    """The difficulty levels the game sets apart from the generic table (none: that table)."""
    return {level: (kind, dict(options)) for level, (kind, options) in _LEVELS.get(name, {}).items()}


def list_games() -> list[str]:
    """The names load_game accepts."""
    return sorted(_GAMES)


def load_game(name: str, players: int = 2, **params: Any):
    """Create a game: `players` seats (2-4) and any game parameter by name (see game.params)."""
    if not isinstance(name, str):
        raise ValueError(f"load_game: the game name must be a string, got {name!r}")
    if name not in _GAMES:
        if name in PLANNED_GAMES:
            raise ValueError(f"game {name!r} is not implemented yet; available: {list_games()}")
        raise ValueError(f"unknown game {name!r}; available: {list_games()}")
    players = _checks.integer(players, f"{name}: players", 2, 4)
    return _GAMES[name]({"players": players, **params})


@functools.lru_cache(maxsize=64)
def _cached_game(name: str, params_json: str):
    # Games are immutable values, so unpickling many states of one game builds the game once.
    params = json.loads(params_json)
    if not isinstance(params, dict) or "players" not in params:
        raise ValueError(f"unpickling a {name} game: bad parameters {params!r}")
    return load_game(name, **params)


def _game_from_pickle(name: str, params: dict[str, Any]):
    """Unpickles a game from its name and parameters (what Game.__reduce__ gives)."""
    return _cached_game(name, json.dumps(params, sort_keys=True))


def _state_from_pickle(game, data: bytes, history: list[int]):
    """Unpickles a state: the validated compact encoding, then its history."""
    state = game.deserialize_state(data)
    state._set_history(list(history))
    return state
