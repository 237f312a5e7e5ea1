"""The engine protocol: one JSON object per line each way, for front ends in any language
(docs/engine-protocol.md).

`Engine(send)` holds one connection's game and answers its commands: feed it lines (`handle`) or
parsed messages (`handle_message`) and it calls `send(reply)` with a JSON-ready dict for every
reply, from the caller's thread or, while a search runs, from the engine's own threads. The
transports are thin: `run_stdio` here (`nutcore engine`), a WebSocket one for the browser.

Like every generic layer it names no game: it asks nutcore.list_games(), load_game and the state.
"""

from __future__ import annotations

import collections
import json
import math
import os
import random
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from . import _checks
from ._core import SearchStopped, StopToken, __version__
from .bots import LevelBot, SearchBot, check_bot_for, make_bot
from .games import list_games, load_game
from .search import _SAMPLING as SAMPLING_ALGORITHMS
from .search import best_move

PROTOCOL_VERSION = 1
MAX_LINE_BYTES = 1 << 20  # a position or a card set is a few kB; anything near this is a mistake
MAX_MOVES = 10_000  # per apply
PROGRESS_INTERVAL = 0.25  # seconds between "info" lines while a search runs
# best_move's own parameters; a search's options may not smuggle them in.
_SEARCH_FIELDS = ("algorithm", "iterations", "time_limit", "threads", "seed")
_RESERVED_OPTIONS = {"state", "stop", *_SEARCH_FIELDS}


_MISSING = object()  # a request without an id (its replies carry none)


class ProtocolError(Exception):
    """A request the engine refuses: an error reply with a machine-readable code (and the
    request's id, where a line is refused before its fields are read)."""

    def __init__(self, code: str, message: str, rid: Any = _MISSING):
        super().__init__(message)
        self.code = code
        self.message = message
        self.rid = rid


def _reject_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 parses as inf
        raise ValueError(f"{text} is out of range for a number")
    return value


def _object_hook(duplicates: list[list[str]]):
    """A json object_pairs_hook that builds dicts and notes each object's repeated keys (inner
    objects come first, the request itself last)."""

    def hook(pairs: list[tuple[str, Any]]) -> dict:
        out: dict = {}
        repeated = []
        for key, value in pairs:
            if key in out:
                repeated.append(key)
            out[key] = value
        duplicates.append(repeated)
        return out

    return hook


def _line_bytes(line: str) -> int:
    """The UTF-8 size of a line (computed only where it could be over the limit)."""
    return len(line) if len(line) * 4 <= MAX_LINE_BYTES else len(line.encode("utf-8", "surrogatepass"))


def parse_line(line: str | bytes) -> Any:
    """A line (its newline excluded) as JSON; ProtocolError('bad_json') for anything that is not
    strict, finite JSON of at most MAX_LINE_BYTES bytes, and ProtocolError('bad_request') for an
    object with a repeated key (which of the two values counts is for no one to guess)."""
    if isinstance(line, (bytes, bytearray)):
        line = bytes(line).removesuffix(b"\n").removesuffix(b"\r")
        if len(line) > MAX_LINE_BYTES:
            raise ProtocolError("bad_json", f"line too long ({len(line)} bytes; at most {MAX_LINE_BYTES})")
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ProtocolError("bad_json", f"the line is not UTF-8 text ({e.reason} at byte {e.start})") from None
    else:
        line = line.removesuffix("\n").removesuffix("\r")
        size = _line_bytes(line)
        if size > MAX_LINE_BYTES:
            raise ProtocolError("bad_json", f"line too long ({size} bytes; at most {MAX_LINE_BYTES})")
    duplicates: list[list[str]] = []
    try:
        msg = json.loads(
            line, parse_constant=_reject_constant, parse_float=_finite_float, object_pairs_hook=_object_hook(duplicates)
        )
    except RecursionError:
        raise ProtocolError("bad_json", "the JSON is nested too deeply") from None
    except ValueError as e:  # json.JSONDecodeError included; also integers of more than 4300 digits
        raise ProtocolError("bad_json", f"not valid JSON: {e}") from None
    repeated = [key for keys in duplicates for key in keys]
    if repeated:
        top = duplicates[-1] if isinstance(msg, dict) else []
        # The request's id is echoed when it is not itself repeated.
        rid = msg.get("id", _MISSING) if isinstance(msg, dict) and "id" not in top else _MISSING
        raise ProtocolError("bad_request", f"the request repeats the key(s) {', '.join(map(repr, repeated))}", rid)
    return msg


