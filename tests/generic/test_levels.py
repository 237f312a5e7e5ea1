"""Imperfect memory (state.forget, the bots' memory and noise settings) and the difficulty levels
make_bot("level:N")."""

from __future__ import annotations

import math
import random

import pytest
from test_ismcts import load, position

import nutcore
from playing import random_step

GAMES = nutcore.list_games()


def states_along_a_game(name, players=2, seed=1, every=7):
    game = nutcore.load_game(name, players=players)
    state, rng, out = game.new_initial_state(), random.Random(seed), []
    step = 0
    while not state.is_terminal():
        if not state.is_chance_node() and step % every == 0:
            out.append(state.clone())
        random_step(state, rng)
        step += 1
    return out


def covered_holes(state):
    data = state.to_json()
    return data, [h for h in data["holes"] if h["white"]]


@pytest.mark.parametrize("name", GAMES)
def test_forget_keeps_the_position_and_what_can_be_done(name):
    for state in states_along_a_game(name):
        p = state.current_player()
        assert state.forget(p, 1.0, seed=3) == state  # perfect memory
        for recall in (0.0, 0.5):
            belief = state.forget(p, recall, seed=5)
            assert belief.legal_actions() == state.legal_actions()
            assert belief.history() == state.history()
            assert belief.current_player() == p


def test_ritter_forgets_only_the_seat_own_sightings():
    forgot = kept = 0
    states = [s for seed in range(3) for s in states_along_a_game("ritter", players=3, seed=seed, every=3)]
    for state in states:
        p = state.current_player()
        data = state.to_json()
        for seed in range(40):
            after = state.forget(p, 0.5, seed=seed).to_json()
            for before_stack, after_stack in zip(data["stacks"], after["stacks"]):
                assert after_stack["top"] == before_stack["top"]  # the cards do not change
                others = set(before_stack["seen_by"]) - {p}
                assert set(after_stack["seen_by"]) - {p} == others  # nor what others saw
                if p in before_stack["seen_by"]:
                    forgot += p not in after_stack["seen_by"]
                    kept += p in after_stack["seen_by"]
        nothing = state.forget(p, 0.0, seed=1).to_json()
        assert all(p not in s["seen_by"] for s in nothing["stacks"])
    # Each sighting is kept with probability 0.5.
    n = forgot + kept
    assert n > 100 and abs(kept - n / 2) < 4 * math.sqrt(n / 4)


def test_purzelbaum_mixes_up_the_covered_holes():
    changed = 0
    for state in states_along_a_game("purzelbaum", every=2):
        data, covered = covered_holes(state)
        for seed in range(4):
            after, after_covered = covered_holes(state.forget(state.current_player(), 0.0, seed=seed))
            # The open holes and every count stay; the covered holes' contents are permuted.
            key = lambda h: (h["nuts"], h["leaf"])  # noqa: E731
            assert sorted(map(key, after_covered)) == sorted(map(key, covered))
            open_holes = [(i, h) for i, h in enumerate(data["holes"]) if not h["white"]]
            assert [(i, after["holes"][i]) for i, _ in open_holes] == open_holes
            assert {k: v for k, v in after.items() if k != "holes"} == {k: v for k, v in data.items() if k != "holes"}
            changed += after != data
    assert changed > 0


@pytest.mark.parametrize("name", ["auf_die_nuesse", "nutz"])
def test_games_with_nothing_to_remember(name):
    for state in states_along_a_game(name, every=11):
        assert state.forget(state.current_player(), 0.0, seed=2) == state


@pytest.mark.parametrize("recall", [-0.1, 1.5, float("nan"), True, "0.5", None])
def test_bad_recall(recall):
    state = nutcore.load_game("ritter").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    before = state.to_json()
    with pytest.raises(ValueError):
        state.forget(0, recall)
    with pytest.raises(ValueError):
        state.forget(5, 0.5)
    assert state.to_json() == before


def test_a_forgetful_greedy_bot_does_not_shout_what_it_forgot():
    # Seat 1 has seen B3's top (Leo) and seat 0 has just drawn it (tests/generic/test_ismcts.py).
    state = load(position(stacks={"B3": (5, "Leo", [1])}, carried=[3, 0], scores=[10, 10]))
    assert nutcore.make_bot("greedy").step(state) == state.string_to_action("shout Leo")
    forgetful = nutcore.make_bot("greedy:memory=0")
    assert forgetful.step(state) == state.string_to_action("silent")


def test_noise_plays_random_moves():
    state = states_along_a_game("auf_die_nuesse")[3]
    noisy = nutcore.make_bot("greedy:noise=1")
    noisy.reset(4)
    moves = {noisy.step(state) for _ in range(60)}
    assert moves == set(state.legal_actions()) and len(moves) > 1


