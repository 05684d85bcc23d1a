"""The review loop walked again, session 12 (issue 11; docs/qa/session12-ui.md): the hover
tooltips of the lanes under the timeline show their text as text, counts read "1 error" and
"2 errors", the table follows the playhead when the offset changes, and closing a video during
its scan ends the scan's thread (never a QThread destroyed while running)."""

from __future__ import annotations

import dataclasses

import pytest
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication, QToolTip
from ui_helpers import WAIT_MS, make_numbered_video, tooltip_shown, wait_idle

from moderator_app.core.sync.records import SyncAnalysis, SyncFinding
from moderator_app.core.video.scan import Span, run_scan
from moderator_app.ui.activity_lane import ActivityLane
from moderator_app.ui.sync_lane import SyncLane
from moderator_app.ui.timeline import LABEL_W, Timeline

HOSTILE = "<h1>BIG</h1><img src='file:///etc/passwd'> \u202eevil"


@pytest.fixture
def timeline(qtbot):
    w = Timeline()
    qtbot.addWidget(w)
    w.resize(LABEL_W + 400, 120)
    w.set_view(0.0, 4.0)
    return w


def hover(widget, x: float, y: float) -> str:
    """What the tooltip says after the pointer moves over (x, y) of `widget`."""
    QToolTip.hideText()
    local = QPointF(x, y)
    event = QMouseEvent(QEvent.Type.MouseMove, local, widget.mapToGlobal(local),
                        Qt.MouseButton.NoButton, Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, event)
    return QToolTip.text()


def test_the_activity_lane_tooltip_shows_the_spans_text_as_text(qtbot, timeline, tmp_path):
    video = make_numbered_video(tmp_path / "v.avi", n_frames=40, fps=10.0)
    scan = run_scan(video)
    lane = ActivityLane(timeline)
    qtbot.addWidget(lane)
    lane.resize(timeline.width(), 40)
    lane.set_scan(dataclasses.replace(scan, spans=(
        Span("video.frozen", "warning", 1.0, 3.0, HOSTILE),)))
    lane.show()
    tip = hover(lane, lane._x(2.0), 4)  # the picture row, in the span
    assert tooltip_shown(tip) == "video.frozen: <h1>BIG</h1><img src='file:///etc/passwd'> " \
        "\\u202eevil"


def test_the_sync_lane_tooltip_shows_the_findings_text_as_text(qtbot, timeline):
    lane = SyncLane(timeline)
    qtbot.addWidget(lane)
    lane.resize(timeline.width(), 40)
    finding = SyncFinding("sync.no_reaction", HOSTILE, video_start_s=1.0, video_end_s=3.0)
    lane.set_analysis(SyncAnalysis(1.0, 0.9, 3, 4, 1.0, "", 1.0, findings=[finding]))
    lane.show()
    tip = hover(lane, lane._x(2.0), 4)
    assert tooltip_shown(tip) == "sync.no_reaction: <h1>BIG</h1><img " \
        "src='file:///etc/passwd'> \\u202eevil; video 1.00 s to 3.00 s"


def test_counts_are_plural_by_count_in_the_findings_header_and_the_status_bar(qtbot, tmp_path):
    # Seen in session 11's walk: "1 errors" in the findings header and the status bar while
    # the Decision footer said "1 error".
    from test_ui_main_window import make_submission, open_and_wait, unrequested_action
    from ui_helpers import window_1280x720

    windows = window_1280x720(qtbot, tmp_path)
    window = next(windows)
    try:
        folder, _ = make_submission(tmp_path / "run", tamper=unrequested_action)
        open_and_wait(qtbot, window, folder)
        report = window.session.report
        assert (report.findings.errors, report.findings.warnings) == (1, 1)
        assert window.status_label.text().startswith(
            f"FAIL · {report.events} events · 1 error, 1 warning · offset +0.000 s")
        assert window.findings.summary.text().startswith("FAIL · 1 error, 1 warning, ")
        # the events and the offset are the status bar's (session 41: not said again here)
        assert window.findings.summary.text().startswith("FAIL · 1 error, 1 warning, 1 info")
        assert "event" not in window.findings.summary.text()
    finally:
        next(windows, None)


def test_the_cli_results_line_is_plural_by_count(capsys):
    from conftest import SAMPLES

    from moderator_app.cli import main as cli_main

    assert cli_main(["verify", str(SAMPLES / "community-sample")]) == 0
    assert "\nResults: 0 errors, 0 warnings, 1 note\n" in capsys.readouterr().out


