"""Game records (docs/records.md): the JSON round trip, replay against the game's own play, a bad
record of every kind refused naming the move, a seat's record holding nothing the seat did not see
(the twin check), and the doors that write records (play_match, tournaments, nutcore play --save)."""

from __future__ import annotations

import copy
import json
import random

import pytest

import nutcore
from nutcore.cli import main
from playing import random_step


def random_game(name, players, seed):
    game = nutcore.load_game(name, players=players)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        random_step(state, rng)
    return game, state


@pytest.mark.parametrize("name", nutcore.list_games())
@pytest.mark.parametrize("players", [2, 3, 4])
def test_round_trip_and_replay_equal_the_games_own_play(name, players):
    game, state = random_game(name, players, seed=players)
    record = nutcore.GameRecord.from_history(game, state.history(), ["random"] * players)
    again = nutcore.load_record(record.to_json())
    assert again == record
    assert nutcore.load_record(json.loads(record.to_json())) == record
    end = again.replay()
    assert end.serialize() == state.serialize() and end.returns() == state.returns()
    assert [m.action for m in again] == state.history()
    assert record.result["returns"] == state.returns()
    assert record.result["winners"] == [s for s, r in enumerate(state.returns()) if r == max(state.returns())]


def test_round_trip_through_a_file(tmp_path):
    game, state = random_game("ritter", 3, seed=1)
    record = nutcore.GameRecord.from_history(game, state.history())
    path = tmp_path / "game.json"
    record.save(path)
    assert nutcore.load_record(str(path)) == record


def _full(name="auf_die_nuesse", players=2, seed=3):
    game, state = random_game(name, players, seed)
    return nutcore.GameRecord.from_history(game, state.history(), ["greedy", "random"][:players]).to_dict()


def _decision(data, start=10):
    return next(i for i, m in enumerate(data["moves"]) if i >= start and m["player"] is not None)


def test_an_illegal_move_is_named():
    data = _full()
    i = _decision(data)
    data["moves"][i]["move"]["action"] = 10**6
    with pytest.raises(ValueError, match=f"move {i + 1} .*not a legal move"):
        nutcore.load_record(data)


def test_a_move_whose_text_is_not_its_action_is_named():
    data = _full()
    i = _decision(data)
    data["moves"][i]["move"]["action_string"] = "something else"
    with pytest.raises(ValueError, match=f"move {i + 1} .*not the recorded text"):
        nutcore.load_record(data)


def test_a_move_by_the_wrong_seat_is_named():
    data = _full()
    i = _decision(data)
    data["moves"][i]["player"] = 1 - data["moves"][i]["player"]
    with pytest.raises(ValueError, match=f"move {i + 1} .*seat {1 - data['moves'][i]['player']}'s move"):
        nutcore.load_record(data)


def test_the_wrong_game_is_refused():
    data = _full("ritter")
    with pytest.raises(ValueError, match="parameters do not make a 'nutz' game"):
        nutcore.load_record({**data, "game": "nutz"})
    # With parameters that fit the other game, its first move is the first bad one.
    with pytest.raises(ValueError, match="move 1 "):
        nutcore.load_record({**data, "game": "nutz", "params": {"players": 2}})
    with pytest.raises(ValueError, match="unknown game"):
        nutcore.load_record({**data, "game": "chess"})


def test_a_truncated_record_is_refused():
    data = _full()
    cut = {**data, "moves": data["moves"][:-5]}
    with pytest.raises(ValueError, match="truncated"):
        nutcore.load_record(cut)
    # Without its result it is a game not over: that loads.
    assert nutcore.load_record({**cut, "result": None}).replay().is_terminal() is False
    # And a finished game without its result does not.
    with pytest.raises(ValueError, match="no result"):
        nutcore.load_record({**data, "result": None})


def test_moves_after_the_end_are_named():
    data = _full()
    extra = copy.deepcopy(data["moves"][-1])
    with pytest.raises(ValueError, match=f"move {len(data['moves']) + 1} .*game was over"):
        nutcore.load_record({**data, "moves": [*data["moves"], extra]})


def test_a_wrong_result_is_refused():
    data = _full()
    data["result"]["returns"] = data["result"]["returns"][::-1]
    with pytest.raises(ValueError, match="not the game's"):
        nutcore.load_record(data)


@pytest.mark.parametrize("version", [0, 2, "1", True, None])
def test_a_wrong_version_is_refused(version):
    with pytest.raises(ValueError, match="version"):
        nutcore.load_record({**_full(), "version": version})


