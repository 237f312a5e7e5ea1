"""Inputs for the libFuzzer targets (cpp/fuzz/fuzz_targets.cc), written by .ci/fuzz into a
scratch directory: seed corpora from random play, protocol sessions and the ABI's JSON (nothing is
committed).

    python cpp/fuzz/make_inputs.py OUT_DIR

writes OUT_DIR/corpus/<target>/ for every target. Every input
starts with the byte that picks the game in the targets: players - 2 (and the default turn cap).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import nutcore

STATES_PER_PLAYER_COUNT = 24  # bytes and JSON seeds
GAMES_PER_PLAYER_COUNT = 2  # action-sequence seeds (whole games, plus a prefix of each)


def play(game, rng):
    """A random game: every state on the way, and the choice index taken at each step."""
    state = game.new_initial_state()
    states, choices = [state.clone()], []
    while not state.is_terminal():
        options = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        if state.is_chance_node():
            action = rng.choices(options, [p for _, p in state.chance_outcomes()])[0]
        else:
            action = rng.choice(options)
        choices.append(options.index(action))
        state.apply_action(action)
        states.append(state.clone())
    return states, choices


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(2026)
    for name in nutcore.list_games():
        dirs = {kind: out / "corpus" / f"{name}_{kind}" for kind in ("bytes", "json", "actions")}
        for d in dirs.values():
            d.mkdir(parents=True, exist_ok=True)
        for players in (2, 3, 4):
            game = nutcore.load_game(name, players=players)
            prefix = bytes([players - 2])
            all_states = []
            for g in range(GAMES_PER_PLAYER_COUNT):
                states, choices = play(game, rng)
                all_states += states
                steps = b"".join(c.to_bytes(2, "little") for c in choices)
                (dirs["actions"] / f"{players}p-game{g}").write_bytes(prefix + steps)
                (dirs["actions"] / f"{players}p-prefix{g}").write_bytes(prefix + steps[: 2 * rng.randrange(1, 40)])
            for i, state in enumerate(rng.sample(all_states, STATES_PER_PLAYER_COUNT)):
                (dirs["bytes"] / f"{players}p-{i}").write_bytes(prefix + state.serialize())
                text = json.dumps(state.to_json(), separators=(",", ":"))
                (dirs["json"] / f"{players}p-{i}").write_bytes(prefix + text.encode())
    protocol_and_abi(out, rng)


def protocol_and_abi(out: Path, rng: random.Random) -> None:
    """Seeds for protocol_lines (sessions of requests, one per line) and capi_json (the JSON the
    ABI reads: parameters, positions, search requests, limits)."""
    lines, abi = out / "corpus" / "protocol_lines", out / "corpus" / "capi_json"
    lines.mkdir(parents=True, exist_ok=True)
    abi.mkdir(parents=True, exist_ok=True)
    for name in nutcore.list_games():
        game = nutcore.load_game(name)
        seat = {"seat": 0} if game.hidden_information else {}
        session = [
            {"cmd": "hello", "id": 1},
            {"cmd": "new_game", "game": name, "seed": 3, **seat},
            {"cmd": "chance"},
            {"cmd": "legal"},
            {"cmd": "go", "bot": "greedy"},
            {"cmd": "best_move", "iterations": 20},
            {"cmd": "board"},
            {"cmd": "undo"},
            {"cmd": "status"},
        ]
        (lines / name).write_text("\n".join(json.dumps(m) for m in session))
        (lines / f"{name}-every-command").write_text(every_command(name, game, seat))
        states, _ = play(game, rng)
        for i, state in enumerate(rng.sample(states, 4)):
            (abi / f"{name}-position-{i}").write_text(json.dumps(state.to_json()))
        (abi / f"{name}-params").write_text(json.dumps(game.params))
    for i, request in enumerate(
        [{"algorithm": "auto", "seed": 1}, {"exploration": 0.5}, {"algorithm": "expectimax", "depth": 2}, {}]
    ):
        (abi / f"request-{i}").write_text(json.dumps(request))
    (abi / "limits").write_text(json.dumps({"iterations": 1000, "time_limit": 1, "file_params": False}))


# A plausible value for each request field of the engine's command table (the fuzzer mutates them).
FIELD_VALUES = {
    "players": 2,
    "params": {},
    "seed": 3,
    "moves": [0],
    "memory_aids": False,
    "algorithm": "auto",
    "iterations": 20,
    "time_limit": 0.01,
    "threads": 1,
    "options": {},
    "bot": "greedy",
    "count": 1,
}


def every_command(name: str, game, seat: dict) -> str:
    """Each command of the engine's one table once, after a new game, with all its fields: a seed
    that reaches every handler and every field check."""
    values = {**FIELD_VALUES, "game": name, "position": game.new_initial_state().to_json(), **seat}
    lines = [json.dumps({"cmd": "new_game", "game": name, "seed": 3, **seat})]
    for command, fields in nutcore._core.engine_commands():
        if command != "quit":
            lines.append(json.dumps({"cmd": command, "id": command, **{f: values.get(f) for f in fields}}))
    return "\n".join(lines + [json.dumps({"cmd": "quit"})])


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(Path(sys.argv[1]))
