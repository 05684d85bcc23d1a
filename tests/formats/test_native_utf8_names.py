"""The C accelerator's short member names of non-ASCII text (`utf8_name`, _jcs.c; session 36,
issue 15, QA s35 T5 `keymap`) held to RFC 8785's exact bytes and the general path's flags.

A name of at most 30 bytes whose first stop in short_name's load is a byte >= 0x80 is read a
character at a time (valid UTF-8, no escape, no control character, no DEL) and written from
two 16-byte loads; anything else is left to parse_string. Each name is read with room after it
(the loads) and at the end of the text (the general path): bytes and flags must agree, and
agree with the reference. Emoji names make RFC 8785's UTF-16 order differ from code point
order (`SORTED_CP`), which the member order's flags must show whichever path read the names.
"""

from __future__ import annotations

import json
import random

import pytest
from test_native_fuzz import ST, _dump, assert_same_reports, check_canonical
from test_native_integers import _summary_args
from test_native_long_names import PAD, _agree
from trajhelp import join

from moderator_app.core.formats import native
from moderator_app.core.samples.trajectory_writer import chain_events, make_run_events

JCS = native.JCS
pytestmark = pytest.mark.skipif(JCS is None, reason="the C accelerator is not built")

# 2-, 3- and 4-byte characters; a private-use one (U+E000) and a halfwidth one (U+FF71), which
# sort after a surrogate pair in UTF-16 and before it in code points
CHARS = ["\u00e9", "\u00df", "\uff71", "\ue000", "\U0001f47e", "\U0001d11e", "a", "Z", "_"]
# what may end a name's valid text: a stop the general path must read (escape, control
# character, DEL, invalid UTF-8) or an ordinary byte
BAD = [b"\\n", b"\\u00e9", b"\x01", b"\x7f", b"\xc0\x80", b"\xe0\x80\x80", b"\xed\xa0\x80",
       b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80", b"\xf8\x88\x80\x80", b"\xc1\xbf",
       b"\xf0\x8f\xbf\xbf", b"\xf0\x9f\x91", b"\xc3", b"\x80", b"\xff", b" "]


def _name_text(name: bytes, value: bytes = b"1", pad: bytes = b"") -> bytes:
    return b'{"a":{"' + name + b'":' + value + b"}" + pad + b"}"


@pytest.mark.parametrize("length", range(1, 36))
def test_non_ascii_names_of_every_length(length):
    """Names of 1 to 35 characters drawn from 2-, 3- and 4-byte characters and ASCII (either
    side of 30/31 bytes, where the path stops): the general path's bytes and flags."""
    rng = random.Random(length)
    for _ in range(40):
        name = "".join(rng.choice(CHARS) for _ in range(length))
        if name.isascii():
            continue
        got = _agree(name)
        assert got is not None, name
        assert not got[1] & ST["ST_ASCII"], name


def test_a_bad_byte_after_non_ascii_text_at_every_place():
    """An escape, a control character, DEL, a space or invalid UTF-8 (overlong, a surrogate,
    beyond U+10FFFF, cut short, a lone continuation byte) after a first non-ASCII character,
    at each place of a name: wide and narrow agree (both declined, or both the reference's)."""
    for stem in ("\u00e9abcdefghijklmnopqrstuvwxyz12", "\U0001f47e" + "x" * 26, "\uff71\uff72"):
        raw = stem.encode()
        for bad in BAD:
            for at in range(2, len(raw) + 1):
                if at < len(raw) and (raw[at] & 0xC0) == 0x80:
                    continue  # inside a character: not a place between two
                name = raw[:at] + bad + raw[at:]
                wide = check_canonical(_name_text(name, pad=PAD))
                narrow = check_canonical(_name_text(name))
                assert (wide is None) == (narrow is None), name
                if wide is not None:
                    assert wide[0].replace(PAD, b"") == narrow[0], name
                    assert wide[1] == narrow[1], name
                try:
                    name.decode()
                except UnicodeDecodeError:
                    assert wide is None, name


