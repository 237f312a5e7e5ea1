"""Clients of the engine protocol (docs/engine-protocol.md) for the tests: they see the engine only
as a client does, through its lines, so the same tests run against every implementation and door.

Transports (connect(transport, *args)), every one the same C++ engine behind another door:
- "python": nutcore.engine.Engine in this process (the Python binding);
- "cli": `python -m nutcore engine` as a subprocess;
- "binary": the `nutcore-engine` executable as a subprocess (NUTCORE_ENGINE overrides its command);
- "capi": libnutcore's engine handle through ctypes (tests/helpers/capi_client.py);
- "websocket": a connection to `nutcore serve --limits ...` (a server of its own per client);
- "wasm": the WebAssembly build in Node, through its JavaScript API (tests/helpers/wasm_lines.mjs makes
  it a line engine: a JS string holds no invalid UTF-8, so such bytes reach it as U+FFFD).
args are the engine's command-line flags: --allow-files, --test-hooks (the commands _full_state,
_replace_full_state and _reseed, for tests only), --limits JSON.

ServeProcess: `nutcore serve` as a subprocess on 127.0.0.1, with WebSocket clients (Socket).
"""

from __future__ import annotations

import itertools
import json
import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

_ids = itertools.count(1)
PATIENCE = 20.0  # seconds: a loose bound for replies (the machines are shared)


# The sanitizer jobs (.ci/sanitize, .ci/tsan) name the native doors only in NUTCORE_TEST_DOORS: their
# builds have no WebAssembly module, their venvs not the web extra; the suite itself runs them all.
TRANSPORTS = tuple(os.environ.get("NUTCORE_TEST_DOORS", "python cli binary capi websocket wasm").split())


def binary_path() -> str:
    """The nutcore-engine executable installed beside this Python (or on the PATH)."""
    beside = Path(sys.executable).with_name("nutcore-engine")
    found = str(beside) if beside.exists() else shutil.which("nutcore-engine")
    assert found, "nutcore-engine is not installed (pip install . builds it)"
    return found


def engine_command(*args: str, transport: str = "cli") -> list[str]:
    override = os.environ.get("NUTCORE_ENGINE")
    if transport == "wasm":
        from wasm_support import module_dir, node

        return [node(), str(Path(__file__).with_name("wasm_lines.mjs")), str(module_dir()), *args]
    if override:
        base = shlex.split(override)
    elif transport == "binary":
        base = [binary_path()]
    else:
        base = [sys.executable, "-m", "nutcore", "engine"]
    return [*base, *args]


def limits_from_args(args: tuple[str, ...]) -> dict:
    """The Limits an engine's command-line flags give."""
    limits: dict = {}
    items = list(args)
    while items:
        arg = items.pop(0)
        if arg == "--allow-files":
            limits["file_params"] = True
        elif arg == "--test-hooks":
            limits["test_hooks"] = True
        elif arg == "--limits":
            limits.update(json.loads(items.pop(0)))
        else:
            raise ValueError(f"unknown engine flag {arg}")
    return limits


def connect(transport: str, *args: str) -> _Client:
    """A fresh engine behind `transport` (TRANSPORTS), started with these flags."""
    if transport == "python":
        return InProcess(*args)
    if transport == "capi":
        from capi_client import CapiEngine

        return CapiEngine(*args)
    if transport == "websocket":
        return ServedEngine(*args)
    return EngineProcess(*args, transport=transport)


def _quiet_env() -> dict:
    return {**os.environ, "SKBUILD_EDITABLE_VERBOSE": "0"}  # an editable install prints on import


class _Client:
    """What every client does with `send(**msg)` and `get(timeout)`, its next reply."""

    def send(self, **msg) -> None:
        raise NotImplementedError

    def get(self, timeout: float = PATIENCE) -> dict:
        raise NotImplementedError

    def final_replies(self, rids, timeout: float = PATIENCE) -> dict:
        """The final replies (info lines skipped) to the requests `rids`, by id, all within
        `timeout` seconds (progress lines keep coming while a search runs: they do not extend it)."""
        deadline = time.monotonic() + timeout
        found: dict = {}
        while len(found) < len(rids):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no final reply to {sorted(set(rids) - set(found), key=str)} in {timeout} s")
            reply = self.get(left)
            if reply["type"] != "info" and reply.get("id") in rids:
                found[reply["id"]] = reply
        return found

    def reply_to(self, rid, timeout: float = PATIENCE) -> dict:
        """The final reply (info lines skipped) with this id."""
        return self.final_replies([rid], timeout)[rid]

    def ask(self, timeout: float = PATIENCE, **msg) -> dict:
        msg.setdefault("id", next(_ids))
        self.send(**msg)
        return self.reply_to(msg["id"], timeout)

    def ok(self, **msg) -> dict:
        """ask, and the reply is the command's answer (not an error)."""
        reply = self.ask(**msg)
        assert reply["type"] == msg["cmd"], reply
        return reply

    def raw(self, line: bytes) -> list[dict]:
        """Every reply to one raw line (for lines without an id): the replies before the answer to
        a hello sent right after it."""
        self.write(line + b"\n")
        sync = f"sync-{next(_ids)}"
        self.send(cmd="hello", id=sync)
        replies = []
        while True:
            reply = self.get()
            if reply.get("id") == sync and reply["type"] == "hello":
                return replies
            replies.append(reply)

    def write(self, data: bytes) -> None:
        raise NotImplementedError

    def received(self, line: bytes) -> None:
        """A reply line as it came: kept, and parsed into `lines` (anything not UTF-8 JSON into
        `garbage`)."""
        self.raw_lines.append(line)
        try:
            line.decode("utf-8")  # every reply is UTF-8 text
            self.lines.put(json.loads(line))
        except ValueError:
            self.garbage.append(line)


