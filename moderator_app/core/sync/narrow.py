"""The picture's sprite-sized changes alone: the signals without the screen's own sweeps.

Why: the onsets (`reactions.novelty`) count a tile that starts to change after being still,
whatever changed in it. On a screen whose own motion sweeps whole rows (Beam Rider's beams:
horizontal lines running down the picture, each lighting all 8 tiles of a grid row every few
frames) or blinks a few sample points in a tile on a beat (the ship's 11-point flicker), the
sweeps and blinks start in every tile all the time: the ship's one-tile answer to a press is
one onset among many, the whole picture's fit stands 2.0 spreads over the other offsets, the
ship's row band 0.8 over its shuffled logs, and the run gets "not enough signal" though 21 of
its 24 presses show within a frame (session 25, `scripts/autosync_sweep.py`: 29 Beam Rider
runs, none suggested).

`narrowed(sig)`: the same counts with (a) a tile's change of fewer than FLOOR_POINTS sample
points dropped (a blink, not a sprite moving), then (b) every change of a frame dropped in a
grid row or column of which at least BROAD_TILES tiles changed in that frame (a sweep, a
scroll, a flash: the screen's, not a sprite's). What is left is what a sprite does: the
analysis of those signals stands the same shuffled-log test as any (`analysis._narrow`).
"""

from __future__ import annotations

import numpy as np

from .reading import analyze_at
from .signals import FrameSignals

# A tile's change under this many sample points (of the 8x8 tile's 512: 1/32 of it) is no
# sprite's move. Beam Rider's flicker: 11; its ship's first frame of a move: 106-134.
FLOOR_POINTS = 16
# A change in at least this many of a grid row's (or column's) 8 tiles in one frame is the
# screen's own: a sprite spans one or two tiles. Beam Rider's beams light all 8.
BROAD_TILES = 6


def narrowed(sig: FrameSignals) -> FrameSignals:
    """`sig` (its own grid, square) with the blinks and the sweeps dropped (see the module)."""
    key = ("narrowed",)
    if key in sig.kept:
        return sig.kept[key]
    g, n = sig.grid, len(sig)
    t = sig.tiles.reshape(n, g, g)
    t = np.where(t < FLOOR_POINTS, 0, t)
    moving = t > 0
    broad = min(BROAD_TILES, g)
    rows = moving.sum(axis=2) >= broad
    cols = moving.sum(axis=1) >= broad
    t = np.where(rows[:, :, None] | cols[:, None, :], 0, t).astype(sig.tiles.dtype)
    out = FrameSignals(sig.times, np.ascontiguousarray(t.reshape(n, g * g)), sig.fps,
                       sig.picture_change)
    sig.kept[key] = out
    return out


def suggested(run_s, sig: FrameSignals, th, input_kinds=None):
    """The analysis (`analyze_at`, no offset given) of `narrowed(sig)` when it suggests an
    offset in one stretch; None otherwise (a grid too coarse for a row to be broader than a
    sprite, no suggestion, a drift, or two stretches at two offsets: as `analysis._calm`, a
    part of the picture lined up by chance with a few actions is no splice). Why no drift:
    of the 8 slowed or sped-up Beam Rider runs these signals read at a drift (session 25)
    one was 1.02 frames off at confidence 0.70 (0.22 since `fit.line_bound`), and where the
    game's own clock had read the drift (`pace`) they read it further off: -4.69 % for
    -3.99 % on the slowed run at 25 fps (truth -4 %).)"""
    if sig.grid < 8 or len(sig) < 2:
        return None
    a = analyze_at(run_s, narrowed(sig), th, None, input_kinds=input_kinds, wanted=True)
    if a.suggested_offset_s is None or a.speed != 1.0 or \
            any(f.rule == "sync.offset_jump" for f in a.findings):
        return None
    return a
