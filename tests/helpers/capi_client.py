"""A client of libnutcore's C ABI (cpp/include/nutcore.h, docs/embedding.md) through ctypes, written
from the header and the guide alone: the binding of every call, thin classes over the direct calls
(CapiGame, CapiState, CapiBot), and CapiEngine, the "capi" transport of the engine tests
(tests/helpers/protocol.py): the protocol through the ABI's engine handle, in this process.

Strings: every char* the library hands back through a char** is read and then freed with nc_free
(_take_string); the static strings (nc_version, nc_game_name, nc_last_error) are read and never
freed. Strings passed in are bytes (str is encoded as UTF-8): the library copies them.
"""

from __future__ import annotations

import atexit
import ctypes
import enum
import json
import queue
import threading
import weakref
from ctypes import POINTER, byref, c_char_p, c_int, c_int32, c_int64, c_size_t, c_uint64, c_void_p
from typing import Any, Optional, Union

from protocol import PATIENCE, _Client, limits_from_args

import nutcore

NC_ABI_VERSION = 2  # the header's #define
NC_CHANCE = -1
NC_TERMINAL = -4
NC_NO_SEAT = -1  # nc_state_board: no seat, everyone's board


class Status(enum.IntEnum):
    """nc_status."""

    OK = 0
    INVALID_ARGUMENT = 1
    INVALID_HANDLE = 2
    STOPPED = 3
    TIMEOUT = 4
    CLOSED = 5
    INTERNAL = 6


NC_OK = Status.OK
NC_INVALID_ARGUMENT = Status.INVALID_ARGUMENT
NC_INVALID_HANDLE = Status.INVALID_HANDLE
NC_STOPPED = Status.STOPPED
NC_TIMEOUT = Status.TIMEOUT
NC_CLOSED = Status.CLOSED
NC_INTERNAL = Status.INTERNAL

LIBRARY_PATH = nutcore.get_library()
lib = ctypes.CDLL(LIBRARY_PATH)

_handle = c_void_p  # nc_game*, nc_state*, nc_bot*, nc_engine*: opaque
_handle_out = POINTER(c_void_p)  # nc_xxx** out
_string_out = POINTER(c_void_p)  # char** out: kept as a void* so that it can be given to nc_free
_status = c_int32  # nc_status is int32_t

# (name, restype, argtypes): every function of nutcore.h, in the header's order.
_PROTOTYPES = [
    ("nc_abi_version", c_int, []),
    ("nc_version", c_char_p, []),
    ("nc_last_error", c_char_p, []),
    ("nc_free", None, [c_void_p]),
    # games
    ("nc_game_count", c_int, []),
    ("nc_game_name", c_char_p, [c_int]),
    ("nc_list_games", _status, [_string_out]),
    ("nc_game_load", _status, [c_char_p, c_char_p, _handle_out]),
    ("nc_game_free", None, [_handle]),
    ("nc_game_params", _status, [_handle, _string_out]),
    ("nc_game_num_players", _status, [_handle, POINTER(c_int)]),
    # states
    ("nc_state_new", _status, [_handle, _handle_out]),
    ("nc_state_from_json", _status, [_handle, c_char_p, _handle_out]),
    ("nc_state_clone", _status, [_handle, _handle_out]),
    ("nc_state_free", None, [_handle]),
    ("nc_state_to_json", _status, [_handle, _string_out]),
    ("nc_state_current_player", _status, [_handle, POINTER(c_int)]),
    ("nc_state_status", _status, [_handle, _string_out]),
    ("nc_state_legal_actions", _status, [_handle, _string_out]),
    ("nc_state_legal_action_ids", _status, [_handle, POINTER(c_int), c_size_t, POINTER(c_size_t)]),
    ("nc_state_action_string", _status, [_handle, c_int, _string_out]),
    ("nc_state_string_to_action", _status, [_handle, c_char_p, POINTER(c_int)]),
    ("nc_state_apply", _status, [_handle, c_int]),
    ("nc_state_sample_chance", _status, [_handle, c_uint64, POINTER(c_int)]),
    ("nc_state_random_playouts", _status, [_handle, c_int64, c_uint64, _handle, POINTER(c_int64)]),
    ("nc_state_observation_json", _status, [_handle, c_int, _string_out]),
    ("nc_state_board", _status, [_handle, c_int, c_int, _string_out]),
    # stopping a call from another thread
    ("nc_stop_new", _status, [_handle_out]),
    ("nc_stop_trigger", _status, [_handle]),
    ("nc_stop_reset", _status, [_handle]),
    ("nc_stop_triggered", _status, [_handle, POINTER(c_int)]),
    ("nc_stop_free", None, [_handle]),
    # the AI
    ("nc_best_move", _status, [_handle, c_char_p, _handle, _string_out]),
    ("nc_bot_new", _status, [c_char_p, _handle_out]),
    ("nc_bot_free", None, [_handle]),
    ("nc_bot_reset", _status, [_handle, c_uint64]),
    ("nc_bot_move", _status, [_handle, _handle, _handle, POINTER(c_int)]),
    # the engine protocol
    ("nc_engine_new", _status, [c_char_p, _handle_out]),
    ("nc_engine_send", _status, [_handle, c_char_p]),
    ("nc_engine_send_bytes", _status, [_handle, c_char_p, c_size_t]),
    ("nc_engine_receive", _status, [_handle, c_int, _string_out]),
    ("nc_engine_free", None, [_handle]),
]

