"""The event detail pane: the selected event as pretty JSON, as PLAIN TEXT.

A `QPlainTextEdit` never interprets markup, so a payload holding `<img src="file:///...">` or
`<b>` is shown literally. The pane lays out at most `SHOWN_CHARS` characters: a line longer
than `SHOWN_BYTES` is never read, parsed or wrapped whole on the GUI thread (selecting a
5-15 MiB line blocked the window 1.5-2.5 s while the pane wrapped all of it, session 10);
its first 64 KiB are shown as written, with its size, and "Copy line" copies all of it.
"""

from __future__ import annotations

import codecs

import orjson
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QGuiApplication
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

#: A line longer than this (bytes) is shown in part: its first `SHOWN_BYTES`, as written.
SHOWN_BYTES = 64 * 1024
#: The most characters the pane lays out (a shorter line's indented form can be longer).
SHOWN_CHARS = SHOWN_BYTES
#: The longest line of text the pane lays out as one block: a longer one is shown broken
#: every `BREAK_CHARS` characters (Copy line copies it as written). Qt lays a block out
#: whole, and 64 KiB with no break opportunity ("aaaa…", a base64 blob) took 0.33 s of CPU
#: in a 300 px pane; broken every 1,024 characters 0.003 s (offscreen, session 10).
BREAK_CHARS = 1024


def size_text(n: int) -> str:
    """`14.6 MiB`, `80 KiB`: a line's size as the moderator reads it."""
    return f"{n / (1 << 20):.1f} MiB" if n >= 1 << 20 else f"{n / 1024:.0f} KiB"


def broken_lines(text: str) -> str:
    """`text` with every line longer than `BREAK_CHARS` broken into lines of that length."""
    if all(len(line) <= BREAK_CHARS for line in text.split("\n")):
        return text
    out: list[str] = []
    for line in text.split("\n"):
        out.extend(line[i:i + BREAK_CHARS] for i in range(0, len(line), BREAK_CHARS))
        if not line:
            out.append("")
    return "\n".join(out)


def prefix_text(raw: bytes) -> str:
    """The text of a line's first bytes: a character cut at the end is left out, not shown as
    a replacement character."""
    return safe_text(codecs.getincrementaldecoder("utf-8")("replace").decode(raw, final=False))


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
        # The whole line, whatever the pane shows of it (a moderator reads a long line in an
        # editor, where megabytes do not block the review).
        self.copy_button = QPushButton("Copy line")
        self.copy_button.setObjectName("copyLine")
        self.copy_button.setToolTip("Copy the whole line, as written, to the clipboard")
        self.copy_button.setEnabled(False)
        self.copy_button.clicked.connect(self.copy_line)
        # Pinned: the pane keeps this event while the video plays on (else it follows).
        self.pin = QToolButton()
        self.pin.setObjectName("pinDetail")
        self.pin.setText("Pin")
        self.pin.setCheckable(True)
        self.pin.setToolTip("Keep this event here while the video plays")
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.header, 1)
        top.addWidget(self.copy_button)
        top.addWidget(self.pin)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(top)
        layout.addWidget(self.text, 1)
        self._index: EventIndex | None = None
        self.row: int | None = None

    def show_event(self, index: EventIndex, row: int) -> None:
        self.row = row
        self._index = index
        t = index.times[row]
        when = "no time" if t != t else format_timecode(t)
        lane, kind = index.lane_of(row), index.kind_of(row)
        what = kind if lane == kind else f"{lane} / {kind}"  # a community lane is its type
        head = f"event {row + 1} · line {index.lines[row]} · {when} · {what}"
        length = index.lengths[row]
        self.copy_button.setEnabled(True)
        try:
            if length > SHOWN_BYTES:
                # The note first, where it is seen; the header says it too, in short.
                text = (f"[line is {size_text(length)}, shown in part (the first "
                        f"{size_text(SHOWN_BYTES)}); Copy line copies all]\n"
                        + prefix_text(index.read_prefix(row, SHOWN_BYTES)))
                head += f" · {size_text(length)}, shown in part"
            else:
                text = pretty(index.read_raw(row))
                if len(text) > SHOWN_CHARS:
                    text = (text[:SHOWN_CHARS] + f"\n\n… shown in part: {len(text) - SHOWN_CHARS:,}"
                            " more characters; Copy line copies the whole line")
        except (OSError, ValueError) as exc:
            text = f"(cannot read this event: {exc})"
            self.copy_button.setEnabled(False)
        self.header.setText(head)
        self.text.setPlainText(broken_lines(text))

    def set_pinned(self, pinned: bool) -> None:
        self.pin.setChecked(pinned)

    def copy_line(self) -> str | None:
        """The selected line, whole and as written (decoded), onto the clipboard; returned."""
        if self._index is None or self.row is None:
            return None
        try:
            text = self._index.read_raw(self.row).decode("utf-8", "replace")
        except (OSError, ValueError):
            return None
        QGuiApplication.clipboard().setText(text)
        return text

    def clear(self) -> None:
        self.row = None
        self._index = None
        self.header.setText("No event selected")
        self.text.clear()
        self.copy_button.setEnabled(False)
