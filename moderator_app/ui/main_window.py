"""The workstation's main window: it wires the views to one `ReviewSession`.

Layout: video top left, event table and detail on the right, timeline and plots across the
bottom; findings, sync/retime and decision as docks. Sizes and layout persist in QSettings.

Sync contract: run time (seconds since run_start) = video time - offset. Every navigation goes
through `select_event` or the player's `position_changed`, so the timeline, the table, the detail
pane and the video cannot disagree.
"""

from __future__ import annotations

import math
import shutil
import tempfile
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, Qt, QThread, QThreadPool, QTimer
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QDockWidget,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMainWindow,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from moderator_app.core.rules import Finding
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import VerifyResult
from moderator_app.ui.event_detail import EventDetail
from moderator_app.ui.event_table import (
    ASYNC_SEARCH_BYTES,
    COL_KIND,
    EventTableModel,
    SearchJob,
    SearchSignals,
)
from moderator_app.ui.findings_panel import FindingsPanel
from moderator_app.ui.plots import PlotsWidget
from moderator_app.ui.retime import RetimePanel
from moderator_app.ui.run_summary import RunSummaryPanel
from moderator_app.ui.session import ReviewSession
from moderator_app.ui.shortcuts import SHORTCUTS
from moderator_app.ui.sync_controls import SyncControls
from moderator_app.ui.timefmt import parse_goto
from moderator_app.ui.timeline import Timeline
from moderator_app.ui.video_player import VideoPlayer
from moderator_app.ui.workers import VerifyWorker, start_in_thread

APP_TITLE = "Moderator Workstation"
SETTINGS_ORG = "moderator-app"
SETTINGS_APP = "moderator-app"
MAX_RECENT = 10


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def window_title(name: str) -> str:
    return f"{name} — {APP_TITLE}" if name else APP_TITLE


