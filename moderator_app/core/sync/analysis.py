"""Does the video show what the log says? Auto-sync, reactions, the offset track, findings.

`analyze(run_s, sig, th)` takes the run times of the inputs (seconds since run_start, in log
order) and the video's frame signals, and returns a `SyncAnalysis`: the suggested offset (or
None: not enough signal), per-action reactions, the local offset track and the findings. It
never raises on odd input: no action or no frame is "not enough signal".
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from . import align, band, reactions, stretch, track
from .signals import FrameSignals

# The first visible change follows an input by 0 to 2 frames of a 60 Hz game (it reads the
# input during one frame and draws it in the same or the next). Measured on 8 Atari games
# (Breakout, Pitfall, Pong, Boxing, Tennis, Enduro, ...): the median delay of the supporting
# reactions minus 0.75 frame puts the offset within 0.82 frame of the truth on all of them but
# Enduro, whose car answers 2-3 frames late (2 frames off).
INPUT_LATENCY_S = 0.75 / 60
SUPPORT_BEFORE_S = 1 / 60   # a reaction supports an offset from this early ...
SUPPORT_AFTER_S = 0.08      # ... to this late after the expected time
REACTION_TAIL_S = 0.6       # after an action, changes may still be its doing
# A run of actions without a reaction is reported only when this many misses in a row would
# come by chance fewer than once in 20 runs, at the run's own miss rate (Enduro, held out:
# 8 of 21 presses show nothing within half a second; 4 in a row came at the end of a genuine
# run, a false `sync.no_reaction`). A frozen picture needs no such test.
NO_REACTION_CHANCE = 0.05
ACTIVITY_MERGE_S = 0.3      # input-like onsets closer than this are one input
# ... and a gap's input-like onset frames must be this many times as dense as in the run's
# idle time (more than REACTION_TAIL_S after an action): an idle player is hit or passed by
# the game's own motion. Measured: a genuine Boxing run idle 9 s (the other boxer lands
# punches) 3.3x, was a false warning; the deleted and human stretches found: 4.9x (Pitfall's
# deleted stretch) and more.
ACTIVITY_DENSITY = 4.0
CHANCE_WORDS = "answered no more often than by chance"  # a stretch the video does not follow


@dataclass(frozen=True)
class SyncFinding:
    rule: str
    message: str
    video_start_s: float | None = None
    video_end_s: float | None = None
    run_start_s: float | None = None
    run_end_s: float | None = None
    size_s: float | None = None
    percent: float | None = None
    actions: int | None = None


@dataclass(frozen=True)
class SyncAnalysis:
    suggested_offset_s: float | None     # None: not enough signal
    confidence: float                    # 0..1
    supporting_actions: int
    actions: int
    speed: float                         # run seconds per video second at the fit
    reason: str                          # why there is no suggestion ("" when there is one)
    offset_used_s: float | None          # the offset the reactions and findings are measured at
    reactions: list[reactions.Reaction] = field(default_factory=list)
    track: list[track.TrackPoint] = field(default_factory=list)
    segments: list[tuple[float, float, float]] = field(default_factory=list)  # run_s from, to, offset
    findings: list[SyncFinding] = field(default_factory=list)

    @property
    def drift_percent(self) -> float:
        return round((self.speed - 1.0) * 100, 2)


def _confidence(z: float, support: int) -> float:
    return round(max(0.0, min(1.0, (1 - math.exp(-(z - 2) / 3)) * min(1.0, support / 10))), 3)


def _piecewise_support(sig, look, run_s, offset, speed, th, nov) -> float:
    """Actions explained by the best piecewise-constant offsets at this speed, less penalties."""
    cands = _candidates(sig, nov, look, run_s, offset, speed, th)
    path = track.segment(look, run_s, cands, speed, th.sync_reaction_z)
    sup = sum(bool(track.supported(look, run_s[i:i + 1], cands[j], speed,
                                   th.sync_reaction_z)[0]) for i, j in enumerate(path))
    return sup - track.SWITCH_PENALTY * int(np.count_nonzero(np.diff(path)))


def _windows(sig, nov, look, run_s, speed, th) -> list[track.TrackPoint]:
    return track.windows(sig, nov, look, run_s, speed, th.sync_min_z, 4)


def _candidates(sig, nov, look, run_s, offset, speed, th, pts=None) -> list[float]:
    """Offsets a stretch of the run may follow: the global one, the windows' (`pts`, the
    track's windows when the caller has them) and the global score's other peaks."""
    if pts is None:
        pts = _windows(sig, nov, look, run_s, speed, th)
    return track.candidate_offsets(offset, pts, align.peaks(sig, look, run_s, speed))


def _refine(run_s, sig, nov, offset, speed, th, q: float = 50.0) -> tuple[float, int]:
    """Sub-frame offset: the q-th percentile (the median by default) of the supporting
    reactions' (video - run) times, less the typical input latency (robust to a few early
    chance matches)."""
    rs = reactions.measure(sig, nov, run_s, offset, speed, th.sync_reaction_z)
    d = [r.video_s - r.run_s / speed for r in rs
         if r.delay_s is not None and -SUPPORT_BEFORE_S - 1e-6 <= r.delay_s <= SUPPORT_AFTER_S]
    if not d:
        return offset, 0
    return float(np.percentile(d, q)) - INPUT_LATENCY_S, len(d)


def _refine_speed(run_s, sig, nov, offset, speed, th) -> tuple[float, float]:
    """(offset, speed) of a drifting video, refined by a robust line through the supporting
    reactions: the fit's speed grid (0.25 %) leaves an error that the median of the residuals
    turns into an offset error of speed error x median run time (Pong: 3.6 frames)."""
    rs = reactions.measure(sig, nov, run_s, offset, speed, th.sync_reaction_z)
    pts = [(r.run_s, r.video_s) for r in rs
           if r.delay_s is not None and -SUPPORT_BEFORE_S - 1e-6 <= r.delay_s <= SUPPORT_AFTER_S]
    if len(pts) < max(6, th.sync_min_actions):
        return offset, speed
    x, y = np.array(pts).T
    # Theil-Sen: the median of pairwise slopes, robust to a few chance matches
    i, j = np.triu_indices(len(x), 1)
    dx = x[j] - x[i]
    ok = dx > 1.0
    if not ok.any():
        return offset, speed
    slope = float(np.median((y[j] - y[i])[ok] / dx[ok]))  # video seconds per run second
    if not 0.9 < slope < 1.1 or abs(1 / slope - speed) > 0.005:
        return offset, speed  # not the line the grid found: keep the grid's
    return float(np.median(y - slope * x)) - INPUT_LATENCY_S, 1 / slope


NULL_SETS = 19  # permuted logs for the significance of the fit


def _permuted(run_s: np.ndarray, rng: np.random.Generator) -> np.ndarray:
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


def _learned_fit(sig, nov1, look1, q, run_s, speed, th, memo: dict | None = None):
    """Fit on plain novelty, learn where reactions show (tile weights), fit again on that.
    Returns (fit, its novelty, its lookup, the tile weights learnt or None). `memo`: the
    analysis' answers so far (the same stretch is learnt for the suggestion, its
    significance and the track's checks: a tenth of the analysis, once is enough)."""
    key = (run_s.tobytes(), speed)
    if memo is not None and key in memo:
        return memo[key]
    out = _learn(sig, nov1, look1, q, run_s, speed, th)
    if memo is not None:
        memo[key] = out
    return out


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
    look = align.Lookup(sig, align._lookahead(sig, nov), like=look1)
    fit = align.fit(sig, nov, run_s, speeds=np.array([speed]), look=look)
    return fit, nov, look, w


