"""The offset the per-action reader's answers single out, when no reading of the picture
suggests one (issue 13, session 38).

The fit (`fit.refine`, `align.fit`) reads the 0.5 s reactions of `reactions.measure` on the
novelty; the per-action reader (`reactions.answers`: its 0.15 s onsets, their surprise and the
scan's finer positions, sessions 34-37) answers more shown presses at the truth (1,946 of
3,436 within a frame, 675 false) but reached no suggestion. Here it does, as the cascade's
last reading with no offset given (`analysis._answered`): per offset of the fit's grid, the
actions with an answered frame from BEFORE_FRAMES before to AFTER_FRAMES after their
expected time (`supported`), and the best offset must beat chance the way the shuffled logs
measure it: the same search (every offset) on NULL_SETS logs of the same gaps shuffled
(`fit.permuted`), at NULL_Z spreads over their best and MARGIN actions over the most any of
them had, and MARGIN actions over the best offset SECOND_AWAY_S or more from it (a second
place the answers line up is no single offset). A fit that passes is read against TAIL_SETS
shuffled logs in all (the same draws, continued): more than TAIL_MAX of them within MARGIN of it
(1 %: chance's tail, which 19 draws cannot see) and it is chance's too.

Why the tail (session 38, mendfit; review R4): 19 shuffles' spread is a noisy scale. Another
play's video of the same game (ms_pacman-genuine@r12ogv's log on ms_pacman-genuine2@r18divx's
18 fps picture, 7 % of frames answered) stood 7.3 spreads over the 19 with 15 of 27, while 4 of
the fit's 200 draws line up with 14 (2 %). Of the wide set's 35 true logs the fit stands on, 33
have none of the 200 within MARGIN and 2 have one (breakout-genuine@r16wmv, boxing-genuine@
bilinear): all 35 still stand, at the same offsets.

Why so narrow a window: an answer within a frame of the truth is evidence, one anywhere in
0.15 s is mostly chance on a busy screen. Measured on the wide set's genuine runs and QA
s28-s37's (session 38, 239 runs, suggested or not): fits that stood 6 spreads over the
shuffled logs' best, at -1..+2 frames: 62, 50 of them within a frame of the truth (q = 25
below; the median: 47), none 2 frames off; at -1..+4 frames, 55 and 41; at 0.15 s, 47 and 33
(up to 3.56 frames off). On the wide set's 76 genuine runs with no suggestion the answers at
the TRUE offset stand under 3 spreads over the shuffled logs' best on 72: this reading adds
what the answers carry, which is little there (3 runs, session 38's fragment).

Why its confidence is bounded under the one-click bar (BOUND): the answers carry the game's
own delay from press to picture, which no fit of one run can tell from the offset: 12 of the
62 stood 1.08-1.91 frames late (Dark Chambers, Adventure, Enduro, Trondead, Battle Zone,
Superman, Backgammon: games that draw a press 1-3 frames after they read it). A suggestion
from here is shown, never applied in one click.
"""

from __future__ import annotations

import math

import numpy as np

from . import align, fit, reactions
from .signals import FrameSignals

BEFORE_FRAMES = 1.0     # an answer may come this early (the frame's rounding) ...
AFTER_FRAMES = 2.0      # ... to this late after the expected time
NULL_SETS = 19          # shuffled logs, each searched over every offset as the log is
NULL_Z = 6.0            # the best offset's support in spreads over the shuffled logs' best
NULL_SD_FLOOR = 0.5     # (whole counts: the spread is never read under half an action)
MARGIN = 2              # actions over the shuffled logs' most, and over a second peak's
TAIL_SETS = 200         # shuffled logs in all (the first NULL_SETS give the z) ...
TAIL_MAX = 1            # ... of which this many may come within MARGIN (none of the first)
SECOND_AWAY_S = 0.3     # ... a second peak: this far or more from the best offset
LATENCY_Q = 25.0        # the supporting answers' delays' percentile taken (fit.latency_s)
BOUND = 0.45            # under records.APPLY_MIN_CONFIDENCE (see the module)


