"""Plots aligned with the timeline: actions per minute, model latency, tokens over time.

Painted with QPainter over the timeline's view range and left margin (`LABEL_W`), so a spike
sits exactly under the events that caused it; the curves are kept in a static layer
(ui/layer.py), so a playhead move repaints two thin strips, not the curves. Like the timeline, each strip aggregates per pixel
column with numpy (`searchsorted` + `reduceat`), so the cost does not grow with the log.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF, QRegion
from PySide6.QtWidgets import QSizePolicy, QWidget

from moderator_app.core.formats.event_index import EventIndex
from moderator_app.ui.layer import StaticLayer, playhead_strip
from moderator_app.ui.timeline import LABEL_W, PLAYHEAD

STRIP_H = 34


def column_reduce(ts: np.ndarray, vs: np.ndarray, v0: float, v1: float, width: int,
                  how: str = "max") -> np.ndarray:
    """Per pixel column: max / sum / count of the values whose time falls in it (NaN: none)."""
    out = np.full(width, np.nan)
    if width <= 0 or ts.size == 0 or v1 <= v0:
        return out
    edges = np.linspace(v0, v1, width + 1)
    idx = np.searchsorted(ts, edges, side="left")
    counts = np.diff(idx)
    nz = np.nonzero(counts)[0]
    if nz.size == 0:
        return out
    if how == "count":
        out[nz] = counts[nz]
        return out
    seg = vs[idx[0]:idx[-1]]
    starts = idx[:-1][nz] - idx[0]
    ufunc = np.maximum if how == "max" else np.add
    out[nz] = ufunc.reduceat(seg, starts)
    return out


class Series:
    def __init__(self, name: str, ts: np.ndarray, vs: np.ndarray, how: str, unit: str,
                 rgb: tuple[int, int, int]) -> None:
        order = np.argsort(ts, kind="stable")
        self.name, self.ts, self.vs = name, ts[order], vs[order]
        self.how, self.unit, self.rgb = how, unit, rgb


class PlotsWidget(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.series: list[Series] = []
        self.v0, self.v1 = 0.0, 60.0
        self.playhead: float | None = None
        self.layer = StaticLayer(self)
        self._version = 0  # bumped when the series change
        self.setFixedHeight(3 * STRIP_H)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(800, 3 * STRIP_H)

    def set_index(self, index: EventIndex | None) -> None:
        self.series = []
        if index is not None and len(index):
            times = np.frombuffer(index.times, dtype=np.float64)
            kinds = np.frombuffer(index.kinds, dtype=np.uint16)
            action_ids = [i for i, k in enumerate(index.kind_names)
                          if "action" in k.lower() or k == "tool_call"]
            at = times[np.isin(kinds, action_ids) & ~np.isnan(times)]
            self.series.append(Series("actions/min", at, np.ones_like(at), "rate", "/min",
                                      (78, 201, 176)))
            m = index.metrics
            if "latency_s" in m:
                ts, vs = m["latency_s"]
                self.series.append(Series("latency", np.frombuffer(ts, np.float64),
                                          np.frombuffer(vs, np.float64), "max", "s",
                                          (220, 160, 80)))
            tok_t, tok_v = [], []
            for name in ("tokens_in", "tokens_out"):
                if name in m:
                    tok_t.append(np.frombuffer(m[name][0], np.float64))
                    tok_v.append(np.frombuffer(m[name][1], np.float64))
            if tok_t:
                self.series.append(Series("tokens", np.concatenate(tok_t),
                                          np.concatenate(tok_v), "sum", "", (150, 150, 230)))
        self.setFixedHeight(max(1, len(self.series)) * STRIP_H)
        self._version += 1
        self.update()

    def set_view(self, v0: float, v1: float) -> None:
        if (v0, v1) != (self.v0, self.v1):
            self.v0, self.v1 = v0, v1
            self.update()  # a new key: the layer is rebuilt

    def set_playhead(self, t: float | None) -> None:
        """Move the playhead: its old and its new strip are repainted, nothing else."""
        if t == self.playhead:
            return
        old = playhead_strip(self._playhead_x(), self.height())
        self.playhead = t
        self.update(QRegion(old) | QRegion(playhead_strip(self._playhead_x(), self.height())))

    def _values(self, s: Series, width: int) -> np.ndarray:
        if s.how == "rate":
            # Actions per minute in a sliding window centred on each column: at least 10 s
            # (a readable rate), wider for long runs so the curve stays smooth.
            span = self.v1 - self.v0
            if span <= 0 or s.ts.size == 0:
                return np.full(width, np.nan)
            window = max(10.0, span / 50, 3 * span / width)
            centres = self.v0 + (np.arange(width) + 0.5) * span / width
            lo = np.searchsorted(s.ts, centres - window / 2)
            hi = np.searchsorted(s.ts, centres + window / 2)
            return (hi - lo) / window * 60.0
        return column_reduce(s.ts, s.vs, self.v0, self.v1, width, s.how)

    @staticmethod
    def _fmt(v: float) -> str:
        return f"{v:,.0f}" if v >= 100 else f"{v:.3g}"

    def _playhead_x(self) -> float | None:
        if self.playhead is None or not (self.v0 <= self.playhead <= self.v1):
            return None
        width = max(1, self.width() - LABEL_W)
        return LABEL_W + (self.playhead - self.v0) / (self.v1 - self.v0) * width

    def paintEvent(self, _event) -> None:  # noqa: N802 - Qt override
        """The curves from the static layer (rebuilt on a new view, data or size), the
        playhead over them; a playhead move updates its old and new strips only."""
        p = QPainter(self)
        self.layer.draw(p, (self.v0, self.v1, self._version), self._paint_static)
        x = self._playhead_x()
        if x is not None:
            p.setPen(QPen(PLAYHEAD, 2))  # the timeline's playhead colour
            p.drawLine(QPointF(x, 0), QPointF(x, self.height()))
        p.end()

    def _paint_static(self, p: QPainter) -> None:
        pal = self.palette()
        fg = pal.color(pal.ColorRole.Text)
        width = max(1, self.width() - LABEL_W)
        if not self.series:
            p.setPen(fg)
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "no plot data")
            return
        for i, s in enumerate(self.series):
            y0 = i * STRIP_H
            vals = self._values(s, width)
            finite = vals[np.isfinite(vals)]
            vmax = float(finite.max()) if finite.size else 0.0
            p.setPen(fg)
            p.drawText(QRectF(4, y0, LABEL_W - 8, STRIP_H),
                       Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                       f"{s.name}\nmax {self._fmt(vmax)}{s.unit}")
            grid = QColor(fg)
            grid.setAlpha(40)
            p.setPen(grid)
            p.drawLine(QPointF(0, y0 + STRIP_H - 1), QPointF(self.width(), y0 + STRIP_H - 1))
            if vmax <= 0:
                continue
            h = STRIP_H - 6
            xs = np.nonzero(np.isfinite(vals))[0]
            ys = y0 + 3 + h - vals[xs] / vmax * h
            color = QColor(*s.rgb)
            if s.how == "rate":
                poly = QPolygonF([QPointF(LABEL_W + x, y) for x, y in zip(xs, ys, strict=True)])
                p.setPen(QPen(color, 1.5))
                p.drawPolyline(poly)
            else:
                p.setPen(QPen(color, 1))
                base = y0 + 3 + h
                for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
                    p.drawLine(QPointF(LABEL_W + x + 0.5, base), QPointF(LABEL_W + x + 0.5, y))
