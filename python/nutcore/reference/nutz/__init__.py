"""Plain-Python reference implementation of Nutz! (docs/rules/nutz.md).

Modules:

- actions.py   the 206 action ids and their strings
- cards.py     the card set: validation, canonical form, scoring
- game.py      parameters, card types and `Game`
- state.py     `State`: squirrels, deal, summer, winter, predators, end of the round, the final phase,
               the canonical JSON, and each seat's view (information-state string, observation
               tensor, posterior)
- serialize.py loading the canonical JSON (`state_from_json`)
"""

from .actions import CHANCE, NUM_DISTINCT_ACTIONS, TERMINAL
from .cards import DEFAULT_CARDS_PATH, CardSet
from .game import GAME_NAME, Game, default_cards
from .serialize import state_from_json
from .state import State

__all__ = [
    "CHANCE",
    "DEFAULT_CARDS_PATH",
    "GAME_NAME",
    "NUM_DISTINCT_ACTIONS",
    "TERMINAL",
    "CardSet",
    "Game",
    "State",
    "default_cards",
    "state_from_json",
]
