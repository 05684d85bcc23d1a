"""Per-frame change signals of a video, the one input the sync analysis reads from the picture.

One seam: `frame_signals(path)` returns `FrameSignals`, a view of the integrity scan's arrays
(`core.video.scan.run_scan`, decoded once in the isolated video process and cached by SHA-256):
the sync analysis never decodes the video itself, so `verify --scan --sync`, `--offset auto`
and the workstation's Sync panel cost one decode between them. The signal of frame k is, per
tile of a GRID x GRID grid, the number of sample points whose luma changed by more than the
scan's SYNC_NOISE since frame k-1. A threshold rather than a sum: compression noise moves many
points by a few levels, a sprite moving changes few points by many. Times are the scan's
presentation times, rebased on the first frame as every video time in the app is.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

GRID = 8


@dataclass(frozen=True)
class FrameSignals:
    """times[k]: video time of frame k (s); tiles[k, j]: changed points of tile j since k-1."""

    times: np.ndarray   # float64 (n,)
    tiles: np.ndarray   # uint16 (n, GRID*GRID); row 0 is all zero
    fps: float          # median frame rate from the decoded times

    def __len__(self) -> int:
        return len(self.times)

    @property
    def change(self) -> np.ndarray:
        """Changed points of the whole frame, per frame."""
        return self.tiles.sum(axis=1, dtype=np.int64)

    @property
    def grid(self) -> int:
        """Tiles per side (the tiles are a square grid, row by row)."""
        return int(round(self.tiles.shape[1] ** 0.5)) if self.tiles.ndim == 2 else 0

    def coarser(self, grid: int) -> FrameSignals:
        """The same counts summed into a grid x grid grid (grid divides this one's)."""
        g = self.grid
        if grid <= 0 or g % grid:
            raise ValueError(f"grid {grid} does not divide {g}")
        f = g // grid
        n = len(self.times)
        t = self.tiles.reshape(n, grid, f, grid, f).sum(axis=(2, 4), dtype=np.uint16)
        return FrameSignals(self.times, t.reshape(n, grid * grid), self.fps)


def from_scan(scan_signals, grid: int = GRID) -> FrameSignals:
    """The sync view of a scan's `FrameSignals` (core.video.scan): its fine per-tile counts
    summed into a grid x grid grid (grid divides the scan's SYNC_GRID)."""
    fine = scan_signals.sync_tiles
    n, g = fine.shape[0], fine.shape[1]
    if g % grid:
        raise ValueError(f"grid {grid} does not divide the scan's {g}")
    f = g // grid
    tiles = fine.reshape(n, grid, f, grid, f).sum(axis=(2, 4), dtype=np.uint16)
    tiles = tiles.reshape(n, grid * grid)
    d = np.diff(scan_signals.times_s)
    d = d[d > 0]
    fps = float(1.0 / np.median(d)) if len(d) else 30.0
    return FrameSignals(np.asarray(scan_signals.times_s, float), tiles, fps)


def frame_signals(path: str | Path, *, sha256: str | None = None, cancel=None,
                  grid: int = GRID) -> FrameSignals:
    """The change signals of `path`, from its integrity scan (run now, or read from the
    scan's cache). `cancel`: a CancelToken (the scan stops early and raises Cancelled).

    Raises OSError when the file cannot be decoded or decodes to no frame (the isolated
    process's VideoProcessError is one)."""
    from moderator_app.core.video.isolate import VideoProcessError
    from moderator_app.core.video.scan import run_scan

    try:
        scan = run_scan(path, sha256=sha256, cancel=cancel)
    except VideoProcessError as exc:
        if cancel is not None:
            cancel.check()  # cancelled: raises Cancelled, not an unreadable video
        raise OSError(f"cannot decode the video: {exc.reason}") from None
    sig = from_scan(scan.signals, grid)
    if len(sig) == 0:
        raise OSError(f"no frame could be decoded: {path}")
    return sig
