"""`spelling._unspelled` (session 44, speed; QA s43 T9 ttyspinner): a line holding a `\\u`
escape that no known writer writes is reproduced by none of them, told from its bytes before
any json.dumps runs. It must never rule out a line a known writer wrote."""

from __future__ import annotations

import json

import orjson
import pytest

from moderator_app.core.formats.canonical import canonical_json_fast
from moderator_app.core.verify.trajectory import spelling
from moderator_app.core.verify.trajectory.spelling import (
    DUMPS_VARIANTS,
    SPELL_ALL,
    _unspelled,
    line_spelling,
    spelling_mask,
)

VALUES = [{"tty": chr(c) + "x", "b": chr(c), chr(c): [1, "\\" + chr(c)]} for c in range(0x300)
          ] + [{"s": "\u2028\u2029\ufeff\U0001f600 \\u0008 \\\\u0008"}]


def _writers(value):
    yield canonical_json_fast(value)
    yield orjson.dumps(value)
    yield orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    for sep, ea, sk in DUMPS_VARIANTS:
        yield json.dumps(value, separators=sep, ensure_ascii=ea, sort_keys=sk).encode()


def test_no_line_a_known_writer_wrote_is_ruled_out():
    written = 0
    for value in VALUES:
        for raw in _writers(value):
            assert not _unspelled(raw), raw
            written += 1
    assert written == len(VALUES) * (3 + len(DUMPS_VARIANTS))


def _go(value) -> bytes:
    """Go's encoding/json: `<`, `>`, `&` and the control characters as `\\u00XX`."""
    out = json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True)
    for c in "\b\f":
        out = out.replace(json.dumps(c)[1:-1], f"\\u{ord(c):04x}")
    return out.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026").encode()


@pytest.mark.parametrize(("raw", "unspelled"), [
    (_go({"tty": "|\b-\b/\b", "exit": 0}), True),           # Go's backspace
    (_go({"html": "<b>"}), True),                              # Go's `<`
    (b'{"a":"\\u00E9"}', True),                                # upper-case hex
    (b'{"a":"\\u0041"}', True),                                # an escaped letter
    (b'{"a":"\\\\u0008"}', False),                             # a backslash, then text
    (b'{"a":"\\\\\\u0008"}', True),                            # a backslash, then the escape
    (b'{"a":"\\u007f"}', False),                               # json.dumps' DEL
    (b'{"a":"\\u00e9\\u001b"}', False),                        # json.dumps' escapes
])
def test_escapes_no_writer_writes(raw, unspelled):
    assert _unspelled(raw) is unspelled


def test_the_mask_is_the_one_every_spelling_tried_gives(monkeypatch):
    lines = [_go({"tty": "|\b" * n + f"<{n}>", "step": n}) for n in range(1, 40)]
    lines += [_go({"a": "&"}), b'{"a":"\\u00E9","b":1}', b'{"a":"\\u0041"}']
    asks = [(raw, hint, compact) for raw in lines for hint in (1, 2, 6, 24, SPELL_ALL)
            for compact in (False, True)]
    fast = [line_spelling(*ask) for ask in asks]
    monkeypatch.setattr(spelling, "_unspelled", lambda raw: False)
    slow = [line_spelling(*ask) for ask in asks]
    assert fast == slow
    low = (1 << spelling.SPELL_BITS) - 1
    assert all(m & low == 0 for m, (_, _, compact) in zip(fast, asks, strict=True) if not compact)
    assert spelling_mask(lines[0], SPELL_ALL, False) == 0
