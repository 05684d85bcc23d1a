"""The workstation's main window: it builds the views and wires them to one `ReviewSession`.

Layout: video top left, event table and detail on the right, timeline and plots across the
bottom; findings, sync/retime, decision and run summary as docks. The window is cut by concern:

- `navigation.Navigator`: the sync contract (the only place the timeline, table, detail pane,
  plots and player learn the playhead, offset and selection);
- `actions`: menus and actions built from the one shortcut table (`shortcuts.py`);
- `opening.SubmissionOpener`: one submission's lifecycle (verify in the background, show the
  result in every view, clear the previous one and its spool);
- `background.BackgroundOp`: worker, thread, progress, cancel and "newest wins", for loading
  and for search;
- `window_state.WindowState`: geometry, layout, View > Reset layout, recent files;
- `window_layout`: which widget goes where (built by `build_views` / `build_docks`);
- `window_sizes`: how much of the window each part gets (default proportions, findings rows,
  the plots shown or not);
- `event_filter.EventFilter`: the table's type box and text search (large logs searched in
  the background, the newest search wins);
- `fullscreen.VideoFullScreen`: the video alone on the screen (`f`, Escape).

Hooks for other rooms: `next_submission_provider` (the review queue sets it: a callable that
returns the next submission's paths, or None) and `handlers()`, the map from action id to
callable, which an action added to `shortcuts.py` and `actions.MENUS` extends.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QThreadPool, QTimer
from PySide6.QtGui import QActionGroup, QGuiApplication
from PySide6.QtWidgets import (
    QApplication,
    QInputDialog,
    QMainWindow,
    QMenu,
    QWidget,
)

from moderator_app.core.sync.analysis import SyncAnalysis
from moderator_app.core.sync.run import sync_finding, wait_notes
from moderator_app.core.text import counted, safe_text
from moderator_app.core.verify.pipeline import VerifyResult
from moderator_app.core.video.scan import ScanResult
from moderator_app.ui.actions import build_actions, build_menus
from moderator_app.ui.event_filter import EventFilter
from moderator_app.ui.event_text import text_of_row
from moderator_app.ui.export import export_findings_dialog, finding_text
from moderator_app.ui.focus import (
    reactivate_after_dialogs,
    return_focus_on_click,
    return_focus_on_enter_escape,
)
from moderator_app.ui.fullscreen import VideoFullScreen
from moderator_app.ui.navigation import Navigator
from moderator_app.ui.opening import APP_TITLE, SubmissionOpener, close_result
from moderator_app.ui.queue_panel import open_queue_dialog
from moderator_app.ui.session import ReviewSession
from moderator_app.ui.store_setting import store_setting_dialog
from moderator_app.ui.table_columns import TableColumns
from moderator_app.ui.timefmt import parse_goto
from moderator_app.ui.video_player import save_frame_dialog
from moderator_app.ui.window_layout import build_docks, build_views
from moderator_app.ui.window_sizes import (
    apply_default_proportions,
    set_plots_shown,
    show_plots_as_chosen,
)
from moderator_app.ui.window_state import WindowState

MOMENT_MS = 8000  # how long a message about a moment stays (`show_moment`): read, then gone
SETTINGS_ORG = "moderator-app"
SETTINGS_APP = "moderator-app"

NextSubmission = Callable[[], "list[Path] | None"]


class MainWindow(QMainWindow):
    def __init__(self, settings: QSettings | None = None, store_path: Path | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings if settings is not None else QSettings(SETTINGS_ORG,
                                                                        SETTINGS_APP)
        self.session = ReviewSession(self)
        if store_path is not None:
            self.session.set_store_path(store_path)
        #: The review queue's hook: returns the next submission to open, or None.
        self.next_submission_provider: NextSubmission | None = None
        self.setWindowTitle(APP_TITLE)
        self.setAcceptDrops(True)
        self._proportioned = False  # default proportions applied once, at the first show
        self.opener = SubmissionOpener(self)
        build_views(self)
        build_docks(self)
        self.columns = TableColumns(self.table, self.settings, self.fit_columns)
        self.event_filter = EventFilter(self)
        self.fullscreen = VideoFullScreen(self)
        self.nav = Navigator(self.session, self.player, self.timeline, self.plots, self.table,
                             self.table_model, self.detail, self.findings, self)
        self._connect_activity_lane()
        self._connect_sync_lane()
        self.actions = build_actions(self, self.handlers())
        self.menus = build_menus(self, self.actions, {
            "recent": self._fill_recent_menu, "docks": self._fill_dock_toggles,
            "columns": self.columns.add_view_menu,
            "theme": self._fill_theme_menu, "help": self._fill_help_menu})
        self._connect()
        self.state = WindowState(self.settings, self,
                                 (self.main_split, self.top_split, self.right_split))
        self.state.remember_defaults()
        self.state.restore()

    # -- construction ----------------------------------------------------------------------

    def handlers(self) -> dict[str, Callable[[], object]]:
        """Action id -> what it does. Ids and keys live in `shortcuts.py`."""
        p = self.player
        return {
            "play_pause": p.toggle_play,
            "frame_back": lambda: p.step(-1),
            "frame_forward": lambda: p.step(1),
            "frames_back_n": lambda: p.step_n_frames(-1),
            "frames_forward_n": lambda: p.step_n_frames(1),
            "slower": p.slower,
            "pause": p.pause,
            "faster": p.faster,
            "back_1s": lambda: p.skip_seconds(-1),
            "forward_1s": lambda: p.skip_seconds(1),
            "back_5s": lambda: p.skip_seconds(-5),
            "forward_5s": lambda: p.skip_seconds(5),
            "jump_start": lambda: self.jump_fraction(0.0),
            "jump_end": lambda: self.jump_fraction(1.0),
            "jump_percent": self.jump_fraction,
            "goto": self.goto_dialog,
            "fullscreen_video": self.fullscreen.toggle,
            "mute": p.toggle_mute,
            "save_frame": lambda: save_frame_dialog(self, p),
            "prev_event": lambda: self.nav.move_event(-1),
            "next_event": lambda: self.nav.move_event(1),
            "next_finding": lambda: self.nav.move_finding(1),
            "prev_finding": lambda: self.nav.move_finding(-1),
            "search": self.event_filter.focus_search,
            "pin_detail": self.set_detail_pinned,
            "zoom_in": self.timeline.zoom_in,
            "zoom_out": self.timeline.zoom_out,
            "fit": self.timeline.fit,
            "offset_back": lambda: self.sync.nudge(-1),
            "offset_forward": lambda: self.sync.nudge(1),
            "run_start_here": self.sync.run_start_here,
            "retime_start": self.retime.mark_start,
            "retime_end": self.retime.mark_end,
            "retime_clear": self.retime.clear,
            "open_file": self.opener.file_dialog,
            "open_folder": self.opener.folder_dialog,
            "next_submission": self.open_next_submission,
            "open_queue": lambda: open_queue_dialog(self),
            "set_store": lambda: store_setting_dialog(self),
            "export_findings": lambda: export_findings_dialog(self),
            "copy_finding": self.copy_finding,
            "reset_layout": self.reset_layout,
            "show_plots": lambda shown: set_plots_shown(self, shown),
            "quit": self.close,
            "help_shortcuts": self._help_shortcuts,
        }

    def _connect_activity_lane(self) -> None:
        """The integrity scan's lane (ui/activity_lane.py) seeks; it follows the timeline's
        playhead on its own (ui/video_lane.py)."""
        lane, p = self.activity, self.player
        # the latest scan and sync answers (a ScanResult / SyncAnalysis, or a status): the
        # scan's list is worded with the sync's (`wait_notes`), whichever comes last
        self._scan: object = None
        self._sync: object = None
        lane.seek_requested.connect(self.nav.seek_run_time)
        p.loaded.connect(lambda: lane.set_scan(None))
        p.loaded.connect(lambda: setattr(self, "_scan", None))  # not a new run's
        p.scan_progress.connect(lane.set_progress)
        p.scan_ready.connect(lane.set_scan)
        p.scan_ready.connect(self._scan_findings)

    def _scan_findings(self, scan) -> None:
        """The integrity scan's spans join the findings list, each at its start, its span
        in the finding (a ScanResult; None or a reason text while there is none)."""

        self._scan = scan
        if not isinstance(scan, ScanResult):
            self.nav.set_analysis_findings("scan", [])
            return
        report = self.session.report
        video = report.video if report is not None else None
        file = None if video is None else video.file
        # a held picture the sync shows ending at the button the game waits for: a note
        # (core/sync/run.py `wait_note`, as `verify --sync` says it)
        self.nav.set_analysis_findings("scan", wait_notes(scan.findings(file), self._sync))

    def _sync_findings(self, analysis) -> None:
        """Auto-sync's findings join the findings list, worded as in `verify --sync` (a
        SyncAnalysis; None or a status text while there is none), each at its run time: the
        actions it is about, whatever the offset (the finding's run times)."""

        self._sync = analysis
        if isinstance(self._scan, ScanResult):
            self._scan_findings(self._scan)
        if not isinstance(analysis, SyncAnalysis):
            self.nav.set_analysis_findings("sync", [])
            return
        self.nav.set_analysis_findings("sync", [sync_finding(f, None)
                                                for f in analysis.findings])

    def _connect_sync_lane(self) -> None:
        """Auto-sync (ui/sync_lane.py): analysed per loaded submission, lanes seek."""
        from moderator_app.ui.sync_lane import SyncRunner

        self.sync_runner = SyncRunner(self.session, self.auto_sync, self.sync_lane, self)
        self.sync_runner.analysed.connect(self._sync_findings)
        self.sync_lane.seek_requested.connect(self.nav.seek_run_time)

    def _fill_recent_menu(self, menu: QMenu) -> None:
        self.recent_menu = menu.addMenu("Open &recent")
        self._rebuild_recent()

    def _fill_dock_toggles(self, menu: QMenu) -> None:
        for dock in (self.findings_dock, self.sync_dock, self.decision_dock, self.run_dock):
            menu.addAction(dock.toggleViewAction())

    def _fill_theme_menu(self, menu: QMenu) -> None:
        theme_menu = menu.addMenu("&Theme")
        group = QActionGroup(self)
        current = str(self.settings.value("theme", "dark"))
        for name in ("dark", "light"):
            act = theme_menu.addAction(name.capitalize())
            act.setCheckable(True)
            act.setChecked(name == current)
            group.addAction(act)
            act.triggered.connect(lambda _c=False, n=name: self.set_theme(n))

    def _fill_help_menu(self, menu: QMenu) -> None:
        menu.addAction("Formats and rules", self._help_formats)
        menu.addAction("About", self._help_about)

    def _connect(self) -> None:
        # A status message about a moment (nothing next, a copy, a time not read) gives the
        # status bar back after MOMENT_MS: `show_moment`
        self.status_moment = QTimer(self)
        self.status_moment.setSingleShot(True)
        self.status_moment.setInterval(MOMENT_MS)
        self.status_moment.timeout.connect(self.end_moment)
        self._moment_text: str | None = None
        self._before_moment = ""
        self.cancel_button.clicked.connect(self.cancel_verification)
        self.opener.loader.progress.connect(self.opener.on_progress)
        self.session.report_changed.connect(self._update_status)
        self.decision_panel.decided.connect(self._after_decision)
        self.decision_panel.running = self.busy
        self.decision_panel.outside_warnings = self.findings.analysis_warnings
        self.decision_panel.auto_sync = self.auto_sync.label.text
        self.decision_panel.next_requested.connect(self.open_next_submission)
        # A refusal ("Enter the reviewer name first.") is said under the form: in view.
        self.decision_panel.notice.connect(
            lambda: self.decision_scroll.ensureWidgetVisible(self.decision_panel.status))
        # The next submission's form from its top (its title and verdict): the scroll kept
        # the place the last decision's "Recorded #…" line had been scrolled to.
        self.decision_panel.fresh.connect(
            lambda: self.decision_scroll.verticalScrollBar().setValue(0))
        self.findings.line_requested.connect(self.nav.select_line)
        self.findings.copy_requested.connect(self.copy_finding)
        self.findings.read_line = self.line_text
        # Enter or Escape in a text box, a click on the video: the keys go back to the player.
        for box in (self.search, self.sync.spin):
            self.sync_return_focus(box)
        return_focus_on_click(self.player.view, self.focus_player)
        reactivate_after_dialogs(self)

    def sync_return_focus(self, box: QWidget) -> None:
        """After Enter or Escape in `box`, keyboard focus returns to the player, so that `.`
        and Space step and play again instead of typing into the box."""
        return_focus_on_enter_escape(box, self.focus_player)

    def focus_player(self) -> None:
        self.player.setFocus(Qt.FocusReason.OtherFocusReason)

    # -- settings --------------------------------------------------------------------------

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if not self._proportioned:
            self._proportioned = True
            if not self.state.restored:
                apply_default_proportions(self)
            show_plots_as_chosen(self)

    def save_layout(self) -> None:
        self.state.save()

    def reset_layout(self) -> None:
        self.state.reset()
        self.settings.remove("view/plots")
        show_plots_as_chosen(self)
        apply_default_proportions(self)
        self.columns.reset()
        self.findings_dock.show()
        self.sync_dock.show()
        self.decision_dock.show()
        self.run_dock.show()

    def fit_columns(self) -> None:
        """The event table's column widths for the open submission and the shown columns
        (on open and when a column is shown or hidden; never while reviewing otherwise)."""
        table = self.table
        room = (table.width() - 2 * table.frameWidth()
                - table.verticalScrollBar().sizeHint().width())
        shown = {c for c in range(self.table_model.columnCount()) if not table.isColumnHidden(c)}
        for col, width in self.table_model.fitted_widths(table.font(), room, shown).items():
            table.setColumnWidth(col, width)

    def recent(self) -> list[str]:
        return self.state.recent() if hasattr(self, "state") else []

    def _add_recent(self, path: Path) -> None:
        self.state.add_recent(path)
        self._rebuild_recent()

    def _rebuild_recent(self) -> None:
        self.recent_menu.clear()
        items = self.recent()
        if not items:
            a = self.recent_menu.addAction("(none)")
            a.setEnabled(False)
        for p in items:
            # plain text, but a path may hold ESC or U+202E, and `&` marks an accelerator
            act = self.recent_menu.addAction(safe_text(p).replace("&", "&&"))
            act.triggered.connect(lambda _c=False, p=p: self.open_paths([Path(p)]))

    def set_theme(self, name: str) -> None:
        self.settings.setValue("theme", name)
        from moderator_app.ui.theme import apply_theme

        apply_theme(QApplication.instance(), name)
        self.timeline.update()
        self.plots.update()

    def set_detail_pinned(self, pinned: bool) -> None:
        self.nav.pinned = bool(pinned)
        self.detail.set_pinned(bool(pinned))

    # -- opening ---------------------------------------------------------------------------

    def open_next_submission(self) -> bool:
        """Open what the review queue offers next (File > Next submission, and the button
        shown after a decision). False when there is no queue or it is empty."""
        provider = self.next_submission_provider
        paths = provider() if provider is not None else None
        if not paths:
            self.show_moment("No next submission"
                             + ("" if provider else " (no review queue open)"))
            return False
        self.open_paths(list(paths))
        return True

    def dragEnterEvent(self, event) -> None:  # noqa: N802 - Qt override
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802 - Qt override
        paths = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            self.open_paths(paths)

    def open_paths(self, paths: list[Path]) -> None:
        """Start verifying a submission in the background; the window stays responsive."""
        self.opener.open_paths(paths)

    def apply_result(self, result: VerifyResult) -> None:
        """Show a verification result in every view (also used directly by tests)."""
        self.opener.apply_result(result)

    def cancel_verification(self, wait: bool = False) -> None:
        self.opener.cancel(wait=wait)

    def is_verifying(self) -> bool:
        return self.opener.busy

    def show_moment(self, text: str) -> None:
        """Say what an action just did in the status bar, for MOMENT_MS; then the bar says
        again what it said before (the open report's line). Session 40's walk: "No next
        submission (no review queue open)" stayed in the status bar after a queue was opened,
        the moment it was about long past."""
        if self._moment_text is None:
            self._before_moment = self.status_label.text()
        self._moment_text = text
        self.status_label.setText(text)
        self.status_moment.start()

    def end_moment(self) -> None:
        """The moment's message gives way (its time is up, or what it said no longer holds:
        a queue was opened). Only if it is still the one shown: a message set since (a
        submission verifying, a decision recorded) stays."""
        self.status_moment.stop()
        if self._moment_text is not None and self.status_label.text() == self._moment_text:
            self.status_label.setText(self._before_moment)
            self._update_status()
        self._moment_text = None

    def _update_status(self) -> None:
        """The status bar says what the report at the current offset says."""
        report = self.session.report
        result = self.session.result
        if report is None or result is None:
            return
        # the events the verifier read, as the report says: not the index's rows (a run of
        # blank lines or an unreadable line has a row of its own, and is no event)
        self.status_label.setText(
            f"{report.verdict.upper()} · {counted(report.events, 'event')} · "
            f"{counted(report.findings.errors, 'error')}, "
            f"{counted(report.findings.warnings, 'warning')} · offset {report.offset:+.3f} s"
            + ("" if result.video_path else " · no playable video"))

    def _after_decision(self, _seq: int) -> None:
        # The next-submission button only where a review queue can answer it: after a
        # decision on a submission opened by hand it led to "No next submission (no review
        # queue open)" in the status bar and nothing else (session 40's walk).
        self.decision_panel.next_button.setVisible(self.next_submission_provider is not None)
        # What was recorded and the next-submission button, in view: at 1280x720 an official
        # run's walkthrough puts them below the Decision dock's fold (seen: nothing seemed to
        # happen after Accept but a line in the status bar).
        # Now and once the scroll area has taken the panel's new height (the button was just
        # shown and the status wrapped to more lines: the scroll range is not yet theirs).
        def in_view() -> None:
            self.decision_scroll.ensureWidgetVisible(self.decision_panel.next_button, 0, 8)
            self.decision_scroll.ensureWidgetVisible(self.decision_panel.status, 0, 8)

        in_view()
        QTimer.singleShot(0, in_view)
        saved = self.decision_panel.last_saved
        if saved is not None:
            r = saved.record
            self.status_label.setText(
                f"Recorded #{saved.seq}: {r.decision} ({r.reason}) · verdict "
                f"{r.summary.verdict} · offset {r.sync_offset_s:+.3f} s")

    # -- navigation (the contract lives in `self.nav`; these are the window's entry points)

    def select_event(self, row: int) -> None:
        self.nav.select_event(row)

    def select_finding(self, i: int) -> None:
        self.nav.select_finding(i)

    def move_event(self, step: int) -> None:
        self.nav.move_event(step)

    def move_finding(self, step: int) -> None:
        self.nav.move_finding(step)

    def _current_video_time(self) -> float | None:
        return self.player.current_time if self.player.has_video else None

    def _current_position(self) -> tuple[int, float] | None:
        if not self.player.has_video:
            return None
        return self.player.current_frame, self.player.current_time

    def _frame_of(self, t: float) -> int | None:
        times = self.player.times
        return None if times is None else times.frame_at(t)

    def jump_fraction(self, fraction: float) -> None:
        """Home / End / 0-9: the video at `fraction` of its length (the run when there is
        no video)."""
        fraction = min(max(float(fraction), 0.0), 1.0)
        if self.player.has_video and self.player.frame_count > 0:
            self.player.seek_frame(round(fraction * (self.player.frame_count - 1)))
            return
        lo, hi = self.timeline.data_span()
        self.nav.seek_run_time(lo + fraction * (hi - lo))

    def goto_dialog(self) -> None:
        if not self.player.has_video:
            return
        text, ok = QInputDialog.getText(self, "Go to",
                                        "Time (hh:mm:ss.mmm, mm:ss, 12.5s) or frame number:")
        if ok:
            self.goto(text)
        self.focus_player()

    def goto(self, text: str) -> bool:
        parsed = parse_goto(text)
        if parsed is None:
            self.show_moment(f"Cannot read {text!r} as a time or a frame number")
            return False
        kind, value = parsed
        if kind == "frame":
            self.player.seek_frame(int(value))
        else:
            self.player.seek_time(value)
        return True

    def line_text(self, line: int) -> str | None:
        """What the event on source line `line` says, in the table's words."""
        result = self.session.result
        index = result.index if result is not None else None
        if index is None or not len(index):
            return None
        row = index.row_for_line(line)
        if row is None or index.lines[row] != line:
            return None
        try:
            return f"{index.kind_of(row)}: " + text_of_row(index, row,
                                                           self.table_model.official)
        except (OSError, ValueError):
            return None

    def copy_finding(self) -> str | None:
        """Copy the selected finding as text, with its line and its time."""
        i = self.findings.current()
        report = self.session.report
        if i is None or report is None:
            return None
        text = finding_text(self.findings.findings[i], self.findings.moment(i))
        QGuiApplication.clipboard().setText(text)
        self.show_moment("Copied: " + text[:200])
        return text

    # -- help ------------------------------------------------------------------------------

    def _help_shortcuts(self) -> None:
        from moderator_app.ui import help as help_mod

        help_mod.show_shortcuts(self)

    def _help_formats(self) -> None:
        from moderator_app.ui import help as help_mod

        help_mod.show_formats(self)

    def _help_about(self) -> None:
        from moderator_app.ui import help as help_mod

        help_mod.show_about(self)

    def busy(self) -> tuple[str, ...]:
        """The background lanes still working: "verify", "scan", "sync" (running, or due again
        after an offset move), "search" (typed, or running), "queue" (listing), "frame" (a
        picture asked for, not yet shown); () when idle. A superseded run counts until its
        thread has handed its result over (`BackgroundOp.in_flight`). Why: each lane's end changes what the
        window shows (findings re-listed, a row re-selected, another frame), so whatever
        reads the screen (a test, a script) waits for () first (session 18, issue 11)."""
        runner, queue = self.sync_runner, getattr(self, "queue_panel", None)
        lanes = {"verify": self.opener.loader.in_flight > 0, "scan": self.player.scanning,
                 "sync": runner.op.in_flight > 0 or runner.again.isActive(),
                 "search": self.event_filter.searcher.in_flight > 0
                 or self._search_timer.isActive(),
                 "queue": queue is not None and queue.op.in_flight > 0,
                 "frame": self.player.frame_pending}
        return tuple(name for name, on in lanes.items() if on)

    # -- closing ---------------------------------------------------------------------------

    def shutdown(self) -> None:
        """Stop background work, close files, remove the spool (idempotent)."""
        self.opener.loader.cancel(wait=True)
        self.event_filter.searcher.cancel(wait=True)
        self.sync_runner.op.cancel(wait=True)
        if getattr(self, "queue_panel", None) is not None:  # its workers stop within 0.25 s
            self.queue_panel.op.cancel(wait=True)
        self.player.unload()
        close_result(self.session.result)
        QThreadPool.globalInstance().waitForDone(2000)
        self.opener.shutdown()

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt override
        self.save_layout()
        self.shutdown()
        super().closeEvent(event)