class InProcess(_Client):
    """nutcore.engine.Engine in this process (the Python binding), its replies collected."""

    def __init__(self, *args: str):
        from nutcore.engine import Engine, Limits

        self.lines: queue.Queue = queue.Queue()
        self.raw_lines: list[str] = []
        self.engine = Engine(self._deliver, Limits(**limits_from_args(args)), text=True)

    def _deliver(self, line: str) -> None:
        self.raw_lines.append(line)
        self.lines.put(json.loads(line))

    def write(self, data: bytes) -> None:
        for line in data.split(b"\n")[:-1] if data.endswith(b"\n") else data.split(b"\n"):
            self.engine.handle(line)

    def send(self, **msg) -> None:
        self.engine.handle(json.dumps(msg))

    def get(self, timeout: float = PATIENCE) -> dict:
        return self.lines.get(timeout=timeout)

    def finish(self, timeout: float = PATIENCE) -> tuple[int, str]:
        """As the end of input does: stops a running search, which answers."""
        self.engine.close()
        return 0, ""

    def close(self) -> None:
        self.engine.close()


class EngineProcess(_Client):
    """The stdio engine with a thread reading its replies (each line parsed; anything that is not
    a JSON line is kept in `garbage`)."""

    def __init__(self, *args: str, transport: str = "cli"):
        self.proc = subprocess.Popen(
            engine_command(*args, transport=transport),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=_quiet_env(),
        )
        self.lines: queue.Queue = queue.Queue()
        self.raw_lines: list[bytes] = []
        self.garbage: list[bytes] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.received(line)

    def write(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, **msg) -> None:
        self.write(json.dumps(msg).encode() + b"\n")

    def get(self, timeout: float = PATIENCE) -> dict:
        return self.lines.get(timeout=timeout)

    def finish(self, timeout: float = PATIENCE) -> tuple[int, str]:
        """Closes the engine's input; its exit code and what it wrote to stderr."""
        self.proc.stdin.close()
        code = self.proc.wait(timeout)
        err = self.proc.stderr.read().decode()
        self.close()
        assert not self.garbage, self.garbage[:3]  # stdout held nothing but JSON lines
        return code, err

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self._reader.join(5)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            stream.close()


def to_decision(client, limit: int = 200) -> dict:
    """Resolves chance until someone is to move; the last status."""
    status = client.ask(cmd="status")["status"]
    for _ in range(limit):
        if not status["chance"]:
            return status
        status = client.ask(cmd="chance")["status"]
    raise AssertionError("no decision reached")


class ServeProcess:
    """`nutcore serve --port 0` on 127.0.0.1 (or `host`): its URL once it listens."""

    def __init__(self, *args: str, host: str = "127.0.0.1"):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "nutcore", "serve", "--host", host, "--port", "0", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=_quiet_env(),
        )
        deadline = time.monotonic() + 60
        self.url = None
        while self.url is None:
            line = self.proc.stdout.readline()
            if not line:
                raise AssertionError(f"serve ended without listening: {self.proc.stderr.read()}")
            found = re.search(r"listening on (http://\S+/)", line)
            if found:
                self.url = found.group(1)
            assert time.monotonic() < deadline, "serve did not start"
        self.port = int(self.url.rsplit(":", 1)[1].rstrip("/"))
        self.ws_url = self.url.replace("http://", "ws://") + "ws"

    def rss_bytes(self) -> int:
        with open(f"/proc/{self.proc.pid}/status") as f:
            kb = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
        return kb * 1024

    def terminate(self, timeout: float = PATIENCE) -> tuple[int, float]:
        """SIGTERM; the exit code and how long the server took to exit."""
        start = time.monotonic()
        self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(timeout)
        return code, time.monotonic() - start

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()
        self.proc.stderr.close()


class Socket(_Client):
    """A WebSocket client of the protocol (websockets' synchronous client)."""

    def __init__(self, ws_url: str, **kwargs):
        from websockets.sync.client import connect

        # Entered as a context manager: websockets 17 warns when a connection is used otherwise.
        self.ws = connect(ws_url, open_timeout=PATIENCE, **kwargs).__enter__()

    def send(self, **msg) -> None:
        self.ws.send(json.dumps(msg))

    def get(self, timeout: float = PATIENCE) -> dict:
        return json.loads(self.ws.recv(timeout=timeout))

    def close(self) -> None:
        self.ws.close()


class ServedEngine(Socket):
    """`nutcore serve` with the given engine flags (its limits as `nutcore engine`'s: none unless
    given), one WebSocket connection to it: a line is a message."""

    def __init__(self, *args: str):
        limits = limits_from_args(args)
        flags = ["--test-hooks"] if limits.pop("test_hooks", False) else []
        self.server = ServeProcess("--limits", json.dumps(limits), *flags)
        try:
            super().__init__(self.server.ws_url, max_size=None)
        except BaseException:
            self.server.close()
            raise

    def write(self, data: bytes) -> None:
        for line in data.split(b"\n")[:-1] if data.endswith(b"\n") else data.split(b"\n"):
            try:
                self.ws.send(line.decode("utf-8"))
            except UnicodeDecodeError:  # not text: a binary message, read as a line's bytes
                self.ws.send(line)

    def finish(self, timeout: float = PATIENCE) -> tuple[int, str]:
        """The client goes away: its search is stopped (its reply goes nowhere); the server stays."""
        self.close()
        return 0, ""

    def close(self) -> None:
        super().close()
        self.server.close()