@pytest.mark.parametrize(
    "edit, named",
    [
        (lambda d: d.update(format="pgn"), "format"),
        (lambda d: d.pop("seats"), "missing fields \\['seats'\\]"),
        (lambda d: d.update(colour="red"), "unknown fields \\['colour'\\]"),
        (lambda d: d.update(players=3), "players is 3"),
        (lambda d: d.update(seats=["greedy", "random"]), "seat 0"),
        (lambda d: d.update(seat=7), "seat"),
        (lambda d: d.update(moves="none"), "moves is a list"),
        (lambda d: d["moves"].__setitem__(4, [1, 2]), "move 5: a move is an object"),
        (lambda d: d["moves"][4].update(player="0"), "move 5: player"),
        (lambda d: d["moves"][4].update(hidden="no"), "move 5: hidden"),
        (lambda d: d["moves"][4]["move"].update(action=-1), "move 5: action"),
        (lambda d: d["moves"][4]["move"].update(action=1.5), "move 5: action"),
        (lambda d: d["moves"][4]["move"].update(action_string=3), "move 5: action_string"),
        (lambda d: d["moves"][4].update(hidden=True), "move 5: hidden is True"),
        (lambda d: d["moves"][4]["move"].update(action=None), "move 5: hidden is False but the action id is masked"),
        (
            lambda d: (d["moves"][4]["move"].update(action=None), d["moves"][4].update(hidden=True)),
            "move 5: .*full record gives every move whole",
        ),
        (lambda d: d["moves"][4].update(view="x"), "move 5: a move has the fields"),
        (lambda d: d.update(result=[1, 0]), "result"),
        (lambda d: d.update(info=[]), "info"),
    ],
)
def test_a_malformed_field_is_refused_by_name(edit, named):
    data = _full()
    edit(data)
    with pytest.raises(ValueError, match=named):
        nutcore.load_record(data)


def test_load_record_refuses_what_is_not_a_record(tmp_path):
    with pytest.raises(ValueError, match="not JSON"):
        nutcore.load_record("{not json")
    with pytest.raises(ValueError, match="record"):
        nutcore.load_record(str(tmp_path / "missing.json"))
    with pytest.raises(ValueError, match="a path, a JSON string or a dict"):
        nutcore.load_record(42)


# -- a seat's record -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["nutz", "ritter"])
@pytest.mark.parametrize("players", [2, 3])
def test_a_seats_record_masks_what_it_did_not_see_and_loads(name, players):
    game, state = random_game(name, players, seed=5)
    record = nutcore.GameRecord.from_history(game, state.history())
    for seat in range(players):
        mine = record.for_seat(seat)
        assert mine.is_seat_record and mine.seat == seat
        assert any(m.hidden for m in mine)  # others' hidden draws and cards
        for full, seen in zip(record, mine):
            assert seen.player == full.player
            assert seen.action in (None, full.action)
            if seen.player == seat:  # its own moves, whole
                assert seen.action == full.action
        again = nutcore.load_record(mine.to_json())
        assert again == mine
        assert again.replay().information_state_string(seat) == state.information_state_string(seat)
        with pytest.raises(ValueError, match="full record"):
            mine.for_seat(seat)


def test_a_seats_record_of_a_game_of_perfect_information_is_the_whole_game():
    game, state = random_game("purzelbaum", 2, seed=2)
    record = nutcore.GameRecord.from_history(game, state.history())
    mine = record.for_seat(1)
    assert [m.seen() for m in mine] == [m.seen() for m in record]
    assert nutcore.load_record(mine.to_dict()).replay().serialize() == state.serialize()


def test_a_seats_record_with_a_move_no_world_allows_is_named():
    game, state = random_game("ritter", 2, seed=5)
    data = nutcore.GameRecord.from_history(game, state.history()).for_seat(0).to_dict()
    i = next(i for i, m in enumerate(data["moves"]) if m["hidden"] and m["player"] is not None)
    data["moves"][i]["move"]["action_string"] = "a loud shout"
    with pytest.raises(ValueError, match=f"move {i + 1} .*no position this seat could be in"):
        nutcore.load_record(data)


@pytest.mark.parametrize("name", ["nutz", "ritter"])
def test_twin_games_give_the_same_seats_record(name):
    """The twin check: at a hidden move of another seat or of chance, play a different action
    that the seat sees alike (the same observe text) and then the same moves while they stay
    legal; where the two games give the seat the same views, its records are the same, and
    where a record holds something the seat did not see, they differ."""
    game = nutcore.load_game(name, players=2)
    seat = 0
    compared = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = game.new_initial_state()
        prefix = []
        while not state.is_terminal() and len(prefix) < 200:
            mover = None if state.is_chance_node() else state.current_player()
            options = [a for a, _ in state.chance_outcomes()] if mover is None else state.legal_actions()
            if mover != seat and len(prefix) > 8:
                seen = {a: state.observe_action(a, seat) for a in options}
                twins = [(a, b) for a in options for b in options if a < b and not seen[a][1] and seen[a] == seen[b]]
                if twins:
                    a, b = rng.choice(twins)
                    one, two = prefix + [a], prefix + [b]
                    records = []
                    for history in (one, two):
                        s = game.new_initial_state()
                        for x in history:
                            s.apply_action(x)
                        records.append(nutcore.GameRecord.from_history(game, s.history()))
                    if all(
                        r.for_seat(seat).moves[-1].view == records[0].for_seat(seat).moves[-1].view for r in records
                    ):
                        assert records[0].for_seat(seat).to_dict() == records[1].for_seat(seat).to_dict()
                        assert records[0].to_dict() != records[1].to_dict()
                        compared += 1
                    break
            a = random_step(state, rng)
            prefix.append(a)
    assert compared >= 10, compared


