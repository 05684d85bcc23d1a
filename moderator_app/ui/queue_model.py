"""The review queue's table model: the rows of a listing, computed from its items when the
view asks, sorted here by a key (the panel's proxy only filters). Every string from a
submission is plain text (the display role is never rich text)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QWidget

from moderator_app.core.queue import UNKNOWN_STATE, UNVERIFIED
from moderator_app.core.queue.listing import QueueItem
from moderator_app.ui.tooltip import plain_tooltip

#: (header, QueueItem attribute); the filters are the columns named in FILTERS.
#: What a moderator picks by comes first: the name, the verdict and the state are in view in
#: the 288 px dock at 1280x720 (first came "Submitted (UTC)", elided to "ubmitted (UT", and the
#: name; the verdict was behind a horizontal scroll, session 10). Sorted by submission time.
COLUMNS: tuple[tuple[str, str], ...] = (
    ("Submission", "name"), ("Verdict", "verdict"), ("State", "state"),
    ("Submitted (UTC)", "submitted_at"), ("Errors", "errors"), ("Warnings", "warnings"),
    ("Game", "game"), ("Category", "category"), ("Model", "model"),
    ("Evidence", "evidence_digest"),
)
#: Widest name and state columns (px): longer ones are elided, whole in their tooltips.
#: Where the first three columns do not fit the table (262 px beside its vertical scroll
#: bar at 1280x720), the state and then the name are narrowed, down to these widths (px);
#: elided, whole in their tooltips. With room (1920x1080: 440 px) they are whole.
COLUMN_MIN_PX = {"state": 80, "name": 90}
PATH_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2
CHECKING = "checking…"  # the verdict cell of a submission not examined yet, while listing


def state_text(item: QueueItem) -> str:
    if item.state == UNKNOWN_STATE:
        return ""  # known once the submission is examined (its digest finds its decisions)
    if item.state == "claimed":
        return f"claimed by {item.claimed_by} until {item.claimed_until}"
    if item.state in ("accepted", "rejected") and item.decided_by:
        return f"{item.state} by {item.decided_by}"
    return item.state


class QueueModel(QAbstractTableModel):
    """The queue's rows, computed from its items when asked, and sorted here (a key sort in
    Python) rather than by the proxy: a table of 10,000 submissions as QStandardItems held
    the GUI thread 3.3 s at load 20 to build, and the proxy's own sort (a Python `data`
    call per comparison) 3.5 s more. `items` stay in the listing's order (the positions the
    core reports); `_rows` is the order shown. `checking()` says whether a listing runs (an
    unverified row then reads "checking…")."""

    def __init__(self, checking: Callable[[], bool], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.items: list[QueueItem] = []
        self._rows: list[int] = []  # shown row -> position in items
        self._row_of: list[int] = []  # position -> shown row
        self._sort: tuple[int, Qt.SortOrder] | None = None
        self._checking = checking

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()  # noqa: B008, N802 - Qt
                 ) -> int:
        return 0 if parent.isValid() else len(self.items)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()  # noqa: B008, N802 - Qt
                    ) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802 - Qt
                   role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if (orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole
                and 0 <= section < len(COLUMNS)):
            return COLUMNS[section][0]
        return None

    def text(self, it: QueueItem, attr: str) -> str:
        value = getattr(it, attr)
        if attr == "state":
            return state_text(it)
        if attr == "verdict" and value == UNVERIFIED and self._checking():
            return CHECKING
        if attr == "evidence_digest" and value:
            return str(value)[:16]
        return "" if value is None else str(value)

    def sort_key(self, it: QueueItem, attr: str) -> object:
        value = getattr(it, attr)
        if attr in ("errors", "warnings"):  # not known yet: before 0, never text
            return -1 if value is None else value
        return self.text(it, attr)

    def data(self, index: QModelIndex | QPersistentModelIndex,
             role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or index.row() >= len(self._rows):
            return None
        it = self.items[self._rows[index.row()]]
        attr = COLUMNS[index.column()][1]
        if role == Qt.ItemDataRole.DisplayRole:
            return self.text(it, attr)
        if role == Qt.ItemDataRole.UserRole:
            return getattr(it, attr)
        if role == SORT_ROLE:
            return self.sort_key(it, attr)
        if role == PATH_ROLE:
            return it.path
        if role == Qt.ItemDataRole.ToolTipRole and attr in COLUMN_MIN_PX:
            text = self.text(it, attr)
            return plain_tooltip(f"{text}: {it.error}" if it.error and attr == "name" else text)
        return None

    def reset(self, items: list[QueueItem]) -> None:
        self.beginResetModel()
        self.items = list(items)
        self._rows = self._ordered()
        self._row_of = self._inverse(self._rows)
        self.endResetModel()

    def update(self, pos: int, item: QueueItem) -> None:
        self.items[pos] = item
        row = self._row_of[pos]
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    def refresh(self) -> None:
        """Every cell again (the listing ended: "checking…" no longer applies)."""
        if self.items:
            self.dataChanged.emit(self.index(0, 0),
                                  self.index(len(self.items) - 1, len(COLUMNS) - 1))

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self._sort = (column, order)
        self.resort()

    def sorted_by(self) -> str | None:
        return COLUMNS[self._sort[0]][1] if self._sort else None

    def resort(self) -> None:
        """Order the rows by the chosen column again (stable: ties keep the listing's
        order, oldest first), keeping the selection on its submission."""
        rows = self._ordered()
        if rows == self._rows:
            return
        self.layoutAboutToBeChanged.emit()
        old_rows = self._rows
        self._rows, self._row_of = rows, self._inverse(rows)
        before = self.persistentIndexList()
        after = [self.index(self._row_of[old_rows[i.row()]], i.column()) for i in before]
        self.changePersistentIndexList(before, after)
        self.layoutChanged.emit()

    def _ordered(self) -> list[int]:
        rows = list(range(len(self.items)))
        if self._sort is None or not 0 <= self._sort[0] < len(COLUMNS):
            return rows
        attr = COLUMNS[self._sort[0]][1]
        keys = [self.sort_key(it, attr) for it in self.items]
        typed = [(0, k, "") if isinstance(k, int) else (1, 0, str(k)) for k in keys]
        rows.sort(key=typed.__getitem__,
                  reverse=self._sort[1] == Qt.SortOrder.DescendingOrder)
        return rows

    @staticmethod
    def _inverse(rows: list[int]) -> list[int]:
        out = [0] * len(rows)
        for r, pos in enumerate(rows):
            out[pos] = r
        return out
