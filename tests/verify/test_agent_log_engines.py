"""Both agent-log engines give the same report: the C run of steady lines (`_skim.c`, through
`agent_log/skim.py`) and the pure-Python path (MODERATOR_APP_NATIVE=0), on edge lines and on
random values, and the C side does consume what it should (so that these tests compare two
engines, not one with itself)."""

from __future__ import annotations

import copy

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moderator_app.core.formats import native
from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths

pytestmark = pytest.mark.skipif(native.SKIM is None, reason="the C accelerator is not built")


def _report(path, monkeypatch, engine: str) -> bytes:
    with monkeypatch.context() as m:
        if engine == "python":
            m.setattr(native, "SKIM", None)
        rep = verify_paths([path], VerifyOptions(probe_video=False)).report
    return orjson.dumps(rep.to_dict(), option=orjson.OPT_SORT_KEYS)


def both(tmp_path, monkeypatch, lines: list[bytes]) -> dict:
    """Verify the raw lines with both engines; assert the same report; return it."""
    path = tmp_path / "agent-log.jsonl"
    path.write_bytes(b"".join(x + b"\n" for x in lines))
    c, py = _report(path, monkeypatch, "c"), _report(path, monkeypatch, "python")
    assert c == py
    return orjson.loads(c)


@pytest.fixture(scope="module")
def log_lines(tmp_path_factory) -> list[bytes]:
    path = tmp_path_factory.mktemp("log") / "agent-log.jsonl"
    make_agent_log(path, 60, seed=3, message_bytes=300)
    return path.read_bytes().split(b"\n")[:-1]


def _skim_state(lines: list[bytes]):
    """The checker's state after the first line of `lines`, as skim wants it."""
    first = orjson.loads(lines[0])
    from moderator_app.core.verify.agent_log.timestamps import parse_at

    at = parse_at(first["at"])[0]
    return first["seq"] + 1, at, first["elapsedMs"], first["elapsedMs"], at, 0.0


def _skim(block: bytes, state) -> int:
    seq, prev_at, prev_el, good_el, base_at, base_el = state
    got = native.SKIM.skim(block, 0, seq, prev_at, prev_el, good_el, base_at, base_el,
                           120_000.0, 16 << 20, None, lambda *a: None)
    return got[1]


def test_skim_consumes_a_clean_log_to_its_run_end(log_lines):
    state = _skim_state(log_lines)
    block = b"".join(x + b"\n" for x in log_lines[1:])
    assert _skim(block, state) == len(log_lines) - 2  # all but run_start and run_end


