"""Frame-accurate access to a video with OpenCV, without Qt.

Why not `index / fps`: variable frame rate and lying headers are common in screen recordings,
so a frame's position is the timestamp the decoder reports for it (CAP_PROP_POS_MSEC after
`grab()`), collected once by `TimestampScanner` (progressively, in a worker). Until the scan
reaches a frame, its time is estimated from the header fps and marked as an estimate.

`FrameSource.read(n)` is exact: it seeks to before frame `n`, grabs forward and checks the
decoded timestamps on the way. Frames decoded on the way are kept in an LRU cache bounded in
bytes, so stepping backwards frame by frame costs one seek per ~cache-full of frames instead of
one seek per frame (mpv #18439). `TimestampScanner` also keeps small JPEG thumbnails at a fixed
interval: the scrub preview is the nearest thumbnail, which costs no decoding at all.

One `FrameSource` belongs to one thread; the scanner uses its own capture. The shared
`FrameTimes` is append-only (list appends are atomic under the GIL).
"""

from __future__ import annotations

import bisect
import math
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

DEFAULT_CACHE_BYTES = 192 * 1024 * 1024
THUMB_WIDTH = 256
MAX_THUMBS = 4000


def open_capture(path: Path | str) -> cv2.VideoCapture:
    cap = cv2.VideoCapture(str(path), cv2.CAP_FFMPEG)
    if not cap.isOpened():
        cap = cv2.VideoCapture(str(path))
    return cap


@dataclass(frozen=True)
class VideoInfo:
    """What the header says. Used only until decoded timestamps are known."""

    fps: float
    frame_count: int
    width: int
    height: int

    @property
    def frame_duration(self) -> float:
        return 1.0 / self.fps if self.fps > 0 else 1.0 / 30.0


def read_info(cap: cv2.VideoCapture) -> VideoInfo:
    fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
    if not math.isfinite(fps) or fps <= 0 or fps > 1000:
        fps = 30.0
    count = int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
    return VideoInfo(fps, max(count, 0), int(cap.get(cv2.CAP_PROP_FRAME_WIDTH) or 0),
                     int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT) or 0))


class FrameTimes:
    """Decoded presentation times (seconds) of frames 0..k-1, growing while the scan runs."""

    def __init__(self, info: VideoInfo) -> None:
        self.info = info
        self.times: list[float] = []
        self.complete = False
        # Thumbnails for the scrub preview: (time, jpeg bytes), in time order.
        self.thumb_times: list[float] = []
        self.thumbs: list[bytes] = []

    def __len__(self) -> int:
        return len(self.times)

    @property
    def frame_count(self) -> int:
        """Decoded count once the scan is complete, else the header's (or what is known)."""
        if self.complete:
            return len(self.times)
        return max(self.info.frame_count, len(self.times))

    @property
    def duration(self) -> float:
        """End of the last frame: last timestamp plus one frame duration."""
        n = self.frame_count
        if n == 0:
            return 0.0
        return self.time_of(n - 1) + self.frame_duration_at(n - 1)

    def time_of(self, n: int) -> float:
        """Presentation time of frame `n` (decoded when known, else estimated from fps)."""
        times = self.times
        if 0 <= n < len(times):
            return times[n]
        if times:
            return times[-1] + (n - len(times) + 1) * self.info.frame_duration
        return n * self.info.frame_duration

    def is_exact(self, n: int) -> bool:
        return 0 <= n < len(self.times)

    def frame_duration_at(self, n: int) -> float:
        """Duration of frame `n`: the gap to the next decoded frame (VFR-aware)."""
        times = self.times
        if 0 <= n < len(times) - 1:
            return times[n + 1] - times[n]
        if len(times) >= 2 and n == len(times) - 1:
            return times[-1] - times[-2]
        return self.info.frame_duration

    def frame_at(self, t: float) -> int:
        """The frame shown at time `t`: the last frame whose timestamp is <= t (half-frame
        tolerance so that a time computed from a frame's own timestamp lands on that frame)."""
        times = self.times
        last = self.frame_count - 1
        if last < 0:
            return 0
        if times and t <= times[-1] + 0.5 * self.info.frame_duration:
            i = bisect.bisect_right(times, t + 1e-6) - 1
            return min(max(i, 0), last)
        if times:
            est = len(times) - 1 + round((t - times[-1]) / self.info.frame_duration)
        else:
            est = round(t / self.info.frame_duration)
        return min(max(int(est), 0), last)

    def thumbnail_at(self, t: float) -> bytes | None:
        """The JPEG thumbnail nearest to `t`, or None when the scan has not made one yet."""
        tt = self.thumb_times
        if not tt:
            return None
        i = bisect.bisect_left(tt, t)
        if i >= len(tt):
            i = len(tt) - 1
        elif i > 0 and abs(tt[i - 1] - t) <= abs(tt[i] - t):
            i -= 1
        if abs(tt[i] - t) > 5.0 and not self.complete:
            return None  # the scan has not got that far: better no preview than a wrong one
        return self.thumbs[i]


