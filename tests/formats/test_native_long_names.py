"""The C accelerator's member names of 16-31 bytes (`short_name`'s second load, _jcs.c; session
28, issue 15, QA s27's `nullsparse`) held to RFC 8785's exact bytes and the general path's flags.

A name of at most 31 plain ASCII bytes followed by `:` is written from one or two 16-byte loads;
anything else (an escape, a control character, DEL, a byte >= 0x80, a missing `:`, fewer than
34 bytes readable after its quote) is left to parse_string. Each name is read twice here: with
room after it (the loads) and at the end of the text (the general path); the bytes and flags
must agree, and agree with the reference.
"""

from __future__ import annotations

import random

import pytest
from test_native_fuzz import check_canonical

from moderator_app.core.formats import native

JCS = native.JCS
pytestmark = pytest.mark.skipif(JCS is None, reason="the C accelerator is not built")

PAD = b',"zz":"' + b"p" * 60 + b'"'  # after the name's object: the loads have room
# what may stop a name, or sit in it: the loads' stops, and bytes they must let through
ODD = ['"', "\\\\", "\\n", "\\u00e9", "\u00e9", "\U0001f600", "\x7f", " ", ":", ",", "}", "{",
       "~", "!"]


def _text(name: str, value: bytes = b"1", pad: bytes = b"") -> bytes:
    return b'{"a":{"' + name.encode() + b'":' + value + b"}" + pad + b"}"


def _agree(name: str, value: bytes = b"1") -> tuple | None:
    """canonical() of an object whose first member has `name`, with room after the name and
    without: equal but for the padding, equal flags, or both declined."""
    wide = check_canonical(_text(name, value, PAD))
    narrow = check_canonical(_text(name, value))
    assert (wide is None) == (narrow is None), name
    if wide is not None:
        narrow_out, narrow_flags = narrow
        assert wide[0].replace(PAD, b"") == narrow_out, name
        assert wide[1] == narrow_flags, (name, wide[1], narrow_flags)
    return wide


@pytest.mark.parametrize("length", range(0, 41))
def test_names_of_every_length_with_an_odd_byte_at_every_place(length):
    """Every length from 0 to 40 (either side of 15/16 and 31/32), plain, and with each odd
    byte (a stop or not) at each place of it: the same bytes and flags as the general path."""
    base = "".join(chr(ord("a") + i % 26) for i in range(length))
    assert _agree(base) is not None
    for odd in ODD:
        for at in sorted({0, length // 2, max(length - 1, 0), 15, 16, 30, 31}):
            if at <= length:
                _agree(base[:at] + odd + base[at:])


def test_long_names_sorted_and_unsorted_among_short_ones():
    """Objects of long and short names in random order and with random values: the reference's
    bytes (the members sorted by the whole name, not the 8-byte prefix alone)."""
    rng = random.Random(2828)
    stems = ["feature_flag_enabled", "feature_flag_enabler", "last_checkpoint_path",
             "override_reward_scale", "teacher_forcing_ratio", "curriculum_stage_name_0123456",
             "curriculum_stage_name_0123457", "x" * 31, "x" * 30, "y" * 16, "id", "ts"]
    values = [b"null", b"true", b"false", b'"n/a"', b"12", b"-3.5", b"[1,2]", b'{"b":1}']
    for _ in range(3000):
        names = rng.sample(stems, rng.randint(1, len(stems)))
        parts = b",".join(b'"' + k.encode() + b'":' + rng.choice(values) for k in names)
        for tail in (b"", PAD):
            text = b'{"a":{' + parts + b"}" + tail + b"}"
            assert check_canonical(text) is not None, text


def test_a_repeated_long_name_is_declined():
    """Two members of one 20-byte name: declined (the Python path names the repetition)."""
    name = b'"' + b"n" * 20 + b'"'
    for pad in (b"", PAD):
        assert JCS.canonical(b'{"a":{' + name + b":1," + name + b":2}" + pad + b"}") is None
