"""`LogChecker`: the state carried from line to line of an agent log, and the checks of one
line; whole-log findings and the report's run section at `finish()`."""

from __future__ import annotations

import math
import re
from typing import Any

import orjson

from moderator_app.core.formats import secrets_inflate
from moderator_app.core.formats.event_index import EventIndex
from moderator_app.core.formats.jsonline import LineError, parse_line
from moderator_app.core.formats.secrets_inflate import SPENT, Allowance, reading_file
from moderator_app.core.formats.secrets_split import SplitWatch
from moderator_app.core.formats.streams import MAX_LINE
from moderator_app.core.formats.withhold_gate import public_secret_hits
from moderator_app.core.thresholds import Thresholds
from moderator_app.core.verify.agent_log.actions import (
    ActionDigests,
    new_responses,
)
from moderator_app.core.verify.agent_log.rules import (
    AT_ORDER,
    BLANK_LINE,
    BOM,
    CRLF,
    DATA_NOT_OBJECT,
    DRIFT_LIMIT_US,
    ELAPSED_DRIFT,
    ELAPSED_FORMAT,
    ELAPSED_ORDER,
    EMPTY,
    ERROR_FIELDS,
    EVENT_TYPES,
    GAP,
    JSON,
    JSON_KINDS,
    LINE_TOO_LONG,
    NO_ACTION,
    NO_RESPONSE,
    REDACTED,
    RESPONSE_ACTIONS_UNRUN,
    RUN_END_FIELDS,
    RUN_END_MISSING,
    RUN_END_POSITION,
    RUN_START_FIELDS,
    RUN_START_POSITION,
    RUN_START_SLUG,
    SECRET,
    SEQ,
    TRAILING_BLANK,
    TYPE_UNKNOWN,
    WITHHELD_LEAK,
)
from moderator_app.core.verify.agent_log.timestamps import (
    AT_FAST,
    MINUTE_CACHE,
    SECOND_CACHE,
    minute_us,
    parse_at,
)
from moderator_app.core.verify.agent_log.turns import check_action, check_response
from moderator_app.core.verify.agent_log.values import (
    json_type,
    nonempty_str,
    short_repr,
)
from moderator_app.core.verify.report import Report
from moderator_app.core.verify.sections_community import CommunityRun, RunStart

_SLUG = re.compile(r"[a-z0-9]+(?:[-_.][a-z0-9]+)*")
_BOM = b"\xef\xbb\xbf"
_loads, _dumps = orjson.loads, orjson.dumps


