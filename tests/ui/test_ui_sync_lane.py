"""Auto-sync in the workstation on a real Atari run with footage cut out (tests/corpus): the
suggestion with one-click apply, and the sync lanes marking the jump where the footage was cut."""

from __future__ import annotations

import corpus
import pytest
from PySide6.QtCore import QPoint, Qt
from ui_helpers import WAIT_MS, ini_settings, shown_main_window, wait_idle

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture
def window(qtbot, tmp_path):
    w = shown_main_window(qtbot, ini_settings(tmp_path))
    yield w
    w.shutdown()


def test_suggestion_applies_in_one_click_and_the_lane_marks_the_cut(qtbot, window, tmp_path):
    run = corpus.build("breakout-cut")
    truth = run.truth
    window.open_paths([run.folder])
    wait_idle(qtbot, window, timeout=60000)  # verified, scanned, analysed
    a = window.auto_sync.analysis
    assert abs(a.suggested_offset_s - truth["offset_s"]) <= 1 / 60  # duration-ok: an offset's accuracy, not a time taken
    assert f"{a.suggested_offset_s:.3f} s" in window.auto_sync.label.text()
    assert window.session.offset_s == 0.0
    qtbot.mouseClick(window.auto_sync.apply, Qt.MouseButton.LeftButton)
    assert window.session.offset_s == a.suggested_offset_s
    jump = [f for f in window.sync_lane.analysis.findings if f.rule == "sync.offset_jump"]
    assert len(jump) == 1 and abs(jump[0].video_start_s - truth["tamper"]["video_s"]) <= 1.0  # duration-ok: an offset's accuracy, not a time taken
    window.timeline.fit()
    qtbot.waitUntil(lambda: window.timeline.offset == a.suggested_offset_s, timeout=WAIT_MS)
    lane = window.sync_lane
    x = int(lane._x(jump[0].video_start_s))
    seeks = []
    lane.seek_requested.connect(seeks.append)
    qtbot.mouseClick(lane, Qt.MouseButton.LeftButton, pos=QPoint(x, 5))
    assert seeks and abs(seeks[0] + a.suggested_offset_s - jump[0].video_start_s) < 1e-6  # duration-ok: an offset's accuracy, not a time taken
    import os
    if os.environ.get("SYNC_SHOT"):
        window.grab().save(os.environ["SYNC_SHOT"])


def test_more_actions_than_the_window_analyses_is_said_not_analysed(qtbot, window,
                                                                     monkeypatch):
    """Issue 15: the analysis grows with the actions (1,000,000 on a 150 s video: 74 s of
    CPU, +436 MiB, more than the window has under a 512 MiB limit). Past `MAX_ACTIONS` the
    window says so instead of analysing, in the CLI's words (tests/sync/test_sync_bound.py);
    the report stands."""
    from moderator_app.core.sync import run as sync_run

    game = corpus.build("breakout-genuine")
    monkeypatch.setattr(sync_run, "MAX_ACTIONS", 5)
    window.open_paths([game.folder])
    qtbot.waitUntil(lambda: window.auto_sync.label.text().startswith("auto-sync: not run"),
                    timeout=60000)
    n = len(window.session.result.input_times)
    assert n > 5
    assert window.auto_sync.label.text() == (
        f"auto-sync: not run: {n} actions, more than the 5 the sync analysis takes: none "
        "analysed (its time and memory grow with the actions; an honest run presses a few "
        "times a second)")
    assert window.auto_sync.analysis is None and not window.auto_sync.apply.isEnabled()
    assert window.session.result.report.verdict == "pass"
    wait_idle(qtbot, window)  # the integrity scan runs on
