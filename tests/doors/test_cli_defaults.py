"""Every command of the command line with its default options, on every game, driven the way a
person drives it: as a process, `play` answered on piped stdin (and once through a pseudo-terminal)
for a few moves and then `quit`. The defaults are each game's own (best_move's "auto"), so they
work on the games of hidden information too, and a bot that cannot play a game is refused before
the first move."""

from __future__ import annotations

import json
import os
import pty
import random
import select
import subprocess
import sys
import time

import pytest
from protocol import PATIENCE, EngineProcess, ServeProcess, Socket, to_decision

import nutcore
from playing import random_step

GAMES = nutcore.list_games()


def nutcore_cli(*args: str, stdin: str | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "nutcore", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "SKBUILD_EDITABLE_VERBOSE": "0"},
    )


def ok(run: subprocess.CompletedProcess) -> str:
    assert run.returncode == 0, (run.returncode, run.stderr[-2000:])
    assert "Traceback" not in run.stderr
    return run.stdout


@pytest.mark.parametrize("game", GAMES)
def test_play_with_its_default_ai_takes_moves_then_quits(game):
    out = ok(nutcore_cli("play", game, stdin="0\n0\n0\nhint\n0\nquit\n"))
    assert out.count("your move>") >= 5 and "AI suggests" in out and out.rstrip().endswith("bye")


def test_play_through_a_terminal():
    """A pseudo-terminal, as a person at a terminal: prompts come, moves go in, quit ends it."""
    main, child = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "nutcore", "play", "ritter", "--players", "2"],
        stdin=child,
        stdout=child,
        stderr=child,
        env={**os.environ, "SKBUILD_EDITABLE_VERBOSE": "0"},
        close_fds=True,
    )
    os.close(child)
    seen = b""

    def until(text: bytes) -> None:
        nonlocal seen
        deadline = time.monotonic() + PATIENCE * 3
        while text not in seen:
            assert time.monotonic() < deadline, seen[-500:]
            ready, _, _ = select.select([main], [], [], 1)
            if ready:
                try:
                    seen += os.read(main, 65536)
                except OSError:  # the child closed the terminal
                    break
        assert text in seen, seen[-500:]

    try:
        for _ in range(4):
            until(b"your move>")
            seen = b""
            os.write(main, b"0\n")
        until(b"your move>")
        os.write(main, b"quit\n")
        until(b"bye")
        assert proc.wait(PATIENCE) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        os.close(main)


def test_a_bot_the_game_does_not_offer_is_refused_before_the_first_move():
    run = nutcore_cli("play", "ritter", "--bot", "mcts:iterations=100", stdin="0\n")
    assert run.returncode == 2 and "your move" not in run.stdout
    assert "not available for ritter" in run.stderr and "ismcts" in run.stderr


@pytest.mark.parametrize("game", GAMES)
def test_match_and_tournament_with_their_default_bots(game):
    out = ok(nutcore_cli("match", game, "--games", "2", "--quiet"))
    assert "auto:iterations=1000" in out and "greedy" in out
    out = ok(nutcore_cli("tournament", game, "--games", "2", "--quiet"))
    assert "auto:iterations=1000" in out and "greedy" in out


@pytest.mark.parametrize("game", GAMES)
def test_bestmove_playouts_and_bench_with_their_defaults(game, tmp_path):
    state = nutcore.load_game(game).new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node() or len(state.history()) < 6:
        random_step(state, rng)
    position = tmp_path / "position.json"
    position.write_text(json.dumps(state.to_json()))
    result = json.loads(ok(nutcore_cli("bestmove", game, "--json", str(position))))
    assert result["action"] in state.legal_actions()
    assert "win share" in ok(nutcore_cli("playouts", game))
    assert "signature" in ok(nutcore_cli("bench", "--game", game))


@pytest.mark.parametrize("game", GAMES)
def test_the_engine_searches_with_its_defaults(game):
    seat = {"seat": None} if nutcore.load_game(game).hidden_information else {}
    engine = EngineProcess()
    try:
        engine.ask(cmd="new_game", game=game, seed=1, **seat)
        to_decision(engine)
        assert engine.ask(cmd="go")["type"] == "go"  # no settings: best_move's "auto"
        assert engine.finish()[0] == 0
    finally:
        engine.close()


def test_serve_with_its_defaults_plays_every_game():
    server = ServeProcess()
    try:
        client = Socket(server.ws_url)
        for game in GAMES:
            seat = {"seat": None} if nutcore.load_game(game).hidden_information else {}
            client.ask(cmd="new_game", game=game, seed=1, **seat)
            to_decision(client)
            assert client.ask(cmd="go", iterations=200)["type"] == "go"
        client.close()
    finally:
        server.close()
