"""The network of search/network.h as a PyTorch module, and its fitting, for nutcore.learn.train.

Importing this module needs PyTorch (the `nutcore[train]` extra); train imports it only once it
has checked that PyTorch is there.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from .netfile import Weights
from .selfplay import Records


class Mlp(nn.Module):
    """Input scale, ReLU layers, then two heads: (value logits [B, P], policy logits [B, A])."""

    input_scale: torch.Tensor

    def __init__(self, observation_size: int, num_actions: int, players: int, hidden: list[int]):
        super().__init__()
        self.register_buffer("input_scale", torch.ones(observation_size))
        layers, width = [], observation_size
        for h in hidden:
            layers.append(nn.Linear(width, h))
            width = h
        self.layers = nn.ModuleList(layers)
        self.value = nn.Linear(width, players)
        self.policy = nn.Linear(width, num_actions)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = x * self.input_scale
        for layer in self.layers:
            x = torch.relu(layer(x))
        return self.value(x), self.policy(x)


def make_model(observation_size: int, num_actions: int, players: int, hidden: list[int]) -> Mlp:
    """The network of search/network.h as a torch module."""
    return Mlp(observation_size, num_actions, players, hidden)


def export(model: Mlp, game: str, players: int, about: dict[str, Any]) -> Weights:
    """The torch module's parameters in the network file's layouts."""

    def array(t: torch.Tensor) -> npt.NDArray[np.float32]:
        return t.detach().cpu().numpy().astype(np.float32)

    layers: list[nn.Linear] = list(model.layers)  # type: ignore[arg-type]  # built of nn.Linear alone
    return Weights(
        game,
        players,
        array(model.input_scale),
        [(array(layer.weight).T.copy(), array(layer.bias)) for layer in layers],
        (array(model.value.weight).T.copy(), array(model.value.bias)),
        (array(model.policy.weight), array(model.policy.bias)),
        about,
    )


def losses(
    model: Mlp, obs: torch.Tensor, mask: torch.Tensor, policy: torch.Tensor, value_target: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """(value loss, policy loss): cross-entropies against the value targets (value_targets) and
    the visit distribution."""
    value_logits, policy_logits = model(obs)
    value_loss = -(value_target * torch.log_softmax(value_logits, dim=1)).sum(dim=1).mean()
    masked = policy_logits.masked_fill(~mask, -1e9)
    policy_loss = -(policy * torch.log_softmax(masked, dim=1)).sum(dim=1).mean()
    return value_loss, policy_loss


def value_targets(records: Records, mix: float) -> npt.NDArray[np.float32]:
    """Each position's value target: `mix` of the game's returns, the rest the search's value at its
    root. The returns alone make a value network learn the games it has seen by heart (a game's
    positions share one outcome); the search's values differ from position to position."""
    return (mix * records.returns + (1 - mix) * records.search_value).astype(np.float32)


def fit(
    model: Mlp,
    optimiser: torch.optim.Optimizer,
    records: Records,
    samples: int,
    batch: int,
    seed: int,
    mix: float,
) -> dict[str, float]:
    """`samples` positions drawn from `records` in shuffled passes (the last one cut short), in
    minibatches of `batch`; the mean losses of the last `len(records)` positions seen (or all)."""
    obs = torch.from_numpy(records.observation.astype(np.float32))
    mask = torch.from_numpy(records.legal_mask.astype(bool))
    policy = torch.from_numpy(records.policy.astype(np.float32))
    target = torch.from_numpy(value_targets(records, mix))
    gen = torch.Generator().manual_seed(seed)
    model.train()
    window = min(samples, len(records))
    sums, count, seen = [0.0, 0.0], 0, 0
    while seen < samples:
        order = torch.randperm(len(records), generator=gen)[: samples - seen]
        for start in range(0, len(order), batch):
            idx = order[start : start + batch]
            v, p = losses(model, obs[idx], mask[idx], policy[idx], target[idx])
            optimiser.zero_grad()
            (v + p).backward()  # type: ignore[no-untyped-call]  # torch leaves Tensor.backward unannotated
            optimiser.step()
            seen += len(idx)
            if seen > samples - window:
                sums[0] += v.item() * len(idx)
                sums[1] += p.item() * len(idx)
                count += len(idx)
    model.eval()
    return {"value_loss": sums[0] / max(1, count), "policy_loss": sums[1] / max(1, count)}