# (what to do to one line, the finding it raises or None) for lines the C side must decline
# or pass exactly as the Python path does.
EDGES = [
    (lambda b: b.replace(b'"data":{', b'"data":{"a":1,"a":2,', 1), "log.duplicate_member"),
    (lambda b: b.replace(b'{"seq"', b'{"type":"x","seq"', 1), "log.duplicate_member"),
    (lambda b: b.replace(b'"data":{', b'"data":{"k":{"x":[1,{"y":2,"y":3}]},', 1),
     "log.duplicate_member"),
    (lambda b: b.replace(b'"data":{', b'"data":{' + b",".join(
        b'"k%d":%d' % (i, i) for i in range(40)) + b',"k7":0,', 1), "log.duplicate_member"),
    (lambda b: b.replace(b'"data":{', b'"data":{' + b",".join(
        b'"k%d":%d' % (i, i) for i in range(5000)) + b",", 1), None),
    (lambda b: b.replace(b'"data":{', b'"data":{"\\u0061":1,"a":2,', 1), "log.duplicate_member"),
    (lambda b: b.replace(b'"data":{', b'"data":{"x":' + b"[" * 64 + b"]" * 64 + b",", 1), None),
    (lambda b: b.replace(b'"data":{', b'"data":{"x":' + b"[" * 65 + b"]" * 65 + b",", 1), None),
    (lambda b: b.replace(b'"data":{', b'"data":{"x":' + b"[" * 300 + b"]" * 300 + b",", 1),
     "log.json"),
    (lambda b: b"\xef\xbb\xbf" + b, "log.json"),
    (lambda b: b + b"\r", "log.crlf"),
    (lambda b: b + b" ", None),
    (lambda b: b.replace(b'":', b'" : ', 3), None),
    (lambda b: b.replace(b'"data":{', b'"data":{"x":"' + b"ab\\n\xc3\xa9" * 250_000 + b'",', 1),
     None),
    (lambda b: b.replace(b'"data":{', b'"data":{"x":"\xff",', 1), "log.utf8"),
    (lambda b: b.replace(b'"data":{', b'"data":{"x":"\xed\xa0\x80",', 1), "log.utf8"),
    (lambda b: b.replace(b'"data":{', b'"data":{"x":"\xf4\x90\x80\x80",', 1), "log.utf8"),
    (lambda b: b.replace(b'"data":{', b'"data":{"x":"\xc0\xaf",', 1), "log.utf8"),
    (lambda b: b.replace(b'"data":{', b'"data":{"x":"\\ud800",', 1), None),
    (lambda b: b.replace(b'"data":{', b'"data":{"x":"\\udc00\\ud800",', 1), None),
    (lambda b: b.replace(b'"data":{', b'"data":{"x":"\\ud83d\\ude00\xf0\x9f\x98\x80",', 1),
     None),
    (lambda b: b.replace(b'"data":{', b'"data":{"x":"\x01",', 1), "log.json"),
    (lambda b: b.replace(b'"data":{', b'"data":{"x":123456789012345678901234567890,', 1), None),
    (lambda b: b.replace(b'"data":{', b'"data":{"x":18446744073709551616,', 1), None),
    (lambda b: b.replace(b'"data":{', b'"data":{"x":1e400,', 1), "log.json"),
    (lambda b: b.replace(b'"data":{', b'"data":{"x":1' + b"0" * 400 + b",", 1), "log.json"),
    (lambda b: b.replace(b'"data":{', b'"data":{"x":-0.0e-400,', 1), None),
    (lambda b: b.replace(b'"data":{', b'"data":{"x":01,', 1), "log.json"),
    (lambda b: b.replace(b'"data":{', b'"data":{"x":1.,', 1), "log.json"),
    (lambda b: b.replace(b'"data":{', b'"data":{"x":NaN,', 1), "log.json"),
    (lambda b: b.replace(b'"data":{', b'"data":{"x":[1,],', 1), "log.json"),
    (lambda b: b.replace(b'"data":{', b'"data":{"withheld":true,', 1), None),
    (lambda b: b.replace(b'"data":{', b'"data":{"withheld":1,', 1), None),
    (lambda b: b.replace(b'"elapsedMs":', b'"elapsedMs":0.5+', 1), "log.json"),
    (lambda b: b.replace(b',"type"', b'.25,"type"', 1), None),
    (lambda b: b.replace(b',"type"', b'.123456789012345678,"type"', 1), None),
    (lambda b: b.replace(b',"type"', b'e0,"type"', 1), None),
    (lambda b: b.replace(b'"elapsedMs":', b'"elapsedMs":-', 1), None),
    (lambda b: b.replace(b'"elapsedMs":', b'"elapsedMs":99999999999999', 1), None),
    (lambda b: b.replace(b'"seq":', b'"seq":1', 1), "log.seq"),
    (lambda b: b.replace(b'"seq":', b'"seq":1e1,"s":', 1), "log.seq"),
    (lambda b: b.replace(b'"seq":', b'"seq":99999999999999999999,"s":', 1), "log.seq"),
    (lambda b: b.replace(b'Z"', b'+00:00"', 1), None),
    (lambda b: b.replace(b'Z"', b'"', 1), None),
    # lax spellings CPython accepts but the `at` shape does not (issue 15): both engines refuse
    (lambda b: b.replace(b'Z"', b'z"', 1), "log.at_format"),
    (lambda b: b.replace(b'T18:', b't18:', 1), "log.at_format"),
    (lambda b: b.replace(b'T18:', b' 18:', 1), "log.at_format"),
    (lambda b: b.replace(b'Z"', b'+00:00:00"', 1), "log.at_format"),
    (lambda b: b.replace(b'Z"', b'0' * 27 + b'Z"', 1), "log.at_format"),
    (lambda b: b.replace(b'Z"', b'-00:00"', 1), "log.at_not_utc"),
    (lambda b: b.replace(b'"at":"2026-10-22T', b'"at":"2026-W43-4T', 1), "log.at_format"),
    (lambda b: b.replace(b'T18:', b'T24:', 1), None),
    (lambda b: b.replace(b'Z"', b'123456Z"', 1), None),
    (lambda b: b.replace(b'Z"', b'1234567Z"', 1), None),
    (lambda b: b.replace(b'.', b'', 1) if b.count(b'Z"') else b, None),
    (lambda b: b.replace(b'"at":"2026', b'"at":"2025', 1), "log.at_order"),
    (lambda b: b.replace(b'"at":"2026-10-22', b'"at":"2026-02-30', 1), "log.at_format"),
    (lambda b: b.replace(b'"at":"2026', b'"at":"\\u0032026', 1), None),
    (lambda b: b.replace(b'"type":"', b'"type":"x', 1), "log.type_unknown"),
    (lambda b: b.replace(b'"data":{', b'"data":[{', 1)[:-1] + b"]}", None),
]


