"""The global fit of the sync analysis: the offset (and clock speed) the reactions single out,
refined to a sub-frame offset, and its significance against shuffled logs.

Why apart from `analysis`: these are the pieces every stage asks for the same answer (the
learnt fit is memoised per stretch), while `analysis` decides which stretch to trust.
"""

from __future__ import annotations

import math

import numpy as np

from . import align, lookup, reactions, track
from .stats import median, percentile

# The first visible change follows an input by 0 to 2 frames of a 60 Hz game (it reads the
# input during one frame and draws it in the same or the next). Measured on 8 Atari games
# (Breakout, Pitfall, Pong, Boxing, Tennis, Enduro, ...): the median delay of the supporting
# reactions minus 0.75 frame puts the offset within 0.82 frame of the truth on all of them but
# Enduro, whose car answers 2-3 frames late (2 frames off). A capture at a rate that does not
# divide 60 dates every reaction later still; the suggestion takes that off apart
# (`cadence.capture_lag_s`).
INPUT_LATENCY_S = 0.75 / 60
# The earliest quarter of the player's band's reactions (analysis.BAND_LATENCY_Q) comes sooner
# after the input than their median: at 0.75 frame too, the band's genuine offsets (both corpus
# sets) spread -0.97 to +0.38 frame (Frostbite draws a press in the frame it reads it: -0.83,
# -0.84, -0.97; Pong's paddle +0.27 to +0.38); at 0.5 frame -0.72 to +0.63.
EARLY_LATENCY_S = 0.5 / 60


def latency_s(q: float) -> float:
    """The input latency to take off the q-th percentile of the supporting reactions'
    delays: the median's (INPUT_LATENCY_S), or the earliest quarter's below it."""
    return INPUT_LATENCY_S if q >= 50.0 else EARLY_LATENCY_S
SUPPORT_BEFORE_S = 1 / 60   # a reaction supports an offset from this early ...
SUPPORT_AFTER_S = 0.08      # ... to this late after the expected time


def confidence(z: float, support: int) -> float:
    return round(max(0.0, min(1.0, (1 - math.exp(-(z - 2) / 3)) * min(1.0, support / 10))), 3)


def piecewise_support(sig, look, run_s, offset, speed, th, nov) -> float:
    """Actions explained by the best piecewise-constant offsets at this speed, less penalties."""
    cands = candidates(sig, nov, look, run_s, offset, speed, th)
    path = track.segment(look, run_s, cands, speed, th.sync_reaction_z)
    # each action at its own stretch's offset, all at once (`track.supported` is per action:
    # the same lookups as one call per action; 127 calls were 1.3 ms of a 150 s run's)
    offs = np.array([cands[j] for j in path], float)
    sup = int(np.count_nonzero(track.supported(look, run_s, offs, speed, th.sync_reaction_z)))
    return sup - track.SWITCH_PENALTY * int(np.count_nonzero(np.diff(path)))


def windows(sig, nov, look, run_s, speed, th) -> list[track.TrackPoint]:
    return track.windows(sig, nov, look, run_s, speed, th.sync_min_z, 4)


def candidates(sig, nov, look, run_s, offset, speed, th, pts=None) -> list[float]:
    """Offsets a stretch of the run may follow: the global one, the windows' (`pts`, the
    track's windows when the caller has them) and the global score's other peaks."""
    if pts is None:
        pts = windows(sig, nov, look, run_s, speed, th)
    return track.candidate_offsets(offset, pts, align.peaks(sig, look, run_s, speed))


def refine(run_s, sig, nov, offset, speed, th, q: float = 50.0) -> tuple[float, int]:
    """Sub-frame offset: the q-th percentile (the median by default) of the supporting
    reactions' (video - run) times, less the typical input latency (robust to a few early
    chance matches)."""
    rs = reactions.measure(sig, nov, run_s, offset, speed, th.sync_reaction_z)
    d = [r.video_s - r.run_s / speed for r in rs
         if r.delay_s is not None and -SUPPORT_BEFORE_S - 1e-6 <= r.delay_s <= SUPPORT_AFTER_S]
    if not d:
        return offset, 0
    return float(percentile(d, q)) - latency_s(q), len(d)


