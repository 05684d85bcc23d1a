"""Untrusted input never crashes the agent-log verifier: random bytes and random mutations of a
valid log always give a report whose findings point at real lines."""

from __future__ import annotations

import copy

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from loghelp import BASE

from moderator_app.core.formats.streams import iter_lines
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS
from moderator_app.core.verify.agent_log import LogChecker
from moderator_app.core.verify.report import Report

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)


def check_bytes(data: bytes) -> Report:
    import io

    report = Report("community", "fuzz")
    checker = LogChecker(report, "agent-log.jsonl", DEFAULT_THRESHOLDS, None)
    for offset, line in iter_lines(io.BytesIO(data)):
        checker.feed(offset, line)
    checker.finish()
    n_lines = checker.lines
    for f in report.findings:
        assert f.line is None or 1 <= f.line <= n_lines, f
        assert f.file == "agent-log.jsonl"
    return report


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.binary(max_size=60), max_size=12))
def test_random_bytes_never_crash(lines):
    report = check_bytes(b"\n".join(lines))
    assert report.verdict in ("pass", "fail")


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 5), st.sampled_from(["seq", "at", "elapsedMs", "type", "data", "call",
                                           "id", "name", "args", "actions", "model"]),
       json_values)
def test_random_field_mutations_never_crash(index, key, value):
    events = copy.deepcopy(BASE)
    target = events[index] if key in events[index] else events[index]["data"]
    target[key] = value
    try:
        data = b"".join(orjson.dumps(e) + b"\n" for e in events)
    except TypeError:
        return  # a value orjson cannot write (e.g. a lone surrogate): nothing to test
    report = check_bytes(data)
    if report.verdict == "fail":
        assert report.findings.first_error() is not None


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=10), json_values | st.dictionaries(
    st.text(max_size=6), st.none() | st.booleans() | st.integers(-2**60, 2**60)
    | st.text(max_size=10), max_size=5))
def test_action_blob_is_the_canonical_json(name, args):
    from moderator_app.core.formats.canonical import CanonicalError, canonical_json
    from moderator_app.core.verify.agent_log import action_blob

    try:
        expected = canonical_json([name, args])
    except CanonicalError:
        return  # not representable in JCS: compared by exact text instead (tested elsewhere)
    assert action_blob(name, args) == expected
