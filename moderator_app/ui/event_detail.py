"""The event detail pane: the selected event as pretty JSON, as PLAIN TEXT.

A `QPlainTextEdit` never interprets markup, so a payload holding `<img src="file:///...">` or
`<b>` is shown literally. Long payloads are truncated (rendering megabytes of text is what made
long transcripts fail in other viewers) with a button to show everything on request.
"""

from __future__ import annotations

import orjson
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from moderator_app.core.formats.event_index import EventIndex
from moderator_app.core.text import safe_json, safe_text
from moderator_app.ui.event_text import RAW_ABOVE
from moderator_app.ui.timefmt import format_timecode

TRUNCATE_CHARS = 100_000


def pretty(raw: bytes) -> str:
    """Indented JSON when the line parses, else the line itself (decoded with replacement).
    Control, C1 and bidi characters are escapes (`safe_json` / `safe_text`): an RLO in a
    payload would otherwise reorder what the moderator reads. A line above `RAW_ABOVE` is
    its text as written, not re-serialised (`event_text.RAW_ABOVE` says why)."""
    if len(raw) > RAW_ABOVE:
        return safe_text(raw.decode("utf-8", "replace"))
    try:
        obj = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return safe_text(raw.decode("utf-8", "replace"))
    try:
        return safe_json(obj, indent=True)
    except (TypeError, orjson.JSONEncodeError):
        return safe_text(raw.decode("utf-8", "replace"))


class EventDetail(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.header = QLabel("No event selected")
        self.header.setTextFormat(Qt.TextFormat.PlainText)
        self.header.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.header.setWordWrap(True)
        # Two lines, always: a header that wrapped for some events and not others moved the
        # JSON below it up and down while the pane followed the video (seen at 1280x720).
        self.header.setFixedHeight(2 * self.header.fontMetrics().lineSpacing() + 2)
        self.header.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.show_all_button = QPushButton("Show all")
        self.show_all_button.setVisible(False)
        self.show_all_button.clicked.connect(self.show_all)
        # Pinned: the pane keeps this event while the video plays on (else it follows).
        self.pin = QToolButton()
        self.pin.setObjectName("pinDetail")
        self.pin.setText("Pin")
        self.pin.setCheckable(True)
        self.pin.setToolTip("Keep this event here while the video plays")
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.header, 1)
        top.addWidget(self.show_all_button)
        top.addWidget(self.pin)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(top)
        layout.addWidget(self.text, 1)
        self._full = ""
        self.row: int | None = None

    def show_event(self, index: EventIndex, row: int) -> None:
        self.row = row
        t = index.times[row]
        when = "no time" if t != t else format_timecode(t)
        lane, kind = index.lane_of(row), index.kind_of(row)
        what = kind if lane == kind else f"{lane} / {kind}"  # a community lane is its type
        self.header.setText(f"event {row + 1} · line {index.lines[row]} · {when} · {what}")
        try:
            self._full = pretty(index.read_raw(row))
        except (OSError, ValueError) as exc:
            self._full = f"(cannot read this event: {exc})"
        if len(self._full) > TRUNCATE_CHARS:
            self.text.setPlainText(
                self._full[:TRUNCATE_CHARS]
                + f"\n\n… truncated: {len(self._full) - TRUNCATE_CHARS:,} more characters "
                "(Show all)")
            self.show_all_button.setVisible(True)
        else:
            self.text.setPlainText(self._full)
            self.show_all_button.setVisible(False)

    def set_pinned(self, pinned: bool) -> None:
        self.pin.setChecked(pinned)

    def show_all(self) -> None:
        self.text.setPlainText(self._full)
        self.show_all_button.setVisible(False)

    def clear(self) -> None:
        self.row = None
        self._full = ""
        self.header.setText("No event selected")
        self.text.clear()
        self.show_all_button.setVisible(False)