class TimestampScanner:
    """Decodes the whole video once, recording each frame's timestamp and some thumbnails.

    `step(k)` grabs up to `k` frames and returns False when the video ended, so a worker can
    run it in slices, check for cancellation and report progress between them.
    """

    def __init__(self, path: Path | str, times: FrameTimes) -> None:
        self.cap = open_capture(path)
        self.times = times
        fd = times.info.frame_duration
        est_frames = max(times.info.frame_count, 1)
        self.thumb_interval = max(0.5, est_frames * fd / MAX_THUMBS)
        self._next_thumb = 0.0

    def step(self, k: int = 64) -> bool:
        cap = self.cap
        times = self.times.times
        fd = self.times.info.frame_duration
        for _ in range(k):
            if not cap.grab():
                self.times.complete = True
                cap.release()
                return False
            t = cap.get(cv2.CAP_PROP_POS_MSEC) / 1000.0
            if times and (not math.isfinite(t) or t <= times[-1]):
                t = times[-1] + fd  # no usable timestamp: keep order, assume one frame
            elif not math.isfinite(t):
                t = 0.0
            if t >= self._next_thumb:
                ok, img = cap.retrieve()
                if ok and img is not None:
                    h, w = img.shape[:2]
                    tw = min(THUMB_WIDTH, w)
                    small = cv2.resize(img, (tw, max(1, int(h * tw / max(w, 1)))),
                                       interpolation=cv2.INTER_AREA)
                    ok, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 70])
                    if ok:
                        self.times.thumb_times.append(t)
                        self.times.thumbs.append(buf.tobytes())
                self._next_thumb = t + self.thumb_interval
            times.append(t)
        return True

    def run(self) -> FrameTimes:
        while self.step(256):
            pass
        return self.times

    def close(self) -> None:
        self.cap.release()


@dataclass(frozen=True)
class Frame:
    """A decoded frame: its index, its decoded time (seconds) and BGR pixels."""

    index: int
    time: float
    image: np.ndarray
    exact_time: bool = True


