"""Per-frame low-resolution signals of a video, computed in one decoding pass (in the isolated
video process): what the integrity scan judges and what log-video sync correlates.

For each decoded frame: its raw pts, mean luminance (0-255), motion energy (mean absolute
difference of a 64x36 luma thumbnail against the previous frame's, 0-255), an 8x8 grid of
per-tile motion (same measure per tile) and, for log-video sync, a SYNC_GRID x SYNC_GRID grid
of changed-point counts (sample points whose luma moved by more than SYNC_NOISE since the
previous frame), plus per-packet timing (pts, dts, size, keyframe).
For the first audio stream: a loudness envelope (RMS in dBFS per 50 ms window) and every jump
in the audio timestamps. Sampling the luma plane on a grid costs next to nothing beside the
decoding itself, which is why the scan stays near the decode floor; on small videos (an
Atari game's 160x210) per-frame work would dominate, so frames' grids are reduced in batches
(`_Rows`, bit-identical to the per-frame definition `frame_row`).
"""

from __future__ import annotations

import contextlib
import io
import os
import queue
import threading

import numpy as np

THUMB_W, THUMB_H = 64, 32
TILES = 8
ENVELOPE_S = 0.05
CHANGE_LEVEL = 12.0  # a sample point changed: more than codec noise on a still picture
# Sync's signal (core/sync/signals.py is its view): a count, not a sum of differences, because
# compression noise moves many points by a few levels and a sprite moves few points by many.
# 16x16 tiles of 16x8 sample points (counts fit a byte); sync sums them to the grid it needs.
SYNC_GRID = 16
SYNC_NOISE = 24.0
_LUMA_FIRST = {"yuv420p", "yuvj420p", "yuv422p", "yuvj422p", "yuv444p", "yuvj444p", "nv12",
               "nv21", "yuv420p10le", "yuv422p10le", "yuv444p10le", "gray", "yuva420p",
               "yuv411p", "yuv410p", "yuv440p"}


GRID_W, GRID_H = 256, 128  # sample points: dense enough to see an upscaled Atari sprite
BATCH = 32  # frames whose signals are computed in one set of array operations
SMALL_PICTURE = 640 * 480  # up to this many pixels a video is decoded on one thread


