"""QA s34 T3 (issue 13, session 35): Earthworld's honest RealVideo 1.0 files at 22 fps read a
`sync.drift` of +9.09 % and a `sync.offset_jump` of -24.04 s. Two causes, each general:

- a capture whose rate does not divide the game's 60 Hz samples the console frames on a beat
  (22 fps: steps of 2 and 3 console frames repeating every 11 video frames), and the dips of
  an alternating picture lie on that beat's lattice as a dropped frame in every 11 would
  (`drops.console_frames`: the dropped-frame test reads only captures without a beat);
- the order test returned one chance stretch to the offset used and never tested the chance
  stretch before it, then a neighbour of the used offset's (`track.in_order`).
"""

from __future__ import annotations

import numpy as np
import pytest

from moderator_app.core.sync import drops, track
from moderator_app.core.sync.records import SyncAnalysis
from moderator_app.core.sync.signals import GRID, FrameSignals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS


def _signals(fps: float, n: int, dip_every: float) -> FrameSignals:
    """An alternating picture (~1,000 changed points a frame) dipping to ~30 every
    `dip_every` frames, at `fps`."""
    rng = np.random.default_rng(34)
    c = rng.integers(800, 1200, n)
    c[np.round(np.arange(dip_every, n - 1, dip_every)).astype(int)] = rng.integers(10, 60)
    c[0] = 0
    tiles = np.zeros((n, GRID * GRID), np.uint16)
    tiles[:, 0] = c
    return FrameSignals(np.arange(n) / fps, tiles, fps)


def _none() -> SyncAnalysis:
    return SyncAnalysis(None, 0.0, 0, 0, 1.0, "not enough signal", None)


@pytest.mark.parametrize(("fps", "aligned"), [
    (60.0, True), (30.0, True), (20.0, True), (59.94, True),
    (22.0, False), (22.00009, False), (25.0, False), (50.0, False), (35.0, False)])
def test_a_capture_is_console_frames_only_when_its_rate_divides_the_clock(fps, aligned):
    assert drops.console_frames(fps) is aligned


def test_a_dip_lattice_at_22_fps_is_the_capture_beat_not_dropped_frames():
    """Earthworld's shape: 943 frames at 22 fps, a dip every 11 frames (the beat's period).
    On main: `sync.drift` +9.09 %."""
    sig = _signals(22.0, 943, 11.0)
    assert drops.drop_period(np.asarray(sig.picture_change), 100.0) == (11.0, 85)
    assert drops.drop_drift(_none(), [0.0, 36.58], sig, DEFAULT_THRESHOLDS) == []


def test_the_same_lattice_at_60_fps_is_still_a_drift():
    sig = _signals(60.0, 2400, 25.0)
    got = drops.drop_drift(_none(), [0.0, 38.0], sig, DEFAULT_THRESHOLDS)
    assert [(f.rule, f.percent) for f in got] == [("sync.drift", 4.0)]


def _earthworld():
    """T3's run at 22 fps: 22 presses, the first 12 never shown; the first 6 answered by
    chance 24.0 s later, the next 6 15.1 s later, the last 10 at the truth (1.863 s)."""
    run_s = np.array([1.458, 3.249, 4.907, 7.034, 8.518, 10.167, 12.171, 13.917, 15.871,
                      17.078, 19.08, 20.745, 22.941, 24.461, 25.981, 27.301, 28.687, 30.858,
                      32.556, 33.992, 35.351, 36.58])
    cands = [1.863, 25.875, 16.934]
    path = np.array([1] * 6 + [2] * 6 + [0] * 10)
    shown = np.array([c + e for c, e in zip(np.take(cands, path), run_s, strict=True)])

    def look(v):  # a reaction stands out right after each of these video times
        v = np.atleast_1d(np.asarray(v, float))
        return np.where(np.abs(v[:, None] - shown[None, :]).min(axis=1) < 0.02, 9.0, 0.0)
    return look, run_s, path, cands


def test_one_pass_of_the_order_test_leaves_the_first_chance_stretch():
    look, run_s, path, cands = _earthworld()
    assert track.out_of_order(look, run_s, path, cands, 1.0, 3.0) == [(6, 12)]


def test_every_chance_stretch_out_of_order_returns_to_the_offset_used():
    """On main the first 6 presses stayed at +24.0 s: a false `sync.offset_jump`."""
    look, run_s, path, cands = _earthworld()
    assert track.in_order(look, run_s, path, cands, 1.0, 3.0).tolist() == [0] * 22
    assert path.tolist() == [1] * 6 + [2] * 6 + [0] * 10  # (not changed in place)
