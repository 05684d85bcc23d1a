"""The event table's filter: the type (or producer) box and the text search.

The box applies at once; a text search applies at once on a small log and in the background
on a large one (a scan of the raw bytes, `event_table.search_rows`), through its own
`BackgroundOp` so that the newest search wins and an older one never overwrites it. The
widgets (search box, type box, debounce timer, count label) are the window's, built by
`window_layout`; this object owns what they do.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from moderator_app.core.formats.event_index import EventIndex
from moderator_app.core.kinds import Kind
from moderator_app.core.text import safe_text
from moderator_app.ui.background import BackgroundOp
from moderator_app.ui.event_table import search_rows

if TYPE_CHECKING:
    from moderator_app.ui.main_window import MainWindow

ASYNC_SEARCH_BYTES = 8 * 1024 * 1024  # larger sources are searched off the GUI thread


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


class EventFilter(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.w = window
        self.searcher = BackgroundOp("search", window)
        window.search.textChanged.connect(lambda _t: window._search_timer.start())
        window._search_timer.timeout.connect(self.apply)
        window.lane_filter.currentIndexChanged.connect(lambda _i: self.apply())

    def set_lanes(self, kind: Kind, index: EventIndex | None) -> None:
        """A new submission: its lanes (event types or producers) in the type box."""
        box = self.w.lane_filter
        box.blockSignals(True)
        box.clear()
        box.addItem(kind.all_lanes, "")
        if index is not None:
            for name in index.lane_names:
                box.addItem(safe_text(name), name)  # shown escaped, filtered by the name
        box.blockSignals(False)

    def focus_search(self) -> None:
        self.w.search.setFocus()
        self.w.search.selectAll()

    def apply(self) -> None:
        """Type/producer filter at once; text search at once for small logs, in the
        background for large ones (the newest search wins)."""
        w = self.w
        model = w.table_model
        lane = w.lane_filter.currentData() or None
        text = w.search.text()
        index = model.index_
        lanes = None if lane is None else {lane}
        if text and index is not None and index.source is not None and \
                _size(index.source) > ASYNC_SEARCH_BYTES:
            w.count_label.setText("searching…")

            def done(rows, lanes=lanes, text=text) -> None:
                if model.index_ is index:
                    model.set_filter(lanes=lanes, text=text, text_rows=rows)
                    self.update_count()

            self.searcher.run(lambda _p, _c: search_rows(index, text), done,
                              lambda msg: w.count_label.setText(f"search failed: {msg}"))
            return
        self.searcher.drop()  # an older background search must not overwrite this one
        model.set_filter(lanes=lanes, text=text)
        self.update_count()

    def update_count(self) -> None:
        """Events shown / events read, counted as the status bar counts them (the report's
        `events`): blank lines have rows but are not events."""
        w = self.w
        report = w.session.report
        total = report.events if report is not None else 0
        shown = w.table_model.shown_events()
        w.count_label.setText(f"{shown:,} / {total:,}" if shown != total else f"{total:,}")
