"""Verification of a community run's `agent-log.jsonl` (seeds/agent-log-format.md + DESIGN.md).

One streaming pass: the log is read once through `HashingReader` (its SHA-256 is a side effect),
split into lines with a cap on line length, and each line is parsed strictly and checked against
the state carried from the lines before it. Memory stays flat in the number of lines except for
a compact record per `model_response` (its id, line, time and an 8-byte digest per requested
action), which the `action` rule needs since an action may name any earlier response.

How a careful moderator reads a log, and therefore how findings are placed:
- a `seq` discontinuity is reported once, where it happens, and counting resynchronises on the
  number seen (a deleted line is one finding, not one per following line); a line that cannot
  be parsed still consumes one number;
- `at` and `elapsedMs` are compared with the previous *valid* value, so one bad timestamp is one
  finding, not two (itself and the line after it);
- an action's `call` must name an earlier response, and its `name` and `args` (compared as
  canonical JSON) must be one of the actions that response asked for.
"""

from __future__ import annotations

import hashlib
import math
import re
from array import array
from datetime import datetime, timedelta, timezone
from typing import Any

import orjson

from moderator_app.core.formats.canonical import MAX_SAFE_INTEGER as _MAX_SAFE
from moderator_app.core.formats.canonical import CanonicalError, canonical_json_fast
from moderator_app.core.formats.event_index import EventIndex
from moderator_app.core.formats.jsonline import LineError, parse_line
from moderator_app.core.formats.streams import MAX_LINE, HashingReader, iter_lines
from moderator_app.core.progress import CancelToken, ProgressFn
from moderator_app.core.rules import Severity, rule
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS, Thresholds
from moderator_app.core.verify.input_rules import UNREADABLE_MEMBER
from moderator_app.core.verify.options import KindResult
from moderator_app.core.verify.report import FileDigest, Report

E, W = Severity.ERROR, Severity.WARNING
G = "agent-log"

# --- line syntax -------------------------------------------------------------------------------
JSON = rule("log.json", E, "Every line is one JSON value (valid JSON).", G)
UTF8 = rule("log.utf8", E, "The log is UTF-8 text.", G)
NOT_OBJECT = rule("log.not_object", E, "Every line is a JSON object, not an array or scalar.", G)
DUPLICATE_MEMBER = rule("log.duplicate_member", E,
                        "A line's object repeats a member name (ambiguous between parsers).", G)
LINE_TOO_LONG = rule("log.line_too_long", E,
                     f"A line is longer than {MAX_LINE >> 20} MiB (not read).", G)
BLANK_LINE = rule("log.blank_line", E, "A blank line between events (JSON Lines has none).", G)
TRAILING_BLANK = rule("log.trailing_blank", W,
                      "Blank lines at the end of the file (harmless, but not JSON Lines).", G)
BOM = rule("log.bom", W, "The file starts with a UTF-8 byte order mark (ignored).", G)
CRLF = rule("log.crlf", W, "Lines end with CR LF instead of LF (tolerated).", G)
EMPTY = rule("log.empty", E, "The log holds no events.", G)

# --- every event -------------------------------------------------------------------------------
SEQ = rule("log.seq", E,
           "`seq` is an integer: 0 on the first line, then exactly one more on each line.", G)
AT_FORMAT = rule("log.at_format", E, "`at` is an ISO 8601 date and time.", G)
AT_NOT_UTC = rule("log.at_not_utc", E, "`at` is in UTC (`Z` or `+00:00`).", G)
AT_ORDER = rule("log.at_order", E, "`at` is never earlier than on the line before.", G)
ELAPSED_FORMAT = rule("log.elapsed_format", E,
                      "`elapsedMs` is a non-negative number of milliseconds.", G)
ELAPSED_ORDER = rule("log.elapsed_order", E,
                     "`elapsedMs` is never smaller than on the line before.", G)
ELAPSED_DRIFT = rule("log.elapsed_drift", E,
                     "`elapsedMs` is within 2 s of `at` minus the run_start time.", G)
TYPE_UNKNOWN = rule("log.type_unknown", E, "`type` is one of the event types of the format.", G)
DATA_NOT_OBJECT = rule("log.data_not_object", E, "`data` is a JSON object.", G)

# --- event types -------------------------------------------------------------------------------
RUN_START_POSITION = rule("log.run_start_position", E,
                          "The first line is the run_start, and only the first line.", G)
RUN_START_FIELDS = rule("log.run_start_fields", E,
                        "run_start has `game`, `category`, `model` and `scaffold.name`.", G)
RUN_START_SLUG = rule("log.run_start_slug", W,
                      "run_start `game` and `category` look like site slugs (a-z, 0-9, -).", G)
RUN_END_POSITION = rule("log.run_end_position", E, "run_end is the last line only.", G)
RUN_END_MISSING = rule("log.run_end_missing", E,
                       "The log ends with a run_end (otherwise it may be truncated).", G)
