"""Tournaments: many bots, every seat assignment, thousands of games on this machine or a Ray cluster.

    >>> result = nutcore.tournament("ritter", 2, ["greedy", "ismcts:iterations=300", "random"], games=60)
    >>> print(result.table())

Line-ups: every combination of `players` bots (all bots, repeated to fill the seats, when there are
fewer bots than seats), each in all `players` rotations of the seats; or, by `schedule`, only the
first bot against the others (gauntlet) or neighbours in the list (ladder). Game i plays line-up
i mod (number of line-ups) and is seeded from (seed, i) alone, so a tournament's results are the
same on every backend, for any number of workers and batch size, and after a resume.

Ratings: each game is split into pairwise results between the seats of different bots: the seat
with the higher return wins (the game's winner beats every other seat), between seats with equal
returns the one with more points wins, and equal points are a draw (half a win each). A
Bradley-Terry model is fitted to those results (minorisation-maximisation, with one virtual draw
between every two bots that met, so that a bot that always wins keeps a finite rating), on the Elo
scale (400 log10 of the strength) with the first bot at 0. The 95% intervals are bootstrap percentiles
over games (resampled whole, 200 times, from the tournament's seed).
"""

from __future__ import annotations

import csv
import itertools
import json
import math
import os
import random
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Sequence

import numpy as np
import numpy.typing as npt

from . import _checks, _parallel
from ._types import Game
from .bots import check_bot_for, make_bot
from .match import _interval, play_game

BACKENDS = _parallel.BACKENDS
_LOG = "games.jsonl"  # the resume log in the output directory: a header line, then a line per game
_RECORDS = "records.jsonl"  # the games' records (docs/records.md) in the output directory, a line per game
_BOOTSTRAP = 200


# A game's record: its index, the line-up (bot per seat), returns, scores and length.
Record = dict[str, Any]


@dataclass
class BotRating:
    spec: str
    games: int
    win_share: float  # mean return: 1 per win, 1/k per k-way shared win
    ci95: tuple[float, float]
    mean_score: float
    rating: float  # Elo scale, the first bot at 0
    rating_ci95: tuple[float, float]


