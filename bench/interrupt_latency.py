"""How quickly Ctrl-C stops native work: SIGINT is sent to a child process in the middle of each
long call of tests/generic/test_interrupt.py, and the time until its KeyboardInterrupt handler runs is
measured (both clocks are the system's monotonic clock).

    python bench/interrupt_latency.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import textwrap

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))

from test_interrupt import CALLS, CHILD, interrupt  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print("| call | median ms | max ms |")
    print("|---|---|---|")
    for name in sorted(CALLS):
        game, players, call = CALLS[name]
        code = textwrap.dedent(CHILD).format(game=game, players=players, call=call)
        latencies = [interrupt(code)[0] * 1000 for _ in range(args.runs)]
        print(f"| {name} | {statistics.median(latencies):.1f} | {max(latencies):.1f} |", flush=True)


if __name__ == "__main__":
    main()
