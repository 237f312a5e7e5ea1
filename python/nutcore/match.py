"""Matches between bots: seats rotated, chance by exact probabilities, results with 95% intervals."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Sequence

from . import _checks
from ._types import Game, State
from .bots import Bot, check_bot_for, make_bot

if TYPE_CHECKING:
    from .records import GameRecord


@dataclass
class BotResult:
    name: str
    games: int = 0
    win_share: float = 0.0  # mean return: 1 per win, 1/k per k-way shared win
    ci95: tuple[float, float] = (0.0, 0.0)
    mean_score: float = 0.0
    returns: list[float] = field(default_factory=list, repr=False)
    scores: list[int] = field(default_factory=list, repr=False)


@dataclass
class MatchResult:
    bots: list[BotResult]
    games: int
    mean_length: float  # actions per game, chance outcomes included
    records: list[GameRecord] = field(default_factory=list, repr=False)  # per game, with records=True

    def table(self) -> str:
        lines = ["| bot | games | win share | 95% CI | mean score |", "|---|---|---|---|---|"]
        for b in self.bots:
            lines.append(
                f"| {b.name} | {b.games} | {b.win_share:.3f} | {b.ci95[0]:.3f}-{b.ci95[1]:.3f} | {b.mean_score:.1f} |"
            )
        lines.append(f"\n{self.games} games, mean length {self.mean_length:.0f} actions")
        if any(b.games != self.games for b in self.bots):
            lines.append("(bots were repeated to fill the seats: a row counts every seat its bot played)")
        return "\n".join(lines)


def _interval(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    if n == 0:
        return (0.0, 1.0)
    mean = sum(values) / n
    if n == 1:
        return (0.0, 1.0)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return (max(0.0, mean - half), min(1.0, mean + half))


def play_game(game: Game, seat_bots: Sequence[Bot], rng: random.Random) -> tuple[State, int]:
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(seat_bots[state.current_player()].step(state))
        steps += 1
    return state, steps


def play_match(
    game: Game,
    bots: Sequence[Bot | str],
    games: int = 100,
    seed: int = 0,
    rotate_seats: bool = True,
    progress: Callable[[int, int], None] | None = None,
    records: bool = False,
) -> MatchResult:
    """Play `games` games. With fewer bots than seats the list is repeated to fill them; with
    rotate_seats, game g seats bot i at (i + g) mod players, so every bot plays every seat.
    records: keep each game's full record (nutcore.GameRecord, docs/records.md) in
    `result.records`, each seat labelled by its bot's name."""
    _checks.check_game(game, "play_match")
    players = game.num_players()
    if isinstance(bots, (str, Bot)) or not isinstance(bots, Sequence):
        raise ValueError(f"play_match: bots must be a list of bots or specs, got {bots!r}")
    entrants = [make_bot(b) if isinstance(b, str) else b for b in bots]
    if not entrants or len(entrants) > players:
        raise ValueError(f"play_match: give 1..{players} bots for {players} players")
    games = _checks.integer(games, "play_match: games", 1, 10**9)
    seed = _checks.seed(seed, "play_match: seed")
    rotate_seats = _checks.flag(rotate_seats, "play_match: rotate_seats")
    records = _checks.flag(records, "play_match: records")
    kept: list[GameRecord] = []
    probe = game.new_initial_state()
    for b in entrants:
        check_bot_for(b, probe)
    lineup = [entrants[i % len(entrants)] for i in range(players)]
    names = [b.name for b in entrants]
    results = [BotResult(name) for name in names]
    if len(set(names)) < len(names):  # the same kind of bot twice: tell them apart
        for i, r in enumerate(results):
            r.name = f"{r.name}#{i}"
    rng = random.Random(seed)
    total_steps = 0
    for g in range(games):
        shift = g % players if rotate_seats else 0
        seat_of = [(i + shift) % players for i in range(players)]  # entrant i -> seat
        seat_bots = [lineup[seat_of.index(seat)] for seat in range(players)]
        for i, b in enumerate(lineup):
            b.reset(seed * 1_000_003 + g * 31 + i)
        state, steps = play_game(game, seat_bots, rng)
        total_steps += steps
        if records:
            from .records import GameRecord

            labels = [{"bot": b.name} for b in seat_bots]
            kept.append(GameRecord.from_history(game, state.history(), labels, {"match_game": g, "seed": seed}))
        returns, scores = state.returns(), state.scores()
        for i, seat in enumerate(seat_of):
            r = results[i % len(entrants)]
            r.returns.append(returns[seat])
            r.scores.append(scores[seat])
        if progress:
            progress(g + 1, games)
    for r in results:
        r.games = len(r.returns)
        r.win_share = sum(r.returns) / r.games
        r.ci95 = _interval(r.returns)
        r.mean_score = sum(r.scores) / r.games
    return MatchResult(results, games, total_steps / games, kept)
