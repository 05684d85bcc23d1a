"""The stateful pass: facts (or block summaries) in line order to findings and the report's
chain and run sections."""

from __future__ import annotations

from typing import Any

from moderator_app.core.formats.chain import ZERO_HASH
from moderator_app.core.formats.event_index import EventIndex
from moderator_app.core.formats.streams import MAX_LINE
from moderator_app.core.rules import Rule
from moderator_app.core.verify.report import Report
from moderator_app.core.verify.sections import (
    ChainBreak,
    ChainSection,
    OfficialRun,
    ProducerSummary,
    ScoreSection,
)
from moderator_app.core.verify.seeds import SeedCheck
from moderator_app.core.verify.trajectory.facts import (
    OK,
    UNREADABLE,
    UNSUPPORTED,
    BlockSummary,
    Facts,
    LineFacts,
)
from moderator_app.core.verify.trajectory.line import SCORE_CLAIM_TYPES, LineContext, examine_line
from moderator_app.core.verify.trajectory.rules import (
    BLANK,
    EDITED,
    EMPTY,
    EVALUATOR,
    EVALUATOR_TRUST,
    FIRST_PREV,
    LINK,
    NO_EVAL_RESULT,
    NO_FINAL_NEWLINE,
    RESPELLED,
    RUN_END_MISSING,
    RUN_ID,
    RUN_SPAN_ORDER,
    SEQUENCE,
    TOO_LONG,
    TRUST_INCONSISTENT,
    WALL_BACKWARDS,
)
from moderator_app.core.verify.trajectory.spelling import SPELL_ALL
from moderator_app.core.verify.trajectory.walltime import iso_utc

