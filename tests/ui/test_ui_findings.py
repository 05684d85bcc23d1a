"""The findings panel: plain text, severity filter, activation."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect
from ui_helpers import ini_settings, shown_main_window

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
    assert "FAIL" in p.summary.text() and "1 error, 1 warning" in p.summary.text()
    p.severity_box.setCurrentIndex(1)  # errors only
    assert p.proxy.rowCount() == 1
    with qtbot.waitSignal(p.finding_activated) as sig:
        p.view.setCurrentIndex(p.proxy.index(0, 0))
    assert sig.args == [1]



def test_a_short_dock_never_paints_the_message_over_the_list(qtbot, tmp_path):
    """At 1280x720 the findings dock is ~300 px tall: the selected finding's message, a
    word-wrapped label then, was painted over the list's rows (a dock does not honour a
    label's height-for-width)."""
    long = "the picture is frozen from 19.533 s to 22.917 s (3.4 s, 203 frames) " * 3
    fs = [Finding(Severity.WARNING, "video.frozen", long, "video.mp4", None) for _ in range(6)]
    w = shown_main_window(qtbot, ini_settings(tmp_path), size=(1280, 720))
    p = w.findings
    p.set_report(report_with(fs))
    p.select(2)
    qtbot.wait(50)

    def rect(widget):
        return QRect(widget.mapTo(p, QPoint(0, 0)), widget.size())

    view, msg, button = rect(p.view), rect(p.message), rect(p.copy_button)
    assert p.height() < 400  # the short dock of a 720-pixel screen
    assert view.height() >= 2 * p.view.verticalHeader().defaultSectionSize()
    assert msg.height() >= 2 * p.fontMetrics().lineSpacing()
    assert not view.intersects(msg) and not msg.intersects(button)
    assert "22.917 s" in p.message.toPlainText()
    w.shutdown()


def test_a_long_rule_leaves_its_message_a_line_in_the_list(qtbot):
    """Session 23's walk at 1280x720 (a dock 288 px wide, two-line rows): "warning ·
    log.response_actions_unrun" wrapped over both lines of its row and the message was not in
    the list at all. The first line is elided to one line; the message follows on the next."""
    from PySide6.QtWidgets import QStyle, QStyleOptionViewItem

    message = "1 of the 1 action(s) this response asked for never ran"
    panel = FindingsPanel()
    qtbot.addWidget(panel)
    panel.resize(288, 300)
    panel.set_report(report_with([Finding(Severity.WARNING, "log.response_actions_unrun",
                                          message, "agent-log.jsonl", 11003)]))
    panel.show()
    qtbot.waitExposed(panel)
    view = panel.view
    index = view.model().index(0, 1)
    opt = QStyleOptionViewItem()
    view.initViewItemOption(opt)
    opt.rect = view.visualRect(index)
    view.itemDelegate().initStyleOption(opt, index)
    head, message_line = view.itemDelegate().drawn_text(opt).split("\u2028")
    assert message_line == message
    room = view.style().subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, view).width()
    assert head.startswith("warning · log.response_act") and head.endswith("…")
    assert opt.fontMetrics.horizontalAdvance(head) <= room - 2  # one line, not wrapped
