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


class Lookup:
    """best[] at the first frame shown at or after any video time, by a table at a quarter of
    a frame: one integer operation per query instead of a binary search (the fit queries
    offsets x actions x speeds times)."""

    def __init__(self, sig: FrameSignals, best: np.ndarray) -> None:
        self.t0 = float(sig.times[0])
        self.res = 0.25 / sig.fps
        grid = self.t0 + np.arange(int((sig.times[-1] - self.t0) / self.res) + 2) * self.res
        k = np.searchsorted(sig.times, grid - 1e-6)
        table = np.where(k < len(best), best[np.clip(k, 0, len(best) - 1)], 0.0)
        # zero at both ends: a time outside the footage clips onto a zero
        self.table = np.concatenate([[0.0], table, [0.0]])
        self.base = self.t0 / self.res - 1.0 + 1e-6

    def __call__(self, v: np.ndarray) -> np.ndarray:
        m = np.ceil(v / self.res - self.base).astype(np.int64)
        return np.take(self.table, m, mode="clip")


DIRECT_MAX = 2_000_000  # offsets x actions evaluated directly; beyond, by FFT correlation


def _scores(look: Lookup, offsets: np.ndarray, run_s: np.ndarray, s: float) -> np.ndarray:
    """score[i] = sum over actions of look(offsets[i] + e/s). Directly for small problems; for
    long runs (an hour at 60 fps: 216,000 offsets x thousands of actions) as one correlation
    of the table with the actions' histogram, in bounded memory and O(N log N)."""
    x = run_s / s
    n = len(offsets)
    step = (offsets[1] - offsets[0]) / look.res if n > 1 else 0.0
    stride = int(round(step))
    if n * len(x) <= DIRECT_MAX or stride < 1 or abs(step - stride) > 1e-6:
        out = np.empty(n)
        rows = max(1, DIRECT_MAX // max(1, len(x)))
        for i in range(0, n, rows):  # in chunks: memory stays bounded either way
            out[i:i + rows] = look(offsets[i:i + rows, None] + x[None, :]).sum(axis=1)
        return out
    # index of (offsets[i] + x_j) in the table = stride * i + c_j
    c = np.ceil((offsets[0] + x) / look.res - look.base).astype(np.int64)
    lo = int(c.min())
    h = np.bincount(c - lo).astype(float)
    length = stride * (n - 1) + len(h)
    ext = np.take(look.table, np.arange(lo, lo + length), mode="clip")
    size = 1 << int(np.ceil(np.log2(length + len(h))))
    corr = np.fft.irfft(np.fft.rfft(ext, size) * np.conj(np.fft.rfft(h, size)), size)
    return corr[:stride * n:stride][:n]


def fit(sig: FrameSignals, nov: Novelty, run_s: np.ndarray, *,
        offsets: np.ndarray | None = None, speeds: np.ndarray = SPEEDS,
        best: np.ndarray | None = None, look: Lookup | None = None) -> Fit | None:
    """The best (offset, speed) for the actions at `run_s` (None with no action or frame).

    Speeds are searched coarse to fine (1 % steps, then 0.25 % around the best)."""
    if len(run_s) == 0 or len(sig) < 2:
        return None
    if look is None:
        look = Lookup(sig, _lookahead(sig, nov) if best is None else best)
    dt = 1.0 / sig.fps
    t0, t1 = float(sig.times[0]), float(sig.times[-1])
    if offsets is None:
        mid = float(np.median(run_s))
        offsets = np.arange(t0 - mid, t1 - mid + dt, dt)
    coarse = speeds if len(speeds) <= 9 else speeds[::4]
    results = {}

    def best_at(s: float):
        if s not in results:
            sc = _scores(look, offsets, run_s, s)
            results[s] = (int(np.argmax(sc)), sc)
        return results[s]

    top_s = max(coarse, key=lambda s: best_at(float(s))[1][best_at(float(s))[0]])
    if len(speeds) > len(coarse):
        near = speeds[np.abs(speeds - top_s) < 0.0101]
        top_s = max(near, key=lambda s: best_at(float(s))[1][best_at(float(s))[0]])
    i, scores = best_at(float(top_s))
    off, top = float(offsets[i]), float(scores[i])
    far = np.abs(offsets - off) > 0.1
    rest = scores[far] if far.any() else scores
    mu, sd = float(rest.mean()), float(max(rest.std(), 1e-6))
    return Fit(off, float(top_s), top, (top - mu) / sd, (top - float(rest.max())) / sd)


def z_at(sig: FrameSignals, look: Lookup, run_s: np.ndarray, speed: float, offset: float,
         near_s: float = 0.05) -> float:
    """The fit's z at a given offset rather than at the best one: the best score within
    near_s of `offset` over the scores more than 0.1 s away, in their spreads."""
    if len(run_s) == 0 or len(sig) < 2:
        return 0.0
    dt = 1.0 / sig.fps
    mid = float(np.median(run_s))
    offsets = np.arange(float(sig.times[0]) - mid, float(sig.times[-1]) - mid + dt, dt)
    sc = _scores(look, offsets, run_s, speed)
    near = np.abs(offsets - offset) <= near_s
    far = np.abs(offsets - offset) > 0.1
    if not near.any() or not far.any():
        return 0.0
    rest = sc[far]
    return float((sc[near].max() - rest.mean()) / max(float(rest.std()), 1e-6))


def peaks(sig: FrameSignals, look: Lookup, run_s: np.ndarray, speed: float,
          count: int = 4, min_z: float = 3.0) -> list[float]:
    """The best offsets of the global score (local maxima at least 0.2 s apart standing
    `min_z` spreads above the mean): where pieces of a spliced video may line up."""
    if len(run_s) == 0 or len(sig) < 2:
        return []
    dt = 1.0 / sig.fps
    mid = float(np.median(run_s))
    offsets = np.arange(float(sig.times[0]) - mid, float(sig.times[-1]) - mid + dt, dt)
    sc = _scores(look, offsets, run_s, speed)
    mu, sd = float(sc.mean()), float(max(sc.std(), 1e-6))
    out: list[float] = []
    for i in np.argsort(-sc):
        if (sc[i] - mu) / sd < min_z or len(out) >= count:
            break
        if all(abs(offsets[i] - o) > 0.2 for o in out):
            out.append(float(offsets[i]))
    return out
