"""Inserted footage that is a held picture: the jump dated at the picture (session 28,
issue 13, QA s27 T5).

An insertion of still footage (a pause screen, a title card, a game's own held picture
copied from elsewhere) answers no press: the presses expected on it at the offset before
the insertion show nothing, and those after it show `size` later. Where the picture is busy
the reading that finds the jump (the whole picture's track, the player's band at a given
offset) can line a few of the presses after the held picture up at the earlier offset by
chance, and so places the jump seconds after the insertion, while the held picture itself
is said apart as a frozen picture (`sync.no_reaction`, core/sync/freeze.py).

QA s27's Donkey Kong with 4 s inserted at video 15.8 s (a copy of the game's held opening,
AV1 at 20 fps), read at the truth + 0.1 s: the band kept 2.0 s for its presses up to run
24.37 s (3 of 7 after the insertion answered there by chance, by the barrels' rolling) and
said "+3.90 s near video 26.40 s", 10.6 s after the insertion, beside "the picture does not
change for 4.0 s while the log holds 2 actions" at 15.85-19.8 s. A held picture as long as
the jump, ahead of it, is that jump's footage: a freeze that replaces footage keeps the
offset (no jump), and a game's own hold is no jump of its length.

A jump dated where two frames `size` apart stand out as splices (`splices.splice_pair`)
stays there: that is the insertion's own footage, and a held picture of about its length
ahead of it is the game's. Wide video_chess-insert@r40xvidavi (4 s at video 20.50 s, the
board's whole picture still between moves): dated 20.50-24.50 s (75 points a frame at both
ends, 0 beside them), then moved onto the game's hold at 9.32-13.45 s (4.13 s), 11.2 s
early, over four presses answered at the earlier offset between them (session 33).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .freeze import still_spans
from .records import SyncAnalysis, video_order
from .signals import FrameSignals
from .splices import jump_finding, on_run_clock, splice_pair

RULE = "sync.offset_jump"
# A held picture is a jump's inserted footage when its length is the jump's size within
# this many video frames, or HELD_SIZE_S, whichever is more: the jump's size carries the
# error of the offset it is read from (a moderator's 0.1 s off: Donkey Kong's +3.90 s for a
# 4.0 s hold, 3.95 s long as the scan reads it).
HELD_SIZE_FRAMES = 2
HELD_SIZE_S = 0.15


def at_held(res: SyncAnalysis, sig: FrameSignals) -> SyncAnalysis:
    """`res` with each jump of inserted footage (size > 0) that does not overlap a held
    picture of its length moved onto the latest such picture ahead of it (ending at most a
    frame after the jump's start, inside the video), its run times on the clock its own
    were on, and the frozen-picture findings over that picture dropped (the jump names it).
    `res` itself when there is no such jump (genuine runs: no work)."""
    jumps = [j for j, f in enumerate(res.findings) if f.rule == RULE and f.size_s is not None
             and f.size_s > 0 and f.video_start_s is not None]
    if not jumps or sig.fps <= 0 or len(sig) < 3:
        return res
    spans = still_spans(sig)
    spans = spans[(spans[:, 0] > 0) & (spans[:, 1] < len(sig) - 1)] if len(spans) else spans
    if not len(spans):
        return res
    dt = 1.0 / sig.fps
    t = np.asarray(sig.times, float)
    v0, v1 = t[spans[:, 0]], t[spans[:, 1]] + dt
    found = list(res.findings)
    gone: set[int] = set()
    for j in jumps:
        f = found[j]
        size, vs = float(f.size_s or 0.0), float(f.video_start_s or 0.0)
        ve = float(f.video_end_s) if f.video_end_s is not None else vs
        fit = np.abs((v1 - v0) - size) <= max(HELD_SIZE_FRAMES * dt, HELD_SIZE_S) + 1e-9
        if np.any(fit & (v0 <= ve + dt) & (v1 >= vs - dt)):
            continue  # already at a held picture of its size
        k = int(np.searchsorted(t, vs - 1e-6))
        if splice_pair(sig.picture_change, sig.fps, np.arange(max(k - 1, 0), k + 2),
                       int(round(size * sig.fps))) is not None:
            continue  # dated at its own two splices, `size` apart (above)
        ahead = np.nonzero(fit & (v1 <= vs + dt))[0]
        if not len(ahead):
            continue
        k = int(ahead[-1])
        a, b = round(float(v0[k]), 3), round(float(v1[k]), 3)
        said = f.message.split("footage inserted?", 1)[1] if "footage inserted?" in \
            f.message else ""
        moved = jump_finding(size, a, b, 0.0, 0.0)
        moved = replace(moved, message=f"{moved.message}{said} (the held picture "
                        f"{a:.2f}-{b:.2f} s, as long as the jump; the presses after it "
                        f"were first read at the earlier offset up to video {vs:.2f} s)")
        if f.run_start_s is not None:
            moved = on_run_clock(moved, vs - float(f.run_start_s))
        found[j] = moved
        gone.update(i for i, g in enumerate(found) if g.rule == "sync.no_reaction"
                    and g.video_start_s is not None and g.video_end_s is not None
                    and a - dt - 1e-9 <= g.video_start_s and g.video_end_s <= b + dt + 1e-9)
    if found == list(res.findings):
        return res
    kept = [g for i, g in enumerate(found) if i not in gone]
    return replace(res, findings=sorted(kept, key=video_order))

