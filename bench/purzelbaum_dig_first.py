"""Purzelbaum at 2 players: how much of a bot's result against greedy comes from digging first.

    python bench/purzelbaum_dig_first.py [--bot mcts:iterations=1000] [--games 1000] [--seed 11]

BOT is a bot spec (make_bot), or shove:random, shove:least or shove:median: the greedy bot but for
its autumn shoves, which are uniformly random, the least likely to hit, or of median hit chance.

The player with the fewest leaves starts the winter (ties: the later seat, here seat 1), and the
winter decides most of the points. Plays BOT against the greedy bot, seats alternating, and prints
per seat of BOT: how often it starts the winter, its win share when it does and when it does not,
the leaves each side holds when the winter starts, and what the winter is worth to it then under
best play by both (the exact solver: win, draw or loss; a draw is equal points and equal nuts).
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict

import nutcore
from nutcore.bots import make_bot


class ShovePolicy:
    """The greedy bot with another choice of shove (the benchmark's shove:KIND bots)."""

    def __init__(self, kind: str, seed: int):
        if kind not in ("random", "least", "median"):
            raise ValueError(f"shove:{kind}: choose random, least or median")
        self.kind, self.greedy, self.rng = kind, make_bot("greedy"), random.Random(seed)

    @staticmethod
    def hit_chance(state, action) -> float:
        after = state.clone()
        after.apply_action(action)
        return dict(after.chance_outcomes()).get(after.string_to_action("hit"), 0.0)

    def step(self, state):
        if state.to_json()["phase"] != "shove":
            return self.greedy.step(state)
        legal = state.legal_actions()
        if self.kind == "random":
            return self.rng.choice(legal)
        by_hit = sorted(legal, key=lambda a: self.hit_chance(state, a))
        return by_hit[0] if self.kind == "least" else by_hit[len(by_hit) // 2]


def play(game, bot, greedy, seat: int, rng: random.Random):
    """One game of `bot` in `seat` against greedy: whether the bot starts the winter, its return,
    the leaves (bot, greedy) and the winter's outcome for the bot under best play."""
    state = game.new_initial_state()
    first = leaves = outcome = None
    while not state.is_terminal():
        if first is None:
            view = state.to_json()
            if view["season"] == "winter":
                first, leaves = view["current_player"] == seat, (view["leaves"][seat], view["leaves"][1 - seat])
                outcome = nutcore.solve(state).extra["outcome"]  # the mover's
                if not first:
                    outcome = {"win": "loss", "loss": "win"}.get(outcome, outcome)
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probabilities)[0])
        else:
            state.apply_action((bot if state.current_player() == seat else greedy).step(state))
    return first, state.returns()[seat], leaves, outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="mcts:iterations=1000")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    name, _, kind = args.bot.partition(":")
    bot = ShovePolicy(kind, args.seed + 1) if name == "shove" else make_bot(args.bot)
    game, greedy, rng = nutcore.load_game("purzelbaum"), make_bot("greedy"), random.Random(args.seed)
    games = defaultdict(int)
    wins = defaultdict(float)
    outcomes = defaultdict(int)
    leaves = [0, 0]
    total = 0.0
    for i in range(args.games):
        seat = i % 2
        first, result, (mine, theirs), outcome = play(game, bot, greedy, seat, rng)
        games[seat, first] += 1
        outcomes[seat, outcome] += 1
        wins[seat, first] += result
        leaves[0] += mine
        leaves[1] += theirs
        total += result
    print(f"{args.bot} against greedy, Purzelbaum 2 players, {args.games} games, seed {args.seed}")
    print("| seat | games | starts the winter | win share, starting | win share, not starting |")
    print("|---|---|---|---|---|")
    for seat in (0, 1):
        n = games[seat, True] + games[seat, False]

        def share(first, seat=seat):
            return f"{wins[seat, first] / games[seat, first]:.3f}" if games[seat, first] else "-"

        print(f"| {seat} | {n} | {games[seat, True] / n:.3f} | {share(True)} | {share(False)} |")
    print()
    print("| seat | the winter under best play: win | draw | loss |")
    print("|---|---|---|---|")
    for seat in (0, 1):
        n = games[seat, True] + games[seat, False]
        print(f"| {seat} | " + " | ".join(f"{outcomes[seat, o] / n:.3f}" for o in ("win", "draw", "loss")) + " |")
    print(
        f"win share {total / args.games:.3f}; leaves when the winter starts: the bot "
        f"{leaves[0] / args.games:.2f}, greedy {leaves[1] / args.games:.2f}"
    )


if __name__ == "__main__":
    main()
