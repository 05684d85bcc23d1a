"""The decision panel and walkthrough checklist (pytest-qt, offscreen), against the CLI."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("pytestqt")

from ledgerhelp import fake_result  # noqa: E402
from PySide6.QtCore import QSettings, Qt, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox  # noqa: E402
from ui_helpers import WAIT_MS  # noqa: E402

from moderator_app.cli import main as cli_main  # noqa: E402
from moderator_app.core.ledger.records import CHECKLIST_IDS  # noqa: E402
from moderator_app.core.ledger.store import Ledger  # noqa: E402
from moderator_app.core.rules import Finding, Severity  # noqa: E402
from moderator_app.core.verify.isolated import verify_isolated  # noqa: E402
from moderator_app.core.verify.options import VerifyOptions  # noqa: E402
from moderator_app.core.verify.pipeline import verify_paths  # noqa: E402
from moderator_app.ui.decision_panel import REVIEWER_KEY, DecisionPanel  # noqa: E402
from moderator_app.ui.decision_text import AUTO_SYNC, ENTER_CANCELS, ENTER_RECORDS  # noqa: E402
from moderator_app.ui.session import ReviewSession  # noqa: E402


@pytest.fixture
def settings(tmp_path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def panel(qtbot, store, settings):
    session = ReviewSession()
    session.set_store_path(store)
    p = DecisionPanel(session, settings=settings)
    p.asked: list[str] = []

    def yes(title: str, text: str) -> bool:
        p.asked.append(text)
        return True

    p.confirm = yes
    qtbot.addWidget(p)
    return p


def test_gui_and_cli_decisions_land_in_one_ledger_and_export_alike(
        panel, submission, store, tmp_path):  # noqa: F811
    # verified as the window verifies, in its own process (core/verify/isolated.py)
    panel.session.set_result(verify_isolated([submission], VerifyOptions(offset=0.5)))
    panel.session.set_offset(0.5)
    panel.session.set_retime_start(1.0)
    panel.session.set_retime_end(7.0)
    panel.reviewer.setText("mod1")
    panel.note.setPlainText("looks right")
    stored = panel.decide("accept")
    assert stored is not None and stored.seq == 1
    # The confirmation says plainly what is recorded: each field, read from the record.
    said = panel.asked[0].splitlines()
    r = stored.record
    assert said[2:8] == [
        "Decision: ACCEPT", "Reason: ok (OK: the run is what it claims)", "Note: looks right",
        f"Verdict recorded: PASS ({r.summary.errors} errors, {r.summary.warnings} warnings) "
        "at this offset",
        "Sync offset: +0.500 s (run_start at video time 0.500 s): set by you",
        "Retime marks: 1.000 s → 7.000 s (video time)"]
    assert r.summary.verdict == "pass" and "Reviewer: mod1" in said
    assert "with reason ok?" not in panel.asked[0]
    assert cli_main(["decide", str(submission), "--accept", "--note", "looks right",
                     "--reviewer", "mod1", "--offset", "0.5", "--retime-start", "1",
                     "--retime-end", "7", "--store", str(store)]) == 0
    out = tmp_path / "all.jsonl"
    assert cli_main(["decisions", "export", "--format", "jsonl", "--out", str(out),
                     "--store", str(store)]) == 0
    gui, cli = (json.loads(x) for x in out.read_text().splitlines())
    assert gui["prev_hash"] == "0" * 64 and cli["prev_hash"] == gui["hash"]
    for k in ("decided_at", "seq", "prev_hash", "hash"):
        gui.pop(k)
        cli.pop(k)
    assert gui == cli
    assert (gui["retime_start_s"], gui["retime_end_s"], gui["sync_offset_s"]) == (1, 7, 0.5)
    assert cli_main(["decisions", "verify", "--store", str(store)]) == 0


def test_shortcut_asks_for_confirmation_and_cancel_records_nothing(
        panel, qtbot, store):
    panel.session.set_result(fake_result())
    panel.reviewer.setText("mod1")
    panel.confirm = lambda title, text: False
    with qtbot.waitActive(panel):  # window shortcuts need an active window
        panel.show()
        panel.activateWindow()
    qtbot.keyClick(panel, Qt.Key.Key_A,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert panel.status.text() == "Cancelled: nothing recorded."
    assert not store.exists()
    asked = []
    panel.confirm = lambda title, text: asked.append(title) or True
    qtbot.keyClick(panel, Qt.Key.Key_R,  # no reason chosen (the findings name none): refused
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert "Choose a reject reason" in panel.status.text() and asked == []
    panel.reason.setCurrentIndex(panel.reason.findData("other"))
    qtbot.keyClick(panel, Qt.Key.Key_R,  # reason `other` without a note: refused, asks for one
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert "needs a note" in panel.status.text() and asked == [] and not store.exists()
    panel.note.setPlainText("the video is of another game")
    with qtbot.waitSignal(panel.decided, timeout=WAIT_MS) as blocker:
        qtbot.keyClick(panel, Qt.Key.Key_R,
                       Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert asked == ["Confirm reject"] and blocker.args == [1]
    with Ledger(store, create=False) as led:
        (d,) = led.list()
    assert (d.record.decision, d.record.reason) == ("reject", "other")


def test_the_confirmation_names_the_analyses_still_running(panel, store):
    # Session 40's walk on Xvfb: a run accepted while the integrity scan stood at 0 %; five
    # video.frozen warnings came in seconds later, and the confirmation had not said that
    # anything was still to come.
    panel.session.set_result(fake_result())
    panel.reviewer.setText("mod1")
    panel.running = lambda: ("verify", "scan", "sync", "search")
    assert panel.decide("accept").seq == 1
    assert panel.asked[0].splitlines()[-4:] == [
        "", "Still running: the video's integrity scan and auto-sync. What they find is not "
        "in the findings yet (the verdict recorded does not count it).", "", ENTER_CANCELS]
    panel.running = lambda: ("sync",)
    assert panel.decide("accept").seq == 2
    assert panel.asked[1].splitlines()[-3:] == [
        "Still running: auto-sync. What it finds is not in the findings yet (the verdict "
        "recorded does not count it).", "", ENTER_CANCELS]
    panel.running = lambda: ("search", "frame")  # lanes that find nothing: not named
    assert panel.decide("accept").seq == 3
    assert "Still running" not in panel.asked[2]
    assert panel.asked[2].splitlines()[-3:] == [f"Ledger: {store}", "", ENTER_RECORDS]


NO_SIGNAL = ("auto-sync: not enough signal (the video's reactions do not single out one "
             "offset); no offset suggested")


def test_the_confirmation_says_who_set_the_offset_it_records(panel, submission):
    """QA s41's GUI walk: a decision recorded at offset +0.000 s while auto-sync said "not
    enough signal" (truth 0.85 s), nothing asking for an offset nor saying that nobody had set
    one. The ledger binds the offset (docs/DESIGN.md): the confirmation says who set it."""
    panel.session.set_result(verify_paths([submission], VerifyOptions()))
    panel.reviewer.setText("mod1")
    panel.auto_sync = lambda: NO_SIGNAL
    sync_line = [ln for ln in _confirmed(panel) if ln.startswith("Sync offset")]
    assert sync_line == ["Sync offset: +0.000 s (run_start at video time 0.000 s): never set "
                         "(a new submission's 0); " + NO_SIGNAL]
    # a suggestion not applied is named too (the Sync dock's first line only)
    panel.auto_sync = lambda: ("auto-sync: run_start at 0.850 s (confidence 0.43, 9 of 23 "
                               "actions); 0 sync findings\nlow confidence (0.43, under 0.50)")
    assert "Sync offset: +0.000 s (run_start at video time 0.000 s): never set (a new "\
        "submission's 0); auto-sync: run_start at 0.850 s (confidence 0.43, 9 of 23 actions); "\
        "0 sync findings" in _confirmed(panel)
    panel.session.set_offset(0.85)  # typed, nudged or "run_start here"
    assert "Sync offset: +0.850 s (run_start at video time 0.850 s): set by you" in \
        _confirmed(panel)
    panel.session.set_offset(0.85, by=AUTO_SYNC)  # the same value, from auto-sync's Apply
    assert "Sync offset: +0.850 s (run_start at video time 0.850 s): auto-sync's suggestion, "\
        "applied" in _confirmed(panel)
    panel.session.set_offset(0.0)  # set back to 0 by hand: set, not the default
    assert "Sync offset: +0.000 s (run_start at video time 0.000 s): set by you" in \
        _confirmed(panel)
    panel.session.set_offset(0.0, by=None)  # a new submission's reset
    panel.auto_sync = lambda: NO_SIGNAL
    assert any(ln.endswith("never set (a new submission's 0); " + NO_SIGNAL)
               for ln in _confirmed(panel))


def _confirmed(panel) -> list[str]:
    """The lines of the confirmation of an accept, cancelled (nothing recorded)."""
    asked: list[str] = []
    panel.confirm = lambda title, text: asked.append(text) and False
    assert panel.decide("accept") is None
    return asked[0].splitlines()


def _press_in_confirmation(qtbot, key, seen: list) -> None:
    """Once the confirmation is open (modal): note its default button and text, press `key`."""
    def press() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, press)
            return
        seen.append((box.standardButton(box.defaultButton()), box.text().splitlines()[-1]))
        qtbot.keyClick(box, key)

    QTimer.singleShot(0, press)


@pytest.mark.parametrize("verdict", ["pass", "fail", "analysis"])
def test_enter_in_the_confirmation_records_unless_it_warns(panel, qtbot, store, verdict):
    """Session 40's walk pressed Enter in the confirmation twice to record and read
    "Cancelled: nothing recorded." each time (its default button was Cancel). Now Enter
    records a plain decision; an accept over a failed verification (or with analyses still
    running, or beside warnings of the video analysis the verdict does not count: review s41
    R9, "analysis" here, the verdict a pass) keeps Enter on Cancel and says so in the
    confirmation's last line."""
    panel.confirm = panel._confirm_dialog  # the real dialog, answered with the keyboard
    result = fake_result()
    if verdict == "analysis":
        panel.outside_warnings = lambda: 2
        verdict = "fail"  # (what Enter does; the verdict recorded stays the pass)
    elif verdict == "fail":
        result.report.findings.add(Finding(Severity.ERROR, "log.bad_json", "not JSON",
                                           "agent-log.jsonl", 3))
    panel.session.set_result(result)
    assert result.report.verdict == ("pass" if panel.outside_warnings() else verdict)
    panel.reviewer.setText("mod1")
    seen: list = []
    _press_in_confirmation(qtbot, Qt.Key.Key_Return, seen)
    stored = panel.decide("accept")
    if verdict == "pass":
        assert seen == [(QMessageBox.StandardButton.Yes, ENTER_RECORDS)]
        assert stored is not None and stored.seq == 1
        assert panel.status.text().startswith("Recorded #1: ACCEPT (ok) by mod1")
    else:
        assert seen == [(QMessageBox.StandardButton.Cancel, ENTER_CANCELS)]
        assert stored is None and panel.status.text() == "Cancelled: nothing recorded."
        assert not store.exists()
        _press_in_confirmation(qtbot, Qt.Key.Key_Escape, seen)  # Esc cancels a plain one
        panel.reason.setCurrentIndex(panel.reason.findData("other"))
        panel.note.setPlainText("the video is of another game")
        assert panel.decide("reject") is None and seen[1][0] == QMessageBox.StandardButton.Yes
        assert panel.status.text() == "Cancelled: nothing recorded." and not store.exists()


