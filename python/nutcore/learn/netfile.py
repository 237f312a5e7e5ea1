"""The learned evaluator's network file (docs/learning.md; read in C++ by search/network.cc):
written from numpy arrays, and a numpy forward pass of the same network.

    8 bytes "NUTCNET\\n", u32 format version, u32 n, n bytes of JSON header, then the parameters
    (float16 or float32, little-endian): input_scale [O]; per hidden layer W [in, out], b [out];
    value head W [h, P], b [P]; policy head W [A, h], b [A].
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import numpy.typing as npt

from .. import _checks, _core
from ..search import NETWORK_FILE_LIMIT

MAGIC = b"NUTCNET\n"
FORMAT = 1
_WIDTH = {"float16": 2, "float32": 4}  # bytes a parameter


def count_parameters(observation_size: int, num_actions: int, players: int, hidden: list[int]) -> int:
    """The parameters of a network of these sizes, in the file's order: input_scale; per hidden
    layer W and b; the value head's; the policy head's."""
    count, width = observation_size, observation_size
    for h in hidden:
        count += width * h + h
        width = h
    return count + width * players + players + num_actions * width + num_actions


def check_sizes(
    observation_size: int, num_actions: int, players: int, hidden: Any, name: str = "hidden", dtype: str = "float16"
) -> int:
    """The parameter count of a network of these sizes if load_network reads its file: the bounds
    Network::from_bytes checks (_core.network_limits(), the one place they are written) and
    load_network's file size (NETWORK_FILE_LIMIT, with room for the largest header it reads). Else
    a ValueError naming `name` (the hidden sizes: the rest is the game's). nutcore train checks its
    network with this before any work."""
    limits = _core.network_limits()
    if dtype not in _WIDTH:
        raise ValueError(f"network: dtype must be float16 or float32, got {dtype!r}")
    _checks.integer(players, "network: players", 1, limits["players"])
    _checks.integer(observation_size, "network: observation_size", 1, limits["observation_size"])
    _checks.integer(num_actions, "network: num_actions", 1, limits["num_actions"])
    if isinstance(hidden, (str, bytes)) or not hasattr(hidden, "__len__"):
        raise ValueError(f"{name} must be a list of layer sizes, such as [128, 128], got {hidden!r}")
    if not 1 <= len(hidden) <= limits["hidden_layers"]:
        raise ValueError(f"{name}: 1 to {limits['hidden_layers']} hidden layers, got {len(hidden)}")
    sizes = [_checks.integer(h, f"{name}: a layer's size", 1, limits["hidden_size"]) for h in hidden]
    count = count_parameters(observation_size, num_actions, players, sizes)
    # The file: 16 bytes, the header (at most header_bytes), then the parameters.
    most = min(limits["parameters"], (NETWORK_FILE_LIMIT - 16 - limits["header_bytes"]) // _WIDTH[dtype])
    if count > most:
        raise ValueError(
            f"{name}: layers of {','.join(map(str, sizes))} make {count:,} parameters, more than the "
            f"{most:,} of a network file load_network reads ({NETWORK_FILE_LIMIT >> 20} MiB in {dtype})"
        )
    return count


@dataclass
class Weights:
    """A network's parameters as numpy float32 arrays, in the file's layouts."""

    game: str
    players: int
    input_scale: np.ndarray  # [O]
    layers: list[tuple[np.ndarray, np.ndarray]]  # (W [in, out], b [out]) per hidden layer
    value: tuple[np.ndarray, np.ndarray]  # W [h, P], b [P]
    policy: tuple[np.ndarray, np.ndarray]  # W [A, h], b [A]
    about: dict[str, Any] = field(default_factory=dict)

    @property
    def hidden(self) -> list[int]:
        return [w.shape[1] for w, _ in self.layers]

    def forward(self, observations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(values [N, P], logits [N, A]) of a batch of observations, in float32 (numpy's own
        summation order: equal to the C++ pass to rounding, not to the bit)."""
        x = np.asarray(observations, np.float32) * self.input_scale
        for w, b in self.layers:
            x = np.maximum(x @ w + b, 0.0)
        v = x @ self.value[0] + self.value[1]
        v = np.exp(v - v.max(axis=1, keepdims=True))
        return v / v.sum(axis=1, keepdims=True), x @ self.policy[0].T + self.policy[1]

    def arrays(self) -> list[np.ndarray]:
        """The parameters in the file's order."""
        return [self.input_scale, *(a for layer in self.layers for a in layer), *self.value, *self.policy]

    def to_bytes(self, dtype: str = "float16") -> bytes:
        header = {
            "game": self.game,
            "players": self.players,
            "observation_size": int(self.input_scale.shape[0]),
            "num_actions": int(self.policy[0].shape[0]),
            "hidden": self.hidden,
            "dtype": dtype,
            "about": self.about,
        }
        text = json.dumps(header, sort_keys=True).encode("utf-8")
        if len(text) > _core.network_limits()["header_bytes"]:  # the loader would refuse it
            raise ValueError(f"the network's header is {len(text):,} bytes, more than a network file may hold")
        np_dtype = np.dtype("<f2" if dtype == "float16" else "<f4")
        body = b"".join(np.ascontiguousarray(a, dtype=np_dtype).tobytes() for a in self.arrays())
        return MAGIC + struct.pack("<II", FORMAT, len(text)) + text + body

    @classmethod
    def from_bytes(cls, data: bytes) -> Weights:
        if data[:8] != MAGIC:
            raise ValueError("not a nutcore network file")
        version, length = struct.unpack("<II", data[8:16])
        if version != FORMAT:
            raise ValueError(f"network format {version}; this reads {FORMAT}")
        header = json.loads(data[16 : 16 + length])
        dtype = np.dtype("<f2" if header["dtype"] == "float16" else "<f4")
        flat = np.frombuffer(data[16 + length :], dtype=dtype).astype(np.float32)
        at = 0

        def take(*shape: int) -> npt.NDArray[np.float32]:
            nonlocal at
            size = int(np.prod(shape))
            out = flat[at : at + size].reshape(shape)
            at += size
            return out

        o, a, p = header["observation_size"], header["num_actions"], header["players"]
        scale = take(o)
        layers, width = [], o
        for h in header["hidden"]:
            layers.append((take(width, h), take(h)))
            width = h
        value = (take(width, p), take(p))
        policy = (take(a, width), take(a))
        if at != flat.size:
            raise ValueError("the file holds more parameters than its header says")
        return cls(header["game"], p, scale, layers, value, policy, header.get("about", {}))

    @classmethod
    def random(
        cls, game: str, players: int, observation_size: int, num_actions: int, hidden: Sequence[int], seed: int = 0
    ) -> Weights:
        """A network of random weights (tests, and a first generation's untrained evaluator)."""
        rng = np.random.default_rng(seed)
        layers, width = [], observation_size
        for h in hidden:
            layers.append((rng.normal(0, (2 / width) ** 0.5, (width, h)).astype(np.float32), np.zeros(h, np.float32)))
            width = h
        value = (rng.normal(0, 0.1, (width, players)).astype(np.float32), np.zeros(players, np.float32))
        policy = (rng.normal(0, 0.1, (num_actions, width)).astype(np.float32), np.zeros(num_actions, np.float32))
        return cls(game, players, np.ones(observation_size, np.float32), layers, value, policy)
