"""Game-state trees nested past 64 levels, every object's keys written in reverse (QA s38
`deepnest`, issue 15): `_jcs` reads them (it declined every line past 64 levels, 58 % of the
run, each then ~0.4 ms in the Python path) with the bytes `canonical_json` gives, and a run of
them has the same report with the accelerator on, off and line by line. Its limit is orjson's:
a line the accelerator reads is one the Python path can re-serialise."""

from __future__ import annotations

import json
import random

import orjson
import pytest
from test_native_fuzz import assert_same_reports, check_canonical
from test_native_integers import _summary_args
from trajhelp import join

from moderator_app.core.formats import native
from moderator_app.core.samples.trajectory_writer import chain_events, make_run_events

JCS = native.JCS
pytestmark = pytest.mark.skipif(JCS is None, reason="the C accelerator is not built")
WORDS = ["idle", "run", "élan", "日本", "ok", "zz"]


def _state(rng: random.Random, levels: int):
    """An object of 1-3 short keys, one of them the child (bare or in an array of one)."""
    if levels == 0:
        return rng.choice([rng.randint(-9, 99), True, False, None, rng.choice(WORDS)])
    names = rng.sample(["c", "hp", "id", "k", "n", "on", "t", "v", "xy", "L"], rng.randint(1, 3))
    obj = {name: _state(rng, 0) for name in names}
    child = _state(rng, levels - 1)
    obj[names[0]] = [child] if rng.random() < 0.6 else child
    return obj


def _reversed(value):
    """The value with every object's keys in reverse sorted order (the QA writer's)."""
    if isinstance(value, dict):
        return {k: _reversed(value[k]) for k in sorted(value, reverse=True)}
    if isinstance(value, list):
        return [_reversed(v) for v in value]
    return value


def _line(value) -> bytes:
    return json.dumps(_reversed(value), separators=(",", ":"), ensure_ascii=False).encode()


def test_the_limit_is_orjsons():
    """The accelerator reads as deep as orjson writes (jsonline.TOO_DEEP), not one level more."""
    for n, ok in ((JCS.MAX_DEPTH, True), (JCS.MAX_DEPTH + 1, False)):
        value = 1
        for _ in range(n):
            value = [value]
        try:
            orjson.dumps(value)
            written = True
        except TypeError:
            written = False
        assert written == ok, n
        assert (check_canonical(orjson.dumps(value) if ok else _line(value)) is not None) == ok, n


def test_deep_reversed_trees_read_with_the_reference_bytes():
    rng = random.Random(38)
    for levels in (20, 31, 40, 63, 90, 120):
        text = _line({"tick": 1, "state": [_state(rng, levels)]})
        got = check_canonical(text)
        assert got is not None, levels  # read, not declined
        assert got[0] == orjson.dumps(json.loads(text), option=orjson.OPT_SORT_KEYS)


def test_a_run_of_deep_trees_same_report_on_every_engine(monkeypatch):
    """A valid chain of deep reversed trees passes on every engine, the accelerator vouching
    for the block; one edited line is found on line 9 by each."""
    rng = random.Random(15)
    events = make_run_events(24, seed=7, variety=0.0, text_bytes=40)
    for i in range(4, 20):
        events[i]["payload"] = {"tick": i, "state": [_state(rng, rng.randint(30, 45))]}
    lines = [_line(e) for e in chain_events(events)]
    assert JCS.summarise(join(lines[4:20]), *_summary_args()) is not None
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert rep["verdict"] == "pass", rep["findings"]
    edited = json.loads(lines[8])
    edited["payload"]["tick"] = 999
    lines[8] = _line(edited)
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert [f["line"] for f in rep["findings"] if f["rule"] == "chain.edited"] == [9]
