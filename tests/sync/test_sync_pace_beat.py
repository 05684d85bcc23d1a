"""A speed change read where the game's cycles alias (issue 13, session 18, QA s17's slow-downs):
a fast cycle's beat against a 29.97 fps capture, its sign told by the log's presses
(core/sync/beat.py), and a 24 fps video's ambiguous line told by a second cycle's line
(core/sync/pace.py `_paired`).

Othello's cursor is drawn on one console frame in four; a 29.97 fps capture of the game slowed
3.5 % shows it changing on 14 frames, then still on 15, all through the run (a 1.02 Hz beat),
which is also what the game sped up 3.3 % shows. On main: no `sync.drift` for either.
"""

from __future__ import annotations

import numpy as np
import pytest

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.pace import HONEST, readings
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.sync.ticks import tick_speed
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

NTSC = 30000 / 1001
LEAD_S = 1.9


def _presses(seed: int = 3, n: int = 22) -> np.ndarray:
    """Run times of n presses, 1.2-2.4 s apart (an agent's moves)."""
    rng = np.random.default_rng(seed)
    return np.round(1.0 + np.cumsum(rng.uniform(1.2, 2.4, n)), 3)


def _cursor_game(speed: float, presses: np.ndarray, fps: float = NTSC,
                 seconds: float = 44.0, seed: int = 7) -> FrameSignals:
    """A still board whose cursor (one tile) is drawn on one console frame in four, moved one
    tile by each press 2-8 console frames after it (the game's own delay), the game played
    `speed` times too fast and captured at `fps` (video frame k shows console frame
    floor(k * 60 * speed / fps))."""
    rng = np.random.default_rng(seed)
    n = int(seconds * fps)
    c = np.floor(np.arange(n) * 60.0 * speed / fps + 0.3).astype(int)
    moved = np.sort(np.round((LEAD_S + presses) * 60.0).astype(int) + rng.integers(2, 9, len(presses)))
    pos = np.searchsorted(moved, c, side="right")  # presses the game has answered
    tile = 9 + (pos * 5) % 40
    shown = c % 4 == 0
    tiles = np.zeros((n, 64), np.uint16)
    for k in range(1, n):
        before = {tile[k - 1]} if shown[k - 1] else set()
        now = {tile[k]} if shown[k] else set()
        for j in before ^ now:
            tiles[k, j] = 50
    return FrameSignals(np.arange(n) / fps, tiles, fps)


def _drifts(a):
    return [f for f in a.findings if f.rule == "sync.drift"]


@pytest.mark.parametrize(("speed", "pct"), [(0.965, -3.5), (1.033, 3.3)])
def test_a_cursor_beat_is_read_with_the_sign_the_presses_tell(speed, pct):
    """Slowed 3.5 % or sped up 3.3 %: the same 1.02 Hz beat; the presses, answered on screen
    at one sign's speed only, tell which. Fails on main: no finding (the beat is under pace's
    2 Hz and its two readings disagree)."""
    run = _presses()
    sig = _cursor_game(speed, run)
    a = analyze(run, sig, DEFAULT_THRESHOLDS, run_duration_s=40.0)
    [f] = _drifts(a)
    assert f.percent == pytest.approx(pct, abs=0.3)
    assert "beats against" in f.message
    assert ("slower" if pct < 0 else "faster") in f.message


def test_a_cursor_at_the_console_speed_is_no_drift():
    run = _presses()
    assert _drifts(analyze(run, _cursor_game(1.0, run), DEFAULT_THRESHOLDS,
                           run_duration_s=40.0)) == []


def test_a_beat_whose_sign_the_log_does_not_tell_is_no_drift():
    """The same slowed video beside a log whose presses the screen does not answer (another
    run's): the beat's size is known, its sign is not: nothing is said."""
    sig = _cursor_game(0.965, _presses())
    other = _presses(seed=11)
    assert _drifts(analyze(other, sig, DEFAULT_THRESHOLDS, run_duration_s=40.0)) == []


def _two_cycles(fps: float, speed: float, seconds: float = 44.0, seed: int = 5) -> FrameSignals:
    """A game with a crawl on an 8-frame cycle (one tile, strong) and a blink on a 4-frame
    cycle (another tile, weaker), played `speed` times too fast, captured at `fps`."""
    rng = np.random.default_rng(seed)
    n = int(seconds * fps)
    game = np.floor(np.arange(n) * 60.0 * speed / fps).astype(int)
    crawl = np.round(30 + 20 * np.cos(2 * np.pi * np.arange(8) / 8)).astype(int)
    tiles = np.zeros((n, 64), np.uint16)
    tiles[1:, 20] = crawl[game[1:] % 8] + rng.integers(0, 6, n - 1)
    tiles[1:, 30] = np.where(game[1:] % 4 < 2, 12, 0) + rng.integers(0, 3, n - 1)
    tiles[1:, 43] = rng.integers(0, 30, n - 1)
    return FrameSignals(np.arange(n) / fps, tiles, fps)


