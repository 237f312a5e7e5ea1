"""The engine's threads and every long call's stop (protocol.h's lock order, nutcore.h's thread and
stop rules, docs/embedding.md): the races that once hung the process or lost a reply, each run in a
loop long enough to catch them at the rate they were seen (about 1 round in 100), bounded in time
by a subprocess's timeout or a watchdog; stop handles for the ABI's direct calls; and the ABI's
small contracts (UTF-8 errors, NC_CLOSED final, NULL refused, a 32-bit status)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import threading
import time
from ctypes import byref, c_int, c_int64, c_void_p
from pathlib import Path

import pytest
from capi_client import (
    NC_CLOSED,
    NC_INVALID_ARGUMENT,
    NC_OK,
    NC_STOPPED,
    CapiBot,
    CapiError,
    CapiGame,
    CapiStop,
    call_handle,
    lib,
)

import nutcore

ROOT = Path(__file__).resolve().parents[2]
PATIENCE = 120  # seconds: a loose bound for a whole loop (the machines are shared); a hang never ends
HUGE = 2**50  # iterations or playouts that no test could wait for


def _compiler() -> str:
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    assert cc, "no C compiler (the tests build C programs against the library)"
    return cc


def _build_c(tmp_path: Path, source: Path, *flags: str) -> Path:
    library = Path(nutcore.get_library())
    program = tmp_path / source.stem
    command = [_compiler(), "-std=c99", "-Wall", "-Wextra", "-Werror", *flags, str(source)]
    command += [f"-I{nutcore.get_include()}", f"-L{library.parent}", "-lnutcore", f"-Wl,-rpath,{library.parent}"]
    build = subprocess.run([*command, "-pthread", "-o", str(program)], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    return program


def _run_python(code: str, timeout: float = PATIENCE) -> subprocess.CompletedProcess:
    """Runs `code` in a fresh interpreter; a hang fails the test instead of hanging the suite."""
    try:
        return subprocess.run(
            [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"hung for {timeout} s (a deadlock); its output so far: {e.stdout!r} {e.stderr!r}")


# ----- the Python binding


def test_binding_reads_the_engine_while_a_search_answers():
    """`searching`, `_full_state()` and `_seat` while searches end: each used to take the engine's
    lock with the GIL held, while the search's reply held that lock and waited for the GIL, and the
    interpreter hung in the first round. `send` itself reads `searching` too (it may: it holds the
    GIL, not an engine lock)."""
    result = _run_python(
        """
        import nutcore
        from nutcore.engine import Engine, Limits

        seen = []
        def send(reply):
            seen.append((reply["type"], engine.searching))
        engine = Engine(send, Limits(test_hooks=True))
        engine.handle('{"cmd": "new_game", "game": "purzelbaum", "seed": 1}')
        for r in range(200):
            engine.handle('{"cmd": "best_move", "iterations": %d, "seed": %d, "id": %d}' % (50 + r * 7 % 400, r, r))
            while engine.searching:
                engine._full_state()
                engine._seat
            engine.wait_for_search()
        answers = [kind for kind, _ in seen if kind == "best_move"]
        print(len(answers))
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["200"]


def test_binding_no_search_starts_after_quit_and_nothing_follows_its_reply():
    """Two Python threads send to one Engine: one quits while the other asks for searches. Once quit
    is accepted no search starts, the quit reply is the last reply, and a line after it gets none."""
    from nutcore.engine import Engine

    for round_ in range(150):
        replies: list[dict] = []
        lock = threading.Lock()

        def send(reply, replies=replies, lock=lock):
            with lock:
                replies.append(reply)

        engine = Engine(send)
        engine.handle('{"cmd": "new_game", "game": "purzelbaum", "seed": 3, "id": "n"}')

        def spam(engine=engine):
            for i in range(20):
                engine.handle(json.dumps({"cmd": "go", "iterations": 20, "seed": i, "id": f"g{i}"}))

        other = threading.Thread(target=spam)
        other.start()
        time.sleep(0.0005 * (round_ % 7))
        engine.handle('{"cmd": "quit", "id": "q"}')
        other.join(PATIENCE)
        assert not other.is_alive()
        assert engine.closed
        engine.handle('{"cmd": "hello", "id": "late"}')
        engine.wait_for_search()
        final = [r for r in replies if r["type"] != "info"]
        assert final[-1] == {"type": "quit", "id": "q"}, final[-3:]
        assert not engine.searching
        answered = [r.get("id") for r in final]
        assert "late" not in answered
        # every request before the quit reply has exactly one answer
        assert sorted(answered, key=str) == sorted(set(answered), key=str)


# ----- the C ABI's engine handle


