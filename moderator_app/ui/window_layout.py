"""How the main window is laid out: which widget goes where, and their sizes.

Kept apart from `main_window` (which wires behaviour) so that a layout change is one file. The
functions set the widgets as attributes of the window, which the rest of the window uses.
Sizes: the video gets the extra width (a 1280x720 source should not be shown at 512x288), no
splitter child can be collapsed to nothing, and the findings list keeps room for several rows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDockWidget,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from moderator_app.ui.activity_lane import ActivityLane
from moderator_app.ui.decision_panel import DecisionPanel
from moderator_app.ui.event_detail import EventDetail
from moderator_app.ui.event_table import EventTableModel
from moderator_app.ui.findings_panel import FindingsPanel
from moderator_app.ui.plots import PlotsWidget
from moderator_app.ui.retime import RetimePanel
from moderator_app.ui.run_summary import RunSummaryPanel
from moderator_app.ui.sync_controls import SyncControls
from moderator_app.ui.sync_lane import AutoSyncBox, SyncLane
from moderator_app.ui.timeline import Timeline
from moderator_app.ui.video_player import VideoPlayer

if TYPE_CHECKING:
    from moderator_app.ui.main_window import MainWindow


def build_views(self: MainWindow) -> None:
    """The central area: video, event table and detail, timeline and plots, status bar."""
    self.player = VideoPlayer()
    self.timeline = Timeline()
    self.plots = PlotsWidget()
    self.activity = ActivityLane(self.timeline)  # the integrity scan's lanes (video helper)
    self.sync_lane = SyncLane(self.timeline)  # reactions and offset track (sync helper)
    self.table_model = EventTableModel(self)
    self.table = QTableView()
    self.table.setObjectName("eventTable")
    self.table.setModel(self.table_model)
    self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    self.table.setWordWrap(False)
    self.table.verticalHeader().setVisible(False)
    # No frame: its 2 px go to the Content column (the splitter handles draw the edges).
    self.table.setFrameShape(QFrame.Shape.NoFrame)
    vh = self.table.verticalHeader()
    vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    vh.setDefaultSectionSize(20)
    hh = self.table.horizontalHeader()
    hh.setStretchLastSection(True)
    bold = QFont(self.table.font())
    bold.setBold(True)  # the current event's row is bold: its numbers must still fit
    for col, width in enumerate(self.table_model.column_widths(QFontMetrics(bold))):
        self.table.setColumnWidth(col, width)
    self.search = QLineEdit()
    self.search.setObjectName("eventSearch")
    self.search.setPlaceholderText("Search events (raw text)…")
    self.search.setClearButtonEnabled(True)
    self.lane_filter = QComboBox()
    self.lane_filter.addItem("All types", "")  # "": all (never None: see findings_panel)
    # As wide as "All producers" whatever the submission's lane names (they come from it):
    # sized at the first show, when only "All types" was there, it showed "All produ".
    self.lane_filter.setSizeAdjustPolicy(
        QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    self.lane_filter.setMinimumContentsLength(len("All producers"))
    self._search_timer = QTimer(self)
    self._search_timer.setSingleShot(True)
    self._search_timer.setInterval(250)
    self.detail = EventDetail()

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
    self.right_split.setChildrenCollapsible(False)
    self.top_split = QSplitter(Qt.Orientation.Horizontal)
    self.top_split.setObjectName("topSplit")
    self.top_split.addWidget(self.player)
    self.top_split.addWidget(self.right_split)
    self.top_split.setStretchFactor(0, 3)  # extra width goes to the video
    self.top_split.setStretchFactor(1, 2)
    self.top_split.setSizes([700, 460])
    self.top_split.setChildrenCollapsible(False)
    bottom = QWidget()
    bl = QVBoxLayout(bottom)
    bl.setContentsMargins(0, 0, 0, 0)
    bl.setSpacing(0)
    bl.addWidget(self.timeline, 1)
    bl.addWidget(self.activity)
    bl.addWidget(self.sync_lane)
    bl.addWidget(self.plots)
    self.main_split = QSplitter(Qt.Orientation.Vertical)
    self.main_split.setObjectName("mainSplit")
    self.main_split.addWidget(self.top_split)
    self.main_split.addWidget(bottom)
    self.main_split.setStretchFactor(0, 3)
    self.main_split.setStretchFactor(1, 1)
    self.main_split.setSizes([560, 240])
    self.main_split.setChildrenCollapsible(False)
    self.setCentralWidget(self.main_split)

    sb = self.statusBar()
    self.status_label = QLabel("Open a submission: File > Open, or drop it here")
    self.status_label.setTextFormat(Qt.TextFormat.PlainText)
    self.status_label.setObjectName("statusLabel")
    self.status_label.setSizePolicy(QSizePolicy.Policy.Ignored,
                                    QSizePolicy.Policy.Preferred)
    self.progress = QProgressBar()
    self.progress.setMaximumWidth(240)
    self.progress.setVisible(False)
    self.cancel_button = QPushButton("Cancel")
    self.cancel_button.setVisible(False)
    sb.addWidget(self.status_label, 1)
    sb.addPermanentWidget(self.progress)
    sb.addPermanentWidget(self.cancel_button)

def _dock(self: MainWindow, title: str, name: str, widget: QWidget,
      area: Qt.DockWidgetArea) -> QDockWidget:
    dock = QDockWidget(title, self)
    dock.setObjectName(name)
    dock.setWidget(widget)
    self.addDockWidget(area, dock)
    return dock

def build_docks(self: MainWindow) -> None:
    """Findings, sync & retime, decision and run summary as docks on the right."""
    self.findings = FindingsPanel()
    # The side-by-side lines of a finding naming another line: a pane of their own under the
    # event table (shown only then), where they have the table's width and 4+ lines.
    self.right_split.insertWidget(1, self.findings.compare)
    self.right_split.setCollapsible(1, False)
    self.findings_dock = _dock(self, "Findings", "findingsDock", self.findings,
                                    Qt.DockWidgetArea.RightDockWidgetArea)
    self.sync = SyncControls(self.session, self.player.frame_duration,
                             self._current_video_time)
    self.retime = RetimePanel(self.session, self._current_position, self._frame_of,
                              self.player.frame_duration)
    sync_box = QWidget()
    sl = QVBoxLayout(sync_box)
    sl.addWidget(self.sync)
    self.auto_sync = AutoSyncBox(self.session)
    sl.addWidget(self.auto_sync)
    sl.addWidget(self.retime)
    sl.addStretch(1)
    scroll = QScrollArea()
    scroll.setWidgetResizable(True)
    scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # text wraps
    scroll.setWidget(sync_box)
    # "Sync" (its panel has the retime marks too): with the queue's tab, four titles must
    # fit the 288 px docks at 1280x720 (see queue_panel.show_queue).
    self.sync_dock = _dock(self, "Sync", "syncDock", scroll,
                                Qt.DockWidgetArea.RightDockWidgetArea)
    self.decision_panel = DecisionPanel(self.session, None, settings=self.settings)
    self.decision_scroll = decision_scroll = QScrollArea()
    decision_scroll.setWidgetResizable(True)
    decision_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    decision_scroll.setWidget(self.decision_panel)
    # The verdict to record and Accept / Reject pinned under the scroll area, always in view
    # however long the walkthrough above them (at 1280x720 they were 370 px below an
    # official run's fold).
    row = self.decision_panel.footer
    self.decision_panel.layout().removeWidget(row)
    decision_box = QWidget()
    decision_box.setObjectName("decisionBox")
    dl = QVBoxLayout(decision_box)
    dl.setContentsMargins(0, 0, 0, 0)
    dl.setSpacing(2)
    dl.addWidget(decision_scroll, 1)
    row.layout().setContentsMargins(9, 0, 9, 4)
    dl.addWidget(row)
    self.decision_dock = _dock(self, "Decision", "decisionDock", decision_box,
                                    Qt.DockWidgetArea.RightDockWidgetArea)
    self.tabifyDockWidget(self.sync_dock, self.decision_dock)
    self.run_summary = RunSummaryPanel(self.session)
    self.run_dock = _dock(self, "Run", "runDock", self.run_summary,
                               Qt.DockWidgetArea.RightDockWidgetArea)
    self.tabifyDockWidget(self.decision_dock, self.run_dock)
    self.sync_dock.raise_()
    self.resizeDocks([self.findings_dock, self.sync_dock], [360, 420],
                     Qt.Orientation.Vertical)
    self.resizeDocks([self.findings_dock], [460], Qt.Orientation.Horizontal)