def _luma_grid(frame, scaler=None) -> np.ndarray:
    """A GRID_H x GRID_W luma sample of `frame` (nearest points on a grid): uint8 for 8-bit
    video, float32 in 0-255 for 10-bit. A frame smaller than the grid is scaled by swscale:
    pass one `av.video.reformatter.VideoReformatter` for a whole video (it keeps its scaling
    context; `frame.reformat` builds one per call, which made the scan of a 160x210 video 7x
    the decode floor)."""
    fmt = frame.format.name
    if fmt in _LUMA_FIRST and frame.width >= GRID_W and frame.height >= GRID_H:
        plane = frame.planes[0]
        bpp = 2 if fmt.endswith("10le") else 1
        dtype = np.dtype("<u2") if bpp == 2 else np.uint8
        arr = np.frombuffer(plane, dtype).reshape(plane.height, plane.line_size // bpp)
        ys = np.arange(GRID_H) * frame.height // GRID_H + frame.height // (2 * GRID_H)
        xs = np.arange(GRID_W) * frame.width // GRID_W + frame.width // (2 * GRID_W)
        g = arr[ys[:, None], xs[None, :]]
        return g.astype(np.float32) / 4.0 if bpp == 2 else g
    if scaler is None:
        small = frame.reformat(width=GRID_W, height=GRID_H, format="gray")
    else:
        # one thread: swscale's automatic slice threads cost more hand-offs than they scale
        # on a picture this size (same pixels either way)
        small = scaler.reformat(frame, width=GRID_W, height=GRID_H, format="gray", threads=1)
        # a view of the scaled plane (the batch copies it into its buffer): `to_ndarray`
        # would copy it once more
        plane = small.planes[0]
        return np.frombuffer(plane, np.uint8).reshape(GRID_H, plane.line_size)[:, :GRID_W]
    return small.to_ndarray()


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


_GRID_ABI = 1  # the `_grid` build this module is written for (`ABI` in _grid.c)


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


class _Holes:
    """The picture's change over a timestamp hole's own span, measured before the hole: for
    each frame that follows a hole (an interval over HOLE_FACTOR times the usual one), the
    motion (as `frame_row` measures it) between the frame before the hole and the frame as
    many intervals before that. The scan compares the change across the hole with it: footage
    that went missing changes the picture as much as that much time does; a still picture
    whose repeats were dropped changes it by one frame's worth. On content that changes a
    third of the picture every frame the two differ by only 1.5x, which a fixed ratio against
    one frame's motion cannot tell (issue 12 QA)."""

    KEEP = 128  # luma grids kept (32 KB each)
    HOLE_FACTOR = 3.0

    def __init__(self) -> None:
        from collections import deque
        self.grids: deque = deque(maxlen=self.KEEP)
        self.deltas: deque = deque(maxlen=31)
        self.last_pts: int | None = None
        self.pts: list[int] = []
        self.span: list[float] = []

    def add(self, pts: int, g: np.ndarray, continues: bool) -> None:
        if not continues:
            self.grids.clear()
            self.deltas.clear()
            self.last_pts = None
        if self.last_pts is not None and pts > self.last_pts:
            d = pts - self.last_pts
            if len(self.deltas) >= 5 and d > self.HOLE_FACTOR * self.deltas[-1]:
                usual = float(np.median(self.deltas))
                k = min(len(self.grids) - 1, max(1, int(round(d / usual)) - 1)) \
                    if usual > 0 else 0
                if k >= 1 and d > self.HOLE_FACTOR * usual:
                    a = _thumb(self.grids[-1].astype(np.float32))
                    b = _thumb(self.grids[-1 - k].astype(np.float32))
                    self.pts.append(pts)
                    self.span.append(float(np.abs(a - b).mean()))
            self.deltas.append(d)
        self.last_pts = pts
        self.grids.append(g)

    def arrays(self) -> dict:
        return {"hole_pts": np.asarray(self.pts, np.int64),
                "hole_span_motion": np.asarray(self.span, np.float32)}


class _FrameWork:
    """What the scan does with each decoded frame: its luma grid (swscale), its signals
    (`_Rows`) and the hole measure (`_Holes`), in frame order. `threaded`: on a second thread
    fed through a bounded queue, so that the decoding thread only decodes. On a small picture
    (decoded on one thread) decoding is about 45 % of the scan's CPU, the grid 20 % and the
    batches 30 %: a 160x210 video's decoding thread spent 0.76-0.95 s of CPU with only the
    batches beside it, and 0.47-0.59 s with the grids and batches beside it (0.43-0.53 s
    there: the two threads balance), which an idle core turns into wall time. The numbers are
    the same either way (the same calls in the same order on one thread)."""

    QUEUE = 64  # frames in flight (a 160x210 frame is ~50 KB)

    def __init__(self, rows: _Rows, holes: _Holes, threaded: bool) -> None:
        from av.video.reformatter import VideoReformatter
        self.scaler = VideoReformatter()
        self.rows, self.holes = rows, holes
        self.failure: BaseException | None = None
        self.queue: queue.Queue | None = None
        self.thread: threading.Thread | None = None
        if threaded:
            self.queue = queue.Queue(self.QUEUE)
            self.thread = threading.Thread(target=self._run, daemon=True)
            self.thread.start()

    def frame(self, f, continues: bool) -> None:
        if self.queue is None:
            self._one(f, continues)
        else:
            self.queue.put((f, continues))

    def _one(self, f, continues: bool) -> None:
        g = _luma_grid(f, self.scaler)
        self.rows.add(g, continues)
        self.holes.add(f.pts, g, continues)

    def _run(self) -> None:
        assert self.queue is not None
        while (item := self.queue.get()) is not None:
            if self.failure is None:  # after a failure, drain: the decoding never blocks
                try:
                    self._one(*item)
                except BaseException as exc:  # noqa: BLE001 - raised again by `close`
                    self.failure = exc

    def abandon(self) -> None:
        """End the thread without waiting for its result (the decoding failed)."""
        self.failure = self.failure or RuntimeError("abandoned")
        with contextlib.suppress(BaseException):
            self.close()

    def close(self) -> None:
        """Wait for every frame's work; a failure on the thread (a MemoryError under the
        child's RLIMIT_AS) is raised here, in the decoding thread."""
        if self.thread is not None:
            assert self.queue is not None
            self.queue.put(None)
            self.thread.join()
            self.thread = None
        if self.failure is not None:
            failure, self.failure = self.failure, None
            raise failure
        self.rows.flush()


def scan_container(container, progress=None, total: int = 0) -> tuple[dict, dict]:
    """Decode every frame of the recording's video stream (and the first audio stream) once."""
    import av  # only in the isolated video process (scan.py imports this module for packing)

    from .index import Timeline, recording_stream

    v = recording_stream(container)
    cc = v.codec_context
    small = 0 < (cc.width or 0) * (cc.height or 0) <= SMALL_PICTURE
    if small:
        # Frame threads on a tiny picture cost more in hand-offs than they decode (a 160x210
        # video: 2.2x the CPU of one thread); the decoded frames are the same either way.
        v.thread_count = 1
    else:
        v.thread_type = "AUTO"
    streams = [v]
    a = container.streams.audio[0] if container.streams.audio else None
    if a is not None:
        streams.append(a)
    vtb = float(v.time_base or 0.001)
    pts_l: list[int] = []
    size_l: list[tuple[int, int]] = []
    # A small picture decodes on one thread: the work on its frames goes to a second one
    # when a core is idle (a big picture's decoder already has every core)
    rows = _Rows()
    holes = _Holes()
    work = _FrameWork(rows, holes, threaded=small and _idle_cores() >= 1)
    timeline = Timeline()  # joined recordings: the index's shifted timestamps (index.py)
    pk_pts, pk_dts, pk_size, pk_key = [], [], [], []
    a_pts, a_end, a_seg, env = [], [], [], []
    a_timeline = Timeline()  # where the sound's own timestamps restart (its segments)
    a_rate = 0
    acc = None
    done = errors = 0
    try:
        for pk in container.demux(*streams):
            if pk.stream.type == "video":
                if pk.size:
                    off = timeline.shift(pk.pts, pk.dts)
                    if off:
                        pk.pts = None if pk.pts is None else pk.pts + off
                        pk.dts = None if pk.dts is None else pk.dts + off
                    pk_pts.append(pk.pts if pk.pts is not None else -(1 << 62))
                    pk_dts.append(pk.dts if pk.dts is not None else -(1 << 62))
                    pk_size.append(pk.size)
                    pk_key.append(bool(pk.is_keyframe))
                try:
                    frames = pk.decode()
                except av.error.FFmpegError:
                    errors += 1
                    continue
                for f in frames:
                    if f.pts is None:
                        continue
                    size = (f.width, f.height)
                    work.frame(f, bool(size_l) and size_l[-1] == size)
                    pts_l.append(f.pts)
                    size_l.append(size)
                    done += 1
                    if progress is not None and done % 256 == 0:
                        progress(done, total)
            elif a is not None:
                atb = float(pk.stream.time_base or 0)
                if pk.size:
                    a_timeline.shift(pk.pts, pk.dts)
                try:
                    aframes = pk.decode()
                except av.error.FFmpegError:
                    errors += 1
                    continue
                for af in aframes:
                    a_rate = af.sample_rate or a_rate
                    if af.pts is not None and a_rate:
                        t0 = af.pts * atb
                        a_pts.append(t0)
                        a_end.append(t0 + af.samples / a_rate)
                        a_seg.append(a_timeline.segment)
                    mono = _mono(af)
                    acc = mono if acc is None else np.concatenate((acc, mono))
                    win = max(1, int(a_rate * ENVELOPE_S))
                    k = acc.shape[0] // win
                    if k:
                        blk = acc[:k * win].reshape(k, win)
                        env.extend((10 * np.log10(np.mean(blk * blk, axis=1) + 1e-10)).tolist())
                        acc = acc[k * win:]
    except BaseException:
        work.abandon()  # the thread ends: nothing is left waiting on the queue
        raise
    work.close()
    # The sound of joined recordings restarts with their picture: its k-th segment is shifted
    # as the picture's k-th (the file-order timeline); a restart of the sound alone (a
    # splice in one recording's audio) is not shifted, so it is still found.
    shift = np.asarray([o * vtb for o in timeline.offsets], np.float64)
    seg = np.minimum(np.asarray(a_seg, np.int64), shift.shape[0] - 1)
    a_shift = shift[seg] if seg.shape[0] and shift.shape[0] > 1 else 0.0
    sig = rows.arrays()
    arrays = {
        "pts": np.asarray(pts_l, np.int64), "luma": sig["luma"], "motion": sig["motion"],
        "luma_max": sig["luma_max"], "changed": sig["changed"], "tiles": sig["tiles"],
        "sync_tiles": sig["sync_tiles"],
        "size": np.asarray(size_l, np.int32).reshape(-1, 2),
        "packet_pts": np.asarray(pk_pts, np.int64), "packet_dts": np.asarray(pk_dts, np.int64),
        "packet_size": np.asarray(pk_size, np.int64), "packet_key": np.asarray(pk_key, bool),
        "audio_start": np.asarray(a_pts, np.float64) + a_shift,
        "audio_end": np.asarray(a_end, np.float64) + a_shift,
        "audio_envelope_db": np.asarray(env, np.float32), **holes.arrays(),
        "splice_pts": np.asarray([a for a, _ in timeline.splices], np.int64),
        "splice_back": np.asarray([b for _, b in timeline.splices], np.int64),
    }
    meta = {"decode_errors": errors, "time_base": vtb, "audio_rate": a_rate, "envelope_s": ENVELOPE_S,
            "has_audio": a is not None}
    return arrays, meta


def _idle_cores() -> int:
    """Processors this process may run on that other work leaves idle now (rounded down).
    A second thread pays only on an idle core: at load 12 on 2 cores the reduction beside the
    decoding cost 15-25 % more CPU (its batches are read from another core's cache) and the
    scan took longer. Other work is the last minute's load average, or the tasks runnable at
    this instant besides this one when fewer (`/proc/loadavg`): the average alone still
    counted the bench's own previous runs on a quiet machine (load 1.7 with nothing else
    running), so the second thread never ran where it pays."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return 0
    return idle_cores(cores, load, _runnable())


def idle_cores(cores: int, load: float, runnable: int | None) -> int:
    """`cores` minus the other work: the load average, or the other runnable tasks now
    (`runnable` counts this one) when fewer."""
    busy = load if runnable is None else min(load, max(0, runnable - 1))
    return max(0, int(cores - busy))


def _runnable() -> int | None:
    """Tasks runnable at this instant, this one included (Linux), else None."""
    try:
        with open("/proc/loadavg", "rb") as fh:
            return int(fh.read().split()[3].split(b"/")[0])
    except (OSError, ValueError, IndexError):
        return None


def _mono(af) -> np.ndarray:
    """Samples of an audio frame as mono float32 in [-1, 1]."""
    raw = af.to_ndarray()
    kind, size = raw.dtype.kind, raw.dtype.itemsize
    x = raw.astype(np.float32)
    if kind == "i":
        x /= float(1 << (8 * size - 1))
    elif kind == "u":
        x = (x - 128.0) / 128.0
    channels = max(1, len(af.layout.channels))
    if af.format.is_planar:
        return x.mean(axis=0) if x.ndim == 2 else x
    return x.reshape(-1, channels).mean(axis=1)


def pack_arrays(arrays: dict) -> bytes:
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


def unpack_arrays(data: bytes) -> dict:
    with np.load(io.BytesIO(data), allow_pickle=False) as z:
        out = {}
        for k in z.files:
            arr = np.ascontiguousarray(z[k])
            arr.setflags(write=False)
            out[k] = arr
    return out
