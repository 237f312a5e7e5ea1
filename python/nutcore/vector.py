"""Many games at once, stepped in C++ (docs/vector.md): nutcore.VectorEnv."""

from __future__ import annotations

from typing import Any, Callable, Union

import numpy as np
import numpy.typing as npt

from . import _checks, _core
from ._types import Game, State
from .games import load_game

# The arrays reset and step return, by name (docs/vector.md).
Arrays = dict[str, npt.NDArray[Any]]
# What BatchedSearch.run's evaluator returns for a round: values, or (values, priors).
Evaluation = Union[npt.ArrayLike, tuple[npt.ArrayLike, npt.ArrayLike]]

CHANCE_MODES = ("internal", "external")


class VectorEnv:
    """`num_envs` games of one game, stepped together in C++ with numpy arrays in and out.

    reset() and step(actions) return a dict of arrays, row i for environment i:
    observation [N, O] float32 (the seat to move's observation_tensor), legal_mask [N, A] bool,
    current_player [N] int32; step adds rewards [N, P] float32 (a game's returns on the step it
    ends, else 0), terminated [N] bool and episode_length [N] int32 (that game's steps). A finished
    game starts again at once: the arrays show the new game. Environment i draws its chance
    outcomes from its own generator, seeded from (seed, i), so results do not depend on `threads`
    or on num_envs. chance="external" leaves chance nodes to the caller: there current_player is
    -1, legal_mask marks the outcomes and chance_probabilities [N, A] float64 gives them, and the
    caller's action is the outcome.

    seat=S: a seat mode, the usual "agent against fixed opponents": the other seats are played
    inside by `opponents` (a bot spec: random, the default, greedy, level:N, a search), so every
    row is at seat S's move; step adds final_observation [N, O], seat S's view of a game as it
    ended. Opponents without a seat are a ValueError.

    Caps (docs/vector.md), checked before anything is allocated: num_envs <= MAX_NUM_ENVS, and
    about MAX_BYTES for the states and every array; an opponent's search takes iterations, at
    most MAX_ITERATIONS per move, no time_limit and no threads, and expectimax's depth is at most
    MAX_OPPONENT_DEPTH. Ctrl-C stops a step or reset that runs the opponents' searches, and
    undoes it: every environment, its generators too, is as it was, and `out` shows it again.
    """

    MAX_NUM_ENVS: int = _core._VectorEnv.MAX_NUM_ENVS
    MAX_BYTES: int = _core._VectorEnv.MAX_BYTES
    MAX_ITERATIONS: int = _core._VectorEnv.MAX_ITERATIONS
    MAX_OPPONENT_DEPTH: int = _core._VectorEnv.MAX_OPPONENT_DEPTH

    def __init__(
        self,
        game: str | Game,
        num_envs: int,
        players: int = 2,
        seed: int = 0,
        threads: int = 1,
        chance: str = "internal",
        seat: int | None = None,
        opponents: str | None = None,
        **params: Any,
    ):
        if isinstance(game, str):
            game = load_game(game, players=players, **params)
        elif params:
            raise ValueError("VectorEnv: game parameters go with a game name, not with a loaded game")
        if not hasattr(game, "_vector_env"):
            raise ValueError(f"VectorEnv: expected a game name or a nutcore game, got {game!r}")
        if chance not in CHANCE_MODES:
            raise ValueError(f"VectorEnv: chance must be one of {CHANCE_MODES}, got {chance!r}")
        if opponents is not None and not isinstance(opponents, str):
            raise ValueError(f"VectorEnv: opponents must be a bot spec (a string), got {opponents!r}")
        self.game: Game = game
        # num_envs, threads, seat, opponents and the seed are checked where they are read, in C++.
        self._make: Callable[[int], _core._VectorEnv] = lambda s: game._vector_env(
            num_envs, s, threads, chance == "external", seat, opponents
        )
        self._env = self._make(seed)
        self.seat = self._env.seat
        self.opponents = (opponents or "random") if self.seat is not None else None
        self.num_envs = self._env.num_envs
        self.num_players = self._env.num_players
        self.num_actions = self._env.num_actions
        self.observation_size = self._env.observation_size
        self.chance = chance
        self._started = False

    @property
    def threads(self) -> int:
        return self._env.threads

    def _keys(self, step: bool) -> list[str]:
        keys = ["observation", "legal_mask", "current_player"]
        if step:
            keys += ["rewards", "terminated", "episode_length"]
            if self.seat is not None:
                keys.append("final_observation")
        if self.chance == "external":
            keys.append("chance_probabilities")
        return keys

    def _new_array(self, key: str) -> npt.NDArray[Any]:
        n, a, p, o = self.num_envs, self.num_actions, self.num_players, self.observation_size
        layouts: dict[str, tuple[int | tuple[int, int], type[np.generic]]] = {
            "observation": ((n, o), np.float32),
            "legal_mask": ((n, a), np.bool_),
            "current_player": (n, np.int32),
            "rewards": ((n, p), np.float32),
            "terminated": (n, np.bool_),
            "episode_length": (n, np.int32),
            "chance_probabilities": ((n, a), np.float64),
            "final_observation": ((n, o), np.float32),
        }
        shape, dtype = layouts[key]
        return np.empty(shape, dtype)

    def _buffers(self, out: Arrays | None, step: bool) -> Arrays:
        """`out`'s arrays (checked in C++: dtype, shape, order), and new ones for what it lacks."""
        keys = self._keys(step)
        if out is None:
            return {k: self._new_array(k) for k in keys}
        if not isinstance(out, dict):
            raise ValueError("out must be a dict of numpy arrays (as reset or step returned them)")
        unknown = sorted(set(out) - set(self._keys(True)) - {"final_observation", "chance_probabilities"})
        if unknown:
            raise ValueError(f"out: unknown arrays {unknown}; known: {self._keys(True)}")
        missing = [k for k in keys if k not in out]
        if not missing:
            return out
        return {**out, **{k: self._new_array(k) for k in missing}}

    def reset(self, out: Arrays | None = None, seed: int | None = None) -> Arrays:
        """Every environment's first game; `out`: arrays to write into (from an earlier call);
        `seed`: seed the environments anew (else the constructor's seed, from the start again).
        Interrupted (Ctrl-C, where opponents search), it is undone, as a step is."""
        env = self._env if seed is None else self._make(seed)
        buffers = self._buffers(out, step=False)
        env.reset(buffers)
        self._env = env
        self._started = True
        return buffers

    def step(self, actions: npt.ArrayLike, out: Arrays | None = None) -> Arrays:
        """One action per environment (an int array of shape [num_envs]). A bad array, or an
        illegal action in any environment, is a ValueError and changes nothing. Ctrl-C during the
        opponents' searches raises KeyboardInterrupt once they have stopped, and the step is
        undone: the environments and their generators are as before it, the rows of `out` show
        them again (rewards, terminated and episode_length zero), and the same step may be
        given again."""
        if not self._started:
            raise ValueError("step: call reset first")
        array = np.asarray(actions)
        if array.shape != (self.num_envs,):
            raise ValueError(f"step: actions must have shape ({self.num_envs},), got {array.shape}")
        if array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer):
            raise ValueError(f"step: actions must be integers, got dtype {array.dtype}")
        buffers = self._buffers(out, step=True)
        self._env.step(np.ascontiguousarray(array, dtype=np.int64), buffers)
        return buffers

    def random_actions(self, out: npt.NDArray[np.int64] | None = None) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per environment (at a chance node, external mode, an
        outcome drawn uniformly, not by its probability), from a generator per environment apart
        from the chance draws: a random policy, drawn in C++."""
        if not self._started:
            raise ValueError("random_actions: call reset first")
        if out is None:
            out = np.empty(self.num_envs, np.int64)
        self._env.random_actions(out)
        return out

    def state(self, i: int) -> State:
        """A copy of environment i's state (with no history)."""
        return self.game.deserialize_state(self._env.serialized_state(i))

    def set_state(self, i: int, state: State | bytes | bytearray | memoryview, out: Arrays | None = None) -> None:
        """Environment i goes on from a copy of `state` (a state of this game, or its serialized
        bytes), its game length counted from 0: to search or play chosen positions. It must be a
        position the environment can show: not over; at a decision unless chance is external; in
        a seat mode at the learner's turn. Else a ValueError, and nothing changes. `out`: the
        arrays to update row i of (observation, legal_mask, current_player, chance_probabilities)."""
        if not self._started:
            raise ValueError("set_state: call reset first")
        if not isinstance(state, (bytes, bytearray, memoryview)):
            if getattr(state, "get_game", None) is None or state.get_game() != self.game:
                raise ValueError(f"set_state: expected a state of {self.game!r}, got {state!r}")
            state = state.serialize()
        if out is not None and not isinstance(out, dict):
            raise ValueError("out must be a dict of numpy arrays (as reset or step returned them)")
        self._env.set_state(i, state, {} if out is None else out)

    def __repr__(self) -> str:
        return (
            f"<nutcore.VectorEnv {self.game.name}, {self.num_envs} environments, "
            f"{self.num_players} players, chance {self.chance}, {self.threads} threads>"
        )


