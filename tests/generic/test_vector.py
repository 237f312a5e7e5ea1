"""nutcore.VectorEnv (docs/vector.md): many games stepped at once in C++.

Equivalence: with chance left to the caller, N environments play exactly the games of N single
states driven by the same actions and chance outcomes, step by step: observations, masks, the seat
to move, chance probabilities, rewards (the returns) and the automatic restart. With chance drawn
inside: every row is its environment's state, the arrays do not depend on the threads or on the
number of environments, and a bad action array is a ValueError that changes nothing."""

from __future__ import annotations

import random

import numpy as np
import pytest

import nutcore
from playing import play_randomly, random_step

GAMES = nutcore.list_games()


def random_actions(rng, out):
    """A legal action per row; at a chance node (external mode) an outcome by its probability."""
    actions = np.empty(len(out["legal_mask"]), np.int64)
    for i, mask in enumerate(out["legal_mask"]):
        legal = np.flatnonzero(mask)
        if out["current_player"][i] == nutcore.CHANCE:
            p = out["chance_probabilities"][i][legal]
            actions[i] = rng.choice(legal, p=p / p.sum())
        else:
            actions[i] = rng.choice(legal)
    return actions


def assert_row_is(out, i, state):
    """Row i of the arrays shows `state` as the environment's contract says."""
    a = len(out["legal_mask"][i])
    if state.is_chance_node():
        assert out["current_player"][i] == nutcore.CHANCE
        outcomes = dict(state.chance_outcomes())
        assert sorted(np.flatnonzero(out["legal_mask"][i])) == sorted(o for o, p in outcomes.items() if p > 0)
        if "chance_probabilities" in out:
            expected = np.zeros(a)
            for o, p in outcomes.items():
                expected[o] = p
            assert out["chance_probabilities"][i].tolist() == expected.tolist()
        assert not out["observation"][i].any()
    else:
        seat = state.current_player()
        assert out["current_player"][i] == seat
        assert np.flatnonzero(out["legal_mask"][i]).tolist() == state.legal_actions()
        assert out["observation"][i].tolist() == state.observation_tensor(seat).tolist()
        if "chance_probabilities" in out:
            assert not out["chance_probabilities"][i].any()


@pytest.mark.parametrize("name", GAMES)
def test_external_chance_plays_the_games_of_single_states(name):
    n, rng = 5, np.random.default_rng(7)
    env = nutcore.VectorEnv(name, n, players=3, seed=3, chance="external", threads=2)
    game = env.game
    singles = [game.new_initial_state() for _ in range(n)]
    out = env.reset()
    lengths = [0] * n
    ended = 0
    for i in range(n):
        assert_row_is(out, i, singles[i])
    for _ in range(1500):
        actions = random_actions(rng, out)
        out = env.step(actions, out=out)
        for i in range(n):
            chance = singles[i].is_chance_node()
            singles[i].apply_action(int(actions[i]))
            lengths[i] += not chance
            if singles[i].is_terminal():
                assert out["terminated"][i] and out["episode_length"][i] == lengths[i]
                assert out["rewards"][i].tolist() == pytest.approx(singles[i].returns(), abs=1e-7)
                singles[i] = game.new_initial_state()
                lengths[i] = 0
                ended += 1
            else:
                assert not out["terminated"][i] and out["episode_length"][i] == 0
                assert not out["rewards"][i].any()
            assert_row_is(out, i, singles[i])
            assert env.state(i) == singles[i]
    assert ended >= 1  # the automatic restart was reached


@pytest.mark.parametrize("name", GAMES)
def test_internal_chance_rows_are_the_environments_states(name):
    env = nutcore.VectorEnv(name, 4, seed=11)
    rng = np.random.default_rng(1)
    out = env.reset()
    assert set(out) == {"observation", "legal_mask", "current_player"}
    for _ in range(300):
        for i in range(env.num_envs):
            state = env.state(i)
            assert not state.is_chance_node() and not state.is_terminal()
            assert_row_is(out, i, state)
        out = env.step(random_actions(rng, out), out=out)
        assert set(out) >= {"rewards", "terminated", "episode_length"}
        for i in np.flatnonzero(out["terminated"]):
            assert out["rewards"][i].sum() == pytest.approx(1.0)  # win shares: the game's returns
            assert out["episode_length"][i] > 0


