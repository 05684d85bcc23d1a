"""The review loop a moderator can trust: what the screen says at the current sync offset is
what the ledger records, the same record `moderator-app decide --offset` makes; every finding
leads to its moment; the view follows the video; the form is cleared after a decision."""

from __future__ import annotations

import math

import orjson
import pytest
from PySide6.QtCore import QSettings, Qt
from test_ui_main_window import make_submission, open_and_wait, unrequested_action
from ui_helpers import WAIT_MS, wait_idle

from moderator_app.cli import main as cli_main
from moderator_app.core.ledger.records import REJECT
from moderator_app.core.ledger.store import Ledger
from moderator_app.ui.main_window import MainWindow
from moderator_app.ui.video_player import NO_FOOTAGE

FPS = 10.0


@pytest.fixture
def settings(tmp_path):
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def window(qtbot, settings, tmp_path):
    w = MainWindow(settings=settings, store_path=tmp_path / "gui.sqlite3")
    qtbot.addWidget(w)
    w.resize(1280, 720)
    w.show()
    w.decision_panel.reviewer.setText("mod")
    yield w
    w.shutdown()


def records(path):
    with Ledger(path, create=False) as ledger:
        return [d.record.to_dict() for d in ledger.list()]


def without_time(rec: dict) -> dict:
    return {k: v for k, v in rec.items() if k != "decided_at"}


def test_offset_not_covered_fails_everywhere_and_gui_records_what_the_cli_records(
        qtbot, window, tmp_path):
    folder, duration = make_submission(tmp_path / "sub", extra_seconds=3.0)
    open_and_wait(qtbot, window, folder)
    assert window.session.report.verdict == "pass"
    window.sync.spin.setValue(10.0)  # 7 s of the run's end have no footage: NOT COVERED
    wait_idle(qtbot, window)  # the analysis measured again at 10 s re-lists the findings
    report = window.session.report
    assert report.verdict == "fail" and report.offset == 10.0
    assert "NOT COVERED" in window.sync.coverage_label.text()
    assert window.findings.summary.text().startswith("FAIL")
    assert window.status_label.text().startswith("FAIL")
    assert window.decision_panel.summary.text().startswith("FAIL · 1 error · offset +10.000 s")
    run_rows = {window.run_summary.tree.topLevelItem(i).child(j).text(0):
                window.run_summary.tree.topLevelItem(i).child(j).text(1)
                for i in range(window.run_summary.tree.topLevelItemCount())
                for j in range(window.run_summary.tree.topLevelItem(i).childCount())}
    assert run_rows["verdict"] == "FAIL"
    rules = [f.rule for f in window.findings.findings]
    assert "coverage.missing" in rules
    assert window.decision_panel.reason.currentData() == "video-coverage"  # follows findings
    asked = []
    window.decision_panel.confirm = lambda title, text: asked.append(text) or True
    window.decision_panel.reason.setCurrentIndex(
        window.decision_panel.reason.findData("video-coverage"))
    window.decision_panel.note.setPlainText("the end is missing")
    stored = window.decision_panel.decide(REJECT)
    assert stored is not None
    assert "FAIL" in asked[0] and "+10.000 s" in asked[0]
    gui = records(tmp_path / "gui.sqlite3")
    assert cli_main(["decide", str(folder), "--reject", "--reason", "video-coverage",
                     "--note", "the end is missing", "--reviewer", "mod", "--offset", "10",
                     "--store", str(tmp_path / "cli.sqlite3")]) == 0
    cli = records(tmp_path / "cli.sqlite3")
    assert len(gui) == len(cli) == 1
    assert gui[0]["summary"]["verdict"] == "fail"
    assert gui[0]["summary"]["rules"]["coverage.missing"] == 1
    assert without_time(gui[0]) == without_time(cli[0])
    # Back to a covering offset: PASS again everywhere, and an accept records pass.
    window.sync.spin.setValue(0.0)
    wait_idle(qtbot, window)
    assert window.session.report.verdict == "pass"
    assert window.findings.summary.text().startswith("PASS")
    assert "coverage.missing" not in [f.rule for f in window.findings.findings]


