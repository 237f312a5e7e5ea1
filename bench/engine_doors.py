"""The engine's doors against each other (issues 30, 45): start-up, and search speed.

    python bench/engine_doors.py startup [--runs 20]
    python bench/engine_doors.py speed [--iterations 20000] [--repeats 5]
    python bench/engine_doors.py doors [--iterations 20000] [--repeats 5]

startup: from process start to the `hello` reply, for nutcore-engine (C++ only), `nutcore engine`
(the same engine in a Python process) and the WebAssembly build in Node (tests/helpers/wasm_lines.mjs,
through its JavaScript API), alternating, each run a fresh process; medians and ranges.
speed: best_move's iterations a second on the same positions (every game, after 12 random
actions), through the C ABI (nc_best_move by ctypes) and through Python (nutcore.best_move),
alternating; the ratio ABI / Python per position (the same seed: the same search, so the same
iterations; the time is what differs).
doors: the same searches as a client of each door of the engine protocol gets them
(tests/helpers/protocol.py's TRANSPORTS: best_move after set_position, timed from the request to its
reply, the protocol's cost included), against the Python call, alternating; the ratio door /
Python in iterations a second per position.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))

from protocol import TRANSPORTS, binary_path, connect, engine_command  # noqa: E402

import nutcore  # noqa: E402
from playing import random_step  # noqa: E402


def _hello_seconds(command: list[str]) -> float:
    start = time.monotonic()
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    proc.stdin.write(b'{"cmd": "hello", "id": 1}\n')
    proc.stdin.flush()
    line = proc.stdout.readline()
    elapsed = time.monotonic() - start
    assert json.loads(line)["type"] == "hello", line
    proc.stdin.close()
    proc.wait()
    return elapsed


def startup(runs: int) -> None:
    doors = {
        "nutcore-engine": [binary_path()],
        "nutcore engine": [sys.executable, "-m", "nutcore", "engine"],
        "WebAssembly in Node": engine_command(transport="wasm"),
    }
    times: dict[str, list[float]] = {name: [] for name in doors}
    for command in doors.values():  # a warm-up each
        _hello_seconds(command)
    for _ in range(runs):
        for name, command in doors.items():
            times[name].append(_hello_seconds(command))
    print("| door | median ms | min ms | max ms |")
    print("|---|---|---|---|")
    for name, t in times.items():
        print(f"| {name} | {statistics.median(t) * 1000:.1f} | {min(t) * 1000:.1f} | {max(t) * 1000:.1f} |")
    ratio = statistics.median(times["nutcore engine"]) / statistics.median(times["nutcore-engine"])
    print(f"\nnutcore engine / nutcore-engine: {ratio:.1f}x ({runs} runs each)")


def _position(name: str):
    state = nutcore.load_game(name).new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node() or len(state.history()) < 12:
        random_step(state, rng)
    return state


def speed(iterations: int, repeats: int) -> None:
    from capi_client import CapiGame

    print("| game | iterations | Python it/s | C ABI it/s | C ABI / Python (median, range) |")
    print("|---|---|---|---|---|")
    for name in nutcore.list_games():
        state = _position(name)
        capi_state = CapiGame(name, json.dumps({"players": 2})).state_from_json(json.dumps(state.to_json()))
        request = {"iterations": iterations, "seed": 7}
        python, capi = [], []
        for _ in range(repeats):
            start = time.perf_counter()
            a = nutcore.best_move(state, **request)
            python.append(time.perf_counter() - start)
            start = time.perf_counter()
            b = capi_state.best_move(json.dumps(request))
            capi.append(time.perf_counter() - start)
            assert a.action == b["action"] and a.iterations == b["iterations"]  # the same search
        ratios = [p / c for p, c in zip(python, capi)]
        print(
            f"| {name} | {iterations:,} | {iterations / statistics.median(python):,.0f} "
            f"| {iterations / statistics.median(capi):,.0f} | {statistics.median(ratios):.3f} "
            f"({min(ratios):.3f}-{max(ratios):.3f}) |",
            flush=True,
        )


def doors(iterations: int, repeats: int) -> None:
    limits = json.dumps({"iterations": max(iterations, 10**6), "search_seconds": 600})
    clients = {door: connect(door, "--limits", limits) for door in TRANSPORTS}
    print("| game | iterations | Python it/s | " + " | ".join(TRANSPORTS) + " |")
    print("|---|---|---|" + "---|" * len(TRANSPORTS))
    worst = 1.0
    try:
        for name in nutcore.list_games():
            state = _position(name)
            seat = {"seat": None} if state.hidden_information else {}
            for client in clients.values():
                client.ok(cmd="new_game", game=name, players=2, **seat)
                client.ok(cmd="set_position", position=state.to_json())
            request = {"algorithm": "auto", "iterations": iterations, "seed": 7}
            python, through = [], {door: [] for door in clients}
            for _ in range(repeats):
                start = time.perf_counter()
                expected = nutcore.best_move(state, **request)
                python.append(time.perf_counter() - start)
                for door, client in clients.items():
                    start = time.perf_counter()
                    reply = client.ok(cmd="best_move", **request)
                    through[door].append(time.perf_counter() - start)
                    got = reply["result"]
                    assert (got["action"], got["iterations"]) == (expected.action, expected.iterations), door
            cells = []
            for door in clients:
                ratios = [p / t for p, t in zip(python, through[door])]
                worst = min(worst, statistics.median(ratios))
                cells.append(f"{statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})")
            print(
                f"| {name} | {iterations:,} | {iterations / statistics.median(python):,.0f} | "
                + " | ".join(cells)
                + " |"
            )
    finally:
        for client in clients.values():
            client.close()
    print(f"\nratios door / Python in iterations a second (median, range of {repeats}); the lowest median: {worst:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("startup")
    p.add_argument("--runs", type=int, default=20)
    for mode in ("speed", "doors"):
        p = sub.add_parser(mode)
        p.add_argument("--iterations", type=int, default=20_000)
        p.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    if args.what == "startup":
        startup(args.runs)
    elif args.what == "speed":
        speed(args.iterations, args.repeats)
    else:
        doors(args.iterations, args.repeats)


if __name__ == "__main__":
    main()