def test_reject_reason_defaults_from_findings_and_history_shows(panel, submission, tmp_path):  # noqa: F811
    no_video = tmp_path / "novideo"
    no_video.mkdir()
    (no_video / "agent-log.jsonl").write_bytes((submission / "agent-log.jsonl").read_bytes())
    panel.session.set_result(verify_paths([no_video]))
    assert panel.reason.currentData() == "video-coverage"
    panel.reviewer.setText("mod2")
    panel.note.setPlainText("no video\n<b>bold?</b>")
    assert panel.decide("reject").record.reason == "video-coverage"
    assert "failed" not in panel.asked[0].lower()
    items = [panel.history.item(i).text() for i in range(panel.history.count())]
    assert len(items) == 1 and items[0].startswith("#1 ")
    assert "REJECT (video-coverage) by mod2: no video <b>bold?</b>" in items[0]
    # Reopening the same evidence (a fresh session) shows the earlier decision too.
    panel.session.set_result(None)
    assert panel.history.count() == 0
    panel.session.set_result(verify_paths([no_video]))
    assert panel.history.count() == 1
    assert panel.decide("accept") is not None
    assert "FAILED" in panel.asked[-1]


def test_official_accept_needs_checklist_or_override(panel, store):
    panel.session.set_result(fake_result("official", name="<i>official</i>"))
    assert panel.checklist.isVisibleTo(panel)
    assert panel.title.textFormat() == Qt.TextFormat.PlainText
    assert all(lb.textFormat() == Qt.TextFormat.PlainText
               for lb in (panel.title, panel.summary, panel.status))
    panel.reviewer.setText("trusted")
    assert panel.decide("accept") is None
    assert "override note" in panel.status.text() and not store.exists()
    panel.checklist.boxes["chain-verified"].setChecked(True)
    panel.checklist.boxes["no-leaks"].setChecked(True)
    panel.checklist.override_edit.setText("seeds unavailable today")
    d = panel.decide("accept")
    assert d.record.checklist == ("chain-verified", "no-leaks")
    assert d.record.override_note == "seeds unavailable today"
    panel.checklist.set_ticked(list(CHECKLIST_IDS))
    panel.checklist.override_edit.clear()
    assert panel.decide("accept").record.checklist == CHECKLIST_IDS


