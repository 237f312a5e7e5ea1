"""The learned search against today's default search and against the greedy bot (issue 33's
targets), seats rotated, at equal time per move:

    python bench/learned_strength.py --games 400 --time-limit 0.02           # the recorded runs
    python bench/learned_strength.py --games 20 --time-limit 0.005 --output -  # a smoke test
    python bench/learned_strength.py --network ritter=runs/ritter/net-5.nnet  # a candidate network
    python bench/learned_strength.py --game ritter --option exploration=0.6   # a search setting

Each game of a pair: the learned search (best_move "auto" with evaluator=learned, the game's
built-in network or --network's) against the default search ("auto": MCTS with playouts, ISMCTS
on hidden information, an exact solver where one decides) with the same time limit a move, or
against the greedy bot; the first seat alternates. Games run on a process pool (--workers), each
seeded from its index. Win shares with 95% intervals (normal approximation over games).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import sys
from pathlib import Path

import report

import nutcore
from nutcore import _parallel
from nutcore.match import _interval, play_game

HERE = Path(__file__).resolve().parent


class LearnedBot(nutcore.Bot):
    """best_move "auto" with evaluator=learned and a time limit; `network`: a file's bytes (None:
    the built-in network); `options`: more of best_move's search options (numbers)."""

    def __init__(self, time_limit: float, network: bytes | None, evaluator: str = "learned", options=None):
        self.time_limit, self.network_bytes, self.evaluator = time_limit, network, evaluator
        self.options = dict(options or {})
        self.network = None if network is None else nutcore.load_network(network)
        extra = "".join(f",{k}={v}" for k, v in self.options.items())
        self.name = f"auto:time_limit={time_limit},evaluator={evaluator}{extra}"

    def reset(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def step(self, state) -> int:
        return nutcore.best_move(
            state,
            time_limit=self.time_limit,
            seed=self.rng.getrandbits(64),
            evaluator=self.evaluator,
            network=self.network,
            **self.options,
        ).action

    def __getstate__(self):
        return {
            "time_limit": self.time_limit,
            "network": self.network_bytes,
            "evaluator": self.evaluator,
            "options": self.options,
        }

    def __setstate__(self, state):
        self.__init__(state["time_limit"], state["network"], state["evaluator"], state["options"])


def play_pairs(game_name, players, learned, opponent_spec, indices, seed):
    """Games `indices`: the learned bot in seat (index mod players), the opponent elsewhere; the
    learned seat's returns."""
    game = nutcore.load_game(game_name, players=players)
    out = []
    for g in indices:
        rng = random.Random(seed * 1_000_003 + g)
        seat = g % players
        bots = [nutcore.make_bot(opponent_spec) for _ in range(players)]
        bots[seat] = learned
        for i, b in enumerate(bots):
            b.reset(seed * 7919 + g * 31 + i)
        state, _ = play_game(game, bots, rng)
        out.append(state.returns()[seat])
    return out


def match(game_name, players, learned, opponent_spec, games, seed, workers):
    chunks = [list(range(k, games, max(1, workers * 4))) for k in range(max(1, workers * 4))]
    tasks = [(game_name, players, learned, opponent_spec, c, seed) for c in chunks if c]
    shares: list[float] = []
    _parallel.run(play_pairs, tasks, shares.extend, "local", workers)
    return sum(shares) / len(shares), _interval(shares)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=400, help="games per row")
    ap.add_argument("--time-limit", type=float, default=0.02, help="seconds a move, for both searches")
    ap.add_argument("--game", action="append", help="only these games (default: every game with a network)")
    ap.add_argument("--network", action="append", default=[], help="GAME=PATH: a network file instead of the built-in")
    ap.add_argument("--evaluator", default="learned", choices=["learned", "learned+playout"])
    ap.add_argument("--option", action="append", default=[], help="KEY=NUMBER: a search option of the learned side")
    ap.add_argument("--players", type=int, action="append", help="player counts (default: 2)")
    ap.add_argument("--against", action="append", help="default and/or greedy (default: both)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--output", default=str(HERE / "RESULTS.md"), help="append the table here ('-': print only)")
    args = ap.parse_args()
    files = dict(item.split("=", 1) for item in args.network)
    options = {k: float(v) for k, v in (item.split("=", 1) for item in args.option)}
    rows = []
    for players in args.players or [2]:
        for name in args.game or nutcore.list_games():
            data = Path(files[name]).read_bytes() if name in files else None
            if data is None and nutcore.shipped_network(name, players) is None:
                continue
            learned = LearnedBot(args.time_limit, data, args.evaluator, options)
            for against in args.against or ["default", "greedy"]:
                spec = f"auto:time_limit={args.time_limit}" if against == "default" else "greedy"
                share, (lo, hi) = match(name, players, learned, spec, args.games, args.seed, args.workers)
                rows.append((name, players, against, share, lo, hi))
                print(f"{name} {players}p vs {spec}: {share:.3f} [{lo:.3f}, {hi:.3f}]", flush=True)
    command = "python bench/learned_strength.py " + " ".join(sys.argv[1:])
    lines = [
        "",
        f"### The learned search: win shares ({datetime.date.today().isoformat()})",
        "",
        f"`{command}`; {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"nutcore {nutcore.__version__}; {args.games} games a row, the first seat alternating, "
        f"{args.time_limit} s a move for both searches; evaluator={args.evaluator}"
        + "".join(f", {k}={v:g}" for k, v in options.items())
        + ".",
        "",
        "| game | players | against | learned search's win share | 95% interval | fair share |",
        "|---|---|---|---|---|---|",
    ]
    for name, players, against, share, lo, hi in rows:
        lines.append(f"| {name} | {players} | {against} | {share:.3f} | {lo:.3f}-{hi:.3f} | {1 / players:.3f} |")
    report.emit(lines, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
