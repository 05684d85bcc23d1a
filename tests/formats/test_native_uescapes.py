"""The C accelerator's runs of `\\uXXXX` escapes (`u_run`, _jcs.c; session 27, issue 15, QA s26
T7) held to RFC 8785's exact bytes, to the flags the general step sets, and to the chain's
verdicts.

Python's `json.dumps` writes every non-ASCII character as a `\\uXXXX` escape in lowercase hex
(a character outside the BMP as a surrogate pair). Such runs are decoded several at a time to
their UTF-8 bytes; anything else (an uppercase digit, an ASCII or control character, a lone or
reversed surrogate, the last 12 bytes of a line) is left to the general step. Here text of every
UTF-8 length and boundary, so spelled, mixed with the escapes that must be declined or left to
the general step, is placed at every distance from the line's end, as a value and as a member
name, and the bytes and flags are checked against `canonical_json` and the writers they name.
"""

from __future__ import annotations

import json
import random

import pytest
from test_native_fuzz import assert_same_reports, check_canonical
from trajhelp import join

from moderator_app.core.formats import native
from moderator_app.core.formats.canonical import canonical_json
from moderator_app.core.samples.trajectory_writer import chain_events, make_run_events

JCS = native.JCS
pytestmark = pytest.mark.skipif(JCS is None, reason="the C accelerator is not built")

# The boundaries of UTF-8's lengths and of the surrogates: U+0080 (the first two-byte
# character), U+07FF/U+0800, U+D7FF/U+E000 (around the surrogates), U+FFFF/U+10000, U+10FFFF,
# the UTF-16 order's odd ones out (U+E000-U+FFFF sort after surrogate pairs)
BOUNDARY = ["\x80", "\xff", "\u0100", "\u07ff", "\u0800", "\u0fff", "\u1000", "\ud7ff",
            "\ue000", "\uff5e", "\ufffd", "\uffff", "\U00010000", "\U0001f600", "\U0010ffff",
            "\u0416", "\u4e2d", "\u03b1"]
# Characters the run leaves to the general step, spelled by json.dumps as it does
ASCII_SIDE = ["a", " ", "\n", "\t", "\x00", "\x1f", "\x7f", '"', "\\", "/", "\u2028"]


def _dumps(value) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def _text(rng: random.Random, n: int, ascii_share: float) -> str:
    return "".join(rng.choice(ASCII_SIDE) if rng.random() < ascii_share else rng.choice(BOUNDARY)
                   for _ in range(n))


def _flags(got: tuple) -> int:
    return got[1]


def test_ensure_ascii_text_at_every_distance_from_the_end():
    """A value string of ensure_ascii's escapes, then 0-40 bytes to the line's end: the bytes
    are canonical_json's, the line is json.dumps' (EA), RFC 8785's (MIN) only when nothing was
    escaped, and its text ASCII only when no character beyond it stands, wherever the run
    stops."""
    rng = random.Random(27)
    for n in (1, 2, 3, 7, 20):
        for _ in range(12):
            s = _text(rng, n, 0.2)
            for tail in range(41):
                value = {"a": s, "b": "y" * tail} if tail else {"a": s}
                line = _dumps(value)
                got = check_canonical(line)
                assert got is not None, line
                assert got[0] == canonical_json(value), line
                flags = _flags(got)
                as_is = got[0] == line  # (only when no character needed an escape)
                assert flags & JCS.ST_EA, line
                assert bool(flags & JCS.ST_MIN) == as_is, line
                assert bool(flags & JCS.ST_MINX) == as_is, line
                assert bool(flags & JCS.ST_ASCII) == (max(got[0]) < 0x7f), line
                assert not flags & JCS.ST_NOWRITER, line


def test_ensure_ascii_member_names_and_their_order():
    """Names spelled with escapes (pairs among them: UTF-16 and code-point order differ) are
    decoded for the sort: canonical_json's order and bytes, each sorted flag exactly when the
    names stand in its order, whichever of the run or the general step read them."""
    rng = random.Random(2027)
    for _ in range(400):
        names = {_text(rng, rng.randint(1, 4), 0.1) for _ in range(rng.randint(1, 6))}
        value = {k: rng.randint(0, 9) for k in names}
        for pad in ("", "z" * 30):
            doc = {"o": value, "p": pad} if pad else {"o": value}
            for sort_keys in (False, True):
                line = json.dumps(doc, separators=(",", ":"), sort_keys=sort_keys).encode()
                got = check_canonical(line)
                assert got is not None and got[0] == canonical_json(doc), line
                keys = list(json.loads(line)["o"])  # in the line's order
                cp_sorted = keys == sorted(keys)
                u16_sorted = keys == sorted(keys, key=lambda k: k.encode("utf-16-be"))
                assert bool(got[1] & JCS.ST_SORTED_CP) == cp_sorted, line
                assert bool(got[1] & JCS.ST_SORTED_U16) == u16_sorted, line


