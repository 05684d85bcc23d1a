"""The C accelerator's member order by prefix ranks and its small member values copied 16
bytes at a time (`prefix_ranks`, `put_token`, `digit_run` in `plain_integer_end`, _jcs.c;
session 25, issue 15) held to RFC 8785's exact bytes and to the chain's verdicts.

Members whose names differ in their first 8 bytes are put in order by counting, for each, the
prefixes below its own, without a sort; names alike in their first 8 bytes, repeated names and
names outside the BMP take the sort as before. A wrong rank puts a member in the wrong place, a
tie missed lets a repeated name through (the reference refuses it): both are seen against
`canonical_json`. An integer or literal member value is copied with one 16-byte store where the
line has 16 bytes from it: values of every length at every distance from the text's end are
checked, and the `gamestate` shape goes through the public verify seam with the accelerator on,
off and line by line (`assert_same_reports`).
"""

from __future__ import annotations

import itertools
import json
import random

import orjson
import pytest
from test_native_fuzz import _dump, assert_same_reports, check_canonical
from test_native_integers import _summary_args
from trajhelp import join

from moderator_app.core.formats import native
from moderator_app.core.formats.canonical import canonical_json
from moderator_app.core.samples.payload_shapes import shaped_payload
from moderator_app.core.samples.trajectory_writer import chain_events, make_run_events

JCS = native.JCS
pytestmark = pytest.mark.skipif(JCS is None, reason="the C accelerator is not built")


def _members(names: list[str], values: list[str]) -> bytes:
    return ("{" + ",".join(f"{json.dumps(k)}:{v}" for k, v in zip(names, values, strict=True))
            + "}").encode()


def _held(text: bytes) -> bytes:
    """The accelerator's bytes for `text`, which must be the reference's (never declined)."""
    got = check_canonical(text)
    assert got is not None, text
    assert got[0] == canonical_json(json.loads(text)), text
    return got[0]


def test_every_order_of_names_with_distinct_prefixes():
    """2-5 names of 1-12 bytes (some past the 8-byte prefix, some sharing a first byte), in
    every order, over ints, literals and objects: the reference's bytes, bare and nested."""
    rng = random.Random(25)
    pool = ["a", "b", "ab", "ba", "z", "y0", "abcdefgh", "abcdefgi", "abcdefg", "q1234567890",
            "_", "A", "Z9"]
    values = ["1", "true", "-7", "null", "false", "{\"y\":2,\"x\":1}", "[3,1]", "12345"]
    for n in range(2, 6):
        for _ in range(60):
            names = rng.sample(pool, n)
            vals = [rng.choice(values) for _ in range(n)]
            for order in itertools.permutations(range(n)):
                text = _members([names[i] for i in order], [vals[i] for i in order])
                _held(text)
                _held(b'{"w":' + text + b',"v":[' + text + b"]}")


def test_larger_objects_around_the_rank_bound():
    """6-20 members (ranked up to 16, sorted past it), shuffled: the reference's bytes."""
    rng = random.Random(16)
    for n in range(6, 21):
        for _ in range(40):
            names = rng.sample([f"{c}{d}" for c in "abcdefghij" for d in "xyz"], n)
            text = _members(names, [str(rng.randrange(-99, 999)) for _ in names])
            _held(text)


def test_names_alike_in_their_first_8_bytes_and_repeated_names():
    """Names equal in their first 8 bytes (a tie of prefixes: the sort decides), in both
    orders, said sorted exactly when they are (the spelling facts of sorted writers); a
    repeated name, beside others or not, is declined (the reference refuses it)."""
    sorted_bits = JCS.ST_SORTED_CP | JCS.ST_SORTED_U16
    for a, b in (("abcdefgh1", "abcdefgh0"), ("abcdefgh", "abcdefgh0"), ("k" * 9, "k" * 10),
                 ("abcdefghZ", "abcdefghA")):
        for names in ([a, b], [b, a], ["z", a, "m", b], [b, "0", a], sorted([a, b, "0", "z"])):
            text = _members(names, ["1"] * len(names))
            out = _held(text)
            flags = JCS.canonical(text)[1]
            assert (flags & sorted_bits == sorted_bits) == (out == text), text
    for names in (["a", "a"], ["b", "a", "b"], ["c", "b", "a", "c", "d"],
                  ["x" * 9, "y", "x" * 9], ["m", "a\u00e9", "a\u00e9"]):
        for order in set(itertools.permutations(names)):
            text = _members(list(order), ["1"] * len(names))
            assert JCS.canonical(text) is None, text