def current_line(window) -> int | None:
    """The log line of the table's current row (what the moderator sees selected)."""
    cur = window.table.currentIndex()
    if not cur.isValid():
        return None
    index = window.session.result.index
    return index.lines[window.table_model.source_row(cur.row())]


def test_after_an_offset_change_the_table_follows_the_playheads_run_time(qtbot, tmp_path):
    # Session 11: after the offset changed the player kept its video position (the picture the
    # moderator lines up) while the table kept the row selected before: line 1 highlighted
    # while the player showed a moment 8.1 s into the run at offset -8.1. Now the table's
    # current row and the detail pane follow the playhead's run time, as while playing.
    from test_ui_main_window import make_submission, open_and_wait, shown_frame_number
    from ui_helpers import window_1280x720

    windows = window_1280x720(qtbot, tmp_path)
    window = next(windows)
    try:
        folder, duration = make_submission(tmp_path / "run")
        open_and_wait(qtbot, window, folder)
        index = window.session.result.index
        times = [index.times[r] for r in range(len(index))]
        row = next(r for r, t in enumerate(times) if t == t and t >= 1.0)
        window.nav.select_event(row)
        frame = window.player.times.footage_at(times[row])
        qtbot.waitUntil(lambda: window.player.shown_frame == frame, timeout=WAIT_MS)
        assert current_line(window) == index.lines[row]
        video_t = window.player.current_time

        window.sync.spin.setValue(-4.0)  # run time = video time + 4 s
        run_t = video_t + 4.0
        fd = window.player.frame_duration()
        expected = max(r for r, t in enumerate(times) if t == t and t <= run_t + fd - 1e-6)
        assert expected != row
        assert window.player.current_time == video_t  # the picture stays  # duration-ok
        assert shown_frame_number(window) == frame
        assert current_line(window) == index.lines[expected]
        assert window.detail.header.text().startswith(
            f"event {expected + 1} · line {index.lines[expected]} ·")

        window.sync.spin.setValue(video_t + 0.5)  # the playhead 0.5 s before run_start
        assert current_line(window) is None
        assert window.detail.header.text() == "No event selected"
        QApplication.processEvents()
        assert window.table.rowAt(0) == 0  # the table at the first event, the next to happen

        window.sync.spin.setValue(0.0)  # back: the row of the frame on screen again
        assert current_line(window) == index.lines[max(
            r for r, t in enumerate(times) if t == t and t <= video_t + fd - 1e-6)]
        wait_idle(qtbot, window)  # the analysis the offsets started again
    finally:
        next(windows, None)


def live_children() -> set[int]:
    """The processes this one started that are still running (not zombies), from /proc."""
    import os
    from pathlib import Path

    out = set()
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[1]) == os.getpid() and fields[0] != "Z":
            out.add(int(d.name))
    return out


def blocked_scan(video, cancel=None):
    """`run_scan` on its own thread, held inside its first progress report (after 256 frames)
    until `release` is set: what the sync analysis' decode of the same video looks like to the
    player's scan (it holds the video's decode for as long as it runs)."""
    import threading

    inside, release, out = threading.Event(), threading.Event(), {}

    def progress(_done, _total):
        inside.set()
        release.wait(120)

    def work():
        try:
            out["result"] = run_scan(video, progress=progress, cancel=cancel)
        except Exception as exc:  # noqa: BLE001 - the test looks at it
            out["error"] = exc

    t = threading.Thread(target=work, daemon=True)
    t.start()
    assert inside.wait(120)
    return t, release, out


@pytest.fixture
def long_video(tmp_path):
    return make_numbered_video(tmp_path / "long.avi", n_frames=1000, fps=30.0)


def test_closing_a_video_while_its_scan_waits_for_another_decode_ends_the_scans_thread(
        qtbot, long_video):
    # Session 11: "QThread destroyed while running" from a script. The scan of a video waits
    # for the other decode of the same file (the sync analysis'); unload waited 10 s for its
    # thread, then let go of a thread still running (destroyed with the player: an abort).
    from PySide6.QtCore import QThread

    from moderator_app.ui.video_player import VideoPlayer

    other, release, _ = blocked_scan(long_video)
    try:
        player = VideoPlayer()
        qtbot.addWidget(player)
        results = []
        player.scan_ready.connect(results.append)
        assert player.load(long_video)
        player.unload()
        assert [t for t in player.findChildren(QThread) if t.isRunning()] == []
    finally:
        release.set()
        other.join(120)
    QApplication.processEvents()
    assert results == []  # a closed video's scan says nothing


