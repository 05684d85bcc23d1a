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

Speed: RFC 8785 in pure Python costs ~200 us per 1.5 KB event. For a line that is exactly
orjson's compact form (true of orjson/serde writers), `orjson.dumps(event, OPT_SORT_KEYS)` *is*
the canonical form unless the line holds a float whose orjson spelling differs from the
ECMAScript one (`56.0`, `1e+16`), an integer of 16+ digits, or a character outside the Basic
Multilingual Plane (keys then sort differently in UTF-16). A byte-level regex finds those
lines, which take `canonical_json_fast` (orjson with ECMAScript number fragments and UTF-16
member order); tests hold both to the reference `canonical_json`.
"""

from __future__ import annotations

import hashlib
import re
import tempfile
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from .canonical import CanonicalError, canonical_json_fast, es6_number
from .chain import ZERO_HASH
from .event_index import EventIndex
from .input_rules import UNREADABLE_MEMBER
from .jsonline import LineError, parse_line_compact
from .progress import CancelToken, ProgressFn
from .report import FileDigest, Report
from .rules import Severity, rule
from .secrets_scan import scan_line
from .seeds import SeedCheck
from .streams import CHUNK, MAX_LINE, HashingReader, iter_lines
from .zstream import DEFAULT_MAX_OUTPUT, ZstdReader, ZstdStreamError, is_zstd_start

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
                       "A number RFC 8785 cannot represent exactly (beyond ±(2^53-1), "
                       "infinite): the event cannot be hashed canonically.", G)
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
NO_EVAL_RESULT = rule("traj.no_eval_result", Severity.WARNING,
                      "No trusted eval_result: there is no authoritative score.", G)
# -- compressed stream -------------------------------------------------------------------
ZSTD_TRUNCATED = rule("traj.zstd_truncated", Severity.ERROR,
                      "The zstd stream ends inside a frame: the trajectory is incomplete.", G)
ZSTD_CORRUPT = rule("traj.zstd_corrupt", Severity.ERROR,
                    "A zstd frame cannot be decoded: the trajectory is incomplete.", G)
TRAILING_GARBAGE = rule("traj.trailing_garbage", Severity.ERROR,
                        "Bytes after the last zstd frame are not a zstd frame.", G)
TOO_LARGE = rule("traj.too_large", Severity.ERROR,
                 "The decompressed trajectory exceeds the size cap (decompression bomb "
                 "guard).", G)
SECRET = rule("secret.suspect", Severity.WARNING,
              "Something that looks like a secret (API key, private key, bearer token).",
              "secret")

_LINE_ERROR_RULES = {"json": BAD_JSON, "utf8": BAD_UTF8, "not_object": NOT_OBJECT,
                     "duplicate_member": DUPLICATE, "blank": BLANK}
_ZSTD_RULES = {"truncated": ZSTD_TRUNCATED, "corrupt": ZSTD_CORRUPT,
               "trailing_garbage": TRAILING_GARBAGE, "too_large": TOO_LARGE}

_HEX64 = re.compile(r"[0-9a-f]{64}")
_RFC3339_UTC = re.compile(
    r"(\d{4}-\d\d-\d\d[Tt](?:[01]\d|2[0-3]):[0-5]\d):([0-5]\d|60)(\.\d+)?(?:[Zz]|\+00:00)")
# Lines the fast canonical path cannot vouch for: integral floats (orjson `56.0`, JCS `56`),
# exponent floats whose spelling differs (`1e+16` vs `10000000000000000`), integers of 16+
# digits (maybe beyond 2^53) and 4-byte UTF-8 (non-BMP: keys may sort differently in UTF-16).
# Substring tests (C speed) come first; the regexes run only on the lines they flag.
_INTEGRAL_FLOAT = re.compile(rb"[:,\[]-?(?:0|[1-9]\d*)\.0(?=[,\]}])")
_EXP_FLOAT = re.compile(rb"[:,\[](-?(?:0|[1-9]\d*)(?:\.\d+)?e[+-]\d+)(?=[,\]}])")
_BIG_INT = re.compile(rb"[:,\[]-?\d{16}")
_NON_BMP_LEADS = (b"\xf0", b"\xf1", b"\xf2", b"\xf3", b"\xf4")
_SORT = orjson.OPT_SORT_KEYS
_TEXT_FIELDS = ("run_id", "producer", "trust_level", "type")
_SCORE_CLAIM_TYPES = frozenset(("eval_result", "score", "score_claim", "self_reported_score"))
_MAX_CLAIMS = 50


_MINUTES: dict[str, float | None] = {}


def parse_wall_time(value: str) -> float | None:
    """Seconds since the epoch of an RFC 3339 UTC timestamp, or None when it is not one.

    The date-hour-minute part is validated once and cached: a run spans few minutes."""
    m = _RFC3339_UTC.fullmatch(value)
    if m is None:
        return None
    minute, sec, frac = m.groups()
    base = _MINUTES.get(minute, False)
    if base is False:
        try:
            dt = datetime.fromisoformat(minute[:10] + "T" + minute[11:] + "+00:00")
            base = dt.timestamp()
        except ValueError:
            base = None
        if len(_MINUTES) > 10_000:
            _MINUTES.clear()
        _MINUTES[minute] = base
    if base is None:
        return None
    return base + int(sec) + (float(frac) if frac else 0.0)


class _FloatSpelling:
    """Whether orjson's spelling of a float token equals the ECMAScript (JCS) one; cached."""

    def __init__(self) -> None:
        self._cache: dict[bytes, bool] = {}

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


