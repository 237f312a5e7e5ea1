"""Search strength, speed and memory, written as Markdown for bench/RESULTS.md.

    python bench/search_bench.py strength [--games 200] [--games-multi 60] [--iterations 2000] [--rows 2:greedy]
    python bench/search_bench.py speed [--iterations 200000]
    python bench/search_bench.py memory [--iterations 1000000]
    python bench/search_bench.py winter [--positions 50]          (Purzelbaum's exact winter solver)

--game picks the game (default auf_die_nuesse; strength also runs for purzelbaum).

Strength is judged over many games with seats rotated (never by a unit test); speed compares one
and two threads in the same run.
"""

from __future__ import annotations

import argparse
import platform
import resource
import subprocess
import sys
import time

import nutcore
from nutcore import _core


def machine() -> str:
    return (
        f"{platform.machine()}, {platform.python_implementation()} {platform.python_version()}, {nutcore.__version__}"
    )


def opening(players: int, name: str = "auf_die_nuesse"):
    """The first decision of a game from a fixed deal: the position the speed figures start from."""
    game = nutcore.load_game(name, players=players)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return game, state


def strength(args) -> None:
    mcts = f"mcts:iterations={args.iterations}"
    print(f"machine: {machine()}, game {args.game}\n")
    print("| players | opponents | games | MCTS win share | 95% CI | mean score MCTS / opponents | seconds |")
    print("|---|---|---|---|---|---|---|")
    plan = []
    for row in args.rows.split(","):
        players, opponent = row.split(":")
        plan.append((int(players), opponent, args.games if players == "2" else args.games_multi))
    for players, opponent, games in plan:
        game = nutcore.load_game(args.game, players=players)
        start = time.perf_counter()
        result = nutcore.play_match(game, [mcts] + [opponent] * (players - 1), games=games, seed=args.seed)
        me, others = result.bots[0], result.bots[1:]
        other_score = sum(b.mean_score for b in others) / len(others)
        interval = f"{me.ci95[0]:.3f}-{me.ci95[1]:.3f}"
        print(
            f"| {players} | {opponent} x{players - 1} | {games} | {me.win_share:.3f} | {interval} "
            f"| {me.mean_score:.1f} / {other_score:.1f} | {time.perf_counter() - start:.0f} |",
            flush=True,
        )


def _mcts(state, iterations: int, threads: int) -> dict:
    """Plain MCTS (no policy bias), exploration 1, greedy playouts, a tree of up to 50,000,000 nodes."""
    settings = {"algorithm": "mcts", "iterations": iterations, "threads": threads, "seed": 7}
    return _core.best_move(state, {**settings, "policy_bias": 0.0, "max_nodes": 50_000_000})


def speed(args) -> None:
    print(f"machine: {machine()}\n")
    print("| threads | iterations | seconds | iterations/s | speed-up |")
    print("|---|---|---|---|---|")
    _, state = opening(2)
    base = None
    for threads in (1, 2):
        best = None
        for _ in range(3):
            r = _mcts(state, args.iterations, threads)
            best = r["elapsed"] if best is None else min(best, r["elapsed"])
        rate = args.iterations / best
        base = base or rate
        print(f"| {threads} | {args.iterations} | {best:.3f} | {rate:,.0f} | {rate / base:.2f}x |", flush=True)


def memory(args) -> None:
    if args.child:
        _, state = opening(2)
        r = _mcts(state, args.iterations, 1)
        r = {**r, **r["extra"]}
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"| {r['iterations']:,} | {r['nodes']:,} | {r['bytes_per_node']} | {r['tree_bytes'] / 2**20:.0f} MiB "
            f"| {peak:.0f} MiB | {r['elapsed']:.1f} |"
        )
        return
    print(f"machine: {machine()}\n")
    print("| iterations | nodes | bytes per node | tree (arena) | peak RSS of the process | seconds |")
    print("|---|---|---|---|---|---|")
    sys.stdout.flush()
    subprocess.run([sys.executable, __file__, "memory", "--child", "--iterations", str(args.iterations)], check=True)


def winter(args) -> None:
    """Solve the winters that random autumns lead to, 2 players, full meadow."""
    import random

    game = nutcore.load_game("purzelbaum", players=2)
    rng = random.Random(args.seed)
    times, positions = [], []
    for _ in range(args.positions):
        state = game.new_initial_state()
        while state.to_json()["season"] == "autumn":
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        result = nutcore.solve(state)
        times.append(result.elapsed)
        positions.append(result.nodes)
    print(f"machine: {machine()}\n")
    print("| winters solved | mean seconds | max seconds | mean positions | max positions |")
    print("|---|---|---|---|---|")
    print(
        f"| {len(times)} | {sum(times) / len(times):.4f} | {max(times):.4f} | {sum(positions) / len(positions):,.0f} "
        f"| {max(positions):,} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["strength", "speed", "memory", "winter"])
    parser.add_argument("--game", default="auf_die_nuesse")
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--games-multi", type=int, default=60)
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--child", action="store_true")
    parser.add_argument("--rows", default="2:random,2:greedy,3:greedy,4:greedy", help="players:opponent,...")
    args = parser.parse_args()
    if args.iterations is None:
        args.iterations = {"strength": 2000, "speed": 200_000, "memory": 1_000_000, "winter": 0}[args.what]
    {"strength": strength, "speed": speed, "memory": memory, "winter": winter}[args.what](args)


if __name__ == "__main__":
    main()
