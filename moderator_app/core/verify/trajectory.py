"""Verifying an official run: the hash chain of `events.jsonl(.zst)` and the event rules.

DESIGN.md decisions 1-11, in one pass over the stream (flat memory, one read of each byte):

* every line is parsed strictly (one JSON object, valid UTF-8, no repeated member);
* every hash is recomputed as `SHA256(prev_hash || canonical_json(event_without_hash))`;
* each chain break is located and classified: an event whose own hash does not recompute was
  **edited**; an event that recomputes but whose `prev_hash` is not the previous event's hash
  marks a **link** break (a deletion, insertion or reordering just before it). Verification
  goes on; the report names the first break. The link is checked against both the recorded
  and the recomputed hash of the previous readable event, so one edit is reported once, at
  its own line, instead of again at the next line;
* envelope rules (schema, types, per-producer sequence, one run_id, trust levels, who may
  publish an `eval_result`), wall-time warnings, seed commitments and a secrets scan.

Speed: where it is built, the C accelerator (`_jcs.c`, see `native`) does the per-line work in
one pass and sums up whole blocks (`_native_summary`, `_native_columns`), declining every line
it is not sure of to `examine_line`; the rest of this docstring is the pure-Python engine, which
gives the same reports (the tests run both). RFC 8785 in pure Python costs ~200 us per 1.5 KB
event. For a line that is exactly
orjson's compact form (true of orjson/serde writers), `orjson.dumps(event, OPT_SORT_KEYS)` *is*
the canonical form unless the line holds a float whose orjson spelling differs from the
ECMAScript one (`56.0`, `1e+16`), an integer of 16+ digits, or a character outside the Basic
Multilingual Plane (keys then sort differently in UTF-16). A byte-level regex finds those
lines, which take `canonical_json_fast` (orjson with ECMAScript number fragments and UTF-16
member order); tests hold both to the reference `canonical_json`.

Blocks of ~1 MiB are checked column by column (`_block_columns`): one orjson parse of the
block, set-of-types checks, one hex decode. A "plain" event (the ten envelope members, a flat
payload without floats, no member name outside the BMP) needs no walk: its sorted dump
without `hash` is its canonical form, and that dump being exactly 74 bytes (the `hash` member)
shorter than the line proves no member was repeated (every token of a float-free line is
spelled at least as long as orjson spells it, so a dropped duplicate shows as a shorter dump).
A block consistent in itself travels as a summary of a few hundred bytes (`scan_block`),
applied by `TrajectoryChecker.apply_summary` after checking how it joins the blocks before;
anything else is applied line by line from `examine_line`'s facts, which alone word findings
(tests/test_trajectory_perf.py holds the two to the same report). Blocks alternate between
this process and a worker process (`spawn`) for inputs of 8 MB and more.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import tempfile
from collections import deque
from collections.abc import Callable
from datetime import datetime
from functools import partial, reduce
from hashlib import sha256
from itertools import compress, repeat
from operator import add, and_, eq, itemgetter, le, lt, methodcaller
from pathlib import Path
from typing import Any

import orjson

from moderator_app.core.formats import native
from moderator_app.core.formats.canonical import (
    CanonicalError,
    canonical_json_fast,
    es6_number,
    float_fragment,
)
from moderator_app.core.formats.chain import ZERO_HASH
from moderator_app.core.formats.event_index import EventIndex
from moderator_app.core.formats.jsonline import LineError, parse_line_compact
from moderator_app.core.formats.streams import MAX_LINE, HashingReader, LineBounded
from moderator_app.core.formats.zstream import (
    DEFAULT_MAX_OUTPUT,
    ZstdReader,
    ZstdStreamError,
    is_zstd_start,
)
from moderator_app.core.progress import CancelToken, ProgressFn
from moderator_app.core.rules import Rule, Severity, rule
from moderator_app.core.verify.input_rules import UNREADABLE_MEMBER
from moderator_app.core.verify.options import KindResult
from moderator_app.core.verify.report import FileDigest, Report
from moderator_app.core.verify.secrets import MARKERS, markers_in, scan_line
from moderator_app.core.verify.seeds import SEED_LEAK, SeedCheck

SCHEMA = "ale-trajectory-event/v1"
AGENT, AGENT_TRUST = "agent", "untrusted_agent"
EVALUATOR, EVALUATOR_TRUST = "evaluator", "trusted_evaluator"

G = "trajectory"
# -- chain -------------------------------------------------------------------------------
EDITED = rule("chain.edited", Severity.ERROR,
              "The event's hash does not recompute: the event was edited.", "chain")
LINK = rule("chain.link", Severity.ERROR,
            "The event's prev_hash is not the previous event's hash: an event was deleted, "
            "inserted or reordered just before it.", "chain")
RESPELLED = rule("chain.respelled", Severity.WARNING,
                 "No known serialiser spells the line's bytes as they are, though its value and "
                 "hash are intact: bytes were probably edited in place (a warning: the hashed "
                 "content is unchanged).", "chain")
FIRST_PREV = rule("chain.first_prev_hash", Severity.ERROR,
                  "The first event's prev_hash is not 64 zeros: the stream does not start at "
                  "the start of the run (events deleted before it).", "chain")
# -- lines -------------------------------------------------------------------------------
BAD_JSON = rule("traj.json", Severity.ERROR, "The line is not valid JSON.", G)
BAD_UTF8 = rule("traj.utf8", Severity.ERROR, "The line is not valid UTF-8 text.", G)
NOT_OBJECT = rule("traj.not_object", Severity.ERROR, "The line is JSON but not an object.", G)
DUPLICATE = rule("traj.duplicate_member", Severity.ERROR,
                 "The event repeats a member name (hashed content would be ambiguous).", G)
BLANK = rule("traj.blank", Severity.ERROR, "A blank line: every line must be one event.", G)
LINE_ENDING = rule("traj.line_ending", Severity.ERROR,
                   "The line ends with \\r\\n: lines end with \\n only.", G)
NO_FINAL_NEWLINE = rule("traj.no_final_newline", Severity.WARNING,
                        "The last line has no terminating \\n.", G)
TOO_LONG = rule("traj.too_long", Severity.ERROR,
                f"A line longer than {MAX_LINE >> 20} MiB (not read: a decompression bomb "
                "guard).", G)
EMPTY = rule("traj.empty", Severity.ERROR, "The trajectory holds no event.", G)
UNREPRESENTABLE = rule("traj.number_unrepresentable", Severity.ERROR,
                       "A number RFC 8785 cannot represent exactly (an integer that is not "
                       "exactly a double, infinite): the event cannot be hashed canonically.", G)
# -- envelope ----------------------------------------------------------------------------
SCHEMA_UNSUPPORTED = rule("traj.schema_unsupported", Severity.ERROR,
                          f"`schema` is missing or not {SCHEMA!r}: the event is not read "
                          "further (never guessed at).", G)
FIELD_MISSING = rule("traj.field_missing", Severity.ERROR,
                     "A required member of the event is missing.", G)
FIELD_TYPE = rule("traj.field_type", Severity.ERROR,
                  "A member of the event has the wrong JSON type.", G)
HASH_FORMAT = rule("traj.hash_format", Severity.ERROR,
                   "`hash` or `prev_hash` is not 64 lowercase hex characters.", G)
SEQUENCE = rule("traj.producer_sequence", Severity.ERROR,
                "producer_sequence is not strictly increasing within its producer.", G)
WALL_FORMAT = rule("traj.wall_time_format", Severity.ERROR,
                   "wall_time is not an RFC 3339 UTC timestamp (…Z or …+00:00).", G)
WALL_BACKWARDS = rule("traj.wall_time_backwards", Severity.WARNING,
                      "wall_time goes backwards within one producer (clock adjusted?).", G)
RUN_ID = rule("traj.run_id_mismatch", Severity.ERROR,
              "The event's run_id differs from the first event's.", G)
TRUST_INCONSISTENT = rule("traj.trust_inconsistent", Severity.ERROR,
                          "A producer changes its trust level within the stream.", G)
AGENT_TRUSTED = rule("traj.agent_trusted", Severity.ERROR,
                     "The agent producer claims a trust level other than untrusted_agent.", G)
EVAL_UNTRUSTED = rule("traj.eval_result_untrusted", Severity.ERROR,
                      "An eval_result not from producer `evaluator` with trusted_evaluator: an "
                      "untrusted score claim.", G)
RUN_END_MISSING = rule("traj.run_end_missing", Severity.WARNING,
                       "run_start without run_end: the run did not finish, or its tail is "
                       "missing.", G)
RUN_SPAN_ORDER = rule("traj.run_span_order", Severity.WARNING,
                      "run_end is earlier than run_start: the run span, and the video's "
                      "coverage of it, cannot be measured.", G)
NO_EVAL_RESULT = rule("traj.no_eval_result", Severity.WARNING,
                      "No trusted eval_result: there is no authoritative score.", G)
# -- compressed stream -------------------------------------------------------------------
ZSTD_TRUNCATED = rule("traj.zstd_truncated", Severity.ERROR,
                      "The zstd stream ends inside a frame: the trajectory is incomplete.", G)
ZSTD_CORRUPT = rule("traj.zstd_corrupt", Severity.ERROR,
                    "A zstd frame cannot be decoded: the trajectory is incomplete.", G)
TRAILING_GARBAGE = rule("traj.trailing_garbage", Severity.ERROR,
                        "Bytes after the last zstd frame are not a zstd frame.", G)
ZSTD_WINDOW = rule("traj.zstd_window", Severity.ERROR,
                   "A valid zstd frame needs a decoding window beyond the 128 MiB cap "
                   "(`zstd --long=31`): not read, to keep memory bounded.", G)
TOO_LARGE = rule("traj.too_large", Severity.ERROR,
                 "The decompressed trajectory exceeds the size cap (decompression bomb "
                 "guard).", G)
SECRET = rule("secret.suspect", Severity.WARNING,
              "Something that looks like a secret (API key, private key, bearer token).",
              "secret")

_LINE_ERROR_RULES = {"json": BAD_JSON, "utf8": BAD_UTF8, "not_object": NOT_OBJECT,
                     "duplicate_member": DUPLICATE, "blank": BLANK}
_ZSTD_RULES = {"truncated": ZSTD_TRUNCATED, "corrupt": ZSTD_CORRUPT,
               "trailing_garbage": TRAILING_GARBAGE, "too_large": TOO_LARGE,
               "window_too_large": ZSTD_WINDOW}

_HEX64 = re.compile(r"[0-9a-f]{64}")
_RFC3339_UTC = re.compile(
    r"(\d{4}-\d\d-\d\d[Tt](?:[01]\d|2[0-3]):[0-5]\d):([0-5]\d|60)(\.\d+)?(?:[Zz]|\+00:00)")
# Lines the fast canonical path cannot vouch for: integral floats (orjson `56.0`, JCS `56`),
# exponent floats whose spelling differs (`1e+16` vs `10000000000000000`) and 4-byte UTF-8
# (non-BMP: keys may sort differently in UTF-16). Integers beyond 2^53 make the sorted dump
# raise (OPT_STRICT_INTEGER), sending the line to the reference path, which reports them.
# Substring tests (C speed) come first; the regexes run only on the lines they flag.
_INTEGRAL_FLOAT = re.compile(rb"[:,\[]-?(?:0|[1-9]\d*)\.0(?=[,\]}])")
_EXP_FLOAT = re.compile(rb"[:,\[](-?(?:0|[1-9]\d*)(?:\.\d+)?e[+-]\d+)(?=[,\]}])")
_NON_BMP_LEADS = (b"\xf0", b"\xf1", b"\xf2", b"\xf3", b"\xf4")
_SORT = orjson.OPT_SORT_KEYS | orjson.OPT_STRICT_INTEGER
_PLAIN = frozenset((str, int, bool, type(None)))
_TEXT_FIELDS = ("run_id", "producer", "trust_level", "type")
_SCORE_CLAIM_TYPES = frozenset(("eval_result", "score", "score_claim", "self_reported_score"))
_MAX_CLAIMS = 50


_MINUTES: dict[str, float | None] = {}


def _minute(minute: str) -> float | None:
    """Epoch seconds of `YYYY-MM-DDTHH:MM` (already shaped by the regex), cached."""
    base = _MINUTES.get(minute, False)
    if base is False:
        try:
            base = datetime.fromisoformat(minute[:10] + "T" + minute[11:] + "+00:00").timestamp()
        except ValueError:
            base = None
        if len(_MINUTES) > 10_000:
            _MINUTES.clear()
        _MINUTES[minute] = base
    return base


def parse_wall_time(value: str) -> float | None:
    """Seconds since the epoch of an RFC 3339 UTC timestamp, or None when it is not one.

    The date-hour-minute part is validated once and cached: a run spans few minutes."""
    m = _RFC3339_UTC.fullmatch(value)
    if m is None:
        return None
    minute, sec, frac = m.groups()
    base = _minute(minute)
    if base is None:
        return None
    return base + int(sec) + (float(frac) if frac else 0.0)


# The usual spelling, `2026-07-10T14:03:22.481Z`: a whole block's wall_times are checked by one
# regex over their concatenation, then converted exactly as parse_wall_time does.
_WALL_MS_Z = re.compile(
    r"(?:\d{4}-\d\d-\d\dT(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d\d\dZ)+")


def _wall_ms_z(w: str) -> float:
    """parse_wall_time of a string already matched by _WALL_MS_Z, with a valid date."""
    return _minute(w[:16]) + int(w[17:19]) + float(w[19:23])


def _uniform_walls(walls) -> bool:
    """Whether every wall_time is `YYYY-MM-DDTHH:MM:SS.mmmZ` with a real date: such strings
    order exactly as their times (the conversion is monotonic, and distinct milliseconds
    stay distinct at epoch magnitudes)."""
    joined = "".join(walls)
    # The shape by one translation (ASCII digits to 0) and comparison; seconds below 60 by
    # their tens digit; the date, hour and minute by `_minute` (each distinct minute once).
    return (len(joined) == 24 * len(walls) and joined.translate(_DIGITS_TO_0) ==
            _WALL_SHAPE * len(walls) and max(joined[17::24], default="0") <= "5"
            and None not in map(_minute, {w[:16] for w in walls}))


_DIGITS_TO_0 = str.maketrans("123456789", "000000000")
_WALL_SHAPE = "0000-00-00T00:00:00.000Z"


def _block_wall_times(walls) -> list:
    if set(map(len, walls)) == {24} and _WALL_MS_Z.fullmatch("".join(walls)):
        try:
            return [_minute(w[:16]) + int(w[17:19]) + float(w[19:23]) for w in walls]
        except TypeError:  # an impossible date (Feb 30): the line-by-line path reports it
            pass
    return list(map(parse_wall_time, walls))


class _FloatSpelling:
    """Whether orjson's spelling of a float token equals the ECMAScript (JCS) one; cached."""

    def __init__(self) -> None:
        self._cache: dict[bytes, bool] = {}
        self._values: dict[float, bool] = {}

    def safe_value(self, x: float) -> bool:
        """Whether orjson spells the float `x` as ECMAScript does (both zeros never do).

        Non-integral magnitudes in (1e-5, 1e15) are plain decimals with the same shortest
        digits in both (tests/test_trajectory_canonical.py checks it); others are compared."""
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


