"""The learned evaluation (docs/learning.md): the network file, its C++ forward pass, the searches
that use it, self-play records and `nutcore train` on a tiny budget.

The C++ forward pass is checked against numpy twice: against numpy's own matrix products (to
rounding), and, through whole searches, against a numpy pass written in the C++ order of
operations: the batched search fed by it must grow the very trees of best_move with
evaluator="learned"."""

from __future__ import annotations

import json
import random
import shutil
import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest

import nutcore
from nutcore.learn import selfplay
from nutcore.learn.netfile import Weights
from playing import random_step

GAMES = nutcore.list_games()
ROOT = Path(__file__).resolve().parents[2]


def random_weights(game, hidden=(24, 16), seed=0, scale=0.5):
    w = Weights.random(
        game.name, game.num_players(), game.observation_tensor_shape()[0], game.num_distinct_actions(), hidden, seed
    )
    rng = np.random.default_rng(seed + 1)
    w.input_scale = (1.0 / (1.0 + rng.random(w.input_scale.shape) * 4)).astype(np.float32)
    w.value = (w.value[0] * scale * 10, rng.normal(0, 0.2, w.value[1].shape).astype(np.float32))
    w.policy = (w.policy[0] * scale * 10, rng.normal(0, 0.5, w.policy[1].shape).astype(np.float32))
    return w


def decision_states(game, count, seed, max_steps=60):
    rng, states = random.Random(seed), []
    while len(states) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(0, max_steps)):
            if state.is_terminal():
                break
            random_step(state, rng)
        while not state.is_terminal() and state.is_chance_node():
            random_step(state, rng)
        if not state.is_terminal():
            states.append(state)
    return states


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_the_cpp_forward_pass_is_numpys(name, dtype):
    game = nutcore.load_game(name, players=3)
    w = random_weights(game, seed=3)
    data = w.to_bytes(dtype)
    net = nutcore.load_network(data)
    assert (net.game, net.players, net.hidden) == (name, 3, [24, 16])
    read = Weights.from_bytes(data)  # the file's own values (float16 rounds them)
    for state in decision_states(game, 20, seed=1):
        seat = state.current_player()
        obs = np.array(state.observation_tensor(seat), np.float32)
        legal = state.legal_actions()
        values, logits = net.evaluate(obs, legal)
        expected_values, expected_logits = read.forward(obs[None])
        assert values == pytest.approx(expected_values[0], abs=1e-5)
        assert sum(values) == pytest.approx(1.0)
        assert logits == pytest.approx(expected_logits[0][legal], rel=1e-4, abs=1e-4)


def cpp_order_forward(w: Weights, obs: np.ndarray):
    """The forward pass of search/network.cc in its order of float32 operations, over a batch."""
    x = (obs * w.input_scale).astype(np.float32)
    for weight, bias in w.layers:
        y = np.repeat(bias[None], len(x), axis=0)
        for i in range(weight.shape[0]):
            xi = x[:, i]
            y += np.where(xi[:, None] != 0, weight[i][None] * xi[:, None], np.float32(0))
        x = np.maximum(y, np.float32(0))
    vw, vb = w.value
    v = np.repeat(vb[None], len(x), axis=0)
    for j in range(x.shape[1]):
        v += x[:, j : j + 1] * vw[j][None]
    v = v.astype(np.float64)
    v = np.exp(v - v.max(axis=1, keepdims=True))
    values = v / v.sum(axis=1, keepdims=True)
    pw, pb = w.policy
    h = x.shape[1]
    acc = np.zeros((len(x), pw.shape[0], 8), np.float32)
    j = 0
    while j + 8 <= h:
        acc += pw[None, :, j : j + 8] * x[:, None, j : j + 8]
        j += 8
    while j < h:
        acc[:, :, 0] += pw[None, :, j] * x[:, None, j]
        j += 1
    total = ((acc[..., 0] + acc[..., 1]) + (acc[..., 2] + acc[..., 3])) + (
        (acc[..., 4] + acc[..., 5]) + (acc[..., 6] + acc[..., 7])
    )
    return values, pb[None] + total


