"""Bots: one interface (`step(state) -> action`) over every way nutcore can choose a move."""

from __future__ import annotations

import random
from typing import Any

from . import _checks, _core
from .games import level_overrides
from .search import ALL_ALGORITHMS, TREE_ALGORITHMS, SearchTree, best_move, search_config


class Bot:
    """Chooses an action at a decision node. `reset(seed)` is called before every game. The state
    may be an adapter wrapping a native one in `state.nutcore_state` (nutcore.openspiel's states).

    nutcore's own bots also take `step(state, stop=token)`: a nutcore.StopToken whose stop() ends
    the bot's search early from another thread (its best move so far, or nutcore.SearchStopped
    where an exact search has none yet)."""

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

    def step(self, state, stop=None) -> int:
        return self._rng.choice(state.legal_actions())


def _spec(name: str, settings: dict[str, Any]) -> str:
    """The bot spec that makes a bot with these settings: its name."""
    return name + (":" if settings else "") + ",".join(f"{k}={v}" for k, v in settings.items())


class _HumanLike:
    """Settings that make a bot play more like a person (difficulty levels):
    memory: the chance of remembering each fact the game asks a player to memorise (Ritter's thief
        cards seen, Purzelbaum's covered holes), drawn afresh at every move; 1 is perfect memory
        (state.forget; games with nothing to remember ignore it);
    noise: the chance of a uniformly random legal move instead of the bot's own."""

    memory = 1.0
    noise = 0.0

    def _set_human_like(self, memory: Any = 1.0, noise: Any = 0.0) -> dict[str, Any]:
        shown = {}
        for key, value in (("memory", memory), ("noise", noise)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
                raise ValueError(f"bot setting {key} must be a number in [0, 1], got {value!r}")
            setattr(self, key, float(value))
        if self.memory != 1:
            shown["memory"] = memory
        if self.noise != 0:
            shown["noise"] = noise
        return shown

    def _human_step(self, state, choose) -> int:
        legal = state.legal_actions()
        if self.noise and self._rng.random() < self.noise:
            return self._rng.choice(legal)
        if len(legal) == 1:
            return legal[0]
        if self.memory < 1:
            state = state.forget(state.current_player(), self.memory, self._rng.getrandbits(62))
        return choose(state)


class GreedyBot(_HumanLike, Bot):
    """The game's greedy policy, computed in C++ (each game's rules document describes it); with
    `memory` and `noise` as below."""

    def __init__(self, memory: Any = 1.0, noise: Any = 0.0):
        shown = self._set_human_like(memory, noise)
        self.name = _spec("greedy", shown)
        self.reset(0)

    def step(self, state, stop=None) -> int:
        return self._human_step(_checks.native_state(state), _core.greedy_action)


class SearchBot(_HumanLike, Bot):
    """best_move with fixed settings; every move gets its own seed from the bot's generator.
    `memory` and `noise` (see _HumanLike) apply to every algorithm."""

    def __init__(self, algorithm: str, memory: Any = 1.0, noise: Any = 0.0, reuse: Any = False, **settings: Any):
        search_config(algorithm, **settings)  # bad settings fail here, not at the first move
        if not isinstance(reuse, bool) or (reuse and algorithm not in TREE_ALGORITHMS):
            raise ValueError(f"reuse is true or false, for auto, mcts and ismcts only: got {reuse!r} for {algorithm}")
        self.algorithm = algorithm
        self.settings = settings
        # reuse: keep the search tree from one move to the next (nutcore.SearchTree).
        self._tree = SearchTree() if reuse else None
        shown = {**settings, **({"reuse": True} if reuse else {}), **self._set_human_like(memory, noise)}
        self.name = _spec(algorithm, shown)
        self.reset(0)

    def reset(self, seed: int) -> None:
        super().reset(seed)
        if self._tree is not None:
            self._tree.clear()

    def step(self, state, stop=None) -> int:
        state = _checks.native_state(state)
        if self.algorithm == "solver":
            return self._human_step(state, lambda s: self._solver_step(s, stop))
        return self._human_step(state, lambda s: self._search_step(s, stop))

    def _search_step(self, state, stop) -> int:
        seed = self._rng.getrandbits(62)
        return best_move(state, self.algorithm, seed=seed, stop=stop, tree=self._tree, **self.settings).action

    def _solver_step(self, state, stop) -> int:
        # Where the game's solver applies it decides; the greedy policy does the rest.
        if _core.solver_applies(state):
            return best_move(state, "solver", stop=stop).action
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


# Difficulty levels for front ends, weakest first: beginners are noisy, forgetful greedy players;
# from level 5 the game's own best_move ("auto") with a growing budget. A game may set some levels
# apart (nutcore.games.level_overrides) so that its levels are about equally spaced in rating
# (docs/levels.md).
LEVELS = {
    1: ("greedy", {"noise": 0.6, "memory": 0.3}),
    2: ("greedy", {"noise": 0.35, "memory": 0.5}),
    3: ("greedy", {"noise": 0.15, "memory": 0.7}),
    4: ("greedy", {"memory": 0.85}),
    5: ("auto", {"iterations": 30, "memory": 0.9}),
    6: ("auto", {"iterations": 100, "memory": 0.95}),
    7: ("auto", {"iterations": 300}),
    8: ("auto", {"iterations": 1000}),
    9: ("auto", {"iterations": 3000}),
    10: ("auto", {"iterations": 10000}),
}


def level_settings(game: str, level: int) -> tuple[str, dict[str, Any]]:
    """What level N is on a game: ("greedy" or a search algorithm, its settings)."""
    kind, options = level_overrides(game).get(level, LEVELS[level])
    return kind, dict(options)


class LevelBot(Bot):
    """make_bot("level:N"): the game's level N (level_settings), a greedy or search bot chosen by
    the game of the state it is asked about (one bot may play several games)."""

    def __init__(self, level: int):
        self.level = level
        self.name = f"level:{level}"
        self._bots: dict[str, Bot] = {}
        self.reset(0)

    def for_game(self, game: str) -> Bot:
        """The bot this level is on `game`, named as the level."""
        if game not in self._bots:
            kind, options = level_settings(game, self.level)
            bot = GreedyBot(**options) if kind == "greedy" else SearchBot(kind, **options)
            bot.name = self.name
            bot.reset(self._seed)
            self._bots[game] = bot
        return self._bots[game]

    def reset(self, seed: int) -> None:
        super().reset(seed)
        self._seed = seed
        for bot in self._bots.values():
            bot.reset(seed)

    def step(self, state, stop=None) -> int:
        return self.for_game(_checks.state_game_name(_checks.native_state(state), "level bot")).step(state, stop)


def _level_bot(spec: str) -> Bot:
    level = spec.partition(":")[2]
    if not level.isdigit() or int(level) not in LEVELS:
        raise ValueError(f"bot spec {spec!r}: a level is level:N with N in 1..{len(LEVELS)}")
    return LevelBot(int(level))


def make_bot(spec: str) -> Bot:
    """A bot from a spec such as "random", "greedy", "auto:iterations=2000" (best_move's "auto":
    the game's own choice), "mcts:iterations=2000,threads=2", "ismcts:iterations=1000",
    "pimc:determinizations=10", "expectimax:depth=3", "solver", or a difficulty level "level:1"
    (weakest) to "level:10" (LEVELS). Greedy and search bots also take memory=R and noise=P
    (imperfect memory, random slips: see _HumanLike). Each setting is given once; an empty one (a
    stray comma) is an error."""
    if not isinstance(spec, str):
        raise ValueError(f"a bot spec is a string such as 'mcts:iterations=2000', got {spec!r}")
    name, colon, rest = spec.partition(":")
    if name == "level":
        return _level_bot(spec)
    settings = {}
    for item in rest.split(",") if colon else []:
        key, eq, value = (part.strip() for part in item.partition("="))
        if not item.strip():
            raise ValueError(f"bot spec {spec!r}: an empty setting (a stray comma or colon?)")
        if not eq or not key:
            raise ValueError(f"bot spec {spec!r}: expected key=value, got {item!r}")
        if key in settings:
            raise ValueError(f"bot spec {spec!r}: {key} is given twice")
        settings[key] = _parse_value(value)
    if name == "random":
        if set(settings) - {"seed"}:
            raise ValueError(f"the random bot takes no settings but seed, got {sorted(settings)}")
        return RandomBot(**settings)
    if name == "greedy":
        if set(settings) - {"memory", "noise"}:
            raise ValueError(f"the greedy bot takes only memory and noise, got {sorted(settings)}")
        return GreedyBot(**settings)
    known = ["auto", *sorted(ALL_ALGORITHMS)]
    if name not in known:
        raise ValueError(f"unknown bot {name!r}; choose from random, greedy, level:N, {', '.join(known)}")
    if name in ("auto", "mcts", "ismcts", "pimc"):
        settings.setdefault("iterations", 1000)
    return SearchBot(name, **settings)


def check_bot_for(bot: Bot, state) -> None:
    if not isinstance(bot, Bot):
        raise ValueError(f"not a bot: {bot!r} (give a nutcore.Bot or a spec such as 'greedy')")
    state = _checks.native_state(state)
    game = _checks.state_game_name(state, "bot")
    if isinstance(bot, LevelBot):
        bot = bot.for_game(game)
    if isinstance(bot, SearchBot) and bot.algorithm != "auto" and bot.algorithm not in type(state).algorithms:
        offered = ", ".join(("auto", *type(state).algorithms))
        raise ValueError(f"bot {bot.name} is not available for {game} (its algorithms: {offered})")
