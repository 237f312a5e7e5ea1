"""Plain-Python reference implementations of the nutcore games.

Independent of the compiled core; used to cross-check it step by step. Each game is a subpackage
(reference/<g>/, named as the game's folder in cpp/games/) with GAME_NAME and Game: found here, not
listed. Only relative imports, so this package also imports standalone as `reference`.
"""

import importlib
import pkgutil

_GAMES = {}
for _info in pkgutil.iter_modules(__path__):
    if _info.ispkg:
        _module = importlib.import_module("." + _info.name, __name__)
        _GAMES[_module.GAME_NAME] = _module.Game


def list_games():
    """Names of the games with a reference implementation."""
    return sorted(_GAMES)


def load_game(name, players=2, **params):
    """The reference game `name` for `players` seats with parameters `params`."""
    if name not in _GAMES:
        raise ValueError("unknown game %r; known: %s" % (name, ", ".join(list_games())))
    return _GAMES[name](players=players, **params)


__all__ = ["list_games", "load_game"]
