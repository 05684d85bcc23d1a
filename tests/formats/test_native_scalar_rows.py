"""The C accelerator's arrays of scalars (`scalar_row` in _jcs.c; session 34, issue 15, QA s33
T7 `sqlrows`) held to RFC 8785's exact bytes, to the spelling facts and to the chain's verdicts.

An array of scalars only (strings of printable ASCII, UTF-8 and short escapes; integers;
decimals of at most 15 significant digits that every writer spells plainly; literals) is
canonical as written and copied whole. Each token on either side of each of those limits is
put in a row, against `canonical_json` (the reference) and the flags `chain.respelled` reads;
then the `sqlrows` shape goes through the public verify seam with the accelerator on, off and
line by line (`assert_same_reports`), and one edited row is found on its line.
"""

from __future__ import annotations

import json
import random

import pytest
from test_native_fuzz import ST, _dump, assert_same_reports, check_canonical
from test_native_integers import _summary_args
from trajhelp import join

from moderator_app.core.formats import native
from moderator_app.core.samples.payload_shapes import shaped_payload
from moderator_app.core.samples.trajectory_writer import chain_events, make_run_events

JCS = native.JCS
pytestmark = pytest.mark.skipif(JCS is None, reason="the C accelerator is not built")

ROW = b'[63290,%s,"say \\"hi\\"",null,true,"2026-12-06"]'
# canonical as written: copied whole (decimals: the point where repr, orjson and ES6 agree)
VERBATIM = [b"-489.11", b"0.5", b"-0.5", b"0.001", b"0.0001", b"123456789012.345",
            b"99999999999999.9", b"1.25", b"-0.0101", b"0", b"-1", b"9007199254740991",
            b'"C:\\\\tmp"', b'"tab\\there"', b'"a\\bb\\fc\\nd\\re"', b'"na\xc3\xafve"',
            b'"emoji \xf0\x9f\x8e\xae"', b'"del\x7f"', b'""', b"false", b'"<b>x</b>"']
# canonical or not, not this path's: each goes the general way (never a wrong byte or fact;
# integers beyond 2^53 - 1 are the Python path's)
OTHERS = [b"0.00001", b"1.50", b"1.0", b"-0", b"-0.0", b"1e5", b"1.5e-7", b"0.1234567890123456",
          b"1234567890123.456", b"12345678901234567", b"9007199254740992", b'"\\u00e9"',
          b'"\\u001b"', b'"\\/"', b"[1,2.5]", b'{"a":1.5}', b"[]", b"12345678901234567.5"]
DECLINED = [b"1.", b"1.5e", b"-", b".5", b"01.5", b"-01", b'"\xff"', b'"a\x01"', b"tru",
            b"nul", b"falsee", b"1.5 ", b" 1.5", b"+1.5", b"1..5", b"0x1"]


def _row(token: bytes) -> bytes:
    return ROW.replace(b"%s", token)


def test_rows_of_plain_scalars_copied_exactly_with_their_facts():
    for token in VERBATIM:
        for text in (_row(token), b"[" + _row(token) + b"," + _row(b"1.5") + b"]",
                     b'{"rows":[' + _row(token) + b"]}"):
            got = check_canonical(text)
            assert got is not None and got[0] == text, text
    assert JCS.canonical(_row(b"1.25"))[1] & ST["ST_FLOAT"]
    assert not JCS.canonical(_row(b"125"))[1] & ST["ST_FLOAT"]
    assert not JCS.canonical(_row(b'"na\xc3\xafve"'))[1] & ST["ST_ASCII"]
    assert not JCS.canonical(_row(b'"del\x7f"'))[1] & ST["ST_ASCII"]
    assert JCS.canonical(_row(b'"a\\nb"'))[1] & ST["ST_ASCII"]


def test_the_others_give_the_reference_bytes_and_facts():
    for token in OTHERS:
        for text in (_row(token), b"[[" + _row(token) + b"]]"):
            check_canonical(text)
    assert JCS.canonical(_row(b"9007199254740992")) is None
    assert JCS.canonical(_row(b"0.00001"))[0] == _row(b"0.00001")
    assert JCS.canonical(_row(b"1.50"))[0] == _row(b"1.5")
    assert JCS.canonical(_row(b"-0"))[0] == _row(b"0")
    assert JCS.canonical(_row(b"1e5"))[0] == _row(b"100000")
    assert JCS.canonical(_row(b'"\\u00e9"'))[0] == _row('"é"'.encode())
    assert JCS.canonical(_row(b'"\\/"'))[1] & ST["ST_NOWRITER"]
    # 1e-05 is how repr and orjson write 0.00001: the plain spelling is neither's
    assert not JCS.canonical(_row(b"0.00001"))[1] & ST["ST_F_REPR"]


