"""`nutcore serve`: the local web page (static files) and a WebSocket that speaks the engine
protocol (docs/engine-protocol.md), one JSON object per message each way, through the same
`nutcore.engine.Engine` as `nutcore engine`: one Engine per socket.

A server is reachable by any program on the machine and by any web page its user opens, so it is
bounded (docs/engine-protocol.md, "Serving untrusted clients"): the searches' budgets and the number
running at once are capped, no client makes it read a file, a request's Host must be one of the
server's own names (DNS rebinding), and a page from another origin is refused. The event loop only
moves messages: each connection's requests run in order on that connection's own thread, so no
client can take a shared pool of threads, and a closed socket only stops its search.

Files go gzipped to a browser that accepts it (the WebAssembly module is a few MB raw, about a
third of that gzipped), with their content types unchanged (`application/wasm` lets the browser
compile the module while it downloads).

Needs the extra `nutcore[web]` (Starlette, uvicorn, websockets). Like every generic layer it names
no game.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import os
import queue
import socket
import threading
import time
from pathlib import Path
from typing import Any, AsyncIterator, Union
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.datastructures import State
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from nutcore.engine import MAX_LINE_BYTES, Engine, Limits, SearchSlots

STATIC = Path(__file__).resolve().parent / "static"
# Level 6: within 1 % of level 9's size for the module, in a fraction of its time.
GZIP_LEVEL = 6

_CORES = os.cpu_count() or 1
# What a page (or any client that reaches the port) may ask: searches of bounded time, threads,
# depth and memory, a few of them at once, and no game parameter read from a file.
WEB_LIMITS = Limits(
    iterations=2_000_000,
    time_limit=30.0,
    threads=max(1, min(4, _CORES)),
    max_nodes=5_000_000,  # 24 bytes per MCTS node: under 200 MB per search
    depth=8,  # expectimax: about a second at depth 8, eight times that per ply more
    search_seconds=60.0,
    searches=max(2, _CORES),  # the others wait their turn (info lines say "queued")
    file_params=False,
    nice=10,  # the event loop before the searches: a fresh client's hello waits for no search
)
MAX_CONNECTIONS = 256  # more sockets are refused (close code 1013, "try again later")
MAX_QUEUED_REPLIES = 256  # a client that does not read its replies is not read either
MAX_QUEUED_REQUESTS = 64  # nor is one whose requests have piled up unanswered
SHUTDOWN_SECONDS = 1.0  # how long a shutdown waits for the stopped searches to end
LOCAL_NAMES = ("127.0.0.1", "localhost", "::1")
_CLOSE = object()  # the sender's cue to close the socket (after quit)
# What a connection's thread hands the event loop to send: a reply line, or _CLOSE.
Outgoing = Union[str, object]


def _host_name(value: str | None) -> str | None:
    """The host name of a Host header or an Origin's netloc ("[::1]:8000" -> "::1"), lowercase."""
    if not value:
        return None
    try:
        return urlsplit(f"//{value}").hostname
    except ValueError:  # a malformed port or bracket
        return None


def _is_ip_literal(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class HostAllowlist:
    """ASGI middleware: a request (page or WebSocket) whose Host header does not name this server
    gets 403. A page on another site may resolve its own name to 127.0.0.1 (DNS rebinding) and
    would then pass the same-origin check; its requests still carry its name as Host.

    `names`: the host names accepted; `any_ip`: also any IP literal (a server bound to every
    interface is reached by its addresses, which no rebinding can forge)."""

    state: State  # the app's, set by create_app

    def __init__(self, app: ASGIApp, names: tuple[str, ...] = LOCAL_NAMES, any_ip: bool = False):
        self.app = app
        self.names = {n.lower().strip("[]") for n in names}
        self.any_ip = any_ip

    def allowed(self, host_header: str | None) -> bool:
        name = _host_name(host_header)
        return name is not None and (name in self.names or (self.any_ip and _is_ip_literal(name)))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            headers = dict(scope.get("headers") or [])
            host = headers.get(b"host", b"").decode("latin-1")
            if not self.allowed(host):
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008})  # refused before the handshake: 403
                else:
                    await PlainTextResponse("unknown host: this server answers to its own names only", 403)(
                        scope, receive, send
                    )
                return
        await self.app(scope, receive, send)