def trajectory(name, num_envs, threads, steps=200, seed=5):
    env = nutcore.VectorEnv(name, num_envs, seed=seed, threads=threads)
    out = env.reset()
    rng = np.random.default_rng(2)
    frames = [{k: v.copy() for k, v in out.items()}]
    for _ in range(steps):
        # The first rows' actions depend only on the first rows: compare any num_envs.
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in out["legal_mask"][:3]] + [0] * (num_envs - 3))
        for i in range(3, num_envs):
            actions[i] = np.flatnonzero(out["legal_mask"][i])[0]
        out = env.step(actions)
        frames.append({k: v[:3].copy() for k, v in out.items()})
    return frames


@pytest.mark.parametrize("name", GAMES)
def test_the_same_seed_gives_the_same_arrays_for_any_threads_and_num_envs(name):
    base = trajectory(name, 3, threads=1)
    for num_envs, threads in [(3, 2), (8, 3), (5, 1)]:
        other = trajectory(name, num_envs, threads)
        for a, b in zip(base[1:], other[1:]):
            assert all(np.array_equal(a[k], b[k]) for k in a), (num_envs, threads)
    other_seed = trajectory(name, 3, threads=1, seed=6)
    assert any(not np.array_equal(a["observation"], b["observation"]) for a, b in zip(base, other_seed))


def test_out_buffers_are_written_in_place():
    env = nutcore.VectorEnv("auf_die_nuesse", 6, threads=2)
    out = env.reset()
    arrays = {k: id(v) for k, v in out.items()}
    rng = np.random.default_rng(0)
    first = env.step(random_actions(rng, out), out=out)
    # reset's arrays are used again; those a step adds are made once, then passed back.
    assert all(id(first[k]) == i for k, i in arrays.items())
    kept = {k: id(v) for k, v in first.items()}
    before = {k: v.copy() for k, v in first.items()}
    again = env.step(random_actions(rng, first), out=first)
    assert again is first and {k: id(v) for k, v in first.items()} == kept
    assert not np.array_equal(before["observation"], first["observation"])  # written in place


def snapshot(env, out):
    return [env.state(i).serialize() for i in range(env.num_envs)], {k: v.copy() for k, v in out.items()}


@pytest.mark.parametrize("name", GAMES)
def test_bad_actions_change_nothing(name):
    env = nutcore.VectorEnv(name, 4, seed=2)
    out = env.step(np.array([np.flatnonzero(m)[0] for m in env.reset()["legal_mask"]]))
    legal = np.array([np.flatnonzero(m)[0] for m in out["legal_mask"]])
    illegal_slot = legal.copy()
    illegal_slot[2] = next(a for a in range(env.num_actions) if not out["legal_mask"][2][a])
    bad = [
        legal[:3],  # wrong shape
        legal.reshape(2, 2),
        legal.astype(np.float64),  # not integers
        np.array([np.nan] * 4),
        legal.astype(bool),
        illegal_slot,  # an illegal action in one slot
        np.array([-1, 0, 0, 0]),
        np.array([env.num_actions, 0, 0, 0]),
        np.array([2**40, 0, 0, 0]),
        "0000",
    ]
    before = snapshot(env, out)
    for actions in bad:
        with pytest.raises(ValueError):
            env.step(actions, out=out)
        after = snapshot(env, out)
        assert after[0] == before[0]
        assert all(np.array_equal(before[1][k], after[1][k]) for k in before[1])
    env.step(legal, out=out)  # the good one still plays


def test_bad_arguments():
    with pytest.raises(ValueError):
        nutcore.VectorEnv("chess", 4)
    with pytest.raises(ValueError):
        nutcore.VectorEnv("nutz", 0)
    with pytest.raises(ValueError):
        nutcore.VectorEnv("nutz", 4, threads=0)
    with pytest.raises(ValueError):
        nutcore.VectorEnv("nutz", 4, chance="outside")
    with pytest.raises(ValueError):
        nutcore.VectorEnv(nutcore.load_game("nutz"), 4, decks=2)
    env = nutcore.VectorEnv("nutz", 4)
    with pytest.raises(ValueError):
        env.step(np.zeros(4, np.int64))  # before reset
    out = env.reset()
    for broken in (
        {"observation": np.zeros((4, 3), np.float32)},
        {"legal_mask": np.zeros((4, env.num_actions), np.uint8)},
        {"current_player": np.zeros(4, np.int64)},
        {"rewards": np.asfortranarray(np.zeros((4, env.num_players), np.float32))},  # not C order
        {"unknown": np.zeros(4)},
        [],
    ):
        with pytest.raises(ValueError):
            env.reset(out=broken)
    with pytest.raises(ValueError):
        env.state(4)
    assert env.reset(out=out) is out


