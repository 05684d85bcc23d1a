"""The findings panel: plain text, severity filter, activation."""

from __future__ import annotations

from moderator_app.core.rules import Finding, Severity
from moderator_app.core.verify.report import Report
from moderator_app.ui.findings_panel import FindingsPanel


def report_with(findings):
    r = Report(kind="community", input_name="x")
    for f in findings:
        r.add(f)
    return r


def test_findings_listed_and_filtered(qtbot):
    fs = [Finding(Severity.ERROR, "log.seq", "seq <b>jumps</b>", "agent-log.jsonl", 7),
          Finding(Severity.WARNING, "log.gap", "long gap", "agent-log.jsonl", 3),
          Finding(Severity.INFO, "coverage.extra", "extra", "video.mp4", None)]
    p = FindingsPanel()
    qtbot.addWidget(p)
    p.set_report(report_with(fs))
    m = p.model
    # Two columns that fit a narrow dock: where (line, time) and what (severity, rule, message).
    assert [m.index(r, 1).data().split("\n")[0] for r in range(3)] == [
        "warning · log.gap", "error · log.seq", "info · coverage.extra"]
    assert m.index(1, 1).data() == "error · log.seq\nseq <b>jumps</b>"
    assert m.index(1, 0).data() == "line 7"
    assert m.index(2, 0).data() == "file"
    assert "FAIL" in p.summary.text() and "1 errors, 1 warnings" in p.summary.text()
    p.severity_box.setCurrentIndex(1)  # errors only
    assert p.proxy.rowCount() == 1
    with qtbot.waitSignal(p.finding_activated) as sig:
        p.view.setCurrentIndex(p.proxy.index(0, 0))
    assert sig.args == [1]
