"""RFC 8785 canonical JSON against the cyberphone vectors and 100,000 ES6 float lines."""

from __future__ import annotations

import json

import pytest
from conftest import es6_float_lines, need_testdata

from moderator_app.core.formats.canonical import CanonicalError, canonical_json, es6_number

VECTORS = ["arrays", "french", "structures", "unicode", "values", "weird"]


@pytest.mark.parametrize("name", VECTORS)
def test_jcs_vectors(name):
    d = need_testdata("jcs")
    value = json.loads((d / "input" / f"{name}.json").read_text(encoding="utf-8"))
    expected = (d / "output" / f"{name}.json").read_bytes()
    hexed = bytes.fromhex("".join((d / "outhex" / f"{name}.txt").read_text().split()))
    assert canonical_json(value) == expected == hexed


def test_es6_float_file_100k():
    bad = []
    n = 0
    for x, expected in es6_float_lines():
        n += 1
        if es6_number(x) != expected:
            bad.append((x, expected, es6_number(x)))
    assert n == 100_000
    assert bad == []


@pytest.mark.parametrize("value,text", [
    (56.0, "56"), (9.5e-6, "0.0000095"), (1e16, "10000000000000000"), (1e21, "1e+21"),
    (1e-7, "1e-7"), (-0.0, "0"), (0.1, "0.1"), (123.456, "123.456"), (2**53 - 1, "9007199254740991"),
])
def test_number_forms(value, text):
    assert es6_number(value) == text


def test_keys_sort_by_utf16_code_units():
    # U+1F600 is D83D DE00 in UTF-16, which sorts before U+E000; code-point order says the opposite.
    assert canonical_json({"\ue000": 1, "\U0001f600": 2}) == '{"\U0001f600":2,"\ue000":1}'.encode()


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), 2**53 + 1, -(2**53 + 1), 10**30, 10**400,
                                 "\ud800", {1: 2}])
def test_unrepresentable_values_raise(bad):
    with pytest.raises(CanonicalError):
        canonical_json({"x": bad} if not isinstance(bad, dict) else bad)


@pytest.mark.parametrize("value,text", [
    (10**16, "10000000000000000"), (2**53, "9007199254740992"), (-(2**60), "-1152921504606847000"),
    (10**21, "1e+21"), (2**64, "18446744073709552000"),
])
def test_integers_beyond_2_53_that_are_exactly_doubles_have_their_es6_form(value, text):
    # A JCS writer spells the float 1e16 as the integer 10000000000000000: a valid line.
    assert es6_number(value) == text
    assert canonical_json({"x": value}) == b'{"x":' + text.encode() + b"}"