# A reaction never comes before its input, so an offset whose reactions are a later change of
# the same presses is too late. Video Pinball (ale-py, in no corpus set; QA session 14, G7): a
# flipper press changes 1 tile on the next frame (novelty 2.6 local spreads), its release swings
# the flipper back in steps 5 frames apart, 2 tiles each (4.3 spreads); with holds of 4-12
# frames one of those steps falls 10-14 frames after every press, and the fit peaked there:
# every Pinball run 3-11 frames (~0.19 s) late at confidence 0.64-0.95. An offset up to
# EARLIER_S before the fitted one, past its support window, where at least as many actions
# show a reaction (none of them can be a consequence of the later one's) is the presses' own.
EARLIER_S = 0.3
EARLIER_SHARE = 0.6


def _supported(sig, nov, run_s, offset, speed, th) -> int:
    """Actions with a standing reaction from SUPPORT_BEFORE_S before to SUPPORT_AFTER_S
    after their expected time at this offset."""
    exps, hit, k = reactions.first_reactions(sig, nov, run_s, offset, speed,
                                             th.sync_reaction_z)
    d = np.asarray(sig.times)[k] - exps
    return int(np.count_nonzero(hit & (d >= -SUPPORT_BEFORE_S - 1e-6) &
                                (d <= SUPPORT_AFTER_S + 1e-6)))


def earliest(run_s, sig, nov, look, offset, speed, th,
             q: float = 50.0, min_z: float | None = None) -> tuple[float, int] | None:
    """(offset, support) of the actions' first reactions when `offset` reads a later change
    of the same actions (see EARLIER_S), else None. `nov`, `look`: the unweighted novelty
    and its lookup (the learned tile weights favour the tiles the later change is in).
    `min_z`: the bar the earlier offset's fit must stand, for a stretch of the run, held to
    the bar its own offset passed (sync_min_z by default), and to EARLIER_SHARE of its own
    actions supported where it holds fewer than sync_min_actions / EARLIER_SHARE (Pinball's
    8 actions before inserted footage, 2 of them FIRE, which shows nothing: 5 at 3.30 s)."""
    own = _supported(sig, nov, run_s, offset, speed, th)
    gap = SUPPORT_BEFORE_S + SUPPORT_AFTER_S
    step = 0.5 / max(sig.fps, 1e-6)
    floor = th.sync_min_actions if min_z is None else \
        min(th.sync_min_actions, math.ceil(EARLIER_SHARE * len(run_s)))
    need = max(math.ceil(EARLIER_SHARE * own), floor)
    for o in offset - EARLIER_S + np.arange(0.0, EARLIER_S - gap, step):
        if _supported(sig, nov, run_s, o, speed, th) < need:
            continue
        new, support = refine(run_s, sig, nov, o, speed, th, q)
        if support < need or new >= offset - gap:
            return None
        # chance stands no such peak: Pong's paddle (which moves before and after every
        # press) has 60-70 % of its support 7-16 frames early, at z 0.8-2.7; Pinball's
        # presses stand at z 3.6-8.2
        bar = th.sync_min_z if min_z is None else min_z
        return (new, support) if align.z_at(sig, look, run_s, speed, new) >= bar else None
    return None


