"""What a playhead move repaints (issue 11 point 8): the timeline, the plots and the lanes under
them keep their static picture (events, curves, axis, envelope) in a layer built once, and a
move repaints the old and the new playhead's strips only. Counted, not timed: the layer's
builds, and the regions of the paint events Qt delivers (seen by an event filter)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject, QRect
from PySide6.QtGui import QGuiApplication, QImage, QRegion
from PySide6.QtWidgets import QApplication
from ui_helpers import WAIT_MS, make_index

from moderator_app.ui.activity_lane import ActivityLane
from moderator_app.ui.plots import PlotsWidget
from moderator_app.ui.timeline import LABEL_W, Timeline

MOVES = 20


class Paints(QObject):
    """The regions of the paint events a widget receives."""

    def __init__(self, widget) -> None:
        super().__init__()
        self.regions: list[QRegion] = []
        widget.installEventFilter(self)

    def eventFilter(self, _obj, event) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.Paint:
            self.regions.append(QRegion(event.region()))
        return False


def settle(qtbot, widget, paints: Paints) -> None:
    """Deliver the pending paints (a hang guard waits for the first one)."""
    n = len(paints.regions)
    widget.repaint()  # the paint already scheduled, now
    qtbot.waitUntil(lambda: len(paints.regions) > n, timeout=WAIT_MS)
    QApplication.processEvents()


@pytest.fixture
def timeline(qtbot, tmp_path):
    events = [{"type": "a" if i % 2 else "b", "t": float(i)} for i in range(40)]
    w = Timeline()
    qtbot.addWidget(w)
    w.resize(LABEL_W + 600, 160)
    w.set_index(make_index(tmp_path, events))
    w.set_findings([(3.0, "error"), (12.5, "warning")])
    w.set_coverage(40.0, 38.0, 0.0)
    w.set_view(0.0, 40.0)
    w.show()
    qtbot.waitExposed(w)
    return w


def test_a_playhead_move_repaints_the_playhead_strips_not_the_timeline(qtbot, timeline):
    paints = Paints(timeline)
    timeline.set_playhead(1.0)
    timeline.set_current_time(1.0)
    settle(qtbot, timeline, paints)
    builds = timeline.layer.builds
    assert builds >= 1
    for k in range(MOVES):
        t = 1.0 + 0.7 * (k + 1)
        old = timeline.playhead_region()
        timeline.set_playhead(t)
        new = timeline.playhead_region()
        assert not new.isEmpty() and new != old
        paints.regions.clear()
        QApplication.processEvents()
        painted = QRegion()
        for r in paints.regions:
            painted |= r
        # what was repainted is the playhead's old and new place (its line and time tag),
        # and nothing of the lanes elsewhere
        assert not painted.isEmpty()
        assert painted.subtracted(old | new).isEmpty(), (k, painted.boundingRect())
        assert painted.boundingRect().width() < timeline.width() / 4
    # a lane's current event moves: its old and new boxes are repainted (one event per
    # lane: 10 px wide each, the box and its pen), not the lanes
    paints.regions.clear()
    timeline.set_current_time(20.0)
    QApplication.processEvents()
    assert paints.regions
    for r in paints.regions:
        assert max(rect.width() for rect in r) <= 10, r
        assert len({rect.x() for rect in r}) == 4  # lanes a and b: the old and new box each
    assert timeline.layer.builds == builds  # the static layer: built once across the moves
    # and rebuilt when what it shows changes: the view, the data
    timeline.set_view(5.0, 30.0)
    settle(qtbot, timeline, paints)
    assert timeline.layer.builds == builds + 1
    timeline.set_findings([(4.0, "error")])
    settle(qtbot, timeline, paints)
    assert timeline.layer.builds == builds + 2


def on_screen(widget):
    """What the window system has of the widget (its backing store: the partial paints as
    they were delivered), not a paint of it made for the grab. Read from the offscreen
    platform's backing store (the tests' default): on a real display a grab of the screen
    area would see any window over it."""
    if QGuiApplication.platformName() != "offscreen":
        pytest.skip(f"the backing store is read on the offscreen platform only, not on "
                    f"{QGuiApplication.platformName()!r}")
    return widget.screen().grabWindow(widget.winId()).toImage().convertToFormat(
        QImage.Format.Format_RGB32)


def test_the_picture_after_moves_is_the_picture_painted_whole(qtbot, timeline, tmp_path):
    """The strips repainted from the layer leave no trace of the old playhead: on screen,
    the timeline after 20 moves has the same pixels as a new timeline painted once there."""
    paints = Paints(timeline)
    settle(qtbot, timeline, paints)
    for k in range(MOVES):
        timeline.set_playhead(2.0 + 1.1 * k)
        timeline.set_current_time(2.0 + 1.1 * k)
        QApplication.processEvents()
    assert all(r.boundingRect().width() < timeline.width() / 2 for r in paints.regions[-5:])
    moved = on_screen(timeline)
    timeline.set_playhead(40.5)  # out of the view: its strips are repainted without it
    QApplication.processEvents()
    assert on_screen(timeline) != moved
    timeline.hide()
    (tmp_path / "again").mkdir()
    fresh = Timeline()
    qtbot.addWidget(fresh)
    fresh.resize(timeline.size())
    fresh.set_index(make_index(tmp_path / "again", [
        {"type": "a" if i % 2 else "b", "t": float(i)} for i in range(40)]))
    fresh.set_findings([(3.0, "error"), (12.5, "warning")])
    fresh.set_coverage(40.0, 38.0, 0.0)
    fresh.set_view(0.0, 40.0)
    fresh.set_playhead(2.0 + 1.1 * (MOVES - 1))
    fresh.set_current_time(2.0 + 1.1 * (MOVES - 1))
    fresh.show()
    qtbot.waitExposed(fresh)
    settle(qtbot, fresh, Paints(fresh))
    assert on_screen(fresh) == moved


def test_the_plots_and_the_activity_lane_keep_their_layer(qtbot, timeline, tmp_path):
    from ui_helpers import make_big_index

    plots = PlotsWidget()
    qtbot.addWidget(plots)
    plots.resize(timeline.width(), 120)
    plots.set_index(make_big_index(tmp_path, 2000))
    plots.set_view(timeline.v0, timeline.v1)
    lane = ActivityLane(timeline)
    qtbot.addWidget(lane)
    lane.resize(timeline.width(), 34)
    lane.set_progress(10, 100)  # "scanning… 10 %"
    for w in (plots, lane):
        w.show()
        qtbot.waitExposed(w)
    p_paints, l_paints = Paints(plots), Paints(lane)
    timeline.set_playhead(1.0)
    plots.set_playhead(1.0)
    settle(qtbot, plots, p_paints)
    settle(qtbot, lane, l_paints)
    p_builds, l_builds = plots.layer.builds, lane.layer.builds
    for k in range(MOVES):
        t = 1.0 + 1.3 * (k + 1)
        x_old, x_new = timeline.x_of(timeline.playhead), timeline.x_of(t)
        timeline.set_playhead(t)  # the lane follows the timeline's playhead on its own
        plots.set_playhead(t)
        p_paints.regions.clear()
        l_paints.regions.clear()
        QApplication.processEvents()
        for w, paints in ((plots, p_paints), (lane, l_paints)):
            painted = QRegion()
            for r in paints.regions:
                painted |= r
            strips = (QRegion(QRect(int(x_old) - 3, 0, 7, w.height()))
                      | QRegion(QRect(int(x_new) - 3, 0, 7, w.height())))
            assert not painted.isEmpty(), (type(w).__name__, k)
            assert painted.subtracted(strips).isEmpty(), (type(w).__name__, k,
                                                          painted.boundingRect())
    assert (plots.layer.builds, lane.layer.builds) == (p_builds, l_builds)
    lane.set_progress(50, 100)  # new text: the lane's layer is built again, once
    settle(qtbot, lane, l_paints)
    assert lane.layer.builds == l_builds + 1
    timeline.set_coverage(40.0, 38.0, 1.5)  # the offset moves the lane's view
    settle(qtbot, lane, l_paints)
    assert lane.layer.builds == l_builds + 2


def test_a_lanes_no_footage_band_is_kept_in_its_layer(qtbot, timeline, monkeypatch):
    """The no-footage band carried down into a lane is in the lane's layer, as in the
    timeline's: a playhead move neither computes its pixels again (`band_pixels` was called on
    every paint, once per move) nor rebuilds the layer; the spans, the offset and the view do.
    Counted through `band_pixels`, the one place the band's pixels come from."""
    from moderator_app.core.video.probe import NoFootage
    from moderator_app.ui import video_lane

    computed: list[tuple[float, float]] = []
    real = video_lane.band_pixels

    def counted(starts, ends, v0, v1, left, width):
        computed.append((v0, v1))
        return real(starts, ends, v0, v1, left, width)

    monkeypatch.setattr(video_lane, "band_pixels", counted)
    timeline.set_no_footage((NoFootage(10.0, 20.0, "video.footage_gap", "no frame"),))
    lane = ActivityLane(timeline)
    qtbot.addWidget(lane)
    lane.resize(timeline.width(), 34)
    lane.set_progress(10, 100)
    lane.show()
    qtbot.waitExposed(lane)
    paints = Paints(lane)
    timeline.set_playhead(1.0)
    settle(qtbot, lane, paints)
    builds, n = lane.layer.builds, len(computed)
    assert n >= 1 and computed[-1] == (0.0, 40.0)

    base = lane.palette().color(lane.palette().ColorRole.Base).rgb()

    def hatched(t: float) -> bool:
        """Shaded at run time `t`: a hatch period (8 px) of the lane's top rows (above its
        text) none of which is the lane's background."""
        img = on_screen(lane)
        x = int(timeline.x_of(t))
        return all(img.pixel(x + i, y) != base for i in range(8) for y in (1, 2))

    for k in range(MOVES):
        timeline.set_playhead(1.0 + 1.7 * (k + 1))  # across the band (10-20 s) and past it
        QApplication.processEvents()
    assert len(paints.regions) >= MOVES  # painted on each move ...
    assert (len(computed), lane.layer.builds) == (n, builds)  # ... from the layer
    assert hatched(15.0) and not hatched(30.0)
    # the spans, the offset and the view change the band: computed again, once each
    timeline.set_no_footage((NoFootage(25.0, 35.0, "video.footage_gap", "no frame"),))
    settle(qtbot, lane, paints)
    assert (len(computed), lane.layer.builds) == (n + 1, builds + 1)
    assert hatched(30.0) and not hatched(15.0)
    timeline.set_coverage(40.0, 38.0, 2.0)
    settle(qtbot, lane, paints)
    timeline.set_view(5.0, 30.0)
    settle(qtbot, lane, paints)
    assert computed[n + 1:] == [(2.0, 42.0), (7.0, 32.0)]
    assert lane.layer.builds == builds + 3
