"""Sync offset (the video time of `run_start`) and the live coverage check.

The offset lives in the `ReviewSession`; this widget edits it (ms precision in the spin box,
exact frame durations for the nudges) and shows the coverage section of the session's report at
the current offset (`core.verify.at_offset`), the same report the findings, the status bar and a
decision use, so this panel can never say NOT COVERED while another says PASS.
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

from moderator_app.ui.session import ReviewSession


class SyncControls(QGroupBox):
    def __init__(self, session: ReviewSession, frame_duration: Callable[[], float],
                 current_time: Callable[[], float | None], parent: QWidget | None = None):
        super().__init__("Sync offset", parent)
        self.session = session
        self._frame_duration = frame_duration
        self._current_time = current_time
        self.spin = QDoubleSpinBox()
        self.spin.setObjectName("offsetSpin")
        self.spin.setDecimals(3)
        self.spin.setRange(-1e6, 1e6)
        self.spin.setSingleStep(0.001)
        self.spin.setSuffix(" s")
        # The offset changes on Enter (or leaving the box), not on every keystroke: typing
        # "1.5" must not re-evaluate at 1 s and re-format the box under the cursor.
        self.spin.setKeyboardTracking(False)
        self.spin.setToolTip("Video time (seconds) at which run_start happens")
        # Wide enough for a 3-digit offset (longer ones scroll in the box): the range's "-1000000.000 s" made the panel 314 px
        # wide, more than a 1280x720 window's docks give it (they leave the event table room).
        fm = self.spin.fontMetrics()
        self.spin.setMinimumWidth(fm.horizontalAdvance("-888.888 s") + 30)
        self.earlier = QPushButton("−1 frame")
        self.later = QPushButton("+1 frame")
        self.here = QPushButton("run_start = this frame")
        self.here.setToolTip("run_start happens at the current frame (Ctrl+T)")
        self.coverage_label = QLabel("coverage: no run loaded")
        self.coverage_label.setTextFormat(Qt.TextFormat.PlainText)
        self.coverage_label.setObjectName("coverageLabel")
        self.coverage_label.setWordWrap(True)
        grid = QGridLayout(self)
        # The words wrap ("run_start at video / time") rather than set the dock's width:
        # at 1280x720 the docks give the event table every pixel they can (DECISIONS.md).
        at_label = QLabel("run_start at video time")
        at_label.setWordWrap(True)
        grid.addWidget(at_label, 0, 0)
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
        session.report_changed.connect(self.refresh_coverage)
        self._offset_changed(session.offset_s)

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

    def refresh_coverage(self) -> None:
        report = self.session.report
        c = report.coverage if report is not None else None
        if report is None:
            self.coverage_label.setText("coverage: no run loaded")
            return
        if c is None:
            what = "playable video" if self.session.video_duration_s is None else "run span"
            self.coverage_label.setText(f"coverage: not measured (no {what})")
            return
        state = "COVERED" if c.covered else "NOT COVERED"
        self.coverage_label.setText(
            f"coverage: {state} · missing {c.missing_s:.3f} s "
            f"({c.missing_before_s:.3f} before run_start, {c.missing_after_s:.3f} after "
            f"run_end; limit {c.tolerance_s:g} s) · run {c.run_duration_s:.3f} s, "
            f"video {c.video_duration_s:.3f} s · verdict {report.verdict.upper()}")
