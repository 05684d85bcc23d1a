"""A two-frame cycle's line split in two tells a drift's size; held or dropped console frames
its sign (issue 13, session 20, core/sync/split.py; QA s19's beam_rider-speed4 at 120 fps:
31.199 and 28.801 Hz, no line at 30 Hz, silent on main).

The runs are made as the QA corpus makes them: the game sped up or slowed by dropping or
holding a console frame every 1 / |speed - 1| of them, each console frame then shown on two
frames of a 120 fps recording.
"""

from __future__ import annotations

import numpy as np
import pytest

from moderator_app.core.sync import split
from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.pace import readings
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

PRESSES = np.arange(0.5, 36.0, 1.3)  # run times, in no step with the picture


def _flicker(speed: float, seconds: float = 42.0, fps: float = 120.0, seed: int = 3
             ) -> FrameSignals:
    """A game whose picture alternates a large and a small change on every other console
    frame (a 30 Hz cycle) plus a sprite's small irregular change, `speed` times too fast
    (console frame j of the video is the game's floor(j * speed)), each console frame shown
    on fps / 60 video frames (the repeats change nothing)."""
    rng = np.random.default_rng(seed)
    hold = round(fps / 60.0)
    frames = int(seconds * 60.0)
    game = np.floor(np.arange(frames) * speed).astype(int)
    held = np.r_[False, game[1:] == game[:-1]]  # a console frame shown again: no change
    tiles = np.zeros((frames * hold, 64), np.uint16)
    first = np.arange(frames) * hold
    tiles[first, 20] = np.where(game % 2 == 0, 40, 15) * ~held
    tiles[first, 43] = rng.integers(0, 6, frames) * ~held
    tiles[0] = 0
    n = frames * hold
    return FrameSignals(np.arange(n) / fps, tiles, fps)


def _drifts(a):
    return [f for f in a.findings if f.rule == "sync.drift"]


def test_a_sped_up_two_frame_cycle_is_a_drift_of_its_split():
    """+4 %: the 30 Hz line at 31.2 and 28.8 Hz; no console frame held at the phase flips:
    faster, +4.0 % within 0.1 point. On main: -4.0 % (the 28.801 Hz half read alone)."""
    sig = _flicker(1.04)
    a = analyze(PRESSES, sig, DEFAULT_THRESHOLDS, run_duration_s=40.0)
    [f] = _drifts(a)
    assert f.percent == pytest.approx(4.0, abs=0.1)
    assert "faster" in f.message and "split in two" in f.message
    assert (f.video_start_s, f.video_end_s) == (0.0, sig.times[-1])  # duration-ok: video times


def test_a_slowed_two_frame_cycle_is_a_drift_the_other_way():
    """-4 %: the same split; a console frame held at each flip: slower, -4.0 % within 0.1."""
    sig = _flicker(0.96)
    [f] = _drifts(analyze(PRESSES, sig, DEFAULT_THRESHOLDS, run_duration_s=40.0))
    assert f.percent == pytest.approx(-4.0, abs=0.1)
    assert "slower" in f.message


def test_a_two_frame_cycle_at_its_own_speed_is_no_drift():
    """The genuine control: one line at 30.000 Hz, no finding of any kind."""
    sig = _flicker(1.0)
    assert _drifts(analyze(PRESSES, sig, DEFAULT_THRESHOLDS, run_duration_s=40.0)) == []
    assert split.split_size(np.asarray(sig.picture_change), 120.0, 60.0, 100.0, 2.0,
                            readings, 1.0, 0.06) is None


def test_the_split_alone_tells_no_sign_at_a_rate_not_a_whole_multiple():
    """At 100 fps (a console frame on 1 or 2 video frames) the flips cannot be told dropped
    from held: the split's size is read, its sign is not, nothing is said by it."""
    sig = _flicker(1.04)
    odd = FrameSignals(sig.times * 1.2, sig.tiles, 100.0)
    assert split.split_sign(odd, 0.04, 60.0) is None
