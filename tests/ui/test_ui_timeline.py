"""The timeline widget: density aggregation, hit testing, zoom/pan, coverage, repaint speed."""

from __future__ import annotations

import time

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication
from ui_helpers import make_big_index, make_index

from moderator_app.ui.timeline import LABEL_W, Timeline, density, nice_step


def test_density_counts_events_per_column():
    t = np.array([0.0, 0.1, 0.2, 5.0, 9.99])
    c = density(t, 0.0, 10.0, 10)
    assert c.tolist() == [3, 0, 0, 0, 0, 1, 0, 0, 0, 1]
    assert density(t, 20.0, 30.0, 4).tolist() == [0, 0, 0, 0]
    assert nice_step(100, 10) == 10 and nice_step(7, 10) == 1


@pytest.fixture
def timeline(qtbot, tmp_path):
    events = [{"type": "a" if i % 2 else "b", "t": float(i)} for i in range(20)]
    w = Timeline()
    qtbot.addWidget(w)
    w.resize(LABEL_W + 400, 200)
    w.set_index(make_index(tmp_path, events))
    w.set_view(0.0, 20.0)
    w.show()
    return w


def test_click_on_a_marker_selects_that_event(qtbot, timeline):
    lane = timeline.lane_names.index("a")
    with qtbot.waitSignal(timeline.event_clicked) as sig:
        qtbot.mouseClick(timeline, Qt.MouseButton.LeftButton, pos=QPoint(
            round(timeline.x_of(7.0)), round(timeline.lane_top(lane) + 4)))
    assert sig.args == [7]


def test_click_on_empty_space_seeks(qtbot, timeline):
    with qtbot.waitSignal(timeline.seek_requested) as sig:
        qtbot.mouseClick(timeline, Qt.MouseButton.LeftButton, pos=QPoint(
            round(timeline.x_of(12.5)), 5))
    assert sig.args[0] == pytest.approx(12.5, abs=20 / 400)


def test_findings_lane_click(qtbot, timeline):
    timeline.set_findings([(3.0, "error"), (None, "warning"), (10.0, "warning")])
    assert timeline.finding_times["error"].tolist() == [3.0]
    with qtbot.waitSignal(timeline.finding_clicked) as sig:
        qtbot.mouseClick(timeline, Qt.MouseButton.LeftButton, pos=QPoint(
            round(timeline.x_of(10.0)), 18 + 15 + 5))
    assert sig.args == [2]


def test_zoom_keeps_the_point_under_the_cursor(qtbot, timeline):
    x = timeline.x_of(5.0)
    ev = QWheelEvent(QPointF(x, 50), QPointF(x, 50), QPoint(), QPoint(0, 120),
                     Qt.MouseButton.NoButton, Qt.KeyboardModifier.ControlModifier,
                     Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(timeline, ev)
    assert timeline.v1 - timeline.v0 == pytest.approx(20 / 1.25)
    assert timeline.t_of(x) == pytest.approx(5.0)
    timeline.fit()
    assert timeline.v0 < 0.0 and timeline.v1 > 19.0
    timeline.pan(0.5)
    assert timeline.v0 > 5.0


def test_coverage_and_playhead_paint_without_error(qtbot, timeline):
    timeline.set_coverage(20.0, 15.0, -2.0)
    timeline.set_playhead(4.0)
    img = timeline.grab().toImage()
    # The coverage bar at run time 1 s is red (missing footage: the video starts at 2 s).
    c = img.pixelColor(round(timeline.x_of(1.0)), 18 + 5)
    assert c.red() > 180 and c.green() < 100
    c = img.pixelColor(round(timeline.x_of(8.0)), 18 + 5)
    assert c.green() > 140 and c.red() < 120


@pytest.mark.slow
def test_one_million_events_repaint_within_a_frame(qtbot, tmp_path):
    index = make_big_index(tmp_path, 1_000_000)
    w = Timeline()
    qtbot.addWidget(w)
    w.resize(1600, 240)
    w.set_index(index)
    w.fit()
    w.show()
    w.grab()  # warm up
    start = time.perf_counter()
    for _ in range(5):
        w.grab()
    per_paint = (time.perf_counter() - start) / 5
    assert w.last_paint_ms < 50
    assert per_paint < 0.1  # generous for a shared CI machine; ~5 ms measured locally
