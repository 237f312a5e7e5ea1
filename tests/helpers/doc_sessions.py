"""The engine protocol sessions shown in the docs, replayed against the current build, so that the
docs cannot drift from the engine.

    python tests/helpers/doc_sessions.py                  # replay every session on every door, list differences
    python tests/helpers/doc_sessions.py --door binary    # ... on one door (tests/helpers/protocol.py's TRANSPORTS)
    python tests/helpers/doc_sessions.py --write          # refresh the replies in place from the engine

The markup. A session is a fenced code block right after the line `<!-- session: NAME -->` (an HTML
comment: the rendered page does not show it). Each line of the block is one of:

    > LINE      a request, sent as it is written (a JSON object, or any text: a line that is not
                JSON is a request too); text after the JSON object from a `#` on is a comment
    < REPLY     a reply, compared with the engine's field by field (clock readings, `elapsed`,
                are not compared)
    <~ REPLY    a reply whose values depend on timing (a progress line, the answer of a search that
                `stop` ended): its type, id and field names are compared, not its values

Before each request is sent, the replies shown after the one before it must have come, in any
order (a reply is matched by its type and id). Progress lines beyond those shown are ignored; any
other reply not shown is a difference. A session with no replies at all is a list of requests (as
README's): each request's answer must then be the command's own answer, not an error.

Sessions must replay exactly: a game with chance or hidden cards is given a `seed` in `new_game`,
and a search its `iterations` (not a time limit), so that the same requests give the same replies.

`--write` replays each session on one door (the binary by default) and writes each reply that
differs from the shown one in its place (in the shown order, its clock readings as they came); a
reply that still matches is left as it is, so the diff shows only what the engine changed. A change
in the number or kind of replies a request gets is not written (the replay fails and says where):
edit the session by hand.
"""

from __future__ import annotations

import argparse
import json
import queue
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from protocol import PATIENCE, TRANSPORTS, connect  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", ROOT / "docs" / "engine-protocol.md", ROOT / "docs" / "embedding.md"]
CLOCK_FIELDS = frozenset({"elapsed", "time", "nps"})  # readings of a clock: never the same twice

_MARK = re.compile(r"^<!-- session: ([A-Za-z0-9_-]+) -->$")
_FENCE = re.compile(r"^(```+|~~~+)")
_LINE = re.compile(r"^(>|<~|<) (.*)$")


def _shown(doc: Path) -> str:
    return str(doc.relative_to(ROOT)) if doc.is_relative_to(ROOT) else str(doc)


class SessionError(AssertionError):
    """The engine's replies differ from the session's, or the session is malformed."""


@dataclass
class Request:
    text: str  # as sent
    cmd: str | None  # the command, if the line is a JSON object with one
    line: str  # as shown


@dataclass
class Reply:
    reply: dict
    timed: bool  # `<~`: only the type, id and field names are compared
    line: str  # as shown


@dataclass
class Step:
    request: Request
    replies: list[Reply] = field(default_factory=list)


@dataclass
class Session:
    doc: Path
    name: str
    first: int  # index in the doc's lines of the block's first line (after the fence)
    lines: list[str]  # the block's lines
    steps: list[Step]

    @property
    def label(self) -> str:
        return f"{_shown(self.doc)}:{self.name}"

    @property
    def requests_only(self) -> bool:
        return not any(step.replies for step in self.steps)


def _request(line: str, text: str, where: str) -> Request:
    if not text.startswith("{"):
        return Request(text, None, line)  # a line that is not JSON is sent as it is
    try:
        obj, end = json.JSONDecoder().raw_decode(text)
    except json.JSONDecodeError:
        return Request(text, None, line)
    rest = text[end:].strip()
    if rest and not rest.startswith("#"):
        raise SessionError(f"{where}: text after the request that is not a # comment: {rest!r}")
    return Request(text[:end], obj.get("cmd") if isinstance(obj, dict) else None, line)


def _parse(doc: Path, name: str, first: int, lines: list[str]) -> Session:
    steps: list[Step] = []
    for i, line in enumerate(lines):
        where = f"{_shown(doc)}:{first + i + 1}"
        if not line.strip():
            continue
        found = _LINE.match(line)
        if not found:
            raise SessionError(f"{where}: a session line starts with '> ', '< ' or '<~ ': {line[:60]!r}")
        kind, text = found.groups()
        if kind == ">":
            steps.append(Step(_request(line, text, where)))
            continue
        if not steps:
            raise SessionError(f"{where}: a reply before any request")
        try:
            reply = json.loads(text)
        except json.JSONDecodeError as e:
            raise SessionError(f"{where}: a reply that is not JSON ({e})") from None
        if not isinstance(reply, dict) or "type" not in reply:
            raise SessionError(f"{where}: a reply is an object with a type")
        steps[-1].replies.append(Reply(reply, kind == "<~", line))
    return Session(doc, name, first, lines, steps)


