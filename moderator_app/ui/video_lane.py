"""A lane under the timeline drawn on the video's clock (the screen activity, audio, reaction and
offset-track lanes): it reads the view from the `Timeline` it is given (run time; video time =
run time + offset), repaints when that view changes, and seeks on a click, so the timeline needs
no code for it. Subclasses paint and may name a better target for a click (`_click_target`).
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QSize, Signal
from PySide6.QtGui import QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

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
        timeline.view_changed.connect(lambda *_: self.update())

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

    def _paint_playhead(self, p: QPainter) -> None:
        """The timeline's playhead carried down into the lane, on the video's clock."""
        ph = self.timeline.playhead
        if ph is not None:
            x = self._x(ph + self.timeline.offset)
            if LABEL_W <= x <= self.width():
                p.setPen(QPen(PLAYHEAD, 2))
                p.drawLine(QPointF(x, 0), QPointF(x, self.height()))

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
