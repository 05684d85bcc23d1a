"""The C sums by grid (`_lookup.c`'s grid_sums, fit_stats, window_fits) give what the row
by row sums and numpy give, bit for bit, on every path: runs read from the phase table,
chunks wholly off the table, the term by term fallback (offsets not rising, a wrong step,
NaN and huge times), and the fit's statistics; and they refuse bad arguments."""

from __future__ import annotations

import numpy as np
import pytest

from moderator_app.core.sync import align, lookup, reactions, track

pytestmark = pytest.mark.skipif(lookup.NATIVE is None, reason="the C sums are not built here")


def _look(seconds: float = 40.0, seed: int = 3) -> lookup.Lookup:
    from moderator_app.core.sync.signals import FrameSignals
    rng = np.random.default_rng(seed)
    fps = 60.0
    n = int(seconds * fps)
    tiles = (rng.random((n, 64)) < 0.03).astype(np.uint16) * 3
    times = np.sort(np.arange(n) / fps + rng.uniform(-1e-4, 1e-4, n))
    times[0] = 0.0
    sig = FrameSignals(times, tiles, fps)
    return lookup.Lookup(sig, lookup.lookahead(sig, reactions.novelty(sig)))


def _rows(look: lookup.Lookup, offsets: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The row-by-row C sums (tested against numpy in test_sync_native.py)."""
    out = np.empty(len(offsets))
    lookup.NATIVE.sums(look.table, look.res, look.base, np.ascontiguousarray(offsets), x,
                      len(x), np.zeros(len(offsets), np.int64), out)
    return out


def _grid(look, offsets, x, step, table=None):
    table = look.table if table is None else table
    lq = -(-len(table) // step)
    pad = np.zeros(lq * step)
    pad[:len(table)] = table
    phases = np.ascontiguousarray(pad.reshape(lq, step).T)
    out = np.empty(len(offsets))
    lookup.NATIVE.grid_sums(table, look.res, look.base, np.ascontiguousarray(offsets), x,
                           len(x), np.array([[0, len(offsets), 0]], np.int64), step, phases,
                           out)
    return out


def _bits(x) -> bytes:
    return np.asarray(x, float).tobytes()


@pytest.mark.parametrize("k", [1, 7, 8, 9, 16, 127, 128, 129, 136, 300, 1100])
def test_grid_sums_are_the_row_sums_on_and_off_the_table(k):
    look = _look()
    rng = np.random.default_rng(k)
    x = np.sort(rng.uniform(-30.0, 70.0, k))  # many actions off the footage at either end
    grid = np.arange(-40.0, 40.0, 1 / 60) + 0.0037  # 4,800 offsets: 19 chunks
    for offsets, step in ((grid, 4), (grid[::3], 12), (grid[5:300], 4)):
        assert _bits(look.sums(offsets, x)) == _bits(_rows(look, offsets, x))
        assert look._grid_step(offsets) == step
        # a wrong step is slower (every chunk term by term), never different
        for wrong in (1, 3, 7):
            assert _bits(_grid(look, offsets, x, wrong)) == _bits(_rows(look, offsets, x))


def test_grid_sums_fall_back_term_by_term_where_nothing_is_assumed():
    look = _look()
    rng = np.random.default_rng(5)
    x = np.sort(rng.uniform(-5.0, 45.0, 40))
    grid = np.arange(-10.0, 10.0, 1 / 60)
    falling = grid[::-1].copy()
    shuffled = rng.permutation(grid)
    for offsets in (falling, shuffled, np.r_[grid[:100], grid[50:150]]):
        assert _bits(_grid(look, offsets, x, 4)) == _bits(_rows(look, offsets, x))
    odd = np.array([np.nan, np.inf, -np.inf, 1e300, -1e300, 3.0, 1e19])
    for xs in (np.r_[x, odd], odd):
        with np.errstate(invalid="ignore"):
            assert _bits(_grid(look, grid, xs, 4)) == _bits(_rows(look, grid, xs))
    nan_grid = grid.copy()
    nan_grid[7] = np.nan
    assert _bits(_grid(look, nan_grid, x, 4)) == _bits(_rows(look, nan_grid, x))
    # a table with negative entries: a chunk wholly off it reads its (negative) end
    neg = look.table - 0.5
    want = np.empty(len(grid))
    lookup.NATIVE.sums(neg, look.res, look.base, grid, x, len(x), np.zeros(len(grid), np.int64),
                      want)
    assert _bits(_grid(look, grid, x, 4, neg)) == _bits(want)


def test_grid_sums_by_segments_and_rows_of_times():
    look = _look()
    rng = np.random.default_rng(9)
    base = np.sort(rng.uniform(0.0, 38.0, 60))
    xs = np.stack([base / s for s in (0.97, 1.0, 1.0425)])
    grid = np.arange(-20.0, 20.0, 1 / 60)
    seg = np.array([[0, 300, 1], [250, 900, 0], [900, 900, 2], [10, 2400, 2]], np.int64)
    got = look.grid_sums(grid, xs, seg, 4)
    want = np.concatenate([_rows(look, grid[a:b], xs[r]) for a, b, r in seg])
    assert _bits(got) == _bits(want)


def test_grid_sums_refuse_bad_arguments():
    look = _look()
    grid = np.arange(0.0, 1.0, 1 / 60)
    x = np.array([0.5, 1.0])
    ph = look.phases(4)
    out = np.empty(len(grid))

    def call(seg, step=4, phases=ph, o=out, k=2, xs=x):
        lookup.NATIVE.grid_sums(look.table, look.res, look.base, grid, xs, k,
                               np.asarray(seg, np.int64), step, phases, o)

    call([[0, len(grid), 0]])
    for seg in ([[0, len(grid) + 1, 0]], [[5, 4, 0]], [[-1, 3, 0]], [[0, 3, 1]], [0, 3]):
        with pytest.raises(ValueError):
            call(seg)
    with pytest.raises(ValueError):
        call([[0, len(grid), 0]], step=0)
    with pytest.raises(ValueError):
        call([[0, len(grid), 0]], phases=np.zeros(7))
    with pytest.raises(ValueError):
        call([[0, len(grid), 0]], o=np.empty(3))
    with pytest.raises(ValueError):
        call([[0, len(grid), 0]], k=3)


def _numpy_fit(offsets, scores, speed, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(lookup, "NATIVE", None)
        return align.fit_of(offsets, scores, speed)


def test_fit_stats_are_numpys(monkeypatch):
    rng = np.random.default_rng(2)
    offsets = np.arange(-30.0, 30.0, 1 / 60)
    for n in (1, 5, 13, 200, len(offsets)):
        o = offsets[:n]
        for scores in (rng.random(n) * 40, np.round(rng.random(n) * 4),  # ties: the first
                       np.full(n, 2.5), rng.random(n) * 1e-9):
            assert align.fit_of(o, scores, 1.02) == _numpy_fit(o, scores, 1.02, monkeypatch)
    nan = rng.random(50)
    nan[7] = np.nan
    with np.errstate(invalid="ignore"):
        got = align.fit_of(offsets[:50], nan, 1.0)
        want = _numpy_fit(offsets[:50], nan, 1.0, monkeypatch)
    assert repr(got) == repr(want)  # a NaN score: numpy's answer (NaNs compare unequal)


def test_window_fits_are_each_windows_fit():
    look = _look(150.0)
    rng = np.random.default_rng(4)
    run_s = np.sort(rng.uniform(0.0, 140.0, 150))
    near = np.arange(-60.0, 60.0, 1 / 60)
    x = run_s / 1.01
    picks = [np.flatnonzero((run_s >= c - 5) & (run_s < c + 5))
             for c in np.arange(5.0, 140.0, 2.0)]
    picks = [p for p in picks if len(p) >= 4]
    got = track.window_fits(look, near, x, picks, 1.01)
    assert got is not None and len(got) == len(picks) > 50
    for f, p in zip(got, picks, strict=True):
        assert f == align.fit_of(near, lookup.scores(look, near, run_s[p], 1.01), 1.01)
    # windows out of order, or not consecutive actions: not taken (the caller fits each)
    assert track.window_fits(look, near, x, picks[::-1], 1.01) is None
    gap = np.delete(picks[3], 1)
    assert track.window_fits(look, near, x, [gap], 1.01) is None
    with pytest.raises(ValueError):
        lookup.NATIVE.window_fits(look.table, look.res, look.base, near, x,
                                 np.array([[3, 2]], np.int64), 4, look.phases(4), 0.1,
                                 np.empty((1, 5)))
