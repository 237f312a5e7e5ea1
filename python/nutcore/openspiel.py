"""OpenSpiel adapter (the optional extra ``nutcore[openspiel]``): every nutcore game as a pyspiel game.

Importing this module registers each game of ``nutcore.list_games()`` with pyspiel as a Python game
named ``nutcore_<game>``::

    import pyspiel
    import nutcore.openspiel  # registers nutcore_auf_die_nuesse, nutcore_purzelbaum, nutcore_ritter, nutcore_nutz

    game = pyspiel.load_game("nutcore_ritter", {"players": 3})
    state = game.new_initial_state()

Parameters: ``players`` (2-4, default 2) and every parameter of the game by name, with the defaults
of ``nutcore.load_game(name).params``. Scalar parameters (int, float, bool, str) are pyspiel
parameters of the same type. Two kinds are given as a string holding JSON text instead: those whose
values are lists or dicts, which pyspiel parameters cannot hold (Ritter's ``board``, Nutz!'s
``cards``, Purzelbaum's ``holes``, ...), and those whose default depends on the number of players
(Nutz!'s ``last_tree_tokens``, ...), for which no single pyspiel default is right. Their default, the
empty string, means the game's own default for that number of players::

    pyspiel.load_game("nutcore_ritter", {"players": 3, "board": json.dumps(board)})
    pyspiel.load_game("nutcore_nutz", {"players": 3, "last_tree_tokens": "7"})

Which ones: ``game.get_type().parameter_specification`` (a string with default ``""``). Bad values
raise ``ValueError`` naming the parameter; unknown names and wrong types are refused by pyspiel
itself (``pyspiel.SpielError``). ``game.get_parameters()`` lists only the parameters that differ from
their defaults, a JSON one percent-encoded (commas, parentheses and '=' would break OpenSpiel's game
strings); that form is accepted too, so game strings, and with them
``pyspiel.serialize_game_and_state``, round-trip. ``game.nutcore_game`` is the native game, whose
``params`` give every value.

What the games declare: sequential moves, explicit stochastic chance (``chance_outcomes()``),
perfect or imperfect information as ``nutcore_game.hidden_information`` says, constant-sum utility
(the returns are win shares: k tied winners get 1/k each, so 0 to 1, summing to 1), terminal
rewards only. Chance outcomes are action ids like any other. A bool is never an action:
``state.apply_action(True)`` raises ``ValueError`` (pyspiel itself would convert it to 1 before
nutcore sees it, so the adapter's ``apply_action`` refuses it first; OpenSpiel's C++ algorithms
pass integers).

Observations: a state's ``nutcore_state`` is the native nutcore state, and every observation of seat
p comes from the native seat-p calls only (``information_state_string(p)``, ``observation_string(p)``,
``observation_tensor(p)``, shape ``nutcore_game.observation_tensor_shape()``), so nothing a seat has
not seen leaks. Memory is perfect (docs/information.md): the information state is the seat's
knowledge of the position, a sufficient statistic of what it observed rather than OpenSpiel's usual
action history, and it coincides with the observation. Observer types (``make_py_observer``): the
seat's own view (private info of a single player, with public info), perfect recall or not; on games
of perfect information also the public-only and all-players views, which are the same for every
seat: seat 0's view (the tensor's viewer segment names the seat it is relative to). A public-only
or all-players view of a game of hidden information is not available: asking for it raises
``ValueError`` rather than giving a seat's private cards.

``state.resample_from_infostate(player, probability_sampler)`` (what OpenSpiel's Python ISMCTS
calls) seeds the native posterior sampler from two draws of the sampler; the new state has an empty
history. On games of perfect information it returns a clone.

States clone, serialize (``pyspiel.serialize_game_and_state``, ``game.deserialize_state``) and
pickle through the native state's validated encoding. nutcore's own searches and bots accept these
states: ``nutcore.best_move(state)`` searches the wrapped native state.

OpenSpiel's C++ MCTSBot runs on these games through ``bot.step_with_policy(state)`` (its ``step()``
releases the GIL and cannot call into a Python game).
"""

from __future__ import annotations

import functools
import json
import urllib.parse
from typing import Any, Callable

import numpy as np
import pyspiel

from . import _checks
from ._types import Game, State
from .games import list_games, load_game

PREFIX = "nutcore_"
_MAX_PLAYERS = 4
_SCALARS = (bool, int, float, str)  # the parameter types pyspiel has (besides nested games)


