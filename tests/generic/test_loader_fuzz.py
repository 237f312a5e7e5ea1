"""Loader fuzz for every game in nutcore.list_games() at 2, 3 and 4 players (docs/reliability.md).

Positions reached by random play are damaged and fed to the loaders:

- bytes: `state.serialize()` with bytes overwritten (header included), bits flipped, truncated,
  extended, spliced with another position, swapped for another game's or player count's bytes, or
  replaced by random bytes of the right or a wrong length, into `game.deserialize_state`;
- json: `state.to_json()` with keys deleted or added, values replaced by other types or by ints
  (huge and negative ones too), nested values changed, lists lengthened or shortened, into
  `game.state_from_json`;
- actions: `apply_action` with random ints, in range and out of it (huge ones too), at random
  positions.

Every input must load or raise ValueError, nothing else. Whatever loads must be canonical (equal
to its own JSON and bytes round trips; bytes read back as they were fed, unless the position stood
at a forced decision, which loading applies as documented) and must play to the end. A rejected
action leaves the state as it was. NUTCORE_FUZZ_INPUTS sets the inputs per game, spread evenly over
the player counts and the three kinds (default 1500; .ci/sanitize runs 20000 under ASan/UBSan).
Everything is seeded: a failure names the case and input number that reproduce it.
"""

from __future__ import annotations

import copy
import os
import random

import pytest

import nutcore
from playing import play_randomly, random_step

