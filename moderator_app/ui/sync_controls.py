"""Sync offset (the video time of `run_start`) and the live coverage check.

The offset lives in the `ReviewSession`; this widget edits it (ms precision in the spin box,
exact frame durations for the nudges) and recomputes coverage with `core.coverage` on every
change, so the moderator sees at once whether the video covers the run at the new offset.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QGridLayout,
    QGroupBox,
    QLabel,
    QPushButton,
    QWidget,
)

from moderator_app.core.verify.coverage import compute_coverage
from moderator_app.ui.session import ReviewSession


class SyncControls(QGroupBox):
    def __init__(self, session: ReviewSession, frame_duration: Callable[[], float],
                 current_time: Callable[[], float | None], parent: QWidget | None = None):
        super().__init__("Sync offset", parent)
        self.session = session
        self._frame_duration = frame_duration
        self._current_time = current_time
        self.run_duration: float | None = None
        self.video_duration: float | None = None
        self.spin = QDoubleSpinBox()
        self.spin.setObjectName("offsetSpin")
        self.spin.setDecimals(3)
        self.spin.setRange(-1e6, 1e6)
        self.spin.setSingleStep(0.001)
        self.spin.setSuffix(" s")
        self.spin.setToolTip("Video time (seconds) at which run_start happens")
        self.earlier = QPushButton("−1 frame")
        self.later = QPushButton("+1 frame")
        self.here = QPushButton("run_start is at the current frame")
        self.coverage_label = QLabel("coverage: no run loaded")
        self.coverage_label.setTextFormat(Qt.TextFormat.PlainText)
        self.coverage_label.setObjectName("coverageLabel")
        self.coverage_label.setWordWrap(True)
        grid = QGridLayout(self)
        grid.addWidget(QLabel("run_start at video time"), 0, 0)
        grid.addWidget(self.spin, 0, 1)
        grid.addWidget(self.earlier, 1, 0)
        grid.addWidget(self.later, 1, 1)
        grid.addWidget(self.here, 2, 0, 1, 2)
        grid.addWidget(self.coverage_label, 3, 0, 1, 2)
        self.spin.valueChanged.connect(self._spin_changed)
        self.earlier.clicked.connect(lambda: self.nudge(-1))
        self.later.clicked.connect(lambda: self.nudge(1))
        self.here.clicked.connect(self.run_start_here)
        session.offset_changed.connect(self._offset_changed)
        self._offset_changed(session.offset_s)

    def set_durations(self, run_duration: float | None, video_duration: float | None) -> None:
        self.run_duration, self.video_duration = run_duration, video_duration
        self.refresh_coverage()

    def nudge(self, frames: int) -> None:
        self.session.set_offset(self.session.offset_s + frames * self._frame_duration())

    def run_start_here(self) -> None:
        t = self._current_time()
        if t is not None:
            self.session.set_offset(t)

    def _spin_changed(self, value: float) -> None:
        if abs(value - self.session.offset_s) >= 0.0005:  # ignore the display's rounding
            self.session.set_offset(value)

    def _offset_changed(self, offset: float) -> None:
        self.spin.blockSignals(True)
        self.spin.setValue(offset)
        self.spin.blockSignals(False)
        self.refresh_coverage()

    def coverage(self):
        if self.run_duration is None or self.video_duration is None:
            return None
        return compute_coverage(self.run_duration, self.video_duration, self.session.offset_s)

    def refresh_coverage(self) -> None:
        cov = self.coverage()
        if cov is None:
            what = "run" if self.run_duration is None else "video"
            self.coverage_label.setText(f"coverage: no {what} duration known")
            return
        state = "COVERED" if cov.covered else "NOT COVERED"
        self.coverage_label.setText(
            f"coverage: {state} · missing {cov.missing_s:.3f} s "
            f"({cov.missing_before_s:.3f} before run_start, {cov.missing_after_s:.3f} after "
            f"run_end; limit 5 s) · run {cov.run_duration_s:.3f} s, "
            f"video {cov.video_duration_s:.3f} s")
