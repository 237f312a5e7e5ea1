"""Steps a second of nutcore.VectorEnv (docs/vector.md), against the PettingZoo adapter's loop on
the same games and, in the same run, against pgx on the CPU:

    python bench/vector_speed.py --pgx-python /tmp/venv-pgx/bin/python   # the recorded run
    python bench/vector_speed.py --seconds 0.2 --output -                 # a smoke test

A step is one action in one environment, as pgx counts them. nutcore: VectorEnv.random_actions
(a uniformly random legal action per environment, drawn in C++) and VectorEnv.step into the same
arrays (the observations of the seats to move, the legal masks, rewards; chance drawn inside;
finished games started again), at N environments and 1 or 2 threads. PettingZoo: the AEC loop of
nutcore.pettingzoo.env, a random legal action from each observation's mask. Seat mode: the
learner's steps a second with the other seat played inside by random, greedy and level:3 bots.
pgx: bench/pgx_speed.py
in its own virtual environment (it does not import nutcore), with action sampling and auto-reset
fused into the jitted step.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import report

import nutcore

HERE = Path(__file__).resolve().parent
SIZES = (1, 64, 1024, 4096)
SEAT_OPPONENTS = ("random", "greedy", "level:3")


def vector_rate(name: str, num_envs: int, threads: int, seconds: float, **seat_mode) -> float:
    env = nutcore.VectorEnv(name, num_envs, seed=1, threads=threads, **seat_mode)
    out = env.reset()
    actions = np.empty(num_envs, np.int64)
    for _ in range(3):  # warm: the first games' arrays and the workers
        env.random_actions(actions)
        env.step(actions, out=out)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(10):
            env.random_actions(actions)
            env.step(actions, out=out)
        steps += 10 * num_envs
    return steps / (time.perf_counter() - start)


def pettingzoo_rate(name: str, seconds: float) -> float:
    from nutcore import pettingzoo

    env = pettingzoo.env(name)
    rng = np.random.default_rng(1)
    env.reset(seed=1)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
                steps += 1
            env.step(action)
            if time.perf_counter() - start >= seconds:
                break
        else:
            env.reset()
    return steps / (time.perf_counter() - start)


def pgx_rates(python: str, seconds: float) -> list[dict]:
    out = subprocess.run(
        [python, str(HERE / "pgx_speed.py"), "--seconds", str(seconds)], capture_output=True, text=True, check=True
    )
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="per measurement")
    ap.add_argument("--pgx-python", help="the python of a virtual environment with pgx and jax")
    ap.add_argument("--output", default=str(HERE / "RESULTS.md"), help="append the tables here ('-': print only)")
    args = ap.parse_args()
    games = nutcore.list_games()
    rows = {}
    for name in games:
        rows[name] = {
            "pettingzoo": pettingzoo_rate(name, args.seconds),
            **{(n, t): vector_rate(name, n, t, args.seconds) for n in SIZES for t in (1, 2)},
        }
    seat_modes = {
        name: {opp: vector_rate(name, 1024, 2, args.seconds, seat=0, opponents=opp) for opp in SEAT_OPPONENTS}
        for name in games
    }
    pgx = pgx_rates(args.pgx_python, args.seconds) if args.pgx_python else []
    header = " | ".join(f"N={n:,} ({t} thr)" for n in SIZES for t in (1, 2))
    lines = [
        "",
        f"### Steps a second ({datetime.date.today().isoformat()})",
        "",
        f"`python bench/vector_speed.py{' --pgx-python ' + args.pgx_python if args.pgx_python else ''} "
        f"--seconds {args.seconds}`; {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, nutcore {nutcore.__version__}; 2 players, random legal actions, "
        f"observations written every step.",
        "",
        f"| game | PettingZoo loop | {header} | N=4,096 / PettingZoo |",
        "|---|---|" + "---|" * (2 * len(SIZES)) + "---|",
    ]
    for name, r in rows.items():
        cells = " | ".join(f"{r[(n, t)]:,.0f}" for n in SIZES for t in (1, 2))
        best = max(r[(SIZES[-1], 1)], r[(SIZES[-1], 2)])
        lines.append(f"| {name} | {r['pettingzoo']:,.0f} | {cells} | {best / r['pettingzoo']:,.0f} |")
    lines += [
        "",
        "Seat mode (seat 0 the learner, random actions; the other seat played inside by the opponents), "
        "N=1,024, 2 threads, the learner's steps a second:",
        "",
        "| game | " + " | ".join(SEAT_OPPONENTS) + " |",
        "|---|" + "---|" * len(SEAT_OPPONENTS),
    ]
    for name, r in seat_modes.items():
        lines.append(f"| {name} | " + " | ".join(f"{r[o]:,.0f}" for o in SEAT_OPPONENTS) + " |")
    if pgx:
        version = pgx[0]["pgx"]
        pgx_games = sorted({p["game"] for p in pgx}, key=[p["game"] for p in pgx].index)
        lines += [
            "",
            f"pgx {version} in the same run (bench/pgx_speed.py, jit(vmap(step)) with action sampling and "
            "auto-reset fused, every core XLA uses), steps a second:",
            "",
            "| game | " + " | ".join(f"B={n:,}" for n in SIZES) + " |",
            "|---|" + "---|" * len(SIZES),
        ]
        for g in pgx_games:
            by = {p["batch"]: p["steps_per_second"] for p in pgx if p["game"] == g}
            lines.append(f"| {g} | " + " | ".join(f"{by.get(n, float('nan')):,.0f}" for n in SIZES) + " |")
        best_pgx = max(p["steps_per_second"] for p in pgx)
        best_ours = min(max(r[(n, t)] for n in SIZES for t in (1, 2)) for r in rows.values())
        lines += [
            "",
            f"pgx's best figure: {best_pgx:,.0f}; nutcore's slowest game at its best N: {best_ours:,.0f} "
            f"({best_ours / best_pgx:.2f} times).",
        ]
    report.emit(lines, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