def _significance(sig, nov1, look1, q, run_s, speed, th, memo: dict | None = None):
    """The learned fit of these actions, and its score in spreads over the same procedure on
    NULL_SETS permutations of their gaps."""
    f = _learned_fit(sig, nov1, look1, q, run_s, speed, th, memo)[0]
    rng = np.random.default_rng(len(run_s))
    scores = []
    for _ in range(NULL_SETS):
        scores.append(_learned_fit(sig, nov1, look1, q, _permuted(run_s, rng), speed, th)[0].score)
        if scores[-1] >= f.score:
            return f, 0.0  # a shuffled log does as well: the answer is known (silent runs)
    null = np.array(scores)
    return f, float((f.score - null.mean()) / max(null.std(), 1e-6))


# Shuffled logs for a drift: each searches every speed (25 fits' worth), so fewer than the
# fit's 19; with 9, a drift on Breakout or Pitfall costs ~0.1 s more analysis (19: ~0.2 s).
DRIFT_NULL_SETS = 9


def _drift_significant(sig, nov1, look1, run_s, score: float, th) -> bool:
    """The drift fit's score beats the same search over every speed on shuffled logs. The
    significance test below runs at the one speed chosen; a speed chosen among 65 by the
    real log alone wins there by the choice (Seaquest, held out: a genuine run got a 4 %
    drift and an offset 7 s off, confidence 0.56)."""
    rng = np.random.default_rng(len(run_s) + 1)
    null = []
    for _ in range(DRIFT_NULL_SETS):
        f = align.fit(sig, nov1, _permuted(run_s, rng), look=look1)
        null.append(f.score if f is not None else 0.0)
        if null[-1] >= score:
            return False  # a shuffled log does as well: no need for the others
    nz = np.array(null)
    return score > nz.max() and \
        (score - nz.mean()) / max(float(nz.std()), 1e-6) >= th.sync_min_null_z_splice


COARSE_GRID = 4  # the second scale (the first is the signals' own 8x8)


def analyze(run_s, sig: FrameSignals, th, offset_s: float | None = None) -> SyncAnalysis:
    """The sync analysis at two tile scales, combined (`combine`); `offset_s` (the
    moderator's) is used for reactions when given and there is no confident suggestion.

    Why two: a sprite that moves within one coarse tile (Pitfall's walking Harry) gives one
    clean onset per press at 4x4 but a stream of tile-crossing onsets at 8x8, while a small
    sprite among moving things (Breakout's paddle beside the ball) needs 8x8 to stand apart.
    Each scale is judged on its own, with its own significance test against shuffled logs.
    When neither suggests an offset, the player's band alone may (`_in_band`)."""
    fine = analyze_at(run_s, sig, th, offset_s)
    g = sig.grid
    if g <= COARSE_GRID or g % COARSE_GRID:
        return fine
    coarse = analyze_at(run_s, sig.coarser(COARSE_GRID), th, offset_s)
    res = combine(fine, coarse, 1.0 / max(sig.fps, 1e-6))
    if res.suggested_offset_s is None:
        res = _in_band(run_s, sig, th, offset_s, res) or res
    if res.suggested_offset_s is None:
        res = _from_head(run_s, sig, th, offset_s) or res
    return res


# A run too short for its first half to stand out on its own is not tried by halves.
HEAD_MIN_ACTIONS = 10


