"""The local offset track: which offset each stretch of actions follows.

Honest footage keeps one offset all through the run. Candidate offsets come from fits in sliding
windows of the run; a Viterbi pass over the actions then gives each action the candidate that
its reaction supports, with a penalty for each change, so a change needs several actions that
agree. A change of offset is footage removed (the offset drops) or inserted (it rises).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import align
from .reactions import Novelty
from .signals import FrameSignals

WINDOW_S = 10.0       # run seconds per window of the track
STEP_S = 2.0
SWITCH_PENALTY = 3.0  # in supporting actions
SAME_S = 0.1          # candidate offsets closer than this are one
WINDOW_RANGE_S = 60.0


@dataclass(frozen=True)
class TrackPoint:
    run_s: float          # window centre (run time)
    offset_s: float | None
    z: float


def supported(look: align.Lookup, run_s: np.ndarray, offset: float, speed: float,
              min_z: float) -> np.ndarray:
    """Per action: does a reaction stand out right after offset + e/speed?"""
    return look(offset + run_s / speed) >= min_z


def windows(sig: FrameSignals, nov: Novelty, look: align.Lookup, run_s: np.ndarray,
            speed: float, min_z: float, min_actions: int) -> list[TrackPoint]:
    """The best offset of each window of WINDOW_S run seconds (None where it does not stand
    out), every STEP_S."""
    if len(run_s) == 0:
        return []
    pts = []
    end = float(run_s[-1])
    # Windows look for offsets within WINDOW_RANGE_S of the global fit (the global score's
    # other peaks, over the whole video, are candidates too): bounded work on long runs.
    dt = 1.0 / sig.fps
    full = align.offset_grid(sig, run_s)
    g = align.fit(sig, nov, run_s, speeds=np.array([speed]), look=look)
    near = full[np.abs(full - (g.offset_s if g else 0.0)) <= WINDOW_RANGE_S] \
        if len(full) * dt > 2 * WINDOW_RANGE_S else None
    c = WINDOW_S / 2
    while True:
        sel = run_s[(run_s >= c - WINDOW_S / 2) & (run_s < c + WINDOW_S / 2)]
        f = None
        if len(sel) >= min_actions:
            f = align.fit(sig, nov, sel, speeds=np.array([speed]), look=look,
                          offsets=near)
        good = f is not None and f.z >= min_z and f.margin >= 1.0
        pts.append(TrackPoint(round(c, 3), round(f.offset_s, 4) if f is not None and good else None,
                              round(f.z, 2) if f else 0.0))
        if c + WINDOW_S / 2 >= end:
            break
        c += STEP_S
    return pts


def segment(look: align.Lookup, run_s: np.ndarray, candidates: list[float], speed: float,
            min_z: float) -> np.ndarray:
    """Per action, the candidate offset (index into candidates) of its stretch (Viterbi)."""
    m = len(candidates)
    if len(run_s) == 0:
        return np.zeros(0, int)
    emit = np.stack([supported(look, run_s, o, speed, min_z) for o in candidates],
                    axis=1).astype(float)  # (n, m)
    n = len(run_s)
    score = emit[0].copy()
    score[1:] -= 0.01  # ties go to the global offset (candidate 0)
    back = np.zeros((n, m), int)
    for i in range(1, n):
        stay = score
        j = int(np.argmax(score))
        switch = score[j] - SWITCH_PENALTY
        take_switch = switch > stay
        back[i] = np.where(take_switch, j, np.arange(m))
        score = np.where(take_switch, switch, stay) + emit[i]
    path = np.zeros(n, int)
    path[-1] = int(np.argmax(score))
    for i in range(n - 1, 0, -1):
        path[i - 1] = back[i, path[i]]
    return path


def candidate_offsets(global_offset: float, pts: list[TrackPoint],
                      peaks: Sequence[float] = ()) -> list[float]:
    cands = [global_offset]
    for o in [p.offset_s for p in pts if p.offset_s is not None] + list(peaks):
        if all(abs(o - c) > SAME_S for c in cands):
            cands.append(o)
    return cands
