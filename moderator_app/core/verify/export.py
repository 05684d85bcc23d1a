"""Findings for the submitter: the report at the decided offset as JSON, and a plain-text
(Markdown) summary with each finding's line, time and the decision.

Moderators must be able to tell a submitter why a run was rejected, in words the submitter can
check against their own files: the rule, the file and line, the moment (run time, and video
time where there is footage), and the moderator's decision with its reason and note. Qt-free;
the workstation's File > Export findings writes both files with `atomic` writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from moderator_app.core.rules import Finding
from moderator_app.core.text import counted, safe_text
from moderator_app.core.verify.moments import Moment
from moderator_app.core.verify.report import Report


def _clock(t: float) -> str:
    sign = "-" if t < 0 else ""
    t = abs(t)
    h, rem = divmod(t, 3600)
    m, s = divmod(rem, 60)
    return f"{sign}{int(h):02d}:{int(m):02d}:{s:06.3f}"


def finding_line(f: Finding, moment: Moment | None) -> str:
    """One finding as one line of text: severity, rule, where, when, message."""
    # the file is a member name from the submission: escaped like the message (a folder named
    # with ESC ] 0 or U+202E reached the exported Markdown and the clipboard raw, session 15)
    where = safe_text(f.file or "") + ("" if f.line is None else f":{f.line}")
    when = "" if moment is None else (
        f" at run {_clock(moment.run_s)} (video {_clock(moment.video_s)})")
    text = " ".join(f.message.split())
    return f"{f.severity.value} {f.rule} {where or '(whole submission)'}{when}: {text}"


def markdown_summary(report: Report, findings: Sequence[Finding],
                     moments: Sequence[Moment | None], decision: Any | None = None) -> str:
    """The summary a moderator sends to a submitter. `decision` is a ledger record
    (`DecisionRecord`) or None when nothing was decided yet."""
    out = [f"# Review of {safe_text(report.input_name)}", ""]
    if decision is not None:  # a record read back from a ledger: any text, escaped
        out.append(f"Decision: **{safe_text(decision.decision).upper()}** "
                   f"({safe_text(decision.reason)}) by {safe_text(decision.reviewer)} at "
                   f"{safe_text(decision.decided_at)}")
        if decision.note:
            out.append(f"Note: {safe_text(' '.join(decision.note.split()))}")
        out.append("")
    fl = report.findings
    out.append(f"Verification verdict: **{report.verdict.upper()}** at sync offset "
               f"{report.offset:+.3f} s (the video time of run_start): {counted(fl.errors, 'error')}, "
               f"{counted(fl.warnings, 'warning')}, {counted(fl.infos, 'note')}"
               + (f"; {counted(fl.dropped, 'more finding', 'more findings')} not listed" if fl.dropped else "") + ".")
    if report.coverage:
        c = report.coverage
        out.append(f"Video coverage: {'covered' if c.covered else 'NOT covered'}, "
                   f"{c.missing_s:.3f} s of the run missing (limit {c.tolerance_s:g} s).")
    out += ["", "## Findings", ""]
    if not findings:
        out.append("None.")
    for f, m in zip(findings, moments, strict=True):
        out.append(f"- {finding_line(f, m)}")
    out += ["", "## Files", ""]
    for d in report.files:
        out.append(f"- {safe_text(d.name)} ({d.role}, {d.size} bytes, sha256 {d.sha256})")
    return "\n".join(out) + "\n"
