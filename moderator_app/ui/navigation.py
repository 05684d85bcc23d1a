"""THE sync and navigation contract: the only place where the timeline, the event table, the
detail pane, the plots and the player learn the playhead, the offset and the selection.

Run time (seconds since `run_start`) = video time - offset. Every move comes in through one of
four doors, and each door updates every view:

- the player moved (`position_changed`: play, step, seek): playhead everywhere; the current
  event of each lane is highlighted and the table and the detail pane follow (paused too,
  unless the move came from choosing a row or a finding);
- an event was chosen (table row, timeline marker, Left/Right): `select_event`;
- a finding was chosen (findings list, timeline marker, N/Shift+N): `select_finding`, which
  goes to the finding's moment (`core.verify.moments`), line or not;
- the offset or the report changed (`ReviewSession`): coverage, finding markers and playhead.

Nothing else in the window calls `set_playhead`, `seek_time` or selects a table row.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QItemSelectionModel, QObject, QTimer, Signal
from PySide6.QtWidgets import QTableView

from moderator_app.core.rules import Finding
from moderator_app.core.verify.moments import (
    finding_moments,
    finding_span,
    row_time,
    time_order,
)
from moderator_app.ui.event_detail import EventDetail
from moderator_app.ui.event_table import EventTableModel
from moderator_app.ui.findings_panel import FindingsPanel
from moderator_app.ui.plots import PlotsWidget
from moderator_app.ui.session import ReviewSession
from moderator_app.ui.timeline import Timeline


class Navigator(QObject):
    """Keeps the views of one window in step. `pinned` stops the detail pane from following
    the playhead (the moderator reads one event while the video plays on)."""

    moved = Signal(float)  # run time of the playhead, after every view has been updated

    def __init__(self, session: ReviewSession, player, timeline: Timeline,
                 plots: PlotsWidget, table: QTableView, table_model: EventTableModel,
                 detail: EventDetail, findings: FindingsPanel,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session, self.player, self.timeline, self.plots = session, player, timeline, plots
        self.table, self.table_model, self.detail, self.findings = (
            table, table_model, detail, findings)
        self.pinned = False
        self._selecting = False
        self._finding_times: list[float | None] = []
        # Findings of the background analyses (integrity scan, auto-sync) by source, each with
        # its times: listed and marked with the report's, never part of the report, so a
        # decision records exactly what `moderator-app decide` records.
        self._analysis: dict[str, list[Finding]] = {}
        self._finding_spans: list[tuple[float, float] | None] = []  # run time, per finding
        self._order = np.zeros(0, dtype=np.int64)  # index rows with a time, by time
        self._sorted_t = np.zeros(0, dtype=np.float64)
        self._following_row: int | None = None

        player.position_changed.connect(self._on_position)
        timeline.seek_requested.connect(self.seek_run_time)
        timeline.scrub_changed.connect(player.set_scrubbing)
        self._scrubbing = False
        timeline.scrub_changed.connect(self._set_scrubbing)  # after the player's: see there
        timeline.event_clicked.connect(self.select_event)
        timeline.finding_clicked.connect(self.select_finding)
        timeline.view_changed.connect(plots.set_view)
        table.selectionModel().currentRowChanged.connect(self._on_table_row)
        findings.finding_activated.connect(self.select_finding)
        session.offset_changed.connect(self._on_offset)
        session.report_changed.connect(self.show_report)
        session.changed.connect(self._show_retime)

    # -- state from the session ------------------------------------------------------------

    @property
    def offset(self) -> float:
        return self.session.offset_s

    @property
    def index(self):
        result = self.session.result
        return None if result is None else result.index

    def run_time(self) -> float:
        """The playhead in run time."""
        return self.player.current_time - self.offset

    def set_analysis_findings(self, source: str, findings: list[Finding]) -> None:
        """The findings of one background analysis (`source`: "scan", "sync"); they replace
        that source's earlier ones. Each is placed by its own times, as the report's are
        (`core.verify.moments`): a frozen or black stretch of the file by its video time,
        there at any offset; the sync analysis' actions that found no reaction by their run
        time, those actions at any offset (placed by video time measured at the suggested
        offset, they were listed at -00:00:03.109 at offset 9.5, before the run started,
        session 9)."""
        self._analysis[source] = list(findings)
        self.show_report()

    def reset(self) -> None:
        """A new (or no) submission: forget the time order and the finding moments."""
        self._analysis = {}
        index = self.index
        if index is not None and len(index):
            times = np.frombuffer(index.times, dtype=np.float64)
            rows = np.nonzero(~np.isnan(times))[0]
            order = np.argsort(times[rows], kind="stable")
            self._order = rows[order].astype(np.int64)
            self._sorted_t = times[self._order]
        else:
            self._order = np.zeros(0, dtype=np.int64)
            self._sorted_t = np.zeros(0, dtype=np.float64)
        self._following_row = None
        self.show_report()

    def show_report(self) -> None:
        """The report at the current offset: findings list, finding markers, marked rows."""
        report = self.session.report
        result = self.session.result
        if report is None or result is None:
            self._finding_times = []
            self.findings.set_report(None)
            self.timeline.set_findings([])
            self.table_model.set_marked_rows({})
            return
        findings = report.findings.sorted()
        current = self.findings.current()
        keep = self.findings.findings[current] if current is not None else None
        extra = [f for source in sorted(self._analysis) for f in self._analysis[source]]
        ours = len(findings)
        findings = findings + extra
        # The report's findings and the background ones alike, by their own times: a
        # footage gap at its gap, a scan span at its start, a sync finding at its actions;
        # listed in that order, so N steps forward in time (`time_order`)
        moments = finding_moments(findings, result.index, self.offset)
        order = time_order(moments)
        findings = [findings[i] for i in order]
        moments = [moments[i] for i in order]
        outside = [i >= ours for i in order]
        self._finding_times = [m.run_s if m is not None else None for m in moments]
        self._finding_spans = [finding_span(f, self.offset) for f in findings]
        self.findings.set_report(report, findings, moments, outside=outside)
        self.timeline.set_findings([(t, f.severity.value)
                                    for t, f in zip(self._finding_times, findings, strict=True)])
        marked: dict[int, str] = {}
        rank = {"error": 2, "warning": 1, "info": 0}
        index = result.index
        if index is not None and len(index):
            for f in findings:
                if f.line is None:
                    continue
                row = index.row_for_line(f.line)
                if row is not None and index.lines[row] == f.line:
                    old = marked.get(row)
                    if old is None or rank[f.severity.value] > rank[old]:
                        marked[row] = f.severity.value
        self.table_model.set_marked_rows(marked)
        self.timeline.set_span(None)
        if keep is not None and keep in findings:  # the same finding stays selected
            self.findings.select(findings.index(keep))
            self.timeline.set_span(self.finding_span(findings.index(keep)))
        self._update_coverage()

    # -- the doors -------------------------------------------------------------------------

    def _on_position(self, _frame: int, video_t: float) -> None:
        run_t = video_t - self.offset
        self.timeline.set_playhead(run_t)
        self.plots.set_playhead(run_t)
        shown = self._shown_until(run_t)
        self._highlight(shown)
        # The playhead stays on the timeline after any move (0-9, Home/End, steps), not
        # only while playing: a jump to 70 % left it off the view.
        self.timeline.ensure_visible(run_t)
        if self.player.playing:
            self._follow(shown)
        elif not (self._selecting or self._scrubbing):
            # A move the moderator made on the video's clock while paused (0-9, Home/End,
            # a step, Shift/Ctrl+arrows, go to, a click or drag on the timeline or slider,
            # the pause itself): the table's current row and the detail follow as while
            # playing. They stayed on the row selected before (line 4 at 3.1 s in the
            # table and the detail while End showed 27.5 s, session 23's walk at 1280x720).
            # A move made by selecting a row or finding keeps that selection (`_selecting`);
            # a drag on the timeline is followed at its end (`_set_scrubbing`).
            self._show_row_at(shown)
        self.moved.emit(run_t)

    def _set_scrubbing(self, on: bool) -> None:
        """A drag on the timeline: the table and the detail wait for its end (5.5 ms of the
        GUI thread a move on a 19,480-event log, each mouse move; while playing they follow
        at 15 Hz). Connected after the player's own slot, so the release's exact-frame seek
        is made first; then they follow once, footage or not."""
        self._scrubbing = bool(on)
        if not on and self.index is not None:
            run_t = self.run_time() if self.player.has_video else self.timeline.playhead
            self._show_row_at(self._shown_until(run_t))

    def _shown_until(self, run_t: float) -> float:
        """The run time up to which the shown frame stands on screen: its start plus its
        duration (a hair less). The current event of a lane is the last one that happened
        by then: selecting an event 70 ms into a 100 ms frame showed that frame and, in bold,
        the lane's event before it (seen at 1280x720 on the bundled sample)."""
        if not (self.player.has_video and self.player.in_footage):
            return run_t
        return run_t + max(self.player.frame_duration() - 1e-6, 0.0)

    def _show_retime(self) -> None:
        """Retime marks are video times; the timeline shows them in run time."""
        s = self.session
        self.timeline.set_retime_marks(
            None if s.retime_start_s is None else s.retime_start_s - s.offset_s,
            None if s.retime_end_s is None else s.retime_end_s - s.offset_s)

    def _on_offset(self, _offset: float) -> None:
        """A new offset keeps the picture (the moderator lines the video up with the log by
        looking at it) and moves everything on the run's clock: the playhead, and the table's
        current row and the detail pane follow it as they do while playing. The table kept
        the row selected before (line 1 highlighted while the player showed a moment 8.1 s
        into the run at offset -8.1, session 11); before the first event no row is current."""
        run_t = self.run_time()
        self.timeline.ensure_visible(run_t)
        self.timeline.set_playhead(run_t)
        self.plots.set_playhead(run_t)
        shown = self._shown_until(run_t)
        self._highlight(shown)
        self._show_row_at(shown)
        self.moved.emit(run_t)

    def seek_run_time(self, run_t: float) -> None:
        """Move the playhead to run time `run_t` (the video to run_t + offset)."""
        if self.player.has_video:
            self.player.seek_time(run_t + self.offset)
        else:  # no video: the playhead still moves, and the views follow it
            self.timeline.set_playhead(run_t)
            self.plots.set_playhead(run_t)
            self._highlight(run_t)
            if not (self._selecting or self._scrubbing):
                self._show_row_at(run_t)
            self.moved.emit(run_t)

    def select_event(self, row: int) -> None:
        """Show index row `row` everywhere: table, detail, timeline, and the video frame at its
        time (event time + offset)."""
        index = self.index
        if index is None or not (0 <= row < len(index)) or self._selecting:
            return
        self._selecting = True
        try:
            self._select_row(row)
            self.detail.show_event(index, row)
            t = row_time(index, row)  # an untimed line: where its finding is listed
            if t is not None:
                self.timeline.ensure_visible(t)
                if self.player.has_video:
                    self.player.pause()
                self.seek_run_time(t)
            self._warm_neighbours()
        finally:
            self._selecting = False

    def _warm_neighbours(self) -> None:
        """Tell the player where the moderator may go next: the events before and after the
        selected one in the table's order, then the findings on either side of the current
        one, nearest first (a moderator walks the findings list), or the first findings when
        none is current. Their frames are decoded while it is idle, up to 8 of them (issue 11
        point 8)."""
        index = self.index
        if not self.player.has_video or index is None:
            return
        times: list[float] = []
        cur = self.table.currentIndex()
        rows = self.table_model.rowCount()
        for prow in ((cur.row() + 1, cur.row() - 1) if cur.isValid() else ()):
            if 0 <= prow < rows:
                times.append(index.times[self.table_model.source_row(prow)])
        i = self.findings.current()
        # no current finding (just opened): the first findings, where a review starts
        for j in ((i + 1, i - 1, i + 2, i - 2, i + 3, i - 3) if i is not None else range(6)):
            t = self._finding_run_time(j)
            if t is not None:
                times.append(t)
        self.player.prefetch_times([t + self.offset for t in times if not math.isnan(t)])

    def _finding_run_time(self, i: int) -> float | None:
        """The run time finding `i` leads to: its line's event, else its moment."""
        findings = self.findings.findings
        if not 0 <= i < len(findings):
            return None
        index = self.index
        line = findings[i].line
        if line is not None and index is not None and len(index):
            row = index.row_for_line(line)
            if row is not None:
                t = row_time(index, row)
                if t is not None:
                    return float(t)
        return self.finding_time(i)

    def _on_table_row(self, current, _previous) -> None:
        if current.isValid() and not self._selecting:
            self.select_event(self.table_model.source_row(current.row()))

    def move_event(self, step: int) -> None:
        model = self.table_model
        if model.rowCount() == 0:
            return
        cur = self.table.currentIndex()
        if cur.isValid():
            prow = min(max(cur.row() + step, 0), model.rowCount() - 1)
        else:
            prow = 0 if step > 0 else model.rowCount() - 1
        self.select_event(model.source_row(prow))

    def finding_time(self, i: int) -> float | None:
        return self._finding_times[i] if 0 <= i < len(self._finding_times) else None

    def finding_span(self, i: int) -> tuple[float, float] | None:
        """The run-time span of finding `i` (a stretch of the video), or None."""
        return self._finding_spans[i] if 0 <= i < len(self._finding_spans) else None

    def select_finding(self, i: int) -> None:
        """Go to finding `i`: its line's event when it has one, else its moment (the first
        missing instant of coverage, the frame or span of a video finding)."""
        findings = self.findings.findings
        if not (0 <= i < len(findings)):
            return
        self.findings.select(i)
        self.timeline.set_span(self.finding_span(i))
        # The side-by-side pane may have appeared or gone under the table: once the splitter
        # has laid it out, the selected row is scrolled into the table's new height (it was
        # left below the fold at 1280x720 and 1920x1080).
        QTimer.singleShot(0, self.table, self._current_row_in_view)  # not after the table
        f = findings[i]
        index = self.index
        if f.line is not None and index is not None and len(index):
            row = index.row_for_line(f.line)
            if row is not None:
                self.select_event(row)
                return
        t = self.finding_time(i)
        if t is not None:
            self.timeline.ensure_visible(t)
            if self.player.has_video:
                self.player.pause()
            self.seek_run_time(t)
            # The table and the detail pane show what the run was doing then (they stayed on
            # the previously selected line: seen at 1280x720 after coverage.missing, and in
            # session 12 before run_start, after coverage.extra).
            self._show_row_at(t)
            self._warm_neighbours()

    def _current_row_in_view(self) -> None:
        current = self.table.currentIndex()
        if current.isValid():
            self.table.scrollTo(current)

    def move_finding(self, step: int) -> None:
        n = len(self.findings.findings)
        if n == 0:
            return
        cur = self.findings.current()
        i = (0 if step > 0 else n - 1) if cur is None else (cur + step) % n
        self.select_finding(i)

    def select_line(self, line: int) -> bool:
        """Go to the event on source line `line` (a message naming another line)."""
        index = self.index
        if index is None or not len(index):
            return False
        row = index.row_for_line(line)
        if row is None or index.lines[row] != line:
            return False
        self.select_event(row)
        return True

    # -- following the video ---------------------------------------------------------------

    def current_row_at(self, run_t: float) -> int | None:
        """The last event at or before run time `run_t` (any lane), or None before the first."""
        if not self._sorted_t.size:
            return None
        j = int(np.searchsorted(self._sorted_t, run_t + 1e-9, side="right")) - 1
        return int(self._order[j]) if j >= 0 else None

    def _highlight(self, run_t: float) -> None:
        rows = self.timeline.set_current_time(run_t)
        self.table_model.set_current_rows(rows)

    def _follow(self, run_t: float) -> None:
        row = self.current_row_at(run_t)
        if row is None or row == self._following_row:
            return
        self._following_row = row
        self._selecting = True
        try:
            self._select_row(row)
            if not self.pinned:
                self.detail.show_event(self.index, row)
        finally:
            self._selecting = False

    def _show_row_at(self, run_t: float) -> None:
        """The table's current row and the detail pane at run time `run_t`, whatever was
        selected before (an offset change, a finding's moment): the last event by then, or
        none before the first."""
        self._following_row = None  # the row selected before is no guide here
        if self.current_row_at(run_t) is None:
            self._clear_row()
        else:
            self._follow(run_t)

    def _clear_row(self) -> None:
        """No event has happened yet at the playhead: no current row, no event in the detail
        pane (unless pinned), and the table at its first event, the next to happen (it stayed
        scrolled at the row followed before, rows 918-927 of 1,000, session 12's walk)."""
        self._selecting = True
        try:
            self.table.selectionModel().clearSelection()
            self.table.selectionModel().setCurrentIndex(
                self.table_model.index(-1, -1), QItemSelectionModel.SelectionFlag.NoUpdate)
            first = self.table_model.proxy_row(int(self._order[0])) if self._order.size else None
            if first is not None:
                self.table.scrollTo(self.table_model.index(first, self._visible_column()))
            if not self.pinned:
                self.detail.clear()
        finally:
            self._selecting = False

    def _visible_column(self) -> int:
        # A visible column: QTableView.scrollTo does nothing for an index in a hidden one, and
        # column 0 (the event number) is hidden, so the table never scrolled to the row.
        return next((c for c in range(self.table_model.columnCount())
                     if not self.table.isColumnHidden(c)), 0)

    def _select_row(self, row: int) -> None:
        prow = self.table_model.proxy_row(row)
        if prow is None:
            return
        mi = self.table_model.index(prow, self._visible_column())
        sm = self.table.selectionModel()
        sm.setCurrentIndex(mi, QItemSelectionModel.SelectionFlag.ClearAndSelect
                           | QItemSelectionModel.SelectionFlag.Rows)
        self.table.scrollTo(mi)

    # -- coverage --------------------------------------------------------------------------

    def _update_coverage(self) -> None:
        result = self.session.result
        report = self.session.report
        run = result.run_duration_s if result is not None else None
        vid = self.session.video_duration_s if report is not None else None
        video = report.video if report is not None else None
        self.timeline.set_coverage(run, vid, self.offset,
                                   video.footage_gaps if video is not None else ())
