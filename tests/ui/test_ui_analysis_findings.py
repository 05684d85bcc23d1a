"""The background analyses' findings in the workstation's findings list: the integrity scan's
spans are listed and jump to their moment, but they are not part of the report a decision
records (the ledger must equal `moderator-app decide`, which runs no scan)."""

from __future__ import annotations

import shutil

import pytest
import video_corpus as vc
from ui_helpers import WAIT_MS, ini_settings, shown_main_window

from moderator_app.core.samples.community import make_agent_log

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(tmp_path / "cache"))
    w = shown_main_window(qtbot, ini_settings(tmp_path))
    yield w
    w.shutdown()


def test_scan_findings_are_listed_with_their_moment_and_not_recorded(qtbot, window, tmp_path):
    sub = tmp_path / "run"
    sub.mkdir()
    make_agent_log(sub / "agent-log.jsonl", n_events=40, seed=3)
    shutil.copy(vc.build(vc.RECIPES["scan"]), sub / "video.mp4")  # frozen 10-14 s, black 20-23 s
    with qtbot.waitSignal(window.player.scan_ready, timeout=180000):
        window.open_paths([sub])
    qtbot.waitUntil(lambda: any(f.rule == "video.frozen" for f in window.findings.findings),
                    timeout=WAIT_MS)
    listed = window.findings.findings
    report_rules = [f.rule for f in window.session.report.findings.sorted()]
    assert "video.frozen" not in report_rules and "video.black" not in report_rules
    assert [f.rule for f in listed[:len(report_rules)]] == report_rules  # the report's first
    i = next(i for i, f in enumerate(listed) if f.rule == "video.frozen")
    assert round(window.nav.finding_time(i)) == 10  # run time = video time at offset 0
    j = next(i for i, f in enumerate(listed) if f.rule == "video.black")
    assert round(window.nav.finding_time(j)) == 20
    assert "from the video analysis (not in the verdict)" in window.findings.summary.text()
    window.nav.select_finding(i)
    qtbot.waitUntil(lambda: abs(window.player.current_time - 10.0) < 0.5, timeout=WAIT_MS)
