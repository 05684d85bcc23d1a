"""The C accelerator's test of a 16- or 17-digit float token without Ryu (`shortest16`,
`shortest17` in _jcs.c; session 25, issue 15) held to RFC 8785's exact bytes and to the
chain's verdicts.

A token of 16 significant digits D * 10^-j (D <= 2^53, j <= 22) reads as D / 10^j rounded
once; it is its double's shortest spelling when neither 15-digit decimal either side of it
reads as the same double and the double lies within 1/2 of D at that scale. At 17 digits
(D / 10 < 2^53) D / 10^j may be a unit off: the double is checked by the same residual, and
its neighbour tried. A wrong answer
writes a token as it stands where the reference respells it (or the reverse): tokens shortest
and not, the 16-digit decimals either side of random doubles and of doubles beside powers of
two (where what reads as a double is lopsided), are checked against `canonical_json`, and the
`points` shape goes through the public verify seam with the accelerator on, off and line by
line (`assert_same_reports`).
"""

from __future__ import annotations

import json
import math
import random
import struct
from decimal import Decimal, getcontext

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


def _plain(digits: str, j: int) -> str:
    """`digits` with the point j places from the right (a leading `0.` and zeros as needed)."""
    p = len(digits) - j
    return digits[:p] + "." + digits[p:] if p > 0 else "0." + "0" * -p + digits


def _grid(x: float, k: int = 16) -> list[str]:
    """The k-digit decimals either side of x (and more each way), plainly spelt."""
    if not (x > 0 and math.isfinite(x)):
        return []
    j = k - 1 - math.floor(math.log10(x))
    if not 1 <= j <= 23:
        return []
    getcontext().prec = 60
    v = int(Decimal(x) * Decimal(10) ** j)
    return [_plain(str(d), j) for d in range(v - 2, v + 4)
            if 10 ** (k - 1) <= d < 10**k and d % 10]


def _respelled(tokens: list[str]) -> tuple[int, int]:
    """Each token (and its negation) against the reference; (as it stands, respelled)."""
    same = other = 0
    for t in tokens:
        text = f"[{t},-{t}]".encode()
        got = check_canonical(text)
        assert got is not None, text
        assert got[0] == canonical_json(json.loads(text)), text
        if got[0] == text:
            same += 1
        else:
            other += 1
    return same, other


def test_random_sixteen_digit_tokens():
    """D from 10^15 to 2^53, the point 1 to 22 places from the right: shortest or not."""
    rng = random.Random(1616)
    tokens = []
    for _ in range(20000):
        d = rng.randrange(10**15, 2**53 + 1)
        d += d % 10 == 0
        tokens.append(_plain(str(d), rng.randint(1, 22)))
    same, other = _respelled(tokens)
    assert same > 1000 and other > 1000, (same, other)


def test_random_seventeen_digit_tokens():
    """D from 10^16 to 10 * 2^53 (its 16-digit neighbours exact doubles) and past it, the
    point 1 to 23 places from the right: mostly not the shortest, some the shortest."""
    rng = random.Random(1717)
    tokens = []
    for _ in range(20000):
        d = rng.randrange(10**16, 10**17)
        d += d % 10 == 0
        tokens.append(_plain(str(d), rng.randint(1, 23)))
    same, other = _respelled(tokens)
    assert same > 100 and other > 10000, (same, other)


def test_the_decimals_either_side_of_doubles():
    """The 16- and 17-digit decimals nearest random doubles of 1e-7 to 1e15 (one of them often
    the shortest spelling, the others read as it or as a neighbour), and as repr writes
    them."""
    rng = random.Random(53)
    tokens = []
    for _ in range(6000):
        x = rng.uniform(1, 10) * 10.0 ** rng.randint(-7, 14)
        tokens += _grid(x) + _grid(x, 17) + [repr(x)]
    same, other = _respelled(tokens)
    assert same > 3000 and other > 3000, (same, other)


def test_doubles_beside_powers_of_two():
    """At a power of two what reads as the double is narrower below it than above: the
    16- and 17-digit decimals either side of 2^e and of its three neighbours each way."""
    tokens = []
    for e in range(-23, 50):
        bits = struct.unpack("<q", struct.pack("<d", 2.0**e))[0]
        for step in range(-3, 4):
            x = struct.unpack("<d", struct.pack("<q", bits + step))[0]
            tokens += _grid(x) + _grid(x, 17) + [repr(x)]
    same, other = _respelled(tokens)
    assert same > 100 and other > 100, (same, other)


def test_points_chain_verdicts(monkeypatch):
    """The `points` shape (5-member objects of full-precision floats) in a valid chain (every
    engine passes it, the accelerator vouching for the block), then one float's last digit
    changed in line 9: chain.edited there alone."""
    rng = random.Random(16)
    events = make_run_events(24, seed=7, variety=0.0, text_bytes=40)
    for i in range(4, 20):
        events[i]["payload"] = shaped_payload("points", rng, 1200)
    lines = [_dump(e) for e in chain_events(events)]
    assert JCS.summarise(join(lines[4:20]), *_summary_args()) is not None
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert rep["verdict"] == "pass", rep["findings"]
    edited = orjson.loads(lines[8])
    first = next(v for v in orjson.loads(orjson.dumps(edited["payload"])).values()
                 if isinstance(v, list))[0]
    name = next(k for k, v in first.items() if isinstance(v, float) and len(repr(v)) > 15)
    text = lines[8]
    old = orjson.dumps(first[name])
    at = text.index(old)
    last = old[-1:]
    new = old[:-1] + (b"3" if last != b"3" else b"7")
    lines[8] = text[:at] + new + text[at + len(old):]
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert [f["line"] for f in rep["findings"] if f["rule"] == "chain.edited"] == [9]
