"""Plain-Python reference implementation of "Auf die Nüsse!".

Follows docs/rules/auf_die_nuesse.md (the contract), the English rulebook
and the project's rulings (all on that page).  Modules:

- board.py     components: card types, board spaces, start track
- actions.py   the 292 action ids and their strings
- game.py      parameters, deck, `Game`
- state.py     `State`: set-up, turn, collection check, receiving nuts,
               raccoon, end of game, scoring, forced moves
- serialize.py canonical JSON (`to_json` / `state_from_json`)
"""

from .actions import NUM_DISTINCT_ACTIONS, action_to_string, string_to_action
from .board import CARD_NAMES, GAME_NAME, SPACE_NAMES
from .game import Game
from .state import CHANCE, TERMINAL, State

__all__ = [
    "Game",
    "State",
    "GAME_NAME",
    "CARD_NAMES",
    "SPACE_NAMES",
    "NUM_DISTINCT_ACTIONS",
    "CHANCE",
    "TERMINAL",
    "action_to_string",
    "string_to_action",
]
