"""The C accelerator on small values (session 24, issue 15): a member's `true`, `false` or
`null` copied without parse_value's dispatch (`plain_literal`), the small copies of the parse
(an integer, a member moved into RFC 8785 order) made without a call (`copy_short`: 8- or
16-byte loads and stores that overlap), and a zero float (`0.0`, `-0.0`, `0e5`) spelled
without string_to_double. Held to `canonical_json` (the reference, `check_canonical`) at every
length either side of the copies' steps and at every distance from the text's end, and
through the public verify seam with both engines."""

from __future__ import annotations

import itertools
import random

import pytest
from test_native_fuzz import _dump, assert_same_reports, check_canonical
from test_native_integers import _summary_args
from trajhelp import join

from moderator_app.core.formats import native
from moderator_app.core.samples.trajectory_writer import chain_events, make_run_events

JCS = native.JCS
pytestmark = pytest.mark.skipif(JCS is None, reason="the C accelerator is not built")

LITERALS = [b"true", b"false", b"null"]
MISSPELT = [b"tru", b"fals", b"nul", b"t", b"f", b"n", b"trUe", b"flase", b"nill", b"nulL",
            b"truex", b"falsee", b"falsy", b"null1", b"True", b"NULL", b"fa", b"truefalse"]


def test_member_literals_right_and_misspelt_at_every_distance_from_the_end():
    for k in range(0, 12):
        tail = b'"' + b"z" * k + b'"'
        for word in LITERALS:
            for text in (b'{"b":' + word + b',"a":' + tail + b"}",
                         b'{"a":' + tail + b',"b":' + word + b"}",
                         b'{"b":' + word + b"}", b'{"a":{"c":' + word + b'},"b":' + word + b"}"):
                got = check_canonical(text)
                assert got is not None, text
                for cut in range(1, len(text)):  # every text cut short is declined
                    assert JCS.canonical(text[:-cut]) is None, text[:-cut]
        for word in MISSPELT:
            for text in (b'{"b":' + word + b',"a":' + tail + b"}", b'{"a":' + tail + b',"b":'
                         + word + b"}", b'{"b":' + word + b"}"):
                assert JCS.canonical(text) is None, text


def test_members_moved_at_every_length_around_the_copy_steps():
    """Members of 1 to 70 bytes, written in reverse order: each moved to its place by
    reorder's copies, of every length either side of 4, 8, 16 and 32 bytes."""
    for n in range(0, 66):
        for value in (b"1" * min(n, 15) or b"0", b'"' + b"v" * n + b'"', b"[" + b"7," * n + b"7]",
                      b"true", b"null"):
            for names in ((b"z", b"y", b"x"), (b"zz", b"a"), (b"b", b"a", b"c", b"ab")):
                text = b"{" + b",".join(b'"' + k + b'":' + value for k in names) + b"}"
                check_canonical(text)
                nested = b'{"q":' + text + b',"p":[' + text + b"," + text + b"]}"
                got = check_canonical(nested)
                assert got is not None, nested


def _node(rng: random.Random, depth: int) -> dict:
    names = rng.sample(["a", "b", "c", "hp", "id", "x", "y", "vx", "ok", "on"], rng.randint(2, 4))
    out: dict = {}
    for i, name in enumerate(names):
        out[name] = (_node(rng, depth - 1) if depth and i == 0
                     else rng.choice((True, False, None, rng.randrange(100), -rng.randrange(9))))
    return out


def test_generated_small_object_trees_canonical_bytes():
    rng = random.Random(24)
    import orjson

    for _ in range(3000):
        text = orjson.dumps(_node(rng, rng.randrange(9)))
        assert check_canonical(text) is not None, text
    for perm in itertools.permutations([b'"a":true', b'"b":false', b'"c":null', b'"d":12']):
        text = b"{" + b",".join(perm) + b"}"
        assert check_canonical(text)[0] == b'{"a":true,"b":false,"c":null,"d":12}'


def test_small_object_chain_verdicts(monkeypatch):
    """Trees of small objects as payloads of a valid chain (the accelerator vouching for the
    block), then one flag edited (line 9 alone edited), then one misspelt (line 12: invalid
    JSON there; line 13's link cannot be checked)."""
    rng = random.Random(7)
    events = make_run_events(24, seed=24, variety=0.0, text_bytes=40)
    for i in range(3, 22):
        events[i]["payload"] = {"state": [_node(rng, 6) for _ in range(4)], "done": False}
    lines = [_dump(e) for e in chain_events(events)]
    assert JCS.summarise(join(lines[3:20]), *_summary_args()) is not None
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert rep["verdict"] == "pass", rep["findings"]
    lines[8] = lines[8].replace(b'"done":false', b'"done":true', 1)
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert [f["line"] for f in rep["findings"] if f["rule"] == "chain.edited"] == [9]
    lines[11] = lines[11].replace(b'"done":false', b'"done":fals', 1)
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert [f["line"] for f in rep["findings"] if f["rule"] == "chain.edited"] == [9]
    assert [f["line"] for f in rep["findings"] if f["rule"] == "traj.json"] == [12]
    assert [f["line"] for f in rep["findings"] if f["rule"] == "chain.link"] == [13]


def test_zero_floats_every_spelling():
    """Every way JSON spells a zero float: the bytes and the spelling facts of the reference
    (RFC 8785 writes `0` for `-0.0` too), alone, in an array and as a member; one of 511
    bytes or more is still declined (the Python path's)."""
    signs, exps = (b"", b"-"), (b"", b"e0", b"E+5", b"e-400", b"e00", b"E-0")
    for sign, zeros, exp in itertools.product(signs, range(0, 12), exps):
        token = sign + b"0" + (b"." + b"0" * zeros if zeros else b"") + exp
        if token in (b"0", b"-0"):
            continue
        for text in (token, b"[" + token + b",1.5]", b'{"b":' + token + b',"a":[' + token + b"]}"):
            got = check_canonical(text)
            assert got is not None and b"-" not in got[0], text
    for invalid in (b"0.", b"-0.e1", b"0e", b"0e+", b"00.0", b"-.0", b"0.0.0"):
        assert JCS.canonical(b"[" + invalid + b"]") is None, invalid
    assert JCS.canonical(b"[0." + b"0" * 506 + b"]") is not None  # a 508-byte token
    assert JCS.canonical(b"[0." + b"0" * 510 + b"]") is None  # 512 bytes: declined as before
