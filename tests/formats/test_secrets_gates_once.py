"""`verify`'s gates over a chunk asked once (session 37, unescape; issue 15): `_reader_spots`
asked the encoded views' gates (markers of the escapes, of plain keys, the byte views' and the
character dump's `translate`s) to know whether to call `encoded_spots`, which asked them all
again over the same bytes (~0.06 s a 16 MiB slice of `\\x` escapes, 1.9 s per 512 MiB).
Now `encoded_gates` is asked once and handed over: the same spots for every spelling, and one
pass of the escapes' markers a chunk."""

from __future__ import annotations

import pytest

from moderator_app.core.formats import secrets_decode as sd
from moderator_app.core.formats import withhold

# one line a spelling `encoded_spots` leads `verify` to (none holds `%`: `%` is asked apart)
LINES = {
    "x escapes": b'{"a":"\\\\x73\\\\x6b\\\\x2d\\\\x70\\\\x72"}',
    "html escapes": b'{"a":"&#115;&#107;&#45;&#112;&#114;"}',
    "u as text": b'{"a":"\\\\u0073\\\\u006b\\\\u002d\\\\u0070"}',
    "octal": b'{"a":"\\\\163\\\\153\\\\055\\\\160\\\\162"}',
    "joined literals": b'{"a":"k = \\"sk-\\" + \\"proj\\" + \\"abc\\""}',
    "byte array": b'{"a":"0x73, 0x6b, 0x2d, 0x70, 0x72, 0x6f, 0x6a, 0x2d, 0x61"}',
    "decimal list": b'{"a":"[115, 107, 45, 112, 114, 111, 106, 45, 97]"}',
    "spaced dump": b'{"a":"00000000: 73 6b 2d 70 72 6f 6a 2d  61 62 63"}',
    "plain key prefix": b'{"a":"token rubygems_0123456789abcdef0123456789abcdef"}',
    "od -c dump": b'{"a":"   s   k   -   p   r   o   j   -   a   b   c"}',
}
HONEST = b'{"seq":3,"type":"observation","data":{"summary":"the porter jumped the ladder"}}'


@pytest.mark.parametrize("name", sorted(LINES))
def test_the_gates_handed_over_give_the_spots_asked_anew(name):
    data = b"\n".join([HONEST, LINES[name], HONEST])
    gates = sd.encoded_gates(data)
    assert gates.open
    spots = sd.encoded_spots(data, 0, len(data), gates)
    assert spots == sd.encoded_spots(data)
    assert len(spots) == 1 and len(HONEST) < spots[0] < len(HONEST) + len(LINES[name])


def test_an_honest_range_opens_no_gate():
    assert not sd.encoded_gates(b"\n".join([HONEST] * 20)).open


def test_verify_asks_the_escapes_markers_once_a_chunk(monkeypatch):
    asked = []
    real = sd.markers_of

    def counted(block, markers):
        if markers == sd.ENCODED_MARKERS:
            asked.append(len(block))
        return real(block, markers)

    for module in (sd, withhold):
        monkeypatch.setattr(module, "markers_of", counted, raising=False)
    data = b"\n".join([HONEST, LINES["x escapes"], HONEST]) + b"\n"
    hits = withhold.public_secret_hits(data, 1)
    assert hits == []
    assert asked == [len(data)]
