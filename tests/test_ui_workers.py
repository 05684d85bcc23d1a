"""Verification runs off the GUI thread: the event loop keeps ticking, cancel works."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import QTimer

from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.ui.workers import VerifyWorker, start_in_thread


@pytest.fixture(scope="module")
def big_log(tmp_path_factory):
    p = tmp_path_factory.mktemp("big") / "agent-log.jsonl"
    make_agent_log(p, n_events=20_000)
    return p


def test_event_loop_keeps_ticking_while_verifying(qtbot, big_log):
    ticks = []
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    worker = VerifyWorker([big_log], VerifyOptions(build_index=True, probe_video=False))
    results, progress = [], []
    worker.finished.connect(results.append)
    worker.progress.connect(lambda d, t: progress.append((d, t)))
    timer.start()
    start = time.perf_counter()
    thread = start_in_thread(worker)
    qtbot.waitUntil(lambda: bool(results), timeout=60000)
    elapsed = time.perf_counter() - start
    timer.stop()
    thread.wait(5000)
    assert len(results[0].index) == 20_000
    assert results[0].report.verdict == "pass"
    assert elapsed > 0.3  # long enough to mean something
    # The GUI thread kept ticking (the verifier shares the GIL, so not every 10 ms tick
    # comes, but a quarter of them must), and it never stalled for 300 ms.
    gaps = [b - a for a, b in zip(ticks, ticks[1:], strict=False)]
    assert len(ticks) >= 0.25 * elapsed / 0.010, (len(ticks), elapsed)
    assert max(gaps) < 0.3, max(gaps)
    assert progress and progress[-1][0] == progress[-1][1] > 0


def test_cancel_stops_the_worker(qtbot, big_log):
    worker = VerifyWorker([big_log], VerifyOptions(build_index=True, probe_video=False))
    outcome = []
    worker.cancelled.connect(lambda: outcome.append("cancelled"))
    worker.finished.connect(lambda _r: outcome.append("finished"))
    worker.progress.connect(lambda d, t: worker.cancel())
    thread = start_in_thread(worker)
    qtbot.waitUntil(lambda: bool(outcome), timeout=60000)
    thread.wait(5000)
    assert outcome == ["cancelled"]


def test_unreadable_input_fails_with_a_message(qtbot, tmp_path):
    worker = VerifyWorker([tmp_path / "missing"], VerifyOptions())
    with qtbot.waitSignal(worker.failed, timeout=10000) as sig:
        thread = start_in_thread(worker)
    thread.wait(5000)
    assert sig.args[0]
