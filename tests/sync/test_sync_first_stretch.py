"""The offset is the video time of run_start (issue 13, session 14).

1. Footage inserted 14 s into a run: the track finds the jump at its place and the first
   stretch's offset within a frame, but the suggestion was the stretch after the insertion
   (the one more actions follow): Breakout +240.11 frames, Pong +240.6 (confidence 0.73-0.79).
   `analysis._first_stretch` takes the first stretch's, with its supporting actions.
"""

from __future__ import annotations

import corpus
import pytest

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture(autouse=True)
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


@pytest.mark.parametrize("name", ["breakout-insert", "pong-insert"])
def test_inserted_footage_keeps_run_starts_offset(name):
    run = corpus.build(name)
    truth, t = run.truth, run.truth["tamper"]
    a = analyze(run.action_times, frame_signals(run.video), DEFAULT_THRESHOLDS,
                run_duration_s=run.run_end_s)
    frame = 1 / truth["fps"] + 1e-6
    [f] = a.findings
    assert f.rule == "sync.offset_jump"
    assert abs(f.video_start_s - t["video_s"]) <= frame  # duration-ok: a video time
    assert abs(a.segments[0][2] - truth["offset_s"]) <= frame  # duration-ok: a video time
    # was the stretch after the insertion's: +240.11 (Breakout), +240.6 frames (Pong)
    assert abs(a.suggested_offset_s - truth["offset_s"]) <= frame  # duration-ok: a video time
    assert a.offset_used_s == a.suggested_offset_s
    # the actions that support it are the first stretch's (were 14 on both: more than the
    # first stretch holds)
    a0, a1, _ = a.segments[0]
    assert 6 <= a.supporting_actions <= sum(a0 <= x <= a1 for x in run.action_times)
