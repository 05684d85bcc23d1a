"""The wrapped-token check reads each run of token characters once (s29 review: a line of
`task-task-...` with an escaped newline in it was re-read at every `sk-` inside `task-`, 46 s
at 80 KB). Its answers must not change: a token wrapped after, or inside, such a run is still
found, and the run alone gives nothing. No timing here (the house forbids duration asserts);
the cost is measured in DECISIONS (session 29, lead)."""

from __future__ import annotations

import pytest

from moderator_app.core.formats.secrets import scan_line

TOKEN = b"ghp_QA29wrappedTokenXYZ0123456789abcdef"


def _line(text: bytes) -> bytes:
    return b'{"type":"model_request","data":{"text":"' + text + b'"}}'


@pytest.mark.parametrize("runs", [1, 50, 4000])
def test_a_run_of_markers_with_a_newline_alone_is_no_secret(runs):
    assert scan_line(_line(b"a\\nb " + b"task-" * runs)) == []


@pytest.mark.parametrize("runs", [1, 50, 4000])
def test_a_wrapped_token_after_a_run_of_markers_is_found(runs):
    text = b"a\\nb " + b"task-" * runs + b" wrapped " + TOKEN[:20] + b"\\n" + TOKEN[20:]
    hits = scan_line(_line(text))
    assert [h.label for h in hits] == ["GitHub token"]
    assert hits[0].escaped is True


def test_a_wrapped_token_inside_the_same_run_is_found():
    # `task-` starts the run the token continues: the first marker's run reaches the break
    text = b"task-task-" + TOKEN[:20] + b"\\n" + TOKEN[20:]
    assert [h.label for h in scan_line(_line(text))] == ["GitHub token"]

