"""The picture's change in colour, per frame: what the luma signals cannot see.

Every other signal of the scan is measured on luma (signals_rows.py), which is what a change
in an Atari picture almost always moves. Not always: Adventure's player is a green square
(RGB 88,195,134: Y 156) on a grey room (151,151,151: Y 151), so the square crossing the room
moves no sample point of the luma by more than codec noise, and a genuine run read as a 4 s
`video.frozen` warning and a `sync.no_reaction` while the square visibly moved (QA session
16, J1; RGB differences of 63-70 on 256-392 pixels in the "frozen" span).

So each frame's two chroma planes are sampled too, 128 x 128 points each (nearest points, as
the luma grid; side by side in one GRID_H x GRID_W grid, U then V), and reduced by the same
batched reduction as the luma (`_Rows`, the C module where built): the share of chroma points
that moved beyond CHANGE_LEVEL (`chroma_changed`) and, per tile, the count beyond SYNC_NOISE
(`chroma_tiles`). They are used only where a still picture is judged: a frame is identical
to the one before when neither its luma nor its colour moved, and a spot that keeps changing
lives in either (the scan's `video.frozen`; sync's still stretches through
`FrameSignals.picture_change`). Not in the scan's "same picture" share (at most 0.1 % of the
points moved): x264 moves 0.18 % of a held colourful picture's chroma points beyond 12 on the
frame before it resumes, more than the square's 0.07-0.10 %, which the spot test catches. The reaction
signals (which press shows where) stay luma only: a colour move with no luma move is rare on
these games, and their tuning and tables are on luma.

Ten-bit chroma is taken to eight bits (the top eight): the thresholds are on an 8-bit scale
and the batched reduction is 8-bit; a change under 4 ten-bit levels is noise either way.
"""

from __future__ import annotations

import functools

import numpy as np

from .signals_rows import GRID_H, GRID_W, _Rows

CHROMA_H, CHROMA_W = GRID_H, GRID_W // 2  # points per chroma plane; U and V side by side
# planar formats whose planes 1 and 2 are the chroma (sampled directly); any other format is
# scaled to yuv444p at CHROMA_W x CHROMA_H by swscale (packed RGB, NV12, gray)
_PLANAR = {"yuv420p", "yuvj420p", "yuv422p", "yuvj422p", "yuv444p", "yuvj444p", "yuva420p",
           "yuv411p", "yuv410p", "yuv440p", "yuv420p10le", "yuv422p10le", "yuv444p10le"}


@functools.lru_cache(maxsize=8)
def _rows_cols(width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """A chroma plane's sample rows and columns (nearest, as `signals._points` places the
    luma's)."""
    ys = np.arange(CHROMA_H, dtype=np.int64) * height // CHROMA_H + height // (2 * CHROMA_H)
    xs = np.arange(CHROMA_W, dtype=np.int64) * width // CHROMA_W + width // (2 * CHROMA_W)
    ys.setflags(write=False)
    xs.setflags(write=False)
    return ys, xs


@functools.lru_cache(maxsize=8)
def _points(width: int, height: int, line: int) -> np.ndarray:
    """`_rows_cols` as flat indexes into a plane of `line` values a row: one numpy gather a
    plane (22 us a frame for both planes of a 160x210 video; rows then columns took 30)."""
    ys, xs = _rows_cols(width, height)
    idx = (ys[:, None] * line + xs[None, :]).astype(np.intp)
    idx.setflags(write=False)
    return idx


def chroma_grid(frame, scaler, sample=None, planes=None) -> np.ndarray:
    """The frame's chroma sample grid: (GRID_H, GRID_W) uint8, U in the left half, V in the
    right. `scaler`: a `VideoReformatter` kept for the whole video (see `signals._luma_grid`);
    `sample`: the C module's sampler (`_grid.sample`), which gathers an 8-bit plane's points
    in one pass (the same points; both planes of a 160x210 video: ~170,000 instructions a
    frame against numpy's ~460,000); `planes`: the frame's, when the caller has them."""
    out = np.empty((GRID_H, GRID_W), np.uint8)
    fmt = frame.format.name
    if planes is None:
        planes = frame.planes
    if fmt in _PLANAR and len(planes) >= 3:
        # nearest points, also on a plane smaller than the grid (an Atari picture's 80 x 105
        # chroma: points repeat): swscale's scaling of it cost 15 % of a 160x210 video's scan
        wide = fmt.endswith("10le")
        for i in (1, 2):
            p = planes[i]
            if sample is not None and not wide:
                ys, xs = _rows_cols(p.width, p.height)
                sample(p, p.line_size, ys, xs, out, GRID_W, (i - 1) * CHROMA_W)
                continue
            idx = _points(p.width, p.height, p.line_size // 2 if wide else p.line_size)
            if wide:
                v = np.frombuffer(p, "<u2")[idx]
                out[:, (i - 1) * CHROMA_W:i * CHROMA_W] = v >> 2
            else:
                out[:, (i - 1) * CHROMA_W:i * CHROMA_W] = np.frombuffer(p, np.uint8)[idx]
        return out
    small = scaler.reformat(frame, width=CHROMA_W, height=CHROMA_H, format="yuv444p",
                            threads=1)
    for i in (1, 2):
        p = small.planes[i]
        out[:, (i - 1) * CHROMA_W:i * CHROMA_W] = \
            np.frombuffer(p, np.uint8).reshape(CHROMA_H, p.line_size)[:, :CHROMA_W]
    return out


class Chroma:
    """The colour signals of a video's frames, fed in decoding order beside the luma's."""

    def __init__(self) -> None:
        from av.video.reformatter import VideoReformatter
        self.scaler = VideoReformatter()
        self.rows = _Rows()
        self.prev: np.ndarray | None = None

    def add(self, frame, continues: bool, repeat: bool, sample=None, planes=None) -> None:
        """One decoded frame; `continues`: the same size as the one before; `repeat`: its
        planes are the previous frame's byte for byte (its grid is the previous grid);
        `sample`: the C module's sampler and `planes` the frame's planes (`chroma_grid`)."""
        g = self.prev if repeat and continues and self.prev is not None \
            else chroma_grid(frame, self.scaler, sample, planes)
        self.rows.add(g, continues)
        self.prev = g

    def arrays(self) -> dict:
        """`chroma_changed` (float32 share of the chroma points moved beyond CHANGE_LEVEL,
        NaN on the first frame and after a size change) and `chroma_tiles` ((n, 16, 8)
        uint16: per tile of the picture, the U and V points moved beyond SYNC_NOISE, 0
        there), one row per frame fed. The tiles are the luma `sync_tiles`' rows and every
        second column of them: the same spots of the picture, for the scan's "the same spot
        keeps changing" (`scan_holds._living`)."""
        a = self.rows.arrays()
        t = a["sync_tiles"].astype(np.uint16)  # (n, 16, 16): U's 16 x 8 tiles, then V's
        half = t.shape[2] // 2
        return {"chroma_changed": a["changed"], "chroma_tiles": t[:, :, :half] + t[:, :, half:]}
