"""Best-move search: one call that picks an algorithm, runs it in C++ and explains its choice."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from . import _core

# Algorithms per game, best first: "auto" takes the first.
ALGORITHMS = {
    "auf_die_nuesse": ("mcts", "expectimax", "solver"),
    "purzelbaum": ("mcts", "expectimax", "solver"),
}
_MCTS_OPTIONS = {"exploration": 1.0, "heuristic_rollouts": True, "max_nodes": 20_000_000}
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


def _game_name(state) -> str:
    name = type(state).__name__
    for game in ALGORITHMS:
        if name.lower().startswith(game.replace("_", "")):
            return game
    raise ValueError(f"best_move: not a nutcore state: {state!r}")


def _check_options(algorithm: str, options: dict[str, Any], allowed: dict[str, Any]) -> dict[str, Any]:
    unknown = set(options) - set(allowed)
    if unknown:
        raise ValueError(
            f"best_move: algorithm {algorithm!r} has no option(s) {sorted(unknown)}; its options are {sorted(allowed)}"
        )
    return {**allowed, **options}


def best_move(
    state,
    algorithm: str = "auto",
    iterations: int | None = None,
    time_limit: float | None = None,
    threads: int = 1,
    seed: int | None = None,
    **options: Any,
) -> SearchResult:
    """Search from `state` (a decision node) and return the chosen action with its statistics.

    algorithm: "auto" (the best the game supports: the exact solver where it applies, Purzelbaum's
    winter; MCTS elsewhere), "mcts", "expectimax" or "solver".
    iterations / time_limit: the MCTS budget (default 1000 iterations); threads: root-parallel trees;
    seed: makes the search reproducible (None: a fresh random seed). Other keyword options go to the
    algorithm (MCTS: exploration, heuristic_rollouts, max_nodes; expectimax: depth, bound, pruning, star2).
    Expectimax with pruning (two players) gives the exact value for the chosen move and upper bounds
    for the others; pruning=False gives every move's exact value.
    """
    game = _game_name(state)
    supported = ALGORITHMS[game]
    if algorithm == "auto":
        # Purzelbaum's winter is solved exactly; everywhere else MCTS is the strongest choice.
        winter = game == "purzelbaum" and not state.is_terminal() and state.to_json()["season"] == "winter"
        algorithm = "solver" if winter else supported[0]
    if algorithm not in supported:
        raise ValueError(f"best_move: unknown algorithm {algorithm!r} for {game}; choose from {('auto',) + supported}")
    if state.is_terminal() or state.is_chance_node():
        raise ValueError("best_move: the state is terminal or a chance node; there is no move to choose")
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little") >> 1
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError("best_move: seed must be an int or None")

    if algorithm == "mcts":
        opts = _check_options(algorithm, options, _MCTS_OPTIONS)
        if iterations is None and time_limit is None:
            iterations = 1000
        if iterations is not None and (
            not isinstance(iterations, int) or isinstance(iterations, bool) or iterations < 1
        ):
            raise ValueError("best_move: iterations must be a positive int")
        if time_limit is not None and not (isinstance(time_limit, (int, float)) and time_limit > 0):
            raise ValueError("best_move: time_limit must be a positive number of seconds")
        if not isinstance(threads, int) or isinstance(threads, bool) or not 1 <= threads <= 256:
            raise ValueError("best_move: threads must be an int in 1..256")
        raw = _core.mcts_search(
            state,
            iterations or 0,
            float(time_limit or 0.0),
            float(opts["exploration"]),
            seed,
            threads,
            bool(opts["heuristic_rollouts"]),
            int(opts["max_nodes"]),
        )
        stats = _stats(state, raw, with_visits=True)
        return SearchResult(
            raw["action"],
            state.action_to_string(raw["action"]),
            "mcts",
            raw["root_value"],
            stats,
            raw["iterations"],
            raw["nodes"],
            raw["elapsed"],
            {
                "bytes_per_node": raw["bytes_per_node"],
                "tree_bytes": raw["tree_bytes"],
                "threads": threads,
                "seed": seed,
            },
        )

    if iterations is not None or time_limit is not None or threads != 1:
        raise ValueError(
            f"best_move: {algorithm} is exact for its depth; it takes no iterations, time_limit or threads"
        )
    if algorithm == "expectimax":
        opts = _check_options(algorithm, options, _EXPECTIMAX_OPTIONS)
        if not isinstance(opts["depth"], int) or not 1 <= opts["depth"] <= 64:
            raise ValueError("best_move: depth must be an int in 1..64")
        raw = _core.expectimax_search(
            state, opts["depth"], float(opts["bound"]), bool(opts["pruning"]), bool(opts["star2"])
        )
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
            {"depth": opts["depth"]},
        )

    _check_options(algorithm, options, {})
    if game == "purzelbaum":
        return _winter_result(state, _core.purzelbaum_solve_winter(state))
    # The exact turn solver of Auf die Nüsse!.
    raw = _core.adn_solve_turn(state)
    stats = _stats(state, raw)
    value = [float("nan")] * len(state.returns())
    value[state.current_player()] = raw["value"]
    return SearchResult(
        raw["action"],
        state.action_to_string(raw["action"]),
        "solver",
        value,
        stats,
        None,
        raw["tracks"],
        raw["elapsed"],
        {"evaluation": "heuristic margin of the player to move"},
    )


def _winter_result(state, raw) -> SearchResult:
    stats = _stats(state, raw)
    extra = {
        "positions": raw["positions"],
        "future": raw["future"],
        "evaluation": "64 * points + nuts, final, under best play",
    }
    if len(raw["value"]) == 2:
        extra["outcome"] = {1: "win", 0: "draw", -1: "loss"}[raw["outcome"]]
        extra["margin_points"] = _points_margin(raw["value"], state.current_player())
    return SearchResult(
        raw["action"],
        state.action_to_string(raw["action"]),
        "solver",
        raw["value"],
        stats,
        None,
        raw["positions"],
        raw["elapsed"],
        extra,
    )


def _points_margin(values, mover):
    me, other = values[mover], values[1 - mover]
    return int(me // 64 - other // 64)


def solve(state) -> SearchResult:
    """Solve a position exactly, where the game has an exact solver (Purzelbaum: any winter position).

    value: per seat the final 64 * points + nuts under best play (points first, then the nut
    tie-break); with two players extra["outcome"] is the mover's win / draw / loss and
    extra["margin_points"] the final points margin. Action values are the mover's future gains.
    """
    game = _game_name(state)
    if game != "purzelbaum":
        raise ValueError(f"solve: {game} has no exact whole-game solver (try best_move(state, algorithm='solver'))")
    if state.is_terminal():
        raise ValueError("solve: the game is over")
    return _winter_result(state, _core.purzelbaum_solve_winter(state))