def first_offset(run_s, sig, nov, plain, offset, speed, th, q: float = 50.0,
                 min_z: float | None = None) -> tuple[float, int, float]:
    """(offset, support, lag): `refine`d on `nov`, then moved to the actions' first
    reactions when it reads a later change of them (`earliest`, on `plain`: the unweighted
    novelty and its lookup); `lag`: how much later the refined offset was (0 when not
    moved), where the fit's own lookup (`nov`'s) still sees the stretch. Every offset the
    analysis measures goes through it: the whole run's, a drifting run's before its line is
    refined, a stretch's between jumps and the part a stretch at chance leaves (QA s14:
    Pinball's first stretch before inserted footage +5.47 frames, its 5 % drift +3.0
    frames, both the flipper's release)."""
    offset, support = refine(run_s, sig, nov, offset, speed, th, q)
    if plain is None:
        return offset, support, 0.0
    first = earliest(run_s, sig, plain[0], plain[1], offset, speed, th, q, min_z)
    if first is None:
        return offset, support, 0.0
    return first[0], first[1], offset - first[0]


# A long run's drift line is searched again near the grid's. The grid's speed is up to half a
# step (0.125 %) off, which moves the line by that share of the run's span at its far end:
# past the support window (SUPPORT_BEFORE_S + SUPPORT_AFTER_S) on runs longer than ~78 s
# (`grid_too_coarse`), so the reactions the Theil-Sen line is drawn through are the grid
# line's own and it stays near it (a 300 s Breakout run sped up 2.7 % read 1.0273 and an
# offset 5.8 frames late, from 159 supported reactions against 193 at the true line). There,
# the line the most reactions support is searched within one grid step of the grid's speed,
# in steps that move the run's ends by half a frame, each turned about the grid line's
# supported reactions (their median run time) and shifted as far as the turn can have moved
# it, plus 3 frames. Shorter runs keep the grid's line: they lose nothing to the grid's step,
# and on 40 s runs a first version of this search moved Pong's offsets 1-2 frames away (its
# reactions spread over 6 frames, so many lines tie).
FINE_STEP_FRAMES = 0.5
FINE_RANGE = 0.0025
FINE_MAX_STEPS = 120   # per side: a 10-minute run still pays a bounded search
FINE_OFFSET_FRAMES = 3


def grid_too_coarse(run_s) -> bool:
    """The speed grid's half step moves the line past the support window over this run."""
    return len(run_s) >= 2 and \
        float(run_s[-1] - run_s[0]) * FINE_RANGE / 2 > SUPPORT_BEFORE_S + SUPPORT_AFTER_S


def fine_line(run_s, sig, nov, offset: float, speed: float, th) -> tuple[float, float]:
    """The (offset, speed) near the grid's line that scores best (the fit's own score, on
    `nov`), on runs long enough for the grid's step to matter (see FINE_STEP_FRAMES); ties
    go to the speed nearest the grid's."""
    run_s = np.asarray(run_s, float)
    if not grid_too_coarse(run_s) or sig.fps <= 0:
        return offset, speed
    span = float(run_s[-1] - run_s[0])
    exps, hit, k = reactions.first_reactions(sig, nov, run_s, offset, speed, th.sync_reaction_z)
    d = sig.times[k] - exps
    sup = hit & (d >= -SUPPORT_BEFORE_S - 1e-6) & (d <= SUPPORT_AFTER_S)
    if not sup.any():
        return offset, speed
    anchor = float(median(run_s[sup]))
    step = FINE_STEP_FRAMES / sig.fps / span
    n = int(min(math.ceil(FINE_RANGE / step), FINE_MAX_STEPS))
    # the lines turned about the anchor part from the true one by up to half a grid step
    # times the run's length on the anchor's far side (the anchor sits among the grid line's
    # supported reactions, which gather where it crosses the true one): shifts cover that
    reach = FINE_OFFSET_FRAMES / sig.fps + FINE_RANGE / 2 * max(anchor - float(run_s[0]),
                                                                float(run_s[-1]) - anchor)
    df = np.arange(-math.ceil(reach * sig.fps), math.ceil(reach * sig.fps) + 1) / sig.fps
    look = lookup.Lookup(sig, lookup.lookahead(sig, nov))
    best = (-math.inf, 0, offset, speed)
    for i in range(-n, n + 1):
        s = speed * (1 + step * i)
        offs = offset + anchor / speed - anchor / s + df
        sc = lookup.scores(look, offs, run_s, s)
        j = int(np.argmax(sc))
        key = (float(sc[j]), -abs(i), float(offs[j]), s)
        if key[:2] > best[:2]:
            best = key
    return best[2], best[3]


