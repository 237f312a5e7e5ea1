"""The types the generic Python layers give a native game and its states.

Every declared game has the same pair of native classes, nutcore._core.Game and State (typed in
python/nutcore/_core.pyi): they are re-exported here with what an adapter adds around a state.
"""

from __future__ import annotations

from typing import Protocol, Union

from ._core import Game, State

__all__ = ["Game", "State", "StateLike", "StateWrapper"]


class StateWrapper(Protocol):
    """An adapter's state that wraps a native one (nutcore.openspiel's states)."""

    @property
    def nutcore_state(self) -> State: ...


# What best_move, solve and the bots accept: a native state or an adapter's around one.
StateLike = Union[State, StateWrapper]