def encode_reply(reply: dict) -> str:
    """A reply as one line of JSON text (no newline). Text that UTF-8 cannot carry (a lone
    surrogate, which JSON's \\u escapes allow in a client's id) is escaped, so every reply can be
    sent."""
    text = json.dumps(reply, ensure_ascii=False, allow_nan=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(reply, ensure_ascii=True, allow_nan=False)
    return text


def _valid_id(rid: Any) -> bool:
    """Whether a request's id can be echoed: a string, a number or null (or no id)."""
    return rid is _MISSING or rid is None or (isinstance(rid, (str, int, float)) and not isinstance(rid, bool))


def _show(value: Any) -> str:
    """A client's value in an error message, cut short (it may be a megabyte of anything)."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _field(msg: dict, cmd: str, key: str, kinds: tuple, default: Any = _MISSING, what: str = "") -> Any:
    """msg[key] if it has one of the JSON types `kinds` (bool is never an int), else default."""
    if key not in msg:
        if default is _MISSING:
            raise ProtocolError("bad_request", f"{cmd}: missing field {key!r}{f' ({what})' if what else ''}")
        return default
    value = msg[key]
    if value is None and type(None) in kinds:
        return None
    if isinstance(value, bool) and bool not in kinds:
        ok = False
    else:
        ok = isinstance(value, tuple(k for k in kinds if k is not type(None)))
    if not ok:
        names = {int: "an integer", float: "a number", str: "a string", bool: "true or false", list: "a list"}
        names.update({dict: "an object", type(None): "null"})
        wanted = " or ".join(names[k] for k in kinds)
        raise ProtocolError("bad_request", f"{cmd}: {key} must be {wanted}, got {_show(value)}")
    return value


def _integer(msg: dict, cmd: str, key: str, lo: int, hi: int, default: Any = _MISSING, nullable=False) -> Any:
    value = _field(msg, cmd, key, (int, type(None)) if nullable else (int,), default)
    if value is None or value is default:
        return value
    try:
        return _checks.integer(value, f"{cmd}: {key}", lo, hi)
    except ValueError as e:
        raise ProtocolError("bad_request", str(e)) from None


def _move_dict(state, action: int, probability: float | None = None) -> dict[str, Any]:
    move = {"action": action, "action_string": state.action_to_string(action)}
    if probability is not None:
        move["probability"] = probability
    return move


@dataclass(frozen=True)
class Limits:
    """What a client may ask of the engine; None: no cap. The defaults (`Limits()`) cap nothing
    but files: a client never makes nutcore open one unless whoever started the engine allows it
    (`file_params=True`, `nutcore engine --allow-files`).

    Searches: `iterations`, `time_limit`, `threads`, the `max_nodes` option and expectimax's
    `depth` are refused above their caps; a search that gives no `max_nodes` gets `max_nodes` (the
    tree's memory), and every search is stopped after `search_seconds` whatever its budget (it then
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


class SearchSlots:
    """The searches that may run at once over many engines (a server's connections): a search
    waits for a free slot, first come first served, and a stopped search leaves the queue."""

    def __init__(self, size: int):
        self.size = _checks.integer(size, "searches", 1, 10_000)
        self._cv = threading.Condition()
        self._running = 0
        self._waiting: collections.deque = collections.deque()

    def acquire(self, token: StopToken, waiting: Callable[[], None] | None = None, interval: float = 1.0) -> bool:
        """Waits for a slot; False if `token` is stopped first (whoever stops it calls wake()).
        While it waits, `waiting()` is called every `interval` seconds, without the lock."""
        ticket = object()
        with self._cv:
            self._waiting.append(ticket)
            try:
                next_call = time.monotonic() + interval
                while self._waiting[0] is not ticket or self._running >= self.size:
                    if token.stopped:
                        return False
                    now = time.monotonic()
                    if now >= next_call:
                        next_call = now + interval
                        if waiting is not None:
                            self._cv.release()
                            try:
                                waiting()
                            finally:
                                self._cv.acquire()
                        continue
                    self._cv.wait(next_call - now)  # woken by release() and wake()
                self._running += 1
                return True
            finally:
                self._waiting.remove(ticket)
                self._cv.notify_all()

    def wake(self) -> None:
        """Lets the waiting searches look at their stop tokens."""
        with self._cv:
            self._cv.notify_all()

    def release(self) -> None:
        with self._cv:
            self._running -= 1
            self._cv.notify_all()


# The algorithms with a tree memory option (max_nodes): the sampling searches, and "auto", which
# takes their settings.
_TREE_ALGORITHMS = ("auto", *SAMPLING_ALGORITHMS)


class _Search:
    """A search running on a worker thread; the engine holds at most one."""

    def __init__(self, rid: Any, command: str):
        self.rid = rid
        self.command = command
        self.token = StopToken()
        self.thread: threading.Thread | None = None


class Engine:
    """One connection's game and its commands, independent of the transport.

    send(reply) receives every reply (a dict of JSON types); it is called under the engine's send
    lock, so replies never interleave, but from whichever thread produced them. handle() and
    handle_message() may be called from any thread; they answer every request with at least one
    reply and never raise. After "quit", `closed` is true.
    """

    def __init__(self, send: Callable[[dict], None], limits: Limits | None = None, slots: SearchSlots | None = None):
        self._send = send
        self._limits = limits or Limits()
        if slots is None and self._limits.searches is not None:
            slots = SearchSlots(self._limits.searches)
        self._slots = slots
        self._send_lock = threading.Lock()
        self._lock = threading.RLock()  # the game, the state and the search slot
        self._game = None
        self._name: str | None = None
        self._state = None
        self._seat: int | None = None
        self._seed = 0
        self._rng = random.Random(0)
        self._search: _Search | None = None
        # States before each change since new_game / set_position, for undo: (state, own), where own
        # marks a move the connection gave itself by apply (what undo counts).
        self._undo: list[tuple[Any, bool]] = []
        self.closed = False
        self._commands: dict[str, Callable[[dict, Any], dict | None]] = {
            "hello": self._hello,
            "list_games": self._list_games,
            "new_game": self._new_game,
            "set_position": self._set_position,
            "get_position": self._get_position,
            "apply": self._apply,
            "chance": self._chance,
            "legal": self._legal,
            "board": self._board,
            "status": self._status_cmd,
            "best_move": self._best_move,
            "go": self._go,
            "stop": self._stop,
            "undo": self._undo_cmd,
            "quit": self._quit,
        }

    # ----- transport side

    def emit(self, reply: dict) -> None:
        """Sends one reply; one that would not be valid JSON becomes an internal error instead."""
        try:
            encode_reply(reply)
        except (TypeError, ValueError) as e:
            bad = reply
            reply = {"type": "error", "error": "internal", "message": f"unserializable reply: {e}"}
            if "id" in bad:
                reply["id"] = bad["id"]
        with self._send_lock:
            try:
                self._send(reply)
            except Exception:  # a broken transport must not take the engine down
                pass

    def _error(self, code: str, message: str, rid: Any = _MISSING, command: str | None = None) -> None:
        reply: dict[str, Any] = {"type": "error"}
        if rid is not _MISSING:
            reply["id"] = rid
        if command is not None:
            reply["command"] = command
        reply.update(error=code, message=message)
        self.emit(reply)

    def handle(self, line: str | bytes) -> None:
        """One line from the client. Blank lines are ignored; anything else gets a reply."""
        if not isinstance(line, (str, bytes, bytearray)):
            self._error("bad_json", f"a line is text, got {type(line).__name__}")
            return
        if not line.strip():
            return
        try:
            msg = parse_line(line)
        except ProtocolError as e:
            self._error(e.code, e.message, e.rid if _valid_id(e.rid) else _MISSING)
            return
        self.handle_message(msg)

    def handle_message(self, msg: Any) -> None:
        """One parsed request: a JSON object with "cmd" and optionally "id"."""
        if not isinstance(msg, dict):
            self._error("bad_request", f'a request is a JSON object such as {{"cmd": "hello"}}, got {_show(msg)}')
            return
        rid = msg.get("id", _MISSING)
        if not _valid_id(rid):
            self._error("bad_request", f"id must be a string, a number or null, got {_show(rid)}")
            return
        cmd = msg.get("cmd", _MISSING)
        if cmd is _MISSING:
            self._error("bad_request", 'a request needs "cmd", the command name', rid)
            return
        if not isinstance(cmd, str) or cmd not in self._commands:
            self._error("unknown_command", f"unknown command {_show(cmd)}; commands: {', '.join(self._commands)}", rid)
            return
        if self.closed:
            self._error("not_now", "the engine has quit", rid, cmd)
            return
        try:
            reply = self._commands[cmd](msg, rid)
        except ProtocolError as e:
            self._error(e.code, e.message, rid, cmd)
            return
        except Exception as e:  # a bug must cost one reply, not the engine
            self._error("internal", f"{type(e).__name__}: {e}", rid, cmd)
            return
        if reply is not None:
            out = {"type": cmd}
            if rid is not _MISSING:
                out["id"] = rid
            out.update(reply)
            self.emit(out)

    def close(self, wait: bool = True) -> None:
        """Stops a running search (within milliseconds) and, with `wait`, waits for it to end (its
        reply is still sent). A transport whose client has gone away passes wait=False: the search
        ends on its own thread, and its reply goes nowhere."""
        with self._lock:
            search = self._search
        if search is not None:
            self._stop_search(search)
            if wait and search.thread is not None and search.thread is not threading.current_thread():
                search.thread.join()

    def _stop_search(self, search: _Search) -> None:
        search.token.stop()
        if self._slots is not None:  # it may be waiting for a slot
            self._slots.wake()

    def searching_thread(self) -> threading.Thread | None:
        """The thread of the running search, if any (for a server that waits for it at shutdown)."""
        with self._lock:
            return self._search.thread if self._search is not None else None

    # ----- helpers

    def _fields(self, msg: dict, cmd: str, allowed: tuple[str, ...]) -> None:
        unknown = sorted(set(msg) - {"cmd", "id", *allowed})
        if unknown:
            known = f"its fields are {', '.join(allowed)}" if allowed else "it takes no fields"
            raise ProtocolError("bad_request", f"{cmd}: unknown field(s) {', '.join(map(repr, unknown))}; {known}")

    def _need_game(self, cmd: str):
        if self._state is None:
            raise ProtocolError("no_game", f"{cmd}: no game yet; send new_game first")
        return self._state

    def _need_idle(self, cmd: str) -> None:
        if self._search is not None:
            raise ProtocolError("busy", f"{cmd}: a search is running; wait for its reply or send stop")

    def _hiding(self) -> bool:
        """Whether this connection plays one seat of a game of hidden information."""
        return self._seat is not None and self._game is not None and self._game.hidden_information

    def _may_see_choice(self, state) -> bool:
        """Whether the connection may see the choices at `state` and which one is taken: always for
        perfect information and for a host; for a seat of a game of hidden information only its own
        decisions. The engine names no game, so it cannot tell a public die roll from a private card
        draw: it tells the seat nothing it cannot read from its own view (`board`)."""
        return not self._hiding() or (not state.is_chance_node() and state.current_player() == self._seat)

    def _choices(self, state) -> list[dict]:
        if state.is_terminal():
            return []
        if state.is_chance_node():
            return [_move_dict(state, a, p) for a, p in state.chance_outcomes()]
        return [_move_dict(state, a) for a in state.legal_actions()]

    def _seen(self, state, action: int) -> dict | None:
        """The move or chance outcome `action` at `state` as the connection may be told it, or None
        (the seat then reads what it saw of it from `board`)."""
        return _move_dict(state, action) if self._may_see_choice(state) else None

    def _status(self) -> dict[str, Any]:
        state = self._state
        player = state.current_player()
        # A seat of a game of hidden information reads the scores it may know from its board; the
        # result is announced when the game is over.
        known = not self._hiding() or state.is_terminal()
        outcome = (list(state.scores()), list(state.returns())) if known else (None, None)
        return {
            "current_player": player if player >= 0 else None,
            "chance": state.is_chance_node(),
            "terminal": state.is_terminal(),
            "scores": outcome[0],
            "returns": outcome[1],
            "searching": self._search is not None,
        }

    # ----- commands

    def _hello(self, msg: dict, rid: Any) -> dict:
        self._fields(msg, "hello", ())
        return {
            "protocol": PROTOCOL_VERSION,
            "engine": "nutcore",
            "version": __version__,
            "commands": list(self._commands),
        }

    def _list_games(self, msg: dict, rid: Any) -> dict:
        self._fields(msg, "list_games", ())
        return {"games": _game_catalogue()}

    def _new_game(self, msg: dict, rid: Any) -> dict:
        cmd = "new_game"
        self._fields(msg, cmd, ("game", "players", "params", "seed", "seat"))
        name = _field(msg, cmd, "game", (str,), what="a name from list_games")
        players = _field(msg, cmd, "players", (int,), default=2)  # load_game checks the range
        params = _field(msg, cmd, "params", (dict,), default={})
        if "players" in params:
            raise ProtocolError("bad_request", f"{cmd}: give players as its own field, not in params")
        if not self._limits.file_params:
            self._check_no_file_params(cmd, name, players, params)
        seed = _integer(msg, cmd, "seed", 0, _checks.MAX_SEED, default=None, nullable=True)
        with self._lock:
            self._need_idle(cmd)
            try:
                game = load_game(name, players=players, **params)
            except (ValueError, TypeError) as e:
                raise ProtocolError("bad_request", f"{cmd}: {e}") from None
            if "seat" in msg:
                seat = _integer(msg, cmd, "seat", 0, game.num_players() - 1, nullable=True)
            else:
                if game.hidden_information:
                    raise ProtocolError(
                        "bad_request",
                        f"{cmd}: {name} is a game of hidden information: give seat, the seat this connection "
                        "plays (0.."
                        f"{game.num_players() - 1}), or null to host the game with every seat's information",
                    )
                seat = None
            if seed is None:
                seed = int.from_bytes(os.urandom(8), "little")
            self._game, self._name, self._seat, self._seed = game, name, seat, seed
            self._rng = random.Random(seed)
            self._state = game.new_initial_state()
            self._undo = []
            return {
                "game": name,
                "players": game.num_players(),
                "params": game.params,
                "hidden_information": game.hidden_information,
                "seat": seat,
                "seed": seed,
                "status": self._status(),
            }

    def _set_position(self, msg: dict, rid: Any) -> dict:
        cmd = "set_position"
        self._fields(msg, cmd, ("position",))
        position = _field(msg, cmd, "position", (dict,), what="a state's to_json()")
        with self._lock:
            self._need_game(cmd)
            self._need_idle(cmd)
            try:
                state = self._game.state_from_json(position)
            except (ValueError, TypeError) as e:
                raise ProtocolError("bad_request", f"{cmd}: {e}") from None
            self._state = state
            self._undo = []
            return {"status": self._status()}

    def _get_position(self, msg: dict, rid: Any) -> dict:
        cmd = "get_position"
        self._fields(msg, cmd, ())
        with self._lock:
            state = self._need_game(cmd)
            if self._hiding():  # even at the end: cards discarded unseen stay unseen
                raise ProtocolError(
                    "hidden", f"{cmd}: the position holds what seat {self._seat} has not seen; ask for the board"
                )
            return {"game": self._name, "position": state.to_json()}

    def _resolve_move(self, state, move: Any, index: int, cmd: str) -> int:
        """The action id of one entry of apply's list at `state`, with the seat's rules checked."""
        where = f"{cmd}: move {index} ({json.dumps(move)[:80]})"
        if isinstance(move, bool) or not isinstance(move, (int, str)):
            raise ProtocolError("bad_request", f"{where}: a move is an action id or an action string")
        if state.is_terminal():
            raise ProtocolError("illegal_move", f"{where}: the game is over")
        chance = state.is_chance_node()
        player = state.current_player()
        if not self._may_see_choice(state):
            if chance:
                raise ProtocolError(
                    "hidden", f"{where}: chance outcomes are drawn by the engine for seat {self._seat}; send chance"
                )
            raise ProtocolError(
                "hidden",
                f"{where}: seat {player}'s move is hidden from seat {self._seat}; send go to let the engine play it",
            )
        if isinstance(move, str):
            try:
                action = state.string_to_action(move)
            except ValueError:
                action = None
        else:
            action = move
        options = [a for a, _ in state.chance_outcomes()] if chance else state.legal_actions()
        if action not in options:
            kind = "a chance outcome" if chance else f"a legal move for seat {player}"
            raise ProtocolError("illegal_move", f"{where}: not {kind} here (nothing was applied; send legal)")
        return action

    def _apply(self, msg: dict, rid: Any) -> dict:
        cmd = "apply"
        self._fields(msg, cmd, ("moves",))
        moves = _field(msg, cmd, "moves", (list,), what="action ids or action strings")
        if not 1 <= len(moves) <= MAX_MOVES:
            raise ProtocolError("bad_request", f"{cmd}: moves must hold 1..{MAX_MOVES} moves, got {len(moves)}")
        with self._lock:
            state = self._need_game(cmd).clone()
            self._need_idle(cmd)
            applied, before = [], []
            for i, move in enumerate(moves):
                action = self._resolve_move(state, move, i, cmd)
                player = state.current_player()
                entry = {"player": player if player >= 0 else None, **_move_dict(state, action)}
                before.append((state.clone(), not state.is_chance_node()))
                state.apply_action(action)
                applied.append(entry)
            self._state = state  # all or nothing: the engine's state changes only here
            self._undo.extend(before)
            return {"applied": applied, "status": self._status()}

    def _chance(self, msg: dict, rid: Any) -> dict:
        cmd = "chance"
        self._fields(msg, cmd, ())
        with self._lock:
            state = self._need_game(cmd)
            self._need_idle(cmd)
            if not state.is_chance_node():
                raise ProtocolError("not_now", f"{cmd}: not a chance node (current player {state.current_player()})")
            actions, probs = zip(*state.chance_outcomes())
            action = self._rng.choices(actions, probs)[0]
            outcome = self._seen(state, action)
            if outcome is not None:  # named only where the connection may see the outcomes
                outcome["probability"] = probs[actions.index(action)]
            self._undo.append((state.clone(), False))
            state.apply_action(action)
            return {"outcome": outcome, "hidden": outcome is None, "status": self._status()}

    def _legal(self, msg: dict, rid: Any) -> dict:
        cmd = "legal"
        self._fields(msg, cmd, ())
        with self._lock:
            state = self._need_game(cmd)
            player = state.current_player()
            chance = state.is_chance_node()
            moves = self._choices(state) if self._may_see_choice(state) or state.is_terminal() else None
            return {
                "player": player if player >= 0 else None,
                "chance": chance,
                "terminal": state.is_terminal(),
                "moves": moves,
                "hidden": moves is None,
            }

    def _board(self, msg: dict, rid: Any) -> dict:
        cmd = "board"
        self._fields(msg, cmd, ("seat",))
        with self._lock:
            state = self._need_game(cmd)
            seat = _integer(msg, cmd, "seat", 0, self._game.num_players() - 1, default=None, nullable=True)
            if self._hiding():
                if seat is not None and seat != self._seat:
                    raise ProtocolError("hidden", f"{cmd}: this connection plays seat {self._seat}, not seat {seat}")
                seat = self._seat
            if seat is None:
                return {"seat": None, "text": str(state), "json": state.to_json()}
            view = None
            if hasattr(state, "observation_json"):
                view = state.observation_json(seat)
            elif not state.hidden_information:
                view = state.to_json()  # a perfect-information view is the whole state
            return {"seat": seat, "text": state.information_state_string(seat), "json": view}

    def _status_cmd(self, msg: dict, rid: Any) -> dict:
        self._fields(msg, "status", ())
        with self._lock:
            self._need_game("status")
            return {"game": self._name, "seat": self._seat, "status": self._status()}

    def _check_no_file_params(self, cmd: str, name: str, players: Any, params: dict) -> None:
        defaults: dict = {}
        for entry in _game_catalogue():
            if entry["name"] == name:
                defaults = next((d for d in entry["default_params"] if d.get("players") == players), {})
        for key, value in params.items():
            # The engine names no game: a parameter that is not text by default is data, never a path.
            if isinstance(value, str) and key in defaults and not isinstance(defaults[key], str):
                raise ProtocolError(
                    "bad_request",
                    f"{cmd}: params.{key} must be given as its value (as in list_games' default_params), not as a "
                    "string: this engine reads no files for its clients (nutcore engine --allow-files lets a "
                    "trusted client name files)",
                )

    def _apply_limits(self, cmd: str, settings: dict[str, Any]) -> None:
        """Refuses search settings above the connection's limits; gives a tree search the cap on
        its memory when it names none."""
        lim = self._limits
        for key in ("iterations", "time_limit", "threads", "max_nodes", "depth"):
            cap = getattr(lim, key)
            value = settings.get(key)
            if cap is not None and isinstance(value, (int, float)) and not isinstance(value, bool) and value > cap:
                raise ProtocolError("bad_request", f"{cmd}: {key} is at most {cap} on this server, got {_show(value)}")
        if lim.max_nodes is not None and "max_nodes" not in settings:
            if settings.get("algorithm", "auto") in _TREE_ALGORITHMS:
                settings["max_nodes"] = lim.max_nodes

    def _search_settings(self, msg: dict, cmd: str) -> dict[str, Any]:
        settings: dict[str, Any] = {}
        if "algorithm" in msg:
            settings["algorithm"] = _field(msg, cmd, "algorithm", (str,))
        for key in ("iterations", "threads", "seed"):
            if key in msg:
                settings[key] = _field(msg, cmd, key, (int,))  # best_move checks the ranges
        if "time_limit" in msg:
            settings["time_limit"] = _field(msg, cmd, "time_limit", (int, float))
        options = _field(msg, cmd, "options", (dict,), default={})
        clash = sorted(set(options) & _RESERVED_OPTIONS)
        if clash:
            raise ProtocolError("bad_request", f"{cmd}: {', '.join(clash)} go in the request itself, not in options")
        settings.update(options)
        return settings

    def _check_search(self, cmd: str, own_seat_only: bool):
        state = self._need_game(cmd)
        self._need_idle(cmd)
        if state.is_terminal() or state.is_chance_node():
            what = "the game is over" if state.is_terminal() else "a chance node: send chance"
            raise ProtocolError("not_now", f"{cmd}: there is no move to choose ({what})")
        if own_seat_only and self._hiding() and state.current_player() != self._seat:
            raise ProtocolError(
                "hidden",
                f"{cmd}: seat {state.current_player()} is to move; this connection plays seat {self._seat} and sees "
                "only its own searches (send go to let the engine play that seat)",
            )
        return state

    def _best_move(self, msg: dict, rid: Any) -> None:
        cmd = "best_move"
        self._fields(msg, cmd, (*_SEARCH_FIELDS, "options"))
        settings = self._search_settings(msg, cmd)
        with self._lock:
            state = self._check_search(cmd, own_seat_only=True)
            self._apply_limits(cmd, settings)
            settings.setdefault("seed", self._rng.getrandbits(64))
            self._start(rid, cmd, state.clone(), settings, None)

    def _go(self, msg: dict, rid: Any) -> None:
        cmd = "go"
        self._fields(msg, cmd, (*_SEARCH_FIELDS, "options", "bot"))
        settings = self._search_settings(msg, cmd)
        bot = None
        if "bot" in msg:
            spec = _field(msg, cmd, "bot", (str,))
            if settings:
                raise ProtocolError("bad_request", f"{cmd}: give bot or search settings, not both")
            try:
                bot = make_bot(spec)
            except ValueError as e:
                raise ProtocolError("bad_request", f"{cmd}: {e}") from None
        with self._lock:
            state = self._check_search(cmd, own_seat_only=False)
            if bot is not None:
                if isinstance(bot, LevelBot):  # the level as this game sets it
                    bot = bot.for_game(self._name)
                try:
                    check_bot_for(bot, state)
                except ValueError:
                    message = f"{cmd}: bot {bot.name} is not available for {self._name}"
                    raise ProtocolError("bad_request", message) from None
                plain = isinstance(bot, SearchBot) and bot.memory == 1 and bot.noise == 0
                if plain and bot.algorithm != "solver":
                    # A search bot's move is best_move with its settings: run that, so stop reaches it.
                    settings, bot = {"algorithm": bot.algorithm, **bot.settings}, None
            if bot is None:
                self._apply_limits(cmd, settings)  # before the generator moves: a refusal changes nothing
            else:
                if isinstance(bot, SearchBot):  # a bot's own search stays within the limits too
                    limited = {"algorithm": bot.algorithm, **bot.settings}
                    self._apply_limits(cmd, limited)
                    bot.settings = {k: v for k, v in limited.items() if k != "algorithm"}
                bot.reset(self._rng.getrandbits(62))
            settings.setdefault("seed", self._rng.getrandbits(64))
            self._start(rid, cmd, state.clone(), settings, bot)

    def _start(self, rid: Any, cmd: str, state, settings: dict[str, Any], bot) -> None:
        search = _Search(rid, cmd)
        self._search = search
        search.thread = threading.Thread(
            target=self._run_search, args=(search, state, settings, bot), name=f"nutcore-{cmd}", daemon=True
        )
        search.thread.start()

    def _run_search(self, search: _Search, state, settings: dict[str, Any], bot) -> None:
        """The worker: a free slot (where slots are shared), the search, "info" lines while it
        waits and runs, then its reply (and, for go, the move)."""
        start = time.monotonic()
        done = threading.Event()
        budget = {"iterations": settings.get("iterations"), "time_limit": settings.get("time_limit")}

        # Another seat's search is none of a seat's business (its statistics would hint at its cards).
        show_stats = search.command == "best_move" or self._may_see_choice(state)

        def progress(queued: bool) -> None:
            # The elapsed time against the budget (or that the search still waits for a slot) and,
            # for MCTS and ISMCTS, the root statistics the native search reports as it runs
            # (StopToken.progress()).
            info: dict[str, Any] = {"type": "info"}
            if search.rid is not _MISSING:
                info["id"] = search.rid
            info.update(command=search.command, elapsed=round(time.monotonic() - start, 3), budget=budget)
            if queued:
                info["queued"] = True
            live = search.token.progress() if show_stats and not queued else None
            if live is not None:
                info["iterations"] = live["iterations"]
                # The shape of the answer's result["actions"].
                info["actions"] = [
                    {
                        "action": a["action"],
                        "action_string": state.action_to_string(a["action"]),
                        "visits": a["visits"],
                        "value": a["mean_value"],
                    }
                    for a in live["actions"]
                ]
            self.emit(info)

        def tick(running_since: float) -> None:
            # While the search runs: a progress line every PROGRESS_INTERVAL since the request, and
            # the stop of a search that has run for the limits' search_seconds.
            limit = self._limits.search_seconds
            stop_at = None if limit is None else running_since + limit
            next_info = start + PROGRESS_INTERVAL * (1 + int((running_since - start) / PROGRESS_INTERVAL))
            while True:
                deadline = next_info if stop_at is None else min(next_info, stop_at)
                if done.wait(max(0.0, deadline - time.monotonic())):
                    return
                now = time.monotonic()
                if stop_at is not None and now >= stop_at:
                    search.token.stop()
                    stop_at = None
                if now >= next_info:
                    next_info = now + PROGRESS_INTERVAL
                    progress(queued=False)

        ticker = None
        result = error = None
        slot = False
        try:
            # A search that must wait for a slot says so from this thread; the ticker starts with it.
            if self._limits.nice and sys.platform == "linux":
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), self._limits.nice)
            slot = self._slots is None or self._slots.acquire(search.token, lambda: progress(True), PROGRESS_INTERVAL)
            if not slot:
                raise SearchStopped("stopped while waiting for a slot")
            ticker = threading.Thread(target=tick, args=(time.monotonic(),), name="nutcore-progress", daemon=True)
            ticker.start()
            if bot is not None:
                result = bot.step(state, stop=search.token)
            else:
                result = best_move(state, stop=search.token, **settings)
        except SearchStopped:
            # An exact search has no move until it finishes, nor MCTS before its first iteration.
            error = ("stopped", f"{search.command}: stopped before the search had a move; nothing was played")
        except (ValueError, TypeError) as e:
            text = str(e)
            error = ("bad_request", text if text.startswith(f"{search.command}:") else f"{search.command}: {text}")
        except Exception as e:  # the engine outlives any failure of one search
            error = ("internal", f"{type(e).__name__}: {e}")
        finally:
            if slot and self._slots is not None:
                self._slots.release()
            done.set()
            if ticker is not None:
                ticker.join()
        with self._lock:
            # Cleared before the reply, so the client may start the next search as soon as it reads it.
            self._search = None
            reply: dict[str, Any] = {"type": search.command}
            if search.rid is not _MISSING:
                reply["id"] = search.rid
            try:
                if error is None:
                    reply.update(self._search_reply(search, state, result))
            except Exception as e:
                error = ("internal", f"{type(e).__name__}: {e}")
            if error is not None:
                self._error(error[0], error[1], search.rid, search.command)
            else:
                self.emit(reply)

    def _search_reply(self, search: _Search, state, result) -> dict[str, Any]:
        if search.command == "best_move":
            return {"result": result.to_dict(), "stopped": bool(result.extra.get("stopped", False))}
        # go: `state` is the engine's position (nothing else may change it while a search runs).
        action = result if isinstance(result, int) else result.action
        player = state.current_player()
        shown = self._seen(state, action)
        self._undo.append((self._state.clone(), False))
        self._state.apply_action(action)
        # The search's statistics go with a move the connection may see (never another seat's
        # search on a seat's connection); the greedy, random and solver bots have none.
        stats = result.to_dict() if shown is not None and not isinstance(result, int) else None
        return {
            "player": player,
            "move": shown,
            "hidden": shown is None,
            "result": stats,
            # A bot's move chosen after a stop (the search's best so far) counts as stopped too.
            "stopped": bool(result.extra.get("stopped", False)) if stats is not None else search.token.stopped,
            "status": self._status(),
        }

    def _stop(self, msg: dict, rid: Any) -> dict:
        self._fields(msg, "stop", ())
        with self._lock:
            search = self._search
            if search is not None:
                self._stop_search(search)
            return {"searching": search is not None}

    def _undo_cmd(self, msg: dict, rid: Any) -> dict:
        cmd = "undo"
        self._fields(msg, cmd, ("count",))
        count = _integer(msg, cmd, "count", 1, MAX_MOVES, default=1)
        with self._lock:
            self._need_game(cmd)
            self._need_idle(cmd)
            # Back to before the count-th last move the connection gave by apply, undoing whatever
            # followed it (the engine's moves, chance).
            own = [i for i, (_, mine) in enumerate(self._undo) if mine]
            if len(own) < count:
                have = f"only {len(own)}" if own else "none"
                raise ProtocolError(
                    "not_now",
                    f"{cmd}: {count} move(s) of this connection to undo wanted, {have} since the game or position "
                    "began (undo takes back moves given by apply)",
                )
            index = own[-count]
            state = self._undo[index][0]
            del self._undo[index:]
            if self._hiding():
                # The truth behind the seat's view is drawn afresh from what the seat knows: else
                # undoing and replaying would sample the same hidden cards again and again (the
                # deck, the others' hands) and give them away.
                state = state.resample_from_infostate(self._seat, self._rng.getrandbits(62))
            self._state = state
            return {"undone": count, "status": self._status()}

    def _quit(self, msg: dict, rid: Any) -> dict:
        self._fields(msg, "quit", ())
        self.close()  # outside the lock: the search's reply needs it
        self.closed = True
        return {}