@pytest.mark.parametrize("case", range(len(EDGES)))
def test_edge_lines_same_report_both_engines(tmp_path, monkeypatch, log_lines, case):
    mutate, rule = EDGES[case]
    for k in (5, 6, 7, 8, 9):  # a request, a response, an action and what follows them
        lines = list(log_lines)
        lines[k] = mutate(lines[k])
        rep = both(tmp_path, monkeypatch, lines)
        rules = {f["rule"] for f in rep["findings"]}
        if rule is not None:
            assert rule in rules, (k, rules)
        if k == 5 and lines[k] != log_lines[k]:
            # the C side declines the line (or, valid and in order, vouches for it exactly)
            state = _skim_state(log_lines)
            head = b"".join(x + b"\n" for x in log_lines[1:5])
            assert _skim(head + lines[k] + b"\n", state) in (4, 5)


def _retime(lines: list[bytes], k: int, ms: float, at_too: bool) -> list[bytes]:
    """Lines from k on later by `ms` in elapsedMs (and in `at`, when at_too)."""
    from datetime import datetime, timedelta

    from moderator_app.core.samples.community import format_at

    out = []
    for x in lines[k:]:
        ev = orjson.loads(x)
        ev["elapsedMs"] += ms
        if at_too:
            at = datetime.fromisoformat(ev["at"].replace("Z", "+00:00"))
            ev["at"] = format_at(at + timedelta(milliseconds=ms))
        out.append(orjson.dumps(ev))
    return lines[:k] + out


@pytest.mark.parametrize(("k", "ms", "at_too", "rule"), [
    (20, 130_000, True, "log.gap"), (20, 119_000, True, None),
    (20, 2_500, False, "log.elapsed_drift"), (20, 1_999, False, None),
    (20, -5_000, False, "log.elapsed_order"), (20, -5_000, True, "log.at_order"),
    (1, 9_000, False, "log.elapsed_drift"), (30, 0.5, False, None)])
def test_timing_findings_same_both_engines(tmp_path, monkeypatch, log_lines, k, ms, at_too,
                                           rule):
    rep = both(tmp_path, monkeypatch, _retime(list(log_lines), k, ms, at_too))
    rules = {f["rule"] for f in rep["findings"]}
    assert rule is None or rule in rules


