"""Plain-Python reference implementation of Purzelbaum (docs/rules/purzelbaum.md).

Chance probabilities come from the reference's reading of the tumbling model (`..tumble_model`).
"""

from .actions import CHANCE, NUM_DISTINCT_ACTIONS, TERMINAL
from .game import GAME_NAME, Game
from .state import State

__all__ = ["CHANCE", "GAME_NAME", "NUM_DISTINCT_ACTIONS", "TERMINAL", "Game", "State"]
