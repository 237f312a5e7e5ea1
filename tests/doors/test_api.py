"""The common Python API (foundation issue): loading games, parameters, encodings, errors."""

from __future__ import annotations

import copy
import random
import re

import numpy as np
import pytest

import nutcore
from auf_die_nuesse_positions import act, position
from playing import play_randomly, random_step


def test_list_and_load_games():
    assert "auf_die_nuesse" in nutcore.list_games()
    game = nutcore.load_game("auf_die_nuesse", players=3)
    assert game.num_players() == 3
    assert game.params["players"] == 3
    assert game.params["turn_cap"] == 400
    assert game.params["store_values"] == [5, 5, 10, 10, 15, 15, 20, 30]
    assert nutcore.CHANCE == -1 and nutcore.TERMINAL == -4


def test_parameters_can_be_overridden():
    game = nutcore.load_game(
        "auf_die_nuesse", players=2, turn_cap=10, squirrels=12, reserve=4, store_values=[1, 2, 3, 4, 5, 6, 7, 8]
    )
    assert game.params["turn_cap"] == 10 and game.params["reserve"] == 4
    state = game.new_initial_state()
    assert state.to_json()["reserve"] == 4


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 1},
        {"players": 5},
        {"players": "two"},
        {"turn_cap": 0},
        {"squirrels": 16},
        {"squirrels": 2.5},
        {"reserve": -1},
        {"store_capacities": [2, 2, 3]},
        {"store_capacities": [2, 2, 3, 3, 4, 4, 5, 8]},
        {"store_values": "high"},
        {"nuts_per_kind": 2, "jokers_per_pair": 0},  # deck too small for the set-up
        {"no_such_parameter": 1},
        {"turn_cap": True},
    ],
)
def test_bad_parameters_raise_value_error(kwargs):
    with pytest.raises(ValueError):
        nutcore.load_game("auf_die_nuesse", **kwargs)


def test_unknown_game():
    with pytest.raises(ValueError, match="unknown game") as refused:
        nutcore.load_game("chess")
    assert all(name in str(refused.value) for name in nutcore.list_games())  # it names what there is


def test_test_hooks_are_not_in_the_product_module():
    """Hooks that only tests read live in the private nutcore._core._testing."""
    from nutcore import _core

    hooks = ("adn_heuristic_margin", "purzelbaum_outcome_table")
    assert not any(hasattr(_core, name) or hasattr(nutcore, name) for name in hooks)
    assert all(callable(getattr(_core._testing, name)) for name in hooks)


def test_every_game_is_one_pair_of_classes_whose_facts_come_from_its_declaration():
    """Every game is a nutcore.Game and its states nutcore.State; what a game is (its name, title,
    information, algorithms, solver) is read from its declaration (_core.game_infos), on the game
    and on each of its states alike."""
    from nutcore import _core

    infos = {info["name"]: info for info in _core.game_infos()}
    for name in nutcore.list_games():
        game = nutcore.load_game(name)
        state = game.new_initial_state()
        assert type(game) is nutcore.Game and type(state) is nutcore.State
        assert type(state.clone()) is nutcore.State and type(state.get_game()) is nutcore.Game
        info = infos[name]
        assert (game.name, game.title, game.hidden_information) == (name, info["title"], info["hidden_information"])
        assert game.algorithms == state.algorithms == info["algorithms"] and game.algorithms
        assert game.whole_game_solver == state.whole_game_solver == info["whole_game_solver"]
        assert state.game_name == name and state.hidden_information == game.hidden_information
    # One class, many games: states and games of different games are never equal.
    a, b = (nutcore.load_game(name) for name in nutcore.list_games()[:2])
    assert a != b and a.new_initial_state() != b.new_initial_state()


@pytest.mark.parametrize(
    "old",
    ["AufDieNuesse", "Purzelbaum", "Ritter", "Nutz"],  # the classes each game had before the one pair
)
def test_the_per_game_class_names_are_deprecated_aliases(old):
    from nutcore import _core

    for module in (nutcore, _core):
        for suffix, cls in (("Game", nutcore.Game), ("State", nutcore.State)):
            with pytest.warns(DeprecationWarning, match=f"{old}{suffix} is deprecated") as caught:
                assert getattr(module, old + suffix) is cls
            assert caught[0].filename == __file__  # it points at the caller
    for module in (nutcore, _core):
        with pytest.raises(AttributeError):
            module.ChessState  # noqa: B018
        assert not hasattr(module, "AufDieNuesse")


def test_a_game_writes_no_binding_code():
    """A game's Python classes are the generic pair and its hooks are generated from the build's game
    list: in a game's folder only the optional python_testing.cc (hooks for its own tests) speaks
    to Python."""
    from pathlib import Path

    games = Path(__file__).resolve().parents[2] / "cpp" / "games"
    for name in nutcore.list_games():
        for path in sorted((games / name).iterdir()):
            if path.name != "python_testing.cc":
                assert not re.search(r"pybind11|\bpy::", path.read_text(encoding="utf-8")), path


