"""`nutcore serve`: the local web page (static files) and a WebSocket that speaks the engine
protocol (docs/engine-protocol.md), one JSON object per message each way, through the same
`nutcore.engine.Engine` as `nutcore engine`: one Engine per socket.

Needs the extra `nutcore[web]` (Starlette, uvicorn, websockets). Like every generic layer it names
no game.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.responses import FileResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from nutcore.engine import MAX_LINE_BYTES, Engine, Limits

STATIC = Path(__file__).resolve().parent / "static"

# What a page (or any client that reaches the port) may ask: searches of bounded time, threads and
# memory, and no game parameter read from a file (docs/engine-protocol.md, "Embedding").
WEB_LIMITS = Limits(
    iterations=2_000_000,
    time_limit=30.0,
    threads=max(1, min(4, os.cpu_count() or 1)),
    max_nodes=5_000_000,  # 24 bytes per MCTS node: under 200 MB per search
    search_seconds=60.0,
    file_params=False,
)
MAX_QUEUED_REPLIES = 256  # a client that does not read its replies is not read either


def _same_origin(websocket: WebSocket) -> bool:
    """Browsers let any web site open a WebSocket to localhost; only this server's own page (or a
    client that is not a browser, which sends no Origin) may use the engine."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    host = websocket.headers.get("host", "")
    return urlsplit(origin).netloc.lower() == host.lower()


async def _page(request):
    # no-store: after an upgrade the browser must not keep an old page that speaks an old protocol.
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})


async def _socket(websocket: WebSocket) -> None:
    if not _same_origin(websocket):
        await websocket.close(code=1008, reason="cross-origin connections are refused")
        return
    await websocket.accept()
    loop = asyncio.get_running_loop()
    replies: asyncio.Queue = asyncio.Queue()

    def send(reply: dict) -> None:
        # Called from the engine's threads (searches, progress) or a worker thread (handle):
        # the event loop alone touches the socket.
        loop.call_soon_threadsafe(replies.put_nowait, reply)

    engine = Engine(send, limits=websocket.app.state.limits)
    engines = websocket.app.state.engines
    engines.add(engine)

    async def sender() -> None:
        while True:
            reply = await replies.get()
            await websocket.send_text(json.dumps(reply, ensure_ascii=False, allow_nan=False))

    sending = asyncio.ensure_future(sender())
    try:
        while not engine.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            data: Any = message.get("text")
            if data is None:
                data = message.get("bytes") or b""
            # handle() is quick except for loading a game or a position: off the loop, in order.
            await asyncio.to_thread(engine.handle, data)
            while replies.qsize() > MAX_QUEUED_REPLIES and not sending.done():
                await asyncio.sleep(0.01)
        if engine.closed:  # quit: its reply goes out before the socket closes
            while not replies.empty() and not sending.done():
                await asyncio.sleep(0.01)
            await websocket.close()
    except (WebSocketDisconnect, RuntimeError):  # RuntimeError: the socket closed under a send
        pass
    finally:
        engines.discard(engine)
        # A socket closed in the middle of a search: stop it (within milliseconds) and drop its reply.
        await asyncio.to_thread(engine.close)
        sending.cancel()


def create_app(limits: Limits | None = WEB_LIMITS) -> Starlette:
    """The ASGI app: GET / (the page), /static/... and the WebSocket /ws. `limits`: what clients
    may ask of the engine (None: no caps, for a trusted client only). `app.state.engines` holds
    the live connections' engines (for tests and diagnostics)."""
    app = Starlette(
        routes=[
            Route("/", _page),
            Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
            WebSocketRoute("/ws", _socket),
        ]
    )
    app.state.limits = limits
    app.state.engines = set()
    return app


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


def serve(host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False) -> int:
    """Runs the server until Ctrl-C; prints where it listens."""
    import uvicorn

    sock = bind(host, port)
    url = url_of(sock)
    config = uvicorn.Config(create_app(), log_level="warning", ws_max_size=MAX_LINE_BYTES + 1024)
    print(f"nutcore serve: listening on {url} (Ctrl-C stops)", flush=True)
    if host not in ("127.0.0.1", "localhost", "::1"):
        print("nutcore serve: reachable from other machines: anyone who reaches it can run searches", flush=True)
    if open_browser:
        import webbrowser

        webbrowser.open(url)  # the socket already listens: the browser's request waits in its backlog
    uvicorn.Server(config).run(sockets=[sock])
    return 0
