"""The verifier's fast canonical paths agree byte for byte with the reference RFC 8785."""

from __future__ import annotations

import json

import orjson
import pytest
from conftest import need_testdata
from hypothesis import given, settings
from hypothesis import strategies as st

from moderator_app.core.formats.canonical import CanonicalError, canonical_json, canonical_json_fast
from moderator_app.core.verify.trajectory import FloatSpelling, canonical_bytes, fast_path_ok

VECTORS = ["arrays", "french", "structures", "unicode", "values", "weird"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=6), children, max_size=5),
    max_leaves=12,
)


@pytest.mark.parametrize("name", VECTORS)
def test_fast_equals_reference_on_jcs_vectors(name):
    d = need_testdata("jcs")
    value = json.loads((d / "input" / f"{name}.json").read_text(encoding="utf-8"))
    assert canonical_json_fast(value) == canonical_json(value)


@settings(max_examples=120, deadline=None)
@given(value=st.dictionaries(st.text(max_size=6), json_values, max_size=6))
def test_fast_paths_equal_reference(value):
    raw = orjson.dumps(value)
    expected = canonical_json(value)
    assert canonical_json_fast(value) == expected
    parsed = orjson.loads(raw)
    assert canonical_bytes(parsed, raw, True, FloatSpelling()) == expected


@pytest.mark.parametrize("text", [
    "\x00\x01\x08\t\n\x0b\x0c\r\x1f\x7f", '"\\/', "\u2028\u2029", "é日本\U0001f600",
    "\ud7ff\ue000\uffff",
])
def test_orjson_sorted_dump_escapes_like_jcs(text):
    value = {text: text, "k": [text]}
    raw = orjson.dumps(value)
    assert orjson.dumps(value, option=orjson.OPT_SORT_KEYS) == canonical_json(value) or \
        not fast_path_ok(raw, FloatSpelling())
    assert canonical_bytes(orjson.loads(raw), raw, True) == canonical_json(value)


@pytest.mark.parametrize("value,fast", [
    ({"a": 1, "b": "x"}, True), ({"a": 0.5}, True), ({"a": 56.0}, False), ({"a": 1e16}, False),
    ({"a": 9.5e-6}, False), ({"a": 1e21}, True), ({"\U0001f600": 1}, False),
    ({"a": 12345678901234567}, True), ({"s": "12:05.000Z"}, True),
])
def test_fast_path_flags_risky_lines(value, fast):
    assert fast_path_ok(orjson.dumps(value), FloatSpelling()) is fast


def test_fast_rejects_what_the_reference_rejects():
    for bad in ({"x": 2**53 + 1}, {"x": "\ud800"}):
        with pytest.raises(CanonicalError):
            canonical_json_fast(bad)


@settings(max_examples=120, deadline=None)
@given(value=st.dictionaries(st.text(max_size=6), json_values, max_size=6))
def test_event_canonical_equals_reference(value):
    from moderator_app.core.verify.trajectory import event_canonical

    expected = canonical_json(value)
    raw = orjson.dumps(value)
    assert event_canonical(orjson.loads(raw), not raw.isascii(), FloatSpelling()) == expected


@settings(max_examples=300, deadline=None)
@given(x=st.floats(allow_nan=False, allow_infinity=False))
def test_float_spelling_shortcut_is_exact(x):
    from moderator_app.core.formats.canonical import es6_number

    assert FloatSpelling().safe_value(x) == (x != 0 and orjson.dumps(x).decode() == es6_number(x))


@settings(max_examples=150, deadline=None)
@given(payload=st.dictionaries(st.text(max_size=6), json_values, max_size=6))
def test_payload_only_walk_equals_reference(payload):
    from moderator_app.core.verify.trajectory import event_canonical

    event = {"schema": "s", "producer_sequence": 1, "wall_time": "w", "run_id": "r",
             "trust_level": "t", "producer": "p", "type": "x", "prev_hash": "0" * 64,
             "payload": payload}
    expected = canonical_json(event)
    raw = orjson.dumps(event)
    assert event_canonical(orjson.loads(raw), not raw.isascii(), FloatSpelling(), True) == expected
