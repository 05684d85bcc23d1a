"""Which columns of the event table are shown: a per-run-kind choice the moderator makes in
the header's context menu or View > Columns, remembered in the settings, undone by View >
Reset layout.

Why per run kind: an official run's lanes are its producers (harness, agent, evaluator,
proxy), and its timeline already shows one lane per producer, so its Producer column is hidden
by default to give the Content column the room it needs at 1280x720 (112 -> 202 px, see
docs/DECISIONS.md); a community run's lanes are its event types and it has no second Type
column. A moderator who wants the producer back in the table ticks it once, for every later
official run, without changing how community runs look.

Content is always shown (it is what the table is for, and it takes the rest of the width); a
column the run kind does not have (a community run's second Type column) is never offered.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtWidgets import QMenu, QTableView

from moderator_app.ui.event_table import (
    COL_CONTENT,
    COL_KIND,
    COL_LANE,
    COL_LINE,
    COL_ROW,
    COL_TIME,
)

#: Stable ids of the table's columns, as stored in the settings (the headers' words change
#: with the run kind: "Producer" or "Type").
COLUMN_IDS = {COL_ROW: "row", COL_LINE: "line", COL_TIME: "time", COL_LANE: "lane",
              COL_KIND: "type", COL_CONTENT: "content"}
#: Hidden on a run kind's first open. "#" repeats the line number (one event per line).
DEFAULT_HIDDEN = {"official": frozenset({"row", "lane"}), "community": frozenset({"row"})}
SETTINGS_KEY = "table/hidden_columns/{kind}"


def _key(kind: str) -> str:
    return SETTINGS_KEY.format(kind=kind)


class TableColumns:
    """Shows and hides the event table's columns for the open run's kind.

    `on_change` is called after a column was shown or hidden by the moderator (the window
    re-fits the column widths there)."""

    def __init__(self, table: QTableView, settings: QSettings,
                 on_change: Callable[[], None] | None = None) -> None:
        self.table = table
        self.settings = settings
        self.on_change = on_change
        self.kind: str | None = None  # the open run's kind ("official", "community")
        self.has_type = True  # whether the kind has a Type column besides its lanes
        header = table.horizontalHeader()
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._header_menu)

    # -- state -----------------------------------------------------------------------------

    def offered(self) -> list[int]:
        """The columns the moderator can show or hide for this kind (Content is always
        shown; a kind without a Type column besides its lanes has none to offer)."""
        return [c for c in COLUMN_IDS if c != COL_CONTENT and (c != COL_KIND or self.has_type)]

    def hidden_ids(self) -> frozenset[str]:
        """The ids hidden for the open kind: the moderator's choice, else the default."""
        if self.kind is None:
            return frozenset({"row"})
        value = self.settings.value(_key(self.kind))
        if value is None:
            return DEFAULT_HIDDEN.get(self.kind, frozenset({"row"}))
        if isinstance(value, str):  # QSettings gives one item as a string, none as ""
            value = [value] if value else []
        known = set(COLUMN_IDS.values()) - {"content"}
        return frozenset(str(v) for v in value if str(v) in known)

    def is_shown(self, col: int) -> bool:
        return not self.table.isColumnHidden(col)

    def apply(self, kind: str, has_type: bool) -> None:
        """Show the columns chosen for `kind` (on every open of a submission)."""
        self.kind, self.has_type = str(kind), bool(has_type)
        hidden = self.hidden_ids()
        for col, cid in COLUMN_IDS.items():
            off = (cid in hidden and col != COL_CONTENT) or (col == COL_KIND and not has_type)
            self.table.setColumnHidden(col, off)

    def set_shown(self, col: int, shown: bool) -> None:
        """The moderator's choice for the open kind, kept for its later runs."""
        if self.kind is None or col not in self.offered():
            return
        self.table.setColumnHidden(col, not shown)
        hidden = sorted(COLUMN_IDS[c] for c in self.offered() if self.table.isColumnHidden(c))
        self.settings.setValue(_key(self.kind), hidden)
        if self.on_change is not None:
            self.on_change()

    def reset(self) -> None:
        """View > Reset layout: every kind's default columns again."""
        for kind in DEFAULT_HIDDEN:
            self.settings.remove(_key(kind))
        if self.kind is not None:
            self.apply(self.kind, self.has_type)
            if self.on_change is not None:
                self.on_change()

    # -- menus -----------------------------------------------------------------------------

    def fill_menu(self, menu: QMenu) -> None:
        """One checkable entry per column this kind offers (the header's words)."""
        menu.clear()
        model = self.table.model()
        if self.kind is None:
            none = menu.addAction("(open a submission first)")
            none.setEnabled(False)
            return
        for col in self.offered():
            title = str(model.headerData(col, Qt.Orientation.Horizontal))
            act = menu.addAction("Event number (#)" if col == COL_ROW else title)
            act.setObjectName(f"column-{COLUMN_IDS[col]}")
            act.setCheckable(True)
            act.setChecked(self.is_shown(col))
            act.toggled.connect(lambda on, c=col: self.set_shown(c, on))
        content = menu.addAction("Content (always shown)")
        content.setCheckable(True)
        content.setChecked(True)
        content.setEnabled(False)

    def add_view_menu(self, menu: QMenu) -> QMenu:
        """View > Columns, filled each time it opens (the headers follow the run kind)."""
        sub = menu.addMenu("&Columns")
        sub.setObjectName("columnsMenu")
        sub.aboutToShow.connect(lambda: self.fill_menu(sub))
        self.fill_menu(sub)
        return sub

    def _header_menu(self, pos: QPoint) -> None:
        menu = QMenu(self.table)
        self.fill_menu(menu)
        menu.exec(self.table.horizontalHeader().mapToGlobal(pos))
