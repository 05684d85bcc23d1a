"""A screen that moves on its own: the motion's rises (issue 13, session 15, QA H2/H3).

Private Eye's street is animated at 15 Hz between presses and scrolls while the car drives,
so a press starts its change in tiles already moving: almost no onset (at the true offset the
onsets' fit stands 1.4 spreads over other offsets) and every run "not enough signal", its
deleted and human stretches missed. The rise of a tile's change above its own recent motion
(`rise.rising`) is what the press makes; the analysis on those rises singles out an offset
that is named, not suggested (a rise lags a press's first change by 0 to 4 frames), and the
log gaps it shows being played are `sync.activity_without_actions`.
"""

from __future__ import annotations

import random

import corpus
import numpy as np
import pytest

from moderator_app.core.sync import rise
from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.signals import FrameSignals, frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS


def test_a_rise_is_the_motion_rising_not_its_ongoing_animation():
    # one tile animated every other frame at 20 points from frame 2 (its start is a rise),
    # then moving every frame at 60 (a scroll), another tile still then starting at 30 (an
    # onset is a rise too)
    n = 40
    t = np.zeros((n, 4), np.uint16)
    t[2:20:2, 0] = 20
    t[20:, 0] = 60
    t[30:, 1] = 30
    sig = FrameSignals(np.arange(n) / 60.0, t, 60.0)
    r = rise.rising(sig)
    assert np.flatnonzero(r.tiles[:, 0]).tolist() == [2, 20]  # 60 > 1.3 x 20 + 16, once
    assert np.flatnonzero(r.tiles[:, 1]).tolist() == [30]
    assert not r.tiles[:, 2:].any()
    # splices and freezes stay measured on the whole picture
    assert np.array_equal(r.picture_change, sig.change)


needs_corpus = pytest.mark.skipif(corpus.available() is not None,
                                  reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


def _private_eye(ram, rng: random.Random) -> list[tuple[str, int]]:
    """QA session 15's Private Eye agent (scripts/qa_session15.py, seed 153): the street
    scrolls only while the car drives; UP/FIRE makes the detective jump."""
    r = rng.random()
    if r < 0.7:
        return [(rng.choice(("RIGHT", "RIGHT", "LEFT")), rng.randint(10, 30))]
    if r < 0.85:
        return [("FIRE", rng.randint(4, 10))]
    return [(rng.choice(("UPRIGHT", "UPLEFT")), rng.randint(6, 14))]


def _qa15(kind: str) -> corpus.Run:
    """QA's private_eye-{kind}@r60mp4 (the corpus' own 60 fps x264 recorder, x2, 2.2 s
    lead-in), built once into the corpus cache."""
    from corpus.record import Recorder

    return corpus.build_with(f"qa15-private_eye-{kind}@r60mp4", "private_eye", _private_eye,
                             kind, 153, Recorder(fps=60, scale=2, lead_s=2.2), "r60mp4")


@needs_corpus
def test_a_deleted_stretch_on_a_scrolling_screen_is_found(scan_cache):
    run = _qa15("deleted")
    t = run.truth["tamper"]
    a = analyze(run.action_times, frame_signals(run.video), DEFAULT_THRESHOLDS,
                run_duration_s=run.run_end_s)
    # main: not enough signal and no finding at all
    assert a.suggested_offset_s is None  # the rises' offset is named, not suggested
    [f] = [f for f in a.findings if f.rule == "sync.activity_without_actions"]
    assert t["video_start_s"] - 1.0 <= f.video_start_s <= t["video_end_s"] + 1.0
    assert t["video_start_s"] - 1.0 <= f.video_end_s <= t["video_end_s"] + 1.0
    assert "not suggested" in f.message


@needs_corpus
def test_the_genuine_scrolling_run_gets_no_warning(scan_cache):
    run = _qa15("genuine")
    a = analyze(run.action_times, frame_signals(run.video), DEFAULT_THRESHOLDS,
                run_duration_s=run.run_end_s)
    assert a.suggested_offset_s is None
    assert a.findings == []