@functools.lru_cache(maxsize=None)
def _default_params(name: str, players: int) -> dict[str, Any]:
    return load_game(name, players=players).params


@functools.lru_cache(maxsize=None)
def _json_params(name: str) -> frozenset[str]:
    """The parameters given as JSON text: those whose values are lists or dicts, and those whose
    default depends on the number of players (a fixed pyspiel default would be wrong for some)."""
    by_players = [_default_params(name, n) for n in range(2, _MAX_PLAYERS + 1)]
    return frozenset(
        key
        for key, value in by_players[0].items()
        if key != "players" and (not isinstance(value, _SCALARS) or any(d[key] != value for d in by_players))
    )


def _game_type(name: str) -> pyspiel.GameType:
    spec: dict[str, Any] = {"players": 2}
    for key, value in _default_params(name, 2).items():
        if key != "players":
            spec[key] = "" if key in _json_params(name) else value  # "": the game's own default
    hidden = load_game(name).hidden_information
    info = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"nutcore {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=info.IMPERFECT_INFORMATION if hidden else info.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=_MAX_PLAYERS,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )


def _decode_json(name: str, key: str, text: Any) -> Any:
    if not isinstance(text, str):
        raise ValueError(f"{PREFIX}{name}: parameter {key!r} must be JSON text (a string), got {text!r}")
    # Our own percent-encoded form starts with '%', which JSON text never does.
    source = urllib.parse.unquote(text) if text.lstrip().startswith("%") else text
    try:
        return json.loads(source)
    except ValueError as e:
        raise ValueError(f"{PREFIX}{name}: parameter {key!r} is not valid JSON text ({e}): {text[:80]!r}") from None


def _encode_json(value: Any) -> str:
    text = json.dumps(value, separators=(",", ":"), sort_keys=True)
    # Commas, parentheses and '=' would break OpenSpiel's game-string parser, so they are escaped;
    # so is the first character, so the form starts with '%' and never reads as a number or a bool.
    return f"%{ord(text[0]):02X}" + urllib.parse.quote(text[1:], safe='"[]{}:')


class NutcoreGame(pyspiel.Game):
    """A nutcore game as a pyspiel game (one subclass per game); `nutcore_game` is the native game."""

    _name = ""

    def __init__(self, params: dict[str, Any] | None = None):
        name = self._name
        params = dict(params or {})
        players = _checks.integer(params.pop("players", 2), f"{PREFIX}{name}: players", 2, _MAX_PLAYERS)
        defaults, as_json = _default_params(name, 2), _json_params(name)
        native_params = {}
        for key, value in params.items():
            if key not in defaults:  # pyspiel checks names too; this covers direct construction
                raise ValueError(f"{PREFIX}{name}: unknown parameter {key!r}; parameters: {sorted(defaults)}")
            if key not in as_json:
                native_params[key] = value
            elif value != "":
                native_params[key] = _decode_json(name, key, value)
        self.nutcore_game = load_game(name, players=players, **native_params)
        # Keep only what differs from the defaults, so that the game string is short and parses back.
        base = _default_params(name, players)
        given: dict[str, Any] = {} if players == 2 else {"players": players}
        for key, value in self.nutcore_game.params.items():
            if key != "players" and value != base[key]:
                given[key] = _encode_json(value) if key in as_json else value
        info = pyspiel.GameInfo(
            num_distinct_actions=self.nutcore_game.num_distinct_actions(),
            max_chance_outcomes=self.nutcore_game.max_chance_outcomes(),  # a bound on chance ids, as OpenSpiel uses it
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,  # returns are win shares
            utility_sum=1.0,
            max_game_length=self.nutcore_game.max_game_length(),  # counts chance too: a bound on decisions
        )
        super().__init__(_GAME_TYPES[name], info, given)

    def __reduce__(self) -> tuple[Callable[[str], Any], tuple[str]]:
        # pyspiel's own pickling rebuilds only the C++ part; the game string brings back the whole game.
        return pyspiel.load_game, (str(self),)

    def new_initial_state(self) -> NutcoreState:
        return NutcoreState(self, self.nutcore_game.new_initial_state())

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> _Observer:
        if params:
            raise ValueError(f"{self.get_type().short_name}: observers take no parameters, got {params}")
        return _Observer(self.nutcore_game, iig_obs_type)


def _reject_bool(action: object) -> None:
    if isinstance(action, (bool, np.bool_)):
        raise ValueError(f"illegal action {action!r}: a bool is not an action id")


