"""A bounded server under load, and how fast searches stop (issue 29), measured from outside as a
client sees it: `nutcore serve` and `nutcore engine` as processes, driven by their protocol.

    python bench/serve_load.py [--clients 50] [--samples 40]

1. `nutcore serve` on 127.0.0.1 with `--clients` WebSocket clients connected, each asking for a
   long search (as many run as the server allows, the others wait for a slot): the latency of a
   fresh client's `hello` and of a keepalive ping (median and max of `--samples`), and the
   server's memory.
2. The time from `stop` to the search's answer, for a long search of every kind the stop tests
   use (tests/doors/test_hardening.py, LONG_SEARCHES), in `nutcore engine`.
3. The time from closing a socket in the middle of a search to a fresh search getting its slot.
4. The time from SIGTERM to the server's exit, with searches running.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))

from protocol import EngineProcess, ServeProcess, Socket, to_decision  # noqa: E402
from test_hardening import LONG_SEARCHES, _searching, _start_long_search  # noqa: E402

SLOTS = max(2, os.cpu_count() or 1)  # WEB_LIMITS.searches


def _ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms"


def _load_child(ws_url: str, clients: int) -> None:
    """The load, in a process of its own (its 50 client threads would otherwise compete for this
    process's interpreter with the client whose latency is measured): every client asks for a long
    search; on a line of stdin, every search is stopped and its answer awaited."""
    searchers = [Socket(ws_url) for _ in range(clients)]
    for i, client in enumerate(searchers):
        _searching(client, "auf_die_nuesse", f"s{i}", algorithm="mcts", time_limit=20, threads=2)
    infos = [client.get() for client in searchers]
    print(sum(bool(info.get("queued")) for info in infos), flush=True)
    sys.stdin.readline()
    for client in searchers:
        client.send(cmd="stop")
    for i, client in enumerate(searchers):
        client.reply_to(f"s{i}", timeout=60)
    print("idle", flush=True)
    sys.stdin.readline()
    for client in searchers:  # searching again, for the shutdown
        to_decision(client)
        client.send(cmd="best_move", time_limit=25)
        client.get()
    print("searching", flush=True)
    sys.stdin.readline()


def load(clients: int, samples: int) -> None:
    server = ServeProcess()
    child = subprocess.Popen(
        [sys.executable, __file__, "--load-child", server.ws_url, "--clients", str(clients)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        queued = int(child.stdout.readline())
        hellos, pings = [], []
        for _ in range(samples):
            fresh = Socket(server.ws_url)
            start = time.monotonic()
            fresh.ask(cmd="hello")
            hellos.append(time.monotonic() - start)
            start = time.monotonic()
            fresh.ws.ping().wait(30)
            pings.append(time.monotonic() - start)
            fresh.close()
        rss = server.rss_bytes()
        print(f"{clients} clients each asking for a search: {clients - queued} searching, {queued} queued")
        print(f"  fresh hello: {_ms(hellos)}")
        print(f"  ping:        {_ms(pings)}")
        print(f"  server memory (RSS): {rss / 2**20:.0f} MB")
        child.stdin.write("stop\n")
        child.stdin.flush()
        assert child.stdout.readline().strip() == "idle"
        # A socket closed mid-search gives its slot back at once.
        freed = []
        for _ in range(5):
            fresh = Socket(server.ws_url)
            fresh.ask(cmd="new_game", game="auf_die_nuesse", seed=1)
            to_decision(fresh)
            holders = [Socket(server.ws_url) for _ in range(SLOTS)]
            for i, client in enumerate(holders):
                _searching(client, "auf_die_nuesse", f"h{i}", algorithm="mcts", time_limit=20)
                client.get()
            start = time.monotonic()
            for client in holders:
                client.close()
            fresh.ask(cmd="best_move", iterations=10)
            freed.append(time.monotonic() - start)
            fresh.close()
        print(f"  closing the sockets of the running searches until a queued one has answered: {_ms(freed)}")
        child.stdin.write("search\n")
        child.stdin.flush()
        assert child.stdout.readline().strip() == "searching"
        code, seconds = server.terminate()
        print(f"  SIGTERM with searches running: exit status {code} after {seconds * 1000:.0f} ms")
    finally:
        child.kill()
        child.wait()
        server.close()


def stops(runs: int) -> None:
    print("stop until the search's answer, nutcore engine:")
    for game, request in LONG_SEARCHES:
        latencies = []
        for _ in range(runs):
            engine = EngineProcess()
            try:
                _start_long_search(engine, game, request, "long")
                start = time.monotonic()
                engine.send(cmd="stop")
                engine.reply_to("long", timeout=60)
                latencies.append(time.monotonic() - start)
            finally:
                engine.close()
        shown = request.get("bot") or json.dumps(request)
        print(f"  {game:15s} {shown:55s} {_ms(latencies)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3, help="stop measurements per kind of search")
    parser.add_argument("--load-child", metavar="WS_URL", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.load_child:
        return _load_child(args.load_child, args.clients)
    load(args.clients, args.samples)
    stops(args.runs)


if __name__ == "__main__":
    main()
