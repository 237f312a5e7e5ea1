"""Game records: a versioned JSON form of a whole game, its moves checked by the rules when it is
loaded (docs/records.md).

    >>> record = nutcore.play_match(game, ["greedy", "random"], games=1, records=True).records[0]
    >>> text = record.to_json()
    >>> nutcore.load_record(text).replay()            # the final state, every move checked

A *full* record holds every move whole (every move's action id). A *seat's* record (`record.for_seat(S)`)
holds each move as seat S saw it when it was played, as the engine protocol's `record` command
shows it: a move S saw only in part has its id masked and the text S saw; one it did not see at all
has no text either.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping, Sequence, Union

from ._types import Game, State

__all__ = ["FORMAT", "VERSION", "GameRecord", "RecordMove", "load_record"]

FORMAT = "nutcore-record"
VERSION = 1

# How many worlds a seat's record may draw at one move before a move that no world fits is called
# bad: a world is redrawn only when the one kept so far cannot make the move (docs/records.md).
_WORLD_DRAWS = 20000

_KEYS = {"format", "version", "game", "players", "params", "seats", "seat", "moves", "result", "info"}
_MOVE_KEYS = {"player", "move", "hidden"}
_SEEN_KEYS = {"action", "action_string"}
_RESULT_KEYS = {"returns", "scores", "winners"}


@dataclass(frozen=True)
class RecordMove:
    """One move or chance outcome as the record's reader saw it. `player`: the seat that made it,
    None for chance. `action`: its id, None where the seat saw only part of it. `action_string`:
    its text (for a seat, what it saw of it), None where the seat saw nothing of it."""

    player: int | None
    action: int | None
    action_string: str | None
    view: str | None = None  # a seat's record: the seat's information state after the move

    def seen(self) -> tuple[int | None, int | None, str | None]:
        """What was seen of the move itself: player, id, text."""
        return (self.player, self.action, self.action_string)

    @property
    def hidden(self) -> bool:
        """Not seen whole (the protocol's `hidden`): the id is masked."""
        return self.action is None

    def to_dict(self) -> dict[str, Any]:
        seen = None if self.action_string is None else {"action": self.action, "action_string": self.action_string}
        entry: dict[str, Any] = {"player": self.player, "move": seen, "hidden": self.hidden}
        if self.view is not None:
            entry["view"] = self.view
        return entry


def _seat_label(label: Any, where: str) -> dict[str, str] | None:
    """A seat's label: {"bot": SPEC}, {"person": NAME} or None (not known)."""
    if label is None:
        return None
    if (
        isinstance(label, dict)
        and len(label) == 1
        and next(iter(label)) in ("bot", "person")
        and isinstance(next(iter(label.values())), str)
    ):
        return {str(k): str(v) for k, v in label.items()}
    raise ValueError(f"{where}: a seat's label is {{'bot': spec}}, {{'person': name}} or null, got {label!r}")


def _int(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{where}: an integer in {low}..{high}, got {value!r}")
    return value


def _result_of(state: State) -> dict[str, Any]:
    returns = [float(x) for x in state.returns()]
    best = max(returns)
    return {
        "returns": returns,
        "scores": [int(x) for x in state.scores()],
        "winners": [seat for seat, r in enumerate(returns) if r == best],
    }


def _read_move(entry: Any, where: str, players: int, seat: int | None) -> RecordMove:
    if not isinstance(entry, dict):
        raise ValueError(f"{where}: a move is an object with player, move and hidden, got {entry!r}")
    allowed = _MOVE_KEYS if seat is None else _MOVE_KEYS | {"view"}
    if not _MOVE_KEYS <= set(entry) <= allowed:
        raise ValueError(f"{where}: a move has the fields {sorted(allowed)}, got {sorted(entry)}")
    view = entry.get("view")
    if view is not None and not isinstance(view, str):
        raise ValueError(f"{where}: view is a string, got {view!r}")
    player = None if entry["player"] is None else _int(entry["player"], f"{where}: player", 0, players - 1)
    hidden = entry["hidden"]
    if not isinstance(hidden, bool):
        raise ValueError(f"{where}: hidden is true or false, got {hidden!r}")
    seen = entry["move"]
    if seen is None:
        action, text = None, None
    else:
        if not isinstance(seen, dict) or set(seen) != _SEEN_KEYS:
            raise ValueError(f"{where}: move is null or an object with action and action_string, got {seen!r}")
        action = None if seen["action"] is None else _int(seen["action"], f"{where}: action", 0, 2**31 - 1)
        text = seen["action_string"]
        if not isinstance(text, str):
            raise ValueError(f"{where}: action_string is a string, got {text!r}")
    move = RecordMove(player, action, text, view)
    if hidden != move.hidden:
        raise ValueError(f"{where}: hidden is {hidden} but the action id is {'masked' if move.hidden else 'given'}")
    if seat is None and move.hidden:
        raise ValueError(f"{where}: a full record gives every move whole (its action id)")
    return move


def _describe(index: int, move: RecordMove) -> str:
    who = "chance" if move.player is None else f"seat {move.player}"
    shown = "" if move.action_string is None else f" {move.action_string!r}"
    return f"record: move {index + 1} ({who}{shown})"


def _moves_at(state: State) -> list[tuple[int, float]]:
    """The moves at a state: a chance node's outcomes with their probabilities, else the legal
    actions (weight 1)."""
    if state.is_chance_node():
        return list(state.chance_outcomes())
    return [(a, 1.0) for a in state.legal_actions()]


@dataclass
class _Walk:
    """A record played through the rules: the state at the end and, per move, the view of the
    record's seat after it (for a full record, the whole position's text)."""

    state: State
    views: list[str] = field(default_factory=list)


def _walk(game: Game, moves: Sequence[RecordMove], seat: int | None, result: dict[str, Any] | None) -> _Walk:
    """Plays the moves, checking each (ValueError naming the first bad one). A full record's moves
    are played as they are. A seat's record is played in a *world*: a state the seat cannot tell
    from the full state; a masked move is one the world can make that the seat sees as recorded, and
    when the world can make none, another world is drawn from the seat's view before the move
    (resample_from_infostate), up to _WORLD_DRAWS times. Seeded, so a record walks the same way
    every time."""
    rng = random.Random(0)
    state = game.new_initial_state()
    walk = _Walk(state)
    # Games of perfect information show every seat every move whole: played as they are.
    exact = seat is None or not game.hidden_information
    for index, move in enumerate(moves):
        where = _describe(index, move)
        if state.is_terminal() and exact:
            raise ValueError(f"{where}: the game was over after move {index}")
        mover = None if state.is_chance_node() else state.current_player()
        if exact and move.player != mover:
            raise ValueError(f"{where}: it is {'chance' if mover is None else f'seat {mover}'}'s move here")
        if exact:
            if move.action not in {a for a, _ in _moves_at(state)}:
                raise ValueError(f"{where}: not a legal move here")
            assert move.action is not None
            if state.action_to_string(move.action) != move.action_string:
                raise ValueError(
                    f"{where}: action {move.action} is {state.action_to_string(move.action)!r} here, "
                    "not the recorded text"
                )
            state.apply_action(move.action)
            walk.views.append(str(state) if seat is None else state.information_state_string(seat))
            continue
        assert seat is not None
        last = index == len(moves) - 1
        world = state
        for draw in range(_WORLD_DRAWS + 1):
            fits = _fits(world, move, seat, last, result)
            if fits:
                break
            if draw == _WORLD_DRAWS:
                ends = " (and then ends the game as the result says)" if last and result is not None else ""
                raise ValueError(f"{where}: no position this seat could be in allows this move as it saw it{ends}")
            world = state.resample_from_infostate(seat, rng.getrandbits(62))
        actions, weights = zip(*fits)
        state = world
        state.apply_action(rng.choices(actions, weights)[0] if len(actions) > 1 else actions[0])
        walk.views.append(state.information_state_string(seat))
    walk.state = state
    where = f"record: after move {len(moves)}"
    if result is None:
        if state.is_terminal():
            raise ValueError(f"{where}: the game is over but the record has no result")
    else:
        if not state.is_terminal():
            raise ValueError(f"{where}: truncated: the record has a result but the game is not over")
        if _result_of(state) != result:
            raise ValueError(f"{where}: the result {result} is not the game's {_result_of(state)}")
    return walk


def _fits(
    world: State, move: RecordMove, seat: int, last: bool, result: dict[str, Any] | None
) -> list[tuple[int, float]]:
    """The moves `world` can make that `seat` sees as `move`, by the mover it has there, after which
    the game goes on (the last move: ends as the record says). Where a world cannot tell (who moves
    next, whether the game ends, the final scores may hang on cards the seat never saw), another
    world is drawn."""
    if world.is_terminal():
        return []
    mover = None if world.is_chance_node() else world.current_player()
    if mover != move.player:
        return []
    fits = []
    for action, weight in _moves_at(world):
        if _seen_as(world, action, seat).seen() != move.seen():
            continue
        after = world.clone()
        after.apply_action(action)
        if move.view is not None and after.information_state_string(seat) != move.view:
            continue
        ends = after.is_terminal()
        if ends == (last and result is not None) and (not ends or _result_of(after) == result):
            fits.append((action, weight))
    return fits


def _seen_as(state: State, action: int, seat: int) -> RecordMove:
    """The move as `seat` sees it played at `state` (the game's observe hook)."""
    text, whole = state.observe_action(action, seat)
    player = None if state.is_chance_node() else state.current_player()
    return RecordMove(player, action if whole else None, text)


@dataclass
class GameRecord:
    """A game: `game` (its name) and `params` (all of them, `players` included), `seats` (a label
    per seat: {"bot": spec}, {"person": name} or None), `moves` in order, `result` (None for a game
    not over) and `seat`: None for a full record, else the seat whose record this is. `info`: free
    JSON about where the game came from (a match's game index, ...). Build one with `from_dict`,
    `load_record` or `from_history`: they check every move."""

    game: str
    params: dict[str, Any]
    seats: list[dict[str, str] | None]
    moves: list[RecordMove]
    result: dict[str, Any] | None = None
    seat: int | None = None
    info: dict[str, Any] = field(default_factory=dict)

    # -- reading ------------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return int(self.params["players"])

    @property
    def is_seat_record(self) -> bool:
        """Whether this is a seat's record (moves as one seat saw them) rather than the full game."""
        return self.seat is not None

    def __iter__(self) -> Iterator[RecordMove]:
        return iter(self.moves)

    def __len__(self) -> int:
        return len(self.moves)

    def load_game(self) -> Game:
        """The record's game, made from its parameters."""
        from .games import load_game

        params = dict(self.params)
        players = params.pop("players")
        try:
            return load_game(self.game, players=players, **params)
        except ValueError as e:
            raise ValueError(f"record: the parameters do not make a {self.game!r} game: {e}") from None

    def replay(self) -> State:
        """The position after the last move. For a full record (or a seat's record with nothing
        masked) the game's own state, every move checked. For a seat's record with masked moves,
        a state the seat cannot tell from the game's at the end (its history is not the game's)."""
        return _walk(self.load_game(), self.moves, self.seat, self.result).state

    def views(self) -> list[str]:
        """Per move, the reader's view after it: for a seat's record that seat's information state
        (`information_state_string`), the seat's sequence of observations; for a full record the
        whole position (`str(state)`)."""
        return _walk(self.load_game(), self.moves, self.seat, self.result).views

    # -- the seats' records -------------------------------------------------------------------
    def for_seat(self, seat: int) -> GameRecord:
        """The record as `seat` saw the game: each move by what the game's observe hook showed that
        seat when it was played (the protocol's `record` on the seat's connection). Of a full record."""
        if self.seat is not None:
            raise ValueError(f"record: for_seat needs a full record; this is seat {self.seat}'s")
        seat = _int(seat, "record: for_seat: seat", 0, self.players - 1)
        state = self.load_game().new_initial_state()
        seen = []
        for move in self.moves:
            assert move.action is not None
            shown = _seen_as(state, move.action, seat)
            state.apply_action(move.action)
            view = state.information_state_string(seat) if state.hidden_information else None
            seen.append(RecordMove(shown.player, shown.action, shown.action_string, view))
        return GameRecord(self.game, dict(self.params), list(self.seats), seen, self.result, seat, dict(self.info))

    # -- JSON -----------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "players": self.players,
            "params": self.params,
            "seats": self.seats,
            "seat": self.seat,
            "moves": [m.to_dict() for m in self.moves],
            "result": self.result,
            "info": self.info,
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False, allow_nan=False)

    def save(self, path: str | os.PathLike[str]) -> None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.to_json(indent=1) + "\n")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        """A record from its dict form, every field and move checked (ValueError naming the first
        bad one)."""
        if not isinstance(data, Mapping):
            raise ValueError(f"record: a record is a JSON object, got {type(data).__name__}")
        if data.get("format") != FORMAT:
            raise ValueError(f"record: format must be {FORMAT!r}, got {data.get('format')!r}")
        version = data.get("version")
        if version != VERSION or isinstance(version, bool):
            raise ValueError(f"record: version {version!r} is not one this nutcore reads (it reads {VERSION})")
        if set(data) != _KEYS:
            missing, extra = sorted(_KEYS - set(data)), sorted(set(data) - _KEYS)
            raise ValueError(f"record: missing fields {missing}, unknown fields {extra}")
        name = data["game"]
        if not isinstance(name, str):
            raise ValueError(f"record: game is a game's name, got {name!r}")
        params = data["params"]
        if not isinstance(params, dict) or "players" not in params:
            raise ValueError(f"record: params is an object with players, got {params!r}")
        players = _int(data["players"], "record: players", 2, 4)
        if params["players"] != players:
            raise ValueError(f"record: players is {players} but params say {params['players']!r}")
        seats = data["seats"]
        if not isinstance(seats, list) or len(seats) != players:
            raise ValueError(f"record: seats is a list of {players} labels, got {seats!r}")
        labels = [_seat_label(s, f"record: seat {i}") for i, s in enumerate(seats)]
        seat = None if data["seat"] is None else _int(data["seat"], "record: seat", 0, players - 1)
        result = data["result"]
        if result is not None and (not isinstance(result, dict) or set(result) != _RESULT_KEYS):
            raise ValueError(f"record: result is null or an object with {sorted(_RESULT_KEYS)}, got {result!r}")
        info = data["info"]
        if not isinstance(info, dict):
            raise ValueError(f"record: info is an object, got {info!r}")
        if not isinstance(data["moves"], list):
            raise ValueError(f"record: moves is a list, got {type(data['moves']).__name__}")
        moves = [_read_move(m, f"record: move {i + 1}", players, seat) for i, m in enumerate(data["moves"])]
        record = cls(name, dict(params), labels, moves, result, seat, dict(info))
        game = record.load_game()
        record.params = json.loads(json.dumps(game.params))  # canonical: every parameter, as the game has it
        _walk(game, moves, seat, result)
        return record

    @classmethod
    def from_history(
        cls,
        game: Game,
        actions: Sequence[int],
        seats: Sequence[dict[str, str] | str | None] | None = None,
        info: Mapping[str, Any] | None = None,
    ) -> GameRecord:
        """The full record of the game played by `actions` (a state's history()) from its initial
        state. A seat given as a string is a bot spec."""
        players = game.num_players()
        labels = [None] * players if seats is None else [{"bot": s} if isinstance(s, str) else s for s in seats]
        state = game.new_initial_state()
        moves = []
        for index, action in enumerate(actions):
            if state.is_terminal():
                raise ValueError(f"record: move {index + 1}: the game was over")
            player = None if state.is_chance_node() else state.current_player()
            moves.append(RecordMove(player, int(action), state.action_to_string(action)))
            state.apply_action(action)
        result = _result_of(state) if state.is_terminal() else None
        params = json.loads(json.dumps(game.params))
        labels = [_seat_label(s, f"record: seat {i}") for i, s in enumerate(labels)]
        if len(labels) != players:
            raise ValueError(f"record: give {players} seat labels, got {len(labels)}")
        return cls(game.name, params, labels, moves, result, None, dict(info or {}))

    @classmethod
    def from_protocol(
        cls,
        reply: Mapping[str, Any],
        game: Game,
        seats: Sequence[dict[str, str] | str | None] | None = None,
        info: Mapping[str, Any] | None = None,
        views: Sequence[str] | None = None,
    ) -> GameRecord:
        """A record from the engine protocol's `record` reply (docs/engine-protocol.md) of a game
        begun by `new_game` with `game`'s parameters. A seat's connection to a game of hidden
        information gives that seat's record; any other gives the full record. `views`: the
        seat's view after each move (its `board` text with memory aids), which the protocol's
        record does not hold; without them a seat's record of Nutz! may fail its check (a move
        can reveal cards its text does not name: docs/records.md). Checked as from_dict checks."""
        if not isinstance(reply, Mapping) or not isinstance(reply.get("moves"), list):
            raise ValueError("record: from_protocol takes the protocol's record reply (with its moves)")
        if reply.get("game") != game.name:
            raise ValueError(f"record: the reply is of {reply.get('game')!r}, not {game.name!r}")
        moves = []
        for m in reply["moves"]:
            if isinstance(m, dict) and isinstance(m.get("move"), dict):
                # Only the id and the text: a move's probability is not part of a record.
                m = {**m, "move": {k: m["move"].get(k) for k in _SEEN_KEYS}}
            moves.append(m)
        seat = reply.get("seat") if game.hidden_information else None
        if views is not None and seat is not None:
            if len(views) != len(moves):
                raise ValueError(f"record: {len(views)} views for {len(moves)} moves")
            moves = [{**m, "view": v} if isinstance(m, dict) else m for m, v in zip(moves, views)]
        status = reply.get("status") or {}
        players = game.num_players()
        labels = [None] * players if seats is None else [{"bot": s} if isinstance(s, str) else s for s in seats]
        result = None
        if status.get("terminal") and status.get("returns") is not None:
            returns = [float(x) for x in status["returns"]]
            result = {
                "returns": returns,
                "scores": [int(x) for x in status["scores"]],
                "winners": [s for s, r in enumerate(returns) if r == max(returns)],
            }
        return cls.from_dict(
            {
                "format": FORMAT,
                "version": VERSION,
                "game": game.name,
                "players": players,
                "params": game.params,
                "seats": labels,
                "seat": seat,
                "moves": moves,
                "result": result,
                "info": dict(info or {}),
            }
        )


RecordSource = Union[str, "os.PathLike[str]", Mapping[str, Any]]


def load_record(source: RecordSource) -> GameRecord:
    """A record from a dict, a JSON string (starting with "{") or the path of a JSON file; every move
    checked (ValueError naming the first bad one)."""
    if isinstance(source, Mapping):
        return GameRecord.from_dict(source)
    if isinstance(source, str) and source.lstrip().startswith("{"):
        try:
            data = json.loads(source)
        except ValueError as e:
            raise ValueError(f"record: not JSON: {e}") from None
        return GameRecord.from_dict(data)
    if isinstance(source, (str, os.PathLike)):
        from .games import read_json_file

        return GameRecord.from_dict(read_json_file(source, "record"))
    raise ValueError(f"record: load_record takes a path, a JSON string or a dict, got {type(source).__name__}")