def test_bot_names_are_specs():
    for spec in ["greedy:memory=0.5", "greedy:memory=0.5,noise=0.1", "mcts:iterations=30,exploration=2"]:
        assert nutcore.make_bot(spec).name == spec
        assert nutcore.make_bot(nutcore.make_bot(spec).name).name == spec


def test_a_bot_budget_is_best_move_s():
    # The name is the settings the bot's searches get. No budget: best_move's default of 1000
    # iterations; a time limit alone is not capped (a bench "at equal time" once gave one side 1000
    # iterations and the other the whole time).
    assert nutcore.make_bot("mcts").name == "mcts:iterations=1000"
    assert nutcore.make_bot("auto:time_limit=0.02").name == "auto:time_limit=0.02"
    assert nutcore.make_bot("ismcts:time_limit=0.5,iterations=50").name == "ismcts:time_limit=0.5,iterations=50"


@pytest.mark.parametrize("name", GAMES)
def test_every_level_plays_every_game(name):
    state = states_along_a_game(name)[2]
    for level in nutcore.bots.LEVELS:
        if level >= 8:
            continue  # the big budgets: same code as level 7, only slower
        bot = nutcore.make_bot(f"level:{level}")
        assert bot.name == f"level:{level}"
        nutcore.bots.check_bot_for(bot, state)
        bot.reset(level)
        assert bot.step(state) in state.legal_actions()


@pytest.mark.parametrize("name", GAMES)
def test_a_level_plays_as_its_game_sets_it(name):
    # make_bot("level:N") is the game's level N: the generic table where the game sets nothing.
    states = states_along_a_game(name, every=11)[:4]
    for level in nutcore.bots.LEVELS:
        kind, options = nutcore.bots.level_settings(name, level)
        expected = nutcore.games.level_overrides(name).get(level, nutcore.bots.LEVELS[level])
        assert (kind, options) == expected
        if options.get("iterations", 0) > 1000:
            continue
        # Played, level 11 is the level below where the engine has no network for the player count.
        kind, options = nutcore.bots.level_settings(name, level, states[0].get_game().num_players())
        bot = nutcore.make_bot(f"level:{level}")
        same = nutcore.bots.GreedyBot(**options) if kind == "greedy" else nutcore.SearchBot(kind, **options)
        bot.reset(level)
        same.reset(level)
        assert [bot.step(s) for s in states] == [same.step(s) for s in states]


def test_games_set_their_own_levels():
    assert nutcore.bots.level_settings("purzelbaum", 9) == ("auto", {"iterations": 30})
    assert nutcore.bots.level_settings("nutz", 4) == ("auto", {"iterations": 6})
    assert nutcore.bots.level_settings("ritter", 10) == ("auto", {"iterations": 3000})
    assert nutcore.bots.level_settings("future_game", 8) == nutcore.bots.LEVELS[8]  # no table: the generic one
    # One level bot on two games plays each game's level, each from the seed of reset().
    bot = nutcore.make_bot("level:3")
    bot.reset(3)
    for name in ("purzelbaum", "ritter"):
        same = nutcore.bots.GreedyBot(**nutcore.bots.level_settings(name, 3)[1])
        same.reset(3)
        states = states_along_a_game(name)[:6]
        assert [bot.step(s) for s in states] == [same.step(s) for s in states]
        assert bot.for_game(name).name == "level:3"


def test_levels_grow_stronger_at_the_ends():
    game = nutcore.load_game("ritter", players=2)
    result = nutcore.play_match(game, ["level:1", "level:7"], games=8, seed=2)
    assert result.bots[1].win_share >= 0.75


@pytest.mark.parametrize(
    "spec", ["level:0", "level:12", "level:x", "level:", "level:3,iterations=5", "greedy:depth=2", "greedy:memory=2"]
)
def test_bad_level_and_memory_specs(spec):
    with pytest.raises(ValueError):
        nutcore.make_bot(spec)


def test_the_learned_level_is_the_one_below_where_no_network_is_built_in():
    for name in GAMES:
        for players in (2, 3, 4):
            kind, options = nutcore.bots.level_settings(name, 11, players)
            if nutcore.shipped_network(name, players) is None:
                assert (kind, options) == nutcore.bots.level_settings(name, 10, players)
            else:
                assert options["evaluator"] in ("learned", "learned+playout")
        assert nutcore.bots.level_settings(name, 11)[1]["evaluator"] in ("learned", "learned+playout")
    for name in GAMES:
        bot = nutcore.make_bot("level:11")
        for players in (2, 3):
            state = states_along_a_game(name, players=players, every=5)[1]
            assert bot.step(state) in state.legal_actions()
