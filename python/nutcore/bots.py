"""Bots: one interface (`step(state) -> action`) over every way nutcore can choose a move.

nutcore's own bots are made in C++ from one spec grammar (cpp/engine/bots.h): `random`, `greedy`,
`auto`, `mcts`, `ismcts`, `pimc`, `expectimax`, `solver` with their settings, `memory=`, `noise=`,
`reuse=` and `level:N`. Python subclasses of `Bot` play in matches and tournaments alike.
"""

from __future__ import annotations

import random
from typing import Any

from . import _checks, _core
from ._core import StopToken
from ._types import StateLike


class Bot:
    """Chooses an action at a decision node. `reset(seed)` is called before every game. The state
    may be an adapter wrapping a native one in `state.nutcore_state` (nutcore.openspiel's states).

    nutcore's own bots also take `step(state, stop=token)`: a nutcore.StopToken whose stop() ends
    the bot's search early from another thread (its best move so far, or nutcore.SearchStopped
    where an exact search has none yet)."""

    name = "bot"

    def reset(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def step(self, state: StateLike) -> int:
        raise NotImplementedError

    def __repr__(self) -> str:
        return self.name


class NativeBot(Bot):
    """One of nutcore's own bots: the C++ bot a spec makes (nutcore.make_bot)."""

    _spec: str

    def __init__(self, native: _core.Bot):
        self._native = native

    @property
    def name(self) -> str:
        return self._native.name

    @name.setter
    def name(self, value: str) -> None:
        self._native.name = value

    @property
    def memory(self) -> float:
        return self._native.memory

    @property
    def noise(self) -> float:
        return self._native.noise

    def reset(self, seed: int) -> None:
        self._native.reset(_checks.seed(seed, f"bot {self.name}: seed"))

    def step(self, state: StateLike, stop: StopToken | None = None) -> int:
        return self._native.step(_checks.native_state(state), stop)

    def __getstate__(self) -> dict[str, Any]:  # pickles as its spec (a fresh bot: reset it)
        return {"name": self.name, "spec": self._spec}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._native = _core.Bot(state["spec"])
        self._spec = state["spec"]
        self.name = state["name"]


def _native(spec: str, settings: dict[str, Any] | None = None) -> _core.Bot:
    return _core.Bot(spec, settings)


class RandomBot(NativeBot):
    """Uniformly random legal actions."""

    def __init__(self, seed: int = 0):
        super().__init__(_native("random", {"seed": seed}))
        self._spec = "random"
        self.reset(seed)


class GreedyBot(NativeBot):
    """The game's greedy policy, computed in C++ (each game's rules document describes it), with
    memory=R (the chance of remembering each fact the game asks a player to memorise, drawn afresh
    at every move) and noise=P (the chance of a uniformly random legal move instead)."""

    def __init__(self, memory: Any = 1.0, noise: Any = 0.0):
        super().__init__(_native("greedy", {"memory": memory, "noise": noise}))
        self._spec = self.name


class SearchBot(NativeBot):
    """best_move with fixed settings; every move gets its own seed from the bot's generator.
    `memory` and `noise` (see GreedyBot) apply to every algorithm; reuse=True keeps the search tree
    from one move to the next (auto, mcts and ismcts)."""

    def __init__(self, algorithm: str, memory: Any = 1.0, noise: Any = 0.0, reuse: Any = False, **settings: Any):
        if not isinstance(algorithm, str):
            raise ValueError(f"best_move: algorithm must be a name, got {algorithm!r}")
        parts = {**settings, "memory": memory, "noise": noise, **({"reuse": reuse} if reuse is not False else {})}
        super().__init__(_native(algorithm, parts))
        self._spec = self.name

    @property
    def algorithm(self) -> str:
        return self._native.kind

    @property
    def settings(self) -> dict[str, Any]:
        return self._native.settings


class LevelBot(NativeBot):
    """make_bot("level:N"): the game's level N (level_settings), a greedy or search bot chosen by
    the game of the state it is asked about (one bot may play several games)."""

    def __init__(self, level: int):
        self._spec = f"level:{level}"
        super().__init__(_native(self._spec))
        self.level = level

    def for_game(self, game: str, players: int = 0) -> NativeBot:
        """A bot that plays as this level does on `game` at `players` (a new one, named as the
        level; 0: as the game declares it, whatever the player count)."""
        spec = _core.level_spec(game, self.level, players)
        bot = NativeBot(_native(spec))
        bot._spec = spec
        bot.name = self.name
        return bot


NUM_LEVELS: int = _core.NUM_LEVELS  # levels are 1..NUM_LEVELS on every game (C++ kNumLevels)


def level_settings(game: str, level: int, players: int | None = None) -> tuple[str, dict[str, Any]]:
    """What level N is on a game: ("greedy" or a search algorithm, its settings), from the game's
    own table (its declaration in C++) or the generic one. Level 11 is the learned search; with
    `players`, a level that needs a trained network the engine lacks for that player count is the
    level below it."""
    level = _checks.integer(level, "level", 1, NUM_LEVELS)
    players = 0 if players is None else _checks.integer(players, "players", 1, 16)
    parts = _core.parse_bot_spec(_core.level_spec(game, level, players))
    options = dict(parts["settings"])
    options.update({k: parts[k] for k in ("noise", "memory") if k in parts})
    return parts["kind"], options


# The generic table, weakest first (a game may set its own: docs/levels.md).
LEVELS = {n: level_settings("", n) for n in range(1, NUM_LEVELS + 1)}


def make_bot(spec: str) -> Bot:
    """A bot from a spec such as "random", "greedy", "auto:iterations=2000" (best_move's "auto":
    the game's own choice), "mcts:iterations=2000,threads=2", "ismcts:iterations=1000",
    "pimc:determinizations=10", "expectimax:depth=3", "solver", or a difficulty level "level:1"
    (weakest) to "level:11" (the learned search, where the game has a trained network). Greedy and
    search bots also take memory=R and noise=P (imperfect memory, random slips: see GreedyBot).
    Each setting is given once; an empty one (a stray comma) is an error."""
    native = _core.Bot(spec)  # the grammar and every check, in C++
    if native.kind == "level":
        bot: NativeBot = LevelBot(native.level)
    else:
        bot = NativeBot(native)
        bot._spec = spec
    return bot


def check_bot_for(bot: object, state: StateLike) -> None:
    """ValueError unless `bot` can play `state`'s game (a search the game offers)."""
    if not isinstance(bot, Bot):
        raise ValueError(f"not a bot: {bot!r} (give a nutcore.Bot or a spec such as 'greedy')")
    native = _checks.checked_state(_checks.native_state(state), "bot")
    if isinstance(bot, NativeBot):
        bot._native.check_for(native)