def refine_speed(run_s, sig, nov, offset, speed, th) -> tuple[float, float, float]:
    """(offset, speed, the offset's standard error in seconds) of a drifting video, refined by
    a robust line through the supporting reactions: the fit's speed grid (0.25 %) leaves an
    error that the median of the residuals turns into an offset error of speed error x median
    run time (Pong: 3.6 frames). The reactions are those of the best line near the grid's on
    long runs (`fine_line`). The error (`_intercept_se`) is 0 when the line is the grid's."""
    grid = speed
    offset, speed = fine_line(run_s, sig, nov, offset, speed, th)
    rs = reactions.measure(sig, nov, run_s, offset, speed, th.sync_reaction_z)
    pts = [(r.run_s, r.video_s) for r in rs
           if r.delay_s is not None and -SUPPORT_BEFORE_S - 1e-6 <= r.delay_s <= SUPPORT_AFTER_S]
    if len(pts) < max(6, th.sync_min_actions):
        return offset, speed, 0.0
    x, y = np.array(pts).T
    line = _theil_sen(x, y)
    if line is None:
        return offset, speed, 0.0
    at0, slope = line
    if not 0.9 < slope < 1.1 or abs(1 / slope - grid) > 0.005:
        return offset, speed, 0.0  # not the line the grid found: keep the grid's
    return at0 - INPUT_LATENCY_S, 1 / slope, _intercept_se(x, y)


def _theil_sen(x: np.ndarray, y: np.ndarray) -> tuple[float, float] | None:
    """(the median of y - slope x, slope): the median of the pairwise slopes of points more
    than 1 s apart, robust to a few chance matches; None when no pair is."""
    i, j = np.triu_indices(len(x), 1)
    dx = x[j] - x[i]
    ok = dx > 1.0
    if not ok.any():
        return None
    slope = float(median((y[j] - y[i])[ok] / dx[ok]))  # video seconds per run second
    return float(median(y - slope * x)), slope


def _intercept_se(x: np.ndarray, y: np.ndarray) -> float:
    """The standard error of the line's value at run time 0 (the offset): the slope's error
    times the lever arm (the points' median run time, where the Theil-Sen line is pinned)
    beside the error of the residuals' median there. The slope's error is Sen's
    distribution-free interval (the pairwise slopes ranked by the spread of Kendall's
    statistic, one sigma each side), halved.

    Why: a drift's offset is the line carried back from its reactions (their median run
    time 15-70 s) to run_start, and a slope a tenth of a percent off moves it by frames. A
    grouped jackknife (sessions 25-26) is no error of a median (it sees the few middle
    points move, not their spread): Tennis sped up 6 % (15 reactions, median 23 s) read
    5.949 % and an offset 1.25 frames early at confidence 0.785 with a jackknife error of
    0.18 frame; the slope's 0.051 % alone moved it 0.63 frame, and Sen's interval says
    0.42 frame. Sen's interval is one sort of the pairs the line is drawn from already (the
    jackknife was 20 lines)."""
    n = len(x)
    i, j = np.triu_indices(n, 1)
    dx = x[j] - x[i]
    ok = dx > 1.0
    if n < 3 or not ok.any():
        return 0.0
    slopes = np.sort((y[j] - y[i])[ok] / dx[ok])
    m = len(slopes)
    c = math.sqrt(n * (n - 1) * (2 * n + 5) / 18)  # Kendall's S: its spread under no trend
    lo = slopes[max(0, int((m - c) / 2))]
    hi = slopes[min(m - 1, math.ceil((m + c) / 2))]
    slope_se = float(hi - lo) / 2
    resid = y - float(median(slopes)) * x
    # the median's asymptotic error: sqrt(pi / 2) times the mean's
    centre_se = math.sqrt(math.pi / 2) * float(np.std(resid, ddof=1)) / math.sqrt(n)
    return math.hypot(slope_se * float(median(x)), centre_se)


