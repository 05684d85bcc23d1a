"""RFC 8785 JSON Canonicalization Scheme (JCS), the `canonical_json` of the trajectory format.

docs/DESIGN.md decision 1: a sorted-keys dump is not enough. JCS sorts members by UTF-16 code
units (keys outside the Basic Multilingual Plane sort before U+E000..U+FFFF), serialises
numbers as ECMAScript's Number.prototype.toString (`1e+21`, `1e-7`, `56` for 56.0, `0` for -0)
and escapes strings minimally. Test vectors: ../shared/testdata/jcs/.

This module is the reference implementation. The trajectory verifier may use a faster path
for events where the result is provably identical, but it must agree with this one.
"""

from __future__ import annotations

import json
import math
from codecs import utf_16_be_encode as _utf_16_be_encode
from typing import Any

from orjson import Fragment as _Fragment
from orjson import dumps as _dumps

MAX_SAFE_INTEGER = 2**53 - 1


class CanonicalError(ValueError):
    """A value JCS cannot represent exactly (NaN, infinity, an integer that is not exactly a
    double such as 2^53+1,
    a lone surrogate, a non-JSON type)."""


_encode_str = json.JSONEncoder(ensure_ascii=False).encode  # JCS escaping == Python's, see tests


def es6_number(x: float | int) -> str:
    """ECMAScript Number::toString for a finite double (the JCS number form)."""
    if isinstance(x, bool):
        raise CanonicalError("boolean is not a number")
    if isinstance(x, int):
        if -MAX_SAFE_INTEGER <= x <= MAX_SAFE_INTEGER:
            return str(x)
        # Beyond 2^53 an integer has one canonical form only if it is exactly a double (a JCS
        # writer spells the float 1e16 as the integer 10000000000000000); 2^53+1 is not, and
        # parsers would disagree on its value (docs/DECISIONS.md).
        try:
            f = float(x)
        except OverflowError:
            f = math.inf
        if math.isinf(f) or int(f) != x:
            raise CanonicalError(f"integer {x} is not exactly representable as a double")
        return es6_number(f)
    if math.isnan(x) or math.isinf(x):
        raise CanonicalError(f"{x!r} is not a JSON number")
    if x == 0:
        return "0"
    if x < 0:
        return "-" + es6_number(-x)
    # repr() gives the shortest digits that round-trip, as ECMAScript requires.
    r = repr(x)
    if "e" not in r:  # 1e-4 <= x < 1e16: the same plain decimal, less an integral `.0`
        return r[:-2] if r[-2:] == ".0" else r
    mantissa, _, exp_text = r.partition("e")
    exponent = int(exp_text) if exp_text else 0
    int_part, _, frac = mantissa.partition(".")
    full = int_part + frac
    stripped = full.lstrip("0")
    lead = len(full) - len(stripped)
    digits = stripped.rstrip("0") or "0"
    k = len(digits)
    n = len(int_part) + exponent - lead  # value = 0.digits * 10**n
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + digits
    e = n - 1
    sign = "+" if e >= 0 else "-"
    head = digits[0] if k == 1 else digits[0] + "." + digits[1:]
    return f"{head}e{sign}{abs(e)}"


_FRAGMENTS: dict[float, _Fragment] = {}


def float_fragment(x: float) -> _Fragment:
    """The JCS spelling of a finite float as an orjson fragment, cached (a run repeats its
    float values: latencies, ratios, scores). Raises CanonicalError (NaN, infinity)."""
    frag = _FRAGMENTS.get(x)
    if frag is None:
        frag = _Fragment(es6_number(x).encode())
        if len(_FRAGMENTS) > 50_000:
            _FRAGMENTS.clear()
        _FRAGMENTS[x] = frag
    return frag


def _utf16_key(key: str) -> bytes:
    return _utf_16_be_encode(key, "surrogatepass")[0]  # the codec itself: no name lookup


def _serialise(value: Any, out: list[str]) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, str):
        out.append(_encode_str(value))
    elif isinstance(value, (int, float)):
        out.append(es6_number(value))
    elif isinstance(value, dict):
        for key in value:
            if not isinstance(key, str):
                raise CanonicalError(f"member name {key!r} is not a string")
        out.append("{")
        first = True
        for key in sorted(value, key=_utf16_key):
            if not first:
                out.append(",")
            first = False
            out.append(_encode_str(key))
            out.append(":")
            _serialise(value[key], out)
        out.append("}")
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            _serialise(item, out)
        out.append("]")
    else:
        raise CanonicalError(f"{type(value).__name__} is not a JSON value")


def canonical_json(value: Any) -> bytes:
    """The RFC 8785 canonical UTF-8 bytes of a parsed JSON value."""
    out: list[str] = []
    _serialise(value, out)
    try:
        return "".join(out).encode("utf-8")
    except UnicodeEncodeError as exc:
        raise CanonicalError("string holds a lone surrogate, which is not valid Unicode") from exc



def _fast_prepare(value: Any) -> Any:
    """A copy of `value` that orjson serialises (without OPT_SORT_KEYS) as exactly its JCS
    form: floats as pre-serialised ECMAScript fragments, members in UTF-16 order."""
    t = type(value)
    if t is dict:
        keys = list(value)
        for key in keys:
            if type(key) is not str:
                raise CanonicalError(f"member name {key!r} is not a string")
        joined = "".join(keys)  # one C-level test for the usual all-BMP case
        if joined.isascii() or max(joined) < "\U00010000":
            ordered = sorted(keys)  # code point order == UTF-16 order within the BMP
        else:
            ordered = sorted(keys, key=_utf16_key)
        return {k: _fast_prepare(value[k]) for k in ordered}
    if t is list or t is tuple:
        return [_fast_prepare(v) for v in value]
    if t is float:
        return float_fragment(value)
    if t is int:
        if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
            return value
        return _Fragment(es6_number(value).encode())  # raises CanonicalError if not exact
    if t is str or value is None or t is bool or t is _Fragment:
        return value  # a fragment: already serialised by this module (see verify/trajectory/canonical_event.py)
    if isinstance(value, (int, float, str, dict, list)):  # subclasses: the reference path
        return _Fragment(canonical_json(value))
    raise CanonicalError(f"{type(value).__name__} is not a JSON value")


def canonical_json_fast(value: Any) -> bytes:
    """The same bytes as `canonical_json`, ~10x faster: orjson does the string escaping (its
    escapes equal JCS's, see tests/formats/test_canonical.py) and this module the numbers and the
    member order. tests/test_canonical_fast.py holds it to the reference."""
    prepared = _fast_prepare(value)
    try:
        return _dumps(prepared)
    except TypeError as exc:  # lone surrogates
        raise CanonicalError(f"cannot serialise: {exc}") from exc
