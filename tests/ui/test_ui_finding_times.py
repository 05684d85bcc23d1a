"""A click on a video finding goes to its own video time (session 22, issue 11 point 3): a
footage gap in the middle of the video took the player to its first frame; now the playhead
goes to the gap, the picture says there is no footage, and the timeline shades the gap, at
any offset. Through the public seam: a click on the finding's row in the findings list."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from test_ui_main_window import open_and_wait
from ui_helpers import WAIT_MS, wait_idle, window_1280x720

from moderator_app.core.samples.community import make_agent_log

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

GAP = (3.0, 12.0)  # video seconds without a frame


def holed_video(path) -> None:
    """20 s of testsrc at 10 fps, 320x240, with no frame from 3.0 to 12.0 s (frames 0-29 at
    0.0-2.9 s, frames 30-109 at 12.0-19.9 s)."""
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc=s=320x240:r=10", "-frames:v", "110", "-vf",
                    "setpts='if(gte(N,30),N+90,N)'", "-fps_mode", "passthrough", "-c:v",
                    "libx264", "-g", "10", "-pix_fmt", "yuv420p", str(path)], check=True)


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(tmp_path / "cache"))
    yield from window_1280x720(qtbot, tmp_path)


def click_finding(qtbot, panel, i: int) -> None:
    from PySide6.QtCore import Qt

    proxy = panel.proxy.mapFromSource(panel.model.index(i, 0))
    panel.view.scrollTo(proxy)
    qtbot.mouseClick(panel.view.viewport(), Qt.MouseButton.LeftButton,
                     pos=panel.view.visualRect(proxy).center())


def test_a_footage_gap_finding_takes_the_player_to_its_gap(qtbot, window, tmp_path):
    sub = tmp_path / "run"
    sub.mkdir()
    make_agent_log(sub / "agent-log.jsonl", n_events=40, seed=3)
    holed_video(sub / "video.mkv")
    open_and_wait(qtbot, window, sub)
    panel, player = window.findings, window.player
    for offset in (0.0, 1.5):
        if offset:
            window.sync.spin.setValue(offset)
            qtbot.waitUntil(lambda o=offset: window.session.offset_s == o, timeout=WAIT_MS)
        wait_idle(qtbot, window)  # the sync analysis measured again re-lists the findings
        i = next(i for i, f in enumerate(panel.findings) if f.rule == "video.footage_gap")
        assert (panel.findings[i].video_start_s, panel.findings[i].video_end_s) == GAP
        click_finding(qtbot, panel, i)
        # the gap's start: no footage, and why (it was frame 0; then frame 29, the last
        # before the hole, held 5 s: s22-nofootage, no footage where coverage counts none)
        qtbot.waitUntil(lambda: not player.in_footage, timeout=WAIT_MS)
        assert player.shown_frame == -1 and player.view.image is None
        assert player.no_footage_why == "video.footage_gap: no frame from 3.000 s to 12.000 s"
        assert player.current_time == pytest.approx(3.0)
        assert panel.current() == i
        assert window.timeline.playhead == pytest.approx(3.0 - offset)
        # the gap shaded on the timeline, in run time at this offset
        assert window.timeline.span == pytest.approx((GAP[0] - offset, GAP[1] - offset))


def test_the_findings_are_listed_and_stepped_in_time_order(qtbot, window, tmp_path):
    """Session 40's walk: the report's findings were listed by line with its whole-file ones
    after them, and the background analyses' after those, so N went 0.000 -> 39.400 ->
    8.633 s on bank_heist-cut. Now one list in run-time order: N steps forward in time, and
    an analysis' finding says "analysis" where a report's says its line or "file"."""
    from test_ui_main_window import make_submission, unrequested_action

    from moderator_app.core.rules import Finding, Severity
    from moderator_app.ui.findings_panel import ANALYSIS_WHERE, COL_WHERE

    folder, duration = make_submission(tmp_path / "sub", tamper=unrequested_action)
    open_and_wait(qtbot, window, folder)
    frozen = Finding(Severity.WARNING, "video.frozen", "still 1.0-2.0 s", "video.avi",
                     video_start_s=1.0, video_end_s=2.0)
    window.nav.set_analysis_findings("scan", [frozen])  # as the scan's end lists its spans
    panel = window.findings
    report = window.session.report.findings.sorted()
    times = [window.nav.finding_time(i) for i in range(len(panel.findings))]
    assert sorted(panel.findings, key=id) == sorted([*report, frozen], key=id)
    assert None not in times and times == sorted(times)
    # the action not requested (line 4) is before the footage beyond the run (its end), and
    # the scan's 1.0 s before both, though it came last
    rules = [f.rule for f in panel.findings]
    assert rules.index("video.frozen") < rules.index("log.action_not_requested") \
        < rules.index("coverage.extra")
    assert times[rules.index("coverage.extra")] == pytest.approx(duration, abs=0.05)
    where = [panel.model.index(i, COL_WHERE).data().split("\n")[0]
             for i in range(len(rules))]
    assert where[rules.index("video.frozen")] == ANALYSIS_WHERE
    assert where.count(ANALYSIS_WHERE) == 1
    assert panel.summary.text().endswith(" · +1 from the video analysis, not in the verdict")
    seen = []
    for _ in rules:  # N from the first finding through the last
        window.move_finding(1)
        seen.append(window.nav.finding_time(panel.current()))
    assert seen == sorted(seen)
