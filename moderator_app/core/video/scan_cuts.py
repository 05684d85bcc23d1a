"""`video.cut` candidates of the integrity scan (scan.py: the rule, its spans): isolated peaks of
change far above the local motion level, or in busy content a share of changed points standing
out of its local distribution; a game recorded as a window of the screen judged on its own
tiles; a full-picture flash that comes back, a change the game repeats or a train of changes
is none. Apart from scan.py because the rule is a study of its own (docs/DECISIONS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from moderator_app.core.thresholds import ScanThresholds

from .middle import median, union
from .scan_cut_jumps import JUMP_APART_S, jump_candidates
from .scan_cut_steps import step_candidates

if TYPE_CHECKING:
    from .scan import FrameSignals


def cut_candidates(sig: FrameSignals, th: ScanThresholds) -> list[tuple[float, str]]:
    """Isolated peaks of change: far above the local motion level, or, where motion saturates
    (busy content), a share of changed points that stands out of its local distribution."""
    m = sig.motion
    n = m.shape[0]
    ctx = th.cut_context_frames
    if n < 2 * ctx + 1:
        return []
    clean = np.where(np.isfinite(m), m, 0.0)
    changed = np.where(np.isfinite(sig.changed), sig.changed, 0.0)
    half = th.cut_window_frames
    found: list[tuple[int, str]] = []
    cand = np.nonzero(clean > th.cut_min_motion)[0]
    window = _game_window(sig, th)
    if window is not None:
        # The game is a window of a screen capture (a desktop, black bars): its change is
        # diluted by the still picture around it, so the window's own tiles are judged. A cut
        # changes most of the window at once; a sprite that jumps (a wrap-around, a respawn)
        # changes a few tiles of it
        tiles = np.nan_to_num(sig.tiles[:, window], nan=0.0)
        clean = tiles.mean(axis=1)
        changed = changed * (window.size / max(int(window.sum()), 1))
        wide = (tiles > WINDOW_TILE_MOVED).mean(axis=1) >= WINDOW_CUT_SHARE
        cand = union(cand, np.nonzero((tiles.max(axis=1) > th.cut_min_motion) & wide)[0])
    flashes = 0
    for i in cand[(cand >= ctx) & (cand < n - ctx)]:
        before = clean[max(1, i - half):i]
        after = clean[i + 1:min(n, i + half + 1)]
        level = max(float(median(before)) if before.shape[0] else 0.0,
                    float(median(after)) if after.shape[0] else 0.0, 1.0)
        peak = max(clean[i - 1] if i >= 1 else 0.0, clean[i + 1] if i + 1 < n else 0.0)
        if clean[i] > th.cut_ratio * level and clean[i] > 1.5 * peak:
            what = f"change {clean[i]:.1f} against a local level of {level:.1f}"
        elif (outlier := _changed_outlier(sig, changed, int(i), th)) is not None:
            what = (f"{100 * changed[i]:.0f} % of the picture changed against "
                    f"{100 * outlier:.0f} % around it")
        else:
            continue
        if flashes < FLASH_CHECKS_MAX:
            flashes += 1
            if _flash(sig, int(i), th):
                continue
        found.append((int(i), what))
    # a splice of the same scene, under the floor: a step the file's own changes do not make
    # (scan_cut_steps.py; never a lighting step, so no flash)
    seen = {i for i, _ in found}
    found += [c for c in step_candidates(sig, th, clean, window) if c[0] not in seen]
    # ... or where the motion breaks: moving things vanish and appear elsewhere at once
    # (scan_cut_jumps.py), unless a candidate beside it says so already
    t = sig.times_s
    found += [c for c in jump_candidates(sig, th, clean)
              if all(abs(float(t[c[0]]) - float(t[i])) > JUMP_APART_S for i, _ in found)]
    found.sort()
    out: list[tuple[float, str]] = []
    for i, what in _merged(sig, _lone(sig, _unique(sig, found), clean), clean):
        t0 = float(sig.times_s[i])
        out.append((t0, f"possible hard cut at {t0:.3f} s (frame {i}): {what}"))
    return out[:200]


# Candidates within this many seconds of a group's first are one change's frames (the step and
# jump rules' STEP_APART_S, the trains' TRAIN_S): one note, at the largest change, saying how
# many more. Beam Rider's explosion at 48 fps was two notes 2 frames apart; Solaris' warp
# three in 0.26 s (the sweep's honest runs: corpus 69 notes -> 65, QA s26-s31 85 -> 74, no
# splice found fewer)
MERGE_S = 0.5


def _merged(sig: FrameSignals, found: list[tuple[int, str]],
            change: np.ndarray) -> list[tuple[int, str]]:
    """One candidate per group of candidates within MERGE_S of the group's first: the one of
    the largest change (`change`: as the cut rule measured it), saying how many more the
    group held. Every candidate of a group is within MERGE_S of its note."""
    t = sig.times_s
    groups: list[list[tuple[int, str]]] = []
    for c in sorted(found):
        if groups and float(t[c[0]]) - float(t[groups[-1][0][0]]) < MERGE_S:
            groups[-1].append(c)
        else:
            groups.append([c])
    out = []
    for g in groups:
        i, what = max(g, key=lambda c: (float(change[c[0]]), -c[0]))
        if len(g) > 1:
            what += f" (and {len(g) - 1} more such change{'s' if len(g) > 2 else ''} " \
                    f"within {MERGE_S} s)"
        out.append((i, what))
    return out


# A candidate with this many others within TRAIN_S (s) either side is a frame of a train of
# changes, the game's effect (Beam Rider's explosion: 6 candidates in 0.6 s at 42.8-43.4 s of
# each honest recording; the sweep's genuine videos, after _unique: 113 candidates -> 26, the
# 5 splices found kept), not a cut: a cut joins two moments once, its neighbours no candidates
TRAIN_OTHERS = 3
TRAIN_S = 0.5
# ... unless it is the train's one change that stands out of it (session 30): its change at
# least TRAIN_STANDS times every other candidate's within TRAIN_S, or its share of the
# picture's points changed at least TRAIN_WIDER times theirs (a hard cut beside an
# explosion or a forger's flickers changes the whole picture, they a part of it: 83 % against
# 39-52 % in tests/video/test_video_scan_cut_trains.py). The sweep's 9 honest trains, all
# Beam Rider's whole-screen explosion, stand at 1.01-1.67x and 1.01-1.02x
TRAIN_STANDS = 2.0
TRAIN_WIDER = 1.5
# ... judged in a train of at most this many candidates (a denser one, a hostile file's
# thousand a second, is an effect: dropped, in bounded time)
TRAIN_JUDGED_MAX = 48


def _lone(sig: FrameSignals, found: list[tuple[int, str]],
          change: np.ndarray) -> list[tuple[int, str]]:
    """The candidates that are not a frame of a train of TRAIN_OTHERS + 1 or more within
    TRAIN_S either side of it, and the one of a train that stands out of it (`_stands`): a
    hard cut joins two moments once, changing the whole picture, where the effect beside it
    changes a part of it or less strongly.
    `change`: each frame's change as the cut rule measured it (motion energy, or the game
    window's)."""
    if len(found) <= TRAIN_OTHERS:
        return found
    t = np.asarray(sig.times_s, np.float64)[[i for i, _ in found]]
    order = np.argsort(t, kind="stable")
    ts = t[order]
    lo = np.searchsorted(ts, t - TRAIN_S, side="left")
    hi = np.searchsorted(ts, t + TRAIN_S, side="right")
    share = np.nan_to_num(sig.changed, nan=0.0)
    frames = [i for i, _ in found]
    out = []
    for k, c in enumerate(found):
        if hi[k] - lo[k] - 1 < TRAIN_OTHERS:
            out.append(c)
            continue
        if hi[k] - lo[k] > TRAIN_JUDGED_MAX:
            continue
        others = [int(j) for j in order[lo[k]:hi[k]] if int(j) != k]
        if _stands(frames, k, others, change, share):
            out.append(c)
    return out


