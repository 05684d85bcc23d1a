"""Per-frame change signals of a video, the one input the sync analysis reads from the picture.

One seam: `frame_signals(path)` returns `FrameSignals`. Each decoded frame is reduced to a small
grey image (at most SMALL_W pixels wide); the signal of frame k is, per tile of a GRID x GRID
grid, the number of small pixels whose grey level changed by more than `NOISE_LEVELS` since
frame k-1. A threshold rather than a sum: compression noise moves many pixels by a few levels,
a sprite moving changes few pixels by many. Decoded presentation times are kept (variable frame
rate is common in screen recordings).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

GRID = 8
SMALL_W = 80
NOISE_LEVELS = 24


@dataclass(frozen=True)
class FrameSignals:
    """times[k]: video time of frame k (s); tiles[k, j]: changed pixels of tile j since k-1."""

    times: np.ndarray   # float64 (n,)
    tiles: np.ndarray   # uint16 (n, GRID*GRID); row 0 is all zero
    fps: float          # median frame rate from the decoded times

    def __len__(self) -> int:
        return len(self.times)

    @property
    def change(self) -> np.ndarray:
        """Changed pixels of the whole frame, per frame."""
        return self.tiles.sum(axis=1, dtype=np.int64)


def _tile_sums(mask: np.ndarray, grid: int) -> np.ndarray:
    h, w = mask.shape
    ys = np.linspace(0, h, grid + 1).astype(int)
    xs = np.linspace(0, w, grid + 1).astype(int)
    acc = np.add.reduceat(np.add.reduceat(mask.astype(np.uint16), ys[:-1], axis=0),
                          xs[:-1], axis=1)
    return acc.reshape(-1)


def from_gray_frames(frames, times, grid: int = GRID) -> FrameSignals:
    """Signals from an iterable of small grey frames (uint8 2-D) and their times."""
    rows = []
    prev = None
    for g in frames:
        g = g.astype(np.int16)
        if prev is None:
            rows.append(np.zeros(grid * grid, np.uint16))
        else:
            rows.append(_tile_sums(np.abs(g - prev) > NOISE_LEVELS, grid))
        prev = g
    t = np.asarray(times, float)
    tiles = np.stack(rows) if rows else np.zeros((0, grid * grid), np.uint16)
    d = np.diff(t)
    d = d[d > 0]
    fps = float(1.0 / np.median(d)) if len(d) else 30.0
    return FrameSignals(t, tiles, fps)


def frame_signals(path: str | Path, *, cancel: Callable[[], bool] | None = None) -> FrameSignals:
    """Decode every frame of `path` once at low resolution and return its change signals.

    Raises OSError when the file cannot be opened or decodes to no frame."""
    import cv2

    cap = cv2.VideoCapture(str(path), cv2.CAP_FFMPEG)
    if not cap.isOpened():
        raise OSError(f"cannot open video: {path}")
    times: list[float] = []

    def gray_frames():
        size = None
        while True:
            if cancel is not None and cancel():
                return
            ok, frame = cap.read()
            if not ok:
                return
            if size is None:
                h, w = frame.shape[:2]
                sw = min(SMALL_W, w)
                size = (sw, max(GRID, round(h * sw / w)))
            times.append(cap.get(cv2.CAP_PROP_POS_MSEC) / 1000.0)
            small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
            yield cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)

    try:
        sig = from_gray_frames(gray_frames(), times)
    finally:
        cap.release()
    if len(sig) == 0:
        raise OSError(f"no frame could be decoded: {path}")
    return sig
