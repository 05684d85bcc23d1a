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
(`FrameSignals.whole`).
"""

from __future__ import annotations

import numpy as np

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
