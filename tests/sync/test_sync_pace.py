"""A sped-up or slowed video is found from the game's own animation clock, without a fitted
offset (issue 13, session 17, core/sync/pace.py; QA s15 H3: Centipede's speed35 runs read
drift 0.0 on both recorders).

A game animating on the console's 60 Hz clock (one cycle in 8 frames: 7.5 Hz) shows that
cycle as a spectral line in the picture's change per frame; a video sped up 3.5 % at a
constant frame rate shows it at 7.763 Hz.
"""

from __future__ import annotations

import numpy as np
import pytest

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.pace import animation_speed
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

STRENGTH = DEFAULT_THRESHOLDS.sync_pace_min_strength
PRESSES = np.arange(0.5, 36.0, 1.3)  # run times, in no step with the picture


def _game(fps: float, seconds: float, speed: float, cycle: int = 8, seed: int = 5) -> FrameSignals:
    """A recording at `fps` of a game whose crawl changes one tile in a `cycle`-frame
    pattern of the console's 60 Hz frames, the game played `speed` times too fast (video
    frame v shows console frame floor(v * 60 * speed / fps)), with a sprite's irregular
    change elsewhere."""
    rng = np.random.default_rng(seed)
    n = int(seconds * fps)
    game = np.floor(np.arange(n) * 60.0 * speed / fps).astype(int)
    phase = 2 * np.pi * np.arange(cycle) / cycle
    pattern = np.round(30 + 20 * np.cos(phase) + 8 * np.cos(3 * phase)).astype(int)
    tiles = np.zeros((n, 64), np.uint16)
    tiles[1:, 20] = pattern[game[1:] % cycle] + rng.integers(0, 6, n - 1)
    tiles[1:, 43] = rng.integers(0, 30, n - 1)
    return FrameSignals(np.arange(n) / fps, tiles, fps)


def _drifts(a):
    return [f for f in a.findings if f.rule == "sync.drift"]


@pytest.mark.parametrize("fps", [30.0, 50.0])
def test_a_sped_up_game_animation_is_a_drift_with_no_offset(fps):
    """Sped up 3.5 % (QA s15's speed35): the 7.5 Hz crawl at 7.763 Hz, +3.5 % within 0.1
    point, over the whole video. Fails on main: no finding (the fit finds no offset)."""
    sig = _game(fps, 42.0, 1.035)
    a = analyze(PRESSES, sig, DEFAULT_THRESHOLDS, run_duration_s=40.0)
    [f] = _drifts(a)
    assert f.percent == pytest.approx(3.5, abs=0.1)
    assert (f.video_start_s, f.video_end_s) == (0.0, sig.times[-1])  # duration-ok: video times
    assert "faster" in f.message and "7.5" in f.message


def test_a_slowed_game_animation_is_a_drift_too():
    """Slowed 2.5 % at 50 fps (frames of the console shown twice now and then)."""
    [f] = _drifts(analyze(PRESSES, _game(50.0, 42.0, 0.975), DEFAULT_THRESHOLDS,
                          run_duration_s=40.0))
    assert f.percent == pytest.approx(-2.5, abs=0.1)


@pytest.mark.parametrize("fps", [24.0, 30.0, 50.0, 60.0])
def test_a_game_at_its_own_speed_is_no_drift(fps):
    sig = _game(fps, 42.0, 1.0)
    assert _drifts(analyze(PRESSES, sig, DEFAULT_THRESHOLDS, run_duration_s=40.0)) == []


def test_too_short_a_video_tells_no_speed():
    """10 s: the line's width is more than the drift."""
    assert animation_speed(np.arange(300) / 30.0, _game(30.0, 10.0, 1.035).picture_change,
                           30.0, 60.0, STRENGTH) is None


def test_a_comb_of_dropped_frames_is_no_animation_line():
    """A 60 fps video sped up by dropping one frame in 26 of a picture that changes every
    frame: equal lines at 2.31 Hz and its multiples, of which 20.77 Hz reads as a 20 Hz cycle
    sped up 3.85 % (the corpus' Asteroids: 19.2 Hz read as 20 Hz slowed 4 %). A comb's line
    is a slower event's harmonic, not an animation cycle: nothing is read."""
    rng = np.random.default_rng(2)
    n = 2520
    change = rng.integers(80, 100, n).astype(float)
    change[np.arange(12, n, 26)] += 400  # the jump over each dropped frame
    assert animation_speed(np.arange(n) / 60.0, change, 60.0, 60.0, STRENGTH) is None


def test_a_line_split_in_a_cluster_tells_no_speed():
    """Two lines 0.07 Hz apart (a cycle that comes and goes, as corpus Kangaroo's at 30
    fps): +1.73 % and +2.67 %, within a point of each other, yet no one frequency."""
    rng = np.random.default_rng(4)
    t = np.arange(1260) / 30.0
    change = 50 + 20 * np.cos(2 * np.pi * 7.63 * t) + 20 * np.cos(2 * np.pi * 7.70 * t + 1) + \
        rng.normal(0, 3, t.size)
    assert animation_speed(t, change, 30.0, 60.0, STRENGTH) is None
    # each line alone is read
    alone = 50 + 20 * np.cos(2 * np.pi * 7.70 * t) + rng.normal(0, 3, t.size)
    assert animation_speed(t, alone, 30.0, 60.0, STRENGTH)[0] == pytest.approx(1.0267, abs=0.001)
