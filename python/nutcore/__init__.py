"""nutcore: fast rules engines and game AI for squirrel-and-nut board games.

    >>> import nutcore
    >>> game = nutcore.load_game("auf_die_nuesse", players=3)
    >>> state = game.new_initial_state()

The state API follows OpenSpiel's names: current_player(), is_chance_node(), chance_outcomes(),
legal_actions(), apply_action(a), returns(), ... See README.md and docs/rules/.
"""

from __future__ import annotations

import warnings

from . import _core
from ._core import CHANCE, TERMINAL, Game, SearchStopped, State, StopToken

__version__ = _core.__version__


def get_include() -> str:
    """The directory of nutcore.h, the C ABI's header (docs/embedding.md)."""
    from pathlib import Path

    return str(Path(_core.__file__).resolve().parent / "include")


def get_library() -> str:
    """The path of libnutcore, the C ABI's shared library (docs/embedding.md)."""
    from pathlib import Path

    lib = Path(_core.__file__).resolve().parent / "lib"
    return str(next(iter(sorted(lib.glob("libnutcore.*"))), lib / "libnutcore.so"))


from .bots import Bot, GreedyBot, RandomBot, SearchBot, make_bot  # noqa: E402
from .games import list_games, load_game  # noqa: E402
from .match import MatchResult, play_match  # noqa: E402
from .records import GameRecord, RecordMove, load_record  # noqa: E402
from .search import Network, SearchResult, SearchTree, best_move, load_network, shipped_network, solve  # noqa: E402
from .tournaments import TournamentResult, tournament  # noqa: E402
from .vector import BatchedSearch, VectorEnv  # noqa: E402

__all__ = [
    "BatchedSearch",
    "GameRecord",
    "CHANCE",
    "TERMINAL",
    "Bot",
    "Game",
    "GreedyBot",
    "MatchResult",
    "Network",
    "RandomBot",
    "RecordMove",
    "SearchBot",
    "SearchResult",
    "SearchStopped",
    "SearchTree",
    "State",
    "StopToken",
    "TournamentResult",
    "VectorEnv",
    "__version__",
    "best_move",
    "get_include",
    "get_library",
    "list_games",
    "load_game",
    "load_network",
    "load_record",
    "make_bot",
    "play_match",
    "shipped_network",
    "solve",
    "tournament",
]


def __getattr__(name: str) -> type:
    """The per-game class names of old (e.g. AufDieNuesseState, the native module's): deprecated
    names of nutcore.Game and nutcore.State, with a DeprecationWarning pointing at the caller."""
    if name.endswith(("Game", "State")):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            cls = getattr(_core, name, None)
        if isinstance(cls, type) and caught:
            warnings.warn(str(caught[0].message), DeprecationWarning, stacklevel=2)
            return cls
    raise AttributeError(f"module 'nutcore' has no attribute {name!r}")
