"""Leaves evaluated a second by nutcore.BatchedSearch (docs/vector.md) with a trivial evaluator,
against the native search's iterations a second on the same positions:

    python bench/batched_search_speed.py                              # the recorded run
    python bench/batched_search_speed.py --seconds 0.2 --output -     # a smoke test

Batched: N environments (2 players) a few random moves into their games, BatchedSearch with 64
iterations per environment, run again and again; the evaluator returns the same constant values
(and, in the "priors" column, the same constant priors) every round, so the figure is the search's
own cost: the walks, the leaves' observations and legal masks written, the values checked and
backed up, and the round's Python call. A leaf is one row evaluated (the roots' own evaluations
included). Native: best_move on environment 0's position with evaluator="uniform" (the same
search, its leaves valued in C++ with no round trip) and with the default playouts, 20,000
iterations a call.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
import report

import nutcore

HERE = Path(__file__).resolve().parent
SIZES = (64, 1024, 4096)
ITERATIONS = 64


def batched_rate(name: str, num_envs: int, threads: int, seconds: float, priors: bool) -> float:
    env = nutcore.VectorEnv(name, num_envs, players=2, seed=1, threads=threads)
    env.reset()
    for _ in range(4):
        env.step(env.random_actions())
    search = nutcore.BatchedSearch(env, iterations=ITERATIONS)
    values = np.full((num_envs, 2), 0.5, np.float32)
    flat = np.ones((num_envs, env.num_actions), np.float32)
    leaves = 0

    def evaluator(rows):
        nonlocal leaves
        leaves += int(rows["pending"].sum())
        return (values, flat) if priors else values

    search.run(evaluator, seed=0)  # warm: the workers, the trees' memory
    leaves, start, seed = 0, time.perf_counter(), 1
    while time.perf_counter() - start < seconds:
        search.run(evaluator, seed=seed)
        seed += num_envs
    return leaves / (time.perf_counter() - start)


def native_rate(name: str, seconds: float, evaluator: str) -> float:
    env = nutcore.VectorEnv(name, 1, players=2, seed=1)
    env.reset()
    for _ in range(4):
        env.step(env.random_actions())
    state = env.state(0)
    algorithm = "ismcts" if state.get_game().hidden_information else "mcts"
    nutcore.best_move(state, algorithm=algorithm, iterations=1000, seed=0, evaluator=evaluator)
    iterations, start, seed = 0, time.perf_counter(), 1
    while time.perf_counter() - start < seconds:
        r = nutcore.best_move(state, algorithm=algorithm, iterations=20_000, seed=seed, evaluator=evaluator)
        iterations += r.iterations
        seed += 1
    return iterations / (time.perf_counter() - start)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="per measurement")
    ap.add_argument("--output", default=str(HERE / "RESULTS.md"), help="append the table here ('-': print only)")
    args = ap.parse_args()
    columns = [(n, t, False) for n in SIZES for t in (1, 2)] + [(SIZES[1], 2, True)]
    rows = {}
    for name in nutcore.list_games():
        rows[name] = {c: batched_rate(name, *c[:2], args.seconds, c[2]) for c in columns}
        rows[name]["uniform"] = native_rate(name, args.seconds, "uniform")
        rows[name]["playout"] = native_rate(name, args.seconds, "playout")
    header = " | ".join(f"N={n:,} ({t} thr){', priors' if p else ''}" for n, t, p in columns)
    lines = [
        "",
        f"### Batched search: leaves a second ({datetime.date.today().isoformat()})",
        "",
        f"`python bench/batched_search_speed.py --seconds {args.seconds}`; {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, nutcore {nutcore.__version__}; 2 players, "
        f"{ITERATIONS} iterations per environment, constant values (and priors where marked) from Python.",
        "",
        f"| game | {header} | native, uniform (1 thr) | native, playouts (1 thr) | best batched / native uniform |",
        "|---|" + "---|" * len(columns) + "---|---|---|",
    ]
    for name, r in rows.items():
        cells = " | ".join(f"{r[c]:,.0f}" for c in columns)
        best = max(r[c] for c in columns)
        lines.append(f"| {name} | {cells} | {r['uniform']:,.0f} | {r['playout']:,.0f} | {best / r['uniform']:.2f} |")
    report.emit(lines, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