def test_after_a_decision_the_form_is_cleared_and_the_next_submission_offered(
        qtbot, window, tmp_path):
    a, _ = make_submission(tmp_path / "a")
    b, _ = make_submission(tmp_path / "b", n_events=30)
    open_and_wait(qtbot, window, a)
    panel = window.decision_panel
    panel.confirm = lambda _t, _x: True
    panel.note.setPlainText("looked fine")
    asked = []
    window.next_submission_provider = lambda: asked.append(1) or [b]  # a review queue's
    stored = panel.decide("accept")
    assert stored is not None
    assert panel.note.toPlainText() == ""
    assert f"Recorded #{stored.seq}: ACCEPT (ok)" in panel.status.text()
    assert "PASS" in panel.status.text() and panel.next_button.isVisible()
    qtbot.mouseClick(panel.next_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.session.result is not None
                    and window.session.result.submission.display_name == "b", timeout=WAIT_MS)
    wait_idle(qtbot, window)
    assert asked == [1] and window.table_model.rowCount() == 30
    assert not panel.next_button.isVisible()


def test_without_a_review_queue_no_next_submission_button_after_a_decision(
        qtbot, window, tmp_path):
    # Session 40's walk on Xvfb: a submission opened by hand, rejected; the panel offered
    # "Open the next submission", whose click only said "No next submission (no review
    # queue open)" in the status bar.
    a, _ = make_submission(tmp_path / "a")
    b, _ = make_submission(tmp_path / "b", n_events=30)
    open_and_wait(qtbot, window, a)
    wait_idle(qtbot, window)
    panel = window.decision_panel
    said = []
    panel.confirm = lambda _t, text: said.append(text) or True
    assert window.next_submission_provider is None
    assert panel.running == window.busy  # the window's lanes, named in the confirmation
    assert panel.decide("accept").seq == 1
    assert "Still running" not in said[0]  # idle: scan and sync are in
    assert panel.status.text().startswith("Recorded #1: ACCEPT (ok)")
    assert not panel.next_button.isVisible()
    # a queue opened since: the next decision offers its next submission
    window.next_submission_provider = lambda: [b]
    panel.note.setPlainText("again")
    assert panel.decide("accept").seq == 2
    assert panel.next_button.isVisible()


def test_a_passing_runs_form_names_no_reason_and_reject_asks_for_one(qtbot, window, tmp_path):
    # QA s14 G11, again in session 15's walk: after a reject `other` on the first submission,
    # the next (passing) one showed "other" in the reason box; it was the suggestion for a
    # run whose findings name no reason, read as the last reason left in the form. The CLI
    # has no default there either (`decide --reject` needs `--reason`).
    a, _ = make_submission(tmp_path / "a")
    b, _ = make_submission(tmp_path / "b", n_events=30)
    open_and_wait(qtbot, window, a)
    panel = window.decision_panel
    panel.confirm = lambda _t, _x: True
    assert panel.reason.currentData() is None  # was "other"
    assert panel.decide(REJECT) is None
    assert "Choose a reject reason" in panel.status.text()
    assert not (tmp_path / "gui.sqlite3").exists() or records(tmp_path / "gui.sqlite3") == []
    panel.reason.setCurrentIndex(panel.reason.findData("other"))
    panel.note.setPlainText("not the game's own recording")
    window.next_submission_provider = lambda: [b]
    assert panel.decide(REJECT).record.reason == "other"
    assert panel.reason.currentData() is None  # the form cleared
    qtbot.mouseClick(panel.next_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.session.result is not None
                    and window.session.result.submission.display_name == "b", timeout=WAIT_MS)
    wait_idle(qtbot, window)
    assert panel.reason.currentData() is None and panel.note.toPlainText() == ""


def test_reject_other_needs_a_note(qtbot, window, tmp_path):
    folder, _ = make_submission(tmp_path / "sub")
    open_and_wait(qtbot, window, folder)
    panel = window.decision_panel
    panel.confirm = lambda _t, _x: True
    panel.reason.setCurrentIndex(panel.reason.findData("other"))
    assert panel.decide(REJECT) is None
    assert "needs a note" in panel.status.text()
    assert not (tmp_path / "gui.sqlite3").exists() or records(tmp_path / "gui.sqlite3") == []
    panel.note.setPlainText("asked for a new recording")
    assert panel.decide(REJECT) is not None


