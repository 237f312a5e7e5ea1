"""`nutcore train`: a game's learned evaluation by self-play, AlphaZero's loop on the CPU
(docs/learning.md).

Generation 0 plays with the default search (playouts), the strongest player there is before any
network; each later generation plays with the learned search of the network trained so far (in
C++, evaluator="learned"). After each generation the network is fitted again to the records of
the last `window` generations: values to the games' returns (cross-entropy against each seat's
share of the win), move priors to the search's visit distribution (cross-entropy over the legal
moves), with Adam. Then it is exported to a network file (nutcore.load_network reads it) and
rated: its search against the greedy bot over seat-rotated games.

Everything is kept in the run's directory, so that running the same command again resumes where
it stopped: run.json (the settings; a resumed run must match them), gen-K.npz (generation K's
records), checkpoint.pt (the model and optimiser after the last finished generation), net-K.nnet,
log.jsonl (a line per generation: losses, rating, times) and progress.png (the plots).

PyTorch does the fitting (the `nutcore[train]` extra): it is the library most people who train
networks already know, its CPU build is enough for networks of this size, and nothing of it is
needed to play: the searches read the exported file in C++.
"""

from __future__ import annotations

import datetime
import json
import numbers
import os
import subprocess
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, cast

import numpy as np

from .. import _checks, _parallel
from .._types import Game
from ..games import _INFOS, list_games, load_game
from ..search import Network
from ..vector import BatchedSearch, VectorEnv
from .netfile import check_sizes
from .selfplay import MAX_CHUNKS, MAX_GAMES, PlayConfig, Records, generate


def _torch() -> None:
    """ValueError unless PyTorch, which fits the networks (nutcore.learn.model), is installed."""
    try:
        import torch  # noqa: F401
    except ImportError:
        raise ValueError('training needs PyTorch: pip install "nutcore[train]"') from None


@dataclass
class TrainConfig:
    game: str
    players: int = 2
    params: dict[str, Any] = field(default_factory=dict)
    generations: int = 8
    games: int = 400  # per generation
    iterations: int = 100  # search iterations per move in self-play
    bootstrap_iterations: int = 200  # generation 0's, with playouts
    evaluator: str = "learned"  # later generations' and the rating's: "learned" or "learned+playout"
    hidden: list[int] = field(default_factory=lambda: [128, 128])
    window: int = 4  # generations of records to fit
    value_mix: float = 0.0  # the value target: this much of the game's returns, the rest the search's root value
    epochs: int = 4  # positions fitted per generation: this many times the generation's own
    batch: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    rating_games: int = 200  # against greedy, after each generation (0: none)
    rating_iterations: int = 100
    seed: int = 0
    chunks: int = 8  # self-play chunks per generation (the unit of work of the backends)
    num_envs: int = 32  # environments per chunk


# Each integer setting's range (docs/learning.md lists them). The caps are far above any run made
# here (the networks built in took at most 24 generations of 2,000 games, 200 iterations a move):
# there so that a typo fails at once, not after hours or when the memory runs out.
INTEGER_RANGES: dict[str, tuple[int, int]] = {
    "generations": (1, 10_000),
    "games": (1, MAX_GAMES),
    "iterations": (1, 1_000_000),
    "bootstrap_iterations": (1, 1_000_000),
    "window": (1, 10_000),
    "epochs": (1, 1_000),
    "batch": (1, 1 << 20),
    "rating_games": (0, 1_000_000),
    "rating_iterations": (1, 1_000_000),
    "seed": (0, 2**32 - 1),  # generation K's self-play seeds from seed * 1000 + K: all within 64 bits
    "chunks": (1, MAX_CHUNKS),
    "num_envs": (1, 4096),
}
# Each real setting's: (lowest, highest, whether the lowest itself is allowed).
REAL_RANGES: dict[str, tuple[float, float, bool]] = {
    "value_mix": (0.0, 1.0, True),
    "learning_rate": (0.0, 1.0, False),
    "weight_decay": (0.0, 1.0, True),
}
EVALUATORS = ("learned", "learned+playout")


