"""nutcore against OpenSpiel's bots on the same rules (through nutcore.openspiel), for bench/RESULTS.md.

    python bench/compare_openspiel.py                  # the recorded run (about 20 minutes on 2 cores), appended
                                                       # to bench/RESULTS.md
    python bench/compare_openspiel.py --players 2 4    # 4 players as well (more than twice as long)
    python bench/compare_openspiel.py --quick --output /tmp/compare.md   # a smoke test, under a minute

Every game is played at each player count given (default 2). Perfect information (Auf die Nüsse!,
Purzelbaum): nutcore's MCTS against OpenSpiel's C++ MCTS (pyspiel.MCTSBot: one uniform random
rollout per simulation, UCT constant --uct-c, MCTS-Solver on, as in OpenSpiel's examples/mcts.py).
Hidden information (Ritter, Nutz!): nutcore's ISMCTS against OpenSpiel's Python ISMCTS
(open_spiel.python.algorithms.ismcts.ISMCTSBot with a one-rollout RandomRolloutEvaluator, UCT
constant --uct-c, the most visited move). nutcore's searches run with best_move's defaults (greedy
playouts) on one thread, on every move, as OpenSpiel's bot does; with --nutcore auto the strength
games play best_move's default call instead: the tree search, and the game's exact solver where one
decides (Purzelbaum's winter; the other games have none that "auto" uses).

speed: on a few positions per game (decision points of one seeded random game, at a tenth to
seven tenths of its length), each search runs for --speed-seconds; iterations per second of each,
and their ratio (nutcore / OpenSpiel). nutcore is also measured with uniform random playouts
(heuristic_rollouts=False), the playouts OpenSpiel's evaluator does, for a like-for-like ratio.

strength: full games from the start, nutcore's bot in one seat and OpenSpiel's bot in the others,
the seat rotated game by game; every search gets the same wall time per move (--time-per-move).
nutcore and OpenSpiel's MCTS take it as their own limit (time_limit, max_wall_clock_time). The
Python ISMCTS has no time limit: before each move its simulations are set to that time times the
rate measured on its previous move (the game's first move starts with a 2-simulation probe, counted
in its time), so it uses about the same time; the table gives the mean seconds per move each side
used. A move with one legal action is played without search by both. Chance outcomes are drawn from
chance_outcomes() by a generator seeded per game (from --seed and the game's index); games are
spread over --workers processes, one game per process at a time. Win share: a k-way shared win
counts 1/k; the 95% interval is Wilson's.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import math
import os
import platform
import random
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from importlib import metadata

import numpy as np
import pyspiel
import report
from open_spiel.python.algorithms import ismcts, mcts

import nutcore
import nutcore.openspiel  # noqa: F401  (registers the games with pyspiel)
from nutcore import benchmark

BEGIN = "<!-- compare_openspiel: begin -->"
END = "<!-- compare_openspiel: end -->"


@functools.lru_cache(maxsize=None)
def hidden(name: str) -> bool:
    return nutcore.load_game(name).hidden_information  # cached: loading Purzelbaum builds its tumble model


def nutcore_algorithm(name: str) -> str:
    """The game's tree search (speed is measured on it)."""
    return "ismcts" if hidden(name) else "mcts"


def strength_algorithm(name: str, choice: str) -> str:
    """What plays nutcore's moves: "auto" is best_move's default call (the tree search, and the
    game's exact solver where that decides: Purzelbaum's winter); "search" the tree search always."""
    return "auto" if choice == "auto" else nutcore_algorithm(name)


def strength_label(name: str, choice: str, evaluator: str = "playout") -> str:
    label = f"auto ({nutcore_algorithm(name)})" if choice == "auto" else nutcore_algorithm(name)
    return label if evaluator == "playout" else f"{label}, {evaluator}"


def openspiel_bot_name(name: str) -> str:
    return "Python ISMCTS" if hidden(name) else "C++ MCTS"


def sample_chance(state, rng: random.Random) -> None:
    actions, probs = zip(*state.chance_outcomes())
    state.apply_action(rng.choices(actions, probs)[0])


# --- the OpenSpiel bots ---