INPUTS_PER_GAME = int(os.environ.get("NUTCORE_FUZZ_INPUTS", "1500"))
PLAYERS = (2, 3, 4)
KINDS = ("bytes", "json", "actions")
PER_CASE = -(-INPUTS_PER_GAME // (len(PLAYERS) * len(KINDS)))
CASES = [(name, players, kind) for name in nutcore.list_games() for players in PLAYERS for kind in KINDS]
HEADER = 8  # "NUTC", game tag, format version, players, state size (cpp/core/state_bytes.h)

INTERESTING_BYTES = (0, 1, 2, 3, 4, 7, 8, 15, 16, 0x7F, 0x80, 0xFE, 0xFF)
SMALL_INTS = (-256, *range(-5, 9), 12, 15, 16, 19, 20, 21, 30, 40, 127, 128, 255, 256, 399, 400, 401, 65535, 65536)
HUGE_INTS = tuple(sign * 2**k + d for sign in (1, -1) for k in (31, 32, 53, 63, 64, 70) for d in (-1, 0, 1))
INTERESTING_INTS = SMALL_INTS + HUGE_INTS

_pools: dict = {}


class Pool:
    """A game and every position of a few random games of it (initial, chance, decision, terminal)."""

    def __init__(self, game, seed):
        self.game = game
        rng = random.Random(seed)
        self.positions = []
        for _ in range(4):
            state = game.new_initial_state()
            self.positions.append(state.clone())
            while not state.is_terminal():
                random_step(state, rng)
                self.positions.append(state.clone())
        for p in self.positions:  # every position reached by play loads back as itself
            assert game.deserialize_state(p.serialize()) == p
            assert game.state_from_json(p.to_json()) == p
        sample = self.positions[:: max(1, len(self.positions) // 200)]
        self.strings = sorted({s for p in sample for s in _strings(p.to_json())})


def pools(name, players):
    """The game as loaded by default and, if it has a turn cap, with two small caps that end
    games early (at a fifth and at half of a random game's length), so that positions stopped by
    the cap are fuzzed too."""
    if (name, players) not in _pools:
        game = nutcore.load_game(name, players=players)
        variants = [Pool(game, f"loader-fuzz pool {name} {players}")]
        if "turn_cap" in game.params:
            turns = play_randomly(game.new_initial_state(), random.Random(players)).to_json()["turn"]
            for cap in sorted({max(1, turns // 5), max(1, turns // 2)}):
                capped = nutcore.load_game(name, players=players, turn_cap=cap)
                variants.append(Pool(capped, f"loader-fuzz pool {name} {players} cap {cap}"))
        _pools[name, players] = variants
    return _pools[name, players]


def pick(rng, variants):
    """The default game half of the time, else a capped one."""
    return variants[0] if len(variants) == 1 or rng.random() < 0.5 else rng.choice(variants[1:])


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def check_loaded(game, loaded, rng):
    """Canonical and playable to the end (the random play also exercises the hot rules on it)."""
    again = game.state_from_json(loaded.to_json())
    assert again == loaded and again.to_json() == loaded.to_json()
    assert game.deserialize_state(loaded.serialize()) == loaded
    play_randomly(loaded, rng, 10**5)
    assert loaded.is_terminal()


# ---------------------------------------------------------------------------------------------
# Bytes.


def random_byte(rng):
    return rng.choice(INTERESTING_BYTES) if rng.random() < 0.3 else rng.randrange(256)


def corrupt_bytes(rng, name, players, base: bytes) -> bytes:
    raw = bytearray(base)
    how = rng.randrange(11)
    if how == 0:  # overwrite 1-8 bytes anywhere, header included
        for _ in range(rng.randint(1, 8)):
            raw[rng.randrange(len(raw))] = random_byte(rng)
    elif how in (1, 2):  # overwrite 1-3 bytes of the state, where most of the checking is
        for _ in range(rng.randint(1, 3)):
            raw[rng.randrange(HEADER, len(raw))] = random_byte(rng)
    elif how == 3:  # small arithmetic change of one byte
        i = rng.randrange(HEADER, len(raw))
        raw[i] = (raw[i] + rng.choice((-2, -1, 1, 2))) % 256
    elif how == 4:  # flip 1-8 bits
        for _ in range(rng.randint(1, 8)):
            raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
    elif how == 5:  # truncate
        del raw[rng.randrange(len(raw)) :]
    elif how == 6:  # extend
        raw += bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
    elif how == 7:  # splice with another position of the same game
        other = rng.choice(pick(rng, pools(name, players)).positions).serialize()
        cut = rng.randrange(HEADER, len(raw))
        raw = raw[:cut] + bytearray(other[cut:])
    elif how == 8:  # the header kept, the state random (or all zero)
        zero = rng.random() < 0.1
        raw = raw[:HEADER] + bytearray(0 if zero else rng.randrange(256) for _ in range(len(raw) - HEADER))
    elif how == 9:  # random bytes of the right or a wrong length
        length = len(raw) if rng.random() < 0.5 else rng.randrange(2 * len(raw) + 2)
        raw = bytearray(rng.randrange(256) for _ in range(length))
    else:  # another game's or another player count's bytes
        other_name = rng.choice(nutcore.list_games())
        other_players = rng.choice([p for p in PLAYERS if other_name != name or p != players])
        raw = bytearray(rng.choice(pick(rng, pools(other_name, other_players)).positions).serialize())
    return bytes(raw)


def load_or_reject(loader, data, intact: bool, what: str):
    """The loaded state, or None when the loader raised ValueError (never for intact input);
    any other exception fails the test."""
    try:
        return loader(data)
    except ValueError:
        assert not intact, f"{what}: intact input rejected"
        return None
    except Exception as e:
        raise AssertionError(f"{what}: {type(e).__name__} instead of ValueError for {data!r}") from e


def fuzz_bytes(name, players, rng):
    loaded_count = 0
    variants = pools(name, players)
    for i in range(PER_CASE):
        target, source = pick(rng, variants), pick(rng, variants)  # mostly the same game
        game = target.game
        base = rng.choice(source.positions).serialize()
        intact = i % 25 == 0 and source is target  # some intact ones: they must load as they are
        data = base if intact else corrupt_bytes(rng, name, players, base)
        loaded = load_or_reject(game.deserialize_state, data, intact, f"input {i} (bytes)")
        if loaded is None:
            continue
        loaded_count += 1
        if loaded.serialize() != data:
            # Only a position at a forced decision may read back differently: loading applies the
            # forced move (docs/rules), and cpp/fuzz checks exactly that. Intact ones never do.
            assert not intact, f"input {i}: intact bytes read back differently"
        check_loaded(game, loaded, rng)
    return loaded_count


# ---------------------------------------------------------------------------------------------
# JSON.


def random_value(rng, strings, depth=0):
    how = rng.randrange(12)
    if how < 4:
        return rng.choice(INTERESTING_INTS)
    if how == 4:
        return rng.choice([None, True, False])
    if how == 5:
        return rng.choice([0.0, 1.0, 1.5, -1.0, float("nan"), float("inf"), 1e300])
    if how == 6:
        return rng.choice(strings + ["", "x", "null", "0", "\u00fc", "a" * 300])
    if how == 7 and depth < 3:
        return [random_value(rng, strings, depth + 1) for _ in range(rng.randrange(5))]
    if how == 8 and depth < 3:
        return {rng.choice(strings + ["x"]): random_value(rng, strings, depth + 1) for _ in range(rng.randrange(4))}
    if how == 9:
        return rng.randint(-3, 30)
    if how == 10:
        nested = [] if rng.random() < 0.5 else {}
        for _ in range(rng.choice([10, 70, 200])):  # deeper than the parser allows, sometimes
            nested = [nested]
        return nested
    return rng.randrange(-(2**70), 2**70)


def containers(value, found):
    """Every dict and list inside value (value included)."""
    if isinstance(value, (dict, list)):
        found.append(value)
        for v in value.values() if isinstance(value, dict) else value:
            containers(v, found)
    return found


def mutate_json(rng, d, strings, positions):
    """One mutation of the dict d, in place, somewhere in its nesting."""
    parent = rng.choice(containers(d, []))
    keys = list(parent) if isinstance(parent, dict) else list(range(len(parent)))
    how = rng.randrange(11)
    if not keys:
        how = 2
    key = rng.choice(keys) if keys else None
    if how == 0:  # delete a key / shorten a list
        del parent[key]
    elif how == 1:  # replace a value by anything
        parent[key] = random_value(rng, strings)
    elif how == 2:  # add a key / lengthen a list
        value = copy.deepcopy(parent[key]) if keys and rng.random() < 0.5 else random_value(rng, strings)
        if isinstance(parent, dict):  # an int key becomes a string, perhaps a duplicate one
            new_key = rng.choice(strings + ["x", "Game", "players ", "1"]) if rng.random() < 0.9 else rng.randrange(5)
            parent[new_key] = value
        else:
            parent.insert(rng.randrange(len(parent) + 1), value)
    elif how in (3, 4, 5):  # small change of an int or bool, another valid-looking string
        v = parent[key]
        if isinstance(v, bool):
            parent[key] = not v
        elif isinstance(v, int):
            parent[key] = v + rng.choice((-2, -1, 1, 1, 2, 3))
        elif isinstance(v, str) or v is None:
            parent[key] = rng.choice(strings + [None])
        else:
            parent[key] = random_value(rng, strings)
    elif how == 6:  # swap two entries
        other = rng.choice(keys)
        parent[key], parent[other] = parent[other], parent[key]
    elif how == 7:  # a value from the same place in another position (plausible, maybe inconsistent)
        other = rng.choice(positions).to_json()
        if isinstance(parent, dict) and parent is d and key in other:
            parent[key] = other[key]
        else:
            parent[key] = random_value(rng, strings)
    elif how == 8:  # the int or null next to it
        parent[key] = rng.choice([None, 0, -1, 255, 2**70, -(2**70), rng.randrange(-300, 300)])
    elif how == 9:  # a list becomes one longer or shorter
        lists = [c for c in containers(d, []) if isinstance(c, list)]
        if lists:
            target = rng.choice(lists)
            if target and rng.random() < 0.5:
                target.pop(rng.randrange(len(target)))
            else:
                target.append(copy.deepcopy(target[-1]) if target else random_value(rng, strings))
    else:  # a different container type
        parent[key] = list(parent[key].values()) if isinstance(parent[key], dict) else {"0": parent[key]}


def fuzz_json(name, players, rng):
    loaded_count = 0
    variants = pools(name, players)
    for i in range(PER_CASE):
        target, source = pick(rng, variants), pick(rng, variants)
        game = target.game
        intact = i % 25 == 0 and source is target
        data = rng.choice(source.positions).to_json()
        if i % 25 == 1:
            data = random_value(rng, target.strings)  # not even an object
        elif not intact:
            for _ in range(rng.choice((1, 1, 1, 2, 3))):
                mutate_json(rng, data, target.strings, source.positions)
        loaded = load_or_reject(game.state_from_json, data, intact, f"input {i} (JSON)")
        if loaded is None:
            continue
        loaded_count += 1
        if intact:
            assert loaded.to_json() == data
        check_loaded(game, loaded, rng)
    return loaded_count


# ---------------------------------------------------------------------------------------------
# Actions.


def fuzz_actions(name, players, rng):
    accepted = 0
    variants = pools(name, players)
    pool = pick(rng, variants)
    state = rng.choice(pool.positions).clone()
    distinct = pool.game.num_distinct_actions()
    for i in range(PER_CASE):
        if state.is_terminal() or rng.random() < 0.05:
            pool = pick(rng, variants)
            state = rng.choice(pool.positions).clone()
        allowed = set(state.legal_actions()) | {a for a, _ in state.chance_outcomes()}
        r = rng.random()
        if r < 0.25 and allowed:
            action = rng.choice(sorted(allowed))
        elif r < 0.7:
            action = rng.randrange(distinct)
        elif r < 0.85:
            action = rng.choice(INTERESTING_INTS + (distinct - 1, distinct, distinct + 1))
        else:
            action = rng.randrange(-(2**70), 2**70)
        before_json, before_bytes, before_history = state.to_json(), state.serialize(), state.history()
        try:
            state.apply_action(action)
        except ValueError:
            assert action not in allowed, f"input {i}: legal action {action} rejected"
            assert state.to_json() == before_json and state.serialize() == before_bytes, f"input {i}: changed"
            assert state.history() == before_history
            continue
        except Exception as e:
            raise AssertionError(f"input {i}: {type(e).__name__} instead of ValueError for action {action}") from e
        accepted += 1
        assert action in allowed, f"input {i}: illegal action {action} accepted"
        assert state.history() == before_history + [action]
        assert pool.game.deserialize_state(state.serialize()) == state
    return accepted


FUZZERS = {"bytes": fuzz_bytes, "json": fuzz_json, "actions": fuzz_actions}


@pytest.mark.parametrize("name,players,kind", CASES, ids=[f"{n}-{p}p-{k}" for n, p, k in CASES])
def test_loader_fuzz(name, players, kind):
    rng = random.Random(f"loader-fuzz {name} {players} {kind}")
    accepted = FUZZERS[kind](name, players, rng)
    assert accepted > 0  # the intact inputs (and legal actions) at least