def _blocks(doc: Path):
    """(marker name or None, index of the first line, lines) of every fenced block of the doc."""
    lines = doc.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines):
        fence = _FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        j = i - 1
        while j >= 0 and not lines[j].strip():
            j -= 1
        mark = _MARK.match(lines[j].strip()) if j >= 0 else None
        end = i + 1
        while end < len(lines) and not lines[end].startswith(fence.group(1)):
            end += 1
        yield (mark.group(1) if mark else None), i + 1, lines[i + 1 : end]
        i = end + 1


def find_sessions(docs=DOCS) -> list[Session]:
    sessions = []
    for doc in docs:
        for name, first, lines in _blocks(doc):
            if name is not None:
                sessions.append(_parse(doc, name, first, lines))
    return sessions


def unmarked_transcripts(docs=DOCS) -> list[str]:
    """Places that look like a session but carry no marker (so would not be replayed): a fenced
    block or an indented line holding a request line `> {`."""
    found = []
    for doc in docs:
        text = doc.read_text(encoding="utf-8").split("\n")
        in_marked = set()
        for name, first, lines in _blocks(doc):
            span = range(first, first + len(lines))
            if name is not None:
                in_marked.update(span)
        for i, line in enumerate(text):
            if i not in in_marked and re.match(r"^\s*> \{", line):
                found.append(f"{_shown(doc)}:{i + 1}")
    return found


# ----- replaying


def _compare(expected, got, path: str, out: list[str]) -> None:
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in expected.keys() - got.keys():
            out.append(f"{path}.{key}: shown, not sent")
        for key in got.keys() - expected.keys():
            out.append(f"{path}.{key}: sent ({json.dumps(got[key])[:80]}), not shown")
        for key in expected.keys() & got.keys():
            if key not in CLOCK_FIELDS:
                _compare(expected[key], got[key], f"{path}.{key}", out)
    elif isinstance(expected, list) and isinstance(got, list):
        if len(expected) != len(got):
            out.append(f"{path}: {len(expected)} items shown, {len(got)} sent")
        for i, (a, b) in enumerate(zip(expected, got)):
            _compare(a, b, f"{path}[{i}]", out)
    elif type(expected) is not type(got) or expected != got:  # 1 is not 1.0, nor True
        out.append(f"{path}: shown {json.dumps(expected)[:80]}, sent {json.dumps(got)[:80]}")


def _compare_shape(expected, got, path: str, out: list[str]) -> None:
    if isinstance(expected, dict) and isinstance(got, dict):
        if expected.keys() != got.keys():
            out.append(f"{path}: fields shown {sorted(expected)}, sent {sorted(got)}")
        for key in expected.keys() & got.keys():
            _compare_shape(expected[key], got[key], f"{path}.{key}", out)


def differences(shown: Reply, got: dict) -> list[str]:
    out: list[str] = []
    if shown.timed:
        for key in ("type", "id"):
            if shown.reply.get(key) != got.get(key):
                out.append(f".{key}: shown {shown.reply.get(key)!r}, sent {got.get(key)!r}")
        expected = shown.reply
        if got.get("type") == "info":
            # A progress line carries the search's figures only once it has some (engine-protocol.md,
            # "Searches and progress"): on a loaded machine the first line may come before them.
            expected = {k: v for k, v in expected.items() if k in got or k not in ("iterations", "actions")}
        _compare_shape(expected, got, "", out)
    else:
        _compare(shown.reply, got, "", out)
    return out


def _key(reply: dict):
    return reply.get("type"), json.dumps(reply.get("id"))


