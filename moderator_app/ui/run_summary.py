"""The "Run" panel: what the report says about the run as a whole, for the reviewer's eye.

Trusted reviewers need the chain status, each producer with its trust level, and the
evaluator's score shown apart from any score the agent claimed (docs/DESIGN.md decision 7); the
moderator of a community run needs the game, model, scaffold, video and coverage at a glance.
Every value comes from the report dicts built by the core; all of it is shown as plain text in
item views (which never interpret markup).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QHeaderView, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from moderator_app.core.verify.sections import CommunityRun, OfficialRun
from moderator_app.ui.session import ReviewSession

MAX_CLAIMS_SHOWN = 50


def _official_run(run: OfficialRun) -> list[tuple[str, list[tuple[str, str]]]]:
    """The producers, the score (the evaluator's apart from every claim) and the run."""
    out = [("Producers (trust level, events)", [
        (str(name), f"{_text(p.trust_level)} · {_text(p.events)} events")
        for name, p in sorted(run.producers.items())])]
    score = run.score
    rows = [("evaluator (authoritative)", _text(score.authoritative)
             + (f"  [line {score.authoritative_line}]" if score.authoritative_line else ""))]
    for claim in score.untrusted_claims[:MAX_CLAIMS_SHOWN]:
        rows.append(("UNTRUSTED claim", _text(claim)))
    if score.untrusted_claims_total > MAX_CLAIMS_SHOWN:
        rows.append(("UNTRUSTED claims", f"{score.untrusted_claims_total} in all"))
    out.append(("Score", rows))
    out.append(("Run", [
        ("run_id", _text(run.run_id)),
        ("started / ended", f"{_text(run.started_at)} → {_text(run.ended_at)}"),
        ("duration", f"{_text(run.duration_s)} s ({_text(run.span_from)})"),
        ("seed commitments", f"{_text(run.seeds.get('commitments'))}, checked: "
                             f"{_text(run.seeds.get('checked'))}"),
        ("suspected secrets", _text(run.secrets_suspected)),
    ]))
    return out


def _text(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_text(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_text(v) for v in value)
    return str(value)


def summary_sections(report: Any) -> list[tuple[str, list[tuple[str, str]]]]:
    """(section title, [(field, value)]) for a report: the panel's content, testable alone."""
    out: list[tuple[str, list[tuple[str, str]]]] = []
    summary = report.summary()
    out.append(("Verdict", [
        ("verdict", report.verdict.upper()),
        ("verification level", report.verification_level),
        ("errors / warnings", f"{summary['errors']} / {summary['warnings']}"),
        ("events read", str(report.events)),
        ("complete", _text(report.complete)),
    ]))
    run = report.run
    if report.kind.has_chain:
        chain = report.chain
        brk = chain.first_break if chain else None
        out.append(("Chain", [
            ("valid end to end", _text(chain and chain.valid)),
            ("complete", _text(chain and chain.complete)),
            ("events", _text(chain and chain.events)),
            ("breaks", _text(chain and chain.breaks)),
            ("first break", f"line {brk.line} ({brk.kind})" if brk else "none"),
            ("head hash", _text(chain and chain.head)),
        ]))
        if isinstance(run, OfficialRun):
            out.extend(_official_run(run))
    else:
        start = run.start if isinstance(run, CommunityRun) else None
        out.append(("Run", [
            ("game", _text(start and start.game)),
            ("category", _text(start and start.category)),
            ("model", _text(start and start.model)),
            ("scaffold", _text(start and start.scaffold)),
            ("started_at", _text(start and start.started_at)),
            ("ended_at", _text(run and run.ended_at)),
            ("duration_s", _text(run and run.duration_s))]))
    video = report.video
    if video is not None:
        out.append(("Video", [
            ("file", _text(video.file)), ("codec", _text(video.codec)), ("fps", _text(video.fps)),
            ("frame_count", _text(video.frame_count)), ("width", _text(video.width)),
            ("height", _text(video.height)), ("duration_s", _text(video.duration_s)),
            ("method", _text(video.method))]))
    cov = report.coverage
    if cov is not None:
        out.append(("Coverage", [
            ("covered", _text(cov.covered)),
            ("missing", f"{_text(cov.missing_s)} s (limit {_text(cov.tolerance_s)} s)"),
            ("run / video", f"{_text(cov.run_duration_s)} s / {_text(cov.video_duration_s)} s"),
            ("offset", f"{_text(cov.offset_s)} s (at verification)"),
        ]))
    out.append(("Files (SHA-256)", [(f.name, f"{f.size} bytes · {f.sha256}")
                                     for f in report.files]))
    return out


class RunSummaryPanel(QWidget):
    """A two-column tree (field, value), rebuilt whenever the session's result changes."""

    def __init__(self, session: ReviewSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.tree = QTreeWidget()
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels(["Field", "Value"])
        self.tree.setUniformRowHeights(True)
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.tree)
        session.report_changed.connect(self.refresh)  # verdict and coverage follow the offset
        self.refresh()

    def refresh(self) -> None:
        self.tree.clear()
        report = self.session.report
        if report is None:
            QTreeWidgetItem(self.tree, ["No submission", ""])
            return
        for title, rows in summary_sections(report):
            top = QTreeWidgetItem(self.tree, [title, ""])
            for field, value in rows:
                item = QTreeWidgetItem(top, [field, value])
                item.setToolTip(1, value)
            top.setExpanded(True)
