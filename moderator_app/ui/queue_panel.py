"""The review queue in the workstation: File > Open queue, a dock listing every submission of
a folder with its verdict and decision state, and the next pending one after each decision.

The listing is `core.queue.listing.stream_queue` run off the GUI thread (`BackgroundOp`), so
verifying new submissions (in worker processes, over both cores) never blocks the window.
Every row appears at once (cached ones complete, the others "checking…"), and the verdicts
fill in as they are computed, the rows in view first, then the oldest (session 17: a queue of
10,000 showed nothing for more than 240 s). The table is sortable by any column and filtered by game,
category, verdict and state. Double-click (or Enter) opens a submission; `Ctrl+Shift+N` and
the decision panel's "Open the next submission" button open the oldest pending one after the
one on screen. Every string from a submission is shown as plain text (an item view's
display role is never rich text).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDockWidget,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from moderator_app.core.ledger.claims import DEFAULT_CLAIM_MINUTES, new_claim
from moderator_app.core.ledger.config import open_store
from moderator_app.core.ledger.errors import LedgerError
from moderator_app.core.queue import UNVERIFIED
from moderator_app.core.queue.listing import QueueItem, next_pending, stream_queue
from moderator_app.core.queue.workers import WorkOrder
from moderator_app.core.text import counted
from moderator_app.ui.background import BackgroundOp
from moderator_app.ui.queue_model import (  # noqa: F401 - COLUMNS, state_text: re-exported
    COLUMN_MIN_PX,
    COLUMNS,
    PATH_ROLE,
    SORT_ROLE,
    QueueModel,
    state_text,
)
from moderator_app.ui.tooltip import plain_tooltip

ALL = "All"
FILTERS = ("game", "category", "verdict", "state")
_COL = {attr: i for i, (_, attr) in enumerate(COLUMNS)}
UPDATE_EVERY_S = 0.1  # verdicts reach the GUI thread in batches, at most ten a second


class _Filter(QSortFilterProxyModel):
    """Rows whose filter columns equal the chosen values (None: any)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.wanted: dict[str, str | None] = dict.fromkeys(FILTERS)
        self.setSortRole(SORT_ROLE)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """The source model sorts (a key sort), this proxy only filters."""
        model = self.sourceModel()
        if isinstance(model, QueueModel):
            model.sort(column, order)

    def filterAcceptsRow(self, row: int, parent: QModelIndex) -> bool:  # noqa: N802 - Qt
        model = self.sourceModel()
        for attr, value in self.wanted.items():
            if value is None:
                continue
            cell = model.index(row, _COL[attr], parent).data(Qt.ItemDataRole.UserRole)
            if cell != value:
                return False
        return True


