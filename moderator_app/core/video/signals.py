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
import functools
import io
import os
import queue
import threading

import numpy as np

from . import joined_chain
from .chroma import Chroma
from .middle import median
from .signals_rows import (  # noqa: F401 - the signals' definition, named here as before
    BATCH,
    CHANGE_LEVEL,
    GRID_H,
    GRID_W,
    SYNC_GRID,
    SYNC_NOISE,
    THUMB_H,
    THUMB_W,
    TILES,
    _native,
    _Rows,
    _thumb,
    frame_row,
)

ENVELOPE_S = 0.05
_LUMA_FIRST = {"yuv420p", "yuvj420p", "yuv422p", "yuvj422p", "yuv444p", "yuvj444p", "nv12",
               "nv21", "yuv420p10le", "yuv422p10le", "yuv444p10le", "gray", "yuva420p",
               "yuv411p", "yuv410p", "yuv440p"}


SMALL_PICTURE = 640 * 480  # up to this many pixels a video is decoded on one thread
BUDGET_EVERY = 256  # frames between two progress reports and looks at the CPU budget


def _luma_grid(frame, scaler=None, sample=None, planes=None) -> np.ndarray:
    """A GRID_H x GRID_W luma sample of `frame` (nearest points on a grid): uint8 for 8-bit
    video, float32 in 0-255 for 10-bit. A frame smaller than the grid is scaled by swscale:
    pass one `av.video.reformatter.VideoReformatter` for a whole video (it keeps its scaling
    context; `frame.reformat` builds one per call, which made the scan of a 160x210 video 7x
    the decode floor). `sample`: the C module's sampler (`_grid.sample`), which gathers an
    8-bit plane's points in one pass (the same points). `planes`: the frame's `planes`, when
    the caller has them (PyAV makes them anew at each look: ~5 us)."""
    fmt = frame.format.name
    if _sampled(frame):
        plane = (frame.planes if planes is None else planes)[0]
        bpp = 2 if fmt.endswith("10le") else 1
        if bpp == 1 and sample is not None:
            # one pass, no temporary; at 256x144 the columns are one run: 128 row copies
            ys, xs = _points(frame.width, frame.height)
            g = np.empty((GRID_H, GRID_W), np.uint8)
            sample(plane, plane.line_size, ys, xs, g, GRID_W, 0)
            return g
        dtype = np.dtype("<u2") if bpp == 2 else np.uint8
        arr = np.frombuffer(plane, dtype).reshape(plane.height, plane.line_size // bpp)
        ys, xs = _points(frame.width, frame.height)
        # the grid's rows, then its points in them: the same values as one broadcast index
        # `arr[ys[:, None], xs[None, :]]`, at a sixth of its cost (14 us against 82 on a
        # 720x480 picture, whose decoding takes ~400 us)
        g = arr[ys][:, xs]
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


@functools.lru_cache(maxsize=8)
def _points(width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """The grid's sample rows and columns in a picture of this size (nearest points)."""
    ys = np.arange(GRID_H, dtype=np.int64) * height // GRID_H + height // (2 * GRID_H)
    xs = np.arange(GRID_W, dtype=np.int64) * width // GRID_W + width // (2 * GRID_W)
    ys.setflags(write=False)
    xs.setflags(write=False)
    return ys, xs


def _sampled(frame) -> bool:
    """Whether `_luma_grid` samples the frame's luma plane (cheap) rather than scaling the
    picture to the grid with swscale (a picture smaller than the grid, or not luma first)."""
    return frame.format.name in _LUMA_FIRST and frame.width >= GRID_W \
        and frame.height >= GRID_H


def _kind(frame) -> tuple:
    """What swscale reads of a frame besides its pixels: the same bytes of another kind (a
    colour space or range changed mid-stream) may scale to another grid."""
    return (frame.format.name, getattr(frame, "colorspace", None),
            getattr(frame, "color_range", None))


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
                usual = float(median(self.deltas))
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
        self.chroma = Chroma()  # the colour's change beside the luma's (chroma.py says why)
        self.native = _native()  # `same` (the C module), or None: every picture scaled
        # its sampler of the grids' points (None: numpy's gathers, the same points)
        self.sample = getattr(self.native, "sample", None)
        # the previous picture scaled to the grid: its planes, their kind, and its grid
        self.prev_planes: tuple | None = None
        self.prev_kind: tuple | None = None
        self.prev_grid: np.ndarray | None = None
        self.repeats = 0  # frames whose grid was the previous one's
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
        repeats = self.repeats
        # looked at once: PyAV makes a frame's planes anew at each look (~5 us a frame, which
        # the luma grid, the repeat check and the chroma each paid)
        planes = f.planes
        g = self._grid(f, continues, planes)
        self.rows.add(g, continues)
        self.holes.add(f.pts, g, continues)
        self.chroma.add(f, continues, self.repeats != repeats, self.sample, planes)

    def _grid(self, f, continues: bool, planes=None) -> np.ndarray:
        """The frame's luma grid; for a picture that swscale scales, the previous frame's
        grid when the picture is the previous one byte for byte (every plane: the grid is a
        function of the decoded picture alone). A tiny picture at a high rate repeats most of
        its frames (QA's 16x16 at 1000 fps: 4,940 of 5,000), and scaling it to the grid cost
        more than decoding it (13 us against 8 us a frame); the check costs ~1 us where the
        picture changed (the first plane differs: one compare)."""
        native = self.native
        if planes is None:
            planes = f.planes
        if native is None or _sampled(f):
            return _luma_grid(f, self.scaler, self.sample, planes)
        kind, before = _kind(f), self.prev_planes
        # the planes keep their frame's pictures alive for the next frame's compare
        self.prev_planes = planes
        if continues and before is not None and self.prev_grid is not None \
                and kind == self.prev_kind and len(planes) == len(before):
            same = native.same
            for a, b in zip(planes, before):  # noqa: B905 - the lengths are equal
                if not same(a, b):
                    break
            else:
                self.repeats += 1
                return self.prev_grid
        self.prev_kind = kind
        self.prev_grid = g = _luma_grid(f, self.scaler, self.sample)
        return g

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
        self.chroma.rows.flush()


def _given_again(f, last, pts_l: list[int]) -> bool:
    """Whether a frame the decoder gives when drained at the end is the picture it gave last,
    given again: its timestamp and every byte of its picture the same. It has no packet of
    its own. The MPEG-4 Part 2 decoder does this after H.264 packets joined after its
    recording (`cat`) have reached it (their bytes read as MPEG-4 headers; the recording
    alone drains nothing): QA s23 Q1 j23_mpeg4_then_h264bf3_mkv_30 gave its last picture
    (2.967 s) twice, "two frames with the same timestamp", 91 frames for 90 packets.
    FFmpeg's ffprobe counts that copy; it is no frame of the recording."""
    if last is None or not pts_l or f.pts != pts_l[-1] or \
            (f.width, f.height, f.format.name) != (last.width, last.height, last.format.name):
        return False
    return all(bytes(a) == bytes(b) for a, b in zip(f.planes, last.planes, strict=True))


def scan_container(container, progress=None, total: int = 0,
                   budget_s: float | None = None, source: str | None = None
                   ) -> tuple[dict, dict]:
    """Decode every frame of the recording's video stream (and the first audio stream) once.

    `budget_s`: CPU seconds of this process the scan may spend (None: no bound; the CLI's
    `verify --scan` sets one, the workstation's background scan does not). Looked at every
    BUDGET_EVERY frames; past it the scan stops there and `meta["complete"]` is False: the
    signals cover the frames decoded so far (in CPU seconds, not the wall clock, so that a
    loaded machine stops at the same frame as an idle one, as the probe's budget does)."""
    import time

    import av  # only in the isolated video process (scan.py imports this module for packing)

    from .index import matroska, recording_stream, reorder_ticks
    from .joined_headers import joined_reorder
    from .joined_timeline import Timeline
    from .ogg_theora import theora_dates
    from .packed import Packed, vop_type
    from .scan_clocks import MovedClocks

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
    # joined recordings: as the index (index.py; `source` the file's path, as the probe's)
    timeline = Timeline(reorder=max(reorder_ticks(v), joined_reorder(source, v)),
                        guessed_dts=matroska(container))
    # MPEG-4 Part 2: packed, or each packet's picture type (the index's reading, packed.py)
    packed = Packed(v)
    pk_type = bytearray()
    pk_pts, pk_dts, pk_size, pk_key = [], [], [], []
    a_pts, a_end, a_seg = [], [], []
    env = _Envelope()
    a_timeline = Timeline()  # where the sound's own timestamps restart (its segments)
    a_rate = 0
    done = errors = 0
    last = None  # the last frame given (`_given_again`)
    deadline = None if budget_s is None else time.process_time() + max(0.0, budget_s)
    complete = True
    # Ogg/Theora: FFmpeg misdates the first packet after a hole; the pages' granules do not
    dates = theora_dates(container, v)
    # joined recordings whose own clock starts far later, said by the scan (scan_clocks.py)
    moved = MovedClocks(source, joined_chain.joinable(container))
    try:
        # a joined Matroska's recordings past the demuxer's end too, as the index reads them
        for pk in joined_chain.demux(container, streams, source):
            if pk.stream.type == "video":
                if pk.size:
                    redated = pk.pts if dates is None else dates.pts(pk.size, pk.pts)
                    if redated != pk.pts:  # Theora: no reordering, decode order is display
                        pk.pts = pk.dts = redated
                    off = timeline.shift(pk.pts, pk.dts)
                    if off:
                        pk.pts = None if pk.pts is None else pk.pts + off
                        pk.dts = None if pk.dts is None else pk.dts + off
                    pk_pts.append(pk.pts if pk.pts is not None else -(1 << 62))
                    pk_dts.append(pk.dts if pk.dts is not None else -(1 << 62))
                    pk_size.append(pk.size)
                    pk_key.append(bool(pk.is_keyframe))
                    moved.packet(pk.pos, pk.pts)
                    if packed.mpeg4:
                        if pk.is_keyframe:
                            packed.keyframe(pk, 0)
                        pk_type.append(vop_type(pk))
                try:
                    frames = pk.decode()
                except av.error.FFmpegError:
                    errors += 1
                    continue
                for f in frames:
                    if f.pts is None or not pk.size and _given_again(f, last, pts_l):
                        continue
                    last = f
                    size = (f.width, f.height)
                    work.frame(f, bool(size_l) and size_l[-1] == size)
                    pts_l.append(f.pts)
                    size_l.append(size)
                    done += 1
                    if done % BUDGET_EVERY == 0:
                        if progress is not None:
                            progress(done, total)
                        if deadline is not None and time.process_time() > deadline:
                            complete = False
                if not complete:
                    break
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
                    env.add(af, a_rate)
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
        "sync_tiles": sig["sync_tiles"], **work.chroma.arrays(),
        "size": np.asarray(size_l, np.int32).reshape(-1, 2),
        "packet_pts": np.asarray(pk_pts, np.int64), "packet_dts": np.asarray(pk_dts, np.int64),
        "packet_size": np.asarray(pk_size, np.int64), "packet_key": np.asarray(pk_key, bool),
        "packet_type": np.frombuffer(bytes(pk_type), np.uint8),
        "audio_start": np.asarray(a_pts, np.float64) + a_shift,
        "audio_end": np.asarray(a_end, np.float64) + a_shift,
        "audio_envelope_db": env.finish(), **holes.arrays(), **moved.arrays(),
        "splice_pts": np.asarray([a for a, _ in timeline.splices], np.int64),
        "splice_back": np.asarray([b for _, b in timeline.splices], np.int64),
    }
    if dates is not None and dates.whole and not timeline.offsets[1:]:
        # Theora dated by its pages: where frames are missing, exactly (scan_gaps.py)
        arrays["lost_pts"] = np.asarray(dates.lost_pts, np.int64)
        arrays["lost_n"] = np.asarray(dates.lost_n, np.int64)
    meta = {"decode_errors": errors, "time_base": vtb, "audio_rate": a_rate, "codec": cc.name,
            "packed": packed.packed, "avi": "avi" in (container.format.name or "").split(","),
            "envelope_s": ENVELOPE_S, "has_audio": a is not None, "complete": complete}
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
    """Samples of an audio frame as mono float32 in [-1, 1] (the definition; the scan
    reduces frames in batches, `_Envelope`)."""
    return _mono_of(af.to_ndarray(), af.format.is_planar, max(1, len(af.layout.channels)))


def _mono_of(raw: np.ndarray, planar: bool, channels: int) -> np.ndarray:
    """`_mono` of the samples `raw` (one plane a row, as `AudioFrame.to_ndarray` gives them,
    of one frame or of consecutive frames side by side): each output sample is computed from
    its own input samples alone, so a batch gives each frame's values to the bit."""
    kind, size = raw.dtype.kind, raw.dtype.itemsize
    x = raw.astype(np.float32)
    if kind == "i":
        x /= float(1 << (8 * size - 1))
    elif kind == "u":
        x = (x - 128.0) / 128.0
    if planar:
        return x.mean(axis=0) if x.ndim == 2 else x
    return x.reshape(-1, channels).mean(axis=1)


ENVELOPE_BATCH = 1 << 13  # samples (a channel's) of audio frames reduced together


class _Envelope:
    """The loudness envelope of the first audio stream: RMS in dBFS per ENVELOPE_S window of
    its mono samples, the windows laid end to end from the first sample (a change of sample
    rate changes the width of the windows from the frame that brings it). Frames are reduced
    in batches of ~ENVELOPE_BATCH samples: done frame by frame (`_mono`, a concatenation and
    the finished windows each time) it cost ~15 us of numpy calls per 21 ms AAC frame; in
    batches half that (QA's 60 s MKV, 2,673 AAC frames: 45-57 ms -> 24-36 ms). The values
    are those of the frame-by-frame definition to the bit: each mono sample is computed from
    its own samples (`_mono_of`), each window is a reduction over one row of its samples
    whatever the number of rows, and a batch ends where the frames' layout or the window's
    width changes (test: tests/video/test_video_scan_audio_envelope.py)."""

    def __init__(self) -> None:
        self.pending: list[np.ndarray] = []
        self.count = 0
        self.key: tuple | None = None  # the pending frames' layout and window width
        self.acc = np.zeros(0, np.float32)  # mono samples not yet in a whole window
        self.windows: list[np.ndarray] = []

    def add(self, af, rate: int) -> None:
        raw = af.to_ndarray()
        planar = bool(af.format.is_planar)
        key = (raw.dtype.str, raw.shape[0], planar, max(1, len(af.layout.channels)),
               max(1, int(rate * ENVELOPE_S)))
        if key != self.key or self.count >= ENVELOPE_BATCH:
            self._flush()
            self.key = key
        self.pending.append(raw)
        self.count += raw.shape[1]

    def _flush(self) -> None:
        if not self.pending:
            return
        assert self.key is not None
        _, _, planar, channels, win = self.key
        raw = self.pending[0] if len(self.pending) == 1 else np.concatenate(self.pending, 1)
        self.pending, self.count = [], 0
        acc = np.concatenate((self.acc, _mono_of(raw, planar, channels)))
        k = acc.shape[0] // win
        if k:
            blk = acc[:k * win].reshape(k, win)
            self.windows.append(10 * np.log10(np.mean(blk * blk, axis=1) + 1e-10))
            acc = acc[k * win:]
        self.acc = acc

    def finish(self) -> np.ndarray:
        """The envelope (float32 dBFS, one value a window); the last partial window is left
        out, as it always was."""
        self._flush()
        if not self.windows:
            return np.zeros(0, np.float32)
        return np.concatenate(self.windows).astype(np.float32)


def pack_arrays(arrays: dict) -> bytes:
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


def unpack_arrays(data: bytes | bytearray) -> dict:
    with np.load(io.BytesIO(data), allow_pickle=False) as z:
        out = {}
        for k in z.files:
            arr = np.ascontiguousarray(z[k])
            arr.setflags(write=False)
            out[k] = arr
    return out
