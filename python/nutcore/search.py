"""Best-move search: one call that picks an algorithm, runs it in C++ and explains its choice."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from . import _checks, _core
from ._core import StopToken
from .games import search_defaults

# Every algorithm; a game's native state lists those it supports (type(state).algorithms), and
# _core.auto_algorithm(state) says which one "auto" takes there.
ALL_ALGORITHMS = ("mcts", "ismcts", "pimc", "expectimax", "solver")
# margin: the weight of the points lead in a playout's reward (0: win share only), on a tanh of
# the lead over margin_scale points; widening: progressive widening (MctsOptions in cpp/search/mcts.h).
_REWARD_OPTIONS = {"margin": 0.0, "margin_scale": 10.0}
_MCTS_OPTIONS = {
    "exploration": 1.0,
    "heuristic_rollouts": True,
    "max_nodes": 20_000_000,
    "widening": 0.0,
    "policy_bias": 0.0,
    **_REWARD_OPTIONS,
}
# The information-set searches (docs/information.md): the same budget; PIMC also the number of
# sampled states.
# Defaults tuned on Ritter at 2 players against the greedy bot (bench/RESULTS.md): a lower exploration
# constant and a bias towards the greedy policy beat plain UCB (0.7, no bias) clearly.
_ISMCTS_OPTIONS = {
    "exploration": 0.3,
    "heuristic_rollouts": True,
    "max_nodes": 20_000_000,
    "policy_bias": 1.0,
    **_REWARD_OPTIONS,
}
_PIMC_OPTIONS = {**{k: v for k, v in _ISMCTS_OPTIONS.items() if k != "policy_bias"}, "determinizations": 20}
_SAMPLING = ("mcts", "ismcts", "pimc")
TREE_ALGORITHMS = ("auto", "mcts", "ismcts")  # those that can keep a SearchTree between searches
_EXPECTIMAX_OPTIONS = {"depth": 3, "bound": 250.0, "pruning": True, "star2": False}


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


def _stats(state, raw, with_visits: bool = False) -> list[ActionStat]:
    return [
        ActionStat(
            a["action"], state.action_to_string(a["action"]), a["visits"] if with_visits else None, a["mean_value"]
        )
        for a in raw["actions"]
    ]


def _check_options(algorithm: str, options: dict[str, Any], allowed: dict[str, Any]) -> dict[str, Any]:
    unknown = set(options) - set(allowed)
    if unknown:
        raise ValueError(
            f"best_move: algorithm {algorithm!r} has no option(s) {sorted(unknown)}; its options are {sorted(allowed)}"
        )
    return {**allowed, **options}


def _mcts_config(iterations, time_limit, threads, options: dict[str, Any], algorithm: str = "mcts") -> dict[str, Any]:
    allowed = {"mcts": _MCTS_OPTIONS, "ismcts": _ISMCTS_OPTIONS, "pimc": _PIMC_OPTIONS}[algorithm]
    opts = _check_options(algorithm, options, allowed)
    if iterations is None and time_limit is None:
        iterations = 1000
    extra = {}
    if "determinizations" in allowed:
        extra["determinizations"] = _checks.integer(opts["determinizations"], "best_move: determinizations", 1, 100_000)
    if "widening" in allowed:
        extra["widening"] = _checks.real(opts["widening"], "best_move: widening", zero_allowed=True)
    if "policy_bias" in allowed:
        extra["policy_bias"] = _checks.real(opts["policy_bias"], "best_move: policy_bias", zero_allowed=True)
    margin = _checks.real(opts["margin"], "best_move: margin", zero_allowed=True)
    if margin > 1:
        raise ValueError(f"best_move: margin is a weight in [0, 1], got {margin!r}")
    return {
        **extra,
        "margin": margin,
        "margin_scale": _checks.real(opts["margin_scale"], "best_move: margin_scale"),
        "iterations": 0 if iterations is None else _checks.integer(iterations, "best_move: iterations", 1, 2**50),
        "time_limit": 0.0 if time_limit is None else _checks.real(time_limit, "best_move: time_limit"),
        "threads": _checks.integer(threads, "best_move: threads", 1, 256),
        "exploration": _checks.real(opts["exploration"], "best_move: exploration", zero_allowed=True),
        "heuristic_rollouts": _checks.flag(opts["heuristic_rollouts"], "best_move: heuristic_rollouts"),
        "max_nodes": _checks.integer(opts["max_nodes"], "best_move: max_nodes", 1000, 2_000_000_000),
    }


def _expectimax_config(options: dict[str, Any]) -> dict[str, Any]:
    opts = _check_options("expectimax", options, _EXPECTIMAX_OPTIONS)
    return {
        "depth": _checks.integer(opts["depth"], "best_move: depth", 1, 64),
        "bound": _checks.real(opts["bound"], "best_move: bound"),
        "pruning": _checks.flag(opts["pruning"], "best_move: pruning"),
        "star2": _checks.flag(opts["star2"], "best_move: star2"),
    }


def search_config(algorithm: str, iterations=None, time_limit=None, threads=1, **options: Any) -> dict[str, Any]:
    """The checked settings of `algorithm` ("mcts", "expectimax", "solver" or "auto"), without a
    state: bots check their settings with it when they are made. "auto" takes MCTS's settings,
    which it ignores where it picks an exact algorithm."""
    if algorithm in ("mcts", "auto"):
        return _mcts_config(iterations, time_limit, threads, options)
    if algorithm in _SAMPLING:
        return _mcts_config(iterations, time_limit, threads, options, algorithm)
    if iterations is not None or time_limit is not None or _checks.integer(threads, "best_move: threads", 1, 256) != 1:
        raise ValueError(
            f"best_move: {algorithm} is exact for its depth; it takes no iterations, time_limit or threads"
        )
    if algorithm == "expectimax":
        return _expectimax_config(options)
    if algorithm == "solver":
        return _check_options(algorithm, options, {})
    raise ValueError(f"best_move: unknown algorithm {algorithm!r}; choose from {('auto', *ALL_ALGORITHMS)}")


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
        self._kept = None
        self._owner = None

    def clear(self) -> None:
        """Forget the tree (a new game)."""
        self._kept = self._owner = None

    def __getstate__(self) -> dict[str, Any]:  # a copy or pickle starts with an empty tree
        return {}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.clear()

    def _for(self, state):
        owner = (type(state), state.get_game().params)
        if self._kept is None or self._owner != owner:
            self._kept, self._owner = _core.search_tree(state), owner
        return self._kept


def best_move(
    state,
    algorithm: str = "auto",
    iterations: int | None = None,
    time_limit: float | None = None,
    threads: int = 1,
    seed: int | None = None,
    stop: StopToken | None = None,
    tree: SearchTree | None = None,
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
    first); threads: root-parallel trees; seed: makes the search reproducible (0..2**64-1; None: a
    fresh random seed). stop: a nutcore.StopToken; its stop() ends the search early from another
    thread (MCTS then returns its best move so far with extra["stopped"]; the exact algorithms raise
    nutcore.SearchStopped). Ctrl-C interrupts any search with KeyboardInterrupt. tree: a
    nutcore.SearchTree to keep the MCTS / ISMCTS tree for the next call (tree reuse).
    Other keyword options go to the algorithm (defaults: the generic ones, over which a game may
    set its own, nutcore.games.search_defaults(game, algorithm)). MCTS and ISMCTS: exploration,
    heuristic_rollouts, max_nodes, policy_bias (a progressive bias towards the game's greedy
    policy), margin and margin_scale (a reward mixing the win with the points lead); MCTS also
    widening (progressive widening where the game orders its moves); PIMC: those of ISMCTS but
    policy_bias, and determinizations. Expectimax: depth, bound, pruning, star2; with pruning (two
    players) it gives the exact value for the chosen move and upper bounds for the others;
    pruning=False gives every move's exact value.
    """
    state = _checks.native_state(state)
    game = _checks.state_game_name(state, "best_move")
    if not isinstance(algorithm, str):
        raise ValueError(f"best_move: algorithm must be a name, got {algorithm!r}")
    config = search_config(algorithm, iterations, time_limit, threads, **options)
    if stop is not None and not isinstance(stop, StopToken):
        raise ValueError(f"best_move: stop must be a nutcore.StopToken, got {stop!r}")
    if tree is not None and not isinstance(tree, SearchTree):
        raise ValueError(f"best_move: tree must be a nutcore.SearchTree, got {tree!r}")
    if tree is not None and algorithm not in TREE_ALGORITHMS:
        raise ValueError(f"best_move: {algorithm} keeps no tree between searches (tree is for mcts and ismcts)")
    if state.is_terminal() or state.is_chance_node():
        raise ValueError("best_move: the state is terminal or a chance node; there is no move to choose")
    chosen = _core.auto_algorithm(state) if algorithm == "auto" else algorithm
    supported = type(state).algorithms
    if chosen not in supported:
        raise ValueError(
            f"best_move: algorithm {chosen!r} is not available for {game}; choose from {('auto', *supported)}"
        )
    if chosen in _SAMPLING:
        # The chosen search's settings over the game's own defaults ("auto" checked MCTS's).
        config = _mcts_config(iterations, time_limit, threads, {**search_defaults(game, chosen), **options}, chosen)
    seed = int.from_bytes(os.urandom(8), "little") if seed is None else _checks.seed(seed, "best_move: seed")

    if chosen in _SAMPLING:
        budget = [config[k] for k in ("iterations", "time_limit", "exploration")]
        budget += [seed] + [config[k] for k in ("threads", "heuristic_rollouts", "max_nodes")]
        reward = {k: config[k] for k in _REWARD_OPTIONS}
        kept = None if tree is None or chosen == "pimc" else tree._for(state)  # PIMC keeps no tree
        if chosen == "mcts":
            raw = _core.mcts_search(
                state, *budget, config["widening"], policy_bias=config["policy_bias"], stop=stop, tree=kept, **reward
            )
        else:
            search = _core.ismcts_search if chosen == "ismcts" else _core.pimc_search
            determinizations, bias = config.get("determinizations", 1), config.get("policy_bias", 0.0)
            raw = search(state, *budget, determinizations, bias, stop=stop, tree=kept, **reward)
        extra = {k: raw[k] for k in ("bytes_per_node", "tree_bytes", "reserved_bytes", "reused_visits")}
        extra.update(threads=config["threads"], seed=seed, stopped=raw["stopped"])
        if chosen != "mcts":
            extra["searching_player"] = state.current_player()
        if chosen == "pimc":
            extra["determinizations"] = config["determinizations"]
        return SearchResult(
            raw["action"],
            state.action_to_string(raw["action"]),
            chosen,
            raw["root_value"],
            _stats(state, raw, with_visits=True),
            raw["iterations"],
            raw["nodes"],
            raw["elapsed"],
            extra,
        )

    if chosen == "expectimax":
        raw = _core.expectimax_search(state, config["depth"], config["bound"], config["pruning"], config["star2"], stop)
        stats = _stats(state, raw)
        return SearchResult(
            raw["action"],
            state.action_to_string(raw["action"]),
            "expectimax",
            raw["root_value"],
            stats,
            None,
            raw["nodes"],
            raw["elapsed"],
            {"depth": config["depth"]},
        )

    return _solver_result(state, _core.exact_solve(state, stop))


