"""The C accelerator's plain-integer and array fast paths (`plain_integer`, `parse_array` in
_jcs.c; session 20, issue 15) held to RFC 8785's exact bytes and to the chain's verdicts.

An integer element or member value that is its own canonical form is copied as it stands,
before `,`, `]` or `}`; a nested array and a string element are parsed without
`parse_value`'s dispatch. Every token the fast path may meet at every place it may meet it is
checked here against `canonical_json` (the reference), and generated trees of random doubles,
boundary exponents, -0, 1e21, 5e-324 and integers near 2^53 go through the public verify seam
with the accelerator on, off and line by line (`assert_same_reports`).
"""

from __future__ import annotations

import json
import random

import orjson
import pytest
from test_native_fuzz import _dump, assert_same_reports, check_canonical
from trajhelp import join

from moderator_app.core.formats import native
from moderator_app.core.samples.trajectory_writer import chain_events, make_run_events

JCS = native.JCS
pytestmark = pytest.mark.skipif(JCS is None, reason="the C accelerator is not built")

# (token, what C must give for it: its canonical bytes, or None for a token it must decline)
TOKENS = [
    (b"0", b"0"), (b"7", b"7"), (b"-1", b"-1"), (b"42", b"42"), (b"10", b"10"),
    (b"123456789012345", b"123456789012345"), (b"-999999999999999", b"-999999999999999"),
    (b"1234567890123456", b"1234567890123456"), (b"9007199254740991", b"9007199254740991"),
    (b"-9007199254740991", b"-9007199254740991"),
    (b"-0", b"0"),  # not its own form: parse_number writes 0
    (b"9007199254740992", None), (b"9007199254740993", None),  # beyond 2^53 - 1: Python's rule
    (b"10000000000000000", None), (b"12345678901234567890", None),
]
# tokens that are not integers as they stand: the fast path must leave them to parse_value
OTHER = [(b"1.0", b"1"), (b"1e2", b"100"), (b"1E21", b"1e+21"), (b"5e-324", b"5e-324"),
         (b"-0.0", b"0"), (b"0.1", b"0.1")]
INVALID = [b"01", b"-01", b"00", b"-", b"1.", b"--1", b"0x1", b"1 "]
PLACES = [b"[%s]", b"[1,%s]", b"[%s,1]", b"[[[%s]]]", b'["x",%s,"y"]', b'{"a":%s}',
          b'{"b":1,"a":%s}', b'{"a":%s,"b":1}', b'{"a":[%s]}', b'[{"a":%s}]', b'[[1,2],[%s]]',
          b'{"z":[[%s,[%s]],%s]}']


def _fill(place: bytes, token: bytes) -> bytes:
    return place.replace(b"%s", token)


@pytest.mark.parametrize("place", PLACES, ids=range(len(PLACES)))
def test_integer_tokens_exact_bytes_at_every_place(place):
    for token, want in TOKENS + OTHER:
        text = _fill(place, token)
        got = check_canonical(text)  # never a wrong byte: the reference's or declined
        if want is None:
            assert got is None, text
            continue
        assert got is not None, text
        expect = _fill(place, want)
        if expect.startswith(b"{"):  # members in RFC 8785 order
            expect = json.dumps(json.loads(expect), sort_keys=True,
                                separators=(",", ":")).encode()
        assert got[0] == expect, (text, got[0])


@pytest.mark.parametrize("place", PLACES, ids=range(len(PLACES)))
def test_invalid_integer_tokens_declined_at_every_place(place):
    for token in INVALID:
        assert JCS.canonical(_fill(place, token)) is None, _fill(place, token)


def test_spaced_separators_before_integers():
    """json.dumps' `, ` and `: ` before a fast-path integer: the canonical form has none."""
    assert JCS.canonical(b'[1, 2, [3, 4], 5]')[0] == b"[1,2,[3,4],5]"
    assert JCS.canonical(b'{"b": 2, "a": [1, -0]}')[0] == b'{"a":[1,0],"b":2}'
    assert JCS.canonical(b'[1, 2,3]') is None  # spaced and bare separators mixed


