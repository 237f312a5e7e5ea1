"""`nutcore bench`: its workload is fixed, so its counts are too. A change to the rules, the
searches or their defaults that moves these numbers must update them here on purpose (and record
the new figures in bench/RESULTS.md)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from nutcore import benchmark

# game: (nodes searched, random-playout transitions)
PINNED = {
    "auf_die_nuesse": (36011, 767261),  # MCTS with its policy_bias default (was 36375)
    "nutz": (18269, 211548),
    "purzelbaum": (90320, 127045),
    "ritter": (13952, 374915),  # UCT from visit tables: ISMCTS rounds differently (was 13758)
}
SIGNATURE = sum(nodes for nodes, _ in PINNED.values())


def test_signature_is_pinned():
    rows = benchmark.run()
    assert {r.game: (r.nodes, r.transitions) for r in rows} == PINNED
    assert f"signature {SIGNATURE} " in benchmark.report(rows)
    for r in rows:
        assert r.positions == benchmark.POSITIONS and r.iterations == benchmark.ITERATIONS
        assert r.search_seconds > 0 and r.playout_seconds > 0


def test_command_line():
    out = subprocess.run(
        [sys.executable, "-m", "nutcore", "bench", "--game", "ritter"], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    assert f"signature {PINNED['ritter'][0]} " in out.stdout and "| ritter |" in out.stdout
    bad = subprocess.run([sys.executable, "-m", "nutcore", "bench", "--game", "chess"], capture_output=True, text=True)
    assert bad.returncode == 2


def test_unknown_game():
    with pytest.raises(ValueError):
        benchmark.run(["chess"])