def _from_head(run_s, sig: FrameSignals, th, offset_s: float | None) -> SyncAnalysis | None:
    """The analysis at the offset of the run's first half, when the whole run singles out no
    offset but its first half does (at 8x8, else 4x4): a video spliced from a second attempt
    follows the log only up to the splice, so the actions after it are chance matches that
    sink the whole run's fit below its shuffled logs (Pitfall's retake: not enough signal; its
    first 11 actions alone: an offset 0.1 frame from the truth). The rest of the run is then
    tested as any stretch the offset does not explain (`_unexplained`). The half stands the
    same shuffled-log test as a whole run; its suggestion is the offset's evidence."""
    e = np.asarray(sorted(float(x) for x in run_s if math.isfinite(x)), float)
    k = len(e) // 2
    if k < HEAD_MIN_ACTIONS or len(sig) < 2:
        return None
    g = sig.grid
    scales = [sig] + ([sig.coarser(COARSE_GRID)] if g > COARSE_GRID and not g % COARSE_GRID
                      else [])
    for s in scales:
        head = analyze_at(e[:k], s, th)
        if head.suggested_offset_s is not None:
            return analyze_at(e, s, th, offset_s, given=head)
    return None


# The band's reactions spread over several frames (Pong's paddle: 0.5 to 6 frames late,
# median 2), so its offset is read from their earliest quarter, not their median (Pong's
# second genuine run: +1.27 frames from the median, +0.37 from the 25th percentile;
# 15th: the frozen run 1.55 frames early).
BAND_LATENCY_Q = 25.0


def _in_band(run_s, sig: FrameSignals, th, offset_s: float | None,
             silent: SyncAnalysis) -> SyncAnalysis | None:
    """The analysis on the player's band alone (core/sync/band.py), when one band singles
    out an offset far better than the shuffled logs' best bands (sync_min_null_z); None
    otherwise. A band that stands out less (from sync_band_min_null_z) suggests no offset
    (Space Invaders through a dropping 25 fps recorder: 4.7, its band's offset 1.09 frames
    off), but the log gaps it shows being played are said, on `silent` (the whole picture's
    analysis): a gap's seconds do not hang on a frame (Pong's human stretch: 4.2, its band's
    offset +0.12 frame)."""
    e = np.asarray(sorted(float(x) for x in run_s if math.isfinite(x)), float)
    if len(e) < th.sync_min_actions or len(sig) < 2:
        return None
    tiles, margin = band.select(sig, reactions.novelty(sig), e, th.sync_band_min_null_z,
                                sig.grid)
    if tiles is None:
        return None
    a = analyze_at(e, band.band_signals(sig, tiles), th, offset_s, BAND_LATENCY_Q)
    if a.suggested_offset_s is None:
        return None
    if margin < th.sync_min_null_z:
        played = [replace(f, message=f"{f.message} (at the player's band's offset, "
                          f"{a.suggested_offset_s:.3f} s, too weak to suggest)")
                  for f in a.findings if f.rule == "sync.activity_without_actions"]
        return replace(silent, findings=silent.findings + played) if played else None
    # the band is not the picture: a stretch without the sprite's answer (a press into a
    # wall) is no missing reaction unless the whole picture stands still
    kept = [f for f in a.findings if f.rule != "sync.no_reaction" or _by_chance(f)
            or _still_share(sig, f.video_start_s, f.video_end_s) >= 0.5]
    return replace(a, findings=kept)


def _by_chance(f: SyncFinding) -> bool:
    """A stretch whose answers were tested against chance (`_with_unexplained`), not a run of
    misses: a wall in the band does not explain it."""
    return f.rule == "sync.no_reaction" and CHANCE_WORDS in f.message


def _still_share(sig: FrameSignals, v0: float | None, v1: float | None) -> float:
    """The share of frames from video time v0 to v1 where not one pixel changes."""
    if v0 is None or v1 is None:
        return 0.0
    k0, k1 = reactions.frame_at(sig.times, v0), reactions.frame_at(sig.times, v1)
    if k1 <= k0:
        return 0.0
    return float((~sig.tiles[k0:k1].any(axis=1)).mean())


def _near(f: SyncFinding, g: SyncFinding, slack_s: float = 1.0) -> bool:
    """Two findings of one rule about one place (video spans within slack_s)."""
    if f.rule != g.rule:
        return False
    a0, b0 = f.video_start_s, g.video_start_s
    if a0 is None or b0 is None:
        return True
    a1 = f.video_end_s if f.video_end_s is not None else a0
    b1 = g.video_end_s if g.video_end_s is not None else b0
    return a0 - slack_s <= b1 and b0 - slack_s <= a1


def _unseen(f: SyncFinding, other: SyncAnalysis) -> bool:
    """No action of the finding's run span has a reaction in the other scale's analysis
    either: a reaction seen at one scale is a reaction (a WebM recording of Pitfall hid
    three walks from the 8x8 onsets, not from the 4x4 ones: a false `sync.no_reaction`)."""
    a, b = f.run_start_s, f.run_end_s
    if a is None or b is None:
        return True
    return not any(r.video_s is not None for r in other.reactions
                   if a - 1e-6 <= r.run_s <= b + 1e-6)


def _jumps_into(f: SyncFinding, other: SyncAnalysis, slack_s: float = 5.0) -> bool:
    """The other scale explains a stretch answered only by chance (`_by_chance`) by an
    offset jump into it: the stretch follows another offset (Breakout's cut: the 8x8 scale
    saw a stretch at chance, the 4x4 scale the jump). A reaction the other scale sees in the
    stretch is no such explanation: chance answers are reactions too."""
    a, b = f.run_start_s, f.run_end_s
    if a is None or b is None:
        return False
    return any(g.rule == "sync.offset_jump" and g.run_end_s is not None
               and a - slack_s <= g.run_end_s <= b for g in other.findings)


