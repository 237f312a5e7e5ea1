"""The tuning runs behind ISMCTS's defaults (bench/RESULTS.md): each bot spec against the greedy
bot, 2 players, seats rotated, `--games` games from one seed.

    python bench/tune_ismcts.py --seed 11 "ismcts:iterations=1000,policy_bias=0.3" ...
"""

from __future__ import annotations

import argparse

import nutcore


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("specs", nargs="+")
    parser.add_argument("--game", default="ritter")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    game = nutcore.load_game(args.game, players=2)
    print("| bot | games | win share vs greedy | 95% CI | mean score |")
    print("|---|---|---|---|---|")
    for spec in args.specs:
        me = nutcore.play_match(game, [spec, "greedy"], games=args.games, seed=args.seed).bots[0]
        print(
            f"| {spec} | {me.games} | {me.win_share:.3f} | {me.ci95[0]:.3f}-{me.ci95[1]:.3f} | {me.mean_score:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
