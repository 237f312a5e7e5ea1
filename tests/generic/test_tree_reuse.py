"""Tree reuse (issue 13): nutcore.SearchTree keeps best_move's MCTS / ISMCTS tree from one search
to the next, descending through the moves and chance outcomes played since."""

from __future__ import annotations

import random
import statistics

import pytest

import nutcore
from nutcore import SearchTree
from playing import random_step

GAMES = nutcore.list_games()
HIDDEN = [g for g in GAMES if nutcore.load_game(g).hidden_information]


def tree_algorithm(state) -> str:
    return "ismcts" if "ismcts" in state.algorithms else "mcts"


def decision_after(state, rng: random.Random, steps: int):
    state = state.clone()
    for _ in range(steps):
        random_step(state, rng)
        if state.is_terminal():
            return None
    while state.is_chance_node():
        random_step(state, rng)
    return None if state.is_terminal() else state


@pytest.mark.parametrize("name", GAMES)
def test_a_new_tree_searches_as_a_one_off_search(name):
    game = nutcore.load_game(name, players=2)
    state = decision_after(game.new_initial_state(), random.Random(2), 6)
    algorithm = tree_algorithm(state)
    kept = nutcore.best_move(state, algorithm, iterations=400, seed=9, tree=SearchTree())
    fresh = nutcore.best_move(state, algorithm, iterations=400, seed=9)
    assert kept.actions == fresh.actions and kept.value == fresh.value
    assert kept.extra["reused_visits"] == 0 and kept.iterations == 400


def test_mcts_goes_on_from_the_subtree_of_the_move_played():
    game = nutcore.load_game("auf_die_nuesse", players=2)
    rng = random.Random(4)
    state = decision_after(game.new_initial_state(), rng, 3)
    tree = SearchTree()
    checked = 0
    for _ in range(40):
        first = nutcore.best_move(state, "mcts", iterations=1500, seed=1, tree=tree)
        chosen = {s.action: s.visits for s in first.actions}[first.action]
        state.apply_action(first.action)
        direct = not state.is_chance_node()  # the next decision follows the move itself
        while state.is_chance_node():
            random_step(state, rng)
        if state.is_terminal():
            break
        second = nutcore.best_move(state, "mcts", iterations=500, seed=2, tree=tree)
        reused = second.extra["reused_visits"]
        assert sum(s.visits for s in second.actions) == 500 + reused
        assert reused < chosen and (reused == chosen - 1 or not direct)  # its first visit was a playout
        checked += direct and reused > 0
        state.apply_action(second.action)
        while state.is_chance_node():
            random_step(state, rng)
        if state.is_terminal():
            break
    assert checked >= 3


def test_a_position_that_does_not_follow_starts_afresh():
    game = nutcore.load_game("auf_die_nuesse", players=2)
    rng = random.Random(6)
    root = decision_after(game.new_initial_state(), rng, 3)
    tree = SearchTree()
    assert nutcore.best_move(root, "mcts", iterations=2000, seed=1, tree=tree).extra["reused_visits"] == 0
    again = nutcore.best_move(root, "mcts", iterations=300, seed=2, tree=tree)  # the same position
    assert again.extra["reused_visits"] == 2000  # every iteration passed through one of its moves
    # The same position without its history (from JSON) does not follow from the tree's root.
    copy = game.state_from_json(root.to_json())
    assert nutcore.best_move(copy, "mcts", iterations=300, seed=3, tree=tree).extra["reused_visits"] == 0
    for other in (
        decision_after(game.new_initial_state(), random.Random(99), 3),  # another game
        root,  # an earlier position than the tree's root
        decision_after(nutcore.load_game("auf_die_nuesse", players=3).new_initial_state(), rng, 3),  # other rules
        decision_after(nutcore.load_game("ritter", players=2).new_initial_state(), rng, 3),  # another game type
    ):
        later = decision_after(other, rng, 2) or other
        nutcore.best_move(later, iterations=300, seed=3, tree=tree)
        assert nutcore.best_move(other, iterations=300, seed=3, tree=tree).extra["reused_visits"] == 0


def test_ismcts_keeps_the_seat_s_information_sets():
    game = nutcore.load_game("ritter", players=2)
    rng = random.Random(8)
    state = decision_after(game.new_initial_state(), rng, 2)
    seat = state.current_player()
    tree = SearchTree()
    reused = []
    while not state.is_terminal() and len(reused) < 12:
        if state.is_chance_node() or state.current_player() != seat:
            random_step(state, rng)
            continue
        result = nutcore.best_move(state, "ismcts", iterations=600, seed=len(reused), tree=tree)
        assert sum(s.visits for s in result.actions) == 600 + result.extra["reused_visits"]
        reused.append(result.extra["reused_visits"])
        state.apply_action(result.action)
    assert sum(r > 0 for r in reused) >= 3
    # The other seat's search never starts from this seat's tree.
    while state.is_chance_node() or state.current_player() == seat:
        random_step(state, rng)
    assert nutcore.best_move(state, "ismcts", iterations=100, seed=1, tree=tree).extra["reused_visits"] == 0


