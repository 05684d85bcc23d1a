"""How a held picture ends: with footage that resumes elsewhere, or with the game moving again.

An inserted freeze replaces seconds of footage with one picture held. Where the footage comes
back, the game has moved on by all those seconds: the first frames after the held picture
change at least as much as the picture usually changes from one frame to the next. A game's
own pause ends with the game moving again, and that can start small. Kung-Fu Master holds an
empty floor for 4.75 s after Thomas dies, then he walks in from the edge of the screen
(QA session 16, J3): 6 and then 25 sample points change, against a median of 156 a frame
once he walks. That genuine run got a `video.frozen` warning and a `sync.no_reaction`
warning.

The test (`resumes_gradually`) is one-sided: a held picture that ends with a jump is still
reported, whatever made it; this only clears one that ends in a small change. A game that
redraws its screen after a pause still gets its warning.
"""

from __future__ import annotations

import numpy as np

from .middle import median

RESUME_FRAMES = 2     # the first changed frames after the held picture (one may be codec noise)
RESUME_AFTER_S = 2.0  # the picture's usual change: its changed frames this long after them
# The first frames change less than this share of the usual change (the median: a flashing
# screen after Kangaroo's freeze puts its 90th percentile at 100x it). The 27 inserted freezes
# of the real-game corpus and QA sessions 14-16 (sync's sample points; the scan's shares):
# at least 0.78 (the scan's Breakout; Adventure at 25 fps, only the player's square moving:
# 0.96); Kung-Fu Master's own pause after Thomas dies: 0.16 (0.17 in the scan's).
RESUME_RATIO = 0.4


def resumes_gradually(change, last: int, fps: float, ratio: float = RESUME_RATIO,
                      frames: int = RESUME_FRAMES) -> bool:
    """Does the picture held up to frame `last` (an unchanged frame) resume with a change
    smaller than `ratio` of its usual change after (the median of its changed frames
    in RESUME_AFTER_S)? Its first `frames` changed frames from the first after `last`
    that changes. `change`: per frame, how much of the picture changed since the frame
    before (any unit, 0 for none). False when there is nothing after it to compare with."""
    c = np.nan_to_num(np.asarray(change, float))
    moved = np.nonzero(c[last + 1:] > 0)[0]
    if not len(moved):
        return False
    k = last + 1 + int(moved[0])  # the first changed frame (a stretch may end before it)
    first = c[k:k + frames]
    after = c[k + frames:k + frames + max(1, int(round(RESUME_AFTER_S * fps)))]
    moving = after[after > 0]
    if not len(first) or not len(moving):
        return False
    return float(first.max()) < ratio * float(median(moving))


def held_resumes_gradually(change, first: int, last: int, fps: float) -> bool:
    """`resumes_gradually` for a picture held on frames first..last (the scan's held
    stretch, which may count frames of small changes as held): from its last frame that
    did not change at all."""
    c = np.asarray(change, float)
    still = np.nonzero(np.nan_to_num(c[first:last + 1], nan=1.0) == 0)[0]
    return resumes_gradually(c, first + int(still[-1]) if len(still) else last, fps)
