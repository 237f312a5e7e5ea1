"""nutcore.gymnasium.SeatVectorEnv: a VectorEnv's seat mode under Gymnasium's vector API (spaces,
same-step autoreset and its final observations, seeding, and one of Gymnasium's own wrappers)."""

from __future__ import annotations

import numpy as np
import pytest

import nutcore

gymnasium = pytest.importorskip(
    "gymnasium", reason="nutcore.gymnasium needs Gymnasium: pip install 'nutcore[pettingzoo]'"
)
from nutcore.gymnasium import SeatVectorEnv  # noqa: E402


def legal_sample(rng, obs):
    return np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])


@pytest.mark.parametrize("name", nutcore.list_games())
def test_spaces_steps_and_same_step_autoreset(name):
    envs = SeatVectorEnv(name, 6, seat=1, opponents="greedy", players=2, seed=3, threads=2)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    obs, info = envs.reset(seed=5)
    assert envs.observation_space.contains(obs) and info == {}
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        actions = legal_sample(rng, obs)
        assert envs.action_space.contains(actions)
        obs, reward, terminated, truncated, info = envs.step(actions)
        assert envs.observation_space.contains(obs)
        assert reward.shape == (6,) and terminated.dtype == np.bool_ and not truncated.any()
        assert not reward[~terminated].any()
        if terminated.any():
            assert (info["_final_obs"] == terminated).all()
            for i in np.flatnonzero(terminated):
                final = info["final_obs"][i]
                assert envs.single_observation_space.contains(final)
                assert reward[i] == pytest.approx(info["final_info"][i]["returns"][1])
                finished += 1
        else:
            assert "final_obs" not in info
    assert finished >= 1


def test_seeding():
    envs = SeatVectorEnv("purzelbaum", 4, seat=0)
    a, _ = envs.reset(seed=9)
    b, _ = envs.reset(seed=9)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    c, _ = envs.reset()  # new games from the seeded generator, the same ones for the same seed
    d, _ = SeatVectorEnv("purzelbaum", 4, seat=0).reset(seed=9)
    e, _ = envs.reset(seed=9)
    envs2 = SeatVectorEnv("purzelbaum", 4, seat=0)
    envs2.reset(seed=9)
    f, _ = envs2.reset()
    assert all(np.array_equal(c[k], f[k]) for k in c)
    assert all(np.array_equal(d[k], e[k]) for k in d)


def test_gymnasium_s_episode_statistics_wrapper():
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    envs = RecordEpisodeStatistics(SeatVectorEnv("auf_die_nuesse", 8, seat=0, opponents="random", seed=2))
    obs, _ = envs.reset(seed=1)
    rng = np.random.default_rng(1)
    episodes = []
    for _ in range(300):
        obs, reward, terminated, truncated, info = envs.step(legal_sample(rng, obs))
        if "episode" in info:
            episodes += list(info["episode"]["r"][info["_episode"]])
    assert episodes and all(0 <= r <= 1 for r in episodes)


def test_an_illegal_action_is_a_value_error():
    envs = SeatVectorEnv("nutz", 2, seat=0)
    obs, _ = envs.reset(seed=0)
    bad = np.array([next(a for a in range(envs.single_action_space.n) if not m[a]) for m in obs["action_mask"]])
    with pytest.raises(ValueError):
        envs.step(bad)
    with pytest.raises(ValueError):
        SeatVectorEnv("nutz", 2, seat=0).step(np.zeros(2, np.int64))
