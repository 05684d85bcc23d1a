"""The "screen activity" and "audio" lanes under the timeline: what the integrity scan found,
on the timeline's own view range (run time; video time = run time + offset).

A strip of motion energy per pixel column (core/video/activity.py: scaled per run, its 99th
percentile at full height; the fixed scale drew a 1-2 px line on real games), the scan's
findings as coloured spans over it (frozen: amber, black: grey, timestamp gap: red, cut: a tick),
and the audio loudness envelope when the video has sound. Before the scan is done the lane says
"scanning… N %"; when it could not run, why. A click seeks like a click on the timeline.

It reads the view from the `Timeline` it is given (v0, v1, offset, playhead) and repaints when
that changes, so the timeline needs no code for it (the widget belongs to the review helper);
its picture is a static layer (ui/video_lane.py): a playhead move does not recompute the
envelope (session 10's profile: 7.1 ms of the GUI thread per move, every move).
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from PySide6.QtWidgets import QToolTip, QWidget

from moderator_app.core.video.activity import activity_levels, activity_scale
from moderator_app.core.video.scan import ScanResult
from moderator_app.ui.timeline import LABEL_W, Timeline
from moderator_app.ui.tooltip import plain_tooltip
from moderator_app.ui.video_lane import ROW_H, VideoLane

SPAN_COLORS = {
    "video.frozen": QColor(230, 170, 40, 150), "video.black": QColor(110, 110, 110, 170),
    "video.timestamp_gap": QColor(220, 60, 60, 170),
    "video.timestamp_backwards": QColor(220, 60, 60, 170),
    "video.stream_change": QColor(170, 90, 220, 170), "audio.gap": QColor(220, 60, 60, 170),
    "video.clock_jump": QColor(170, 90, 220, 110),  # a note at a join: time not in the file
    "audio.discontinuity": QColor(220, 60, 60, 170),
    # the whole file (a slideshow): light, so the lane's envelope still shows through
    "video.low_frame_rate": QColor(220, 60, 60, 60),
}
CUT = QColor(240, 240, 240)


class ActivityLane(VideoLane):
    def __init__(self, timeline: Timeline, parent: QWidget | None = None) -> None:
        super().__init__(timeline, parent)
        self.result: ScanResult | None = None
        self.scale = 1.0  # the motion drawn at full height, for this run (`activity_scale`)

    # -- data ------------------------------------------------------------------------------
    def set_scan(self, result) -> None:
        """A ScanResult, a reason (str) why there is none, or None (no video)."""
        if isinstance(result, ScanResult):
            self.result, self.status = result, ""
            self.scale = activity_scale(result.signals)
        else:
            self.result, self.status = None, ("" if result is None else
                                              f"scan not run: {result}")
        self.changed()

    def set_progress(self, done: int, total: int) -> None:
        if self.result is None:
            pct = f" {100 * done // total} %" if total else ""
            status = f"scanning…{pct}"
            if status != self.status:
                self.status = status
                self.changed()

    # -- painting --------------------------------------------------------------------------
    def _paint_static(self, p: QPainter) -> None:
        """The envelope, the audio and the scan's spans (the static layer: the envelope is
        computed again only when the view, the offset or the scan changed)."""
        pal = self.palette()
        fg = pal.color(pal.ColorRole.Text)
        p.setPen(fg)
        p.drawText(QRectF(4, 0, LABEL_W - 8, ROW_H),
                   Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, "screen activity")
        p.drawText(QRectF(4, ROW_H, LABEL_W - 8, ROW_H),
                   Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, "audio")
        v0, v1, w = self._video_span()
        r = self.result
        if r is None:
            p.drawText(QRectF(LABEL_W, 0, w, 2 * ROW_H), Qt.AlignmentFlag.AlignCenter,
                       self.status)
            return
        level = activity_levels(r.signals, v0, v1, w, self.scale)
        buf = np.zeros((ROW_H - 2, w, 4), np.uint8)
        hh = ROW_H - 2
        heights = np.where(level < 0, 0, np.maximum(1, (level * hh).astype(int)))
        rows = np.arange(hh)[:, None]
        on = rows >= (hh - heights)[None, :]
        buf[on] = (80, 170, 255, 230)
        img = QImage(buf.data, w, hh, w * 4, QImage.Format.Format_RGBA8888)
        p.drawImage(LABEL_W, 1, img)
        if r.has_audio and r.audio_envelope_db.shape[0]:
            self._paint_audio(p, r, v0, v1, w)
        for s in r.spans:
            x0, x1 = self._x(s.start_s), self._x(s.end_s)
            if x1 < LABEL_W or x0 > self.width():
                continue
            y = 0 if not s.rule.startswith("audio.") else ROW_H
            if s.rule == "video.cut":
                p.setPen(QPen(CUT, 1))
                p.drawLine(QPointF(x0, y), QPointF(x0, y + ROW_H))
                continue
            color = SPAN_COLORS.get(s.rule, QColor(200, 200, 200, 120))
            p.fillRect(QRectF(max(LABEL_W, x0), y, max(2.0, x1 - max(LABEL_W, x0)), ROW_H),
                       color)

    def _paint_audio(self, p: QPainter, r: ScanResult, v0: float, v1: float, w: int) -> None:
        env = r.audio_envelope_db
        step = r.envelope_s
        a0 = r.audio_start_s or 0.0
        cols = v0 + (v1 - v0) * (np.arange(w) + 0.5) / w
        idx = np.floor((cols - a0) / step).astype(np.int64)
        ok = (idx >= 0) & (idx < env.shape[0])
        db = np.full(w, -120.0, np.float32)
        db[ok] = env[idx[ok]]
        level = np.clip((db + 60.0) / 60.0, 0.0, 1.0)
        hh = ROW_H - 2
        heights = (level * hh).astype(int)
        buf = np.zeros((hh, w, 4), np.uint8)
        on = np.arange(hh)[:, None] >= (hh - heights)[None, :]
        buf[on] = (90, 200, 120, 220)
        img = QImage(buf.data, w, hh, w * 4, QImage.Format.Format_RGBA8888)
        p.drawImage(LABEL_W, ROW_H + 1, img)

    # -- interaction -----------------------------------------------------------------------
    def _span_at(self, x: float, y: float):
        if self.result is None:
            return None
        for s in self.result.spans:
            x0, x1 = self._x(s.start_s), self._x(s.end_s)
            row = ROW_H if s.rule.startswith("audio.") else 0
            if row <= y < row + ROW_H and x0 - 3 <= x <= max(x1, x0) + 3:
                return s
        return None

    def _click_target(self, x: float, y: float) -> float | None:
        s = self._span_at(x, y)
        return None if s is None else s.start_s

    def mouseMoveEvent(self, event) -> None:  # noqa: N802 - Qt override
        s = self._span_at(event.position().x(), event.position().y())
        if s is not None:
            QToolTip.showText(event.globalPosition().toPoint(),
                              plain_tooltip(f"{s.rule}: {s.message}"), self)
        else:
            QToolTip.hideText()
