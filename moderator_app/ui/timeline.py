"""The timeline: a custom painted widget, in run time (seconds since `run_start`).

Rows, top to bottom: a time axis, the coverage bar (run span against video span, missing
footage in red), the findings lane (errors red, warnings amber, info grey), then one lane per
event type (community) or producer (official).

The playhead is blue, so it is never mistaken for an error marker, and it stops above the
findings lane, so it never hides one. The current event of each lane (the last at or before the
playhead) is drawn as an outlined box over the lane at any zoom: with 19,000 events a lane is a
solid band until zoomed in, but the current event still stands out. Retime marks are drawn as
labelled flags, so a mark set by a stray key is seen.

Why density columns: one million markers cannot be drawn one by one in a frame. Each lane keeps
its event times sorted (numpy); a repaint asks `searchsorted` how many events fall in each pixel
column (O(width · log n), independent of n) and fills a numpy RGBA buffer, drawn with one
`drawImage`. Zoomed in far enough, a column holds at most one event and the same code draws
plain ticks.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QRegion
from PySide6.QtWidgets import QSizePolicy, QWidget

from moderator_app.core.formats.event_index import EventIndex
from moderator_app.core.text import safe_text
from moderator_app.core.video.probe import NoFootage
from moderator_app.ui.layer import StaticLayer, playhead_strip
from moderator_app.ui.no_footage_band import band_pixels, paint_bands, span_arrays
from moderator_app.ui.theme import severity_color
from moderator_app.ui.timefmt import format_timecode
from moderator_app.ui.timeline_columns import density, fill_columns, nice_step, widen

LABEL_W = 120  # left column with lane names; plots use the same margin to stay aligned
AXIS_H = 18
COVERAGE_H = 15
FINDINGS_H = 16
PLAYHEAD = QColor(80, 170, 255)
RETIME = QColor(230, 190, 60)
SPAN = QColor(240, 140, 60)  # the selected finding's span (not the playhead's blue)
LANE_PALETTE = [
    (86, 156, 214), (78, 201, 176), (197, 134, 192), (220, 220, 170), (206, 145, 120),
    (156, 220, 254), (181, 206, 168), (214, 157, 133), (144, 238, 144), (255, 182, 193),
]


class Timeline(QWidget):
    """Signals carry run time (s since run_start) or an event row of the index."""

    seek_requested = Signal(float)
    # True when a drag on the plot starts moving, False on release: while it lasts the player
    # shows keyframe previews (cheap), and the exact frame on release (issue 11 point 8)
    scrub_changed = Signal(bool)
    event_clicked = Signal(int)
    finding_clicked = Signal(int)  # position in the list given to set_findings
    view_changed = Signal(float, float)
    # the lanes under the timeline follow these (ui/video_lane.py): the playhead moved (they
    # repaint its strips), the sync offset changed (their view on the video's clock moved)
    playhead_moved = Signal()
    offset_changed = Signal(float)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setMouseTracking(False)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.lane_names: list[str] = []
        self.lane_times: list[np.ndarray] = []
        self.lane_rows: list[np.ndarray] = []
        self.finding_times: dict[str, np.ndarray] = {}
        self.finding_ids: dict[str, np.ndarray] = {}
        self.run_duration: float | None = None
        self.video_duration: float | None = None
        self.offset = 0.0
        self.footage_gaps: tuple[tuple[float, float], ...] = ()  # video time, no footage
        self.no_footage: tuple[NoFootage, ...] = ()  # the probe's spans, hatched always
        self.no_footage_arrays = span_arrays(())  # their starts and ends, for painting
        self.playhead: float | None = None
        self.current: list[int | None] = []  # per lane: position in lane_times, or None
        self.retime_marks: tuple[float | None, float | None] = (None, None)  # run time
        self.span: tuple[float, float] | None = None  # the selected finding's span, run time
        self.v0, self.v1 = 0.0, 60.0
        self._drag = None  # "seek" (pressed) | "scrub" (moved) | ("pan", x0, v0, v1)
        self.last_paint_ms = 0.0
        self.layer = StaticLayer(self)
        self._version = 0  # bumped by every change of what the static layer shows

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(800, AXIS_H + COVERAGE_H + FINDINGS_H + 16 * max(3, len(self.lane_names)))

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(300, AXIS_H + COVERAGE_H + FINDINGS_H + 24)

    # -- data ------------------------------------------------------------------------------

    def set_index(self, index: EventIndex | None) -> None:
        self.lane_names, self.lane_times, self.lane_rows = [], [], []
        if index is not None and len(index):
            times = np.frombuffer(index.times, dtype=np.float64)
            lanes = np.frombuffer(index.lanes, dtype=np.uint16)
            ok = ~np.isnan(times)
            for lane_id, name in enumerate(index.lane_names):
                rows = np.nonzero((lanes == lane_id) & ok)[0]
                t = times[rows]
                order = np.argsort(t, kind="stable")
                self.lane_names.append(name)
                self.lane_times.append(t[order])
                self.lane_rows.append(rows[order])
        self.current = [None] * len(self.lane_names)
        self.setMinimumHeight(AXIS_H + COVERAGE_H + FINDINGS_H + 4
                              + 14 * min(max(1, len(self.lane_names)), 12))
        self.updateGeometry()
        self._changed()

    def set_findings(self, items: list[tuple[float, str]]) -> None:
        """`items[i] = (run time, severity)` for findings that have a time; others skipped."""
        self.finding_times, self.finding_ids = {}, {}
        for sev in ("error", "warning", "info"):
            pairs = [(t, i) for i, (t, s) in enumerate(items)
                     if s == sev and t is not None and math.isfinite(t)]
            pairs.sort()
            self.finding_times[sev] = np.array([p[0] for p in pairs], dtype=np.float64)
            self.finding_ids[sev] = np.array([p[1] for p in pairs], dtype=np.int64)
        self._changed()

    def set_coverage(self, run_duration: float | None, video_duration: float | None,
                     offset: float, gaps: tuple[tuple[float, float], ...] = ()) -> None:
        """The run against the video at `offset`; `gaps`: spans of video time without
        footage (the report's `video.footage_gaps`: no frame, or a joined recording that does
        not decode), painted as missing where the run meets them (a 9 s gap was painted
        covered while the Sync panel said 9 s were missing, session 22)."""
        moved = offset != self.offset
        self.run_duration, self.video_duration, self.offset = (
            run_duration, video_duration, offset)
        self.footage_gaps = tuple(gaps)
        self._changed()
        if moved:
            self.offset_changed.emit(offset)

    def set_no_footage(self, spans: tuple[NoFootage, ...]) -> None:
        """The probe's spans without footage (`VideoProbe.no_footage`), hatched across the
        lanes whatever finding is selected (ui/no_footage_band.py)."""
        self.no_footage = tuple(spans)
        self.no_footage_arrays = span_arrays(self.no_footage)
        self._changed()

    def no_footage_bands(self) -> list[tuple[float, float]]:
        """The hatched spans in run time (video time - offset), as drawn."""
        return [(s.start_s - self.offset, s.end_s - self.offset) for s in self.no_footage]

    def set_playhead(self, t: float | None) -> None:
        if t == self.playhead:
            return
        old = self.playhead_region()
        self.playhead = t
        self.update(old | self.playhead_region())
        self.playhead_moved.emit()

    def set_current_time(self, t: float | None) -> list[int]:
        """Mark the current event of each lane (the last at or before run time `t`); returns
        their index rows, for the table to highlight the same events."""
        current: list[int | None] = []
        rows: list[int] = []
        for times, lane_rows in zip(self.lane_times, self.lane_rows, strict=True):
            j = -1 if t is None or not times.size else \
                int(np.searchsorted(times, t + 1e-9, side="right")) - 1
            current.append(j if j >= 0 else None)
            if j >= 0:
                rows.append(int(lane_rows[j]))
        if current != self.current:
            old = self._current_region()
            self.current = current
            self.update(old | self._current_region())
        return rows

    def set_retime_marks(self, start: float | None, end: float | None) -> None:
        """Retime marks in run time (None: not set)."""
        if (start, end) != self.retime_marks:
            self.retime_marks = (start, end)
            self._changed()

    def set_span(self, span: tuple[float, float] | None) -> None:
        """The selected finding's span in run time (a frozen or black stretch of the video),
        shaded across the lanes with its edges drawn; None: no span."""
        if span != self.span:
            self.span = span
            self._changed()

    # -- view ------------------------------------------------------------------------------

    def data_span(self) -> tuple[float, float]:
        lo, hi = math.inf, -math.inf
        for t in self.lane_times:
            if t.size:
                lo, hi = min(lo, float(t[0])), max(hi, float(t[-1]))
        if self.run_duration:
            lo, hi = min(lo, 0.0), max(hi, self.run_duration)
        if not math.isfinite(lo):
            return 0.0, 60.0
        if hi - lo < 1e-3:
            hi = lo + 1.0
        return lo, hi

    def set_view(self, v0: float, v1: float) -> None:
        if v1 - v0 < 1e-3:
            mid = (v0 + v1) / 2
            v0, v1 = mid - 5e-4, mid + 5e-4
        if (v0, v1) == (self.v0, self.v1):
            return
        self.v0, self.v1 = v0, v1
        self.view_changed.emit(v0, v1)
        self.update()  # a new key: the layer is rebuilt

    def fit(self) -> None:
        lo, hi = self.data_span()
        pad = (hi - lo) * 0.01
        self.set_view(lo - pad, hi + pad)

    def zoom(self, factor: float, center: float | None = None) -> None:
        """factor > 1 zooms in, around `center` (default: the playhead, else the middle)."""
        if center is None:
            center = self.playhead if self.playhead is not None else (self.v0 + self.v1) / 2
        lo, hi = self.data_span()
        max_span = (hi - lo) * 1.5 + 1.0
        span = min(max((self.v1 - self.v0) / factor, 1e-3), max_span)
        frac = (center - self.v0) / (self.v1 - self.v0) if self.v1 > self.v0 else 0.5
        frac = min(max(frac, 0.0), 1.0)
        self.set_view(center - frac * span, center + (1 - frac) * span)

    def zoom_in(self) -> None:
        self.zoom(1.5)

    def zoom_out(self) -> None:
        self.zoom(1 / 1.5)

    def pan(self, fraction: float) -> None:
        d = (self.v1 - self.v0) * fraction
        self.set_view(self.v0 + d, self.v1 + d)

    def ensure_visible(self, t: float) -> None:
        """Bring run time `t` into view at the same zoom: near the left edge, so that a
        playing video has room ahead, but never past the data when that shows less of it.
        (Centring it put a fitted run half off screen when the playhead was just before
        run_start, at a positive sync offset.)"""
        if self.v0 <= t <= self.v1:
            return
        span = self.v1 - self.v0
        lo, hi = self.data_span()
        lo, hi = min(lo, t), max(hi, t)
        pad = (hi - lo) * 0.01
        v0 = min(t - 0.1 * span, hi + pad - span)  # the right edge not beyond the data ...
        v0 = max(v0, lo - pad)                     # ... nor the left edge before it
        self.set_view(v0, v0 + span)

    # -- geometry --------------------------------------------------------------------------

    def plot_width(self) -> int:
        return max(1, self.width() - LABEL_W)

    def x_of(self, t: float) -> float:
        return LABEL_W + (t - self.v0) / (self.v1 - self.v0) * self.plot_width()

    def t_of(self, x: float) -> float:
        return self.v0 + (x - LABEL_W) / self.plot_width() * (self.v1 - self.v0)

    def lane_height(self) -> float:
        n = max(1, len(self.lane_names))
        avail = self.height() - AXIS_H - COVERAGE_H - FINDINGS_H - 2
        return max(6.0, min(22.0, avail / n))

    def lane_top(self, i: int) -> float:
        return AXIS_H + COVERAGE_H + FINDINGS_H + 2 + i * self.lane_height()

    # -- painting --------------------------------------------------------------------------

    def paintEvent(self, _event) -> None:  # noqa: N802 - Qt override
        """The static layer (from its pixmap: rebuilt only when the data, view or size
        changed), then what moves with the playhead: each lane's current event and the
        playhead. Qt clips this to the region updated: a playhead move repaints two strips."""
        import time

        start = time.perf_counter()
        p = QPainter(self)
        self.layer.draw(p, (self.v0, self.v1, self._version), self._paint_static)
        self._paint_current(p, self.lane_height())
        x = self._playhead_x()
        if x is not None:
            # Playhead: blue, and not across the findings lane (a marker is never hidden by it).
            assert self.playhead is not None
            p.setPen(QPen(PLAYHEAD, 2))
            p.drawLine(QPointF(x, 0), QPointF(x, AXIS_H + COVERAGE_H))
            p.drawLine(QPointF(x, AXIS_H + COVERAGE_H + FINDINGS_H), QPointF(x, self.height()))
            # The playhead's run time, in a tag on the axis (flipped left near the right end).
            tag = self._tag_rect(x)
            p.fillRect(tag, PLAYHEAD)
            p.setPen(QColor(255, 255, 255))
            p.drawText(tag, Qt.AlignmentFlag.AlignCenter, format_timecode(self.playhead))
        p.end()
        self.last_paint_ms = (time.perf_counter() - start) * 1000

    def _playhead_x(self) -> float | None:
        if self.playhead is None or not (self.v0 <= self.playhead <= self.v1):
            return None
        return self.x_of(self.playhead)

    def _tag_rect(self, x: float) -> QRectF:
        assert self.playhead is not None
        tw = self.fontMetrics().horizontalAdvance(format_timecode(self.playhead)) + 8
        left = x + 2 if x + 2 + tw <= self.width() else x - 2 - tw
        return QRectF(left, 0, tw, AXIS_H - 2)

    def playhead_region(self) -> QRegion:
        """What the playhead covers now: its line's strip and its time tag (empty when it is
        out of view). A move updates the old region and the new one, nothing else."""
        x = self._playhead_x()
        if x is None:
            return QRegion()
        return QRegion(playhead_strip(x, self.height())) | QRegion(
            self._tag_rect(x).toAlignedRect().adjusted(-1, -1, 1, 1))

    def _current_region(self) -> QRegion:
        """The outlined boxes of the lanes' current events (2 px pen, a pixel to spare)."""
        region = QRegion()
        lh = self.lane_height()
        for i, j in enumerate(self.current):
            if j is None or i >= len(self.lane_times):
                continue
            t = float(self.lane_times[i][j])
            if self.v0 <= t <= self.v1:
                x, y = self.x_of(t), self.lane_top(i)
                region |= QRegion(QRectF(x - 3, y + 1, 6, max(4.0, lh - 2))
                                  .toAlignedRect().adjusted(-2, -2, 2, 2))
        return region

    def _changed(self) -> None:
        """The static layer's data changed: rebuilt at the next paint."""
        self._version += 1
        self.update()

    def _paint_static(self, p: QPainter) -> None:
        """Everything but the playhead and the current events, into the static layer."""
        pal = self.palette()
        bg = pal.color(pal.ColorRole.Base)
        fg = pal.color(pal.ColorRole.Text)
        w = self.plot_width()
        self._paint_axis(p, fg)
        self._paint_coverage(p)
        lh = self.lane_height()
        # Lane labels (plain drawText: names come from the submission, never rich text).
        p.setPen(fg)
        y_f = AXIS_H + COVERAGE_H
        p.drawText(QRectF(4, y_f, LABEL_W - 8, FINDINGS_H),
                   Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, "findings")
        for i, name in enumerate(self.lane_names):
            if lh >= 9:
                p.drawText(QRectF(4, self.lane_top(i), LABEL_W - 8, lh),
                           Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                           p.fontMetrics().elidedText(safe_text(name),
                                                      Qt.TextElideMode.ElideRight,
                                                      LABEL_W - 8))
        top = AXIS_H + COVERAGE_H
        paint_bands(p, band_pixels(*self.no_footage_arrays, self.v0 + self.offset,
                                   self.v1 + self.offset, LABEL_W, w),
                    LABEL_W, self.width(), top, self.height(), fg, FINDINGS_H)
        # Markers: one RGBA buffer for the findings lane and all event lanes.
        height = max(1, self.height() - top)
        buf = np.zeros((height, w, 4), dtype=np.uint8)
        for sev in ("info", "warning", "error"):  # errors painted last, on top
            rgb = severity_color(sev).getRgb()[:3]
            t = self.finding_times.get(sev)
            if t is not None and t.size:
                fill_columns(buf, widen(density(t, self.v0, self.v1, w)), 1, FINDINGS_H - 2,
                           rgb, True)
        light = bg.lightness() > 128
        for i, t in enumerate(self.lane_times):
            y0 = int(self.lane_top(i) - top) + 1
            hh = max(2, int(lh) - 2)
            if y0 >= height:
                break
            rgb = LANE_PALETTE[i % len(LANE_PALETTE)]
            if light:  # the palette is made for dark backgrounds: darken it on light ones
                rgb = (int(rgb[0] * 0.6), int(rgb[1] * 0.6), int(rgb[2] * 0.6))
            fill_columns(buf, density(t, self.v0, self.v1, w), y0, hh, rgb, False)
        img = QImage(buf.data, w, height, w * 4, QImage.Format.Format_RGBA8888)
        p.drawImage(LABEL_W, top, img)
        # Lane separators.
        grid = QColor(fg)
        grid.setAlpha(40)
        p.setPen(grid)
        for i in range(len(self.lane_names) + 1):
            y = self.lane_top(i) - 1
            p.drawLine(QPointF(0, y), QPointF(self.width(), y))
        self._paint_span(p)
        self._paint_retime(p)

    def _paint_current(self, p: QPainter, lh: float) -> None:
        """An outlined box around each lane's current event, visible at any density."""
        fg = self.palette().color(self.palette().ColorRole.Text)
        p.setBrush(Qt.BrushStyle.NoBrush)
        for i, j in enumerate(self.current):
            if j is None or i >= len(self.lane_times):
                continue
            t = float(self.lane_times[i][j])
            if not (self.v0 <= t <= self.v1):
                continue
            x = self.x_of(t)
            y = self.lane_top(i)
            p.setPen(QPen(fg, 2))
            p.drawRect(QRectF(x - 3, y + 1, 6, max(4.0, lh - 2)))

    def _paint_span(self, p: QPainter) -> None:
        """The selected finding's span: shaded from the coverage bar down, edges in the
        findings lane's colour, at least 3 px wide so that a short stretch still shows."""
        if self.span is None:
            return
        a, b = self.span
        if b < self.v0 or a > self.v1:
            return
        x0 = self.x_of(max(a, self.v0))
        x1 = max(self.x_of(min(b, self.v1)), x0 + 3)
        top = AXIS_H + COVERAGE_H
        shade = QColor(SPAN)
        shade.setAlpha(60)
        p.fillRect(QRectF(x0, top, x1 - x0, self.height() - top), shade)
        p.setPen(QPen(SPAN, 1))
        p.drawLine(QPointF(x0, top), QPointF(x0, self.height()))
        p.drawLine(QPointF(x1, top), QPointF(x1, self.height()))

    def _paint_retime(self, p: QPainter) -> None:
        for label, t in zip(("I", "O"), self.retime_marks, strict=True):
            if t is None or not (self.v0 <= t <= self.v1):
                continue
            x = self.x_of(t)
            p.setPen(QPen(RETIME, 2, Qt.PenStyle.DashLine))
            p.drawLine(QPointF(x, AXIS_H), QPointF(x, self.height()))
            tag = QRectF(x - 7, AXIS_H + 1, 14, COVERAGE_H - 2)
            p.fillRect(tag, RETIME)
            p.setPen(QColor(0, 0, 0))
            p.drawText(tag, Qt.AlignmentFlag.AlignCenter, label)

    def axis_labels(self) -> list[tuple[float, QRectF | None, str]]:
        """The axis' ticks: their x, the rectangle their label is drawn in, and the label.
        A label sits right of its tick, or left of it where it would pass the widget's right
        edge (the last label was cut there, session 10); a tick whose label fits neither way,
        or would overlap its neighbour's, keeps its mark without a label (rect None)."""
        span = self.v1 - self.v0
        step = nice_step(span, max(2, self.plot_width() // 110))
        fm = self.fontMetrics()
        first = math.ceil(self.v0 / step)
        out: list[tuple[float, QRectF | None, str]] = []
        k = first
        while k * step <= self.v1 + 1e-9 * max(1.0, abs(self.v1)):
            t = k * step  # from the tick's number, not a sum of steps (no drift)
            k += 1
            x = self.x_of(t)
            label = format_timecode(t)
            if step >= 1:
                label = label[:-4]  # whole seconds: drop the ms
            if label.startswith("00:"):
                label = label[3:]
            w = fm.horizontalAdvance(label)
            left = x + 2 if x + 2 + w <= self.width() else x - 2 - w
            rect: QRectF | None = QRectF(left, 0, w, fm.height())
            if left < LABEL_W or any(r is not None and r.intersects(rect) for _, r, _ in out):
                rect = None  # the tick without its label
            out.append((x, rect, label if rect is not None else ""))
        return out

    def _paint_axis(self, p: QPainter, fg: QColor) -> None:
        p.setPen(fg)
        ascent = p.fontMetrics().ascent()
        for x, rect, label in self.axis_labels():
            p.drawLine(QPointF(x, AXIS_H - 4), QPointF(x, AXIS_H))
            if rect is not None:
                p.drawText(QPointF(rect.left(), ascent + 1), label)

    def _paint_coverage(self, p: QPainter) -> None:
        y = AXIS_H + 1
        h = COVERAGE_H - 3
        p.setPen(Qt.PenStyle.NoPen)
        p.fillRect(QRectF(0, y, LABEL_W - 4, h), Qt.GlobalColor.transparent)
        p.setPen(self.palette().color(self.palette().ColorRole.Text))
        p.drawText(QRectF(4, AXIS_H, LABEL_W - 8, COVERAGE_H),
                   Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, "coverage")
        if self.run_duration is None:
            return
        run0, run1 = 0.0, self.run_duration

        def rect(a: float, b: float) -> QRectF:
            xa = max(LABEL_W, self.x_of(a))
            xb = min(self.width(), self.x_of(b))
            return QRectF(xa, y, max(0.0, xb - xa), h)

        p.setPen(Qt.PenStyle.NoPen)
        if self.video_duration is None:  # no playable video: say so, do not paint "missing"
            p.setBrush(QColor(128, 128, 128, 90))
            r = rect(run0, run1)
            p.drawRect(r)
            p.setPen(self.palette().color(self.palette().ColorRole.Text))
            p.drawText(r, Qt.AlignmentFlag.AlignCenter, "no video")
            return
        p.setBrush(QColor(220, 60, 60))  # missing footage: run not covered by video
        p.drawRect(rect(run0, run1))
        if self.video_duration is not None:
            vid0, vid1 = -self.offset, self.video_duration - self.offset
            p.setBrush(QColor(120, 120, 120, 120))  # footage outside the run
            p.drawRect(rect(vid0, vid1))
            p.setBrush(QColor(70, 170, 90))  # covered
            lo, hi = max(run0, vid0), min(run1, vid1)
            p.drawRect(rect(lo, hi))
            p.setBrush(QColor(220, 60, 60))  # no footage inside the video: missing too
            for a, b in self.footage_gaps:
                a, b = max(lo, a - self.offset), min(hi, b - self.offset)
                if a < b:
                    p.drawRect(rect(a, b))

    # -- interaction -----------------------------------------------------------------------

    def _hit(self, x: float, y: float) -> tuple[str, int] | None:
        """The event row or finding under (x, y), within 4 px."""
        tol = 4 * (self.v1 - self.v0) / self.plot_width()
        t = self.t_of(x)
        top_f = AXIS_H + COVERAGE_H
        if top_f <= y < top_f + FINDINGS_H:
            best = None
            for sev in ("error", "warning", "info"):
                ts = self.finding_times.get(sev)
                if ts is None or not ts.size:
                    continue
                j = self._nearest(ts, t)
                if abs(ts[j] - t) <= tol and (best is None or abs(ts[j] - t) < best[0]):
                    best = (abs(ts[j] - t), int(self.finding_ids[sev][j]))
            return ("finding", best[1]) if best else None
        lh = self.lane_height()
        i = int((y - self.lane_top(0)) // lh) if y >= self.lane_top(0) else -1
        if 0 <= i < len(self.lane_times):
            ts = self.lane_times[i]
            if ts.size:
                j = self._nearest(ts, t)
                if abs(ts[j] - t) <= tol:
                    return ("event", int(self.lane_rows[i][j]))
        return None

    @staticmethod
    def _nearest(ts: np.ndarray, t: float) -> int:
        j = int(np.searchsorted(ts, t))
        if j >= ts.size:
            return ts.size - 1
        if j > 0 and abs(ts[j - 1] - t) <= abs(ts[j] - t):
            return j - 1
        return j

    def mousePressEvent(self, event) -> None:  # noqa: N802 - Qt override
        pos = event.position()
        if event.button() == Qt.MouseButton.MiddleButton or (
                event.button() == Qt.MouseButton.LeftButton
                and event.modifiers() & Qt.KeyboardModifier.ShiftModifier):
            self._drag = ("pan", pos.x(), self.v0, self.v1)
            return
        if event.button() != Qt.MouseButton.LeftButton or pos.x() < LABEL_W:
            return
        hit = self._hit(pos.x(), pos.y())
        if hit is not None:
            kind, ident = hit
            (self.event_clicked if kind == "event" else self.finding_clicked).emit(ident)
            self._drag = None
            return
        self._drag = "seek"
        self.seek_requested.emit(self.t_of(pos.x()))

    def mouseMoveEvent(self, event) -> None:  # noqa: N802 - Qt override
        pos = event.position()
        if self._drag in ("seek", "scrub"):
            if self._drag == "seek":
                self._drag = "scrub"
                self.scrub_changed.emit(True)
            self.seek_requested.emit(self.t_of(max(LABEL_W, pos.x())))
        elif isinstance(self._drag, tuple):
            _, x0, v0, v1 = self._drag
            dt = (pos.x() - x0) / self.plot_width() * (v1 - v0)
            self.set_view(v0 - dt, v1 - dt)

    def mouseReleaseEvent(self, _event) -> None:  # noqa: N802 - Qt override
        scrubbing, self._drag = self._drag == "scrub", None
        if scrubbing:
            self.scrub_changed.emit(False)

    def wheelEvent(self, event) -> None:  # noqa: N802 - Qt override
        delta = event.angleDelta().y() or event.angleDelta().x()
        if not delta:
            return
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.zoom(1.25 ** (delta / 120), self.t_of(event.position().x()))
        else:
            self.pan(-delta / 120 * 0.1)
        event.accept()
