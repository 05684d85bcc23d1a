"""The findings panel: verdict summary and the list of findings (severity, rule, line, message).

Activating a finding emits its position in `findings`; the navigator jumps to its moment (its
line's event, or for a whole-file finding its own moment: the first missing instant, the video
frame) on the timeline, in the table and in the video. Messages wrap and the panel keeps a
sane minimum size; a message that names another line ("the response on line 11728") offers a
button to go there and shows what that line asked for beside what this line sent
(`compare_lines.CompareLines`, a pane the window places under the event table). All text is
plain: item views render
`DisplayRole` as plain text, the summary and the message are plain-text boxes, and no tooltip carries
text from the submission (tooltips are rich-text sniffed by Qt).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from moderator_app.core.rules import Finding, Severity
from moderator_app.core.text import counted, safe_output, safe_text
from moderator_app.core.verify.moments import Moment
from moderator_app.core.verify.report import Report
from moderator_app.ui.compare_lines import CompareLines
from moderator_app.ui.theme import severity_color
from moderator_app.ui.timefmt import format_timecode

HEADERS = ("Where", "Finding")
COL_WHERE, COL_FINDING = range(2)
ROW_LINES = 3  # a row: "severity · rule" and two lines of the message (all of it below)
#: Rows of two lines (the rule and the message's first line) when the list cannot show
#: MIN_ROWS rows of ROW_LINES: at 1280x720 three-line rows left 2.5 rows in view (session 13,
#: O4); the selected finding's whole message is in the box under the list either way.
SHORT_ROW_LINES = 2
MIN_ROWS = 6  # rows the list shows at least (its minimum height), at any screen size
# "line 1 column 295" is a JSON parser's place inside the line, not another line of the log
OTHER_LINE = re.compile(r"\bline (\d{1,12})\b(?! column)")


def other_line(f: Finding) -> int | None:
    """The first line a finding's message names that is not its own line."""
    for m in OTHER_LINE.finditer(f.message):
        n = int(m.group(1))
        if n != f.line:
            return n
    return None


def moment_text(m: Moment | None) -> str:
    return "" if m is None else format_timecode(m.run_s)


def _text_box(name: str, lines: int = 2) -> QPlainTextEdit:
    """A read-only, frameless plain-text box: it wraps and scrolls within whatever height the
    panel gives it (a word-wrapped QLabel overflows onto its neighbours instead)."""
    box = QPlainTextEdit()
    box.setObjectName(name)
    box.setReadOnly(True)
    box.setFrameShape(QPlainTextEdit.Shape.NoFrame)
    box.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    box.setMinimumHeight(lines * box.fontMetrics().lineSpacing() + 12)
    box.viewport().setAutoFillBackground(False)
    return box


