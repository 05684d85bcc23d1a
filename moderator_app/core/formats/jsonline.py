"""Strict parsing of one JSON Lines line, shared by the agent-log and trajectory verifiers.

docs/DESIGN.md: a line that is not one JSON object in valid UTF-8, or whose object repeats a member
name, is an error (a repeated member makes hashed content ambiguous between parsers).

orjson is strict where we need it (invalid UTF-8, lone surrogates, NaN/Infinity, control
characters, BOM) and fast, but it keeps the last of repeated members silently. We prove the
absence of repeated members cheaply: if re-serialising the parsed object gives back the exact
line, nothing was dropped. Only lines that are not in orjson's compact form (whitespace,
other escapes or float spellings) take the slower stdlib pass that sees every member.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import orjson

from moderator_app.core.formats import native


@dataclass(frozen=True, slots=True)
class LineError:
    """Why a line is not acceptable; `kind` is one of the values of LINE_ERROR_KINDS."""

    kind: str
    message: str


LINE_ERROR_KINDS = ("json", "utf8", "not_object", "duplicate_member", "blank")


class _Duplicate(Exception):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Duplicate(key)
            seen.add(key)
    return obj


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def find_duplicate_member(raw: bytes) -> str | None:
    """The first repeated member name in `raw` (already known to be valid JSON), or None.

    The C reader (`_skim.first_duplicate`) answers without building the value (a line of a
    million members cost ~900 MB through the stdlib's pairs); where it cannot tell, or is not
    built, the stdlib's parse does, in the same order.
    Raises RecursionError on values nested beyond the interpreter's recursion limit."""
    skim = native.SKIM
    if skim is not None:
        got = skim.first_duplicate(raw)
        if got is not False:
            return got
    try:
        json.loads(raw, object_pairs_hook=_no_duplicates, parse_constant=_reject_constant)
    except _Duplicate as dup:
        return str(dup.args[0])
    return None


# orjson serialises at most 255 levels (and parses at most 1024): deeper values cannot be
# re-serialised, hence neither checked for repeated members nor hashed canonically.
TOO_DEEP = "invalid JSON: nesting too deep (more than 255 levels of arrays and objects)"


# orjson's words when it cannot allocate its parse buffer (yyjson's allocation error). It
# comes as a JSONDecodeError, but says nothing about the bytes: under an address-space limit
# a valid 15 MiB line was reported as `log.json` "invalid JSON" (issue 15).
OUT_OF_MEMORY = "Not enough memory"


def raise_if_out_of_memory(message: str) -> None:
    """MemoryError when a parser's error `message` is a failed allocation, not a verdict on
    the bytes: a resource failure must say what it is, never be a format finding."""
    if OUT_OF_MEMORY in message:
        raise MemoryError(message)


def parse_line(raw: bytes) -> dict | LineError:
    """Parse one line (without its trailing newline) into a dict, or say why not."""
    got = parse_line_compact(raw)
    return got if isinstance(got, LineError) else got[0]


def parse_line_compact(raw: bytes) -> tuple[dict, bool] | LineError:
    """Like `parse_line`, also telling whether `raw` is exactly orjson's compact form of the
    object (then every string and number in it is spelled as orjson spells it, which the
    trajectory verifier's fast canonical path relies on)."""
    if not raw.strip():
        return LineError("blank", "blank line: every line must be one JSON object")
    try:
        obj = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        msg = str(exc)
        raise_if_out_of_memory(msg)
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as uexc:
            return LineError("utf8", f"invalid UTF-8 at byte {uexc.start + 1} of the line")
        if "UTF-8" in msg or "surrogate" in msg:
            return LineError("utf8", f"invalid text: {msg}")
        if "depth limit" in msg or "recursion" in msg.lower():
            return LineError("json", f"{TOO_DEEP}: {msg}")
        return LineError("json", f"invalid JSON: {msg}")
    if not isinstance(obj, dict):
        return LineError("not_object", f"line is JSON {type(obj).__name__}, not an object")
    try:
        if orjson.dumps(obj) == raw:
            return obj, True
        dup = find_duplicate_member(raw)
    except (TypeError, RecursionError):  # orjson's depth limit, or the stdlib's recursion one
        return LineError("json", TOO_DEEP)
    if dup is not None:
        return LineError("duplicate_member", f"member name {dup!r} appears more than once")
    return obj, False


# A number token reads as zero only if its value is below 2.5e-324: an exponent of -100 or
# less, or (with a smaller exponent) more than 200 zeros after the point. Lines without either
# never need the token-by-token pass below.
_UNDERFLOW_HINT = re.compile(rb"[eE]-0*[1-9][0-9][0-9]|0{200}")


class _Underflow(Exception):
    pass


def _float_not_underflowing(token: str) -> float:
    x = float(token)
    if x == 0 and token.lower().partition("e")[0].strip("-0."):
        raise _Underflow(token)
    return x


def underflowing_number(raw: bytes) -> str | None:
    """The first number token of the JSON text `raw` (already known to be valid) that is not
    zero but reads as a zero double (`1e-400`, `-2e-324`), or None.

    A double cannot hold it (RFC 8785 and I-JSON: numbers are IEEE 754 doubles), so hashing
    it as `0` would hash another value than the one written, as `1e400` would be hashed as
    infinity (docs/rules-official.md). Only lines with a large negative exponent or a long
    run of zeros are parsed a second time (stdlib, to see each token)."""
    if _UNDERFLOW_HINT.search(raw) is None:
        return None
    try:
        json.loads(raw, parse_float=_float_not_underflowing)
    except _Underflow as exc:
        return str(exc.args[0])
    except (ValueError, RecursionError):  # deeper than the stdlib recursion: not judged here
        return None
    return None