def test_capi_race_of_two_senders_a_reader_and_quit(tmp_path):
    """tests/helpers/engine_race.c: rounds of two senders and a reader (waiting, or spinning on receive(0))
    on one engine handle, one sender quitting mid-search. It catches: a lost quit reply (receive
    said NC_CLOSED before the reply was queued), a search started after quit by the other sender,
    the lock-order deadlock between receive and a search's reply, receive(-1) answering NC_TIMEOUT
    at once, and replies after NC_CLOSED. 1,000 rounds: at the rates those were seen (1 round in
    100 to 1 in 2,000), the old code failed within the first 25 rounds in three seeds of three."""
    program = _build_c(tmp_path, ROOT / "tests" / "helpers" / "engine_race.c")
    try:
        run = subprocess.run(
            [str(program), "1000", "1"],
            capture_output=True,
            text=True,
            timeout=600,
            env={**os.environ, "NUTCORE_RACE_STALL": "60"},
        )
    except subprocess.TimeoutExpired:
        pytest.fail("engine_race hung")
    assert run.returncode == 0, (run.returncode, run.stderr[-3000:])
    assert "1000 rounds held" in run.stdout


def c_void_p_string(p: c_void_p) -> bytes:
    from ctypes import string_at

    return string_at(p.value)


def test_capi_closed_is_final_and_receive_forever_waits():
    engine = call_handle(lib.nc_engine_new, None)
    out = c_void_p()
    assert lib.nc_engine_send(engine, b'{"cmd": "new_game", "game": "ritter", "seat": 0, "id": 1}') == NC_OK
    assert lib.nc_engine_send(engine, b'{"cmd": "quit", "id": "q"}') == NC_OK
    lines = []
    while (status := lib.nc_engine_receive(engine, -1, byref(out))) == NC_OK:
        lines.append(json.loads(c_void_p_string(out)))
        lib.nc_free(out)
    assert status == NC_CLOSED and lines[-1] == {"type": "quit", "id": "q"}
    for _ in range(3):  # final: no reply ever comes again, and sending is refused
        assert lib.nc_engine_send(engine, b'{"cmd": "hello", "id": "late"}') == NC_CLOSED
        assert lib.nc_engine_send_bytes(engine, b'{"cmd": "hello"}', 16) == NC_CLOSED
        assert lib.nc_engine_receive(engine, 0, byref(out)) == NC_CLOSED
        assert lib.nc_engine_receive(engine, -1, byref(out)) == NC_CLOSED
    lib.nc_engine_free(engine)


def test_capi_receive_forever_waits_for_a_search_then_gets_its_answer():
    """receive(-1) waits as long as it takes (it used to answer NC_TIMEOUT at once, again and again,
    after quit while a search ran)."""
    engine = call_handle(lib.nc_engine_new, None)
    out = c_void_p()
    lib.nc_engine_send(engine, b'{"cmd": "new_game", "game": "purzelbaum", "seed": 1, "id": 1}')
    assert lib.nc_engine_receive(engine, -1, byref(out)) == NC_OK
    lib.nc_free(out)
    lib.nc_engine_send(engine, b'{"cmd": "best_move", "time_limit": 0.3, "id": "s"}')
    types = []
    while (status := lib.nc_engine_receive(engine, -1, byref(out))) == NC_OK:
        reply = json.loads(c_void_p_string(out))
        lib.nc_free(out)
        types.append(reply["type"])
        if reply["type"] == "best_move":
            break
    assert status == NC_OK and types[-1] == "best_move"
    lib.nc_engine_free(engine)


def test_capi_send_refuses_null():
    engine = call_handle(lib.nc_engine_new, None)
    assert lib.nc_engine_send_bytes(engine, None, 0) == NC_INVALID_ARGUMENT
    assert lib.nc_engine_send_bytes(engine, None, 5) == NC_INVALID_ARGUMENT
    assert lib.nc_engine_send(engine, None) == NC_INVALID_ARGUMENT
    out = c_void_p()
    assert lib.nc_engine_receive(engine, 0, byref(out)) != NC_OK  # nothing was sent for them
    lib.nc_engine_free(engine)


@pytest.mark.parametrize(
    "call",
    [
        lambda: lib.nc_game_load(b"ri\xfftter", None, byref(c_void_p())),
        lambda: lib.nc_bot_new(b"mcts:iterations=\xc3(", byref(c_void_p())),
        lambda: lib.nc_game_load(b"ritter", b'{"players": "\xed\xa0\x80"}', byref(c_void_p())),
    ],
    ids=["game name", "bot spec", "params"],
)
def test_capi_error_text_is_always_utf8(call):
    assert call() == NC_INVALID_ARGUMENT
    raw = lib.nc_last_error()
    text = raw.decode("utf-8")  # strict, as Rust's CStr::to_str or .NET decode
    assert text