class _SummaryBox(QPlainTextEdit):
    """The verdict line: plain text in a box of a fixed SUMMARY_LINES lines that scrolls. A
    word-wrapped label grew with its text ("+3 from the video analysis", a long "Cannot open"
    reason: five lines at 288 px) and, in a dock that does not grow with it, squeezed the
    list to five rows and the message box to a cut line (session 14's walk at 1280x720)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.setObjectName("findingsSummary")
        self.setReadOnly(True)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # not a Tab stop: nothing to type there
        self.setFrameShape(QPlainTextEdit.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.viewport().setAutoFillBackground(False)
        self.document().setDocumentMargin(1)
        self._fit()
        self.setText(text)

    def _fit(self) -> None:
        """Fixed at SUMMARY_LINES whole lines with no scroll bar: the lines, the document's
        margin above and below them, 1 px more (QPlainTextEdit counts a line as shown only
        when it ends above the viewport's height less the margin and 1 px), and whatever
        border and padding the style sheet gives the box (the theme's: 6 px). The height was
        set once, when the box was built, to the lines and the margins: the theme, applied
        after the window, took 6 px of it, and at 1280x720 the third line was cut behind a
        scroll bar whose 14 px wrapped the text again (QA s23 section 6)."""
        m = self.viewportMargins()
        chrome = self.height() - self.contentsRect().height() + m.top() + m.bottom()
        margin = math.ceil(self.document().documentMargin())
        self.setFixedHeight(SUMMARY_LINES * self.fontMetrics().lineSpacing() + 2 * margin + 1
                            + chrome)

    def event(self, e: QEvent) -> bool:
        done = super().event(e)
        if e.type() == QEvent.Type.Polish:  # the style sheet's box is known from here on
            self._fit()
        return done

    def changeEvent(self, e: QEvent) -> None:  # noqa: N802 - Qt override
        super().changeEvent(e)
        if e.type() in (QEvent.Type.StyleChange, QEvent.Type.FontChange):
            self._fit()

    def text(self) -> str:
        return self.toPlainText()

    def setText(self, text: str) -> None:  # noqa: N802 - QLabel's name, kept for callers
        self.setPlainText(text)


SUMMARY_LINES = 3
ANALYSIS_WHERE = "analysis"  # the Where of a background analysis' finding (not "file")


class FindingsModel(QAbstractTableModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.findings: list[Finding] = []
        self.moments: list[Moment | None] = []
        self.outside: list[bool] = []  # from a background analysis: not in the verdict

    def set_findings(self, findings: list[Finding],
                     moments: list[Moment | None] | None = None,
                     outside: list[bool] | None = None) -> None:
        self.beginResetModel()
        self.findings = list(findings)
        self.moments = list(moments) if moments is not None else [None] * len(self.findings)
        self.outside = list(outside) if outside is not None else [False] * len(self.findings)
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
            if col == COL_WHERE:
                # a background analysis' finding, listed among the report's in time order:
                # its row says so (it is not in the verdict nor in a decision)
                where = ANALYSIS_WHERE if self.outside[index.row()] else \
                    "file" if f.line is None else f"line {f.line}"
                when = moment_text(self.moments[index.row()])
                return f"{where}\n{when}" if when else where
            return f"{f.severity.value} · {f.rule}\n{safe_text(' '.join(f.message.split()))}"
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        if role == Qt.ItemDataRole.ForegroundRole and col == COL_WHERE:
            return QBrush(severity_color(f.severity, text=True))  # readable in both themes
        return None


# pixels above the first line of a row (and at least as many below the last); 2, was 3: six
# rows gave 12 px back to the tabs under the dock at 1280x720
ROW_PAD = 2


class _WholeLinesDelegate(QStyledItemDelegate):
    """Paints a cell's text as `lines()` whole lines at most, the last one elided. Qt's own
    painting draws the next wrapped line too when more than its top is inside the cell, so a
    long rule or message showed the top half of a fourth line cut off at the row's edge
    (seen at 1280x720: "log.response_actions_unrun" wrapped and its message was cut mid-line)."""

    def __init__(self, parent, lines: Callable[[], int]) -> None:
        super().__init__(parent)
        self.lines = lines

    @staticmethod
    def drawn_text(opt: QStyleOptionViewItem) -> str:
        """The cell's text as painted: its first line ("warning · log.response_actions_unrun",
        "line 11004") elided to one line of the cell, the rest wrapped below it. Wrapped, a
        long rule took both lines of a two-line row at 1280x720 ("warning ·" /
        "log.response_actions_unr…") and its message was not in the list at all."""
        # Qt's item text has its newlines as U+2028 (QStyledItemDelegate.displayText)
        head, sep, rest = opt.text.replace("\n", "\u2028").partition("\u2028")
        widget = opt.widget
        style = widget.style() if widget is not None else None
        room = opt.rect.width() if style is None else style.subElementRect(
            QStyle.SubElement.SE_ItemViewItemText, opt, widget).width()
        room -= 2 * (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget)
                     + 1) if style is not None else 0
        head = opt.fontMetrics.elidedText(head, Qt.TextElideMode.ElideRight, max(room, 1))
        return head + sep + rest

    def paint(self, painter, option, index) -> None:  # noqa: D102 - Qt override
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        widget = opt.widget
        style = widget.style() if widget is not None else None
        if style is None:
            super().paint(painter, option, index)
            return
        text = self.drawn_text(opt)
        opt.text = ""
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        opt.text = text
        opt.state &= ~QStyle.StateFlag.State_HasFocus  # the focus frame is drawn above
        rect = opt.rect.adjusted(0, ROW_PAD, 0, 0)
        rect.setHeight(min(rect.height(), self.lines() * opt.fontMetrics.lineSpacing()))
        opt.rect = rect
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)


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


class _FindingsView(QTableView):
    """The list; on a resize it tells the panel, which picks the rows' height (`fit_rows`)."""

    def __init__(self, resized: Callable[[], None]) -> None:
        super().__init__()
        self._resized = resized

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._resized()


class FindingsPanel(QWidget):
    finding_activated = Signal(int)  # position in `findings`
    line_requested = Signal(int)  # a line named in a message: go there
    copy_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = _SummaryBox("No submission loaded")
        self.severity_box = QComboBox()
        # "" means all. Never None as item data: PySide6 6.12 mis-counts references to None
        # stored in a QComboBox and aborts the interpreter at exit.
        self.severity_box.addItem("All", "")
        for s in (Severity.ERROR, Severity.WARNING, Severity.INFO):
            self.severity_box.addItem(s.value.capitalize() + "s", s.value)
        self.model = FindingsModel(self)
        self.proxy = _SeverityFilter(self)
        self.proxy.setSourceModel(self.model)
        self.view = _FindingsView(self.fit_rows)
        self.view.setModel(self.proxy)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        fm = self.view.fontMetrics()
        self.row_lines = ROW_LINES
        row_h = self.row_height(ROW_LINES)
        self.view.setItemDelegate(_WholeLinesDelegate(self.view, lambda: self.row_lines))
        vh = self.view.verticalHeader()
        vh.setVisible(False)
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)  # fixed: fast with 10k rows
        vh.setDefaultSectionSize(row_h)
        self.view.setWordWrap(True)
        self.view.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # Never squeezed below MIN_ROWS short rows. No column header: "Where" and "Finding"
        # told nothing the rows do not (a line and a time; a rule and a message), and its
        # 24 px went to the tabs under the dock at 1280x720.
        self.view.horizontalHeader().setVisible(False)
        self.view.setMinimumHeight(MIN_ROWS * self.row_height(SHORT_ROW_LINES)
                                   + 2 * self.view.frameWidth())
        hh = self.view.horizontalHeader()
        hh.setStretchLastSection(True)
        hh.setSectionResizeMode(COL_WHERE, QHeaderView.ResizeMode.Fixed)
        self.view.setColumnWidth(COL_WHERE, fm.horizontalAdvance("line 88888888") + 12)
        self.setMinimumWidth(280)  # the docks are 288 px at 1280x720 (DECISIONS.md)
        self.read_line: Callable[[int], str | None] | None = None  # set by the window
        self.copy_button = QPushButton("Copy finding")
        self.copy_button.setToolTip("Copy the selected finding with its line and time")
        self.copy_button.clicked.connect(self.copy_requested)
        # The filter and Copy finding beside the summary's three lines, not in a row of their
        # own under the message: 30 px more for the tabs under the dock at 1280x720.
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.summary, 1)
        side = QVBoxLayout()
        side.setContentsMargins(0, 0, 0, 0)
        side.setSpacing(2)
        side.addWidget(self.severity_box)
        side.addWidget(self.copy_button)
        side.addStretch(1)
        top.addLayout(side)
        # Wrapped labels ask for their height by width, which a dock does not honour: in a
        # short dock (1280x720) the selected finding's message was painted over the list. So
        # the summary is a box of three lines, and the message is a read-only plain-text
        # box (it scrolls) under the list, in a splitter: nothing can overlap, whatever the
        # dock's size or the texts' lengths.
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(3)
        layout.addLayout(top)
        # The selected finding's full message (a table cell elides long ones).
        # Three whole lines at least: at the findings' minimum height (1280x720) two and a
        # half showed, the last cut through.
        self.message = _text_box("findingMessage", lines=3)
        # A message naming another line: go there, and see both lines side by side in a
        # pane of their own (the window puts it under the event table: `compare_lines`).
        self.compare = CompareLines()
        self.compare.setVisible(False)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.view)
        self.splitter.addWidget(self.message)
        # A taller dock gives its height to the list (more rows), not to the message box
        # (which scrolls): `window_sizes.fit_findings_dock` sizes the dock for MIN_ROWS rows.
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 0)
        layout.addWidget(self.splitter, 1)
        # "Go to line N" in the side-by-side pane, beside that line's title: it shows exactly
        # when a message names another line, and takes no height from the dock.
        self.goto_line_button = QPushButton("")
        self.goto_line_button.setObjectName("gotoOtherLine")
        self.goto_line_button.clicked.connect(self._goto_other)
        self.compare.add_goto_button(self.goto_line_button)
        self._other: int | None = None
        self._selecting = False  # `select` moves the current row: no activation
        self.severity_box.currentIndexChanged.connect(self._severity_changed)
        self.view.clicked.connect(self._activated)
        self.view.activated.connect(self._activated)
        self.view.selectionModel().currentRowChanged.connect(
            lambda cur, _prev: None if self._selecting else self._activated(cur))

    def row_height(self, lines: int) -> int:
        return lines * self.view.fontMetrics().lineSpacing() + 2 * ROW_PAD

    def fit_rows(self) -> None:
        """Rows of ROW_LINES lines when MIN_ROWS of them fit the list, else of
        SHORT_ROW_LINES: the height decides how much of each message a row shows, never how
        few rows are in view (six at 1280x720, where three-line rows left 2.5)."""
        tall = self.row_height(ROW_LINES)
        lines = ROW_LINES if self.view.viewport().height() >= MIN_ROWS * tall else SHORT_ROW_LINES
        if lines != self.row_lines:
            self.row_lines = lines
            self.view.verticalHeader().setDefaultSectionSize(self.row_height(lines))

    def rows_in_view(self) -> int:
        """Whole rows the list shows at once."""
        return self.view.viewport().height() // self.row_height(self.row_lines)

    @property
    def findings(self) -> list[Finding]:
        return self.model.findings

    def moment(self, i: int) -> Moment | None:
        return self.model.moments[i] if 0 <= i < len(self.model.moments) else None

    def analysis_warnings(self) -> int:
        """The warnings listed from the background analyses (scan, auto-sync): on the list,
        not in the verdict; the decision's confirmation names them (QA s41's walk)."""
        return sum(1 for f, out in zip(self.model.findings, self.model.outside, strict=False)
                   if out and f.severity == Severity.WARNING)

    def set_report(self, report: Report | None, findings: list[Finding] | None = None,
                   moments: list[Moment | None] | None = None, analysis: int = 0,
                   outside: list[bool] | None = None) -> None:
        """`outside`: which `findings` come from the background analyses (scan, auto-sync):
        listed, but not in the report's counts nor in a decision; without it, the last
        `analysis` of them."""
        self._show_other(None, None)
        if report is None:
            self.summary.setText("No submission loaded")
            self.message.setPlainText("")
            self.model.set_findings([])
            return
        fl = report.findings
        shown = findings if findings is not None else fl.sorted()
        if outside is None:
            outside = [i >= len(shown) - analysis for i in range(len(shown))]
        analysis = sum(outside)
        verdict = report.verdict.upper()
        extra = "" if report.complete else " (incomplete: reading stopped early)"
        dropped = f", {fl.dropped} more not listed" if fl.dropped else ""
        # Verdict, counts and what is outside the verdict: the box shows three lines beside
        # the filter at 1280x720 (about 28 characters each). The offset and the event count
        # are not repeated here: the status bar says both (and the Sync panel the offset, the
        # table's corner the events). After "+1 from the video analysis, not in the verdict"
        # they made four lines at 1280x720, behind a scroll bar, the fourth's top cut at the
        # box's edge (session 40's walk; "+5 from the" cut before them, QA s17 K3). The kind
        # is not repeated (the Decision tab's title and the Run tab say it).
        self.summary.setText(
            f"{verdict}{extra} · {counted(fl.errors, 'error')}, "
            f"{counted(fl.warnings, 'warning')}, {fl.infos:,} info{dropped}"
            + (f" · +{analysis} from the video analysis, not in the verdict" if analysis else ""))
        self.model.set_findings(shown, moments, outside)
        self.message.setPlainText("")

    def select(self, i: int) -> None:
        """Select finding `i` (position in `findings`) without emitting activation twice."""
        src = self.model.index(i, 0)
        proxy = self.proxy.mapFromSource(src)
        if proxy.isValid():
            # Not by blocking the selection model's signals: the view repaints the rows whose
            # selection changed on those signals, so the rows selected before stayed painted
            # as selected (three findings highlighted at once, session 12's walk on Xvfb).
            self._selecting = True
            try:
                self.view.setCurrentIndex(proxy)
            finally:
                self._selecting = False
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
        # the file is a submitted name (an archive member's, a folder's file's): its ESC or
        # RLO must not reach the box (session 25: "v\xe9\x1b[2J.avi" shown raw)
        where = f"{safe_text(f.file or '')}{'' if f.line is None else f':{f.line}'}"
        when = moment_text(self.moment(i))
        self.message.setPlainText(f"{f.severity.value} {f.rule} {where}"
                                  + (f" at {when}" if when else "")
                                  + f": {safe_output(f.message)}")
        self._show_other(other_line(f), f.line)

    def _show_other(self, other: int | None, own: int | None) -> None:
        """The line a message names: a button to go there, and both lines side by side."""
        self._other = other
        if other is None:
            self.compare.setVisible(False)
            return
        self.goto_line_button.setText(f"Go to line {other}")
        read = self.read_line
        other_text = read(other) if read is not None else None
        own_text = read(own) if read is not None and own is not None else None
        if other_text is None:  # no such line: nowhere to go
            self.compare.setVisible(False)
            return
        self.compare.show_lines(other, other_text, own, own_text)
        # shown only where the window placed it (a pane of its own), never as a window
        self.compare.setVisible(self.compare.parentWidget() is not None)

    def _goto_other(self) -> None:
        if self._other is not None:
            self.line_requested.emit(self._other)

    def _activated(self, proxy_index: QModelIndex) -> None:
        if proxy_index.isValid():
            self._show_message(self.proxy.mapToSource(proxy_index).row())
            self.finding_activated.emit(self.proxy.mapToSource(proxy_index).row())
