"""The player's band on the 8x8 grid moved down by half a tile (issue 13, session 27;
`FrameSignals.half_shifted`, `finer_band.suggested`).

Space Invaders' cannon moves along the picture's bottom across the boundary of two 8x8 rows
(and of two 16x16 rows: its shots answer FIRE in one, its moves in the next). Every reading
of main says "not enough signal" on the corpus' genuine runs: at 8x8 the row it shares with
the invaders' bombs and the ground stands under the shuffled logs' best, at 16x16 each half
alone 2.6-3.6 spreads (session 26). Two 16x16 rows summed, the 8x8 grid half a tile down,
hold the cannon in one row: it stands 12.3 and 16.4 spreads over the shuffled logs' best
(5 needed) on space_invaders-genuine and -genuine3, and the band's reading is within a
frame. A log the video does not follow gets no offset from it.
"""

from __future__ import annotations

import corpus
import numpy as np
import pytest

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.records import APPLY_MIN_CONFIDENCE
from moderator_app.core.sync.signals import frame_signals, from_scan
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

needs_corpus = pytest.mark.skipif(corpus.available() is not None,
                                  reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


def _auto(times, video, end_s):
    return analyze(times, frame_signals(video), DEFAULT_THRESHOLDS, None,
                   run_duration_s=end_s)


@needs_corpus
def test_a_cannon_between_two_rows_gets_its_offset_with_no_offset_given(scan_cache):
    """space_invaders-genuine (truth in truth.json). On main: not enough signal."""
    run = corpus.build("space_invaders-genuine")
    a = _auto(run.action_times, run.video, run.run_end_s)
    assert a.suggested_offset_s is not None, a.reason
    fps = float(run.truth["fps"])
    assert abs(a.suggested_offset_s - run.truth["offset_s"]) * fps <= 1.0  # duration-ok: frames
    assert a.confidence >= APPLY_MIN_CONFIDENCE
    assert a.speed == 1.0
    assert a.findings == []


@needs_corpus
@pytest.mark.parametrize("log", ["breakout-genuine", "pitfall-genuine"])
def test_the_cannon_read_against_another_games_log_gets_no_offset(scan_cache, log):
    """The same video against another game's genuine log: the half-shifted rows are chosen
    among 16 bands on any log, and the shuffled logs choose theirs the same way."""
    video = corpus.build("space_invaders-genuine")
    other = corpus.build(log)
    a = _auto(other.action_times, video.video, other.run_end_s)
    assert a.suggested_offset_s is None
    assert a.reason


class _Scan:
    """A scan's signals as `from_scan` reads them: 16x16 tiles, times, no colour."""

    def __init__(self, times, tiles):
        self.times_s = times
        self.sync_tiles = tiles
        self.chroma_tiles = None


def test_the_half_shifted_grid_holds_two_fine_rows_in_one_of_its_rows():
    """A change in 16x16 rows 13 and 14 (8x8 rows 6 and 7) is all in the half-shifted
    grid's row 6; the last fine row's change falls in its row 7 (padded below)."""
    n = 4
    fine = np.zeros((n, 16, 16), np.uint8)
    fine[1, 13, 4] = 5
    fine[1, 14, 5] = 7
    fine[2, 15, 9] = 3
    fine[3, 0, 0] = 9  # the first fine row is above the shifted grid: dropped
    sig = from_scan(_Scan(np.arange(n) / 30.0, fine))
    half = sig.half_shifted()
    assert half is not None and half.grid == 8
    t = half.tiles.reshape(n, 8, 8)
    assert t[1, 6, 2] == 12 and int(t[1].sum()) == 12
    assert sig.tiles.reshape(n, 8, 8)[1, 6, 2] == 5 and sig.tiles.reshape(n, 8, 8)[1, 7, 2] == 7
    assert t[2, 7, 4] == 3 and int(t[2].sum()) == 3
    assert int(t[3].sum()) == 0


def test_signals_with_no_fine_tiles_have_no_half_shifted_grid():
    sig = from_scan(_Scan(np.arange(3) / 30.0, np.zeros((3, 8, 8), np.uint8)))
    assert sig.half_shifted() is None