@pytest.mark.parametrize("piece, nowriter", [
    ("\\u00E9", True),             # an uppercase digit: no writer spells it
    ("\\u00e9\\u00C9", True),      # one after a run
    ("\\u0041", True),             # an ASCII letter escaped
    ("\\u0022", True),             # a quote by its code
    ("\\u001b", False),            # a control character: RFC 8785's own escape
    ("\\u001B", True),
    ("\\u00e9\\n\\u4e2d", False),  # a short escape between two runs
    ("\\ud83d\\ude00\\u4e2d", False),
    ("\\uD83D\\uDE00", True),
    ("\\ud83d\\uDE00", True),
])
def test_escapes_the_run_leaves_to_the_general_step(piece, nowriter):
    """After, before and between runs, at every distance from the end: the bytes are
    canonical_json's and NOWRITER is set exactly where an escape no writer spells stands."""
    for before in ("", "\\u0436\\u0436", "x"):
        for tail in range(30):
            line = ('{"a":"' + before + piece + "\\u0436" * (tail % 3) + '","b":"' + "y" * tail
                    + '"}').encode()
            got = check_canonical(line)
            assert got is not None, line
            assert got[0] == canonical_json(json.loads(line)), line
            assert bool(got[1] & JCS.ST_NOWRITER) == nowriter, line
            assert bool(got[1] & JCS.ST_MIN) == (got[0] == line), line


@pytest.mark.parametrize("piece", [
    "\\ud83d",            # a lone high surrogate, the string's last character
    "\\ud83dx",           # followed by text
    "\\ud83d\\u4e2d",     # followed by a BMP escape
    "\\ude00",            # a lone low surrogate
    "\\ude00\\ud83d",     # a reversed pair
    "\\ud83d\\ud83d",     # two high ones
    "\\ud83d\\n",         # a short escape after it
    "\\u12",              # cut short
    "\\u12g4",            # not hex
    "\\u",
])
def test_lone_and_broken_surrogates_are_declined(piece):
    """Whatever the run has read before it, at every distance from the end: declined (the
    Python path reports it), never decoded."""
    for before in ("", "\\u0436" * 3, "\\ud83d\\ude00" * 2):
        for tail in range(30):
            line = ('{"a":"' + before + piece + '","b":"' + "y" * tail + '"}').encode()
            assert JCS.canonical(line) is None, line


def test_random_mixtures_against_the_reference():
    """Random text of every kind, spelled by json.dumps with and without ensure_ascii and by
    hand with uppercase digits mixed in, as values and names, padded or not."""
    rng = random.Random(7)
    for i in range(3000):
        s = _text(rng, rng.randint(1, 30), rng.random())
        k = _text(rng, rng.randint(1, 3), 0.3)
        doc = {k: s, "n": i} if rng.random() < 0.5 else {"v": [s, s[::-1]], k: 1}
        for ea in (True, False):
            line = json.dumps(doc, separators=(",", ":"), ensure_ascii=ea).encode()
            got = check_canonical(line)
            assert got is not None and got[0] == canonical_json(doc), line
        upper = json.dumps(doc, separators=(",", ":")).replace("\\ud", "\\uD").encode()
        got = check_canonical(upper)
        assert got is not None and got[0] == canonical_json(doc), upper


def test_ensure_ascii_chain_verdicts(monkeypatch):
    """A chain whose payloads json.dumps spelled (every non-ASCII character escaped, emoji as
    pairs): the same report from the accelerator, the orjson columns and line by line; one
    escaped character changed in line 9 is `chain.edited` there alone."""
    rng = random.Random(26)
    events = make_run_events(24, seed=27, variety=0.0, text_bytes=40)
    for i in range(4, 20):
        events[i]["payload"] = {"chat": "\u4e2d" + _text(rng, 120, 0.15),
                                "names": {_text(rng, 2, 0.0): j for j in range(3)}}
    lines = [_dumps(e) for e in chain_events(events)]
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert rep["verdict"] == "pass", rep["findings"]
    lines[8] = lines[8].replace(b"\\u4e2d", b"\\u4e2e", 1)
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert rep["verdict"] == "fail"
    edits = [f for f in rep["findings"] if f["rule"] == "chain.edited"]
    assert [f["line"] for f in edits] == [9], rep["findings"]


def test_markers_sharing_four_bytes_and_short_ones_at_every_offset():
    """The secrets markers' search (`_jcs.markers`, Teddy buckets by the markers' first four
    bytes) against substring tests: marker sets whose members share four bytes (the escapes
    that can hide a marker), are shorter than four bytes, or both, in ensure_ascii text full
    of `\\u04xx` escapes, each marker placed at every offset."""
    from moderator_app.core.formats.secrets import MARKERS

    sets = [MARKERS, (b"\\u004", b"sk-", b"\\u0020", b"xo"), (b"ab", b"abcd", b"abce", b"a\\u0"),
            tuple(f"\\u00{i:02x}".encode() for i in range(20)) + (b"hf_", b"ea"),
            (b"\\u0", b"\\u04", b"\\u041", b"\\u0410")]
    text = b"\\u0436\\u043e \\u03b1\\u4e2d-ea\\u00e9 " * 4
    for markers in sets:
        assert JCS.markers(text, markers) == tuple(m for m in markers if m in text), markers
        for m in markers:
            for at in range(0, len(text) + 1, 3):
                block = text[:at] + m + text[at:]
                want = tuple(x for x in markers if x in block)
                assert JCS.markers(block, markers) == want, (m, at)
