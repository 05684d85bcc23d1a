"""The window verifies in a process of its own (issue 15): when that process crashes, runs out
of memory or is cancelled, the window says so and stays usable; the next submission opens."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from conftest import REPO  # noqa: E402
from ui_helpers import WAIT_MS, ini_settings, shown_main_window, wait_idle  # noqa: E402

from moderator_app.core.verify.child import FAULT_ENV  # noqa: E402

SAMPLE = REPO / "resources" / "samples" / "community-sample"


@pytest.fixture
def window(qtbot, tmp_path):
    w = shown_main_window(qtbot, ini_settings(tmp_path), store_path=tmp_path / "d.sqlite3")
    yield w
    w.shutdown()


@pytest.mark.parametrize("fault,said", [
    ("crash", "Cannot open: the verification process crashed (SIGSEGV) on this submission"),
    ("memory", "Cannot open: the verification ran out of memory on this submission"),
])
def test_a_failed_verification_is_a_message_and_the_window_goes_on(qtbot, window, monkeypatch,
                                                                   fault, said):
    monkeypatch.setenv(FAULT_ENV, fault)
    window.open_paths([SAMPLE])
    qtbot.waitUntil(lambda: not window.is_verifying(), timeout=WAIT_MS)
    assert window.status_label.text().startswith(said), window.status_label.text()
    assert window.findings.summary.text().startswith("Cannot open this submission: "
                                                     + said[len("Cannot open: "):])
    assert window.session.result is None and window.session.report is None
    # nothing to decide on: no report, so no decision can be bound to it
    monkeypatch.delenv(FAULT_ENV)
    window.open_paths([SAMPLE])
    wait_idle(qtbot, window)  # verified, scanned, analysed: the status bar says all of it
    assert window.session.report.verdict == "pass"
    assert window.status_label.text().startswith("PASS")
