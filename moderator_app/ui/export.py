"""File > Export findings and "copy a finding": the Qt side of `core.verify.export`.

Export writes two files next to each other, chosen once: `NAME.json` (the report at the
current sync offset, the `moderator-app/report/v1` contract) and `NAME.md` (the plain-text
summary for the submitter with lines, times and the latest decision on this evidence).
"""

from __future__ import annotations

from pathlib import Path

import orjson
from PySide6.QtWidgets import QFileDialog, QWidget

from moderator_app.core.atomic import atomic_write
from moderator_app.core.rules import Finding
from moderator_app.core.text import terminal_safe_json
from moderator_app.core.verify.export import finding_line, markdown_summary
from moderator_app.core.verify.moments import Moment


def finding_text(f: Finding, moment: Moment | None) -> str:
    return finding_line(f, moment)


def export_findings(window, base: Path) -> tuple[Path, Path] | None:
    """Write `base`.json and `base`.md for the submission open in `window`."""
    report = window.session.report
    if report is None:
        return None
    findings = window.findings.findings
    moments = [window.findings.moment(i) for i in range(len(findings))]
    decision = window.decision_panel.latest_decision()
    base = Path(base)
    if base.suffix in (".json", ".md"):
        base = base.with_suffix("")
    json_path, md_path = base.with_suffix(".json"), base.with_suffix(".md")
    # orjson escapes C0 only: DEL, C1 and bidi characters of a member name as \uXXXX too
    atomic_write(json_path, terminal_safe_json(
        orjson.dumps(report.to_dict(), option=orjson.OPT_INDENT_2)) + b"\n")
    atomic_write(md_path, markdown_summary(report, findings, moments,
                                                 decision).encode("utf-8"))
    return json_path, md_path


def export_findings_dialog(window: QWidget) -> tuple[Path, Path] | None:
    report = window.session.report
    if report is None:
        window.show_moment("Nothing to export: open a submission first")
        return None
    name = Path(report.input_name).name.replace(".", "-") or "review"
    path, _ = QFileDialog.getSaveFileName(window, "Export findings (JSON + Markdown)",
                                          f"{name}-findings.md",
                                          "Markdown summary (*.md);;All files (*)")
    if not path:
        return None
    try:
        written = export_findings(window, Path(path))
    except OSError as exc:
        window.status_label.setText(f"NOT exported: {exc}")
        return None
    if written is not None:
        window.show_moment(f"Exported {written[1]} and {written[0]}")
    return written
