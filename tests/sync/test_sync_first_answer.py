"""The player's band must hold the first answer to a press (core/sync/band.py,
`answered_earlier`): a shot that crosses a row of the grid a few frames after the gun that
fired it answered singles out that row as clearly as a paddle's column, and its offset is
late by the shot's travel. Atlantis (held out, session 12) got 6.33 frames late at
confidence 0.96 that way; here a synthetic screen does the same: the gun's tile answers on
the next frame, the shot crosses row 3 six frames later, two blinkers in the gun's row and
column keep the whole picture and the gun's bands from singling out anything."""

from __future__ import annotations

import numpy as np
import pytest

from moderator_app.core.sync import band, reactions
from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

FPS = 60
OFFSET = 1.5
GUN = 32            # row 4, column 0
SHOT_ROW = 3
SHOT_DELAY = 6      # frames after the press


def _log(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.cumsum(rng.uniform(0.8, 2.0, 24)) + 1.0


def _screen(run_s: np.ndarray, seed: int, gun: bool) -> FrameSignals:
    """46 s at 60 fps, 8x8 tiles: a burst of motion every 2 s per tile at random, two tiles
    blinking in phase every 8 frames (in the gun's row and column), the shot's onset in a
    random tile of row 3 SHOT_DELAY frames after each press, and (`gun`) the gun's tile
    changing on the frame after it."""
    rng = np.random.default_rng(seed)
    n = 46 * FPS
    tiles = np.zeros((n, 64), np.uint16)
    for j in range(64):
        for k in np.nonzero(rng.random(n) < 0.5 / FPS)[0]:
            tiles[k:k + 4, j] = 20
    for k in range(0, n, 8):
        tiles[k:k + 4, [36, 40]] = 25
    for e in run_s:
        k = int(round((OFFSET + e) * FPS))
        if gun:
            tiles[k + 1:k + 3, GUN] = 12
        col = int(rng.integers(0, 8))
        tiles[k + SHOT_DELAY:k + SHOT_DELAY + 4, SHOT_ROW * 8 + col] = 30
    return FrameSignals(np.arange(n) / FPS, tiles, float(FPS))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_band_answered_after_another_tile_suggests_no_offset(seed):
    """Without the check: a suggestion 5.06-5.24 frames late (the shot's row), no finding.
    The shot's row is never offered; since session 29 the two blinkers are busy tiles
    (`band.calm_signals`) and the gun's band without them answers first: the offset within
    a frame (before: no offset)."""
    e = _log(seed + 10)
    a = analyze(e, _screen(e, seed, gun=True), DEFAULT_THRESHOLDS)
    assert a.suggested_offset_s is not None
    assert abs(a.suggested_offset_s - OFFSET) * FPS <= 1.0  # duration-ok: frames of video
    assert a.findings == []


def test_the_tile_that_answers_first_is_named():
    """The gun's tile, before every one of the shot's answers; none without the gun."""
    e = _log(11)
    row = band.bands(8)[8 + SHOT_ROW]
    frames = np.round((OFFSET + e) * FPS).astype(np.int64) + SHOT_DELAY
    sig = _screen(e, 1, gun=True)
    assert band.answered_earlier(sig, reactions.novelty(sig), row, frames) == (GUN, len(e))
    quiet = _screen(e, 1, gun=False)
    assert band.answered_earlier(quiet, reactions.novelty(quiet), row, frames) is None


def test_a_shot_with_no_earlier_answer_is_still_the_bands_offset():
    """Only the shot answers (a game whose input shows six frames late): the band's offset
    stands, as before (the latency cannot be told from the reactions)."""
    e = _log(11)
    a = analyze(e, _screen(e, 1, gun=False), DEFAULT_THRESHOLDS)
    assert a.suggested_offset_s is not None
    assert round((a.suggested_offset_s - OFFSET) * FPS, 2) == 5.1  # duration-ok: frames of video, not a time taken
