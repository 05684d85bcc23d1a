"""The event table model: lazy row reads, filters, raw-text search, and the detail pane."""

from __future__ import annotations

import numpy as np
from PySide6.QtWidgets import QTableView
from ui_helpers import make_big_index, make_index

from moderator_app.ui.event_detail import TRUNCATE_CHARS, EventDetail
from moderator_app.ui.event_table import EventTableModel, search_rows


def test_only_visible_rows_are_read(qtbot, tmp_path):
    index = make_big_index(tmp_path, 200_000)
    reads = []
    real = index.read_raw
    index.read_raw = lambda row: reads.append(row) or real(row)
    model = EventTableModel()
    model.set_index(index)
    view = QTableView()
    qtbot.addWidget(view)
    view.verticalHeader().setDefaultSectionSize(20)
    view.setModel(model)
    view.resize(600, 400)
    view.show()
    qtbot.waitExposed(view)
    view.grab()
    assert model.rowCount() == 200_000
    assert 0 < len(set(reads)) < 60
    view.scrollToBottom()
    view.grab()
    assert max(reads) >= 199_990 and len(set(reads)) < 120


def test_filter_and_search(qtbot, tmp_path):
    events = [{"type": t, "t": float(i), "msg": m} for i, (t, m) in enumerate(
        [("a", "hello"), ("b", "HeLLo world"), ("a", "bye"), ("c", "hello again")])]
    index = make_index(tmp_path, events)
    model = EventTableModel()
    model.set_index(index, "Type")
    model.set_filter(lanes={"a"})
    assert model.rows.tolist() == [0, 2]
    model.set_filter(text="hello")
    assert model.rows.tolist() == [0, 1, 3]
    model.set_filter(lanes={"a", "c"}, text="hello")
    assert model.rows.tolist() == [0, 3]
    assert model.proxy_row(3) == 1 and model.proxy_row(1) is None
    assert model.headerData(3, __import__("PySide6.QtCore").QtCore.Qt.Orientation.Horizontal) \
        == "Type"


def test_search_across_chunk_boundaries(tmp_path, monkeypatch):
    import moderator_app.ui.event_table as et

    monkeypatch.setattr(et, "SEARCH_CHUNK", 7)  # force matches to straddle chunks
    index = make_index(tmp_path, [{"type": "x", "t": 0.0, "m": "needle"},
                                  {"type": "x", "t": 1.0, "m": "hay"},
                                  {"type": "x", "t": 2.0, "m": "NEEDLE"}])
    assert search_rows(index, "needle").tolist() == [0, 2]
    assert search_rows(index, "no such").tolist() == []
    assert np.array_equal(search_rows(index, ""), np.arange(3))


def test_detail_is_pretty_plain_text_and_truncates(qtbot, tmp_path):
    big = "y" * (TRUNCATE_CHARS + 500)
    index = make_index(tmp_path, [{"type": "x", "t": 0.0, "html": "<b>x</b>"},
                                  {"type": "x", "t": 1.0, "big": big}])
    d = EventDetail()
    qtbot.addWidget(d)
    d.show_event(index, 0)
    assert '"html": "<b>x</b>"' in d.text.toPlainText()
    assert not d.show_all_button.isVisibleTo(d)
    d.show_event(index, 1)
    assert "truncated" in d.text.toPlainText()
    assert d.show_all_button.isVisibleTo(d)
    d.show_all()
    assert big in d.text.toPlainText()


def test_invalid_json_line_is_shown_raw(qtbot, tmp_path):
    src = tmp_path / "bad.jsonl"
    src.write_bytes(b"{not json <b>\n")
    from moderator_app.core.formats.event_index import EventIndex

    index = EventIndex(src)
    index.add(0, 13, 1, None, "invalid", "invalid")
    d = EventDetail()
    qtbot.addWidget(d)
    d.show_event(index, 0)
    assert d.text.toPlainText() == "{not json <b>"
    model = EventTableModel()
    model.set_index(index)
    assert model.index(0, 2).data() == ""  # no time
    assert model.index(0, 5).data() == "{not json <b>"
