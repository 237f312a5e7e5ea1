"""Best-move search: one call that picks an algorithm, runs it in C++ and explains its choice."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from . import _checks, _core
from ._core import Network, StopToken
from ._types import StateLike

__all__ = [
    "ALL_ALGORITHMS",
    "NETWORK_FILE_LIMIT",
    "TREE_ALGORITHMS",
    "ActionStat",
    "Network",
    "SearchResult",
    "SearchTree",
    "StopToken",
    "best_move",
    "default_options",
    "load_network",
    "shipped_network",
    "solve",
]

# Every algorithm; a game lists those it supports (game.algorithms, state.algorithms), and
# _core.auto_algorithm(state) says which one "auto" takes there. Their options and defaults live in
# C++ (cpp/engine/settings.cc, over the search layer's option structs): default_options(name).
ALL_ALGORITHMS = ("mcts", "ismcts", "pimc", "expectimax", "solver")
TREE_ALGORITHMS = ("auto", "mcts", "ismcts")  # those that can keep a SearchTree between searches

# The largest network file load_network reads from a path. The bounds of the file itself are
# Network::from_bytes's (_core.network_limits()); nutcore train checks a network against both
# before it trains one (nutcore.learn.netfile.check_sizes).
NETWORK_FILE_LIMIT = 64 << 20


def default_options(algorithm: str) -> dict[str, Any]:
    """An algorithm's options with their generic defaults (a game may set some apart:
    nutcore.games.search_defaults)."""
    return _core.default_options(algorithm)


@dataclass
class ActionStat:
    action: int
    action_string: str
    visits: int | None = None  # MCTS
    value: float | None = None  # mean value (MCTS) or exact / depth-limited value (solver, expectimax)


@dataclass
class SearchResult:
    action: int
    action_string: str
    algorithm: str
    value: list[float]  # estimated value per player (MCTS: win share; others: their evaluation)
    actions: list[ActionStat] = field(default_factory=list)
    iterations: int | None = None
    nodes: int | None = None
    elapsed: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "action_string": self.action_string,
            "algorithm": self.algorithm,
            "value": self.value,
            "actions": [vars(a) for a in self.actions],
            "iterations": self.iterations,
            "nodes": self.nodes,
            "elapsed": self.elapsed,
            **self.extra,
        }


def _settings(
    algorithm: str,
    iterations: int | None,
    time_limit: float | None,
    threads: int,
    seed: int | None,
    options: dict[str, Any],
) -> dict[str, Any]:
    """best_move's arguments as the settings the engine reads (None: not given)."""
    return {
        "algorithm": algorithm,
        "iterations": iterations,
        "time_limit": time_limit,
        "threads": threads,
        "seed": seed,
        **options,
    }


def _result(raw: dict[str, Any]) -> SearchResult:
    return SearchResult(
        raw["action"],
        raw["action_string"],
        raw["algorithm"],
        raw["value"],
        [ActionStat(a["action"], a["action_string"], a["visits"], a["value"]) for a in raw["actions"]],
        raw["iterations"],
        raw["nodes"],
        raw["elapsed"],
        raw["extra"],
    )


class SearchTree:
    """best_move's tree kept between calls (tree reuse), for a player that searches at each of its
    turns: give the same SearchTree to best_move every time and each search goes on from the part
    of the last tree that the position reached (the actions and chance outcomes played since), so
    the visits already spent there count. MCTS keeps the subtree below the new position; ISMCTS
    keeps its whole tree (its nodes are information sets, all still valid) and starts from the
    searching seat's node, deciding from that seat's view alone (its information set found in the
    tree), never from hidden history. A position that does not follow from the last one (another
    game, an earlier position; for ISMCTS another seat or an information set the tree never
    reached) starts a fresh tree. Not for PIMC or the exact
    algorithms; "auto" uses the tree only where it picks MCTS or ISMCTS. The result says how many
    of the root's visits came from earlier searches: extra["reused_visits"]."""

    def __init__(self) -> None:
        self._native = _core._SearchTree()

    def clear(self) -> None:
        """Forget the tree (a new game)."""
        self._native.clear()

    def __getstate__(self) -> dict[str, Any]:  # a copy or pickle starts with an empty tree
        return {}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._native = _core._SearchTree()