def test_cli_reject_other_needs_a_note(tmp_path, capsys):
    folder, _ = make_submission(tmp_path / "sub")
    store = tmp_path / "d.sqlite3"
    assert cli_main(["decide", str(folder), "--reject", "--reason", "other", "--reviewer", "m",
                     "--store", str(store)]) == 2
    assert "needs a note" in capsys.readouterr().err
    assert cli_main(["decide", str(folder), "--reject", "--reason", "other", "--note", "why",
                     "--reviewer", "m", "--store", str(store)]) == 0


def test_coverage_finding_jumps_to_the_first_missing_instant(qtbot, window, tmp_path):
    folder, duration = make_submission(tmp_path / "sub", extra_seconds=3.0)
    open_and_wait(qtbot, window, folder)
    window.session.set_offset(10.0)
    wait_idle(qtbot, window)  # the analysis measured again at 10 s re-lists the findings
    findings = window.findings.findings
    i = next(k for k, f in enumerate(findings) if f.rule == "coverage.missing")
    video_end = window.session.report.video.duration_s
    window.select_finding(i)
    assert window.timeline.playhead == pytest.approx(video_end - 10.0, abs=0.11)
    assert window.findings.moment(i).video_s == pytest.approx(video_end)
    # the first missing instant is past the footage, on the picture and in the frame label
    # (FrameIndex.frame_at: the end of the last frame's display interval is no footage)
    assert window.player.has_video and not window.player.in_footage
    assert window.player.position_label.text().startswith(NO_FOOTAGE)
    assert window.timeline.v0 <= video_end - 10.0 <= window.timeline.v1
    # The findings list shows the moment as a time, and the finding's time is copyable.
    text = window.copy_finding()
    assert text.startswith("error coverage.missing") and "at run 00:00:" in text


def test_message_naming_another_line_goes_there_and_compares(qtbot, window, tmp_path):
    folder, _ = make_submission(tmp_path / "sub", tamper=unrequested_action)
    open_and_wait(qtbot, window, folder)
    findings = window.findings.findings
    i = next(k for k, f in enumerate(findings) if f.rule == "log.action_not_requested")
    f = findings[i]
    window.select_finding(i)
    panel = window.findings
    assert panel.goto_line_button.isVisible()
    other = int(panel.goto_line_button.text().rsplit(" ", 1)[1])
    assert f"response on line {other}" in f.message
    assert panel.compare.isVisible()
    assert "SELECT" in panel.compare.this_text.toPlainText()
    assert "SELECT" not in panel.compare.other_text.toPlainText() and "action" in panel.compare.other_text.toPlainText()
    # the button sits in the side-by-side pane (session 14): laid out on the next turn
    qtbot.waitUntil(lambda: not panel.goto_line_button.visibleRegion().isEmpty())
    qtbot.mouseClick(panel.goto_line_button, Qt.MouseButton.LeftButton)
    index = window.session.result.index
    assert index.lines[window.detail.row] == other
    marked = window.table_model.marked
    assert marked.get(index.row_for_line(f.line)) == "error"


def test_readable_event_summaries_in_the_table(qtbot, window, tmp_path):
    folder, _ = make_submission(tmp_path / "sub")
    open_and_wait(qtbot, window, folder)
    model = window.table_model
    index = window.session.result.index
    texts = {index.kind_of(r): model.content(r) for r in range(len(index))}
    assert texts["action"].startswith("press ")
    assert "tokens" in texts["model_response"] and "action" in texts["model_response"]
    assert not any(t.startswith("{") for t in texts.values())


def test_view_follows_the_video(qtbot, window, tmp_path):
    folder, _ = make_submission(tmp_path / "sub")
    open_and_wait(qtbot, window, folder)
    index = window.session.result.index
    times = window.player.times
    # An event whose next one is in a later frame: on the frame that shows it, it is current.
    k = next(r for r in range(20, len(index) - 1)
             if times.frame_at(index.times[r + 1]) > times.frame_at(index.times[r]))
    t = index.times[k]
    window.player.seek_time(t)
    qtbot.waitUntil(lambda: window.player.shown_frame == times.frame_at(t), timeout=WAIT_MS)
    lane = window.timeline.lane_names.index(index.lane_of(k))
    j = window.timeline.current[lane]
    assert int(window.timeline.lane_rows[lane][j]) == k
    assert k in window.table_model.current_rows
    assert k + 1 not in window.table_model.current_rows
    # While playing, the table and the detail follow; pinned, the detail stays.
    window.nav._follow(t)
    assert window.detail.row == k
    window.actions["pin_detail"].trigger()
    assert window.detail.pin.isChecked()
    last = len(index) - 1
    window.nav._follow(index.times[last] + 0.01)
    assert window.detail.row == k
    assert window.table_model.source_row(window.table.currentIndex().row()) == last


