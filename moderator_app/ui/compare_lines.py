"""Two lines of the log side by side: the one a finding names ("not one the response on line
11728 asked for") and the finding's own, in the table's words (what was requested, what was
sent).

Its own pane in the central column, between the event table and the event detail, shown only
while the selected finding names another line. In the findings dock it had two lines of text
at 1280x720 (the dock has no height to spare: the Sync panel is under it); here each side has
half the table's width and at least four wrapped lines, and the pane's splitter handle gives
it more. Showing or hiding it moves the table and the detail pane only, never the video or a
dock. All text is plain (`QPlainTextEdit`).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QPlainTextEdit, QWidget

TEXT_LINES = 4  # lines of wrapped text each side shows without scrolling


def _text_box(name: str, lines: int) -> QPlainTextEdit:
    box = QPlainTextEdit()
    box.setObjectName(name)
    box.setReadOnly(True)
    box.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    box.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
    box.setMinimumHeight(lines * box.fontMetrics().lineSpacing() + 10)
    return box


class CompareLines(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("compareLines")
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 2, 0, 2)
        self.other_title = QLabel("")
        self.this_title = QLabel("")
        for w in (self.other_title, self.this_title):
            w.setTextFormat(Qt.TextFormat.PlainText)
            # Wrapped, so that five-digit line numbers never set the pane's minimum width:
            # unwrapped, "Line 11003 (named by the finding)", "Go to line 11003" and "Line
            # 11004 (this finding)" needed 483 px at 1280x720 and narrowed the video panel
            # from 526 to 508 px (its frame label cut off) whenever such a finding was chosen.
            w.setWordWrap(True)
        self.other_text = _text_box("compareOther", TEXT_LINES)
        self.this_text = _text_box("compareThis", TEXT_LINES)
        self._other_row = QHBoxLayout()
        self._other_row.setContentsMargins(0, 0, 0, 0)
        self._other_row.addWidget(self.other_title, 1)
        grid.addLayout(self._other_row, 0, 0)
        grid.addWidget(self.this_title, 0, 1)
        grid.addWidget(self.other_text, 1, 0)
        grid.addWidget(self.this_text, 1, 1)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1)
        grid.setRowStretch(1, 1)

    def add_goto_button(self, button: QWidget) -> None:
        """The findings panel's "Go to line N", beside the title of that line (the pane is
        shown exactly when a finding names another line: the dock keeps its height)."""
        self._other_row.addWidget(button)

    def show_lines(self, other: int, other_text: str, own: int | None,
                   own_text: str | None) -> None:
        """`own` None (a whole-file finding) or unreadable: the named line alone, and "Go to
        line" (the pane is where that button lives)."""
        self.other_title.setText(f"Line {other} (named by the finding)")
        self.this_title.setText("This finding" if own is None else f"Line {own} (this finding)")
        self.other_text.setPlainText(other_text)
        self.this_text.setPlainText("(no line of its own)" if own_text is None else own_text)
