"""Bots: one interface (`step(state) -> action`) over every way nutcore can choose a move."""

from __future__ import annotations

import random
from typing import Any

from . import _checks, _core
from .search import ALL_ALGORITHMS, best_move, search_config


class Bot:
    """Chooses an action at a decision node. `reset(seed)` is called before every game. The state
    may be an adapter wrapping a native one in `state.nutcore_state` (nutcore.openspiel's states)."""

    name = "bot"

    def reset(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def step(self, state) -> int:
        raise NotImplementedError

    def __repr__(self) -> str:
        return self.name


class RandomBot(Bot):
    """Uniformly random legal actions."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.reset(_checks.seed(seed, "random bot: seed"))

    def step(self, state) -> int:
        return self._rng.choice(state.legal_actions())


class GreedyBot(Bot):
    """The game's greedy policy, computed in C++ (each game's rules document describes it)."""

    name = "greedy"

    def step(self, state) -> int:
        return _core.greedy_action(_checks.native_state(state))


class SearchBot(Bot):
    """best_move with fixed settings; every move gets its own seed from the bot's generator."""

    def __init__(self, algorithm: str, **settings: Any):
        search_config(algorithm, **settings)  # bad settings fail here, not at the first move
        self.algorithm = algorithm
        self.settings = settings
        self.name = algorithm + "".join(f":{k}={v}" for k, v in settings.items())
        self.reset(0)

    def step(self, state) -> int:
        state = _checks.native_state(state)
        if self.algorithm == "solver":
            return self._solver_step(state)
        if len(state.legal_actions()) == 1:
            return state.legal_actions()[0]
        return best_move(state, self.algorithm, seed=self._rng.getrandbits(62), **self.settings).action

    def _solver_step(self, state) -> int:
        # Where the game's solver applies it decides; the greedy policy does the rest.
        if _core.solver_applies(state):
            return best_move(state, "solver").action
        return _core.greedy_action(state)


def _parse_value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def make_bot(spec: str) -> Bot:
    """A bot from a spec such as "random", "greedy", "mcts:iterations=2000,threads=2",
    "ismcts:iterations=1000", "pimc:determinizations=10", "expectimax:depth=3" or "solver"."""
    if not isinstance(spec, str):
        raise ValueError(f"a bot spec is a string such as 'mcts:iterations=2000', got {spec!r}")
    name, _, rest = spec.partition(":")
    settings = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq:
            raise ValueError(f"bot spec {spec!r}: expected key=value, got {item!r}")
        settings[key.strip()] = _parse_value(value.strip())
    if name == "random":
        if set(settings) - {"seed"}:
            raise ValueError(f"the random bot takes no settings but seed, got {sorted(settings)}")
        return RandomBot(**settings)
    if name == "greedy":
        if settings:
            raise ValueError("the greedy bot takes no settings")
        return GreedyBot()
    known = sorted(ALL_ALGORITHMS)
    if name not in known:
        raise ValueError(f"unknown bot {name!r}; choose from random, greedy, {', '.join(known)}")
    if name in ("mcts", "ismcts", "pimc"):
        settings.setdefault("iterations", 1000)
    return SearchBot(name, **settings)


def check_bot_for(bot: Bot, state) -> None:
    if not isinstance(bot, Bot):
        raise ValueError(f"not a bot: {bot!r} (give a nutcore.Bot or a spec such as 'greedy')")
    state = _checks.native_state(state)
    _checks.state_game_name(state, "bot")
    if isinstance(bot, SearchBot) and bot.algorithm not in type(state).algorithms:
        raise ValueError(f"bot {bot.name} is not available for this game")