def test_the_readme_loop_counts_every_finished_game_once():
    env = nutcore.VectorEnv("purzelbaum", 64, players=2, seed=1, threads=2)
    out = env.reset()
    actions, wins, games = np.empty(env.num_envs, np.int64), np.zeros(env.num_players), 0
    for _ in range(400):
        env.random_actions(actions)
        out = env.step(actions, out=out)
        wins, games = wins + out["rewards"].sum(axis=0), games + out["terminated"].sum()
    assert games > 0 and wins.sum() == pytest.approx(games)  # each game's shares sum to one


def test_random_actions_are_legal_and_apart_from_the_chance_draws():
    env = nutcore.VectorEnv("auf_die_nuesse", 32, seed=4)
    out = env.reset()
    drawn = env.random_actions()
    assert all(out["legal_mask"][i][a] for i, a in enumerate(drawn))
    # Drawing actions does not move the chance generators: the same steps, the same dice.
    twin = nutcore.VectorEnv("auf_die_nuesse", 32, seed=4)
    twin.reset()
    for _ in range(3):
        twin.random_actions()
    a, b = env.step(drawn), twin.step(drawn)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    with pytest.raises(ValueError):
        nutcore.VectorEnv("nutz", 2).random_actions()  # before reset
    with pytest.raises(ValueError):
        env.random_actions(out=np.zeros(32, np.int32))


# ----- a seat mode: one learner seat, the others played inside


@pytest.mark.parametrize("name", GAMES)
def test_a_seat_against_greedy_plays_the_games_of_single_states(name):
    """External chance, greedy opponents: the same games as single states where GreedyBot plays
    the other seats, and each row shows only the learner's turns (or a chance node)."""
    n, seat, rng = 4, 1, np.random.default_rng(3)
    env = nutcore.VectorEnv(name, n, players=3, seed=8, chance="external", seat=seat, opponents="greedy")
    game, greedy = env.game, nutcore.GreedyBot()

    def to_learner(state):
        while not state.is_terminal() and not state.is_chance_node() and state.current_player() != seat:
            state.apply_action(greedy.step(state))
        return state

    def fresh():
        state = to_learner(game.new_initial_state())
        while state.is_terminal():  # the opponents ended it before the learner's first move
            state = to_learner(game.new_initial_state())
        return state

    singles = [fresh() for _ in range(n)]
    out = env.reset()
    ended = 0
    for _ in range(600):
        for i in range(n):
            assert_row_is(out, i, singles[i])
            assert out["current_player"][i] in (seat, nutcore.CHANCE)
        actions = random_actions(rng, out)
        out = env.step(actions, out=out)
        for i in range(n):
            singles[i].apply_action(int(actions[i]))
            to_learner(singles[i])
            if singles[i].is_terminal():
                assert out["terminated"][i]
                assert out["rewards"][i].tolist() == pytest.approx(singles[i].returns(), abs=1e-7)
                assert out["final_observation"][i].tolist() == singles[i].observation_tensor(seat).tolist()
                singles[i] = fresh()
                ended += 1
            else:
                assert not out["terminated"][i]
    assert ended >= 1


@pytest.mark.parametrize("name", GAMES)
def test_a_seat_against_a_level_sees_only_its_own_turns(name):
    env = nutcore.VectorEnv(name, 3, players=2, seed=1, seat=0, opponents="level:2", threads=2)
    out = env.reset()
    for _ in range(40):
        for i in range(env.num_envs):
            state = env.state(i)
            assert state.current_player() == 0 and out["current_player"][i] == 0
            assert out["observation"][i].tolist() == state.observation_tensor(0).tolist()
        out = env.step(env.random_actions(), out=out)
    same = nutcore.VectorEnv(name, 3, players=2, seed=1, seat=0, opponents="level:2", threads=1)
    a, b = env.reset(), same.reset()
    assert all(np.array_equal(a[k], b[k]) for k in a)  # the opponents' searches are seeded alike