def test_cancelling_a_scan_ends_its_decoding_process_at_once(long_video):
    # The scan heard a cancel only at the decoding process's next progress report, every 256
    # frames: seconds of a long 1080p video decoded at low priority on a busy machine.
    from moderator_app.core.progress import CancelToken

    before = live_children()
    token = CancelToken()
    scan, release, out = blocked_scan(long_video, cancel=token)
    try:
        decoding = live_children() - before
        assert decoding  # the scan's decoding process, mid-file (held at 256 of 1000 frames)
        token.cancel()
        assert not decoding & live_children()  # ended by the cancel itself
    finally:
        release.set()
        scan.join(120)
    assert str(out.get("error")) == "cancelled" and "result" not in out


def test_the_scan_says_it_is_scanning_from_its_start(qtbot, tmp_path):
    # Session 12's walk: the screen activity lane was blank for minutes after opening a
    # 1080p VP9 file (the scan waits for the sync analysis' decode of the same file, and
    # reports every 256 frames); now "scanning… 0 %" from the moment it starts.
    from moderator_app.ui.video_player import VideoPlayer

    timeline = Timeline()
    qtbot.addWidget(timeline)
    lane = ActivityLane(timeline)
    player = VideoPlayer()
    qtbot.addWidget(player)
    qtbot.addWidget(lane)
    player.scan_progress.connect(lane.set_progress)
    video = make_numbered_video(tmp_path / "v.avi", n_frames=40, fps=10.0)
    assert player.load(video)
    try:
        assert lane.status == "scanning… 0 %"  # before any report of the scan's thread
    finally:
        player.unload()


def test_a_finding_before_run_start_leaves_no_row_of_later_selected(qtbot, tmp_path):
    # Session 12's walk: after coverage.extra ("footage beyond the run: 2.467 s before
    # run_start") the player showed video 0.000 (run -2.467 s) and the table kept line 1 (or
    # line 926 of the official run, the finding visited before).
    from test_ui_main_window import make_submission, open_and_wait
    from ui_helpers import window_1280x720

    windows = window_1280x720(qtbot, tmp_path)
    window = next(windows)
    try:
        folder, _ = make_submission(tmp_path / "run")
        open_and_wait(qtbot, window, folder)
        window.sync.spin.setValue(2.0)
        wait_idle(qtbot, window)  # the analysis measured again at 2 s re-lists the findings
        index = window.session.result.index
        window.nav.select_event(10)
        assert current_line(window) == index.lines[10]
        extra = [i for i, f in enumerate(window.findings.findings) if f.rule == "coverage.extra"]
        assert len(extra) == 1
        window.select_finding(extra[0])
        assert window.timeline.playhead == pytest.approx(-2.0)
        assert current_line(window) is None
        assert window.detail.header.text() == "No event selected"
    finally:
        next(windows, None)


def test_going_to_another_finding_repaints_the_one_selected_before(qtbot):
    # Session 12's walk (Xvfb, 1280x720): after N, N, N the findings list showed all three
    # rows' "Where" cells highlighted. `select` blocked the selection model's signals, on
    # which the view repaints the rows whose selection changed: the old rows kept their paint.
    from PySide6.QtCore import QObject
    from PySide6.QtGui import QRegion
    from test_ui_findings import report_with

    from moderator_app.core.rules import Finding, Severity
    from moderator_app.ui.findings_panel import FindingsPanel

    class Paints(QObject):
        def __init__(self, widget) -> None:
            super().__init__()
            self.region = QRegion()
            widget.installEventFilter(self)

        def eventFilter(self, _obj, event) -> bool:  # noqa: N802 - Qt override
            if event.type() == QEvent.Type.Paint:
                self.region += event.region()
            return False

    fs = [Finding(Severity.INFO, f"coverage.r{k}", f"message {k}", "video.mp4", None)
          for k in range(3)]
    panel = FindingsPanel()
    qtbot.addWidget(panel)
    panel.resize(500, 400)
    panel.set_report(report_with(fs))
    panel.show()
    qtbot.waitExposed(panel)
    activated = []
    panel.finding_activated.connect(activated.append)
    panel.select(0)
    QApplication.processEvents()
    paints = Paints(panel.view.viewport())
    panel.select(1)
    QApplication.processEvents()
    old = panel.view.visualRect(panel.proxy.mapFromSource(panel.model.index(0, 0)))
    assert paints.region.contains(old.center())  # the old row lost its highlight on screen
    assert activated == []  # select() never activates (no second seek)
    assert [i.row() for i in panel.view.selectionModel().selectedRows()] == [
        panel.proxy.mapFromSource(panel.model.index(1, 0)).row()]