def test_keymap_objects_sorted_by_utf16_with_their_order_flags():
    """QA s35's `keymap` objects: 6-9 names of its 15 (emoji, halfwidth, accented, an escaped
    NUL) in shuffled order and in either sort, with room after them and without: the reference
    bytes, and SORTED_CP / SORTED_U16 as the names' two orders say."""
    keys = ["hp", "Hp", "x", "y", "\u00e9", "\uff71\uff72", "\U0001f47e", "\u00df", "z_1",
            "z10", "z2", "\uff76", "\U0001d11e", "a\u0000b", "tag"]
    values = [b"null", b"true", b"-0.0", b"4e+22", b"-245.6368", b"713618131", b'"tab\\there"',
              b'"\xc3\xbf"', b'"bell\\u0007"']
    rng = random.Random(3536)
    seen = set()
    for _ in range(3000):
        names = rng.sample(keys, rng.randint(6, 9))
        how = rng.randrange(3)
        if how == 1:
            names.sort(key=lambda k: k.encode("utf-16-be"))
        elif how == 2:
            names.sort()
        parts = b",".join(json.dumps(k, ensure_ascii=False).encode() + b":" + rng.choice(values)
                          for k in names)
        for tail in (b"", PAD):
            text = b'{"a":{' + parts + b"}" + tail + b"}"
            got = check_canonical(text)
            assert got is not None, text
            u16 = names == sorted(names, key=lambda k: k.encode("utf-16-be"))
            cp = names == sorted(names)
            assert bool(got[1] & ST["ST_SORTED_U16"]) == u16, text
            assert bool(got[1] & ST["ST_SORTED_CP"]) == cp, text
            seen.add((u16, cp))
    assert {(False, False), (True, False), (False, True)} <= seen


def test_keymap_chain_verdicts(monkeypatch):
    """Payloads keyed by non-ASCII names in a valid chain, as orjson and as Python's json.dumps
    write them (the accelerator vouching for the block), then one name's letter changed on
    line 9: the three engines agree and name line 9 alone."""
    rng = random.Random(36)
    events = make_run_events(24, seed=9, variety=0.0, text_bytes=40)
    for i in range(4, 20):
        events[i]["payload"] = {f"t{j:03d}": {k: rng.randint(-9, 9) for k in rng.sample(
            ["\u00e9t\u00e9", "\uff71\uff72", "\U0001f47e", "\u00df", "hp", "\U0001d11e"], 4)}
            for j in range(8)}
    for encode in (_dump, lambda e: json.dumps(e, separators=(",", ":"),
                                               ensure_ascii=False).encode()):
        lines = [encode(e) for e in chain_events(events)]
        assert JCS.summarise(join(lines[4:20]), *_summary_args()) is not None
        rep = assert_same_reports(join(lines), monkeypatch, 2048)
        assert rep["verdict"] == "pass", rep["findings"]
        name = next(k for k in events[8]["payload"]["t000"] if not k.isascii()).encode()
        assert b'"' + name + b'":' in lines[8]
        edited = name[:-1] + bytes([name[-1] ^ 1])  # still a valid character, another one
        edited.decode()
        lines[8] = lines[8].replace(b'"' + name + b'":', b'"' + edited + b'":', 1)
        rep = assert_same_reports(join(lines), monkeypatch, 2048)
        assert [f["line"] for f in rep["findings"] if f["rule"] == "chain.edited"] == [9]


def test_members_ranked_in_utf16_order_among_names_outside_the_bmp():
    """Objects of 2-16 names drawn from characters either side of every UTF-16 / code point
    boundary (U+D7FF, U+E000, U+FFFF, U+10000, U+10FFFF), shuffled, some alike in their first
    8 bytes: the reference's bytes (each member at its RFC 8785 place), or declined."""
    chars = ["a", "\u00e9", "\u07ff", "\u0800", "\ud7ff", "\ue000", "\uff71", "\uffff",
             "\U00010000", "\U0001f47e", "\U0010ffff", "\x7f"]
    rng = random.Random(1636)
    ranked = 0
    for _ in range(4000):
        names = {"".join(rng.choice(chars) for _ in range(rng.randint(1, 4)))
                 for _ in range(rng.randint(2, 16))}
        order = list(names)
        rng.shuffle(order)
        parts = b",".join(json.dumps(k, ensure_ascii=False).encode() + b":" +
                          str(i).encode() for i, k in enumerate(order))
        for tail in (b"", PAD):
            got = check_canonical(b'{"a":{' + parts + b"}" + tail + b"}")
            assert got is not None, parts
        ranked += len({k.encode()[:8] for k in names}) == len(names)
    assert ranked > 2000  # most objects took the ranks (distinct 8-byte prefixes)
