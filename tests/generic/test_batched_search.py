"""nutcore.BatchedSearch (docs/vector.md): a tree search in every environment of a VectorEnv, its
leaves evaluated by the caller one batch per round.

The batched search must grow, in environment i, the tree best_move grows from the same position
with seed + i and a built-in evaluator giving the same values: checked with the uniform evaluator
over positions from the opening to the last moves (where the ends of the game reached inside the
tree make the values differ). With a non-trivial evaluator (a fixed function of the leaf's
observation): the same results for any threads and any number of environments, and, on games of
hidden information, the same leaves and results for twin positions the searching seat cannot tell
apart. Bad values or priors are a ValueError that changes nothing."""

from __future__ import annotations

import random

import numpy as np
import pytest

import nutcore
from nutcore.learn.netfile import Weights
from playing import play_randomly, random_step

GAMES = nutcore.list_games()
HIDDEN = [g for g in GAMES if nutcore.load_game(g).hidden_information]


def decision_positions(game, seed, count):
    """Decision nodes of random games, from the opening to a move or two before the end."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        state = game.new_initial_state()
        path = []
        while not state.is_terminal():
            if not state.is_chance_node():
                path.append(state.clone())
            random_step(state, rng)
        for back in (1, 2, 4, 8, 30):  # near the end: the tree reaches it
            if len(path) >= back:
                positions.append(path[-back])
        positions.append(path[rng.randrange(len(path))])
    return positions[:count]


def tree_search(game):
    """The batched search's algorithm ("auto" there; best_move's "auto" may pick a solver)."""
    return "ismcts" if game.hidden_information else "mcts"


def env_at(game, positions, threads=1):
    env = nutcore.VectorEnv(game, len(positions), seed=0, threads=threads)
    out = env.reset()
    for i, state in enumerate(positions):
        env.set_state(i, state, out)
    return env, out


class Projection:
    """A fixed evaluator from the observation only: values [N, P] in (0, 1), priors [N, A]."""

    def __init__(self, env, seed=0):
        rng = np.random.default_rng(seed)
        self.w_value = rng.normal(size=(env.observation_size, env.num_players)).astype(np.float32) * 0.3
        self.w_prior = rng.normal(size=(env.observation_size, env.num_actions)).astype(np.float32) * 0.3
        self.rounds = []

    def __call__(self, leaves):
        self.rounds.append({k: v.copy() for k, v in leaves.items()})
        obs = np.tanh(leaves["observation"])
        values = 0.5 + 0.5 * np.tanh(obs @ self.w_value)
        logits = obs @ self.w_prior
        priors = np.exp(np.clip(logits - logits.max(axis=1, keepdims=True), -30, 0))
        return values.astype(np.float32), priors.astype(np.float32)


def uniform(env):
    values = np.full((env.num_envs, env.num_players), 1.0 / env.num_players, np.float32)
    return lambda leaves: values


@pytest.mark.parametrize("name", GAMES)
def test_uniform_evaluator_grows_the_trees_of_best_move(name):
    game = nutcore.load_game(name, players=2)
    positions = decision_positions(game, seed=3, count=12)
    env, _ = env_at(game, positions, threads=2)
    iterations, seed = 150, 2**64 - 5  # the seeds of the last environments wrap around
    result = nutcore.BatchedSearch(env, iterations=iterations).run(uniform(env), seed=seed)
    differing_values = 0
    for i, state in enumerate(positions):
        expected = nutcore.best_move(
            state, algorithm=tree_search(game), iterations=iterations, seed=(seed + i) % 2**64, evaluator="uniform"
        )
        visits = np.zeros(env.num_actions, np.int64)
        for s in expected.actions:
            visits[s.action] = s.visits
        assert result["visits"][i].tolist() == visits.tolist(), i
        assert result["action"][i] == expected.action
        assert result["iterations"][i] == expected.iterations == iterations
        assert result["value"][i] == pytest.approx(expected.value, abs=1e-5)
        differing_values += abs(expected.value[0] - 0.5) > 1e-3
    assert differing_values >= 2  # the ends of games were reached inside the trees


@pytest.mark.parametrize("name", GAMES)
def test_uniform_priors_are_no_priors(name):
    game = nutcore.load_game(name, players=3)
    env, _ = env_at(game, decision_positions(game, seed=4, count=4))
    flat = np.ones((env.num_envs, env.num_actions), np.float32) * 7  # normalised over the legal moves
    a = nutcore.BatchedSearch(env, iterations=60).run(uniform(env), seed=1)
    b = nutcore.BatchedSearch(env, iterations=60).run(lambda leaves: (uniform(env)(leaves), flat), seed=1)
    assert all(np.array_equal(a[k], b[k]) for k in a)


def searched(name, num_envs, threads, iterations=80):
    env = nutcore.VectorEnv(name, num_envs, players=2, seed=9, threads=threads)
    env.reset()
    for _ in range(5):
        env.step(env.random_actions())
    evaluator = Projection(env)
    return nutcore.BatchedSearch(env, iterations=iterations).run(evaluator, seed=3), evaluator


@pytest.mark.parametrize("name", GAMES)
def test_results_do_not_depend_on_threads_or_num_envs(name):
    base, evaluator = searched(name, 4, threads=1)
    assert len(evaluator.rounds) > 80  # each round one leaf per search, and some end the game
    assert (base["iterations"] == 80).all() and (base["visits"].sum(axis=1) == 80).all()
    for num_envs, threads in [(4, 2), (7, 3)]:
        other, _ = searched(name, num_envs, threads)
        for k in base:
            assert np.array_equal(base[k], other[k][:4]), (k, num_envs, threads)


@pytest.mark.parametrize("name", GAMES)
def test_the_priors_steer_the_search(name):
    # All prior mass on one legal move of every leaf: the root spends (nearly) every visit on it.
    game = nutcore.load_game(name, players=2)
    positions = decision_positions(game, seed=5, count=4)
    env, out = env_at(game, positions)
    chosen = [state.legal_actions()[-1] for state in positions]

    def evaluator(leaves):
        priors = np.zeros((env.num_envs, env.num_actions), np.float32)
        for i, mask in enumerate(leaves["legal_mask"]):
            legal = np.flatnonzero(mask)
            if len(legal):
                priors[i, legal[-1]] = 1.0
        return uniform(env)(leaves), priors

    result = nutcore.BatchedSearch(env, iterations=50, exploration=1.0).run(evaluator, seed=0)
    for i, state in enumerate(positions):
        if len(state.legal_actions()) > 1:
            assert result["action"][i] == chosen[i]
            assert result["visits"][i][chosen[i]] >= 45


def test_leaves_are_rows_of_their_seats():
    env = nutcore.VectorEnv("ritter", 5, players=3, seed=2, threads=2)
    env.reset()
    evaluator = Projection(env)
    nutcore.BatchedSearch(env, iterations=30).run(evaluator, seed=8)
    first = evaluator.rounds[0]
    assert first["pending"].all()  # the roots' own evaluations
    for i in range(env.num_envs):
        state = env.state(i)
        seat = state.current_player()
        assert first["current_player"][i] == seat
        assert first["observation"][i].tolist() == state.observation_tensor(seat).tolist()
        assert np.flatnonzero(first["legal_mask"][i]).tolist() == state.legal_actions()
    for leaves in evaluator.rounds:
        idle = ~leaves["pending"]
        assert not leaves["observation"][idle].any() and not leaves["legal_mask"][idle].any()
        assert (leaves["current_player"][idle] == -1).all()
        busy = leaves["pending"]
        assert leaves["legal_mask"][busy].any(axis=1).all()
        assert ((leaves["current_player"][busy] >= 0) & (leaves["current_player"][busy] < 3)).all()


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("name", HIDDEN)
def test_information_set_search_asks_only_for_the_searching_seats_leaves(name, players):
    """ISMCTS walks through the other seats' nodes (their rollout policy's move first), as its
    playout search does: they are keyed by what those seats know, new in most determinisations,
    and as leaves they ended nearly every walk one move below the root."""
    game = nutcore.load_game(name, players=players)
    positions = decision_positions(game, seed=8, count=6)
    env, _ = env_at(game, positions)
    evaluator = Projection(env)
    nutcore.BatchedSearch(env, iterations=60).run(evaluator, seed=4)
    searching = np.array([state.current_player() for state in positions])
    leaves = 0
    for leaf_round in evaluator.rounds[1:]:  # after the roots' own evaluations
        busy = leaf_round["pending"]
        assert (leaf_round["current_player"][busy] == searching[busy]).all()
        leaves += busy.sum()
    assert leaves > 60  # not vacuous: near the end of a game many walks reach it instead


@pytest.mark.parametrize("name", HIDDEN)
def test_twins_the_searching_seat_cannot_tell_apart_are_searched_alike(name):
    """ISMCTS reads only what the seat to move knows: a twin position (the hidden cards drawn
    again from that seat's knowledge) gives every round the same leaves, and the same result."""
    game = nutcore.load_game(name, players=3)
    checked = 0
    for k, state in enumerate(decision_positions(game, seed=6, count=24)):
        seat = state.current_player()
        twin = next(
            (t for s in range(40) if (t := state.resample_from_infostate(seat, s)) != state),
            None,
        )
        if twin is None:
            continue
        assert twin.information_state_string(seat) == state.information_state_string(seat)
        runs = []
        for position in (state, twin):
            env, out = env_at(game, [position])
            assert out["observation"][0].tolist() == state.observation_tensor(seat).tolist()
            evaluator = Projection(env, seed=k)
            runs.append((nutcore.BatchedSearch(env, iterations=40).run(evaluator, seed=k), evaluator.rounds))
        (a, rounds_a), (b, rounds_b) = runs
        assert all(np.array_equal(a[key], b[key]) for key in a)
        assert len(rounds_a) == len(rounds_b)
        for x, y in zip(rounds_a, rounds_b):
            assert all(np.array_equal(x[key], y[key]) for key in x)
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("name", GAMES)
def test_a_built_in_evaluator_runs_every_search_in_cpp(name):
    """With evaluator="playout" (or "learned"), start() runs each search to its end: environment
    i's is best_move's with seed + i."""
    game = nutcore.load_game(name, players=2)
    positions = decision_positions(game, seed=7, count=5)
    env, _ = env_at(game, positions, threads=2)
    net = nutcore.load_network(
        Weights.random(name, 2, env.observation_size, env.num_actions, [32, 32], seed=2).to_bytes()
    )
    for options in ({"evaluator": "playout"}, {"evaluator": "learned", "network": net, "root_noise": 0.25}):
        search = nutcore.BatchedSearch(env, iterations=40, **options)
        assert search.start(seed=10) is None
        result = search.result()
        for i, state in enumerate(positions):
            expected = nutcore.best_move(state, algorithm=tree_search(game), iterations=40, seed=10 + i, **options)
            assert result["action"][i] == expected.action
            assert {s.action: s.visits for s in expected.actions if s.visits} == {
                a: result["visits"][i][a] for a in np.flatnonzero(result["visits"][i])
            }


def test_chance_rows_get_no_search():
    env = nutcore.VectorEnv("auf_die_nuesse", 6, seed=1, chance="external")
    out = env.reset()
    rng = np.random.default_rng(0)
    while not (out["current_player"] == nutcore.CHANCE).any() or (out["current_player"] == nutcore.CHANCE).all():
        out = env.step(np.array([rng.choice(np.flatnonzero(m)) for m in out["legal_mask"]]), out=out)
    chance = out["current_player"] == nutcore.CHANCE
    result = nutcore.BatchedSearch(env, iterations=20).run(uniform(env), seed=0)
    assert (result["action"][chance] == -1).all() and (result["iterations"][chance] == 0).all()
    assert not result["visits"][chance].any()
    assert (result["action"][~chance] >= 0).all() and (result["iterations"][~chance] == 20).all()


@pytest.mark.parametrize("name", GAMES)
def test_bad_values_and_priors_change_nothing(name):
    env = nutcore.VectorEnv(name, 3, seed=1)
    env.reset()
    n, p, a = env.num_envs, env.num_players, env.num_actions
    good_values = np.full((n, p), 0.5, np.float32)
    search = nutcore.BatchedSearch(env, iterations=10)
    clean = nutcore.BatchedSearch(env, iterations=10).run(lambda leaves: good_values, seed=4)
    leaves = search.start(seed=4)
    bad = [
        (np.full((n, p), np.nan), None),
        (np.full((n, p), np.inf), None),
        (np.full((n, p + 1), 0.5), None),
        (np.full(n, 0.5), None),
        (np.full((n, p), True), None),
        (np.full((n, p), "x"), None),
        (good_values, -np.ones((n, a))),
        (good_values, np.full((n, a), np.nan)),
        (good_values, np.ones((n, a + 1))),
    ]
    while leaves is not None:
        before = {k: v.copy() for k, v in leaves.items()}
        for values, priors in bad:
            with pytest.raises(ValueError):
                search.evaluate(values, priors)
            assert all(np.array_equal(before[k], leaves[k]) for k in leaves)
        with pytest.raises(ValueError):
            search.result()  # not finished
        leaves = search.evaluate(good_values)
    result = search.result()
    assert all(np.array_equal(clean[k], result[k]) for k in clean)


def test_bad_settings():
    env = nutcore.VectorEnv("nutz", 2)
    env.reset()
    for settings in (
        {"algorithm": "mcts"},  # nutz hides cards: its tree search is ISMCTS
        {"algorithm": "pimc"},
        {"time_limit": 1.0},
        {"threads": 2},
        {"evaluator": "outside"},  # the caller's evaluation is what no evaluator means
        {"iterations": 0},
        {"widening": 1.0},  # an MCTS option
        {"nonsense": 1},
    ):
        with pytest.raises(ValueError):
            nutcore.BatchedSearch(env, **settings)
    three = nutcore.VectorEnv("nutz", 2, players=3)
    three.reset()
    assert nutcore.shipped_network("nutz", 3) is None
    with pytest.raises(ValueError, match="no trained network"):
        nutcore.BatchedSearch(three, evaluator="learned")  # none built in for 3 players, and none given
    net = nutcore.shipped_network("nutz", 2)
    for settings in ({}, {"evaluator": "playout"}):  # a network is for the learned evaluators only
        with pytest.raises(ValueError, match="a network is for"):
            nutcore.BatchedSearch(env, network=net, **settings)
    with pytest.raises(ValueError, match="network must be a nutcore.Network"):
        nutcore.BatchedSearch(env, evaluator="learned", network=b"bytes")
    with pytest.raises(ValueError):
        nutcore.BatchedSearch("nutz")
    nutcore.BatchedSearch(env, algorithm="ismcts", exploration=0.5, iterations=5)
    with pytest.raises(ValueError):
        nutcore.BatchedSearch(nutcore.VectorEnv("ritter", 2)).start()  # before reset


def test_iterations_are_capped():
    env = nutcore.VectorEnv("purzelbaum", 2)
    env.reset()
    cap = nutcore.VectorEnv.MAX_ITERATIONS
    for options in ({}, {"evaluator": "playout"}, {"evaluator": "uniform"}):
        for iterations in (cap + 1, 10**12):
            with pytest.raises(ValueError, match=f"at most {cap} per environment per move"):
                nutcore.BatchedSearch(env, iterations=iterations, **options)
        nutcore.BatchedSearch(env, iterations=cap, **options)  # the cap itself is taken


def test_a_step_ends_the_search():
    env = nutcore.VectorEnv("purzelbaum", 2, seed=1)
    out = env.reset()
    search = nutcore.BatchedSearch(env, iterations=5)
    assert search.start(seed=1) is not None
    env.step(env.random_actions(), out=out)
    with pytest.raises(ValueError):
        search.evaluate(np.full((2, 2), 0.5))
    with pytest.raises(ValueError):
        search.result()


def test_self_play_with_the_batched_search():
    """The README's loop: search, play the most visited move; the games reach their ends."""
    env = nutcore.VectorEnv("nutz", 8, players=2, seed=5, threads=2)
    env.reset()
    search = nutcore.BatchedSearch(env, iterations=16)
    rng = np.random.default_rng(0)
    finished = 0
    for move in range(200):
        result = search.run(lambda leaves: rng.random((8, 2)), seed=move * env.num_envs)
        assert (result["iterations"] == 16).all()
        assert all(env.state(i).legal_actions().count(a) == 1 for i, a in enumerate(result["action"]))
        finished += env.step(result["action"])["terminated"].sum()
    assert finished >= 8


def test_set_state_checks_the_position():
    game = nutcore.load_game("ritter", players=2)
    env = nutcore.VectorEnv(game, 3, seed=1, seat=0, opponents="greedy")
    with pytest.raises(ValueError):
        env.set_state(0, game.new_initial_state())  # before reset
    out = env.reset()
    rng = random.Random(1)
    over = play_randomly(game.new_initial_state(), rng)
    state = game.new_initial_state()
    while state.is_chance_node() or state.current_player() != 1:
        random_step(state, rng)
    before = [env.state(i).serialize() for i in range(3)], {k: v.copy() for k, v in out.items()}
    for i, bad in [
        (0, over),
        (0, state),  # seat 1 to move: not the learner's turn
        (3, game.new_initial_state()),
        (0, nutcore.load_game("nutz").new_initial_state()),
        (0, b"garbage"),
        (0, "text"),
    ]:
        with pytest.raises((ValueError, TypeError)):
            env.set_state(i, bad, out)
        assert [env.state(i).serialize() for i in range(3)] == before[0]
        assert all(np.array_equal(before[1][k], out[k]) for k in out)
    while state.is_chance_node() or state.current_player() != 0:
        random_step(state, rng)
    env.set_state(2, state, out)
    assert env.state(2) == nutcore.load_game("ritter", players=2).deserialize_state(state.serialize())
    assert out["observation"][2].tolist() == state.observation_tensor(0).tolist()
    assert np.flatnonzero(out["legal_mask"][2]).tolist() == state.legal_actions()