class LogChecker:
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
        # The run section: its parts while reading, the CommunityRun once `finish` ran.
        self.start: RunStart | None = None
        self.ended_at: str | None = None
        self.ended_first = False  # a run_end with its time came before any run_start
        self.run: CommunityRun | None = None
        self.req_el: float | None = None
        self.responses = new_responses()
        self.action_digest = ActionDigests(self.responses.digest)
        self.n_responses = 0
        self.n_actions = 0
        self.crlf_reported = False
        self.stopped = False  # at the response table's bound: nothing more is examined
        self.split_watch = SplitWatch()  # a key split over consecutive events (secrets_split)
        self.inflate = Allowance()  # what the file's compressed payloads may inflate to
        # lines refused for the file's spent allowance alone: [count, first, last], kinds
        self.spent: list[int] = []
        self.spent_kinds: dict[str, int] = {}

    def add(self, r, message: str, line: int | None) -> None:
        self.report.add(r.at(message, self.file, line))

    # ------------------------------------------------------------------ per line
    def blanks(self, count: int, offset: int = 0, length: int = 0) -> None:
        """`count` blank lines at once (what `feed` does for each). The index gets one row
        for the whole run (its first line, its bytes): a row per line made 20 million
        one-space lines cost the workstation 755 MiB and 35 s of CPU (issue 15, point 8)."""
        first = self.lines + 1
        self.lines += count
        self.blank_pending_count += count
        room = 1000 - len(self.blank_pending)
        if room > 0:
            self.blank_pending.extend(range(first, first + min(room, count)))
        if self.index is not None:
            self.index.add(offset, length, first, None, "invalid", "blank")

    def secrets(self, data: bytes, first: int, lo: int = 0, hi: int | None = None) -> None:
        """`secret.suspect` on each line of `data[lo:hi]` (whole lines, the first numbered
        `first`) whose public part `withhold` would refuse to publish (`public_secret_hits`),
        its streams inflated out of the file's allowance (`secrets_inflate.Allowance`), as
        `withhold_log`'s."""
        with reading_file(self.inflate):
            found = public_secret_hits(data, first, lo, hi, self.split_watch)
        for n, hit in found:
            if hit.label == SPENT:  # (one finding for them all: `unread_streams`)
                self.spent = [self.spent[0] + 1, self.spent[1], n] if self.spent else [1, n, n]
                self.spent_kinds[hit.how] = self.spent_kinds.get(hit.how, 0) + 1
                continue
            # (no column: the public part is the line rewritten and its escapes decoded)
            if hit.redact:
                self.add(REDACTED, f"the line's public part holds a {hit.label}'s shape "
                         f"inside base64 of binary data ({hit.excerpt}"
                         f"{f' and {len(hit.redact) - 1} more' if len(hit.redact) > 1 else ''})"
                         ", by chance or glued there; `withhold` publishes the line with "
                         "those characters replaced by `*`", n)
                continue
            how = f" once {hit.how}" if hit.how else ""
            self.add(SECRET, f"the line's public part (what `withhold` publishes) looks like "
                     f"it holds a {hit.label}{how}: {hit.excerpt}; `withhold` refuses it", n)

    def unread_streams(self) -> None:
        """One `secret.suspect` for every line refused only because the file's allowance of
        inflated bytes is spent (`secrets_inflate.SPENT`): their count, first and last line
        and the streams' kinds, at the first. A finding a line filled the rule's 500 kept
        findings with QA s46 h46_09's 2,400 bomb lines, and a key on line 2402 (in a small
        gzip, read: its own bytes pay for it) was counted but never shown (QA s46 T6).
        Called once, when the log's reading ends (whether or not it ended early)."""
        if not self.spent:
            return
        count, first, last = self.spent
        kinds = ", ".join(f"{k or 'a stream'}: {v}" for k, v in sorted(
            self.spent_kinds.items(), key=lambda kv: -kv[1]))
        self.add(SECRET, f"{count} line(s), from line {first} to line {last}, hold a stream "
                 f"of compressed data not read ({kinds}): the file's allowance of inflated "
                 f"bytes ({secrets_inflate.FILE_FLOOR >> 20} MiB beyond "
                 f"{secrets_inflate.FILE_RATIO} bytes for each compressed byte a stream "
                 "consumed) is spent; "
                 "each line's text is still read and a key in it named on its own line; "
                 "`withhold` refuses them", first)
        self.spent = []

    def feed(self, offset: int, raw: bytes | None) -> None:
        self.lines += 1
        n = self.lines
        if raw is not None:
            self.secrets(raw, n)
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
            ev = None  # not held while parse_line builds its own (a line of 1M members)
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
            self.add(JSON_KINDS.get(ev.kind, JSON), ev.message, n)
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
            what = "missing" if "seq" not in ev else f"{short_repr(seq)}, not an integer"
            add(SEQ, f"seq is {what} (expected {self.expected_seq})", n)
            self.expected_seq += 1
        # type and data -----------------------------------------------------------------
        typ = ev.get("type")
        if not isinstance(typ, str) or typ not in EVENT_TYPES:
            what = "missing" if "type" not in ev else f"{short_repr(typ)}, not a known event type"
            add(TYPE_UNKNOWN, f"type is {what}", n)
            typ = None
        data = ev.get("data")
        if not isinstance(data, dict):
            what = "missing" if "data" not in ev else f"a {json_type(data)}, not an object"
            add(DATA_NOT_OBJECT, f"data is {what}", n)
            data = None
        # at / elapsedMs ----------------------------------------------------------------
        at = ev.get("at")
        at_us = None
        if type(at) is str:
            # `YYYY-MM-DDTHH:MM:SS.mmmZ`, its second already seen (and validated) on an
            # earlier line: one dict look-up and the milliseconds.
            second = SECOND_CACHE.get(at[:19]) if len(at) == 24 and at[19] == "." \
                and at[23] == "Z" else None
            ms = at[20:23]
            if second is not None and ms.isdigit() and ms.isascii():
                at_us = second + int(ms) * 1000
            else:
                m = AT_FAST.fullmatch(at)
                if m is not None:  # parse_at's fast path, inlined
                    minute = MINUTE_CACHE.get(m[1])
                    if minute is None:
                        minute = minute_us(m[1])
                    if minute is not None:
                        frac = m[3]
                        second = minute + int(m[2]) * 1_000_000
                        at_us = second + (int((frac + "00000")[:6]) if frac else 0)
                        if len(SECOND_CACHE) >= 4096:
                            SECOND_CACHE.clear()
                        SECOND_CACHE[at[:19]] = second
        if at_us is None:
            at_us, at_rule, at_msg = parse_at(at)
            if at_rule is not None:
                add(at_rule, at_msg, n)
        el: Any = ev.get("elapsedMs")  # any JSON value until el_ok says it is a number
        t = type(el)
        el_ok = (t is int or t is float) and el >= 0 and (t is int or math.isfinite(el))
        if not el_ok:
            what = ("missing" if "elapsedMs" not in ev
                    else f"{short_repr(el)}, not a non-negative number of milliseconds")
            add(ELAPSED_FORMAT, f"elapsedMs is {what}", n)
            el = None
        if self.base_at is None and at_us is not None and (typ == "run_start" or el_ok):
            self.base_at = at_us
            self.base_el = 0.0 if typ == "run_start" else float(el)
            self.base_line = n
            self.base_line_at_text = str(ev.get("at"))[:40]
        if el_ok and at_us is not None and not self.drift_streak and self.prev_at is not None \
                and self.base_at is not None \
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
            add(RUN_START_POSITION, f"the first line is {short_repr(ev.get('type'))}, not run_start",
                n)
        elif typ == "run_start" and not first:
            add(RUN_START_POSITION, "run_start on a line other than the first", n)
        if self.index is not None:
            lane = typ or "invalid"
            self.index.add(offset, length, n, elf / 1000 if el_ok else None, lane, lane)
        self.last_content_type = typ
        if typ is None:
            return
        if typ == "run_end":
            if len(self.run_ends) < 1000:
                self.run_ends.append([n, None, prev_type == "run_end"])
            self.run_end_el = elf if el_ok else None
            if isinstance(ev.get("at"), str):
                if self.start is None and self.ended_at is None:
                    self.ended_first = True
                self.ended_at = ev["at"]
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
        missing = [k for k in ("game", "category", "model") if not nonempty_str(data.get(k))]
        scaffold = data.get("scaffold")
        if not isinstance(scaffold, dict) or not nonempty_str(scaffold.get("name")):
            missing.append("scaffold.name")
        if missing:
            self.add(RUN_START_FIELDS, "run_start lacks (or has a non-string or empty) "
                     + ", ".join(missing), n)
        for k in ("game", "category"):
            v = data.get(k)
            if nonempty_str(v) and not _SLUG.fullmatch(v):
                self.add(RUN_START_SLUG, f"run_start {k} {short_repr(v)} does not look like a slug "
                         "(lowercase letters, digits and -)", n)
        if self.start is None:
            self.start = RunStart(
                data.get("game"), data.get("category"), data.get("model"), scaffold,
                ev.get("at") if isinstance(ev.get("at"), str) else None)
            if isinstance(data.get("model"), str):
                self.run_start_model = data["model"]

    def _response(self, n: int, data: dict, el: float) -> None:
        check_response(self, n, data, el)  # turns.py (the skim's C path calls it too)

    def _action(self, n: int, data: dict, el: float) -> None:
        check_action(self, n, data, el)

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
        if self.stopped:  # what follows judges the whole log, which was not examined
            self.run = CommunityRun(self.start, self.ended_at, None, self.n_responses,
                                    self.n_actions, self.ended_first)
            return None
        if not self.run_ends:
            last = self.last_content_line
            what = short_repr(self.last_content_type) if self.last_content_type else "not an event"
            add(RUN_END_MISSING, f"no run_end: the log ends at line {last} ({what}); "
                "it may be truncated", None)
        self._run_end_findings()
        self._drift_streak_findings()
        if self.n_responses == 0:
            add(NO_RESPONSE, "the log has no model_response: a run needs at least one", None)
        if self.n_actions == 0:
            add(NO_ACTION, "the log has no action: a run needs at least one", None)
        k = 0
        while (got := self.responses.unrun_next(k)) is not None:
            k, line, missing, total = got
            add(RESPONSE_ACTIONS_UNRUN, f"{missing} of the {total} action(s) this response "
                "asked for never ran", line)
            k += 1
        if self.run_end_el is not None:
            duration = self.run_end_el / 1000
        elif self.last_el is not None:
            duration = self.last_el / 1000
        else:
            duration = None
        self.run = CommunityRun(self.start, self.ended_at, duration, self.n_responses,
                                self.n_actions, self.ended_first)
        return duration
