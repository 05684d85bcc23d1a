"""The sync fit's score table: best reaction excess at any video time, and its sums.

A `Lookup` answers "how strongly did the screen react in the frames after video time v" for
offsets x actions at once; `scores` sums it per offset (directly, by the C sums of
`_lookup.c`, or by FFT correlation for long runs), bit for bit the same on every path. The
search over offsets and speeds that reads these scores is `align`'s.
"""

from __future__ import annotations

import os

import numpy as np

from .reactions import Novelty
from .signals import FrameSignals

WINDOW_FRAMES_S = 0.05   # reactions counted within this long after the expected time (~3 frames)

LOOKUP_ABI = 2  # the `_lookup` build this module is written for (`ABI` in _lookup.c)


def native():
    """The C score sums (`_lookup.c`), or None: not built (no compiler: numpy gives the same
    sums), built for another ABI (a checkout moved on without `make setup`), or turned off
    with MODERATOR_APP_NATIVE=0 (as the verifiers' and the scan's accelerators are)."""
    if os.environ.get("MODERATOR_APP_NATIVE", "1") == "0":
        return None
    try:
        from . import _lookup  # type: ignore[attr-defined]  # C, no source
    except ImportError:
        return None
    return _lookup if getattr(_lookup, "ABI", None) == LOOKUP_ABI else None


NATIVE = native()


def lookahead(sig: FrameSignals, nov: Novelty) -> np.ndarray:
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
        # score rows already computed on this table (see `scores`), and their size in floats
        self._memo: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        self._memo_size = 0
        self._last: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}  # beyond MEMO_FLOATS
        self._window: dict[int, np.ndarray] = {}  # see `window_max`
        self.finite = bool(np.isfinite(self.table).all())
        self._spectra: dict[int, np.ndarray] = {}  # see `spectrum`
        self._phases: dict[int, np.ndarray] = {}  # see `phases`
        # the track's windows fitted on this table (`track.windows`), by their actions
        self.kept_windows: dict[tuple, tuple] = {}
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
        """rfft(table, size), kept per size: `correlated`'s half of every correlation that
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
        offsets[r] + x[r], x[r] being run_s / speed as `scores` divides (`_bounded` divides
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


def direct(look: Lookup, offsets: np.ndarray, actions: int) -> bool:
    """Whether `scores` sums offsets x actions directly (else by FFT correlation)."""
    n = len(offsets)
    step = (offsets[1] - offsets[0]) / look.res if n > 1 else 0.0
    stride = int(round(step))
    return n * actions <= DIRECT_MAX or stride < 1 or abs(step - stride) > 1e-6


def scores(look: Lookup, offsets: np.ndarray, run_s: np.ndarray, s: float) -> np.ndarray:
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
    fast = look.sums(offsets, x) if direct(look, offsets, len(x)) else None
    if fast is not None:
        out = fast
    elif direct(look, offsets, len(x)):
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
        out = correlated(look, offsets, x)
    out.flags.writeable = False  # shared by every caller that asks again
    if look._memo_size + n <= MEMO_FLOATS:
        look._memo[key] = (offsets, out)
        look._memo_size += n
    else:  # the last one at least: a fit asks for its speed's scores right after the search
        look._last.clear()
        look._last[key] = (offsets, out)
    return out


def kept(look: Lookup, offsets: np.ndarray, x: np.ndarray) -> np.ndarray | None:
    """The scores `scores` keeps on the lookup for these offsets and times, or None."""
    key = (len(offsets), offsets[:1].tobytes(), offsets[-1:].tobytes(), x.tobytes())
    hit = look._memo.get(key) or look._last.get(key)
    return hit[1] if hit is not None and np.array_equal(hit[0], offsets) else None


def fast_len(n: int) -> int:
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


def correlated(look: Lookup, offsets: np.ndarray, x: np.ndarray) -> np.ndarray:
    """`scores` of a long run by FFT correlation of the table with the actions' histogram.

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
    size = fast_len(len(look.table) + len(h))
    corr = np.fft.irfft(look.spectrum(size) * np.conj(np.fft.rfft(h, size)), size)
    # corr[m % size] = sum_j table[m + j] h[j] for -len(h) < m < len(table), else no overlap
    m = lo + stride * np.arange(n)
    ok = (m > -len(h)) & (m < len(look.table))
    out = np.zeros(n)
    out[ok] = corr[m[ok] % size]
    return out