def test_table_and_detail_follow_a_jump_while_paused(qtbot, window, tmp_path):
    """Session 23's walk: after End (and 0-9, Home, a step) while paused, the table's current
    row and the detail pane stayed on the row selected before (line 4 at 3.1 s while the
    picture showed 27.5 s). They follow the video as while playing; a selected row stays
    selected when the move came from selecting it, and the pin keeps the detail."""
    folder, _ = make_submission(tmp_path / "sub")
    open_and_wait(qtbot, window, folder)
    index = window.session.result.index
    model = window.table_model
    last = len(index) - 1

    def table_row():
        return model.source_row(window.table.currentIndex().row())

    window.select_event(3)
    assert table_row() == 3 and window.detail.row == 3
    window.actions["jump_end"].trigger()
    assert not window.player.playing
    expected = window.nav.current_row_at(window.nav.run_time()
                                         + window.player.frame_duration() - 1e-6)
    assert expected == last
    assert table_row() == last and window.detail.row == last
    window.actions["jump_percent_5"].trigger()
    mid = window.nav.current_row_at(window.nav.run_time() + window.player.frame_duration()
                                    - 1e-6)
    assert 3 < mid < last
    assert table_row() == mid and window.detail.row == mid
    # A drag on the timeline: followed at its end, not on each move.
    window.timeline.scrub_changed.emit(True)
    window.nav.seek_run_time(index.times[last] - 0.05)
    assert table_row() == mid
    window.timeline.scrub_changed.emit(False)
    assert table_row() == window.nav.current_row_at(
        window.nav.run_time() + window.player.frame_duration() - 1e-6) > mid
    # Selecting a row keeps it, even where a later event falls in the same frame.
    window.select_event(5)
    assert table_row() == 5 and window.detail.row == 5
    # Pinned, the detail stays and the table follows.
    window.actions["pin_detail"].trigger()
    window.actions["jump_start"].trigger()
    assert table_row() == 0 and window.detail.row == 5


def test_keys_follow_mpv_and_youtube(qtbot, window, tmp_path):
    folder, duration = make_submission(tmp_path / "sub")
    open_and_wait(qtbot, window, folder)
    n = window.player.frame_count
    window.actions["jump_percent_5"].trigger()
    assert window.player.current_frame == round(0.5 * (n - 1))
    window.actions["jump_end"].trigger()
    assert window.player.current_frame == n - 1
    window.actions["jump_start"].trigger()
    assert window.player.current_frame == 0
    # `i` and `o` are not retime keys any more; Shift+I is, and the mark shows on the timeline.
    assert window.actions["retime_start"].shortcut().toString() == "Shift+I"
    window.player.seek_frame(12)
    window.actions["retime_start"].trigger()
    assert window.timeline.retime_marks[0] == pytest.approx(1.2 - window.session.offset_s)
    assert "retime marks 1.200 s" in window.decision_panel.summary.text()
    window.actions["fullscreen_video"].trigger()
    assert window.fullscreen.active and not window.right_split.isVisible()
    window.actions["fullscreen_video"].trigger()
    assert not window.fullscreen.active and window.right_split.isVisible()


def test_enter_in_the_offset_box_gives_the_keys_back_to_the_player(qtbot, window, tmp_path):
    folder, _ = make_submission(tmp_path / "sub")
    open_and_wait(qtbot, window, folder)
    spin = window.sync.spin
    window.sync_dock.raise_()
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus, timeout=WAIT_MS)
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, "1.5")
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    assert window.session.offset_s == pytest.approx(1.5)
    assert not spin.hasFocus()
    assert window.player.hasFocus() or window.player.isAncestorOf(QApplication_focus())
    wait_idle(qtbot, window)  # the analysis the offset started again


def QApplication_focus():  # noqa: N802 - a tiny helper
    from PySide6.QtWidgets import QApplication

    return QApplication.focusWidget()