for _name, _restype, _argtypes in _PROTOTYPES:
    _fn = getattr(lib, _name)
    _fn.restype = _restype
    _fn.argtypes = _argtypes

FUNCTIONS = tuple(name for name, _, _ in _PROTOTYPES)


# ----- errors and strings


def last_error() -> str:
    """nc_last_error(): this thread's last error message (static: not freed)."""
    raw = lib.nc_last_error()
    return "" if raw is None else raw.decode("utf-8", errors="replace")


class CapiError(Exception):
    """A call that returned a status other than NC_OK, with nc_last_error()'s message."""

    def __init__(self, status: int, message: str, call: str = ""):
        try:
            status = Status(status)
        except ValueError:
            pass  # a status the header does not know: kept as the int
        self.status = status
        self.message = message
        self.call = call
        name = status.name if isinstance(status, Status) else str(status)
        super().__init__(f"{call + ': ' if call else ''}NC_{name}: {message}")


def check(status: int, call: str = "") -> None:
    """Raises CapiError unless `status` is NC_OK (reading nc_last_error at once, on this thread)."""
    if status != NC_OK:
        raise CapiError(status, last_error(), call)


def _encode(text: Union[str, bytes, None]) -> Optional[bytes]:
    """A string for a const char* parameter: bytes as they are, str as UTF-8, None as NULL."""
    if text is None or isinstance(text, bytes):
        return text
    return text.encode("utf-8")


def _json_arg(value: Any) -> Optional[bytes]:
    """A JSON parameter: a str or bytes as it is (raw JSON text), None as NULL, else json.dumps."""
    if value is None or isinstance(value, (str, bytes)):
        return _encode(value)
    return json.dumps(value).encode("utf-8")


def _take_string(ptr: c_void_p) -> bytes:
    """The bytes of a string the library returned, then freed with nc_free."""
    if not ptr.value:
        return b""
    try:
        return ctypes.string_at(ptr.value)
    finally:
        lib.nc_free(ptr)


def call_string(fn, *args) -> str:
    """fn(*args, &out) for a call with a char** out parameter: the string, freed; CapiError on failure."""
    out = c_void_p()
    check(fn(*args, byref(out)), fn.__name__)
    return _take_string(out).decode("utf-8")


def call_json(fn, *args) -> Any:
    return json.loads(call_string(fn, *args))


def call_int(fn, *args) -> int:
    out = c_int()
    check(fn(*args, byref(out)), fn.__name__)
    return out.value


def call_handle(fn, *args) -> int:
    out = c_void_p()
    check(fn(*args, byref(out)), fn.__name__)
    assert out.value, f"{fn.__name__} returned NC_OK with a NULL handle"
    return out.value


# ----- the plain calls


def abi_version() -> int:
    return lib.nc_abi_version()


def version() -> str:
    return lib.nc_version().decode("utf-8")


def game_names() -> list[str]:
    return [lib.nc_game_name(i).decode("utf-8") for i in range(lib.nc_game_count())]


def list_games() -> list[dict]:
    return call_json(lib.nc_list_games)