def fast_path_ok(raw: bytes, spelling: _FloatSpelling) -> bool:
    """Whether orjson's sorted dump of the event on this orjson-compact line is its JCS form."""
    if not raw.isascii():
        for lead in _NON_BMP_LEADS:
            if lead in raw:
                return False
    if (b".0," in raw or b".0}" in raw or b".0]" in raw) and _INTEGRAL_FLOAT.search(raw):
        return False
    if b"e+" in raw or b"e-" in raw:
        for m in _EXP_FLOAT.finditer(raw):
            if not spelling.safe(m.group(1)):
                return False
    return _BIG_INT.search(raw) is None


def canonical_bytes(event_without_hash: dict, raw: bytes | None = None, compact: bool = False,
                    spelling: _FloatSpelling | None = None) -> bytes:
    """RFC 8785 bytes of an event; the orjson fast path when `raw` (the line, `hash`
    included) is orjson-compact and holds nothing risky. Raises CanonicalError."""
    if compact and raw is not None and fast_path_ok(raw, spelling or _FloatSpelling()):
        return orjson.dumps(event_without_hash, option=_SORT)
    return canonical_json_fast(event_without_hash)


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


class TrajectoryChecker:
    """The state of one pass over a trajectory; feed it lines with `line()`, then `finish()`.

    Usable on its own (tests, the GUI) without a Submission: `TrajectoryChecker(report,
    file)` then `line(offset, raw, number)` for each line.
    """

    def __init__(self, report: Report, file: str | None, seeds: SeedCheck | None = None,
                 index: EventIndex | None = None) -> None:
        self.report = report
        self.file = file
        self.seeds = seeds or SeedCheck()
        self.index = index
        self.spelling = _FloatSpelling()
        self.events = 0
        # chain
        self.last_hashes: tuple[str | None, str | None] | None = None  # (recorded, computed)
        self.last_hash_line = 0
        self.head: str | None = None
        self.breaks = 0
        self.unreadable = 0
        self.first_break: dict | None = None
        # envelope
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

    # -- helpers ------------------------------------------------------------------------
    def _add(self, r, message: str, line: int | None) -> None:
        self.report.add(r.at(message, self.file, line))

    def _break(self, line: int, kind: str) -> None:
        self.breaks += 1
        if self.first_break is None:
            self.first_break = {"line": line, "kind": kind}

    def _index(self, offset: int, raw: bytes | None, n: int, t: float | None, lane: str,
               kind: str) -> None:
        if self.index is not None:
            self.index.add(offset, len(raw) if raw is not None else 0, n, t, lane, kind)

    # -- one line -----------------------------------------------------------------------
    def line(self, offset: int, raw: bytes | None, n: int) -> None:
        """Check line `n` (1-based) whose bytes (without `\\n`) start at `offset`."""
        self.events += 1
        if raw is None:
            self._add(TOO_LONG, f"line longer than {MAX_LINE} bytes, not read", n)
            self._unreadable(n)
            self._index(offset, raw, n, None, "?", "?")
            return
        if raw[-1:] == b"\r":
            self._add(LINE_ENDING, "line ends with \\r\\n; lines must end with \\n only", n)
        got = parse_line_compact(raw)
        if isinstance(got, LineError):
            r = _LINE_ERROR_RULES.get(got.kind, BAD_JSON)
            if got.kind == "json" and "infinity" in got.message:
                r = UNREPRESENTABLE
            self._add(r, got.message, n)
            self._unreadable(n)
            self._index(offset, raw, n, None, "?", "?")
            return
        event, compact = got
        self._event(offset, raw, n, event, compact)

    def _unreadable(self, n: int) -> None:
        self.unreadable += 1
        self._break(n, "unreadable")

    def _event(self, offset: int, raw: bytes, n: int, event: dict, compact: bool) -> None:
        recorded = event.pop("hash", None)
        prev = event.get("prev_hash")
        add = self._add
        hash_ok = True
        for name, value in (("prev_hash", prev), ("hash", recorded)):
            if value is None:
                add(FIELD_MISSING, f"missing member {name!r}", n)
                hash_ok = False
            elif not isinstance(value, str) or _HEX64.fullmatch(value) is None:
                add(HASH_FORMAT, f"{name} is not 64 lowercase hex characters: "
                                 f"{str(value)[:80]!r}", n)
                hash_ok = False
        computed = None
        if isinstance(prev, str) and prev.isascii():
            try:
                canon = canonical_bytes(event, raw, compact, self.spelling)
            except CanonicalError as exc:
                add(UNREPRESENTABLE, f"cannot hash the event canonically: {exc}", n)
            else:
                computed = hashlib.sha256(prev.encode() + canon).hexdigest()
        self._chain(n, prev, recorded, computed, hash_ok)

        schema = event.get("schema")
        if schema != SCHEMA:
            add(SCHEMA_UNSUPPORTED, "no `schema` member" if schema is None else
                f"unsupported schema {str(schema)[:80]!r} (this tool reads {SCHEMA!r})", n)
            self._index(offset, raw, n, None, "?", str(event.get("type", "?")))
            return
        self._envelope(offset, raw, n, event)

    def _chain(self, n: int, prev: Any, recorded: Any, computed: str | None,
               hash_ok: bool) -> None:
        if not hash_ok or computed is None:
            self._unreadable(n)
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

    def _envelope(self, offset: int, raw: bytes, n: int, event: dict) -> None:
        add = self._add
        get = event.get
        for name in _TEXT_FIELDS:
            value = get(name)
            if type(value) is not str:
                if value is None:
                    add(FIELD_MISSING, f"missing member {name!r}", n)
                else:
                    add(FIELD_TYPE, f"{name} must be a string, not {type(value).__name__}", n)
        producer = get("producer")
        producer = producer if type(producer) is str else "?"
        trust = get("trust_level")
        trust = trust if type(trust) is str else None
        etype = get("type")
        etype = etype if type(etype) is str else "?"
        payload = get("payload")
        if type(payload) is not dict:
            if payload is None:
                add(FIELD_MISSING, "missing member 'payload'", n)
            else:
                add(FIELD_TYPE, f"payload must be an object, not {type(payload).__name__}", n)
            payload = None
        seq = get("producer_sequence")
        if type(seq) is not int:
            if seq is None:
                add(FIELD_MISSING, "missing member 'producer_sequence'", n)
            else:
                add(FIELD_TYPE, f"producer_sequence must be an integer, not "
                                f"{type(seq).__name__}", n)
            seq = None
        wall = get("wall_time")
        t = None
        if type(wall) is str:
            t = parse_wall_time(wall)
            if t is None:
                add(WALL_FORMAT, f"wall_time {wall[:60]!r} is not RFC 3339 UTC", n)
        elif wall is None:
            add(FIELD_MISSING, "missing member 'wall_time'", n)
        else:
            add(FIELD_TYPE, f"wall_time must be a string, not {type(wall).__name__}", n)

        run_id = get("run_id")
        if type(run_id) is str:
            if self.run_id is None:
                self.run_id, self.run_id_line = run_id, n
            elif run_id != self.run_id:
                add(RUN_ID, f"run_id {run_id[:60]!r} differs from {self.run_id[:60]!r} "
                            f"(line {self.run_id_line})", n)

        p = self.producers.get(producer)
        if p is None:
            p = self.producers[producer] = _Producer()
        p.events += 1
        if trust is not None:
            if p.trust is None:
                p.trust, p.trust_line = trust, n
            elif trust != p.trust:
                add(TRUST_INCONSISTENT, f"producer {producer[:40]!r} is {trust[:40]!r} here but "
                                        f"was {p.trust[:40]!r} at line {p.trust_line}", n)
            if producer == AGENT and trust != AGENT_TRUST:
                add(AGENT_TRUSTED, f"the agent claims trust level {trust[:40]!r}; the agent "
                                   f"is always {AGENT_TRUST!r}", n)
        if seq is not None:
            if p.seq is not None and seq <= p.seq:
                add(SEQUENCE, f"producer_sequence {seq} of {producer[:40]!r} is not greater "
                              f"than {p.seq} (line {p.seq_line})", n)
            else:
                p.seq, p.seq_line = seq, n
        if t is not None:
            if p.wall is not None and t < p.wall:
                add(WALL_BACKWARDS, f"wall_time {wall} of {producer[:40]!r} is "
                                    f"{p.wall - t:.3f} s before line {p.wall_line}'s", n)
            p.wall, p.wall_line = t, n
            if self.t_min is None or t < self.t_min:
                self.t_min = t
            if self.t_max is None or t > self.t_max:
                self.t_max = t
            if etype == "run_start" and self.run_start is None:
                self.run_start = t
            elif etype == "run_end":
                self.run_end = t

        if etype in _SCORE_CLAIM_TYPES:
            self._score(n, producer, trust, etype, payload)
        if payload is not None and b"seed_commitment" in raw:
            value = payload.get("seed_commitment")
            if value is None and etype == "seed_commitment":
                value = payload.get("commitment")
            if value is not None:
                f = self.seeds.add(value, n, self.file)
                if f is not None:
                    self.report.add(f)
        if self.seeds.active:
            leaked = self.seeds.scan_leak(raw, event)
            if leaked is not None:
                from .seeds import SEED_LEAK

                self.seeds.leaks += 1
                add(SEED_LEAK, f"a raw seed (seed #{leaked} of the seeds file) appears in this "
                               "event: only commitments may be recorded", n)
        for hit in scan_line(raw):
            self.secret_hits += 1
            add(SECRET, f"looks like a {hit.label} at column {hit.column}: {hit.excerpt}", n)
        self._index(offset, raw, n, t, producer, etype)

    def _score(self, n: int, producer: str, trust: str | None, etype: str,
               payload: dict | None) -> None:
        trusted = producer == EVALUATOR and trust == EVALUATOR_TRUST
        if etype == "eval_result" and trusted:
            self.authoritative = payload
            self.authoritative_line = n
            return
        if etype == "eval_result":
            self._add(EVAL_UNTRUSTED, f"eval_result from producer {producer[:40]!r} with trust "
                                      f"{str(trust)[:40]!r}: only the evaluator "
                                      f"({EVALUATOR_TRUST}) publishes the score", n)
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
    from .verify import KindResult

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
                 max_output: int = DEFAULT_MAX_OUTPUT):
    """Read and check one trajectory stream; (checker, FileDigest of the raw bytes)."""
    seed_check = SeedCheck(tuple(seeds) if seeds else None, secret)
    try:
        fh = opener()
    except OSError as exc:
        report.add(UNREADABLE_MEMBER.at(f"cannot read: {exc.strerror or exc}", name))
        report.complete = False
        return None, None
    spool = None
    index = None
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
        tee = _Tee(src, spool)
        checker = TrajectoryChecker(report, name, seed_check, index)
        complete = True
        last_end = 0
        try:
            if name.lower().endswith(".zst") and not compressed and head:
                raise ZstdStreamError("corrupt", "the file is named .zst but is not a zstd "
                                                 "stream", 0, 0)
            n = 0
            line = checker.line
            for offset, raw in iter_lines(tee, CHUNK, MAX_LINE):
                n += 1
                line(offset, raw, n)
                if raw is not None:
                    last_end = offset + len(raw)
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
            if spool is not None:
                spool.close()
        try:
            hr.drain()
        except OSError:
            pass
        digest = FileDigest(name, role, hr.bytes_read, hr.hexdigest())
    missing_nl = complete and checker.events > 0 and last_end == tee.total and \
        tee.total > 0
    checker.finish(complete, missing_nl)
    return checker, digest
