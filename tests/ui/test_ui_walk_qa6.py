"""Failures seen on the judges' walkthrough (issue 11, session 6), each on submissions built
for it: what the moderator saw on screen, turned into a check through the window's public
seams. Every test builds its own submission (no .cache, no shared data)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from test_ui_main_window import make_submission, open_and_wait

from moderator_app.ui.main_window import MainWindow


@pytest.fixture
def window(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings=settings, store_path=tmp_path / "gui.sqlite3")
    qtbot.addWidget(w)
    w.resize(1280, 720)
    w.show()
    yield w
    w.shutdown()


def broken_line(line: int):
    """The log's line `line` loses its end: not JSON (`log.json`, "line 1 column N")."""
    def tamper(lines):
        lines[line - 1] = lines[line - 1][:-7] + b" oops"
        return lines
    return tamper


def test_a_finding_on_an_unreadable_line_takes_the_video_to_its_listed_moment(
        qtbot, window, tmp_path):
    # Seen: the list said "line 123 00:00:30.195"; clicking it selected the row but left the
    # playhead and the video at 0 (the line itself has no time).
    folder, _ = make_submission(tmp_path / "sub", tamper=broken_line(20))
    open_and_wait(qtbot, window, folder)
    findings = window.findings.findings
    i = next(k for k, f in enumerate(findings) if f.rule == "log.json")
    assert findings[i].line == 20
    index = window.session.result.index
    before = float(index.times[index.row_for_line(19)])  # the last timed event before it
    assert before > 1.0 and window.findings.moment(i).run_s == before
    window.select_finding(i)
    assert index.lines[window.detail.row] == 20
    assert window.timeline.playhead == pytest.approx(before, abs=0.11)  # duration-ok: a video time
    frame = window.player.times.frame_at(before)
    qtbot.waitUntil(lambda: window.player.shown_frame == frame, timeout=30000)


def test_a_json_parsers_line_and_column_is_not_another_line_to_go_to(qtbot, window, tmp_path):
    # Seen: "invalid JSON: ... line 1 column 295" offered "Go to line 1" and put run_start
    # beside the broken line as if they were a request and its answer.
    folder, _ = make_submission(tmp_path / "sub", tamper=broken_line(20))
    open_and_wait(qtbot, window, folder)
    findings = window.findings.findings
    i = next(k for k, f in enumerate(findings) if f.rule == "log.json")
    assert "line 1 column" in findings[i].message
    window.select_finding(i)
    assert not window.findings.goto_line_button.isVisible()
    assert not window.findings.compare.isVisible()
