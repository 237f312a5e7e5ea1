"""A seat of a nutcore game against fixed opponents, as a Gymnasium vector environment
(docs/vector.md): the "agent against fixed opponents" setting, for tools that take Gymnasium's
vector API. Needs the extra nutcore[pettingzoo] (which brings gymnasium).

    import nutcore.gymnasium
    envs = nutcore.gymnasium.SeatVectorEnv("ritter", 256, seat=0, opponents="level:3")
    obs, info = envs.reset(seed=1)       # obs: {"observation": [N, O], "action_mask": [N, A]}
    obs, reward, terminated, truncated, info = envs.step(actions)

It steps a nutcore.VectorEnv in its seat mode: the other seats move inside, every row is at the
learner's turn, and a finished game starts again within the same step (Gymnasium's same-step
autoreset: info["final_obs"] holds the learner's last observation of the game that ended).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from .vector import VectorEnv

# A batch of observations: the seat's observation and its legal moves as a mask.
Observation = dict[str, npt.NDArray[Any]]

__all__ = ["SeatVectorEnv"]


class SeatVectorEnv(gymnasium.vector.VectorEnv):
    """num_envs games of `game`, the learner at `seat`, the other seats played by `opponents` (a
    bot spec). Observations are dicts of the seat's observation tensor and its legal-action mask;
    the reward is the seat's return on the step a game ends (its share of the win), else 0. The
    games end by their own rules, so nothing is truncated."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        game: str,
        num_envs: int,
        seat: int = 0,
        opponents: str = "random",
        players: int = 2,
        seed: int = 0,
        threads: int = 1,
        **params: Any,
    ):
        self.env = VectorEnv(
            game, num_envs, players=players, seed=seed, threads=threads, seat=seat, opponents=opponents, **params
        )
        self.num_envs = self.env.num_envs
        self.seat = seat
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (self.env.observation_size,), np.float32),
                "action_mask": spaces.MultiBinary(self.env.num_actions),
            }
        )
        self.single_action_space = spaces.Discrete(self.env.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._out: dict[str, np.ndarray] | None = None

    def _observation(self, observation: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
        return {"observation": observation.copy(), "action_mask": mask.astype(np.int8)}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is None and self._out is not None:  # new games, not the same ones again
            seed = int(self.np_random.integers(1 << 62))
        self._out = self.env.reset(seed=seed)
        return self._observation(self._out["observation"], self._out["legal_mask"]), {}

    def step(
        self, actions: Any
    ) -> tuple[Observation, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        if self._out is None:
            raise ValueError("step: call reset first")
        out = self.env.step(np.asarray(actions), out=self._out)
        self._out = out
        terminated = out["terminated"].copy()
        reward = out["rewards"][:, self.seat].astype(np.float64)
        info: dict[str, Any] = {}
        if terminated.any():
            final = np.full(self.num_envs, None, dtype=object)
            final_info = np.full(self.num_envs, None, dtype=object)
            lengths = out["episode_length"]
            for i in np.flatnonzero(terminated):
                mask = np.zeros(self.env.num_actions, np.int8)  # a finished game offers no move
                final[i] = {"observation": out["final_observation"][i].copy(), "action_mask": mask}
                final_info[i] = {"episode_length": int(lengths[i]), "returns": out["rewards"][i].copy()}
            info = {"final_obs": final, "_final_obs": terminated.copy(), "final_info": final_info}
            info["_final_info"] = terminated.copy()
        observation = self._observation(out["observation"], out["legal_mask"])
        return observation, reward, terminated, np.zeros(self.num_envs, np.bool_), info