@pytest.mark.parametrize("name", GAMES)
def test_the_learned_search_is_the_batched_search_with_the_same_network(name):
    """best_move(evaluator="learned") against the batched search fed by cpp_order_forward (values,
    and priors as the exponentials of the legal logits): the same trees, visit for visit."""
    game = nutcore.load_game(name, players=2)
    w = random_weights(game, hidden=(16, 16), seed=5)
    w = Weights.from_bytes(w.to_bytes("float32"))
    net = nutcore.load_network(w.to_bytes("float32"))
    states = decision_states(game, 6, seed=2)
    env = nutcore.VectorEnv(game, len(states), seed=0)
    out = env.reset()
    for i, state in enumerate(states):
        env.set_state(i, state, out)

    def evaluator(leaves):
        values, logits = cpp_order_forward(w, leaves["observation"])
        priors = np.zeros_like(logits)
        for i in np.flatnonzero(leaves["pending"]):
            legal = np.flatnonzero(leaves["legal_mask"][i])
            top = logits[i, legal].max()
            priors[i, legal] = np.exp(logits[i, legal] - top)
        return values.astype(np.float32), priors.astype(np.float32)

    result = nutcore.BatchedSearch(env, iterations=60).run(evaluator, seed=20)
    algorithm = "ismcts" if game.hidden_information else "mcts"
    for i, state in enumerate(states):
        expected = nutcore.best_move(
            state, algorithm=algorithm, iterations=60, seed=20 + i, evaluator="learned", network=net
        )
        visits = {s.action: s.visits for s in expected.actions if s.visits}
        assert visits == {a: result["visits"][i][a] for a in np.flatnonzero(result["visits"][i])}, i
        assert result["value"][i] == pytest.approx(expected.value, abs=1e-4)


@pytest.mark.parametrize("name", [g for g in GAMES if nutcore.load_game(g).hidden_information])
def test_the_learned_search_reads_only_the_seats_knowledge(name):
    game = nutcore.load_game(name, players=3)
    net = nutcore.load_network(random_weights(game, seed=8).to_bytes())
    checked = 0
    for state in decision_states(game, 60, seed=4, max_steps=250):
        seat = state.current_player()
        twin = next((t for s in range(30) if (t := state.resample_from_infostate(seat, s)) != state), None)
        if twin is None:
            continue
        a, b = (
            nutcore.best_move(s, iterations=80, seed=3, evaluator="learned", network=net).to_dict()
            for s in (state, twin)
        )
        for key in ("elapsed", "tree_bytes", "reserved_bytes"):
            a.pop(key), b.pop(key)
        assert a == b
        checked += 1
    assert checked >= 10


def test_bad_network_files_are_value_errors(tmp_path):
    game = nutcore.load_game("ritter", players=2)
    good = random_weights(game).to_bytes("float32")
    nutcore.load_network(good)
    length = struct.unpack("<I", good[12:16])[0]
    header = json.loads(good[16 : 16 + length])

    def with_header(**changes):
        text = json.dumps({**header, **changes}).encode()
        return good[:12] + struct.pack("<I", len(text)) + text + good[16 + length :]

    nan = bytearray(good)
    nan[-4:] = struct.pack("<f", float("nan"))
    bad = [
        b"",
        b"NUTCNET\n",
        good[:100],
        good[:-1],
        good + b"\0\0\0\0",
        b"XUTCNET\n" + good[8:],
        good[:8] + struct.pack("<I", 2) + good[12:],
        good[:12] + struct.pack("<I", 1 << 30) + good[16:],
        bytes(nan),
        with_header(dtype="float64"),
        with_header(hidden=[]),
        with_header(hidden=[0]),
        with_header(players=0),
        with_header(observation_size=-3),
        with_header(extra=1),
        with_header(about=[1]),
    ]
    for data in bad:
        with pytest.raises(ValueError):
            nutcore.load_network(data)
    with pytest.raises(ValueError):
        nutcore.load_network(tmp_path)  # a directory
    with pytest.raises(ValueError):
        nutcore.load_network(tmp_path / "missing.nnet")
    path = tmp_path / "net.nnet"
    path.write_bytes(good)
    assert nutcore.load_network(path).num_parameters == nutcore.load_network(good).num_parameters


def test_a_network_of_a_game_or_player_count_not_played_here_fails_on_load():
    """Refused by load_network itself, not at the network's first search."""
    game = nutcore.load_game("ritter", players=2)
    o, a = game.observation_tensor_shape()[0], game.num_distinct_actions()
    most = nutcore.games._INFOS["ritter"]["max_players"]
    for name, players, words in [
        ("chess", 2, "'chess'"),
        ("Ritter", 2, "'Ritter'"),
        ("ritter", 1, "1 players"),
        ("ritter", most + 1, f"{most + 1} players"),
    ]:
        with pytest.raises(ValueError, match=words):
            nutcore.load_network(Weights.random(name, players, o, a, [8]).to_bytes())
    for players in (2, most):
        assert nutcore.load_network(Weights.random("ritter", players, o, a, [8]).to_bytes()).players == players


