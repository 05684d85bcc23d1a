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

from . import align, reactions
from .fit import EARLY_LATENCY_S, SUPPORT_AFTER_S, SUPPORT_BEFORE_S
from .lookup import Lookup
from .reactions import Novelty
from .signals import FrameSignals
from .stats import percentile

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


# The earliest reactions bound the offset. The fit dates its offset by the median of the
# supporting reactions less 0.75 of a 60 Hz frame (`fit.refine`): a game that answers within
# 0-2 of its frames. Adventure (ale-py, QA session 16, J2) answers 1-4 frames after a press
# (truth, with the recorder's frame: 27-85 ms at 25 fps, 15-73 ms at 48 fps): the median sat
# 45 ms and 36 ms after run_start (+1.14 and +1.71 frames) at confidence 0.98, and nothing
# precedes it above chance (3 of 22 presses), so `ahead_s` leaves it. A reaction never comes
# before its press: the earliest group of reactions (EARLIEST_K within a frame of the video,
# more than chance puts there: EARLIEST_P) is no earlier than the offset. When the suggestion
# stands more than a game frame (EARLIEST_GAP_S) after that group, the game's latency spreads
# past the fit's model and the offset moves to the group, by at most a frame of the video;
# the confidence is then the group's (its reactions are the evidence: `fit.confidence` on
# their number). Within a game frame the median's dating stands: at half a frame, 33 rows of
# QA s14-s16 and the first set moved (Breakout, Pitfall, Pong, Centipede, Kung-Fu Master by
# 0.2-0.8 frame earlier, confidence down to 0.31), at a game frame 12 (DECISIONS.md, session 17).
EARLIEST_K = 2
EARLIEST_GAP_S = 1 / 60
EARLIEST_P = 0.1


def _first_group(sig: FrameSignals, nov: Novelty, run_s: np.ndarray, offset: float,
                 speed: float, th, rate: float) -> tuple[float, int] | None:
    """(video - run time, count) of the earliest group: the first time from which
    EARLIEST_K or more supporting reactions (the first standing change from a game frame
    before the expected time to SUPPORT_AFTER_S after it) fall within one frame of the
    video, at `offset`, when chance puts so many there less often than EARLIEST_P (`rate`:
    a frame's share of standing changes, `window_rate`; the binomial tail); else None."""
    exps, hit, k = reactions.first_reactions(sig, nov, run_s, offset, speed,
                                             th.sync_reaction_z)
    d = np.asarray(sig.times)[k] - exps
    ok = hit & (d >= -SUPPORT_BEFORE_S - 1e-6) & (d <= SUPPORT_AFTER_S + 1e-6)
    v = np.sort(offset + d[ok])
    # how many reactions lie within a frame from each one on (one pass, a hostile log's
    # thousands of actions included)
    m = np.searchsorted(v, v + 1.0 / sig.fps - 1e-9) - np.arange(len(v))
    first = np.flatnonzero(m >= EARLIEST_K)
    if not len(first):
        return None
    i = int(first[0])
    return (float(v[i]), int(m[i])) if tail(int(m[i]), len(run_s), rate) < EARLIEST_P \
        else None


def behind_s(run_s, sig: FrameSignals, nov: Novelty, look: Lookup, offset: float,
             speed: float, th) -> tuple[float, int]:
    """(how far before `offset`, the suggestion, the earliest group of reactions sits, how
    many reactions the group holds) when that is more than EARLIEST_GAP_S (see above);
    (0, 0) otherwise. The group is looked for again from each earlier group found (the
    reactions are the first changes from a game frame before the expected time: an earlier
    group may be hidden behind the window's start), up to PRECEDE_REACH_S, each above
    chance; the whole run must stand `sync_min_z` at the group's offset."""
    run_s = np.asarray(run_s, float)
    if len(run_s) == 0 or len(sig) < 2 or sig.fps <= 0 or speed != 1.0:
        return 0.0, 0
    rate = window_rate(sig, nov, th.sync_reaction_z, 1)
    o, size = offset, 0
    for _ in range(int(PRECEDE_REACH_S * sig.fps) + 2):
        g = _first_group(sig, nov, run_s, o, speed, th, rate)
        if g is None or g[0] >= o - 1e-6 or offset - g[0] > PRECEDE_REACH_S + 1e-9:
            break
        o, size = g
    # at most a frame of the video: the claim is an offset within a frame, and a group
    # found further back is no longer the same presses' (QA s14's Montezuma at 60 fps: a
    # group 3.1 frames before a suggestion 0.81 frame late)
    o = max(o, offset - 1.0 / sig.fps)
    if offset - o <= EARLIEST_GAP_S + 1e-9 or \
            align.z_at(sig, look, run_s, speed, o) < th.sync_min_z:
        return 0.0, 0
    return offset - o, size