def test_reviewer_is_remembered(panel, settings, qtbot, store):
    panel.session.set_result(fake_result())
    panel.reviewer.setText("remember-me")
    assert panel.decide("accept") is not None
    assert settings.value(REVIEWER_KEY) == "remember-me"
    again = DecisionPanel(panel.session, settings=settings)
    qtbot.addWidget(again)
    assert again.reviewer.text() == "remember-me"


def test_corrupt_ledger_is_reported_not_overwritten(panel, store):
    store.parent.mkdir(parents=True, exist_ok=True)
    store.write_bytes(b"\x00not a database" * 64)
    panel.session.set_result(fake_result())
    panel.reviewer.setText("m")
    assert panel.decide("accept") is None
    assert panel.status.text().startswith("NOT recorded:")
    assert store.read_bytes() == b"\x00not a database" * 64
    assert isinstance(panel.status, QLabel)


def test_official_walkthrough_on_a_real_trajectory(panel, tmp_path, store):
    from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory

    sub = tmp_path / "official"
    sub.mkdir()
    stats = write_trajectory(sub / "events.jsonl.zst", make_run_events(30, seed=7))
    panel.session.set_result(verify_paths([sub]))
    hints = {k: v.text() for k, v in panel.checklist.hints.items()}
    assert hints["chain-verified"] == f"chain valid, 30 events, head {stats.head[:16]}…"
    assert hints["seeds-checked"] == "NOT checked: no seeds or secret"
    assert hints["no-leaks"] == "no leak found by the scanners"
    assert panel.checklist.ticked() == []  # hints never tick for the reviewer
    panel.reviewer.setText("trusted")
    panel.checklist.set_ticked(list(CHECKLIST_IDS))
    d = panel.decide("accept")
    assert d.record.chain_head == stats.head and d.record.checklist == CHECKLIST_IDS
    # A new submission starts a fresh walkthrough.
    panel.session.set_result(fake_result("official", name="other"))
    assert panel.checklist.ticked() == []


