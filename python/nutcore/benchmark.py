"""`nutcore bench`: a fixed search workload per game with a signature, as chess engines give.

Per game (2 players): the decision points of one seeded random game at a tenth to seven tenths of
its length (POSITIONS of them), each searched by the game's default search (MCTS, or ISMCTS for
hidden information) with best_move's defaults, ITERATIONS iterations on one thread and a fixed
seed; then PLAYOUTS random games inside the C++ core from a fixed seed. Nodes searched and
playout transitions depend only on the code, never on the machine or its load; the total node
count is the signature, which the tests pin with the transitions (a change that alters search or
rules behaviour must update them on purpose). The speeds are this machine's.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from .games import list_games, load_game
from .search import best_move

POSITIONS = 4
ITERATIONS = 2000
PLAYOUTS = 2000
SEED = 2026


@dataclass
class BenchRow:
    game: str
    positions: int
    iterations: int
    nodes: int
    search_seconds: float
    playouts: int
    transitions: int
    playout_seconds: float


def positions(game: Any, count: int = POSITIONS, seed: int = SEED) -> list[Any]:
    """`count` decision points (more than one legal move) of one seeded random game, spread from a
    tenth to seven tenths of its length. Any state with the OpenSpiel-style methods will do
    (bench/compare_openspiel.py passes nutcore.openspiel's)."""
    rng = random.Random(seed)
    state, points = game.new_initial_state(), []
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        if len(state.legal_actions()) > 1:
            points.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return [points[int((0.1 + 0.6 * i / max(1, count - 1)) * (len(points) - 1))] for i in range(count)]


def workload(names: list[str] | None = None, iterations: int = ITERATIONS, playouts: int = PLAYOUTS) -> dict[str, Any]:
    """The workload as data, for every door that runs it (`run` below, the WebAssembly check in
    tests/helpers/wasm_node.mjs): per game its parameters, its searches (a position as JSON and best_move's
    request) and its playouts (from the start, seeded)."""
    games = []
    for name in _checked(names):
        game = load_game(name, players=2)
        searches = []
        for i, state in enumerate(positions(game)):
            algorithm = "ismcts" if state.hidden_information else "mcts"
            request = {"algorithm": algorithm, "iterations": iterations, "seed": SEED + i, "threads": 1}
            searches.append({"position": state.to_json(), "request": request})
        games.append({"name": name, "params": {"players": 2}, "searches": searches, "playouts": playouts, "seed": SEED})
    return {"iterations": iterations, "games": games}


def bench_game(entry: dict[str, Any], iterations: int) -> BenchRow:
    game = load_game(entry["name"], **entry["params"])
    nodes, search_seconds = 0, 0.0
    for search in entry["searches"]:
        state = game.state_from_json(search["position"])
        request = dict(search["request"])
        result = best_move(state, request.pop("algorithm"), **request)
        if result.nodes is None:  # MCTS and ISMCTS always count them
            raise RuntimeError(f"bench: {result.algorithm} counted no nodes")
        nodes += result.nodes
        search_seconds += result.elapsed
    start = time.perf_counter()
    _, lengths = game.random_playouts(entry["playouts"], seed=entry["seed"])
    playout_seconds = time.perf_counter() - start
    return BenchRow(
        entry["name"],
        len(entry["searches"]),
        iterations,
        nodes,
        search_seconds,
        entry["playouts"],
        int(lengths.sum()),
        playout_seconds,
    )


def _checked(names: list[str] | None) -> list[str]:
    names = names or list_games()
    for name in names:
        if name not in list_games():
            raise ValueError(f"unknown game {name!r}; available: {list_games()}")
    return names


def run(games: list[str] | None = None, iterations: int = ITERATIONS, playouts: int = PLAYOUTS) -> list[BenchRow]:
    work = workload(games, iterations, playouts)
    return [bench_game(entry, iterations) for entry in work["games"]]


def report(rows: list[BenchRow]) -> str:
    lines = [
        "| game | positions x iterations | nodes | iterations/s | playout transitions | transitions/s |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r.game} | {r.positions} x {r.iterations:,} | {r.nodes:,} | "
            f"{r.positions * r.iterations / r.search_seconds:,.0f} | {r.transitions:,} | "
            f"{r.transitions / r.playout_seconds:,.0f} |"
        )
    nodes = sum(r.nodes for r in rows)
    transitions = sum(r.transitions for r in rows)
    seconds = sum(r.search_seconds + r.playout_seconds for r in rows)
    lines.append(f"| total | | {nodes:,} | | {transitions:,} | |")
    lines.append("")
    lines.append(f"signature {nodes} (nodes searched; {seconds:.2f} s)")
    return "\n".join(lines)
