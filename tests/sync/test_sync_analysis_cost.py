"""Session 21's cuts of the analysis' cost (issue 13, QA s20 M7: the analysis added 15-42 % to
the forked scan's CPU) give the answers of the code they replaced, bit for bit: a fit at one
speed against the searched fit, the track's windows of a short run against `align.fit` per
window (and asked again, against a fresh lookup), the Viterbi pass in Python floats against
numpy's, a clock's merged events against the loop over every event, and the bands' counts
of a few actions against the FFT product."""

from __future__ import annotations

import numpy as np
import pytest
from one_tile import bits as _bits
from one_tile import signals as _signals

from moderator_app.core.sync import align, band, clock, fit, lookup, reactions, track
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as TH

needs_c = pytest.mark.skipif(lookup.NATIVE is None, reason="the C sums are not built")


def _fresh(sig):
    return lookup.Lookup(sig, lookup.lookahead(sig, reactions.novelty(sig)))


def _fit_bits(f: align.Fit | None):
    if f is None:
        return None
    return (_bits(f.offset_s), f.speed, _bits(f.score), _bits(f.z), _bits(f.margin))


def _logs(actions):
    rng = np.random.default_rng(5)
    return [actions, actions * 1.0437, actions[:9]] + \
        [fit.permuted(actions, rng) for _ in range(3)]


def test_a_fit_at_one_speed_is_the_searched_fit():
    """`align.fit` with one speed sums its scores once: the offset, score, z and margin of
    the speed search's scores at that speed, bit for bit (fresh lookups: nothing kept)."""
    sig, actions = _signals()
    for run_s in _logs(actions):
        for speed in (1.0, 1.0437, 0.9725):
            got = align.fit(sig, None, run_s, speeds=np.array([speed]), look=_fresh(sig))
            look = _fresh(sig)
            grid = align.offset_grid(sig, run_s)
            s = align.search_speed(look, grid, run_s, np.array([speed]))[0]
            want = align.fit_of(grid, lookup.scores(look, grid, run_s, s), s)
            assert _fit_bits(got) == _fit_bits(want)


def _windows_bits(pts):
    return [(p.run_s, p.offset_s, p.z) for p in pts]


def test_short_run_windows_are_align_fits_per_window(monkeypatch):
    """A short run's track windows, fitted by the lean C path (`track._window_fit`), are
    `align.fit`'s per window; asked again on the same lookup (kept) and on a fresh one, the
    same points. The long way: `_window_fit` answering None, as where the sums are not built."""
    sig, actions = _signals()
    nov = reactions.novelty(sig)
    seen: set[float] = set()
    for run_s in _logs(actions):
        for speed in (1.0, 1.0437):
            look = _fresh(sig)
            lean = track.windows(sig, nov, look, run_s, speed, TH.sync_min_z, 4)
            again = track.windows(sig, nov, look, run_s, speed, TH.sync_min_z, 4)
            with monkeypatch.context() as m:
                m.setattr(track, "_window_fit", lambda *a: None)
                slow = track.windows(sig, nov, _fresh(sig), run_s, speed, TH.sync_min_z, 4)
            assert _windows_bits(lean) == _windows_bits(slow) == _windows_bits(again)
            seen |= {p.z for p in lean}
    assert len(seen) > 10  # windows fitted, not left out
    # each window's fit itself, bit for bit (the points keep its offset and z rounded)
    x = actions / 1.0437
    for a in range(0, len(actions) - 6, 3):
        sub = actions[a:a + 7]
        got = track._window_fit(sig, _fresh(sig), sub, x[a:a + 7], 1.0437)
        want = align.fit(sig, None, sub, speeds=np.array([1.0437]), look=_fresh(sig))
        assert got is None and lookup.NATIVE is None or _fit_bits(got) == _fit_bits(want)


def test_windows_kept_on_a_lookup_are_its_signals_own():
    """The windows kept on a lookup answer only for the signals they were fitted on."""
    sig, actions = _signals()
    other, _ = _signals(seed=12)
    nov = reactions.novelty(sig)
    look = _fresh(sig)
    track.windows(sig, nov, look, actions, 1.0, TH.sync_min_z, 4)
    got = track.windows(other, reactions.novelty(other), look, actions, 1.0, TH.sync_min_z, 4)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(look, "kept_windows", {})
        want = track.windows(other, reactions.novelty(other), look, actions, 1.0,
                             TH.sync_min_z, 4)
    assert _windows_bits(got) == _windows_bits(want)


