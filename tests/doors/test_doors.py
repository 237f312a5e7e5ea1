"""One conversation per game, held with the engine through every door (tests/helpers/protocol.py's
TRANSPORTS, the WebAssembly build through its JavaScript API among them), must get the same replies on
each, field by field: only what measures time is left out (progress lines, elapsed seconds,
rates), and for WebAssembly what a search's tree takes in memory. The conversation covers what a
front end does: the catalogue, a game from a seed (a seat of a game of hidden information: its
views, the moves it may not see or make), searches and bots, errors, undo, a setting above the
limits, stop, and quit during a search. test_engine.py checks each door against the protocol;
this checks the doors against each other."""

from __future__ import annotations

import pytest
from protocol import PATIENCE, TRANSPORTS, connect

import nutcore
from playing import table_seats

DOORS = TRANSPORTS
LIMITS = '{"iterations": 5000}'
TIMING = {"elapsed", "seconds", "time", "iterations_per_second", "nodes_per_second", "nps"}
# What a search's tree takes in memory: 32-bit pointers make the WebAssembly build's nodes smaller.
MEMORY = {"bytes_per_node", "tree_bytes", "reserved_bytes"}


def _without(value, keys: set):
    if isinstance(value, dict):
        return {k: _without(v, keys) for k, v in value.items() if k not in keys}
    if isinstance(value, list):
        return [_without(v, keys) for v in value]
    return value


class _Recorder:
    """A client that keeps each request with its final reply (ids are the recorder's, the same
    on every door)."""

    def __init__(self, client):
        self.client, self.log, self.next_id = client, [], 0

    def ask(self, **msg) -> dict:
        self.next_id += 1
        reply = self.client.ask(id=self.next_id, **msg)
        self.log.append((msg, _without(reply, TIMING)))
        return reply


def _converse(client, game: str) -> list:
    r = _Recorder(client)
    r.ask(cmd="hello")
    r.ask(cmd="list_games")
    hidden = nutcore.load_game(game).hidden_information
    seat = {"seat": 0} if hidden else {}
    r.ask(cmd="new_game", game=game, players=table_seats(game), seed=2024, **seat)
    r.ask(cmd="board", memory_aids=False)
    r.ask(cmd="board", seat=1)  # refused for a seat's connection
    r.ask(cmd="get_position")
    r.ask(cmd="apply", moves=[10**6])
    r.ask(cmd="apply", moves=[{"x": 1}])
    r.ask(cmd="legal", verbose=True)
    r.ask(cmd="stop")
    searched = False
    for step in range(80):
        status = r.ask(cmd="status")["status"]
        if status["terminal"]:
            break
        if status["chance"]:
            r.ask(cmd="chance")
            continue
        own = not hidden or status["current_player"] == 0
        if own and not searched:
            assert r.ask(cmd="best_move", iterations=10**6)["error"] == "bad_request"  # above the limits
            assert r.ask(cmd="best_move", algorithm="auto", iterations=300, seed=5)["type"] == "best_move"
            searched = True
        if own and step % 3 == 0:
            moves = r.ask(cmd="legal")["moves"]
            r.ask(cmd="apply", moves=[moves[-1]["action_string"]])
        else:
            go = r.ask(cmd="go", iterations=40) if step % 2 else r.ask(cmd="go", bot="greedy")
            assert go["type"] == "go", go
    r.ask(cmd="record")
    r.ask(cmd="undo", count=2)
    r.ask(cmd="record")
    r.ask(cmd="legal")
    r.ask(cmd="board")
    r.ask(cmd="undo", count=500)
    assert searched
    return r.log


def _quit_during_a_search(client, game: str) -> list:
    """The order and kinds of the last replies: the search's answer (stopped), then quit's."""
    client.ask(cmd="new_game", game=game, players=2, seed=7, **({"seat": None} if _hidden(game) else {}))
    while client.ask(cmd="status")["status"]["chance"]:
        client.ask(cmd="chance")
    client.send(cmd="go", id="go", iterations=100000000)
    while client.get(PATIENCE)["type"] != "info":  # the search is under way and has a move
        pass
    client.send(cmd="quit", id="quit")
    finals = []
    while not finals or finals[-1]["type"] != "quit":
        reply = client.get(PATIENCE)
        if reply["type"] != "info":
            finals.append(reply)
    return [(f["type"], f.get("id"), f.get("stopped")) for f in finals]


def _hidden(game: str) -> bool:
    return nutcore.load_game(game).hidden_information


@pytest.mark.parametrize("game", nutcore.list_games())
def test_every_door_gives_the_same_replies(game):
    conversations = {}
    for transport in DOORS:
        client = connect(transport, "--limits", LIMITS)
        try:
            conversations[transport] = _converse(client, game)
        finally:
            client.close()
    first, *others = DOORS
    for transport in others:
        skip = MEMORY if transport == "wasm" else set()
        for (request, expected), (_, got) in zip(conversations[first], conversations[transport]):
            assert _without(got, skip) == _without(expected, skip), (transport, request)
        assert len(conversations[transport]) == len(conversations[first]), transport


@pytest.mark.parametrize("game", nutcore.list_games())
def test_quit_during_a_search_answers_the_search_first_on_every_door(game):
    for transport in DOORS:
        client = connect(transport, "--limits", '{"iterations": 100000000}')
        try:
            assert _quit_during_a_search(client, game) == [("go", "go", True), ("quit", "quit", None)], transport
        finally:
            client.close()
