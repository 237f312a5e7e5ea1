"""The `nutcore` command (also `python -m nutcore`)."""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import nutcore


def _playouts(args: argparse.Namespace) -> int:
    game = nutcore.load_game(args.game, players=args.players)
    start = time.perf_counter()
    returns, lengths = game.random_playouts(args.games, args.seed)
    elapsed = time.perf_counter() - start
    print(f"{args.games} random games of {args.game}, {args.players} players, seed {args.seed}")
    print(f"  {lengths.sum():,} actions in {elapsed:.3f} s: {lengths.sum() / elapsed:,.0f} actions/s on one core")
    print(f"  game length: mean {lengths.mean():.1f}, min {lengths.min()}, max {lengths.max()} actions")
    for seat in range(args.players):
        print(f"  seat {seat}: win share {returns[:, seat].mean():.3f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="nutcore", description="Rules engines and AI for squirrel-and-nut games.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("playouts", help="play random games inside the C++ core and report throughput")
    p.add_argument("game", choices=nutcore.list_games())
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(run=_playouts)
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except ValueError as e:
        print(f"nutcore: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
