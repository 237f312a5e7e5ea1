"""Random play for tests: chance outcomes by their exact probabilities, decisions uniformly; the
positions it reaches that several tests search; the check that two states look the same to a seat;
and a chi-squared tail for the statistical tests."""

from __future__ import annotations

import math
import random

import numpy as np

import nutcore


def random_step(state, rng: random.Random) -> int:
    """Apply one random action (chance by probability) and return it."""
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        action = rng.choices(actions, probs)[0]
    else:
        action = rng.choice(state.legal_actions())
    state.apply_action(action)
    return action


def play_randomly(state, rng: random.Random, max_steps: int = 10**9):
    """Random play until the end or max_steps; returns the state."""
    for _ in range(max_steps):
        if state.is_terminal():
            break
        random_step(state, rng)
    return state


def decision_after(name, players, seed=1, min_steps=10):
    """A decision with a choice (two legal actions or more) after at least `min_steps` random steps."""
    game = nutcore.load_game(name, players=players)
    rng = random.Random(seed)
    state = game.new_initial_state()
    steps = 0
    while state.is_chance_node() or steps < min_steps or len(state.legal_actions()) < 2:
        random_step(state, rng)
        steps += 1
        assert not state.is_terminal()
    return state


def first_decision(players, seed=1, min_steps=10):
    """An Auf die Nüsse! decision after `min_steps` random steps."""
    return decision_after("auf_die_nuesse", players, seed, min_steps)


def winter_start(players=2, seed=0):
    """A Purzelbaum winter at its start (the default: the largest the exact solver met in 12 random
    games, 15,118 positions, 10-40 ms)."""
    game = nutcore.load_game("purzelbaum", players=players)
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.to_json()["season"] != "winter" or state.is_chance_node():
        random_step(state, rng)
    return state


def corrupted_bytes(state, data) -> bytes:
    """state.serialize() with 1-4 bytes after the 8-byte header overwritten (hypothesis `data`)."""
    from hypothesis import strategies as st

    raw = bytearray(state.serialize())
    for _ in range(data.draw(st.integers(1, 4))):
        raw[data.draw(st.integers(8, len(raw) - 1))] = data.draw(st.integers(0, 255))
    return bytes(raw)


def chi2_sf(x, df):
    """P(X >= x) for a chi-squared variable with df degrees of freedom (series for the regularised
    lower incomplete gamma function)."""
    a, z = df / 2.0, x / 2.0
    if z <= 0:
        return 1.0
    term = total = 1.0 / a
    n = 1
    while term > total * 1e-15:
        term *= z / (a + n)
        total += term
        n += 1
    lower = math.exp(-z + a * math.log(z) - math.lgamma(a)) * total
    return max(0.0, 1.0 - lower)


def positions(game, seed, count, every=7):
    """Positions met in random play (every `every`-th step), including chance nodes."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new_initial_state()
        step = 0
        while not state.is_terminal() and len(out) < count:
            if step % every == 0:
                out.append(state.clone())
            random_step(state, rng)
            step += 1
        out.append(state.clone())
    return out


def assert_same_view(a, b, p):
    """Seat p's information state, key, observation tensor and JSON view are the same in a and b."""
    assert a.information_state_string(p) == b.information_state_string(p)
    assert a.observation_json(p) == b.observation_json(p)
    assert a.information_key(p) == b.information_key(p)
    assert np.array_equal(a.observation_tensor(p), b.observation_tensor(p))


def table_seats(name: str, wanted: int = 3) -> int:
    """`wanted` seats, or the nearest count the game's declaration allows: the door tests play more
    than two seats where a game has them, and still run for a game that does not."""
    info = next(i for i in nutcore._core.game_infos() if i["name"] == name)
    return min(max(wanted, info["min_players"]), info["max_players"])