class OpenSpielMCTS:
    """pyspiel.MCTSBot with a wall-time limit per move; mcts_search + best child is what its step()
    does (step() itself releases the GIL and cannot run a Python game)."""

    def __init__(self, game, seconds: float, uct_c: float, seed: int):
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        self.bot = pyspiel.MCTSBot(
            game, evaluator, uct_c, 2**31 - 1, 1000, True, seed, False, max_wall_clock_time=seconds
        )
        self.iterations = 0

    def step(self, state) -> int:
        # Under load a search can run out of its time before it has expanded the root (best_child()
        # is then None): search again, so the bot always gets a searched move (and the extra time).
        for _ in range(10):
            root = self.bot.mcts_search(state)
            self.iterations += root.explore_count
            best = root.best_child()
            if best is not None:
                return best.action
        raise RuntimeError("OpenSpiel's MCTS expanded nothing in 10 searches")


class OpenSpielISMCTS:
    """OpenSpiel's Python ISMCTS, its simulations per move set from its measured rate (see above)."""

    def __init__(self, game, seconds: float, uct_c: float, seed: int):
        self.game, self.seconds, self.uct_c = game, seconds, uct_c
        self.random_state = np.random.RandomState(seed % 2**32)
        self.evaluator = mcts.RandomRolloutEvaluator(1, self.random_state)
        self.rate = None  # simulations per second on its previous move
        self.iterations = 0

    def search(self, state, simulations: int) -> tuple[int, float]:
        bot = ismcts.ISMCTSBot(self.game, self.evaluator, self.uct_c, simulations, random_state=self.random_state)
        start = time.perf_counter()
        action = bot.step(state)
        return action, time.perf_counter() - start

    def step(self, state) -> int:
        start = time.perf_counter()
        if self.rate is None:  # the game's first search: a 2-simulation probe gives a first rate
            _, elapsed = self.search(state, 2)
            self.rate = 2 / max(elapsed, 1e-9)
        # At least 2: with 1 simulation the root has no visited child to choose from.
        simulations = max(2, round(self.rate * (self.seconds - (time.perf_counter() - start))))
        action, elapsed = self.search(state, simulations)
        self.rate = simulations / max(elapsed, 1e-9)
        self.iterations += simulations
        return int(action)


def openspiel_bot(name: str, game, seconds: float, uct_c: float, seed: int):
    return (OpenSpielISMCTS if hidden(name) else OpenSpielMCTS)(game, seconds, uct_c, seed)


# --- speed ---


def openspiel_rate(name: str, game, state, seconds: float, uct_c: float) -> float:
    if not hidden(name):
        bot = OpenSpielMCTS(game, seconds, uct_c, seed=1)
        start = time.perf_counter()
        bot.step(state)
        return bot.iterations / (time.perf_counter() - start)
    bot = OpenSpielISMCTS(game, seconds, uct_c, seed=1)
    _, elapsed = bot.search(state, 4)  # a probe, to size the measured run to about `seconds`
    simulations = max(4, round(4 / elapsed * seconds))
    _, elapsed = bot.search(state, simulations)
    return simulations / elapsed


def nutcore_rate(name: str, state, seconds: float, **options) -> float:
    result = nutcore.best_move(state, algorithm=nutcore_algorithm(name), time_limit=seconds, seed=1, **options)
    return result.iterations / result.elapsed


def speed(args, name: str, players: int) -> dict:
    game = pyspiel.load_game(f"nutcore_{name}", {"players": players})
    rows = []
    for state in benchmark.positions(game, args.positions, seed=args.seed):
        rows.append(
            (
                nutcore_rate(name, state, args.speed_seconds),
                nutcore_rate(name, state, args.speed_seconds, heuristic_rollouts=False),
                openspiel_rate(name, game, state, args.speed_seconds, args.uct_c),
            )
        )
    mean = [sum(r[i] for r in rows) / len(rows) for i in range(3)]
    ratios = [r[1] / r[2] for r in rows]
    return {
        "game": name,
        "players": players,
        "positions": len(rows),
        "nutcore": mean[0],
        "nutcore_uniform": mean[1],
        "openspiel": mean[2],
        "ratio": mean[0] / mean[2],
        "ratio_uniform": mean[1] / mean[2],
        "ratio_uniform_range": (min(ratios), max(ratios)),
    }


# --- strength ---