@pytest.mark.parametrize("edit", ["missing", "repeat", "mid_end", "blank", "first", "withheld"])
def test_structure_findings_same_both_engines(tmp_path, monkeypatch, log_lines, edit):
    lines = list(log_lines)
    if edit == "missing":
        del lines[20]
    elif edit == "repeat":
        lines.insert(20, lines[20])
    elif edit == "mid_end":
        lines.insert(20, lines[-1])
    elif edit == "blank":
        lines.insert(20, b"")
    elif edit == "first":
        lines.insert(0, lines[5])
    else:
        lines = [x.replace(b'"data":{', b'"data":{"withheld":true,', 1)
                 if b'"model_request"' in x else x for x in lines]
    rep = both(tmp_path, monkeypatch, lines)
    assert rep["verdict"] in ("pass", "fail")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=5),
    max_leaves=16)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.integers(1, 12), st.sampled_from(["data", "top", "seq", "at", "elapsedMs", "type",
                                             "call", "name", "args", "id", "actions"]),
       st.text(max_size=6), json_values)
def test_random_values_same_report_both_engines(tmp_path, monkeypatch, log_lines, k, where,
                                                key, value):
    events = [orjson.loads(x) for x in log_lines]
    ev = copy.deepcopy(events[k])
    if where == "data":
        ev["data"][key] = value
    elif where == "top":
        ev[key] = value
    elif where in ev:
        ev[where] = value
    else:
        ev["data"][where] = value
    try:
        raw = orjson.dumps(ev)
    except TypeError:
        return  # a value orjson cannot write
    lines = list(log_lines)
    lines[k] = raw
    both(tmp_path, monkeypatch, lines)


@settings(max_examples=300, deadline=None)
@given(st.floats(0, 1999, allow_nan=False) | st.integers(0, 1999))
def test_skim_reads_elapsed_as_orjson_does(el):
    """The C side's elapsedMs is orjson's value, int or float, to the last bit."""
    token = orjson.dumps(el)  # repr-like: up to 17 significant digits
    at = "2026-10-22T18:00:00.000Z"
    line = b'{"seq":1,"at":"%s","elapsedMs":%s,"type":"observation","data":{}}\n' % (
        at.encode(), token)
    from moderator_app.core.verify.agent_log.timestamps import parse_at

    t = parse_at(at)[0]
    got = native.SKIM.skim(line, 0, 1, t, 0, 0, t, 0.0, 120_000.0, 16 << 20, None, None)
    if b"e" in token:  # an exponent: declined
        assert got[1] == 0
        return
    assert got[1] == 1
    assert type(got[4]) is type(orjson.loads(token)) and got[4] == orjson.loads(token)


@pytest.mark.parametrize(("at", "near"), [
    ("2026-10-22T18:00:01Z", None), ("2026-10-22T18:00:01.5Z", None),
    ("2026-10-22T18:00:01.123456789Z", None), ("2026-10-22T18:00:01.250+00:00", None),
    ("2024-02-29T00:00:00Z", None), ("0001-01-01T00:00:00Z", None),
    ("9999-12-31T23:59:59.999999Z", None),
    # not read by the C side; `near` is what a careless reader would make of them, given as
    # the run's start so that only the reading of `at` can decline the line
    ("2026-10-22T18:00:01.1234567891Z", "2026-10-22T18:00:01.123456Z"),
    ("2100-02-29T00:00:00Z", "2100-03-01T00:00:00Z"),
    ("2026-10-22T18:00:60Z", "2026-10-22T18:01:00Z"),
    ("2026-10-22T24:00:00Z", "2026-10-23T00:00:00Z"),
    ("2026-10-22 18:00:01Z", "2026-10-22T18:00:01Z"),
    ("2026-10-22T18:00:01+01:00", "2026-10-22T18:00:01Z"),
    ("2026-10-22T18:00:01", "2026-10-22T18:00:01Z")])
def test_skim_reads_at_as_parse_at_does(at, near):
    from moderator_app.core.verify.agent_log.timestamps import parse_at

    line = b'{"seq":1,"at":"%s","elapsedMs":0,"type":"observation","data":{}}\n' % at.encode()
    base = parse_at(near or at)[0]
    got = native.SKIM.skim(line, 0, 1, -(1 << 62), 0, 0, base, 0.0, 120_000.0, 16 << 20, None,
                           None)
    assert got[1] == (near is None)
    if near is None:
        assert got[3] == parse_at(at)[0]