def _same_origin(websocket: WebSocket) -> bool:
    """Browsers let any web site open a WebSocket to localhost; only this server's own page (or a
    client that is not a browser, which sends no Origin) may use the engine."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    host = websocket.headers.get("host", "")
    return urlsplit(origin).netloc.lower() == host.lower()


async def _page(request: Request) -> FileResponse:
    # no-store: after an upgrade the browser must not keep an old page that speaks an old protocol.
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})


async def _service_worker(request: Request) -> FileResponse:
    # The shipped sw.js, not filled in by export-web: it removes the worker of an exported folder
    # once served on this address, whose cache would otherwise answer for this page.
    return FileResponse(STATIC / "sw.js", media_type="text/javascript", headers={"Cache-Control": "no-store"})


def _module_routes() -> list[Mount]:
    """/static/wasm/: the WebAssembly engine, where pip built it, so that ?engine=worker works here
    too (docs/web.md)."""
    from nutcore.web.export import built_module

    folder = built_module()
    return [Mount("/static/wasm", app=StaticFiles(directory=folder), name="wasm")] if folder is not None else []


class _Connection:
    """One socket's engine and the thread that runs its requests, in order. The event loop hands
    messages over (`put`) and never waits for the engine."""

    def __init__(self, websocket: WebSocket, loop: asyncio.AbstractEventLoop, replies: asyncio.Queue[Outgoing]):
        app_state = websocket.app.state

        def send(line: str) -> None:
            # From the engine's threads: sent by the event loop alone.
            loop.call_soon_threadsafe(replies.put_nowait, line)

        self.engine = Engine(send, limits=app_state.limits, slots=app_state.slots, text=True)
        self._loop, self._replies = loop, replies
        self._requests: queue.SimpleQueue[str | bytes | None] = queue.SimpleQueue()
        self._pending = 0  # requests put and not yet handled
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="nutcore-connection", daemon=True)
        self._thread.start()

    def pending(self) -> int:
        with self._lock:
            return self._pending

    def put(self, data: str | bytes) -> None:
        with self._lock:
            self._pending += 1
        self._requests.put(data)

    def _run(self) -> None:
        while True:
            data = self._requests.get()
            if data is None:
                return
            self.engine.handle(data)
            with self._lock:
                self._pending -= 1
            if self.engine.closed:  # quit: its reply is queued; then the socket closes
                self._loop.call_soon_threadsafe(self._replies.put_nowait, _CLOSE)
                return

    def close(self) -> None:
        """The client has gone: its search is stopped (its reply goes nowhere) and the thread ends
        after the request it is handling. Nothing here waits."""
        self._requests.put(None)
        self.engine.drop()
        self.engine.close(wait=False)


async def _socket(websocket: WebSocket) -> None:
    app_state = websocket.app.state
    if not _same_origin(websocket):
        await websocket.close(code=1008, reason="cross-origin connections are refused")
        return
    await websocket.accept()
    if len(app_state.connections) >= MAX_CONNECTIONS:
        await websocket.close(code=1013, reason="too many connections; try again later")
        return
    replies: asyncio.Queue[Outgoing] = asyncio.Queue()
    connection = _Connection(websocket, asyncio.get_running_loop(), replies)
    app_state.connections.add(connection)
    app_state.engines.add(connection.engine)

    async def sender() -> None:
        while True:
            text = await replies.get()
            if not isinstance(text, str):  # _CLOSE
                await websocket.close()
                return
            await websocket.send_text(text)

    sending = asyncio.ensure_future(sender())
    try:
        while True:
            receiving = asyncio.ensure_future(websocket.receive())
            await asyncio.wait((receiving, sending), return_when=asyncio.FIRST_COMPLETED)
            if not receiving.done():  # the sender closed the socket after quit, or broke
                receiving.cancel()
                break
            message = receiving.result()
            if message["type"] == "websocket.disconnect":
                break
            data: str | bytes | None = message.get("text")
            if data is None:
                data = message.get("bytes") or b""
            connection.put(data)
            # A client that does not read its replies, or floods requests, waits here: its socket
            # is not read until the backlog shrinks (other clients are served meanwhile).
            while not sending.done() and (
                replies.qsize() > MAX_QUEUED_REPLIES or connection.pending() > MAX_QUEUED_REQUESTS
            ):
                await asyncio.sleep(0.01)
            if sending.done():  # closed after quit, or the socket broke under a send
                break
    except (WebSocketDisconnect, RuntimeError):  # RuntimeError: the socket closed under a receive
        pass
    finally:
        app_state.connections.discard(connection)
        app_state.engines.discard(connection.engine)
        connection.close()
        if not sending.done():
            sending.cancel()
        with contextlib.suppress(BaseException):
            await sending


def _stop_all(app_state: State, seconds: float) -> None:
    """Stops every connection's search and waits up to `seconds` for them to end."""
    engines = list(app_state.engines)
    for engine in engines:
        engine.drop()
        engine.close(wait=False)
    deadline = time.monotonic() + seconds
    while any(engine.searching for engine in engines) and time.monotonic() < deadline:
        time.sleep(0.01)


