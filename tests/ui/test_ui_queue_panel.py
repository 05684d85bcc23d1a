"""The review queue in the workstation (pytest-qt, offscreen): File > Open queue lists each
submission with its verdict, filters and sorts, opens one, and after a decision offers the
next pending submission (Ctrl+Shift+N)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from conftest import REPO  # noqa: E402
from PySide6.QtCore import QSettings, Qt  # noqa: E402
from ui_helpers import WAIT_MS, wait_idle  # noqa: E402

from moderator_app.core.verify.pipeline import verify_paths  # noqa: E402
from moderator_app.ui.main_window import MainWindow  # noqa: E402
from moderator_app.ui.queue_panel import COLUMNS, show_queue  # noqa: E402
from moderator_app.ui.shortcuts import by_action  # noqa: E402
from moderator_app.ui.store_setting import apply_store  # noqa: E402

SAMPLE = REPO / "resources" / "samples" / "community-sample"


@pytest.fixture
def queue(tmp_path) -> Path:
    q = tmp_path / "queue"
    q.mkdir()
    for i, name in enumerate(["a-first", "b-broken", "c-third"]):
        shutil.copytree(SAMPLE, q / name)
        if name == "b-broken":
            log = q / name / "agent-log.jsonl"
            log.write_bytes(log.read_bytes() + b"{broken\n")
        t = 1_700_000_000 + i * 60
        for p in [q / name, *(q / name).rglob("*")]:
            os.utime(p, (t, t))
    return q


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # the queue's report cache
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings=settings, store_path=tmp_path / "ledger.sqlite3")
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    yield w
    w.shutdown()


def test_the_open_dialogs_start_beside_the_open_submission(qtbot, window, queue,
                                                           monkeypatch, tmp_path):
    # Session 40's walk on Xvfb: File > Open a review queue started in the directory the app
    # was started from, not where the submissions are.
    from PySide6.QtWidgets import QFileDialog

    from moderator_app.ui.queue_panel import open_queue_dialog

    asked: list[tuple] = []
    monkeypatch.setattr(QFileDialog, "getExistingDirectory",
                        staticmethod(lambda *a: asked.append(a) or ""))
    monkeypatch.setattr(QFileDialog, "getOpenFileNames",
                        staticmethod(lambda *a: asked.append(a) or ([], "")))
    assert window.opener.dialog_folder() == ""  # nothing opened yet: the working directory
    window.open_paths([queue / "a-first"])
    wait_idle(qtbot, window)
    open_queue_dialog(window)
    window.opener.folder_dialog()
    window.opener.file_dialog()
    assert [a[2] for a in asked] == [str(queue)] * 3
    assert asked[0][1] == "Open a review queue (a folder of submissions)"
    # the folder gone since: the working directory again, never an error
    window.session.set_paths([tmp_path / "gone" / "sub"])
    assert window.opener.dialog_folder() == ""


def test_queue_lists_filters_opens_and_offers_the_next(qtbot, window, queue):
    assert by_action()["next_submission"].keys == "Ctrl+Shift+N"
    assert "open_queue" in window.actions
    panel = show_queue(window, queue)
    qtbot.waitUntil(lambda: len(panel.items) == 3 and not panel.listing, timeout=120_000)
    expected = [verify_paths([queue / n]).report.verdict for n in ("a-first", "b-broken",
                                                                   "c-third")]
    assert [i.verdict for i in panel.items] == expected
    assert expected[:2] == ["pass", "fail"]
    assert panel.visible_names() == ["a-first", "b-broken", "c-third"]  # oldest first
    panel.set_filter("verdict", "fail")
    assert panel.visible_names() == [n for n, v in zip(["a-first", "b-broken", "c-third"],
                                                       expected, strict=True) if v == "fail"]
    panel.set_filter("verdict", None)
    panel.view.sortByColumn([a for _, a in COLUMNS].index("name"), Qt.SortOrder.DescendingOrder)
    assert panel.visible_names() == ["c-third", "b-broken", "a-first"]  # by name, descending

    window.actions["next_submission"].trigger()  # Ctrl+Shift+N: the oldest pending
    wait_idle(qtbot, window)  # opened, scanned, analysed
    assert window.session.result.submission.display_name == "a-first"
    dp = window.decision_panel
    dp.confirm = lambda *_: True
    dp.reviewer.setText("mod1")
    assert dp.decide("accept") is not None
    # the queue lists again: a-first is accepted, the button offers the next pending one
    qtbot.waitUntil(lambda: panel.items and panel.items[0].state == "accepted",
                    timeout=60_000)
    # c-third holds the same bytes as a-first: the same evidence, decided with it
    assert [i.state for i in panel.items] == ["accepted", "pending", "accepted"]
    assert panel.items[2].duplicate_of == "a-first"
    qtbot.waitUntil(lambda: "b-broken" in dp.next_button.text(), timeout=WAIT_MS)
    assert dp.next_button.isVisible()
    dp.next_button.click()
    qtbot.waitUntil(lambda: window.session.result is not None and
                    window.session.result.submission.display_name == "b-broken",
                    timeout=WAIT_MS)
    wait_idle(qtbot, window)
    window.grab().save(str(Path(os.environ.get("MODERATOR_SHOT_DIR", queue.parent))
                           / "queue.png"))


def test_store_setting_refuses_a_password_and_an_unusable_store(window, tmp_path):
    problem = apply_store(window, "postgresql://u:secret@127.0.0.1:1/db")
    assert problem and "password" in problem and "secret" not in problem
    not_a_ledger = tmp_path / "x.sqlite3"
    not_a_ledger.write_text("hello")
    assert "not an SQLite database" in apply_store(window, str(not_a_ledger))
    assert apply_store(window, str(tmp_path / "other.sqlite3")) is None
    assert window.session.store_path == tmp_path / "other.sqlite3"


@pytest.mark.parametrize("spec", ["postgresql+psycopg://u:s3cr3t@h/db", " postgresql://u:s3cr3t@h/db",
                                  "target_session_attrs=any password=s3cr3t", "afile/x.sqlite3"])
def test_store_setting_refuses_an_address_or_a_path_under_a_file(window, tmp_path, monkeypatch,
                                                                 spec):
    """Session 14 (F5): the address forms were saved as SQLite paths (and shown with their
    password in the status line); a path under a regular file said "Not a directory"."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("x")
    before = window.session.store_path
    problem = apply_store(window, spec)
    assert problem and "s3cr3t" not in problem, problem
    assert ("not shown" in problem or "afile is a file, not a folder" in problem), problem
    assert window.session.store_path == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


