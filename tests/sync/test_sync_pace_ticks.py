"""How closely the game's evenly spaced ticks place a speed (issue 13, "speed as a drift within
1 percentage point"; QA s19 M1, core/sync/ticks.py).

QA s19's 3-D Tic-Tac-Toe, a still board, blinks its cursor every 8 console frames; sped up
4 % and captured at 23.976 fps a blink shows every 3.074 frames. Where a blink falls near a
frame's edge it shows a frame late ("4 2 4"), which cuts its stretches into trains of 12
gaps that start and end on a long gap: each reads the blink sped up ~1 %, a long train +3.8 %.
Read by each train's mean gap within 1 %, they disagreed (nothing said; before the folded
cycle was dropped, +5.38 % through a 30 Hz fold). Read by the speeds each train allows, its
ticks whole frames, a train of 12 gaps allows -0.1 .. +6.6 % and the long one +3.5 .. +4.4 %.
"""

from __future__ import annotations

import numpy as np
import pytest

from moderator_app.core.sync import ticks
from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

FILM = 24000 / 1001
PRESSES = np.arange(0.5, 38.0, 1.7)


def _blink_board(speed: float, seed: int, late: float = 0.6, last_s: float = 12.0,
                 seconds: float = 42.0, fps: float = FILM) -> FrameSignals:
    """A still board whose cursor (4 tiles) blinks every 8 console frames, its off-change
    drawn `late` console frames after its on-change, in stretches of 5-9 s at their own
    phases, each ended by the computer's move (the screen blanks for 12 frames); the last
    `last_s` seconds one stretch drawn on time (the player's long think). The game played
    `speed` times too fast and captured at `fps`: a change shows on the first frame at or
    after it."""
    rng = np.random.default_rng(seed)
    n = int(seconds * fps)
    c = np.arange(n) * 60.0 * speed / fps  # the console frame each video frame shows
    tiles = np.zeros((n, 64), np.uint16)
    last = n - int(last_s * fps)
    j = 1
    while j < n:
        size = int(rng.uniform(5, 9) * fps) if j < last else n - j
        lag = late if j < last else 0.0
        i = np.arange(300)
        at = c[j] + rng.uniform(0, 8) + 8 * i + np.where(i % 2 == 1, lag, 0.0)
        k = np.searchsorted(c, at)
        tiles[k[(k >= j) & (k < min(n, j + size))], 20:24] = 8
        j += size
        for b in (j, j + 11):  # the computer's move blanks the screen and brings it back
            if b < n:
                tiles[b, :] = 700
        j += 12
    return FrameSignals(np.arange(n) / fps, tiles, fps)


def _drifts(sig: FrameSignals):
    a = analyze(PRESSES, sig, DEFAULT_THRESHOLDS, run_duration_s=40.0)
    return [f for f in a.findings if f.rule == "sync.drift"]


@pytest.mark.parametrize("seed", [2, 9])
def test_short_trains_cut_at_a_late_tick_still_place_the_speed(seed):
    """Sped up 4 %: trains of 12-13 gaps read ~+1 %, the long stretch +3.8 %; the speeds they
    all allow hold +4.0 %. Fails on main e2683ea: no finding (the trains' mean gaps disagree
    by more than 1 %)."""
    [f] = _drifts(_blink_board(1.04, seed))
    assert f.percent == pytest.approx(4.0, abs=1.0)
    assert "evenly spaced" in f.message


def test_the_same_board_at_its_own_speed_is_no_drift():
    assert _drifts(_blink_board(1.0, 2)) == []


def test_trains_that_cannot_place_the_speed_within_a_point_say_nothing():
    """Every stretch cut at its late ticks (no long one): each train allows +1.2 .. +5.9 %,
    more than a point either side of any speed: nothing is said."""
    assert _drifts(_blink_board(1.04, 3, last_s=0.0)) == []


def test_a_train_s_speeds_hold_its_true_gap():
    """A blink every 3.074 frames shown on whole frames, its last tick a frame late (its
    off-change near a frame's edge): the train's mean gap is 0.09 frames off (+3 %), the grid
    gaps it allows at 1.75 frames of slack hold the truth; at 1 frame (whole frames alone)
    they do not."""
    true = 8 / (60 * 1.04 / FILM)
    pos = np.ceil(0.4 + true * np.arange(13))
    pos[-1] += 1
    assert abs((pos[-1] - pos[0]) / 12 - true) > 0.09  # duration-ok (frames, not time)
    lo, hi = ticks.span(pos, 1.75)
    assert lo <= true <= hi
    lo, hi = ticks.span(pos, 1.0)
    assert not lo <= true <= hi


@pytest.mark.parametrize("speed", [1.04, 0.96, 1.0])
def test_a_120_fps_capture_shows_each_console_frame_twice(speed):
    """At 120 fps the blink shows every 16 frames (sped up 4 %: gaps of 14 and 16; slowed:
    17 and 18): counted in console frames, the trains read the speed; honest, nothing.
    Fails on main 9caec5d for the changed speeds: no finding (gaps of 2-8 frames, 1 apart)."""
    found = _drifts(_blink_board(speed, 2, late=0.0, fps=120.0))
    if speed == 1.0:
        assert found == []
        return
    [f] = found
    assert f.percent == pytest.approx((speed - 1) * 100, abs=1.0)