RUN_END_FIELDS = rule("log.run_end_fields", E, "run_end has a `reason` string.", G)
WITHHELD_LEAK = rule("log.withheld_leak", E,
                     "A withheld model_request holds nothing but `\"withheld\": true`; a "
                     "model_response marked withheld keeps no `text` or `reasoning`.", G)
RESPONSE_FIELDS = rule("log.response_fields", E,
                       "model_response has `id` and `model` strings; `usage` an object and "
                       "`actions` a list of {name, args} objects when present.", G)
RESPONSE_ID_DUPLICATE = rule("log.response_id_duplicate", E,
                             "A model_response `id` is unique in the log.", G)
ACTION_FIELDS = rule("log.action_fields", E,
                     "An action has `call` and `name` strings and `args`.", G)
ACTION_UNKNOWN_CALL = rule("log.action_unknown_call", E,
                           "An action's `call` is the id of an earlier model_response.", G)
ACTION_NOT_REQUESTED = rule("log.action_not_requested", E,
                            "An action (name and args) is one its response asked for.", G)
RESPONSE_WITHOUT_ACTIONS = rule("log.response_without_actions", W,
                                "An action names a response that lists no actions, so the "
                                "response cannot vouch for it.", G)
ERROR_FIELDS = rule("log.error_fields", E, "An error event has a `message` string.", G)
NO_RESPONSE = rule("log.no_response", E, "A run has at least one model_response.", G)
NO_ACTION = rule("log.no_action", E, "A run has at least one action.", G)

# --- moderation signals (warnings; thresholds in thresholds.py) -------------------------------
GAP = rule("log.gap", W, "A long stretch with no events: watch the video there.", G)
ACTION_LATE = rule("log.action_late", W,
                   "An action runs long after the response that asked for it.", G)
ACTION_REPEATED = rule("log.action_repeated", W,
                       "An action runs more times than its response asked for it.", G)
RESPONSE_ACTIONS_UNRUN = rule("log.response_actions_unrun", W,
                              "A response asked for actions that never ran.", G)
RESPONSE_TOO_FAST = rule("log.response_too_fast", W,
                         "A response came faster after its request than a model can answer.", G)
MODEL_MISMATCH = rule("log.model_mismatch", W,
                      "A response's `model` differs from the run_start `model`.", G)

EVENT_TYPES = frozenset(("run_start", "model_request", "model_response", "action",
                         "observation", "error", "run_end"))
DRIFT_LIMIT_US = 2_000_000  # the 2 s rule, in microseconds (exact integer arithmetic)
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_US = timedelta(microseconds=1)
_SLUG = re.compile(r"[a-z0-9]+(?:[-_.][a-z0-9]+)*")
_JSON_KINDS = {"json": JSON, "utf8": UTF8, "not_object": NOT_OBJECT,
               "duplicate_member": DUPLICATE_MEMBER}
_BOM = b"\xef\xbb\xbf"
_loads, _dumps = orjson.loads, orjson.dumps


# The shape nearly every log uses: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+00:00)`. Its minute
# (`YYYY-MM-DDTHH:MM`) is looked up in a small cache, so a line costs one regex match and
# two int() calls instead of a datetime; any other spelling takes the general path.
_AT_FAST = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}):([0-5][0-9])"
                      r"(?:\.([0-9]{1,9}))?(?:Z|\+00:00)", re.ASCII)
_BAD_FRACTION = re.compile(r"[.,](?![0-9])")  # `02.Z`: a decimal sign with no digits
_MINUTES: dict[str, int] = {}
_SECONDS: dict[str, int] = {}  # `YYYY-MM-DDTHH:MM:SS` -> its microseconds, once validated


def _minute_us(prefix: str) -> int | None:
    got = _MINUTES.get(prefix)
    if got is None:
        try:
            dt = datetime.fromisoformat(prefix + ":00+00:00")
        except ValueError:
            return None
        if len(_MINUTES) >= 4096:
            _MINUTES.clear()
        got = _MINUTES[prefix] = (dt - _EPOCH) // _US
    return got


def parse_at(value: Any) -> tuple[int | None, Any, str]:
    """(microseconds since the epoch, None, "") for a valid UTC `at`, else (None, rule, why).

    Digits of the fraction beyond the sixth (nanoseconds) are dropped, as datetime does."""
    if type(value) is str:
        m = _AT_FAST.fullmatch(value)
        if m is not None:
            minute = _minute_us(m[1])
            if minute is not None:
                frac = m[3]
                us = int((frac + "00000")[:6]) if frac else 0
                return minute + int(m[2]) * 1_000_000 + us, None, ""
    if not isinstance(value, str):
        what = "missing" if value is None else f"a {type(value).__name__}, not a string"
        return None, AT_FORMAT, f"`at` is {what}"
    if len(value) < 16 or value[10] not in "Tt " or _BAD_FRACTION.search(value):
        return None, AT_FORMAT, f"`at` {value[:40]!r} is not an ISO 8601 date and time"
    try:
        dt = datetime.fromisoformat(value)  # Python 3.11+ reads `Z` itself
    except ValueError:
        dt = None
    if dt is None and value[-1] in "Zz":
        try:
            dt = datetime.fromisoformat(value[:-1] + "+00:00")
        except ValueError:
            dt = None
    if dt is None:
        return None, AT_FORMAT, f"`at` {value[:40]!r} is not an ISO 8601 date and time"
    tz = dt.tzinfo
    if tz is not timezone.utc:  # the common case skips the utcoffset() call
        off = dt.utcoffset()
        if off is None:
            return None, AT_NOT_UTC, f"`at` {value[:40]!r} has no time zone: it must be UTC (Z)"
        if off:
            return None, AT_NOT_UTC, f"`at` {value[:40]!r} is not UTC (offset {off}); use Z"
    return (dt - _EPOCH) // _US, None, ""