def _solver_result(state, raw) -> SearchResult:
    return SearchResult(
        raw["action"],
        state.action_to_string(raw["action"]),
        "solver",
        raw["value"],
        _stats(state, raw),
        None,
        raw["nodes"],
        raw["elapsed"],
        raw["extra"],
    )


def solve(state, stop: StopToken | None = None) -> SearchResult:
    """Solve a position exactly to the end of the game, where the game's solver does that
    (type(state).whole_game_solver; Purzelbaum: any winter position, docs/rules/purzelbaum.md).
    `state` may be an adapter state, as for best_move.

    Purzelbaum: value is per seat the final 64 * points + nuts under best play (points first, then
    the nut tie-break); with two players extra["outcome"] is the mover's win / draw / loss and
    extra["margin_points"] the final points margin. Action values are the mover's future gains.
    """
    state = _checks.native_state(state)
    game = _checks.state_game_name(state, "solve")
    if stop is not None and not isinstance(stop, StopToken):
        raise ValueError(f"solve: stop must be a nutcore.StopToken, got {stop!r}")
    if not type(state).whole_game_solver:
        raise ValueError(f"solve: {game} has no exact whole-game solver (try best_move(state, algorithm='solver'))")
    if state.is_terminal():
        raise ValueError("solve: the game is over")
    return _solver_result(state, _core.exact_solve(state, stop))