def test_switching_the_ledger_shows_that_ledgers_history(panel, tmp_path):
    panel.session.set_result(fake_result())
    panel.reviewer.setText("m")
    assert panel.decide("accept").seq == 1
    assert panel.history.item(0).text().startswith("#1 ")
    panel.session.set_store_path(tmp_path / "other.sqlite3")
    assert [panel.history.item(i).text() for i in range(panel.history.count())] == ["none"]
    assert not (tmp_path / "other.sqlite3").exists()  # reading history creates nothing


def test_a_decisions_note_and_reviewer_are_shown_escaped_in_the_status_and_history(panel):
    """Session 16 hostile pass: a note or reviewer holding ESC, BEL, NEL and U+202E reached
    the panel's "Recorded #..." line and its history list raw (the history reads the ledger,
    which on a team store holds other moderators' text: untrusted). Both are plain escaped
    text, as `decisions list` prints them; markup stays characters."""
    raw = ("\x1b", "\x07", "\x85", "\u202e")
    panel.session.set_result(fake_result())
    panel.reason.setCurrentIndex(panel.reason.findData("other"))
    panel.note.setPlainText("bad \x1b[2J\u202e <b>BOLD</b> \x85")
    panel.reviewer.setText("rev\u202e\x1b]0;x\x07")
    assert panel.decide("reject") is not None
    history = [panel.history.item(i).text() for i in range(panel.history.count())]
    assert len(history) == 1 and history[0].startswith("#1 ")
    for text in (panel.status.text(), *history):
        assert not [c for c in raw if c in text], ascii(text)
        assert "rev\\u202e\\u001b]0;x\\u0007" in text and "<b>BOLD</b> \\u0085" in text