def test_nesting_depth_limit_unchanged():
    """parse_array now recurses into a nested array itself: the MAX_DEPTH limit stands."""
    top = JCS.MAX_DEPTH
    for n, ok in ((top - 1, True), (top, True), (top + 1, False), (300, False)):
        for leaf in (b"1", b'"x"', b"1.5", b"{}"):
            text = b"[" * n + leaf + b"]" * n
            got = JCS.canonical(text)
            # `{}` is a level more: MAX_DEPTH arrays around it are one too many
            assert (got is not None) == (ok and not (n == top and leaf == b"{}")), (n, leaf)
            if got is not None:
                assert got[0] == text
    mixed = b'{"a":' * 20 + b"[" * 40 + b"7" + b"]" * 40 + b"}" * 20
    assert JCS.canonical(mixed)[0] == mixed


_EDGE_FLOATS = [0.0, -0.0, 1e21, 1e20, 9.999999999999999e20, 5e-324, 2.2250738585072014e-308,
                1.7976931348623157e308, 1e-7, 1e-6, 0.1, 0.30000000000000004, 2.0**53,
                2.0**53 + 2, 123456789012345680.0, 1.5e-7, 6.02e23]
_EDGE_INTS = [0, 1, -1, 2**53 - 1, -(2**53 - 1), 2**53 - 2, 10**15, 10**15 - 1, 42]


def _tree(rng: random.Random, depth: int):
    if depth == 0 or rng.random() < 0.3:
        kind = rng.randrange(5)
        if kind == 0:
            return rng.choice(_EDGE_INTS)
        if kind == 1:
            return rng.choice(_EDGE_FLOATS)
        if kind == 2:  # a random double of any exponent
            return rng.choice((-1, 1)) * rng.random() * 10.0 ** rng.randrange(-320, 308)
        if kind == 3:
            return rng.randrange(-1000, 1000)
        return rng.choice(("NP", "x", "", "é", "(", "\n"))
    if rng.random() < 0.2:
        return {f"k{i}": _tree(rng, depth - 1) for i in rng.sample(range(9), rng.randrange(4))}
    return [_tree(rng, depth - 1) for _ in range(rng.randrange(4))]


def test_generated_trees_canonical_bytes():
    rng = random.Random(20)
    for _ in range(3000):
        value = _tree(rng, rng.randrange(1, 12))
        for text in (orjson.dumps(value), json.dumps(value).encode(),
                     json.dumps(value, separators=(",", ":")).encode()):
            check_canonical(text)
        assert check_canonical(orjson.dumps(value)) is not None, value


def test_generated_trees_chain_verdicts(monkeypatch):
    """Trees of edge numbers as payloads of a valid chain (every engine passes it, the
    accelerator vouching for the block), then one of them edited (line 9 alone edited)."""
    rng = random.Random(53)
    events = make_run_events(24, seed=5, variety=0.0, text_bytes=40)
    for i in range(4, 20):
        events[i]["payload"] = {"tree": _tree(rng, 10), "n": rng.choice(_EDGE_INTS),
                                "edge": [rng.choice(_EDGE_FLOATS) for _ in range(6)]}
    lines = [_dump(e) for e in chain_events(events)]
    assert JCS.summarise(join(lines[4:20]), *_summary_args()) is not None
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert rep["verdict"] == "pass", rep["findings"]
    edited = orjson.loads(lines[8])
    edited["payload"]["n"] = 2**53 - 3 if edited["payload"]["n"] != 2**53 - 3 else 7
    lines[8] = _dump(edited)
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert [f["line"] for f in rep["findings"] if f["rule"] == "chain.edited"] == [9]


def _summary_args():
    import moderator_app.core.verify.trajectory as traj
    from moderator_app.core.formats.secrets import MARKERS

    return traj.SCHEMA, MARKERS