def supported(times: np.ndarray, ok: np.ndarray, run_s: np.ndarray, offsets: np.ndarray,
              fps: float) -> np.ndarray:
    """Per offset, the actions with an answered frame (`ok`) from BEFORE_FRAMES before to
    AFTER_FRAMES after their expected time (offset + run time, speed 1)."""
    counts = np.concatenate([[0], np.cumsum(ok, dtype=np.int64)])
    e = np.asarray(offsets, float)[:, None] + run_s[None, :]
    lo = np.searchsorted(times, e - BEFORE_FRAMES / fps - 1e-6)
    hi = np.searchsorted(times, e + AFTER_FRAMES / fps + 1e-6, side="right")
    return ((counts[hi] - counts[lo]) > 0).sum(axis=1)


def answered_frames(sig: FrameSignals, th) -> np.ndarray:
    """Per frame, whether the per-action reader answers there (`reactions.answering` on the
    plain novelty at sync_reaction_z, its finer positions with sync_finer_reader)."""
    coarse, fine = reactions.answering(sig, reactions.novelty(sig), th.sync_reaction_z,
                                       th.sync_finer_reader)
    return coarse if fine is None else coarse | fine


def fitted(run_s, sig: FrameSignals, th) -> tuple[float, int, float] | None:
    """(offset, support, z) of the answers' fit at speed 1 when it beats the shuffled logs
    (see the module); None otherwise. The offset: the LATENCY_Q-th percentile of the
    supporting actions' first answers less their run times, less `fit.latency_s`."""
    e = np.asarray(sorted(float(x) for x in run_s if math.isfinite(x)), float)
    if len(e) < max(th.sync_min_actions, 2) or len(sig) < 2 or sig.fps <= 0:
        return None
    times = np.asarray(sig.times, float)
    ok = answered_frames(sig, th)
    if not ok.any():
        return None
    offsets = align.offset_grid(sig, e)
    sc = supported(times, ok, e, offsets, sig.fps)
    i = int(np.argmax(sc))
    best = int(sc[i])
    far = np.abs(offsets - offsets[i]) >= SECOND_AWAY_S
    if best < th.sync_min_actions or (far.any() and best < int(sc[far].max()) + MARGIN):
        return None
    rng = np.random.default_rng(len(e) + 2)
    null: list[int] = []
    near, z = 0, 0.0
    for k in range(max(NULL_SETS, TAIL_SETS)):
        p = fit.permuted(e, rng)
        most = int(supported(times, ok, p, align.offset_grid(sig, p), sig.fps).max())
        if most + MARGIN > best:  # a shuffled log lines up (nearly) as many: chance's
            near += 1
            if k < NULL_SETS or near > TAIL_MAX:
                return None
        if k < NULL_SETS:
            null.append(most)
        if k + 1 == NULL_SETS:
            nz = np.asarray(null, float)
            z = float((best - nz.mean()) / max(float(nz.std()), NULL_SD_FLOOR))
            if z < NULL_Z:
                return None
    return _refined(times, ok, e, float(offsets[i]), sig.fps), best, z


def _refined(times: np.ndarray, ok: np.ndarray, run_s: np.ndarray, offset: float,
             fps: float) -> float:
    """The sub-frame offset: per action supported at `offset`, its first answered frame from
    BEFORE_FRAMES before its expected time; their delays' LATENCY_Q-th percentile less the
    input latency of that percentile (`fit.latency_s`)."""
    n = len(ok)
    idx = np.where(ok, np.arange(n), n)
    nxt = np.concatenate([np.minimum.accumulate(idx[::-1])[::-1], [n]])
    exps = offset + run_s
    k = nxt[np.searchsorted(times, exps - BEFORE_FRAMES / fps - 1e-6)]
    hit = k < n
    d = np.full(len(exps), np.inf)
    d[hit] = times[k[hit]] - exps[hit]
    sup = d <= AFTER_FRAMES / fps + 1e-6
    return offset + float(np.percentile(d[sup], LATENCY_Q)) - fit.latency_s(LATENCY_Q)


def confidence(z: float, support: int) -> float:
    """`fit.confidence` bounded to BOUND (the game's own delay is in the offset)."""
    return min(fit.confidence(z, support), BOUND)


NOTE = ("read from the per-action reader's answers alone, which carry the game's own delay "
        "from a press to the picture (1-2 frames late on a fifth of the runs it was measured "
        "on)")