# The offset of a drift is offered when two of its standard errors stay within what the
# latency model leaves of a frame: the input latency taken off (INPUT_LATENCY_S) is one
# number for every game, and the genuine runs' offsets are off by the game's own latency
# (the corpus' 18 games at 60 fps, the median error per game: -0.59 to +0.63 frame, half of
# them within 0.36): LATENCY_ALLOWANCE_FRAMES of the frame is the latency's, the line's
# error (`_intercept_se`) may have the rest at two errors, LINE_SE_FRAMES. Beyond, its
# confidence is bounded under the one-click bar (records.APPLY_MIN_CONFIDENCE), as a latency
# spread's is (`precede.spread_bound`): LINE_SE_FRAMES / 2 over the error, under 0.5 past it.
# (At half a frame, sessions 25-26, Tennis sped up 6 % was offered 1.25 frames early: its
# game's latency -0.54 frame, its line's error 0.42 frame, -0.71 of it.) The offered lines of
# the corpus' drifts (Boxing, Breakout, Pitfall, Pong's 150 s run, Video Pinball) stand at
# 0.12-0.31 frame; Tennis' at 0.42-0.73, Pong's 40 s runs at 0.52-0.79.
LATENCY_ALLOWANCE_FRAMES = 0.3
LINE_SE_FRAMES = (1.0 - LATENCY_ALLOWANCE_FRAMES) / 2


def line_bound(se_s: float, fps: float) -> float:
    """The confidence a drift's offset with this standard error can have (1 within
    LINE_SE_FRAMES of a frame)."""
    se = se_s * fps
    return 1.0 if se <= LINE_SE_FRAMES + 1e-9 else round(LINE_SE_FRAMES / 2 / se, 3)


NULL_SETS = 19  # permuted logs for the significance of the fit