def _stands(frames: list[int], k: int, others: list[int], change: np.ndarray,
            share: np.ndarray) -> bool:
    """Whether candidate k of a train is a change of its own (`_lone`): TRAIN_STANDS times
    every other's change, or TRAIN_WIDER times every other's share of points changed
    (`share`: the scan's, per frame)."""
    at = [frames[j] for j in others]
    if float(change[frames[k]]) >= TRAIN_STANDS * float(np.max(change[at])):
        return True
    return float(share[frames[k]]) >= TRAIN_WIDER * max(float(np.max(share[at])), 1e-6)


# A candidate whose 8x8 change pattern comes back at this many other candidates is the game's
# own effect: Kaboom!'s four-frame flash, every time a bomb is caught, was 16-32 candidates on
# each honest 40 s run (the sweep's 15 genuine Kaboom! runs: 363 of the 482 candidates on its
# 196 honest videos). Two, not one: an insertion's two edges change the same tiles by the
# same amounts when the footage either side of it is the same calm picture (|A-S| = |S-A|)
RECUR_MATCHES = 2
# ... the patterns are the same within this share of their change (L1 over the mean of the
# two sums): the flash's repeats at 0.00-0.03; the two edges of the sweep's insertions (any
# frames within 2 of each) 0.11 and more, but Video Pinball's at 20 fps 0.003: one match, kept
RECUR_DISTANCE = 0.05
# ... counted only at candidates this far apart (s): a match closer is the same event's frames
RECUR_APART_S = 1.0
# ... among this many candidates at most (pairs compared: a hostile file of 5,000 candidates
# keeps its later ones unjudged, in bounded time)
RECUR_CHECKS_MAX = 1000