class BatchedSearch:
    """A tree search in every environment of a VectorEnv at once, its leaves evaluated by the
    caller in one batch per round (docs/vector.md): AlphaZero-style self-play on any framework.

        search = nutcore.BatchedSearch(env, iterations=200)
        leaves = search.start(seed=1)            # from every environment's position now
        while leaves is not None:
            values, priors = my_net(leaves["observation"], leaves["legal_mask"])
            leaves = search.evaluate(values, priors)
        moves = search.result()["action"]        # and visits [N, A] for the policy target

    A round's leaves are row i for environment i where leaves["pending"][i]: observation [N, O]
    (the leaf's seat's own observation), legal_mask [N, A], current_player [N]; other rows are
    zeros with seat -1. evaluate() takes values [N, P] (each seat's expected share of the win)
    and optionally priors [N, A] over the moves (normalised over the legal ones; None: uniform).
    Selection is PUCT with the `exploration` constant; chance nodes are sampled on the way, never
    evaluated; the end of a game is worth its returns. Environment i grows exactly the tree of
    best_move(env.state(i), seed=seed + i) with an evaluator that gave the same values. The
    algorithm is the game's tree search (MCTS; ISMCTS on hidden information, which walks states
    drawn from the searching seat's knowledge), with best_move's options and the game's defaults;
    `iterations` is per environment, the root's own evaluation aside. The environment's threads
    run it. A step or reset of the environment ends a search.

    With a built-in evaluator (evaluator="playout", "uniform", or "learned" with the game's
    network or `network`), nothing is handed back: start() runs every search to its end in C++,
    on the environment's threads, and returns None; result() then has them. Self-play with a
    trained network, or the default search in every environment at once.

    `iterations` is at most VectorEnv.MAX_ITERATIONS (docs/vector.md). Ctrl-C stops start() and
    evaluate(): KeyboardInterrupt once the searches have stopped, and the search is over without
    a result (start again); the environments are untouched.
    """

    def __init__(
        self,
        env: VectorEnv,
        algorithm: str = "auto",
        iterations: int | None = None,
        network: _core.Network | None = None,
        **options: Any,
    ):
        if not isinstance(env, VectorEnv):
            raise ValueError(f"BatchedSearch: expected a nutcore.VectorEnv, got {env!r}")
        _checks.network(network, "BatchedSearch")
        self.env = env
        self._settings: dict[str, Any] = {"algorithm": algorithm, "iterations": iterations, **options}
        self._network = network
        env._env.search_check(self._settings, network)
        n, a, o = env.num_envs, env.num_actions, env.observation_size
        self._leaves = {
            "observation": np.zeros((n, o), np.float32),
            "legal_mask": np.zeros((n, a), np.bool_),
            "current_player": np.full(n, -1, np.int32),
            "pending": np.zeros(n, np.bool_),
        }

    def start(self, seed: int | None = None) -> Arrays | None:
        """Starts a search from every environment's position (none where it is at a chance node,
        external mode); the first round of leaves, or None if none needs an evaluation.
        Environment i's search is seeded with seed + i (mod 2**64); no seed: one from the system."""
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
        count = self.env._env.search_start(self._settings, seed, self._leaves, self._network)
        return self._leaves if count else None

    def evaluate(self, values: npt.ArrayLike, priors: npt.ArrayLike | None = None) -> Arrays | None:
        """The values [N, P] and priors ([N, A], or None) of the last round's leaves; rows without
        a leaf are not read. The next round of leaves (the same arrays, written again), or None
        when every search is done. A value that is not finite, a negative or non-finite prior,
        or a wrong shape is a ValueError, and nothing changes."""
        value_array = self._floats(values, "values", (self.env.num_envs, self.env.num_players))
        prior_array = None
        if priors is not None:
            prior_array = self._floats(priors, "priors", (self.env.num_envs, self.env.num_actions))
        count = self.env._env.search_evaluate(value_array, prior_array, self._leaves)
        return self._leaves if count else None

    def result(self) -> Arrays:
        """The finished searches: action [N] int64 (the most visited move; -1 where no search
        ran), visits [N, A] int32 (the root's visits per move), value [N, P] float32 (the mean
        return per seat) and iterations [N] int32."""
        n, a, p = self.env.num_envs, self.env.num_actions, self.env.num_players
        out: Arrays = {
            "action": np.empty(n, np.int64),
            "visits": np.empty((n, a), np.int32),
            "value": np.empty((n, p), np.float32),
            "iterations": np.empty(n, np.int32),
        }
        self.env._env.search_result(out)
        return out

    def run(self, evaluator: Callable[[Arrays], Evaluation] | None = None, seed: int | None = None) -> Arrays:
        """The whole loop: evaluator(leaves) returns values, or (values, priors), for a round
        (none with a built-in evaluator)."""
        leaves = self.start(seed)
        if leaves is not None and evaluator is None:
            raise ValueError("run: this search hands its leaves back; give an evaluator(leaves)")
        while leaves is not None:
            assert evaluator is not None  # checked above: leaves come back only to an evaluator
            answer = evaluator(leaves)
            leaves = self.evaluate(*answer) if isinstance(answer, tuple) else self.evaluate(answer)
        return self.result()

    @staticmethod
    def _floats(x: npt.ArrayLike, what: str, shape: tuple[int, int]) -> npt.NDArray[np.float32]:
        array = np.asarray(x)
        if array.dtype == np.bool_ or not (
            np.issubdtype(array.dtype, np.floating) or np.issubdtype(array.dtype, np.integer)
        ):
            raise ValueError(f"evaluate: {what} must be numbers, got dtype {array.dtype}")
        if array.shape != shape:
            raise ValueError(f"evaluate: {what} must have shape {shape}, got {array.shape}")
        return np.ascontiguousarray(array, dtype=np.float32)

    def __repr__(self) -> str:
        return f"<nutcore.BatchedSearch over {self.env!r}, {self._settings}>"