_CATALOGUE: list[dict] | None = None
_CATALOGUE_LOCK = threading.Lock()


def _game_catalogue() -> list[dict]:
    """Every game with its player counts, default parameters per count and algorithms (built once:
    some games compute tables when loaded)."""
    global _CATALOGUE
    with _CATALOGUE_LOCK:
        if _CATALOGUE is None:
            games = []
            for name in list_games():
                loaded = {}
                for n in range(1, 9):
                    try:
                        loaded[n] = load_game(name, players=n)
                    except ValueError:
                        pass
                some = next(iter(loaded.values()))
                games.append(
                    {
                        "name": name,
                        "players": {"min": min(loaded), "max": max(loaded)},
                        "hidden_information": some.hidden_information,
                        "algorithms": ["auto", *type(some.new_initial_state()).algorithms],
                        "default_params": [g.params for g in loaded.values()],
                    }
                )
            _CATALOGUE = games
        return _CATALOGUE


def _read_line(stream) -> bytes | None:
    """One line of at most MAX_LINE_BYTES (+1, so a longer one is seen as too long; its rest is
    skipped); None at the end of input."""
    line = stream.readline(MAX_LINE_BYTES + 1)
    if not line:
        return None
    if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
        while True:
            rest = stream.readline(MAX_LINE_BYTES)
            if not rest or rest.endswith(b"\n"):
                break
    return line


def run_stdio(stdin=None, stdout=None, limits: Limits | None = None) -> int:
    """The stdin/stdout transport: requests in, replies out, one JSON object per line; returns 0
    at the end of input or after quit (a running search is stopped first). `limits`: Limits()
    (no caps, no files) unless given."""
    inp = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout.buffer

    def send(reply: dict) -> None:
        try:
            out.write(encode_reply(reply).encode("utf-8") + b"\n")
            out.flush()
        except (OSError, ValueError):  # the reader went away: keep reading until the end of input
            pass

    engine = Engine(send, limits)
    # Stray prints (from any library) must not corrupt the protocol stream: they go to stderr.
    saved, sys.stdout = sys.stdout, sys.stderr
    try:
        while not engine.closed:
            line = _read_line(inp)
            if line is None:
                break
            engine.handle(line)
    finally:
        engine.close()
        sys.stdout = saved
    return 0