def replay(session: Session, client, timeout: float = PATIENCE) -> list[list[dict]]:
    """Sends the session's requests to `client` (a tests/helpers/protocol.py client); per step the replies
    that matched the shown ones, in the shown order (or, for a list of requests, the answer).
    Raises SessionError when a shown reply does not come or one that is not shown does."""
    received: list[dict] = []
    matched: list[list[dict]] = []

    def next_reply(what: str, deadline: float) -> dict:
        # One deadline for the whole wait: progress lines keep coming while a search runs, so a
        # timeout per line would never end the wait for a reply that does not come.
        try:
            return client.get(max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise SessionError(f"{session.label}: no reply in {timeout} s, waiting for {what}") from None

    for n, step in enumerate(session.steps):
        client.write(step.request.text.encode("utf-8") + b"\n")
        if session.requests_only:
            deadline = time.monotonic() + timeout
            while True:
                reply = next_reply(f"the answer to {step.request.text}", deadline)
                if reply["type"] != "info":
                    break
            if reply["type"] != step.request.cmd:
                raise SessionError(f"{session.label}: request {n + 1} ({step.request.text}) answered {reply}")
            matched.append([reply])
            continue
        got = []
        keys = {_key(shown.reply) for shown in step.replies}
        for shown in step.replies:
            key = _key(shown.reply)
            deadline = time.monotonic() + timeout
            while not any(_key(r) == key for r in received):
                reply = next_reply(f"{json.dumps(shown.reply)[:100]} (after {step.request.text[:60]})", deadline)
                if reply["type"] != "info" and _key(reply) not in keys:
                    raise SessionError(f"{session.label}: after {step.request.text[:60]}, a reply not shown: {reply}")
                received.append(reply)
            got.append(received.pop(next(i for i, r in enumerate(received) if _key(r) == key)))
        extra = [r for r in received if r["type"] != "info"]
        if extra:
            raise SessionError(f"{session.label}: after {step.request.text[:60]}, replies not shown: {extra}")
        received.clear()  # progress lines beyond the ones shown
        matched.append(got)
    client.finish(timeout)
    # Whatever came after the last shown reply (a WebSocket client has gone with finish: its
    # connection holds nothing more to read).
    left = getattr(client, "lines", None)
    while left is not None:
        try:
            reply = left.get_nowait()
        except queue.Empty:
            break
        if reply["type"] != "info":
            raise SessionError(f"{session.label}: a reply not shown after the last request: {reply}")
    return matched


def _replayed(session: Session, transport: str) -> list[list[dict]]:
    """replay on a fresh engine behind `transport`."""
    client = connect(transport)
    try:
        return replay(session, client)
    finally:
        client.close()


def check(session: Session, transport: str) -> list[str]:
    """Every difference between the session and the engine behind `transport` ([] if none)."""
    matched = _replayed(session, transport)
    out = []
    for step, got in zip(session.steps, matched):
        for shown, reply in zip(step.replies, got):
            for diff in differences(shown, reply):
                out.append(f"{session.label}, reply {json.dumps(reply.get('id'))} to {step.request.text[:60]}: {diff}")
    return out


def _render(reply: dict) -> str:
    return json.dumps(reply, ensure_ascii=False)


def write(sessions: list[Session], transport: str = "binary") -> list[Path]:
    """Replays each session and writes the replies that came in place of the shown ones; the docs
    that changed."""
    changed_docs = []
    for doc in sorted({s.doc for s in sessions}):
        lines = doc.read_text(encoding="utf-8").split("\n")
        for session in sorted((s for s in sessions if s.doc == doc), key=lambda s: -s.first):
            matched = _replayed(session, transport)
            if session.requests_only:
                continue
            new = []
            for step, got in zip(session.steps, matched):
                new.append(step.request.line)
                for shown, reply in zip(step.replies, got):
                    # A reply that still matches stays as it is: a refresh changes only what changed.
                    same = not differences(shown, reply)
                    new.append(shown.line if same else f"{'<~' if shown.timed else '<'} {_render(reply)}")
            lines[session.first : session.first + len(session.lines)] = new
        text = "\n".join(lines)
        if text != doc.read_text(encoding="utf-8"):
            doc.write_text(text, encoding="utf-8")
            changed_docs.append(doc)
    return changed_docs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="refresh the replies in place")
    parser.add_argument("--door", choices=TRANSPORTS, help="one door (default: every door; binary with --write)")
    args = parser.parse_args()
    unmarked = unmarked_transcripts()
    if unmarked:
        print("requests outside a marked session:", ", ".join(unmarked))
    sessions = find_sessions()
    if args.write:
        for doc in write(sessions, args.door or "binary"):
            print("rewrote", _shown(doc))
        return 1 if unmarked else 0
    failed = bool(unmarked)
    for transport in [args.door] if args.door else TRANSPORTS:
        for session in sessions:
            try:
                diffs = check(session, transport)
            except SessionError as e:
                diffs = [str(e)]
            print(f"{transport:7} {session.label}: {'ok' if not diffs else f'{len(diffs)} differences'}")
            for diff in diffs[:20]:
                print("   ", diff)
            failed |= bool(diffs)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