def test_a_game_test_hook_refuses_another_games_state():
    from nutcore import _core

    nutz = nutcore.load_game("nutz").new_initial_state()
    with pytest.raises(ValueError, match="needs a state of auf_die_nuesse, not of nutz"):
        _core._testing.adn_heuristic_margin(nutz, 0)


def random_state(game, seed, steps):
    return play_randomly(game.new_initial_state(), random.Random(seed), steps)


def test_illegal_action_raises_and_leaves_the_state_unchanged():
    game = nutcore.load_game("auf_die_nuesse", players=3)
    state = random_state(game, 3, 60)
    before = state.to_json()
    history = state.history()
    legal = state.legal_actions() if not state.is_chance_node() else [a for a, _ in state.chance_outcomes()]
    illegal = next(a for a in range(300) if a not in legal)
    with pytest.raises(ValueError, match="illegal action") as info:
        state.apply_action(illegal)
    assert state.action_to_string(legal[0]) in str(info.value)
    for bad in [-1, 10**6, 2**31 - 1, 2**40, -(2**40)]:
        with pytest.raises(ValueError):
            state.apply_action(bad)
    assert state.to_json() == before and state.history() == history


def test_actions_after_the_end_are_rejected():
    game = nutcore.load_game("auf_die_nuesse", players=2)
    state = random_state(game, 1, 10**6)
    assert state.is_terminal() and state.legal_actions() == [] and state.chance_outcomes() == []
    assert state.current_player() == nutcore.TERMINAL
    with pytest.raises(ValueError, match="over"):
        state.apply_action(0)


def test_action_strings_round_trip():
    state = nutcore.load_game("auf_die_nuesse").new_initial_state()
    names = [state.action_to_string(a) for a in range(292)]
    assert len(set(names)) == 292
    assert all(state.string_to_action(name) == a for a, name in enumerate(names))
    with pytest.raises(ValueError):
        state.string_to_action("jump")
    with pytest.raises(ValueError):
        state.action_to_string(292)


def test_history_replays_to_the_same_state():
    game = nutcore.load_game("auf_die_nuesse", players=4)
    state = random_state(game, 7, 300)
    replay = game.new_initial_state()
    for a in state.history():
        replay.apply_action(a)
    assert replay == state and replay.to_json() == state.to_json()


def test_clone_is_independent():
    game = nutcore.load_game("auf_die_nuesse", players=2)
    state = random_state(game, 2, 40)
    twin = state.clone()
    assert twin == state
    while twin.to_json() == state.to_json():
        twin.apply_action(twin.chance_outcomes()[0][0] if twin.is_chance_node() else twin.legal_actions()[0])
    assert twin != state and len(twin.history()) > len(state.history())


def test_serialize_round_trip_and_size():
    game = nutcore.load_game("auf_die_nuesse", players=4)
    state = random_state(game, 5, 200)
    data = state.serialize()
    assert isinstance(data, bytes) and len(data) == 8 + 124
    assert game.deserialize_state(data) == state


@pytest.mark.parametrize(
    "mutate",
    [
        lambda b: b[:-1],  # truncated
        lambda b: b + b"\0",  # padded
        lambda b: b"",
        lambda b: b"XUTC" + b[4:],  # not ours
        lambda b: b[:4] + b"\x09" + b[5:],  # another game's tag
        lambda b: b[:5] + b"\x63" + b[6:],  # unknown version
        lambda b: b[:6] + b"\x03" + b[7:],  # another player count
    ],
)
def test_bad_bytes_raise_value_error(mutate):
    game = nutcore.load_game("auf_die_nuesse", players=2)
    data = random_state(game, 4, 100).serialize()
    with pytest.raises(ValueError):
        game.deserialize_state(mutate(data))


def test_corrupted_bytes_never_crash():
    # Every single-byte corruption either loads a valid state or raises ValueError.
    game = nutcore.load_game("auf_die_nuesse", players=3)
    data = bytearray(random_state(game, 9, 150).serialize())
    rng = random.Random(0)
    for i in range(8, len(data)):
        for value in {0, 255, rng.randrange(256), data[i] ^ 1}:
            corrupt = bytearray(data)
            corrupt[i] = value
            try:
                state = game.deserialize_state(bytes(corrupt))
            except ValueError:
                continue
            # A corruption that validates is a legal position: it must play on without trouble.
            random_state_from(state, rng, 50)


def random_state_from(state, rng, steps):
    for _ in range(steps):
        if state.is_terminal():
            return
        assert state.is_chance_node() or len(state.legal_actions()) >= 2
        random_step(state, rng)


def test_a_state_from_other_player_count_is_rejected():
    two = nutcore.load_game("auf_die_nuesse", players=2)
    three = nutcore.load_game("auf_die_nuesse", players=3)
    with pytest.raises(ValueError):
        three.state_from_json(two.new_initial_state().to_json())


BASE = position(3, phase="roll_or_stop", start_track=[4, 9], board={"A": [1, 0, 1], "L": [0, 2, 0]})


def edit(path, value):
    data = copy.deepcopy(BASE)
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


DELETE = object()


