"""Background work (`ui.background.BackgroundOp`): the event loop keeps running while a
verification is in flight, cancel works, failures are messages, and the newest run wins."""

from __future__ import annotations

import sys
import threading

import pytest
from PySide6.QtCore import QTimer
from ui_helpers import WAIT_MS

from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths
from moderator_app.ui.background import BackgroundOp

GATE_TIMEOUT_S = 60  # only a guard against a hang; nothing is asserted about time


@pytest.fixture(scope="module")
def big_log(tmp_path_factory):
    p = tmp_path_factory.mktemp("big") / "agent-log.jsonl"
    make_agent_log(p, n_events=20_000)
    return p


def verify_work(path, gate_hook=None):
    options = VerifyOptions(build_index=True, probe_video=False)

    def work(progress, cancel):
        def report(done, total):
            if gate_hook is not None:
                gate_hook(done, total)
            progress(done, total)

        return verify_paths([path], options, report, cancel)

    return work


def test_event_loop_keeps_ticking_while_verifying(qtbot, big_log):
    """The verifier stops half-way and waits until the GUI thread's timer has ticked five
    times: that can only happen if the GUI loop runs while a verification is in flight. No
    duration is measured or asserted."""
    gate = threading.Event()
    ticks: list[int] = []
    waited: list[tuple[int, bool]] = []
    # the ticks the gate opens at: five after the verifier stopped (ticks before it stopped
    # prove nothing: counted from the start, the gate was open before the verifier waited,
    # and the count then depended on how long the rest of the verification took)
    opens_at: list[int] = []
    timer = QTimer()
    timer.setInterval(5)

    def tick() -> None:
        ticks.append(1)
        if opens_at and len(ticks) >= opens_at[0]:
            gate.set()

    timer.timeout.connect(tick)

    def hook(done: int, total: int) -> None:
        if not waited and 0 < done < total:  # mid-flight: part of the log read, not all
            opens_at.append(len(ticks) + 5)
            waited.append((done, gate.wait(GATE_TIMEOUT_S)))

    results, progress = [], []
    op = BackgroundOp("verify")
    op.progress.connect(lambda d, t: progress.append((d, t)))
    timer.start()
    op.run(verify_work(big_log, hook), results.append)
    qtbot.waitUntil(lambda: bool(results), timeout=GATE_TIMEOUT_S * 1000)
    timer.stop()
    assert len(waited) == 1 and waited[0][1] is True  # the GUI ticked while verify waited
    assert len(ticks) >= opens_at[0]
    assert len(results[0].index) == 20_000
    assert results[0].report.verdict == "pass"
    assert progress and progress[-1][0] == progress[-1][1] > 0
    assert not op.busy  # delivered: nothing in flight


def test_cancel_stops_the_work(qtbot, big_log):
    op = BackgroundOp("verify")
    outcome = []
    hit = threading.Event()

    def hook(done, total):
        if not hit.is_set():
            hit.set()
            op.cancel()

    op.run(verify_work(big_log, hook), lambda _r: outcome.append("finished"),
           lambda m: outcome.append(m), lambda: outcome.append("cancelled"))
    qtbot.waitUntil(lambda: bool(outcome), timeout=60000)
    assert outcome == ["cancelled"]


def test_unreadable_input_fails_with_a_message(qtbot, tmp_path):
    op = BackgroundOp("verify")
    failed = []
    op.run(verify_work(tmp_path / "missing"), lambda _r: None, failed.append)
    qtbot.waitUntil(lambda: bool(failed), timeout=WAIT_MS)
    assert "missing" in failed[0]


def test_an_unexpected_exception_is_a_message(qtbot):
    op = BackgroundOp("x")
    failed = []

    def boom(_p, _c):
        raise RuntimeError("bad input")

    op.run(boom, lambda _r: None, failed.append)
    qtbot.waitUntil(lambda: bool(failed), timeout=WAIT_MS)
    assert failed == ["RuntimeError: bad input"]


