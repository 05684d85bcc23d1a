"""Per-frame change signals of a video, the one input the sync analysis reads from the picture.

One seam: `frame_signals(path)` returns `FrameSignals`, a view of the integrity scan's arrays
(`core.video.scan.run_scan`, decoded once in the isolated video process and cached by SHA-256):
the sync analysis never decodes the video itself, so `verify --scan --sync`, `--offset auto`
and the workstation's Sync panel cost one decode between them. The signal of frame k is, per
tile of a GRID x GRID grid, the number of sample points whose luma changed by more than the
scan's SYNC_NOISE since frame k-1. A threshold rather than a sum: compression noise moves many
points by a few levels, a sprite moving changes few points by many. Times are the scan's
presentation times, rebased on the first frame as every video time in the app is.

The recorder's own timing is normalised here, so the analysis can count frames: the frame rate
is the mean of the intervals near the shortest common one (`frame_period`), and a recording
that skips repeated frames (variable frame rate) gets the frames it skipped back as frames
without change (`fill_still`): what a constant-rate recording of the same picture shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from .stats import median, percentile

GRID = 8
# A longer hole between two frames is footage missing (video.footage_gap), not a still screen.
MAX_FILL_S = 10.0


@dataclass(frozen=True)
class FrameSignals:
    """times[k]: video time of frame k (s); tiles[k, j]: changed points of tile j since k-1."""

    times: np.ndarray   # float64 (n,)
    tiles: np.ndarray   # uint16 (n, GRID*GRID); row 0 is all zero
    fps: float          # the recording's frame rate (`frame_period`)
    # the whole picture's change per frame when the tiles are a part of it (band.band_signals):
    # a splice is placed where the whole picture jumps, not the band
    whole: np.ndarray | None = None
    # chroma sample points moved beyond SYNC_NOISE per frame (the scan's `chroma_tiles`),
    # counted in the whole picture's change: a picture is still only when its colour is too
    # (a green square crossing a grey room moves no luma point: core/video/chroma.py)
    colour: np.ndarray | None = None
    # the scan's own finer tiles ((n, f*f), the scan's uint8; f = SYNC_GRID, a multiple of
    # the grid's) when these signals are the whole picture summed from them (`from_scan`):
    # a sprite smaller than a tile beside a lane of traffic is apart from it only there
    fine: np.ndarray | None = None
    # the scan's chroma per tile ((n, f, f/2): U and V points moved beyond SYNC_NOISE, a tile
    # two of `fine`'s columns wide), frames filled as the tiles': read by `coloured` only
    hue: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.times)

    @property
    def change(self) -> np.ndarray:
        """Changed points of the whole frame, per frame. Summed once per signals and kept
        (`kept`, read-only): an analysis at an offset asks 17-19 times (session 31)."""
        return self._kept_array("change", lambda: self.tiles.sum(axis=1, dtype=np.int64))

    def _kept_array(self, key: str, make) -> np.ndarray:
        """`make()` kept in `kept` under `key`, read-only: every asker shares one array, and a
        write into it raises rather than changing what the next asker reads."""
        got = self.kept.get(key)
        if got is None:
            got = make()
            got.setflags(write=False)
            self.kept[key] = got
        return got

    @cached_property
    def quarter_frames(self) -> tuple[np.ndarray, np.ndarray]:
        """(k, shown): for every quarter of a frame period from the first frame to the last,
        the first frame shown at or after it (clipped to the last) and whether there is one.
        The sync fit's lookup tables (`lookup.Lookup`) are built on it, ~40 per analysis, all
        on the same frame times: found once here (frozen dataclass: cached in the instance)."""
        t0 = float(self.times[0])
        res = 0.25 / self.fps
        grid = t0 + np.arange(int((self.times[-1] - t0) / res) + 2) * res
        k = np.searchsorted(self.times, grid - 1e-6)
        return np.clip(k, 0, len(self.times) - 1), k < len(self.times)

    @cached_property
    def kept(self) -> dict:
        """Answers of functions of these signals alone, kept for the analysis' next asker
        (`coarser`, `reactions.novelty`): a frozen instance's answer never changes, and one
        analysis asked for the same coarser grid and plain novelty 4 to 6 times (its scales,
        halves, busy tiles and rises). The signals live for one analysis: so do these."""
        return {}

    @property
    def picture_change(self) -> np.ndarray:
        """Changed points of the whole picture, per frame (`change` unless a part of it),
        its colour's moved points added."""
        c = self.change if self.whole is None else self.whole
        if self.colour is None:
            return c
        return self._kept_array("picture_change", lambda: c + self.colour)

    @property
    def grid(self) -> int:
        """Tiles per side (the tiles are a square grid, row by row)."""
        return int(round(self.tiles.shape[1] ** 0.5)) if self.tiles.ndim == 2 else 0

    def finer(self) -> FrameSignals | None:
        """The whole picture at the scan's finer grid (`fine`), its colour kept; None when
        these signals carry none. Not kept on these signals: what its asker finds on it (its
        onsets: 256 bytes a frame) is let go with it, not held to the analysis' end."""
        if self.fine is None or self.fine.ndim != 2 or len(self.fine) != len(self.times):
            return None
        return FrameSignals(self.times, self.fine, self.fps, colour=self.colour)

    def half_shifted(self) -> FrameSignals | None:
        """The whole picture at this grid with its rows moved down by half a tile: the
        scan's finer tiles (`fine`, twice this grid) summed in 2x2 blocks from the second
        fine row on (the last row's lower half is the picture's bottom, padded with
        nothing); None when these signals carry no fine tiles twice this grid. A sprite
        that moves along a row across the boundary of two of this grid's rows is one
        row of these. Not kept, as `finer`."""
        fine = self.finer()
        g = self.grid
        if fine is None or fine.grid != 2 * g:
            return None
        n = len(self.times)
        t = fine.tiles.reshape(n, 2 * g, 2 * g)
        out = np.zeros((n, g, g), np.uint16)
        for a in range(2):  # fine rows 1+a, 3+a, ... into rows 0, 1, ... (as `block_sums`)
            for b in range(2):
                np.add(out[:, :g - a], t[:, 1 + a::2, b::2], out=out[:, :g - a],
                       casting="unsafe")
        return FrameSignals(self.times, out.reshape(n, g * g), self.fps, colour=self.colour)

    def coloured(self) -> FrameSignals | None:
        """These signals with the colour's moved points added to the tiles where they moved
        (`hue`, each chroma tile's count split over the two fine tiles it spans), the finer
        tiles likewise; no `hue` on the result (read once), None when these signals carry
        no chroma tiles that fit their fine tiles or the colour moved nowhere. Why: a game
        that answers in colour at one brightness (QA s41 T1's synth_tint: a HUD box turns
        green to purple, luma 106 -> 105) moves no luma point, so the gray reader measures
        too few answers to single out an offset (core/sync/coloured.py reads these)."""
        h, fine, n = self.hue, self.fine, len(self.times)
        if h is None or fine is None or h.ndim != 3 or fine.ndim != 2 or h.shape[0] != n:
            return None
        f = int(round(fine.shape[1] ** 0.5))
        if h.shape[1] != f or 2 * h.shape[2] != f or f % self.grid or not h.any():
            return None
        c = h.astype(np.uint16)
        luma = fine.reshape(n, f, f)
        add = np.empty((n, f, f), np.uint16)
        add[:, :, 0::2] = (c + 1) // 2
        add[:, :, 1::2] = c // 2
        add[luma != 0] = 0  # only where the luma did not move: what the gray reader missed
        if not add.any():
            return None
        grown = luma + add
        tiles = block_sums(grown, f // self.grid).reshape(n, -1)
        # (the fine grid's uint8 as the scan's: a fine tile holds 64 luma and 64 chroma points)
        return FrameSignals(self.times, tiles, self.fps, self.whole, self.colour,
                            np.minimum(grown, 255).astype(np.uint8).reshape(n, f * f))

    def coarser(self, grid: int) -> FrameSignals:
        """The same counts summed into a grid x grid grid (grid divides this one's)."""
        g = self.grid
        if grid <= 0 or g % grid:
            raise ValueError(f"grid {grid} does not divide {g}")
        key = ("coarser", grid)
        if key not in self.kept:  # (one object: its own answers are kept on it in turn)
            n = len(self.times)
            t = block_sums(self.tiles.reshape(n, g, g), g // grid)
            self.kept[key] = FrameSignals(self.times, t.reshape(n, grid * grid), self.fps,
                                          colour=self.colour if self.whole is None else None)
        return self.kept[key]


def block_sums(tiles: np.ndarray, f: int) -> np.ndarray:
    """(n, g, g) counts summed over f x f blocks into (n, g/f, g/f), as uint16: what
    tiles.reshape(n, g/f, f, g/f, f).sum(axis=(2, 4), dtype=np.uint16) gives (whole numbers
    modulo 2**16, in any order), by f*f strided additions: ten times faster than numpy's
    reduction over two inner axes (25-30 ms per call on 2,600 frames, three calls per
    analysis)."""
    n, g = tiles.shape[0], tiles.shape[1]
    out = np.zeros((n, g // f, g // f), np.uint16)
    for a in range(f):
        for b in range(f):
            np.add(out, tiles[:, a::f, b::f], out=out, casting="unsafe")
    return out


def from_scan(scan_signals, grid: int = GRID) -> FrameSignals:
    """The sync view of a scan's `FrameSignals` (core.video.scan): its fine per-tile counts
    summed into a grid x grid grid (grid divides the scan's SYNC_GRID), the fine counts
    kept beside them when finer (`FrameSignals.fine`)."""
    fine = scan_signals.sync_tiles
    n, g = fine.shape[0], fine.shape[1]
    if g % grid:
        raise ValueError(f"grid {grid} does not divide the scan's {g}")
    tiles = block_sums(fine, g // grid).reshape(n, grid * grid)
    # (a view of the scan's own array, not a copy: 256 bytes a frame, 55 MB for an hour at 60 fps)
    own = fine.reshape(n, g * g) if g > grid else None
    times = np.asarray(scan_signals.times_s, float)
    ct = getattr(scan_signals, "chroma_tiles", None)
    colour = None if ct is None or ct.shape[0] != n else \
        ct.reshape(n, -1).sum(axis=1, dtype=np.int64)
    hue = ct if ct is not None and colour is not None and ct.ndim == 3 else None
    period = frame_period(times)
    if period is None:
        return FrameSignals(times, tiles, 30.0, colour=colour, fine=own, hue=hue)
    filled, tiles = fill_still(times, tiles, period)
    if len(filled) != n:
        if colour is not None:
            colour = fill_still(times, colour[:, None], period)[1][:, 0]
        if own is not None:
            own = fill_still(times, own, period)[1]
        if hue is not None:
            hue = fill_still(times, hue, period)[1]
    return FrameSignals(filled, tiles, 1.0 / period, colour=colour, fine=own, hue=hue)


def frame_period(times: np.ndarray) -> float | None:
    """The recording's frame period (None without two distinct times): the mean of the
    intervals within half of the shortest common one (the 10th percentile). Why not the
    median: WebM and MKV keep whole milliseconds (33, 33, 34 ms at 30 fps: the median says
    30.3 fps, and every window the analysis counts in frames is 1 % off), and a recorder
    that skips repeated frames can make most intervals two or more periods long."""
    d = np.diff(times)
    d = d[d > 0]
    if not len(d):
        return None
    base = float(percentile(d, 10))
    near = d[(d >= 0.5 * base) & (d <= 1.5 * base)]
    if not len(near):  # few intervals far apart (1 s and 39 s): the percentile fell between
        base = float(percentile(d, 10, method="lower"))  # them; take the interval itself
        near = d[(d >= 0.5 * base) & (d <= 1.5 * base)]
    if float(np.ptp(near)) < 1e-6:  # exact times: the very period (as every CFR file has)
        return float(median(near))
    return float(near.mean())


def fill_still(times: np.ndarray, tiles: np.ndarray,
               period: float) -> tuple[np.ndarray, np.ndarray]:
    """The frames a variable-frame-rate recorder skipped (a repeat of the frame before: no
    change) put back, one per period, in holes up to MAX_FILL_S; unchanged when none is."""
    n = len(times)
    d = np.diff(times)
    k = np.rint(d / period).astype(np.int64) - 1  # frames missing after frame i
    k[(k < 1) | (d > MAX_FILL_S)] = 0
    total = int(k.sum())
    if total == 0 or total > 8 * n:  # a file of far-apart frames is not a skipping recorder
        return times, tiles
    at = np.repeat(np.arange(n - 1), k)
    step = np.arange(total) - np.repeat(np.cumsum(k) - k, k) + 1  # 1..k within each hole
    new_times = np.insert(times, at + 1, times[at] + step * period)
    new_tiles = np.insert(tiles, at + 1, 0, axis=0)
    return new_times, new_tiles


def frame_signals(path: str | Path, *, sha256: str | None = None, cancel=None,
                  grid: int = GRID) -> FrameSignals:
    """The change signals of `path`, from its integrity scan (run now, or read from the
    scan's cache). `cancel`: a CancelToken (the scan stops early and raises Cancelled).

    Raises OSError when the file cannot be decoded or decodes to no frame (the isolated
    process's VideoProcessError is one)."""
    from moderator_app.core.video.isolate import VideoProcessError
    from moderator_app.core.video.scan import run_scan

    try:
        scan = run_scan(path, sha256=sha256, cancel=cancel, finer=False)
    except VideoProcessError as exc:
        if cancel is not None:
            cancel.check()  # cancelled: raises Cancelled, not an unreadable video
        raise OSError(f"cannot decode the video: {exc.reason}") from None
    sig = from_scan(scan.signals, grid)
    if len(sig) == 0:
        raise OSError(f"no frame could be decoded: {path}")
    return sig
