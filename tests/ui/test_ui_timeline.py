"""The timeline widget: density aggregation, hit testing, zoom/pan, coverage, a million markers."""

from __future__ import annotations

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


def test_a_footage_gap_inside_the_run_is_painted_missing(qtbot, timeline):
    """Session 22: a video without frames from 3 to 12 s had its coverage bar green across the
    gap while the report counted 9 s missing. At offset 1.5 the gap is run 1.5-10.5 s."""
    timeline.set_coverage(18.754, 20.0, 1.5, ((3.0, 12.0),))
    img = timeline.grab().toImage()
    for t, missing in ((1.0, False), (2.0, True), (10.0, True), (11.0, False)):
        c = img.pixelColor(round(timeline.x_of(t)), 18 + 5)
        assert (c.red() > 180 and c.green() < 100) == missing, t
        assert (c.green() > 140 and c.red() < 120) == (not missing), t


@pytest.mark.slow
def test_one_million_events_paint_as_density_columns(qtbot, tmp_path):
    """A million markers are drawn as per-column densities: every column holding events is
    painted in each lane, every column past the last event is left empty. (How fast that is, is
    bench/bench_gui.py's job, against the empty widget: no test asserts a duration.)"""
    index = make_big_index(tmp_path, 1_000_000)  # one event every 10 ms, to 10,000 s
    w = Timeline()
    qtbot.addWidget(w)
    w.resize(1600, 240)
    w.set_index(index)
    w.set_view(5_000.0, 15_000.0)  # the right half of the view is after the last event
    w.show()
    img = w.grab().toImage()
    background = img.pixelColor(round(w.x_of(12_500.0)), 2)
    for name in ("model_request", "model_response", "action", "observation"):
        y = round(w.lane_top(w.lane_names.index(name)) + 4)
        painted = [img.pixelColor(round(w.x_of(t)), y) != background
                   for t in np.arange(5_010.0, 9_990.0, 50.0)]
        empty = [img.pixelColor(round(w.x_of(t)), y) == background
                 for t in np.arange(10_100.0, 14_900.0, 50.0)]
        assert all(painted), name
        assert all(empty), name


@pytest.mark.parametrize("width, view", [(400, (0.0, 20.0)), (400, (0.0, 2.0)),
                                         (1040, (0.0, 600.0)), (1040, (12.5, 14.5)),
                                         (170, (0.0, 60.0))])
def test_every_axis_label_is_whole_inside_the_widget(timeline, width, view):
    # Session 10: the timeline's last axis label was cut at the right edge (a tick at the
    # view's end drew its label beyond it). Each label is inside the plot, right of its tick
    # or, at the right edge, left of it; labels never overlap; the last tick is labelled.
    timeline.resize(LABEL_W + width, 200)
    timeline.set_view(*view)
    ticks = timeline.axis_labels()
    labelled = [(x, r, text) for x, r, text in ticks if r is not None]
    assert len(labelled) >= 2
    for x, r, text in labelled:
        assert r.left() >= LABEL_W and r.right() <= timeline.width(), (text, r, x)
        assert r.left() > x or r.right() < x  # beside its own tick
        assert r.width() >= timeline.fontMetrics().horizontalAdvance(text)
    rects = [r for _, r, _ in labelled]
    assert not any(a.intersects(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    x_last, r_last, text_last = ticks[-1]
    if view == (0.0, 20.0):
        assert text_last == "00:20" and x_last == timeline.width()
        assert r_last.right() < x_last  # flipped left of the tick at the right edge
