"""The workstation on submissions with hostile names (session-4 hostile pass): a folder whose
name is not UTF-8 crashed the window with SIGSEGV once the sync analysis decoded the video
in-process; a name's ESC or RLO reached the window title and the decision panel raw."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from ui_helpers import WAIT_MS, ini_settings, shown_main_window, wait_idle

from moderator_app.core.samples.community import make_agent_log, make_video
from moderator_app.core.sync.analysis import SyncAnalysis
from moderator_app.ui.opening import window_title

RAW = ("\x1b", "\x07", "\u202e", "\n")


@pytest.fixture
def window(qtbot, tmp_path):
    w = shown_main_window(qtbot, ini_settings(tmp_path), size=None)
    yield w
    w.shutdown()


def test_window_title_escapes_a_hostile_name():
    title = window_title("run\x1b]0;PWN\x07\u202egpj.exe\n")
    assert not [c for c in RAW if c in title]
    assert title.startswith("run\\u001b]0;PWN\\u0007\\u202egpj.exe\\u000a")


def test_non_utf8_folder_name_opens_and_syncs_without_a_crash(qtbot, window, tmp_path):
    folder = os.fsencode(tmp_path) + b"/run\xe9\x1b[31m"
    os.mkdir(folder)
    path = Path(os.fsdecode(folder))
    dur = make_agent_log(path / "agent-log.jsonl", n_events=30, seed=4)
    # written under a plain name first: cv2.VideoWriter itself crashes on a non-UTF-8 path
    make_video(tmp_path / "plain.mp4", dur + 0.5, fps=5, size=(32, 18))
    os.rename(tmp_path / "plain.mp4", folder + b"/vid\xe9o.mp4")
    done: list[object] = []
    window.sync_runner.analysed.connect(done.append)
    window.open_paths([path])
    qtbot.waitUntil(lambda: window.session.result is not None, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: any(isinstance(a, SyncAnalysis) for a in done), timeout=60000)
    assert window.session.result.report.verdict == "pass"
    assert not [c for c in RAW if c in window.windowTitle()]
    assert not [c for c in RAW if c in window.decision_panel.title.text()]


def test_a_symlink_loop_is_a_message_not_an_internal_error(qtbot, window, tmp_path):
    """Opening `run.zip -> run.zip` raised RuntimeError in the recent-files list (Path.resolve
    on a loop) before anything was verified: "internal error" instead of "Cannot open"."""
    loop = tmp_path / "run.zip"
    os.symlink("run.zip", loop)
    window.open_paths([loop])
    qtbot.waitUntil(lambda: "Cannot open" in window.status_label.text(), timeout=WAIT_MS)
    assert window.session.result is None


def test_event_summary_and_detail_escape_control_and_bidi_characters():
    """The table's summary and the detail pane showed a payload's NUL, ESC, C1 and RLO raw
    (an RLO reorders the rest of what the moderator reads)."""
    import orjson

    from moderator_app.ui.event_detail import pretty
    from moderator_app.ui.event_text import event_text

    line = orjson.dumps({"seq": 0, "type": "run_start", "data": {
        "game": "a\x00b\x1b[2J", "category": "c", "model": "m\u202egpj.exe\u0085",
        "scaffold": {"name": "s"}}})
    raw = ("\x1b", "\x07", "\u202e", "\x00", "\x85")  # the pane's own newlines are fine
    assert not [c for c in (*raw, "\n") if c in event_text(line, official=False)]
    for text in (pretty(line), pretty(b"{bad \x1b\xe2\x80\xae")):
        assert not [c for c in raw if c in text], ascii(text)
    assert "\\u202e" in pretty(line) and '"seq": 0' in pretty(line)


def test_producer_and_type_names_are_escaped_in_table_timeline_and_filter(qtbot, window,
                                                                         tmp_path):
    from PySide6.QtCore import Qt

    from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory
    from moderator_app.ui.event_table import COL_KIND, COL_LANE

    events = make_run_events(12, seed=3)
    events[5]["type"] = "\x1b]0;PWN\x07"
    events[6]["producer"] = "agent\u202egpj"
    sub = tmp_path / "official"
    sub.mkdir()
    write_trajectory(sub / "events.jsonl.zst", events)
    window.open_paths([sub])
    qtbot.waitUntil(lambda: window.session.result is not None, timeout=WAIT_MS)
    model = window.table_model
    shown = [model.data(model.index(r, c), Qt.ItemDataRole.DisplayRole)
             for r in range(model.rowCount()) for c in (COL_LANE, COL_KIND)]
    shown += window.timeline.lane_names and [window.lane_filter.itemText(i)
                                             for i in range(window.lane_filter.count())]
    assert "\\u001b]0;PWN\\u0007" in shown and "agent\\u202egpj" in shown
    assert not [t for t in shown if any(c in t for c in RAW)]
    window.lane_filter.setCurrentIndex(window.lane_filter.findText("agent\\u202egpj"))
    qtbot.waitUntil(lambda: model.rowCount() == 1, timeout=WAIT_MS)  # filtered by the raw name


def test_the_recent_files_menu_shows_a_hostile_path_escaped(qtbot, window, tmp_path):
    """Session 16 hostile pass: File > Open recent listed a submission's path with its ESC,
    BEL, DEL, NEL and U+202E raw (the menu is plain text, but an RLO reorders what follows
    and a `&` became a keyboard accelerator, hiding the character)."""
    folder = tmp_path / "run \x1b]0;own\x07\u202egnp\x85\x7f R&D"
    folder.mkdir()
    window.open_paths([folder])
    shown = [a.text() for a in window.recent_menu.actions()]
    assert len(shown) == 1, shown
    assert not [c for c in (*RAW, "\x7f", "\x85") if c in shown[0]], ascii(shown[0])
    assert shown[0].endswith("run \\u001b]0;own\\u0007\\u202egnp\\u0085\\u007f R&&D")
    wait_idle(qtbot, window)  # the verification of the empty folder ends (a message)


def test_a_findings_file_name_is_shown_escaped_in_the_message_box_and_rows(qtbot, window,
                                                                          tmp_path):
    """Session 25 hostile sweep: a video named `vid\\xe9\\x1b[31m.mp4` (an ESC, a Latin-1 byte)
    had its finding's file shown with the ESC raw in the selected finding's message box."""
    from PySide6.QtCore import Qt

    folder = tmp_path / "run"
    folder.mkdir()
    dur = make_agent_log(folder / "agent-log.jsonl", n_events=30, seed=4)
    make_video(tmp_path / "plain.mp4", dur + 2.0, fps=5, size=(32, 18))
    os.rename(tmp_path / "plain.mp4", os.fsencode(folder) + b"/vid\xe9\x1b[31m\xe2\x80\xae.mp4")
    window.open_paths([folder])
    qtbot.waitUntil(lambda: window.session.result is not None, timeout=WAIT_MS)
    panel = window.findings
    named = [i for i, f in enumerate(panel.model.findings) if f.file and "vid" in f.file]
    assert named, [(f.rule, f.file) for f in panel.model.findings]
    for i in named:
        window.select_finding(i)
        shown = panel.message.toPlainText()
        assert "vid\\xe9\\u001b[31m\\u202e.mp4" in shown, ascii(shown)
        assert not [c for c in RAW if c in shown], ascii(shown)
        row = panel.model.data(panel.model.index(i, 1), Qt.ItemDataRole.DisplayRole)
        assert not [c for c in RAW[:3] if c in row], ascii(row)


def test_invisible_characters_in_a_name_are_shown_and_honest_ones_kept(qtbot, window, tmp_path):
    """Session 27 hostile sweep: a folder named `agent-log.jsonl` + U+200B (or with a BOM, a
    soft hyphen) was drawn as `agent-log.jsonl`. The window's title and File > Open recent
    show the escapes; a Persian ZWNJ and an emoji ZWJ sequence stay as written."""
    folder = tmp_path / "agent-log.jsonl\u200b \ufeff\u00ad \u0645\u06cc\u200c\u062e \U0001f468\u200d\U0001f469"
    folder.mkdir()
    window.open_paths([folder])
    shown = [a.text() for a in window.recent_menu.actions()]
    assert len(shown) == 1, shown
    tail = "agent-log.jsonl\\u200b \\ufeff\\u00ad \u0645\u06cc\u200c\u062e \U0001f468\u200d\U0001f469"
    assert shown[0].endswith(tail), ascii(shown[0])
    wait_idle(qtbot, window)
    assert window.windowTitle() == f"{tail} — Moderator Workstation", ascii(window.windowTitle())