def create_app(
    limits: Limits | None = WEB_LIMITS, hosts: tuple[str, ...] = LOCAL_NAMES, any_ip: bool = False
) -> HostAllowlist:
    """The ASGI app: GET / (the page), /static/... (with the WebAssembly engine in
    /static/wasm/ where it is built), /sw.js and the WebSocket /ws, behind the Host
    allowlist (`hosts`, `any_ip`: see HostAllowlist). `limits`: what clients may ask of the engine
    (None: no caps, for a trusted client only); its `searches` are shared by all connections.
    `app.state.engines` holds the live connections' engines (for tests and diagnostics)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        # Shutdown (SIGTERM, Ctrl-C): the searches still running are stopped, and waited for
        # briefly, so that none outlives the interpreter.
        await asyncio.to_thread(_stop_all, app.state, SHUTDOWN_SECONDS)

    app = Starlette(
        routes=[
            Route("/", _page),
            Route("/sw.js", _service_worker),
            *_module_routes(),
            Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
            WebSocketRoute("/ws", _socket),
        ],
        middleware=[Middleware(GZipMiddleware, minimum_size=1024, compresslevel=GZIP_LEVEL)],
        lifespan=lifespan,
    )
    app.state.limits = limits
    searches = limits.searches if limits is not None else None
    app.state.slots = SearchSlots(searches) if searches is not None else None
    app.state.engines = set()
    app.state.connections = set()
    guarded = HostAllowlist(app, hosts, any_ip)
    guarded.state = app.state  # the app's state, reachable from what serve() runs
    return guarded


def bind(host: str, port: int) -> socket.socket:
    """A listening socket; OSError (port taken, no such address) with the address named."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as e:
        sock.close()
        raise OSError(f"serve: cannot listen on {host}:{port}: {e.strerror or e}") from None
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    if host in ("0.0.0.0", "::"):
        host = "127.0.0.1"
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


def server_config(app: ASGIApp, **kwargs: Any) -> Any:
    """uvicorn's configuration for the app: messages up to the protocol's line limit, and a
    shutdown that does not wait for clients for long."""
    import uvicorn

    return uvicorn.Config(
        app,
        log_level="warning",
        ws_max_size=MAX_LINE_BYTES + 1024,
        timeout_graceful_shutdown=1,
        **kwargs,
    )


def serve(host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False, limits: Limits = WEB_LIMITS) -> int:
    """Runs the server until Ctrl-C or SIGTERM; prints where it listens. `limits`: what each
    client may ask (create_app)."""
    import uvicorn

    sock = bind(host, port)
    url = url_of(sock)
    wildcard = host in ("0.0.0.0", "::", "")
    app = create_app(limits, hosts=(*LOCAL_NAMES, host), any_ip=wildcard)
    print(f"nutcore serve: listening on {url} (Ctrl-C stops)", flush=True)
    if host not in LOCAL_NAMES:
        print("nutcore serve: reachable from other machines: anyone who reaches it can run searches", flush=True)
    if open_browser:
        import webbrowser

        webbrowser.open(url)  # the socket already listens: the browser's request waits in its backlog
    uvicorn.Server(server_config(app)).run(sockets=[sock])
    return 0