def test_deciding_over_a_claim_needs_a_note_and_a_confirmation(qtbot, window, tmp_path):
    from moderator_app.core.ledger.claims import new_claim
    from moderator_app.core.ledger.records import evidence_digest
    from moderator_app.core.ledger.store import Ledger

    result = verify_paths([SAMPLE])
    with Ledger(window.session.store_path) as led:
        led.append(new_claim("claim", "alice", evidence_digest(result.report.files), "s"))
    window.open_paths([SAMPLE])
    wait_idle(qtbot, window)
    dp = window.decision_panel
    asked = []
    dp.confirm = lambda title, text: asked.append(title) or True
    dp.reviewer.setText("bob")
    assert dp.decide("accept") is None  # no note: refused, the form stays
    assert "claimed by alice until" in dp.status.text()
    dp.note.setPlainText("alice asked me to take it")
    stored = dp.decide("accept")
    assert stored is not None and stored.record.claim_override == "alice asked me to take it"
    assert "Claimed by someone else" in asked


def test_claim_and_release_from_the_queue(qtbot, window, queue):
    panel = show_queue(window, queue)
    qtbot.waitUntil(lambda: len(panel.items) == 3 and not panel.listing, timeout=120_000)
    panel.select("b-broken")
    window.decision_panel.reviewer.setText("")
    assert not panel.claim_selected("claim")  # no reviewer name yet
    window.decision_panel.reviewer.setText("mod2")
    assert panel.claim_selected("claim")
    qtbot.waitUntil(lambda: panel.items[1].state == "claimed", timeout=60_000)
    assert panel.items[1].claimed_by == "mod2" and panel.items[1].claimed_until
    window.decision_panel.reviewer.setText("mod3")
    panel.select("b-broken")
    assert not panel.claim_selected("claim")
    assert "claimed by mod2 until" in panel.status.text()
    window.decision_panel.reviewer.setText("mod2")
    panel.select("b-broken")
    assert panel.claim_selected("release")
    qtbot.waitUntil(lambda: panel.items[1].state == "pending", timeout=60_000)
    wait_idle(qtbot, window)  # the queue's listing after the release ended


def test_rows_show_at_once_checking_then_their_verdicts(qtbot, window, queue, monkeypatch):
    """Session 17: the panel showed nothing until every new submission was verified (a
    queue of 10,000: nothing after 240 s). Every row is shown at once, "checking…", and the
    verdicts fill in as they are computed. The listing's verdicts are held back here until
    the first rows have been looked at (a gate in the core's callback)."""
    import threading

    import moderator_app.ui.queue_panel as queue_panel

    gate = threading.Event()
    real = queue_panel.stream_queue

    def gated(*args, on_items=None, **kwargs):
        def held(changed):
            gate.wait(120)
            on_items(changed)
        return real(*args, on_items=held, **kwargs)

    monkeypatch.setattr(queue_panel, "stream_queue", gated)
    panel = show_queue(window, queue)
    verdicts = [a for _, a in COLUMNS].index("verdict")

    def column(col: int) -> list[str]:
        return [panel.proxy.index(r, col).data() for r in range(panel.proxy.rowCount())]

    try:
        qtbot.waitUntil(lambda: panel.proxy.rowCount() == 3, timeout=60_000)
        assert panel.listing
        assert panel.visible_names() == ["a-first", "b-broken", "c-third"]
        assert column(verdicts) == ["checking…"] * 3
        assert panel.status.text() == "3 submissions, 0 pending, 3 being checked"
        assert panel.next_item() is None  # nothing is offered before it is examined
    finally:
        gate.set()
    qtbot.waitUntil(lambda: not panel.listing, timeout=120_000)
    expected = [verify_paths([queue / n]).report.verdict for n in ("a-first", "b-broken",
                                                                   "c-third")]
    assert column(verdicts) == expected
    assert panel.status.text() == "3 submissions, 3 pending"
    assert panel.next_item().name == "a-first"
