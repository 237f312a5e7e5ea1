"""What an MCTS iteration costs beside a bare playout of the same game from the same position
(issue 13: at most 1.5 times), for bench/RESULTS.md.

    python bench/iteration_cost.py [--iterations 20000] [--playouts 20000] [--repeats 5] [--mode M]

Per game (2 players), from the opening (the first decision) and on nutcore bench's positions: the
time per iteration of the game's default search (MCTS; ISMCTS for hidden information), one thread,
and the time per bare playout from the same position, measured back to back in the same process.
Three modes (all by default):
  uniform   the search with uniformly random playouts (its other settings the defaults), against
            uniformly random playouts (game.random_playouts). Where the default has a policy bias
            (Auf die Nüsse!'s MCTS, ISMCTS), each new node also asks the greedy policy for its move:
            the search pays for policy calls the bare playout does not make.
  nobias    the same without the policy bias (policy_bias=0): the tree's own cost.
  greedy    the default search as best_move runs it (the greedy policy's playouts and bias),
            against bare playouts by that policy (nutcore._core.greedy_playouts).
The ratio is of the sums over the positions; the whole is measured --repeats times (the same
searches each time) and the medians printed, with the range of the ratio: pairing each search with
its playouts keeps the ratio meaningful on a shared machine whose speed drifts. An iteration's
playout starts deeper than the root, so it is a little shorter than the bare one: the ratio
slightly flatters neither side by more than the tree's depth in actions.

Each game's figures follow one untimed search from its opening, as a bot's searches after its first
do: MCTS keeps the tree memory a search frees for the next one (up to 64 MB), and without it a
process's first search also pays the kernel for faulting in and zeroing fresh pages (about a sixth
of an iteration on Purzelbaum's opening). --cold skips it.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import nutcore
from nutcore import _core, benchmark

MODES = ("uniform", "nobias", "greedy")
# Search options per mode, over the defaults.
SEARCH_OPTIONS = {
    "uniform": {"heuristic_rollouts": False},
    "nobias": {"heuristic_rollouts": False, "policy_bias": 0.0},
    "greedy": {},
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=20000)
    parser.add_argument("--playouts", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=5, help="measurements of each row; medians are printed")
    parser.add_argument("--game", action="append", choices=nutcore.list_games())
    parser.add_argument("--cold", action="store_true", help="no untimed search first")
    parser.add_argument("--mode", action="append", choices=MODES, help="rows to measure (default: all)")
    args = parser.parse_args()
    print(f"{platform.machine()}, CPython {platform.python_version()}, nutcore {nutcore.__version__}\n")
    print("| game | positions | search | mode | µs per iteration | µs per playout | playout length | ratio | range |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in args.game or nutcore.list_games():
        game = nutcore.load_game(name, players=2)
        opening = game.new_initial_state()
        while opening.is_chance_node():
            opening.apply_action(opening.chance_outcomes()[0][0])
        algorithm = "ismcts" if game.hidden_information else "mcts"
        if not args.cold:
            nutcore.best_move(opening, algorithm, iterations=args.iterations, seed=99, heuristic_rollouts=False)
        for label, points in (("opening", [opening]), ("bench", benchmark.positions(game))):
            for mode in args.mode or MODES:
                row(args, game, algorithm, label, points, mode)


def row(args, game, algorithm: str, label: str, points: list, mode: str) -> None:
    searches, playouts, ratios = [], [], []
    for _ in range(args.repeats):
        search = playout = length = 0.0
        for i, state in enumerate(points):
            r = nutcore.best_move(state, algorithm, iterations=args.iterations, seed=i, **SEARCH_OPTIONS[mode])
            search += r.elapsed / r.iterations
            start = time.perf_counter()
            if mode == "greedy":
                _, lengths = _core.greedy_playouts(state, args.playouts, seed=i)
            else:
                _, lengths = game.random_playouts(args.playouts, seed=i, state=state)
            playout += (time.perf_counter() - start) / args.playouts
            length += lengths.mean() / len(points)
        searches.append(search / len(points))
        playouts.append(playout / len(points))
        ratios.append(search / playout)
    print(
        f"| {game.name} | {label} | {algorithm} | {mode} | {statistics.median(searches) * 1e6:.2f} "
        f"| {statistics.median(playouts) * 1e6:.2f} | {length:.0f} | {statistics.median(ratios):.2f}x "
        f"| {min(ratios):.2f}-{max(ratios):.2f} |",
        flush=True,
    )


if __name__ == "__main__":
    main()
