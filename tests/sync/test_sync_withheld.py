"""A suggestion withheld for a moderator's offset at one tile scale is not offered at the other
(QA s45 T3: synth_vane-cut2@r34vc2mkv, a confident offset of the footage after a cut given the
truth). Each scale's reading is given (`reading._read_at`), the choosing is the product's."""

from __future__ import annotations

import numpy as np

from moderator_app.core.sync import analysis, reading
from moderator_app.core.sync.records import SyncAnalysis
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.thresholds import Thresholds

FPS = 34.0
TRUTH = 0.85
# QA s45 T3's two readings at --offset auto: the fine scale's -1.1285 s under the one-click
# bar, the coarse one's -1.1095 s (within a frame of it) at 0.805
FINE, COARSE = (-1.1285, 0.432), (-1.1095, 0.805)


def _picture() -> FrameSignals:
    rng = np.random.default_rng(45)
    n = int(40 * FPS)
    tiles = rng.integers(0, 40, (n, 64)).astype(np.uint16)
    tiles[0] = 0
    return FrameSignals(np.arange(n) / FPS, tiles, FPS)


def _given(monkeypatch, coarse=COARSE):
    """Each scale's reading as QA s45 T3's: its suggestion, or, withheld, the reading at the
    offset given; any other reading (the band's, the rises', ...) suggests nothing."""

    def read_at(run_s, sig, th, offset_s, latency_q, given, input_kinds, calm, fixed,
                withheld=None, wanted=False, faint=False, buttons=False):
        n = len(run_s)
        if wanted or fixed or faint or calm or given is not None or sig.grid not in (8, 4):
            return reading._unwanted(n, offset_s)
        if withheld is not None:
            return SyncAnalysis(None, 0.3, 6, n, 1.0, "read at the offset given", offset_s)
        off, conf = FINE if sig.grid == 8 else coarse
        return SyncAnalysis(off, conf, 9, n, 1.0, "", off)

    monkeypatch.setattr(reading, "_read_at", read_at)


RUN_S = np.array([1.204, 3.749, 5.075, 7.139, 9.312, 11.883, 14.126, 15.45, 17.323, 19.008,
                  19.99, 21.612, 24.261, 25.705, 26.944, 28.846, 31.842, 33.425, 35.593,
                  36.791])


def test_the_coarse_scale_does_not_offer_the_offset_the_fine_one_withheld(monkeypatch):
    _given(monkeypatch)
    got = analysis.analyze(RUN_S, _picture(), Thresholds(), TRUTH)
    assert got.suggested_offset_s is None and got.offset_used_s == TRUTH  # main: -1.1095
    assert got.reason == "read at the offset given"


def test_with_no_offset_given_the_fine_reading_stands(monkeypatch):
    _given(monkeypatch)
    got = analysis.analyze(RUN_S, _picture(), Thresholds(), None)
    assert abs(got.suggested_offset_s - FINE[0]) < 1 / FPS  # duration-ok: an offset, a frame
    assert got.confidence < 0.5


def test_a_coarse_offset_the_fine_scale_did_not_withhold_is_kept(monkeypatch):
    # two frames from the withheld one: another reading, completed as before
    _given(monkeypatch, coarse=(FINE[0] + 2 / FPS, 0.805))
    got = analysis.analyze(RUN_S, _picture(), Thresholds(), TRUTH)
    assert abs(got.suggested_offset_s - (FINE[0] + 2 / FPS)) < 1 / FPS  # duration-ok: an offset
    assert got.confidence == COARSE[1]


def test_analyze_at_says_which_offset_it_withheld(monkeypatch):
    _given(monkeypatch)
    sig = _picture()
    got = reading.analyze_at(RUN_S, sig, Thresholds(), TRUTH)
    assert got.suggested_offset_s is None and got.withheld_offset_s == FINE[0]
    assert reading.analyze_at(RUN_S, sig, Thresholds(), -1.0).withheld_offset_s is None
