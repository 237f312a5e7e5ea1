"""The docs' protocol sessions (README.md, docs/engine-protocol.md, docs/embedding.md) replayed on
every door to the engine (tests/helpers/doc_sessions.py), so that they cannot drift from the build (the
protocol doc's command table is test_engine.py's)."""

from __future__ import annotations

import copy
import re

import pytest
from doc_sessions import ROOT, SessionError, _parse, check, find_sessions, replay, unmarked_transcripts, write
from protocol import TRANSPORTS, connect

SESSIONS = find_sessions()
PROTOCOL_DOC = ROOT / "docs" / "engine-protocol.md"


def test_every_transcript_in_the_docs_is_a_replayed_session():
    assert unmarked_transcripts() == []
    found = {(s.doc.name, s.name) for s in SESSIONS}
    assert {
        ("README.md", "readme"),
        ("engine-protocol.md", "auf-die-nuesse"),
        ("engine-protocol.md", "ritter-seat-0"),
        ("embedding.md", "engine-handle"),
    } <= found
    for session in SESSIONS:
        assert session.steps, session.label
        for step in session.steps:
            for shown in step.replies:
                assert "…" not in shown.line and "..." not in shown.line, (session.label, shown.line[:80])


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("session", SESSIONS, ids=lambda s: s.label)
def test_doc_session_replays(session, transport):
    assert check(session, transport) == []


# ----- the replay itself: it must see what differs, and only that


def _adn_lines() -> list[str]:
    return list(next(s for s in SESSIONS if s.name == "auf-die-nuesse").lines)


def _edited(lines: list[str], prefix: str, edit) -> list[str]:
    """The session's lines with the first line starting with `prefix` replaced by edit(line)."""
    i = next(i for i, line in enumerate(lines) if line.startswith(prefix))
    return lines[:i] + [edit(lines[i])] + lines[i + 1 :]


def _check_lines(lines: list[str]) -> list[str]:
    return check(_parse(PROTOCOL_DOC, "edited", 0, lines), "python")


def _fails_to_replay(lines: list[str], match: str, doc=PROTOCOL_DOC) -> None:
    client = connect("python")
    try:
        with pytest.raises(SessionError, match=match):
            replay(_parse(doc, "edited", 0, lines), client, timeout=2)
    finally:
        client.close()


def test_a_changed_value_is_a_difference_and_a_clock_reading_is_not():
    lines = _adn_lines()
    chance = '< {"type": "chance", "id": 3,'
    assert _check_lines(_edited(lines, chance, lambda s: s.replace('"probability": 0.', '"probability": 1.', 1)))
    assert _check_lines(_edited(lines, chance, lambda s: s.replace('"scores": [0, 0]', '"scores": [0.0, 0]', 1)))
    think = '< {"type": "best_move", "id": "think"'
    assert _check_lines(_edited(lines, think, lambda s: s.replace('"iterations": 2000', '"iterations": 2001')))
    assert _check_lines(_edited(lines, think, lambda s: re.sub(r'"elapsed": [0-9.e-]+', '"elapsed": 99.5', s))) == []


def test_timed_replies_are_checked_by_their_fields_only():
    lines = _adn_lines()
    info = '<~ {"type": "info", "id": "long"'
    assert _check_lines(_edited(lines, info, lambda s: re.sub(r'"iterations": \d+', '"iterations": 1', s))) == []
    assert _check_lines(_edited(lines, info, lambda s: s.replace('"budget"', '"budgets"')))
    renamed = _edited(lines, info, lambda s: s.replace('"id": "long"', '"id": "short"', 1))
    _fails_to_replay(renamed, "no reply")


def test_a_reply_not_shown_or_not_sent_fails_the_replay():
    lines = _adn_lines()
    legal = next(i for i, line in enumerate(lines) if line.startswith('< {"type": "legal"'))
    with pytest.raises(SessionError, match="not shown"):
        _check_lines(lines[:legal] + lines[legal + 1 :])
    status = next(i for i, line in enumerate(lines) if line.startswith('< {"type": "status"'))
    extra = lines[:status] + [lines[status], lines[status].replace('"id": "s"', '"id": "s2"')] + lines[status + 1 :]
    _fails_to_replay(extra, "no reply")


def test_a_request_list_needs_every_answer_to_be_the_command_s():
    readme = next(s for s in SESSIONS if s.name == "readme")
    broken = copy.deepcopy(readme.lines)
    broken.insert(1, '> {"cmd": "chance"}  # not at a chance node: not_now')
    _fails_to_replay(broken, "not_now", doc=ROOT / "README.md")


def test_write_puts_the_engine_s_replies_in_place_and_leaves_matching_ones(tmp_path):
    doc = tmp_path / "doc.md"
    text = (ROOT / "docs" / "embedding.md").read_text(encoding="utf-8")
    stale = text.replace('"seed": 5, "status"', '"seed": 6, "status"').replace(
        '< {"type": "quit", "id": 3}', '< {"type": "quit",  "id": 3}'
    )
    assert stale.count("\n") == text.count("\n") and stale != text
    doc.write_text(stale, encoding="utf-8")
    assert write(find_sessions([doc]), "python") == [doc]
    refreshed = doc.read_text(encoding="utf-8")
    assert '"seed": 5, "status"' in refreshed  # the reply that differed, as the engine sent it
    assert '< {"type": "quit",  "id": 3}' in refreshed  # a matching reply kept as it was shown
    assert find_sessions([doc]) and write(find_sessions([doc]), "python") == []