def test_earlier_decisions_wrap_to_the_panels_width(panel, submission, qtbot):  # noqa: F811
    """Session 23's walk at 1280x720: the history's one line was cut at "#1 2026-12-04T18:45:
    41.784Z REJECT (v", the reason, reviewer and note behind a horizontal scroll."""
    panel.session.set_result(verify_paths([submission]))
    panel.reviewer.setText("mod3")
    panel.reason.setCurrentIndex(panel.reason.findData("other"))
    panel.note.setPlainText("the video stops at 20 s while the run goes on to 40 s")
    assert panel.decide("reject") is not None
    panel.resize(265, 700)
    panel.show()
    qtbot.waitExposed(panel)
    history = panel.history
    item = history.item(0)
    assert "REJECT (other) by mod3: the video stops" in item.text()
    rect = history.visualItemRect(item)
    assert rect.width() <= history.viewport().width()
    assert rect.height() >= 2 * history.fontMetrics().lineSpacing()  # wrapped, not cut
    assert history.horizontalScrollBar().maximum() == 0


def _counting_walk(monkeypatch) -> list[tuple[int, bool]]:
    """(seq, on the GUI thread?) for each record the chain's check reads in full."""
    import threading

    from moderator_app.core.ledger import chained, walk_memo

    seen: list[tuple[int, bool]] = []
    real = chained.check_row

    def counting(cols, raw, prev, expected_seq):
        seen.append((cols["seq"], threading.current_thread() is threading.main_thread()))
        return real(cols, raw, prev, expected_seq)

    monkeypatch.setattr(chained, "check_row", counting)
    walk_memo.WALKS.clear()
    return seen


def test_the_chain_is_walked_off_the_gui_thread_before_the_first_decision(
        panel, store, qtbot, monkeypatch):
    """Session 30 (issue 15): the walk before an append ran on the GUI thread, ~0.7 s of CPU
    a decision at 10,000 decisions. Showing a store walks it in the background; the
    decision then reads on the GUI thread only the records added since (none here)."""
    import dataclasses

    from ledgerhelp import SHA_LOG

    from moderator_app.core.verify.report import FileDigest

    with Ledger(store) as led:
        for i in range(6):
            other = fake_result(files=[FileDigest("a.jsonl", "agent_log", i, f"{i:064x}")])
            led.append(dataclasses.replace(_record(other), note=f"earlier {i}"))
    seen = _counting_walk(monkeypatch)
    panel.session.set_result(fake_result())
    qtbot.waitUntil(lambda: not panel.walker.busy, timeout=WAIT_MS)
    assert seen == [(seq, False) for seq in range(1, 7)]  # all of it, off the GUI thread
    seen.clear()
    panel.reviewer.setText("m")
    stored = panel.decide("accept")
    assert stored is not None and stored.seq == 7
    assert [s for s, on_gui in seen if on_gui] == []  # nothing walked on the GUI thread
    assert SHA_LOG in {f.sha256 for f in stored.record.files}


