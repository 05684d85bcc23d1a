"""The capture's delay is taken back at the rate the frames were taken, not at the rate a
variable-frame-rate file's intervals show (issue 13, session 32, confwrong).

The wide set's video_cube-genuine@vfr: a recorder at 60 fps that skips repeated pictures, a
still game drawn every 4th frame: its 376 frames are 4 or 8 ticks of 60 Hz apart, one 6. The
frame period read (`signals.frame_period`) is 1/15 s, and the capture lag of 15 fps (0.025 s,
`cadence.capture_lag_s`) was taken back from a suggestion its reactions dated on the 60 Hz
clock: 1.18 frames early at confidence 0.608 (a confident wrong offset). The frame 6 ticks
after its neighbour lies off the 1/15 s grid and on the 1/30 s one: the capture's rate is 30
fps at least, where no mean delay applies (`cadence.stamp_fps`). The same file without that
frame cannot be told from a 15 fps capture that skips repeats (Theora's), and keeps its lag.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from moderator_app.core.sync.cadence import capture_lag_s, captured, stamp_fps
from moderator_app.core.sync.records import SyncAnalysis
from moderator_app.core.sync.signals import from_scan


def _signals(ticks, hz: float = 60.0):
    """The sync signals of a video whose frames are at these ticks of an `hz` clock (each
    frame a change of one tile, as a still game's redraw)."""
    t = np.asarray(ticks, float) / hz
    tiles = np.zeros((len(t), 8, 8), np.uint8)
    tiles[1:, 3, 3] = 5
    return from_scan(SimpleNamespace(times_s=t, sync_tiles=tiles))


def _vfr_ticks(odd: bool) -> list[int]:
    """376 frames 4 or 8 ticks apart (the file's 102 and 272), with one 6 when `odd`."""
    steps = ([4, 8, 8] * 136)[:375]
    if odd:
        steps[200] = 6
    return list(np.cumsum([0, *steps]))


def _suggestion(offset: float = 2.2985) -> SyncAnalysis:
    return SyncAnalysis(offset, 0.608, 9, 24, 1.0, "", offset)


def test_a_skipping_recorder_whose_frame_is_off_the_period_grid_takes_no_15_fps_lag():
    sig = _signals(_vfr_ticks(odd=True))
    assert sig.fps == pytest.approx(15.0)
    assert stamp_fps(sig) == pytest.approx(30.0)
    a = captured(_suggestion(), sig)
    assert a.suggested_offset_s == 2.2985  # main: 2.2735 (0.025 s taken back)
    assert a.offset_used_s == 2.2985


def test_the_same_file_on_the_period_grid_keeps_the_15_fps_lag():
    """All intervals whole periods: a 15 fps capture that skips repeats, as far as the file
    tells (0.025 s, 3/8 of a frame, taken back as before)."""
    sig = _signals(_vfr_ticks(odd=False))
    assert stamp_fps(sig) == pytest.approx(15.0)
    a = captured(_suggestion(), sig)
    assert a.suggested_offset_s == 2.2735
    assert a.offset_used_s == 2.2985


def test_ms_rounded_stamps_of_a_constant_rate_keep_their_rate():
    """A 24 fps WebM's whole milliseconds (41, 42, 42 ms) are on its grid: the lag taken back
    is the period's, as before (half a frame: the mean period is not 24 fps exactly)."""
    t = np.round(np.arange(960) / 24.0, 3)
    tiles = np.zeros((len(t), 8, 8), np.uint8)
    tiles[1:, 3, 3] = 5
    sig = from_scan(SimpleNamespace(times_s=t, sync_tiles=tiles))
    assert stamp_fps(sig) == pytest.approx(float(sig.fps))
    a = captured(_suggestion(3.0), sig)
    assert a.suggested_offset_s == round(3.0 - capture_lag_s(float(sig.fps)), 4) == 2.9792


def test_a_jittery_clock_shows_no_finer_grid():
    """A 20 fps screen recorder whose stamps wander up to 8 ms (a seeded draw): on no grid of
    the period or its multiples, so the period's rate stays the capture's."""
    rng = np.random.default_rng(7)
    t = np.arange(800) / 20.0 + rng.uniform(-0.008, 0.008, 800)
    tiles = np.zeros((len(t), 8, 8), np.uint8)
    tiles[1:, 3, 3] = 5
    sig = from_scan(SimpleNamespace(times_s=np.sort(t), sync_tiles=tiles))
    assert stamp_fps(sig) == float(sig.fps)
