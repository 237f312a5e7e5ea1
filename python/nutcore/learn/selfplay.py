"""Self-play records (docs/learning.md): games played by the batched search in every environment
of a VectorEnv, each decision recorded as its seat's observation, the legal moves, the search's
visit distribution and, once the game ends, the game's returns.

Work is cut into chunks, each a VectorEnv of its own seeded from (seed, chunk index) playing a
fixed number of games: the records of a generation are the chunks' in order, the same whether the
chunks ran here, on a process pool or on Ray.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Callable

import numpy as np
import numpy.typing as npt

from .. import _checks, _parallel
from ..games import load_game
from ..search import Network
from ..vector import BatchedSearch, VectorEnv

# A call's games (a generation's in nutcore train: its records are held in memory, some 100
# positions a game) and chunks. Far above any run made here (2,000 games in 16 chunks); a typo fails
# at once.
MAX_GAMES = 100_000
MAX_CHUNKS = 10_000


@dataclass
class Records:
    """Self-play positions, a row each."""

    observation: np.ndarray  # [M, O] float32: the seat to move's own observation
    legal_mask: np.ndarray  # [M, A] bool
    policy: np.ndarray  # [M, A] float32: the search's visits, normalised
    returns: np.ndarray  # [M, P] float32: the game's returns (each seat's share of the win)
    search_value: np.ndarray  # [M, P] float32: the search's mean return per seat at the root
    player: np.ndarray  # [M] int8: the seat to move
    game_index: np.ndarray  # [M] int32: the game within its chunk, chunk-major

    def __len__(self) -> int:
        return len(self.player)

    @classmethod
    def concatenate(cls, parts: list[Records]) -> Records:
        return cls(*(np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(cls)))

    def save(self, path: str) -> None:
        np.savez_compressed(path, **{f.name: getattr(self, f.name) for f in fields(self)})

    @classmethod
    def load(cls, path: str) -> Records:
        with np.load(path) as data:
            return cls(*(data[f.name] for f in fields(cls)))


@dataclass
class PlayConfig:
    """How the games of a generation are played."""

    game: str
    players: int
    params: dict[str, Any]
    iterations: int = 100  # per move, the root's own evaluation aside
    evaluator: str = "learned"  # or "learned+playout", or "playout" (the default search: before any network)
    exploration: float | None = None  # None: the search's default
    root_noise: float = 0.25  # Dirichlet noise at the root (learned evaluators only)
    root_noise_alpha: float = 0.3
    sample_moves: int = 16  # a game's first decisions are drawn by visit count, later ones the most visited
    num_envs: int = 64  # environments per chunk
    max_moves: int = 100_000  # a bound on a chunk's rounds (the games' own caps end them first)


def play_chunk(config: PlayConfig, network: bytes | None, games: int, seed: int, chunk: int) -> tuple[int, Records]:
    """`games` games of self-play in a VectorEnv of their own, seeded from (seed, chunk): (chunk,
    the records of its finished games, game after game in the order they finished)."""
    env_seed = (seed * 0x9E3779B97F4A7C15 + chunk) % 2**64
    env = VectorEnv(config.game, min(config.num_envs, games), players=config.players, seed=env_seed, **config.params)
    options: dict[str, Any] = {"evaluator": config.evaluator}
    if config.exploration is not None:
        options["exploration"] = config.exploration
    net = None
    if config.evaluator.startswith("learned"):
        if network is None:
            raise ValueError(f"self-play: evaluator={config.evaluator!r} needs a network")
        net = Network(network)
        options.update(root_noise=config.root_noise, root_noise_alpha=config.root_noise_alpha)
    search = BatchedSearch(env, iterations=config.iterations, network=net, **options)
    rng = np.random.default_rng(env_seed)
    n = env.num_envs
    out = env.reset()
    open_rows: list[list[int]] = [[] for _ in range(n)]  # per environment: its game's rows so far
    moves = np.zeros(n, np.int64)
    rows: dict[str, list[npt.NDArray[Any]]] = {
        "observation": [],
        "legal_mask": [],
        "policy": [],
        "search_value": [],
        "player": [],
    }
    finished: list[tuple[list[int], np.ndarray]] = []
    for move in range(config.max_moves):
        if len(finished) >= games:
            break
        search.start(seed=(env_seed + move * n) % 2**64)
        result = search.result()
        visits = result["visits"].astype(np.float64)
        policy = visits / visits.sum(axis=1, keepdims=True)
        actions = result["action"].copy()
        for i in np.flatnonzero(moves < config.sample_moves):
            actions[i] = rng.choice(len(policy[i]), p=policy[i])
        rows["observation"].append(out["observation"].copy())
        rows["legal_mask"].append(out["legal_mask"].copy())
        rows["policy"].append(policy.astype(np.float32))
        rows["search_value"].append(result["value"].copy())
        rows["player"].append(out["current_player"].astype(np.int8))
        for e in range(n):
            open_rows[e].append(move * n + e)  # row move * n + e: environment e at this move
        moves += 1
        out = env.step(actions, out=out)
        for i in np.flatnonzero(out["terminated"]):
            finished.append((open_rows[i], out["rewards"][i].copy()))
            open_rows[i] = []
            moves[i] = 0
    finished = finished[:games]
    stacked = {k: np.concatenate(v) for k, v in rows.items()}
    index = np.array([r for game_rows, _ in finished for r in game_rows], np.int64)
    returns = np.concatenate([np.repeat(z[None], len(game_rows), axis=0) for game_rows, z in finished])
    game_index = np.concatenate([np.full(len(g), k, np.int32) for k, (g, _) in enumerate(finished)])
    records = Records(
        stacked["observation"][index],
        stacked["legal_mask"][index],
        stacked["policy"][index],
        returns.astype(np.float32),
        stacked["search_value"][index],
        stacked["player"][index],
        game_index,
    )
    return chunk, records


def generate(
    config: PlayConfig,
    network: bytes | None,
    games: int,
    seed: int,
    chunks: int = 1,
    backend: str = "local",
    workers: int = 1,
    address: str | None = None,
    progress: Callable[[int], object] | None = None,
) -> Records:
    """`games` self-play games in `chunks` chunks (as even as can be), run by `backend` ("local":
    here, or a process pool of `workers`; "ray"); the records in chunk order, game_index counting
    the games of the whole generation. `progress(games)` is called as each chunk finishes.
    ValueError, before any work, for a bad game or count."""
    load_game(config.game, players=config.players, **config.params)  # a bad game fails here
    if config.evaluator.startswith("learned") and network is None:
        raise ValueError(f"generate: evaluator={config.evaluator!r} needs a network")
    games = _checks.integer(games, "generate: games", 1, MAX_GAMES)
    chunks = _checks.integer(chunks, "generate: chunks", 1, MAX_CHUNKS)
    if backend not in _parallel.BACKENDS:
        raise ValueError(f"generate: backend must be one of {_parallel.BACKENDS}, got {backend!r}")
    _parallel.check_workers(workers, "generate: workers")
    sizes = [games // chunks + (1 if k < games % chunks else 0) for k in range(chunks)]
    tasks = [(config, network, size, seed, k) for k, size in enumerate(sizes) if size > 0]
    parts: dict[int, Records] = {}

    def done(answer: tuple[int, Records]) -> None:
        chunk, part = answer
        parts[chunk] = part
        if progress:
            progress(sizes[chunk])

    _parallel.run(play_chunk, tasks, done, backend, workers, address)
    ordered = [parts[k] for k in sorted(parts)]
    offset = 0
    for k, part in zip(sorted(parts), ordered):
        part.game_index = part.game_index + offset
        offset += sizes[k]
    return Records.concatenate(ordered)
