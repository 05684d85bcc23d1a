"""Does the video cover the run? Exactly docs/DESIGN.md's definition.

Sync offset `o`: the video time, in seconds, at which `run_start` happens.
Missing footage = max(0, -o) + max(0, o + run_duration - video_duration) + the time inside
the run's span [o, o + run_duration] that falls in gaps between frames (issue 15: footage is
counted, not the time between timestamps; gaps come from the frame index, see
core/video/probe.py) or in the stretches of a joined recording that do not decode
(`video.joined_undecodable`: pictures the decoder gives damaged are no footage). The video covers the run when missing footage is at most 5.0 s. Footage
beyond the run is reported (info), not an error.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from moderator_app.core.rules import Finding, Severity, rule

COVERAGE_TOLERANCE_S = 5.0

NOT_COVERED = rule(
    "coverage.missing", Severity.ERROR,
    "The video must cover the run from run_start to run_end within 5 seconds.", "coverage")
EXTRA_FOOTAGE = rule(
    "coverage.extra", Severity.INFO,
    "Footage before run_start or after run_end (reported, not an error).", "coverage")
PARTLY_MISSING = rule(
    "coverage.partial", Severity.INFO,
    "Some footage is missing, but within the 5-second tolerance.", "coverage")


@dataclass(frozen=True, slots=True)
class Coverage:
    """The report's `coverage` section: readers use the attributes (exact); `to_dict()` writes
    them rounded to the microsecond, with the derived `missing_s`, `tolerance_s`, `covered`."""

    run_duration_s: float
    video_duration_s: float
    offset_s: float
    missing_before_s: float
    missing_after_s: float
    extra_before_s: float
    extra_after_s: float
    missing_gaps_s: float = 0.0

    @property
    def missing_s(self) -> float:
        return self.missing_before_s + self.missing_after_s + self.missing_gaps_s

    @property
    def tolerance_s(self) -> float:
        return COVERAGE_TOLERANCE_S

    @property
    def covered(self) -> bool:
        # A tiny epsilon so that exactly 5.000 s computed from floats still counts as covered.
        return self.missing_s <= COVERAGE_TOLERANCE_S + 1e-9

    def to_dict(self) -> dict:
        d = {k: round(v, 6) for k, v in asdict(self).items()}
        d["missing_s"] = round(self.missing_s, 6)
        d["tolerance_s"] = self.tolerance_s
        d["covered"] = self.covered
        return d


def compute_coverage(run_duration_s: float, video_duration_s: float, offset_s: float,
                     gaps: tuple[tuple[float, float], ...] = ()) -> Coverage:
    """`gaps`: spans of video time (start, end) without footage (VideoProbe.gaps)."""
    if not all(map(math.isfinite, (run_duration_s, video_duration_s, offset_s))):
        raise ValueError("coverage needs finite durations and offset")  # NaN would pass
    o = offset_s
    lo, hi = max(o, 0.0), min(o + run_duration_s, video_duration_s)
    in_gaps = sum(max(0.0, min(b, hi) - max(a, lo)) for a, b in gaps)
    return Coverage(
        run_duration_s=run_duration_s,
        video_duration_s=video_duration_s,
        offset_s=o,
        missing_before_s=max(0.0, -o),
        missing_after_s=max(0.0, o + run_duration_s - video_duration_s),
        extra_before_s=max(0.0, o),
        extra_after_s=max(0.0, video_duration_s - (o + run_duration_s)),
        missing_gaps_s=in_gaps,
    )


def first_missing_s(cov: Coverage, gaps: tuple[tuple[float, float], ...] = ()) -> float:
    """The first instant of the run without footage, in run time: run_start when the video
    starts after it or ends before it; else the start of the first gap (or stretch that does
    not decode) inside the run; else the instant the video ends. A run whose footage is
    missing only in a gap was sent to the video's end, past the run (session 22)."""
    o = cov.offset_s
    if cov.missing_before_s > 0:
        return 0.0
    lo, hi = max(o, 0.0), min(o + cov.run_duration_s, cov.video_duration_s)
    for a, b in sorted(gaps):
        if min(b, hi) > max(a, lo):
            return max(a, lo) - o
    return max(0.0, cov.video_duration_s - o)


def coverage_findings(cov: Coverage, file: str | None,
                      gaps: tuple[tuple[float, float], ...] = ()) -> list[Finding]:
    """The `coverage.*` findings, each at its first instant on both clocks (run time, and
    video time at this offset: docs/DESIGN.md, "Times in findings"). `gaps`: those
    `compute_coverage` was given."""
    out: list[Finding] = []
    o = cov.offset_s
    run_s = first_missing_s(cov, gaps) if cov.missing_s > 0 else None
    video_s = None if run_s is None else run_s + o
    if not cov.covered:
        out.append(NOT_COVERED.at(
            f"video misses {cov.missing_s:.3f} s of the run (limit {COVERAGE_TOLERANCE_S:g} s): "
            f"{cov.missing_before_s:.3f} s before run_start, {cov.missing_after_s:.3f} s "
            f"after" + (f", {cov.missing_gaps_s:.3f} s in gaps between frames or frames that "
                        "do not decode" if cov.missing_gaps_s else "") + f"; run {cov.run_duration_s:.3f} s, video {cov.video_duration_s:.3f} s, "
            f"offset {cov.offset_s:.3f} s", file, run_s=run_s, video_s=video_s))
    elif cov.missing_s > 0:
        out.append(PARTLY_MISSING.at(
            f"video misses {cov.missing_s:.3f} s of the run, within the "
            f"{COVERAGE_TOLERANCE_S:g} s tolerance", file, run_s=run_s, video_s=video_s))
    if cov.extra_before_s > 0 or cov.extra_after_s > 0:
        # the first instant of footage outside the run: the first frame, else run_end
        at = -o if cov.extra_before_s > 0 else cov.run_duration_s
        out.append(EXTRA_FOOTAGE.at(
            f"footage beyond the run: {cov.extra_before_s:.3f} s before run_start, "
            f"{cov.extra_after_s:.3f} s after run_end", file, run_s=at, video_s=at + o))
    return out
