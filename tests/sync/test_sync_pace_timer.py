"""A sped-up or slowed video read from the game's seconds timer (issue 13, session 19,
core/sync/timer.py; QA s15's private_eye-speed35 at 30 and 50 fps: no line in the picture's
change, no reaction read, drift 0.0 and no finding).

The timer's digit changes once every 60 frames of the 60 Hz console: in an honest recording
its tile starts changing every `fps` frames, in a video sped up 3.5 % every fps / 1.035.
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from qa_runs import qa_run, share_scans

from moderator_app.cli import main as cli_main
from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.sync.timer import readings, timer_speed, told
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

PRESSES = np.arange(0.7, 38.0, 1.9)  # run times, in no step with the timer
# ... and a player's, unevenly spaced (a steady rhythm lines up at many offsets)
PLAYED = np.round(PRESSES + np.random.default_rng(3).uniform(0.0, 1.2, len(PRESSES)), 3)


def _game(fps: float, seconds: float, speed: float, seed: int = 7, cycle: int = 60,
          answered: np.ndarray | None = None, street: bool = True) -> FrameSignals:
    """A recording at `fps` of a game with a seconds timer (tile 4: its digit redrawn on the
    console frame that starts each second, now and then a sprite crossing it; `cycle`: every
    that many console frames instead, a frame counter's) and a street scrolling by
    irregularly elsewhere (tiles 40-55), the game played `speed` times too fast (video frame
    v shows console frame floor(v * 60 * speed / fps)). `answered`: presses' run times; the
    player (tiles 20-23) moves from the frame after each shows (video time 1.0 + run time /
    speed). `street`: False, no street (a still picture but for the timer and the player)."""
    rng = np.random.default_rng(seed)
    n = int(seconds * fps)
    game = np.floor(np.arange(n) * 60.0 * speed / fps).astype(int)
    tiles = np.zeros((n, 64), np.uint16)
    second = game // cycle
    if answered is not None:  # (a sprite crossing tiles 20-23 in 4 frames)
        shown = np.ceil((1.0 + answered / speed) * fps).astype(int) + 1
        for k in range(4):
            tiles[shown[shown + k < n] + k, 20 + k] = 40
    tiles[1:, 4] = np.where(second[1:] != second[:-1], 25 + rng.integers(0, 8, n - 1), 0)
    crossing = rng.choice(np.arange(1, n), size=int(seconds / 4), replace=False)
    tiles[crossing, 4] += rng.integers(10, 40, len(crossing)).astype(np.uint16)
    if street:
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
    """A slowed timer's grid is a 64-frame cycle sped up too (-4.5 % or +1.87 %): with the
    presses answered, the drift is said (here the fit reads it first)."""
    [f] = _drifts(analyze(PLAYED, _game(25.0, 42.0, 0.955, answered=PLAYED),
                          DEFAULT_THRESHOLDS, run_duration_s=40.0))
    assert f.percent == pytest.approx(-4.5, abs=0.2)


def test_a_slowed_timer_no_press_tells_is_no_drift():
    """The same grid with no press shown: a seconds timer slowed 4.5 % or a frame counter
    sped up 1.9 %, opposite signs, and nothing tells which. Fails before session 31: -4.5 %."""
    sig = _game(25.0, 42.0, 0.955)
    assert _drifts(analyze(PRESSES, sig, DEFAULT_THRESHOLDS, run_duration_s=40.0)) == []
    speed, _ticks, tile = timer_speed(sig, 60.0)
    assert (tile, round(speed, 3)) == (4, 0.955)


def test_a_sped_up_frame_counter_no_press_tells_is_no_drift():
    """QA s30's koolaid-speed26@r18divx in small: a tile on a 64-frame cycle, the video 2.6 %
    fast at 18 fps (62.38 console frames a tick), no press shown. Before session 31: a
    seconds timer slowed 3.82 %, the wrong sign; now nothing."""
    sig = _game(18.0, 44.0, 1.026, cycle=64)
    assert _drifts(analyze(PLAYED, sig, DEFAULT_THRESHOLDS, run_duration_s=40.0)) == []
    speed, _ticks, _tile = timer_speed(sig, 60.0)
    assert [(round(s, 3), k) for s, k in readings(speed)] == [(0.962, 60), (1.026, 64)]


@pytest.mark.parametrize(("cycle", "speed", "fps"), [(64, 1.026, 18.0), (60, 0.955, 25.0)])
def test_the_log_tells_which_reading_a_grid_is(cycle, speed, fps):
    """`told`: the presses' fit at each reading of one grid stands at the true one only (a
    counter sped up 2.6 %, a timer slowed 4.5 %); with no press shown, at neither."""
    sig = _game(fps, 44.0, speed, cycle=cycle, answered=PLAYED, street=False)
    speeds = [s for s, _k in readings(timer_speed(sig, 60.0)[0])]
    assert told(sig, PLAYED, speeds, DEFAULT_THRESHOLDS.sync_min_z) == \
        pytest.approx(speed, abs=0.002)
    sig = _game(fps, 44.0, speed, cycle=cycle)
    assert told(sig, PLAYED, speeds, DEFAULT_THRESHOLDS.sync_min_z) is None


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


@pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")
@pytest.mark.parametrize("offset", ["auto", "5.019"])
def test_qa30_koolaid_speed26_reads_no_wrong_sign(offset, capsys, tmp_path, monkeypatch):
    """QA s30 T5: Kool-Aid Man 2.6 % fast at 18 fps (MS-MPEG-4 AVI), 3 of its 22 presses
    shown. A tile on a 64-frame grid (18.71 video frames a tick) read as a seconds timer
    slowed 3.82 % at every offset before session 31; the log cannot tell the two readings
    apart, so nothing is said (a wrong sign is no report of the speed change)."""
    share_scans(monkeypatch)
    folder = qa_run(30, "koolaid-speed26@r18divx")
    truth = json.loads((folder / "truth.json").read_text())
    assert truth["tamper"] == {"kind": "speed26", "percent": pytest.approx(2.6)}
    cli_main(["verify", str(folder), "--scan", "--sync", "--offset", offset, "--json"])
    rep = json.loads(capsys.readouterr().out)
    assert [f["percent"] for f in rep["sync"]["findings"] if f["rule"] == "sync.drift"] == []
