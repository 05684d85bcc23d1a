"""The findings panel: verdict summary and the list of findings (severity, rule, line, message).

Activating a finding emits its position in `findings`; the main window jumps to its line's event
on the timeline, in the table and in the video. All text is plain: item views render
`DisplayRole` as plain text, the summary label is set to `PlainText`, and no tooltip carries
text from the submission (tooltips are rich-text sniffed by Qt).
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from moderator_app.core.rules import Finding, Severity
from moderator_app.core.verify.report import Report
from moderator_app.ui.theme import severity_color

HEADERS = ("Severity", "Line", "Rule", "File", "Message")


class FindingsModel(QAbstractTableModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.findings: list[Finding] = []

    def set_findings(self, findings: list[Finding]) -> None:
        self.beginResetModel()
        self.findings = list(findings)
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802, B008 - Qt API
        return 0 if parent.isValid() else len(self.findings)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802, B008 - Qt API
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return HEADERS[section]
        return None

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        f = self.findings[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (f.severity.value, "" if f.line is None else str(f.line), f.rule,
                    f.file or "", f.message.replace("\n", " "))[col]
        if role == Qt.ItemDataRole.ForegroundRole and col == 0:
            return QBrush(severity_color(f.severity, text=True))  # readable in both themes
        if role == Qt.ItemDataRole.UserRole:
            # Sort key: line numbers numerically, whole-file findings last.
            return (f.line is None, f.line or 0) if col == 1 else None
        return None


class _SeverityFilter(QSortFilterProxyModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.severity: str | None = None  # Severity value

    def filterAcceptsRow(self, source_row: int, _parent) -> bool:  # noqa: N802 - Qt API
        if self.severity is None:
            return True
        return self.sourceModel().findings[source_row].severity.value == self.severity

    def set_severity(self, severity: str | None) -> None:
        if hasattr(self, "beginFilterChange"):  # Qt >= 6.9
            self.beginFilterChange()
            self.severity = severity
            self.endFilterChange()
        else:
            self.severity = severity
            self.invalidateFilter()


class FindingsPanel(QWidget):
    finding_activated = Signal(int)  # position in `findings`

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel("No submission loaded")
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setObjectName("findingsSummary")
        self.summary.setWordWrap(True)
        self.severity_box = QComboBox()
        # "" means all. Never None as item data: PySide6 6.12 mis-counts references to None
        # stored in a QComboBox and aborts the interpreter at exit.
        self.severity_box.addItem("All", "")
        for s in (Severity.ERROR, Severity.WARNING, Severity.INFO):
            self.severity_box.addItem(s.value.capitalize() + "s", s.value)
        self.model = FindingsModel(self)
        self.proxy = _SeverityFilter(self)
        self.proxy.setSourceModel(self.model)
        self.view = QTableView()
        self.view.setModel(self.proxy)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.verticalHeader().setVisible(False)
        self.view.verticalHeader().setDefaultSectionSize(20)
        self.view.setWordWrap(False)
        hh = self.view.horizontalHeader()
        hh.setStretchLastSection(True)
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for col, width in enumerate((60, 44, 140, 90)):
            self.view.setColumnWidth(col, width)
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.summary, 1)
        top.addWidget(self.severity_box)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(top)
        layout.addWidget(self.view, 1)
        # The selected finding's full message (a table cell elides long ones). Plain text.
        self.message = QLabel("")
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.setObjectName("findingMessage")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.message)
        self.severity_box.currentIndexChanged.connect(self._severity_changed)
        self.view.clicked.connect(self._activated)
        self.view.activated.connect(self._activated)
        self.view.selectionModel().currentRowChanged.connect(
            lambda cur, _prev: self._activated(cur))

    @property
    def findings(self) -> list[Finding]:
        return self.model.findings

    def set_report(self, report: Report | None, findings: list[Finding] | None = None) -> None:
        if report is None:
            self.summary.setText("No submission loaded")
            self.message.setText("")
            self.model.set_findings([])
            return
        fl = report.findings
        verdict = report.verdict.upper()
        extra = "" if report.complete else " (incomplete: reading stopped early)"
        dropped = f", {fl.dropped} more not listed" if fl.dropped else ""
        self.summary.setText(
            f"{verdict}{extra} · {report.kind} · {report.events:,} events · "
            f"{fl.errors} errors, {fl.warnings} warnings, {fl.infos} info{dropped}")
        self.model.set_findings(findings if findings is not None else fl.sorted())

    def select(self, i: int) -> None:
        """Select finding `i` (position in `findings`) without emitting activation twice."""
        src = self.model.index(i, 0)
        proxy = self.proxy.mapFromSource(src)
        if proxy.isValid():
            self.view.selectionModel().blockSignals(True)
            self.view.setCurrentIndex(proxy)
            self.view.selectionModel().blockSignals(False)
            self.view.scrollTo(proxy)
            self._show_message(i)

    def current(self) -> int | None:
        idx = self.view.currentIndex()
        if not idx.isValid():
            return None
        return self.proxy.mapToSource(idx).row()

    def _severity_changed(self, i: int) -> None:
        self.proxy.set_severity(self.severity_box.itemData(i) or None)

    def _show_message(self, i: int) -> None:
        f = self.model.findings[i]
        where = f"{f.file or ''}{'' if f.line is None else f':{f.line}'}"
        self.message.setText(f"{f.severity.value} {f.rule} {where}: {f.message}")

    def _activated(self, proxy_index: QModelIndex) -> None:
        if proxy_index.isValid():
            self._show_message(self.proxy.mapToSource(proxy_index).row())
            self.finding_activated.emit(self.proxy.mapToSource(proxy_index).row())
