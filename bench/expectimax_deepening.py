"""Expectimax's iterative deepening (issue 44): what the shallower depths cost a search to a fixed
depth, and how deep a time limit reaches. Every depth is the search to that depth alone, so a
search to depth D counts the nodes of depths 1..D and the search of depth D alone is its count less
depth D - 1's; the overhead is the ratio of the two. Positions: Auf die Nüsse!'s first decision
after 10 random steps (tests/doors/test_reliability.py's decision_state), 2 and 3 players.

    python bench/expectimax_deepening.py [--max-seconds 2] [--time-limits 0.1,0.5,2]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))

from test_reliability import decision_state  # noqa: E402

import nutcore  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-seconds", type=float, default=2.0, help="stop deepening once a depth takes this long")
    parser.add_argument("--time-limits", default="0.1,0.5,2")
    args = parser.parse_args()
    print("| players | depth | nodes, depths 1..D | nodes, depth D alone | overhead | seconds |")
    print("|---|---|---|---|---|---|")
    for players in (2, 3):
        _, state = decision_state(players=players)
        before = 0
        for depth in range(1, 65):
            start = time.perf_counter()
            result = nutcore.best_move(state, algorithm="expectimax", depth=depth)
            seconds = time.perf_counter() - start
            alone = result.nodes - before
            print(
                f"| {players} | {depth} | {result.nodes:,} | {alone:,} | {result.nodes / alone:.3f} | {seconds:.3f} |",
                flush=True,
            )
            before = result.nodes
            if seconds > args.max_seconds:
                break
    print()
    print("| players | time_limit | depth answered | nodes | seconds |")
    print("|---|---|---|---|---|")
    for players in (2, 3):
        _, state = decision_state(players=players)
        for limit in (float(x) for x in args.time_limits.split(",")):
            start = time.perf_counter()
            result = nutcore.best_move(state, algorithm="expectimax", time_limit=limit)
            seconds = time.perf_counter() - start
            print(f"| {players} | {limit} | {result.extra['depth']} | {result.nodes:,} | {seconds:.3f} |", flush=True)


if __name__ == "__main__":
    main()