def permuted(run_s: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The log's own rhythm (its gaps, shuffled) without its alignment to the picture."""
    gaps = np.diff(run_s)
    rng.shuffle(gaps)
    return np.concatenate([run_s[:1], run_s[0] + np.cumsum(gaps)])


# The weight of a tile where reactions are no likelier than anywhere, in the fit: a tile
# where they are e times likelier weighs FIT_WEIGHT_FLOOR + 1. At 1 (the first version) the
# ball, the opponent and the scroll keep most of their say; at 0.5 the fit leans on the
# player's own region (Pong's genuine offset +0.95 -> +0.55 frame, River Raid's first genuine
# run gets its offset, +0.33 frame). The shuffled logs go through the same learning, so a
# region learnt from chance matches is no evidence. The reactions that findings are made of
# keep the floor of 1: at 0.5 Pitfall got false `sync.no_reaction` stretches.
FIT_WEIGHT_FLOOR = 0.5


def learned_fit(sig, nov1, look1, q, run_s, speed, th, memo: dict | None = None):
    """Fit on plain novelty, learn where reactions show (tile weights), fit again on that.
    Returns (fit, its novelty, its lookup, the tile weights learnt or None). `memo`: the
    analysis' answers so far (the same stretch is learnt for the suggestion, its
    significance and the track's checks: a tenth of the analysis, once is enough)."""
    key = (run_s.tobytes(), speed)
    if memo is not None and key in memo:
        return memo[key]
    out = _learn(sig, nov1, look1, q, run_s, speed, th)
    if memo is not None:
        if out[3] is not None:  # weights learnt: a novelty and a lookup of its own
            held = memo.setdefault(LEARNED, [])
            held.append(key)
            if len(held) > LEARNED_KEPT:
                del memo[held.pop(0)]
        memo[key] = out
    return out


# The learned fits a memo keeps (`learned_fit`), the latest: each one that learnt tile
# weights holds its own novelty and lookup, ~100 bytes a frame (21 MB for an hour at 60 fps),
# and a long run's track cuts its log into many stretches, each tested (`significance`):
# an hour's rises at 60 fps with 3,000 actions kept ~155 of them, 3.3 GB, to the end of the
# reading. One evicted and asked again is learnt again, the same answer.
LEARNED_KEPT = 8
LEARNED = ("learned",)  # the memo's own key: the learned fits kept, oldest first


def _learn(sig, nov1, look1, q, run_s, speed, th):
    f1 = align.fit(sig, nov1, run_s, speeds=np.array([speed]), look=look1)
    assert f1 is not None  # the caller has actions and two frames: fit always answers
    exps, hit, k = reactions.first_reactions(sig, nov1, run_s, f1.offset_s, speed,
                                             th.sync_reaction_z)
    vs = sig.times[k][hit & (sig.times[k] - exps <= SUPPORT_AFTER_S)]
    w = reactions.tile_weights(sig, nov1, vs, q, floor=FIT_WEIGHT_FLOOR)
    if w is None:
        return f1, nov1, look1, None
    nov = reactions.novelty(sig, w, like=nov1)
    look = lookup.Lookup(sig, lookup.lookahead(sig, nov), like=look1)
    fit = align.fit(sig, nov, run_s, speeds=np.array([speed]), look=look)
    return fit, nov, look, w


def learned_look(sig, nov1, look1, q, run_s, speed, th):
    """(offsets, look, score): the offset grid, the learned fit's Lookup (the tiles that
    answered at the plain fit's peak, weighed; `look1` itself when none weighs) and the plain
    peak's score. One place for the learned fit's steps, which `_learned_score` and the
    buttons test (core/sync/buttons.py) both read (review R9, session 34: they were two
    copies, and a change to one would have left the other on another peak)."""
    offsets = align.offset_grid(sig, run_s)
    i, score = align.peak(look1, offsets, run_s, speed)
    exps, hit, k = reactions.first_reactions(sig, nov1, run_s, float(offsets[i]), speed,
                                             th.sync_reaction_z)
    vs = sig.times[k][hit & (sig.times[k] - exps <= SUPPORT_AFTER_S)]
    w = reactions.tile_weights(sig, nov1, vs, q, floor=FIT_WEIGHT_FLOOR)
    if w is None:
        return offsets, look1, score
    nov = reactions.novelty(sig, w, like=nov1)
    return offsets, lookup.Lookup(sig, lookup.lookahead(sig, nov), like=look1), score


def _learned_score(sig, nov1, look1, q, run_s, speed, th) -> float:
    """`learned_fit(...)[0].score`, bit for bit, from the two fits' peaks alone
    (`align.peak`: bounded blocks, not every offset summed; the z and margin of a shuffled
    log's fits are never read)."""
    offsets, look, score = learned_look(sig, nov1, look1, q, run_s, speed, th)
    return score if look is look1 else align.peak(look, offsets, run_s, speed)[1]


# A long run's stretch (longer than align.EVERY_SPEED_SPAN_S) whose learned fit stands
# SIGNIFICANCE_SETTLED_FACTOR times max(its own z, th.sync_min_null_z) spreads above its first
# SIGNIFICANCE_SETTLED shuffled logs (or more) is not tested on the others (issue 13's cost:
# the 19 shuffled learned fits were 42-64 % of a 150 or 300 s run's analysis). The z is then
# the one over the shuffles so far. What it decides stays as with all 19: the stretch passes
# sync_min_null_z, and the confidence takes min(fit z, null z) = the fit's z, as long as the
# full test's z is no less than a third of the early one. Measured on the corpus' 18 stretches
# of 150 and 300 s runs: the z over the first 4 shuffles is 0.80-2.36 times the z over 19.
SIGNIFICANCE_SETTLED = 4
SIGNIFICANCE_SETTLED_FACTOR = 3.0


def under_bound(score: float, null: list[float], total: int) -> float:
    """The highest (score - mean) / std over `total` shuffled logs' scores of which `null`
    are known (all under `score`), whatever the others are: an upper bound on the z the
    test computes from all of them (its std's floor only lowers it); inf when it bounds
    nothing (fewer than two known, or all alike).

    Why it holds: for any mean of the others, their squared deviations are least when they
    are all alike, so the highest z has the other r = total - k all at one value v. With the
    k known of mean c and squared deviations SS, and t = c - v: total * var = SS + k r t^2 /
    total, score - mean = (score - c) + r t / total, and by Cauchy-Schwarz their ratio is at
    most sqrt(total (score - c)^2 / SS + r / k), reached at t = SS / (k (score - c))."""
    k = len(null)
    if k < 2:
        return math.inf
    a = np.asarray(null, float)
    c = float(a.mean())
    ss = float(((a - c) ** 2).sum())
    if ss <= 0.0 or score <= c:
        return math.inf
    return math.sqrt(total * (score - c) ** 2 / ss + (total - k) / k)


# The margin under a threshold an early bound (`under_bound`) must keep: the z computed in
# floats may exceed its real value by rounding (~1e-15 relative); far more than that.
UNDER_MARGIN = 1e-6


def short_of(score: float, null: list[float], total: int, bar: float) -> float | None:
    """`under_bound` when the z over all `total` shuffled logs, `null` of them known,
    provably stays under `bar` (by UNDER_MARGIN), else None (all of them known, or the
    bound reaches the bar). The one test behind every early exit of the shuffled-log loops
    (`significance`, `drift_significant`, the bands' `select`, `select_over_speeds`,
    `select_at`), so that each stops on the same proof."""
    if len(null) >= total:
        return None
    bound = under_bound(score, null, total)
    return bound if bound < bar - UNDER_MARGIN * max(1.0, abs(bar)) else None


def significance(sig, nov1, look1, q, run_s, speed, th, memo: dict | None = None,
                 needed: float | None = None):
    """The learned fit of these actions, and its score in spreads over the same procedure on
    NULL_SETS permutations of their gaps (fewer on long runs where it is settled, see
    SIGNIFICANCE_SETTLED).

    `needed`: the caller reads the z only as "at least `needed`" or not (`reading._read_at`:
    a run whose track has one stretch to test needs sync_min_null_z): the shuffled logs stop
    as soon as the z over all NULL_SETS provably stays under it (`under_bound`), and that
    bound is returned. Why: a silent run's readings tested 19 shuffled logs each to find a
    z of 2.3-4.2 where 5 was needed (River Raid's second genuine run: 8 readings, a third of
    its analysis); the bound settles it after 5-15 of them, the same answer."""
    f = learned_fit(sig, nov1, look1, q, run_s, speed, th, memo)[0]
    rng = np.random.default_rng(len(run_s))
    # bounded blocks pay on long runs only (40 s Pong: 0.06 -> 0.10 s analysis CPU with them,
    # its moving paddle and ball leave most blocks' bounds near the best score)
    long_run = float(run_s[-1] - run_s[0]) > align.EVERY_SPEED_SPAN_S
    # a stretch of a long video searches the whole video's offsets (a 47 s stretch of a 150 s
    # Pong run: 9,000 of them): its shuffled logs' peaks by bounded blocks too (exact). With
    # the C sums a peak is every offset's sum and its first highest (no bounds): the short
    # runs' shuffled logs take it too, without the fits' z, margin and kept scores (the same
    # score; Gopher 40 s at 30 fps: 0.37 -> 0.31 ms a shuffled log, session 14)
    lean = lookup.NATIVE is not None or long_run or \
        float(sig.times[-1] - sig.times[0]) > align.EVERY_SPEED_SPAN_S
    scores = []
    for _ in range(NULL_SETS):
        p = permuted(run_s, rng)
        scores.append(_learned_score(sig, nov1, look1, q, p, speed, th) if lean
                      else learned_fit(sig, nov1, look1, q, p, speed, th)[0].score)
        if scores[-1] >= f.score:
            return f, 0.0  # a shuffled log does as well: the answer is known (silent runs)
        if long_run and len(scores) >= SIGNIFICANCE_SETTLED:
            null = np.array(scores)
            zz = float((f.score - null.mean()) / max(null.std(), 1e-6))
            if zz >= SIGNIFICANCE_SETTLED_FACTOR * max(f.z, th.sync_min_null_z):
                return f, zz
        # (no later exit can then say more: a shuffled log doing as well gives 0, and the z
        # over fewer logs is under the same bound, short of the settled factor)
        if needed is not None and (bound := short_of(f.score, scores, NULL_SETS,
                                                     needed)) is not None:
            return f, bound
    null = np.array(scores)
    return f, float((f.score - null.mean()) / max(null.std(), 1e-6))


# Shuffled logs for a drift: each searches every speed (25 fits' worth), so fewer than the
# fit's 19; with 9, a drift on Breakout or Pitfall costs ~0.1 s more analysis (19: ~0.2 s).
DRIFT_NULL_SETS = 9


# A long run's drift (its actions spanning more than align.EVERY_SPEED_SPAN_S) whose score
# stands this many times the required spreads above its first DRIFT_NULL_SETTLED shuffled
# logs is not tested on the others (issue 13's cost: each shuffled log of a 150 s run searches
# 65 speeds over 9,000 offsets). The corpus' sped-up 150 s runs stand 10.0-50 spreads above
# all 9 (Boxing 10.0, Pong 20.6, Pitfall 22-43, Breakout 42-50) and 8.4-69 above their first 4
# (the threshold: 3, so 6 here). A short run's shuffled logs are cheap, and four of them
# measure no spread: Pooyan's human stretch at 40 fps (QA s20/s21 M4, 19 actions, 4x4 tiles)
# stood 6.66 spreads above its first 4 (spread 0.44) and 2.55 above all 9 (spread 1.50): a
# false +6.19 % `sync.drift` and an offset 190 frames off at confidence 0.576.
DRIFT_NULL_SETTLED = 4
DRIFT_SETTLED_FACTOR = 2.0


def _settled(score: float, null: np.ndarray, th) -> bool:
    return bool(score > null.max()) and (score - null.mean()) / max(float(null.std()), 1e-6) \
        >= DRIFT_SETTLED_FACTOR * th.sync_min_null_z_splice


def drift_significant(sig, nov1, look1, run_s, score: float, th) -> bool:
    """The drift fit's score beats the same search over every speed on shuffled logs. The
    significance test below runs at the one speed chosen; a speed chosen among 65 by the
    real log alone wins there by the choice (Seaquest, held out: a genuine run got a 4 %
    drift and an offset 7 s off, confidence 0.56)."""
    rng = np.random.default_rng(len(run_s) + 1)
    long_run = len(run_s) >= 2 and float(run_s[-1] - run_s[0]) > align.EVERY_SPEED_SPAN_S
    null = []
    for _ in range(DRIFT_NULL_SETS):
        p = permuted(run_s, rng)
        # the fit's score alone (`align.best_score`: the same number as align.fit's)
        null.append(align.best_score(look1, align.offset_grid(sig, p), p)
                    if len(p) and len(sig) >= 2 else 0.0)
        if null[-1] >= score:
            return False  # a shuffled log does as well: no need for the others
        if long_run and len(null) >= DRIFT_NULL_SETTLED and _settled(score, np.array(null), th):
            return True
        # the z over all DRIFT_NULL_SETS provably under the bar: False, as all of them say
        # (Asteroids' genuine run: its spurious drift's 9 shuffled logs, 8 % of its analysis)
        if short_of(score, null, DRIFT_NULL_SETS, th.sync_min_null_z_splice) is not None:
            return False
    nz = np.array(null)
    return score > nz.max() and \
        (score - nz.mean()) / max(float(nz.std()), 1e-6) >= th.sync_min_null_z_splice