def combine(fine: SyncAnalysis, coarse: SyncAnalysis, frame_s: float) -> SyncAnalysis:
    """The fine scale's analysis, completed by the coarse one: its suggestion when the fine
    scale has none, and its findings about places the fine scale is silent on when both
    suggest the same offset (within a frame). Scales that disagree: the fine one alone."""
    if coarse.suggested_offset_s is None:
        return fine
    if fine.suggested_offset_s is None:
        return coarse
    if abs(fine.suggested_offset_s - coarse.suggested_offset_s) > frame_s:
        return fine
    kept = [f for f in fine.findings if f.rule != "sync.no_reaction"
            or (_unseen(f, coarse) if not _by_chance(f) else not _jumps_into(f, coarse))]
    extra = [f for f in coarse.findings if not any(_near(f, g) for g in fine.findings)
             and not (_by_chance(f) and _jumps_into(f, fine))]
    if not extra and len(kept) == len(fine.findings):
        return fine
    found = sorted(kept + extra,
                   key=lambda f: (f.video_start_s if f.video_start_s is not None else 0.0,
                                  f.rule))
    return replace(fine, findings=found)


def analyze_at(run_s, sig: FrameSignals, th, offset_s: float | None = None,
               latency_q: float = 50.0, given: SyncAnalysis | None = None) -> SyncAnalysis:
    """The sync analysis at the signals' own tile scale. `given`: the analysis of a part of
    these actions (`_from_head`), whose suggestion stands when these actions single out
    none."""
    run_s = np.asarray(sorted(float(x) for x in run_s if math.isfinite(x)), float)
    n = len(run_s)
    if n == 0 or len(sig) < 2:
        return SyncAnalysis(None, 0.0, 0, n, 1.0, "no action in the log" if n == 0
                            else "the video has fewer than two frames", offset_s)
    nov1 = reactions.novelty(sig)
    look1 = align.Lookup(sig, align._lookahead(sig, nov1))
    q = reactions.background_rates(sig, nov1)
    fit1 = align.fit(sig, nov1, run_s, speeds=np.array([1.0]), look=look1)
    speed = 1.0
    drift = align.fit(sig, nov1, run_s, look=look1)
    assert fit1 is not None and drift is not None  # actions and two frames: fit answers
    if abs(drift.speed - 1) * 100 >= th.sync_drift_pct:
        # A drift must explain clearly more actions than one offset, or pieces of one offset
        # (a splice) would read as a slow drift.
        s1 = _piecewise_support(sig, look1, run_s, fit1.offset_s, 1.0, th, nov1)
        s2 = _piecewise_support(sig, look1, run_s, drift.offset_s, drift.speed, th, nov1)
        if s2 >= s1 + track.SWITCH_PENALTY and s2 >= 1.3 * s1 and \
                _drift_significant(sig, nov1, look1, run_s, drift.score, th):
            speed = drift.speed
    memo: dict = {}
    fit, nov, look, w = _learned_fit(sig, nov1, look1, q, run_s, speed, th, memo)
    # Significance, per stretch of one offset (a spliced video has several): the same
    # procedure on the stretch's gaps shuffled must score clearly lower.
    z = th.sync_reaction_z
    pts = _windows(sig, nov, look, run_s, speed, th)
    fit_speed = speed
    cands = _candidates(sig, nov, look, run_s, fit.offset_s, speed, th, pts)
    path = track.segment(look, run_s, cands, speed, z)
    cuts = [0] + [i for i in range(1, n) if path[i] != path[i - 1]] + [n]
    chosen, null_z, seg_fit = None, 0.0, fit
    tested = []
    for i0, i1 in zip(cuts, cuts[1:], strict=False):
        if i1 - i0 < th.sync_min_actions:
            continue
        sub = run_s[i0:i1]
        f, zz = _significance(sig, nov1, look1, q, sub, speed, th, memo)
        if abs(f.offset_s - cands[path[i0]]) > 2 / sig.fps:
            continue  # the stretch alone prefers another offset: no evidence for this one
        tested.append((sub, zz, f))
        if zz >= th.sync_min_null_z:
            chosen, null_z, seg_fit = sub, zz, f
            break
    if chosen is None:
        # A spliced video: two or more stretches, each clearly aligned at its own offset
        good = [t for t in tested if t[1] >= th.sync_min_null_z_splice]
        if len(good) >= 2:
            chosen, null_z, seg_fit = good[0]
    sub = run_s if chosen is None else chosen
    offset, support = _refine(sub, sig, nov, seg_fit.offset_s, speed, th, latency_q)
    if speed != 1.0:
        offset, speed = _refine_speed(sub, sig, nov, offset, speed, th)
    conf = _confidence(min(seg_fit.z, null_z), support)
    reason = ""
    if n < th.sync_min_actions:
        reason = f"only {n} action(s) in the log"
    elif chosen is None or seg_fit.z < th.sync_min_z or support < th.sync_min_actions:
        reason = "the video's reactions do not single out one offset"
    suggested = None if reason else round(offset, 4)
    if reason:
        conf = min(conf, 0.3)
        speed = 1.0
    if reason and given is not None and given.suggested_offset_s is not None:
        # the part's offset, measured as the part's own analysis did
        suggested, conf, support, reason = given.suggested_offset_s, given.confidence, \
            given.supporting_actions, ""
        seg_fit = replace(seg_fit, offset_s=suggested)
        null_z = math.inf
    used = suggested if suggested is not None else offset_s
    res = SyncAnalysis(suggested, conf, support, n, speed, reason, used)
    if used is None:
        return res
    nov_r = nov if w is None else reactions.novelty(sig, w - FIT_WEIGHT_FLOOR + 1.0, like=nov1)

    def aligned(sub: np.ndarray, offset: float, min_z: float = th.sync_min_z) -> bool:
        """A stretch of actions whose own (learned) fit stands out at `offset` (see _path)."""
        if len(sub) < th.sync_min_actions:
            return False
        lk = _learned_fit(sig, nov1, look1, q, sub, speed, th, memo)[2]
        return align.z_at(sig, lk, sub, speed, offset) >= min_z

    out = _measure_all(res, run_s, sig, nov, look, th, nov_r, aligned, latency_q,
                       pts if res.speed == fit_speed else None)
    part = _unexplained(out, run_s, sig, nov_r, th, aligned, q)
    if part is None:
        return out
    # The offset from the part the video follows; the rest is a finding, not evidence.
    i0, i1 = part
    keep = np.r_[0:i0, i1:n]
    offset, support = _refine(run_s[keep], sig, nov, seg_fit.offset_s, speed, th, latency_q)
    if speed != 1.0:
        offset, speed = _refine_speed(run_s[keep], sig, nov, offset, speed, th)
    if null_z < math.inf:  # (a part's suggestion keeps the part's confidence)
        conf = _confidence(min(seg_fit.z, null_z), support)
    res = replace(res, suggested_offset_s=round(offset, 4), offset_used_s=round(offset, 4),
                  supporting_actions=support, speed=speed, confidence=conf)
    out = _measure_all(res, run_s, sig, nov, look, th, nov_r, aligned, latency_q,
                       pts if res.speed == fit_speed else None)
    return _with_unexplained(out, run_s, sig, nov_r, th, i0, i1, q, nov, latency_q)


