"""The offset (and clock speed) that best explains the reactions, globally and in windows.

score(o, s) = sum over actions of the best novelty excess in the first frames after o + e/s
(e: the action's run time). The peak is compared with the score of offsets away from it: a
peak that does not stand out is "not enough signal", never a suggestion.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .reactions import Novelty
from .signals import FrameSignals

WINDOW_FRAMES_S = 0.05   # reactions counted within this long after the expected time (~3 frames)
SPEEDS = np.round(np.arange(0.92, 1.0801, 0.0025), 4)


@dataclass(frozen=True)
class Fit:
    offset_s: float
    speed: float        # run seconds per video second (1.04: the video runs 4 % fast)
    score: float
    z: float            # peak height over the spread of scores at other offsets
    margin: float       # peak minus the best score outside +-0.1 s, in spreads


def _lookahead(sig: FrameSignals, nov: Novelty) -> np.ndarray:
    """best[k]: max positive excess over frames k-1 .. k+W (a reaction may fall anywhere in it)."""
    w = max(1, int(round(WINDOW_FRAMES_S * sig.fps)))
    x = np.clip(nov.excess / nov.spread, 0.0, 6.0)
    pad = np.concatenate([[0.0], x, np.zeros(w + 1)])
    stack = np.stack([pad[i:i + len(x)] for i in range(w + 2)])
    return stack.max(axis=0)


def fit(sig: FrameSignals, nov: Novelty, run_s: np.ndarray, *,
        offsets: np.ndarray | None = None, speeds: np.ndarray = SPEEDS,
        best: np.ndarray | None = None) -> Fit | None:
    """The best (offset, speed) for the actions at `run_s` (None with no action or frame)."""
    if len(run_s) == 0 or len(sig) < 2:
        return None
    if best is None:
        best = _lookahead(sig, nov)
    dt = 1.0 / sig.fps
    t0, t1 = float(sig.times[0]), float(sig.times[-1])
    if offsets is None:
        mid = float(np.median(run_s))
        offsets = np.arange(t0 - mid, t1 - mid + dt, dt)
    res = None
    for s in speeds:
        v = offsets[:, None] + run_s[None, :] / s
        k = np.searchsorted(sig.times, v - 1e-6)
        inside = (v >= t0 - dt / 2) & (k < len(best))
        vals = np.where(inside, best[np.clip(k, 0, len(best) - 1)], 0.0)
        scores = vals.sum(axis=1)
        i = int(np.argmax(scores))
        if res is None or scores[i] > res[2]:
            res = (float(offsets[i]), float(s), float(scores[i]), scores)
    off, s, top, scores = res
    far = np.abs(offsets - off) > 0.1
    rest = scores[far] if far.any() else scores
    mu, sd = float(rest.mean()), float(max(rest.std(), 1e-6))
    return Fit(off, s, top, (top - mu) / sd, (top - float(rest.max())) / sd)