_MAX_CLAIMS = 50
BLANK_KIND = "blank"  # the event index's type of a run of blank lines (as the agent log's)


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
        self.events = 0  # lines holding an event (a damaged one too); blank lines are none
        self.lines = 0  # lines read (set by the driver after each block)
        # The run of blank lines being read: first line, count, offset, its index row. One
        # finding per run, never one per line (64 MiB of newlines is one finding).
        self.blank_first = 0
        self.blank_count = 0
        self.blank_offset = 0
        self.blank_row = -1
        self.last_hashes: tuple[str | None, str | None] | None = None  # (recorded, computed)
        self.last_hash_line = 0
        self.head: str | None = None
        self.breaks = 0
        self.unreadable = 0
        self.first_break: ChainBreak | None = None
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

    def _spelled_runs(self, n: int, runs: tuple[tuple[int, int], ...]) -> None:
        """`_spelled` for each line after line `n` of a summarised block no one spelling
        reproduces, from its runs of equal facts, as `apply_many` applies them: a fact some
        known spelling reproduces is applied once a run (again, it changes nothing); one none
        reproduces, line by line until the check is off (the second such line when no known
        spelling came before: an unknown writer, such as PHP's `\\/`)."""
        for count, v in runs:
            if self.spell == 0:
                return
            if v & SPELL_ALL:
                self._spelled(n + 1, v)
            else:
                k, last = n + 1, n + count
                while k <= last and self.spell is None:  # the first decide: on, or off
                    self._spelled(k, v)
                    k += 1
                if self.spell == 0:
                    return
                self._respelled_lines(k, last - k + 1)
            n += count

    def _respelled_lines(self, first: int, count: int) -> None:
        """`_respelled` for `count` lines from `first`: those past the rule's cap counted at
        once (a writer no known spelling matches, such as Go's `\\u003c`, draws it on every
        line: 120,000 findings made one by one cost more than the chain's C check)."""
        log = self.report.findings
        kept = min(count, log.room(RESPELLED.id))
        for k in range(first, first + kept):
            self._respelled(k)
        if count > kept:
            log.count_dropped(RESPELLED.id, RESPELLED.severity, count - kept)

    def _respelled(self, n: int) -> None:
        log = self.report.findings
        if not log.room(RESPELLED.id):  # past the cap: counted, the message never made
            log.count_dropped(RESPELLED.id, RESPELLED.severity, 1)
            return
        self._add(RESPELLED, "no known serialiser spells this line as it is (the other lines "
                             "are spelled as RFC 8785, orjson or json.dumps write), though its "
                             "value and hash are intact: its bytes were probably edited in place",
                  n)

    def _add(self, r: Rule, message: str, line: int | None) -> None:
        self.report.add(r.at(message, self.file, line))

    def _break(self, line: int, kind: str) -> None:
        self.breaks += 1
        if self.first_break is None:
            self.first_break = ChainBreak(line, kind)

    def line(self, offset: int, raw: bytes | None, n: int) -> None:
        """Check line `n` (1-based) whose bytes (without `\\n`) start at `offset`; `raw` is
        None for a line too long to read."""
        if raw is None:
            self.apply(offset, 0, n, Facts(UNREADABLE, found=[
                (TOO_LONG, f"line longer than {MAX_LINE} bytes, not read")]))
            return
        self.apply(offset, len(raw), n, examine_line(raw, self.ctx))

    def blanks(self, offset: int, length: int, first: int, count: int) -> None:
        """`count` blank (whitespace-only) lines from line `first`, `length` bytes from
        `offset`. The format has one event per line, so a blank line is no event: it is not
        counted, it is no link of the chain (the event after it links to the one before),
        and a run of them is one `traj.blank` finding at its first line and one row of the
        event index, however long (issue 15: count them, report them, move on)."""
        index = self.index
        if self.blank_count and self.blank_first + self.blank_count == first:
            self.blank_count += count
            if index is not None:
                index.lengths[self.blank_row] = offset + length - self.blank_offset
            return
        self.end_blanks()
        self.blank_first, self.blank_count, self.blank_offset = first, count, offset
        if index is not None:
            self.blank_row = len(index)
            index.add(offset, length, first, None, "?", BLANK_KIND)

    def end_blanks(self) -> None:
        """The finding of the run of blank lines read last, if any."""
        count, first = self.blank_count, self.blank_first
        if not count:
            return
        self.blank_count = 0
        if count == 1:
            message = "blank line: every line must be one event (not counted as one)"
        else:
            message = (f"{count:,} blank lines (lines {first:,}-{first + count - 1:,}): every "
                       "line must be one event (not counted as events)")
        self._add(BLANK, message, first)

    def apply(self, offset: int, length: int, n: int, facts: Facts) -> None:
        status = facts.status
        found = facts.found
        # (== not is: facts from the worker process hold unpickled copies of the rules)
        if status == UNREADABLE and found and found[-1][0] == BLANK:
            self.blanks(offset, length, n, 1)
            return
        self.events += 1
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
        self._chain(n, facts.prev, facts.recorded, facts.computed, facts.hash_ok)
        if status == OK and facts.spell is not None and self.spell != 0:
            self._spelled(n, facts.spell)
        if status == UNSUPPORTED:
            if self.index is not None:
                self.index.add(offset, length, n, None, "?", facts.etype)
            return
        producer, trust, etype = facts.producer, facts.trust, facts.etype
        seq, t, run_id, extra = facts.seq, facts.t, facts.run_id, facts.extra
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
            if etype in SCORE_CLAIM_TYPES:
                self._score(n, producer, trust, etype, extra.score_payload)
            if extra.commitment is not None:
                f = self.seeds.add(extra.commitment, n, self.file)
                if f is not None:
                    self.report.add(f)
        if self.index is not None:
            self.index.add(offset, length, n, t, producer, etype)

    def apply_many(self, offset: int, items: LineFacts, n: int) -> int:
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
            if (f.status == OK and f.found is None and f.extra is None and last is not None
                    and f.computed == f.recorded and (f.prev == last[0] or f.prev == last[1])
                    and f.run_id == run_id0 and f.etype != "run_start"
                    and f.etype != "run_end"):
                p = producers.get(f.producer)
                t = f.t
                if (p is not None and p.trust == f.trust and p.seq is not None
                        and f.seq is not None and f.seq > p.seq and p.wall is not None
                        and t is not None and t >= p.wall):
                    fast += 1
                    last = (f.recorded, f.computed)
                    if f.spell is not None and self.spell != 0:
                        self._spelled(n, f.spell)
                    p.events += 1
                    p.seq = f.seq
                    p.seq_line = n
                    p.wall = t
                    p.wall_line = n
                    if tmin is None or t < tmin:
                        tmin = t
                    elif tmax is None or t > tmax:
                        tmax = t
                    if index is not None:
                        index.add(offset, length, n, t, f.producer, f.etype)
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

    def apply_summary(self, s: BlockSummary, n: int) -> int | None:
        """Apply a block summary (see `scan_block`) after line `n`; the last line number, or
        None (nothing applied) when the block does not join on cleanly: its first link, its
        run_id, a producer's trust, sequence or clock against what came before. The caller
        then applies the block's line facts, which word the findings."""
        if self.index is not None:
            return None
        k, first_prev, last_rec, run_id = s.events, s.first_prev, s.last_hash, s.run_id
        last = self.last_hashes
        if last is None:
            if first_prev != ZERO_HASH:
                return None
        elif first_prev != last[0] and first_prev != last[1]:
            return None
        if self.run_id is not None and run_id != self.run_id:
            return None
        producers = self.producers
        for span in s.producers:
            p = producers.get(span.name)
            if p is not None and (p.trust != span.trust
                                  or (p.seq is not None and span.first_seq <= p.seq)
                                  or (p.wall is not None and span.first_t < p.wall)):
                return None
        if self.run_id is None:
            self.run_id, self.run_id_line = run_id, n + 1
        for span in s.producers:
            p = producers.get(span.name)
            if p is None:
                p = producers[span.name] = _Producer()
                p.trust, p.trust_line = span.trust, n + span.first_index + 1
            p.events += span.events
            p.seq, p.seq_line = span.last_seq, n + span.last_index + 1
            p.wall, p.wall_line = span.last_t, n + span.last_index + 1
        if s.spell is not None and self.spell != 0:
            if s.spell_runs is None:
                self._spelled(n + 1, s.spell)  # every line is spelled as known: reports only
                # an earlier line held as `spell_pending`
            else:
                self._spelled_runs(n, s.spell_runs)
        self.events += k
        self.last_hashes = (last_rec, last_rec)
        self.last_hash_line = n + k
        self.head = last_rec
        if self.t_min is None or s.t_min < self.t_min:
            self.t_min = s.t_min
        if self.t_max is None or s.t_max > self.t_max:
            self.t_max = s.t_max
        if s.t_start is not None and self.run_start is None:
            self.run_start = s.t_start
        if s.t_end is not None:
            self.run_end = s.t_end
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
        self.end_blanks()
        rep.events = self.events
        if missing_final_newline and self.events:
            self._add(NO_FINAL_NEWLINE, "the last line has no terminating \\n",
                      max(self.lines, self.events))
        if complete and self.events == 0:
            self._add(EMPTY, "the trajectory holds no event" + (
                f" ({self.lines:,} blank lines only)" if self.lines > 1 else
                " (one blank line only)" if self.lines else ""), None)
        if complete and self.run_start is not None and self.run_end is None:
            self._add(RUN_END_MISSING, "run_start but no run_end: the run did not finish or "
                                       "its last events are missing", None)
        if (self.run_start is not None and self.run_end is not None
                and self.run_end < self.run_start):
            self._add(RUN_SPAN_ORDER, f"run_end ({iso_utc(self.run_end)}) is earlier than run_start "
                                      f"({iso_utc(self.run_start)}): no run span to measure", None)
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
        rep.chain = ChainSection(self.events, complete, valid, self.head, self.first_break,
                                 self.breaks, self.unreadable)
        rep.run = OfficialRun(
            run_id=self.run_id,
            producers={name: ProducerSummary(p.events, p.trust)
                       for name, p in sorted(self.producers.items())},
            started_at=iso_utc(start), ended_at=iso_utc(end), duration_s=duration,
            span_from="run_start/run_end" if self.run_start is not None
            and self.run_end is not None else "first/last wall_time",
            score=ScoreSection(self.authoritative, self.authoritative_line, tuple(self.claims),
                               self.claims_total),
            seeds=self.seeds.summary(), secrets_suspected=self.secret_hits)
        if self.index is not None and start is not None:
            times = self.index.times
            for i in range(len(times)):
                times[i] -= start
        return duration