# -- where records come from ---------------------------------------------------------------------


def test_play_match_keeps_a_record_per_game():
    game = nutcore.load_game("ritter", players=2)
    result = nutcore.play_match(game, ["greedy", "random"], games=3, seed=4, records=True)
    assert len(result.records) == 3
    for g, record in enumerate(result.records):
        assert record.seat is None and record.info["match_game"] == g
        shift = g % 2  # seats rotate: bot i sits at (i + g) mod 2
        assert record.seats[shift] == {"bot": "greedy"} and record.seats[1 - shift] == {"bot": "random"}
        assert nutcore.load_record(record.to_json()).replay().returns() == record.result["returns"]
    assert [r.result["returns"][(0 + g) % 2] for g, r in enumerate(result.records)] == result.bots[0].returns
    assert nutcore.play_match(game, ["greedy"], games=1).records == []


def test_a_tournament_writes_its_records_beside_its_results(tmp_path):
    out = tmp_path / "t"
    result = nutcore.tournament("purzelbaum", 2, ["greedy", "random"], games=4, seed=2, workers=1, output=out)
    lines = (out / "records.jsonl").read_text().splitlines()
    records = [nutcore.load_record(json.loads(line)) for line in lines]
    assert sorted(r.info["tournament_game"] for r in records) == [0, 1, 2, 3]
    for r in records:
        rec = result.records[r.info["tournament_game"]]
        assert r.seats == [{"bot": result.bots[b]} for b in rec["lineup"]]
        assert r.result["returns"] == rec["returns"]
    assert "record" not in json.loads((out / "results.json").read_text())["records"][0]
    # Run again with the same output: nothing to play, nothing written twice.
    nutcore.tournament("purzelbaum", 2, ["greedy", "random"], games=4, seed=2, workers=1, output=out)
    assert (out / "records.jsonl").read_text().splitlines() == lines


@pytest.mark.parametrize("name", ["ritter", "nutz", "auf_die_nuesse"])
def test_play_save_writes_the_game_played_at_the_terminal(name, tmp_path, monkeypatch, capsys):
    answers = iter(["0"] * 2000)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    path = tmp_path / "game.json"
    argv = ["play", name, "--bot", "greedy", "--seed", "5", "--save", str(path), "--name", "Ann", "--seat", "1"]
    assert main(argv) == 0
    assert "record saved" in capsys.readouterr().out
    record = nutcore.load_record(str(path))
    assert record.seats == [{"bot": "greedy"}, {"person": "Ann"}]
    assert record.result is not None
    game = nutcore.load_game(name)
    if game.hidden_information:  # the human seat's record: what it saw
        assert record.seat == 1 and any(m.hidden for m in record)
    else:
        assert record.seat is None and record.replay().is_terminal()


def test_play_save_keeps_a_game_left_early(tmp_path, monkeypatch):
    answers = iter(["0", "0", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    path = tmp_path / "game.json"
    assert main(["play", "purzelbaum", "--bot", "greedy", "--save", str(path)]) == 0
    record = nutcore.load_record(str(path))
    assert record.result is None and not record.replay().is_terminal()
    assert record.seats[0] == {"person": "you"}


def test_from_protocol_matches_the_full_record():
    """The protocol's record of a host connection is the full record, move for move."""
    from nutcore.cli import _Connection

    engine = _Connection()
    try:
        engine.ask("new_game", game="ritter", players=2, seat=None, seed=9)
        status = engine.ask("status")["status"]
        while not status["terminal"]:
            status = (engine.ask("chance") if status["chance"] else engine.ask("go", bot="greedy"))["status"]
        reply = engine.ask("record")
        truth = engine.ask("get_position")
    finally:
        engine.close()
    game = nutcore.load_game("ritter", players=2)
    record = nutcore.GameRecord.from_protocol(reply, game, ["greedy", "greedy"])
    assert record.seat is None and record.result["returns"] == reply["status"]["returns"]
    assert record.replay().to_json() == truth["position"]
    # The protocol adds a chance outcome's probability where the connection may see it; a record
    # does not keep it (the rules give it again). Everything else is the same, field for field.
    assert any(m["move"].get("probability") is not None for m in reply["moves"])
    for m in reply["moves"]:
        m["move"].pop("probability", None)
    assert [m.to_dict() for m in record] == reply["moves"]
