"""The C accelerator on rows that mix scalars with an object and an exponent float (QA s34 T7
`tuplelog`, issue 15; session 35): RFC 8785's exact bytes, each writer's spelling fact exactly,
and the chain's verdicts.

Two shortcuts are held here. A float token the general path re-spells builds only the writers'
spellings whose fact the line still holds (an earlier float cleared the others): the facts must
come out exactly as comparing every token with every writer's spelling gives them. A row whose
first run took a decimal, an escape or a non-ASCII byte makes the next array at its depth skip
plain_array's try: rows, integer arrays and nested arrays in every order at one depth and at
others must still give the reference bytes.
"""

from __future__ import annotations

import json
import random

import orjson
import pytest
from test_native_fuzz import ST, _dump, assert_same_reports, check_canonical
from test_native_integers import _summary_args
from trajhelp import join

from moderator_app.core.formats import native
from moderator_app.core.formats.canonical import canonical_json
from moderator_app.core.samples.payload_shapes import shaped_payload
from moderator_app.core.samples.trajectory_writer import chain_events, make_run_events

JCS = native.JCS
pytestmark = pytest.mark.skipif(JCS is None, reason="the C accelerator is not built")

# floats each writer spells its own way: exponents Python pads (`e-05`), 17 digits, the point
# where ES6 writes `0.0000035` and repr `3.5e-06`, plain decimals all three write alike
_FLOATS = (3.5e-05, 3.5000000000000004e-06, 1e-05, 9.9e-08, 2.5e-09, 0.00099, -12.345, 1e21,
           1.5e-7, 0.1 + 0.2, 6.02e23, 1.0, -0.0, 5e-324, 123456789.125, 1e-6, 4.4e-05)
_WRITERS = {"es6": canonical_json, "repr": lambda x: json.dumps(x).encode(),
            "orjson": orjson.dumps}


def _flag_bits(tokens: list[bytes], values: list[float]) -> dict[str, bool]:
    """What each writer's fact must be for a line of these tokens: the writer spells every
    float token of them so (ES6's `0` for -0.0 and `1` for 1.0 are integer tokens)."""
    pairs = [(tok, v) for tok, v in zip(tokens, values, strict=True)
             if any(c in tok for c in b".eE")]
    return {flag: all(tok == _WRITERS[w](v) for tok, v in pairs)
            for flag, w in (("ST_F_REPR", "repr"), ("ST_F_ORJSON", "orjson"))}


def test_float_facts_exact_whoever_spelled_each_float():
    """1-6 floats a line, each spelled by a writer drawn at random: the repr and orjson facts
    are exactly 'every float of the line is spelled so' (a spelling not built where its fact
    still held would clear it; the output is the reference's either way)."""
    rng = random.Random(35)
    for _ in range(3000):
        values = [rng.choice(_FLOATS) for _ in range(rng.randint(1, 6))]
        tokens = [_WRITERS[rng.choice(("es6", "repr", "orjson", "repr"))](v) for v in values]
        text = b'{"f":[' + b",".join(tokens) + b'],"n":1}'
        got = check_canonical(text)
        assert got is not None, text
        for flag, want in _flag_bits(tokens, values).items():
            assert bool(got[1] & ST[flag]) == want, (flag, text)


def test_a_line_of_json_dumps_floats_keeps_the_repr_fact():
    """The `tuplelog` row as Python writes it: orjson's fact goes at its first exponent float
    (`3.5000000000000004e-06`), repr's holds to the end."""
    row = [1796000000123, "INFO", -12.345, {"hp": 42, "pos": [-3, 17]}, None, "a\\b", True,
           3.5000000000000004e-06]
    text = json.dumps({"rows": [row, row[:7] + [3.5e-05], row[:7] + [2.5e-09]]},
                      separators=(",", ":"), ensure_ascii=False).encode()
    out, flags = check_canonical(text)
    assert b"0.0000035000000000000004" in out and b"2.5e-9" in out and b"0.000035" in out
    assert flags & ST["ST_F_REPR"] and not flags & ST["ST_F_ORJSON"]
    assert not flags & ST["ST_MIN"]


def _rows(rng: random.Random, n: int) -> list:
    return shaped_payload("tuplelog", rng, 70 * n)["rows"]


def test_tuplelog_rows_in_each_writers_spelling():
    rng = random.Random(34)
    for i in range(300):
        value = {"schema": ["t_ms", "level"], "rows": _rows(rng, rng.randint(1, 12)), "n": i}
        for text in (_dump(value), json.dumps(value).encode(),
                     json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode(),
                     json.dumps(value, separators=(",", ":")).encode()):
            assert check_canonical(text) is not None, text


def test_rows_beside_integer_arrays_and_nested_arrays_at_every_depth():
    """Mixed rows, then arrays plain_array takes whole (short and long integer arrays, a
    decimal-free row), at the rows' depth, one deeper and one shallower, in every order."""
    rng = random.Random(7)
    mixed = [b'[1,0.25,{"a":1},2.5e-05]', b'["\xc3\xa9",{"b":[1,2]},1e-07]',
             b'["a\\tb",[1,2],3]', b"[0.5,[0.25,[1,2,3]],null]"]
    plain = [b"[1,2,3]", b"[" + b",".join(b"%d" % i for i in range(90)) + b"]", b"[]",
             b'["x","y",true]', b"[[1,2],[3,4]]", b"[-0,1.0]"]
    for _ in range(2000):
        items = [rng.choice(mixed + plain) for _ in range(rng.randint(1, 8))]
        if rng.random() < 0.3:
            items.insert(rng.randrange(len(items) + 1), b"[" + rng.choice(items) + b"]")
        for sep in (b",", b", "):
            text = b'{"rows":[' + sep.join(items) + b'],"n":1}'
            check_canonical(text)


def test_tuplelog_chain_verdicts(monkeypatch):
    """QA s34's `tuplelog` payloads in a valid chain, as orjson and as Python's json.dumps
    write them (the accelerator vouching for the block), then one row's boolean turned: the
    three engines agree and name line 9 alone."""
    rng = random.Random(34)
    events = make_run_events(24, seed=8, variety=0.0, text_bytes=40)
    for i in range(4, 20):
        events[i]["payload"] = shaped_payload("tuplelog", rng, 900)
    for encode in (_dump, lambda e: json.dumps(e, separators=(",", ":"),
                                               ensure_ascii=False).encode()):
        lines = [encode(e) for e in chain_events(events)]
        assert JCS.summarise(join(lines[4:20]), *_summary_args()) is not None
        rep = assert_same_reports(join(lines), monkeypatch, 2048)
        assert rep["verdict"] == "pass", rep["findings"]
        first = events[8]["payload"]["rows"][0]
        row, edited = (json.dumps(r, separators=(",", ":"), ensure_ascii=False).encode()
                       for r in (first, first[:6] + [not first[6]] + first[7:]))
        if encode is _dump:
            row, edited = orjson.dumps(first), orjson.dumps(first[:6] + [not first[6]] + first[7:])
        assert row in lines[8], row
        lines[8] = lines[8].replace(row, edited)
        rep = assert_same_reports(join(lines), monkeypatch, 2048)
        assert [f["line"] for f in rep["findings"] if f["rule"] == "chain.edited"] == [9]
