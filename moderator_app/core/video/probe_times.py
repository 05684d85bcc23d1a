"""Where the probe's findings about the file as a whole are in time (docs/DESIGN.md, "Times in
findings"; session 23, issue 11 point 3).

Session 22 gave the probe's findings about a stretch their times (footage gaps, joined
recordings, the undecodable tail). Those about the file as a whole had none, and a click on
one went to the first frame (or, for `video.truncated`, the file's end through a special case
in `core/verify/moments.py`). Each now carries the time it is about, set where the finding is
made, so that `verify --json` says it and the workstation goes there by the same path as any
other finding:

- `video.truncated`: from where the readable footage ends (the measured duration) to where
  the header or the stream's packets say the file ends; a moment there when neither says more;
- `video.probe_incomplete` for an end that did not decode in time: the last frame's span;
- `video.header_mismatch`: the span between the two ends, the frames' and the header's;
- `video.variable_rate`: its first uneven stretch (the first frame interval that makes the
  rate uneven, through the uneven intervals that follow it: 10-20 s of 15 fps between 30 fps);
- `video.several_streams`: where the other streams have footage, a finding per span (sessions
  24-25, `child_others`); the whole video, 0 to its duration, where that is not known;
- the "... and N more gaps" line past 50 gaps: from the 51st gap's start to the last's end.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from moderator_app.core.rules import Finding


def _t(x: float) -> float | None:
    """As `Rule.at` writes a time: to the microsecond; no time when not finite."""
    return round(float(x), 6) if math.isfinite(x) else None


def span_or_moment(f: Finding, start: float, end: float | None) -> Finding:
    """`f` with the span `start`-`end` (video time), or the moment `start` when `end` is
    None or not after it."""
    if end is not None and math.isfinite(end) and end > start + 1e-6:
        return replace(f, video_start_s=_t(start), video_end_s=_t(end))
    return replace(f, video_s=_t(start))


def timed_truncation(findings: list[Finding], rule_id: str, readable_end_s: float,
                     claimed_ends: tuple[float | None, ...]) -> list[Finding]:
    """The `rule_id` (`video.truncated`) findings of `findings` with their time: found in the
    container's structure before the frames were indexed, timed once the index says where
    the readable footage ends (`readable_end_s`) and `claimed_ends` where the file claims to
    end (the header's duration, the last packet's time, the indexed frames' end)."""
    ends = [float(e) for e in claimed_ends if e is not None and math.isfinite(e)]
    end = max(ends) if ends else None
    return [span_or_moment(f, readable_end_s, end)
            if f.rule == rule_id and f.video_start is None else f for f in findings]


def first_uneven(times_s: np.ndarray, frame_s: float, tolerance_s: float
                 ) -> tuple[float, float] | None:
    """The first uneven stretch (start, end) of video time: from the first frame interval
    whose length differs from the nominal frame duration `frame_s` by more than half the
    spread `video.variable_rate` tolerates (`tolerance_s`, between the shortest and the
    longest interval; when the spread is more than that, one interval is) to the end of the
    last of the uneven intervals that follow it without an even one between. A dropped frame
    is its one interval; a stretch at another rate is the stretch. Intervals of 0 (frames
    sharing a time) are skipped, as the finding skips them."""
    d = np.diff(times_s)
    even = np.abs(d - frame_s) <= tolerance_s / 2
    hit = np.nonzero((d > 0) & ~even)[0]
    if not hit.shape[0]:
        return None
    i = int(hit[0])
    back = np.nonzero((d[i:] > 0) & even[i:])[0]  # the first even interval after it
    j = i + int(back[0]) if back.shape[0] else d.shape[0]
    return float(times_s[i]), float(times_s[j])
