"""Reactions read at the moderator's offset when no stage suggests one: the player's band
chosen at that offset (QA s18 L1, L6).

On a screen that moves on its own (Phoenix's birds and stars), the whole picture's onsets
measure no reaction at all: phoenix-genuine2 at its true offset, 0 of 23, and so the rules
that read reactions (`sync.no_reaction`, the reaction lane) had nothing to read whenever the run's fit was not significant on its own (a deleted
stretch, a shorter log). The player's band (core/sync/band.py) answers there, but `_in_band`
chooses it over every offset, and a deleted stretch's log no longer stands out that way
(margin 6.47 -> 4.26). With the offset given, the band is chosen at that offset alone
(`band.select_at`, against shuffled logs at the same offset), and the reactions and
`sync.no_reaction` are read on it; the suggestion (none), its reason and confidence stay the whole
picture's, and so do the other findings (jumps, drift: not read here).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from . import band, reactions
from .combine import near
from .records import SyncAnalysis, video_order

# The rules read on the band at the offset given. Jumps, drifts and stretches at chance
# belong to the track and the fit, which a band chosen at one offset does not test. Nor is
# `sync.activity_without_actions` read here: a band chosen because it answers the presses at
# this offset is not shown to move only on input (QA s19's genuine Beam Rider pause at 120
# fps got it at 18.5 s: the ship's row moves while a model call is in flight), and on the
# real human and deleted stretches its input-like onsets came at 0.27-0.93x their idle
# density, under the rule's 3.5x: it found none of them (docs/DECISIONS.md, session 19).
RULES = ("sync.no_reaction",)


def band_at(run_s, sig, th, offset_s: float, silent: SyncAnalysis, read) -> SyncAnalysis | None:
    """`silent` (no suggestion, read at `offset_s`) with its reactions and its RULES'
    findings read on the band chosen at `offset_s` (`band.select_at`, sync_min_null_z over
    its shuffled logs), when that band measures more reactions than `silent` has; None
    otherwise. `read(run_s, sig, tiles, th, offset_s)`: the band's analysis at the offset
    (analysis._band_read)."""
    e = np.asarray(sorted(float(x) for x in run_s if np.isfinite(x)), float)
    if len(e) < th.sync_min_actions or len(sig) < 2 or len(e) != len(silent.reactions):
        return None
    nov = reactions.novelty(sig)
    tiles, margin = band.select_at(sig, nov, e, float(offset_s), th.sync_min_null_z,
                                   th.sync_min_actions, sig.grid)
    if tiles is None:
        return None
    a = read(e, sig, tiles, th, float(offset_s))
    if sum(r.video_s is not None for r in a.reactions) <= \
            sum(r.video_s is not None for r in silent.reactions):
        return None
    where = _band_name(tiles, sig.grid)
    found = [replace(f, message=f"{f.message} (read on the player's band, {where}, which "
                     f"answers the presses at the offset given: {margin:.1f} spreads over "
                     "shuffled logs)")
             for f in a.findings if f.rule in RULES
             and not any(near(f, g) for g in silent.findings if g.rule == f.rule)]
    findings = sorted(silent.findings + found, key=video_order)
    return replace(silent, reactions=a.reactions, answers=a.answers, findings=findings)


def _band_name(tiles: np.ndarray, grid: int) -> str:
    """"row R" or "column C" of the grid (1-based, from the top left) for a band's tiles."""
    t = np.asarray(tiles)
    if len(t) > 1 and t[1] - t[0] == 1:
        return f"row {int(t[0]) // grid + 1} of {grid}"
    return f"column {int(t[0]) % grid + 1} of {grid}"
