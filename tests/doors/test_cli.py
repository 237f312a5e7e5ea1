"""The command line never prints a traceback for bad input: one line naming the problem, exit code
2. And the AI's commands work in every phase of every game (Purzelbaum's winter included)."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

import nutcore
from nutcore.cli import main
from playing import random_step


def decision_position(name="auf_die_nuesse", players=2, seed=4, winter=False):
    game = nutcore.load_game(name, players=players)
    rng = random.Random(seed)
    while True:
        state = game.new_initial_state()
        for _ in range(400):
            if state.is_terminal():
                break
            wanted = state.to_json().get("season") == "winter" if winter else len(state.history()) >= 12
            if wanted and not state.is_chance_node():
                return state
            random_step(state, rng)


@pytest.fixture
def files(tmp_path):
    """Position files, good and bad, by name."""
    state = decision_position()
    good = state.to_json()
    finished = state.clone()
    rng = random.Random(1)
    while not finished.is_terminal():
        random_step(finished, rng)
    contents = {
        "good": json.dumps(good),
        "winter": json.dumps(decision_position("purzelbaum", winter=True).to_json()),
        "finished": json.dumps(finished.to_json()),
        "nested": "[" * 100_000 + "]" * 100_000,
        "nested_object": '{"a":' * 50_000 + "1" + "}" * 50_000,
        "nan": json.dumps(good).replace('"players": 2', '"players": NaN'),
        "infinity": json.dumps({**good, "seat": 0}).replace('"seat": 0', '"seat": Infinity'),
        "not_json": "{players: 2",
        "list": "[1, 2, 3]",
        "empty": "",
        "edited": json.dumps({**good, "seat": 7}),
        "huge_int": json.dumps({**good, "players": 10**30}),
        "bool_players": json.dumps({**good, "players": True}),
        "unknown_key": json.dumps({**good, "colour": "red"}),
    }
    paths = {}
    for name, text in contents.items():
        path = tmp_path / f"{name}.json"
        path.write_text(text)
        paths[name] = str(path)
    binary = tmp_path / "binary.json"
    binary.write_bytes(bytes(range(256)) * 4)
    paths["binary"] = str(binary)
    paths["missing"] = str(tmp_path / "missing.json")
    paths["directory"] = str(tmp_path)
    return paths


BAD = [
    [],
    ["warp"],
    ["match"],
    ["match", "chess"],
    ["match", "auf_die_nuesse", "--players", "7"],
    ["match", "auf_die_nuesse", "--players", "x"],
    ["match", "auf_die_nuesse", "--players", str(10**30)],
    ["match", "auf_die_nuesse", "--games", "0"],
    ["match", "auf_die_nuesse", "--games", "-3"],
    ["match", "auf_die_nuesse", "--games", "1.5"],
    ["match", "auf_die_nuesse", "--seed", "-1"],
    ["match", "auf_die_nuesse", "--seed", str(2**64)],
    ["match", "auf_die_nuesse", "--bot", "warp"],
    ["match", "auf_die_nuesse", "--bot", "random:x=1"],
    ["match", "auf_die_nuesse", "--bot", "solver:anything=1"],
    ["match", "auf_die_nuesse", "--bot", "greedy:x=1"],
    ["match", "auf_die_nuesse", "--bot", "mcts:iterations"],
    ["match", "auf_die_nuesse", "--bot", "mcts:iterations=-1"],
    ["match", "auf_die_nuesse", "--bot", "mcts:iterations=99999999999999999999999"],
    ["match", "auf_die_nuesse", "--bot", "mcts:iterations=1e999"],
    ["match", "auf_die_nuesse", "--bot", "mcts:threads=true"],
    ["match", "auf_die_nuesse", "--bot", "expectimax:bound=-1"],
    ["match", "auf_die_nuesse", "--bot", "greedy", "--bot", "greedy", "--bot", "greedy"],
    ["match", "auf_die_nuesse", "--unknown-flag"],
    ["playouts", "auf_die_nuesse", "--games", "0"],
    ["playouts", "auf_die_nuesse", "--games", "-5"],
    ["playouts", "auf_die_nuesse", "--games", str(10**20)],
    ["playouts", "auf_die_nuesse", "--seed", str(2**64)],
    ["playouts", "purzelbaum", "--players", "1"],
    ["play", "auf_die_nuesse", "--seat", "5"],
    ["play", "auf_die_nuesse", "--hint-iterations", "0"],
    ["play", "auf_die_nuesse", "--bot", "nonsense"],
    ["play", "auf_die_nuesse", "--seed", "-2"],
    ["bestmove", "auf_die_nuesse"],
    ["bestmove", "auf_die_nuesse", "--json", "@missing"],
    ["bestmove", "auf_die_nuesse", "--json", "@directory"],
    ["bestmove", "auf_die_nuesse", "--json", "@binary"],
    ["bestmove", "auf_die_nuesse", "--json", "@nested"],
    ["bestmove", "auf_die_nuesse", "--json", "@nested_object"],
    ["bestmove", "auf_die_nuesse", "--json", "@nan"],
    ["bestmove", "auf_die_nuesse", "--json", "@infinity"],
    ["bestmove", "auf_die_nuesse", "--json", "@not_json"],
    ["bestmove", "auf_die_nuesse", "--json", "@list"],
    ["bestmove", "auf_die_nuesse", "--json", "@empty"],
    ["bestmove", "auf_die_nuesse", "--json", "@edited"],
    ["bestmove", "auf_die_nuesse", "--json", "@huge_int"],
    ["bestmove", "auf_die_nuesse", "--json", "@bool_players"],
    ["bestmove", "auf_die_nuesse", "--json", "@unknown_key"],
    ["bestmove", "auf_die_nuesse", "--json", "@finished"],
    ["bestmove", "purzelbaum", "--json", "@good"],
    ["bestmove", "auf_die_nuesse", "--json", "@good", "--option", "depth"],
    ["bestmove", "auf_die_nuesse", "--json", "@good", "--option", "=3"],
    [
        "bestmove",
        "auf_die_nuesse",
        "--json",
        "@good",
        "--algorithm",
        "expectimax",
        "--option",
        "depth=99999999999999999999",
    ],
    ["bestmove", "auf_die_nuesse", "--json", "@good", "--algorithm", "expectimax", "--option", "depth=true"],
    ["bestmove", "auf_die_nuesse", "--json", "@good", "--algorithm", "expectimax", "--option", "bound=0"],
    ["bestmove", "auf_die_nuesse", "--json", "@good", "--algorithm", "expectimax", "--option", "bound=NaN"],
    ["bestmove", "auf_die_nuesse", "--json", "@good", "--option", "nonsense=1"],
    ["bestmove", "auf_die_nuesse", "--json", "@good", "--option", "max_nodes=1e999"],
    ["bestmove", "auf_die_nuesse", "--json", "@good", "--option", "heuristic_rollouts=no"],
    ["bestmove", "auf_die_nuesse", "--json", "@good", "--iterations", "0"],
    ["bestmove", "auf_die_nuesse", "--json", "@good", "--iterations", str(10**30)],
    ["bestmove", "auf_die_nuesse", "--json", "@good", "--threads", "0"],
    ["bestmove", "auf_die_nuesse", "--json", "@good", "--threads", str(2**64)],
    ["bestmove", "auf_die_nuesse", "--json", "@good", "--time-limit", "nan"],
    ["bestmove", "auf_die_nuesse", "--json", "@good", "--time-limit", "inf"],
    ["bestmove", "auf_die_nuesse", "--json", "@good", "--time-limit", "-1"],
    ["bestmove", "auf_die_nuesse", "--json", "@good", "--seed", "-1"],
    ["bestmove", "auf_die_nuesse", "--json", "@good", "--seed", str(2**64)],
    ["bestmove", "auf_die_nuesse", "--json", "@good", "--algorithm", "warp"],
    ["bestmove", "auf_die_nuesse", "--json", "@good", "--algorithm", "solver", "--iterations", "5"],
]


@pytest.mark.parametrize("argv", BAD, ids=lambda argv: " ".join(argv)[:80] or "(nothing)")
def test_bad_invocations_print_one_line_and_exit_2(argv, files, capsys, monkeypatch):
    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    argv = [files[a[1:]] if a.startswith("@") else a for a in argv]
    try:
        code = main(argv)
    except SystemExit as e:  # argparse's own errors
        code = e.code
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert code == 2, (out, err)
    assert len(lines) == 1 and lines[0].startswith("nutcore"), err
    assert "Traceback" not in err and "At:" not in err


def test_a_bad_invocation_in_a_real_process():
    run = subprocess.run(
        [sys.executable, "-m", "nutcore", "playouts", "auf_die_nuesse", "--games", "0"], capture_output=True, text=True
    )
    assert run.returncode == 2 and run.stderr.strip().splitlines()[-1].startswith("nutcore")
    assert "Traceback" not in run.stderr


def test_bestmove_in_purzelbaum_winter_with_a_budget(files, capsys):
    assert main(["bestmove", "purzelbaum", "--json", files["winter"], "--iterations", "500", "--seed", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["algorithm"] == "solver"


def test_hint_works_in_every_phase_of_play(monkeypatch, capsys):
    # Asking for a hint at every prompt, through Purzelbaum's autumn and winter to the end.
    answers = iter(["hint", "0"] * 1000)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["play", "purzelbaum", "--bot", "greedy", "--hint-iterations", "30", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "game over" in out
    assert "(mcts)" in out and "(solver)" in out
