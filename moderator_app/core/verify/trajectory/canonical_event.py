"""The bytes an event's hash covers: RFC 8785 of the event without `hash`, by orjson where
its sorted dump is provably the canonical form, by the reference encoder elsewhere."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import orjson

from moderator_app.core.formats.canonical import (
    CanonicalError,
    canonical_json_fast,
    es6_number,
    float_fragment,
)

# Lines the fast canonical path cannot vouch for: integral floats (orjson `56.0`, JCS `56`),
# exponent floats whose spelling differs (`1e+16` vs `10000000000000000`) and 4-byte UTF-8
# (non-BMP: keys may sort differently in UTF-16). Integers beyond 2^53 make the sorted dump
# raise (OPT_STRICT_INTEGER), sending the line to the reference path, which reports them.
# Substring tests (C speed) come first; the regexes run only on the lines they flag.
_INTEGRAL_FLOAT = re.compile(rb"[:,\[]-?(?:0|[1-9]\d*)\.0(?=[,\]}])")
_EXP_FLOAT = re.compile(rb"[:,\[](-?(?:0|[1-9]\d*)(?:\.\d+)?e[+-]\d+)(?=[,\]}])")
_NON_BMP_LEADS = (b"\xf0", b"\xf1", b"\xf2", b"\xf3", b"\xf4")
SORTED_STRICT = orjson.OPT_SORT_KEYS | orjson.OPT_STRICT_INTEGER
PLAIN_TYPES = frozenset((str, int, bool, type(None)))


class FloatSpelling:
    """Whether orjson's spelling of a float token equals the ECMAScript (JCS) one; cached."""

    def __init__(self) -> None:
        self._cache: dict[bytes, bool] = {}
        self._values: dict[float, bool] = {}

    def safe_value(self, x: float) -> bool:
        """Whether orjson spells the float `x` as ECMAScript does (both zeros never do).

        Non-integral magnitudes in (1e-5, 1e15) are plain decimals with the same shortest
        digits in both (tests/verify/test_trajectory_canonical.py checks it); others are compared."""
        a = x if x > 0 else -x
        if 1e-5 < a < 1e15 and a != int(a):
            return True
        ok = self._values.get(x)
        if ok is None:
            ok = x != 0 and orjson.dumps(x).decode() == es6_number(x)
            if len(self._values) > 100_000:
                self._values.clear()
            self._values[x] = ok
        return ok

    def safe(self, token: bytes) -> bool:
        ok = self._cache.get(token)
        if ok is None:
            try:
                ok = es6_number(float(token)).encode() == token
            except (ValueError, OverflowError, CanonicalError):
                ok = False
            if len(self._cache) > 100_000:
                self._cache.clear()
            self._cache[token] = ok
        return ok


def fast_path_ok(raw: bytes, spelling: FloatSpelling, event: dict | None = None) -> bool:
    """Whether orjson's sorted dump of the event on this orjson-compact line is its JCS form.

    With the parsed `event`, its values are walked (a few microseconds: no pass over the
    bytes); without, the bytes are searched (slower, for callers that only have the line)."""
    non_ascii = not raw.isascii()
    if event is not None:
        return _walk_ok(event, spelling, non_ascii)
    if non_ascii:
        for lead in _NON_BMP_LEADS:
            if lead in raw:
                return False
    if (b".0," in raw or b".0}" in raw or b".0]" in raw) and _INTEGRAL_FLOAT.search(raw):
        return False
    if b"e+" in raw or b"e-" in raw:
        for m in _EXP_FLOAT.finditer(raw):
            if not spelling.safe(m.group(1)):
                return False
    return True  # integers beyond 2^53: OPT_STRICT_INTEGER makes the sorted dump refuse them


def _walk_ok(value: dict | list, spelling: FloatSpelling, non_ascii: bool) -> bool:
    """No float spelled differently by orjson and ECMAScript, no non-BMP member name."""
    if type(value) is dict:
        if non_ascii:
            for k in value:
                if not k.isascii() and max(k) > "\uffff":
                    return False
        items: Iterable[Any] = value.values()
    else:
        items = value
    for v in items:
        t = type(v)
        if t is str or t is int or t is bool or v is None:
            continue
        if t is float:
            if not spelling.safe_value(v):
                return False
        elif (t is dict or t is list) and not _walk_ok(v, spelling, non_ascii):
            return False
    return True


def _jcs_inplace(value: dict | list, spelling: FloatSpelling, non_ascii: bool) -> bool:
    """Make `orjson.dumps(value, OPT_SORT_KEYS)` equal RFC 8785 by replacing, in place, each
    float orjson spells differently (`56.0`, `1e+16`) with a pre-serialised ECMAScript
    fragment. False when a member name lies outside the BMP (UTF-16 order may then differ
    from orjson's): the caller takes `canonical_json_fast`, which passes fragments through."""
    if type(value) is dict:
        if non_ascii:
            names = "".join(value)
            if not names.isascii() and max(names) > "\uffff":
                return False
        if set(map(type, value.values())) <= PLAIN_TYPES:  # the usual payload: one C-level pass
            return True
        for k, v in value.items():
            t = type(v)
            if t is str or t is int or t is bool or v is None:
                continue
            if t is float:
                if not spelling.safe_value(v):
                    value[k] = float_fragment(v)
            elif (t is dict or t is list) and not _jcs_inplace(v, spelling, non_ascii):
                value[k] = orjson.Fragment(canonical_json_fast(v))  # UTF-16 member order
    else:
        for i, v in enumerate(value):
            t = type(v)
            if t is float:
                if not spelling.safe_value(v):
                    value[i] = float_fragment(v)
            elif (t is dict or t is list) and not _jcs_inplace(v, spelling, non_ascii):
                value[i] = orjson.Fragment(canonical_json_fast(v))
    return True


def event_canonical(event: dict, non_ascii: bool, spelling: FloatSpelling,
                    envelope_checked: bool = False) -> bytes:
    """RFC 8785 bytes of a parsed event (hash removed); mutates floats into fragments.
    Raises CanonicalError (integers beyond 2^53, lone surrogates).

    `envelope_checked`: the caller proved the eight envelope members hold only strings and an
    integer, so an event of exactly those plus `payload` needs only its payload walked."""
    if envelope_checked and len(event) == 9:
        payload = event["payload"]
        if not _jcs_inplace(payload, spelling, non_ascii):
            event["payload"] = orjson.Fragment(canonical_json_fast(payload))
        try:
            return orjson.dumps(event, option=SORTED_STRICT)
        except TypeError:
            return canonical_json_fast(event)
    if _jcs_inplace(event, spelling, non_ascii):
        try:
            return orjson.dumps(event, option=SORTED_STRICT)
        except TypeError:  # beyond 2^53 or a lone surrogate: the reference path says which
            pass
    return canonical_json_fast(event)


def canonical_bytes(event_without_hash: dict, raw: bytes | None = None, compact: bool = False,
                    spelling: FloatSpelling | None = None) -> bytes:
    """RFC 8785 bytes of an event; the orjson fast path when `raw` (the line, `hash`
    included) is orjson-compact and holds nothing risky. Raises CanonicalError."""
    if compact and raw is not None and fast_path_ok(raw, spelling or FloatSpelling()):
        try:
            return orjson.dumps(event_without_hash, option=SORTED_STRICT)
        except TypeError:  # an integer beyond 2^53: the reference path says why
            pass
    return canonical_json_fast(event_without_hash)