def test_recent_stores_absolute_paths(qtbot, window, tmp_path, monkeypatch):
    folder, _ = make_submission(tmp_path / "sub")
    monkeypatch.chdir(tmp_path)
    window.open_paths([type(folder)("sub")])
    wait_idle(qtbot, window)
    assert window.recent()[0] == str(folder.resolve())


def test_export_findings_writes_json_and_markdown(qtbot, window, tmp_path):
    from moderator_app.ui.export import export_findings

    folder, _ = make_submission(tmp_path / "sub")
    open_and_wait(qtbot, window, folder)
    window.session.set_offset(10.0)
    wait_idle(qtbot, window)
    panel = window.decision_panel
    panel.confirm = lambda _t, _x: True
    panel.reason.setCurrentIndex(panel.reason.findData("video-coverage"))
    panel.note.setPlainText("no footage of the end")
    assert panel.decide(REJECT) is not None
    json_path, md_path = export_findings(window, tmp_path / "sub-findings.md")
    report = orjson.loads(json_path.read_bytes())
    assert report["verdict"] == "fail" and report["sync_offset_s"] == 10.0
    md = md_path.read_text(encoding="utf-8")
    assert "Decision: **REJECT** (video-coverage) by mod" in md
    assert "Note: no footage of the end" in md
    assert "- error coverage.missing video.avi at run 00:00:" in md
    assert math.isfinite(report["coverage"]["missing_s"])


HOSTILE_NAME = "ev\x1b]0;own\x07il\u202egnp\x08\x7f\u0085"


def test_export_findings_escapes_hostile_names_and_notes(qtbot, window, tmp_path):
    """Session 15: a member name's ESC ] 0, BEL, BS, DEL, NEL and U+202E (a folder inside the
    submission) and a note's U+202E reached the exported Markdown raw (main: 6 kinds of raw
    control characters in the .md), and the JSON kept U+202E, DEL and NEL raw."""
    from hostile_corpus import RAW_CONTROL

    from moderator_app.ui.export import export_findings

    (tmp_path / "sub").mkdir()
    make_submission(tmp_path / "sub" / HOSTILE_NAME)
    open_and_wait(qtbot, window, tmp_path / "sub")
    window.session.set_offset(10.0)
    wait_idle(qtbot, window)
    panel = window.decision_panel
    panel.confirm = lambda _t, _x: True
    panel.reason.setCurrentIndex(panel.reason.findData("video-coverage"))
    panel.note.setPlainText("no footage \u202eof the end\x1b[2J")
    assert panel.decide(REJECT) is not None
    json_path, md_path = export_findings(window, tmp_path / "sub-findings.md")
    md = md_path.read_text(encoding="utf-8")
    js = json_path.read_text(encoding="utf-8")
    assert [hex(ord(c)) for c in RAW_CONTROL if c in md and c != "\n"] == []
    assert [hex(ord(c)) for c in RAW_CONTROL if c in js and c != "\n"] == []
    name = "ev\\u001b]0;own\\u0007il\\u202egnp\\u0008\\u007f\\u0085"
    assert f"- error coverage.missing {name}/video.avi" in md
    assert f"- {name}/agent-log.jsonl (agent_log, " in md
    assert "Note: no footage \\u202eof the end\\u001b[2J" in md
    assert orjson.loads(json_path.read_bytes())["files"][0]["name"].startswith(HOSTILE_NAME)


