"""The sync fit's C score sums (core/sync/_lookup.c) give numpy's sums bit for bit, so the
analysis answers the same with them (the product's path wherever a compiler built them) and
without (no compiler, or MODERATOR_APP_NATIVE=0)."""

from __future__ import annotations

import numpy as np
import pytest

from moderator_app.core.sync import align, fit, lookup, reactions, track
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

pytestmark = pytest.mark.skipif(lookup.NATIVE is None, reason="the C sums are not built here")


def _signals(seconds: float, drift: float = 1.0, actions_n: int = 120):
    rng = np.random.default_rng(7)
    fps = 60.0
    n = int(seconds * fps)
    tiles = (rng.random((n, 64)) < 0.02).astype(np.uint16) * 3
    actions = np.sort(rng.uniform(0.5, seconds - 5.0, actions_n))
    for e in actions:
        k = int(round((1.5 + e / drift) * fps)) + 1
        if k < n:
            tiles[max(0, k - 4):k, 9] = 0
            tiles[k, 9] = 7
    times = np.sort(np.arange(n) / fps + rng.uniform(-1e-4, 1e-4, n))
    times[0] = 0.0
    return FrameSignals(times, tiles, fps), actions


def _bits(x) -> bytes:
    return np.asarray(x, float).tobytes()


def test_module_is_the_one_this_code_is_written_for(monkeypatch):
    assert lookup.NATIVE.ABI == lookup.LOOKUP_ABI
    monkeypatch.setenv("MODERATOR_APP_NATIVE", "0")
    assert lookup.native() is None


@pytest.mark.parametrize("k", [1, 2, 7, 8, 9, 15, 16, 17, 127, 128, 129, 136, 300, 1100])
def test_sums_are_numpys_index_take_and_sum(k):
    sig, _ = _signals(40.0)
    look = lookup.Lookup(sig, lookup.lookahead(sig, reactions.novelty(sig)))
    rng = np.random.default_rng(k)
    # times that reach past both ends of the table: clipped onto its zeros, as np.take clips
    x = np.sort(rng.uniform(-5.0, 50.0, k))
    offsets = np.arange(-3.0, 3.0, 1 / 60) + 0.0037
    plain = look.row_sums(look.index(offsets, x))
    assert _bits(look.sums(offsets, x)) == _bits(plain)
    assert _bits(look.sums(offsets[::3], x)) == _bits(look.row_sums(look.index(offsets[::3], x)))
    # rows of times (one per speed), each offset adding to the row `which` names
    xs = np.stack([x / s for s in (0.97, 1.0, 1.0437)])
    which = rng.integers(0, 3, len(offsets))
    plain = look.row_sums(look.index_rows(offsets, xs[which]))
    assert _bits(look.sums(offsets, xs, which)) == _bits(plain)


def test_bad_arguments_raise_and_nothing_is_read_out_of_bounds():
    table = np.zeros(10)
    out = np.empty(3)
    offs = np.zeros(3)
    with pytest.raises(ValueError):
        lookup.NATIVE.sums(table, 0.01, 0.0, offs, np.zeros(4), 4, np.array([0, 1, 0]), out)
    with pytest.raises(ValueError):
        lookup.NATIVE.sums(table, 0.01, 0.0, offs, np.zeros(4), 0, np.zeros(3, np.int64), out)
    with pytest.raises(ValueError):
        lookup.NATIVE.sums(table, 0.01, 0.0, offs, np.zeros(5), 2, np.zeros(3, np.int64), out)
    with pytest.raises(ValueError):
        lookup.NATIVE.sums(table, 0.01, 0.0, offs, np.zeros(4), 4, np.zeros(2, np.int64), out)
    # NaN and huge times read the table's first entry, as numpy's cast and clip do
    t = np.array([5.0, 1.0, 2.0])
    x = np.array([np.nan, 1e300, -1e300, 0.0, 0.02, 1.0])
    lookup.NATIVE.sums(t, 0.01, 0.0, np.zeros(1), x, len(x), np.zeros(1, np.int64), out[:1])
    idx = np.ceil(x / 0.01 - 0.0)
    with np.errstate(invalid="ignore"):
        want = np.take(t, idx.astype(np.int64), mode="clip").sum()
    assert out[0] == want == 5.0 + 5.0 + 5.0 + 5.0 + 2.0 + 2.0


@pytest.mark.parametrize(("seconds", "drift"), [(40.0, 1.0), (150.0, 1.0437), (150.0, 1.0)])
def test_the_analysis_pieces_answer_the_same_with_and_without_c(monkeypatch, seconds, drift):
    sig, actions = _signals(seconds, drift)
    th = DEFAULT_THRESHOLDS

    def pieces():
        nov = reactions.novelty(sig)
        look = lookup.Lookup(sig, lookup.lookahead(sig, nov))
        q = reactions.background_rates(sig, nov)
        f = align.fit(sig, nov, actions, look=look)
        sigf = fit.significance(sig, nov, look, q, actions, f.speed, th)
        drift_ok = fit.drift_significant(sig, nov, look, actions, f.score, th)
        pts = track.windows(sig, nov, look, actions, f.speed, th.sync_min_z, 4)
        # a shuffled log's peak: every offset summed in C, by bounded blocks without
        top = align.peak(look, align.offset_grid(sig, actions[::2]), actions[::2], f.speed)
        return f, sigf, drift_ok, pts, top

    native = pieces()
    monkeypatch.setattr(lookup, "NATIVE", None)
    plain = pieces()
    assert native == plain
    assert native[0].z > 0 and len(native[3]) > 10
