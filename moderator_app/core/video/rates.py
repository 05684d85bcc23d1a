"""Frame-rate changes mid-stream, from the frames' timestamps (the scan's `video.stream_change`).

A rate change is a sustained step of the typical frame interval, not jitter: the rolling median
of `MEDIAN_FRAMES` intervals steps at a frame (a candidate), and the stretches before and after
it, each up to `rate_window_s` long and at least `rate_min_s`, are each regular (a
`rate_regular_share` of their intervals within 10 % of their own median) and their medians
differ by more than `rate_change_ratio`. The change is placed at that frame.

Why not fixed windows (as before, session 5): windows of 2 s from 0 s saw only the changes that
fell on a window's edge; a change inside a window made it irregular, so a WebM whose rate
changed every 3 s reported 5 of its 11 changes. A rolling median steps at the change itself
(a median of 9 crosses over at the 5th new interval), wherever it falls.

Why a file that drops repeats says nothing by a whole-number step: a recorder that drops
repeated frames (mpdecimate, OBS's VFR) writes one frame in 4 while a game draws only every
4th frame: a sustained 60 -> 15 fps step by its timestamps (a real Space Invaders recording,
at 10.3 s and 14.5 s). Such a file shows its nature elsewhere: a single interval of 2, 3...
frames inside a steady stretch (one repeat dropped). In it, only steps by a ratio that is
not a whole number (60 -> 24 fps) are rate changes; a file without such a hole (a capture
that changes rate, the issue's WebM) reports every step.

Why regular stretches: an honest VFR recorder that drops repeated frames writes intervals that
follow the content (1, 2, 7 frames...), so its rolling median steps too; its stretches are
irregular and say nothing of a rate change (a real VFR Pitfall recording got ten false
changes from the medians of irregular windows). Jitter (OBS, millisecond timestamps: 16/17
ms) and a dropped frame now and then move no median of 9.
"""

from __future__ import annotations

import numpy as np

MEDIAN_FRAMES = 9  # odd: the median is one interval
_CHUNK = 1 << 16  # rows of the rolling window at a time (memory flat on hour-long videos)
_MAX_CANDIDATES = 100_000


def rolling_median(d: np.ndarray, k: int = MEDIAN_FRAMES) -> np.ndarray:
    """The median of the k intervals centred on each one (edges padded with the edge value)."""
    h = k // 2
    padded = np.concatenate([np.full(h, d[0]), d, np.full(h, d[-1])])
    win = np.lib.stride_tricks.sliding_window_view(padded, k)
    out = np.empty(d.shape[0], np.float64)
    for a in range(0, d.shape[0], _CHUNK):
        out[a:a + _CHUNK] = np.median(win[a:a + _CHUNK], axis=1)
    return out


def _regular(sel: np.ndarray, share: float) -> float | None:
    """The typical interval of `sel` (the mean of those within 10 % of its median: 16 and 17
    ms timestamps are 16.67 ms) when `share` of it lies there, else None."""
    m = float(np.median(sel))
    near = np.abs(sel - m) <= 0.1 * m
    if m <= 0 or np.mean(near) < share:
        return None
    return float(np.mean(sel[near])) if near.any() else m


def rate_changes(t: np.ndarray, window_s: float, min_s: float, ratio: float,
                 share: float) -> list[tuple[float, float, float, float]]:
    """(time, interval before, interval after, end of the stretch after) of each change."""
    if t.shape[0] < 2 * 5 + 1:
        return []
    d = np.diff(t)
    m = rolling_median(d)
    with np.errstate(divide="ignore", invalid="ignore"):
        step = np.abs(np.log(m[1:] / m[:-1]))
    cand = (np.nonzero(step > np.log(1.1))[0] + 1)[:_MAX_CANDIDATES]
    drops = drops_repeats(d, m)
    out: list[tuple[float, float, float, float]] = []
    for j, c in enumerate(cand):
        c = int(c)
        prev = int(cand[j - 1]) if j else 0
        nxt = int(cand[j + 1]) if j + 1 < cand.shape[0] else d.shape[0]
        t0 = float(t[c])
        # each side: up to window_s long, never past the neighbouring step
        lo = max(prev, int(np.searchsorted(t, t0 - window_s, "left")))
        hi = min(nxt, int(np.searchsorted(t, t0 + window_s, "right")) - 1)
        if c - lo < 5 or hi - c < 5 or t0 - float(t[lo]) < min_s or \
                float(t[hi]) - t0 < min_s:
            continue
        a, b = _regular(d[lo:c], share), _regular(d[c:hi], share)
        if a is None or b is None or max(a, b) / min(a, b) <= ratio:
            continue
        if drops and _whole(max(a, b) / min(a, b)):
            continue  # the content's step in a file that drops repeats (module doc)
        out.append((t0, a, b, float(t[hi])))
    return out


def _whole(x) -> bool:
    """x is a whole number of 2 or more (within 10 % of one frame)."""
    return bool(np.all((np.round(x) >= 2) & (np.abs(x - np.round(x)) <= 0.1)))


def drops_repeats(d: np.ndarray, m: np.ndarray) -> bool:
    """Does the file drop repeated frames (a VFR recorder)? One interval of a whole number
    of frames (2 or more) alone inside a regular stretch: a repeated picture not written."""
    k = d / np.where(m > 0, m, np.inf)
    hole = (np.round(k) >= 2) & (np.abs(k - np.round(k)) <= 0.1)
    steady = np.abs(d - m) <= 0.1 * m
    hole[1:] &= steady[:-1]
    hole[:-1] &= steady[1:]
    return bool(hole.any())