@pytest.mark.parametrize(("speed", "pct"), [(0.975, -2.5), (1.05, 5.0)])
def test_a_24_fps_line_two_cycles_read_alike_is_a_drift(speed, pct):
    """At 24 fps the crawl slowed 2.5 % shows at 7.3125 Hz: 7.5 Hz slowed 2.5 %, or 30 Hz
    aliased and sped up 4.4 % (session 17: readings that disagree, nothing said); the blink's
    15 Hz, aliased at 9.375 Hz, reads slowed 2.5 % only. Fails on main: no finding."""
    sig = _two_cycles(24.0, speed)
    presses = np.arange(0.5, 36.0, 1.3)
    [f] = _drifts(analyze(presses, sig, DEFAULT_THRESHOLDS, run_duration_s=40.0))
    assert f.percent == pytest.approx(pct, abs=0.1)


def test_two_cycles_at_the_console_speed_are_no_drift():
    presses = np.arange(0.5, 36.0, 1.3)
    for fps in (24.0, 25.0, 30.0):
        assert _drifts(analyze(presses, _two_cycles(fps, 1.0), DEFAULT_THRESHOLDS,
                               run_duration_s=40.0)) == []


def _scrolling_game(speed: float, fps: float = NTSC, seconds: float = 44.0,
                    seed: int = 9, steps: tuple[int, ...] = (6, 5)) -> FrameSignals:
    """A fortress that scrolls one step every 6 console frames (or, in every other stretch,
    every 5) in stretches of 3-6 s, each starting at its own phase, with 1-2 s of the ship's
    irregular moves between them (Zaxxon), the game played `speed` times too fast and
    captured at `fps`."""
    rng = np.random.default_rng(seed)
    n = int(seconds * fps)
    c = np.floor(np.arange(n) * 60.0 * speed / fps).astype(int)
    tiles = np.zeros((n, 64), np.uint16)
    k, s = 1, 0
    while k < n:
        step = steps[s % len(steps)]
        stretch = int(rng.uniform(3, 6) * fps)
        phase = int(rng.integers(0, step))
        for j in range(k, min(n, k + stretch)):
            if (c[j] + phase) // step != (c[j - 1] + phase) // step:
                tiles[j, 8:40] = 40  # a scroll step: the whole fortress changes
        k += stretch
        busy = int(rng.uniform(1, 2) * fps)
        for j in range(k, min(n, k + busy)):
            tiles[j, 50:53] = rng.integers(0, 30, 3)  # the ship, small and irregular
        k += busy
        s += 1
    return FrameSignals(np.arange(n) / fps, tiles, fps)


@pytest.mark.parametrize("speed", [0.965, 1.0])
def test_evenly_spaced_ticks_in_stretches_read_the_speed(speed):
    """Slowed 3.5 %: a scroll step every 3.11 frames (eight gaps of 3, one of 4) or 2.59
    (gaps of 2 and 3) in every stretch; honest: every 3 or 2.5 frames exactly, nothing said.
    Fails on main: no finding (no stretch is long enough for a spectral line). The 6-frame
    stretches alone read two speeds (10 Hz slowed 3.3 %, or 20 Hz aliased and sped up
    1.5 %): the 5-frame ones tell which."""
    presses = np.arange(0.5, 36.0, 1.3)
    found = _drifts(analyze(presses, _scrolling_game(speed), DEFAULT_THRESHOLDS,
                            run_duration_s=40.0))
    if speed == 1.0:
        assert found == []
        return
    [f] = found
    assert f.percent == pytest.approx(-3.5, abs=0.3)
    assert "evenly spaced" in f.message



def test_one_cycle_s_ticks_read_the_cycle_shown_not_a_faster_one_folded():
    """Only 6-frame stretches: 9.67 Hz at 29.97 fps is 10 Hz slowed 3.3 % (a cycle under the
    Nyquist frequency, shown as it is) or 20 Hz folded by the frame rate and sped up 1.5 %:
    the cycle shown is read (session 19; session 18 said nothing here)."""
    presses = np.arange(0.5, 36.0, 1.3)
    [f] = _drifts(analyze(presses, _scrolling_game(0.965, steps=(6,)), DEFAULT_THRESHOLDS,
                          run_duration_s=40.0))
    assert f.percent == pytest.approx(-3.5, abs=0.3)


@pytest.mark.parametrize("speed", [0.96, 1.0])
def test_an_8_frame_cycle_at_23_976_fps_reads_its_own_speed(speed):
    """QA s19 M1: 3-D Tic-Tac-Toe's 8-frame cycle (7.5 Hz) at 23.976 fps, slowed 4 %: a step
    every 3.33 frames, 7.19 Hz: 7.5 Hz slowed 4.1 %, or 30 Hz folded and sped up 3.9 %. Fails
    on main: the ticks say nothing (two speeds); now -4 %, and nothing on the honest game."""
    sig = _scrolling_game(speed, fps=23.976, steps=(8,))
    got = tick_speed(sig, readings, 60.0, HONEST)
    found = _drifts(analyze(np.arange(0.5, 36.0, 1.3), sig, DEFAULT_THRESHOLDS,
                            run_duration_s=40.0))
    if speed == 1.0:
        assert (got, found) == (None, [])
        return
    assert got is not None and got[0] == pytest.approx(0.96, abs=0.003)
    [f] = found
    assert f.percent == pytest.approx(-4.0, abs=0.3)
