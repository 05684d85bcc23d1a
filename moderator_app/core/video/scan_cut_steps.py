"""`video.cut` candidates below the cut rule's motion floor: a splice of the same scene, found
as a step of the picture that stands out of the file's own steps (scan_cuts.py judges them
with its others: flashes, a change the game repeats, trains).

Why (session 31, QA s30 T8): a splice inside one game's footage changes little of the
picture. Kool-Aid Man with 8 s removed at 12.40 s changed 5 % of the points (the pool's
water line, the score, the sprites: mean change 3.7 of 255, 10x the local level) and the
cut rule's floor (`cut_min_motion`, 20) never looked at it, while the game's own screen
change at 4.13 s (33) was reported. No absolute floor separates such a splice from a game's
events (a sprite that jumps, a score that changes: the corpus' splices and honest events
overlap, bench/cut_table.py), so the floor here is relative: the file's own events are the
null model.

A *step* is what changed at a frame where the picture held still the half second either side
(`step_mass`): per 8x8 tile, its change beyond the largest change of that tile in the
`cut_window_frames` before and after it (a sprite moving through a tile changes it every
frame, so its move is no step; a splice moves every object at once, and what moves slowly or
never, a water line or a score, jumps). An *event* is a frame whose motion energy is an
isolated peak (the cut rule's test without its floor: `cut_ratio` times the local level,
1.5x its neighbours). An event is a candidate when its step is at least STEP_MIN and
STEP_RATIO times the file's second largest step elsewhere (any frame's, one a change; the
largest is passed over: an insertion's other edge): a change the game makes once in the
file, far above every other change it makes but one. A lighting step (the mean luminance moving by
`flash_uniform_share` of the motion: every point the same way: a flash, a fade, a sky's
colour) is no event and no part of any reference here: a burst of flashes around a cut
neither hides it nor sets the file's bar (the flash rule judges those)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from moderator_app.core.thresholds import ScanThresholds

from .middle import median

if TYPE_CHECKING:
    from .scan import FrameSignals

#: A candidate's step is at least this (of 255, over the picture's 64 tiles): codec noise on
#: a still picture steps 0.0-0.1; QA s30's Kool-Aid Man splice 2.6
STEP_MIN = 0.5
#: ... and this many times the file's second largest other step (of any frame, more than
#: STEP_APART_S away; one step a change): the splice above stands 2.7x over the game's own
#: next but one (0.96, a recurring drop of the water line)
STEP_RATIO = 2.5
#: Events judged at most (the largest steps first): a hostile file's every frame an isolated
#: peak is judged in bounded time
STEP_EVENTS_MAX = 4000
#: Other events this close (s) are the same change's (scan_cuts.TRAIN_S): not its reference
STEP_APART_S = 0.5
#: A change of less motion than this (of 255) is no lighting step, however uniform
#: (scan_cuts' FLASH_STILL_MOTION: codec noise)
LIT_MOTION_MIN = 1.0


def lighting(sig: FrameSignals, th: ScanThresholds) -> np.ndarray:
    """Frames whose change is a lighting step: the mean luminance moved by
    `flash_uniform_share` of the motion energy or more (every point the same way)."""
    m = np.asarray(sig.motion, np.float64)
    m = np.where(np.isfinite(m), m, 0.0)
    step = np.zeros(m.shape[0])
    if m.shape[0] > 1:
        with np.errstate(invalid="ignore"):
            step[1:] = np.abs(np.diff(np.asarray(sig.luma, np.float64)))
    step = np.where(np.isfinite(step), step, 0.0)
    lit = m > LIT_MOTION_MIN
    lit[lit] = step[lit] >= th.flash_uniform_share * m[lit]
    return lit


def step_candidates(sig: FrameSignals, th: ScanThresholds, change: np.ndarray,
                    window: np.ndarray | None) -> list[tuple[int, str]]:
    """(frame, what) of each event whose step stands out of the file's own (module
    docstring), its change under the cut rule's floor (`cut_min_motion`: above it that rule
    judges it). `change`: each frame's change as the cut rule measures it (motion energy, or
    the game window's); `window`: the game window's 8x8 tile mask (scan_cuts._game_window),
    or None: the whole picture."""
    n = change.shape[0]
    ctx, half = th.cut_context_frames, th.cut_window_frames
    tiles = sig.tiles
    if n < 2 * ctx + 1 or tiles.ndim != 3 or tiles.shape[0] != n:
        return []
    finite = np.isfinite(np.asarray(sig.motion, np.float64)) & np.isfinite(change)
    lit = lighting(sig, th)
    ok = finite & ~lit
    clean = np.where(ok, change, 0.0)
    t = np.asarray(sig.times_s, np.float64)
    grid = tiles.reshape(n, -1)
    if window is not None:
        grid = grid[:, window.reshape(-1)]
    # a frame's step beyond what the picture did around it but for lighting steps (a flash
    # burst around a cut neither hides it), and, for the file's bar, a lighting step's own
    # beyond everything around it: a flash and its return are steps of each other (none),
    # a lighting change that stays (a respawn's new screen, 0.84-0.92 of its motion uniform
    # in River Raid) is the game's own change, as large as a splice
    step = steps(grid, half, ok)
    if lit.any():
        step[lit] = steps(grid, half, finite)[lit]
    step[~finite] = 0.0
    step[:ctx] = step[n - ctx:] = 0.0
    hole = np.zeros(n, bool)
    hole[1:] = np.diff(t) > 1.5 * sig.frame_duration_s  # the timestamp rules' (a VFR hold)
    peak = np.zeros(n, bool)
    peak[1:-1] = (clean[1:-1] > th.cut_ratio) & (clean[1:-1] > 1.5 * clean[:-2]) & \
        (clean[1:-1] > 1.5 * clean[2:]) & (clean[1:-1] <= th.cut_min_motion)
    peak &= ok & ~hole & (step >= STEP_MIN)
    idx = np.nonzero(peak)[0]
    if idx.shape[0] > STEP_EVENTS_MAX:
        idx = np.sort(idx[np.argsort(-step[idx], kind="stable")[:STEP_EVENTS_MAX]])
    peaks = _peaks(step, t, 4)  # at most two lie within STEP_APART_S of a frame
    out: list[tuple[int, str]] = []
    for i in (int(j) for j in idx):
        bar = _bar(step, peaks, t, i)
        if step[i] < STEP_RATIO * bar:
            continue
        near = np.r_[max(1, i - half):i, i + 1:min(n, i + half + 1)]
        near = near[ok[near]]
        before, after = near[near < i], near[near > i]
        level = max(float(median(clean[before])) if before.shape[0] else 0.0,
                    float(median(clean[after])) if after.shape[0] else 0.0, 1.0)
        if clean[i] <= th.cut_ratio * level:
            continue
        than = (f"{step[i] / bar:.1f}x the file's next such step but one, {bar:.2f}"
                if bar >= 0.01 else "the file's other such steps but one under 0.01")
        out.append((i, f"change {clean[i]:.1f} against a local level of {level:.1f}, "
                       f"{step[i]:.2f} of it where the picture held still the {half} frames "
                       f"either side ({than})"))
    return out


#: Frames a step is computed over at once (`steps`): an hour at 60 fps is 216,000 frames of 64
#: tiles, 55 MB a copy in float32; a block of 8192 is 2 MB
STEP_BLOCK = 8192


def steps(grid: np.ndarray, half: int, around: np.ndarray) -> np.ndarray:
    """Each frame's step (module docstring): the mean over tiles of its change beyond that
    tile's largest change in the `half` frames before and after it (the frame itself left
    out), of the frames `around` says (a mask: the others count as no change). `grid`:
    (frames, tiles) change per tile (NaN: none). Windowed maxima by doubling, O(frames x
    tiles x log half), in blocks of STEP_BLOCK frames (bounded memory)."""
    n = grid.shape[0]
    out = np.zeros(n)
    for a in range(0, n, STEP_BLOCK):
        b = min(n, a + STEP_BLOCK)
        lo, hi = max(0, a - half), min(n, b + half)
        g = np.array(grid[lo:hi], np.float32)
        g[~np.isfinite(g)] = 0.0
        ref = np.where(around[lo:hi, None], g, np.float32(0.0))
        most = np.maximum(_window_max(ref, half), _window_max(ref[::-1], half)[::-1])
        out[a:b] = np.clip(g - most, 0.0, None)[a - lo:b - lo].mean(axis=1)
    return out


def _window_max(x: np.ndarray, w: int) -> np.ndarray:
    """Row i: the column-wise maximum of rows max(0, i - w) .. i - 1 (zeros for row 0)."""
    n = x.shape[0]
    out = np.zeros_like(x)
    if n < 2 or w < 1:
        return out
    # m[j] = max of rows j .. j + span - 1 (the rows that exist), span doubled up to <= w
    m, span = x.copy(), 1
    while span * 2 <= w and span < n:
        np.maximum(m[:n - span], m[span:], out=m[:n - span])  # ascending: m[j + span] unread
        span *= 2
    # a whole window [i - w, i - 1] (i >= w) is two blocks of span rows: from i - w and from
    # i - span (w < 2 span); the first rows' shorter windows one by one
    if n > w:
        np.maximum(m[:n - w], m[w - span:n - span], out=out[w:])
    for i in range(1, min(w, n)):
        out[i] = x[:i].max(axis=0)
    return out


def _peaks(step: np.ndarray, t: np.ndarray, most: int) -> list[int]:
    """The file's `most` largest steps, each more than STEP_APART_S from a larger one (one
    change's frames are one step), largest first."""
    out: list[int] = []
    # the largest PEAK_FIRST steps first (a partition, not a sort of an hour's frames); all of
    # them, in order, only where those hold fewer than `most` apart
    k = min(step.shape[0], PEAK_FIRST)
    for order in (_largest(step, k), np.argsort(-step, kind="stable")):
        out = []
        for j in order:
            j = int(j)
            if step[j] <= 0.0 or len(out) >= most:
                break
            if all(abs(t[j] - t[u]) > STEP_APART_S for u in out):
                out.append(j)
        if len(out) >= most or k == step.shape[0]:
            break
    return out


#: Steps looked at first for the file's largest (`_peaks`)
PEAK_FIRST = 4096


def _largest(x: np.ndarray, k: int) -> np.ndarray:
    """The indices of x's k largest values, largest first (ties by index)."""
    if k <= 0:
        return np.zeros(0, np.int64)
    part = np.argpartition(-x, k - 1)[:k] if k < x.shape[0] else np.arange(x.shape[0])
    return part[np.lexsort((part, -x[part]))]


def _bar(step: np.ndarray, peaks: list[int], t: np.ndarray, i: int) -> float:
    """The file's second largest step more than STEP_APART_S from frame i (`peaks`: its
    largest steps, `_peaks`; the largest passed over: an insertion's other edge), 0 when there
    is none."""
    away = [j for j in peaks if abs(t[j] - t[i]) > STEP_APART_S]
    return float(step[away[1]]) if len(away) > 1 else 0.0