class NutcoreState(pyspiel.State):
    """A pyspiel state wrapping a native nutcore state, `nutcore_state`.

    The native state is the only attribute, so OpenSpiel's clone (a deep copy of the attributes)
    and serialization (a pickle of them) go through the native state's own copy and encoding.
    """

    def __init__(self, game: NutcoreGame, native_state: State):
        super().__init__(game)
        self.nutcore_state = native_state

    def current_player(self) -> int:
        return self.nutcore_state.current_player()  # nutcore.CHANCE / TERMINAL are OpenSpiel's ids

    def _legal_actions(self, player: int) -> list[int]:
        return self.nutcore_state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.nutcore_state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.nutcore_state.apply_action(action)

    # pyspiel converts an action to a C++ integer before _apply_action sees it (True becomes 1),
    # so a bool is refused here, where a Python caller hands it in. OpenSpiel's C++ algorithms
    # pass integers and do not come this way.
    def apply_action(self, action: int) -> None:
        _reject_bool(action)
        super().apply_action(action)

    def apply_action_with_legality_check(self, action: int) -> None:
        _reject_bool(action)
        super().apply_action_with_legality_check(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.nutcore_state.action_to_string(action)

    def is_terminal(self) -> bool:
        return self.nutcore_state.is_terminal()

    def returns(self) -> list[float]:
        return self.nutcore_state.returns()

    def resample_from_infostate(self, player: int, probability_sampler: Callable[[], float]) -> NutcoreState:
        """A state drawn from the posterior given what `player` knows (docs/information.md), seeded
        from two draws of `probability_sampler` (such as pyspiel.UniformProbabilitySampler(0., 1.));
        its history is empty. Perfect information: a clone."""
        player = _checks.integer(player, "resample_from_infostate: player", 0, self.num_players() - 1)
        if not self.nutcore_state.hidden_information:
            copy: NutcoreState = self.clone()
            return copy
        high, low = (int(float(probability_sampler()) * 2**32) & 0xFFFFFFFF for _ in range(2))
        sample = self.nutcore_state.resample_from_infostate(player, (high << 32) | low)
        game: NutcoreGame = self.get_game()
        return NutcoreState(game, sample)

    def __str__(self) -> str:
        return str(self.nutcore_state)


class _Observer:
    """The PyObserver interface (open_spiel/python/observation.py) over the native seat-p calls."""

    def __init__(self, native_game: Game, iig_obs_type: Any):
        name = PREFIX + native_game.name
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        single = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        # Without hidden information every seat's view is the whole (public) state.
        if not iig_obs_type.public_info or not (single or not native_game.hidden_information):
            kind = (
                f"public_info={iig_obs_type.public_info}, perfect_recall={iig_obs_type.perfect_recall}, "
                f"private_info={iig_obs_type.private_info.name}"
            )
            raise ValueError(
                f"{name}: observer type ({kind}) is not available: nutcore gives each seat's own view "
                "(public info with the seat's private info); a game of hidden information has no public-only "
                "or all-players view here, and giving one would reveal cards a seat has not seen"
            )
        # Memory is perfect, so the information state (perfect recall) and the observation coincide.
        self._recall = iig_obs_type.perfect_recall
        # A public view is one for every seat; the tensors are seat-relative, so it is seat 0's.
        self._public = not single
        shape = list(native_game.observation_tensor_shape())
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"info_state" if self._recall else "observation": self.tensor.reshape(shape)}

    def set_from(self, state: NutcoreState, player: int) -> None:
        self.tensor[:] = state.nutcore_state.observation_tensor(0 if self._public else player)

    def string_from(self, state: NutcoreState, player: int) -> str:
        native = state.nutcore_state
        return native.information_state_string(player) if self._recall else native.observation_string(player)


def _register(name: str) -> type[NutcoreGame]:
    # One class per game, registered as the creator: pyspiel keeps its creators until after the
    # interpreter has finalized, and a class (unlike a partial or closure) is never freed by then.
    cls = type(f"NutcoreGame_{name}", (NutcoreGame,), {"_name": name, "__doc__": f"nutcore's {name} in pyspiel."})
    globals()[cls.__name__] = cls  # where pickle looks a class up
    pyspiel.register_game(_GAME_TYPES[name], cls)
    return cls


_GAME_TYPES = {name: _game_type(name) for name in list_games()}
_GAME_CLASSES = {name: _register(name) for name in list_games()}