@pytest.mark.parametrize(
    "data",
    [
        edit(["board", "A"], [16, 0, 0]),  # squirrels over 15
        edit(["board", "L"], [0, 15, 0]),  # more than 15 out for seat 1
        edit(["board", "A"], [1, 0]),  # wrong length
        edit(["board", "Z"], [0, 0, 0]),  # unknown space
        edit(["unseen", "walnut"], 13),  # more walnuts than the deck has
        edit(["unseen", "walnut"], 0),  # unseen cards no longer match the draw pile
        edit(["draw_pile"], 99),
        edit(["stores", 0, 0], {"kind": "walnut", "nuts": 3, "jokers": 0}),  # over capacity
        edit(["stores", 0, 0], {"kind": None, "nuts": 1, "jokers": 0}),  # nuts without a kind
        edit(["stores", 0, 0], {"kind": "walnut", "nuts": 1, "jokers": 2}),
        edit(["stores", 0, 0], {"kind": "cashew", "nuts": 1, "jokers": 0}),
        edit(["stores", 0], []),
        edit(["face_up", 0], "cashew"),
        edit(["face_up", 0], None),  # an empty slot while cards are left
        edit(["phase"], "dance"),
        edit(["phase"], "steal"),  # phase of another stage
        edit(["stage"], "check"),
        edit(["current_player"], 2),
        edit(["supply", 0], 3),
        edit(["active"], 3),
        edit(["turn"], -1),
        edit(["turn"], 400),
        edit(["start_track"], [9, 4]),
        edit(["start_track"], [1]),
        edit(["seat"], 0),
        edit(["pending"], "walnut"),
        edit(["david"], 7),
        edit(["roll_choice"], [3, 4]),
        edit(["kept_jokers", 0, "walnut/hazelnut"], 3),
        edit(["kept_jokers", 0, "walnut"], 1),
        edit(["end_triggered"], 1),
        edit(["game"], "nutz"),
        edit(["players"], 4),
        edit(["draw_pile"], DELETE),
        edit(["extra"], 1),
        [1, 2, 3],
        "state",
        None,
    ],
)
def test_inconsistent_json_raises_value_error(data):
    game = nutcore.load_game("auf_die_nuesse", players=3)
    game.state_from_json(BASE)  # the unedited base is fine
    with pytest.raises(ValueError):
        game.state_from_json(data)


def test_json_that_is_not_json_raises_value_error():
    game = nutcore.load_game("auf_die_nuesse", players=3)
    data = copy.deepcopy(BASE)
    data["turn"] = object()
    with pytest.raises(ValueError):
        game.state_from_json(data)
    data["turn"] = float("nan")
    with pytest.raises(ValueError):
        game.state_from_json(data)


def test_random_playouts():
    game = nutcore.load_game("auf_die_nuesse", players=3)
    returns, lengths = game.random_playouts(50, seed=11)
    assert returns.shape == (50, 3) and returns.dtype == np.float64
    assert lengths.shape == (50,) and (lengths > 50).all()
    np.testing.assert_allclose(returns.sum(axis=1), 1.0)
    again, again_lengths = game.random_playouts(50, seed=11)
    np.testing.assert_array_equal(returns, again)
    np.testing.assert_array_equal(lengths, again_lengths)
    other, other_lengths = game.random_playouts(50, seed=12)
    assert not np.array_equal(lengths, other_lengths)
    with pytest.raises(ValueError):
        game.random_playouts(-1)
    # From a given state: the initial one gives the same games; a later one shorter games.
    start = game.new_initial_state()
    np.testing.assert_array_equal(game.random_playouts(50, seed=11, state=start)[1], lengths)
    for _ in range(40):
        start.apply_action((start.chance_outcomes()[0][0]) if start.is_chance_node() else start.legal_actions()[0])
    later = game.random_playouts(50, seed=11, state=start)[1]
    assert later.mean() < lengths.mean() and start.history() and len(start.history()) == 40
    for bad in (nutcore.load_game("auf_die_nuesse", players=2).new_initial_state(), "state", 3):
        with pytest.raises(ValueError):
            game.random_playouts(5, state=bad)


def test_readable_board():
    game = nutcore.load_game("auf_die_nuesse", players=2)
    state = game.state_from_json(position(2, phase="roll_or_stop", start_track=[7]))
    text = str(state)
    assert "2-area" in text and "face-up" in text and "seat 0" in text
    act(state, "stop")
    assert "R: 1 0" in str(state)


def test_every_declared_game_has_its_parts():
    """A game is declared once (cpp/games/<g>/declaration.h, CMake's NUTCORE_GAMES); every other
    part of it is found by its name, and must be there: its reference, its rules page, its board."""
    from pathlib import Path

    import nutcore.reference

    root = Path(__file__).resolve().parents[2]
    static = Path(nutcore.__file__).resolve().parent / "web" / "static" / "boards"
    assert nutcore.reference.list_games() == nutcore.list_games()
    for name in nutcore.list_games():
        assert (root / "docs" / "rules" / f"{name}.md").exists(), name
        assert (root / "cpp" / "games" / name / "declaration.h").exists(), name
        assert (static / f"{name}.js").exists(), name
        assert nutcore.load_game(name).params["players"] == 2