def _stretch_answers(out: SyncAnalysis, sig: FrameSignals, nov_r, th, q: np.ndarray):
    """(expected video times, answered, chance) per action at the offset used, in the tiles
    where the run's reactions happen (core/sync/stretch.py), and the function that answers
    for other expected times; None without enough reactions to learn them from."""
    hit = [r.video_s for r in out.reactions if r.video_s is not None
           and r.delay_s is not None and r.delay_s <= SUPPORT_AFTER_S]
    if len(hit) < th.sync_min_actions:
        return None
    # q: the background over a reaction window and one frame (reactions.background_rates,
    # the fit's own): the centred window of `_activity` lets tiles of the ball or the
    # opponent in (Pong: chance 0.38 instead of 0.27, and the splice no longer stands out)
    tiles = stretch.input_tiles(sig, nov_r, hit, SUPPORT_AFTER_S, q)
    if not tiles.any():
        return None
    exp = np.array([r.expected_video_s for r in out.reactions])

    def answer(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return stretch.answers(sig, nov_r, tiles, v)

    return (exp, *answer(exp), answer)


def _unexplained(out: SyncAnalysis, run_s, sig: FrameSignals, nov_r, th, aligned,
                 q: np.ndarray) -> tuple[int, int] | None:
    """The actions (from, to) at the start or end of a run of one offset whose answers are
    no likelier than chance, when the rest stands out at that offset on its own (a second
    attempt spliced in: Pong, held out, was fitted whole and 1.6 frames late, silently)."""
    if out.suggested_offset_s is None or len(out.segments) != 1 or \
            out.offset_used_s is None:
        return None
    ans = _stretch_answers(out, sig, nov_r, th, q)
    if ans is None:
        return None
    part = stretch.unexplained(ans[1], ans[2])
    if part is None:
        return None
    i0, i1, _ = part
    if not aligned(np.r_[run_s[:i0], run_s[i1:]], out.offset_used_s, stretch.REST_MIN_Z):
        return None
    return i0, i1


def _with_unexplained(out: SyncAnalysis, run_s, sig: FrameSignals, nov_r, th, i0: int,
                      i1: int, q: np.ndarray, nov, latency_q: float) -> SyncAnalysis:
    """`out` with the stretch i0..i1-1 as a `sync.no_reaction` finding (replacing any about
    the same actions), or as a `sync.offset_jump` when another offset explains it
    (`_stretch_jump`)."""
    ans = _stretch_answers(out, sig, nov_r, th, q)
    if ans is None:
        return out
    exp, s, chance, answer = ans
    v0, v1 = stretch.place(sig, s, chance, exp, i0, i1)
    jumped = _stretch_jump(out, run_s, sig, nov, nov_r, th, i0, i1, exp, s, answer, v0, v1,
                           latency_q)
    if jumped is not None:
        return jumped
    a, b = float(run_s[i0]), float(run_s[i1 - 1])
    f = SyncFinding(
        "sync.no_reaction", f"{i1 - i0} actions in a row {CHANCE_WORDS} "
        f"({int(s[i0:i1].sum())} answered, {float(chance[i0:i1].sum()):.1f} by chance): the "
        f"video does not follow the log here (footage from another attempt?)",
        round(v0, 3), round(v1, 3), round(a, 3), round(b, 3), actions=i1 - i0)
    kept = [g for g in out.findings if g.rule != "sync.no_reaction" or g.run_start_s is None
            or g.run_end_s is None or g.run_end_s < a or g.run_start_s > b]
    found = sorted(kept + [f], key=lambda g: (g.video_start_s if g.video_start_s is not None
                                               else 0.0, g.rule))
    return replace(out, findings=found)


JUMP_NEAR_S = 0.2  # a stretch's jumped offset is fitted this near the shift that explains it


def _stretch_jump(out: SyncAnalysis, run_s, sig: FrameSignals, nov, nov_r, th, i0: int,
                  i1: int, exp: np.ndarray, s: np.ndarray, answer, v0: float, v1: float,
                  latency_q: float) -> SyncAnalysis | None:
    """`out` with the stretch i0..i1-1 (answered at chance at the offset used) at the offset
    that explains it (`track.stretch_jump`) and a `sync.offset_jump` at its splice; None when
    no offset does. The fit finds no such stretch when it is short and its answers spread
    over frames (Pong's cut: 13 actions, reported as a stretch without reactions)."""
    used = out.offset_used_s
    if used is None:
        return None
    n = len(run_s)
    rest = np.r_[s[:i0], s[i1:]]
    rate = float((rest.sum() + 1) / (len(rest) + 2))
    span = (float(sig.times[0]), float(sig.times[-1]))
    d = track.stretch_jump(answer, exp[i0:i1], rate, span, sig.fps, th.sync_jump_s,
                           th.sync_min_null_z_splice)
    if d is None:
        return None
    # the stretch's offset measured as the run's is: the fit near that shift (the answers'
    # window is 0.1 s wide), then its reactions' latency percentile
    sub = run_s[i0:i1]
    near = np.arange(used + d - JUMP_NEAR_S, used + d + JUMP_NEAR_S, 1.0 / sig.fps)
    g = align.fit(sig, nov, sub, speeds=np.array([out.speed]), offsets=near,
                  look=align.Lookup(sig, align._lookahead(sig, nov)))
    other = _refine(sub, sig, nov, g.offset_s if g is not None else used + d, out.speed, th,
                    latency_q)[0]
    tail = i0 > 0
    size = other - used if tail else used - other  # the offset after the splice less before
    if abs(size) < th.sync_jump_s:
        return None
    splice = v0 if tail else v1
    ve = None
    if size > 0:  # inserted footage: two splices `size` apart, one of them found by `place`
        change = sig.picture_change.astype(float)
        w = int(round(size * sig.fps))
        k0 = reactions.frame_at(sig.times, splice - size - 1.0)
        k1 = min(reactions.frame_at(sig.times, splice + 1.0), len(sig) - 1 - w)
        if k1 > k0:
            k = k0 + int(np.argmax(change[k0:k1 + 1] + change[k0 + w:k1 + 1 + w]))
            splice, ve = float(sig.times[k]), float(sig.times[k + w])
    j = i0 if tail else i1  # the first action after the splice
    offs = np.full(n, used, float)
    offs[i0:i1] = other
    rs = reactions.measure(sig, nov_r, run_s, offs, out.speed, th.sync_reaction_z)
    segs = [(float(run_s[0]), float(run_s[j - 1]), float(offs[0])),
            (float(run_s[j]), float(run_s[-1]), float(offs[-1]))]
    a, b = float(run_s[i0]), float(run_s[i1 - 1])
    kept = [g for g in out.findings if g.rule != "sync.no_reaction" or g.run_start_s is None
            or g.run_end_s is None or g.run_end_s < a or g.run_start_s > b]
    f = _jump_finding(size, splice, ve, float(run_s[j - 1]), float(run_s[j]))
    found = sorted(kept + [f], key=lambda g: (g.video_start_s if g.video_start_s is not None
                                               else 0.0, g.rule))
    return replace(out, reactions=rs, segments=segs, findings=found)


def _path(look, run_s, cands, speed, th, aligned) -> np.ndarray:
    """Per action, its candidate offset (index), a stretch at another offset than the one
    used kept only when its actions alone stand out at that offset, and when so does a
    stretch at the one used: a jump is two offsets each standing on its own. A stretch that
    matches another offset by chance (Enduro, held out: 22 s of a genuine run at -10.9 s,
    a false `sync.offset_jump`) is measured at the offset used instead."""
    path = track.segment(look, run_s, cands, speed, th.sync_reaction_z)
    cuts = [0] + [i for i in range(1, len(path)) if path[i] != path[i - 1]] + [len(path)]
    if len(cuts) <= 2:
        return path
    spans = list(zip(cuts, cuts[1:], strict=False))
    if not any(path[i0] == 0 and aligned(run_s[i0:i1], cands[0]) for i0, i1 in spans):
        return np.zeros(len(path), int)
    out = path.copy()
    for i0, i1 in spans:
        if path[i0] != 0 and not aligned(run_s[i0:i1], cands[path[i0]]):
            out[i0:i1] = 0
    # two stretches the video would show out of the log's order: the one not at the offset
    # used is a chance match (Pong's genuine pause: a false -19.5 s jump)
    for i0, i1 in track.out_of_order(look, run_s, out, cands, speed, th.sync_reaction_z):
        out[i0:i1] = 0
    return out


def _measure_all(res: SyncAnalysis, run_s, sig, nov, look, th, nov_r,
                 aligned, latency_q: float = 50.0, pts=None) -> SyncAnalysis:
    """Reactions, track, segments and findings at the offset used: the track and segments
    on the fit's novelty (`nov`, `look`), the reactions on `nov_r` (see FIT_WEIGHT_FLOOR).
    `pts`: the track's windows when the caller has them at this speed."""
    speed, used = res.speed, res.offset_used_s
    z = th.sync_reaction_z
    if pts is None:
        pts = _windows(sig, nov, look, run_s, speed, th)
    cands = _candidates(sig, nov, look, run_s, used, speed, th, pts)
    path = _path(look, run_s, cands, speed, th, aligned) \
        if res.suggested_offset_s is not None else np.zeros(len(run_s), int)
    for j in sorted(set(path.tolist()) - {0}):
        # a stretch at another offset: that offset measured as the one used is (its
        # candidate is a window's peak on the frame grid: Boxing's cut -4.04 s, not -4.00)
        cands[j] = _refine(run_s[path == j], sig, nov, cands[j], speed, th, latency_q)[0]
    offs = np.array([cands[j] for j in path]) if len(path) else np.zeros(0)
    rs = reactions.measure(sig, nov_r, run_s, offs, speed, z)  # each at its stretch's offset
    segs: list[list[float]] = []
    for i, j in enumerate(path):
        if not segs or segs[-1][2] != cands[j]:
            segs.append([float(run_s[i]), float(run_s[i]), cands[j]])
        segs[-1][1] = float(run_s[i])
    findings: list[SyncFinding] = []
    if res.suggested_offset_s is not None:
        findings += _jumps(segs, sig, speed, th, look, run_s)
        if abs(speed - 1) * 100 >= th.sync_drift_pct:
            pct = round((speed - 1) * 100, 2)
            findings.append(SyncFinding(
                "sync.drift", f"the video runs {abs(pct):.1f} % {'faster' if pct > 0 else 'slower'}"
                f" than the log's clock", float(sig.times[0]), float(sig.times[-1]),
                0.0, float(run_s[-1]), percent=pct))
        findings += _no_reaction(rs, th, findings, sig)
        findings += _activity(rs, run_s, offs, sig, nov, speed, th)
    return SyncAnalysis(res.suggested_offset_s, res.confidence, res.supporting_actions,
                        res.actions, speed, res.reason, used, rs, pts,
                        [(a, b, c) for a, b, c in segs], findings)


def _splice_frames(look, run_s, a, b, sig: FrameSignals, speed: float,
                   th) -> tuple[int, np.ndarray]:
    """(first frame, mask from it): the frames where a splice between the stretch at offset
    a[2] and the next at b[2] explains the most actions, each action shown at
    a's offset before the splice, at b's after it (footage removed: b's offset is earlier,
    and actions in the removed stretch are shown at neither; inserted: b's actions are those
    after the inserted footage). The Viterbi boundary alone can be a chance match early:
    Boxing's cut was placed 1.3 s early, its insertion 2.1 s early."""
    e = run_s[(run_s >= a[0] - 1e-9) & (run_s <= b[1] + 1e-9)]
    z = th.sync_reaction_z
    sa = track.supported(look, e, a[2], speed, z)
    sb = track.supported(look, e, b[2], speed, z)
    va = a[2] + e / speed
    vb = min(a[2], b[2]) + e / speed  # shown at b from this splice time on (see above)
    k0 = reactions.frame_at(sig.times, float(va.min()))
    k1 = min(reactions.frame_at(sig.times, float((b[2] + e / speed).max())), len(sig) - 1)
    t = sig.times[k0:k1 + 1, None]
    sup = ((va[None, :] < t) & sa[None, :]).sum(axis=1) + ((vb[None, :] >= t) & sb[None, :]).sum(axis=1)
    if not len(sup):
        return k0, np.zeros(0, bool)
    return k0, sup == sup.max()


def _jumps(segs, sig: FrameSignals, speed: float, th, look, run_s) -> list[SyncFinding]:
    out = []
    change = sig.change.astype(float)
    fps = sig.fps
    for a, b in zip(segs, segs[1:], strict=False):
        size = b[2] - a[2]
        if abs(size) < th.sync_jump_s:
            continue
        k0, ok = _splice_frames(look, run_s, a, b, sig, speed, th)
        w = int(round(size * fps))
        if size < 0 or len(ok) <= w:
            # footage removed: one splice; the frame with the biggest change where allowed
            c = np.where(ok, change[k0:k0 + len(ok)], -1.0)
            k = k0 + int(np.argmax(c)) if len(c) else k0
            vs, ve = float(sig.times[min(k, len(sig) - 1)]), None
        else:
            # footage inserted: two splices `size` apart
            pair = change[k0:k0 + len(ok) - w] + change[k0 + w:k0 + len(ok)]
            pair = np.where(ok[:len(pair)], pair, -1.0)
            k = k0 + int(np.argmax(pair))
            vs, ve = float(sig.times[k]), float(sig.times[min(k + w, len(sig) - 1)])
        out.append(_jump_finding(size, vs, ve, a[1], b[0]))
    return out


def _jump_finding(size: float, vs: float, ve: float | None, run_a: float,
                  run_b: float) -> SyncFinding:
    """`sync.offset_jump`: the offset changes by `size` between the actions at run_a and
    run_b, at video vs (to ve: inserted footage)."""
    what = "removed" if size < 0 else "inserted"
    return SyncFinding(
        "sync.offset_jump", f"the offset jumps by {size:+.2f} s near video "
        f"{vs:.2f} s: footage {what}?", round(vs, 3), None if ve is None else round(ve, 3),
        round(run_a, 3), round(run_b, 3), size_s=round(size, 3))


def _still(sig: FrameSignals, v0: float, v1: float) -> bool:
    """Not one pixel of the picture changes from video time v0 to v1 (a frozen picture)."""
    k0, k1 = reactions.frame_at(sig.times, v0), reactions.frame_at(sig.times, v1)
    return k1 > k0 and not sig.tiles[k0 + 1:k1 + 1].any()


def _no_reaction(rs, th, prior: list[SyncFinding], sig: FrameSignals) -> list[SyncFinding]:
    """Runs of actions without a reaction: sync_no_reaction_actions of them over at least
    sync_no_reaction_s, or two over a picture that does not change at all (frozen)."""
    out = []
    miss = sum(r.video_s is None for r in rs) / max(1, len(rs))
    runs: list[list] = [[]]
    for r in rs:
        if r.video_s is None:
            runs[-1].append(r)
        elif runs[-1]:
            runs.append([])
    for run in runs:
        if not run:
            continue
        a, b = run[0], run[-1]
        long_run = len(run) >= th.sync_no_reaction_actions and \
            b.run_s - a.run_s >= th.sync_no_reaction_s
        frozen = len(run) >= 2 and b.run_s - a.run_s >= 1.0 and _still(
            sig, a.expected_video_s, b.expected_video_s + reactions.REACTION_MAX_S)
        if long_run and not frozen and len(rs) * miss ** len(run) > NO_REACTION_CHANCE:
            long_run = False  # as many misses in a row come by chance in this run
        if not (long_run or frozen):
            continue
        if any(f.run_start_s is not None and f.run_end_s is not None
               and f.run_start_s <= b.run_s and a.run_s <= f.run_end_s for f in prior):
            continue  # already explained by a jump
        out.append(SyncFinding(
            "sync.no_reaction", f"{len(run)} actions in a row with no visible reaction",
            round(a.expected_video_s, 3), round(b.expected_video_s + reactions.REACTION_MAX_S, 3),
            round(a.run_s, 3), round(b.run_s, 3), actions=len(run)))
    return out


def _activity(rs, run_s, offs, sig, nov, speed, th) -> list[SyncFinding]:
    """Input-like onsets (in the tiles where actions' reactions happen) in long action gaps."""
    hit = [r for r in rs if r.video_s is not None]
    if len(hit) < th.sync_min_actions:
        return []
    times = sig.times
    on = nov.onsets
    tiles = stretch.input_tiles(sig, nov, [r.video_s for r in hit], SUPPORT_AFTER_S)
    if not tiles.any():
        return []
    like = on[:, tiles].any(axis=1)
    ev_k = np.nonzero(like)[0]
    onsets = []
    last = -1e9
    for k in ev_k.tolist():  # a chain of onsets (a sprite crossing tiles) is one input
        if times[k] - last >= ACTIVITY_MERGE_S:
            onsets.append(float(times[k]))
        last = float(times[k])
    ev_t = np.array(onsets)
    v_act = offs + run_s / speed
    run_end_v = float(v_act[-1])
    # background: input-like events outside every action's reaction time
    near = np.zeros(len(ev_t), bool)
    for v in v_act:
        near |= (ev_t >= v - SUPPORT_BEFORE_S) & (ev_t <= v + REACTION_TAIL_S)
    # ... and outside the long gaps under test
    gaps = [(v_act[i], v_act[i + 1]) for i in range(len(v_act) - 1)
            if run_s[i + 1] - run_s[i] >= th.sync_activity_gap_s]
    for a, b in gaps:
        near |= (ev_t >= a) & (ev_t < b)
    span_v = max(1.0, run_end_v - float(v_act[0]) - sum(b - a for a, b in gaps))
    lam = float((~near & (ev_t >= v_act[0]) & (ev_t <= run_end_v)).sum()) / span_v
    # the input-like onset frames' density in idle time (see ACTIVITY_DENSITY)
    tested = [i for i in range(len(run_s) - 1) if run_s[i + 1] - run_s[i] >= th.sync_activity_gap_s]
    idle = stretch.idle_frames(times, v_act, REACTION_TAIL_S, tested)
    density = float(like[idle].sum()) / max(1.0, float(idle.sum()))
    out = []
    for i in tested:
        gap = run_s[i + 1] - run_s[i]
        a, b = v_act[i] + REACTION_TAIL_S, v_act[i + 1] - SUPPORT_BEFORE_S
        inside = ev_t[(ev_t >= a) & (ev_t < b)]
        expect = lam * max(0.0, b - a)
        frames = (times >= a) & (times < b)
        dense = like[frames].sum() >= ACTIVITY_DENSITY * density * frames.sum()
        if len(inside) >= th.sync_activity_events and len(inside) >= 3 * expect + 2 and dense:
            out.append(SyncFinding(
                "sync.activity_without_actions",
                f"{len(inside)} input-like reactions on screen in {gap:.1f} s with no action "
                f"in the log", round(float(inside[0]), 3), round(float(inside[-1]), 3),
                round(float(run_s[i]), 3), round(float(run_s[i + 1]), 3), actions=len(inside)))
    if sig.whole is None:
        return out
    # The player's band alone (`_in_band`): its moving bins, not its separate onsets
    told = {f.run_start_s for f in out}
    untold = [i for i in range(len(run_s) - 1) if run_s[i + 1] - run_s[i] >=
              th.sync_activity_gap_s and round(float(run_s[i]), 3) not in told]
    moving = (sig.tiles[:, tiles] > 0).any(axis=1)
    for i, v0, v1, o, n, p, llr in stretch.busy_gaps(sig, moving, v_act, REACTION_TAIL_S,
                                                     untold):
        if o < th.sync_activity_events:
            continue
        out.append(SyncFinding(
            "sync.activity_without_actions",
            f"the player's band moves in {o} of {n} quarter seconds of a "
            f"{run_s[i + 1] - run_s[i]:.1f} s gap with no action in the log ({p:.0%} of the "
            f"run's idle time; log-likelihood ratio {llr:.1f})", round(v0, 3), round(v1, 3),
            round(float(run_s[i]), 3), round(float(run_s[i + 1]), 3), actions=o))
    return sorted(out, key=lambda f: f.video_start_s or 0.0)