class _Owned:
    """A handle freed by `_free_fn` on close() or when collected (once)."""

    _free_fn = None

    def __init__(self, handle: int):
        self._handle: Optional[int] = handle

    @property
    def handle(self) -> int:
        if self._handle is None:
            raise CapiError(NC_INVALID_HANDLE, f"{type(self).__name__} was closed")
        return self._handle

    @property
    def closed(self) -> bool:
        return self._handle is None

    def close(self) -> None:
        handle, self._handle = self._handle, None
        if handle is not None and lib is not None:
            type(self)._free_fn(handle)

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass  # at interpreter shutdown ctypes may already be gone

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class CapiGame(_Owned):
    """nc_game_load(name, params): params a dict (json.dumps), raw JSON text, or None for {}."""

    _free_fn = lib.nc_game_free

    def __init__(self, name: Union[str, bytes], params: Any = None):
        super().__init__(call_handle(lib.nc_game_load, _encode(name), _json_arg(params)))

    def params(self) -> dict:
        return call_json(lib.nc_game_params, self.handle)

    def num_players(self) -> int:
        return call_int(lib.nc_game_num_players, self.handle)

    def new_state(self) -> CapiState:
        return CapiState(call_handle(lib.nc_state_new, self.handle))

    def state_from_json(self, position: Any) -> CapiState:
        return CapiState(call_handle(lib.nc_state_from_json, self.handle, _json_arg(position)))


class CapiState(_Owned):
    _free_fn = lib.nc_state_free

    def clone(self) -> CapiState:
        return CapiState(call_handle(lib.nc_state_clone, self.handle))

    def to_json_text(self) -> str:
        return call_string(lib.nc_state_to_json, self.handle)

    def to_json(self) -> dict:
        return json.loads(self.to_json_text())

    def current_player(self) -> int:
        return call_int(lib.nc_state_current_player, self.handle)

    def is_chance(self) -> bool:
        return self.current_player() == NC_CHANCE

    def is_terminal(self) -> bool:
        return self.current_player() == NC_TERMINAL

    def status(self) -> dict:
        return call_json(lib.nc_state_status, self.handle)

    def legal_actions(self) -> list[dict]:
        return call_json(lib.nc_state_legal_actions, self.handle)

    def legal_action_ids(self, capacity: int = 16) -> list[int]:
        """nc_state_legal_action_ids, the buffer grown while *count exceeds its capacity."""
        while True:
            buf = (c_int * max(capacity, 1))()
            count = c_size_t()
            check(lib.nc_state_legal_action_ids(self.handle, buf, capacity, byref(count)), "nc_state_legal_action_ids")
            if count.value <= capacity:
                return list(buf[: count.value])
            capacity = count.value

    def action_string(self, action: int) -> str:
        return call_string(lib.nc_state_action_string, self.handle, action)

    def string_to_action(self, text: Union[str, bytes]) -> int:
        return call_int(lib.nc_state_string_to_action, self.handle, _encode(text))

    def apply(self, action: int) -> None:
        check(lib.nc_state_apply(self.handle, action), "nc_state_apply")

    def sample_chance(self, seed: int) -> int:
        return call_int(lib.nc_state_sample_chance, self.handle, seed)

    def random_playouts(self, count: int, seed: int, stop: Optional[CapiStop] = None) -> int:
        out = c_int64()
        stop_handle = None if stop is None else stop.handle
        check(
            lib.nc_state_random_playouts(self.handle, count, seed, stop_handle, byref(out)), "nc_state_random_playouts"
        )
        return out.value

    def observation_json(self, seat: int) -> dict:
        return call_json(lib.nc_state_observation_json, self.handle, seat)

    def board(self, seat: Optional[int] = None, memory_aids: bool = True) -> dict:
        """nc_state_board: {"seat", "memory_aids", "text", "json"}; seat None is NC_NO_SEAT."""
        return call_json(lib.nc_state_board, self.handle, NC_NO_SEAT if seat is None else seat, int(memory_aids))

    def best_move(self, request: Any = None, stop: Optional[CapiStop] = None) -> dict:
        """nc_best_move: request a dict (json.dumps), raw JSON text, or None for the defaults."""
        return call_json(lib.nc_best_move, self.handle, _json_arg(request), None if stop is None else stop.handle)


class CapiBot(_Owned):
    """nc_bot_new(spec)."""

    _free_fn = lib.nc_bot_free

    def __init__(self, spec: Union[str, bytes]):
        super().__init__(call_handle(lib.nc_bot_new, _encode(spec)))

    def reset(self, seed: int) -> None:
        check(lib.nc_bot_reset(self.handle, seed), "nc_bot_reset")

    def move(self, state: CapiState, stop: Optional[CapiStop] = None) -> int:
        return call_int(lib.nc_bot_move, self.handle, state.handle, None if stop is None else stop.handle)


