"""A widget's static layer: what it paints that does not move with the playhead (events, lanes,
plot curves, the axis, the scan's envelope), kept in a pixmap and painted again only when its
key changes (the data, the view, the size, the palette or the font).

Why: while a video plays the playhead moves 15 times a second (`FOLLOW_HZ`), and the timeline,
the plots and the activity lane each repainted whole on every move, 7-8 ms of the GUI thread's
time each per move at load 7 (session 10's profile, Xvfb 1920x1080): time taken from
presenting frames. With the layer kept, a move repaints the old and the new playhead's strips
from the pixmap and draws the playhead over them (`playhead_strip`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from PySide6.QtCore import QRect
from PySide6.QtGui import QPainter, QPixmap
from PySide6.QtWidgets import QWidget


class StaticLayer:
    """The static picture of `widget`, rebuilt by `paint` only when `key` (the widget's data
    and view, as a hashable value) or the widget's size, pixel ratio, palette or font changed.
    `builds` counts the rebuilds (the tests read it: a playhead move must not add one)."""

    def __init__(self, widget: QWidget) -> None:
        self.widget = widget
        self.builds = 0
        self._key: Hashable = None
        self._pixmap: QPixmap | None = None

    def draw(self, p: QPainter, key: Hashable, paint: Callable[[QPainter], None]) -> None:
        """Paint the layer onto `p` at the widget's origin (clipped by Qt to the region being
        updated), building it first when its key changed."""
        w = self.widget
        ratio = w.devicePixelRatioF()
        full = (key, w.width(), w.height(), ratio, w.palette().cacheKey(), w.font().key())
        if self._pixmap is None or full != self._key:
            pm = QPixmap(max(1, round(w.width() * ratio)), max(1, round(w.height() * ratio)))
            pm.setDevicePixelRatio(ratio)
            pm.fill(w.palette().color(w.palette().ColorRole.Base))
            lp = QPainter(pm)
            lp.setFont(w.font())
            paint(lp)
            lp.end()
            self._pixmap, self._key = pm, full
            self.builds += 1
        p.drawPixmap(0, 0, self._pixmap)


def playhead_strip(x: float | None, height: int, half: int = 3) -> QRect:
    """The strip a playhead line (2 px pen) at `x` covers, with a pixel to spare each side;
    an empty rect for no playhead."""
    if x is None:
        return QRect()
    return QRect(int(x) - half, 0, 2 * half + 1, height)
