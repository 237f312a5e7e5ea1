"""Nutz!'s parameters and the Game object (docs/rules/nutz.md, "Parameters" and "Card types")."""

from __future__ import annotations

from .actions import MAX_TYPES, NUM_DISTINCT_ACTIONS, action_names
from .cards import DEFAULT_CARDS_PATH, load_card_set, read_card_file
from .serialize import state_from_json
from .state import State

GAME_NAME = "nutz"

# In the doc's table order; `players` comes first and is not in **params.
PARAMETERS = ("cards", "last_tree_tokens", "moon_tokens", "token_cap", "remove_three_plus", "turn_cap")

HAND_SIZE = 5  # cards in hand at the start of every summer
DEAL_LATER = 3  # cards dealt in every round after the first
PLAYS_PER_SEAT = 3  # summer plays per seat and round
COLUMN_SIZE = 3  # the most cards under a tree
MAX_TYPE_CARDS = 60  # the most cards of one type in a game

_default_cards = None


def default_cards():
    """The default card set (read once from the shipped file), as an object."""
    global _default_cards
    if _default_cards is None:
        _default_cards = read_card_file(DEFAULT_CARDS_PATH)
    return _default_cards


def _integer(value, what, lo, hi):
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("nutz: %s must be an int, not %r" % (what, value))
    if not lo <= value <= hi:
        raise ValueError("nutz: %s must be in %d..%d, not %d" % (what, lo, hi, value))
    return int(value)


class CardType:
    """A card type of a game: a kind and a number of moon icons."""

    def __init__(self, kind, moons, count, name):
        self.kind = kind
        self.moons = moons
        self.count = count  # cards of the type in the game
        self.name = name


class Game:
    """Nutz! for `players` seats (2..4); parameters by name, see docs/rules/nutz.md."""

    name = GAME_NAME

    def __init__(self, players=2, **params):
        unknown = sorted(set(params) - set(PARAMETERS))
        if unknown:
            raise ValueError(
                "nutz has no parameter %s; known: players, %s" % (", ".join(map(repr, unknown)), ", ".join(PARAMETERS))
            )
        n = _integer(players, "players", 2, 4)
        cardset = load_card_set(params["cards"] if "cards" in params else default_cards())
        rounds = _integer(params.get("last_tree_tokens", {2: 7, 3: 6, 4: 5}[n]), "last_tree_tokens", 1, 12)
        moon_tokens = _integer(params.get("moon_tokens", 15), "moon_tokens", 1, 60)
        token_cap = _integer(params.get("token_cap", 3), "token_cap", 2, 15)
        remove = params.get("remove_three_plus", n == 2)
        if not isinstance(remove, bool):
            raise ValueError("nutz: remove_three_plus must be true or false, not %r" % (remove,))
        turn_cap = _integer(params.get("turn_cap", 200), "turn_cap", 1, 60000)

        if rounds + n + 1 > moon_tokens:
            raise ValueError(
                "nutz: the set-up needs last_tree_tokens + players + 1 = %d + %d + 1 = %d moon tokens, "
                "but moon_tokens is %d" % (rounds, n, rounds + n + 1, moon_tokens)
            )

        # The types: (kind, moons) of the groups left in, merged, by kind then moons.
        counts = {}
        for k, kind in enumerate(cardset.kinds):
            for count, moons, three_plus in kind.groups:
                if remove and three_plus:
                    continue
                counts[k, moons] = counts.get((k, moons), 0) + count
        types = [CardType(k, m, counts[k, m], cardset.kinds[k].name + "*" * m) for k, m in sorted(counts)]
        if len(types) > MAX_TYPES:
            raise ValueError("nutz: cards: the game has %d card types, at most %d" % (len(types), MAX_TYPES))
        for t in types:
            if t.count > MAX_TYPE_CARDS:
                raise ValueError(
                    "nutz: cards: kinds[%d] (%s): %d cards of type %s in the game, at most %d"
                    % (t.kind, cardset.kinds[t.kind].name, t.count, t.name, MAX_TYPE_CARDS)
                )
        in_game = sum(t.count for t in types)
        needed = n * (HAND_SIZE + DEAL_LATER * (rounds - 1))
        if in_game < needed:
            raise ValueError(
                "nutz: cards: %d players and %d rounds need %d cards, the game has %d%s"
                % (n, rounds, needed, in_game, " (the 3+ cards removed)" if remove else "")
            )

        self._players = n
        self.cards = cardset
        self.last_tree_tokens = rounds
        self.moon_tokens = moon_tokens
        self.token_cap = token_cap
        self.remove_three_plus = remove
        self.turn_cap = turn_cap
        self.types = types
        self.kinds = cardset.kinds
        self.food_kinds = [k for k, kind in enumerate(self.kinds) if kind.food]
        self.type_names = [t.name for t in types]
        self.kind_names = [kind.name for kind in self.kinds]
        self.cards_in_game = in_game
        self.action_names = action_names(self.type_names, self.kind_names)
        self.action_ids = {name: a for a, name in enumerate(self.action_names)}

    # -- the game object's API -------------------------------------------------------------------

    @property
    def params(self):
        return {
            "players": self._players,
            "cards": self.cards.spec(),
            "last_tree_tokens": self.last_tree_tokens,
            "moon_tokens": self.moon_tokens,
            "token_cap": self.token_cap,
            "remove_three_plus": self.remove_three_plus,
            "turn_cap": self.turn_cap,
        }

    def num_players(self):
        return self._players

    def num_trees(self):
        return self._players + 1

    def num_distinct_actions(self):
        return NUM_DISTINCT_ACTIONS

    def new_initial_state(self):
        return State(self)

    def state_from_json(self, data):
        return state_from_json(self, data)

    def observation_tensor_shape(self):
        n, c, y, k, f = self._players, self._players + 1, len(self.types), len(self.kinds), len(self.food_kinds)
        return [13 + 5 * n + n * c + 3 * c * (3 + n + y) + 4 * y + k + n * f]

    def dealt_by_round(self, rounds):
        """Cards dealt to all seats in the first `rounds` rounds."""
        if rounds <= 0:
            return 0
        return self._players * (HAND_SIZE + DEAL_LATER * (rounds - 1))

    def __eq__(self, other):
        return isinstance(other, Game) and self.params == other.params

    __hash__ = None

    def __repr__(self):
        params = self.params
        params["cards"] = params["cards"]["name"]
        return "nutz.Game(%s)" % ", ".join("%s=%r" % kv for kv in params.items())
