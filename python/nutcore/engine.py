"""The engine protocol: one JSON object per line each way, for front ends in any language
(docs/engine-protocol.md). It lives in C++ (cpp/engine/protocol.cc), one implementation for every
door: nutcore-engine, the C ABI, `nutcore engine` and `nutcore serve` here.

`Engine(send)` holds one connection's game and answers its commands: feed it lines (`handle`) or
parsed messages (`handle_message`) and it calls `send(reply)` for every reply (a dict of JSON
types, or with text=True the line itself), from the caller's thread or, while a search runs, from
the engine's own threads, never two at once.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict, dataclass
from typing import Any, Callable

from . import _core
from ._types import State

PROTOCOL_VERSION = _core.PROTOCOL_VERSION
MAX_LINE_BYTES = _core.MAX_LINE_BYTES  # a line's bytes, its line ending not counted


@dataclass(frozen=True)
class Limits:
    """What a client may ask of the engine; None: no cap. The defaults (`Limits()`) cap nothing
    but files: a client never makes nutcore open one unless whoever started the engine allows it
    (`file_params=True`, `nutcore engine --allow-files`).

    Searches: `iterations`, `time_limit`, `threads`, the `max_nodes` option and expectimax's
    `depth` are refused above their caps; a search that gives no `max_nodes` gets `max_nodes` (the
    tree's memory), a time-limited expectimax that gives no `depth` deepens as far as `depth`, and
    every search is stopped after `search_seconds` whatever its budget (it then
    answers with its best move so far, as after `stop`). `searches`: how many searches may run at
    once over all the connections that share one `SearchSlots` (a server's); the others wait
    their turn. Parameters: with `file_params` false, a game parameter that is not a string by
    default may not be given as a string (it could name a file to read, such as a card set).
    `nice`: the searches run at this higher nice value (Linux, where it is per thread and the
    search's own threads inherit it), so that a server's event loop and its other clients are
    served first on a busy machine."""

    iterations: int | None = None
    time_limit: float | None = None
    threads: int | None = None
    max_nodes: int | None = None
    depth: int | None = None
    search_seconds: float | None = None
    searches: int | None = None
    file_params: bool = False
    nice: int = 0
    test_hooks: bool = False  # for the test suites: the commands _full_state, _replace_full_state, _reseed

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class SearchSlots:
    """The searches that may run at once over many engines (a server's connections): a search
    waits for a free slot, first come first served, and a stopped search leaves the queue."""

    def __init__(self, size: int):
        self._native = _core.SearchSlots(size)
        self.size = self._native.size


class Engine:
    """One connection's game and its commands, independent of the transport.

    send(reply) receives every reply: a dict of JSON types, or the reply's line (a str, without its
    newline) with text=True. handle() and handle_message() may be called from any thread; they
    answer every request with at least one reply and never raise. After "quit", `closed` is true.
    """

    def __init__(
        self,
        send: Callable[[Any], None],
        limits: Limits | None = None,
        slots: SearchSlots | None = None,
        text: bool = False,
    ):
        self._send = send
        deliver = send if text else self._deliver
        native_slots = None if slots is None else slots._native
        self._native = _core.Engine(deliver, (limits or Limits()).to_json(), native_slots)

    def _deliver(self, line: str) -> None:
        self._send(json.loads(line))

    @property
    def closed(self) -> bool:
        return self._native.closed

    @property
    def searching(self) -> bool:
        return self._native.searching

    def handle(self, line: str | bytes) -> None:
        """One line from the client. Blank lines are ignored; anything else gets a reply."""
        if not isinstance(line, (str, bytes, bytearray)):
            line = json.dumps(repr(line))  # not text: refused as a request that is no JSON object
        self._native.handle(line)

    def handle_message(self, msg: Any) -> None:
        """One parsed request: a JSON object with "cmd" and optionally "id"."""
        try:
            line = json.dumps(msg, allow_nan=False)
        except (TypeError, ValueError, RecursionError):
            line = json.dumps(repr(msg)[:200])  # not JSON: refused as a request that is no JSON object
        self._native.handle(line)

    def close(self, wait: bool = True) -> None:
        """Stops a running search (within milliseconds) and, with `wait`, waits for it to end (its
        reply is still sent). A transport whose client has gone away passes wait=False: the search
        ends on the engine's own thread, and drop() makes its reply go nowhere."""
        self._native.close(wait)

    def drop(self) -> None:
        """Sends nothing from now on (the client has gone)."""
        self._native.drop()

    def wait_for_search(self) -> None:
        """Returns once no search runs."""
        self._native.wait_for_search()

    # For tests of the hidden-information rules (what no client may see or do; not the protocol).

    def _full_state(self) -> State:
        """The engine's true position, as a native state."""
        from .games import load_game

        info = self._native._connection()
        return load_game(info["game"], **info["params"]).state_from_json(self._native._full_state())

    def _replace_full_state(self, state: State) -> None:
        """Another full state, such as one the connection's seat cannot tell from it."""
        self._native._replace_full_state(state.to_json())

    @property
    def _seat(self) -> int | None:
        seat: int | None = self._native._connection()["seat"]
        return seat


def run_stdio(limits: Limits | None = None) -> int:
    """The stdin/stdout transport (`nutcore engine`): requests in, replies out, one JSON object per
    line; returns 0 at the end of input or after quit (a running search is stopped first)."""
    # Stray prints (from any library) must not corrupt the protocol stream: they go to stderr.
    saved, sys.stdout = sys.stdout, sys.stderr
    try:
        saved.flush()
        return _core.run_stdio((limits or Limits()).to_json())
    finally:
        sys.stdout = saved
