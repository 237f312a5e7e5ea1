"""nutcore.pettingzoo on every game: PettingZoo's own suites (api_test, seed_test, render_test), and
what they do not check: observations that never depend on what a seat has not seen, chance resolved
inside the env, seeding, pickling mid-game, illegal actions, bounds and rendering."""

from __future__ import annotations

import functools
import pickle
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="nutcore.pettingzoo needs PettingZoo: pip install 'nutcore[pettingzoo]'")

from gymnasium.utils.env_checker import data_equivalence  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

import nutcore  # noqa: E402
from nutcore import pettingzoo as nzpz  # noqa: E402
from playing import table_seats  # noqa: E402

GAMES = nutcore.list_games()
HIDDEN = [name for name in GAMES if nutcore.load_game(name).hidden_information]

# api_test's advice for observations that are not plain arrays; PettingZoo exempts its own classic
# environments (dict observations holding an action mask, as here) by name. Any other warning fails.
EXPECTED_API_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}


def run_checking_warnings(check, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check(*args, **kwargs)
    unexpected = {str(w.message) for w in caught} - EXPECTED_API_WARNINGS
    assert not unexpected, unexpected


def random_action(env, rng):
    """A uniformly random legal action of the agent to act, from its mask (None once it is done)."""
    observation, _, termination, truncation, _ = env.last()
    if termination or truncation:
        return None
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def play(env, seed, policy_seed=0, steps=None):
    """Resets with `seed` and plays random legal actions (`steps` of them, or to the end); returns the
    native history (decisions and chance outcomes)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    done = 0
    while env.agents and (steps is None or done < steps):
        env.step(random_action(env, rng))
        done += 1
    return env.unwrapped.nutcore_state.history()


# --- PettingZoo's suites ---


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game", GAMES)
def test_api_test(game, players):
    # One full game (a game is well under num_cycles rounds), then api_test's short checks.
    run_checking_warnings(api_test, nzpz.env(game, players=players), num_cycles=1000)


@pytest.mark.parametrize("game", GAMES)
def test_seed_test(game):
    run_checking_warnings(seed_test, functools.partial(nzpz.env, game, players=2), num_cycles=1000)


@pytest.mark.parametrize("game", GAMES)
def test_render_test(game):
    run_checking_warnings(
        render_test,
        functools.partial(nzpz.env, game, players=2),
        custom_tests={"ansi": lambda text: isinstance(text, str) and text != ""},
    )


# --- the environment's contract ---


@pytest.mark.parametrize("game", GAMES)
def test_agents_spaces_and_metadata(game):
    seats = table_seats(game)
    env = nzpz.env(game, players=seats)
    native = nutcore.load_game(game, players=seats)
    assert env.possible_agents == [f"player_{p}" for p in range(seats)]
    assert env.metadata["name"] == f"nutcore_{game}"
    assert env.metadata["render_modes"] == ["ansi", "human"]
    assert env.metadata["is_parallelizable"] is False
    env.reset(seed=0)
    for agent in env.possible_agents:
        space = env.observation_space(agent)
        assert space["observation"].shape == tuple(native.observation_tensor_shape())
        assert space["observation"].dtype == np.float32
        assert space["action_mask"].shape == (native.num_distinct_actions(),)
        assert space["action_mask"].dtype == np.int8
        assert env.action_space(agent).n == native.num_distinct_actions()
        assert space is env.observation_space(agent)
        assert space.contains(env.observe(agent))


@pytest.mark.parametrize("game", GAMES)
def test_observation_bounds_hold_in_random_games(game):
    """Every tensor of every seat at every node of many random games lies in the declared Box (for
    hidden-information games -inf..inf, so this asks for finite values, no NaN)."""
    rng = np.random.default_rng(11)
    for players in (2, 3, 4):
        native = nutcore.load_game(game, players=players)
        box = nzpz.raw_env(game, players=players).observation_space("player_0")["observation"]
        for _ in range(12):
            state = native.new_initial_state()
            tensors = []
            while True:
                tensors.extend(state.observation_tensor(seat) for seat in range(players))
                if state.is_terminal():
                    break
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes())
                    state.apply_action(actions[rng.choice(len(actions), p=probs)])
                else:
                    state.apply_action(int(rng.choice(state.legal_actions())))
            tensors = np.stack(tensors)
            assert tensors.dtype == np.float32 and np.isfinite(tensors).all()
            assert (tensors >= box.low).all() and (tensors <= box.high).all()


@pytest.mark.parametrize("game", GAMES)
def test_chance_is_never_exposed_and_rewards_are_the_returns(game):
    env = nzpz.env(game, players=table_seats(game))
    rng = np.random.default_rng(2)
    for seed in range(3):
        env.reset(seed=seed)
        decisions, finished = 0, {}
        for agent in env.agent_iter():
            state = env.unwrapped.nutcore_state
            observation, reward, termination, truncation, info = env.last()
            assert not state.is_chance_node() and not truncation
            if termination:
                assert state.is_terminal()
                finished[agent] = reward
                env.step(None)
                continue
            assert agent == f"player_{state.current_player()}"
            legal = np.flatnonzero(observation["action_mask"]).tolist()
            assert legal == sorted(state.legal_actions()) == sorted(info["legal_actions"])
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
                    assert env.infos[other]["legal_actions"] == []
            decisions += 1
            env.step(random_action(env, rng))
        assert not env.agents
        assert finished == {f"player_{i}": value for i, value in enumerate(state.returns())}
        assert len(state.history()) > decisions  # chance happened, inside the env


@pytest.mark.parametrize("game", GAMES)
def test_the_same_seed_gives_the_same_game(game):
    first = play(nzpz.env(game, players=2), seed=7)
    assert play(nzpz.env(game, players=2), seed=7) == first
    assert any(play(nzpz.env(game, players=2), seed=seed) != first for seed in (8, 9, 10))
    env = nzpz.env(game, players=2)
    assert play(env, seed=7) == first
    env.reset()  # no seed: the generator's stream goes on, a new game
    rng = np.random.default_rng(0)
    for _ in env.agent_iter():
        env.step(random_action(env, rng))
    assert env.unwrapped.nutcore_state.history() != first


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, True, "1"])
def test_bad_seeds_are_value_errors(seed):
    with pytest.raises(ValueError, match="seed"):
        nzpz.env(GAMES[0]).reset(seed=seed)


@pytest.mark.parametrize("game", GAMES)
def test_pickle_mid_game_continues_identically(game):
    for make in (nzpz.env, nzpz.raw_env):
        env = make(game, players=2)
        play(env, seed=3, steps=25)
        twin = pickle.loads(pickle.dumps(env))
        assert twin.unwrapped.nutcore_state == env.unwrapped.nutcore_state
        rng_a, rng_b = np.random.default_rng(4), np.random.default_rng(4)
        for agent_a, agent_b in zip(env.agent_iter(), twin.agent_iter()):
            assert agent_a == agent_b
            assert data_equivalence(env.last(), twin.last())
            env.step(random_action(env, rng_a))
            twin.step(random_action(twin, rng_b))
        assert not env.agents and not twin.agents
        assert env.unwrapped.nutcore_state.history() == twin.unwrapped.nutcore_state.history()
    pickle.loads(pickle.dumps(nzpz.env(game)))  # before reset too


def twin_view(env, state, agent):
    """The observation and rendering for `agent` of an env holding `state` instead of env's state."""
    twin = pickle.loads(pickle.dumps(env.unwrapped))
    twin._state = state  # the env's own state slot, then its usual bookkeeping (no chance to resolve here)
    twin._advance()
    twin.render_agent = agent
    return twin.observe(agent), twin.render()


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("game", HIDDEN)
def test_an_observation_never_depends_on_unseen_cards(game, players):
    """States that a seat cannot tell apart (resample_from_infostate) give it identical observations
    and renderings; another seat's may differ, and does somewhere (so the check can see a leak)."""
    env = nzpz.raw_env(game, players=players, render_mode="ansi")
    rng = np.random.default_rng(3)
    checked = others_differ = 0
    for episode in range(2):
        env.reset(seed=episode)
        step = 0
        while not env.terminations[env.agent_selection]:
            if step % 9 == 0:
                state = env.nutcore_state
                for seat, agent in enumerate(env.possible_agents):
                    env.render_agent = agent
                    mine, text = env.observe(agent), env.render()
                    for k in range(3):
                        other = state.resample_from_infostate(seat, seed=100 * step + k)
                        observation, rendered = twin_view(env, other, agent)
                        assert data_equivalence(observation, mine)
                        assert rendered == text
                        checked += 1
                        others_differ += any(
                            not data_equivalence(twin_view(env, other, someone)[0], env.observe(someone))
                            for someone in env.possible_agents
                            if someone != agent
                        )
            env.step(random_action(env, rng))
            step += 1
    assert checked > 0 and others_differ > 0


@pytest.mark.parametrize("game", GAMES)
def test_rendering_shows_the_board_or_one_seats_view(game):
    env = nzpz.env(game, players=2, render_mode="ansi")
    watcher = nzpz.env(game, players=2, render_mode="ansi", render_agent="player_1")
    rng = np.random.default_rng(6)
    hidden = nutcore.load_game(game).hidden_information
    env.reset(seed=5)
    watcher.reset(seed=5)
    for agent in env.agent_iter():
        state = env.unwrapped.nutcore_state
        if hidden:
            assert env.render() == state.observation_string(env.possible_agents.index(agent))
            assert watcher.render() == state.observation_string(1)
        else:
            assert env.render() == watcher.render() == str(state)
        action = random_action(env, rng)
        env.step(action)
        watcher.step(action)


def test_human_rendering_prints(capsys):
    env = nzpz.env(GAMES[0], render_mode="human")
    env.reset(seed=0)  # human mode renders on reset and step
    assert env.render() is None
    shown = nzpz.env(GAMES[0], render_mode="ansi")
    shown.reset(seed=0)
    assert capsys.readouterr().out == (shown.render() + "\n") * 2


def test_render_without_a_mode_warns():
    env = nzpz.env(GAMES[0])
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert env.render() is None


# --- illegal actions and bad arguments ---


def illegal_action(env):
    mask = env.observe(env.agent_selection)["action_mask"]
    return int(np.flatnonzero(mask == 0)[0])


@pytest.mark.parametrize("game", GAMES)
def test_raw_env_rejects_an_illegal_action_and_keeps_the_game(game):
    env = nzpz.raw_env(game, players=2)
    env.reset(seed=1)
    before, agent = env.nutcore_state, env.agent_selection
    bad = illegal_action(env)
    with pytest.raises(ValueError, match=f"action {bad} is not legal for {agent}"):
        env.step(bad)
    assert env.nutcore_state == before and env.agent_selection == agent


@pytest.mark.parametrize("game", GAMES)
def test_env_ends_the_game_on_an_illegal_action(game):
    env = nzpz.env(game, players=table_seats(game))
    env.reset(seed=1)
    offender = env.agent_selection
    env.step(illegal_action(env))
    rewards = {}
    for agent in env.agent_iter():
        _, reward, termination, truncation, _ = env.last()
        assert termination or truncation
        assert not env.observe(agent)["action_mask"].any()
        with pytest.raises(ValueError, match="done"):
            env.step(0)
        rewards[agent] = reward
        env.step(None)
    assert rewards == {agent: (-1 if agent == offender else 0) for agent in env.possible_agents}


@pytest.mark.parametrize("make", [nzpz.env, nzpz.raw_env])
@pytest.mark.parametrize("action", [None, -1, 10**6, 1.0, True, "0", np.float32(0)])
def test_values_that_are_not_actions_are_value_errors(make, action):
    env = make(GAMES[0])
    env.reset(seed=0)
    before = env.unwrapped.nutcore_state
    with pytest.raises(ValueError, match="player_"):
        env.step(action)
    assert env.unwrapped.nutcore_state == before


def test_numpy_integer_actions_are_accepted():
    env = nzpz.env(GAMES[0])
    env.reset(seed=0)
    action = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]
    env.step(np.int32(action))
    assert env.unwrapped.nutcore_state.history()


def test_a_dead_agent_steps_with_none_only_and_then_the_game_is_over():
    env = nzpz.raw_env(GAMES[0])
    play(env, seed=0)
    assert not env.agents
    with pytest.raises(ValueError, match="reset"):
        env.step(None)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"game": "chess"}, "unknown game"),
        ({"game": GAMES[0], "players": 5}, "players"),
        ({"game": GAMES[0], "render_mode": "rgb_array"}, "render_mode"),
        ({"game": GAMES[0], "render_agent": "player_7"}, "render_agent"),
        ({"game": GAMES[0], "no_such_parameter": 1}, "no_such_parameter"),
    ],
)
def test_bad_arguments_are_value_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        nzpz.env(**kwargs)


def test_unknown_agents_and_calls_before_reset_are_value_errors():
    env = nzpz.raw_env(GAMES[0])
    with pytest.raises(ValueError, match="reset"):
        env.observe("player_0")
    with pytest.raises(ValueError, match="reset"):
        env.step(0)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="unknown agent"):
        env.observe("player_2")
    with pytest.raises(ValueError, match="unknown agent"):
        env.action_space("nobody")