class CapiStop(_Owned):
    """nc_stop_new(): trip it from any thread to end the calls given it."""

    _free_fn = lib.nc_stop_free

    def __init__(self):
        super().__init__(call_handle(lib.nc_stop_new))

    def trigger(self) -> None:
        check(lib.nc_stop_trigger(self.handle), "nc_stop_trigger")

    def reset(self) -> None:
        check(lib.nc_stop_reset(self.handle), "nc_stop_reset")

    @property
    def triggered(self) -> bool:
        return bool(call_int(lib.nc_stop_triggered, self.handle))


# ----- the engine handle: the "capi" transport


_live_engines: weakref.WeakSet = weakref.WeakSet()


@atexit.register
def _close_live_engines() -> None:
    # A reader thread blocked in nc_engine_receive while the process tears the library down could
    # crash the exit: stop every reader and free every engine first.
    for engine in list(_live_engines):
        try:
            engine.close()
        except Exception:
            pass


class CapiEngine(_Client):
    """The engine protocol through nc_engine_new / send / receive / free, in this process.

    args are the engine's command-line flags (--allow-files, --test-hooks, --limits JSON), given to
    nc_engine_new as the limits JSON. A daemon thread receives every reply (50 ms at a time, so that
    it can be stopped) and queues it parsed; `raw_lines` keeps every line as received (bytes) and
    `garbage` every line that is not UTF-8 JSON.

    Threads: nc_engine_send (the caller's thread) and nc_engine_receive (the reader) may run at once
    on the handle; nc_engine_free must not run while any other call on it is under way, so closing
    stops and joins the reader first and takes `_send_lock`, which every send holds."""

    POLL_MS = 50

    def __init__(self, *args: str):
        limits = limits_from_args(args)
        self.limits_json = json.dumps(limits)
        self._engine: Optional[int] = call_handle(lib.nc_engine_new, self.limits_json.encode("utf-8"))
        self.lines: queue.Queue = queue.Queue()
        self.raw_lines: list[bytes] = []
        self.garbage: list[bytes] = []
        self.reader_error: Optional[CapiError] = None  # a receive that failed other than by TIMEOUT/CLOSED
        self.closed_by_engine = False  # receive answered NC_CLOSED (after quit)
        self._stopping = threading.Event()
        self._send_lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, name="capi-engine-reader", daemon=True)
        self._reader.start()
        _live_engines.add(self)

    def _read(self) -> None:
        handle = self._engine
        out = c_void_p()
        while not self._stopping.is_set():
            status = lib.nc_engine_receive(handle, self.POLL_MS, byref(out))
            if status == NC_TIMEOUT:
                continue
            if status == NC_CLOSED:
                self.closed_by_engine = True  # quit: every reply was taken
                return
            if status != NC_OK:
                self.reader_error = CapiError(status, last_error(), "nc_engine_receive")
                return
            line = _take_string(out)
            out = c_void_p()
            self.received(line)

    def _send_line(self, line: bytes) -> None:
        # nc_engine_send_bytes takes the line with its length: any byte passes, a NUL too (which a
        # NUL-terminated nc_engine_send could not carry).
        with self._send_lock:
            if self._engine is None:
                raise CapiError(NC_INVALID_HANDLE, "the engine was freed (finish/close)", "nc_engine_send_bytes")
            check(lib.nc_engine_send_bytes(self._engine, line, len(line)), "nc_engine_send_bytes")

    def write(self, data: bytes) -> None:
        parts = data.split(b"\n")
        if parts and parts[-1] == b"":
            parts.pop()
        for line in parts:
            self._send_line(line)

    def send(self, **msg) -> None:
        self._send_line(json.dumps(msg).encode("utf-8"))

    def get(self, timeout: float = PATIENCE) -> dict:
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            if self.reader_error is not None:
                raise self.reader_error from None
            raise

    def finish(self, timeout: float = PATIENCE) -> tuple[int, str]:
        """As the end of input of the stdio engine: stops a running search and ends the engine (by
        nc_engine_free, after the reader stopped). Replies already queued stay readable."""
        self._free(timeout)
        assert not self.garbage, self.garbage[:3]  # nothing but UTF-8 JSON lines came
        return 0, ""

    def _free(self, timeout: float = PATIENCE) -> None:
        self._stopping.set()
        if self._reader.is_alive() and self._reader is not threading.current_thread():
            self._reader.join(timeout)
            if self._reader.is_alive():
                raise AssertionError("the reader thread did not stop (nc_engine_receive did not return)")
        with self._send_lock:
            handle, self._engine = self._engine, None
            if handle is not None:
                lib.nc_engine_free(handle)  # stops a running search and waits for it
        _live_engines.discard(self)

    def close(self) -> None:
        """Frees the engine if not yet freed (idempotent)."""
        if self._engine is not None:
            self._free()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass
