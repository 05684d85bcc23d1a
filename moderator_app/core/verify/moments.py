"""Where on the run's clock a finding happens, so that every finding can be jumped to.

A finding with a line is at its event's time (the nearest earlier timed event when the line
has no usable time). A whole-file finding is where its own times put it (docs/DESIGN.md,
"Times in findings"; `Finding.run_s`/`run_start_s`, `video_s`/`video_start_s`):

- its run time when it has one: the `sync.*` findings' actions, which stay where they are at
  any offset; the `coverage.*` findings' first instant (of the run without footage, of the
  footage outside the run), computed at the report's offset;
- else its video time, minus the offset: a footage gap, a joined recording that does not
  decode, an undecodable tail (their stretch's start), the integrity scan's spans (frozen,
  black, cut, timestamp gaps, stream changes, audio), which are where they are in the file
  at any offset. `video.joined_undecodable` was placed by parsing its message ("does not
  decode from X s"), and a footage gap went to the first frame (session 22);
- a `video.*` finding without times (a video that could not be read or indexed at all: no
  frame to place it by; session 23 gave the probe's whole-file findings their own times,
  `core/video/probe_times.py`, and `video.truncated` its readable end, which was a special
  case here): the first frame;
- `seed.*` without a line (`seed.not_checked`): the first `seed_commitment` event, where the
  commitments the finding is about are shown;
- any other whole-file finding (`input.*`, a log or trajectory as a whole): run_start, the
  run as a whole. A click on such a finding left the playhead wherever it was (issue 11
  point 3: every finding leads to its moment).

A finding with a span (start and end on one clock) also has one on the run's clock,
`finding_span`: the timeline shades it. Times are run times (seconds since run_start); video
time = run time + offset. Qt-free, so the CLI's exports and the workstation agree.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from moderator_app.core.formats.event_index import EventIndex
from moderator_app.core.rules import Finding

_BACK_SEARCH = 200  # rows searched back for a timed event from an untimed line


@dataclass(frozen=True, slots=True)
class Moment:
    """A finding's place in time. `run_s` is where to jump; `video_s` is the same instant on
    the video's clock (run_s + offset)."""

    run_s: float
    video_s: float


def finding_moment(f: Finding, index: EventIndex | None, offset_s: float) -> Moment | None:
    """Where `f` is (None: nowhere known): by its line in `index`, else by its own times
    (every whole-file finding carries them since sessions 22-23, so neither the report nor
    the run's duration is read)."""
    run_s = _run_time(f, index, offset_s)
    if run_s is None or not math.isfinite(run_s):
        return None
    return Moment(run_s, run_s + offset_s)


def finding_moments(findings: Sequence[Finding], index: EventIndex | None,
                    offset_s: float) -> list[Moment | None]:
    return [finding_moment(f, index, offset_s) for f in findings]


def time_order(moments: Sequence[Moment | None]) -> list[int]:
    """The positions of `moments` in run-time order; those placed nowhere (None) last, each
    group in the order given (a stable sort). Why: the workstation listed the report's
    findings by line and the background analyses' after them, so stepping with N went back
    in time (session 40's walk on bank_heist-cut: 0.000 -> 39.400 -> 8.633 s)."""
    def key(i: int) -> tuple[bool, float]:
        m = moments[i]
        return (True, 0.0) if m is None else (False, m.run_s)

    return sorted(range(len(moments)), key=key)


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


def finding_span(f: Finding, offset_s: float) -> tuple[float, float] | None:
    """The run-time span of a finding about a stretch (of the video, or of the run's actions),
    from its own times: its run times when it has both, else its video times minus the
    offset; None for a finding about an instant or without times."""
    if f.run_start_s is not None and f.run_end_s is not None:
        return f.run_start_s, f.run_end_s
    if f.video_start_s is not None and f.video_end_s is not None:
        return f.video_start_s - offset_s, f.video_end_s - offset_s
    return None


def _run_time(f: Finding, index: EventIndex | None, offset_s: float) -> float | None:
    if f.line is not None:
        return line_time(index, f.line)
    run_s = f.run_start
    if run_s is not None:
        return run_s
    video_s = f.video_start
    if video_s is not None:
        return video_s - offset_s
    if f.rule.startswith("video."):
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
