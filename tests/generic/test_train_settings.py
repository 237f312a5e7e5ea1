"""`nutcore train` and nutcore.learn's API check every setting before any work (docs/learning.md,
"Settings and their ranges"): a bad one is a one-line error naming the option and its range, with
no run directory made, no process forked and no game played. Every test here fails at once: the
work the checks must come before is replaced by a failure."""

from __future__ import annotations

import json
import os
import struct

import pytest

import nutcore
from nutcore import _core, _parallel
from nutcore.cli import main
from nutcore.learn import netfile, selfplay, train
from nutcore.learn.netfile import Weights


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@pytest.fixture
def no_work(monkeypatch):
    """Self-play, a process pool and PyTorch: each, if reached, fails the test."""

    def began(what):
        def fail(*args, **kwargs):
            raise AssertionError(f"{what} began before the settings were checked")

        return fail

    monkeypatch.setattr(train, "generate", began("self-play"))
    monkeypatch.setattr(train, "_torch", began("training"))
    monkeypatch.setattr(_parallel, "ProcessPoolExecutor", began("a process pool"))


# (options, the option the error must name)
BAD_OPTIONS = [
    (["--workers", "1000000"], "--workers"),
    (["--workers", str(cores() + 1)], "--workers"),
    (["--workers", "0"], "--workers"),
    (["--hidden", "0"], "--hidden"),
    (["--hidden", "100000"], "--hidden"),
    (["--hidden", ",".join(["8"] * 20)], "--hidden"),
    (["--hidden", "16384,16384"], "--hidden"),  # each layer allowed, together too large a file
    (["--games", "0"], "--games"),
    (["--chunks", "0"], "--chunks"),
    (["--batch", "0"], "--batch"),
    (["--generations", "-1"], "--generations"),
    (["--generations", "0"], "--generations"),
    (["--players", "9"], "--players"),
    (["--value-mix", "2"], "--value-mix"),
    (["--value-mix", "nan"], "--value-mix"),
    (["--epochs", "0"], "--epochs"),
    (["--window", "0"], "--window"),
    (["--rating-games", "-1"], "--rating-games"),
    (["--rating-iterations", "0"], "--rating-iterations"),
    (["--iterations", "0"], "--iterations"),
    (["--bootstrap-iterations", "0"], "--bootstrap-iterations"),
    (["--num-envs", "0"], "--num-envs"),
    (["--learning-rate", "0"], "--learning-rate"),
    (["--learning-rate", "inf"], "--learning-rate"),
    (["--seed", "-1"], "--seed"),
    (["--address", "10.0.0.1:6379"], "--address"),  # a cluster, but the backend is local
    (["--network", "@missing/final.nnet"], "--network"),
]


