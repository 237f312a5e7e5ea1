"""The games nutcore has, as C++ declares them (cpp/games/<g>/declaration.h, listed once in
CMakeLists.txt): load_game makes the native game from parameters (in C++ alone: Purzelbaum's
tumbling model included). Everything else a generic layer needs of a game (its algorithms, what
"auto" picks, its solver, its search defaults and levels) it asks the declaration through the
native module; the plain-Python rules are nutcore.reference.<g> (nutcore/reference/__init__.py
lists them)."""

from __future__ import annotations

import functools
import json
import os
from typing import Any, Union

from . import _checks, _core
from ._types import Game, State

# A path as os.fsencode takes it.
PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

# The largest JSON file read_json_file reads (a card set is a few kB): the engine's one cap.
MAX_JSON_FILE_BYTES: int = _core.MAX_JSON_FILE_BYTES


def read_json_file(path: PathLike, what: str) -> Any:
    """The JSON in a file that the caller names (a str, bytes or os.PathLike path), read by the
    engine's one reader (C++, which the engine protocol uses too): a regular file of at most
    MAX_JSON_FILE_BYTES of UTF-8 JSON. Anything else (a device, a pipe, a directory, a larger file,
    a NUL byte in the path, JSON nested too deeply) is a ValueError starting "<what>: " and naming
    the path."""
    try:
        raw = os.fsencode(path)
    except TypeError:
        raise ValueError(f"{what}: a path is a str, bytes or os.PathLike, got {type(path).__name__}") from None
    return _core.read_json_file(raw, what)


# The declared games (cpp/games/<g>/declaration.h, in CMake's NUTCORE_GAMES order); every one is a
# nutcore.Game, made from its name and parameters.
_INFOS: dict[str, dict[str, Any]] = {info["name"]: info for info in _core.game_infos()}


def search_defaults(name: str, algorithm: str) -> dict[str, Any]:
    """The game's own defaults for a search algorithm's options, over the generic ones (its
    declaration's kSearchDefaults; bench/RESULTS.md has the measurements behind them)."""
    return dict(_INFOS[name]["search_defaults"].get(algorithm, {})) if name in _INFOS else {}


def level_overrides(name: str) -> dict[int, tuple[str, dict[str, Any]]]:
    """The difficulty levels the game declares for itself (docs/levels.md): level -> (kind, options)."""
    from .bots import level_settings

    if name not in _INFOS:
        return {}
    return {level: level_settings(name, level) for level, spec in enumerate(_INFOS[name]["levels"], 1) if spec}


@functools.lru_cache(maxsize=None)
def _data_params(name: str) -> frozenset[str]:
    """The parameters of a game that are data by default (lists and objects)."""
    return frozenset(k for k, v in Game(name, {"players": 2}).params.items() if isinstance(v, (dict, list)))


def _read_file_params(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """A parameter that is data by default (a list or an object, such as Nutz!'s card set) may be
    given as the path of a JSON file (read_json_file)."""
    files = {k for k, v in params.items() if isinstance(v, (str, os.PathLike)) and k in _data_params(name)}
    return {k: read_json_file(v, f"{name}: {k}") if k in files else v for k, v in params.items()}


def list_games() -> list[str]:
    """The names load_game accepts."""
    return sorted(_INFOS)


def load_game(name: str, players: int = 2, **params: Any) -> Game:
    """Create a game: `players` seats (2-4) and any game parameter by name (see game.params)."""
    if not isinstance(name, str):
        raise ValueError(f"load_game: the game name must be a string, got {name!r}")
    if name not in _INFOS:
        raise ValueError(f"unknown game {name!r}; available: {list_games()}")
    info = _INFOS[name]
    players = _checks.integer(players, f"{name}: players", info["min_players"], info["max_players"])
    return Game(name, _read_file_params(name, {"players": players, **params}))


@functools.lru_cache(maxsize=64)
def _cached_game(name: str, params_json: str) -> Game:
    # Games are immutable values, so unpickling many states of one game builds the game once.
    params = json.loads(params_json)
    if not isinstance(params, dict) or "players" not in params:
        raise ValueError(f"unpickling a {name} game: bad parameters {params!r}")
    return load_game(name, **params)


def _game_from_pickle(name: str, params: dict[str, Any]) -> Game:
    """Unpickles a game from its name and parameters (what Game.__reduce__ gives)."""
    return _cached_game(name, json.dumps(params, sort_keys=True))


def _state_from_pickle(game: Game, data: bytes, history: list[int]) -> State:
    """Unpickles a state: the validated compact encoding, then its history."""
    state = game.deserialize_state(data)
    state._set_history(list(history))
    return state