@pytest.mark.parametrize("name", HIDDEN)
def test_ismcts_reuse_is_decided_from_the_seat_s_view(name):
    # A state and its twin, which differs only in what the seat has not seen (here a history the
    # seat cannot check: a resampled state has none), searched with equal kept trees and the same
    # seed, get the same result: reuse may not depend on hidden history.
    game = nutcore.load_game(name, players=2)
    rng = random.Random(5)
    state = decision_after(game.new_initial_state(), rng, 2)
    seat = state.current_player()
    turns = []  # the seat's decision states, in order
    while not state.is_terminal() and len(turns) < 16:
        if state.is_chance_node() or state.current_player() != seat:
            random_step(state, rng)
            continue
        turns.append(state.clone())
        state.apply_action(nutcore.best_move(state, "ismcts", iterations=400, seed=len(turns)).action)
    assert len(turns) == 16

    def kept_tree(upto: int) -> SearchTree:
        tree = SearchTree()
        for i in range(upto):
            nutcore.best_move(turns[i], "ismcts", iterations=400, seed=i, tree=tree)
        return tree

    reused = 0
    for k in range(1, len(turns)):
        true_state = turns[k]
        twin = true_state.resample_from_infostate(seat, k)
        assert twin.information_state_string(seat) == true_state.information_state_string(seat)
        a = nutcore.best_move(true_state, "ismcts", iterations=400, seed=50, tree=kept_tree(k))
        b = nutcore.best_move(twin, "ismcts", iterations=400, seed=50, tree=kept_tree(k))
        assert [(s.action, s.visits, s.value) for s in a.actions] == [(s.action, s.visits, s.value) for s in b.actions]
        assert a.extra["reused_visits"] == b.extra["reused_visits"]
        reused += a.extra["reused_visits"] > 0
    assert reused >= 2


def test_reuse_estimates_like_a_fresh_search_of_the_same_total_budget():
    # The mover's value after 1,000 new iterations on a kept subtree against a fresh search of
    # 1,000 + the kept visits: the same quantity, so the means agree within their noise.
    game = nutcore.load_game("auf_die_nuesse", players=2)
    rng = random.Random(12)
    while True:  # a position whose best move is followed by the same seat's next decision
        start = decision_after(game.new_initial_state(), rng, rng.randrange(2, 30))
        if start is None:
            continue
        after = start.clone()
        after.apply_action(nutcore.best_move(start, "mcts", iterations=3000, seed=0).action)
        if not (after.is_chance_node() or after.is_terminal()) and len(after.legal_actions()) > 1:
            break
    kept_values, fresh_values = [], []
    for seed in range(16):
        tree = SearchTree()
        first = nutcore.best_move(start, "mcts", iterations=3000, seed=seed, tree=tree)
        state = start.clone()
        state.apply_action(first.action)
        if state.is_chance_node():
            continue
        kept = nutcore.best_move(state, "mcts", iterations=1000, seed=seed, tree=tree)
        fresh = nutcore.best_move(state, "mcts", iterations=1000 + kept.extra["reused_visits"], seed=seed + 100)
        assert kept.extra["reused_visits"] > 0
        kept_values.append(kept.value[state.current_player()])
        fresh_values.append(fresh.value[state.current_player()])
    assert len(kept_values) >= 8
    spread = statistics.pstdev(kept_values + fresh_values) + 0.01
    assert abs(statistics.mean(kept_values) - statistics.mean(fresh_values)) < 2 * spread


def test_bots_that_reuse_their_tree():
    game = nutcore.load_game("auf_die_nuesse", players=2)
    bot = nutcore.make_bot("mcts:iterations=200,reuse=true")
    assert bot.name == "mcts:iterations=200,reuse=True"
    one = nutcore.play_match(game, [bot, "mcts:iterations=200"], games=4, seed=3)
    two = nutcore.play_match(game, ["mcts:iterations=200,reuse=true", "mcts:iterations=200"], games=4, seed=3)
    assert one == two  # reset() clears the tree: a match is reproducible
    ritter = nutcore.load_game("ritter", players=2)
    nutcore.play_match(ritter, ["ismcts:iterations=100,reuse=true", "greedy"], games=2, seed=1)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda s: nutcore.best_move(s, "mcts", iterations=10, tree="tree"), "SearchTree"),
        (lambda s: nutcore.best_move(s, "expectimax", tree=SearchTree()), "keeps no tree"),
        (lambda s: nutcore.make_bot("mcts:reuse=yes"), "reuse"),
        (lambda s: nutcore.make_bot("expectimax:reuse=true"), "reuse"),
    ],
)
def test_bad_trees_are_rejected(call, message):
    state = decision_after(nutcore.load_game("auf_die_nuesse", players=2).new_initial_state(), random.Random(1), 3)
    with pytest.raises(ValueError, match=message):
        call(state)


def test_a_bot_that_reuses_its_tree_copies_and_pickles():
    import copy
    import pickle

    bot = nutcore.make_bot("mcts:iterations=100,reuse=true")
    state = decision_after(nutcore.load_game("auf_die_nuesse", players=2).new_initial_state(), random.Random(1), 3)
    bot.step(state)
    for twin in (copy.deepcopy(bot), pickle.loads(pickle.dumps(bot))):
        assert twin.name == bot.name  # the same bot, its tree left behind
        assert twin.step(state) in state.legal_actions()


def test_pimc_takes_no_tree():
    state = decision_after(nutcore.load_game("ritter", players=2).new_initial_state(), random.Random(1), 3)
    with pytest.raises(ValueError, match="keeps no tree"):
        nutcore.best_move(state, "pimc", iterations=10, tree=SearchTree())