def test_a_video_swapped_after_verification_is_not_decided(qtbot, window, tmp_path):
    """Session 15: the moderator watches the folder's video and decides minutes after the
    verification; a video swapped in between (same size, modification time put back) was
    recorded with the digests of the verified one (main: recorded #1)."""
    import os

    folder, _ = make_submission(tmp_path / "sub")
    open_and_wait(qtbot, window, folder)
    video = folder / "video.avi"
    st = video.stat()
    data = video.read_bytes()
    swap = folder / "swap.tmp"
    swap.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    os.utime(swap, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(swap, video)
    panel = window.decision_panel
    panel.confirm = lambda _t, _x: True
    panel.reason.setCurrentIndex(panel.reason.findData("video-coverage"))
    panel.note.setPlainText("checked")
    assert panel.decide(REJECT) is None
    assert "NOT recorded: video.avi changed since the submission was verified" in \
        panel.status.text()
    assert records(tmp_path / "gui.sqlite3") == []


def test_a_video_swapped_while_the_confirmation_is_open_is_not_decided(qtbot, window, tmp_path):
    """The confirmation can stay open for minutes: a video swapped meanwhile is refused after
    it too (before: the record built before the dialog was stored)."""
    import os

    folder, _ = make_submission(tmp_path / "sub")
    open_and_wait(qtbot, window, folder)
    video = folder / "video.avi"

    def confirm_then_swap(_title, _text):
        data = video.read_bytes()
        swap = folder / "swap.tmp"
        swap.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
        os.replace(swap, video)
        return True

    panel = window.decision_panel
    panel.confirm = confirm_then_swap
    panel.reason.setCurrentIndex(panel.reason.findData("video-coverage"))
    panel.note.setPlainText("checked")
    assert panel.decide(REJECT) is None
    assert "NOT recorded: video.avi changed since the submission was verified" in \
        panel.status.text()
    assert records(tmp_path / "gui.sqlite3") == []


def test_official_checklist_shows_the_evaluator_score_in_words():
    from conftest import SAMPLES

    from moderator_app.core.verify.pipeline import verify_paths
    from moderator_app.ui.checklist import report_hints

    hints = report_hints(verify_paths([SAMPLES / "official-sample"]).report)
    assert hints["score-reviewed"].startswith("evaluator score 64.52 (2 episodes) (line 119)")
    assert "{" not in hints["score-reviewed"]


def test_click_on_the_video_and_escape_give_the_keys_back(qtbot, window, tmp_path):
    folder, _ = make_submission(tmp_path / "sub")
    open_and_wait(qtbot, window, folder)
    window.search.setFocus()
    qtbot.waitUntil(window.search.hasFocus, timeout=WAIT_MS)
    qtbot.keyClicks(window.search, "press")
    qtbot.keyClick(window.search, Qt.Key.Key_Escape)
    assert not window.search.hasFocus() and window.search.text() == "press"
    window.search.setFocus()
    qtbot.waitUntil(window.search.hasFocus, timeout=WAIT_MS)
    qtbot.mouseClick(window.player.view, Qt.MouseButton.LeftButton)
    assert not window.search.hasFocus()
    wait_idle(qtbot, window)  # the typed search ran


def test_reset_layout_brings_back_every_dock(qtbot, window):
    window.findings_dock.hide()
    window.decision_dock.hide()
    window.actions["reset_layout"].trigger()
    assert window.findings_dock.isVisible() and window.decision_dock.isVisible()
    assert window.findings.view.height() >= window.findings.view.minimumHeight() > 60


def test_typing_in_a_text_box_never_fires_a_one_key_shortcut(qtbot, window, tmp_path):
    folder, _ = make_submission(tmp_path / "sub")
    open_and_wait(qtbot, window, folder)
    window.decision_dock.raise_()
    window.activateWindow()
    frame = window.player.current_frame
    for box in (window.decision_panel.note, window.decision_panel.reviewer, window.search):
        box.setFocus()
        qtbot.waitUntil(box.hasFocus, timeout=WAIT_MS)
        qtbot.keyClicks(box, "ok. 5 f m")
        text = box.toPlainText() if hasattr(box, "toPlainText") else box.text()
        assert text.endswith("ok. 5 f m"), text
    assert window.player.current_frame == frame and not window.fullscreen.active
    wait_idle(qtbot, window)  # the typed search ran


def test_status_bar_counts_events_not_index_rows(qtbot, window, tmp_path):
    """Blank lines between events have rows of their own in the event table (so that their
    findings lead somewhere); the status bar counts the events the verifier read, as the
    report and the findings header do."""

    def with_blanks(lines):
        return lines[:5] + [b""] + lines[5:9] + [b" ", b""] + lines[9:]

    folder, _ = make_submission(tmp_path / "sub", tamper=with_blanks)
    open_and_wait(qtbot, window, folder)
    events = sum(1 for ln in (folder / "agent-log.jsonl").read_bytes().splitlines()
                 if ln.strip())
    # a row for each run of blank lines: 40 events, 42 rows
    assert events == 40 and len(window.session.result.index) == 42
    assert window.session.report.events == 40
    assert " · 40 events · " in window.status_label.text()
    assert "event" not in window.findings.summary.text()  # the status bar says them