# An earlier group beyond the cap makes the offset ambiguous, not earlier. Othello (ale-py,
# QA session 17, K2) answers a press 26-234 ms later on a still board: the suggestion sat near
# the median's dating, +3.26 / +3.34 / +3.64 frames late at confidence 0.879 / 0.946 / 0.364,
# and `behind_s` found no group before it (its reactions start a game frame before the
# expected time: the earlier presses' changes lie behind that window). Looked for from
# PRECEDE_REACH_S before the suggestion, 2 reactions lie 2.13 and 1.56 frames before it (the
# 30 fps VFR run; chance puts a change on 0.06 % of the frames away from the presses). A
# constant game delay cannot be told from a later offset by the picture, and moving that far
# broke Montezuma at 60 fps (`behind_s`'s cap): the confidence is lowered to the group's own.
EARLY_K = 1  # a single reaction beyond the cap, when chance puts none there


def quiet_rate(sig: FrameSignals, nov: Novelty, run_s: np.ndarray, suggested: float,
               speed: float, min_z: float) -> float:
    """A frame's share of standing changes away from every press (from PRECEDE_REACH_S and
    two frames before its expected time to REACTION_MAX_S after it), half a frame added
    (none seen is not a rate of 0): how often chance puts a change where no press answers.
    `window_rate` counts the reactions themselves, a still board's only changes (Othello
    at 29.97 fps: 1.01 % of all frames, 0.19 % away from the presses). `window_rate` when
    the presses leave less than a tenth of the video."""
    n = len(sig)
    exps = suggested + run_s / speed
    lo = np.searchsorted(sig.times, exps - PRECEDE_REACH_S - 2.0 / sig.fps)
    hi = np.searchsorted(sig.times, exps + reactions.REACTION_MAX_S)
    mark = np.zeros(n + 1, np.int64)
    np.add.at(mark, lo, 1)
    np.add.at(mark, hi, -1)
    away = np.cumsum(mark)[:n] <= 0
    if np.count_nonzero(away) < max(30, n // 10):
        return window_rate(sig, nov, min_z, 1)
    stands = nov.next_standing(min_z)[:n] == np.arange(n)
    return (np.count_nonzero(stands & away) + 0.5) / np.count_nonzero(away)


def earlier_group(run_s, sig: FrameSignals, nov: Novelty, suggested: float, speed: float,
                  th) -> int:
    """How many reactions the earliest group (EARLY_K or more first reactions within a frame
    of the video, above chance: `quiet_rate`, EARLIEST_P over the places looked at) holds
    when it lies more than a frame of the video before the suggestion, looked for from
    PRECEDE_REACH_S before it (not in the search window's first frame, where the first
    changes of a busy picture gather by chance); 0 when there is none."""
    run_s = np.asarray(run_s, float)
    if len(run_s) == 0 or len(sig) < 2 or sig.fps <= 0 or speed != 1.0:
        return 0
    start = suggested - PRECEDE_REACH_S
    rate = quiet_rate(sig, nov, run_s, suggested, speed, th.sync_reaction_z)
    exps, hit, k = reactions.first_reactions(sig, nov, run_s, start, speed,
                                             th.sync_reaction_z)
    d = np.asarray(sig.times)[k] - exps
    ok = hit & (d >= -SUPPORT_BEFORE_S - 1e-6)
    order = np.flatnonzero(ok)[np.argsort(start + d[ok], kind="stable")]
    v = start + d[order]
    m = np.searchsorted(v, v + 1.0 / sig.fps - 1e-9) - np.arange(len(v))
    frame = 1.0 / sig.fps
    again = answered_again(run_s, sig, nov, suggested, speed, th,
                           ok & (start + d < suggested - frame - 1e-6), start + d)
    # the earliest of the places looked at (a frame of the video each) where chance puts
    # so many less often than EARLIEST_P, counted over all of them (a lone change among
    # ~9 places at 60 fps is chance's: Pong, Pitfall, River Raid and Centipede, each within
    # a frame, fell to confidence 0.14-0.28 on 22 rows without it)
    places = PRECEDE_REACH_S * sig.fps
    for i in np.flatnonzero((m >= EARLY_K) & (v > start - SUPPORT_BEFORE_S + frame)
                            & (v < suggested - frame - 1e-6)):
        if tail(int(m[i]), len(run_s), rate) * places < EARLIEST_P and \
                not again[order[i:i + int(m[i])]].all():
            return int(m[i])
    return 0


def answered_again(run_s: np.ndarray, sig: FrameSignals, nov: Novelty, suggested: float,
                   speed: float, th, early: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Per press, whether it is one of `early` (a change of its own more than a frame before
    the suggestion) and has a standing change again within the support window at the
    suggestion (SUPPORT_BEFORE_S before its expected time to SUPPORT_AFTER_S after it).

    Why such a press is no evidence of an earlier offset: a game answers a press once, with
    its first change; the change before is something else on the screen. A constant delay
    the picture cannot tell from a later offset (Othello, a still board) leaves the press's
    first change its only one near the suggestion. Frogger through the 16x16 pavement row
    (s22-frogger-genuine at 24-48 fps, session 26's open item): presses 9 and 13 have a
    change in the row 0.09-0.12 s before their expected time (the frog's row moving before
    the press) and their own answer 0.1-0.7 frame after it; the earlier group of those two
    bounded five runs within a frame to 0.17-0.20."""
    early = np.asarray(early, bool)
    out = np.zeros(len(run_s), bool)
    if not early.any():
        return out
    exps, hit, k = reactions.first_reactions(sig, nov, np.asarray(run_s, float)[early],
                                             suggested, speed, th.sync_reaction_z)
    d = np.asarray(sig.times)[k] - exps
    apart = d - (np.asarray(at, float)[early] - suggested) > SUPPORT_BEFORE_S + SUPPORT_AFTER_S
    out[early] = hit & (d >= -SUPPORT_BEFORE_S - 1e-6) & (d <= SUPPORT_AFTER_S + 1e-6) & apart
    return out


# A game whose reactions spread past the fit's model is dated by a prior, not by the picture.
# The fit takes a game to answer within 0-2 of its 60 Hz frames (`fit.INPUT_LATENCY_S`); a
# constant delay beyond that and a later offset look the same on screen. Othello (ale-py, QA
# session 17, K2, 29.97 fps ProRes): its visible reactions come 128-205 ms after each press
# (a press's first change is drawn in the field the recorder does not capture), the
# suggestion sat 109 ms late (+3.26 frames) at confidence 0.879, and the middle 80 % of its
# first reactions spread over 78 ms (4.7 game frames). A game whose first changes spread over
# more than SPREAD_MAX_S answers later than the model on many presses, so its earliest answer
# is not known to be the model's either: the confidence is bounded by the share of that
# spread the model covers (SPREAD_MODEL_S / spread: 0.5 at the bar, 0.43 on Othello). Over
# the 452 analyses of the first set, the held-out set and QA s14-s17 one other suggestion
# spreads past the bar (Centipede's human stretch at 30 fps, 116 ms: 0.43 -> 0.29); the next
# on a genuine run within a frame, 60 ms (Centipede at 30 fps, its chance changes; 54 ms
# Breakout at 50 fps): DECISIONS, session 18.
SPREAD_MAX_S = 4 / 60     # the middle 80 % of the first reactions over more than 4 game frames
SPREAD_MODEL_S = 2 / 60   # the latency spread the fit's model covers (0-2 game frames)
SPREAD_MIN_REACTIONS = 3  # fewer reactions tell no spread
SPREAD_Q = (10.0, 90.0)   # the middle 80 %: a lone late chance change does not spread them


def spread_s(run_s, sig: FrameSignals, nov: Novelty, suggested: float, speed: float,
             th) -> float:
    """How far apart the first reactions lie at the suggestion (`SPREAD_Q` percentiles): each
    press's first standing change from SUPPORT_BEFORE_S before its expected time to
    PRECEDE_REACH_S after it (past the support window: a slow game's later answers fall
    there), the changes chance puts in that window taken off each end (`quiet_rate` x presses
    x the window's frames, rounded: a busy screen's chance changes spread the window, not the
    game's latency); 0 with fewer than SPREAD_MIN_REACTIONS."""
    run_s = np.asarray(run_s, float)
    if len(run_s) == 0 or len(sig) < 2 or sig.fps <= 0 or speed != 1.0:
        return 0.0
    start = suggested - SUPPORT_BEFORE_S
    exps, hit, k = reactions.first_reactions(sig, nov, run_s, start, speed,
                                             th.sync_reaction_z)
    d = np.asarray(sig.times)[k] - (suggested + run_s / speed)
    lags = np.sort(d[hit & (d >= -SUPPORT_BEFORE_S - 1e-6) & (d <= PRECEDE_REACH_S + 1e-6)])
    rate = quiet_rate(sig, nov, run_s, suggested, speed, th.sync_reaction_z)
    chance = int(round(len(run_s) * rate * (SUPPORT_BEFORE_S + PRECEDE_REACH_S) * sig.fps))
    if chance:
        lags = lags[chance:len(lags) - chance]
    if len(lags) < SPREAD_MIN_REACTIONS:
        return 0.0
    lo, hi = percentile(lags, SPREAD_Q)
    return float(hi - lo)


def spread_bound(spread: float) -> float:
    """The confidence a suggestion whose reactions spread this far can have (1 within
    SPREAD_MAX_S)."""
    return 1.0 if spread <= SPREAD_MAX_S + 1e-9 else round(SPREAD_MODEL_S / spread, 3)
