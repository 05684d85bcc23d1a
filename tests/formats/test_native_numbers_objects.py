"""The C accelerator's small-object reorder and float digits (`reorder_small`, `token_digits`
in _jcs.c; session 24, issue 15) held to RFC 8785's exact bytes, to the spelling facts and to
the chain's verdicts.

An object body of at most 256 bytes is reordered through a copy, 16 bytes a step past each
member's end, past the members already in place: members of every length around the 16-byte
steps, in every order, and bodies around the 256-byte bound are checked against
`canonical_json` (the reference), nested.

A float token's significant digits (up to 17) are read from the line 8 a step, across its
`.`; their value decides whether the token is its double's shortest spelling (then it is
written as it stands). A wrong value could take a token that is not the shortest as it
stands: tokens of every digit count and point place, shortest and not, are checked against
the reference. The `numbers` and `detections` shapes go through the public verify seam with
the accelerator on, off and line by line (`assert_same_reports`).
"""

from __future__ import annotations

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


def _digits_token(rng: random.Random, k: int) -> str:
    """A decimal of k significant digits (first and last not 0), the point anywhere from
    `0.000ddd` to `ddd000`, or an exponent."""
    d = str(rng.randint(1, 9)) + "".join(str(rng.randint(0, 9)) for _ in range(k - 2))
    d = d + str(rng.randint(1, 9)) if k > 1 else d
    place = rng.randint(-4, k + 3)
    if rng.random() < 0.25:
        return f"{d[0]}.{d[1:]}e{rng.randint(-30, 30)}" if k > 1 else f"{d}e{rng.randint(-30, 30)}"
    if place <= 0:
        return "0." + "0" * -place + d
    if place >= k:
        return d + "0" * (place - k) + ".0"
    return d[:place] + "." + d[place:]


def test_float_tokens_of_every_digit_count():
    """1 to 19 significant digits (the 8-digit steps' edges: 7-9, 15-17), as written by hand
    (often not the shortest spelling of their double) and as repr writes that double: the
    bytes and facts the reference gives, none declined."""
    rng = random.Random(24)
    for k in range(1, 20):
        for _ in range(400):
            token = _digits_token(rng, k)
            x = float(token)
            for t in {token, repr(x), "-" + token, repr(-x)}:
                text = b'{"b":[' + t.encode() + b'],"a":' + t.encode() + b"}"
                got = check_canonical(text)
                assert got is not None, text
                assert got[0] == canonical_json(json.loads(text)), text


def test_seventeen_digit_tokens_one_digit_off_are_respelled():
    """A shortest 16- or 17-digit token with one digit changed is mostly not its double's
    shortest spelling: whichever digit changed (each of the three 8-digit steps), the token
    comes out as the reference spells its double, never as it stands when that differs."""
    rng = random.Random(8)
    respelled = 0
    for _ in range(3000):
        token = repr(rng.random() * 10.0 ** rng.randint(-3, 3))
        digits = [i for i, c in enumerate(token) if c.isdigit()]
        i = rng.choice(digits[1:])
        token = token[:i] + str((int(token[i]) + rng.randint(1, 9)) % 10) + token[i + 1:]
        if token.endswith("0"):
            continue
        got = check_canonical(b"[" + token.encode() + b"]")
        assert got is not None, token
        respelled += got[0] != b"[" + token.encode() + b"]"
    assert respelled > 500  # (the check above sees both kinds)


def _key(rng: random.Random) -> str:
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz_") for _ in range(rng.randint(1, 15)))


def _value(rng: random.Random, depth: int):
    r = rng.random()
    if r < 0.3:
        return "v" * rng.randint(0, 40)
    if r < 0.5:
        return rng.randrange(-10**6, 10**6)
    if r < 0.6:
        return rng.random()
    if r < 0.7:
        return rng.choice((True, False, None))
    if r < 0.8:
        return [rng.randrange(200) for _ in range(rng.randint(0, 5))]
    if depth > 0:
        return _object(rng, depth - 1)
    return "x"


def _object(rng: random.Random, depth: int) -> dict:
    return {_key(rng): _value(rng, depth) for _ in range(rng.randint(1, 9))}


def test_small_objects_every_member_length():
    """Two to sixteen members of 1 to 60 bytes each (every offset against 16), in every
    order, nested 0-4 deep: the reference's bytes."""
    rng = random.Random(16)
    for _ in range(4000):
        value = _object(rng, rng.randint(0, 4))
        text = orjson.dumps(value)
        got = check_canonical(text)
        assert got is not None and got[0] == canonical_json(value), text
    # members whose lengths step through 16 bytes, reversed (all out of place)
    for n in range(2, 17):
        for pad in range(0, 33):
            value = {f"k{i:02d}": "w" * ((pad + i) % 33) for i in range(n)}
            text = orjson.dumps(dict(reversed(list(value.items()))))
            got = check_canonical(text)
            assert got is not None and got[0] == canonical_json(value), text


def test_bodies_around_the_small_bound():
    """Bodies of 240-272 bytes (the small reorder up to 256, the general one past it), alone,
    followed by more of the line, and inside an unsorted object."""
    for size in range(240, 273):
        for n in (2, 3, 5):
            base = {f"m{i}": 1 for i in range(n)}
            # `"m0":1` becomes `"m0":"zz..z"`: the body grows by the string's length + 1
            fill = size - (len(orjson.dumps(base)) - 2) - 1
            value = dict(base, m0="z" * fill)
            value = dict(reversed(list(value.items())))
            body = len(orjson.dumps(value)) - 2
            assert body == size, (size, n)
            for text in (orjson.dumps(value), orjson.dumps({"z": value, "a": [value, 7]}),
                         orjson.dumps([value, {"b": value, "a": 0}])):
                got = check_canonical(text)
                assert got is not None and got[0] == canonical_json(json.loads(text)), text


@pytest.mark.parametrize("shape", ["numbers", "detections"])
def test_shapes_chain_verdicts(shape, monkeypatch):
    """The shape's payloads in a valid chain (every engine passes it, the accelerator vouching
    for the block), then one member edited in line 9: chain.edited there alone."""
    rng = random.Random(24)
    events = make_run_events(24, seed=7, variety=0.0, text_bytes=40)
    for i in range(4, 20):
        events[i]["payload"] = shaped_payload(shape, rng, 1200)
    lines = [_dump(e) for e in chain_events(events)]
    assert JCS.summarise(join(lines[4:20]), *_summary_args()) is not None
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert rep["verdict"] == "pass", rep["findings"]
    edited = orjson.loads(lines[8])
    first = edited["payload"]["samples" if shape == "numbers" else "detections"][0]
    if shape == "numbers":
        first["v"] = first["v"] / 2 + 0.25  # another 17-digit float
    else:
        first["label"] = "ghost"
    lines[8] = _dump(edited)
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert [f["line"] for f in rep["findings"] if f["rule"] == "chain.edited"] == [9]