def _api_name(name: str) -> str:
    return f"train: {name}"


def check_settings(
    config: TrainConfig,
    directory: str | os.PathLike[str],
    backend: str = "local",
    workers: int = 1,
    address: str | None = None,
    network_path: str | os.PathLike[str] | None = None,
    spelled: Callable[[str], str] = _api_name,
) -> Game:
    """Every setting of train() checked, before any work and before the run's directory is made:
    a ValueError naming the setting (as spelled(field name) writes it: the command line passes its
    options' names) and its allowed range. The network's sizes are checked against what
    load_network reads (netfile.check_sizes). Returns the game."""
    if not isinstance(config, TrainConfig):
        raise ValueError(f"train: config must be a TrainConfig, got {config!r}")
    if not isinstance(config.game, str) or config.game not in list_games():
        raise ValueError(f"{spelled('game')}: unknown game {config.game!r}; available: {list_games()}")
    info = _INFOS[config.game]
    _checks.integer(config.players, f"{spelled('players')} ({config.game})", info["min_players"], info["max_players"])
    for name, (lo, hi) in INTEGER_RANGES.items():
        _checks.integer(getattr(config, name), spelled(name), lo, hi)
    for name, (low, high, lowest) in REAL_RANGES.items():
        value = getattr(config, name)
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
            raise ValueError(f"{spelled(name)} must be a number, got {value!r}")
        real = cast(float, value)  # any Real compares with floats
        if not (low < real <= high or (lowest and real == low)):
            shown = f"{low:g}..{high:g}" if lowest else f"above {low:g}, at most {high:g}"
            raise ValueError(f"{spelled(name)} must be {shown}, got {value!r}")
    if config.evaluator not in EVALUATORS:
        raise ValueError(f"{spelled('evaluator')} must be one of {EVALUATORS}, got {config.evaluator!r}")
    if not isinstance(config.params, dict) or not all(isinstance(k, str) for k in config.params):
        raise ValueError(f"{spelled('params')} must be a dict of the game's parameters, got {config.params!r}")
    if "players" in config.params:
        raise ValueError(f"{spelled('params')}: give the players as {spelled('players')}, not a parameter")
    game = load_game(config.game, players=config.players, **config.params)
    check_sizes(
        game.observation_tensor_shape()[0],
        game.num_distinct_actions(),
        config.players,
        config.hidden,
        name=spelled("hidden"),
    )
    if backend not in _parallel.BACKENDS:
        raise ValueError(f"{spelled('backend')} must be one of {_parallel.BACKENDS}, got {backend!r}")
    _parallel.check_workers(workers, spelled("workers"))
    if address is not None and (backend != "ray" or not isinstance(address, str)):
        raise ValueError(f"{spelled('address')} is a Ray cluster's address, for the ray backend only")
    try:
        run = Path(directory)
        final = None if network_path is None else Path(network_path)
    except TypeError:
        raise ValueError(f"{spelled('directory')} and {spelled('network_path')} must be paths") from None
    if run.exists() and not run.is_dir():
        raise ValueError(f"{spelled('directory')}: {str(run)!r} is not a directory")
    if final is not None:
        if final.is_dir():
            raise ValueError(f"{spelled('network_path')}: {str(final)!r} is a directory, not a file")
        if not final.parent.is_dir():
            raise ValueError(f"{spelled('network_path')}: the directory of {str(final)!r} does not exist")
    return game


