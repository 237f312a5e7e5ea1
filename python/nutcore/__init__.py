"""nutcore: fast rules engines and game AI for squirrel-and-nut board games.

    >>> import nutcore
    >>> game = nutcore.load_game("auf_die_nuesse", players=3)
    >>> state = game.new_initial_state()

The state API follows OpenSpiel's names: current_player(), is_chance_node(), chance_outcomes(),
legal_actions(), apply_action(a), returns(), ... See README.md and docs/rules/.
"""

from __future__ import annotations

from typing import Any

from . import _core
from ._core import CHANCE, TERMINAL

__version__ = _core.__version__

from .bots import Bot, GreedyBot, RandomBot, SearchBot, make_bot  # noqa: E402
from .match import MatchResult, play_match  # noqa: E402
from .search import SearchResult, best_move  # noqa: E402

# Game name -> native game class. Games of the family that are not built yet are listed in
# PLANNED_GAMES so that load_game can say so plainly.
_GAMES = {
    "auf_die_nuesse": _core.AufDieNuesseGame,
}
PLANNED_GAMES = ("purzelbaum", "nutz", "ritter")


def list_games() -> list[str]:
    """The names load_game accepts."""
    return sorted(_GAMES)


def load_game(name: str, players: int = 2, **params: Any):
    """Create a game: `players` seats (2-4) and any game parameter by name (see game.params)."""
    if name not in _GAMES:
        if name in PLANNED_GAMES:
            raise ValueError(f"game {name!r} is not implemented yet; available: {list_games()}")
        raise ValueError(f"unknown game {name!r}; available: {list_games()}")
    return _GAMES[name]({"players": players, **params})


__all__ = [
    "CHANCE",
    "TERMINAL",
    "PLANNED_GAMES",
    "Bot",
    "GreedyBot",
    "MatchResult",
    "RandomBot",
    "SearchBot",
    "SearchResult",
    "__version__",
    "best_move",
    "list_games",
    "load_game",
    "make_bot",
    "play_match",
]