def best_move(
    state: StateLike,
    algorithm: str = "auto",
    iterations: int | None = None,
    time_limit: float | None = None,
    threads: int = 1,
    seed: int | None = None,
    stop: StopToken | None = None,
    tree: SearchTree | None = None,
    network: Network | None = None,
    **options: Any,
) -> SearchResult:
    """Search from `state` (a decision node) and return the chosen action with its statistics.
    `state` is a nutcore state or an adapter wrapping one in `state.nutcore_state` (such as
    nutcore.openspiel's states); the search reads the wrapped state.

    algorithm: "auto" (the best the game supports: its exact solver where that decides, as in
    Purzelbaum's winter, ignoring the MCTS budget there; ISMCTS for games of hidden information;
    MCTS elsewhere), "mcts", "ismcts", "pimc", "expectimax" or "solver". On a game of hidden
    information only "ismcts" and "pimc" are offered, and the search uses only what the player to
    move knows (docs/information.md).
    iterations / time_limit: the MCTS budget (default 1000 iterations; with both, whichever ends
    first). Every algorithm takes time_limit (seconds): expectimax stops deepening (with no depth
    given it deepens up to 64 while the time lasts) and a solver that cannot finish in time raises
    nutcore.SearchStopped; "auto" gives its exact choice (Purzelbaum's winter solver) no time limit.
    iterations and threads are the sampling searches' alone. threads: root-parallel trees; seed:
    makes the search reproducible (0..2**64-1; None: a fresh random seed). stop: a
    nutcore.StopToken; its stop() ends the search early from another thread (MCTS then returns its
    best move so far with extra["stopped"]; expectimax its deepest complete depth, also with
    extra["stopped"]; a solver, or any search stopped before it has a move, raises
    nutcore.SearchStopped). Ctrl-C interrupts any search with KeyboardInterrupt. tree: a
    nutcore.SearchTree to keep the MCTS / ISMCTS tree for the next call (tree reuse).
    Other keyword options go to the algorithm (defaults: the generic ones, over which a game may
    set its own, nutcore.games.search_defaults(game, algorithm)). MCTS and ISMCTS: exploration,
    heuristic_rollouts, max_nodes, policy_bias (a progressive bias towards the game's greedy
    policy), margin and margin_scale (a reward mixing the win with the points lead), evaluator
    ("playout", the default; "uniform"; "learned": a trained network's values and move priors,
    with PUCT selection, the game's built-in network or `network`, nutcore.load_network's;
    "learned+playout": its values mixed with a playout's, playout_weight of the playout, 0.5 by
    default); MCTS also
    widening (progressive widening where the game orders its moves); PIMC: those of ISMCTS but
    policy_bias, and determinizations. Expectimax: depth, bound, pruning, star2; with pruning (two
    players) it gives the exact value for the chosen move and upper bounds for the others;
    pruning=False gives every move's exact value. It deepens iteratively (depth 1, 2, ..., each
    exactly the search to that depth alone) and answers with the deepest depth completed:
    extra["depth"], with extra["max_depth"] (the depth aimed at) and extra["complete"].
    """
    native = _checks.checked_state(_checks.native_state(state), "best_move")
    if stop is not None and not isinstance(stop, StopToken):
        raise ValueError(f"best_move: stop must be a nutcore.StopToken, got {stop!r}")
    if tree is not None and not isinstance(tree, SearchTree):
        raise ValueError(f"best_move: tree must be a nutcore.SearchTree, got {tree!r}")
    _checks.network(network, "best_move")
    settings = _settings(algorithm, iterations, time_limit, threads, seed, options)
    tree_native = None if tree is None else tree._native
    return _result(_core.best_move(native, settings, stop, tree_native, network))


def load_network(source: str | bytes | bytearray | memoryview | os.PathLike[str] | os.PathLike[bytes]) -> Network:
    """A trained network for the learned evaluator (docs/learning.md): from a file's path (a
    regular file of at most NETWORK_FILE_LIMIT bytes, 64 MiB) or its bytes. Its header says its
    game and player count, a game of this engine at a player count it plays;
    best_move(..., evaluator="learned", network=it) searches with it. ValueError if it is not a
    valid network file."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return Network(bytes(source))
    return Network(_checks.read_small_file(source, "load_network", limit=NETWORK_FILE_LIMIT))


def shipped_network(game: str, players: int) -> Network | None:
    """The network built into the engine for `game` at `players` (evaluator="learned" uses it), or
    None."""
    return _core.shipped_network(game, players)


def solve(state: StateLike, stop: StopToken | None = None) -> SearchResult:
    """Solve a position exactly to the end of the game, where the game's solver does that
    (state.whole_game_solver; Purzelbaum: any winter position, docs/rules/purzelbaum.md).
    `state` may be an adapter state, as for best_move.

    Purzelbaum: value is per seat the final 64 * points + nuts under best play (points first, then
    the nut tie-break); with two players extra["outcome"] is the mover's win / draw / loss and
    extra["margin_points"] the final points margin. Action values are the mover's future gains.
    """
    native = _checks.checked_state(_checks.native_state(state), "solve")
    game = native.game_name
    if stop is not None and not isinstance(stop, StopToken):
        raise ValueError(f"solve: stop must be a nutcore.StopToken, got {stop!r}")
    if not native.whole_game_solver:
        raise ValueError(f"solve: {game} has no exact whole-game solver (try best_move(state, algorithm='solver'))")
    if native.is_terminal():
        raise ValueError("solve: the game is over")
    return _result(_core.solve(native, stop))
