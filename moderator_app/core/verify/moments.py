"""Where on the run's clock a finding happens, so that every finding can be jumped to.

A finding with a line is at its event's time (the nearest earlier timed event when the line
has no usable time). A whole-file finding has a moment of its own:

- `coverage.missing` / `coverage.partial`: the first instant of the run without footage
  (run_start when the video starts too late or ends before the run starts, else the instant
  the video ends);
- `coverage.extra`: the first instant of footage outside the run;
- `video.*`: today's video findings concern the file as a whole: its first frame (for a file
  whose end is cut or undecodable, its last decodable instant; for a joined recording that does
  not decode, `video.joined_undecodable`, the start of the stretch its message names). Findings that carry their own
  video time (docs/DESIGN.md, "Times in findings") should be placed by it: add that case here;
- `seed.*` without a line (`seed.not_checked`): the first `seed_commitment` event, where the
  commitments the finding is about are shown;
- any other whole-file finding (`input.*`, a log or trajectory as a whole): run_start, the
  run as a whole. A click on such a finding left the playhead wherever it was (issue 11
  point 3: every finding leads to its moment).

Times are run times (seconds since run_start); video time = run time + offset. Qt-free, so the
CLI's exports and the workstation agree.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from moderator_app.core.formats.event_index import EventIndex
from moderator_app.core.rules import Finding
from moderator_app.core.verify.report import Report

_BACK_SEARCH = 200  # rows searched back for a timed event from an untimed line
# `video.joined_undecodable` names its stretch's video time (core/video/probe.py)
_FROM_S = re.compile(r"does not decode from (\d+\.\d+) s")


@dataclass(frozen=True, slots=True)
class Moment:
    """A finding's place in time. `run_s` is where to jump; `video_s` is the same instant on
    the video's clock (run_s + offset)."""

    run_s: float
    video_s: float


def finding_moment(f: Finding, report: Report, index: EventIndex | None,
                   run_duration_s: float | None, offset_s: float) -> Moment | None:
    run_s = _run_time(f, report, index, run_duration_s, offset_s)
    if run_s is None or not math.isfinite(run_s):
        return None
    return Moment(run_s, run_s + offset_s)


def finding_moments(findings: Sequence[Finding], report: Report, index: EventIndex | None,
                    run_duration_s: float | None, offset_s: float) -> list[Moment | None]:
    return [finding_moment(f, report, index, run_duration_s, offset_s) for f in findings]


def line_time(index: EventIndex | None, line: int) -> float | None:
    """The run time of the event on `line` (or of the nearest earlier timed event)."""
    if index is None or not len(index):
        return None
    row = index.row_for_line(line)
    return None if row is None else row_time(index, row)


def row_time(index: EventIndex, row: int) -> float | None:
    """The run time of index row `row`, or of the nearest earlier timed row when it has none
    (a line that is not JSON, or whose `at` is unusable): where its finding is listed, and
    where selecting it takes the video."""
    for r in range(row, max(-1, row - _BACK_SEARCH), -1):
        t = index.times[r]
        if not math.isnan(t):
            return t
    return None


def _run_time(f: Finding, report: Report, index: EventIndex | None,
              run_duration_s: float | None, offset_s: float) -> float | None:
    if f.line is not None:
        return line_time(index, f.line)
    cov = report.coverage
    if f.rule in ("coverage.missing", "coverage.partial") and cov:
        if cov.missing_before_s > 0:
            return 0.0
        # the first instant of the run without footage: run_start when the video ended
        # before it (at offset 30 s a 28 s video sent the playhead to -2 s, before the run)
        return max(0.0, cov.video_duration_s - offset_s)
    if f.rule == "coverage.extra" and cov:
        if cov.extra_before_s > 0:
            return -offset_s
        return run_duration_s if run_duration_s is not None else None
    if f.rule.startswith("video."):
        duration = report.video.duration_s if report.video is not None else None
        if f.rule in ("video.truncated", "video.tail_undecodable") and duration is not None:
            return float(duration) - offset_s
        if f.rule == "video.joined_undecodable":  # the stretch that does not decode: its start
            m = _FROM_S.search(f.message)
            if m:
                return float(m.group(1)) - offset_s
        return -offset_s  # the file as a whole: its first frame
    if f.rule.startswith("seed.") and index is not None:
        first = _first_row_of_kind(index, "seed_commitment")
        if first is not None:
            return row_time(index, first)
    return 0.0  # the run as a whole: its start


def _first_row_of_kind(index: EventIndex, kind: str) -> int | None:
    try:
        return index.kinds.index(index.kind_names.index(kind))
    except ValueError:  # no such event type in the run
        return None