def action_blob(name: Any, args: Any) -> bytes:
    """The canonical JSON (RFC 8785) of `[name, args]`: what an action is compared by.

    Most args are a flat object of ASCII-named strings, booleans and small integers; for those
    orjson's sorted compact output is already the canonical form (same escaping, same member
    order, no floats to format), ten times faster than the general path."""
    if type(args) is dict and isinstance(name, str):
        for k, v in args.items():
            t = type(v)
            if not k.isascii() or not (t is str or t is bool or v is None or (
                    t is int and -_MAX_SAFE <= v <= _MAX_SAFE)):
                break
        else:
            return orjson.dumps([name, args], option=orjson.OPT_SORT_KEYS)
    try:
        return canonical_json_fast([name, args])
    except (CanonicalError, TypeError, RecursionError):
        # Not representable in JCS (an integer beyond 2^53) or nested too deeply for orjson:
        # compare the exact text instead.
        import json

        try:
            return json.dumps([name, args], sort_keys=True, ensure_ascii=False).encode(
                "utf-8", "surrogatepass")
        except RecursionError:
            return repr([name, args]).encode("utf-8", "surrogatepass")


_DIGESTS: dict[tuple[str, bytes], bytes] = {}


def action_digest(name: Any, args: Any) -> bytes:
    """8 bytes standing for (name, args) as canonical JSON, kept per requested action.

    A run repeats a handful of actions (`press A`) thousands of times: the digest is cached
    under the name and orjson's plain dump of the args, which is the same text only for the
    same value (member order included, `1` and `1.0` and `true` apart), so a hit is exact."""
    if type(args) is dict and type(name) is str:
        try:
            key = (name, _dumps(args))
        except TypeError:  # beyond 64-bit integers or 255 levels: no cache
            key = None
        if key is not None:
            got = _DIGESTS.get(key)
            if got is None:
                got = hashlib.blake2b(action_blob(name, args), digest_size=8).digest()
                if len(_DIGESTS) >= 4096:
                    _DIGESTS.clear()
                _DIGESTS[key] = got
            return got
    return hashlib.blake2b(action_blob(name, args), digest_size=8).digest()


def _is_number(x: Any) -> bool:
    t = type(x)
    return (t is int or t is float) and x >= 0 and (t is int or math.isfinite(x))


def _nonempty_str(x: Any) -> bool:
    return isinstance(x, str) and bool(x.strip())


