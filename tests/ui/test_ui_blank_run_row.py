"""A run of blank lines is one row of the event index, however long (issue 15 point 8); the
table's text of that row read the whole run into memory (session 25: 640 MiB of newlines in
zstd took the window to 749 MB). What is shown of a row above RAW_ABOVE bytes is its start,
and only that start is read."""

from __future__ import annotations

from moderator_app.core.formats.event_index import EventIndex
from moderator_app.ui.event_table import BLANK_KIND, EventTableModel
from moderator_app.ui.event_text import MAX_CHARS, event_text

MIB = 1 << 20


class _Counting(EventIndex):
    """An index that counts the bytes its reads return."""

    read_bytes = 0

    def read_raw(self, row: int) -> bytes:
        data = super().read_raw(row)
        self.read_bytes += len(data)
        return data

    def read_prefix(self, row: int, limit: int) -> bytes:
        data = super().read_prefix(row, limit)
        self.read_bytes += len(data)
        return data


def test_a_long_blank_run_is_shown_from_its_start_without_reading_it_whole(qtbot, tmp_path):
    src = tmp_path / "events.jsonl"
    run = 48 * MIB
    src.write_bytes(b'{"type":"x"}\n' + b"\n" * run + b'{"type":"y"}\n')
    index = _Counting(source=src)
    index.add(0, 12, 1, None, "?", "x")
    index.add(13, run, 2, None, "?", BLANK_KIND)
    index.add(13 + run, 12, run + 2, None, "?", "y")
    model = EventTableModel()
    model.set_index(index, official=True)
    shown = model.content(1)
    assert shown.startswith("[48.0 MiB line, shown raw]"), shown
    # the same text as the whole run's, from at most what is shown of it
    assert shown == event_text(b"\n" * run, True).replace("\n", " ")[:len(shown)]
    assert index.read_bytes <= 4 * MAX_CHARS, index.read_bytes
    assert model.content(0) and index.read_bytes <= 4 * MAX_CHARS + 12
