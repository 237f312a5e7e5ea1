"""Plain-Python reference implementations of the nutcore games.

Independent of the compiled core; used to cross-check it step by step.
Only relative imports, so this package also imports standalone as `reference`.
"""

from . import auf_die_nuesse, nutz, purzelbaum, ritter

_GAMES = {
    auf_die_nuesse.GAME_NAME: auf_die_nuesse.Game,
    nutz.GAME_NAME: nutz.Game,
    purzelbaum.GAME_NAME: purzelbaum.Game,
    ritter.GAME_NAME: ritter.Game,
}


def list_games():
    """Names of the games with a reference implementation."""
    return sorted(_GAMES)


def load_game(name, players=2, **params):
    """The reference game `name` for `players` seats with parameters `params`."""
    if name not in _GAMES:
        raise ValueError("unknown game %r; known: %s" % (name, ", ".join(list_games())))
    return _GAMES[name](players=players, **params)


__all__ = ["list_games", "load_game"]