def test_escaped_names_and_names_outside_the_bmp():
    """Names with escapes (one spelling `\\u0000`, equal to another but for it), and names
    outside the BMP beside U+E000-U+FFFF ones (UTF-16 order differs from code point order):
    the reference's bytes in every order."""
    groups = [["a", "a\u0000", "b"], ["\\u0061x", "ab", "a"], ["\U0001f600", "\ue000", "z"],
              ["\uffff", "\U00010000", "a", "\u00e9"]]
    for names in groups:
        for order in itertools.permutations(names):
            text = ("{" + ",".join(
                f'"{k}":1' if "\\" in k else f"{json.dumps(k, ensure_ascii=False)}:1"
                for k in order) + "}").encode()
            _held(text)


INTEGERS = ["0", "7", "-7", "42", "-999", "123456789012345", "-123456789012345",
            "1234567890123456", "9007199254740991", "-0", "01", "-01", "1.5", "1.50", "-2.0",
            "1e3", "1E+3"]
WORDS = ["true", "false", "null"]


def test_member_values_at_every_distance_from_the_end():
    """Integers of 1-16 digits and literals, first, last and alone in an object, with 0-24
    bytes after them to the text's end (16-byte stores or copies of their length): the
    reference's bytes, or declined; the plain ones never declined."""
    for k in range(0, 25):
        tail = b'"' + b"z" * k + b'"'
        for value in INTEGERS + WORDS:
            v = value.encode()
            for text in (b'{"b":' + v + b',"a":' + tail + b"}",
                         b'{"a":' + tail + b',"b":' + v + b"}", b'{"b":' + v + b"}",
                         b'{"c":{"b":' + v + b',"a":' + v + b'},"b":' + v + b"}"):
                if value in ("01", "-01"):
                    assert JCS.canonical(text) is None, text
                    continue
                got = check_canonical(text)
                if value in INTEGERS[:7] + WORDS:
                    assert got is not None, text
                for cut in range(1, min(len(text), 30)):  # every text cut short is declined
                    assert JCS.canonical(text[:-cut]) is None, text[:-cut]


def test_gamestate_trees_canonical_bytes():
    """3,000 game-state payloads (objects nested 3-6 deep of 1-2 letter names in random
    order, small ints and booleans): the reference's bytes."""
    rng = random.Random(2525)
    for _ in range(300):
        value = shaped_payload("gamestate", rng, 1200)
        _held(orjson.dumps(value))


def test_gamestate_chain_verdicts(monkeypatch):
    """Game states in a valid chain (every engine passes it, the accelerator vouching for the
    block), then one deep boolean flipped in line 9: chain.edited there alone."""
    rng = random.Random(25)
    events = make_run_events(24, seed=7, variety=0.0, text_bytes=40)
    for i in range(4, 20):
        events[i]["payload"] = shaped_payload("gamestate", rng, 1200)
    lines = [_dump(e) for e in chain_events(events)]
    assert JCS.summarise(join(lines[4:20]), *_summary_args()) is not None
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert rep["verdict"] == "pass", rep["findings"]
    text = lines[8]
    at = text.index(b":true") if b":true" in text else text.index(b":false")
    flipped = b":false" if text[at:at + 5] == b":true" else b":true"
    lines[8] = text[:at] + flipped + text[at + (5 if flipped == b":false" else 6):]
    assert orjson.loads(lines[8]) != orjson.loads(text)
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert [f["line"] for f in rep["findings"] if f["rule"] == "chain.edited"] == [9]
