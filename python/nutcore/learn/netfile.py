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
from typing import Any

import numpy as np

MAGIC = b"NUTCNET\n"
FORMAT = 1


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

        def take(*shape):
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
    def random(cls, game: str, players: int, observation_size: int, num_actions: int, hidden, seed: int = 0) -> Weights:
        """A network of random weights (tests, and a first generation's untrained evaluator)."""
        rng = np.random.default_rng(seed)
        layers, width = [], observation_size
        for h in hidden:
            layers.append((rng.normal(0, (2 / width) ** 0.5, (width, h)).astype(np.float32), np.zeros(h, np.float32)))
            width = h
        value = (rng.normal(0, 0.1, (width, players)).astype(np.float32), np.zeros(players, np.float32))
        policy = (rng.normal(0, 0.1, (num_actions, width)).astype(np.float32), np.zeros(num_actions, np.float32))
        return cls(game, players, np.ones(observation_size, np.float32), layers, value, policy)