def play_one(job) -> dict:
    """One full game; nutcore's bot sits in seat `index % players`."""
    name, players, index, seconds, uct_c, seed, choice, evaluator = job
    game = pyspiel.load_game(f"nutcore_{name}", {"players": players})
    rng = random.Random(f"{seed}:{name}:{players}:{index}")
    seat = index % players
    opponent = openspiel_bot(name, game, seconds, uct_c, rng.getrandbits(31))
    spent = {"nutcore": 0.0, "openspiel": 0.0}
    moves = {"nutcore": 0, "openspiel": 0}
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            sample_chance(state, rng)
            continue
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        side = "nutcore" if state.current_player() == seat else "openspiel"
        start = time.perf_counter()
        if side == "nutcore":
            # The adapter state is handed over as it is: best_move searches the native state it wraps.
            algorithm = strength_algorithm(name, choice)
            action = nutcore.best_move(
                state, algorithm, time_limit=seconds, seed=rng.getrandbits(63), evaluator=evaluator
            ).action
        else:
            action = opponent.step(state)
        spent[side] += time.perf_counter() - start
        moves[side] += 1
        state.apply_action(action)
    return {
        "share": state.returns()[seat],
        "spent": spent,
        "moves": moves,
        "openspiel_iterations": opponent.iterations,
    }


def wilson(share: float, n: int) -> tuple[float, float]:
    z = 1.96
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def strength(args, pool, name: str, players: int) -> dict:
    jobs = [
        (name, players, i, args.time_per_move, args.uct_c, args.seed, args.nutcore, args.evaluator)
        for i in range(args.games)
    ]
    start = time.perf_counter()
    games = list(pool.map(play_one, jobs))
    n = len(games)
    share = sum(g["share"] for g in games) / n
    per_move = {
        side: sum(g["spent"][side] for g in games) / max(1, sum(g["moves"][side] for g in games))
        for side in ("nutcore", "openspiel")
    }
    return {
        "game": name,
        "players": players,
        "games": n,
        "share": share,
        "ci": wilson(share, n),
        "per_move": per_move,
        "openspiel_iterations": sum(g["openspiel_iterations"] for g in games)
        / max(1, sum(g["moves"]["openspiel"] for g in games)),
        "seconds": time.perf_counter() - start,
    }


# --- the report ---


