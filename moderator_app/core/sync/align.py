"""The offset (and clock speed) that best explains the reactions, globally and in windows.

score(o, s) = sum over actions of the best novelty excess in the first frames after o + e/s
(e: the action's run time). The peak is compared with the score of offsets away from it: a
peak that does not stand out is "not enough signal", never a suggestion.

The score table and its sums (`Lookup`, `lookup.scores`: numpy, C or FFT, bit for bit the
same) are `lookup`'s; this module searches them over offsets and speeds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import lookup
from .lookup import Lookup
from .reactions import Novelty
from .signals import FrameSignals
from .stats import median

SPEEDS = np.round(np.arange(0.92, 1.0801, 0.0025), 4)
# Runs longer than this search every speed of the grid rather than 1 % steps first: a coarse
# speed half a step off (0.5 %) moves the line by 0.2 s at 40 s from the middle, where the
# corpus' 40 s runs still find their drift, but on a 150 s Pong run sped up 4.4 % the coarse
# step chose 1.03 (score 212) and missed 1.0425 (255): no drift, the video read as genuine.
# They take their 1 % steps on a 40 s stretch only, to pin the lines (`pins`, below).
EVERY_SPEED_SPAN_S = 75.0


@dataclass(frozen=True)
class Fit:
    offset_s: float
    speed: float        # run seconds per video second (1.04: the video runs 4 % fast)
    score: float
    z: float            # peak height over the spread of scores at other offsets
    margin: float       # peak minus the best score outside +-0.1 s, in spreads


# Offsets per block whose scores `top_speed` bounds at once (fewer on runs with many actions:
# a block's index stays within lookup.CHUNK_FLOATS)
BOUND_BLOCK = 4
# How far under the best score so far a block's bound must fall to be skipped, relative to
# the score: the bound and the exact score are sums of as many floats in the same order, each
# term of the bound at least the exact one's, so rounding alone cannot put the bound under
# the score; the slack guards against a summation order numpy might change.
BOUND_SLACK = 1e-9
BOUND_BATCH = 256


def _under(v: float) -> float:
    return v - BOUND_SLACK * max(1.0, abs(v))


def top_speed(look: Lookup, offsets: np.ndarray, run_s: np.ndarray, speeds) -> float:
    """The first of `speeds` whose best score over `offsets` is highest (`top_speed_score`)."""
    return top_speed_score(look, offsets, run_s, speeds)[0]


def top_speed_score(look: Lookup, offsets: np.ndarray, run_s: np.ndarray, speeds
                    ) -> tuple[float, float]:
    """The first of `speeds` whose best score over `offsets` is highest: what
    max(speeds, key=lambda s: lookup.scores(look, offsets, run_s, s).max()) returns, bit for bit,
    without summing every offset at every speed.

    Why: a drift search scores 65 speeds x every offset x every action, 10 times per
    analysis (the fit and the shuffled logs of `fit.drift_significant`): on a 150 s run, 9,000
    offsets x 130 actions a speed, and it grows with the square of the run's length (Breakout
    sped up, 150 s: 7 s of analysis CPU against a 1.5 s scan). Each block of BOUND_BLOCK
    offsets gets a bound: per action, the table's maximum over the indices the block's
    offsets reach (`Lookup.window_max`), summed. Only blocks whose bound reaches the best score
    found so far are summed exactly, speeds taken by their best bound first. The runs that
    `lookup.scores` correlates by FFT (their values are the FFT's) are searched as before.
    Returns (speed, its best score): the score is `lookup.scores(...).max()` at that speed, bit
    for bit (every block that can hold it is summed exactly)."""
    speeds = [float(s) for s in speeds]
    if len(speeds) == 1 or not _bounded_ok(look, offsets, run_s):
        tops = [float(lookup.scores(look, offsets, run_s, s).max()) for s in speeds]
        first = max(range(len(speeds)), key=lambda i: tops[i])  # the first of the highest
        return speeds[first], tops[first]
    step = _batch_step(look, offsets, len(run_s))
    if step:
        return _every_speed(look, offsets, run_s, speeds, step)
    k, _, v = _bounded(look, offsets, run_s, speeds)
    return speeds[k], v


SPEED_BATCH_FLOATS = 1_000_000  # scores per call of `_every_speed`'s sums (8 MB)


def _every_speed(look: Lookup, offsets: np.ndarray, run_s: np.ndarray, speeds: list[float],
                 step: int) -> tuple[float, float]:
    """`top_speed_score` by the C grid sums of every offset at every speed, a batch of
    speeds per call: the scores `lookup.scores` gives (the same sums), their highest per speed,
    the first speed of the highest. Why not the bounded blocks: with the C sums, summing
    everything costs less than bounding it (a 40 s run's 17 coarse speeds: Gopher at 30 fps
    1.58 -> 0.32 ms, Pong at 60 fps 4.8 -> 0.63 ms; session 14)."""
    n = len(offsets)
    per = max(1, SPEED_BATCH_FLOATS // n)
    tops: list[float] = []
    for a in range(0, len(speeds), per):
        sp = np.array(speeds[a:a + per])
        seg = np.array([[0, n, k] for k in range(len(sp))], np.int64)
        sc = look.grid_sums(offsets, run_s[None, :] / sp[:, None], seg, step)
        tops += sc.reshape(len(sp), n).max(axis=1).tolist()
    first = max(range(len(speeds)), key=lambda i: tops[i])  # the first of the highest
    return speeds[first], tops[first]


def peak(look: Lookup, offsets: np.ndarray, run_s: np.ndarray, speed: float
         ) -> tuple[int, float]:
    """(i, score): the first index of the highest of `lookup.scores(look, offsets, run_s, speed)`
    and that score, bit for bit, by the bounded blocks of `top_speed_score`: all a shuffled
    log's learned fit needs (`fit.significance`: 19 of them per stretch tested). With the C
    sums (`Lookup.sums`), every offset's score, not kept: a 150 s Pong run's blocks were
    nearly all summed anyway, and their bounds cost numpy more than all the sums cost C."""
    if not _bounded_ok(look, offsets, run_s):
        sc = lookup.scores(look, offsets, run_s, speed)
    else:
        fast = look.sums(offsets, run_s / float(speed))
        if fast is None:
            _, i, v = _bounded(look, offsets, run_s, [float(speed)])
            return i, v
        sc = fast
    i = int(np.argmax(sc))
    return i, float(sc[i])


def _bounded_ok(look: Lookup, offsets: np.ndarray, run_s: np.ndarray) -> bool:
    return len(offsets) >= 2 * BOUND_BLOCK and len(run_s) > 0 and look.finite and \
        lookup.direct(look, offsets, len(run_s))


def _bounded(look: Lookup, offsets: np.ndarray, run_s: np.ndarray, speeds: list[float]
             ) -> tuple[int, int, float]:
    """(speed index, offset index, score) of the best score over every speed and offset,
    ties to the first speed, then the first offset: the blocks of BOUND_BLOCK offsets whose
    bound reaches the best score found so far are summed exactly (`top_speed_score`)."""
    n, rows = len(offsets), BOUND_BLOCK
    # block j: offsets starts[j] .. starts[j + 1] (its last one shared with the next block)
    starts = np.r_[np.arange(0, n - 1, rows), n - 1]
    speed_arr = np.array(speeds)
    bounds = []
    for s in speeds:
        edge = look.index(offsets[starts], run_s / s)
        width = int((edge[1:] - edge[:-1]).max()) + 1
        bounds.append(look.window_max(edge[:-1], width).sum(axis=1))
    flat = np.concatenate(bounds)
    xs = run_s[None, :] / speed_arr[:, None]  # each speed's times, as `lookup.scores` divides
    blocks = len(starts) - 1
    span = np.arange(rows + 1)
    # best first, over every speed's blocks: the blocks summed are those whose bound reaches
    # the best score (each speed's best is exact wherever it can reach the overall best), a
    # batch at a time (one numpy call for up to BOUND_BATCH blocks, not one per block)
    order = np.argsort(-flat, kind="stable")
    best: tuple[float, int, int] = (-np.inf, 1, 1)  # (score, -speed index, -offset index)
    at, batch = 0, 8
    while at < len(order):
        take = order[at:at + batch]
        take = take[flat[take] >= _under(best[0])]
        if not len(take):
            break  # every block left is bounded under the best score
        at, batch = at + batch, min(BOUND_BATCH, 2 * batch)
        k, j = np.divmod(take, blocks)
        i = np.minimum(starts[j][:, None] + span[None, :], n - 1)
        # a block's last offset is the next block's first: summed there (a fifth of the
        # sums), except after the last block
        keep = (span[None, :] < rows) | (j == blocks - 1)[:, None]
        ii, kk = i[keep], np.broadcast_to(k[:, None], i.shape)[keep]
        v = look.sums(offsets[ii], xs, kk)
        if v is None:
            v = look.row_sums(look.index_rows(offsets[ii], xs[kk]))
        top = float(v.max())
        hit = v == top
        k_top = int(kk[hit].min())
        i_top = int(ii[hit & (kk == k_top)].min())
        best = max(best, (top, -k_top, -i_top))
    return -best[1], -best[2], best[0]


def offset_grid(sig: FrameSignals, run_s: np.ndarray) -> np.ndarray:
    """Every offset, a frame apart, that puts the middle action (the median) on the footage:
    the offsets a fit searches."""
    return grid_about(sig, median(run_s))


def grid_about(sig: FrameSignals, mid: float) -> np.ndarray:
    """`offset_grid` of actions whose median is `mid`."""
    dt = 1.0 / sig.fps
    return np.arange(float(sig.times[0]) - mid, float(sig.times[-1]) - mid + dt, dt)


def sorted_median(s: np.ndarray) -> float:
    """`median(s)` of ascending times without NaN (a window of an ordered log), bit for bit:
    its middle value, or the two middle ones' sum halved, without sorting them again."""
    n, k = len(s), len(s) // 2
    return float(s[k]) if n % 2 else float((s[k - 1] + s[k]) / 2)


# Long runs (issue 13's cost: offsets x actions x speeds grows with the square of the run's
# length) choose the lines to search from a cheap first pass (`pins`). The pass: the stretch
# of MIDDLE_SPAN_S run seconds that holds the most actions, on every DECIMATE-th offset,
# at the 1 % speed steps a 40 s run's coarse search uses (a half step moves a 40 s stretch's
# ends by 0.1 s, inside an action's look-ahead of 5 frames, `lookup.lookahead`; a grid 3 frames
# apart lands within a frame of every line's peak). Its PIVOT_LINES best lines pin the video
# time of its middle action, and so does the whole log's best line at speed 1 (a genuine
# run's line). Every speed is then searched on every offset within PIVOT_REACH_S of the lines
# through a pin, and the speed found scored on every offset. A pin finds the place better
# than the speed: on synthetic 150 s runs sped up 4.5 % and 7.75 % the pass's best lines
# were at other coarse speeds than the truth's but crossed it within 0.9 s at the pin (the
# speeds within 1 % of each pin's alone missed both). Three stretches (first, last, densest)
# changed no corpus run either and cost a 300 s run's analysis a third more: one stretch.
# Measured: docs/DECISIONS.md, "the drift search's lines from a first pass".
DECIMATE = 3
MIDDLE_SPAN_S = 40.0
PIVOT_LINES = 3
PIVOT_REACH_S = 1.0


def densest(run_s: np.ndarray, span: float) -> np.ndarray:
    """The actions (sorted) of the first stretch of `span` run seconds that holds the most."""
    e = np.sort(run_s)
    ends = np.searchsorted(e, e + span, side="left")
    i = int(np.argmax(ends - np.arange(len(e))))
    return e[i:ends[i]]


def pins(look: Lookup, offsets: np.ndarray, run_s: np.ndarray, speeds: np.ndarray
         ) -> list[tuple[float, float]]:
    """(e, v): the video times v at run times e that the first pass of `search_speed` finds
    the lines through (see MIDDLE_SPAN_S)."""
    coarse = [float(s) for s in speeds[::4]]
    thin = offsets[::DECIMATE]
    sub = densest(run_s, MIDDLE_SPAN_S)
    e = median(sub)
    found: list[tuple[float, int, float, float]] = []
    # every coarse speed's scores in one call of the C sums where they apply (the same
    # doubles as `_unkept`'s, which sums each speed's on its own)
    step = _batch_step(look, thin, len(sub))
    every = look.grid_sums(thin, np.stack([sub / s for s in coarse]),
                           np.array([[0, len(thin), k] for k in range(len(coarse))], np.int64),
                           step).reshape(len(coarse), len(thin)) if step else None
    for k, s in enumerate(coarse):  # not by bounded blocks: their bounds prune too little
        sc = every[k] if every is not None else \
            _unkept(look, thin, np.ones(len(thin), bool), sub / s)
        i = int(np.argmax(sc))
        found.append((float(sc[i]), -len(found), float(thin[i]) + e / s, s))
    out = [(e, v) for _, _, v, _ in sorted(found, reverse=True)[:PIVOT_LINES]]
    if np.any(speeds == 1.0):  # the real log's fit at speed 1 has its scores already
        known = lookup.kept(look, offsets, run_s / 1.0)
        i = int(np.argmax(known)) if known is not None else peak(look, offsets, run_s, 1.0)[0]
        e = median(run_s)
        out.append((e, float(offsets[i]) + e))
    return out


def _unkept(look: Lookup, offsets: np.ndarray, want: np.ndarray, x: np.ndarray) -> np.ndarray:
    """`lookup.scores` at offsets[want], not kept on the lookup (the pinned search asks each once):
    `lookup.scores`' direct sums, bit for bit (the same index and order), or where those would
    exceed lookup.DIRECT_MAX its correlation of every offset (a log of many actions: 100,000 over a
    150 s video)."""
    sel = offsets[want]
    if len(sel) * len(x) > lookup.DIRECT_MAX and not lookup.direct(look, offsets, len(x)):
        return lookup.correlated(look, offsets, x)[want]
    if lookup.NATIVE is not None and len(x):
        # each run of consecutive offsets apart (the pinned search's lines: a grid each,
        # `grid_sums`); an offset's sum does not depend on the others summed with it
        edge = np.flatnonzero(np.diff(np.r_[0, want.view(np.int8), 0]))
        parts = []
        for a, b in zip(edge[::2], edge[1::2], strict=True):
            v = look.sums(offsets[a:b], x)
            assert v is not None  # (built, and actions: the C sums answer)
            parts.append(v)
        return np.concatenate(parts) if parts else np.empty(0)
    rows = max(1, lookup.CHUNK_FLOATS // max(1, len(x)))
    return np.concatenate([look.row_sums(look.index(sel[i:i + rows], x))
                           for i in range(0, len(sel), rows)])


def pinned_speed(look: Lookup, offsets: np.ndarray, run_s: np.ndarray, speeds: np.ndarray
                 ) -> float:
    """The first of `speeds` whose best score over the offsets within PIVOT_REACH_S of a
    line through one of `pins` is highest."""
    found = pins(look, offsets, run_s, speeds)
    best = (-np.inf, 0)
    step = _batch_step(look, offsets, len(run_s))
    if step:
        return _pinned_batch(look, offsets, run_s, np.asarray(speeds, float), found, step)
    for k, s in enumerate(float(x) for x in speeds):
        want = np.zeros(len(offsets), bool)
        for e, v in found:
            o = v - e / s
            lo, hi = np.searchsorted(offsets, [o - PIVOT_REACH_S, o + PIVOT_REACH_S + 1e-9])
            want[lo:hi] = True
        if want.any():
            best = max(best, (float(_unkept(look, offsets, want, run_s / s).max()), -k))
    return float(speeds[-best[1]])


def _batch_step(look: Lookup, offsets: np.ndarray, actions: int) -> int:
    """The grid step of `offsets` when the C sums take every speed's runs of them in one
    call (`Lookup.grid_sums`), else 0: built, actions, and summed directly as `_unkept`
    sums them (never its correlation)."""
    if lookup.NATIVE is None or actions < 1 or not lookup.direct(look, offsets, actions):
        return 0
    return look._grid_step(offsets)


def _pinned_batch(look: Lookup, offsets: np.ndarray, run_s: np.ndarray, speeds: np.ndarray,
                  found: list[tuple[float, float]], step: int) -> float:
    """`pinned_speed`'s loop in one call of the C sums: per speed, the runs of offsets
    within PIVOT_REACH_S of each pin's line (the same searchsorted bounds), each summed as
    `_unkept` sums it; a run that overlaps another is summed twice, which leaves the
    speed's highest score as it is."""
    e = np.array([p[0] for p in found], float)
    v = np.array([p[1] for p in found], float)
    o = v[None, :] - e[None, :] / speeds[:, None]   # (speeds, pins): v - e / s
    lo = np.searchsorted(offsets, o - PIVOT_REACH_S)
    hi = np.searchsorted(offsets, o + PIVOT_REACH_S + 1e-9)
    k = np.broadcast_to(np.arange(len(speeds))[:, None], o.shape)
    seg = np.stack([lo.ravel(), hi.ravel(), k.ravel()], axis=1)[(hi > lo).ravel()]
    if not len(seg):
        return float(speeds[0])
    sc = look.grid_sums(offsets, run_s[None, :] / speeds[:, None], seg, step)
    starts = np.r_[0, np.cumsum(seg[:, 1] - seg[:, 0])[:-1]]
    first = np.r_[True, seg[1:, 2] != seg[:-1, 2]]   # each speed's first run
    tops = np.maximum.reduceat(sc, starts[first])
    best = (-np.inf, 0)
    for kk, top in zip(seg[first, 2].tolist(), tops.tolist(), strict=True):
        best = max(best, (float(top), -kk))
    return float(speeds[-best[1]])


def search_speed(look: Lookup, offsets: np.ndarray, run_s: np.ndarray,
                 speeds: np.ndarray) -> tuple[float, float]:
    """The fit's speed: coarse to fine on short runs (1 % steps, then 0.25 % around the
    best); on runs longer than EVERY_SPEED_SPAN_S, every speed near the lines a cheap first
    pass pins (`pinned_speed`). Returns (speed, its best score over `offsets`)."""
    speeds = np.asarray(speeds, float)
    long_run = float(run_s.max() - run_s.min()) > EVERY_SPEED_SPAN_S
    if long_run and len(speeds) > 9 and len(offsets) >= 2 * DECIMATE:
        return top_speed_score(look, offsets, run_s, [pinned_speed(look, offsets, run_s, speeds)])
    coarse = speeds if len(speeds) <= 9 or long_run else speeds[::4]
    if len(speeds) == len(coarse):
        return top_speed_score(look, offsets, run_s, coarse)
    top_s = top_speed(look, offsets, run_s, coarse)
    return top_speed_score(look, offsets, run_s, speeds[np.abs(speeds - top_s) < 0.0101])


def best_score(look: Lookup, offsets: np.ndarray, run_s: np.ndarray,
               speeds: np.ndarray = SPEEDS) -> float:
    """`fit(...).score` for these offsets and speeds without the rest of the fit (its z and
    margin sum every offset once more): all a shuffled log's drift search is asked for."""
    if len(run_s) == 0 or len(offsets) == 0:
        return 0.0
    return search_speed(look, offsets, run_s, speeds)[1]


def fit(sig: FrameSignals, nov: Novelty, run_s: np.ndarray, *,
        offsets: np.ndarray | None = None, speeds: np.ndarray = SPEEDS,
        best: np.ndarray | None = None, look: Lookup | None = None) -> Fit | None:
    """The best (offset, speed) for the actions at `run_s` (None with no action or frame).

    Speeds are searched as `search_speed` says."""
    if len(run_s) == 0 or len(sig) < 2:
        return None
    if look is None:
        look = Lookup(sig, lookup.lookahead(sig, nov) if best is None else best)
    if offsets is None:
        offsets = offset_grid(sig, run_s)
    # one speed (the track's windows, the learned fit: most of an analysis' ~400 fits):
    # `search_speed` would sum these very scores to pick it, then `fit_of` ask for them
    # again; the same scores, summed once (the speed as `top_speed_score` returns it)
    top_s = float(speeds[0]) if len(speeds) == 1 else \
        search_speed(look, offsets, run_s, speeds)[0]
    return fit_of(offsets, lookup.scores(look, offsets, run_s, top_s), top_s)


def every_speed_fit(sig: FrameSignals, nov: Novelty, run_s: np.ndarray,
                    look: Lookup) -> Fit | None:
    """`fit` over every speed (SPEEDS, the drift search) on `look` (a lookup of `nov`'s
    lookahead on `sig`); kept on the signals (`FrameSignals.kept`) when `nov` is their plain
    novelty. Why: the whole picture's reading (`reading.analyze_at`) and the band's drift
    (`analysis._drift_speed`) both search the same actions on the same signals: the same
    answer, found once (a drift search is a few ms of a 40 s run's analysis)."""
    if sig.kept.get("novelty") is not nov:
        return fit(sig, nov, run_s, look=look)
    key = ("every_speed_fit", run_s.dtype.str, run_s.tobytes())
    if key not in sig.kept:
        sig.kept[key] = fit(sig, nov, run_s, look=look)
    return sig.kept[key]


def fit_of(offsets: np.ndarray, scores: np.ndarray, speed: float) -> Fit:
    """The `Fit` of these scores over `offsets` at this speed (`fit`'s peak, z and margin)."""
    top_s = speed
    if lookup.NATIVE is not None and len(scores) and len(scores) == len(offsets):
        st = np.empty(5)
        lookup.NATIVE.fit_stats(np.ascontiguousarray(offsets, dtype=np.float64),
                         np.ascontiguousarray(scores, dtype=np.float64), 0.1, st)
        if st[0] >= 0:  # (a NaN score: numpy's answer below)
            i, top, mu, std, rest_max = int(st[0]), float(st[1]), float(st[2]), st[3], st[4]
            sd = float(max(std, 1e-6))
            return Fit(float(offsets[i]), float(top_s), top, (top - mu) / sd,
                       (top - float(rest_max)) / sd)
    i = int(np.argmax(scores))
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
    offsets = offset_grid(sig, run_s)
    sc = lookup.scores(look, offsets, run_s, speed)
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
    offsets = offset_grid(sig, run_s)
    sc = lookup.scores(look, offsets, run_s, speed)
    mu, sd = float(sc.mean()), float(max(sc.std(), 1e-6))
    out: list[float] = []
    for i in np.argsort(-sc):
        if (sc[i] - mu) / sd < min_z or len(out) >= count:
            break
        if all(abs(offsets[i] - o) > 0.2 for o in out):
            out.append(float(offsets[i]))
    return out
