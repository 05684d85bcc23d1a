"""A part of a log that lines up with another game's picture by chance (issue 13, session 27;
`reading._whole_stands`).

Pitfall's genuine videos read against Pong's genuine log (the video of one run beside
another game's log) were offered 8.123 s at confidence 0.692 (recorder @mkv) and 0.641
(@vfr): the whole picture at 8x8, where the track chose a stretch of 21 of the log's 32
presses that stood 5.53 spreads over its shuffled logs (5 needed), and the rest, no splice
found, was read at the same offset. Pong's presses come in pairs about two seconds apart;
a part of them lines up with Pitfall's screen by chance, while the whole log, read the same
way, does no better than one of its shuffled logs. The genuine Pitfall run still gets its
offset within a frame.
"""

from __future__ import annotations

import corpus
import pytest

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.records import APPLY_MIN_CONFIDENCE
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

needs_corpus = pytest.mark.skipif(corpus.available() is not None,
                                  reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


def _auto(times, video, end_s):
    return analyze(times, frame_signals(video), DEFAULT_THRESHOLDS, None,
                   run_duration_s=end_s)


@needs_corpus
@pytest.mark.parametrize("recorder", ["mkv", "vfr"])
def test_pitfalls_video_beside_pongs_log_gets_no_confident_offset(scan_cache, recorder):
    """On main: 8.123 s at 0.692 (@mkv) and 0.641 (@vfr), Pitfall's truth 2.0 s."""
    video = corpus.build(f"pitfall-genuine@{recorder}")
    log = corpus.build("pong-genuine")
    a = _auto(log.action_times, video.video, log.run_end_s)
    assert a.suggested_offset_s is None or a.confidence < APPLY_MIN_CONFIDENCE, \
        (a.suggested_offset_s, a.confidence)


@needs_corpus
@pytest.mark.parametrize("recorder", ["mkv", "vfr"])
def test_pitfalls_own_log_still_gets_its_offset(scan_cache, recorder):
    run = corpus.build(f"pitfall-genuine@{recorder}")
    a = _auto(run.action_times, run.video, run.run_end_s)
    assert a.suggested_offset_s is not None, a.reason
    fps = float(run.truth["fps"])
    assert abs(a.suggested_offset_s - run.truth["offset_s"]) * fps <= 1.0  # duration-ok: frames
    assert a.confidence >= APPLY_MIN_CONFIDENCE