class FrameSource:
    """Exact frame reads with a byte-bounded LRU cache. Not thread-safe: one owner thread."""

    # Grab forward instead of seeking when the target is at most this many frames ahead.
    FORWARD_LIMIT = 90
    # Frames cached before the target when stepping backwards.
    BACK_STEP_CACHE = 48

    def __init__(self, path: Path | str, times: FrameTimes | None = None,
                 cache_bytes: int = DEFAULT_CACHE_BYTES) -> None:
        self.path = Path(path)
        self.cap = open_capture(path)
        if not self.cap.isOpened():
            raise OSError(f"cannot open video: {self.path.name}")
        self.info = read_info(self.cap)
        self.times = times if times is not None else FrameTimes(self.info)
        self.cache_bytes = cache_bytes
        self._cache: OrderedDict[int, np.ndarray] = OrderedDict()
        self._cached_bytes = 0
        self._next = 0  # index of the frame the next grab() returns
        self.seeks = 0  # counted for tests and the benchmark
        self.decoded = 0

    # -- cache ---------------------------------------------------------------------------

    def _remember(self, n: int, img: np.ndarray) -> None:
        if n in self._cache:
            self._cache.move_to_end(n)
            return
        self._cache[n] = img
        self._cached_bytes += img.nbytes
        while self._cached_bytes > self.cache_bytes and len(self._cache) > 1:
            _, old = self._cache.popitem(last=False)
            self._cached_bytes -= old.nbytes

    def cached(self, n: int) -> bool:
        return n in self._cache

    # -- reading -------------------------------------------------------------------------

    def _grab(self) -> float | None:
        """Grab the next frame; its decoded time, or None at the end."""
        if not self.cap.grab():
            return None
        self.decoded += 1
        t = self.cap.get(cv2.CAP_PROP_POS_MSEC) / 1000.0
        n = self._next
        self._next += 1
        if not math.isfinite(t):
            return self.times.time_of(n)
        return t

    def _index_for_time(self, t: float) -> int:
        times = self.times.times
        i = bisect.bisect_left(times, t - 1e-4)
        if i < len(times) and abs(times[i] - t) < 1e-3:
            return i
        return self.times.frame_at(t)

    def _seek_before(self, n: int, cache_before: int) -> None:
        """Position the capture at a frame at or before `n`, knowing which one it is."""
        self.seeks += 1
        if not self.times.is_exact(n):
            # The scan has not reached `n`: OpenCV's own frame-number seek is the best guess.
            self.cap.set(cv2.CAP_PROP_POS_FRAMES, n)
            self._next = n
            return
        back = max(2, cache_before)
        start_t = self.times.time_of(max(0, n - back)) - 0.25 * self.info.frame_duration
        if n - back <= 0:
            self.cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
            self._next = 0
            return
        self.cap.set(cv2.CAP_PROP_POS_MSEC, start_t * 1000.0)
        t = self._grab()
        if t is None:
            self.cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
            self._next = 0
            return
        i = self._index_for_time(t)
        if i > n:
            # The seek overshot (rare, broken indexes): restart from 0; correctness first.
            self.cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
            self._next = 0
            return
        self._next = i + 1
        self._remember_current(i)

    def _remember_current(self, i: int) -> None:
        ok, img = self.cap.retrieve()
        if ok and img is not None:
            self._remember(i, img)

    def read(self, n: int, cache_before: int = 2) -> Frame | None:
        """Frame `n` exactly, or None when past the end. The seek lands `cache_before` frames
        early and those frames are cached on the way: the player passes a large value when
        stepping backwards (so the next back-steps are cache hits) and a small one for jumps."""
        if n < 0:
            return None
        img = self._cache.get(n)
        if img is not None:
            self._cache.move_to_end(n)
            return Frame(n, self.times.time_of(n), img, self.times.is_exact(n))
        if not (self._next <= n <= self._next + self.FORWARD_LIMIT):
            self._seek_before(n, cache_before)
            img = self._cache.get(n)
            if img is not None and self._next == n + 1:
                return Frame(n, self.times.time_of(n), img, self.times.is_exact(n))
        while self._next <= n:
            i = self._next
            t = self._grab()
            if t is None:
                return None
            if i >= n - cache_before:
                self._remember_current(i)
        img = self._cache.get(n)
        if img is None:
            return None
        return Frame(n, self.times.time_of(n), img, self.times.is_exact(n))

    def read_at(self, t: float) -> Frame | None:
        """The frame shown at video time `t` (exact)."""
        return self.read(self.times.frame_at(t))

    def preview(self, t: float) -> np.ndarray | None:
        """A fast approximate picture for time `t` while scrubbing: the nearest thumbnail, or
        the nearest cached frame; None when neither is near."""
        jpg = self.times.thumbnail_at(t)
        if jpg is not None:
            return cv2.imdecode(np.frombuffer(jpg, np.uint8), cv2.IMREAD_COLOR)
        n = self.times.frame_at(t)
        if self._cache:
            k = min(self._cache, key=lambda i: abs(i - n))
            if abs(k - n) < 2 * self.info.fps:
                return self._cache[k]
        return None

    def close(self) -> None:
        self.cap.release()
        self._cache.clear()
