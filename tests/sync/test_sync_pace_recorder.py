"""The recorder's cadence reads no speed, and a slow cycle exactly on the console's clock is
honest (issue 13, session 33; QA s32 T2 and the wide set, core/sync/pace_null.py
`on_cadence`, `long_honest`).

A recorder at 16 fps shows 15 console frames in every 4 of its frames (3, 4, 4, 4): a game
whose picture moves every console frame changes by that uneven step, lines at 4 and 8 Hz at
any speed of the video. A 3-frame and a 5-frame cycle at the console's clock fall on 4 Hz
too (20 and 12 Hz folded), so the cadence line read as "the video runs at the console's
clock" and silenced a slowed video's own line (the wide set's asteroids-slow26@r16wmv).

At 32 fps a 16-frame cycle (3.75 Hz) is also the 2-frame cycle (30 Hz) aliased and slowed
5.83 % (32 - 28.25): QA s32's tetris-genuine@r32flv1 read `sync.drift` -5.83 %.
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from qa_runs import qa_run, share_scans

from moderator_app.cli import main as cli_main
from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.pace_null import cadence_step, long_honest, on_cadence
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

PRESSES = np.arange(0.5, 36.0, 1.3)  # run times, in no step with the picture
needs_ffmpeg = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


def _footage(fps: float, speed: float, cycle: tuple[int, ...], walk: int = 80,
             seconds: float = 44.0, seed: int = 5) -> FrameSignals:
    """`fps` footage of a game played `speed` times too fast (console frames kept or held
    as the corpus' speed kinds do): a tile whose change follows the game's `cycle` (one
    value a console frame), a sprite walking `walk` points every console frame (the
    recorder's cadence), and noise."""
    rng = np.random.default_rng(seed)
    n = int(seconds * fps)
    game = np.floor(np.floor(np.arange(n) * 60.0 / fps) * speed).astype(int)
    c = np.asarray(cycle)
    tiles = np.zeros((n, 64), np.uint16)
    tiles[1:, 20] = c[game[1:] % len(c)] + rng.integers(0, 6, n - 1)
    tiles[1:, 30] = walk * (game[1:] - game[:-1])
    tiles[1:, 43] = rng.integers(0, 30, n - 1)
    return FrameSignals(np.arange(n) / fps, tiles, fps)


def _drifts(sig: FrameSignals) -> list[float | None]:
    a = analyze(PRESSES, sig, DEFAULT_THRESHOLDS, run_duration_s=40.0)
    return [f.percent for f in a.findings if f.rule == "sync.drift"]


FLICKER = (60, 0)  # a 2-frame cycle: a sprite drawn every other console frame


def test_the_cadence_step_is_the_recorders():
    assert cadence_step(16.0, 60.0) == pytest.approx(4.0)
    assert cadence_step(31.99964, 60.0) == pytest.approx(4.0, abs=1e-3)
    assert cadence_step(25.0, 60.0) == pytest.approx(5.0)
    assert cadence_step(30.0, 60.0) is None and cadence_step(60.0, 60.0) is None
    assert on_cadence(8.01, 16.0, 60.0, 0.02) and not on_cadence(2.78, 16.0, 60.0, 0.02)


@pytest.mark.parametrize("slow", [0.974, 0.975])
def test_a_slowed_video_at_16_fps_is_read_past_the_cadence(slow):
    """main: silent (the 4 Hz cadence read a 3- and a 5-frame cycle at the console's clock,
    so the video 'ran at it'); the 2-frame cycle's line read."""
    got = _drifts(_footage(16.0, slow, FLICKER))
    assert len(got) == 1 and abs(got[0] - (slow - 1) * 100) <= 0.2


def test_an_honest_video_at_16_fps_reads_no_drift():
    assert _drifts(_footage(16.0, 1.0, FLICKER)) == []


BLINK16 = (90,) * 8 + (0,) * 8  # a 16-frame blink (3.75 Hz)


def test_a_16_frame_cycle_at_32_fps_is_honest():
    """main: -5.83 % (the 3.75 Hz line read as the 2-frame cycle aliased and slowed)."""
    assert long_honest(3.7499, 60.0, 0.004) and not long_honest(3.70, 60.0, 0.004)
    assert _drifts(_footage(32.0, 1.0, BLINK16, walk=0)) == []


@needs_ffmpeg
def test_qa32_tetris_in_flv_reads_no_drift(capsys, tmp_path, monkeypatch):
    """QA s32 T2's repro (offset 3.700 s, the truth): main says `sync.drift` -5.83 % over
    the whole run; now no drift (the 3.750 Hz line is Tetris' 16-frame cycle)."""
    share_scans(monkeypatch)
    folder = qa_run(32, "tetris-genuine@r32flv1")
    truth = json.loads((folder / "truth.json").read_text())
    assert truth["tamper"]["kind"] == "genuine" and truth["fps"] == 32
    cli_main(["verify", str(folder), "--scan", "--sync", "--offset", "3.700", "--json"])
    rep = json.loads(capsys.readouterr().out)
    assert [f for f in rep["findings"] if f["rule"] == "sync.drift"] == []
    assert [f for f in rep["sync"]["findings"] if f["rule"] == "sync.drift"] == []
