"""The recorder's timing normalised before the analysis (core/sync/signals.py): the frame rate
from millisecond timestamps (WebM, MKV) and the frames a variable-frame-rate recorder skipped."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from moderator_app.core.sync.signals import MAX_FILL_S, fill_still, frame_period, from_scan


def _scan(times, n_tiles=8):
    n = len(times)
    tiles = np.arange(n * n_tiles * n_tiles, dtype=np.uint16).reshape(n, n_tiles, n_tiles) % 7
    return SimpleNamespace(times_s=np.asarray(times, float), sync_tiles=tiles)


def test_millisecond_timestamps_give_the_true_rate():
    """33, 33, 34 ms: the median said 30.3 fps (1 % off over every window counted in frames)."""
    for fps in (30, 60, 25):
        t = np.round(np.arange(1200) / fps, 3)
        assert abs(1 / frame_period(t) - fps) < 0.01 * fps / 100
        assert from_scan(_scan(t)).fps == 1 / frame_period(t)


def test_exact_timestamps_keep_the_median_period():
    """A constant-rate file's exact times: the same rate as before (reports unchanged)."""
    t = np.arange(500) * (512 / 15360)
    d = np.diff(t)
    assert frame_period(t) == float(np.median(d[d > 0]))
    assert frame_period(np.array([0.0])) is None and frame_period(np.zeros(4)) is None


def test_skipped_repeats_come_back_as_still_frames():
    steps = np.array([0, 1, 2, 5, 6, 9, 30])
    sig = from_scan(_scan(steps / 60))
    assert sig.fps == 60.0
    assert np.allclose(sig.times * 60, np.arange(31))
    kept = np.isin(np.arange(31), steps)
    assert sig.tiles[~kept].sum() == 0
    assert (sig.tiles[kept] == from_scan(_scan(steps / 60)).tiles[kept]).all()
    assert sig.tiles[kept].sum() == _scan(steps / 60).sync_tiles.sum()


def test_a_long_hole_stays_a_hole():
    """Footage missing for longer than MAX_FILL_S is not a still screen."""
    t = np.r_[np.arange(100) / 30, 100 / 30 + MAX_FILL_S + 1 + np.arange(100) / 30]
    tiles = np.ones((len(t), 4), np.uint16)
    nt, ntiles = fill_still(t, tiles, 1 / 30)
    assert len(nt) == len(t) and (ntiles == tiles).all()


def test_three_frames_far_apart_have_a_period():
    """Frames at 0, 1 and 40 s (session 26 hostile sweep): the 10th percentile of the two
    intervals (4.8 s) is neither, no interval lay within half of it, and `verify --sync`
    (and `--offset auto`) ended in an internal error (np.ptp of nothing). The period is the
    shorter interval; the frames are not filled in (a file of far-apart frames)."""
    t = np.array([0.0, 1.0, 40.0])
    assert frame_period(t) == 1.0
    sig = from_scan(_scan(t))
    assert sig.fps == 1.0 and len(sig.times) == 3
    assert frame_period(np.array([0.0, 2.0, 3.0, 60.0, 200.0])) == 1.0
