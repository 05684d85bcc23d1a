"""The report at another sync offset, without reading the evidence again.

The sync offset changes one thing in a report: the video coverage (its section and its
`coverage.*` findings); every other finding is a property of the bytes. So when the moderator
moves the offset, the workstation asks for the report at the new offset here instead of
re-verifying a log that may take minutes to read. The result is the report `verify --offset`
gives (the same coverage functions, the same finding order): `tests/verify/test_at_offset.py` checks
`report_at_offset(verify(o1), o2)` against `verify(o2)` byte for byte, and a decision recorded
in the workstation against `decide --offset` on the same input.

The sync analysis (`core/sync`, `verify --sync`) also depends on the offset (`offset_used_s`),
but it sits above this layer: a report with a `sync` section must have it redone by `core/sync`
after this function (the workstation does not run it yet).
"""

from __future__ import annotations

import copy
import math
from dataclasses import replace

from moderator_app.core.verify.coverage import compute_coverage, coverage_findings
from moderator_app.core.verify.pipeline import VerifyResult
from moderator_app.core.verify.report import Report

COVERAGE_PREFIX = "coverage."


def report_at_offset(report: Report, offset_s: float, run_duration_s: float | None) -> Report:
    """`report` as verification at `offset_s` would have made it. `run_duration_s` is the
    verifier's exact run span (`VerifyResult.run_duration_s`; the report's section is
    rounded). The given report is not changed."""
    offset_s = float(offset_s)
    if not math.isfinite(offset_s):
        raise ValueError(f"the sync offset must be a finite number, not {offset_s!r}")
    if offset_s == report.offset:
        return report
    new = copy.copy(report)
    new.offset = offset_s
    video = report.video
    video_s = None if video is None else video.measured_s
    if report.coverage is None or run_duration_s is None or video is None or video_s is None:
        return new  # no coverage at any offset: only the offset itself changes
    cov = compute_coverage(run_duration_s, video_s, offset_s, video.footage_gaps)
    new.coverage = cov
    new.findings = report.findings.replacing(
        lambda f: f.rule.startswith(COVERAGE_PREFIX), coverage_findings(cov, video.file, video.footage_gaps))
    return new


def result_at_offset(result: VerifyResult, offset_s: float) -> VerifyResult:
    """The verification result with its report at `offset_s` (index and files shared)."""
    if float(offset_s) == result.report.offset:
        return result
    report = report_at_offset(result.report, offset_s, result.run_duration_s)
    return result if report is result.report else replace(result, report=report)