def test_network_evaluate_refuses_observations_that_are_not_finite():
    game = nutcore.load_game("ritter", players=2)
    net = nutcore.load_network(random_weights(game).to_bytes())
    state = decision_states(game, 1, seed=0)[0]
    obs = np.array(state.observation_tensor(state.current_player()), np.float32)
    legal = state.legal_actions()
    net.evaluate(obs, legal)
    for bad in (np.nan, np.inf, -np.inf):
        for at in (0, len(obs) - 1):
            broken = obs.copy()
            broken[at] = bad
            with pytest.raises(ValueError, match=rf"observation\[{at}\] is not finite"):
                net.evaluate(broken, legal)
    # A float64 observation is cast to float32 first: its NaN stays one.
    with pytest.raises(ValueError, match=r"observation\[3\] is not finite"):
        net.evaluate(np.where(np.arange(len(obs)) == 3, np.nan, obs.astype(np.float64)), legal)


def test_a_network_must_fit_its_search():
    ritter = nutcore.load_game("ritter", players=2)
    state = decision_states(ritter, 1, seed=0)[0]
    other = nutcore.load_network(random_weights(nutcore.load_game("nutz", players=2)).to_bytes())
    three = nutcore.load_network(random_weights(nutcore.load_game("ritter", players=3)).to_bytes())
    mine = nutcore.load_network(random_weights(ritter).to_bytes())
    for network in (other, three):
        with pytest.raises(ValueError):
            nutcore.best_move(state, iterations=10, evaluator="learned", network=network)
    with pytest.raises(ValueError):
        nutcore.best_move(state, iterations=10, network=mine)  # a network is for evaluator="learned"
    with pytest.raises(ValueError):
        nutcore.best_move(state, iterations=10, network=b"bytes")
    if nutcore.shipped_network("ritter", 4) is None:
        four = decision_states(nutcore.load_game("ritter", players=4), 1, seed=0)[0]
        with pytest.raises(ValueError, match="no trained network"):
            nutcore.best_move(four, iterations=10, evaluator="learned")
    nutcore.best_move(state, iterations=10, evaluator="learned", network=mine)


def test_shipped_networks_load_and_fit_their_games():
    for name in nutcore._core.shipped_networks():
        game, players = name.rsplit("-", 1)
        net = nutcore.shipped_network(game, int(players.rstrip("p")))
        loaded = nutcore.load_game(game, players=net.players)
        assert net.observation_size == loaded.observation_tensor_shape()[0]
        assert net.num_actions == loaded.num_distinct_actions()
        about = net.header["about"]
        assert about["command"].startswith("nutcore train ") and about["commit"]


def test_self_play_records_are_the_same_on_any_backend():
    config = selfplay.PlayConfig("nutz", 2, {}, iterations=8, evaluator="playout", num_envs=3)
    one = selfplay.generate(config, None, games=7, seed=4, chunks=3, workers=1)
    two = selfplay.generate(config, None, games=7, seed=4, chunks=3, workers=2)
    assert len(np.unique(one.game_index)) == 7
    for field in ("observation", "legal_mask", "policy", "returns", "search_value", "player", "game_index"):
        assert np.array_equal(getattr(one, field), getattr(two, field)), field
    # Each row: a legal decision of its seat, the visit distribution over legal moves, the returns.
    assert np.allclose(one.policy.sum(axis=1), 1.0)
    assert not (one.policy * ~one.legal_mask).any()
    assert np.allclose(one.returns.sum(axis=1), 1.0)


def test_self_play_on_ray_gives_the_same_records():
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'nutcore[ray]')")
    config = selfplay.PlayConfig("ritter", 2, {}, iterations=6, evaluator="playout", num_envs=2)
    here = selfplay.generate(config, None, games=4, seed=9, chunks=2)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        there = selfplay.generate(config, None, games=4, seed=9, chunks=2, backend="ray", workers=2)
    finally:
        ray.shutdown()
    for field in ("observation", "policy", "returns", "search_value", "game_index"):
        assert np.array_equal(getattr(here, field), getattr(there, field)), field