def _unique(sig: FrameSignals, found: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The candidates whose change is not the game's own recurring effect: a flash, an
    explosion or a screen the game redraws the same way at each event changes the same tiles
    by the same amounts each time, while a hard cut joins two moments that the recording
    never joins again. A candidate whose 8x8 change pattern (the scan's tile motion) comes
    back at RECUR_MATCHES other candidates, RECUR_APART_S or more away, within
    RECUR_DISTANCE, is dropped."""
    tiles = sig.tiles
    k = min(len(found), RECUR_CHECKS_MAX)
    if k <= RECUR_MATCHES or tiles.ndim != 3:
        return found
    idx = np.array([i for i, _ in found[:k]])
    v = np.nan_to_num(tiles[idx].reshape(k, -1).astype(np.float64), nan=0.0)
    mass = v.sum(axis=1)
    t = np.asarray(sig.times_s, np.float64)[idx]
    recurs = np.zeros(k, bool)
    for a in range(k):
        dist = np.abs(v - v[a]).sum(axis=1) / np.maximum((mass + mass[a]) / 2, 1e-9)
        same = (dist <= RECUR_DISTANCE) & (np.abs(t - t[a]) >= RECUR_APART_S)
        recurs[a] = int(same.sum()) >= RECUR_MATCHES
    return [c for c, r in zip(found[:k], recurs, strict=True) if not r] + found[k:]


# A tile of a game window "moved" at a frame when its motion passes this (of 255): codec noise
# on a still picture stays near 0-1
WINDOW_TILE_MOVED = 2.0
# ... and a cut moves this share of the window's tiles at once (a 320x240 game's cut in 1366x768:
# 8 of 8; a 24 px sprite wrapping around in a 16-tile strip: 4-8 of 16)
WINDOW_CUT_SHARE = 0.75
# ... and a window is one rectangle: its changing tiles fill this share of their bounding box
# (the QA windows: 8 of 8, 6 of 6; the bundled sample, a counter, a timer and a bar that
# flips every 4 s: 14 of 48, whose flips were 6 false cut candidates)
WINDOW_FILLED = 0.75


def _game_window(sig: FrameSignals, th: ScanThresholds) -> np.ndarray | None:
    """The tiles (8x8 mask) that ever change, when they are at most `cut_window_share` of the
    picture and fill a rectangle: a game captured as a window of a desktop, or inside black
    bars. None when the
    picture changes over most of its area (a game recorded alone), whose cuts are judged on
    the whole picture as before. A tile changes where its motion passes 1 (of 255) in more
    than 1 % of the frames: codec noise on a still desktop stays below."""
    tiles = sig.tiles
    if tiles.ndim != 3 or tiles.shape[0] < 2:
        return None
    active = (np.nan_to_num(tiles, nan=0.0) > 1.0).mean(axis=0) > 0.01
    if not active.any() or active.mean() > th.cut_window_share:
        return None
    rows, cols = np.nonzero(active.any(axis=1))[0], np.nonzero(active.any(axis=0))[0]
    box = (rows[-1] - rows[0] + 1) * (cols[-1] - cols[0] + 1)
    if active.sum() < WINDOW_FILLED * box:
        return None  # changes here and there (an overlay's counter and bar), not one window
    return active


def _changed_outlier(sig: FrameSignals, changed: np.ndarray, i: int,
                     th: ScanThresholds) -> float | None:
    """The local median share of changed points when frame i's share stands out of the local
    distribution (a cut in busy content; see ScanThresholds.cut_spread), else None. Not across
    a timestamp hole: the change there is the timestamp rules' to judge (a gap, or a VFR
    hold), and a frame after a hole is no cut candidate."""
    t = sig.times_s
    if t[i] - t[i - 1] > 1.5 * sig.frame_duration_s:
        return None
    half = th.cut_window_frames
    window = np.concatenate((changed[max(1, i - half):max(1, i - 1)],
                             changed[i + 2:i + half + 2]))
    if window.shape[0] < 4:
        return None
    med = float(median(window))
    p10, p90 = np.percentile(window, [10, 90])
    spread = max(float(p90 - p10), 0.1 * med, 0.01)
    if changed[i] > th.cut_spread_isolation * max(changed[i - 1], changed[i + 1]) and \
            changed[i] - med > th.cut_spread * spread:
        return med
    return None


# A step inside a flash whose motion energy is at most this (of 255) is codec noise or a sprite
# (Bank Heist's flash frames: 0.0-0.3), judged with the flash whichever way it goes
FLASH_STILL_MOTION = 1.0
# ... and the picture is back when this share of its 8x8 tiles is: a 16 px sprite moving 2 px a
# frame through a 0.1 s flash leaves its tile 10-25 levels off (of an 86-level flash); a splice
# behind a dip to white, 37 % of the tiles back
FLASH_BACK_TILES = 0.9
# Candidates judged for a flash at most (each walks up to flash_return_s of frames): a file of
# nothing but flashes keeps its later ones as candidates (200 notes at most) in bounded time
FLASH_CHECKS_MAX = 5000


def _flash(sig: FrameSignals, i: int, th: ScanThresholds) -> bool:
    """Whether the change at frame i is a flash: the whole picture brightening or darkening
    at once (its mean luminance moves by `flash_uniform_share` of its motion energy or more,
    which only a change of every point the same way gives), then coming back, step by uniform
    step, to the picture before it within `flash_return_s`. "Back" is judged on the 8x8 tiles:
    in a uniform step a tile's motion is the size of its mean's move, so the signed sum of
    the steps is each tile's move since frame i-1; back is FLASH_BACK_TILES of the tiles within
    `flash_return_share` of the flash's largest tile excursion (a sprite that moved on during
    the flash is not the picture changing). A hard cut changes some points up and others down
    (a scene, not a lighting), and its picture does not come back; a cut hidden behind a flash
    to a plain colour, into footage whose tiles are back as said, is the same picture at this
    resolution (a splice of the same game in another state: the sync analysis's, as every
    game splice)."""
    m, luma, tiles = sig.motion, sig.luma, sig.tiles
    n = m.shape[0]
    if tiles.ndim != 3 or i < 1 or not (np.isfinite(m[i]) and m[i] > 0):
        return False
    step = float(luma[i] - luma[i - 1])
    if abs(step) < th.flash_uniform_share * float(m[i]):
        return False
    end = float(sig.times_s[i - 1]) + th.flash_return_s
    net = np.zeros(tiles.shape[1:], np.float64)
    peak = 0.0
    for k in range(i, n):
        if float(sig.times_s[k]) > end:
            return False
        mk, tk = float(m[k]), tiles[k]
        if not (np.isfinite(mk) and np.isfinite(tk).all()):
            return False  # a size change: nothing to compare
        dk = float(luma[k] - luma[k - 1])
        if mk > FLASH_STILL_MOTION and abs(dk) < th.flash_uniform_share * mk:
            return False  # the content changed, not the lighting
        net += tk if dk >= 0 else -tk
        away = np.abs(net)
        peak = max(peak, float(away.max()))
        if k > i and np.mean(away <= th.flash_return_share * peak) >= FLASH_BACK_TILES:
            return True
    return False
