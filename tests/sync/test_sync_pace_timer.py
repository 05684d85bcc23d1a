"""A sped-up or slowed video read from the game's seconds timer (issue 13, session 19,
core/sync/timer.py; QA s15's private_eye-speed35 at 30 and 50 fps: no line in the picture's
change, no reaction read, drift 0.0 and no finding).

The timer's digit changes once every 60 frames of the 60 Hz console: in an honest recording
its tile starts changing every `fps` frames, in a video sped up 3.5 % every fps / 1.035.
"""

from __future__ import annotations

import numpy as np
import pytest

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.sync.timer import timer_speed
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

PRESSES = np.arange(0.7, 38.0, 1.9)  # run times, in no step with the timer


def _game(fps: float, seconds: float, speed: float, seed: int = 7) -> FrameSignals:
    """A recording at `fps` of a game with a seconds timer (tile 4: its digit redrawn on the
    console frame that starts each second, now and then a sprite crossing it) and a street
    scrolling by irregularly elsewhere (tiles 40-55), the game played `speed` times too fast
    (video frame v shows console frame floor(v * 60 * speed / fps))."""
    rng = np.random.default_rng(seed)
    n = int(seconds * fps)
    game = np.floor(np.arange(n) * 60.0 * speed / fps).astype(int)
    tiles = np.zeros((n, 64), np.uint16)
    second = game // 60
    tiles[1:, 4] = np.where(second[1:] != second[:-1], 25 + rng.integers(0, 8, n - 1), 0)
    crossing = rng.choice(np.arange(1, n), size=int(seconds / 4), replace=False)
    tiles[crossing, 4] += rng.integers(10, 40, len(crossing)).astype(np.uint16)
    tiles[1:, 40:56] = rng.integers(0, 60, (n - 1, 16)) * (rng.random((n - 1, 16)) < 0.7)
    return FrameSignals(np.arange(n) / fps, tiles, fps)


def _drifts(a):
    return [f for f in a.findings if f.rule == "sync.drift"]


@pytest.mark.parametrize("fps", [30.0, 50.0])
def test_a_sped_up_timer_is_a_drift(fps):
    """+3.5 % within 0.2 point, over the whole video. Fails on main: no finding."""
    sig = _game(fps, 42.0, 1.035)
    [f] = _drifts(analyze(PRESSES, sig, DEFAULT_THRESHOLDS, run_duration_s=40.0))
    assert f.percent == pytest.approx(3.5, abs=0.2)
    assert (f.video_start_s, f.video_end_s) == (0.0, sig.times[-1])  # duration-ok: video times
    assert "faster" in f.message and "seconds timer" in f.message


def test_a_slowed_timer_is_a_drift_too():
    [f] = _drifts(analyze(PRESSES, _game(25.0, 42.0, 0.955), DEFAULT_THRESHOLDS,
                          run_duration_s=40.0))
    assert f.percent == pytest.approx(-4.5, abs=0.2)


@pytest.mark.parametrize("fps", [15.0, 25.0, 30.0, 50.0, 59.94, 60.0])
def test_a_timer_at_its_own_speed_is_no_drift(fps):
    sig = _game(fps, 42.0, 1.0)
    assert _drifts(analyze(PRESSES, sig, DEFAULT_THRESHOLDS, run_duration_s=40.0)) == []
    speed, ticks, tile = timer_speed(sig, 60.0)
    assert (tile, ticks >= 38) == (4, True)
    assert speed == pytest.approx(1.0, abs=0.002)


def test_a_tile_changing_at_random_is_no_timer():
    """As many onsets as a timer's, at random moments: no grid holds them."""
    rng = np.random.default_rng(1)
    n = 1260
    tiles = np.zeros((n, 64), np.uint16)
    tiles[rng.choice(np.arange(1, n), size=45, replace=False), 4] = 30
    assert timer_speed(FrameSignals(np.arange(n) / 30.0, tiles, 30.0), 60.0) is None


def test_too_short_a_video_has_no_timer_to_read():
    """15 s: fewer ticks than MIN_TICKS."""
    assert timer_speed(_game(30.0, 15.0, 1.035), 60.0) is None
