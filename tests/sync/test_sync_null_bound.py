"""Session 29's cuts of the analysis' cost (issue 13: the analysis adds at most 20 % to the
scan's time; River Raid's second genuine run stood at 25 %), each an answer known before it is
computed: a significance test whose z is read only as "at least `needed`" stops when the z
over all its shuffled logs provably stays under that (`fit.under_bound`), and so do a drift's
test and the bands' (`band.select`, `select_over_speeds`, `select_at`); a reading wanted for
its suggestion alone stops once none can come; a band too weak to suggest is not read where
only a suggestion is; a drift short of speed 1's floor (`reading._support_floor`) does not
read speed 1's support; the offsets near a given one share their shifted counts
(`band._shift_counts`). The bound is a bound (never under the z of any completion of the
shuffled logs) and is reached; the analyses of real runs are the same, bit for bit, with the
cuts and without them."""

from __future__ import annotations

import math

import numpy as np
import pytest

from moderator_app.core.sync import analysis, fit, lookup, reactions
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as TH


def _z(score: float, null: np.ndarray) -> float:
    """The z `fit.significance` computes over its shuffled logs' scores."""
    return float((score - null.mean()) / max(null.std(), 1e-6))


def test_the_bound_holds_for_any_completion_and_is_reached():
    """From k known scores (2 <= k < 19) under the run's score, no completion of the 19 has
    a z over the bound, and the completion with every other score at c - SS / (k (score -
    c)) has the bound's z (to rounding): it is the highest."""
    rng = np.random.default_rng(29)
    for _ in range(200):
        score = float(rng.uniform(5, 50))
        null = rng.uniform(0, score, fit.NULL_SETS) * rng.uniform(0.3, 1.0)
        for k in range(2, fit.NULL_SETS):
            bound = fit.under_bound(score, list(null[:k]), fit.NULL_SETS)
            assert _z(score, null) <= bound * (1 + 1e-12)
            for _ in range(3):  # other completions, none above it
                other = np.r_[null[:k], rng.uniform(0, score, fit.NULL_SETS - k)]
                assert _z(score, other) <= bound * (1 + 1e-12)
            c = float(null[:k].mean())
            ss = float(((null[:k] - c) ** 2).sum())
            at = c - ss / (k * (score - c))
            best = np.r_[null[:k], np.full(fit.NULL_SETS - k, at)]
            assert _z(score, best) == pytest.approx(bound, rel=1e-9)
    # nothing bounded: fewer than two known, or all known alike
    assert fit.under_bound(3.0, [1.0], 19) == math.inf
    assert fit.under_bound(3.0, [1.0, 1.0, 1.0], 19) == math.inf


def _run(name: str):
    import corpus

    if corpus.available() is not None:
        pytest.skip(f"corpus cannot be built: {corpus.available()}")
    run = corpus.build(name)
    return run, np.array(run.action_times)


def _counted(monkeypatch):
    """Counts the shuffled logs' learned scores (`fit._learned_score`) asked."""
    calls = [0]
    real = fit._learned_score

    def counted(*a, **kw):
        calls[0] += 1
        return real(*a, **kw)

    monkeypatch.setattr(fit, "_learned_score", counted)
    return calls


@pytest.mark.skipif(lookup.NATIVE is None, reason="the C sums are not built")
def test_a_silent_runs_test_stops_under_the_bar_with_its_fit(monkeypatch):
    """River Raid's second genuine run, the whole picture at 8x8: its fit stands 3.39 spreads
    over all 19 shuffled logs (5 needed); told that only 5 matters, the test stops after 8
    of them with a bound between the two, and the same learned fit."""
    run, e = _run("riverraid-genuine2")
    sig = frame_signals(run.video)
    nov1 = reactions.novelty(sig)
    look1 = lookup.Lookup(sig, lookup.lookahead(sig, nov1))
    q = reactions.background_rates(sig, nov1)
    calls = _counted(monkeypatch)
    f_all, z_all = fit.significance(sig, nov1, look1, q, e, 1.0, TH)
    assert calls[0] == 19 and round(z_all, 2) == 3.39
    calls[0] = 0
    f_cut, z_cut = fit.significance(sig, nov1, look1, q, e, 1.0, TH, needed=5.0)
    assert calls[0] == 8
    assert z_all <= z_cut < 5.0
    assert f_cut == f_all


