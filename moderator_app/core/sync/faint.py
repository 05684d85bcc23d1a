"""Faint reactions: the offset's support read at a lower bar when the fit stands and too few
reactions clear the usual one.

A suggestion needs its fit to stand out over the other offsets (sync_min_z) and over the
log's gaps shuffled (sync_min_null_z), and then sync_min_actions actions whose reaction
stands sync_reaction_z (2.5) local spreads over the motion level within the support window
(`fit.refine`). On a screen that moves on its own, read at a low frame rate, the player's
change is a small share of each captured frame's onsets (a frame at 16 fps holds 3.75
emulator frames of the enemies' motion): QA s29's Turmoil at 16 fps (WMV2) stood 4.43 over
the offsets and 5.45 over its shuffled logs, 0.2 frame from the truth, and was refused with 3
supporting actions; at the truth 1 action's reaction stands 2.5 spreads, 9 stand 2.0 (at 300
offsets away from it: 1.4 on average, at most 5). Atlantis II at 16 fps, its player's band:
7.18 and 9.54 spreads, 5 supporting.

So when the fit stands and the support falls short, the support is counted again at
FAINT_Z, and counts only by how far it exceeds what that bar gives at offsets away from the
fit (`chance_support`): a lower bar lets more chance changes in, everywhere alike. The offset
is then the lower bar's refined one (the median of its supporting reactions' delays), and
the confidence follows the excess (`fit.confidence`). The reactions, the track and the
findings are still measured at sync_reaction_z: only the offset's evidence is read here.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from . import align, reactions
from .fit import SUPPORT_AFTER_S, SUPPORT_BEFORE_S, first_offset
from .signals import FrameSignals

FAINT_Z = 2.0          # the lower bar a reaction must stand (local spreads over the level)
CHANCE_OFFSETS = 64    # offsets away from the fit whose support is chance's
CHANCE_AWAY_S = 0.5    # ... at least this far from it (a reaction window and more)


def supported(sig: FrameSignals, nov: reactions.Novelty, run_s: np.ndarray, offsets,
              min_z: float) -> np.ndarray:
    """Per offset in `offsets`, the actions with a reaction standing `min_z` in the support
    window after their expected time (as `fit._supported`, at speed 1)."""
    t = np.asarray(sig.times, float)
    out = np.empty(len(offsets), np.int64)
    for i, o in enumerate(np.asarray(offsets, float)):
        exps, hit, k = reactions.first_reactions(sig, nov, run_s, float(o), 1.0, min_z)
        d = t[k] - exps
        out[i] = np.count_nonzero(hit & (d >= -SUPPORT_BEFORE_S - 1e-6) &
                                  (d <= SUPPORT_AFTER_S + 1e-6))
    return out


def chance_support(sig: FrameSignals, nov: reactions.Novelty, run_s: np.ndarray,
                   offset: float, min_z: float) -> float:
    """The mean support at `min_z` over CHANCE_OFFSETS offsets spread evenly over the fit's
    grid (`align.offset_grid`), each at least CHANCE_AWAY_S from `offset`; inf when the
    footage leaves too few such offsets to say (no faint reading then)."""
    grid = align.offset_grid(sig, run_s)
    grid = grid[np.abs(grid - offset) >= CHANCE_AWAY_S]
    if len(grid) < CHANCE_OFFSETS:
        return float("inf")
    pick = grid[np.linspace(0, len(grid) - 1, CHANCE_OFFSETS).round().astype(np.int64)]
    return float(supported(sig, nov, run_s, pick, min_z).mean())


def faint_offset(run_s: np.ndarray, sig: FrameSignals, nov: reactions.Novelty, plain,
                 offset: float, th, q: float) -> tuple[float, int, float] | None:
    """(offset, support, lag) as `fit.first_offset` gives them, read at FAINT_Z, the support
    counted as its excess over `chance_support` (rounded down), when that excess reaches
    sync_min_actions; None otherwise (speed 1 only: a drift's line is refined elsewhere)."""
    low = replace(th, sync_reaction_z=FAINT_Z)
    off, support, lag = first_offset(run_s, sig, nov, plain, offset, 1.0, low, q)
    if support < th.sync_min_actions:
        return None
    excess = int(np.floor(support - chance_support(sig, nov, run_s, off, FAINT_Z)))
    if excess < th.sync_min_actions:
        return None
    return off, excess, lag


def _stood_key(run_s) -> tuple[str, bytes]:
    return ("faint-stood", np.asarray(run_s, float).tobytes())


def mark_stood(sig: FrameSignals, run_s) -> None:
    """Note on `sig` that a stretch of these actions (`run_s` as the reading orders them)
    stood its shuffled-log bar in a reading of it (`reading._read_at`)."""
    sig.kept[_stood_key(run_s)] = True


def stood(sig: FrameSignals, run_s) -> bool:
    """Whether a reading of `sig` marked a stretch of these actions standing (`mark_stood`).
    A faint reading tests the same stretches with the same shuffled logs as the plain one:
    it can choose none where none stood, and `analysis._faint` is then not read (Seaquest's
    and River Raid's silent runs paid 5-10 % more analysis for it)."""
    return _stood_key(run_s) in sig.kept
