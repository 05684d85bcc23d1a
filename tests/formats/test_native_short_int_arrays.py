"""The C accelerator's short arrays of integers (`short_int_array`, _jcs.c; session 27, issue
15, QA s26 T7) held to RFC 8785's exact bytes, to the general path's flags and to the chain's
verdicts.

An array that closes within 16 bytes of its `[` and holds only integers written as RFC 8785
writes them (no `-0`, no leading zero) with bare commas is read from masks of those bytes and
copied whole; anything else is left to plain_array and parse_array. Both readings are run on
the same array here: with 16 bytes readable from its `[` (the masks) and at the end of a line
(fewer: the general path), and their bytes and flags must agree, and agree with
`canonical_json`.
"""

from __future__ import annotations

import itertools
import json
import random

import orjson
import pytest
from test_native_fuzz import assert_same_reports, check_canonical
from trajhelp import join

from moderator_app.core.formats import native
from moderator_app.core.formats.canonical import canonical_json
from moderator_app.core.samples.trajectory_writer import chain_events, make_run_events

JCS = native.JCS
pytestmark = pytest.mark.skipif(JCS is None, reason="the C accelerator is not built")

ATOMS = ["0", "7", "-7", "10", "-10", "255", "-0", "00", "01", "-01", "--1", "-", "", "1-",
         "1.5", "1e2", "-0.0", "true", '"a"', "[]", "[1]", " 1", "1 ", "x", "12345678901234"]
PAD = ',"zz":"' + "p" * 40 + '"'  # after the array's member: 16 bytes readable from its `[`


def _both(arr: str):
    """canonical() of the array as a member's value with room after it and at the line's end
    (under 16 bytes from its `[` when the array is short), checked against the reference; both
    lines in RFC 8785's member order."""
    wide = check_canonical(('{"a":' + arr + PAD + "}").encode())
    narrow = check_canonical(('{"a":' + arr + "}").encode())
    return wide, narrow


def test_every_array_of_up_to_three_atoms():
    """Each array of 0-3 atoms (valid integers, and what must be left to the general path or
    declined): the masks and the general path agree on bytes, flags and declining."""
    for k in range(4):
        for atoms in itertools.product(ATOMS, repeat=k):
            arr = "[" + ",".join(atoms) + "]"
            wide, narrow = _both(arr)
            assert (wide is None) == (narrow is None), arr
            if wide is None:
                continue
            value = json.loads(arr)
            assert canonical_json(value) in wide[0] and canonical_json(value) in narrow[0], arr
            assert wide[1] == narrow[1], arr


def test_arrays_around_the_16_bytes():
    """Arrays of 13-18 bytes (their `]` inside the window and just past it), in order."""
    for n in range(1, 16):
        for arr in ("[" + "9" * n + "]", "[" + ",".join("7" * (n // 3 + 1) for _ in range(3)) + "]",
                    "[-" + "1" * n + "]", "[1," + "0" * n + "]"):
            wide, narrow = _both(arr)
            assert (wide is None) == (narrow is None), arr
            if wide is not None:
                assert wide[1] == narrow[1], arr


def test_random_arrays_against_the_reference():
    rng = random.Random(27)
    for _ in range(20000):
        arr = "[" + rng.choice([",", ", ", ",,", ""]).join(
            rng.choice(ATOMS[:6] + [str(rng.randrange(-999, 10**rng.randint(1, 14)))])
            for _ in range(rng.randint(0, 6))) + "]"
        wide, narrow = _both(arr)
        assert (wide is None) == (narrow is None), arr
        if wide is not None:
            assert wide[1] == narrow[1], arr


def test_a_comma_makes_the_line_bare():
    """`[1,2]` holds a bare separator: in a line of spaced ones it is declined (mixed); `[5]`
    holds none and the line stays spaced."""
    assert JCS.canonical(('{"a": [1,2], "b": "' + "p" * 20 + '"}').encode()) is None
    got = JCS.canonical(('{"a": [5], "b": "' + "p" * 20 + '"}').encode())
    assert got is not None and got[1] & JCS.ST_SPACED


def test_short_arrays_chain_verdicts(monkeypatch):
    """A chain of boxes and byte values: one report from every engine; one byte changed in
    line 9 is `chain.edited` there alone."""
    rng = random.Random(5)
    events = make_run_events(24, seed=4, variety=0.0, text_bytes=40)
    for i in range(4, 20):
        events[i]["payload"] = {"boxes": [{"b": [rng.randrange(-5, 640) for _ in range(4)],
                                           "id": j} for j in range(6)],
                                "bytes": [[rng.randrange(256)] * rng.randint(0, 4)
                                          for _ in range(8)]}
    lines = [orjson.dumps(e) for e in chain_events(events)]
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert rep["verdict"] == "pass", rep["findings"]
    text = lines[8]
    at = text.index(b'"b":[') + 5
    lines[8] = text[:at] + (b"1" if text[at:at + 1] != b"1" else b"2") + text[at + 1:]
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert rep["verdict"] == "fail"
    edits = [f for f in rep["findings"] if f["rule"] == "chain.edited"]
    assert [f["line"] for f in edits] == [9], rep["findings"]