class MainWindow(QMainWindow):
    def __init__(self, settings: QSettings | None = None, store_path: Path | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings if settings is not None else QSettings(SETTINGS_ORG,
                                                                        SETTINGS_APP)
        self.session = ReviewSession(self)
        if store_path is not None:
            self.session.set_store_path(store_path)
        self.setWindowTitle(APP_TITLE)
        self.setAcceptDrops(True)
        self._spool_root = Path(tempfile.mkdtemp(prefix="moderator-spool-"))
        self._spool: Path | None = None
        self._worker: VerifyWorker | None = None
        self._thread: QThread | None = None
        self._selecting = False
        self._finding_times: list[float | None] = []
        self._build_widgets()
        self._build_docks()
        self._build_menus()
        self._connect()
        self._restore_layout()

    # -- construction ----------------------------------------------------------------------

    def _build_widgets(self) -> None:
        self.player = VideoPlayer()
        self.timeline = Timeline()
        self.plots = PlotsWidget()
        self.table_model = EventTableModel(self)
        self.table = QTableView()
        self.table.setObjectName("eventTable")
        self.table.setModel(self.table_model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        vh = self.table.verticalHeader()
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vh.setDefaultSectionSize(20)
        hh = self.table.horizontalHeader()
        hh.setStretchLastSection(True)
        for col, width in enumerate((56, 50, 96, 100, 110)):
            self.table.setColumnWidth(col, width)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search events (raw text)…")
        self.search.setClearButtonEnabled(True)
        self.lane_filter = QComboBox()
        self.lane_filter.addItem("All types", "")  # "": all (never None: see findings_panel)
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(250)
        self.detail = EventDetail()
        self._search_signals = SearchSignals(self)
        self._search_generation = 0

        table_box = QWidget()
        tl = QVBoxLayout(table_box)
        tl.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        bar.addWidget(self.search, 1)
        bar.addWidget(self.lane_filter)
        self.count_label = QLabel("")
        self.count_label.setTextFormat(Qt.TextFormat.PlainText)
        bar.addWidget(self.count_label)
        tl.addLayout(bar)
        tl.addWidget(self.table, 1)

        self.right_split = QSplitter(Qt.Orientation.Vertical)
        self.right_split.setObjectName("rightSplit")
        self.right_split.addWidget(table_box)
        self.right_split.addWidget(self.detail)
        self.right_split.setSizes([400, 300])
        self.top_split = QSplitter(Qt.Orientation.Horizontal)
        self.top_split.setObjectName("topSplit")
        self.top_split.addWidget(self.player)
        self.top_split.addWidget(self.right_split)
        self.top_split.setSizes([700, 500])
        bottom = QWidget()
        bl = QVBoxLayout(bottom)
        bl.setContentsMargins(0, 0, 0, 0)
        bl.setSpacing(0)
        bl.addWidget(self.timeline, 1)
        bl.addWidget(self.plots)
        self.main_split = QSplitter(Qt.Orientation.Vertical)
        self.main_split.setObjectName("mainSplit")
        self.main_split.addWidget(self.top_split)
        self.main_split.addWidget(bottom)
        self.main_split.setSizes([560, 260])
        self.setCentralWidget(self.main_split)

        sb = self.statusBar()
        self.status_label = QLabel("Open a submission: File > Open, or drop it here")
        self.status_label.setTextFormat(Qt.TextFormat.PlainText)
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(240)
        self.progress.setVisible(False)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setVisible(False)
        sb.addWidget(self.status_label, 1)
        sb.addPermanentWidget(self.progress)
        sb.addPermanentWidget(self.cancel_button)

    def _dock(self, title: str, name: str, widget: QWidget,
              area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _build_docks(self) -> None:
        self.findings = FindingsPanel()
        self.findings_dock = self._dock("Findings", "findingsDock", self.findings,
                                        Qt.DockWidgetArea.RightDockWidgetArea)
        self.sync = SyncControls(self.session, self.player.frame_duration,
                                 self._current_video_time)
        self.retime = RetimePanel(self.session, self._current_position, self._frame_of,
                                  self.player.frame_duration)
        sync_box = QWidget()
        sl = QVBoxLayout(sync_box)
        sl.addWidget(self.sync)
        sl.addWidget(self.retime)
        sl.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(sync_box)
        self.sync_dock = self._dock("Sync && retime", "syncDock", scroll,
                                    Qt.DockWidgetArea.RightDockWidgetArea)
        self.decision_panel = None
        self.decision_dock = None
        try:
            from moderator_app.ui.decision_panel import DecisionPanel

            self.decision_panel = DecisionPanel(self.session, None, settings=self.settings)
        except Exception as exc:  # noqa: BLE001 - the workstation works without it
            self.decision_panel = QLabel(f"Decision panel unavailable: {exc}")
            self.decision_panel.setTextFormat(Qt.TextFormat.PlainText)
        self.decision_dock = self._dock("Decision", "decisionDock", self.decision_panel,
                                        Qt.DockWidgetArea.RightDockWidgetArea)
        self.tabifyDockWidget(self.sync_dock, self.decision_dock)
        self.run_summary = RunSummaryPanel(self.session)
        self.run_dock = self._dock("Run", "runDock", self.run_summary,
                                   Qt.DockWidgetArea.RightDockWidgetArea)
        self.tabifyDockWidget(self.decision_dock, self.run_dock)
        self.sync_dock.raise_()
        self.resizeDocks([self.findings_dock, self.sync_dock], [330, 560],
                         Qt.Orientation.Vertical)
        self.resizeDocks([self.findings_dock], [460], Qt.Orientation.Horizontal)

    def _build_menus(self) -> None:
        self.actions: dict[str, QAction] = {}
        handlers = {
            "play_pause": self.player.toggle_play,
            "frame_back": lambda: self.player.step(-1),
            "frame_forward": lambda: self.player.step(1),
            "frames_back_n": lambda: self.player.step_n_frames(-1),
            "frames_forward_n": lambda: self.player.step_n_frames(1),
            "slower": self.player.slower,
            "pause": self.player.pause,
            "faster": self.player.faster,
            "back_1s": lambda: self.player.skip_seconds(-1),
            "forward_1s": lambda: self.player.skip_seconds(1),
            "back_5s": lambda: self.player.skip_seconds(-5),
            "forward_5s": lambda: self.player.skip_seconds(5),
            "goto": self.goto_dialog,
            "prev_event": lambda: self.move_event(-1),
            "next_event": lambda: self.move_event(1),
            "next_finding": lambda: self.move_finding(1),
            "prev_finding": lambda: self.move_finding(-1),
            "search": self._focus_search,
            "zoom_in": self.timeline.zoom_in,
            "zoom_out": self.timeline.zoom_out,
            "fit": self.timeline.fit,
            "offset_back": lambda: self.sync.nudge(-1),
            "offset_forward": lambda: self.sync.nudge(1),
            "run_start_here": self.sync.run_start_here,
            "retime_start": self.retime.mark_start,
            "retime_end": self.retime.mark_end,
            "open_file": self.open_file_dialog,
            "open_folder": self.open_folder_dialog,
            "quit": self.close,
            "help_shortcuts": self._help_shortcuts,
        }
        for sc in SHORTCUTS:
            if sc.owner != "window":
                continue
            act = QAction(sc.description, self)
            act.setObjectName(sc.action)
            act.setShortcuts([QKeySequence(k) for k in sc.sequences])
            act.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            act.triggered.connect(handlers[sc.action])
            self.addAction(act)
            self.actions[sc.action] = act

        mb = self.menuBar()
        file_menu = mb.addMenu("&File")
        file_menu.addAction(self.actions["open_file"])
        file_menu.addAction(self.actions["open_folder"])
        self.recent_menu = file_menu.addMenu("Open &recent")
        file_menu.addSeparator()
        file_menu.addAction(self.actions["quit"])
        self._rebuild_recent()

        play = mb.addMenu("&Playback")
        for a in ("play_pause", "frame_back", "frame_forward", "frames_back_n",
                  "frames_forward_n", "slower", "pause", "faster", "back_1s", "forward_1s",
                  "back_5s", "forward_5s", "goto"):
            play.addAction(self.actions[a])
        nav = mb.addMenu("&Navigate")
        for a in ("prev_event", "next_event", "prev_finding", "next_finding", "search",
                  "offset_back", "offset_forward", "run_start_here", "retime_start",
                  "retime_end"):
            nav.addAction(self.actions[a])

        view = mb.addMenu("&View")
        for a in ("zoom_in", "zoom_out", "fit"):
            view.addAction(self.actions[a])
        view.addSeparator()
        for dock in (self.findings_dock, self.sync_dock, self.decision_dock, self.run_dock):
            view.addAction(dock.toggleViewAction())
        theme_menu = view.addMenu("&Theme")
        group = QActionGroup(self)
        current = str(self.settings.value("theme", "dark"))
        for name in ("dark", "light"):
            act = theme_menu.addAction(name.capitalize())
            act.setCheckable(True)
            act.setChecked(name == current)
            group.addAction(act)
            act.triggered.connect(lambda _c=False, n=name: self.set_theme(n))

        help_menu = mb.addMenu("&Help")
        help_menu.addAction(self.actions["help_shortcuts"])
        help_menu.addAction("Formats and rules", self._help_formats)
        help_menu.addAction("About", self._help_about)

    def _connect(self) -> None:
        self.player.position_changed.connect(self._on_position)
        self.timeline.seek_requested.connect(self._on_timeline_seek)
        self.timeline.event_clicked.connect(self.select_event)
        self.timeline.finding_clicked.connect(self.select_finding)
        self.timeline.view_changed.connect(self.plots.set_view)
        self.table.selectionModel().currentRowChanged.connect(self._on_table_row)
        self.findings.finding_activated.connect(self.select_finding)
        self.session.offset_changed.connect(self._on_offset)
        self.search.textChanged.connect(lambda _t: self._search_timer.start())
        self._search_timer.timeout.connect(self.apply_filter)
        self._search_signals.done.connect(self._on_search_done)
        self.lane_filter.currentIndexChanged.connect(lambda _i: self.apply_filter())
        self.cancel_button.clicked.connect(self.cancel_verification)
        self.player.timestamps_progress.connect(self._on_timestamps)

    # -- settings --------------------------------------------------------------------------

    def _restore_layout(self) -> None:
        geo = self.settings.value("window/geometry")
        if isinstance(geo, QByteArray) and not geo.isEmpty():
            self.restoreGeometry(geo)
        else:
            # First start: 1440x900, or the screen's free area when it is smaller.
            screen = self.screen() or QApplication.primaryScreen()
            avail = screen.availableGeometry() if screen is not None else None
            width, height = 1440, 900
            if avail is not None:
                width, height = min(width, avail.width()), min(height, avail.height())
            self.resize(width, height)
        state = self.settings.value("window/state")
        if isinstance(state, QByteArray) and not state.isEmpty():
            self.restoreState(state)
        for split in (self.main_split, self.top_split, self.right_split):
            s = self.settings.value(f"splitters/{split.objectName()}")
            if isinstance(s, QByteArray) and not s.isEmpty():
                split.restoreState(s)

    def save_layout(self) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        for split in (self.main_split, self.top_split, self.right_split):
            self.settings.setValue(f"splitters/{split.objectName()}", split.saveState())
        self.settings.sync()

    def recent(self) -> list[str]:
        value = self.settings.value("recent", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or [])]

    def _add_recent(self, path: Path) -> None:
        items = [str(path)] + [p for p in self.recent() if p != str(path)]
        self.settings.setValue("recent", items[:MAX_RECENT])
        self._rebuild_recent()

    def _rebuild_recent(self) -> None:
        self.recent_menu.clear()
        items = self.recent()
        if not items:
            a = self.recent_menu.addAction("(none)")
            a.setEnabled(False)
        for p in items:
            act = self.recent_menu.addAction(p)  # menu text is plain
            act.triggered.connect(lambda _c=False, p=p: self.open_paths([Path(p)]))

    def set_theme(self, name: str) -> None:
        self.settings.setValue("theme", name)
        try:
            from moderator_app.ui.theme import apply_theme

            apply_theme(QApplication.instance(), name)
        except Exception as exc:  # noqa: BLE001 - theming is cosmetic
            self.status_label.setText(f"theme not applied: {exc}")
        self.timeline.update()
        self.plots.update()

    # -- opening ---------------------------------------------------------------------------

    def open_file_dialog(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(
            self, "Open submission", "",
            "Submissions (*.jsonl *.zst *.zip *.tar *.tar.gz *.tgz *.tar.zst *.mp4 *.mkv "
            "*.webm *.mov *.avi);;All files (*)")
        if files:
            self.open_paths([Path(f) for f in files])

    def open_folder_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Open submission folder")
        if folder:
            self.open_paths([Path(folder)])

    def dragEnterEvent(self, event) -> None:  # noqa: N802 - Qt override
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802 - Qt override
        paths = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            self.open_paths(paths)

    def open_paths(self, paths: list[Path]) -> None:
        """Start verifying a submission in a worker; the window stays responsive."""
        paths = [Path(p) for p in paths]
        self.cancel_verification(wait=True)
        self._clear()
        # A new submission has its own sync: start from offset 0 and no retime marks.
        self.session.set_offset(0.0)
        self.session.set_retime_start(None)
        self.session.set_retime_end(None)
        self.session.set_paths(paths)
        name = paths[0].name if len(paths) == 1 else paths[0].parent.name or paths[0].name
        self.setWindowTitle(window_title(name))
        spool = self._spool = Path(tempfile.mkdtemp(dir=self._spool_root))
        options = VerifyOptions(offset=self.session.offset_s, build_index=True,
                                spool_dir=spool)
        self._worker = VerifyWorker(paths, options)
        self._worker.progress.connect(self._on_progress)
        self._worker.finished.connect(self._on_verified)
        self._worker.failed.connect(self._on_failed)
        self._worker.cancelled.connect(self._on_cancelled)
        self.progress.setRange(0, 0)
        self.progress.setVisible(True)
        self.cancel_button.setVisible(True)
        self.status_label.setText(f"Verifying {name}…")
        self._thread = start_in_thread(self._worker, self)
        if len(paths) == 1:
            self._add_recent(paths[0])

    def cancel_verification(self, wait: bool = False) -> None:
        if self._worker is not None:
            self._worker.cancel()
        if wait and self._thread is not None:
            self._thread.quit()
            self._thread.wait(10000)

    def is_verifying(self) -> bool:
        return self._thread is not None and self._thread.isRunning()

    def _end_progress(self) -> None:
        self.progress.setVisible(False)
        self.cancel_button.setVisible(False)

    def _stale(self) -> bool:
        """True for a signal from a worker that was cancelled for a newer submission (queued
        signals may arrive after the switch)."""
        sender = self.sender()
        return sender is not None and sender is not self._worker

    def _on_progress(self, done: int, total: int) -> None:
        if self._stale():
            return
        if total > 0:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(1000 * min(done, total) / total))
        else:
            self.progress.setRange(0, 0)

    def _on_failed(self, message: str) -> None:
        if self._stale():
            return
        self._end_progress()
        self.status_label.setText(f"Cannot open: {message}")
        self.findings.summary.setText(f"Cannot open this submission: {message}")

    def _on_cancelled(self) -> None:
        if self._stale():
            return
        self._end_progress()
        self.status_label.setText("Verification cancelled")

    def _clear(self) -> None:
        old = self.session.result
        if old is not None and old.index is not None:
            old.index.close()
        self.player.unload()
        self.table_model.set_index(None)
        self.timeline.set_index(None)
        self.timeline.set_findings([])
        self.timeline.set_coverage(None, None, self.session.offset_s)
        self.plots.set_index(None)
        self.detail.clear()
        self.findings.set_report(None)
        self.session.set_result(None)
        if self._spool is not None:  # decompressed copies of the previous submission
            shutil.rmtree(self._spool, ignore_errors=True)
            self._spool = None

    def _on_verified(self, result: VerifyResult) -> None:
        if self._stale():
            if result.index is not None:
                result.index.close()
            return
        self._end_progress()
        self.apply_result(result)

    def apply_result(self, result: VerifyResult) -> None:
        """Show a verification result in every view (also used directly by tests)."""
        report = result.report
        self.setWindowTitle(window_title(result.submission.display_name))
        index = result.index
        official = report.kind == "official"
        self.table_model.set_index(index, "Producer" if official else "Type")
        # Community lanes are the event types: a second "Type" column would repeat them.
        self.table.setColumnHidden(COL_KIND, not official)
        self.lane_filter.blockSignals(True)
        self.lane_filter.clear()
        self.lane_filter.addItem("All producers" if official else "All types", "")
        if index is not None:
            for name in index.lane_names:
                self.lane_filter.addItem(name, name)
        self.lane_filter.blockSignals(False)
        self.timeline.set_index(index)
        self.plots.set_index(index)
        findings = report.findings.sorted()
        self._finding_times = [self._time_of_finding(f, result) for f in findings]
        self.findings.set_report(report, findings)
        self.timeline.set_findings([(t, f.severity.value)
                                    for t, f in zip(self._finding_times, findings, strict=True)])
        self.session.set_result(result)
        if result.video_path is not None:
            self.player.load(result.video_path)
        self._update_coverage()
        self.timeline.fit()
        self.plots.set_view(self.timeline.v0, self.timeline.v1)
        self.timeline.set_playhead(self.player.current_time - self.session.offset_s)
        self._update_count()
        if index is not None and len(index):
            self.select_event(0)
        n = 0 if index is None else len(index)
        self.status_label.setText(
            f"{report.verdict.upper()} · {n:,} events · {report.findings.errors} errors, "
            f"{report.findings.warnings} warnings"
            + ("" if result.video_path else " · no playable video"))

    @staticmethod
    def _time_of_finding(f: Finding, result: VerifyResult) -> float | None:
        idx = result.index
        if f.line is None or idx is None or not len(idx):
            return None
        row = idx.row_for_line(f.line)
        if row is None:
            return None
        t = idx.times[row]
        if math.isnan(t):  # a line without a time: the nearest earlier timed event
            for r in range(row - 1, max(-1, row - 200), -1):
                if not math.isnan(idx.times[r]):
                    return idx.times[r]
            return None
        return t

    # -- navigation ------------------------------------------------------------------------

    def _current_video_time(self) -> float | None:
        return self.player.current_time if self.player.has_video else None

    def _current_position(self) -> tuple[int, float] | None:
        if not self.player.has_video:
            return None
        return self.player.current_frame, self.player.current_time

    def _frame_of(self, t: float) -> int | None:
        times = self.player.times
        return None if times is None else times.frame_at(t)

    def video_duration(self) -> float | None:
        result = self.session.result
        video = result.report.video if result is not None else None
        if self.player.times is not None and self.player.times.complete:
            return self.player.times.duration
        if isinstance(video, dict):
            for key in ("duration_s", "duration"):
                v = video.get(key)
                if isinstance(v, (int, float)):
                    return float(v)
        return self.player.duration

    def _update_coverage(self) -> None:
        result = self.session.result
        run = result.run_duration_s if result is not None else None
        vid = self.video_duration() if self.player.has_video else None
        self.sync.set_durations(run, vid)
        self.timeline.set_coverage(run, vid, self.session.offset_s)

    def _on_timestamps(self, _count: int, complete: int) -> None:
        if complete:
            self._update_coverage()

    def _on_offset(self, offset: float) -> None:
        self._update_coverage()
        self.timeline.set_playhead(self.player.current_time - offset)
        self.plots.set_playhead(self.player.current_time - offset)

    def _on_position(self, _frame: int, video_t: float) -> None:
        run_t = video_t - self.session.offset_s
        self.timeline.set_playhead(run_t)
        self.plots.set_playhead(run_t)
        if self.player.playing:
            self.timeline.ensure_visible(run_t)

    def _on_timeline_seek(self, run_t: float) -> None:
        if self.player.has_video:
            self.player.seek_time(run_t + self.session.offset_s)
        else:
            self.timeline.set_playhead(run_t)

    def select_event(self, row: int) -> None:
        """Show index row `row` everywhere: table, detail, timeline, and the video frame at its
        time (event time + offset)."""
        result = self.session.result
        if result is None or result.index is None or not (0 <= row < len(result.index)):
            return
        index = result.index
        if self._selecting:
            return
        self._selecting = True
        try:
            prow = self.table_model.proxy_row(row)
            if prow is not None:
                mi = self.table_model.index(prow, 0)
                self.table.selectionModel().setCurrentIndex(
                    mi, self.table.selectionModel().SelectionFlag.ClearAndSelect
                    | self.table.selectionModel().SelectionFlag.Rows)
                self.table.scrollTo(mi)
            self.detail.show_event(index, row)
            t = index.times[row]
            if not math.isnan(t):
                self.timeline.ensure_visible(t)
                if self.player.has_video:
                    self.player.pause()
                    self.player.seek_time(t + self.session.offset_s)
                else:
                    self.timeline.set_playhead(t)
        finally:
            self._selecting = False

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

    def select_finding(self, i: int) -> None:
        findings = self.findings.findings
        if not (0 <= i < len(findings)):
            return
        self.findings.select(i)
        f = findings[i]
        result = self.session.result
        if f.line is not None and result is not None and result.index is not None:
            row = result.index.row_for_line(f.line)
            if row is not None:
                self.select_event(row)

    def move_finding(self, step: int) -> None:
        n = len(self.findings.findings)
        if n == 0:
            return
        cur = self.findings.current()
        i = (0 if step > 0 else n - 1) if cur is None else (cur + step) % n
        self.select_finding(i)

    def goto_dialog(self) -> None:
        if not self.player.has_video:
            return
        text, ok = QInputDialog.getText(self, "Go to",
                                        "Time (hh:mm:ss.mmm, mm:ss, 12.5s) or frame number:")
        if ok:
            self.goto(text)

    def goto(self, text: str) -> bool:
        parsed = parse_goto(text)
        if parsed is None:
            self.status_label.setText(f"Cannot read {text!r} as a time or a frame number")
            return False
        kind, value = parsed
        if kind == "frame":
            self.player.seek_frame(int(value))
        else:
            self.player.seek_time(value)
        return True

    # -- filtering -------------------------------------------------------------------------

    def _focus_search(self) -> None:
        self.search.setFocus()
        self.search.selectAll()

    def apply_filter(self) -> None:
        """Type/producer filter at once; text search at once for small logs, in the thread
        pool for large ones (the newest search wins; older results are dropped)."""
        lane = self.lane_filter.currentData() or None
        text = self.search.text()
        index = self.table_model.index_
        self._search_generation += 1
        if text and index is not None and index.source is not None and \
                _size(index.source) > ASYNC_SEARCH_BYTES:
            self.count_label.setText("searching…")
            QThreadPool.globalInstance().start(
                SearchJob(index, text, self._search_generation, self._search_signals))
            return
        self.table_model.set_filter(lanes=None if lane is None else {lane}, text=text)
        self._update_count()

    def _on_search_done(self, generation: int, rows) -> None:
        if generation != self._search_generation or self.table_model.index_ is None:
            return
        lane = self.lane_filter.currentData() or None
        self.table_model.set_filter(lanes=None if lane is None else {lane},
                                    text=self.search.text(), text_rows=rows)
        self._update_count()

    def _update_count(self) -> None:
        total = 0 if self.table_model.index_ is None else len(self.table_model.index_)
        shown = self.table_model.rowCount()
        self.count_label.setText(f"{shown:,} / {total:,}" if shown != total else f"{total:,}")

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

    # -- closing ---------------------------------------------------------------------------

    def shutdown(self) -> None:
        """Stop workers and threads, close files, remove the spool (idempotent)."""
        self.cancel_verification(wait=True)
        self.player.unload()
        result = self.session.result
        if result is not None and result.index is not None:
            result.index.close()
        shutil.rmtree(self._spool_root, ignore_errors=True)

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt override
        self.save_layout()
        self.shutdown()
        super().closeEvent(event)
