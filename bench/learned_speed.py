"""Iterations a second of the learned evaluators against today's default (playouts), on the same
positions, one thread, in one run:

    python bench/learned_speed.py                 # the recorded run
    python bench/learned_speed.py --output -      # print only

Positions: 5 per game, a VectorEnv's environments 4 random moves into their games (2 players, the
player counts with a built-in network). Each search: best_move with the game's tree search (MCTS,
ISMCTS on hidden information) and 20,000 iterations, run until 1 s has passed; the median rate of
the positions. Issue 33's aim: the learned search at a quarter or more of the default's rate.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import report

import nutcore

HERE = Path(__file__).resolve().parent
EVALUATORS = ("playout", "learned", "learned+playout")


def rate(state, algorithm, evaluator, seconds=1.0) -> float:
    done, start, seed = 0, time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        done += nutcore.best_move(
            state, algorithm=algorithm, iterations=20_000, seed=seed, evaluator=evaluator
        ).iterations
        seed += 1
    return done / (time.perf_counter() - start)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--output", default=str(HERE / "RESULTS.md"), help="append the table here ('-': print only)")
    args = ap.parse_args()
    rows = []
    for name in nutcore.list_games():
        for players in (2, 3, 4):
            net = nutcore.shipped_network(name, players)
            if net is None:
                continue
            env = nutcore.VectorEnv(name, 5, players=players, seed=1)
            env.reset()
            for _ in range(4):
                env.step(env.random_actions())
            algorithm = "ismcts" if env.game.hidden_information else "mcts"
            rates = {e: statistics.median(rate(env.state(i), algorithm, e) for i in range(5)) for e in EVALUATORS}
            rows.append((name, players, net.hidden, rates))
            print(name, players, {k: round(v) for k, v in rates.items()}, flush=True)
    lines = [
        "",
        f"### The learned evaluators: iterations a second ({datetime.date.today().isoformat()})",
        "",
        f"`python bench/learned_speed.py`; {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, nutcore {nutcore.__version__}; one thread, the median of 5 positions.",
        "",
        "| game | players | network | playouts (today's default) | learned | ratio | learned+playout | ratio |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, players, hidden, r in rows:
        base = r["playout"]
        lines.append(
            f"| {name} | {players} | {'x'.join(map(str, hidden))} | {base:,.0f} | {r['learned']:,.0f} | "
            f"{r['learned'] / base:.2f} | {r['learned+playout']:,.0f} | {r['learned+playout'] / base:.2f} |"
        )
    report.emit(lines, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
