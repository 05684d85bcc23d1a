"""The event table: a `QAbstractTableModel` over an `EventIndex`, lazy by construction.

Why not a list of parsed events: a 1,000,000-event log would take tens of seconds and gigabytes
to load (Inspect #1388). The model knows only the index's columns (numpy views over its arrays);
`data()` reads the line of a row from disk when the view asks for it, i.e. for visible rows,
through a small LRU cache.

Filtering is done here, not by a `QSortFilterProxyModel` (which would call Python once per row):
type/producer filters are numpy masks over the index; text search scans the raw bytes of the
source file chunk by chunk and maps match offsets back to rows, without parsing any JSON.
"""

from __future__ import annotations

import math
from collections import OrderedDict

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics

from moderator_app.core.formats.event_index import EventIndex
from moderator_app.core.text import safe_text
from moderator_app.ui.event_text import text_of_row
from moderator_app.ui.theme import severity_color
from moderator_app.ui.timefmt import format_clock

CONTENT_CHARS = 240
CONTENT_ROOM = 200  # px the Content column keeps before names are shown whole
NAME_CAP = 24  # a producer or type name is elided past this many wide characters
# A fitted column's room beside its text: the style's text margins (3 px a side) and 2 px;
# 10-12 px before, which at 1280x720 cost a 5-digit official run's Content 8 px.
PAD = 8
SEARCH_CHUNK = 8 * 1024 * 1024
COLUMNS = ("#", "Line", "Time", "Lane", "Type", "Content")
COL_ROW, COL_LINE, COL_TIME, COL_LANE, COL_KIND, COL_CONTENT = range(6)
BLANK_KIND = "blank"  # the index's type of a run of blank lines (agent_log/checker.py)


def search_rows(index: EventIndex, text: str) -> np.ndarray:
    """Rows whose raw line contains `text` (case-insensitive), sorted, without parsing."""
    n = len(index)
    if not text or index.source is None or n == 0:
        return np.arange(n, dtype=np.int64)
    needle = text.encode("utf-8").lower()  # ASCII case folding, like re.IGNORECASE on bytes
    offsets = np.frombuffer(index.offsets, dtype=np.int64)
    lengths = np.frombuffer(index.lengths, dtype=np.int32 if index.lengths.itemsize == 4
                            else np.int64)
    hits: list[int] = []
    overlap = len(needle) - 1
    with open(index.source, "rb") as fh:
        base = 0
        tail = b""
        while True:
            chunk = fh.read(SEARCH_CHUNK)
            if not chunk:
                break
            data = (tail + chunk).lower()
            start = base - len(tail)
            # bytes.find is a fast C scan; after a hit, jump to the end of that line: one hit
            # per line is all the table needs.
            i = data.find(needle)
            while i != -1:
                hits.append(start + i)
                nl = data.find(b"\n", i + len(needle))
                if nl == -1:
                    break
                i = data.find(needle, nl)
            tail = chunk[-overlap:] if overlap > 0 else b""
            base += len(chunk)
    if not hits:
        return np.zeros(0, dtype=np.int64)
    pos = np.unique(np.array(hits, dtype=np.int64))
    rows = np.searchsorted(offsets, pos, side="right") - 1
    valid = rows >= 0
    rows, pos = rows[valid], pos[valid]
    inside = pos + len(needle) <= offsets[rows] + lengths[rows]
    return np.unique(rows[inside])


def _bold_metrics(font: QFont) -> QFontMetrics:
    """Metrics of the table's bold font: the current event's row is bold, and must fit."""
    bold = QFont(font)
    bold.setBold(True)
    return QFontMetrics(bold)