def test_num_envs_and_memory_are_capped():
    """Refused before anything is allocated: more environments than the cap, or more memory (the
    states and the arrays) than the cap; the messages name the caps."""
    cap = nutcore.VectorEnv.MAX_NUM_ENVS
    for n in (cap + 1, 2**24, 2**64):
        with pytest.raises(ValueError, match=rf"num_envs .*\(1\.\.{cap}\b"):
            nutcore.VectorEnv("ritter", n)
    # Within the count, but past the memory cap: a 4-player Nutz! row (395 floats of observation,
    # a learner's final observation and a batched search's leaves) takes several KB.
    mib = nutcore.VectorEnv.MAX_BYTES >> 20
    with pytest.raises(ValueError, match=f"the cap is {mib} MiB"):
        nutcore.VectorEnv("nutz", cap, players=4, seat=0)
    with pytest.raises(ValueError, match=f"the cap is {mib} MiB"):
        nutcore.VectorEnv("auf_die_nuesse", cap // 2, players=4, chance="external")
    assert nutcore.VectorEnv("ritter", cap // 8, players=2).num_envs == cap // 8


def test_opponents_need_a_seat():
    for spec in ("bogus", "random", "greedy", "level:3"):
        with pytest.raises(ValueError, match="give seat= too"):
            nutcore.VectorEnv("nutz", 2, opponents=spec)
    for spec in ("bogus", "", "level:12", "ismcts:iterations=0", "greedy:noise=2", "mcts"):
        with pytest.raises(ValueError):
            nutcore.VectorEnv("nutz", 2, seat=0, opponents=spec)
    assert nutcore.VectorEnv("nutz", 2).opponents is None
    assert nutcore.VectorEnv("nutz", 2, seat=1, opponents="greedy").opponents == "greedy"


def test_opponents_budgets_are_capped():
    """A searching opponent takes iterations up to the cap per move, no time limit and no threads
    of its own, and expectimax up to the depth cap; every level of every game is within them."""
    iterations, depth = nutcore.VectorEnv.MAX_ITERATIONS, nutcore.VectorEnv.MAX_OPPONENT_DEPTH
    refused = [
        ("ritter", f"ismcts:iterations={iterations + 1}", f"at most {iterations}"),
        ("nutz", f"pimc:iterations={iterations + 1},noise=0.1", f"at most {iterations}"),
        ("purzelbaum", "mcts:iterations=1000000000", f"at most {iterations}"),
        ("auf_die_nuesse", f"expectimax:depth={depth + 1}", f"at most {depth}"),
        ("purzelbaum", "expectimax:depth=64", f"at most {depth}"),
        ("ritter", "ismcts:time_limit=0.5", "time_limit"),
        ("auf_die_nuesse", "auto:time_limit=1,iterations=100", "time_limit"),
        ("nutz", "ismcts:threads=2", "threads"),
    ]
    for game, spec, message in refused:
        with pytest.raises(ValueError, match=message):
            nutcore.VectorEnv(game, 2, seat=0, opponents=spec)
    for game, spec in [
        ("ritter", f"ismcts:iterations={iterations}"),
        ("auf_die_nuesse", f"expectimax:depth={depth}"),
        ("purzelbaum", f"mcts:iterations={iterations},memory=0.5"),
    ]:
        assert nutcore.VectorEnv(game, 2, seat=0, opponents=spec).opponents == spec
    for game in GAMES:
        for level in range(1, 12):
            nutcore.VectorEnv(game, 1, seat=0, opponents=f"level:{level}")


def test_seat_mode_arguments():
    with pytest.raises(ValueError):
        nutcore.VectorEnv("nutz", 2, players=2, seat=2)
    with pytest.raises(ValueError):
        nutcore.VectorEnv("nutz", 2, seat=0, opponents="mcts")  # Nutz! offers no MCTS
    with pytest.raises(ValueError):
        nutcore.VectorEnv("nutz", 2, seat=0, opponents="chess")
    with pytest.raises(ValueError):
        nutcore.VectorEnv("ritter", 2, seat=0, opponents="ismcts:reuse=true")
    env = nutcore.VectorEnv("nutz", 2, seat=1)
    assert env.seat == 1 and env.opponents == "random"
    assert nutcore.VectorEnv("nutz", 2).seat is None


@pytest.mark.parametrize("name", [g for g in GAMES if nutcore.load_game(g).hidden_information])
def test_twin_positions_give_the_same_rows(name):
    """A row is a function of what its seat knows: twin positions (the hidden cards drawn again
    from the seat to move's knowledge), set in two environments, give equal rows."""
    game = nutcore.load_game(name, players=3)
    rng = random.Random(4)
    checked = 0
    for _ in range(100):
        state = play_randomly(game.new_initial_state(), rng, max_steps=rng.randrange(1, 120))
        while state.is_chance_node():
            random_step(state, rng)
        if state.is_terminal():
            continue
        seat = state.current_player()
        twin = next((t for s in range(40) if (t := state.resample_from_infostate(seat, s)) != state), None)
        if twin is None:
            continue
        for mode in ({}, {"seat": seat, "opponents": "greedy"}):
            env = nutcore.VectorEnv(game, 2, seed=1, **mode)
            out = env.reset()
            env.set_state(0, state, out)
            env.set_state(1, twin, out)
            assert env.state(0) != env.state(1)
            for k in out:
                assert np.array_equal(out[k][0], out[k][1]), k
        checked += 1
    assert checked >= 20