def test_newest_wins_and_the_older_result_is_discarded(qtbot):
    op = BackgroundOp("search")
    release = threading.Event()
    shown, discarded = [], []

    def slow(_p, _c):
        release.wait(30)
        return "old"

    op.run(slow, shown.append, discard=discarded.append)
    op.run(lambda _p, _c: "new", shown.append, discard=discarded.append)
    qtbot.waitUntil(lambda: shown == ["new"], timeout=WAIT_MS)
    release.set()
    qtbot.waitUntil(lambda: discarded == ["old"], timeout=WAIT_MS)
    assert shown == ["new"]


def test_drop_hides_a_run_that_a_newer_answer_replaced(qtbot):
    op = BackgroundOp("search")
    release = threading.Event()
    shown, discarded = [], []
    op.run(lambda _p, _c: release.wait(30) and "late", shown.append,
           discard=discarded.append)
    op.drop()
    release.set()
    qtbot.waitUntil(lambda: discarded == ["late"], timeout=WAIT_MS)
    assert shown == []


def test_busy_until_the_result_is_delivered(qtbot):
    """A result on its way to the GUI thread is still work in progress: a caller polling
    `busy` never sees "done" without the result."""
    op = BackgroundOp("x")
    shown = []
    finished = threading.Event()

    def work(_p, _c):
        finished.set()
        return 7

    gen = op.run(work, shown.append)
    assert finished.wait(30)
    for t in threading.enumerate():  # the run's thread is named "<name>-<generation>"
        if t.name == f"x-{gen}":
            t.join(30)  # the thread has ended; the outcome is queued, not delivered
    assert op.busy and shown == []
    qtbot.waitUntil(lambda: shown == [7], timeout=WAIT_MS)
    assert not op.busy


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice is Linux's")
def test_background_work_runs_below_the_gui_and_its_children_inherit_it(qtbot):
    """Issue 11 point 8: background work (verification, sync analysis, queue workers) never
    starves playback. A run's thread and what it starts run at BACKGROUND_NICE; the GUI thread
    keeps its own priority."""
    import os
    import subprocess

    from moderator_app.core.priority import BACKGROUND_NICE, thread_nice
    gui_before = thread_nice()
    op = BackgroundOp("nice")

    def work(progress, cancel):
        child = subprocess.run([sys.executable, "-c", "import os; print(os.nice(0))"],
                               capture_output=True, text=True, check=True)
        return thread_nice(), int(child.stdout)

    with qtbot.waitSignal(op.busy_changed, timeout=GATE_TIMEOUT_S * 1000,
                          check_params_cb=lambda busy: not busy):
        got: list = []
        op.run(work, got.append)
    assert got == [(max(BACKGROUND_NICE, gui_before), max(BACKGROUND_NICE, gui_before))]
    assert thread_nice() == gui_before == os.nice(0)


def test_a_run_that_ends_after_its_owner_was_deleted_prints_no_traceback(qtbot, monkeypatch):
    # Seen on Xvfb (session 8): closing the window while File > Open queue was still listing
    # printed "Exception in thread queue-1 ... RuntimeError: Signal source has been deleted".
    import shiboken6

    errors: list[BaseException] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: errors.append(args.exc_value))
    gate, entered = threading.Event(), threading.Event()
    threads: list[threading.Thread] = []

    def work(progress, cancel):
        threads.append(threading.current_thread())
        entered.set()
        assert gate.wait(GATE_TIMEOUT_S)  # a hang guard only
        progress(1, 1)
        return "listed"

    op = BackgroundOp("queue")
    op.run(work, lambda _v: None)
    assert entered.wait(GATE_TIMEOUT_S)
    thread = threads[0]
    shiboken6.delete(op)  # the owner goes (the window closed), the run goes on
    gate.set()
    thread.join(GATE_TIMEOUT_S)
    assert not thread.is_alive()
    assert errors == []
