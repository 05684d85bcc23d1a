"""An offset whose presses show their change before it is too late: the offset they precede.

Why: a reaction never comes before its input, so at the right offset the frames just before
each press's expected time change no more often than any frames of the video do. The fit
dates its offset by the median of the supporting reactions (`fit.refine`), which sits between
two groups when the game answers some inputs sooner than others. Centipede (ale-py, QA
session 15, H1): FIRE, UP and DOWN change the picture on the next frame, the wand moves 3-5
frames after RIGHT or LEFT; the suggestion was 2.0-2.5 frames late at confidence 0.43-0.79
(50 fps MPEG-2 TS and 30 fps AV1), and at it 6-9 of 16-23 presses showed a standing change
in the 2 frames before their expected time, where chance gives 0.6-2.3 (binomial tail
0.000-0.004; on every other suggestion of the corpus and QA runs, 0.04 or more, but one
stretch measured apart). Per-kind offsets (`kinds`) did not see it: the fast kind with 3 or
more presses had 4, as weak as random sets of 4. This test reads no kinds: it counts the
presses of every kind whose change precedes the offset.

The suggestion then moves to the latest offset (half-frame steps, up to PRECEDE_REACH_S
earlier) at which the presses' changes no longer precede it more often than chance, dated as
the changes there are (half a frame and an early reaction's latency before), and is tested
again from there (an earlier group may precede it in turn). The whole run's fit must stand
`sync_min_z` there; when it does not, or no such offset is within reach, the analysis
suggests none (a late offset is not offered). The reactions, the track and the findings stay
measured at the fit's offset (as `kinds` leaves them: measured at the early group's offset,
the slow group's reactions fall past the support window).
"""

from __future__ import annotations

import math

import numpy as np

from . import align
from .fit import EARLY_LATENCY_S
from .lookup import Lookup
from .reactions import Novelty
from .signals import FrameSignals

PRECEDE_FRAMES = 2      # the frames before a press's expected one that must not react ...
PRECEDE_S = 0.1         # ... and the frames of this long (when more): a slow group 4-6
# frames after a fast one leaves the 2 frames before a suggestion among the slow ones empty
# (a synthetic screen: FIRE on the press's frame or the next, RIGHT 4-6 frames later at 60
# fps, no kinds named: 5 -> 9 of 12 seeds within a frame with this window beside)
PRECEDE_P = 0.01        # the binomial tail under which they react more often than chance
PRECEDE_REACH_S = 0.15  # how far earlier the offset they precede is searched (as kinds')


def tail(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p), summed in logs from k while the terms matter (a
    hostile log's 100,000 actions cost the few terms near k, not n)."""
    if k <= 0 or p >= 1.0:
        return 1.0
    if k > n or p <= 0.0:
        return 0.0
    lp, lq, ln = math.log(p), math.log1p(-p), math.lgamma(n + 1)
    total = 0.0
    for j in range(k, n + 1):
        term = math.exp(ln - math.lgamma(j + 1) - math.lgamma(n - j + 1) + j * lp
                        + (n - j) * lq)
        total += term
        if j > n * p and term <= 1e-12 * total:
            break
    return min(1.0, total)


def frames(sig: FrameSignals) -> list[int]:
    """The windows (frames before a press's expected one) tested."""
    wide = int(round(PRECEDE_S * sig.fps))
    return [PRECEDE_FRAMES] + ([wide] if wide > PRECEDE_FRAMES else [])


def window_rate(sig: FrameSignals, nov: Novelty, min_z: float, w: int) -> float:
    """The share of the video's windows of PRECEDE_FRAMES frames that hold a frame whose
    novelty stands `min_z` local spreads up: how often chance puts one before a press."""
    n = len(sig)
    if n <= w:
        return 1.0
    nxt = nov.next_standing(min_z)  # the first standing frame at or after k
    starts = np.arange(n - w + 1)
    return float(np.count_nonzero(nxt[starts] < starts + w)) / len(starts)


def precede_p(sig: FrameSignals, nov: Novelty, run_s: np.ndarray, offset: float,
              speed: float, min_z: float, rate: float, w: int) -> float:
    """How likely chance (`rate`: `window_rate`) makes as many presses show a standing
    change in the PRECEDE_FRAMES frames before their expected frame (the first at or after
    offset + run_s / speed less half a frame) as at this offset: the binomial tail (1 when
    no more than chance's share do)."""
    n = len(sig)
    nxt = nov.next_standing(min_z)
    idx = np.searchsorted(sig.times, offset + np.asarray(run_s, float) / speed - 0.5 / sig.fps)
    idx = idx[(idx >= w) & (idx <= n)]
    k = int(np.count_nonzero(nxt[idx - w] < idx))
    return 1.0 if k <= rate * len(idx) else tail(k, int(len(idx)), rate)


def ahead_s(run_s, sig: FrameSignals, nov: Novelty, look: Lookup, offset: float,
            speed: float, th) -> float | None:
    """How far before `offset` the suggestion goes: to the latest offset (half-frame steps,
    up to PRECEDE_REACH_S) whose presses' changes do not precede it more often than chance,
    when they precede `offset` (PRECEDE_P); 0 when they do not. None when they do and no
    such offset is within reach or the whole run does not stand `sync_min_z` there: the
    offset is late and no earlier one can be named (no suggestion, rather than a late one)."""
    run_s = np.asarray(run_s, float)
    z = th.sync_reaction_z
    if len(run_s) == 0 or len(sig) <= PRECEDE_FRAMES or sig.fps <= 0:
        return 0.0
    tests = [(window_rate(sig, nov, z, w), w) for w in frames(sig)]

    def preceded(o: float) -> bool:
        return any(precede_p(sig, nov, run_s, o, speed, z, r, w) < PRECEDE_P
                   for r, w in tests)

    step = 0.5 / sig.fps
    o = offset
    # moved past one group, the changes of an earlier group may precede the new offset in
    # turn: tested again from there, as long as the whole move stays within reach
    while preceded(o):
        while preceded(o):
            o -= step
            if offset - o > PRECEDE_REACH_S + 1e-9:
                return None
        # the window ends half a frame before the expected time: the changes stand there,
        # and they follow the press by an early reaction's latency
        o -= 0.5 / sig.fps + EARLY_LATENCY_S
    if o == offset:
        return 0.0
    return offset - o if align.z_at(sig, look, run_s, speed, o) >= th.sync_min_z else None
