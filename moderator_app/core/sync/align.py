"""The offset (and clock speed) that best explains the reactions, globally and in windows.

score(o, s) = sum over actions of the best novelty excess in the first frames after o + e/s
(e: the action's run time). The peak is compared with the score of offsets away from it: a
peak that does not stand out is "not enough signal", never a suggestion.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from .reactions import Novelty
from .signals import FrameSignals

WINDOW_FRAMES_S = 0.05   # reactions counted within this long after the expected time (~3 frames)
SPEEDS = np.round(np.arange(0.92, 1.0801, 0.0025), 4)
# Runs longer than this search every speed of the grid rather than 1 % steps first: a coarse
# speed half a step off (0.5 %) moves the line by 0.2 s at 40 s from the middle, where the
# corpus' 40 s runs still find their drift, but on a 150 s Pong run sped up 4.4 % the coarse
# step chose 1.03 (score 212) and missed 1.0425 (255): no drift, the video read as genuine.
# They take their 1 % steps on a 40 s stretch only, to pin the lines (`pins`, below).
EVERY_SPEED_SPAN_S = 75.0


_LOOKUP_ABI = 2  # the `_lookup` build this module is written for (`ABI` in _lookup.c)


def _native():
    """The C score sums (`_lookup.c`), or None: not built (no compiler: numpy gives the same
    sums), built for another ABI (a checkout moved on without `make setup`), or turned off
    with MODERATOR_APP_NATIVE=0 (as the verifiers' and the scan's accelerators are)."""
    if os.environ.get("MODERATOR_APP_NATIVE", "1") == "0":
        return None
    try:
        from . import _lookup  # type: ignore[attr-defined]  # C, no source
    except ImportError:
        return None
    return _lookup if getattr(_lookup, "ABI", None) == _LOOKUP_ABI else None


NATIVE = _native()


@dataclass(frozen=True)
class Fit:
    offset_s: float
    speed: float        # run seconds per video second (1.04: the video runs 4 % fast)
    score: float
    z: float            # peak height over the spread of scores at other offsets
    margin: float       # peak minus the best score outside +-0.1 s, in spreads


def _lookahead(sig: FrameSignals, nov: Novelty) -> np.ndarray:
    """best[k]: max positive excess over frames k-1 .. k+W (a reaction may fall anywhere in it)."""
    w = max(1, int(round(WINDOW_FRAMES_S * sig.fps)))
    x = np.clip(nov.excess / nov.spread, 0.0, 6.0)
    n = len(x)
    pad = np.concatenate([[0.0], x, np.zeros(w + 1)])
    # the running maximum in place, not a stack of w + 2 shifted copies reduced (the same
    # values: a maximum of numbers, no NaN, in any order)
    best = pad[:n].copy()
    for i in range(1, w + 2):
        np.maximum(best, pad[i:i + n], out=best)
    return best


class Lookup:
    """best[] at the first frame shown at or after any video time, by a table at a quarter of
    a frame: one integer operation per query instead of a binary search (the fit queries
    offsets x actions x speeds times)."""

    def __init__(self, sig: FrameSignals, best: np.ndarray, like: Lookup | None = None) -> None:
        self.t0 = float(sig.times[0])
        self.res = 0.25 / sig.fps
        # the frame of each quarter-frame time depends on the signals alone: found once per
        # signals (`FrameSignals.quarter_frames`), not for each of the ~40 lookups an analysis
        # builds (a binary search per table entry was a tenth of the analysis)
        k, shown = sig.quarter_frames
        table = np.where(shown, best[k], 0.0)
        # zero at both ends: a time outside the footage clips onto a zero
        self.table = np.concatenate([[0.0], table, [0.0]])
        self.base = self.t0 / self.res - 1.0 + 1e-6
        # score rows already computed on this table (see `_scores`), and their size in floats
        self._memo: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        self._memo_size = 0
        self._last: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}  # beyond MEMO_FLOATS
        self._window: dict[int, np.ndarray] = {}  # see `window_max`
        self.finite = bool(np.isfinite(self.table).all())
        self._spectra: dict[int, np.ndarray] = {}  # see `spectrum`
        self._phases: dict[int, np.ndarray] = {}  # see `phases`
        # The table index of offsets x actions depends on the frame times alone, not on the
        # table: a lookup `like` another on the same signals shares its last one (the learned
        # fit queries its new table exactly where the plain fit just queried the first).
        self._index: dict[tuple, tuple[np.ndarray, list[np.ndarray]]] = \
            like._index if like is not None else {}

    def __call__(self, v: np.ndarray) -> np.ndarray:
        m = np.ceil(v / self.res - self.base).astype(np.int64)
        return np.take(self.table, m, mode="clip")

    def index(self, offsets: np.ndarray, x: np.ndarray) -> np.ndarray:
        """The table index of offsets[:, None] + x[None, :] (offsets x actions), as
        `__call__` computes it, bit for bit: the same operations, in place on one buffer laid
        out action by action (long inner loops). Callers keep the block small
        (`CHUNK_FLOATS`)."""
        v = np.add(x[:, None], offsets[None, :])   # (actions, offsets): a + b == b + a
        np.divide(v, self.res, out=v)
        np.subtract(v, self.base, out=v)
        np.ceil(v, out=v)
        return v.T.astype(np.int64, order="C")  # cast and transposed in one pass

    def spectrum(self, size: int) -> np.ndarray:
        """rfft(table, size), kept per size: `_correlated`'s half of every correlation that
        depends on the table alone."""
        if size not in self._spectra:
            self._spectra[size] = np.fft.rfft(self.table, size)
        return self._spectra[size]

    def window_max(self, lo: np.ndarray, width: int) -> np.ndarray:
        """max(table[lo .. lo + width - 1]) elementwise, lo clipped as `np.take(mode="clip")`
        clips: a bound on every table value an index from lo to lo + width - 1 reads
        (`top_speed`). The sliding maxima are built once per width, by doubling spans."""
        if width not in self._window:
            t, span = self.table, 1
            while span < width:
                h = min(span, width - span)
                t = np.maximum(t, np.concatenate([t[h:], np.full(h, self.table[-1])]))
                span += h
            self._window[width] = t
        return np.take(self._window[width], lo, mode="clip")

    def index_rows(self, offsets: np.ndarray, x: np.ndarray) -> np.ndarray:
        """`index`'s row for each (offsets[r], x[r]) pair, bit for bit: row r is the index of
        offsets[r] + x[r], x[r] being run_s / speed as `_scores` divides (`_bounded` divides
        each speed's times once, then sums blocks of several speeds in one call). `x` is
        overwritten."""
        v = np.add(x, offsets[:, None], out=x)
        np.divide(v, self.res, out=v)
        np.subtract(v, self.base, out=v)
        np.ceil(v, out=v)
        return v.astype(np.int64)

    def sums(self, offsets: np.ndarray, x: np.ndarray,
             which: np.ndarray | None = None) -> np.ndarray | None:
        """`row_sums(index(offsets, x))` (x: one row of times), or with `which` (x: rows of
        times) `row_sums(index_rows(offsets, x[which]))`, bit for bit, by the C sums
        (`_lookup.c`: each term computed once, in registers, summed as numpy sums a row;
        on a grid of offsets, `grid_sums`: action by action from a table laid out by
        phase); None where they are not built (the caller sums by numpy)."""
        if NATIVE is None or not x.size:
            return None
        offsets = np.ascontiguousarray(offsets, dtype=np.float64)
        x = np.ascontiguousarray(x, dtype=np.float64)
        step = self._grid_step(offsets) if which is None else 0
        if step:
            return self.grid_sums(offsets, x, np.array([[0, len(offsets), 0]], np.int64), step)
        if which is None:
            which = np.zeros(len(offsets), np.int64)
        out = np.empty(len(offsets))
        NATIVE.sums(self.table, self.res, self.base, offsets, x, x.shape[-1],
                    np.ascontiguousarray(which, dtype=np.int64), out)
        return out

    def grid_sums(self, offsets: np.ndarray, x: np.ndarray, segments: np.ndarray,
                  step: int) -> np.ndarray:
        """`sums` of runs of a grid of offsets, each with its row of times: per segment
        (lo, hi, row), `sums(offsets[lo:hi], x[row])`, concatenated (`_lookup.c`'s
        `grid_sums`; NATIVE must be built). `step`: the grid's index step (`_grid_step`)."""
        assert NATIVE is not None
        x = np.ascontiguousarray(x, dtype=np.float64)
        segments = np.ascontiguousarray(segments, dtype=np.int64)
        out = np.empty(int((segments[:, 1] - segments[:, 0]).sum()))
        NATIVE.grid_sums(self.table, self.res, self.base,
                         np.ascontiguousarray(offsets, dtype=np.float64), x, x.shape[-1],
                         segments, step, self.phases(step), out)
        return out

    def _grid_step(self, offsets: np.ndarray) -> int:
        """The table entries S from one offset's index to the next's where `offsets` are a
        grid (evenly spaced, GRID_MIN or more), else 0: `grid_sums` reads each action's
        terms as one run of the phase table (it checks every index, so a wrong S costs
        speed, never a bit)."""
        n = len(offsets)
        if n < GRID_MIN:
            return 0
        d = float(offsets[1] - offsets[0])
        step = int(round(d / self.res))
        if not 1 <= step <= GRID_MAX_STEP or \
                abs(float(offsets[-1] - offsets[0]) - d * (n - 1)) > 0.01 * self.res:
            return 0
        return step

    def phases(self, step: int) -> np.ndarray:
        """phases[p, q] = table[q * step + p] (zero past the end): `grid_sums`' layout."""
        if step not in self._phases:
            lq = -(-len(self.table) // step)
            pad = np.zeros(lq * step)
            pad[:len(self.table)] = self.table
            self._phases[step] = np.ascontiguousarray(pad.reshape(lq, step).T)
        return self._phases[step]

    def row_sums(self, index: np.ndarray) -> np.ndarray:
        """self(offsets[:, None] + x[None, :]).sum(axis=1) from `index(offsets, x)`: the values
        summed in the original layout (offsets x actions: the same summation order)."""
        return np.take(self.table, index, mode="clip").sum(axis=1)


# `Lookup.sums` by `grid_sums` on grids of at least this many offsets (a shorter one is not
# worth its phase table) whose index steps by at most this many entries per offset
GRID_MIN = 32
GRID_MAX_STEP = 64
DIRECT_MAX = 2_000_000  # offsets x actions evaluated directly; beyond, by FFT correlation
MEMO_FLOATS = 65_536  # scores kept per lookup (512 KB): the first rows are the ones asked again
# Offsets x actions computed per step of the direct sum: each temporary array stays under the
# C library's 128 KiB threshold for fresh pages. One block of 30 actions x 2,600 offsets (a
# 43 s run) made 420 page faults per call, three quarters of the fit's CPU time; in blocks of
# this size it makes none, and runs about four times faster (same operations, same sums).
CHUNK_FLOATS = 15_000


def _direct(look: Lookup, offsets: np.ndarray, actions: int) -> bool:
    """Whether `_scores` sums offsets x actions directly (else by FFT correlation)."""
    n = len(offsets)
    step = (offsets[1] - offsets[0]) / look.res if n > 1 else 0.0
    stride = int(round(step))
    return n * actions <= DIRECT_MAX or stride < 1 or abs(step - stride) > 1e-6


def _scores(look: Lookup, offsets: np.ndarray, run_s: np.ndarray, s: float) -> np.ndarray:
    """score[i] = sum over actions of look(offsets[i] + e/s). Directly for small problems; for
    long runs (an hour at 60 fps: 216,000 offsets x thousands of actions) as one correlation
    of the table with the actions' histogram, in bounded memory and O(N log N)."""
    x = run_s / s
    n = len(offsets)
    # An analysis asks for the same scores several times (the fit at speed 1 by the plain
    # fit, the drift search and the learned fit; `peaks`; a fit's speed search, then its
    # scores at that speed): kept on the lookup, which lives for one analysis. Keyed by the
    # offsets' ends (hashing the whole array cost more than the look-up saved), the offsets
    # themselves compared on a hit.
    key = (n, offsets[:1].tobytes(), offsets[-1:].tobytes(), x.tobytes())
    hit = look._memo.get(key) or look._last.get(key)
    if hit is not None and np.array_equal(hit[0], offsets):
        return hit[1]
    fast = look.sums(offsets, x) if _direct(look, offsets, len(x)) else None
    if fast is not None:
        out = fast
    elif _direct(look, offsets, len(x)):
        known = look._index.get(key)
        if known is not None and np.array_equal(known[0], offsets):
            index = known[1]
        else:
            rows = max(1, CHUNK_FLOATS // max(1, len(x)))
            # in blocks: memory stays bounded either way
            index = [look.index(offsets[i:i + rows], x) for i in range(0, n, rows)]
            look._index.clear()  # the last one only: that is the one asked again
            look._index[key] = (offsets, index)
        out = np.concatenate([look.row_sums(ix) for ix in index]) if index else np.empty(0)
    else:
        out = _correlated(look, offsets, x)
    out.flags.writeable = False  # shared by every caller that asks again
    if look._memo_size + n <= MEMO_FLOATS:
        look._memo[key] = (offsets, out)
        look._memo_size += n
    else:  # the last one at least: a fit asks for its speed's scores right after the search
        look._last.clear()
        look._last[key] = (offsets, out)
    return out


def _kept(look: Lookup, offsets: np.ndarray, x: np.ndarray) -> np.ndarray | None:
    """The scores `_scores` keeps on the lookup for these offsets and times, or None."""
    key = (len(offsets), offsets[:1].tobytes(), offsets[-1:].tobytes(), x.tobytes())
    hit = look._memo.get(key) or look._last.get(key)
    return hit[1] if hit is not None and np.array_equal(hit[0], offsets) else None


def _fast_len(n: int) -> int:
    """The smallest 2^a 3^b 5^c >= n: sizes pocketfft transforms fastest (2^18 for a 300 s
    run's 147,000 points was 1.8 times the work of 150,000)."""
    best = 1 << max(0, int(n - 1).bit_length())
    p5 = 1
    while p5 < best:
        p35 = p5
        while p35 < best:
            m = p35
            while m < n:
                m *= 2
            best = min(best, m)
            p35 *= 3
        p5 *= 5
    return best


def _correlated(look: Lookup, offsets: np.ndarray, x: np.ndarray) -> np.ndarray:
    """`_scores` of a long run by FFT correlation of the table with the actions' histogram.

    The table's spectrum is the lookup's (`Lookup.spectrum`, one per transform size): every
    fit on one table reads the same table, so each correlation transforms only the
    histogram and the product (two transforms, was three). Outside the table both ends'
    zeros are read, as `np.take(mode="clip")` reads them: the table is zero-padded."""
    n = len(offsets)
    stride = int(round((offsets[1] - offsets[0]) / look.res))
    # index of (offsets[i] + x_j) in the table = stride * i + c_j
    c = np.ceil((offsets[0] + x) / look.res - look.base).astype(np.int64)
    lo = int(c.min())
    h = np.bincount(c - lo).astype(float)
    size = _fast_len(len(look.table) + len(h))
    corr = np.fft.irfft(look.spectrum(size) * np.conj(np.fft.rfft(h, size)), size)
    # corr[m % size] = sum_j table[m + j] h[j] for -len(h) < m < len(table), else no overlap
    m = lo + stride * np.arange(n)
    ok = (m > -len(h)) & (m < len(look.table))
    out = np.zeros(n)
    out[ok] = corr[m[ok] % size]
    return out


# Offsets per block whose scores `top_speed` bounds at once (fewer on runs with many actions:
# a block's index stays within CHUNK_FLOATS)
BOUND_BLOCK = 4
# How far under the best score so far a block's bound must fall to be skipped, relative to
# the score: the bound and the exact score are sums of as many floats in the same order, each
# term of the bound at least the exact one's, so rounding alone cannot put the bound under
# the score; the slack guards against a summation order numpy might change.
BOUND_SLACK = 1e-9
BOUND_BATCH = 256


def _under(v: float) -> float:
    return v - BOUND_SLACK * max(1.0, abs(v))


def top_speed(look: Lookup, offsets: np.ndarray, run_s: np.ndarray, speeds) -> float:
    """The first of `speeds` whose best score over `offsets` is highest (`top_speed_score`)."""
    return top_speed_score(look, offsets, run_s, speeds)[0]


def top_speed_score(look: Lookup, offsets: np.ndarray, run_s: np.ndarray, speeds
                    ) -> tuple[float, float]:
    """The first of `speeds` whose best score over `offsets` is highest: what
    max(speeds, key=lambda s: _scores(look, offsets, run_s, s).max()) returns, bit for bit,
    without summing every offset at every speed.

    Why: a drift search scores 65 speeds x every offset x every action, 10 times per
    analysis (the fit and the shuffled logs of `fit.drift_significant`): on a 150 s run, 9,000
    offsets x 130 actions a speed, and it grows with the square of the run's length (Breakout
    sped up, 150 s: 7 s of analysis CPU against a 1.5 s scan). Each block of BOUND_BLOCK
    offsets gets a bound: per action, the table's maximum over the indices the block's
    offsets reach (`Lookup.window_max`), summed. Only blocks whose bound reaches the best score
    found so far are summed exactly, speeds taken by their best bound first. The runs that
    `_scores` correlates by FFT (their values are the FFT's) are searched as before.
    Returns (speed, its best score): the score is `_scores(...).max()` at that speed, bit
    for bit (every block that can hold it is summed exactly)."""
    speeds = [float(s) for s in speeds]
    if len(speeds) == 1 or not _bounded_ok(look, offsets, run_s):
        tops = [float(_scores(look, offsets, run_s, s).max()) for s in speeds]
        first = max(range(len(speeds)), key=lambda i: tops[i])  # the first of the highest
        return speeds[first], tops[first]
    step = _batch_step(look, offsets, len(run_s))
    if step:
        return _every_speed(look, offsets, run_s, speeds, step)
    k, _, v = _bounded(look, offsets, run_s, speeds)
    return speeds[k], v


SPEED_BATCH_FLOATS = 1_000_000  # scores per call of `_every_speed`'s sums (8 MB)


def _every_speed(look: Lookup, offsets: np.ndarray, run_s: np.ndarray, speeds: list[float],
                 step: int) -> tuple[float, float]:
    """`top_speed_score` by the C grid sums of every offset at every speed, a batch of
    speeds per call: the scores `_scores` gives (the same sums), their highest per speed,
    the first speed of the highest. Why not the bounded blocks: with the C sums, summing
    everything costs less than bounding it (a 40 s run's 17 coarse speeds: Gopher at 30 fps
    1.58 -> 0.32 ms, Pong at 60 fps 4.8 -> 0.63 ms; session 14)."""
    n = len(offsets)
    per = max(1, SPEED_BATCH_FLOATS // n)
    tops: list[float] = []
    for a in range(0, len(speeds), per):
        sp = np.array(speeds[a:a + per])
        seg = np.array([[0, n, k] for k in range(len(sp))], np.int64)
        sc = look.grid_sums(offsets, run_s[None, :] / sp[:, None], seg, step)
        tops += sc.reshape(len(sp), n).max(axis=1).tolist()
    first = max(range(len(speeds)), key=lambda i: tops[i])  # the first of the highest
    return speeds[first], tops[first]


def peak(look: Lookup, offsets: np.ndarray, run_s: np.ndarray, speed: float
         ) -> tuple[int, float]:
    """(i, score): the first index of the highest of `_scores(look, offsets, run_s, speed)`
    and that score, bit for bit, by the bounded blocks of `top_speed_score`: all a shuffled
    log's learned fit needs (`fit.significance`: 19 of them per stretch tested). With the C
    sums (`Lookup.sums`), every offset's score, not kept: a 150 s Pong run's blocks were
    nearly all summed anyway, and their bounds cost numpy more than all the sums cost C."""
    if not _bounded_ok(look, offsets, run_s):
        sc = _scores(look, offsets, run_s, speed)
    else:
        fast = look.sums(offsets, run_s / float(speed))
        if fast is None:
            _, i, v = _bounded(look, offsets, run_s, [float(speed)])
            return i, v
        sc = fast
    i = int(np.argmax(sc))
    return i, float(sc[i])


def _bounded_ok(look: Lookup, offsets: np.ndarray, run_s: np.ndarray) -> bool:
    return len(offsets) >= 2 * BOUND_BLOCK and len(run_s) > 0 and look.finite and \
        _direct(look, offsets, len(run_s))


def _bounded(look: Lookup, offsets: np.ndarray, run_s: np.ndarray, speeds: list[float]
             ) -> tuple[int, int, float]:
    """(speed index, offset index, score) of the best score over every speed and offset,
    ties to the first speed, then the first offset: the blocks of BOUND_BLOCK offsets whose
    bound reaches the best score found so far are summed exactly (`top_speed_score`)."""
    n, rows = len(offsets), BOUND_BLOCK
    # block j: offsets starts[j] .. starts[j + 1] (its last one shared with the next block)
    starts = np.r_[np.arange(0, n - 1, rows), n - 1]
    speed_arr = np.array(speeds)
    bounds = []
    for s in speeds:
        edge = look.index(offsets[starts], run_s / s)
        width = int((edge[1:] - edge[:-1]).max()) + 1
        bounds.append(look.window_max(edge[:-1], width).sum(axis=1))
    flat = np.concatenate(bounds)
    xs = run_s[None, :] / speed_arr[:, None]  # each speed's times, as `_scores` divides
    blocks = len(starts) - 1
    span = np.arange(rows + 1)
    # best first, over every speed's blocks: the blocks summed are those whose bound reaches
    # the best score (each speed's best is exact wherever it can reach the overall best), a
    # batch at a time (one numpy call for up to BOUND_BATCH blocks, not one per block)
    order = np.argsort(-flat, kind="stable")
    best: tuple[float, int, int] = (-np.inf, 1, 1)  # (score, -speed index, -offset index)
    at, batch = 0, 8
    while at < len(order):
        take = order[at:at + batch]
        take = take[flat[take] >= _under(best[0])]
        if not len(take):
            break  # every block left is bounded under the best score
        at, batch = at + batch, min(BOUND_BATCH, 2 * batch)
        k, j = np.divmod(take, blocks)
        i = np.minimum(starts[j][:, None] + span[None, :], n - 1)
        # a block's last offset is the next block's first: summed there (a fifth of the
        # sums), except after the last block
        keep = (span[None, :] < rows) | (j == blocks - 1)[:, None]
        ii, kk = i[keep], np.broadcast_to(k[:, None], i.shape)[keep]
        v = look.sums(offsets[ii], xs, kk)
        if v is None:
            v = look.row_sums(look.index_rows(offsets[ii], xs[kk]))
        top = float(v.max())
        hit = v == top
        k_top = int(kk[hit].min())
        i_top = int(ii[hit & (kk == k_top)].min())
        best = max(best, (top, -k_top, -i_top))
    return -best[1], -best[2], best[0]


def median(x: np.ndarray) -> float:
    """np.median(x), bit for bit (the middle value, or the two middle ones' sum halved), at
    a tenth of its cost on the few dozen actions of a window (it ran for every fit)."""
    s = np.sort(np.asarray(x, float))
    n = len(s)
    if n == 0 or np.isnan(s[-1]):
        return float(np.median(x))  # nan, as np.median says (with its warning)
    k = n // 2
    return float(s[k]) if n % 2 else float((s[k - 1] + s[k]) / 2)


def offset_grid(sig: FrameSignals, run_s: np.ndarray) -> np.ndarray:
    """Every offset, a frame apart, that puts the middle action (the median) on the footage:
    the offsets a fit searches."""
    dt = 1.0 / sig.fps
    mid = median(run_s)
    return np.arange(float(sig.times[0]) - mid, float(sig.times[-1]) - mid + dt, dt)


# Long runs (issue 13's cost: offsets x actions x speeds grows with the square of the run's
# length) choose the lines to search from a cheap first pass (`pins`). The pass: the stretch
# of MIDDLE_SPAN_S run seconds that holds the most actions, on every DECIMATE-th offset,
# at the 1 % speed steps a 40 s run's coarse search uses (a half step moves a 40 s stretch's
# ends by 0.1 s, inside an action's look-ahead of 5 frames, `_lookahead`; a grid 3 frames
# apart lands within a frame of every line's peak). Its PIVOT_LINES best lines pin the video
# time of its middle action, and so does the whole log's best line at speed 1 (a genuine
# run's line). Every speed is then searched on every offset within PIVOT_REACH_S of the lines
# through a pin, and the speed found scored on every offset. A pin finds the place better
# than the speed: on synthetic 150 s runs sped up 4.5 % and 7.75 % the pass's best lines
# were at other coarse speeds than the truth's but crossed it within 0.9 s at the pin (the
# speeds within 1 % of each pin's alone missed both). Three stretches (first, last, densest)
# changed no corpus run either and cost a 300 s run's analysis a third more: one stretch.
# Measured: docs/DECISIONS.md, "the drift search's lines from a first pass".
DECIMATE = 3
MIDDLE_SPAN_S = 40.0
PIVOT_LINES = 3
PIVOT_REACH_S = 1.0


def densest(run_s: np.ndarray, span: float) -> np.ndarray:
    """The actions (sorted) of the first stretch of `span` run seconds that holds the most."""
    e = np.sort(run_s)
    ends = np.searchsorted(e, e + span, side="left")
    i = int(np.argmax(ends - np.arange(len(e))))
    return e[i:ends[i]]


def pins(look: Lookup, offsets: np.ndarray, run_s: np.ndarray, speeds: np.ndarray
         ) -> list[tuple[float, float]]:
    """(e, v): the video times v at run times e that the first pass of `search_speed` finds
    the lines through (see MIDDLE_SPAN_S)."""
    coarse = [float(s) for s in speeds[::4]]
    thin = offsets[::DECIMATE]
    sub = densest(run_s, MIDDLE_SPAN_S)
    e = median(sub)
    found: list[tuple[float, int, float, float]] = []
    # every coarse speed's scores in one call of the C sums where they apply (the same
    # doubles as `_unkept`'s, which sums each speed's on its own)
    step = _batch_step(look, thin, len(sub))
    every = look.grid_sums(thin, np.stack([sub / s for s in coarse]),
                           np.array([[0, len(thin), k] for k in range(len(coarse))], np.int64),
                           step).reshape(len(coarse), len(thin)) if step else None
    for k, s in enumerate(coarse):  # not by bounded blocks: their bounds prune too little
        sc = every[k] if every is not None else \
            _unkept(look, thin, np.ones(len(thin), bool), sub / s)
        i = int(np.argmax(sc))
        found.append((float(sc[i]), -len(found), float(thin[i]) + e / s, s))
    out = [(e, v) for _, _, v, _ in sorted(found, reverse=True)[:PIVOT_LINES]]
    if np.any(speeds == 1.0):  # the real log's fit at speed 1 has its scores already
        known = _kept(look, offsets, run_s / 1.0)
        i = int(np.argmax(known)) if known is not None else peak(look, offsets, run_s, 1.0)[0]
        e = median(run_s)
        out.append((e, float(offsets[i]) + e))
    return out


def _unkept(look: Lookup, offsets: np.ndarray, want: np.ndarray, x: np.ndarray) -> np.ndarray:
    """`_scores` at offsets[want], not kept on the lookup (the pinned search asks each once):
    `_scores`' direct sums, bit for bit (the same index and order), or where those would
    exceed DIRECT_MAX its correlation of every offset (a log of many actions: 100,000 over a
    150 s video)."""
    sel = offsets[want]
    if len(sel) * len(x) > DIRECT_MAX and not _direct(look, offsets, len(x)):
        return _correlated(look, offsets, x)[want]
    if NATIVE is not None and len(x):
        # each run of consecutive offsets apart (the pinned search's lines: a grid each,
        # `grid_sums`); an offset's sum does not depend on the others summed with it
        edge = np.flatnonzero(np.diff(np.r_[0, want.view(np.int8), 0]))
        parts = []
        for a, b in zip(edge[::2], edge[1::2], strict=True):
            v = look.sums(offsets[a:b], x)
            assert v is not None  # (built, and actions: the C sums answer)
            parts.append(v)
        return np.concatenate(parts) if parts else np.empty(0)
    rows = max(1, CHUNK_FLOATS // max(1, len(x)))
    return np.concatenate([look.row_sums(look.index(sel[i:i + rows], x))
                           for i in range(0, len(sel), rows)])


def pinned_speed(look: Lookup, offsets: np.ndarray, run_s: np.ndarray, speeds: np.ndarray
                 ) -> float:
    """The first of `speeds` whose best score over the offsets within PIVOT_REACH_S of a
    line through one of `pins` is highest."""
    found = pins(look, offsets, run_s, speeds)
    best = (-np.inf, 0)
    step = _batch_step(look, offsets, len(run_s))
    if step:
        return _pinned_batch(look, offsets, run_s, np.asarray(speeds, float), found, step)
    for k, s in enumerate(float(x) for x in speeds):
        want = np.zeros(len(offsets), bool)
        for e, v in found:
            o = v - e / s
            lo, hi = np.searchsorted(offsets, [o - PIVOT_REACH_S, o + PIVOT_REACH_S + 1e-9])
            want[lo:hi] = True
        if want.any():
            best = max(best, (float(_unkept(look, offsets, want, run_s / s).max()), -k))
    return float(speeds[-best[1]])


def _batch_step(look: Lookup, offsets: np.ndarray, actions: int) -> int:
    """The grid step of `offsets` when the C sums take every speed's runs of them in one
    call (`Lookup.grid_sums`), else 0: built, actions, and summed directly as `_unkept`
    sums them (never its correlation)."""
    if NATIVE is None or actions < 1 or not _direct(look, offsets, actions):
        return 0
    return look._grid_step(offsets)


def _pinned_batch(look: Lookup, offsets: np.ndarray, run_s: np.ndarray, speeds: np.ndarray,
                  found: list[tuple[float, float]], step: int) -> float:
    """`pinned_speed`'s loop in one call of the C sums: per speed, the runs of offsets
    within PIVOT_REACH_S of each pin's line (the same searchsorted bounds), each summed as
    `_unkept` sums it; a run that overlaps another is summed twice, which leaves the
    speed's highest score as it is."""
    e = np.array([p[0] for p in found], float)
    v = np.array([p[1] for p in found], float)
    o = v[None, :] - e[None, :] / speeds[:, None]   # (speeds, pins): v - e / s
    lo = np.searchsorted(offsets, o - PIVOT_REACH_S)
    hi = np.searchsorted(offsets, o + PIVOT_REACH_S + 1e-9)
    k = np.broadcast_to(np.arange(len(speeds))[:, None], o.shape)
    seg = np.stack([lo.ravel(), hi.ravel(), k.ravel()], axis=1)[(hi > lo).ravel()]
    if not len(seg):
        return float(speeds[0])
    sc = look.grid_sums(offsets, run_s[None, :] / speeds[:, None], seg, step)
    starts = np.r_[0, np.cumsum(seg[:, 1] - seg[:, 0])[:-1]]
    first = np.r_[True, seg[1:, 2] != seg[:-1, 2]]   # each speed's first run
    tops = np.maximum.reduceat(sc, starts[first])
    best = (-np.inf, 0)
    for kk, top in zip(seg[first, 2].tolist(), tops.tolist(), strict=True):
        best = max(best, (float(top), -kk))
    return float(speeds[-best[1]])


def search_speed(look: Lookup, offsets: np.ndarray, run_s: np.ndarray,
                 speeds: np.ndarray) -> tuple[float, float]:
    """The fit's speed: coarse to fine on short runs (1 % steps, then 0.25 % around the
    best); on runs longer than EVERY_SPEED_SPAN_S, every speed near the lines a cheap first
    pass pins (`pinned_speed`). Returns (speed, its best score over `offsets`)."""
    speeds = np.asarray(speeds, float)
    long_run = float(run_s.max() - run_s.min()) > EVERY_SPEED_SPAN_S
    if long_run and len(speeds) > 9 and len(offsets) >= 2 * DECIMATE:
        return top_speed_score(look, offsets, run_s, [pinned_speed(look, offsets, run_s, speeds)])
    coarse = speeds if len(speeds) <= 9 or long_run else speeds[::4]
    if len(speeds) == len(coarse):
        return top_speed_score(look, offsets, run_s, coarse)
    top_s = top_speed(look, offsets, run_s, coarse)
    return top_speed_score(look, offsets, run_s, speeds[np.abs(speeds - top_s) < 0.0101])


def best_score(look: Lookup, offsets: np.ndarray, run_s: np.ndarray,
               speeds: np.ndarray = SPEEDS) -> float:
    """`fit(...).score` for these offsets and speeds without the rest of the fit (its z and
    margin sum every offset once more): all a shuffled log's drift search is asked for."""
    if len(run_s) == 0 or len(offsets) == 0:
        return 0.0
    return search_speed(look, offsets, run_s, speeds)[1]


def fit(sig: FrameSignals, nov: Novelty, run_s: np.ndarray, *,
        offsets: np.ndarray | None = None, speeds: np.ndarray = SPEEDS,
        best: np.ndarray | None = None, look: Lookup | None = None) -> Fit | None:
    """The best (offset, speed) for the actions at `run_s` (None with no action or frame).

    Speeds are searched as `search_speed` says."""
    if len(run_s) == 0 or len(sig) < 2:
        return None
    if look is None:
        look = Lookup(sig, _lookahead(sig, nov) if best is None else best)
    if offsets is None:
        offsets = offset_grid(sig, run_s)
    top_s = search_speed(look, offsets, run_s, speeds)[0]
    return fit_of(offsets, _scores(look, offsets, run_s, top_s), top_s)


def fit_of(offsets: np.ndarray, scores: np.ndarray, speed: float) -> Fit:
    """The `Fit` of these scores over `offsets` at this speed (`fit`'s peak, z and margin)."""
    top_s = speed
    if NATIVE is not None and len(scores) and len(scores) == len(offsets):
        st = np.empty(5)
        NATIVE.fit_stats(np.ascontiguousarray(offsets, dtype=np.float64),
                         np.ascontiguousarray(scores, dtype=np.float64), 0.1, st)
        if st[0] >= 0:  # (a NaN score: numpy's answer below)
            i, top, mu, std, rest_max = int(st[0]), float(st[1]), float(st[2]), st[3], st[4]
            sd = float(max(std, 1e-6))
            return Fit(float(offsets[i]), float(top_s), top, (top - mu) / sd,
                       (top - float(rest_max)) / sd)
    i = int(np.argmax(scores))
    off, top = float(offsets[i]), float(scores[i])
    far = np.abs(offsets - off) > 0.1
    rest = scores[far] if far.any() else scores
    mu, sd = float(rest.mean()), float(max(rest.std(), 1e-6))
    return Fit(off, float(top_s), top, (top - mu) / sd, (top - float(rest.max())) / sd)


def z_at(sig: FrameSignals, look: Lookup, run_s: np.ndarray, speed: float, offset: float,
         near_s: float = 0.05) -> float:
    """The fit's z at a given offset rather than at the best one: the best score within
    near_s of `offset` over the scores more than 0.1 s away, in their spreads."""
    if len(run_s) == 0 or len(sig) < 2:
        return 0.0
    offsets = offset_grid(sig, run_s)
    sc = _scores(look, offsets, run_s, speed)
    near = np.abs(offsets - offset) <= near_s
    far = np.abs(offsets - offset) > 0.1
    if not near.any() or not far.any():
        return 0.0
    rest = sc[far]
    return float((sc[near].max() - rest.mean()) / max(float(rest.std()), 1e-6))


def peaks(sig: FrameSignals, look: Lookup, run_s: np.ndarray, speed: float,
          count: int = 4, min_z: float = 3.0) -> list[float]:
    """The best offsets of the global score (local maxima at least 0.2 s apart standing
    `min_z` spreads above the mean): where pieces of a spliced video may line up."""
    if len(run_s) == 0 or len(sig) < 2:
        return []
    offsets = offset_grid(sig, run_s)
    sc = _scores(look, offsets, run_s, speed)
    mu, sd = float(sc.mean()), float(max(sc.std(), 1e-6))
    out: list[float] = []
    for i in np.argsort(-sc):
        if (sc[i] - mu) / sd < min_z or len(out) >= count:
            break
        if all(abs(offsets[i] - o) > 0.2 for o in out):
            out.append(float(offsets[i]))
    return out