def command_output(*cmd: str) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def section(args, speeds: list[dict], strengths: list[dict], seconds: float) -> list[str]:
    command = "python bench/compare_openspiel.py " + " ".join(sys.argv[1:])
    lines = [
        BEGIN,
        "## nutcore against OpenSpiel (issue 10)" + (" [--quick smoke test, not a result]" if args.quick else ""),
        "",
        f"{datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}, {seconds / 60:.0f} minutes:",
        "",
        f"    {command.strip()}",
        "",
        f"Machine: `{command_output('uname', '-a')}`, nproc {command_output('nproc')}; CPython "
        f"{platform.python_version()}, nutcore {nutcore.__version__}, open-spiel {metadata.version('open_spiel')}.",
        "",
        "How: the docstring of bench/compare_openspiel.py. nutcore: MCTS (perfect information) or ISMCTS (hidden "
        "information) with best_move's defaults, one thread"
        + (
            ", and in the strength games best_move's default call, auto (the exact solver where one decides)"
            if args.nutcore == "auto"
            else ""
        )
        + ". OpenSpiel: its C++ MCTS (perfect information) or its "
        f"Python ISMCTS (hidden information) on the same rules through nutcore.openspiel, UCT constant {args.uct_c}, "
        "one random rollout per simulation.",
        "",
        f"### Speed: iterations per second, {args.positions} positions per game, {args.speed_seconds} s per search",
        "",
        "| game | players | nutcore | OpenSpiel | nutcore it/s | nutcore it/s, uniform playouts | OpenSpiel it/s "
        "| ratio | ratio, uniform playouts (range over positions) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for s in speeds:
        low, high = s["ratio_uniform_range"]
        lines.append(
            f"| {s['game']} | {s['players']} | {nutcore_algorithm(s['game'])} | {openspiel_bot_name(s['game'])} "
            f"| {s['nutcore']:,.0f} | {s['nutcore_uniform']:,.0f} | {s['openspiel']:,.1f} | {s['ratio']:,.0f}x "
            f"| {s['ratio_uniform']:,.0f}x ({low:,.0f}-{high:,.0f}x) |"
        )
    lines += [
        "",
        f"### Strength: {args.time_per_move} s per move for every search, seats rotated",
        "",
        "| game | players | nutcore | OpenSpiel | games | nutcore win share | 95% CI (Wilson) "
        "| s/move nutcore / OpenSpiel | OpenSpiel iterations/move | seconds |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for s in strengths:
        low, high = s["ci"]
        lines.append(
            f"| {s['game']} | {s['players']} | {strength_label(s['game'], args.nutcore, args.evaluator)} "
            f"| {openspiel_bot_name(s['game'])} x{s['players'] - 1} | {s['games']} | {s['share']:.3f} "
            f"| {low:.3f}-{high:.3f} "
            f"| {s['per_move']['nutcore']:.3f} / {s['per_move']['openspiel']:.3f} "
            f"| {s['openspiel_iterations']:,.1f} | {s['seconds']:,.0f} |"
        )
    lines += [
        "",
        "Targets of issue 10: nutcore at least 100 times faster (iterations per second) and a win share of at "
        "least 0.9 at 2 players (a fair share is 1/players).",
        END,
    ]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="strength: games per game and player count (40)")
    parser.add_argument("--time-per-move", type=float, default=0.1, help="strength: seconds per move (0.1)")
    parser.add_argument("--positions", type=int, default=3, help="speed: positions per game (3)")
    parser.add_argument("--speed-seconds", type=float, default=1.0, help="speed: seconds per search (1.0)")
    parser.add_argument("--players", type=int, nargs="+", default=[2], choices=[2, 3, 4], help="player counts (2)")
    parser.add_argument(
        "--only", nargs="+", default=nutcore.list_games(), choices=nutcore.list_games(), help="these games (all)"
    )
    parser.add_argument("--uct-c", type=float, default=2.0, help="OpenSpiel's UCT constant (2, its examples' default)")
    parser.add_argument(
        "--nutcore",
        choices=["search", "auto"],
        default="search",
        help="strength: nutcore plays its tree search on every move, like OpenSpiel's bot (search), or "
        "best_move's default 'auto' (the exact solver where one decides, as in Purzelbaum's winter)",
    )
    parser.add_argument(
        "--evaluator",
        choices=["playout", "learned", "learned+playout"],
        default="playout",
        help="strength: nutcore's leaf evaluation (playout, the default; the learned ones use the game's "
        "built-in network: docs/learning.md)",
    )
    parser.add_argument("--workers", type=int, default=2, help="strength: processes playing games (2)")
    parser.add_argument("--seed", type=int, default=2026, help="seeds the positions and the games (2026)")
    parser.add_argument("--quick", action="store_true", help="a smoke test: 2 games, 1 position, short times")
    parser.add_argument(
        "--output",
        help="the file to append the section to (bench/RESULTS.md; with --quick, none unless given; '-': print only)",
    )
    args = parser.parse_args()
    if args.quick:
        args.games, args.positions = 2, 1
        args.time_per_move, args.speed_seconds = 0.02, 0.2
    output = args.output or ("-" if args.quick else os.path.join(os.path.dirname(__file__), "RESULTS.md"))
    if args.games < 1 or args.positions < 1 or args.time_per_move <= 0 or args.speed_seconds <= 0:
        parser.error("--games and --positions must be at least 1, the times positive")

    start = time.perf_counter()
    speeds, strengths = [], []
    # Speed first, alone in this process; then the games over the worker processes.
    for players in args.players:
        for name in args.only:
            speeds.append(speed(args, name, players))
            s = speeds[-1]
            print(f"speed {name} {players}p: nutcore {s['nutcore']:,.0f} it/s, OpenSpiel {s['openspiel']:,.1f} it/s")
    with ProcessPoolExecutor(args.workers) as pool:
        for players in args.players:
            for name in args.only:
                strengths.append(strength(args, pool, name, players))
                s = strengths[-1]
                print(f"strength {name} {players}p: win share {s['share']:.3f} over {s['games']} games", flush=True)
    report.emit(["", *section(args, speeds, strengths, time.perf_counter() - start)], output)
    if output != "-":
        print(f"appended to {output}")


if __name__ == "__main__":
    main()