class EventTableModel(QAbstractTableModel):
    """Rows are a (possibly filtered) array of index rows, in log order."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.index_: EventIndex | None = None
        self.rows = np.zeros(0, dtype=np.int64)
        self.lane_header = "Lane"
        self._cache: OrderedDict[int, str] = OrderedDict()
        self._times: np.ndarray | None = None
        self.filter_lanes: set[str] | None = None
        self.filter_kinds: set[str] | None = None
        self.filter_text = ""
        self.official = False
        self.marked: dict[int, str] = {}  # index row -> worst severity of its findings
        self.current_rows: frozenset[int] = frozenset()  # per lane, the event at the playhead
        self._bold: QFont | None = None
        self.hours = True  # the Time column shows hours (a run of an hour or more)

    def column_widths(self, fm: QFontMetrics) -> list[int]:
        """Widths that fit the widest value of each column (a 7-digit row or line number, a
        timecode), so the table does not re-layout, and the video beside it does not change
        width, when a longer number comes into view."""
        return [fm.horizontalAdvance("8888888") + 10, fm.horizontalAdvance("● 8888888") + 10,
                fm.horizontalAdvance("88:88:88.888") + 10, fm.horizontalAdvance("observation") + 10,
                fm.horizontalAdvance("model_message") + 10]

    @staticmethod
    def line_width(font: QFont, last_line: int) -> int:
        """The Line column's width for a submission whose last line is `last_line` (at least
        three digits; bold, as the current event's row is): set once when it opens, so that it
        never changes while it is reviewed, and the seven digits `column_widths` reserves do
        not take the Content column's room (at 1280x720 it needed a horizontal scroll)."""
        return _bold_metrics(font).horizontalAdvance(
            "● " + "8" * max(3, len(str(last_line)))) + PAD

    def fitted_widths(self, font: QFont, room: int | None = None,
                      shown: set[int] | None = None) -> dict[int, int]:
        """Line, Time, producer/type widths for the open submission, so that Content gets the
        rest (at 1280x720 an official run's Time, Producer and Type filled the table):
        Line as wide as its last line number, Time without hours for a run under an hour,
        producer and type names as wide as the widest this run has. Where the table is
        narrow, a name is at most `observation`'s width (elided: the detail pane has it
        whole); where the table's `room` (px) leaves Content `CONTENT_ROOM` px beside the
        `shown` columns at full width, names are whole up to `NAME_CAP` characters (at
        1920x1080 `seed_commitment` was elided at `observation`'s width). Set once per
        submission and when a column is shown or hidden, so nothing moves while it is
        reviewed."""
        fm = _bold_metrics(font)
        idx = self.index_
        if idx is None or not len(idx):
            return {}
        times = self._times[~np.isnan(self._times)] if self._times is not None else []
        sample = "-88:88:88.888" if len(times) and times.min() < 0 else "88:88:88.888"
        time_text = sample if self.hours else sample.replace("88:", "", 1)
        narrow = fm.horizontalAdvance("observation") + PAD
        whole = fm.horizontalAdvance("m" * NAME_CAP) + PAD  # a hostile name: still elided

        def names(ns: list[str], cap: int, header: str) -> int:
            widest = max((fm.horizontalAdvance(safe_text(n)) for n in ns), default=0)
            return max(min(widest + PAD, cap), fm.horizontalAdvance(header) + 16)

        fixed = {COL_LINE: self.line_width(font, int(idx.lines[-1])),
                 COL_TIME: fm.horizontalAdvance(time_text) + PAD}
        widths = {**fixed, COL_LANE: names(idx.lane_names, narrow, self.lane_header),
                  COL_KIND: names(idx.kind_names, narrow, "Type")}
        if room is not None:
            wide = {**fixed, COL_LANE: names(idx.lane_names, whole, self.lane_header),
                    COL_KIND: names(idx.kind_names, whole, "Type")}
            cols = set(wide) if shown is None else set(shown) & set(wide)
            if room - sum(wide[c] for c in cols) >= CONTENT_ROOM:
                widths = wide
        return widths

    def set_marked_rows(self, marked: dict[int, str]) -> None:
        """Rows that carry a finding (worst severity), shown with a coloured dot by the line."""
        self.marked = dict(marked)
        if self.rows.size:
            self.dataChanged.emit(self.index(0, COL_LINE),
                                  self.index(self.rowCount() - 1, COL_LINE))

    def set_current_rows(self, rows) -> None:
        """The current event of each lane (the last at or before the playhead), in bold."""
        new = frozenset(int(r) for r in rows)
        if new == self.current_rows:
            return
        changed = new ^ self.current_rows
        self.current_rows = new
        for r in changed:
            p = self.proxy_row(r)
            if p is not None:
                self.dataChanged.emit(self.index(p, 0), self.index(p, len(COLUMNS) - 1))

    # -- data ------------------------------------------------------------------------------

    def set_index(self, index: EventIndex | None, lane_header: str = "Lane",
                  official: bool = False) -> None:
        self.beginResetModel()
        self.index_ = index
        self.lane_header = lane_header
        self.official = official
        self.marked = {}
        self.current_rows = frozenset()
        self._cache.clear()
        self._times = None if index is None else np.frombuffer(index.times, dtype=np.float64)
        timed = self._times[~np.isnan(self._times)] if self._times is not None else None
        self.hours = timed is None or not timed.size or float(np.abs(timed).max()) >= 3599.9995
        self.filter_lanes = self.filter_kinds = None
        self.filter_text = ""
        self.rows = np.arange(0 if index is None else len(index), dtype=np.int64)
        self.endResetModel()

    def set_filter(self, lanes: set[str] | None = None, kinds: set[str] | None = None,
                   text: str = "", text_rows: np.ndarray | None = None) -> None:
        """Keep rows whose lane is in `lanes`, type in `kinds` (None: any) and whose raw line
        contains `text`; `text_rows` is `search_rows(index, text)` when already computed (by a
        background search for large files)."""
        idx = self.index_
        self.filter_lanes, self.filter_kinds, self.filter_text = lanes, kinds, text
        self.beginResetModel()
        if idx is None:
            self.rows = np.zeros(0, dtype=np.int64)
        else:
            mask = np.ones(len(idx), dtype=bool)
            if lanes is not None:
                ids = [i for i, n in enumerate(idx.lane_names) if n in lanes]
                mask &= np.isin(np.frombuffer(idx.lanes, dtype=np.uint16), ids)
            if kinds is not None:
                ids = [i for i, n in enumerate(idx.kind_names) if n in kinds]
                mask &= np.isin(np.frombuffer(idx.kinds, dtype=np.uint16), ids)
            rows = np.nonzero(mask)[0]
            if text:
                if text_rows is None:
                    text_rows = search_rows(idx, text)
                rows = np.intersect1d(rows, text_rows, assume_unique=True)
            self.rows = rows.astype(np.int64)
        self.endResetModel()

    def shown_events(self) -> int:
        """Events among the shown rows. A run of blank lines has a row of its own (so that its
        finding has a place) but is no event: counted as the verifier counts
        (`Report.events`, which the status bar shows), not as rows."""
        idx = self.index_
        if idx is None or not self.rows.size:
            return 0
        blank = [i for i, n in enumerate(idx.kind_names) if n == BLANK_KIND]
        if not blank:
            return int(self.rows.size)
        kinds = np.frombuffer(idx.kinds, dtype=np.uint16)[self.rows]
        return int(self.rows.size - np.isin(kinds, blank).sum())

    def source_row(self, proxy_row: int) -> int:
        return int(self.rows[proxy_row])

    def proxy_row(self, source_row: int) -> int | None:
        """Where an index row is shown, or None when the filter hides it."""
        i = int(np.searchsorted(self.rows, source_row))
        if i < self.rows.size and self.rows[i] == source_row:
            return i
        return None

    def nearest_proxy_row(self, source_row: int) -> int | None:
        if not self.rows.size:
            return None
        i = int(np.searchsorted(self.rows, source_row))
        return min(i, self.rows.size - 1)

    def content(self, row: int) -> str:
        """What the event says, in a moderator's words (`press B`, `withheld`, ...), one line
        of plain text (cached); the raw line stays in the detail pane."""
        text = self._cache.get(row)
        if text is not None:
            self._cache.move_to_end(row)
            return text
        try:
            text = text_of_row(self.index_, row, self.official)[:CONTENT_CHARS]
        except (OSError, ValueError) as exc:
            text = f"(cannot read: {exc})"
        text = text.replace("\r", " ").replace("\n", " ").replace("\u2028", " ") \
            .replace("\u2029", " ")
        self._cache[row] = text
        if len(self._cache) > 4000:
            self._cache.popitem(last=False)
        return text

    # -- Qt model API ----------------------------------------------------------------------

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802, B008 - Qt API
        return 0 if parent.isValid() else int(self.rows.size)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802, B008 - Qt API
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.lane_header if section == COL_LANE else COLUMNS[section]
        return None

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or self.index_ is None:
            return None
        row = int(self.rows[index.row()])
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            idx = self.index_
            if col == COL_ROW:
                return str(row + 1)
            if col == COL_LINE:  # a dot, in its severity's colour, marks a row with findings
                return ("● " if row in self.marked else "") + str(idx.lines[row])
            if col == COL_TIME:
                t = idx.times[row]
                return "" if math.isnan(t) else format_clock(t, self.hours)
            if col == COL_LANE:  # producer / type names come from the submission
                return safe_text(idx.lane_of(row))
            if col == COL_KIND:
                return safe_text(idx.kind_of(row))
            return self.content(row)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (COL_ROW, COL_LINE, COL_TIME):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and col == COL_LINE and row in self.marked:
            return QBrush(severity_color(self.marked[row], text=True))
        if role == Qt.ItemDataRole.FontRole and row in self.current_rows:
            if self._bold is None:
                self._bold = QFont()
                self._bold.setBold(True)
            return self._bold
        if role == Qt.ItemDataRole.BackgroundRole and row in self.current_rows:
            return QBrush(QColor(80, 170, 255, 60))
        return None
