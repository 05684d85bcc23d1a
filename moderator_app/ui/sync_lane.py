"""Auto-sync in the workstation (issue 13): the suggestion with one-click apply, and the "sync"
lanes under the timeline (reactions per action, the local offset track, sync findings' spans).

`SyncRunner` runs `core.sync.run.analyze_result` off the GUI thread whenever a submission with
a video is loaded, the same analysis as `verify --sync`, and hands the `SyncAnalysis` to
`AutoSyncBox` (in the Sync dock) and `SyncLane` (under the screen activity lane). The lane reads
the view from the `Timeline` (run time; video time = run time + offset), like the activity lane.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import (
    QGroupBox,
    QLabel,
    QPushButton,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from moderator_app.core.sync.records import DATING_NOTE, SyncAnalysis, apply_withheld
from moderator_app.core.text import counted
from moderator_app.ui.background import BackgroundOp
from moderator_app.ui.decision_text import AUTO_SYNC
from moderator_app.ui.timeline import LABEL_W, PLAYHEAD, Timeline
from moderator_app.ui.tooltip import plain_tooltip
from moderator_app.ui.video_lane import ROW_H, VideoLane

# An offset typed or stepped settles for this long before an analysis without a suggestion is
# measured again at it (`SyncRunner`): one analysis per setting, not one per arrow step
OFFSET_SETTLE_MS = 400
TRACK_RANGE_S = 1.0  # the offset track shows offsets within +-1 s of the one in use
REACTED = QColor(90, 200, 120)
LATE = QColor(230, 170, 40)  # answered within the rule's 0.5 s, after the reader's 0.15 s
MISSED = QColor(230, 80, 80)
SPAN_COLORS = {
    "sync.offset_jump": QColor(220, 60, 60, 110), "sync.no_reaction": QColor(230, 170, 40, 110),
    "sync.activity_without_actions": QColor(170, 90, 220, 110),
    "sync.silent_log": QColor(170, 90, 220, 110),  # the same question: who played there?
}


def describe(a) -> str:
    """One line for the Sync dock: the suggestion, or why there is none."""
    if a is None:
        return "auto-sync: no video"
    if isinstance(a, str):
        return f"auto-sync: {a}"
    if a.suggested_offset_s is None:
        return f"auto-sync: not enough signal ({a.reason}); no offset suggested"
    drift = f", clock drift {a.drift_percent:+.1f} %" if a.drift_percent else ""
    said = (f"auto-sync: run_start at {a.suggested_offset_s:.3f} s (confidence "
            f"{a.confidence:.2f}, {a.supporting_actions:,} of {counted(a.actions, 'action')}{drift}); "
            f"{counted(len(a.findings), 'sync finding')}")
    withheld = apply_withheld(a.confidence)
    if withheld and a.confidence_note:
        withheld = f"{withheld}; {a.confidence_note}"
    return f"{said}\n{withheld}" if withheld else said


APPLY_TEXT = "Apply suggested offset"
WITHHELD_TEXT = "Apply withheld: low confidence"


class AutoSyncBox(QGroupBox):
    """The suggestion and its one-click apply."""

    def __init__(self, session, parent: QWidget | None = None) -> None:
        super().__init__("Auto-sync", parent)
        self.session = session
        self.analysis = None
        self.label = QLabel("auto-sync: no video")
        self.label.setObjectName("autoSyncLabel")
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setWordWrap(True)
        self.apply = QPushButton(APPLY_TEXT)
        self.apply.setObjectName("autoSyncApply")
        self.apply.setEnabled(False)
        self.apply.clicked.connect(self.apply_suggestion)
        lay = QVBoxLayout(self)
        lay.addWidget(self.label)
        lay.addWidget(self.apply)

    def set_analysis(self, a) -> None:
        """A SyncAnalysis, a status text, or None (no video)."""
        self.analysis = a if not isinstance(a, str) else None
        self.label.setText(describe(a))
        # what the suggestion dates (a game's constant lag is in it, not in its confidence)
        dated = self.analysis is not None and self.analysis.suggested_offset_s is not None
        self.label.setToolTip(plain_tooltip(DATING_NOTE) if dated else "")
        self.apply.setEnabled(self._applicable())
        # the reason on the button too: at 1280x720 the dock squeezes the label to 2 lines
        withheld = "" if self.analysis is None or self.analysis.suggested_offset_s is None \
            else apply_withheld(self.analysis.confidence)
        if withheld and self.analysis is not None and self.analysis.confidence_note:
            withheld = f"{withheld}; {self.analysis.confidence_note}"
        self.apply.setText(WITHHELD_TEXT if withheld else APPLY_TEXT)
        self.apply.setToolTip(plain_tooltip(withheld) if withheld else "")

    def _applicable(self) -> bool:
        """A suggestion confident enough for one click (`records.APPLY_MIN_CONFIDENCE`: below
        it the label says why, and the offset is typed by the moderator)."""
        a = self.analysis
        return a is not None and a.suggested_offset_s is not None \
            and not apply_withheld(a.confidence)

    def apply_suggestion(self) -> None:
        if self._applicable():
            self.session.set_offset(self.analysis.suggested_offset_s, by=AUTO_SYNC)


def reaction_tick(r) -> tuple[QColor, float]:
    """An action's tick in the reactions lane: its colour and height (0..1 of the row).
    Green, as tall as the reaction is clear: the reader found the answering frame (within
    0.15 s, `Reaction.video_s`); amber, half height: the picture answered within the 0.5 s
    `sync.no_reaction` looks at, later than the reader attributes a frame; red, full height:
    no answer at all (`Reaction.missed`). Why three: since the per-action reader is on, a
    press answered 0.15-0.5 s late was red in the lane while the rule counted it answered
    (review s36 V2): the lane says what the finding counts."""
    if r.video_s is not None:
        return REACTED, 0.4 + 0.6 * r.confidence
    return (MISSED, 1.0) if r.missed else (LATE, 0.5)


class SyncLane(VideoLane):
    def __init__(self, timeline: Timeline, parent: QWidget | None = None) -> None:
        super().__init__(timeline, parent)
        self.analysis = None
        self.setObjectName("syncLane")

    def set_analysis(self, a) -> None:
        self.analysis = a if not isinstance(a, str) and a is not None else None
        self.status = a if isinstance(a, str) else ""
        self.changed()

    def _paint_static(self, p: QPainter) -> None:
        pal = self.palette()
        p.setPen(pal.color(pal.ColorRole.Text))
        p.drawText(QRectF(4, 0, LABEL_W - 8, ROW_H), Qt.AlignmentFlag.AlignVCenter, "reactions")
        p.drawText(QRectF(4, ROW_H, LABEL_W - 8, ROW_H), Qt.AlignmentFlag.AlignVCenter,
                   "offset track")
        a = self.analysis
        if a is None:
            p.drawText(QRectF(LABEL_W, 0, self.width() - LABEL_W, 2 * ROW_H),
                       Qt.AlignmentFlag.AlignCenter, self.status)
            return
        # what is plotted stays right of the lane names: a span starting before the view (a
        # finding at a negative video time) was painted over "reactions" (QA session 13)
        p.setClipRect(QRectF(LABEL_W, 0, max(0.0, self.width() - LABEL_W), 2 * ROW_H))
        for f in a.findings:
            if f.video_start_s is None or f.rule not in SPAN_COLORS:
                continue
            x0 = self._x(f.video_start_s)
            x1 = self._x(f.video_end_s if f.video_end_s is not None else f.video_start_s)
            p.fillRect(QRectF(x0 - 2, 0, max(5.0, x1 - x0 + 4), 2 * ROW_H), SPAN_COLORS[f.rule])
            if f.rule == "sync.offset_jump":  # the splice itself: a full-height line
                p.setPen(QPen(MISSED, 2))
                p.drawLine(QPointF(x0, 0), QPointF(x0, 2 * ROW_H))
        for r in a.reactions:  # a tick per action (`reaction_tick`)
            x = self._x(r.expected_video_s)
            if x < LABEL_W or x > self.width():
                continue
            colour, tall = reaction_tick(r)
            p.setPen(QPen(colour, 2))
            p.drawLine(QPointF(x, ROW_H - 1), QPointF(x, ROW_H - 1 - (ROW_H - 3) * tall))
        used = a.offset_used_s or 0.0
        mid = ROW_H + ROW_H / 2
        p.setPen(QPen(pal.color(pal.ColorRole.Mid), 1, Qt.PenStyle.DashLine))
        p.drawLine(QPointF(LABEL_W, mid), QPointF(self.width(), mid))
        for pt in a.track:  # on the line where the window agrees with the offset in use
            if pt.offset_s is None:
                continue
            off = pt.offset_s - used
            dy = max(-1.0, min(1.0, off / TRACK_RANGE_S))
            x = self._x(pt.run_s + pt.offset_s)
            p.setPen(QPen(PLAYHEAD if abs(off) < 0.05 else MISSED, 5, Qt.PenStyle.SolidLine,
                          Qt.PenCapStyle.RoundCap))
            p.drawPoint(QPointF(x, mid - dy * (ROW_H / 2 - 3)))

    def _finding_at(self, x: float):
        a = self.analysis
        if x < LABEL_W:  # the lane names, not the plot
            return None
        for f in (a.findings if a is not None else ()):
            if f.video_start_s is None:
                continue
            x0 = self._x(f.video_start_s)
            x1 = self._x(f.video_end_s if f.video_end_s is not None else f.video_start_s)
            if x0 - 3 <= x <= max(x1, x0) + 3:
                return f
        return None

    def _click_target(self, x: float, y: float) -> float | None:
        f = self._finding_at(x)
        return None if f is None else f.video_start_s

    def mouseMoveEvent(self, event) -> None:  # noqa: N802 - Qt override
        f = self._finding_at(event.position().x())
        if f is not None:
            from moderator_app.core.sync.run import finding_message

            QToolTip.showText(event.globalPosition().toPoint(),
                              plain_tooltip(f"{f.rule}: {finding_message(f)}"), self)
        else:
            QToolTip.hideText()


class SyncRunner(QObject):
    """Runs the sync analysis in the background for each loaded submission with a video."""

    # The SyncAnalysis, or a status text / None while there is none (for the findings list).
    analysed = Signal(object)

    def __init__(self, session, box: AutoSyncBox, lane: SyncLane,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session, self.box, self.lane = session, box, lane
        self.op = BackgroundOp("sync", self)
        session.result_changed.connect(self.start)
        # An analysis with no suggestion of its own measures its findings at the session's
        # offset: moved, they are measured again there, once the offset settles
        self.last = None
        self.started_at: float | None = None  # the offset the running analysis measures at
        self.again = QTimer(self)
        self.again.setSingleShot(True)
        self.again.setInterval(OFFSET_SETTLE_MS)
        self.again.timeout.connect(self.start)
        session.offset_changed.connect(self._offset_moved)

    def _offset_moved(self, offset: float) -> None:
        """QA session 15, H6: Private Eye frozen at video 20.62-24.64 s, analysed at the offset
        of the opening (0: no suggestion); set to the true 2.3 s, the held picture's
        `sync.no_reaction` still named run 20.62-24.64 s (its span at offset 0): its click
        landed 2.3 s into the freeze and its shading was the video span on the run axis,
        beside `video.frozen`'s right ones. With a suggestion the findings stay at the
        suggestion's offset, where the analysis measured them (their actions' run times)."""
        a = self.last
        if isinstance(a, SyncAnalysis) and a.suggested_offset_s is None and \
                a.offset_used_s != offset:
            self.again.start()

    def _show(self, a) -> None:
        self.last = a
        self.box.set_analysis(a)
        self.lane.set_analysis(a)
        self.analysed.emit(a)
        # the offset moved while this analysis ran (the moderator typed the true offset right
        # after opening, or applied one): measured at the old one, it is measured again
        # (session 16: Private Eye opened at 0, set to 0.9 s during its first analysis, kept
        # the lane of offset 0, 1 reaction of 22 shown instead of 17)
        if isinstance(a, SyncAnalysis) and a.suggested_offset_s is None and \
                self.session.offset_s != self.started_at:
            self.again.start()

    def start(self) -> None:
        result = self.session.result
        if result is None or result.video_path is None:
            self.op.drop()
            self._show(None)
            return
        offset = self.started_at = self.session.offset_s
        self._show("analysing the video's reactions…")

        def work(progress, cancel):
            from moderator_app.core.sync import run

            return run.analyze_result(result, offset_s=offset, cancel=cancel)

        self.op.run(work, self._show, on_failed=lambda msg: self._show(f"not run: {msg}"))