@dataclass
class TournamentResult:
    game: str
    players: int
    params: dict[str, Any]
    bots: list[str]
    seed: int
    games: int
    lineups: list[tuple[int, ...]]
    records: list[dict[str, Any]] = field(repr=False)  # per game: game, lineup (bot per seat), returns, scores, length
    ratings: list[BotRating] = field(default_factory=list)
    matrix: list[list[float | None]] = field(default_factory=list)  # [i][j]: i's share of its results against j
    schedule: str = "round-robin"

    def table(self) -> str:
        lines = [
            f"{self.game}, {self.players} players, {self.games} games over {len(self.lineups)} line-ups "
            f"({self.schedule}), seed {self.seed}",
            "",
            "| bot | games | win share | 95% CI | mean score | rating | 95% CI |",
            "|---|---|---|---|---|---|---|",
        ]
        for r in sorted(self.ratings, key=lambda r: -r.rating):
            lines.append(
                f"| {r.spec} | {r.games} | {r.win_share:.3f} | {r.ci95[0]:.3f}-{r.ci95[1]:.3f} | {r.mean_score:.1f} "
                f"| {r.rating:.0f} | {r.rating_ci95[0]:.0f} to {r.rating_ci95[1]:.0f} |"
            )
        lines += ["", "Pairwise: the row bot's share of its results against the column bot", ""]
        lines.append("| | " + " | ".join(str(i) for i in range(len(self.bots))) + " |")
        lines.append("|---" * (len(self.bots) + 1) + "|")
        for i, row in enumerate(self.matrix):
            cells = ["-" if v is None else f"{v:.2f}" for v in row]
            lines.append(f"| {i}: {self.bots[i]} | " + " | ".join(cells) + " |")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "params": self.params,
            "bots": self.bots,
            "seed": self.seed,
            "games": self.games,
            "schedule": self.schedule,
            "lineups": [list(x) for x in self.lineups],
            "ratings": [{**r.__dict__, "ci95": list(r.ci95), "rating_ci95": list(r.rating_ci95)} for r in self.ratings],
            "matrix": self.matrix,
            "records": self.records,
        }

    def write(self, directory: str | os.PathLike[str]) -> list[str]:
        """results.json (everything), ratings.csv and games.csv (a row per game and seat)."""
        os.makedirs(directory, exist_ok=True)
        paths = [os.path.join(directory, name) for name in ("results.json", "ratings.csv", "games.csv")]
        with open(paths[0], "w", encoding="utf-8") as f:
            json.dump(self.to_json(), f, indent=1)
        with open(paths[1], "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(
                [
                    "bot",
                    "games",
                    "win_share",
                    "ci95_low",
                    "ci95_high",
                    "mean_score",
                    "rating",
                    "rating_low",
                    "rating_high",
                ]
            )
            for r in self.ratings:
                w.writerow([r.spec, r.games, r.win_share, *r.ci95, r.mean_score, r.rating, *r.rating_ci95])
        with open(paths[2], "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["game", "seat", "bot", "return", "score", "length"])
            for rec in self.records:
                for seat, b in enumerate(rec["lineup"]):
                    w.writerow(
                        [rec["game"], seat, self.bots[b], rec["returns"][seat], rec["scores"][seat], rec["length"]]
                    )
        return paths

    def plot(self, path: str | os.PathLike[str]) -> str:
        """A PNG: ratings with their intervals; beside it, rating against budget when the bots
        differ only in iterations or time_limit (needs matplotlib: nutcore[plot])."""
        plt = pyplot()
        budget = budget_axis(self.bots)
        fig, axes = plt.subplots(1, 2 if budget else 1, figsize=(11 if budget else 6, 0.45 * len(self.bots) + 2))
        axes = list(np.atleast_1d(axes))
        order = sorted(range(len(self.bots)), key=lambda i: self.ratings[i].rating)
        ys = range(len(order))
        vals = [self.ratings[i].rating for i in order]
        err = [
            [vals[k] - self.ratings[i].rating_ci95[0] for k, i in enumerate(order)],
            [self.ratings[i].rating_ci95[1] - vals[k] for k, i in enumerate(order)],
        ]
        axes[0].errorbar(vals, ys, xerr=err, fmt="o", capsize=3)
        axes[0].set_yticks(list(ys), [self.bots[i] for i in order], fontsize=8)
        axes[0].set_xlabel(f"rating (Elo scale, {self.bots[0]} = 0), 95% interval")
        axes[0].set_title(f"{self.game}, {self.players} players, {self.games} games")
        if budget:
            key, values = budget
            pts = sorted(((v, self.ratings[i]) for i, v in enumerate(values) if v is not None), key=lambda p: p[0])
            x = [v for v, _ in pts]
            y = [r.rating for _, r in pts]
            yerr = [[r.rating - r.rating_ci95[0] for _, r in pts], [r.rating_ci95[1] - r.rating for _, r in pts]]
            axes[1].errorbar(x, y, yerr=yerr, fmt="o-", capsize=3)
            for i, v in enumerate(values):
                if v is None:  # a reference bot
                    axes[1].axhline(self.ratings[i].rating, linestyle="--", color="gray")
                    axes[1].annotate(self.bots[i], (x[0], self.ratings[i].rating), fontsize=8, va="bottom")
            axes[1].set_xscale("log")
            axes[1].set_xlabel(key)
            axes[1].set_ylabel("rating")
            axes[1].set_title("strength against budget")
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        return os.fspath(path)


def pyplot() -> ModuleType:
    """matplotlib.pyplot drawing to files, or a ValueError saying how to install it."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ValueError('plotting needs matplotlib: pip install "nutcore[plot]"') from None
    return plt


def budget_axis(specs: Sequence[str]) -> tuple[str, list[float | None]] | None:
    """(setting, value per bot) when the bots that have `iterations` (or `time_limit`) differ only
    in it; the value is None for the others (reference bots such as greedy, drawn as lines)."""
    parsed = []
    for spec in specs:
        name, _, rest = spec.partition(":")
        parsed.append((name, dict(item.partition("=")[::2] for item in filter(None, rest.split(",")))))
    for key in ("iterations", "time_limit"):
        with_key = [(n, s) for n, s in parsed if key in s]
        others = {(n, tuple(sorted((k, v) for k, v in s.items() if k != key))) for n, s in with_key}
        try:
            values = [float(s[key]) if key in s else None for _, s in parsed]
        except ValueError:
            continue
        if len(others) == 1 and len({v for v in values if v is not None}) > 1:
            return key, values
    return None


SCHEDULES = ("round-robin", "gauntlet", "ladder")


def lineups(num_bots: int, players: int, schedule: str = "round-robin") -> list[tuple[int, ...]]:
    """Bot index per seat, each group of `players` bots in every rotation of the seats. The groups:
    "round-robin", every combination of bots; "gauntlet", the first bot with every combination of
    the others (a budget study against one reference bot); "ladder", every `players` bots next to
    each other in the list (levels or budgets in order, each against its neighbours)."""
    if num_bots < players:
        groups = [tuple(i % num_bots for i in range(players))]  # fewer bots than seats: repeated
    elif schedule == "gauntlet":
        groups = [(0, *rest) for rest in itertools.combinations(range(1, num_bots), players - 1)]
    elif schedule == "ladder":
        groups = [tuple(range(first, first + players)) for first in range(num_bots - players + 1)]
    else:
        groups = list(itertools.combinations(range(num_bots), players))
    out: list[tuple[int, ...]] = []
    for c in groups:
        for shift in range(players):
            lineup = tuple(c[(seat - shift) % players] for seat in range(players))
            if lineup not in out:
                out.append(lineup)
    return out


def _game_rng(seed: int, index: int) -> random.Random:
    return random.Random(f"nutcore-tournament:{seed}:{index}")  # str seeds hash the same everywhere


def play_games(
    game: Game,
    specs: Sequence[str],
    table: Sequence[tuple[int, ...]],
    seed: int,
    indices: Sequence[int],
    keep_records: bool = False,
) -> list[Record]:
    """Plays tournament games `indices` (a worker's batch); one result per game, with its game
    record (GameRecord.to_dict()) under "record" when keep_records."""
    records: list[Record] = []
    for index in indices:
        lineup = table[index % len(table)]
        rng = _game_rng(seed, index)
        seat_bots = [make_bot(specs[b]) for b in lineup]
        for bot in seat_bots:
            bot.reset(rng.getrandbits(62))
        state, steps = play_game(game, seat_bots, rng)
        rec: Record = {
            "game": index,
            "lineup": list(lineup),
            "returns": [float(x) for x in state.returns()],
            "scores": [int(x) for x in state.scores()],
            "length": steps,
        }
        if keep_records:
            from .records import GameRecord

            labels = [{"bot": specs[b]} for b in lineup]
            info = {"tournament_game": index, "seed": seed}
            rec["record"] = GameRecord.from_history(game, state.history(), labels, info).to_dict()
        records.append(rec)
    return records


def _pair_results(records: Sequence[Record], num_bots: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Per game, wins[g, i, j] (i over j, draws half) and meetings[g, i, j]."""
    wins = np.zeros((len(records), num_bots, num_bots))
    meetings = np.zeros_like(wins)
    for g, rec in enumerate(records):
        lineup, ret, score = rec["lineup"], rec["returns"], rec["scores"]
        for s, t in itertools.combinations(range(len(lineup)), 2):
            a, b = lineup[s], lineup[t]
            if a == b:
                continue
            key_s, key_t = (ret[s], score[s]), (ret[t], score[t])
            win = 1.0 if key_s > key_t else 0.0 if key_s < key_t else 0.5
            wins[g, a, b] += win
            wins[g, b, a] += 1 - win
            meetings[g, a, b] += 1
            meetings[g, b, a] += 1
    return wins, meetings


def bradley_terry(
    wins: npt.NDArray[np.float64], meetings: npt.NDArray[np.float64], met: npt.NDArray[np.bool_] | None = None
) -> npt.NDArray[np.float64]:
    """Elo-scale ratings (first bot 0) from pairwise wins/meetings, with a virtual draw between
    every two bots that met (`met`, default meetings > 0): pairs that never played (a gauntlet's
    or a ladder's) add nothing, so a ladder's ratings follow from its neighbours' results."""
    n = wins.shape[0]
    prior = ((meetings > 0) if met is None else met).astype(float) * (1 - np.eye(n))
    w = wins + 0.5 * prior
    m = meetings + prior
    total_wins = w.sum(axis=1)
    p = np.ones(n)
    for _ in range(1000):
        denom = (m / (p[:, None] + p[None, :])).sum(axis=1)
        new = total_wins / denom
        new /= math.exp(np.log(new).mean())
        if np.max(np.abs(np.log(new) - np.log(p))) < 1e-10:
            p = new
            break
        p = new
    ratings: npt.NDArray[np.float64] = 400 * np.log10(p)
    relative: npt.NDArray[np.float64] = ratings - ratings[0]
    return relative


def rate(records: Sequence[Record], bots: Sequence[str], seed: int) -> tuple[list[BotRating], list[list[float | None]]]:
    n = len(bots)
    wins, meetings = _pair_results(records, n)
    met = meetings.sum(axis=0) > 0  # the prior's pairs stay the same in every bootstrap sample
    point = bradley_terry(wins.sum(axis=0), meetings.sum(axis=0), met)
    rng = np.random.default_rng(seed)
    samples = []
    for _ in range(_BOOTSTRAP):
        weight = rng.multinomial(len(records), np.full(len(records), 1 / len(records)))
        samples.append(bradley_terry(np.tensordot(weight, wins, 1), np.tensordot(weight, meetings, 1), met))
    low, high = np.percentile(np.array(samples), [2.5, 97.5], axis=0)
    per_bot: list[tuple[list[float], list[int]]] = [([], []) for _ in bots]
    for rec in records:
        for seat, b in enumerate(rec["lineup"]):
            per_bot[b][0].append(rec["returns"][seat])
            per_bot[b][1].append(rec["scores"][seat])
    ratings = []
    for i, spec in enumerate(bots):
        returns, scores = per_bot[i]
        games = len(returns)
        ratings.append(
            BotRating(
                spec,
                games,
                sum(returns) / games if games else 0.0,
                _interval(returns),
                sum(scores) / games if games else 0.0,
                float(point[i]),
                (float(low[i]), float(high[i])),
            )
        )
    total_w, total_m = wins.sum(axis=0), meetings.sum(axis=0)
    matrix = [[float(total_w[i, j] / total_m[i, j]) if total_m[i, j] else None for j in range(n)] for i in range(n)]
    return ratings, matrix


def _header(game: Game, specs: Sequence[str], seed: int, games: int, schedule: str) -> dict[str, Any]:
    header = {"game": game.name, "params": game.params, "bots": list(specs), "seed": seed, "games": games}
    if schedule != "round-robin":  # logs written before schedules existed stay resumable
        header["schedule"] = schedule
    read_back: dict[str, Any] = json.loads(json.dumps(header))  # as the log will read back
    return read_back


def _read_log(path: str, header: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Records of an earlier run of the same tournament (the resume log), by game index."""
    done: dict[int, dict[str, Any]] = {}
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    try:
        first = json.loads(lines[0]) if lines else None
    except ValueError:
        first = None
    if first != header:
        raise ValueError(
            f"{path} holds a different tournament (game, parameters, bots, seed, games or schedule differ); "
            "give another output directory or remove it"
        )
    for line in lines[1:]:
        try:
            rec = json.loads(line)
        except ValueError:  # a line cut short by the interruption
            continue
        if isinstance(rec, dict) and isinstance(rec.get("game"), int) and 0 <= rec["game"] < header["games"]:
            done[rec["game"]] = rec
    return done


def _ends_with_newline(path: str) -> bool:
    with open(path, "rb") as f:
        f.seek(-1, os.SEEK_END)
        return f.read(1) == b"\n"


def _recorded_games(path: str) -> set[int]:
    """The tournament games whose records a records.jsonl holds (a line cut short is skipped)."""
    found: set[int] = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                info = json.loads(line).get("info", {})
            except (ValueError, AttributeError):
                continue
            if isinstance(info, dict) and isinstance(info.get("tournament_game"), int):
                found.add(info["tournament_game"])
    return found


def _batches(indices: list[int], size: int) -> list[list[int]]:
    return [indices[i : i + size] for i in range(0, len(indices), size)]


def tournament(
    game: str | Game,
    players: int | None = None,
    bots: Sequence[str] = (),
    games: int = 100,
    seed: int = 0,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    output: str | os.PathLike[str] | None = None,
    batch_size: int | None = None,
    progress: bool | Callable[[int, int], None] = False,
    schedule: str = "round-robin",
) -> TournamentResult:
    """Round-robin tournament of bot specs (see the module's docstring for the line-ups, seeding and
    ratings). `game`: a name (then `players`, 2 by default) or a loaded game. `backend`: "local" (a
    process pool of `workers`, default the machine's cores; 1 plays in this process) or "ray"
    (a task per batch; joins the cluster at `address`, else starts a local Ray of `workers` CPUs).
    `output`: a directory for results.json, ratings.csv, games.csv, records.jsonl (every game's
    record, docs/records.md, a line per game in the order they finished) and the resume log: run the
    same tournament with the same output again and it continues where it stopped. `progress`:
    True for a progress bar on stderr, or a callable(done, total). `schedule`: which bots meet
    ("round-robin", "gauntlet" or "ladder": see `lineups`)."""
    from .games import load_game

    if isinstance(game, str):
        game = load_game(game, players=2 if players is None else players)
    else:
        _checks.check_game(game, "tournament")
        if players is not None and players != game.num_players():
            raise ValueError(f"tournament: players={players} but the game has {game.num_players()}")
    players = game.num_players()
    if isinstance(bots, str) or not isinstance(bots, Sequence) or not all(isinstance(b, str) for b in bots):
        raise ValueError(f"tournament: bots must be a list of bot specs (strings such as 'greedy'), got {bots!r}")
    specs = list(bots)
    if len(specs) < 2 or len(set(specs)) < len(specs):
        raise ValueError(f"tournament: give at least 2 different bot specs, got {specs}")
    probe = game.new_initial_state()
    for spec in specs:
        check_bot_for(make_bot(spec), probe)  # a bad spec fails here, before any game
    games = _checks.integer(games, "tournament: games", 1, 10**8)
    seed = _checks.seed(seed, "tournament: seed")
    if backend not in BACKENDS:
        raise ValueError(f"tournament: backend must be one of {BACKENDS}, got {backend!r}")
    if workers is None:
        workers = os.cpu_count() or 1
    workers = _checks.integer(workers, "tournament: workers", 1, 4096)
    if batch_size is not None:
        batch_size = _checks.integer(batch_size, "tournament: batch_size", 1, 10**6)
    if address is not None and backend != "ray":
        raise ValueError("tournament: address is for the ray backend")
    if schedule not in SCHEDULES:
        raise ValueError(f"tournament: schedule must be one of {SCHEDULES}, got {schedule!r}")
    table = lineups(len(specs), players, schedule)

    header = _header(game, specs, seed, games, schedule)
    done: dict[int, dict[str, Any]] = {}
    log = None
    records_file = None
    recorded: set[int] = set()  # games whose record records.jsonl already holds (a resumed run)
    if output is not None:
        os.makedirs(output, exist_ok=True)
        path = os.path.join(output, _LOG)
        if os.path.exists(path):
            done = _read_log(path, header)
            log = open(path, "a", encoding="utf-8")
        else:
            log = open(path, "w", encoding="utf-8")
            log.write(json.dumps(header) + "\n")
            log.flush()
    if output is not None:  # after the log's check: a different tournament opens nothing
        records_path = os.path.join(output, _RECORDS)
        if os.path.exists(records_path):
            recorded = _recorded_games(records_path)
        records_file = open(records_path, "a", encoding="utf-8")
        if records_file.tell() and not _ends_with_newline(records_path):
            records_file.write("\n")  # after a line cut short by an interruption
    todo = [i for i in range(games) if i not in done]
    size = batch_size or max(1, min(16, len(todo) // (4 * workers) or 1))
    batches = _batches(todo, size)

    bar = None
    report: Callable[[int, int], None] | None = progress if callable(progress) else None
    if progress is True:
        from tqdm import tqdm

        bar = tqdm(total=games, initial=len(done), unit="game", desc=f"{game.name} tournament", dynamic_ncols=True)

    def on_batch(records: list[Record]) -> None:
        for rec in records:
            record = rec.pop("record", None)
            # The record first: a game in the resume log always has its record written.
            if records_file and record is not None and rec["game"] not in recorded:
                records_file.write(json.dumps(record) + "\n")
                recorded.add(rec["game"])
            if records_file:
                records_file.flush()
            done[rec["game"]] = rec
            if log:
                log.write(json.dumps(rec) + "\n")
        if log:
            log.flush()
        if bar is not None:
            bar.update(len(records))
        if report:
            report(len(done), games)

    try:
        tasks = [(game, specs, table, seed, batch, output is not None) for batch in batches]
        _parallel.run(play_games, tasks, on_batch, backend, workers, address)
    finally:
        if bar is not None:
            bar.close()
        if log:
            log.close()
        if records_file:
            records_file.close()
    records = [done[i] for i in range(games)]
    ratings, matrix = rate(records, specs, seed)
    result = TournamentResult(
        game.name, players, game.params, specs, seed, games, table, records, ratings, matrix, schedule
    )
    if output is not None:
        result.write(output)
    return result
