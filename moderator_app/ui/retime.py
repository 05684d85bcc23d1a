"""Retime: mark start and end at the current frame and compare with the log's time.

The marks are decoded frame timestamps (video seconds), so the measured duration is exact to
the frame; the panel also shows the frame numbers and one frame's duration, the precision of
the measurement. The log time is run_start to run_end as the verifier measured it.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QGroupBox, QLabel, QPushButton, QWidget

from moderator_app.ui.session import ReviewSession
from moderator_app.ui.timefmt import format_timecode


def _plain(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setWordWrap(True)  # never clipped in a narrow dock
    return label


class RetimePanel(QGroupBox):
    def __init__(self, session: ReviewSession,
                 current: Callable[[], tuple[int, float] | None],
                 frame_of: Callable[[float], int | None],
                 frame_duration: Callable[[], float],
                 parent: QWidget | None = None) -> None:
        super().__init__("Retime", parent)
        self.session = session
        self._current = current
        self._frame_of = frame_of
        self._frame_duration = frame_duration
        self.start_button = QPushButton("Mark start")
        self.start_button.setToolTip("Retime start at the current frame (Shift+I)")
        self.end_button = QPushButton("Mark end")
        self.end_button.setToolTip("Retime end at the current frame (Shift+O)")
        self.clear_button = QPushButton("Clear")
        for b in (self.start_button, self.end_button, self.clear_button):
            # as wide as their text, not the style's 80 px minimum: the three fit a 300 px dock
            b.setMinimumWidth(b.fontMetrics().horizontalAdvance(b.text()) + 20)
        self.start_label = _plain("start: -")
        self.end_label = _plain("end: -")
        self.video_label = _plain("video-measured: -")
        self.log_label = _plain("log time: -")
        self.diff_label = _plain("difference: -")
        for w, name in ((self.video_label, "retimeVideo"), (self.log_label, "retimeLog"),
                        (self.diff_label, "retimeDiff")):
            w.setObjectName(name)
        grid = QGridLayout(self)
        grid.addWidget(self.start_button, 0, 0)
        grid.addWidget(self.end_button, 0, 1)
        grid.addWidget(self.clear_button, 0, 2)
        grid.addWidget(self.start_label, 1, 0, 1, 3)
        grid.addWidget(self.end_label, 2, 0, 1, 3)
        grid.addWidget(self.video_label, 3, 0, 1, 3)
        grid.addWidget(self.log_label, 4, 0, 1, 3)
        grid.addWidget(self.diff_label, 5, 0, 1, 3)
        self.start_button.clicked.connect(self.mark_start)
        self.end_button.clicked.connect(self.mark_end)
        self.clear_button.clicked.connect(self.clear)
        session.changed.connect(self.refresh)
        self.refresh()

    def mark_start(self) -> None:
        cur = self._current()
        if cur is not None:
            self.session.set_retime_start(cur[1])

    def mark_end(self) -> None:
        cur = self._current()
        if cur is not None:
            self.session.set_retime_end(cur[1])

    def clear(self) -> None:
        self.session.set_retime_start(None)
        self.session.set_retime_end(None)

    def _mark_text(self, name: str, t: float | None) -> str:
        if t is None:
            return f"{name}: -"
        n = self._frame_of(t)
        frame = "" if n is None else f"frame {n}, "
        return f"{name}: {frame}{format_timecode(t)} (video)"

    def log_duration(self) -> float | None:
        result = self.session.result
        return None if result is None else result.run_duration_s

    def refresh(self) -> None:
        s = self.session
        self.start_label.setText(self._mark_text("start", s.retime_start_s))
        self.end_label.setText(self._mark_text("end", s.retime_end_s))
        video = s.retime_video_s
        log = self.log_duration()
        fd = self._frame_duration()
        if video is None:
            self.video_label.setText("video-measured: -")
        else:
            frames = ""
            a, b = self._frame_of(s.retime_start_s), self._frame_of(s.retime_end_s)
            if a is not None and b is not None:
                frames = f", {b - a} frames"
            self.video_label.setText(
                f"video-measured: {video:.3f} s ({format_timecode(video)}{frames}; "
                f"one frame = {fd * 1000:.1f} ms)")
        self.log_label.setText("log time: -" if log is None else
                               f"log time: {log:.3f} s ({format_timecode(log)}), "
                               "run_start to run_end")
        if video is None or log is None:
            self.diff_label.setText("difference: -")
        else:
            d = video - log
            self.diff_label.setText(f"difference (video − log): {d:+.3f} s "
                                    f"({d / fd:+.1f} frames)")
