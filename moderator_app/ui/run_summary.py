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

from moderator_app.ui.session import ReviewSession

MAX_CLAIMS_SHOWN = 50


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
    run = report.run or {}
    if report.kind.has_chain:
        chain = report.chain or {}
        brk = chain.get("first_break")
        out.append(("Chain", [
            ("valid end to end", _text(chain.get("valid"))),
            ("complete", _text(chain.get("complete"))),
            ("events", _text(chain.get("events"))),
            ("breaks", _text(chain.get("breaks"))),
            ("first break", f"line {brk.get('line')} ({brk.get('kind')})" if brk else "none"),
            ("head hash", _text(chain.get("head"))),
        ]))
        producers = run.get("producers") or {}
        out.append(("Producers (trust level, events)", [
            (str(name), f"{_text(p.get('trust_level'))} · {_text(p.get('events'))} events")
            for name, p in sorted(producers.items())]))
        score = run.get("score") or {}
        rows = [("evaluator (authoritative)", _text(score.get("authoritative"))
                 + (f"  [line {score['authoritative_line']}]"
                    if score.get("authoritative_line") else ""))]
        claims = score.get("untrusted_claims") or []
        for claim in claims[:MAX_CLAIMS_SHOWN]:
            rows.append(("UNTRUSTED claim", _text(claim)))
        total = score.get("untrusted_claims_total", len(claims))
        if total > MAX_CLAIMS_SHOWN:
            rows.append(("UNTRUSTED claims", f"{total} in all"))
        out.append(("Score", rows))
        seeds = run.get("seeds") or {}
        out.append(("Run", [
            ("run_id", _text(run.get("run_id"))),
            ("started / ended", f"{_text(run.get('started_at'))} → {_text(run.get('ended_at'))}"),
            ("duration", f"{_text(run.get('duration_s'))} s ({_text(run.get('span_from'))})"),
            ("seed commitments", f"{_text(seeds.get('commitments'))}, checked: "
                                 f"{_text(seeds.get('checked'))}"),
            ("suspected secrets", _text(run.get("secrets_suspected"))),
        ]))
    else:
        out.append(("Run", [
            (key, _text(run.get(key)))
            for key in ("game", "category", "model", "scaffold", "started_at", "ended_at",
                        "duration_s")]))
    video = report.video
    if video:
        out.append(("Video", [
            (key, _text(video.get(key)))
            for key in ("file", "codec", "fps", "frame_count", "width", "height", "duration_s",
                        "method")]))
    cov = report.coverage
    if cov:
        out.append(("Coverage", [
            ("covered", _text(cov.get("covered"))),
            ("missing", f"{_text(cov.get('missing_s'))} s (limit {_text(cov.get('tolerance_s'))} s)"),
            ("run / video", f"{_text(cov.get('run_duration_s'))} s / "
                            f"{_text(cov.get('video_duration_s'))} s"),
            ("offset", f"{_text(cov.get('offset_s'))} s (at verification)"),
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