def fast_path_ok(raw: bytes, spelling: _FloatSpelling, event: dict | None = None) -> bool:
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


def _walk_ok(value: dict | list, spelling: _FloatSpelling, non_ascii: bool) -> bool:
    """No float spelled differently by orjson and ECMAScript, no non-BMP member name."""
    if type(value) is dict:
        if non_ascii:
            for k in value:
                if not k.isascii() and max(k) > "\uffff":
                    return False
        items = value.values()
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


def _jcs_inplace(value: dict | list, spelling: _FloatSpelling, non_ascii: bool) -> bool:
    """Make `orjson.dumps(value, OPT_SORT_KEYS)` equal RFC 8785 by replacing, in place, each
    float orjson spells differently (`56.0`, `1e+16`) with a pre-serialised ECMAScript
    fragment. False when a member name lies outside the BMP (UTF-16 order may then differ
    from orjson's): the caller takes `canonical_json_fast`, which passes fragments through."""
    if type(value) is dict:
        if non_ascii:
            names = "".join(value)
            if not names.isascii() and max(names) > "\uffff":
                return False
        if set(map(type, value.values())) <= _PLAIN:  # the usual payload: one C-level pass
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


def event_canonical(event: dict, non_ascii: bool, spelling: _FloatSpelling,
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
            return orjson.dumps(event, option=_SORT)
        except TypeError:
            return canonical_json_fast(event)
    if _jcs_inplace(event, spelling, non_ascii):
        try:
            return orjson.dumps(event, option=_SORT)
        except TypeError:  # beyond 2^53 or a lone surrogate: the reference path says which
            pass
    return canonical_json_fast(event)


def canonical_bytes(event_without_hash: dict, raw: bytes | None = None, compact: bool = False,
                    spelling: _FloatSpelling | None = None) -> bytes:
    """RFC 8785 bytes of an event; the orjson fast path when `raw` (the line, `hash`
    included) is orjson-compact and holds nothing risky. Raises CanonicalError."""
    if compact and raw is not None and fast_path_ok(raw, spelling or _FloatSpelling()):
        try:
            return orjson.dumps(event_without_hash, option=_SORT)
        except TypeError:  # an integer beyond 2^53: the reference path says why
            pass
    return canonical_json_fast(event_without_hash)


# -- spelling -----------------------------------------------------------------------------
# The hash covers the canonical form, so a byte edit that keeps the JSON value (`1e-7` ->
# `1E-7`, `\u00e9` -> `\u00E9`, a space -> TAB) recomputes. Writers spell every line the
# way their serialiser does; no serialiser writes `1E-7`, an upper-case `\u00E9` or a TAB
# between tokens. Once an intact line shows the stream comes from a known serialiser, an
# intact line that no known serialiser spells is reported (`chain.respelled`, see
# docs/rules-official.md). The checker keeps the set of spellings that reproduced the lines
# so far (`TrajectoryChecker.spell`): only those are tried first, the others only when none
# of them reproduces a line. A line's facts carry `hint << SPELL_BITS | matched`: of the
# spellings in `hint`, those that reproduce its exact bytes (`matched` == 0 only when all
# were tried and none does).
SPELL_JCS, SPELL_ORJSON, SPELL_ORJSON_SORTED = 1, 2, 4
_DUMPS_VARIANTS = tuple((sep, ea, sk) for sep in (None, (",", ":")) for ea in (True, False)
                        for sk in (False, True))
_D_BIT = {v: 8 << i for i, v in enumerate(_DUMPS_VARIANTS)}
SPELL_BITS = 3 + len(_DUMPS_VARIANTS)
SPELL_ALL = (1 << SPELL_BITS) - 1
_D_ALL = SPELL_ALL & ~7
SPELL_NAMES = ("RFC 8785", "orjson compact", "orjson compact sorted", *(
    f"json.dumps(separators={'default' if sep is None else 'compact'}, ensure_ascii={ea}, "
    f"sort_keys={sk})" for sep, ea, sk in _DUMPS_VARIANTS))
_C = (",", ":")
# A plain, length-minimal line without a `\u` escape is orjson's compact form (its member
# order is the line's own); json.dumps compact unsorted spells it the same, with
# ensure_ascii too when the line is ASCII; sorted, it is also RFC 8785, orjson sorted and
# json.dumps compact sorted (tests/test_trajectory_spelling.py holds these shortcuts to
# `spelling_mask`).
_PLAIN_U = SPELL_ORJSON | _D_BIT[(_C, False, False)]
_PLAIN_U_A = _PLAIN_U | _D_BIT[(_C, True, False)]
_PLAIN_S = SPELL_JCS | SPELL_ORJSON_SORTED | _D_BIT[(_C, False, True)]
_PLAIN_S_A = _PLAIN_S | _D_BIT[(_C, True, True)]


# On by default, as a warning (docs/DECISIONS.md): a one-byte edit that keeps the JSON value
# (`1e-7` -> `1E-7`, `\u00e9` -> `\u00E9`, a space -> TAB) leaves every hash intact, so only
# the spelling betrays it. It is not an error and not a chain break, because the hashed content
# is unchanged and a writer outside the known spellings (Go's encoding/json escapes `<` as
# `\u003c`) must not fail a valid stream. MODERATOR_APP_SPELLING_CHECK=0 turns it off.
SPELLING_CHECK = True


def spelling_check_default() -> bool:
    """Whether `chain.respelled` is checked when the caller does not say."""
    return os.environ.get("MODERATOR_APP_SPELLING_CHECK", "1" if SPELLING_CHECK else "0") not in (
        "0", "")


def spelling_names(mask: int) -> str:
    return ", ".join(name for i, name in enumerate(SPELL_NAMES) if mask >> i & 1)


_ESCAPE = re.compile(rb"\\u")


def line_spelling(raw: bytes, hint: int, compact: bool, body: bytes | None = None,
                  recorded: str | None = None, keys=None) -> int:
    """A line's `spell` fact: `spelling_mask` over `hint`, and over every other spelling
    when none in `hint` reproduces the line."""
    m = spelling_mask(raw, hint, compact, body, recorded, keys)
    if m or hint == SPELL_ALL:
        return hint << SPELL_BITS | m
    return SPELL_ALL << SPELL_BITS | m | spelling_mask(raw, SPELL_ALL & ~hint, compact, body,
                                                       recorded, keys)


def spelling_mask(raw: bytes, hint: int, compact: bool, body: bytes | None = None,
                  recorded: str | None = None, keys=None) -> int:
    """The candidate spellings in `hint` whose bytes of the line's value are exactly `raw`.

    `compact`: `raw` is orjson's compact form (known from parsing). `body`, `recorded` and
    `keys`: the canonical form without `hash`, the hash and the other member names, which
    make the RFC 8785 test a byte comparison when `hash` sorts first. Cheap tests come first;
    json.dumps runs only for the variants still in `hint` that the bytes do not rule out."""
    m = SPELL_ORJSON if compact else 0
    ev = None
    if hint & SPELL_ORJSON_SORTED:
        try:
            ev = orjson.loads(raw)
            if orjson.dumps(ev, option=orjson.OPT_SORT_KEYS) == raw:
                m |= SPELL_ORJSON_SORTED
        except (orjson.JSONDecodeError, TypeError):
            pass
    if hint & SPELL_JCS:
        if body is not None and recorded is not None and keys is not None and all(
                k > "hash" for k in keys):  # against ASCII "hash", UTF-16 order = code points
            line = (b'{"hash":"' + recorded.encode() + b'",' + body[1:] if len(body) > 2
                    else b'{"hash":"' + recorded.encode() + b'"}')
            if line == raw:
                m |= SPELL_JCS
        else:
            try:
                if canonical_json_fast(orjson.loads(raw)) == raw:
                    m |= SPELL_JCS
            except (CanonicalError, orjson.JSONDecodeError, TypeError, RecursionError):
                pass
    if hint & _D_ALL:
        try:
            if ev is None:
                ev = orjson.loads(raw)
        except orjson.JSONDecodeError:
            return m & hint
        ascii_ = raw.isascii()
        # ensure_ascii changes nothing (it escapes DEL too)
        same_ea = ascii_ and b"\\u" not in raw and b"\x7f" not in raw
        top_sorted = list(ev) == sorted(ev)
        spaced = b'": ' in raw
        memo: dict = {}
        for (sep, ea, sk), bit in _D_BIT.items():
            if (not hint & bit or (sep is None and not spaced) or (ea and not ascii_)
                    or (sk and not top_sorted)):
                continue
            key = (sep, ea and not same_ea, sk)
            out = memo.get(key)
            if out is None:
                try:
                    out = memo[key] = json.dumps(ev, separators=sep, ensure_ascii=ea,
                                                 sort_keys=sk).encode()
                except (ValueError, TypeError, RecursionError):
                    out = memo[key] = b""
            if out == raw:
                m |= bit
    return m & hint


class _Producer:
    __slots__ = ("events", "trust", "trust_line", "seq", "seq_line", "wall", "wall_line")

    def __init__(self) -> None:
        self.events = 0
        self.trust: str | None = None
        self.trust_line = 0
        self.seq: int | None = None
        self.seq_line = 0
        self.wall: float | None = None
        self.wall_line = 0


# -- stateless: one line -> facts (runs in the main process or in the worker) ------------
OK, UNREADABLE, UNSUPPORTED = 0, 1, 2


class LineContext:
    """What `examine_line` needs besides the line: caches and the seed-leak scanner (which
    holds seeds, never the evaluator secret)."""

    def __init__(self, leak: SeedCheck | None = None, spelling: bool | None = None) -> None:
        self.spelling = _FloatSpelling()
        self.leak = leak if leak is not None and leak.active else None
        # Candidate spellings to compute (see `spelling_mask`): a superset of the checker's
        # set; 0 when the check is off.
        on = spelling_check_default() if spelling is None else spelling
        self.spell_hint = SPELL_ALL if on else 0


def examine_line(raw: bytes, ctx: LineContext) -> tuple:
    """Everything about one line that does not depend on other lines, as a tuple:

    (OK, recorded, prev, computed, hash_ok, found, producer, trust, etype, seq, t, run_id,
     extra, spell) | (UNSUPPORTED, recorded, prev, computed, hash_ok, found, etype)
    | (UNREADABLE, found). `found` is None or a list of (Rule, message) for this line;
    `extra` is None or (score payload or None, commitment value or None, leaked seed number);
    `spell` is None (hash not intact, or the check off) or `line_spelling(...)`.
    """
    if len(raw) > MAX_LINE:
        return (UNREADABLE, [(TOO_LONG, f"line of {len(raw)} bytes is longer than {MAX_LINE}")])
    found = None
    if raw[-1:] == b"\r":
        found = [(LINE_ENDING, "line ends with \\r\\n; lines must end with \\n only")]
    got = parse_line_compact(raw)
    if type(got) is LineError:
        r = _LINE_ERROR_RULES.get(got.kind, BAD_JSON)
        if got.kind == "json" and "infinity" in got.message:
            r = UNREPRESENTABLE
        return (UNREADABLE, [*(found or ()), (r, got.message)])
    event, compact = got
    recorded = event.pop("hash", None)
    prev = event.get("prev_hash")
    hash_ok = True
    for name, value in (("prev_hash", prev), ("hash", recorded)):
        if type(value) is not str or len(value) != 64 or _HEX64.fullmatch(value) is None:
            hash_ok = False
            if found is None:
                found = []
            if value is None:
                found.append((FIELD_MISSING, f"missing member {name!r}"))
            else:
                found.append((HASH_FORMAT, f"{name} is not 64 lowercase hex characters: "
                                           f"{str(value)[:80]!r}"))
    computed = None
    canon = None
    # Members are read from a snapshot: canonicalisation may swap a value for a
    # pre-serialised fragment (a float, an object with a member name outside the BMP).
    get = dict(event).get
    payload = get("payload")
    # A member name outside the BMP may hide in an ASCII line as a `\ud83d\ude00` escape.
    non_ascii = not raw.isascii() or b"\\u" in raw
    if type(prev) is str and prev.isascii():
        try:
            canon = event_canonical(event, non_ascii, ctx.spelling)
        except CanonicalError as exc:
            if found is None:
                found = []
            found.append((UNREPRESENTABLE, f"cannot hash the event canonically: {exc}"))
        else:
            computed = sha256(prev.encode() + canon).hexdigest()
    schema = get("schema")
    if schema != SCHEMA:
        if found is None:
            found = []
        found.append((SCHEMA_UNSUPPORTED, "no `schema` member" if schema is None else
                      f"unsupported schema {str(schema)[:80]!r} (this tool reads {SCHEMA!r})"))
        etype = get("type")
        return (UNSUPPORTED, recorded, prev, computed, hash_ok, found,
                etype if type(etype) is str else "?")
    producer = get("producer")
    trust = get("trust_level")
    etype = get("type")
    run_id = get("run_id")
    seq = get("producer_sequence")
    wall = get("wall_time")
    if (type(producer) is not str or type(trust) is not str or type(etype) is not str
            or type(run_id) is not str):
        if found is None:
            found = []
        for name, value in (("run_id", run_id), ("producer", producer),
                            ("trust_level", trust), ("type", etype)):
            if value is None:
                found.append((FIELD_MISSING, f"missing member {name!r}"))
            elif type(value) is not str:
                found.append((FIELD_TYPE, f"{name} must be a string, not "
                                          f"{type(value).__name__}"))
        producer = producer if type(producer) is str else "?"
        trust = trust if type(trust) is str else None
        etype = etype if type(etype) is str else "?"
        run_id = run_id if type(run_id) is str else None
    if type(payload) is not dict:
        if found is None:
            found = []
        if payload is None:
            found.append((FIELD_MISSING, "missing member 'payload'"))
        else:
            found.append((FIELD_TYPE, f"payload must be an object, not "
                                      f"{type(payload).__name__}"))
        payload = None
    if type(seq) is not int:
        if found is None:
            found = []
        if seq is None:
            found.append((FIELD_MISSING, "missing member 'producer_sequence'"))
        else:
            found.append((FIELD_TYPE, f"producer_sequence must be an integer, not "
                                      f"{type(seq).__name__}"))
        seq = None
    t = None
    if type(wall) is str:
        t = parse_wall_time(wall)
        if t is None:
            if found is None:
                found = []
            found.append((WALL_FORMAT, f"wall_time {wall[:60]!r} is not RFC 3339 UTC"))
    else:
        if found is None:
            found = []
        if wall is None:
            found.append((FIELD_MISSING, "missing member 'wall_time'"))
        else:
            found.append((FIELD_TYPE, f"wall_time must be a string, not "
                                      f"{type(wall).__name__}"))
    if producer == AGENT and trust is not None and trust != AGENT_TRUST:
        if found is None:
            found = []
        found.append((AGENT_TRUSTED, f"the agent claims trust level {trust[:40]!r}; the agent "
                                     f"is always {AGENT_TRUST!r}"))
    extra = None
    if etype in _SCORE_CLAIM_TYPES:
        if etype == "eval_result" and not (producer == EVALUATOR and trust == EVALUATOR_TRUST):
            if found is None:
                found = []
            found.append((EVAL_UNTRUSTED, f"eval_result from producer {producer[:40]!r} with "
                                          f"trust {str(trust)[:40]!r}: only the evaluator "
                                          f"({EVALUATOR_TRUST}) publishes the score"))
        extra = (payload, None, None)
    if payload is not None and ("seed_commitment" in payload or etype == "seed_commitment"):
        value = payload.get("seed_commitment")
        if value is None and etype == "seed_commitment":
            value = payload.get("commitment")
        if value is not None:
            extra = (extra[0] if extra else None, value, None)
    if ctx.leak is not None:
        leaked = ctx.leak.scan_leak(raw, event)
        if leaked is not None:
            if found is None:
                found = []
            found.append((SEED_LEAK, f"a raw seed (seed #{leaked} of the seeds file) appears "
                                     "in this event: only commitments may be recorded"))
    hits = scan_line(raw)
    if hits:
        if found is None:
            found = []
        for hit in hits:
            found.append((SECRET, f"looks like a {hit.label} at column {hit.column}: "
                                  f"{hit.excerpt}"))
    spell = None
    hint = ctx.spell_hint
    if hint and hash_ok and computed is not None and computed == recorded:
        if found is not None and raw[-1:] == b"\r":  # the line ending has its own rule
            raw = raw[:-1]
            compact = orjson.dumps(orjson.loads(raw)) == raw
        spell = line_spelling(raw, hint, compact, canon, recorded, event.keys())
    return (OK, recorded, prev, computed, hash_ok, found, producer, trust, etype, seq, t,
            run_id, extra, spell)


def examine_block(block: bytes, ctx: LineContext) -> list[tuple]:
    """(length, facts) for each `\\n`-terminated line of `block` (the last line may lack its
    `\\n`), the same as `examine_line` on each line.

    Most blocks are entirely ordinary; `_block_columns` proves that with whole-block C-level
    operations (one parse of the block as a JSON array, set-of-types checks, one hex decode)
    and only then skips the per-line checks. Anything unusual sends the block, or the line,
    through `examine_line`, which alone words findings."""
    cols = _columns(block, ctx)
    if cols is not None:
        return cols.facts(ctx)
    return [(len(raw), examine_line(raw, ctx)) for raw in _split(block)]


def scan_block(block: bytes, ctx: LineContext, summary: bool = True) -> tuple:
    """`("s", summary)` for a block whose lines are all ordinary and consistent among
    themselves (the hashes recompute, each links to the one before, one run_id, each
    producer's sequence increasing and clock not going back, one trust level each): a few
    hundred bytes instead of a tuple per line, applied by `TrajectoryChecker.apply_summary`,
    which checks how the block joins what came before. Otherwise `("f", examine_block(...))`.
    """
    if summary and native.JCS is not None:
        got = _native_summary(block, ctx, native.JCS)
        if got is not None:
            return ("s", got)
    if type(block) is not bytes:  # a view of the worker's shared slot: the summary did not do
        block = bytes(block)
    cols = _columns(block, ctx)
    if cols is None:
        return ("f", [(len(raw), examine_line(raw, ctx)) for raw in _split(block)])
    if summary:
        got = cols.summary()
        if got is not None:
            return ("s", got)
    return ("f", cols.facts(ctx))


def _columns(block: bytes, ctx: LineContext) -> _Columns | None:
    """The block's columns by the C accelerator where it is built, else by orjson (then
    blocks of a few lines go line by line: the columns would not pay for themselves)."""
    if native.JCS is not None:
        return _native_columns(block, ctx, native.JCS)
    lines = _split(block)
    return _block_columns(block, lines, ctx) if len(lines) > 8 else None


def _split(block: bytes) -> list[bytes]:
    lines = block.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


_COLUMNS = tuple(map(itemgetter, ("schema", "producer_sequence", "wall_time", "run_id",
                                   "trust_level", "producer", "type", "payload", "prev_hash",
                                   "hash")))
_SPECIAL_TYPES = _SCORE_CLAIM_TYPES | {"seed_commitment"}
_DUMP_SORTED = partial(orjson.dumps, option=_SORT)
_HASH_MEMBER = len(b'"hash":"",') + 64
_EMPTY_SHA256 = sha256()
_POP_HASH = methodcaller("pop", "hash")



def _canonical_or_none(event: dict, non_ascii: bool, spelling: _FloatSpelling) -> bytes | None:
    """The canonical bytes, or None when the event cannot be hashed (its line then goes
    through `examine_line`, which reports why)."""
    try:
        return event_canonical(event, non_ascii, spelling, True)
    except CanonicalError:
        return None


def _dump_sorted_or_none(event: dict) -> bytes | None:
    try:
        return orjson.dumps(event, option=_SORT)
    except TypeError:  # an integer beyond 2^53, nesting beyond orjson's depth limit
        return None


def _non_bmp_key(payload: dict) -> bool:
    names = "".join(payload)
    return not names.isascii() and max(names) > "\uffff"


class _Columns:
    """A block's events, column by column, once proven ordinary line by line (types, hash
    formats, wall_time shape); `redo` holds the lines `examine_line` must treat (score
    claims, commitments, possible secrets, lines not hashable the fast way)."""

    __slots__ = ("block", "_lines", "recorded", "prevs", "digests", "broken", "producers",
                 "trusts", "types", "seqs", "times", "walls", "run_ids", "redo", "spell")

    def __init__(self, block: bytes, lines: list[bytes] | None, **columns) -> None:
        self.block, self._lines = block, lines
        for name, value in columns.items():
            setattr(self, name, value)

    @property
    def lines(self) -> list[bytes]:
        """The block's lines, split when first needed (a block that sums up never is)."""
        if self._lines is None:
            self._lines = _split(self.block)
        return self._lines

    def facts(self, ctx: LineContext) -> list[tuple]:
        recorded = self.recorded
        computed = recorded
        if self.broken:  # `digests`: the computed hashes, 32 bytes each, joined
            computed = list(recorded)
            digests = self.digests
            for i in self.broken:
                computed[i] = digests[32 * i:32 * i + 32].hex()
        lines = self.lines
        lengths = list(map(len, lines))
        times = self.times if self.times is not None else _block_wall_times(self.walls)
        out = list(zip(lengths, zip(
            repeat(OK), recorded, self.prevs, computed, repeat(True), repeat(None),
            self.producers, self.trusts, self.types, self.seqs, times, self.run_ids,
            repeat(None), repeat(None) if self.spell is None else self.spell), strict=False))
        for i in self.redo:
            out[i] = (lengths[i], examine_line(lines[i], ctx))
        return out

    def summary(self) -> tuple | None:
        """(events, first prev_hash, last hash, run_id, producers, t_min, t_max, first
        run_start time, last run_end time, spelling) when the block is consistent in itself,
        or None. `producers`: (name, trust, events, first index, last index, first sequence,
        last sequence, first time, last time) each; `spelling`: None (check off) or
        `hint << SPELL_BITS | the spellings that reproduce every line`, never empty."""
        recorded, prevs = self.recorded, self.prevs
        if (self.redo or self.broken or prevs[1:] != recorded[:-1]
                or len(set(self.run_ids)) != 1):
            return None
        spell = None
        if self.spell is not None:
            spell = reduce(and_, self.spell)
            if not spell & SPELL_ALL:  # no spelling common to all: the line facts apply
                return None
        producers, types = self.producers, self.types
        # Uniform `…:SS.mmmZ` strings compare as their times do; converted only at the ends.
        times = self.times if self.times is not None else self.walls
        to_t = _wall_ms_z if self.times is None else float
        if len(set(zip(producers, self.trusts, strict=True))) != len(set(producers)):
            return None
        trust_of = dict(zip(producers, self.trusts, strict=True))
        if len(trust_of) > 16:  # a pass per producer below: line facts stay linear instead
            return None
        seqs = self.seqs
        every = range(len(producers))
        prods = []
        for name in trust_of:  # a few producers: C-level passes over each one's events
            idx = list(compress(every, map(eq, producers, repeat(name))))
            seq = list(map(seqs.__getitem__, idx))
            ts = list(map(times.__getitem__, idx))
            if not (all(map(lt, seq, seq[1:])) and all(map(le, ts, ts[1:]))):
                return None
            prods.append((name, trust_of[name], len(idx), idx[0], idx[-1], seq[0], seq[-1],
                          to_t(ts[0]), to_t(ts[-1])))
        prods = tuple(prods)
        t_start = to_t(times[types.index("run_start")]) if "run_start" in types else None
        t_end = (to_t(times[len(types) - 1 - types[::-1].index("run_end")])
                 if "run_end" in types else None)
        return (len(recorded), prevs[0], recorded[-1], self.run_ids[0], prods,
                to_t(min(times)), to_t(max(times)), t_start, t_end, spell)


def _block_columns(block: bytes, lines: list[bytes], ctx: LineContext) -> _Columns | None:
    """The columns of a block in which every line is an ordinary event, or None."""
    if b"\r" in block or (ctx.leak is not None and ctx.leak.block_hit(block)):
        return None
    try:
        events = orjson.loads(b"[" + b",".join(lines) + b"]")
    except orjson.JSONDecodeError:
        return None
    n = len(lines)
    # One value per line (a line holding `{..},{..}` would need a blank line elsewhere to
    # keep the count, and a blank line is not valid inside the array).
    if len(events) != n or set(map(type, events)) != {dict}:
        return None
    try:  # one C-level pass per member: cheaper than a tuple per event, then transposed
        (schemas, seqs, walls, run_ids, trusts, producers, types, payloads, prevs,
         recorded) = [list(map(get, events)) for get in _COLUMNS]
    except KeyError:
        return None
    if (set(schemas) != {SCHEMA} or set(map(type, seqs)) != {int}
            or set(map(type, walls)) != {str} or set(map(type, payloads)) != {dict}):
        return None
    for column in (run_ids, trusts, producers, types, prevs, recorded):
        if set(map(type, column)) != {str}:
            return None
    rec_bin = b""
    for column in (prevs, recorded):
        if set(map(len, column)) != {64}:
            return None
        joined = "".join(column)
        if joined != joined.lower() or not joined.isascii():
            return None
        try:
            rec_bin = bytes.fromhex(joined)
        except ValueError:
            return None
        if len(rec_bin) != 32 * n:  # whitespace would be skipped
            return None
    for producer, trust in set(zip(producers, trusts, strict=True)):
        if producer == AGENT and trust != AGENT_TRUST:
            return None
    if _uniform_walls(walls):
        times = None  # the strings order as the times do: converted only where needed
    else:
        times = _block_wall_times(walls)
        if None in times:
            return None
    lengths = list(map(len, lines))
    redo: set[int] = set()
    # "Plain" events: the ten envelope members, a flat payload without floats (hence no
    # float token on the line: orjson parses every `.`/`e` number, and integers beyond
    # 2^64, as floats) and no member name outside the BMP. Every token of such a line is
    # spelled at least as long as orjson spells it, so a sorted dump exactly as long as
    # the line proves no member was repeated (a dropped duplicate shortens the dump) and
    # the dump, `hash` cut off, is the RFC 8785 form.
    plain = list(map(_PLAIN.issuperset, map(map, repeat(type), map(dict.values, payloads))))
    if set(map(len, events)) != {10}:
        plain = [ok and len(ev) == 10 for ok, ev in zip(plain, events, strict=True)]
    if not block.isascii():
        for i, raw in enumerate(lines):
            if plain[i] and not raw.isascii() and _non_bmp_key(payloads[i]):
                plain[i] = False
    if all(plain):
        plain_idx = range(n)
        chosen = events
    else:
        plain_idx = [i for i, ok in enumerate(plain) if ok]
        chosen = list(map(events.__getitem__, plain_idx))
    for _ in map(_POP_HASH, chosen):  # `recorded` holds them
        pass
    try:
        bodies = list(map(_DUMP_SORTED, chosen))
        # A plain dump is the line less its `"hash":"<64 hex>",` (74 bytes), or shorter.
        same = list(map(add, map(len, bodies), repeat(_HASH_MEMBER))) == (
            lengths if len(chosen) == n else [lengths[i] for i in plain_idx])
    except TypeError:  # an integer beyond 2^53: that line goes through examine_line
        bodies = list(map(_dump_sorted_or_none, chosen))
        same = False
    if len(chosen) < n or not same:
        dumped, bodies = bodies, [b""] * n
        for i, d in zip(plain_idx, dumped, strict=True):
            if d is None or len(d) + _HASH_MEMBER != lengths[i]:
                redo.add(i)
            else:
                bodies[i] = d
    if len(chosen) < n:
        spelling = ctx.spelling
        for i, ok in enumerate(plain):
            if ok:
                continue
            ev, raw = events[i], lines[i]
            try:
                if orjson.dumps(ev) != raw:  # not compact, or a member repeated
                    redo.add(i)
                    continue
            except TypeError:  # nesting beyond orjson's limit
                redo.add(i)
                continue
            del ev["hash"]
            body = _canonical_or_none(ev, not raw.isascii(), spelling)
            if body is None:
                redo.add(i)
            else:
                bodies[i] = body
    # Copying an empty context skips OpenSSL 3's per-object digest fetch (~1 us an event).
    new_hash = _EMPTY_SHA256.copy
    digests = []
    append = digests.append
    for prev, body in zip(prevs, bodies, strict=True):
        h = new_hash()
        h.update(prev.encode())
        h.update(body)
        append(h.digest())
    joined = b"".join(digests)
    broken = [] if joined == rec_bin else [
        i for i, d in enumerate(digests) if d != rec_bin[32 * i:32 * i + 32]]
    # Lines that need the full per-line treatment: score claims and commitments (extra
    # facts), possible secrets, events that cannot be hashed the fast way.
    special = set(types) & _SPECIAL_TYPES
    if special:
        redo.update(i for i, etype in enumerate(types) if etype in special)
    if any(map(dict.__contains__, payloads, repeat("seed_commitment"))):
        redo.update(i for i, pl in enumerate(payloads) if "seed_commitment" in pl)
    markers = markers_in(block)
    if markers:
        redo.update(i for i, raw in enumerate(lines) if any(m in raw for m in markers))
    hint = ctx.spell_hint
    spell = None
    if hint:
        spell = _block_spelling(hint, lines, events, plain, bodies, recorded, broken, redo,
                                block)
    return _Columns(block, lines, recorded=recorded, prevs=prevs, broken=broken, digests=joined,
                    producers=producers, trusts=trusts, types=types, seqs=seqs, times=times,
                    walls=walls, run_ids=run_ids, redo=redo, spell=spell)


def _native_columns(block: bytes, ctx: LineContext, jcs) -> _Columns | None:
    """`_block_columns` by `_jcs.scan` (see _jcs.c). The lines it declines, like those the
    per-line rules must see (score claims, commitments, possible secrets), go through
    `examine_line`. The block is split into lines only when some line needs it."""
    if ctx.leak is not None and ctx.leak.block_hit(block):
        return None
    (keys, digests, recorded, prevs, producers, trusts, types, seqs, walls, run_ids,
     declined, broken, seeded) = jcs.scan(block, SCHEMA)
    redo = set(declined)
    redo.update(seeded)
    if any(p == AGENT and t != AGENT_TRUST for p, t in set(zip(producers, trusts, strict=True))):
        redo.update(i for i, (p, t) in enumerate(zip(producers, trusts, strict=True))
                    if p == AGENT and t != AGENT_TRUST)
    if _uniform_walls(walls):
        times = None  # the strings order as the times do: converted only where needed
    else:
        times = _block_wall_times(walls)
        if None in times:
            redo.update(i for i, t in enumerate(times) if t is None)
    special = set(types) & _SPECIAL_TYPES
    if special:
        redo.update(i for i, etype in enumerate(types) if etype in special)
    cols = _Columns(block, None, recorded=recorded, prevs=prevs, broken=broken,
                    digests=digests, producers=producers, trusts=trusts, types=types, seqs=seqs,
                    times=times, walls=walls, run_ids=run_ids, redo=redo, spell=None)
    markers = jcs.markers(block, MARKERS)
    if markers:  # (`cols.lines`: the block is split only here and for the spellings)
        redo.update(i for i, raw in enumerate(cols.lines) if any(m in raw for m in markers))
    if ctx.spell_hint:
        cols.spell = _native_spelling(ctx.spell_hint, cols, memoryview(keys).cast("H"),
                                      recorded, redo.union(broken) if broken else redo)
    return cols


def _native_summary(block: bytes, ctx: LineContext, jcs) -> tuple | None:
    """`_Columns.summary()` of the block straight from `_jcs.summarise` (no Python object per
    line), or None: then the columns decide, line by line where needed. The checks here are
    those of `_native_columns` and `summary` that need the whole block's facts: no line for the
    per-line rules (score claims, commitments, possible secrets, a trusted agent), dates that
    exist, one spelling common to all lines. tests/test_native_jcs.py holds the two to the
    same summaries."""
    if ctx.leak is not None and ctx.leak.block_hit(block):
        return None
    got = jcs.summarise(block, SCHEMA, MARKERS)  # None too where a line holds a marker
    if got is None:
        return None
    (events, first_prev, last_hash, run_id, prods, wmin, wmax, wstart, wend, types, minutes,
     keys) = got
    if _SPECIAL_TYPES.intersection(types) or None in map(_minute, minutes):
        return None
    for name, trust, *_ in prods:
        if name == AGENT and trust != AGENT_TRUST:
            return None
    spell = None
    hint = ctx.spell_hint
    if hint:
        table = _native_spell_table(hint)
        values = [table[k] for k in keys]
        if _NAT_SLOW in values:
            return None
        spell = reduce(and_, values)
        if not spell & SPELL_ALL:
            return None
    prods = tuple((name, trust, count, first, last, seq0, seq1, _wall_ms_z(w0), _wall_ms_z(w1))
                  for name, trust, count, first, last, seq0, seq1, w0, w1 in prods)
    return (events, first_prev, last_hash, run_id, prods, _wall_ms_z(wmin), _wall_ms_z(wmax),
            None if wstart is None else _wall_ms_z(wstart),
            None if wend is None else _wall_ms_z(wend), spell)


def _nat_masks(bits: dict[str, int], orjson_floats: bool) -> list[int | None]:
    """Per status key of `_jcs.scan` (11 bits), the spellings that reproduce such a line, or
    None where the key does not tell. A line spelled minimally but for its floats (no
    whitespace, every string and integer as RFC 8785 spells it) is orjson's compact form when
    its floats are spelled as orjson writes them, and json.dumps' compact one when they are
    spelled as repr (ensure_ascii too when the line is ASCII without DEL); with members in code
    point order at every level, also their sorted forms; spelled minimally throughout with
    members in UTF-16 order, RFC 8785. `orjson_floats`: whether `_jcs` spells floats as the
    installed orjson does (else those lines take `line_spelling`). tests/test_native_jcs.py
    holds this table to `spelling_mask`."""
    out: list[int | None] = []
    for key in range(1 << 11):
        if not (key & bits["ST_OK"] and key & bits["ST_MINX"]):
            out.append(None)
            continue
        floats = bool(key & bits["ST_FLOAT"])
        if floats and not orjson_floats:
            out.append(None)
            continue
        ascii_ = bool(key & bits["ST_ASCII"])
        sorted_cp = bool(key & bits["ST_SORTED_CP"])
        m = 0
        if not floats or key & bits["ST_F_ORJSON"]:
            m |= SPELL_ORJSON | (SPELL_ORJSON_SORTED if sorted_cp else 0)
        if not floats or key & bits["ST_F_REPR"]:
            m |= _D_BIT[(_C, False, False)] | (_D_BIT[(_C, False, True)] if sorted_cp else 0)
            if ascii_:
                m |= _D_BIT[(_C, True, False)] | (_D_BIT[(_C, True, True)] if sorted_cp else 0)
        if key & bits["ST_MIN"] and key & bits["ST_SORTED_U16"]:
            m |= SPELL_JCS
        out.append(m)
    return out


def _orjson_floats_agree(jcs) -> bool:
    """Whether `_jcs` spells floats exactly as the installed orjson writes them (orjson's
    notation has changed between releases): probed at the edges of each notation."""
    probes = (0.1, 1e-7, 1e-6, 1e-5, 2.5e-5, 1e-4, 0.001, 1e15, 1e16, 1.5e16, 56.0, 1e21,
              1e22, 5e-324, 1.7976931348623157e308, -0.0, 0.0, -3.25, 123456789012345680.0)
    try:
        return all(jcs.float_spellings(x)[2] == orjson.dumps(x).decode() for x in probes)
    except Exception:  # noqa: BLE001 - any doubt: the Python path decides
        return False


_NAT_BITS = {k: getattr(native.JCS, k) for k in dir(native.JCS) if k.startswith("ST_")} if (
    native.JCS is not None) else {}
_NAT_MASKS = (_nat_masks(_NAT_BITS, _orjson_floats_agree(native.JCS))
              if native.JCS is not None else [])
_NAT_SLOW = object()
_NAT_SPELL: dict[int, list] = {}


def _native_spell_table(hint: int) -> list:
    """The `spell` fact of a line per status key, for the spellings in `hint`; `_NAT_SLOW`
    where `line_spelling` must decide."""
    table = _NAT_SPELL.get(hint)
    if table is None:
        high = hint << SPELL_BITS
        table = _NAT_SPELL[hint] = [high | m & hint if m is not None and m & hint else _NAT_SLOW
                                    for m in _NAT_MASKS]
    return table


def _native_spelling(hint: int, cols: _Columns, keys, recorded, skip) -> list:
    """`examine_line`'s `spell` fact for each line from `_jcs.scan`'s status keys; lines the
    keys do not settle (whitespace, escapes no writer here uses) take `line_spelling`."""
    spell = list(map(_native_spell_table(hint).__getitem__, keys))
    for i in skip:
        spell[i] = None
    if _NAT_SLOW in spell:
        lines = cols.lines
        for i, v in enumerate(spell):
            if v is _NAT_SLOW:
                raw = lines[i]
                spell[i] = line_spelling(raw, hint, orjson.dumps(orjson.loads(raw)) == raw,
                                         None, recorded[i], None)
    return spell


def _block_spelling(hint: int, lines, events, plain, bodies, recorded, broken, redo,
                    block: bytes) -> list:
    """`examine_line`'s `spell` fact for each line of a block (None for the lines it redoes
    and those whose hash does not recompute). A plain line, proven length-minimal, without a
    `\\u` escape needs no serialisation: see `_PLAIN_U`."""
    n = len(lines)
    skip = redo.union(broken) if broken else redo
    # memchr for a backslash first: searching a 2-byte needle costs ~1.5 ms a MiB
    no_u = b"\\" not in block or _ESCAPE.search(block) is None
    if hint == SPELL_ORJSON and no_u:  # an orjson stream's steady state: every line checked
        # here is orjson-compact (plain ones by their length, the others by a dump)
        v = SPELL_ORJSON << SPELL_BITS | SPELL_ORJSON
        if not skip:
            return [v] * n
        return [None if i in skip else v for i in range(n)]
    spell: list = [None] * n
    all_ascii = block.isascii() and b"\x7f" not in block  # ensure_ascii escapes DEL too
    sorted_bits = hint & _PLAIN_S_A
    high = hint << SPELL_BITS
    for i in range(n):
        if i in skip:
            continue
        raw = lines[i]
        if plain[i] and (no_u or _ESCAPE.search(raw) is None):
            a = all_ascii or (raw.isascii() and b"\x7f" not in raw)
            m = _PLAIN_U_A if a else _PLAIN_U
            if (sorted_bits and raw[:9] == b'{"hash":"'
                    and raw == b'{"hash":"' + recorded[i].encode() + b'",' + bodies[i][1:]):
                m |= _PLAIN_S_A if a else _PLAIN_S
            m &= hint
            spell[i] = high | m if m else line_spelling(raw, hint, True, bodies[i],
                                                         recorded[i], events[i].keys())
        elif plain[i]:  # same length as orjson's spelling, but `\u001F` is not orjson's
            spell[i] = line_spelling(raw, hint, orjson.dumps(orjson.loads(raw)) == raw,
                                     bodies[i], recorded[i], events[i].keys())
        else:  # an orjson-compact line (others are redone) with its canonical body
            spell[i] = line_spelling(raw, hint, True, bodies[i], recorded[i], events[i].keys())
    return spell


# -- stateful: facts in line order -> findings, chain, run ----------------------------------
class TrajectoryChecker:
    """The state of one pass over a trajectory; feed it lines in order, then `finish()`.

    `line(offset, raw, n)` examines and applies one line; `apply(offset, length, n, facts)`
    applies facts computed elsewhere (the worker process).
    """

    def __init__(self, report: Report, file: str | None, seeds: SeedCheck | None = None,
                 index: EventIndex | None = None, spelling: bool | None = None) -> None:
        self.report = report
        self.file = file
        self.seeds = seeds or SeedCheck()
        self.index = index
        self.ctx = LineContext(self.seeds, spelling)
        self.events = 0
        self.last_hashes: tuple[str | None, str | None] | None = None  # (recorded, computed)
        self.last_hash_line = 0
        self.head: str | None = None
        self.breaks = 0
        self.unreadable = 0
        self.first_break: dict | None = None
        self.run_id: str | None = None
        self.run_id_line = 0
        self.producers: dict[str, _Producer] = {}
        self.t_min: float | None = None
        self.t_max: float | None = None
        self.run_start: float | None = None
        self.run_end: float | None = None
        self.authoritative: dict | None = None
        self.authoritative_line: int | None = None
        self.claims: list[dict] = []
        self.claims_total = 0
        self.secret_hits = 0
        # The spellings that reproduced the intact lines so far, tried first on the next:
        # None before the first intact line a known spelling reproduces, 0 when the check
        # is off (two intact lines before it that none reproduces: an unknown writer).
        self.spell: int | None = None if self.ctx.spell_hint else 0
        self.spell_pending: int | None = None

    def _spelled(self, n: int, v: int) -> None:
        """Apply line `n`'s `spell` fact. A line no known spelling reproduces is reported
        once the stream has shown a known spelling; the first such line waits for the next
        intact line to decide (line 1 edited, or a writer this tool does not know: the
        check is then off)."""
        have = self.spell
        m = v & SPELL_ALL
        if not m:
            if have is None:
                if self.spell_pending is None:
                    self.spell_pending = n
                else:
                    self.spell = self.ctx.spell_hint = 0  # an unknown writer: off
                return
            self._respelled(n)
            return
        if have is None and self.spell_pending is not None:
            self._respelled(self.spell_pending)
            self.spell_pending = None
        have = (have & m) or m if have else m
        if have != self.spell:
            self.spell = self.ctx.spell_hint = have

    def _respelled(self, n: int) -> None:
        self._add(RESPELLED, "no known serialiser spells this line as it is (the other lines "
                             "are spelled as RFC 8785, orjson or json.dumps write), though its "
                             "value and hash are intact: its bytes were probably edited in place",
                  n)

    def _add(self, r: Rule, message: str, line: int | None) -> None:
        self.report.add(r.at(message, self.file, line))

    def _break(self, line: int, kind: str) -> None:
        self.breaks += 1
        if self.first_break is None:
            self.first_break = {"line": line, "kind": kind}

    def line(self, offset: int, raw: bytes | None, n: int) -> None:
        """Check line `n` (1-based) whose bytes (without `\\n`) start at `offset`; `raw` is
        None for a line too long to read."""
        if raw is None:
            self.apply(offset, 0, n, (UNREADABLE, [(TOO_LONG, f"line longer than {MAX_LINE} "
                                                              "bytes, not read")]))
            return
        self.apply(offset, len(raw), n, examine_line(raw, self.ctx))

    def apply(self, offset: int, length: int, n: int, facts: tuple) -> None:
        self.events += 1
        status = facts[0]
        found = facts[1] if status == UNREADABLE else facts[5]
        if found:
            for r, message in found:
                if r.id == "secret.suspect":
                    self.secret_hits += 1
                elif r.id == "seed.leak":
                    self.seeds.leaks += 1
                self.report.add(r.at(message, self.file, n))
        if status == UNREADABLE:
            self.unreadable += 1
            self._break(n, "unreadable")
            if self.index is not None:
                self.index.add(offset, length, n, None, "?", "?")
            return
        self._chain(n, facts[2], facts[1], facts[3], facts[4])
        if status == OK and facts[13] is not None and self.spell != 0:
            self._spelled(n, facts[13])
        if status == UNSUPPORTED:
            if self.index is not None:
                self.index.add(offset, length, n, None, "?", facts[6])
            return
        (_, _, _, _, _, _, producer, trust, etype, seq, t, run_id, extra, _) = facts
        if run_id is not None:
            if self.run_id is None:
                self.run_id, self.run_id_line = run_id, n
            elif run_id != self.run_id:
                self._add(RUN_ID, f"run_id {run_id[:60]!r} differs from {self.run_id[:60]!r} "
                                  f"(line {self.run_id_line})", n)
        p = self.producers.get(producer)
        if p is None:
            p = self.producers[producer] = _Producer()
        p.events += 1
        if trust is not None:
            if p.trust is None:
                p.trust, p.trust_line = trust, n
            elif trust != p.trust:
                self._add(TRUST_INCONSISTENT, f"producer {producer[:40]!r} is {trust[:40]!r} "
                                              f"here but was {p.trust[:40]!r} at line "
                                              f"{p.trust_line}", n)
        if seq is not None:
            if p.seq is not None and seq <= p.seq:
                self._add(SEQUENCE, f"producer_sequence {seq} of {producer[:40]!r} is not "
                                    f"greater than {p.seq} (line {p.seq_line})", n)
            else:
                p.seq, p.seq_line = seq, n
        if t is not None:
            if p.wall is not None and t < p.wall:
                self._add(WALL_BACKWARDS, f"wall_time of {producer[:40]!r} is "
                                          f"{p.wall - t:.3f} s before line {p.wall_line}'s", n)
            p.wall, p.wall_line = t, n
            if self.t_min is None or t < self.t_min:
                self.t_min = t
            if self.t_max is None or t > self.t_max:
                self.t_max = t
            if etype == "run_start":
                if self.run_start is None:
                    self.run_start = t
            elif etype == "run_end":
                self.run_end = t
        if extra is not None:
            payload, commitment_value, _ = extra
            if etype in _SCORE_CLAIM_TYPES:
                self._score(n, producer, trust, etype, payload)
            if commitment_value is not None:
                f = self.seeds.add(commitment_value, n, self.file)
                if f is not None:
                    self.report.add(f)
        if self.index is not None:
            self.index.add(offset, length, n, t, producer, etype)

    def apply_many(self, offset: int, items: list, n: int) -> int:
        """`apply` for a block's (length, facts), returning the last line number. An
        ordinary event (links, recomputes, same run, its producer's sequence and clock going
        on) is applied inline; anything else goes through `apply`, which words findings."""
        producers = self.producers
        index = self.index
        run_id0 = self.run_id
        last = self.last_hashes
        tmin, tmax = self.t_min, self.t_max
        fast = 0
        for length, f in items:
            n += 1
            if (f[0] == OK and f[5] is None and f[12] is None and last is not None
                    and f[3] == f[1] and (f[2] == last[0] or f[2] == last[1])
                    and f[11] == run_id0 and f[8] != "run_start" and f[8] != "run_end"):
                p = producers.get(f[6])
                t = f[10]
                if (p is not None and p.trust == f[7] and p.seq is not None and f[9] > p.seq
                        and p.wall is not None and t >= p.wall):
                    fast += 1
                    last = (f[1], f[3])
                    if f[13] is not None and self.spell != 0:
                        self._spelled(n, f[13])
                    p.events += 1
                    p.seq = f[9]
                    p.seq_line = n
                    p.wall = t
                    p.wall_line = n
                    if t < tmin:
                        tmin = t
                    elif t > tmax:
                        tmax = t
                    if index is not None:
                        index.add(offset, length, n, t, f[6], f[8])
                    offset += length + 1
                    self.last_hash_line = n
                    continue
            self.last_hashes, self.t_min, self.t_max = last, tmin, tmax
            self.events += fast
            fast = 0
            if last is not None and self.head != last[0]:
                self.head = last[0]
            self.apply(offset, length, n, f)
            offset += length + 1
            last, tmin, tmax, run_id0 = self.last_hashes, self.t_min, self.t_max, self.run_id
        self.events += fast
        self.last_hashes, self.t_min, self.t_max = last, tmin, tmax
        if fast and last is not None:
            self.head = last[0]
        return n

    def apply_summary(self, s: tuple, n: int) -> int | None:
        """Apply a block summary (see `scan_block`) after line `n`; the last line number, or
        None (nothing applied) when the block does not join on cleanly: its first link, its
        run_id, a producer's trust, sequence or clock against what came before. The caller
        then applies the block's line facts, which word the findings."""
        if self.index is not None:
            return None
        k, first_prev, last_rec, run_id, prods, tmin, tmax, t_start, t_end, spell = s
        last = self.last_hashes
        if last is None:
            if first_prev != ZERO_HASH:
                return None
        elif first_prev != last[0] and first_prev != last[1]:
            return None
        if self.run_id is not None and run_id != self.run_id:
            return None
        producers = self.producers
        for name, trust, _, _, _, first_seq, _, first_t, _ in prods:
            p = producers.get(name)
            if p is not None and (p.trust != trust or (p.seq is not None and first_seq <= p.seq)
                                  or (p.wall is not None and first_t < p.wall)):
                return None
        if self.run_id is None:
            self.run_id, self.run_id_line = run_id, n + 1
        for name, trust, count, first_i, last_i, _, last_seq, _, last_t in prods:
            p = producers.get(name)
            if p is None:
                p = producers[name] = _Producer()
                p.trust, p.trust_line = trust, n + first_i + 1
            p.events += count
            p.seq, p.seq_line = last_seq, n + last_i + 1
            p.wall, p.wall_line = last_t, n + last_i + 1
        if spell is not None and self.spell != 0:
            self._spelled(n + 1, spell)  # every line is spelled as known: reports only an
            # earlier line held as `spell_pending`
        self.events += k
        self.last_hashes = (last_rec, last_rec)
        self.last_hash_line = n + k
        self.head = last_rec
        if self.t_min is None or tmin < self.t_min:
            self.t_min = tmin
        if self.t_max is None or tmax > self.t_max:
            self.t_max = tmax
        if t_start is not None and self.run_start is None:
            self.run_start = t_start
        if t_end is not None:
            self.run_end = t_end
        return n + k

    def _chain(self, n: int, prev: Any, recorded: Any, computed: str | None,
               hash_ok: bool) -> None:
        if not hash_ok or computed is None:
            self.unreadable += 1
            self._break(n, "unreadable")
            if computed is not None or isinstance(recorded, str):
                self.last_hashes = (recorded if isinstance(recorded, str) else None, computed)
                self.last_hash_line = n
            return
        if computed != recorded:
            self._add(EDITED, f"hash does not recompute: recorded {recorded[:16]}…, "
                              f"computed {computed[:16]}…: this event was edited", n)
            self._break(n, "edited")
        elif self.last_hashes is None:
            if prev != ZERO_HASH:
                if n == 1:
                    self._add(FIRST_PREV, f"first event's prev_hash is {prev[:16]}…, not 64 "
                                          "zeros: events before it are missing", n)
                else:
                    self._add(LINK, f"prev_hash {prev[:16]}… is not the start of the chain "
                                    "(64 zeros) and no earlier line is readable", n)
                self._break(n, "link")
        elif prev not in self.last_hashes:
            self._add(LINK, f"prev_hash {prev[:16]}… is not the hash of the previous event "
                            f"(line {self.last_hash_line}): an event was deleted, inserted or "
                            "reordered just before this one", n)
            self._break(n, "link")
        self.last_hashes = (recorded, computed)
        self.last_hash_line = n
        self.head = recorded

    def _score(self, n: int, producer: str, trust: str | None, etype: str,
               payload: dict | None) -> None:
        if etype == "eval_result" and producer == EVALUATOR and trust == EVALUATOR_TRUST:
            self.authoritative = payload
            self.authoritative_line = n
            return
        self.claims_total += 1
        if len(self.claims) < _MAX_CLAIMS:
            score = payload.get("score") if payload else None
            self.claims.append({"line": n, "producer": producer, "trust_level": trust,
                                "type": etype, "score": score, "label": "untrusted"})

    # -- the end ------------------------------------------------------------------------
    def finish(self, complete: bool, missing_final_newline: bool = False) -> float | None:
        """Whole-stream findings and the report's chain/run sections; the run duration."""
        rep = self.report
        rep.events = self.events
        if missing_final_newline and self.events:
            self._add(NO_FINAL_NEWLINE, "the last line has no terminating \\n", self.events)
        if complete and self.events == 0:
            self._add(EMPTY, "the trajectory holds no event", None)
        if complete and self.run_start is not None and self.run_end is None:
            self._add(RUN_END_MISSING, "run_start but no run_end: the run did not finish or "
                                       "its last events are missing", None)
        if (self.run_start is not None and self.run_end is not None
                and self.run_end < self.run_start):
            self._add(RUN_SPAN_ORDER, f"run_end ({_iso(self.run_end)}) is earlier than run_start "
                                      f"({_iso(self.run_start)}): no run span to measure", None)
        if complete and self.events and self.authoritative is None:
            self._add(NO_EVAL_RESULT, "no eval_result from the trusted evaluator: no "
                                      "authoritative score", None)
        for f in self.seeds.judge(self.run_id, self.file):
            rep.add(f)
        start = self.run_start if self.run_start is not None else self.t_min
        end = self.run_end if self.run_end is not None else self.t_max
        duration = (end - start) if start is not None and end is not None else None
        if duration is not None and duration < 0:
            duration = None
        valid = complete and self.breaks == 0 and self.events > 0
        rep.chain = {
            "events": self.events,
            "complete": complete,
            "valid": valid,
            "head": self.head,
            "first_break": self.first_break,
            "breaks": self.breaks,
            "unreadable_lines": self.unreadable,
        }
        rep.run = {
            "run_id": self.run_id,
            "producers": {name: {"events": p.events, "trust_level": p.trust}
                          for name, p in sorted(self.producers.items())},
            "started_at": _iso(start),
            "ended_at": _iso(end),
            "duration_s": duration,
            "span_from": "run_start/run_end" if self.run_start is not None
            and self.run_end is not None else "first/last wall_time",
            "score": {
                "authoritative": self.authoritative,
                "authoritative_line": self.authoritative_line,
                "untrusted_claims": self.claims,
                "untrusted_claims_total": self.claims_total,
            },
            "seeds": self.seeds.summary(),
            "secrets_suspected": self.secret_hits,
        }
        if self.index is not None and start is not None:
            times = self.index.times
            for i in range(len(times)):
                times[i] -= start
        return duration


def _iso(t: float | None) -> str | None:
    if t is None:
        return None
    from datetime import timezone

    dt = datetime.fromtimestamp(t, tz=timezone.utc)
    return dt.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class _Prefixed:
    """A reader that returns `head` first, then the rest of `raw` (after sniffing magic)."""

    def __init__(self, head: bytes, raw) -> None:
        self._head = head
        self._raw = raw

    def read(self, size: int = -1) -> bytes:
        if self._head:
            head, self._head = self._head, b""
            return head
        return self._raw.read(size)


class _Tee:
    """Counts decompressed bytes and copies them to a spool file for the GUI's event index."""

    def __init__(self, src, spool=None) -> None:
        self._src = src
        self._spool = spool
        self.total = 0

    def read(self, size: int = -1) -> bytes:
        data = self._src.read(size)
        self.total += len(data)
        if self._spool is not None and data:
            self._spool.write(data)
        return data


def verify_trajectory(sub, options, report: Report, progress: ProgressFn | None = None,
                      cancel: CancelToken | None = None):
    """Verify `sub.evidence` (events.jsonl.zst or events.jsonl) into `report`."""

    member = sub.evidence
    checker, digest = check_stream(
        member.open, member.name, member.size, report,
        seeds=options.seeds, secret=options.secret, build_index=options.build_index,
        spool_dir=options.spool_dir, local_path=member.local_path,
        progress=progress, cancel=cancel, role=member.role)
    if digest is not None:
        report.files.append(digest)
    duration = report.run.get("duration_s") if report.run else None
    return KindResult(checker.index if checker else None, duration)


def check_stream(opener: Callable, name: str, size: int, report: Report, *,
                 seeds=None, secret=None, build_index: bool = False, spool_dir=None,
                 local_path: Path | None = None, progress: ProgressFn | None = None,
                 cancel: CancelToken | None = None, role: str = "trajectory",
                 max_output: int = DEFAULT_MAX_OUTPUT, parallel: bool | None = None,
                 spelling: bool | None = None):
    """Read and check one trajectory stream; (checker, FileDigest of the raw bytes).

    `parallel`: examine part of the blocks in a worker process (default: for inputs of
    8 MB and more, outside the GUI, unless MODERATOR_APP_WORKERS=0). `spelling`: check
    `chain.respelled` (default: `spelling_check_default()`)."""
    seed_check = SeedCheck(tuple(seeds) if seeds else None, secret)
    try:
        fh = opener()
    except OSError as exc:
        report.add(UNREADABLE_MEMBER.at(f"cannot read: {exc.strerror or exc}", name))
        report.complete = False
        return None, None
    if parallel is None:
        # Not in the GUI (build_index) nor, unless it can fork, in a frozen bundle, where
        # `spawn` would start the application again instead of the worker.
        parallel = (not build_index and size >= PARALLEL_MIN_BYTES
                    and os.environ.get("MODERATOR_APP_WORKERS", "1") != "0"
                    and (_can_fork() or not getattr(sys, "frozen", False))
                    and (os.cpu_count() or 1) >= 2)
    spool = None
    index = None
    worker = None
    with fh:
        hr = HashingReader(fh, size, progress, cancel)
        head = hr.read(4)
        compressed = is_zstd_start(head)
        src: Any = _Prefixed(head, hr)
        if compressed:
            src = ZstdReader(src, max_output)
        if build_index:
            if not compressed and local_path is not None:
                index = EventIndex(source=Path(local_path))
            else:
                folder = Path(spool_dir) if spool_dir else Path(tempfile.mkdtemp(
                    prefix="moderator-app-"))
                folder.mkdir(parents=True, exist_ok=True)
                fd, spool_name = tempfile.mkstemp(prefix="events-", suffix=".jsonl",
                                                  dir=folder)
                spool = open(fd, "wb")  # noqa: SIM115 - closed below
                index = EventIndex(source=Path(spool_name))
        tee = LineBounded(_Tee(src, spool))  # a block of tiny lines stays small
        checker = TrajectoryChecker(report, name, seed_check, index, spelling)
        complete = True
        ends_with_newline = True
        try:
            if name.lower().endswith(".zst") and not compressed and head:
                raise ZstdStreamError("corrupt", "the file is named .zst but is not a zstd "
                                                 "stream", 0, 0)
            if parallel:
                try:
                    worker = _Worker(tuple(seeds) if seeds and secret is not None else None)
                except Exception:  # noqa: BLE001 - no second process: verify in this one
                    worker = None
            with _no_cyclic_gc():
                ends_with_newline = _run_blocks(tee, checker, worker)
        except ZstdStreamError as exc:
            complete = False
            report.complete = False
            rule_ = _ZSTD_RULES.get(exc.kind, ZSTD_CORRUPT)
            report.add(rule_.at(
                f"{exc} — {checker.events} events verified before it; the stream is "
                "INCOMPLETE", name, checker.events + 1))
        except OSError as exc:  # a damaged archive member, a failing disk
            complete = False
            report.complete = False
            report.add(UNREADABLE_MEMBER.at(
                f"read error: {exc} — {checker.events} events verified before it; the stream "
                "is INCOMPLETE", name, checker.events + 1))
        finally:
            if worker is not None:
                worker.close()
            if spool is not None:
                spool.close()
        with contextlib.suppress(OSError):
            hr.drain()
        digest = FileDigest(name, role, hr.bytes_read, hr.hexdigest())
    checker.finish(complete, complete and checker.events > 0 and not ends_with_newline)
    return checker, digest


@contextlib.contextmanager
def _no_cyclic_gc():
    """The pass allocates millions of short-lived, acyclic containers (events, rows): the
    cyclic collector would only rescan them. Paused for the pass, restored after."""
    import gc

    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


PARALLEL_MIN_BYTES = 8 << 20
BLOCK = 1 << 20
_MAX_INFLIGHT = 6


def _blocks(src, max_line: int = MAX_LINE):
    """(offset, block) with whole lines (`\\n`-terminated, but the last block may lack it),
    or (offset, None) for a line longer than `max_line` (skipped, never held)."""
    pending = b""
    pos = 0  # absolute offset of pending[0]
    skip_start = -1  # inside an over-long line starting here
    while True:
        chunk = src.read(BLOCK)
        if not chunk:
            break
        if skip_start >= 0:
            nl = chunk.find(b"\n")
            if nl < 0:
                pos += len(chunk)
                continue
            yield skip_start, None
            skip_start = -1
            pos += nl + 1
            chunk = chunk[nl + 1:]
        # One copy of the bytes at most: the block is the pending partial line and the chunk
        # up to its last newline, the rest of the chunk pends.
        cut = chunk.rfind(b"\n") + 1
        if cut:
            if pending:
                block = b"".join((pending, memoryview(chunk)[:cut]))
            else:
                block = chunk if cut == len(chunk) else chunk[:cut]
            yield pos, block
            pos += len(block)
            pending = chunk[cut:]
        else:
            pending += chunk
        if len(pending) > max_line:
            skip_start = pos
            pos += len(pending)
            pending = b""
    if skip_start >= 0:
        yield skip_start, None
    elif pending:
        yield pos, pending


def _run_blocks(src, checker: TrajectoryChecker, worker: _Worker | None) -> bool:
    """Examine every block (some in the worker), apply the facts in line order. Returns
    whether the stream ended with a newline."""
    queue: deque = deque()  # [offset, block, scan result or None]
    n = 0
    ends_with_newline = True
    ctx = checker.ctx
    summary = checker.index is None

    def flush(wait: bool) -> None:
        nonlocal n
        while queue:
            entry = queue[0]
            if entry[2] is None:
                if worker is None:
                    entry[2] = scan_block(entry[1], ctx, summary)
                else:
                    got = worker.result(wait)
                    if got is None:
                        return
                    entry[2] = got
            queue.popleft()
            kind, got = entry[2]
            if kind == "s":
                done = checker.apply_summary(got, n)
                if done is not None:
                    n = done
                    continue
                got = examine_block(entry[1], ctx)  # it does not join on: word the findings
            n = checker.apply_many(entry[0], got, n)

    try:
        for offset, block in _blocks(src):
            if block is None:
                flush(True)
                n += 1
                checker.line(offset, None, n)
                continue
            ends_with_newline = block[-1:] == b"\n"
            if (worker is not None and worker.inflight < _MAX_INFLIGHT
                    and worker.send(block, ctx.spell_hint)):
                queue.append([offset, block, None])
            else:
                queue.append([offset, block, scan_block(block, ctx, summary)])
            flush(False)
    except Exception:
        flush(True)  # the blocks read before a stream error count: "N events verified"
        raise
    flush(True)
    return ends_with_newline


def _worker_main(tasks, results, seeds: tuple[str, ...] | None, shared=None) -> None:
    """The worker process: examine blocks until None. Gets seeds (to spot leaks) but never the
    evaluator secret. No cyclic garbage is made here: the collector would only cost time.
    `shared`: the slots a forked worker shares with the main process (see `_Worker`)."""
    import gc

    gc.disable()
    ctx = LineContext(SeedCheck(seeds, "") if seeds else None)
    while True:
        data = tasks.get()
        if data is None:
            return
        data, ctx.spell_hint = data  # the main process's spelling set when it sent the block
        if type(data) is tuple:  # (slot, length) in the shared slots
            slot, length = data
            start = slot * _SLOT
            # The C summary reads the slot in place (no copy of the block); the slot is not
            # written again before this result is read. The seed-leak regex needs bytes.
            data = (shared[start:start + length] if ctx.leak is not None
                    else memoryview(shared)[start:start + length])
        results.put(scan_block(data, ctx))
        data = None  # (a view held past here would pin the mapping)


_SLOT = 2 << 20  # bytes per shared-memory slot; a longer block goes through the queue


def _can_fork() -> bool:
    """Whether the worker may be forked: on Linux, from a process running one thread (forking
    beside other threads, Qt's say, could copy a lock one of them holds). A forked worker
    starts at once with everything imported; `spawn` starts an interpreter that imports this
    module again (~0.2 s of the other core, and the first blocks all stay here)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


class _Worker:
    """A second process examining blocks, results returned in the order sent. A forked worker
    shares with this process an anonymous memory mapping of one slot per block in flight, and
    blocks travel through it: through the queue's pipe (64 KiB at a time) 1 MiB cost the
    worker ~5 ms of system time to receive, more than examining it. (Not
    `multiprocessing.shared_memory`: it starts a resource-tracker process, which in the frozen
    bundle is the application itself.) A spawned worker, or a longer block, takes the queue.
    The queues' feeder threads make both `put`s non-blocking (a pipe holds only 64 KiB:
    blocking writes on both sides would deadlock). Any failure makes the main process examine
    the block itself: the verdict never depends on the worker."""

    def __init__(self, seeds: tuple[str, ...] | None) -> None:
        import mmap
        import multiprocessing

        fork = _can_fork()
        mp = multiprocessing.get_context("fork" if fork else "spawn")
        self._shared = mmap.mmap(-1, _SLOT * _MAX_INFLIGHT) if fork else None
        self._tasks = mp.Queue()
        self._results = mp.Queue()
        self._proc = mp.Process(target=_worker_main, args=(
            self._tasks, self._results, seeds, self._shared), daemon=True)
        self._proc.start()
        self.inflight = 0
        self._count = 0
        self._sent: deque[tuple[bytes, int]] = deque()
        self._ctx = LineContext(SeedCheck(seeds, "") if seeds else None)
        self._broken = False

    def send(self, block: bytes, spell_hint: int = SPELL_ALL) -> bool:
        if self._broken:
            return False
        try:
            if self._shared is not None and len(block) <= _SLOT:
                # at most _MAX_INFLIGHT in flight, answered in order: this slot is free
                slot = self._count % _MAX_INFLIGHT
                self._shared[slot * _SLOT:slot * _SLOT + len(block)] = block
                self._tasks.put(((slot, len(block)), spell_hint))
            else:
                self._tasks.put((block, spell_hint))
        except (OSError, ValueError):
            self._broken = True
            return False
        self._count += 1
        self._sent.append((block, spell_hint))
        self.inflight += 1
        return True

    def result(self, wait: bool) -> list | None:
        import queue

        if not self._sent:
            return None
        while not self._broken:
            try:
                got = self._results.get(timeout=1.0) if wait else self._results.get_nowait()
            except queue.Empty:
                if not wait:
                    return None
                if not self._proc.is_alive():
                    self._broken = True
                continue
            except (OSError, EOFError, ValueError):
                self._broken = True
                break
            self._sent.popleft()
            self.inflight -= 1
            return got
        block, self._ctx.spell_hint = self._sent.popleft()  # the worker died: work here
        self.inflight -= 1
        return scan_block(block, self._ctx)

    def close(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self._tasks.put(None)
        self._proc.join(timeout=2)
        if self._proc.is_alive():
            self._proc.kill()
            self._proc.join(timeout=2)
        for q in (self._tasks, self._results):
            q.cancel_join_thread()
            q.close()
        if self._shared is not None:
            self._shared.close()