def _short(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


class _Responses:
    """Compact per-response state: ordinal by id; line, time and requested-action digests in
    flat arrays: about 200 bytes per response (measured), most of it the id and its dict slot.
    This is the only state that grows with the log; everything else is per line."""

    def __init__(self) -> None:
        self.ordinal: dict[str, int] = {}
        self.line = array("q")
        self.el = array("d")  # elapsedMs, NaN when unknown
        self.first_slot = array("q")
        self.n_slots = array("l")  # -1: the response lists no actions
        self.digests = bytearray()
        self.used = bytearray()  # one byte per slot: how many times that action ran (max 255)

    def add(self, rid: str, line: int, el: float, digests: list[bytes] | None) -> None:
        self.ordinal[rid] = len(self.line)
        self.line.append(line)
        self.el.append(el)
        self.first_slot.append(len(self.used))
        if digests is None:  # no `actions` member: it cannot vouch (a warning, DESIGN.md)
            self.n_slots.append(-1)
            return
        self.n_slots.append(len(digests))
        for d in digests:
            self.digests += d
            self.used.append(0)

    def consume(self, k: int, digest: bytes) -> str:
        """'ok' (first run of a requested action), 'repeat', 'none' (not requested) or
        'unlisted' (the response lists no actions)."""
        n = self.n_slots[k]
        if n < 0:
            return "unlisted"
        first = self.first_slot[k]
        seen = False
        for s in range(first, first + n):
            if self.digests[s * 8:s * 8 + 8] == digest:
                if self.used[s] == 0:
                    self.used[s] = 1
                    return "ok"
                seen = True
        if seen:
            for s in range(first, first + n):
                if self.digests[s * 8:s * 8 + 8] == digest and self.used[s] < 255:
                    self.used[s] += 1
                    break
            return "repeat"
        return "none"

    def unrun(self):
        """(line, number of requested actions that never ran) for each such response."""
        for k in range(len(self.line)):
            n = self.n_slots[k]
            if n <= 0:
                continue
            first = self.first_slot[k]
            missing = sum(1 for s in range(first, first + n) if self.used[s] == 0)
            if missing:
                yield self.line[k], missing, n


class _Checker:
    """The state carried from line to line, and the checks of one line."""

    def __init__(self, report: Report, file: str, thresholds: Thresholds,
                 index: EventIndex | None) -> None:
        self.report = report
        self.file = file
        self.th = thresholds
        self.index = index
        self.expected_seq = 0
        self.alt_seq: int | None = None  # also accepted after a discontinuity (see _event)
        # The reference for the order checks: the last line whose `at` (microseconds) and
        # `elapsedMs` were usable and did not break the 2 s rule (see _timing).
        self.prev_at: int | None = None
        self.prev_el: float | None = None
        self.good_el: float | None = None  # ms, on the last line with no timing finding
        self.last_el: float | None = None  # ms, on the last line that had a usable one
        self.base_line: int | None = None
        self.base_line_at_text = ""
        self.drift_streak = True
        self.drift_buf: list = []
        self.drift_buf_count = 0
        self.drift_min = math.inf
        self.drift_max = -math.inf
        self.base_at: int | None = None
        self.base_el = 0.0
        self.lines = 0
        self.content_lines = 0  # lines that are not blank: the events read
        self.blank_pending: list[int] = []
        self.blank_pending_count = 0
        self.last_content_line = 0
        self.last_content_type: str | None = None
        # [line, next content line or None, follows another run_end] for each run_end; where a
        # misplaced run_end is reported is decided at the end (see _run_end_findings).
        self.run_ends: list[list] = []
        self.run_end_el: float | None = None
        self.run_start_model: str | None = None
        self.run: dict[str, Any] = {}
        self.req_el: float | None = None
        self.responses = _Responses()
        self.n_responses = 0
        self.n_actions = 0
        self.crlf_reported = False

    def add(self, r, message: str, line: int | None) -> None:
        self.report.add(r.at(message, self.file, line))

    # ------------------------------------------------------------------ per line
    def feed(self, offset: int, raw: bytes | None) -> None:
        self.lines += 1
        n = self.lines
        if n > 1 and raw is not None and raw[:1] == b"{" and raw[-1:] == b"}":
            # The common line: an object in orjson's compact form. Parsing it and getting the
            # same bytes back proves it valid, object-shaped and free of repeated members,
            # exactly as parse_line would; anything else takes the general path below.
            try:
                ev = _loads(raw)
                fast = type(ev) is dict and _dumps(ev) == raw
            except (ValueError, TypeError, RecursionError):
                fast = False
            if fast:
                if self.blank_pending_count or self.run_ends:
                    self._content_line(n)
                else:
                    self.last_content_line = n
                    self.content_lines += 1
                self._event(n, offset, len(raw), ev)
                return
        if raw is not None and n == 1 and raw.startswith(_BOM):
            self.add(BOM, "the file starts with a UTF-8 byte order mark; ignored", 1)
            raw = raw[3:]
            offset += 3
        if raw is not None and (not raw or raw[0] != 0x7B) and not raw.strip():  # 0x7B: {
            self.blank_pending_count += 1
            if len(self.blank_pending) < 1000:
                self.blank_pending.append(n)
            if self.index is not None:
                self.index.add(offset, len(raw), n, None, "invalid", "blank")
            return
        self._content_line(n)
        if raw is None:
            self.add(LINE_TOO_LONG, f"line longer than {MAX_LINE >> 20} MiB; not read", n)
            self._unreadable_event()
            if self.index is not None:
                self.index.add(offset, 0, n, None, "invalid", "invalid")
            return
        if raw.endswith(b"\r"):
            if not self.crlf_reported:
                self.crlf_reported = True
                self.add(CRLF, "lines end with CR LF; the CR is ignored", n)
            raw = raw[:-1]
        if raw.startswith(_BOM):
            # Valid UTF-8 (U+FEFF), but not JSON whitespace: a file pasted together from
            # several saved files. A JSON fault, not a text-encoding one.
            ev = LineError("json", "invalid JSON: the line starts with a byte order mark "
                           "(U+FEFF), which only the first line may carry")
        else:
            try:
                ev = parse_line(raw)
            except (TypeError, ValueError, RecursionError):  # orjson writes 255 levels deep
                ev = LineError("json", "JSON nested too deeply to be checked")
        if isinstance(ev, LineError):
            self.add(_JSON_KINDS.get(ev.kind, JSON), ev.message, n)
            self._unreadable_event()
            if self.index is not None:
                self.index.add(offset, len(raw), n, None, "invalid", "invalid")
            return
        self._event(n, offset, len(raw), ev)

    def _unreadable_event(self) -> None:
        """A line that cannot be read still stands for one event: it consumes a seq."""
        self.expected_seq += 1
        if self.alt_seq is not None:
            self.alt_seq += 1
        self.last_content_type = None

    def _content_line(self, n: int) -> None:
        """A non-blank line: earlier blank lines were between events, and a run_end before
        it was not the last line."""
        if self.blank_pending_count:
            for b in self.blank_pending:
                self.add(BLANK_LINE, "blank line between events", b)
            self.blank_pending.clear()
            self.blank_pending_count = 0
        if self.run_ends and self.run_ends[-1][1] is None:
            self.run_ends[-1][1] = n
        self.last_content_line = n
        self.content_lines += 1

    def _event(self, n: int, offset: int, length: int, ev: dict) -> None:
        add = self.add
        prev_type = self.last_content_type
        # seq ---------------------------------------------------------------------------
        seq = ev.get("seq")
        alt, self.alt_seq = self.alt_seq, None
        if type(seq) is int:
            if seq == self.expected_seq or seq == alt:
                pass
            else:
                add(SEQ, f"seq is {seq}, expected {self.expected_seq}"
                    + (" (the first line has seq 0)" if n == 1 else ""), n)
                # Either lines are missing/repeated here (count on from `seq`) or this one
                # number was edited (the next line carries on the old count): accept both.
                self.alt_seq = self.expected_seq + 1
            self.expected_seq = seq + 1
        else:
            what = "missing" if "seq" not in ev else f"{_short(seq)}, not an integer"
            add(SEQ, f"seq is {what} (expected {self.expected_seq})", n)
            self.expected_seq += 1
        # type and data -----------------------------------------------------------------
        typ = ev.get("type")
        if not isinstance(typ, str) or typ not in EVENT_TYPES:
            what = "missing" if "type" not in ev else f"{_short(typ)}, not a known event type"
            add(TYPE_UNKNOWN, f"type is {what}", n)
            typ = None
        data = ev.get("data")
        if not isinstance(data, dict):
            what = "missing" if "data" not in ev else f"a {_json_type(data)}, not an object"
            add(DATA_NOT_OBJECT, f"data is {what}", n)
            data = None
        # at / elapsedMs ----------------------------------------------------------------
        at = ev.get("at")
        at_us = None
        if type(at) is str:
            # `YYYY-MM-DDTHH:MM:SS.mmmZ`, its second already seen (and validated) on an
            # earlier line: one dict look-up and the milliseconds.
            second = _SECONDS.get(at[:19]) if len(at) == 24 and at[19] == "." \
                and at[23] == "Z" else None
            ms = at[20:23]
            if second is not None and ms.isdigit() and ms.isascii():
                at_us = second + int(ms) * 1000
            else:
                m = _AT_FAST.fullmatch(at)
                if m is not None:  # parse_at's fast path, inlined
                    minute = _MINUTES.get(m[1])
                    if minute is None:
                        minute = _minute_us(m[1])
                    if minute is not None:
                        frac = m[3]
                        second = minute + int(m[2]) * 1_000_000
                        at_us = second + (int((frac + "00000")[:6]) if frac else 0)
                        if len(_SECONDS) >= 4096:
                            _SECONDS.clear()
                        _SECONDS[at[:19]] = second
        if at_us is None:
            at_us, at_rule, at_msg = parse_at(at)
            if at_rule is not None:
                add(at_rule, at_msg, n)
        el = ev.get("elapsedMs")
        t = type(el)
        el_ok = (t is int or t is float) and el >= 0 and (t is int or math.isfinite(el))
        if not el_ok:
            what = ("missing" if "elapsedMs" not in ev
                    else f"{_short(el)}, not a non-negative number of milliseconds")
            add(ELAPSED_FORMAT, f"elapsedMs is {what}", n)
            el = None
        if self.base_at is None and at_us is not None and (typ == "run_start" or el_ok):
            self.base_at = at_us
            self.base_el = 0.0 if typ == "run_start" else float(el)
            self.base_line = n
            self.base_line_at_text = str(ev.get("at"))[:40]
        if el_ok and at_us is not None and not self.drift_streak and self.prev_at is not None \
                and self.prev_el is not None and at_us >= self.prev_at and el >= self.prev_el \
                and -DRIFT_LIMIT_US <= el * 1000 - ((at_us - self.base_at) + self.base_el * 1000) \
                <= DRIFT_LIMIT_US:
            # _timing's outcome for a line in order and within the 2 s rule, inlined.
            good = self.good_el
            if good is not None and el - good > self.th.gap_s * 1000:
                self._gap(n, el, good)
            self.prev_at = at_us
            self.prev_el = self.good_el = self.last_el = el
        else:
            self._timing(n, at_us, el if el_ok else None)
        elf = float(el) if el_ok else math.nan
        # position of run_start / run_end -------------------------------------------------
        # "First" is the first line that is not blank: blank lines before the run_start are
        # their own finding (log.blank_line), not also a misplaced run_start.
        first = self.content_lines == 1
        if first and typ != "run_start":
            add(RUN_START_POSITION, f"the first line is {_short(ev.get('type'))}, not run_start",
                n)
        elif typ == "run_start" and not first:
            add(RUN_START_POSITION, "run_start on a line other than the first", n)
        if self.index is not None:
            t = elf / 1000 if el_ok else None
            lane = typ or "invalid"
            self.index.add(offset, length, n, t, lane, lane)
        self.last_content_type = typ
        if typ is None:
            return
        if typ == "run_end":
            if len(self.run_ends) < 1000:
                self.run_ends.append([n, None, prev_type == "run_end"])
            self.run_end_el = elf if el_ok else None
            if isinstance(ev.get("at"), str):
                self.run["ended_at"] = ev["at"]
        elif typ == "model_response":
            self.n_responses += 1
        elif typ == "action":
            self.n_actions += 1
        if data is None:
            if typ == "model_response" and self.req_el is not None:
                self.req_el = None
            return
        if typ == "run_start":
            self._run_start(n, ev, data)
        elif typ == "model_request":
            if data.get("withheld") is True and len(data) > 1:
                extra = ", ".join(sorted(k for k in data if k != "withheld"))[:80]
                add(WITHHELD_LEAK, f"withheld model_request also holds: {extra}", n)
            self.req_el = elf if el_ok else None
        elif typ == "model_response":
            self._response(n, data, elf)
        elif typ == "action":
            self._action(n, data, elf)
        elif typ == "error":
            if not isinstance(data.get("message"), str):
                add(ERROR_FIELDS, "error event without a `message` string", n)
        elif typ == "run_end" and not isinstance(data.get("reason"), str):
            add(RUN_END_FIELDS, "run_end has no `reason` string", n)

    def _timing(self, n: int, at_us: int | None, el: float | None) -> None:
        """Order and the 2 s rule. Order is checked against the previous line whose `at` and
        `elapsedMs` were usable and agreed with each other (2 s rule), so that one bad value is
        one finding, not a cascade: a line breaking the 2 s rule is not trusted as the
        reference for the next; a line that merely goes back in time is (the line after it
        then compares with it, and the jump is reported once)."""
        here = []
        bad = drifted = False
        if at_us is not None and self.prev_at is not None and at_us < self.prev_at:
            here.append(AT_ORDER.at(f"at goes back {(self.prev_at - at_us) / 1e6:.3f} s from "
                                    "the line before", self.file, n))
            bad = True
        if el is not None and self.prev_el is not None and el < self.prev_el:
            here.append(ELAPSED_ORDER.at(f"elapsedMs {el:g} is smaller than {self.prev_el:g} on "
                                         "the line before", self.file, n))
            bad = True
        if at_us is not None and el is not None and self.base_at is not None:
            since_start_us = at_us - self.base_at
            drift = el * 1000 - (since_start_us + self.base_el * 1000)
            drifted = abs(drift) > DRIFT_LIMIT_US
            if drifted:
                here.append(ELAPSED_DRIFT.at(
                    f"elapsedMs {el:g} but at is {since_start_us / 1000 + self.base_el:.0f} ms "
                    f"after the start: {abs(drift) / 1000:.0f} ms apart (limit 2000)",
                    self.file, n))
                bad = True
            if self.drift_streak and n != self.base_line:
                # Every line so far disagrees with the start line: hold the findings until
                # one line agrees (then they stand) or the log ends (then the start line is
                # the one at fault, see _drift_streak_findings).
                if drifted:
                    self.drift_buf_count += 1
                    if len(self.drift_buf) < 1000:
                        self.drift_buf.extend(here)
                    self.drift_min = min(self.drift_min, drift)
                    self.drift_max = max(self.drift_max, drift)
                    here = []
                else:
                    self.drift_streak = False
                    for f in self.drift_buf:
                        self.report.add(f)
                    self.drift_buf.clear()
        for f in here:
            self.report.add(f)
        if at_us is not None and not drifted:
            self.prev_at = at_us
        if el is not None:
            if not bad and self.good_el is not None and el - self.good_el > self.th.gap_s * 1000:
                self._gap(n, el, self.good_el)
            if not drifted:
                self.prev_el = el
            if not bad:
                self.good_el = el
            self.last_el = el

    def _gap(self, n: int, el: float, good: float) -> None:
        self.add(GAP, f"no event for {(el - good) / 1000:.1f} s before this line (threshold "
                 f"{self.th.gap_s:g} s)", n)

    def _drift_streak_findings(self) -> None:
        """At the end: if every line after the start line broke the 2 s rule by about the same
        amount, the start line's `at` is the odd one out: one finding, on the start line."""
        if not self.drift_buf:
            return
        consistent = self.drift_max - self.drift_min <= 2 * DRIFT_LIMIT_US
        if self.drift_buf_count >= 2 and consistent and self.base_line is not None:
            self.add(ELAPSED_DRIFT, f"the start time (at {self.base_line_at_text}) disagrees "
                     f"with every later line by about {self.drift_min / 1e6:+.3f} s: at − "
                     "elapsedMs puts the start elsewhere (limit 2 s)", self.base_line)
        else:
            for f in self.drift_buf:
                self.report.add(f)
        self.drift_buf.clear()

    def _run_start(self, n: int, ev: dict, data: dict) -> None:
        missing = [k for k in ("game", "category", "model") if not _nonempty_str(data.get(k))]
        scaffold = data.get("scaffold")
        if not isinstance(scaffold, dict) or not _nonempty_str(scaffold.get("name")):
            missing.append("scaffold.name")
        if missing:
            self.add(RUN_START_FIELDS, "run_start lacks (or has a non-string or empty) "
                     + ", ".join(missing), n)
        for k in ("game", "category"):
            v = data.get(k)
            if _nonempty_str(v) and not _SLUG.fullmatch(v):
                self.add(RUN_START_SLUG, f"run_start {k} {_short(v)} does not look like a slug "
                         "(lowercase letters, digits and -)", n)
        if n == 1 or "game" not in self.run:
            self.run.update({
                "game": data.get("game"), "category": data.get("category"),
                "model": data.get("model"), "scaffold": scaffold,
                "started_at": ev.get("at") if isinstance(ev.get("at"), str) else None,
            })
            if isinstance(data.get("model"), str):
                self.run_start_model = data["model"]

    def _response(self, n: int, data: dict, el: float) -> None:
        add = self.add
        problems = []
        rid = data.get("id")
        if not (type(rid) is str and rid.strip()):  # _nonempty_str, inlined (hot path)
            problems.append("`id` missing or not a non-empty string")
            rid = None
        model = data.get("model")
        if not (type(model) is str and model.strip()):
            problems.append("`model` missing or not a non-empty string")
        usage = data.get("usage")
        if "usage" in data and not isinstance(usage, dict):
            problems.append("`usage` is not an object")
        actions = data.get("actions")
        digests: list[bytes] | None = None
        if "actions" in data and actions is not None:
            if not isinstance(actions, list):
                problems.append("`actions` is not a list")
            else:
                digests = []
                for i, a in enumerate(actions):
                    name = a.get("name") if type(a) is dict else None
                    if not (type(name) is str and name.strip()):
                        problems.append(f"actions[{i}] is not an object with a `name` string")
                        continue
                    # No arguments, however spelled: no `args`, `null` and `{}` all mean
                    # "no arguments" and match one another (docs/rules-community.md).
                    args = a.get("args")
                    digests.append(action_digest(name, {} if args is None else args))
        if problems:
            add(RESPONSE_FIELDS, "model_response: " + "; ".join(problems), n)
        if data.get("withheld") is True:
            kept = [k for k in ("text", "reasoning") if data.get(k) not in (None, "")]
            if kept:
                add(WITHHELD_LEAK, "model_response marked withheld still holds "
                    + " and ".join(kept), n)
        if isinstance(model, str) and self.run_start_model is not None \
                and model != self.run_start_model:
            add(MODEL_MISMATCH, f"response model {_short(model)} differs from run_start model "
                f"{_short(self.run_start_model)}", n)
        if self.req_el is not None and not math.isnan(el):
            latency = el - self.req_el
            if 0 <= latency < self.th.min_response_s * 1000:
                add(RESPONSE_TOO_FAST, f"response {latency:g} ms after its request (a model "
                    f"needs at least {self.th.min_response_s:g} s)", n)
            if self.index is not None:
                self.index.add_metric("latency_s", el / 1000, latency / 1000)
        self.req_el = None
        if self.index is not None and isinstance(usage, dict) and not math.isnan(el):
            for key, metric in (("input", "tokens_in"), ("output", "tokens_out")):
                v = usage.get(key)
                if _is_number(v):
                    self.index.add_metric(metric, el / 1000, float(v))
        if rid is None:
            return
        k = self.responses.ordinal.get(rid)
        if k is not None:
            add(RESPONSE_ID_DUPLICATE, f"response id {_short(rid)} was already used on line "
                f"{self.responses.line[k]}", n)
            return
        self.responses.add(rid, n, el, digests)

    def _action(self, n: int, data: dict, el: float) -> None:
        add = self.add
        call, name = data.get("call"), data.get("name")
        call_ok = type(call) is str and call.strip()  # _nonempty_str, inlined (hot path)
        problems = None
        if not call_ok or not (type(name) is str and name.strip()) or "args" not in data:
            problems = []
            if not call_ok:
                problems.append("`call` missing or not a response id string")
            if not _nonempty_str(name):
                problems.append("`name` missing or not a non-empty string")
            if "args" not in data:
                problems.append("`args` missing")
            add(ACTION_FIELDS, "action: " + "; ".join(problems), n)
        if not call_ok:
            return
        k = self.responses.ordinal.get(call)
        if k is None:
            add(ACTION_UNKNOWN_CALL, f"action calls {_short(call)}, which is not the id of an "
                "earlier model_response", n)
            return
        rel = self.responses.el[k]
        if not math.isnan(el) and not math.isnan(rel) and \
                el - rel > self.th.action_delay_s * 1000:
            add(ACTION_LATE, f"action runs {(el - rel) / 1000:.1f} s after its response on line "
                f"{self.responses.line[k]} (threshold {self.th.action_delay_s:g} s)", n)
        if problems:
            return
        args = data["args"]
        verdict = self.responses.consume(k, action_digest(name, {} if args is None else args))
        rline = self.responses.line[k]
        if verdict == "none":
            add(ACTION_NOT_REQUESTED, f"action {_short(name)} with these args is not one the "
                f"response on line {rline} asked for", n)
        elif verdict == "unlisted":
            add(RESPONSE_WITHOUT_ACTIONS, f"the response on line {rline} lists no actions, so "
                "it cannot vouch for this one", n)
        elif verdict == "repeat":
            add(ACTION_REPEATED, f"action {_short(name)} runs again, but the response on line "
                f"{rline} asked for it fewer times", n)

    # ------------------------------------------------------------------ end of file
    def _run_end_findings(self) -> None:
        """Place each misplaced run_end finding where a moderator would look:
        - a run_end right after another run_end: the repeated one;
        - an early run_end in a log that still ends with a run_end: the early one;
        - events after the log's last run_end: the first of them."""
        ends = self.run_ends
        last_is_end = self.last_content_type == "run_end"
        for i, (line, nxt, repeated) in enumerate(ends):
            if repeated:
                self.add(RUN_END_POSITION, f"a second run_end right after the one on line "
                         f"{ends[i - 1][0] if i else '?'}", line)
                continue
            if nxt is None or (i + 1 < len(ends) and ends[i + 1][2] and ends[i + 1][0] == nxt):
                continue
            if last_is_end or i + 1 < len(ends):
                self.add(RUN_END_POSITION, f"run_end on line {line} is not the last line: the "
                         f"log goes on to line {self.last_content_line}", line)
            else:
                self.add(RUN_END_POSITION, f"line {nxt} comes after run_end (line {line}): "
                         "run_end must be the last line", nxt)

    def finish(self) -> float | None:
        add = self.add
        if self.blank_pending_count:
            first = self.blank_pending[0]
            add(TRAILING_BLANK, f"{self.blank_pending_count} blank line(s) at the end of the "
                "file", first)
        if self.last_content_line == 0:
            add(EMPTY, "the log holds no events", None)
            return None
        if not self.run_ends:
            last = self.last_content_line
            what = _short(self.last_content_type) if self.last_content_type else "not an event"
            add(RUN_END_MISSING, f"no run_end: the log ends at line {last} ({what}); "
                "it may be truncated", None)
        self._run_end_findings()
        self._drift_streak_findings()
        if self.n_responses == 0:
            add(NO_RESPONSE, "the log has no model_response: a run needs at least one", None)
        if self.n_actions == 0:
            add(NO_ACTION, "the log has no action: a run needs at least one", None)
        for line, missing, total in self.responses.unrun():
            add(RESPONSE_ACTIONS_UNRUN, f"{missing} of the {total} action(s) this response "
                "asked for never ran", line)
        if self.run_end_el is not None:
            duration = self.run_end_el / 1000
        elif self.last_el is not None:
            duration = self.last_el / 1000
        else:
            duration = None
        self.run.setdefault("ended_at", None)
        self.run["duration_s"] = duration
        self.run["responses"] = self.n_responses
        self.run["actions"] = self.n_actions
        return duration


def _json_type(x: Any) -> str:
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "boolean"
    if isinstance(x, (int, float)):
        return "number"
    if isinstance(x, str):
        return "string"
    if isinstance(x, list):
        return "array"
    return type(x).__name__


def verify_agent_log(sub, options, report: Report, progress: ProgressFn | None = None,
                     cancel: CancelToken | None = None):
    """Check the submission's agent log; fill `report` (findings, events, run, its digest).

    Returns the `KindResult`: the event index when `options.build_index`, and the run
    duration for the coverage check (run_end's elapsedMs; else the last valid elapsedMs).
    """

    member = sub.evidence
    thresholds = options.thresholds or DEFAULT_THRESHOLDS
    index = None
    if getattr(options, "build_index", False):
        from moderator_app.core.formats.submission import local_copy

        try:
            index = EventIndex(source=member.local_path or local_copy(member, options.spool_dir))
        except OSError as exc:
            report.add(UNREADABLE_MEMBER.at(f"cannot copy the log for the event table: {exc}",
                                            member.name))
    checker = _Checker(report, member.name, thresholds, index)
    try:
        with member.open() as raw:
            reader = HashingReader(raw, member.size, progress, cancel)
            for offset, line in iter_lines(reader):
                checker.feed(offset, line)
            report.files.append(FileDigest(member.name, member.role, reader.bytes_read,
                                           reader.hexdigest()))
    except OSError as exc:
        report.add(UNREADABLE_MEMBER.at(f"cannot read the log after line {checker.lines}: "
                                        f"{exc}", member.name))
        report.complete = False
    except BaseException:
        report.complete = False
        raise
    report.events = checker.content_lines
    duration = checker.finish()
    report.run = dict(checker.run)
    return KindResult(index, duration)
