"""The per-frame signals of luma grids (`signals.py` samples or scales each decoded picture to
one): the reference definition of one frame's (`frame_row`) and the batched reduction the scan
runs (`_Rows`: the C module `_grid.c` where it is built, else numpy), equal to it to the bit.
Apart from signals.py, which decodes and feeds them, because this is what the numbers mean.
"""

from __future__ import annotations

import os

import numpy as np

THUMB_W, THUMB_H = 64, 32
TILES = 8
CHANGE_LEVEL = 12.0  # a sample point changed: more than codec noise on a still picture
# Sync's signal (core/sync/signals.py is its view): a count, not a sum of differences, because
# compression noise moves many points by a few levels and a sprite moves few points by many.
# 16x16 tiles of 16x8 sample points (counts fit a byte); sync sums them to the grid it needs.
SYNC_GRID = 16
SYNC_NOISE = 24.0
GRID_W, GRID_H = 256, 128  # sample points: dense enough to see an upscaled Atari sprite
BATCH = 32  # frames whose signals are computed in one set of array operations


def _thumb(g: np.ndarray) -> np.ndarray:
    """Block means of the grid down to THUMB_H x THUMB_W (float32, C order).

    Summed as adds of rows and of strided columns rather than `mean(axis=(1, 3))` (3x
    slower): the grid holds whole or quarter levels (10-bit), so a block's 16 values sum
    exactly in float32 in any order and the division by 16 is exact: the same bits."""
    by, bx = GRID_H // THUMB_H, GRID_W // THUMB_W
    g = np.asarray(g, np.float32).reshape(THUMB_H, by, GRID_W)
    rows = g[:, 0].copy()
    for i in range(1, by):
        rows += g[:, i]
    out = rows[:, 0::bx].copy()
    for i in range(1, bx):
        out += rows[:, i::bx]
    out /= np.float32(by * bx)
    return out


def frame_row(g: np.ndarray, prev: np.ndarray | None) -> tuple:
    """The reference definition of one frame's signals from its luma grid and the previous
    frame's (None: first frame or after a size change): (luma, luma_max, motion, changed,
    tiles, sync_tiles). `_Rows` computes the same numbers for many 8-bit frames at once; a
    test holds the two equal, and 10-bit frames go through this one."""
    return _row(g, prev, None)[0]