class QueuePanel(QWidget):
    """One queue folder. `open_requested(paths)` asks the window to open a submission."""

    open_requested = Signal(list)
    loaded = Signal()
    #: emitted on the listing's thread, delivered on the GUI thread: (generation, items) and
    #: (generation, [(position, item), ...])
    _rows_ready = Signal(int, object)
    _items_ready = Signal(int, object)

    def __init__(self, store: Callable[[], object], parent: QWidget | None = None,
                 reviewer: Callable[[], str] = lambda: "") -> None:
        super().__init__(parent)
        self._store = store
        self._reviewer = reviewer
        self.folder: Path | None = None
        self.items: list[QueueItem] = []
        self.current: str | None = None  # the submission opened from the queue last
        self.op = BackgroundOp("queue", self)
        self.order: WorkOrder | None = None  # the running listing's work order
        self._offered: dict[str, set[str]] = {a: set() for a in FILTERS}  # in the filters
        self._rows_ready.connect(self._on_rows)
        self._items_ready.connect(self._on_items)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.title = QLabel("No queue open")
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setWordWrap(True)
        layout.addWidget(self.title)
        top = QHBoxLayout()
        self.claim_button = QPushButton(f"Claim ({DEFAULT_CLAIM_MINUTES} min)")
        self.claim_button.setToolTip("Claim the selected submission: the other moderators see "
                                     "it claimed by you until the claim ends")
        self.claim_button.clicked.connect(lambda: self.claim_selected("claim"))
        top.addWidget(self.claim_button)
        self.release_button = QPushButton("Release")
        self.release_button.clicked.connect(lambda: self.claim_selected("release"))
        top.addWidget(self.release_button)
        self.refresh_button = QPushButton("Refresh")
        self.refresh_button.clicked.connect(self.reload)
        top.addWidget(self.refresh_button)
        # As narrow as their text: the style widens a button to 80 px at least, so the three
        # made the panel 294 px wide, 6 px over the docks' 288 at 1280x720 (on Xvfb), and the
        # event table's Content lost them when the queue tab was raised.
        for button in (self.claim_button, self.release_button, self.refresh_button):
            button.setMinimumWidth(button.fontMetrics().horizontalAdvance(button.text()) + 16)
        top.addStretch(1)
        layout.addLayout(top)
        # Two filters a row: the queue is a tab beside the Decision panel, as narrow as it.
        filters = QGridLayout()
        self.combos: dict[str, QComboBox] = {}
        for i, attr in enumerate(FILTERS):
            box = QComboBox()
            box.setObjectName(f"queue-filter-{attr}")
            box.addItem(f"{attr.capitalize()}: {ALL}", None)
            box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            box.setMinimumContentsLength(8)  # a long game name must not widen the dock
            box.currentIndexChanged.connect(self._apply_filters)
            filters.addWidget(box, i // 2, i % 2)
            self.combos[attr] = box
        layout.addLayout(filters)
        self.progress = QProgressBar()
        self.progress.setVisible(False)
        self.op.progress.connect(self._on_progress)
        layout.addWidget(self.progress)
        self.model = QueueModel(lambda: self.op.busy, self)
        self.proxy = _Filter(self)
        self.proxy.setSourceModel(self.model)
        self.view = QTableView()
        self.view.setObjectName("queue-table")
        self.view.setModel(self.proxy)
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(_COL["submitted_at"], Qt.SortOrder.AscendingOrder)  # oldest first
        self.view.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # names differ at their ends
        self.view.setWordWrap(False)  # one line a row: "accepted by" over a cut "mod" was read
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.verticalHeader().setVisible(False)
        # Columns fit the rows in view (the default, 1,000 rows, asked 80,000 cells for their
        # size over a queue of 10,000: 1.9 s at load 17)
        self.view.horizontalHeader().setResizeContentsPrecision(0)
        self.view.doubleClicked.connect(self._open_index)
        self.view.activated.connect(self._open_index)
        self.view.verticalScrollBar().valueChanged.connect(lambda _v: self._prefer_in_view())
        layout.addWidget(self.view, 1)
        self.status = QLabel("")
        self.status.setObjectName("queue-status")
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setWordWrap(True)
        # At most three lines, the whole message in the tooltip: a 14-line error ("Cannot
        # list the queue: RuntimeError: An attempt has been made…") made the panel taller
        # than its dock at 1280x720 and was drawn over the dock's tabs (seen on Xvfb).
        self.status.setMaximumHeight(3 * self.status.fontMetrics().lineSpacing() + 4)
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        layout.addWidget(self.status)

    # -- loading ---------------------------------------------------------------------------

    def open_folder(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.current = None
        self.title.setText(f"Queue: {self.folder}")
        self.reload()

    def reload(self) -> None:
        """List the folder again: every row at once, then each verdict as it is computed
        (cached reports: all at once; new submissions are verified, the rows in view
        first). A listing still running is cancelled (its workers stopped)."""
        if self.folder is None:
            return
        folder, store = self.folder, self._store()
        store = None if store is None else str(store)
        self.progress.setVisible(True)
        self.progress.setRange(0, 0)
        self.status.setText("Listing the queue…")
        self.op.drop()  # the older listing stops before this one starts its workers
        gen = self.op.generation + 1  # the generation `run` is about to give this listing
        order = self.order = WorkOrder()
        lock = threading.Lock()
        batch: list[tuple[int, QueueItem]] = []
        sent = [time.monotonic()]

        def on_items(changed: list[tuple[int, QueueItem]]) -> None:
            with lock:
                batch.extend(changed)
                if time.monotonic() - sent[0] < UPDATE_EVERY_S:
                    return
                out = batch[:]
                batch.clear()
                sent[0] = time.monotonic()
            self._items_ready.emit(gen, out)

        def work(progress, cancel):
            items = stream_queue(folder, store, progress=lambda d, t, _n: progress(d, t),
                                 on_rows=lambda rows: self._rows_ready.emit(gen, rows),
                                 on_items=on_items, cancel=lambda: cancel.cancelled,
                                 order=order)
            return items

        started = self.op.run(work, self._show, on_failed=self._failed)
        assert started == gen  # noqa: S101 - the generation the callbacks were given

    def _on_progress(self, done: int, total: int) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)

    def _failed(self, message: str) -> None:
        self.progress.setVisible(False)
        first = " ".join(message.split())  # one paragraph, cut to what three lines hold
        self.status.setText(f"Cannot list the queue: {first[:160]}"
                            + ("…" if len(first) > 160 else ""))
        self.status.setToolTip(plain_tooltip(message))

    @property
    def listing(self) -> bool:
        """Whether a listing is running (rows may still say "checking…")."""
        return self.op.busy

    def _set_rows(self, items: list[QueueItem]) -> None:
        """Replace the table's rows with `items` (one model reset)."""
        self.model.reset(items)
        self.items = self.model.items
        self.fit_columns()
        self._fill_filters()

    def _on_rows(self, gen: int, items: list[QueueItem]) -> None:
        """Every submission, before any is examined: the cached ones complete, the others
        "checking…"; the rows in view go to the workers first."""
        if gen != self.op.generation or not self.op.busy:
            return
        self._set_rows(items)
        self._status_line()
        self._prefer_in_view()

    def _on_items(self, gen: int, changed: list[tuple[int, QueueItem]]) -> None:
        if gen != self.op.generation or not self.op.busy:
            return
        new_values = False
        for pos, it in changed:
            if pos >= len(self.items):
                continue
            self.model.update(pos, it)
            # the filters are filled again only for a value they do not offer yet (every
            # batch's refill re-filtered the whole table: 127 of 150 s, 10,000 rows)
            new_values = new_values or any(
                getattr(it, a) is not None and str(getattr(it, a)) not in self._offered[a]
                for a in FILTERS)
        if self.model.sorted_by() not in ("name", "submitted_at"):  # the order may change
            self.model.resort()
        if new_values:
            self._fill_filters()
        self._status_line()

    def _prefer_in_view(self) -> None:
        """Tell the running listing which unexamined rows are in view: they go next."""
        order = self.order
        if order is None or not self.op.busy:
            return
        view = self.view
        first = view.rowAt(0)
        last = view.rowAt(view.viewport().height() - 1)
        if first < 0:
            return
        last = self.proxy.rowCount() - 1 if last < 0 else last
        names = []
        for r in range(first, last + 1):
            src = self.proxy.mapToSource(self.proxy.index(r, _COL["name"])).row()
            if 0 <= src < len(self.items) and self.items[src].verdict == UNVERIFIED:
                names.append(self.items[src].name)
        order.prefer(names)

    def _status_line(self) -> None:
        pending = sum(1 for i in self.items if i.state == "pending")
        checking = sum(1 for i in self.items if i.verdict == UNVERIFIED)
        self.status.setText(f"{counted(len(self.items), 'submission')}, {pending:,} pending"
                            + (f", {checking:,} being checked" if checking else ""))

    def _show(self, items: list[QueueItem]) -> None:
        self.progress.setVisible(False)
        self.order = None
        if [i.name for i in items] == [i.name for i in self.items]:
            for pos, it in enumerate(items):  # the last batch
                if it != self.items[pos]:
                    self.model.update(pos, it)
            self.model.refresh()  # "checking…" is gone now
            self._fill_filters()
        else:
            self._set_rows(items)
        self._status_line()
        self.loaded.emit()

    def fit_columns(self) -> None:
        """Columns as wide as their text; then, where name, verdict and state do not fit the
        table's width, the state and the name narrowed to make them fit (`COLUMN_MIN_PX`)."""
        view = self.view
        view.resizeColumnsToContents()
        room = (view.width() - 2 * view.frameWidth()
                - view.verticalScrollBar().sizeHint().width())
        over = sum(view.columnWidth(_COL[a]) for a in ("name", "verdict", "state")) - room
        for attr, least in COLUMN_MIN_PX.items():
            if over <= 0:
                break
            col = _COL[attr]
            cut = min(over, max(0, view.columnWidth(col) - least))
            view.setColumnWidth(col, view.columnWidth(col) - cut)
            over -= cut

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        if self.model.rowCount():
            self.fit_columns()

    def _fill_filters(self) -> None:
        for attr, box in self.combos.items():
            chosen = box.currentData()
            values = sorted({str(getattr(i, attr)) for i in self.items
                             if getattr(i, attr) is not None})
            self._offered[attr] = set(values)
            box.blockSignals(True)
            box.clear()
            box.addItem(f"{attr.capitalize()}: {ALL}", None)
            for v in values:
                box.addItem(v, v)
            idx = box.findData(chosen) if chosen is not None else 0
            box.setCurrentIndex(max(idx, 0))
            box.blockSignals(False)
        self._apply_filters()

    def set_filter(self, attr: str, value: str | None) -> None:
        box = self.combos[attr]
        box.setCurrentIndex(max(box.findData(value), 0) if value is not None else 0)

    def _apply_filters(self) -> None:
        wanted = {a: b.currentData() for a, b in self.combos.items()}
        if hasattr(self.proxy, "beginFilterChange"):  # Qt >= 6.10
            self.proxy.beginFilterChange()
            self.proxy.wanted = wanted
            self.proxy.endFilterChange()
        else:
            self.proxy.wanted = wanted
            self.proxy.invalidateFilter()

    def visible_names(self) -> list[str]:
        return [self.proxy.index(r, _COL["name"]).data()
                for r in range(self.proxy.rowCount())]

    # -- opening ---------------------------------------------------------------------------

    def _open_index(self, index: QModelIndex) -> None:
        src = self.proxy.mapToSource(index)
        name = self.model.index(src.row(), _COL["name"]).data()
        path = self.model.index(src.row(), _COL["name"]).data(PATH_ROLE)
        if path:
            self.current = name
            self.open_requested.emit([Path(path)])

    def select(self, name: str) -> None:
        for r in range(self.proxy.rowCount()):
            if self.proxy.index(r, _COL["name"]).data() == name:
                self.view.selectRow(r)
                return

    def selected_item(self) -> QueueItem | None:
        rows = self.view.selectionModel().selectedRows()
        if not rows:
            return None
        name = self.model.index(self.proxy.mapToSource(rows[0]).row(), _COL["name"]).data()
        return next((i for i in self.items if i.name == name), None)

    def claim_selected(self, action: str) -> bool:
        """Claim (or release) the selected submission for the reviewer named in the
        decision panel. A claim held by someone else is refused with its holder and end."""
        item = self.selected_item()
        reviewer = self._reviewer().strip()
        if item is None or not item.evidence_digest:
            self.status.setText("Select a readable submission first.")
            return False
        if not reviewer:
            self.status.setText("Enter your reviewer name in the decision panel first.")
            return False
        store = self._store()
        try:
            record = new_claim(action, reviewer, item.evidence_digest, item.name)
            with open_store(None if store is None else str(store)) as ledger:
                ledger.append(record)
        except (LedgerError, ValueError, OSError) as exc:
            self.status.setText(f"{action} NOT recorded: {exc}")
            return False
        self.status.setText(f"{'Claimed' if action == 'claim' else 'Released'} {item.name}"
                            + (f" until {record.expires_at}" if record.expires_at else ""))
        self.reload()
        return True

    def next_item(self) -> QueueItem | None:
        """The oldest pending submission after the one opened last (wrapping around)."""
        return next_pending([i for i in self.items if i.name != self.current], self.current)

    def next_paths(self) -> list[Path] | None:
        """The window's `next_submission_provider`: the next pending submission, marked as
        the current one."""
        item = self.next_item()
        if item is None:
            return None
        self.current = item.name
        return [Path(item.path)]


def show_queue(window, folder: Path) -> QueuePanel:
    """Open `folder` as the window's review queue (a dock, created once)."""
    panel: QueuePanel | None = getattr(window, "queue_panel", None)
    if panel is None:
        panel = QueuePanel(lambda: window.session.store_path,
                           reviewer=lambda: window.decision_panel.reviewer.text())
        # "Queue", "Sync": four tabs with the long names ("Review queue", "Sync & retime")
        # needed more than the 288 px docks at 1280x720, and Qt elided all four titles.
        dock = QDockWidget("Queue", window)
        dock.setObjectName("queue-dock")
        dock.setWidget(panel)
        # A tab beside Sync, Decision and Run: at the bottom, across the window, it took
        # 200 px from the video, the table and the timeline at 1280x720 (lanes overlapped,
        # the Sync panel's buttons were cut).
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        window.tabifyDockWidget(window.run_dock, dock)
        window.queue_panel, window.queue_dock = panel, dock
        panel.open_requested.connect(window.open_paths)
        window.next_submission_provider = panel.next_paths
        # After a decision: the states change; the panel lists again (from the cache) and
        # the decision panel's button names the next pending submission.
        window.decision_panel.decided.connect(lambda _seq: panel.reload())
        panel.loaded.connect(lambda: _offer_next(window, panel))
    window.queue_dock.show()
    window.queue_dock.raise_()
    window.end_moment()  # "No next submission (no review queue open)" holds no more
    panel.open_folder(folder)
    return panel


def _offer_next(window, panel: QueuePanel) -> None:
    item = panel.next_item()
    window.decision_panel.offer_next(item.name if item else None)


def open_queue_dialog(window) -> None:
    """File > Open queue: choose a folder of submissions."""
    folder = QFileDialog.getExistingDirectory(window, "Open a review queue (a folder of "
                                              "submissions)", window.opener.dialog_folder())
    if folder:
        show_queue(window, Path(folder))
