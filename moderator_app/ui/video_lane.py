"""A lane under the timeline drawn on the video's clock (the screen activity, audio, reaction and
offset-track lanes): it reads the view from the `Timeline` it is given (run time; video time =
run time + offset), repaints when that view changes, and seeks on a click, so the timeline needs
no code for it. Subclasses paint their static picture (`_paint_static`, kept in a pixmap by
ui/layer.py with the timeline's no-footage band, and rebuilt only when the view, the offset,
the size, those spans or their data change: call `changed`) and may name a better target for
a click (`_click_target`); the playhead is drawn over it here, and a playhead move repaints its
old and new strips only.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QSize, Signal
from PySide6.QtGui import QPainter, QPen, QRegion
from PySide6.QtWidgets import QSizePolicy, QWidget

from moderator_app.ui.layer import StaticLayer, playhead_strip
from moderator_app.ui.no_footage_band import band_pixels, paint_bands
from moderator_app.ui.timeline import LABEL_W, PLAYHEAD, Timeline

ROW_H = 16


class VideoLane(QWidget):
    seek_requested = Signal(float)  # run time

    def __init__(self, timeline: Timeline, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.timeline = timeline
        self.status = ""
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMouseTracking(True)
        self.layer = StaticLayer(self)
        self._version = 0
        self._playhead_at: float | None = None  # the x last asked to be painted
        timeline.view_changed.connect(lambda *_: self.update())
        timeline.offset_changed.connect(lambda *_: self.update())
        timeline.playhead_moved.connect(self.follow_playhead)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(600, 2 * ROW_H + 2)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(200, 2 * ROW_H + 2)

    # -- geometry --------------------------------------------------------------------------
    def _video_span(self) -> tuple[float, float, int]:
        """The view on the video's clock (v0, v1) and the width it is drawn in."""
        tl = self.timeline
        w = max(1, self.width() - LABEL_W)
        return tl.v0 + tl.offset, tl.v1 + tl.offset, w

    def _x(self, video_t: float) -> float:
        v0, v1, w = self._video_span()
        return LABEL_W + (video_t - v0) / (v1 - v0) * w if v1 > v0 else LABEL_W

    def _playhead_x(self) -> float | None:
        ph = self.timeline.playhead
        if ph is None:
            return None
        x = self._x(ph + self.timeline.offset)
        return x if LABEL_W <= x <= self.width() else None

    def changed(self) -> None:
        """The lane's data changed (a scan, an analysis, a status): the layer is rebuilt."""
        self._version += 1
        self.update()

    def follow_playhead(self) -> None:
        """The timeline's playhead moved: repaint the strip it left and the one it is in."""
        x = self._playhead_x()
        if x != self._playhead_at:
            self.update(QRegion(playhead_strip(self._playhead_at, self.height()))
                        | QRegion(playhead_strip(x, self.height())))
            self._playhead_at = x

    def paintEvent(self, _event) -> None:  # noqa: N802 - Qt override
        tl = self.timeline
        p = QPainter(self)
        self.layer.draw(p, (tl.v0, tl.v1, tl.offset, tl.no_footage, self._version),
                        self._paint_layer)
        # The timeline's playhead carried down into the lane, on the video's clock.
        x = self._playhead_at = self._playhead_x()
        if x is not None:
            p.setPen(QPen(PLAYHEAD, 2))
            p.drawLine(QPointF(x, 0), QPointF(x, self.height()))
        p.end()

    def _paint_layer(self, p: QPainter) -> None:
        """The static layer: the lane's picture, then the timeline's no-footage band carried
        down on the video's clock. In the layer, as in the Timeline's, so that a playhead move
        neither recomputes the band's pixels nor paints it again: it was both, on every paint
        (session 23's final read), for spans that change only with the view, offset or size."""
        p.save()
        self._paint_static(p)
        p.restore()
        v0, v1, w = self._video_span()
        paint_bands(p, band_pixels(*self.timeline.no_footage_arrays, v0, v1, LABEL_W, w),
                    LABEL_W, self.width(), 0, self.height())

    def _paint_static(self, p: QPainter) -> None:
        """The lane's picture without the playhead (subclasses)."""

    def _click_target(self, x: float, y: float) -> float | None:
        """A video time to seek to instead of the clicked instant (e.g. a span's start)."""
        return None

    def mousePressEvent(self, event) -> None:  # noqa: N802 - Qt override
        x = event.position().x()
        if x < LABEL_W:
            return
        v0, v1, w = self._video_span()
        video_t = v0 + (x - LABEL_W) / w * (v1 - v0)
        target = self._click_target(x, event.position().y())
        if target is not None:
            video_t = target
        self.seek_requested.emit(video_t - self.timeline.offset)
