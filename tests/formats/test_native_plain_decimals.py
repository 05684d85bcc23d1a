"""The C accelerator's decimals written as they stand before their digits are copied
(parse_number, _jcs.c; session 27, issue 15, QA s26 T7) held to RFC 8785's exact bytes and to
the float flags parse_number sets.

A decimal of at most 15 significant digits, no exponent, a fraction ending in a digit other
than 0 and a value of 0.0001 or more in magnitude is its own RFC 8785 spelling, repr's and
orjson's: copied as it stands, ST_FLOAT noted. Every other number (a 16th digit, 0.00001, a
trailing 0, `-0.0`, a leading zero, an exponent, what is no number) takes the rest of
parse_number. Here tokens on both sides of each of those edges stand as members and as
elements, before `,`, `]` and `}`, and their bytes and flags are checked.
"""

from __future__ import annotations

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

# (token, within the edges written as it stands)
EDGES = [
    ("0.5", True), ("-0.5", True), ("0.0001", True), ("-0.0001", True), ("0.00001", False),
    ("0.0009", True), ("0.00011", True), ("123456789012345.5", False),
    ("12345678901234.5", True), ("0.123456789012345", True), ("0.1234567890123456", False),
    ("0.000123456789012345", True), ("0.0001234567890123456", False),
    ("-1.2345678901234", True), ("1.50", False), ("1.0", False), ("-0.0", False),
    ("0.0", False), ("10.25", True), ("99999999999999.9", True), ("100000000000000.1", False),
    ("1e-3", False), ("1.5e2", False), ("1.5E2", False), ("3.14", True), ("-2.71828", True),
    ("0.30000000000000004", False), ("1.7976931348623157e308", False), ("9.5", True),
]
INVALID = ["00.5", "-00.5", "01.5", "1.", "-.5", ".5", "1.5.2", "--1.5", "+1.5", "1.5-",
           "0x1.5", "1.5a", "-"]


def _lines(tok: str):
    """The token as a member and as an element, last and not, in objects out of order."""
    yield f'{{"a":{tok}}}'
    yield f'{{"a":[{tok}]}}'
    yield f'{{"a":[{tok},1]}}'
    yield f'{{"a":[1,{tok}]}}'
    yield f'{{"b":{tok},"a":1}}'
    yield f'{{"a":{{"z":{tok},"y":"x"}}}}'
    yield f'{{"a":{{"z":"x","y":{tok}}},"b":2}}'
    yield f'{{"a":[[{tok}],{{"k":{tok}}}]}}'


@pytest.mark.parametrize("tok, plain", EDGES)
def test_decimals_on_both_sides_of_each_edge(tok, plain):
    """Bytes: canonical_json's. ST_FLOAT set; the line RFC 8785's (MIN), repr's (F_REPR) and
    orjson's (F_ORJSON) spelling of its floats exactly as the writers say."""
    x = float(tok)
    es6, rep, orj = JCS.float_spellings(x)
    if plain:  # (taken as it stands; a 16-digit token may be every writer's too)
        assert es6 == rep == orj == tok, tok
    for text in _lines(tok):
        line = text.encode()
        got = check_canonical(line)
        assert got is not None, line
        out, flags = got
        assert out == canonical_json(json.loads(line)), line
        assert flags & JCS.ST_FLOAT, line
        assert bool(flags & JCS.ST_F_REPR) == (rep == tok), line
        assert bool(flags & JCS.ST_F_ORJSON) == (orj == tok), line
        if text == f'{{"a":{tok}}}':  # (in order: RFC 8785's when the float is)
            assert bool(flags & JCS.ST_MIN) == (out == line), line


@pytest.mark.parametrize("tok", INVALID)
def test_what_is_no_number_is_declined(tok):
    for text in _lines(tok):
        assert JCS.canonical(text.encode()) is None, text


def test_random_decimals_against_the_reference():
    """Random tokens of 1-18 digits around the point, signs, zeros before and after, in
    members and elements: canonical_json's bytes, and the float flags the writers say."""
    rng = random.Random(27)
    for _ in range(20000):
        ip = rng.choice(["0", str(rng.randrange(1, 10 ** rng.randint(1, 16)))])
        fp = "0" * rng.choice((0, 0, 1, 2, 3, 4, 5)) + str(rng.randrange(10 ** rng.randint(1, 15)))
        tok = ("-" if rng.random() < 0.4 else "") + ip + "." + fp
        if rng.random() < 0.2:
            tok += "0"
        text = rng.choice(list(_lines(tok))).encode()
        got = check_canonical(text)
        assert got is not None and got[0] == canonical_json(json.loads(text)), text
        assert bool(got[1] & JCS.ST_F_REPR) == (repr(float(tok)) == tok), text


def test_decimals_chain_verdicts(monkeypatch):
    """A chain of log-probability rows (small objects of a short string, a rounded float and
    a byte array): one report from every engine; one float's last digit changed in line 9 is
    `chain.edited` there alone."""
    rng = random.Random(15)
    events = make_run_events(24, seed=3, variety=0.0, text_bytes=40)
    for i in range(4, 20):
        events[i]["payload"] = {"top": [[{"t": rng.choice(["a", "bc", "\u00e9", "\n"]),
                                          "lp": round(-rng.expovariate(1.5), rng.randint(1, 7)),
                                          "b": [rng.randrange(256) for _ in range(3)]}
                                         for _ in range(5)] for _ in range(4)]}
    lines = [orjson.dumps(e) for e in chain_events(events)]
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert rep["verdict"] == "pass", rep["findings"]
    text = lines[8]
    at = text.index(b'"lp":-') + 7
    while text[at + 1:at + 2].isdigit():
        at += 1
    digit = text[at:at + 1]
    lines[8] = text[:at] + (b"1" if digit != b"1" else b"2") + text[at + 1:]
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert rep["verdict"] == "fail"
    edits = [f for f in rep["findings"] if f["rule"] == "chain.edited"]
    assert [f["line"] for f in edits] == [9], rep["findings"]