@pytest.mark.parametrize("options,named", BAD_OPTIONS, ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_bad_train_options_fail_first_in_one_line(options, named, tmp_path, capsys, no_work):
    run = tmp_path / "run"
    options = [str(tmp_path / o[1:]) if o.startswith("@") else o for o in options]
    code = main(["train", "nutz", "--dir", str(run), "--quiet", *options])
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert code == 2
    assert len(lines) == 1 and lines[0].startswith(f"nutcore: {named}"), err
    assert not run.exists()


def test_the_train_errors_say_the_range(capsys, tmp_path, no_work):
    for options, words in [
        (["--games", "0"], "--games must be in 1..100000, got 0"),
        (["--value-mix", "2"], "--value-mix must be 0..1, got 2.0"),
        (["--workers", "1000000"], f"--workers must be in 1..{cores()}, got 1000000"),
        (["--hidden", ",".join(["8"] * 20)], "--hidden: 1 to 16 hidden layers, got 20"),
        (["--players", "9"], f"--players (nutz) must be in 2..{nutcore.games._INFOS['nutz']['max_players']}, got 9"),
    ]:
        assert main(["train", "nutz", "--dir", str(tmp_path / "run"), *options]) == 2
        assert words in capsys.readouterr().err


# TrainConfig's fields (and train's arguments) that the API refuses, before any work.
BAD_CONFIGS = [
    {"games": 0},
    {"chunks": 0},
    {"batch": 0},
    {"generations": -1},
    {"hidden": [0]},
    {"hidden": [8] * 17},
    {"hidden": "128"},
    {"value_mix": 2.0},
    {"value_mix": float("nan")},
    {"epochs": 0},
    {"window": 0},
    {"rating_games": -1},
    {"iterations": 0},
    {"iterations": 2.5},
    {"weight_decay": -1.0},
    {"learning_rate": True},
    {"evaluator": "playout"},
    {"players": 9},
    {"game": "chess"},
    {"params": {"players": 3}},
    {"seed": 2**64},
]


@pytest.mark.parametrize("changes", BAD_CONFIGS, ids=repr)
def test_train_api_refuses_bad_settings_first(changes, tmp_path, no_work):
    config = train.TrainConfig(**{"game": "nutz", **changes})
    name = next(iter(changes))
    with pytest.raises(ValueError, match=f"^train: {name}"):
        train.train(config, tmp_path / "run", progress=False)
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize(
    "arguments,name",
    [
        ({"workers": 10**6}, "workers"),
        ({"workers": cores() + 1}, "workers"),
        ({"backend": "dask"}, "backend"),
        ({"backend": "local", "address": "10.0.0.1:6379"}, "address"),
    ],
)
def test_train_api_refuses_bad_arguments_first(arguments, name, tmp_path, no_work):
    with pytest.raises(ValueError, match=f"^train: {name}"):
        train.train(train.TrainConfig("nutz"), tmp_path / "run", progress=False, **arguments)
    assert not (tmp_path / "run").exists()


def test_self_play_refuses_bad_counts_before_any_game(monkeypatch):
    def played(*args):
        raise AssertionError("a game was played")

    monkeypatch.setattr(selfplay, "play_chunk", played)
    monkeypatch.setattr(_parallel, "ProcessPoolExecutor", played)
    config = selfplay.PlayConfig("nutz", 2, {}, iterations=8, evaluator="playout", num_envs=3)
    for arguments in ({"games": 0}, {"games": 4, "chunks": 0}, {"games": 4, "workers": cores() + 1}):
        with pytest.raises(ValueError, match="generate: (games|chunks|workers)"):
            selfplay.generate(config, None, seed=0, **arguments)


def test_workers_are_bounded_by_the_cores_this_process_may_use():
    assert _parallel.cores() == cores()
    assert _parallel.check_workers(cores()) == cores()
    for bad in (0, cores() + 1, 10**6, True, 1.0):
        with pytest.raises(ValueError, match="workers"):
            _parallel.check_workers(bad)


def network_bytes(game, players, observation_size, num_actions, hidden, header_bytes=None) -> bytes:
    """A network file of zeros, its header padded to `header_bytes` (as Weights.to_bytes writes
    one, without building the arrays)."""
    header = {
        "game": game,
        "players": players,
        "observation_size": observation_size,
        "num_actions": num_actions,
        "hidden": list(hidden),
        "dtype": "float16",
        "about": {"pad": ""},
    }
    text = json.dumps(header).encode()
    if header_bytes is not None:
        header["about"]["pad"] = "x" * (header_bytes - len(text))
        text = json.dumps(header).encode()
        assert len(text) == header_bytes
    count = netfile.count_parameters(observation_size, num_actions, players, list(hidden))
    return netfile.MAGIC + struct.pack("<II", netfile.FORMAT, len(text)) + text + bytes(2 * count)


def test_train_checks_the_network_against_the_loaders_own_limits(tmp_path):
    """check_sizes (what train checks) and load_network agree at each bound: the most layers, the
    widest layer and the largest file with the largest header that the loader reads."""
    limits = _core.network_limits()
    game = nutcore.load_game("nutz", players=2)
    o, a = game.observation_tensor_shape()[0], game.num_distinct_actions()
    # The parameter count is the file's.
    w = Weights.random("nutz", 2, o, a, [24, 16])
    assert netfile.count_parameters(o, a, 2, [24, 16]) == sum(x.size for x in w.arrays())
    assert netfile.check_sizes(o, a, 2, [24, 16]) == nutcore.load_network(w.to_bytes()).num_parameters
    # The layer count and the width of a layer: the largest allowed loads, one more is refused by both.
    for good, bad in [
        ([8] * limits["hidden_layers"], [8] * (limits["hidden_layers"] + 1)),
        ([limits["hidden_size"]], [limits["hidden_size"] + 1]),
    ]:
        netfile.check_sizes(o, a, 2, good)
        nutcore.load_network(network_bytes("nutz", 2, o, a, good))
        with pytest.raises(ValueError, match="hidden"):
            netfile.check_sizes(o, a, 2, bad)
        with pytest.raises(ValueError, match="hidden"):
            nutcore.load_network(network_bytes("nutz", 2, o, a, bad))
    # The file: the widest second layer train allows, with a header as long as the loader reads,
    # loads from its path (at most NETWORK_FILE_LIMIT bytes); one unit wider is refused.
    first = limits["hidden_size"]
    lo, hi = 1, limits["hidden_size"]
    while lo < hi:
        mid = (lo + hi + 1) // 2
        try:
            netfile.check_sizes(o, a, 2, [first, mid])
            lo = mid
        except ValueError:
            hi = mid - 1
    with pytest.raises(ValueError, match="MiB"):
        netfile.check_sizes(o, a, 2, [first, lo + 1])
    data = network_bytes("nutz", 2, o, a, [first, lo], header_bytes=limits["header_bytes"])
    assert len(data) <= nutcore.search.NETWORK_FILE_LIMIT
    path = tmp_path / "largest.nnet"
    path.write_bytes(data)
    del data
    assert nutcore.load_network(path).hidden == [first, lo]
    # A header longer than the loader reads is refused when it is written, not when it is read.
    w.about = {"pad": "x" * limits["header_bytes"]}
    with pytest.raises(ValueError, match="header"):
        w.to_bytes()