def rate_against_greedy(config: TrainConfig, network: bytes, games: int, seed: int) -> float:
    """The learned search's win share against the greedy bot, seats rotated (the fair share is
    1 / players): a VectorEnv per seat, the learner's moves searched in C++."""
    net = Network(network)
    shares = []
    per_seat = max(1, games // config.players)
    for seat in range(config.players):
        env = VectorEnv(
            config.game,
            min(64, per_seat),
            players=config.players,
            seed=seed + seat,
            seat=seat,
            opponents="greedy",
            **config.params,
        )
        env.reset()
        search = BatchedSearch(env, iterations=config.rating_iterations, evaluator=config.evaluator, network=net)
        won, played, move = 0.0, 0, 0
        while played < per_seat:
            search.start(seed=seed + move)
            out = env.step(search.result()["action"])
            move += 1
            for i in np.flatnonzero(out["terminated"]):
                if played < per_seat:
                    won += float(out["rewards"][i][seat])
                    played += 1
        shares.append(won / played)
    return float(np.mean(shares))


def _commit() -> str:
    """The checkout's commit, with "-dirty" if its tracked files differ from it ("unknown" outside git)."""
    try:
        here = Path(__file__).resolve().parent

        def git(*args: str) -> str:
            return subprocess.run(["git", *args], cwd=here, capture_output=True, text=True, timeout=5).stdout.strip()

        head = git("rev-parse", "HEAD")
        if not head:
            return "unknown"
        return head + ("-dirty" if git("status", "--porcelain", "--untracked-files=no") else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def train(
    config: TrainConfig,
    directory: str | os.PathLike[str],
    backend: str = "local",
    workers: int = 1,
    address: str | None = None,
    command: str = "",
    progress: bool = True,
    network_path: str | os.PathLike[str] | None = None,
) -> Path:
    """Runs (or resumes) training in `directory`; the final network file's path (also written to
    `network_path` if given). Every setting is checked first (check_settings): a ValueError, with
    no directory made and no game played."""
    game = check_settings(config, directory, backend, workers, address, network_path)
    _torch()
    import torch

    from .model import export, fit, make_model

    # One thread: these networks gain little from a second (2.2 against 2.8 ms a batch on a quiet
    # 2-core machine), and threads that spin on cores other jobs hold made fitting up to 90 times slower.
    torch.set_num_threads(1)
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    settings = asdict(config)
    run_file = directory / "run.json"
    if run_file.exists():  # a resumed run: the same settings (more generations may be asked)
        kept = json.loads(run_file.read_text())
        defaults = asdict(TrainConfig(config.game))  # a setting added since the run began: its default
        changed = sorted(k for k in settings if k != "generations" and kept.get(k, defaults[k]) != settings[k])
        if changed:
            raise ValueError(
                f"train: {directory} holds a run with other settings ({', '.join(changed)}); "
                "give another directory, or the same settings to resume"
            )
    run_file.write_text(json.dumps(settings, indent=1) + "\n")
    obs_size, num_actions = game.observation_tensor_shape()[0], game.num_distinct_actions()
    torch.manual_seed(config.seed)
    model = make_model(obs_size, num_actions, config.players, config.hidden)
    optimiser = torch.optim.Adam(model.parameters(), lr=config.learning_rate, weight_decay=config.weight_decay)
    checkpoint = directory / "checkpoint.pt"
    log_file = directory / "log.jsonl"
    start_gen = 0
    if checkpoint.exists():
        state = torch.load(checkpoint, weights_only=True)
        model.load_state_dict(state["model"])
        optimiser.load_state_dict(state["optimiser"])
        start_gen = int(state["generation"]) + 1
    log = [json.loads(line) for line in log_file.read_text().splitlines()] if log_file.exists() else []
    log = [entry for entry in log if entry["generation"] < start_gen]

    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(
            total=config.generations * config.games,
            initial=start_gen * config.games,
            unit="game",
            desc=f"{config.game} {config.players}p training",
            dynamic_ncols=True,
        )
    about_base = {"command": command, "commit": _commit(), "trainer": "nutcore.learn.train", "settings": settings}
    try:
        for gen in range(start_gen, config.generations):
            began = time.perf_counter()
            records_file = directory / f"gen-{gen}.npz"
            if records_file.exists():
                records = Records.load(str(records_file))
                if bar:
                    bar.update(config.games)
            else:
                play = PlayConfig(
                    config.game,
                    config.players,
                    config.params,
                    iterations=config.bootstrap_iterations if gen == 0 else config.iterations,
                    evaluator="playout" if gen == 0 else config.evaluator,
                    num_envs=config.num_envs,
                )
                network = None if gen == 0 else (directory / f"net-{gen - 1}.nnet").read_bytes()
                records = generate(
                    play,
                    network,
                    config.games,
                    seed=config.seed * 1000 + gen,
                    chunks=config.chunks,
                    backend=backend,
                    workers=workers,
                    address=address,
                    progress=bar.update if bar else None,
                )
                records.save(str(records_file))
            played = time.perf_counter() - began
            window = [
                Records.load(str(directory / f"gen-{k}.npz")) for k in range(max(0, gen - config.window + 1), gen)
            ]
            data = Records.concatenate([*window, records])
            if gen == 0:  # the input scale, once: each feature divided by its largest magnitude seen
                top = np.abs(data.observation).max(axis=0)
                model.input_scale.copy_(
                    torch.from_numpy(np.where(top > 0, 1.0 / np.maximum(top, 1e-6), 1.0).astype(np.float32))
                )
            # As many positions a generation, however large the window: a fixed cost per generation.
            fitted = fit(
                model,
                optimiser,
                data,
                config.epochs * len(records),
                config.batch,
                seed=config.seed * 1000 + gen,
                mix=config.value_mix,
            )
            trained = time.perf_counter() - began - played
            about = {
                **about_base,
                "generation": gen,
                "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            }
            network_bytes = export(model, config.game, config.players, about).to_bytes()
            (directory / f"net-{gen}.nnet").write_bytes(network_bytes)
            rating = None
            if config.rating_games:
                rating = rate_against_greedy(config, network_bytes, config.rating_games, seed=config.seed * 1000 + gen)
            entry = {
                "generation": gen,
                "positions": len(records),
                "window_positions": len(data),
                **fitted,
                "win_share_against_greedy": rating,
                "seconds_self_play": round(played, 1),
                "seconds_training": round(trained, 1),
                "seconds_rating": round(time.perf_counter() - began - played - trained, 1),
            }
            log.append(entry)
            log_file.write_text("".join(json.dumps(e) + "\n" for e in log))
            torch.save(
                {"model": model.state_dict(), "optimiser": optimiser.state_dict(), "generation": gen}, checkpoint
            )
            _plot(log, directory / "progress.png", config)
            if bar:
                bar.set_postfix(gen=gen, greedy=None if rating is None else round(rating, 3))
    finally:
        if bar:
            bar.close()
    final = directory / f"net-{config.generations - 1}.nnet"
    out = directory / f"{config.game}-{config.players}p.nnet"
    out.write_bytes(final.read_bytes())
    if network_path is not None:
        Path(network_path).write_bytes(final.read_bytes())
    return out


def _plot(log: list[dict[str, Any]], path: Path, config: TrainConfig) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # plots need the plot extra; training goes on without them
        return
    gens = [e["generation"] for e in log]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    left.plot(gens, [e["value_loss"] for e in log], marker="o", label="value")
    left.plot(gens, [e["policy_loss"] for e in log], marker="o", label="policy")
    left.set_xlabel("generation")
    left.set_ylabel("loss (last epoch)")
    left.legend()
    rated = [(e["generation"], e["win_share_against_greedy"]) for e in log if e["win_share_against_greedy"] is not None]
    if rated:
        right.plot(*zip(*rated), marker="o")
    right.axhline(1 / config.players, color="grey", linestyle=":", label="fair share")
    right.set_xlabel("generation")
    right.set_ylabel("win share against greedy")
    right.set_ylim(0, 1)
    right.legend()
    fig.suptitle(f"{config.game}, {config.players} players")
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)
