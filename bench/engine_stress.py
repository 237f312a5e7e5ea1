"""The engine's tests in a loop, to find rare stalls and lost replies (issue 44): too long for the
default suite, run by hand and recorded in bench/RESULTS.md.

    python bench/engine_stress.py tests [--rounds 200] [--transports capi python] [--stall 300]
    python bench/engine_stress.py race [--rounds 20000] [--seed 1]

tests: the engine protocol tests (tests/doors/test_engine.py) of the given doors and the thread tests
(tests/doors/test_engine_threads.py), each round a fresh pytest process with a watchdog: a round that
runs longer than --stall seconds is a stall (it is killed and counted), a round that fails is
counted with its first failure. race: tests/helpers/engine_race.c built against the installed library and
run for --rounds rounds (its own watchdog reports a stall).

Prints a table (markdown) and, with --output FILE, appends it there.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(__file__))
from report import emit  # noqa: E402

import nutcore  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _show_tail(stdout, stderr, lines: int = 40) -> None:
    """The end of a bad round's output, on stderr: what failed or where it stalled."""
    for name, text in (("stdout", stdout), ("stderr", stderr)):
        if isinstance(text, bytes):
            text = text.decode("utf-8", "replace")
        if text:
            print(
                f"--- {name} (last {lines} lines)", *text.splitlines()[-lines:], sep="\n", file=sys.stderr, flush=True
            )


def _tests(args) -> list[str]:
    others = [t for t in ("python", "cli", "binary", "capi") if t not in args.transports]
    expression = " and ".join(f"not {t}" for t in others) or "not nothing"  # a door's id is in its tests' names
    # -v names each test before it runs (the last name is where a round stalled); faulthandler
    # prints every thread's Python stack if one test runs past half the stall time.
    command = [sys.executable, "-m", "pytest", "-v", "-x", "-p", "no:cacheprovider", "-p", "no:randomly"]
    command += ["-o", f"faulthandler_timeout={args.stall // 2}"]
    command += ["tests/doors/test_engine.py", "tests/doors/test_engine_threads.py", "-k", expression]
    seconds, failures, stalls = [], [], 0
    for r in range(args.rounds):
        start = time.monotonic()
        try:
            run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=args.stall)
        except subprocess.TimeoutExpired as stalled:
            stalls += 1
            print(f"round {r}: STALL (over {args.stall} s)", flush=True)
            _show_tail(stalled.stdout, stalled.stderr)
            continue
        seconds.append(time.monotonic() - start)
        if run.returncode != 0:
            failed = [line for line in run.stdout.splitlines() if line.startswith("FAILED")]
            failures.append((r, failed[:1] or run.stdout.splitlines()[-1:]))
            print(f"round {r}: FAILED {failures[-1][1]}", flush=True)
            _show_tail(run.stdout, run.stderr)
        elif r % 10 == 0:
            print(f"round {r}: ok ({seconds[-1]:.1f} s)", flush=True)
    passed = args.rounds - len(failures) - stalls
    return [
        f"### Engine tests in a loop ({time.strftime('%Y-%m-%d')})",
        "",
        f"`python bench/engine_stress.py tests --rounds {args.rounds} --transports {' '.join(args.transports)} "
        f"--stall {args.stall}` on {platform.node()} ({os.cpu_count()} cores), nutcore {nutcore.__version__}:",
        "",
        "| rounds | passed | failed | stalled | seconds a round (median, max) |",
        "|---|---|---|---|---|",
        f"| {args.rounds} | {passed} | {len(failures)} | {stalls} | "
        f"{statistics.median(seconds) if seconds else 0:.1f}, {max(seconds, default=0):.1f} |",
        "",
        *[f"- round {r}: {' '.join(f)}" for r, f in failures],
    ]


def _race(args) -> list[str]:
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    assert cc, "no C compiler"
    library = Path(nutcore.get_library())
    with tempfile.TemporaryDirectory() as tmp:
        program = Path(tmp) / "engine_race"
        subprocess.run(
            [cc, "-std=c99", "-O1", "-pthread", str(ROOT / "tests" / "engine_race.c"), f"-I{nutcore.get_include()}"]
            + [f"-L{library.parent}", "-lnutcore", f"-Wl,-rpath,{library.parent}", "-o", str(program)],
            check=True,
        )
        start = time.monotonic()
        run = subprocess.run([str(program), str(args.rounds), str(args.seed)], capture_output=True, text=True)
        elapsed = time.monotonic() - start
    outcome = run.stdout.strip() if run.returncode == 0 else f"exit {run.returncode}: {run.stderr.splitlines()[:1]}"
    return [
        f"### engine_race ({time.strftime('%Y-%m-%d')})",
        "",
        f"`python bench/engine_stress.py race --rounds {args.rounds} --seed {args.seed}` on {platform.node()} "
        f"({os.cpu_count()} cores): {outcome}, {elapsed:.1f} s.",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    tests = sub.add_parser("tests")
    tests.add_argument("--rounds", type=int, default=200)
    tests.add_argument("--transports", nargs="+", default=["capi", "python"])
    tests.add_argument("--stall", type=float, default=300)
    race = sub.add_parser("race")
    race.add_argument("--rounds", type=int, default=20000)
    race.add_argument("--seed", type=int, default=1)
    for p in (tests, race):
        p.add_argument("--output", default="-")
    args = parser.parse_args()
    lines = _tests(args) if args.what == "tests" else _race(args)
    emit(lines, args.output)
    failed = any(line.startswith("- round") for line in lines) or "exit " in "".join(lines)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