def _segment_numpy(look, run_s, candidates, speed, min_z):
    """Session 20's `track.segment` (numpy's argmax and where per action)."""
    m = len(candidates)
    emit = np.stack([track.supported(look, run_s, o, speed, min_z) for o in candidates],
                    axis=1).astype(float)
    n = len(run_s)
    score = emit[0].copy()
    score[1:] -= 0.01
    back = np.zeros((n, m), int)
    for i in range(1, n):
        stay = score
        j = int(np.argmax(score))
        switch = score[j] - track.SWITCH_PENALTY
        take_switch = switch > stay
        back[i] = np.where(take_switch, j, np.arange(m))
        score = np.where(take_switch, switch, stay) + emit[i]
    path = np.zeros(n, int)
    path[-1] = int(np.argmax(score))
    for i in range(n - 1, 0, -1):
        path[i - 1] = back[i, path[i]]
    return path


class _Emits:
    """A lookup whose table answers (min_z and above) exactly where `emit[i, k]` says:
    action i at e = i (whole seconds) shown at candidate k's offset (k + 1) / 100 s."""

    def __init__(self, emit: np.ndarray) -> None:
        self.hits = {round(i + (k + 1) / 100, 6) for i, k in zip(*np.nonzero(emit), strict=True)}

    def __call__(self, v: np.ndarray) -> np.ndarray:
        return np.array([3.0 if round(float(x), 6) in self.hits else 0.0 for x in v])


def test_the_viterbi_pass_in_python_floats_is_numpys():
    """`track.segment` per action in Python floats: the same path as numpy's pass, on
    emissions at random (dense, sparse, one candidate, one action, ties everywhere) and on a
    stretch that moves to another candidate (a switch), and on the real table."""
    rng = np.random.default_rng(8)
    cases = [rng.random((n, m)) < p for n, m, p in
             ((30, 4, 0.3), (30, 4, 0.7), (40, 7, 0.1), (25, 1, 0.5), (1, 3, 0.5),
              (60, 12, 0.4), (30, 3, 0.0), (30, 3, 1.0))]
    moved = np.zeros((30, 3), bool)
    moved[:12, 0] = moved[12:, 2] = True
    cases.append(moved)
    for emit in cases * 3 + [rng.random((35, 5)) < 0.5 for _ in range(20)]:
        look, run_s = _Emits(emit), np.arange(len(emit), dtype=float)
        cands = [(k + 1) / 100 for k in range(emit.shape[1])]
        got = track.segment(look, run_s, cands, 1.0, 2.5)  # type: ignore[arg-type]
        assert got.tolist() == _segment_numpy(look, run_s, cands, 1.0, 2.5).tolist()
    assert track.segment(_Emits(moved), np.arange(30.0), [0.01, 0.02, 0.03], 1.0,  # type: ignore[arg-type]
                         2.5).tolist() == [0] * 12 + [2] * 18
    sig, actions = _signals()
    look = _fresh(sig)
    for cands in ([1.5], [1.5, 5.5, -2.0], list(rng.uniform(-3, 6, 7))):
        assert track.segment(look, actions, cands, 1.0, TH.sync_reaction_z).tolist() == \
            _segment_numpy(look, actions, cands, 1.0, TH.sync_reaction_z).tolist()


def _events_loop(col, times):
    """Session 20's `clock._events`: every event walked."""
    ev = np.nonzero(col > clock.CLOCK_POINTS)[0]
    if not len(ev):
        return np.zeros(0)
    keep = [int(ev[0])]
    for e in ev[1:]:
        if e - keep[-1] > clock.MERGE_FRAMES:
            keep.append(int(e))
    return times[np.asarray(keep)]


def test_a_clocks_merged_events_are_the_loops():
    """`clock._events` walks the kept events only: the same times as the loop over every
    event, on tiles from empty to every frame changed; past `most`, None exactly where the
    loop's count exceeds it."""
    rng = np.random.default_rng(4)
    times = np.arange(2400) / 60.0
    for share in (0.0, 0.001, 0.02, 0.1, 0.3, 0.7, 1.0):
        for _ in range(3):
            col = np.where(rng.random(2400) < share, rng.integers(0, 9, 2400), 0)
            want = _events_loop(col, times)
            assert _bits(clock._events(col, times)) == _bits(want)
            for most in (0, max(0, len(want) - 1), len(want), 240):
                got = clock._events(col, times, most)
                assert (got is None) == (len(want) > most)
                if got is not None:
                    assert _bits(got) == _bits(want)


