"""Information-set search figures for bench/RESULTS.md (games of hidden information).

    python bench/ismcts_bench.py speed [--game ritter] [--iterations 20000]
    python bench/ismcts_bench.py strength [--game ritter] [--bot ismcts:iterations=1000]
        [--rows 2:random,2:greedy,2:pimc,4:random:1000,4:greedy:1000,4:pimc:1000] [--games 200] [--workers 2]

speed: ISMCTS and PIMC iterations per second from a fixed mid-game position (2 players), at 1 and
2 threads (best of three), with best_move's default settings. strength: the bot against opponents,
seats rotated, games split over worker processes by game index (every game is seeded from (seed,
chunk), so the figures do not depend on the number of workers); win share with a 95% interval, mean score. A row is
PLAYERS:OPPONENT[:ITERATIONS]; ITERATIONS replaces the bot's budget in that row and is the PIMC
opponent's budget ("pimc" is pimc:iterations=ITERATIONS, 1000 by default).
"""

from __future__ import annotations

import argparse
import math
import platform
import random
import time
from concurrent.futures import ProcessPoolExecutor

import nutcore
from nutcore import _core


def machine() -> str:
    return f"{platform.machine()}, {platform.python_implementation()} {platform.python_version()}"


def midgame(name: str, players: int, seed: int = 5, steps: int = 60):
    """A decision reached by `steps` random actions from a fixed seed."""
    game = nutcore.load_game(name, players=players)
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def speed(args) -> None:
    state = midgame(args.game, 2)
    print(f"machine: {machine()}, game {args.game}, 2 players, position after 60 random actions\n")
    print("| algorithm | threads | iterations | seconds | iterations/s | speed-up |")
    print("|---|---|---|---|---|---|")
    for name in ("ismcts", "pimc"):
        base = None
        for threads in (1, 2):
            best = None
            for _ in range(3):
                # best_move's defaults (exploration 0.3, greedy playouts; ISMCTS: policy_bias 1.0;
                # PIMC: 20 determinizations), a tree of up to 50,000,000 nodes
                settings = {"algorithm": name, "iterations": args.iterations, "threads": threads, "seed": 7}
                r = _core.best_move(state, {**settings, "max_nodes": 50_000_000})
                best = r["elapsed"] if best is None else min(best, r["elapsed"])
            rate = args.iterations / best
            base = base or rate
            print(f"| {name} | {threads} | {args.iterations:,} | {best:.3f} | {rate:,.0f} | {rate / base:.2f}x |")


def _chunk(job):
    name, players, lineup, games, seed = job
    game = nutcore.load_game(name, players=players)
    result = nutcore.play_match(game, lineup, games=games, seed=seed)
    return [(b.returns, b.scores) for b in result.bots]


def strength(args) -> None:
    print(f"machine: {machine()}, game {args.game}, bot {args.bot}\n")
    print("| players | bot | opponents | games | win share | 95% CI | mean score bot / opponents | seconds |")
    print("|---|---|---|---|---|---|---|---|")
    chunk = args.chunk
    with ProcessPoolExecutor(args.workers) as pool:
        for row in args.rows.split(","):
            players, opponent, *budget = row.split(":")
            players = int(players)
            iterations = int(budget[0]) if budget else 1000
            bot = args.bot
            if budget:
                name, _, settings = bot.partition(":")
                kept = [kv for kv in settings.split(",") if kv and not kv.startswith("iterations=")]
                bot = f"{name}:" + ",".join([f"iterations={iterations}", *kept])
            opponent = f"pimc:iterations={iterations}" if opponent == "pimc" else opponent
            lineup = [bot] + [opponent] * (players - 1)
            jobs = [
                (args.game, players, lineup, min(chunk, args.games - start), args.seed * 1000 + start // chunk)
                for start in range(0, args.games, chunk)
            ]
            begin = time.perf_counter()
            mine, others, other_scores, mine_scores = [], [], [], []
            for parts in pool.map(_chunk, jobs):
                mine += parts[0][0]
                mine_scores += parts[0][1]
                for returns, scores in parts[1:]:
                    others += returns
                    other_scores += scores
            n = len(mine)
            share = sum(mine) / n
            sd = math.sqrt(sum((x - share) ** 2 for x in mine) / (n - 1))
            half = 1.96 * sd / math.sqrt(n)
            print(
                f"| {players} | {bot} | {opponent} x{players - 1} | {n} | {share:.3f} "
                f"| {share - half:.3f}-{share + half:.3f} "
                f"| {sum(mine_scores) / n:.1f} / {sum(other_scores) / len(other_scores):.1f} "
                f"| {time.perf_counter() - begin:.0f} |",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["speed", "strength"])
    parser.add_argument("--game", default="ritter")
    parser.add_argument("--iterations", type=int, default=20000)
    parser.add_argument("--bot", default="ismcts:iterations=1000")
    parser.add_argument("--rows", default="2:random,2:greedy,2:pimc,4:random:1000,4:greedy:1000,4:pimc:1000")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--chunk", type=int, default=20, help="games per worker task (a multiple of 4)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    speed(args) if args.what == "speed" else strength(args)


if __name__ == "__main__":
    main()
