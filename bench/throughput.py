"""Random-playout throughput of the C++ core and the Python reference, measured in one run.

    python bench/throughput.py [--game auf_die_nuesse] [--games 20000] [--reference-games 40]

Prints transitions (applied actions) per second on one core for both, and their ratio.
"""

from __future__ import annotations

import argparse
import platform
import time

from test_bench_playouts import reference_playouts

import nutcore
import nutcore.reference


def best_rate(run, repeats):
    best = 0.0
    for _ in range(repeats):
        start = time.perf_counter()
        steps = run()
        best = max(best, steps / (time.perf_counter() - start))
    return best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="auf_die_nuesse")
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--reference-games", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, game {args.game}")
    print("| players | C++ transitions/s | reference transitions/s | ratio |")
    print("|---|---|---|---|")
    for players in (2, 3, 4):
        game = nutcore.load_game(args.game, players=players)
        ref = nutcore.reference.load_game(args.game, players=players)
        native = best_rate(lambda g=game: int(g.random_playouts(args.games, 1)[1].sum()), args.repeats)
        python = best_rate(lambda r=ref: reference_playouts(r, args.reference_games, 1), args.repeats)
        print(f"| {players} | {native:,.0f} | {python:,.0f} | {native / python:,.0f}x |")


if __name__ == "__main__":
    main()
