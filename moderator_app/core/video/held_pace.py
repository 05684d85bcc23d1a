"""The pace of a held picture's life, shared by the full-resolution readings of it: its
changes (held_finer.py) and its colours' turns (held_colour.py). Apart so that both read one
`rhythm` and one keyframe rule without importing each other."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

# A change inside a held picture (held_finer.py) counts not within this many frames after a
# keyframe in a stream with inter frames (its refinement: the Ms. Pac-Man freeze's frame after
# each keyframe)
AFTER_KEY = 2
# a stream whose frames are mostly keyframes is intra-coded: its keyframes are its frames
INTRA_SHARE = 0.5
# Changes this soon after the hold's first frame split nothing: the codec settles on the
# picture after the jump into it (an edited freeze's first frames: 0.02-0.08 s in the
# corpus' Space Invaders freeze, up to 0.17 s in QA s32's Crossbow in H.263), so a freeze
# only a little longer than the rule's 3 s is not cut under it by them
SETTLE_S = 0.3
# A picture still to the end of the footage (`ends`) lives when its `rhythm` at full
# resolution is under this (QA s36's Video Checkers: a cursor blinking every 0.27 s, its
# genuine run's longest gap 0.52 s; Adventure's player, still 1-5 s between moves, 1.7 s) ...
LIVING_GAP_S = 1.0
# ... and at least this many times after the change that ends the held stretch (a change or
# two after it is a game's next screen, not a rhythm resumed)
LIVING_AFTER = 3


def intra_coded(keys: Sequence[int] | np.ndarray) -> bool:
    """Is a stream whose frames are keyframes as `keys` says intra-coded: `INTRA_SHARE` or
    more of them keyframes (MJPEG, FFV1, ffvhuff, ASV2: every frame coded afresh, so a
    keyframe says nothing of a codec's refinement)?"""
    k = np.asarray(keys, bool)
    return k.shape[0] > 0 and float(k.mean()) >= INTRA_SHARE


def rhythm(gaps: Sequence[float], freeze_s: float) -> float:
    """The pace a picture lives at between its held stretches: of the `gaps` between its
    changes shorter than `freeze_s`, the one the middle moment of their time lies in (their
    median weighted by length; inf when there is none). A burst of changes does not make it
    fast (Adventure's player moves a few frames 0.02-0.05 s apart, then stands 1-5 s: the
    plain median of its gaps is 0.04 s, this 1.5-1.8 s), nor do held stretches, one or
    several, make it slow (a cursor blinking every 0.27 s around two 4 s freezes: 0.27 s)."""
    living = sorted(g for g in gaps if g < freeze_s)
    total = float(sum(living))
    run = 0.0
    for g in living:
        run += g
        if run >= total / 2 and total > 0:
            return float(g)
    return float("inf")
