"""The screen activity lane's numbers (ui/activity_lane.py): the motion of the frames shown in
each pixel column, and the run's own scale for it.

Motion is the scan's mean |Y - Y_prev| of a 64x32 thumbnail (0-255, `FrameSignals.motion`).
On real game footage it is small: QA session 12 measured the 99th percentile at 1.09 (Alien),
0.44 (Amidar) and 0.17 (Breakout), so the lane's old fixed scale (40 = full height) drew a
1-2 px line on every game. The lane is scaled per run instead (`activity_scale`): the same
scale at every zoom, so a stretch can be compared with another.
"""

from __future__ import annotations

import numpy as np

from moderator_app.core.video.scan import FrameSignals

#: The motion drawn at full height: the run's 99th percentile (a few cuts and scene changes
#: above it are clipped, not allowed to flatten the rest) ...
SCALE_PERCENTILE = 99.0
#: ... but never below this: a picture that is still but for codec noise (motion 0.01-0.05
#: where nothing moves) stays a low line, not a full band.
SCALE_FLOOR = 0.1


def activity_scale(signals: FrameSignals) -> float:
    """The motion that fills the lane's height for this run: its 99th percentile of motion
    over all frames, at least `SCALE_FLOOR`."""
    m = signals.motion
    m = m[np.isfinite(m)]
    if m.shape[0] == 0:
        return SCALE_FLOOR
    return max(SCALE_FLOOR, float(np.percentile(m, SCALE_PERCENTILE)))


def activity_levels(signals: FrameSignals, t0: float, t1: float, width: int,
                    scale: float) -> np.ndarray:
    """The lane's bar heights, 0-1 per column (`activity_envelope` / `scale`, clipped), and
    -1 where no frame is shown."""
    env = activity_envelope(signals, t0, t1, width)
    return np.clip(np.nan_to_num(env / scale, nan=-1.0), -1.0, 1.0)


def activity_envelope(signals: FrameSignals, t0: float, t1: float, width: int) -> np.ndarray:
    """The screen activity lane's data: for `width` columns spanning video time [t0, t1), the
    highest motion energy (0-255) of the frames shown in each column; NaN where no frame is.
    A column narrower than a frame repeats that frame's value (the lane is never blank inside
    the footage)."""
    out = np.full(max(0, width), np.nan, np.float32)
    n = signals.frame_count
    if n == 0 or width <= 0 or t1 <= t0:
        return out
    m = np.nan_to_num(signals.motion, nan=0.0)
    edges = t0 + (t1 - t0) * np.arange(width + 1) / width
    # the frame on screen at each column's start, and the frames starting inside the column
    first = np.searchsorted(signals.times_s, edges[:-1], side="right") - 1
    last = np.searchsorted(signals.times_s, edges[1:], side="left") - 1
    end = float(signals.times_s[-1]) + signals.frame_duration_s
    for c in range(width):
        a, b = int(first[c]), int(last[c])
        if edges[c + 1] <= 0 or edges[c] >= end:
            continue
        a = max(a, 0)
        b = max(b, a)
        out[c] = float(m[a:b + 1].max())
    return out