def test_capi_error_text_escapes_the_bytes_it_cannot_carry():
    assert lib.nc_game_load(b"ri\xfftter", None, byref(c_void_p())) == NC_INVALID_ARGUMENT
    assert "ri\\xfftter" in lib.nc_last_error().decode("utf-8")
    state = CapiGame("auf_die_nuesse").new_state()
    i = c_int()
    assert lib.nc_state_string_to_action(state.handle, "store é\xe9".encode("latin-1"), byref(i)) != NC_OK
    assert lib.nc_last_error().decode("utf-8")


def test_capi_status_is_32_bits_whatever_the_compiler_makes_of_enums(tmp_path):
    """nc_status has a fixed width: with -fshort-enums an enum type may be a single byte."""
    source = tmp_path / "width.c"
    source.write_text(
        '#include "nutcore.h"\n'
        '_Static_assert(sizeof(nc_status) == 4, "nc_status is 32 bits");\n'
        '_Static_assert((nc_status)-1 < 0, "nc_status is signed");\n'
        "int main(void) { return NC_OK; }\n"
    )
    for flags in ((), ("-fshort-enums",)):
        program = _build_c(tmp_path, source, *flags)
        assert subprocess.run([str(program)], timeout=30).returncode == 0


# ----- stopping the ABI's direct calls


def _trip_later(stop: CapiStop, seconds: float) -> threading.Thread:
    t = threading.Thread(target=lambda: (time.sleep(seconds), stop.trigger()))
    t.start()
    return t


def _decision(name: str):
    from capi_client import NC_CHANCE

    state = CapiGame(name).new_state()
    seed = 1
    while state.current_player() == NC_CHANCE:
        state.apply(state.sample_chance(seed))
        seed += 1
    return state


def test_stop_handle_trips_and_resets():
    stop = CapiStop()
    assert not stop.triggered
    stop.trigger()
    stop.trigger()
    assert stop.triggered
    stop.reset()
    assert not stop.triggered
    stop.close()
    with pytest.raises(CapiError):
        stop.trigger()


@pytest.mark.parametrize("name", nutcore.list_games())
def test_stop_ends_a_direct_best_move(name):
    """nc_best_move with a budget no one could wait for, stopped from another thread: it answers
    with its best move so far, marked stopped."""
    state = _decision(name)
    algorithm = "ismcts" if nutcore.load_game(name).hidden_information else "mcts"
    stop = CapiStop()
    tripper = _trip_later(stop, 0.3)
    start = time.monotonic()
    result = state.best_move({"algorithm": algorithm, "iterations": HUGE, "seed": 1}, stop=stop)
    tripper.join()
    assert time.monotonic() - start < PATIENCE
    assert result["stopped"] is True
    assert result["action"] in state.legal_action_ids()


def test_stop_ends_a_direct_bot_move_and_playouts():
    state = _decision("nutz")
    bot = CapiBot(f"ismcts:iterations={HUGE}")
    bot.reset(1)
    stop = CapiStop()
    tripper = _trip_later(stop, 0.3)
    action = bot.move(state, stop=stop)
    tripper.join()
    assert action in state.legal_action_ids()

    stop.reset()
    tripper = _trip_later(stop, 0.3)
    out = c_int64()
    start = time.monotonic()
    status = lib.nc_state_random_playouts(state.handle, HUGE, 1, stop.handle, byref(out))
    tripper.join()
    assert status == NC_STOPPED and time.monotonic() - start < PATIENCE
    # a tripped stop ends the next call at once, until it is reset
    assert lib.nc_state_random_playouts(state.handle, HUGE, 1, stop.handle, byref(out)) == NC_STOPPED
    stop.reset()
    assert lib.nc_state_random_playouts(state.handle, 3, 1, stop.handle, byref(out)) == NC_OK


def test_stop_ends_a_direct_exact_search():
    """An exact search stopped from another thread ends at once with its deepest complete depth
    (`{"algorithm": "expectimax", "depth": 30}` ran for good before); a stop tripped before it
    starts leaves it no depth: NC_STOPPED."""
    state = _decision("auf_die_nuesse")
    stop = CapiStop()
    tripper = _trip_later(stop, 0.3)
    start = time.monotonic()
    out = c_void_p()
    status = lib.nc_best_move(state.handle, b'{"algorithm": "expectimax", "depth": 30}', stop.handle, byref(out))
    tripper.join()
    assert time.monotonic() - start < PATIENCE
    assert status == NC_OK
    result = json.loads(c_void_p_string(out))
    lib.nc_free(out)
    assert result["stopped"] is True and 1 <= result["depth"] < result["max_depth"] == 30
    assert result["action"] in state.legal_action_ids()
    out = c_void_p()
    status = lib.nc_best_move(state.handle, b'{"algorithm": "expectimax", "depth": 30}', stop.handle, byref(out))
    assert status == NC_STOPPED and out.value is None
