"""Runs of presses the reaction reader missed and the picture answers (issue 13: 0 sync
warnings on genuine runs).

`reaction_findings.no_reaction` says "N actions in a row with no visible reaction" when the
reactions (`reactions.measure`: a frame whose luma tile onsets stand `min_z` local spreads over
the local level) find none for each of them. Two ways a genuine run's presses show and that
reader misses them (the wide set, session 33):
- **the screen gets busy around the player**: the local level rises and a press's onsets no
  longer stand out, while they still come in the player's tiles at the press far more often
  than anywhere nearby (elevator_action-genuine@r25h264avi: 14 presses from 15.88 s, 27 of 28
  shown by the truth within 0.04 s; 12 of the 14 answered in the player's tiles against 7.7
  by chance, +2.4 spreads);
- **the player moves in colour only**: the reactions read luma (session 16: a green square on
  a grey room moves no luma point), so a room where the player's luma matches the floor shows
  nothing there, while the whole picture's change, colour counted (`picture_change`), moves
  at each press (adventure-genuine@r60mp4: 13 presses from 21.66 s, each shown by the truth,
  24-35 points changed on the shown frame after three still ones; 0 tile onsets).
Such a run is answered above chance, if it is answered at all: `stretch.NOT_AT_CHANCE_Z`, the
bar at which a stretch "at chance" is a game ignoring some presses instead
(`local_findings.with_unexplained`), asked of the run's answers in the player's tiles (the
run's `answers`) or in the whole picture's onsets (`picture_answerer`). Footage frozen over
the run answers nothing either way; footage of another attempt answers at chance (a chance
match: up to +1.8 spreads in the corpus, `stretch.ABOVE_CHANCE_Z`'s note). The run's
presses under a held picture of the scan's freeze length (`stretch.held_actions`) are set
aside, as `with_unexplained` does: no press is answered there whichever footage it is, and
the held picture is said by its own rules (freeze.py `frozen_findings`, which reports a held
picture the reactions' findings no longer cover; waits.py), not by this one.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from . import stretch
from .freeze import NOISE_POINTS
from .reactions import QUIET_S
from .records import SyncAnalysis
from .signals import FrameSignals

# The words of `reaction_findings.no_reaction`'s run of misses (not its "at chance" stretch,
# which `with_unexplained` tested against chance already).
NO_VISIBLE = "in a row with no visible reaction"


def picture_onsets(sig: FrameSignals) -> np.ndarray:
    """Per frame: the whole picture (colour counted) changes by more than `NOISE_POINTS`
    points after at least `reactions.QUIET_S` of frames that changed no more (an onset of
    the whole picture, as the reactions' are of a tile)."""
    c = np.nan_to_num(np.asarray(sig.picture_change, float))
    moved = c > NOISE_POINTS
    q = max(1, int(round(QUIET_S * max(sig.fps, 1e-6))))
    counts = np.concatenate([[0], np.cumsum(moved)])
    k = np.arange(len(c))
    quiet = (counts[k] - counts[np.maximum(0, k - q)]) == 0
    return moved & quiet & (k >= q)


def picture_answerer(sig: FrameSignals):
    """`stretch.answerer` on the whole picture's onsets (`picture_onsets`)."""
    return stretch.hits_answerer(sig, picture_onsets(sig))


def answered_runs(out: SyncAnalysis, sig: FrameSignals, th) -> SyncAnalysis:
    """`out` without its runs of "no visible reaction" whose presses the picture answers
    above chance (the module's docstring), in the player's tiles (`out.answers`, when
    learnt) or in the whole picture's onsets."""
    runs = [f for f in out.findings if f.rule == "sync.no_reaction"
            and f.message.endswith(NO_VISIBLE) and f.run_start_s is not None
            and f.run_end_s is not None]
    if not runs or not out.reactions:
        return out
    run_s = np.array([r.run_s for r in out.reactions], float)
    exp = np.array([r.expected_video_s for r in out.reactions], float)
    tiles = np.array(out.answers, float).reshape(-1, 2) if out.answers else None
    whole = None
    dropped = []
    for f in runs:
        a, b = float(f.run_start_s or 0.0), float(f.run_end_s or 0.0)  # not None: `runs`
        idx = np.nonzero((run_s >= a - 1e-6) & (run_s <= b + 1e-6))[0]
        # its presses under a held picture set aside: no evidence either way
        idx = idx[~stretch.held_actions(sig, exp[idx], th.sync_freeze_s)]
        if not len(idx):
            continue
        if tiles is not None and len(tiles) == len(exp) and stretch.above_chance(
                tiles[idx, 0], tiles[idx, 1], stretch.NOT_AT_CHANCE_Z):
            dropped.append(f)
            continue
        if whole is None:
            whole = picture_answerer(sig)(exp)
        if stretch.above_chance(whole[0][idx].astype(float), whole[1][idx],
                                stretch.NOT_AT_CHANCE_Z):
            dropped.append(f)
    if not dropped:
        return out
    return replace(out, findings=[f for f in out.findings if f not in dropped])
