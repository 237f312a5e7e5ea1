"""PettingZoo AEC environments for every nutcore game (optional extra: pip install "nutcore[pettingzoo]").

    >>> from nutcore import pettingzoo as nzpz
    >>> env = nzpz.env("ritter", players=3)
    >>> env.reset(seed=1)
    >>> for agent in env.agent_iter():
    ...     observation, reward, termination, truncation, info = env.last()
    ...     mask = observation["action_mask"]
    ...     env.step(None if termination or truncation else env.action_space(agent).sample(mask))

- Agents are "player_0".."player_{N-1}", seat i being player_i. An observation is a dict: "observation",
  the float32 `state.observation_tensor(seat)` (shape `game.observation_tensor_shape()`), which holds only
  what that seat knows; "action_mask", int8 of length `game.num_distinct_actions()`, 1 for the legal
  actions of the agent to act and all zeros for every other agent (and for everyone once the game is
  over). Action spaces are Discrete(num_distinct_actions).
- Observation bounds: for games of perfect information the tensor is the state's bytes (docs/information.md),
  so 0..255; hidden-information games encode raw counts and signed ratios that no generic bound covers,
  so their Box is -inf..inf.
- Chance is never an agent: after reset and after every step the env resolves chance nodes itself,
  sampling `state.chance_outcomes()` by their probabilities from its own numpy Generator (seeded by
  `reset(seed=...)`; `reset()` without a seed continues the same stream).
- Rewards are the terminal returns (win shares), given to every agent when the game ends; then all
  agents are terminated and must each be stepped with None. The games end themselves (turn caps), so
  nothing is ever truncated. infos[agent]["legal_actions"] lists the mask's actions.
- Illegal actions: `env()` follows PettingZoo's classic environments: an illegal move ends the game,
  the offender gets -1 and the others 0 (TerminateIllegalWrapper). A value that is not an action at all
  (out of range, not an integer, None for an agent that is to act) raises ValueError. `raw_env` raises
  ValueError for any illegal action and leaves the game unchanged.
- Rendering ("ansi" returns the text, "human" prints it, also after every reset and step): the board
  (`str(state)`) for games of perfect information. For hidden-information games the text is one seat's
  view, `observation_string(seat)`: the seat of `render_agent` if given (a human playing that seat sees
  only their own cards), otherwise of the agent selected to act, so that a viewer following the game
  sees each seat's view in its turn, never a whole hidden state.
- Environments pickle mid-game (game, state and generator included) and continue identically.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:  # pragma: no cover - depends on the installation
    raise ImportError(
        f"nutcore.pettingzoo needs PettingZoo and Gymnasium: pip install 'nutcore[pettingzoo]' ({e})"
    ) from e

from . import _checks
from ._types import State
from .games import load_game

__all__ = ["env", "raw_env"]


def env(
    game: str,
    players: int = 2,
    render_mode: str | None = None,
    render_agent: str | None = None,
    **game_params: Any,
) -> AECEnv:
    """A nutcore game as a PettingZoo AEC environment, wrapped as PettingZoo's classic environments are:
    illegal moves end the game (the offender gets -1), calls out of order are reported."""
    environment = raw_env(game, players, render_mode=render_mode, render_agent=render_agent, **game_params)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    # In place of PettingZoo's AssertOutOfBoundsWrapper: a ValueError survives `python -O`, an assert
    # would not, and the illegal-move wrapper inside indexes the mask with the action.
    environment = _ActionCheck(environment)
    return wrappers.OrderEnforcingWrapper(environment)


class _ActionCheck(wrappers.BaseWrapper):
    """Rejects with ValueError anything that is not an action of the action space (None only for an
    agent that is done)."""

    def step(self, action: Any) -> None:
        if self.agents:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                if action is not None:
                    raise ValueError(f"{agent} is done: the only valid action is None, got {action!r}")
            else:
                _action_id(action, agent, self.action_space(agent).n)
        super().step(action)

    def __str__(self) -> str:
        return str(self.env)  # as PettingZoo's own wrappers: the environment's name


def _action_id(action: Any, agent: str, num_actions: int) -> int:
    if action is None:
        raise ValueError(f"{agent} is to act: step(None) is only for an agent that is done")
    return _checks.integer(action, f"the action of {agent}", 0, num_actions - 1)


class raw_env(AECEnv):
    """The environment without wrappers; prefer `env()`. `raw_env` raises ValueError on illegal actions."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "nutcore", "is_parallelizable": False}

    def __init__(
        self,
        game: str,
        players: int = 2,
        render_mode: str | None = None,
        render_agent: str | None = None,
        **game_params: Any,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.game = load_game(game, players, **game_params)
        self.metadata = {**type(self).metadata, "name": f"nutcore_{self.game.name}"}
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.num_players())]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        if render_agent is not None and render_agent not in self._seats:
            raise ValueError(f"render_agent must be None or one of {self.possible_agents}, got {render_agent!r}")
        self.render_mode = render_mode
        self.render_agent = render_agent

        self._num_actions = self.game.num_distinct_actions()
        self._obs_shape = tuple(self.game.observation_tensor_shape())
        if self.game.hidden_information:
            low, high = -np.inf, np.inf
        else:
            low, high = 0.0, 255.0  # the state's bytes, one float each
        # One space object per agent, as the API asks (each is seeded on its own).
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, self._obs_shape, np.float32),
                    "action_mask": spaces.Box(0, 1, (self._num_actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(self._num_actions) for agent in self.possible_agents}
        self._rng: np.random.Generator | None = None
        self._state: State | None = None
        self._legal: list[int] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[self._known(agent)]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[self._known(agent)]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; `seed` seeds the env's chance generator (None: continue its stream). No options."""
        if seed is not None:
            self._rng = np.random.default_rng(_checks.seed(seed, "reset: seed"))
        elif self._rng is None:
            self._rng = np.random.default_rng()
        self._state = self.game.new_initial_state()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.agent_selection = self.possible_agents[0]
        self._skip_agent_selection = None  # left over by the previous game's dead steps
        self._advance()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def step(self, action: Any) -> None:
        if self._state is None:
            raise ValueError("call reset() before step()")
        if not self.agents:
            raise ValueError("the game is over and every agent is done: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = _action_id(action, agent, self._num_actions)
        if action not in self._legal:
            raise ValueError(f"action {action} is not legal for {agent}; legal actions: {self._legal}")
        self._cumulative_rewards[agent] = 0.0  # last() has handed it to the agent
        self._clear_rewards()
        self._state.apply_action(action)
        self._advance()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        seat = self._seats[self._known(agent)]
        if self._state is None:
            raise ValueError("call reset() before observe()")
        observation = np.asarray(self._state.observation_tensor(seat), dtype=np.float32).reshape(self._obs_shape)
        mask = np.zeros(self._num_actions, dtype=np.int8)
        if self._to_act(agent):
            mask[self._legal] = 1
        return {"observation": observation, "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (use 'ansi' or 'human').")
            return None
        if self._state is None:
            raise ValueError("call reset() before render()")
        if self.game.hidden_information:
            # Never the whole state: one seat's view (see the module's docstring).
            text = self._state.observation_string(self._seats[self.render_agent or self.agent_selection])
        else:
            text = str(self._state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass  # nothing to release: text rendering holds no window

    @property
    def nutcore_state(self) -> State | None:
        """A copy of the whole native state, hidden parts included (for analysis and tests; an agent
        should only see observe(agent))."""
        return None if self._state is None else self._state.clone()

    def _known(self, agent: str) -> str:
        if agent not in self._seats:
            raise ValueError(f"unknown agent {agent!r}; the agents are {self.possible_agents}")
        return agent

    def _to_act(self, agent: str) -> bool:
        # Not after an ending forced from outside (the illegal-move wrapper terminates a live game).
        return agent == self.agent_selection and bool(self._legal) and not self.terminations.get(agent, True)

    def _advance(self) -> None:
        """Resolves chance up to the next decision or the end; sets the agent to act, infos and, at the
        end, rewards and terminations."""
        state, rng = self._state, self._rng
        assert state is not None and rng is not None  # reset() made both
        while state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            cumulative = np.cumsum(probs)
            index = int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
            state.apply_action(actions[min(index, len(actions) - 1)])
        if state.is_terminal():
            self._legal = []
            for agent, value in zip(self.possible_agents, state.returns()):
                if agent in self.rewards:
                    self.rewards[agent] = float(value)
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self._legal = list(state.legal_actions())
            self.agent_selection = self.possible_agents[state.current_player()]
        self.infos = {
            agent: {"legal_actions": list(self._legal) if agent == self.agent_selection else []}
            for agent in self.agents
        }