def _all_read(monkeypatch):
    """The cuts of session 29 switched off: every shuffled log asked (`under_bound`: inf),
    every reading read whole (`analyze_at`'s `wanted` dropped where the analysis, the
    narrowed picture and the band's jumps ask for it), every band read (`_in_band`'s
    `wanted` dropped), every drift's speed-1 support read (`_support_floor`: 0) and every
    offset near a given one counted afresh (`band._at` without its memo)."""
    from moderator_app.core.sync import band, band_jump, narrow, reading

    monkeypatch.setattr(reading, "_support_floor", lambda *a: 0)
    at = band._at
    monkeypatch.setattr(band, "_at", lambda *a, memo=None, **kw: at(*a, **kw))

    monkeypatch.setattr(fit, "under_bound", lambda *a: math.inf)
    for mod in (analysis, narrow, band_jump):
        real = mod.analyze_at
        monkeypatch.setattr(mod, "analyze_at",
                            lambda *a, _real=real, wanted=False, **kw: _real(*a, **kw))
    in_band = analysis._in_band
    monkeypatch.setattr(analysis, "_in_band",
                        lambda *a, wanted=False, **kw: in_band(*a, **kw))


def _stopped(monkeypatch):
    """Counts the readings stopped for want of a suggestion (`reading._unwanted`)."""
    from moderator_app.core.sync import reading

    calls = [0]
    real = reading._unwanted

    def counted(*a, **kw):
        calls[0] += 1
        return real(*a, **kw)

    monkeypatch.setattr(reading, "_unwanted", counted)
    return calls


@pytest.mark.parametrize("name", ["riverraid-genuine2", "asteroids-genuine",
                                  "seaquest-genuine", "seaquest-cut"])
def test_analyses_are_the_same_with_and_without_the_cuts(monkeypatch, name):
    """The analysis (no offset, and at the truth) of silent runs and of a cut (its offset
    found), bit for bit with session 29's cuts and without them (`_all_read`), with them on
    fewer shuffled logs (River Raid: 8 of its readings tested 19) and with readings stopped
    once no suggestion could come (the rises', the bands', the halves')."""
    run, e = _run(name)
    t0 = float(run.truth["offset_s"])
    calls = _counted(monkeypatch)
    stopped = _stopped(monkeypatch)
    got = [repr(analysis.analyze(e, frame_signals(run.video), TH, given))
           for given in (None, t0)]
    asked, halted = calls[0], stopped[0]
    calls[0] = 0
    _all_read(monkeypatch)
    want = [repr(analysis.analyze(e, frame_signals(run.video), TH, given))
            for given in (None, t0)]
    assert got == want
    assert asked < calls[0]
    assert halted > 0


def test_the_offsets_near_a_given_one_count_as_each_alone():
    """`band.near_offset`'s offsets share their shifted counts (`_shift_counts`): each
    offset's band and height as `_at` finds them alone, bit for bit, on River Raid's second
    genuine run within 1 s of its truth and of 2.5 s off it, on the whole run and its first
    half; 13 to 16 counts kept for the 121 offsets read, each table over the shifts one
    offset reads and the 62 frames on either side that `near_offset` asks for (7,325 at
    60 fps, not the video's 2,400 + 7,200: a table over the whole video made `near_offset`
    ~2.4x slower on an hour at 60 fps)."""
    run, e = _run("riverraid-genuine2")
    sig = frame_signals(run.video)
    nov = reactions.novelty(sig)
    from moderator_app.core.sync import band

    hit = band._window_hits(sig, nov, sig.grid)
    rate = hit.mean(axis=0)
    t0 = float(run.truth["offset_s"])
    kept = []
    for part in (e, e[:len(e) // 2]):
        for centre in (t0, t0 + 2.5):
            memo: dict = {}
            for i in range(-60, 61):
                o = centre + i / sig.fps
                got = band._at(sig, hit, part, o, sig.grid, rate, memo=memo, reach=62)
                want = band._at(sig, hit, part, o, sig.grid, rate)
                assert (None if got[0] is None else got[0].tolist()) == \
                    (None if want[0] is None else want[0].tolist())
                assert np.float64(got[1]).tobytes() == np.float64(want[1]).tobytes()
            kept.append(len(memo))
            r = int(round(band.AT_RANGE_S * sig.fps))
            assert {len(counts) for _, counts, _ in memo.values()} <= {2 * r + 1 + 2 * 62}
    assert kept == [15, 13, 16, 14]