def test_the_bands_counts_of_a_few_actions_are_the_fft_products(monkeypatch):
    """The bands' best counts of a log of a few actions, by shifted additions: the FFT
    product's, rounded (also frames shared by two actions); `band.select`'s band and margin,
    bit for bit, with every log counted by the product."""
    rng = np.random.default_rng(6)
    for share, m in ((0.05, 23), (0.4, 40), (0.9, 255), (0.2, 1)):
        hit = rng.random((1500, 16)) < share
        ks = np.sort(rng.integers(0, 1400, m))
        ks[m // 2:m // 2 + 1] = ks[max(0, m // 2 - 1)]  # two actions on one frame
        ks -= ks.min()
        spec = band._spectrum(hit, int(ks.max()) + 2)
        got = band._best_counts(hit, None, ks)
        with monkeypatch.context() as mp:
            mp.setattr(band, "DIRECT_ACTIONS", 0)
            want = band._best_counts(hit, spec, ks)
        assert _bits(got) == _bits(want)
    sig, actions = _signals(chance=0.05)
    nov = reactions.novelty(sig)
    for run_s in _logs(actions):
        tiles, margin = band.select(sig, nov, run_s, TH.sync_band_min_null_z, sig.grid)
        with monkeypatch.context() as mp:
            mp.setattr(band, "DIRECT_ACTIONS", 0)
            tiles0, margin0 = band.select(sig, nov, run_s, TH.sync_band_min_null_z, sig.grid)
        assert _bits(margin) == _bits(margin0)
        assert (None if tiles is None else tiles.tolist()) == \
            (None if tiles0 is None else tiles0.tolist())


@needs_c
def test_the_lean_window_fit_is_used_on_a_short_run(monkeypatch):
    """The lean path answers every window of a short run with the C sums built (else the
    cut above would not be the one measured)."""
    sig, actions = _signals()
    calls = []
    real = align.fit

    def counted(*a, **kw):
        calls.append(1)
        return real(*a, **kw)

    monkeypatch.setattr(align, "fit", counted)
    pts = track.windows(sig, reactions.novelty(sig), _fresh(sig), actions, 1.0,
                        TH.sync_min_z, 4)
    assert len(pts) > 5 and not calls


def test_the_coarser_grid_and_plain_novelty_kept_on_the_signals_are_fresh_ones():
    """`FrameSignals.coarser` and the plain `reactions.novelty` answer once per signals (the
    same object when asked again), with the arrays a fresh computation gives; a weighted
    novelty is never kept."""
    from moderator_app.core.sync.signals import FrameSignals

    sig, actions = _signals()
    fresh = FrameSignals(sig.times, sig.tiles.copy(), sig.fps)
    assert sig.coarser(4) is sig.coarser(4) and sig.coarser(1) is not sig.coarser(4)
    assert _bits(sig.coarser(4).tiles) == _bits(fresh.coarser(4).tiles)
    for s, f in ((sig, fresh), (sig.coarser(4), fresh.coarser(4))):
        nov = reactions.novelty(s)
        assert nov is reactions.novelty(s)
        want = reactions._novelty(f, None, None, None)
        for name in ("onsets", "score", "excess", "spread"):
            assert _bits(getattr(nov, name)) == _bits(getattr(want, name))
    w = np.linspace(0.5, 2.0, 64)
    assert reactions.novelty(sig, w) is not reactions.novelty(sig, w)
    assert reactions.novelty(sig, w, like=reactions.novelty(sig)) is not reactions.novelty(sig)


def test_the_change_and_background_rates_kept_are_fresh_ones_and_read_only():
    """Session 31: `FrameSignals.change` / `picture_change` (17-19 asks an analysis at an
    offset) and `reactions.background_rates` (asked again for one novelty, and for one made
    `like` it: the same onsets) are computed once and shared: the same object when asked
    again, the arrays a fresh computation gives, and read-only (an asker writing into one
    raises instead of changing what the next one reads)."""
    from moderator_app.core.sync.signals import FrameSignals

    sig, _ = _signals()
    colour = (np.arange(len(sig)) % 5).astype(np.int64)
    tinted = FrameSignals(sig.times, sig.tiles, sig.fps, colour=colour)
    for s in (sig, tinted, sig.coarser(4)):
        want = s.tiles.sum(axis=1, dtype=np.int64)
        assert s.change is s.change and _bits(s.change) == _bits(want)
        assert s.picture_change is s.picture_change
        pc = want if s.colour is None else want + s.colour
        assert _bits(s.picture_change) == _bits(pc)
        with pytest.raises(ValueError):
            s.change[0] = 1
    assert _bits(tinted.picture_change) != _bits(tinted.change)  # (its colour counted)
    with pytest.raises(ValueError):
        tinted.picture_change[0] = 1
    nov = reactions.novelty(sig)
    w = max(1, int(round(0.08 * sig.fps))) + 1
    c = nov.onset_counts
    want = ((c[w:] - c[:-w]) > 0).mean(axis=0)
    got = reactions.background_rates(sig, nov)
    assert got is reactions.background_rates(sig, nov) and _bits(got) == _bits(want)
    weighed = reactions.novelty(sig, np.linspace(0.5, 2.0, 64), like=nov)
    assert reactions.background_rates(sig, weighed) is got  # (the same onsets)
    other = reactions.background_rates(sig, nov, window_s=0.2)
    assert other is not got and _bits(other) != _bits(got)
    with pytest.raises(ValueError):
        got[0] = 1.0