def test_a_ledger_damaged_after_the_walk_ahead_is_still_refused_with_the_form_kept(
        panel, store, qtbot, monkeypatch):
    import sqlite3

    with Ledger(store) as led:
        for i in range(4):
            led.append(_record(fake_result(name=f"s{i}")))
    _counting_walk(monkeypatch)
    panel.session.set_result(fake_result())
    qtbot.waitUntil(lambda: not panel.walker.busy, timeout=WAIT_MS)
    with sqlite3.connect(store) as conn:
        conn.execute("UPDATE decisions SET reviewer = 'someone else' WHERE seq = 3")
    conn.close()
    assert not any("damaged" in panel.history.item(i).text()
                   for i in range(panel.history.count()))
    panel.reviewer.setText("m")
    panel.note.setPlainText("keep this note")
    assert panel.decide("accept") is None
    assert panel.status.text().startswith("NOT recorded: the decision ledger ")
    assert "is damaged (at seq 3: column 'reviewer' differs from the sealed record" \
        in panel.status.text()
    assert panel.note.toPlainText() == "keep this note"
    with Ledger(store, create=False) as led:
        assert len(led.list()) == 4
    # the walk ahead of the next decision says it before the form is filled again
    qtbot.waitUntil(lambda: not panel.walker.busy, timeout=WAIT_MS)
    panel.load_history()
    qtbot.waitUntil(lambda: not panel.walker.busy, timeout=WAIT_MS)
    items = [panel.history.item(i).text() for i in range(panel.history.count())]
    assert items[-1].startswith("this ledger is damaged at seq 3 (column 'reviewer' differs "
                                "from the sealed record")
    assert items[-1].endswith("a decision here will not be recorded; see `moderator-app "
                              "decisions verify`")


def _record(result):
    from moderator_app.core.ledger.records import build_record

    return build_record(result, "accept", reviewer="earlier")


def test_a_walk_of_the_store_still_running_is_not_started_again(panel, store, qtbot,
                                                                 monkeypatch):
    """Each history load (each submission shown, each decision) asked for a walk ahead, and a
    superseded walk does not stop: several full walks of one cold ledger ran at once
    (session 30 review, 6.8 s of CPU for eight at 10,000 decisions). One walk a store at a
    time; a new one once it has ended."""
    import threading

    from moderator_app.core.ledger import chained, walk_memo

    with Ledger(store) as led:
        for i in range(3):
            led.append(_record(fake_result(name=f"s{i}")))
    walk_memo.WALKS.clear()
    gate = threading.Event()
    real = chained.check_row
    rows: list[int] = []

    def held(cols, raw, prev, expected_seq):
        gate.wait(WAIT_MS / 1000)
        rows.append(cols["seq"])
        return real(cols, raw, prev, expected_seq)

    monkeypatch.setattr(chained, "check_row", held)
    panel.session.set_result(fake_result())
    assert panel.walker.busy
    started = panel.walker.generation
    for _ in range(3):
        panel.load_history()
    assert panel.walker.generation == started  # the running walk is not started again
    gate.set()
    qtbot.waitUntil(lambda: not panel.walker.busy, timeout=WAIT_MS)
    assert rows == [1, 2, 3]  # one walk of the three records
    walk_memo.WALKS.clear()
    panel.load_history()  # the walk ended: the next load walks again
    assert panel.walker.generation == started + 1
    qtbot.waitUntil(lambda: not panel.walker.busy, timeout=WAIT_MS)
    assert rows == [1, 2, 3, 1, 2, 3]