def test_train_a_tiny_network_and_resume(tmp_path):
    pytest.importorskip("torch", reason='training needs PyTorch: pip install "nutcore[train]"')
    from nutcore.cli import main

    run = tmp_path / "run"
    argv = ["train", "nutz", "--players", "2", "--dir", str(run), "--games", "6", "--iterations", "6",
            "--bootstrap-iterations", "8", "--hidden", "16", "--rating-games", "4", "--rating-iterations", "6",
            "--chunks", "2", "--num-envs", "3", "--quiet"]  # fmt: skip
    assert main([*argv, "--generations", "1"]) == 0
    first = (run / "gen-0.npz").stat().st_mtime_ns
    assert main([*argv, "--generations", "2", "--network", str(tmp_path / "final.nnet")]) == 0
    assert (run / "gen-0.npz").stat().st_mtime_ns == first  # resumed, not played again
    log = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]
    assert [e["generation"] for e in log] == [0, 1]
    assert all(e["value_loss"] > 0 and e["policy_loss"] > 0 for e in log)
    net = nutcore.load_network(tmp_path / "final.nnet")
    assert net.header["about"]["command"].startswith("nutcore train nutz") and net.hidden == [16]
    state = nutcore.load_game("nutz").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    nutcore.best_move(state, iterations=20, evaluator="learned", network=net)
    assert main([*argv[:-1], "--generations", "2", "--hidden", "32"]) == 2  # other settings in the same run
    # Self-play and rating with playouts after the network: its generation 1 plays through it.
    other = [*argv[:5], str(tmp_path / "other"), *argv[6:]]
    assert main([*other, "--generations", "2", "--evaluator", "learned+playout"]) == 0
    assert json.loads((tmp_path / "other" / "run.json").read_text())["evaluator"] == "learned+playout"
    assert not np.array_equal(np.load(run / "gen-1.npz")["policy"], np.load(tmp_path / "other" / "gen-1.npz")["policy"])
    # The same network on a process pool: the records are the same (above), and fitting takes one thread.
    pooled = [*argv[:5], str(tmp_path / "pooled"), *argv[6:]]
    assert main([*pooled, "--generations", "2", "--workers", "2"]) == 0
    here, there = (Weights.from_bytes((d / "net-1.nnet").read_bytes()) for d in (run, tmp_path / "pooled"))
    for a, b in zip(here.arrays(), there.arrays()):
        assert np.array_equal(a, b)


def test_inference_allocates_nothing(tmp_path):
    # Network::evaluate built with a counting operator new (tests/helpers/network_allocations.cc).
    cxx = shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")
    assert cxx, "no C++ compiler (this test builds the network's forward pass)"
    cpp = ROOT / "cpp"
    program = tmp_path / "network_allocations"
    sources = [
        ROOT / "tests" / "helpers" / "network_allocations.cc",
        cpp / "search" / "network.cc",
        cpp / "core" / "json.cc",
    ]
    build = subprocess.run(
        [cxx, "-std=c++17", "-O1", "-Wall", "-Wextra", "-Werror", f"-I{cpp}", *map(str, sources), "-o", str(program)],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr
    file = tmp_path / "net.nnet"
    file.write_bytes(random_weights(nutcore.load_game("nutz"), hidden=(32, 16)).to_bytes())
    run = subprocess.run([str(program), str(file)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    evaluations, during, loading = map(int, run.stdout.split())
    assert evaluations == 1000 and loading > 0
    assert during == 0


@pytest.mark.parametrize("name", GAMES)
def test_playout_weight_mixes_the_leaf_values(name):
    """learned+playout with playout_weight w values a leaf (1 - w) * the network's + w * a
    playout's: over one iteration (the same path and playout for every w, by the seed) the root's
    value is linear in w, and 0.5 is the default."""
    game = nutcore.load_game(name, players=2)
    net = nutcore.load_network(random_weights(game, hidden=(16, 16), seed=7).to_bytes("float32"))
    algorithm = "ismcts" if game.hidden_information else "mcts"
    mixed_somewhere = False
    for state in decision_states(game, 6, seed=3):

        def value(state=state, **options):
            result = nutcore.best_move(
                state, algorithm=algorithm, iterations=1, seed=4, network=net, evaluator="learned+playout", **options
            )
            return np.asarray(result.value)

        by_weight = {w: value(playout_weight=w) for w in (0.0, 0.25, 1.0)}
        np.testing.assert_allclose(by_weight[0.25], 0.75 * by_weight[0.0] + 0.25 * by_weight[1.0], atol=1e-6)
        np.testing.assert_allclose(value(), 0.5 * (by_weight[0.0] + by_weight[1.0]), atol=1e-6)
        mixed_somewhere |= not np.allclose(by_weight[0.0], by_weight[1.0])
    assert mixed_somewhere  # a playout's value differed from the network's: the mix was tested


def test_learned_self_play_without_a_network_is_refused_before_any_game():
    config = selfplay.PlayConfig("nutz", 2, {}, iterations=4, evaluator="learned", num_envs=2)
    with pytest.raises(ValueError, match="needs a network"):
        selfplay.generate(config, None, 2, seed=0)
    with pytest.raises(ValueError, match="needs a network"):
        selfplay.play_chunk(config, None, 2, seed=0, chunk=0)
