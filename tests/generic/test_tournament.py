"""nutcore.tournament (nutcore/tournaments.py) and `nutcore tournament`: the same results on every
backend and worker count, resuming, ratings, outputs, and bad input failing before any game."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import nutcore
from nutcore import tournaments as T

BOTS = ["random", "greedy", "mcts:iterations=30"]


def small(**kw):
    options = {"games": 18, "seed": 3, "workers": 1} | kw
    return nutcore.tournament("auf_die_nuesse", 2, BOTS, **options)


@pytest.fixture(scope="module")
def reference():
    return small()


def test_lineups_cover_every_seat():
    assert T.lineups(3, 2) == [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]
    four = T.lineups(5, 4)
    assert len(four) == 5 * 4 and len(set(four)) == len(four)
    for bot in range(5):  # every bot in every seat equally often
        assert len({sum(1 for x in four if x[seat] == bot) for seat in range(4)}) == 1
    assert T.lineups(2, 4) == [(0, 1, 0, 1), (1, 0, 1, 0)]  # fewer bots than seats: repeated


def test_gauntlet_and_ladder_lineups():
    assert T.lineups(4, 2, "gauntlet") == [(0, 1), (1, 0), (0, 2), (2, 0), (0, 3), (3, 0)]
    assert T.lineups(4, 2, "ladder") == [(0, 1), (1, 0), (1, 2), (2, 1), (2, 3), (3, 2)]
    three = T.lineups(5, 3, "gauntlet")  # the first bot with every pair of the others, rotated
    assert len(three) == 6 * 3 and all(0 in x for x in three)
    assert T.lineups(5, 3, "ladder")[:3] == [(0, 1, 2), (2, 0, 1), (1, 2, 0)] and len(T.lineups(5, 3, "ladder")) == 9


def test_gauntlet_plays_only_the_first_bot_against_the_others(tmp_path):
    result = small(schedule="gauntlet", games=8, output=tmp_path)
    assert result.schedule == "gauntlet" and "(gauntlet)" in result.table()
    assert all(0 in rec["lineup"] for rec in result.records)
    assert result.matrix[1][2] is None and result.matrix[0][2] is not None
    assert json.loads((tmp_path / "results.json").read_text())["schedule"] == "gauntlet"
    with pytest.raises(ValueError, match="different tournament"):  # the schedule is part of the log's identity
        small(schedule="ladder", games=8, output=tmp_path)


def test_same_results_for_any_worker_count_and_batch(reference):
    assert reference.games == 18 and len(reference.records) == 18
    assert [r["game"] for r in reference.records] == list(range(18))
    again = small(workers=2, batch_size=5)
    assert again.records == reference.records
    assert again.ratings == reference.ratings and again.matrix == reference.matrix
    other_seed = small(seed=4)
    assert other_seed.records != reference.records


def test_ray_backend_gives_the_same_results(reference):
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'nutcore[ray]')")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        result = small(backend="ray", workers=2, batch_size=4)
    finally:
        ray.shutdown()
    assert result.records == reference.records and result.ratings == reference.ratings


def test_resume_after_an_interruption(tmp_path, reference):
    calls = []

    def stop_after_two_batches(done, total):
        calls.append(done)
        if len(calls) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        small(output=tmp_path, batch_size=4, progress=stop_after_two_batches)
    log = (tmp_path / "games.jsonl").read_text().splitlines()
    assert len(log) == 1 + 8 and not (tmp_path / "results.json").exists()
    played = []
    resumed = small(output=tmp_path, batch_size=4, progress=lambda done, total: played.append(done))
    assert played[0] == 8 + 4 and played[-1] == 18  # the 8 logged games were not played again
    assert resumed.records == reference.records and resumed.ratings == reference.ratings
    # A different tournament does not mix with this log.
    with pytest.raises(ValueError, match="different tournament"):
        small(output=tmp_path, seed=9)


def test_outputs(tmp_path, reference):
    paths = reference.write(tmp_path)
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["bots"] == BOTS and data["records"] == reference.records
    rows = list(csv.DictReader((tmp_path / "ratings.csv").read_text().splitlines()))
    assert [r["bot"] for r in rows] == BOTS and float(rows[0]["rating"]) == 0.0
    games = list(csv.DictReader((tmp_path / "games.csv").read_text().splitlines()))
    assert len(games) == 18 * 2 and {g["bot"] for g in games} == set(BOTS)
    assert len(paths) == 3
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (pip install 'nutcore[plot]')")
    png = reference.plot(tmp_path / "ratings.png")
    with open(png, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"


def test_ratings_and_matrix(reference):
    by = {r.spec: r for r in reference.ratings}
    assert by["random"].rating == 0 and by["greedy"].rating > by["random"].rating
    for r in reference.ratings:
        assert r.games == 12 and r.rating_ci95[0] <= r.rating <= r.rating_ci95[1]
        assert 0 <= r.win_share <= 1 and r.ci95[0] <= r.win_share <= r.ci95[1]
    m = reference.matrix
    for i in range(3):
        assert m[i][i] is None
        for j in range(3):
            if i != j:
                assert m[i][j] + m[j][i] == pytest.approx(1)
    assert "| greedy |" in reference.table()


def test_bradley_terry_recovers_known_strengths():
    # Expected pairwise wins from strengths 1:2:4 (Elo 0, 120, 241): the fit returns them, up to
    # the virtual draws' small pull towards the middle.
    p = np.array([1.0, 2.0, 4.0])
    n = 10_000
    meetings = n * (1 - np.eye(3))
    wins = meetings * p[:, None] / (p[:, None] + p[None, :])
    assert T.bradley_terry(wins, meetings) == pytest.approx(400 * np.log10(p), abs=0.5)


def test_bradley_terry_on_a_ladder_follows_the_neighbours():
    # Strengths 1:2:4:8 where only neighbours met (a ladder): the chain of results alone places the
    # ends 3 doublings apart; bots that never met add no virtual draw pulling them together.
    p = np.array([1.0, 2.0, 4.0, 8.0])
    near = np.abs(np.subtract.outer(range(4), range(4))) == 1
    meetings = 40 * near.astype(float)  # as many games as a study's ladder has
    wins = meetings * p[:, None] / (p[:, None] + p[None, :])
    # Within the pull of the met pairs' own virtual draws (a draw among 40 games each); a draw
    # between every two bots would put the ends 50 points closer.
    assert T.bradley_terry(wins, meetings) == pytest.approx(400 * np.log10(p), abs=12)


def test_multiplayer_pairwise_split():
    # 3 seats: the winner beats both others; between the losers, more points wins; equal is a draw.
    records = [{"game": 0, "lineup": [0, 1, 2], "returns": [0.0, 1.0, 0.0], "scores": [5, 9, 5], "length": 1}]
    wins, meetings = T._pair_results(records, 3)
    assert wins[0].tolist() == [[0, 0, 0.5], [1, 0, 1], [0.5, 0, 0]]
    assert meetings[0].sum() == 6
    records[0]["scores"] = [6, 9, 5]
    assert T._pair_results(records, 3)[0][0, 0, 2] == 1


def test_budget_axis():
    assert T.budget_axis(["mcts:iterations=100", "mcts:iterations=1000,"]) == ("iterations", [100.0, 1000.0])
    assert T.budget_axis(["mcts:iterations=100,exploration=1", "mcts:iterations=300"]) is None
    assert T.budget_axis(["ismcts:time_limit=0.1", "ismcts:time_limit=0.4"]) == ("time_limit", [0.1, 0.4])
    assert T.budget_axis(["greedy", "random"]) is None
    # Reference bots (no budget) beside a budget series: None, drawn as lines.
    assert T.budget_axis(["greedy", "mcts:iterations=100", "mcts:iterations=300"]) == (
        "iterations",
        [None, 100.0, 300.0],
    )
    assert T.budget_axis(["greedy", "mcts:iterations=100"]) is None  # one budget is not a series


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"bots": ["greedy", "mcts:iterations=-3"]}, "iterations"),
        ({"bots": ["greedy", "nonsense"]}, "unknown bot"),
        ({"bots": ["greedy"]}, "at least 2"),
        ({"bots": ["greedy", "greedy"]}, "at least 2"),
        ({"bots": "greedy"}, "list of bot specs"),
        ({"schedule": "swiss"}, "schedule"),
        ({"bots": ["greedy", "expectimax:depth=2"], "game": "ritter"}, "not available"),
        ({"game": "chess"}, "unknown game"),
        ({"players": 7}, "players"),
        ({"games": 0}, "games"),
        ({"backend": "spark"}, "backend"),
        ({"workers": 0}, "workers"),
        ({"address": "ray://x:1"}, "address"),
    ],
)
def test_bad_input_fails_before_any_game(tmp_path, kwargs, message):
    options = {"game": "auf_die_nuesse", "players": 2, "bots": ["greedy", "random"], "games": 4, "output": tmp_path}
    options |= kwargs
    played = []
    with pytest.raises(ValueError, match=message):
        nutcore.tournament(**options, progress=lambda done, total: played.append(done))
    assert played == [] and not os.listdir(tmp_path)


def test_command_line(tmp_path):
    cmd = [sys.executable, "-m", "nutcore", "tournament", "ritter", "--players", "3", "--games", "6"]
    cmd += ["--bot", "greedy", "--bot", "random", "--workers", "1", "--output", str(tmp_path), "--quiet"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "| greedy |" in out.stdout and "ritter, 3 players, 6 games" in out.stdout
    assert json.loads((tmp_path / "results.json").read_text())["games"] == 6
    bad_cmd = [
        sys.executable,
        "-m",
        "nutcore",
        "tournament",
        "ritter",
        "--bot",
        "greedy",
        "--bot",
        "ismcts:iterations=x",
    ]
    bad = subprocess.run(bad_cmd, capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and "nutcore:" in bad.stderr


def test_command_line_without_matplotlib_fails_before_playing(tmp_path):
    args = ["tournament", "auf_die_nuesse", "--bot", "greedy", "--bot", "random", "--games", "4"]
    args += ["--schedule", "gauntlet", "--output", str(tmp_path / "out"), "--plot", str(tmp_path / "p.png"), "--quiet"]
    code = f"import sys; sys.modules['matplotlib'] = None; from nutcore.cli import main; sys.exit(main({args!r}))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 2 and "matplotlib" in out.stderr
    assert not (tmp_path / "out").exists()