def test_invalid_tokens_declined():
    for token in DECLINED:
        for text in (_row(token), b'{"a":[' + _row(token) + b"]}"):
            assert JCS.canonical(text) is None, text


def test_separators_of_the_line_agree():
    """A row's bare `,` counts: beside spaced separators the line mixes the two."""
    assert JCS.canonical(b'{"a": [1.5,"x"]}') is None
    assert JCS.canonical(b'{"a":[1.5, "x"],"b":[2.5,"y"]}') is None
    assert JCS.canonical(b'{"a": [1.5, "x"], "b": [2.5]}')[1] & ST["ST_SPACED"]


_SCALARS = (0, 7, -99999, 2**53 - 1, 0.5, -489.11, 0.0001, 0.00001, 1e21, 1.5e-7, -0.0, 1.0,
            0.1 + 0.2, 2**53, True, False, None, "", "ok", 'say "hi"', "tab\there", "C:\\tmp",
            "naïve", "emoji 🎮", "del\x7f", "\x1b[0m", "a/b", "\u2028")


def test_generated_rows_canonical_bytes():
    rng = random.Random(34)
    for i in range(3000):
        row = [rng.choice(_SCALARS) if rng.random() < 0.3 else round(rng.uniform(-1e3, 1e3), 2)
               for _ in range(rng.randrange(8))]
        value = {"rows": [row, [rng.randint(-5, 5), rng.choice(_SCALARS)]], "n": i}
        for text in (_dump(value), json.dumps(value).encode(),
                     json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode(),
                     json.dumps(value, separators=(",", ":")).encode()):
            check_canonical(text)


def test_sqlrows_chain_verdicts(monkeypatch):
    """QA s33's `sqlrows` payloads in a valid chain (the accelerator vouching for the block),
    then one row's float edited (line 9 alone edited)."""
    rng = random.Random(33)
    events = make_run_events(24, seed=8, variety=0.0, text_bytes=40)
    for i in range(4, 20):
        events[i]["payload"] = shaped_payload("sqlrows", rng, 900)
    for encode in (_dump, lambda e: json.dumps(e, separators=(",", ":"),
                                               ensure_ascii=False).encode()):
        lines = [encode(e) for e in chain_events(events)]
        assert JCS.summarise(join(lines[4:20]), *_summary_args()) is not None
        rep = assert_same_reports(join(lines), monkeypatch, 2048)
        assert rep["verdict"] == "pass", rep["findings"]
        first = events[8]["payload"]["rows"][0]
        row, edited = (json.dumps(r, separators=(",", ":"), ensure_ascii=False).encode()
                       for r in (first, first[:4] + [not first[4]] + first[5:]))
        assert row in lines[8], row
        lines[8] = lines[8].replace(row, edited)  # the row's boolean turned
        rep = assert_same_reports(join(lines), monkeypatch, 2048)
        assert [f["line"] for f in rep["findings"] if f["rule"] == "chain.edited"] == [9]


def test_a_stopper_at_every_place_of_a_long_row():
    """Inside an array the general path reads, runs of scalars are copied as they stand up to
    an element they do not take (a `1.0`, `1e-05`, `\\u00e9`, an object, 17 digits): each
    stopper at each place of a row, once and twice in a row, and spaced separators after it."""
    vals = [b"0.25", b"-0.0125", b'"a\\tb"', b"7", b"null", b'"\xc3\xa9"', b"0.001", b"true"]
    for stop in (b"1.0", b"1e-05", b'"\\u00e9"', b'{"b":1,"a":0.5}', b"0.30000000000000004",
                 b"[0.5,1.0]", b"-0", b"12345678901234567"):
        for i in range(len(vals) + 1):
            for k in (1, 2, 3):
                row = vals[:i] + [stop] * k + vals[i:]
                for text in (b"[" + b",".join(row) + b"]", b"[" + b", ".join(row) + b"]",
                             b'{"obs":[' + b",".join(row) + b"],\"n\":1}"):
                    got = check_canonical(text)
                    # declined: beyond 2^53 - 1; bare separators inside beside spaced ones
                    mixed = b", " in text and (b":" in stop or b"," in stop)
                    assert got is not None or stop == b"12345678901234567" or mixed, text
