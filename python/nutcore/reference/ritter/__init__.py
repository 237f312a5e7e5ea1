"""Plain-Python reference implementation of Die Ritter von der Haselnuss (docs/rules/ritter.md).

Modules:

- actions.py   the 42 action ids and their strings
- board.py     the board graph (bushes, hiding places, edges) and its validation
- game.py      parameters and `Game`
- state.py     `State`: setup, roll, walk, shouts, card resolution, end of the game, the canonical
               JSON, and each seat's view (information-state string, observation tensor, posterior)
- serialize.py loading the canonical JSON (`state_from_json`)
"""

from .actions import CHANCE, NUM_DISTINCT_ACTIONS, TERMINAL
from .board import DEFAULT_BOARD, Board
from .game import GAME_NAME, Game
from .state import State

__all__ = ["CHANCE", "DEFAULT_BOARD", "GAME_NAME", "NUM_DISTINCT_ACTIONS", "TERMINAL", "Board", "Game", "State"]
