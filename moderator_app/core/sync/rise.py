"""A screen that moves on its own: the change that rises above the tile's own recent motion.

An onset (core/sync/reactions.py) is a tile that starts changing after 50 ms of stillness.
On a screen that moves all the time the controlled motion starts in tiles that are already
moving: Private Eye's street is animated at 15 Hz between presses (a tile changes every
other frame) and scrolls while the car drives (the same tiles change every frame, 2-3x as
many points), so a press makes almost no onset (at the true offset the onsets' fit stands
1.4 spreads over other offsets). What the press changes is the motion's level: the tile's
changed points rise above the most it changed over its last RISE_FRAMES frames (the
animation's period and more) by RISE_FACTOR and RISE_POINTS. `rising(sig)` keeps those
rises as the tiles' signal, so the whole analysis (onsets of rises, the learned fit, the
shuffled-log test, the track and its findings) runs on the motion's level changes
unchanged; the whole picture's change stays the splice's and the freeze's measure
(`FrameSignals.whole`). `out_of_phase(sig)` measures the rise against the tile's own
animation phase instead (the count one period earlier): a scroll that starts on a frame
where the animation rests is a rise on its first frame, however many points it changes.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .local_findings import DRIFT_WEAK_CONFIDENCE, weak_line
from .records import SyncAnalysis, SyncFinding
from .signals import FrameSignals

RISE_FRAMES_S = 8 / 60   # the window of the tile's own recent motion
RISE_FACTOR = 1.3        # a rise: more than this times the window's most ... (13 / 10 below)
RISE_POINTS = 16         # ... plus this many changed points


CHUNK_FRAMES = 16384     # frames per block: a long video's temporaries stay a few MB


def rising(sig: FrameSignals) -> FrameSignals:
    """The signals with each tile's count kept where it rises above its recent motion
    (count > RISE_FACTOR x its most over the RISE_FRAMES_S before + RISE_POINTS), else 0.
    In whole numbers (10 x count > 13 x most + 160), block by block."""
    x = np.asarray(sig.tiles)
    p = max(1, int(round(RISE_FRAMES_S * sig.fps)))
    out = np.zeros_like(x)
    for a in range(0, len(x), CHUNK_FRAMES):
        lo, b = max(0, a - p), min(len(x), a + CHUNK_FRAMES)
        blk = x[lo:b].astype(np.int32)
        prev = np.zeros_like(blk)
        for i in range(1, min(p, len(blk)) + 1):
            np.maximum(prev[i:], blk[:-i], out=prev[i:])
        up = 10 * blk > 13 * prev + 10 * RISE_POINTS
        out[a:b] = np.where(up, blk, 0)[a - lo:]
    return FrameSignals(sig.times, out, sig.fps, whole=sig.picture_change)


# A tile's change predicted from its own animation phase (`out_of_phase`): the count PERIOD
# frames earlier, PERIOD the one of 1..PHASE_PERIODS that predicted the tile best over the
# PHASE_WINDOW_S before (Private Eye's street repeats every 2 frames at 30 fps, 4 at 60).
PHASE_PERIODS = 4
PHASE_WINDOW_S = 0.5


def out_of_phase(sig: FrameSignals) -> FrameSignals:
    """The signals with each tile's count kept where it rises above what the tile's own
    animation phase predicts, else 0. The prediction for frame t is the most the tile changed
    at t-p and t-2p, p the period (1..PHASE_PERIODS) whose prediction erred least (sum of
    |count - count p frames earlier|) over the PHASE_WINDOW_S before t; ties go to the
    shorter period, so a still tile predicts 0 and a scrolling one its last frame. A rise
    is RISE_FACTOR x that + RISE_POINTS, as in `rising`.

    Why not the most over the last frames (`rising`): a press that starts the scroll on a
    frame where the 15 Hz animation rests changes a tile the animation moved one frame
    earlier; against the window's most, it shows only when the scroll outgrows the
    animation, 0.6-9.9 frames later on Private Eye at 50 fps. Against its own phase it shows
    on its first frame: at the true offset of Private Eye at 30 fps (AV1) 17 of 22 presses
    measured, 12 of them within a frame of the truth's first change (rises: 11, 3 of them;
    onsets: 1)."""
    x = np.asarray(sig.tiles)
    n = len(x)
    w = max(2, int(round(PHASE_WINDOW_S * sig.fps)))
    back = w + 2 * PHASE_PERIODS
    out = np.zeros_like(x)
    for a in range(0, n, CHUNK_FRAMES):
        lo, b = max(0, a - back), min(n, a + CHUNK_FRAMES)
        blk = x[lo:b].astype(np.int32)
        m = len(blk)
        best = pred = None
        run = np.zeros((m + 1, blk.shape[1]), np.int32)
        for p in range(1, min(PHASE_PERIODS, m - 1) + 1):
            guess = np.zeros_like(blk)
            guess[p:] = blk[:-p]                                   # t - p (0 before the start)
            np.cumsum(np.abs(blk - guess), axis=0, out=run[1:])
            np.maximum(guess[2 * p:], blk[:-2 * p], out=guess[2 * p:])  # ... and t - 2p
            err = run[:m].copy()      # |count - count p earlier| over the w frames before
            if m > w:
                err[w:] -= run[:m - w]
            if best is None or pred is None:
                best, pred = err, guess
            else:
                better = err < best
                np.copyto(best, err, where=better)
                np.copyto(pred, guess, where=better)
        if pred is None:
            continue
        up = 10 * blk > 13 * pred + 10 * RISE_POINTS
        out[a:b] = np.where(up, blk, 0)[a - lo:]
    return FrameSignals(sig.times, out, sig.fps, whole=sig.picture_change)


def drift_of(a: SyncAnalysis, silent: SyncAnalysis) -> list[SyncFinding]:
    """The drift the rises' reading `a` finds (its `sync.drift`), when `silent` has none, its
    line is no weak one (`local_findings.weak_line`) and its confidence reaches
    DRIFT_WEAK_CONFIDENCE whatever share of the presses it answers (a reading tried after
    every other found nothing is a wider search, as the band's over speeds: session 29's
    drift section). Corpus Space Invaders with a genuine pause: the whole picture's rises as
    one tile read a false -3.75 % at 0.214; the speed runs read so stand 0.29-0.35. Why: a drift is the slope of the
    presses' line, not its offset, so the rises' lag after a press's first change (0 to 4 frames, why their
    offset is not suggested) does not move it. QA s29 T4: Turmoil sped up 3.3 % at 36 fps
    (FFV1), where no onset reading suggests an offset: its rises read +3.25 % at 8x8 (its
    line through the presses significant over shuffled logs at every speed), said nothing."""
    if any(f.rule == "sync.drift" for f in silent.findings) or weak_line(a) or \
            a.confidence < DRIFT_WEAK_CONFIDENCE:
        return []
    return [replace(f, message=f"{f.message} (read on the screen's motion rises, at the "
                    f"offset they single out, {a.suggested_offset_s:.3f} s, not suggested)")
            for f in a.findings if f.rule == "sync.drift"]
