"""A sprite beside traffic that crosses its 8x8 tile: the player's band at the scan's 16x16
grid (issue 13, session 26; `FrameSignals.finer`, `finer_band.suggested`).

Frogger's frog waits on the bottom pavement and the lowest lane's cars cross the same 8x8
grid row every other frame: the frog's hop is never an onset there (its tile is never still
first), and every reading of main (two scales, the 8x8 band, the first half, the busy
tiles weighed down, the sprites' changes alone) says "not enough signal" on 27 of the 29
Frogger runs though 17 of a run's 23 presses show. At 16x16 the pavement is a row of its
own: its tiles have an onset after 65-76 % of the shown presses against 4-5 % of any
window, and the row stands 3.7-11.6 spreads over the shuffled logs' best bands (5 needed;
Frogger's tuning runs). A log the video does not follow, and a run whose picture answers
few presses, still get no offset.
"""

from __future__ import annotations

import corpus
import numpy as np
import pytest
from test_sync_capture_rates import _run

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.records import APPLY_MIN_CONFIDENCE
from moderator_app.core.sync.signals import FrameSignals, frame_signals, from_scan
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
def test_a_frog_beside_traffic_gets_its_offset_with_no_offset_given(monkeypatch, scan_cache):
    """s22-frogger-genuine2@r25mp4 (truth 3.3 s, 25 fps). On main: no suggestion."""
    run = _run(monkeypatch, "frogger", "genuine2", 25)
    a = _auto(run.action_times, run.video, run.run_end_s)
    assert a.suggested_offset_s is not None, a.reason
    assert abs(a.suggested_offset_s - run.truth["offset_s"]) * 25 <= 1.0  # duration-ok: frames
    assert a.confidence >= APPLY_MIN_CONFIDENCE  # offered in one click, used at auto
    assert a.speed == 1.0
    assert a.findings == []  # a genuine run: no warning


@needs_corpus
def test_the_frog_read_against_another_games_log_gets_no_offset(monkeypatch, scan_cache):
    """The same video against Beam Rider's genuine log (as long, 24 presses): the pavement's
    row is chosen among 32 bands on any log, and the shuffled logs choose theirs the same
    way: none stands out."""
    frog = _run(monkeypatch, "frogger", "genuine2", 25)
    other = _run(monkeypatch, "beam_rider", "genuine", 25)
    a = _auto(other.action_times, frog.video, other.run_end_s)
    assert a.suggested_offset_s is None
    assert a.reason


@needs_corpus
def test_a_run_whose_picture_answers_few_presses_stays_refused_at_the_finer_grid(
        scan_cache):
    """ms_pacman-genuine: 8 of its 26 presses show; its 16x16 bands are read too (the signals
    carry them) and single out no offset."""
    run = corpus.build("ms_pacman-genuine")
    assert frame_signals(run.video).finer() is not None
    a = _auto(run.action_times, run.video, run.run_end_s)
    assert a.suggested_offset_s is None
    assert a.reason


class _Scan:
    """A scan's signals as `from_scan` reads them: 16x16 tiles, times, no colour."""

    def __init__(self, times, tiles):
        self.times_s, self.sync_tiles, self.chroma_tiles = times, tiles, None


def test_the_scans_finer_tiles_are_kept_beside_the_grid_and_filled_as_it_is():
    """A recorder that skipped two repeated frames (a hole of 3 periods at 30 fps): the
    frames put back are still at both grids, and the fine tiles sum to the grid's."""
    times = np.array([0, 1, 2, 5, 6, 7], float) / 30
    rng = np.random.default_rng(1)
    tiles = rng.integers(0, 40, (6, 16, 16)).astype(np.uint8)  # as the scan keeps them
    sig = from_scan(_Scan(times, tiles), 8)
    fine = sig.finer()
    assert fine is not None and fine.grid == 16 and len(fine) == len(sig) == 8
    assert fine.tiles[3:5].sum() == 0 and sig.tiles[3:5].sum() == 0
    assert np.array_equal(fine.coarser(8).tiles, sig.tiles)
    assert np.array_equal(fine.times, sig.times)
    assert from_scan(_Scan(times, tiles), 16).finer() is None  # no finer grid than its own
    assert FrameSignals(times, tiles.reshape(6, 256), 30.0).finer() is None


def test_the_bands_counts_are_the_same_transformed_back_a_few_bands_at_a_time(monkeypatch):
    """`band._best_counts` by the FFT product (a long run's log) transforms SPECTRUM_BANDS
    bands back at a time, to hold a quarter of the 16x16 grid's 32 at once: the counts are
    those of all the bands at once, bit for bit (also in uneven chunks)."""
    from moderator_app.core.sync import band

    rng = np.random.default_rng(7)
    hit = rng.random((3000, 32)) < 0.1
    ks = np.sort(rng.integers(0, 2800, 300))
    ks -= ks.min()
    spec = band._spectrum(hit, int(ks.max()) + 2)
    got = band._best_counts(hit, spec, ks)
    for at_once in (32, 5):
        with monkeypatch.context() as mp:
            mp.setattr(band, "SPECTRUM_BANDS", at_once)
            assert np.array_equal(band._best_counts(hit, spec, ks), got)
    assert band.SPECTRUM_BANDS < 32