def _row(g: np.ndarray, prev: np.ndarray | None,
         prev_thumb: np.ndarray | None) -> tuple[tuple, np.ndarray]:
    """`frame_row` and this frame's thumbnail; `prev_thumb`: the previous frame's, when the
    caller kept it (the same array `_thumb(prev)` gives: a 10-bit video's frames then cost
    one thumbnail each, not two)."""
    g = np.asarray(g, np.float32)
    t = _thumb(g)
    if prev is None:
        return (float(t.mean()), float(g.max()), np.nan, np.nan,
                np.full((TILES, TILES), np.nan, np.float32),
                np.zeros((SYNC_GRID, SYNC_GRID), np.uint8)), t
    p = np.asarray(prev, np.float32)
    d = np.abs(t - (_thumb(p) if prev_thumb is None else prev_thumb))
    dg = np.abs(g - p)
    sh, sw = GRID_H // SYNC_GRID, GRID_W // SYNC_GRID
    # counts of moved points per sync tile: integers, so summed in any order
    moved = (dg > SYNC_NOISE).view(np.uint8).reshape(SYNC_GRID, sh, GRID_W)
    rows = np.empty((SYNC_GRID, GRID_W), np.uint8)
    sync = _slice_sum(np.sum(moved, axis=1, dtype=np.uint8, out=rows), sw,
                      np.empty((SYNC_GRID, SYNC_GRID), np.uint8))
    return (float(t.mean()), float(g.max()), float(d.mean()),
            float(np.count_nonzero(dg > CHANGE_LEVEL)) / g.size,
            d.reshape(TILES, THUMB_H // TILES, TILES, THUMB_W // TILES).mean(axis=(1, 3)),
            sync), t


_GRID_ABI = 2  # the `_grid` build this module is written for (`ABI` in _grid.c)


def _native():
    """The C reduction (`_grid.c`), or None: not built (no compiler: the numpy path gives the
    same numbers), built for another ABI (a checkout moved on without `make setup`), or
    turned off with MODERATOR_APP_NATIVE=0 (as the verifiers' accelerators are)."""
    if os.environ.get("MODERATOR_APP_NATIVE", "1") == "0":
        return None
    try:
        from . import _grid  # type: ignore[attr-defined]  # C, no source
    except ImportError:
        return None
    return _grid if getattr(_grid, "ABI", None) == _GRID_ABI else None


def _slice_sum(a: np.ndarray, k: int, out: np.ndarray) -> np.ndarray:
    """Sums of each k consecutive values along the last axis, as k adds of strided slices
    (numpy reduces a short last axis one output at a time: slower than the decoding)."""
    np.copyto(out, a[..., 0::k], casting="unsafe")
    for i in range(1, k):
        out += a[..., i::k]
    return out


def _moved(d: np.ndarray, level: float, out: np.ndarray) -> np.ndarray:
    """Where the uint8 |a - b| in `d` exceeds `level` (integers: above floor(level))."""
    return np.greater(d, np.uint8(int(level)), out=out)


class _Rows:
    """Per-frame signals accumulated in frame order. 8-bit grids wait in a batch buffer and
    are reduced together: on a 160x210 Atari video the per-frame numpy work, not decoding,
    was 2/3 of the scan. Every number is an integer sum divided by a power of two, so the
    batched integer arithmetic gives exactly the float32 values of `frame_row`. Scratch
    arrays are allocated once: a fresh array of this size is a fresh mmap, and its page
    faults cost more than the arithmetic."""

    def __init__(self) -> None:
        gh, gw, b = GRID_H, GRID_W, BATCH
        self.buf = np.zeros((b + 1, gh, gw), np.uint8)  # row 0: the previous frame's grid
        self.d = np.empty((b, gh, gw), np.uint8)
        self.tmp = np.empty((b, gh, gw), np.uint8)
        self.mask = np.empty((b, gh, gw), bool)
        self.cols = np.empty((b + 1, THUMB_H, gw), np.uint16)
        self.tsum = np.empty((b + 1, THUMB_H, THUMB_W), np.int32)
        self.trows = np.empty((b, TILES, THUMB_W), np.int32)
        self.tiles_sum = np.empty((b, TILES, TILES), np.int32)
        self.srows = np.empty((b, SYNC_GRID, gw), np.uint8)
        self.n = 0
        self.valid: list[bool] = []
        self.prev: np.ndarray | None = None  # the previous frame's grid (None: no valid one)
        self.prev_thumb: np.ndarray | None = None  # its thumbnail, when it took `_row`
        self.luma: list[np.ndarray] = []
        self.lmax: list[np.ndarray] = []
        self.motion: list[np.ndarray] = []
        self.changed: list[np.ndarray] = []
        self.tiles: list[np.ndarray] = []
        self.sync: list[np.ndarray] = []

    def add(self, g: np.ndarray, continues: bool) -> None:
        """One frame's grid; `continues`: same size as the previous frame (else no motion)."""
        if not continues:
            self.prev = None
        if g.dtype != np.uint8 or (self.prev is not None and self.prev.dtype != np.uint8):
            self.flush()
            kept = self.prev_thumb if self.prev is not None else None
            row, self.prev_thumb = _row(g, self.prev, kept)
            for lst, v in zip((self.luma, self.lmax, self.motion, self.changed), row[:4],
                              strict=True):
                lst.append(np.asarray([v], np.float32))
            self.tiles.append(row[4][None].astype(np.float32))
            self.sync.append(row[5][None])
            self.prev = g
            return
        if self.n == 0 and self.prev is not None:
            self.buf[0] = self.prev
        self.valid.append(self.prev is not None)
        self.n += 1
        self.buf[self.n] = g
        self.prev = self.buf[self.n]
        self.prev_thumb = None  # a batch's frame: `_row` computes its thumbnail if asked
        if self.n == BATCH:
            self.flush()

    def flush(self) -> None:
        """Reduce every frame added so far (their rows are in the lists when it returns)."""
        n = self.n
        if n:
            self.n = 0
            invalid = ~np.asarray(self.valid, bool)
            self.valid = []
            self.prev = self.buf[n].copy()  # the next batch's row 0 (the buffer is refilled)
            self._reduce(self.buf, n, invalid)

    def _reduce(self, buf: np.ndarray, n: int, invalid: np.ndarray) -> None:
        """The signals of frames buf[1..n] (buf[0]: the frame before them): their integer
        sums in one pass per grid (`_grid.c`) where it is built, else by numpy; the same
        divisions after either."""
        grid = _native()
        if grid is None:
            self._reduce_numpy(buf, n, invalid)
            return
        by, bx = GRID_H // THUMB_H, GRID_W // THUMB_W
        ty, tx = THUMB_H // TILES, THUMB_W // TILES
        full = by * bx * THUMB_H * THUMB_W
        lsum, msum, changed = (np.empty(n, np.int64) for _ in range(3))
        lmax = np.empty(n, np.uint8)
        tsum = np.empty((n, TILES, TILES), np.int64)
        sync = np.empty((n, SYNC_GRID, SYNC_GRID), np.uint8)
        grid.reduce(buf[:n + 1], n, lsum, lmax, msum, tsum, changed, sync)
        self._append(invalid, (lsum / full).astype(np.float32), lmax.astype(np.float32),
                     (msum / full).astype(np.float32),
                     (changed / float(GRID_H * GRID_W)).astype(np.float32),
                     (tsum / (by * bx * ty * tx)).astype(np.float32), sync)

    def _append(self, invalid: np.ndarray, luma: np.ndarray, lmax: np.ndarray,
                motion: np.ndarray, changed: np.ndarray, tiles: np.ndarray,
                sync: np.ndarray) -> None:
        motion[invalid] = np.nan
        changed[invalid] = np.nan
        tiles[invalid] = np.nan
        sync[invalid] = 0
        self.luma.append(luma)
        self.lmax.append(lmax)
        self.motion.append(motion)
        self.changed.append(changed)
        self.tiles.append(tiles)
        self.sync.append(sync)

    def _reduce_numpy(self, buf: np.ndarray, n: int, invalid: np.ndarray) -> None:
        """`_reduce` without the C module: ~10 passes of numpy over each grid."""
        gb = buf[:n + 1]
        g = gb[1:]
        # thumbnails as exact sums of by x bx points; luma and motion: their means
        by, bx = GRID_H // THUMB_H, GRID_W // THUMB_W
        cols = np.sum(gb.reshape(n + 1, THUMB_H, by, GRID_W), axis=2, dtype=np.uint16,
                      out=self.cols[:n + 1])
        tsum = _slice_sum(cols, bx, self.tsum[:n + 1])
        cur = tsum[1:]
        full = by * bx * THUMB_H * THUMB_W
        luma = (cur.sum(axis=(1, 2)) / full).astype(np.float32)
        lmax = g.reshape(n, -1).max(axis=1).astype(np.float32)
        td = np.abs(cur - tsum[:-1])
        motion = (td.sum(axis=(1, 2)) / full).astype(np.float32)
        ty, tx = THUMB_H // TILES, THUMB_W // TILES
        trows = np.sum(td.reshape(n, TILES, ty, THUMB_W), axis=2, out=self.trows[:n])
        tiles = (_slice_sum(trows, tx, self.tiles_sum[:n]) / (by * bx * ty * tx)) \
            .astype(np.float32)
        # |g - prev| in uint8: max - min (a wrapping difference cannot tell 250 from -6)
        prev, d, tmp, mask = gb[:-1], self.d[:n], self.tmp[:n], self.mask[:n]
        np.subtract(np.maximum(g, prev, out=d), np.minimum(g, prev, out=tmp), out=d)
        changed = np.asarray([np.count_nonzero(m) for m in _moved(d, CHANGE_LEVEL, mask)])
        changed = (changed / float(GRID_H * GRID_W)).astype(np.float32)
        sh, sw = GRID_H // SYNC_GRID, GRID_W // SYNC_GRID
        moved = _moved(d, SYNC_NOISE, mask).view(np.uint8)
        srows = np.sum(moved.reshape(n, SYNC_GRID, sh, GRID_W), axis=2, dtype=np.uint8,
                       out=self.srows[:n])
        sync = _slice_sum(srows, sw, np.empty((n, SYNC_GRID, SYNC_GRID), np.uint8))
        self._append(invalid, luma, lmax, motion, changed, tiles, sync)

    def arrays(self) -> dict:
        self.flush()

        def cat(lst, shape, dtype):
            return np.concatenate(lst).astype(dtype) if lst else np.zeros(shape, dtype)
        return {"luma": cat(self.luma, (0,), np.float32),
                "motion": cat(self.motion, (0,), np.float32),
                "luma_max": cat(self.lmax, (0,), np.float32),
                "changed": cat(self.changed, (0,), np.float32),
                "tiles": cat(self.tiles, (0, TILES, TILES), np.float32),
                "sync_tiles": cat(self.sync, (0, SYNC_GRID, SYNC_GRID), np.uint8)}
