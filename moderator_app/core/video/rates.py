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
that changes rate, the issue's WebM) reports every step. One whole-number step is still told,
as a note (`_lasting`): the file's last, a fall whose slower rate holds to the end (a recorder
that halves its rate for good, or a game that draws every 2nd frame to its end); Space
Invaders' falls come back to 60 fps 3.2 s later.

Why a smaller step between steady stretches (session 28): a capture that goes from 25 to 30
fps (or 50 to 60) steps by 1.2, under `ratio`, and said nothing. Where both stretches keep
to their rate within 3 % (or a millisecond clock's rounding) and the file drops no repeats,
a step above `steady` (1.1) is a change: a VFR recorder's content cadence is whole frames
(5 -> 6 frames is 1.2 too), so a file that drops repeats keeps the 1.3 bar. On 599 videos of
the corpora (corpus v2's 416, the video corpus, QA s23-s27's) no change was added.

Why regular stretches: an honest VFR recorder that drops repeated frames writes intervals that
follow the content (1, 2, 7 frames...), so its rolling median steps too; its stretches are
irregular and say nothing of a rate change (a real VFR Pitfall recording got ten false
changes from the medians of irregular windows). Jitter (OBS, millisecond timestamps: 16/17
ms) and a dropped frame now and then move no median of 9.
"""

from __future__ import annotations

import numpy as np

from .middle import median

MEDIAN_FRAMES = 9  # odd: the median is one interval
# A capture whose timestamps jitter (+-30 % of its interval: a loaded capture machine) moves
# a median of 9 by more than 10 % every few frames, so it has steps everywhere and no regular
# stretch: a second pass looks for rate changes with a median of 31 (one interval swapped per
# frame moves it little), and a stretch is regular when its timestamps keep to a clock: a
# `share` of them within `CLOCK_SLACK` of an interval from the straight line fitted to them
# (jitter stays near the line; a VFR recorder's holes of whole frames pile up away from it).
# Its typical interval is the line's slope (a jittered clock keeps its rate on average).
JITTER_FRAMES = 31
CLOCK_SLACK = 0.5
# A step of the frame rate under `ratio` (25 -> 30 fps is 1.2; 50 -> 60 too) is a change
# only between steady stretches (`_steady`): intervals within 3 % of their median, or 1 ms
# (a millisecond clock rounds each timestamp by up to half of it), in a file that does not
# drop repeats (whose content's cadence steps by any ratio of whole frames: 5 -> 6 is 1.2).
STEADY_SLACK = 0.03
STEADY_TICK_S = 0.00101
_CHUNK = 1 << 16  # rows of the rolling window at a time (memory flat on hour-long videos)
_MAX_CANDIDATES = 100_000


def rolling_median(d: np.ndarray, k: int = MEDIAN_FRAMES) -> np.ndarray:
    """The median of the k intervals centred on each one (edges padded with the edge value)."""
    h = k // 2
    padded = np.concatenate([np.full(h, d[0]), d, np.full(h, d[-1])])
    win = np.lib.stride_tricks.sliding_window_view(padded, k)
    out = np.empty(d.shape[0], np.float64)
    for a in range(0, d.shape[0], _CHUNK):
        out[a:a + _CHUNK] = median(win[a:a + _CHUNK], axis=1)
    return out


def _clock(ts: np.ndarray, share: float) -> float | None:
    """The interval of the clock the timestamps `ts` keep to (the slope of the line fitted to
    them), when `share` of them lie within CLOCK_SLACK of an interval of it, else None."""
    k = np.arange(ts.shape[0], dtype=np.float64)
    slope, at0 = np.polyfit(k, ts, 1)
    if not slope > 0:
        return None
    off = np.abs(ts - (at0 + slope * k))
    return float(slope) if np.mean(off <= CLOCK_SLACK * slope) >= share else None


def _regular(sel: np.ndarray, share: float) -> float | None:
    """The typical interval of `sel` (the mean of those within 10 % of its median: 16 and
    17 ms timestamps are 16.67 ms) when `share` of it lies there, else None."""
    m = float(median(sel))
    near = np.abs(sel - m) <= 0.1 * m
    if m <= 0 or np.mean(near) < share:
        return None
    return float(np.mean(sel[near])) if near.any() else m


def rate_changes(t: np.ndarray, window_s: float, min_s: float, ratio: float,
                 share: float, lasting: list | None = None, steady: float | None = None
                 ) -> list[tuple[float, float, float, float]]:
    """(time, interval before, interval after, end of the stretch after) of each change.
    `lasting`, when given, receives the whole-number falls of a file that drops repeats that
    no change follows, whose slower rate holds to the end of the file (`_lasting`).
    `steady`, when given, is the smaller step (above it, up to `ratio`) that is a change
    between two steady stretches (`_steady`) of a file that does not drop repeats."""
    if t.shape[0] < 2 * 5 + 1:
        return []
    d = np.diff(t)
    m = rolling_median(d)
    drops = drops_repeats(d, m)
    whole: list = []
    out = _changes(t, d, m, window_s, min_s, ratio, share, drops, whole=whole,
                   steady=None if drops else steady)
    if lasting is not None:
        lasting += _lasting(t, d, whole, share)
    if d.shape[0] >= 2 * JITTER_FRAMES and not drops:
        # the jitter pass (not in a file that drops repeats: its timestamps are on a frame
        # grid, and a line fits its content's cadence as well as a clock); a change it finds
        # within a second of one found already is that one
        for c in _changes(t, d, rolling_median(d, JITTER_FRAMES), window_s, min_s, ratio,
                          share, drops, merge=JITTER_FRAMES):
            if all(abs(c[0] - o[0]) > 1.0 for o in out):
                out.append(c)
        out.sort()
    return out


def _changes(t: np.ndarray, d: np.ndarray, m: np.ndarray, window_s: float, min_s: float,
             ratio: float, share: float, drops: bool, merge: int = 0,
             whole: list | None = None, steady: float | None = None
             ) -> list[tuple[float, float, float, float]]:
    """The changes at the steps of the rolling median `m`. `merge`: steps fewer frames apart
    are one (a jittered median crosses over a step in a few moves), placed where the median
    crosses the geometric middle of its values before and after. `whole` receives the
    whole-number steps a file that drops repeats leaves out (as (time, before, after, frame)),
    and the changes, so that `_lasting` can tell which one is the file's last. `steady`: a
    step above it and up to `ratio` is a change where both stretches are steady (`_steady`)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        step = np.abs(np.log(m[1:] / m[:-1]))
    cand = (np.nonzero(step > np.log(1.1))[0] + 1)[:_MAX_CANDIDATES]
    if merge and cand.shape[0]:
        cand = _merged(cand, m, merge, ratio)
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
        if merge:  # the jitter pass: clocks, the frames next to the step left out
            h = merge // 4
            if c - lo < h + 5 or hi - c < h + 5:
                continue
            a, b = _clock(t[lo:c - h + 1], share), _clock(t[c + h:hi + 1], share)
            if a is not None and b is not None:
                t0 = _crossing(t[lo:c - h + 1], t[c + h:hi + 1], lo, c + h, t0)
        else:
            a, b = _regular(d[lo:c], share), _regular(d[c:hi], share)
        if a is None or b is None:
            continue
        if max(a, b) / min(a, b) <= ratio:
            if steady is None or merge:
                continue
            a, b = _steady(d[lo:c], share), _steady(d[c:hi], share)
            if a is None or b is None or max(a, b) / min(a, b) <= steady:
                continue
        if drops and _whole(max(a, b) / min(a, b)):
            if whole is not None:
                whole.append((t0, a, b, c))
            continue  # the content's step in a file that drops repeats (module doc)
        out.append((t0, a, b, float(t[hi])))
        if whole is not None:
            whole.append((t0, a, b, -1))
    return out


def _steady(sel: np.ndarray, share: float) -> float | None:
    """The interval of a steady stretch (`share` of its intervals within STEADY_SLACK of
    their median, or of a millisecond clock's rounding: 16 and 17 ms at 60 fps), the mean of
    those; else None. A capture's own clock keeps to its rate this closely; a recorder that
    follows the content (VFR) or jitters does not."""
    m = float(median(sel))
    near = np.abs(sel - m) <= max(STEADY_SLACK * m, STEADY_TICK_S)
    if m <= 0 or np.mean(near) < share:
        return None
    return float(np.mean(sel[near]))


def _lasting(t: np.ndarray, d: np.ndarray, steps: list,
             share: float) -> list[tuple[float, float, float, float]]:
    """The whole-number fall among `steps` (from `_changes`: -1 marks a reported change) that
    is the file's last step and whose slower rate holds to the end: `share` of the intervals
    from it to the end within 10 % of a whole multiple (1, 2...) of the slower interval, none
    shorter (a game that draws every 2nd frame for a while draws at the full rate again, as
    Space Invaders does 3.2 s after its second fall). A recorder that changes to half its
    rate for the rest of the file writes that; so does a game that draws every 2nd frame to
    its end: the pictures cannot tell (module doc), so it is a note, not a warning."""
    if not steps or steps[-1][3] < 0:
        return []
    t0, a, b, c = steps[-1]
    rest = d[c:]
    if b <= a or rest.shape[0] < 2 * MEDIAN_FRAMES or float(t[-1]) - t0 < 2.0:
        return []
    k = rest / b
    near = (np.round(k) >= 1) & (np.abs(k - np.round(k)) <= 0.1)
    if np.mean(near) < share:
        return []
    return [(t0, a, b, float(t[-1]))]


def _merged(cand: np.ndarray, m: np.ndarray, merge: int, ratio: float) -> np.ndarray:
    """One step per group of steps fewer than `merge` frames apart whose median moves by
    more than `ratio` over the group (a jittered median wavering at one level is no step)."""
    groups = np.split(cand, np.nonzero(np.diff(cand) > merge)[0] + 1)
    out = []
    for g in groups:
        a, b = float(m[int(g[0]) - 1]), float(m[int(g[-1])])
        if a <= 0 or b <= 0 or max(a, b) / min(a, b) <= ratio:
            continue
        mid = np.sqrt(a * b)
        seg = m[int(g[0]):int(g[-1]) + 1]
        crossed = np.nonzero((seg < mid) if b < a else (seg > mid))[0]
        out.append(int(g[0]) + (int(crossed[0]) if crossed.shape[0] else 0))
    return np.asarray(out, dtype=np.int64)


def _crossing(before: np.ndarray, after: np.ndarray, i: int, j: int, t0: float) -> float:
    """Where the clock fitted to `before` (frames from `i`) meets the one fitted to `after`
    (frames from `j`): the time of the change, a jittered frame's own time being off by up to
    30 % of an interval. `t0` when they do not meet between the two stretches."""
    s1, a1 = np.polyfit(np.arange(i, i + before.shape[0], dtype=np.float64), before, 1)
    s2, a2 = np.polyfit(np.arange(j, j + after.shape[0], dtype=np.float64), after, 1)
    if s1 == s2:
        return t0
    k = (a2 - a1) / (s1 - s2)
    if not i <= k <= j + after.shape[0]:
        return t0
    return float(a1 + s1 * k)


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
