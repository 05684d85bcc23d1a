"""One reading of the whole picture at one tile scale: the offset fit, its stretches along
the run, and the reactions and findings at the offset it trusts (`analyze_at`).

`analysis` decides which readings to make (two tile scales, the player's band, the run's first
half, the sprites' changes alone, a given offset) and which to keep; every one of them is this
reading of some signals. Kept apart so that the choosing and the reading can each be read
whole (analysis.py had grown past 600 lines).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from moderator_app.core.text import counted

from . import (
    align,
    kinds,
    lookup,
    precede,
    reactions,
    rival,
    track,
)
from . import faint as faint_mod
from .buttons import null_z as buttons_null_z
from .faint import faint_offset
from .fit import (
    FIT_WEIGHT_FLOOR,
    SUPPORT_AFTER_S,
    SUPPORT_BEFORE_S,
    candidates,
    confidence,
    drift_significant,
    first_offset,
    grid_too_coarse,
    learned_fit,
    line_bound,
    piecewise_support,
    refine_speed,
    significance,
    windows,
)
from .head import HEAD_BOUND, HEAD_MARK_Z, head_note
from .local_findings import (
    answered,
    head_at_chance,
    measure_all,
    unexplained,
    with_answers,
    with_insertion,
    with_unexplained,
)
from .missed import answered_runs
from .reaction_findings import reaction_findings
from .records import APPLY_MIN_CONFIDENCE, SyncAnalysis
from .signals import FrameSignals

# A stretch of the track chosen for the offset (a part of the run) must leave a mark on the
# whole run's learned fit at its offset: a spliced video's stretch at its true offset does
# (the stretch's reactions are a share of the whole run's score; the corpus' cuts, insertions,
# long cuts and second attempts at 3.25 to 10.35 spreads, Enduro's genuine run 3.75), while a
# few actions that line up by chance with a picture whose onsets repeat do not. Skiing's
# `pause` run (held out, the slope scrolls): at 4x4 its first 8 actions stood 7.27 spreads over
# their shuffled logs at 24.26 s (truth 2.03 s), where the whole run stands 1.24 spreads: a
# confident offset 1,335 frames off and a false `sync.offset_jump`.
PART_MIN_WHOLE_Z = 2.0

# The busy tiles' weight in the drift search of the busy-screen analysis (`_calm`):
# (1 - share) ** 2. Montezuma at 24 fps, the drift's best over its shuffled logs' (3 spreads
# needed): +5 % 2.53 -> 3.49, -2.5 % 2.18 -> 3.64 (at 1, 2); the genuine run's best is then
# no drift (+0.75 % -> 0.00 %). Everywhere else in that analysis the weight stays 1 - share:
# at 2, Kung-Fu Master's insertion (s16 QA, 48 fps) got the post-insertion offset (+4.0 s,
# confidence 0.76) and no finding.
DRIFT_CALM_POWER = 2


# Two stretches side by side at two offsets, neither at the two-stretch bar alone: each must
# stand this far over its shuffled logs, and both together (`_splice_pair`) as far as one
# stretch must alone (sync_min_null_z).
PAIR_MIN_NULL_Z = 2.5


Tested = tuple[np.ndarray, float, align.Fit, tuple[int, int]]  # stretch, null z, fit, span


def _splice_pair(tested: list[Tested], th) -> Tested | None:
    """The first of two stretches next to each other in the run, at offsets at least
    sync_jump_s apart, each PAIR_MIN_NULL_Z over its shuffled logs and together
    sync_min_null_z (Stouffer's sum: z1 + z2 over root 2); None when no pair does.
    Why: a splice halves each side's evidence. Video Pinball cut 4 s at 20 fps (QA s14): the
    track splits it right, 14 presses at 3.525 s standing 2.82 over their shuffled logs and 9
    at -0.539 s standing 4.83 (5.41 together); the genuine run stands 5 or more whole."""
    for a, b in zip(tested, tested[1:], strict=False):
        if a[3][1] != b[3][0] or abs(a[2].offset_s - b[2].offset_s) < th.sync_jump_s:
            continue
        if min(a[1], b[1]) >= PAIR_MIN_NULL_Z and \
                (a[1] + b[1]) / math.sqrt(2) >= th.sync_min_null_z:
            return a
    return None


# A moderator's offset further than this from a suggestion under the one-click bar (and from
# its reading's first stretch, the run's start) is the one the reactions are read at (the
# suggestion is not kept: `analyze_at`). Within it the suggestion is read, as the moderator's
# offset is rarely exact: 1.0 s (band.NEAR_S, freeze.WAIT_REACH_S) and the suggestion's own
# lag beyond it (Pong's cut, truth 1.767 s: its suggestion 1.790 s is 1.023 s from the
# truth - 1.0 s, where its cut is found at 1.790 s).
GIVEN_NEAR_S = 1.5


def analyze_at(run_s, sig: FrameSignals, th, offset_s: float | None = None,
               latency_q: float = 50.0, given: SyncAnalysis | None = None,
               input_kinds=None, calm: bool = False, fixed: bool = False,
               wanted: bool = False, faint: bool = False,
               buttons: bool = False) -> SyncAnalysis:
    """The sync analysis at the signals' own tile scale. `given`: the analysis of a part of
    these actions (`_from_head`), whose suggestion stands when these actions single out
    none. `input_kinds`: see `analyze`. `calm`: busy tiles' onsets weighed down (`_calm`).
    `fixed`: nothing is suggested, the reactions are read at `offset_s` (`at_offset`).
    `wanted`: the caller reads a suggestion only and drops an analysis without one (the
    rises', the band's, the first half's, the narrowed picture's): the reading stops as
    soon as none can come (`_unwanted`), and its analysis then holds nothing else.
    `faint`: the offset's support read at a lower bar over chance's (core/sync/faint.py),
    and a track's stretch offset without support of its own no evidence against the fit.
    `buttons`: with no stretch standing its shuffled logs, the presses of the buttons the
    picture answers may (`_by_buttons`; `analysis._buttons`).

    A suggestion under the one-click bar (records.APPLY_MIN_CONFIDENCE) does not override a
    moderator's offset more than GIVEN_NEAR_S away: the reading is made again with the
    suggestion withheld, the reactions, the track and its findings at the moderator's offset.
    Why: Kaboom! with 4 s cut at 19.37 s (s26 seeds 2613, 2651) is offered -1.40 s at 0.4
    (its head at chance, core/sync/head.py); given the truth, 2.6 s, every finding was still
    read at -1.40 s, where the run's first 12 presses are at chance, and the cut unseen."""
    wanted = wanted and given is None and not fixed
    res = _read_at(run_s, sig, th, offset_s, latency_q, given, input_kinds, calm, fixed,
                   wanted=wanted, faint=faint, buttons=buttons)
    if not fixed:  # a head at another offset: no sure start, nor over a given offset (rival.py)
        res = rival.head_rival(res, th)
    if offset_s is None or fixed or res.suggested_offset_s is None or \
            res.confidence >= APPLY_MIN_CONFIDENCE:
        return res
    # the first stretch's offset is the run's start (`analysis._first_stretch`): Kaboom!'s
    # insertion s2621, the truth's first stretch, the offset after it suggested
    starts = [res.suggested_offset_s] + [seg[2] for seg in res.segments[:1]]
    if any(abs(x - offset_s) <= GIVEN_NEAR_S for x in starts):
        return res
    if wanted:  # (read again with the suggestion withheld: it suggests nothing)
        return _unwanted(res.actions, offset_s)
    read = _read_at(run_s, sig, th, offset_s, latency_q, None, input_kinds, calm, fixed,
                    withheld=res.suggested_offset_s)
    return replace(read, withheld_offset_s=res.suggested_offset_s)


def _by_buttons(tested: list[Tested], sig: FrameSignals, nov1, look1, q, speed: float,
                input_kinds: list[str], th) -> Tested | None:
    """The first stretch tested whose presses of the buttons the picture answers stand
    sync_min_null_z over their shuffled logs, the buttons chosen in every shuffle alike
    (`buttons.null_z`), or None. Asked only when no stretch stood the whole-log test and
    no splice was found: a stretch that stands on its own, or a splice, keeps its reading."""
    for sub, _zz, f, span in tested:
        zb = buttons_null_z(sig, nov1, look1, q, sub, kinds.part(input_kinds, *span), speed, th)
        if zb >= th.sync_min_null_z:
            return sub, zb, f, span
    return None


def _track_stands(look, sub: np.ndarray, cand: float, speed: float, th) -> bool:
    """Whether the track's offset for a stretch (`cand`) has sync_min_actions of its
    actions supported there: its choice is evidence against the stretch's own fit
    elsewhere only then. Why: the track picks, per stretch, the candidate most actions
    support at sync_reaction_z; where the reactions are faint that is a handful of chance
    changes. QA s29's Turmoil at 16 fps: its fit 0.2 frame from the truth stood 5.45
    spreads over its shuffled logs, the track chose -5.85 s for the whole run on 5 supported
    actions (4 at the fit's offset), and the run read "not enough signal"."""
    return int(np.count_nonzero(track.supported(look, sub, cand, speed,
                                                th.sync_reaction_z))) >= th.sync_min_actions


def _support_floor(look, run_s: np.ndarray, offset: float, th) -> int:
    """A floor under `piecewise_support(..., offset, 1.0, ...)`: the actions `offset` alone
    supports at speed 1. Why it is one: the track's best path (`track.segment`) scores no
    less than staying at the global offset, its first candidate, and both scores are whole
    numbers but for the path's start tie-break (0.01). A drift whose support falls short of
    the floor's bar falls short of the support's (`_read_at`), which is then not read:
    Seaquest's genuine run, 8 of 8 such drifts, 7 % of its analysis."""
    return int(np.count_nonzero(track.supported(look, run_s, offset, 1.0,
                                                th.sync_reaction_z)))


def _unwanted(n: int, offset_s: float | None) -> SyncAnalysis:
    """What a reading `wanted` for its suggestion alone answers once none can come: no
    offset, nothing measured (its caller drops it)."""
    return SyncAnalysis(None, 0.0, 0, n, 1.0, "no suggestion (read for one only)", offset_s)


def _read_at(run_s, sig: FrameSignals, th, offset_s: float | None, latency_q: float,
             given: SyncAnalysis | None, input_kinds, calm: bool, fixed: bool,
             withheld: float | None = None, wanted: bool = False,
             faint: bool = False, buttons: bool = False) -> SyncAnalysis:
    """`analyze_at`'s reading; `withheld`: a suggestion under the one-click bar far from the
    moderator's `offset_s`: nothing is suggested, everything is read at `offset_s`.
    `wanted` (with no `given`): a suggestion alone is read (`analyze_at`).

    Where a `wanted` reading stops, and why no suggestion can come after: fewer than
    sync_min_actions actions (the reason is then set); one stretch of the track long enough
    to test whose learned fit stands under sync_min_z (the stretch chosen is the offset's
    fit: `seg_fit.z` under the bar sets the reason, and a splice needs two stretches); no
    stretch chosen after the shuffled logs; any reason set."""
    run_s, input_kinds = kinds.in_order(run_s, input_kinds)
    n = len(run_s)
    if wanted and (n < th.sync_min_actions or len(sig) < 2):
        return _unwanted(n, offset_s)
    if n == 0 or len(sig) < 2:
        return SyncAnalysis(None, 0.0, 0, n, 1.0, "no action in the log" if n == 0
                            else "the video has fewer than two frames", offset_s)
    nov1 = reactions.novelty(sig)
    novd = nov1
    if calm:
        nov1 = reactions.calmed(sig, novd) or nov1
        # the drift search reads the lookahead of its novelty alone, over every speed
        # (no learned weights), and so do its shuffled logs: the busy tiles weighed down
        # harder there (DRIFT_CALM_POWER)
        novd = reactions.calmed(sig, novd, DRIFT_CALM_POWER) or nov1
    look1 = lookup.Lookup(sig, lookup.lookahead(sig, nov1))
    lookd = look1 if novd is nov1 else lookup.Lookup(sig, lookup.lookahead(sig, novd), like=look1)
    q = reactions.background_rates(sig, nov1)
    fit1 = align.fit(sig, novd, run_s, speeds=np.array([1.0]), look=lookd)
    speed = 1.0
    drift = align.every_speed_fit(sig, novd, run_s, lookd)
    assert fit1 is not None and drift is not None  # actions and two frames: fit answers
    # A drift's speed must lie inside the searched grid (align.SPEEDS): a best speed at
    # either end is no peak found, the score may still rise beyond it. Enduro's genuine log
    # beside a video of another attempt of the game found its best at the +8 % end, passed
    # the drift's shuffled logs, and got an offset 236 frames off (confidence 0.64) and a
    # false `sync.drift`; no drift of either corpus set reads beyond +6.05 or -2.98 %.
    if abs(drift.speed - 1) * 100 >= th.sync_drift_pct and \
            align.SPEEDS[0] < drift.speed < align.SPEEDS[-1]:
        # A drift must explain clearly more actions than one offset, or pieces of one offset
        # (a splice) would read as a slow drift.
        s2 = piecewise_support(sig, lookd, run_s, drift.offset_s, drift.speed, th, novd)
        s0 = _support_floor(lookd, run_s, fit1.offset_s, th)
        if s2 >= s0 + track.SWITCH_PENALTY and s2 >= 1.3 * s0:  # (else short of s1 too)
            s1 = piecewise_support(sig, lookd, run_s, fit1.offset_s, 1.0, th, novd)
            if s2 >= s1 + track.SWITCH_PENALTY and s2 >= 1.3 * s1 and \
                    drift_significant(sig, novd, lookd, run_s, drift.score, th):
                speed = drift.speed
    memo: dict = {}
    fit, nov, look, w = learned_fit(sig, nov1, look1, q, run_s, speed, th, memo)
    # Significance, per stretch of one offset (a spliced video has several): the same
    # procedure on the stretch's gaps shuffled must score clearly lower.
    z = th.sync_reaction_z
    pts = windows(sig, nov, look, run_s, speed, th)
    fit_speed = speed
    cands = candidates(sig, nov, look, run_s, fit.offset_s, speed, th, pts)
    path = track.segment(look, run_s, cands, speed, z)
    cuts = [0] + [i for i in range(1, n) if path[i] != path[i - 1]] + [n]
    chosen, null_z, seg_fit, span = None, 0.0, fit, (0, n)
    tested = []
    # what a stretch's z over its shuffled logs is read for: passing sync_min_null_z, and
    # with two stretches or more to test, the splice's bars (`_splice_pair`, `good` below);
    # under the lowest of those a stretch decides nothing (`significance`'s `needed`)
    long_enough = sum(1 for i0, i1 in zip(cuts, cuts[1:], strict=False)
                      if i1 - i0 >= th.sync_min_actions)
    needed = th.sync_min_null_z if long_enough == 1 else \
        min(th.sync_min_null_z, th.sync_min_null_z_splice, PAIR_MIN_NULL_Z)
    if wanted and long_enough <= 1:
        one = [run_s[i0:i1] for i0, i1 in zip(cuts, cuts[1:], strict=False)
               if i1 - i0 >= th.sync_min_actions]
        if not one or learned_fit(sig, nov1, look1, q, one[0], speed, th, memo)[0].z < \
                th.sync_min_z:
            return _unwanted(n, offset_s)
    for i0, i1 in zip(cuts, cuts[1:], strict=False):
        if i1 - i0 < th.sync_min_actions:
            continue
        sub = run_s[i0:i1]
        f, zz = significance(sig, nov1, look1, q, sub, speed, th, memo, needed)
        if zz >= needed:  # (a faint reading of these actions may choose it: faint.py)
            faint_mod.mark_stood(sig, run_s)
        if abs(f.offset_s - cands[path[i0]]) > 2 / sig.fps and \
                (not faint or _track_stands(look, sub, cands[path[i0]], speed, th)):
            continue  # the stretch alone prefers another offset: no evidence for this one
        if i1 - i0 < n and align.z_at(sig, look, run_s, speed, f.offset_s) < PART_MIN_WHOLE_Z:
            continue  # the whole run does not stand out there at all: a chance alignment
        tested.append((sub, zz, f, (i0, i1)))
        if zz >= th.sync_min_null_z:
            chosen, null_z, seg_fit, span = sub, zz, f, (i0, i1)
            break
    if chosen is None:
        # A spliced video: two or more stretches, each clearly aligned at its own offset
        good = [t for t in tested if t[1] >= th.sync_min_null_z_splice]
        if len(good) >= 2:
            chosen, null_z, seg_fit, span = good[0]
        else:
            chosen, null_z, seg_fit, span = _splice_pair(tested, th) or \
                (chosen, null_z, seg_fit, span)
    if chosen is None and buttons and input_kinds is not None:
        chosen, null_z, seg_fit, span = _by_buttons(tested, sig, nov1, look1, q, speed,
                                                    input_kinds, th) or \
            (chosen, null_z, seg_fit, span)
    if wanted and chosen is None:
        return _unwanted(n, offset_s)
    sub = run_s if chosen is None else chosen
    plain = (nov1, look1)
    offset, support, lag = first_offset(sub, sig, nov, plain, seg_fit.offset_s, speed, th,
                                        latency_q)
    if faint and chosen is not None and support < th.sync_min_actions and speed == 1.0 and \
            seg_fit.z >= th.sync_min_z:
        # the fit stands, its reactions are faint: the support at a lower bar, over chance's
        offset, support, lag = faint_offset(sub, sig, nov, plain, seg_fit.offset_s, th,
                                            latency_q) or (offset, support, lag)
    # the kind of input the game answers first moves the suggestion, not the offset the
    # reactions are measured at (the others' reactions stay where the fit found them)
    ahead = 0.0 if chosen is None else \
        kinds.ahead_s(sub, kinds.part(input_kinds, *span), sig, (nov, look), (nov1, look1),
                      offset=offset, speed=speed, th=th, q=latency_q)
    late = False
    if not ahead and chosen is not None and speed == 1.0:
        # the presses' changes must not precede the offset (`precede`: kinds or none)
        found = precede.ahead_s(sub, sig, nov, look, offset, speed, th)
        late, ahead = found is None, found or 0.0
    # ... and the earliest reactions bound it (`precede.behind_s`: Adventure's latency)
    behind, group = (0.0, 0) if late or chosen is None or speed != 1.0 else \
        precede.behind_s(sub, sig, nov, look, offset - ahead, speed, th)
    ahead += behind
    line_se = 0.0  # a drift's offset carried back along its line: its standard error
    if speed != 1.0:
        # a long run's stretch of one offset at the grid's speed is a piece of a line the
        # grid misses (fit.grid_too_coarse): the line is refined on the whole run
        offset, speed, line_se = refine_speed(run_s if grid_too_coarse(run_s) else sub, sig,
                                              nov, offset, speed, th)
    # what bounds the confidence whatever the support (kept when a part's support replaces
    # the stretch's below: Pong's cut and retake, 4 and 6 reactions in the earliest group,
    # were offered at 0.64 and 1.4-1.6 frames late when it was recomputed without it)
    bound = line_bound(line_se, sig.fps)
    if group:  # the offset then rests on the earliest group's reactions alone
        bound = confidence(min(seg_fit.z, null_z), group)
    if chosen is not None and not late and speed == 1.0:
        # an earlier group beyond the cap: the offset is ambiguous by that much (Othello)
        early = precede.earlier_group(sub, sig, nov, offset - ahead, speed, th)
        if early:
            bound = min(bound, confidence(min(seg_fit.z, null_z), early))
        # ... and a latency spread past the fit's model: a prior's offset (Othello)
        bound = min(bound, precede.spread_bound(
            precede.spread_s(sub, sig, nov, offset - ahead, speed, th)))
    conf = min(confidence(min(seg_fit.z, null_z), support), bound)
    reason = ""
    if n < th.sync_min_actions:
        reason = f"only {counted(n, 'action')} in the log"
    elif chosen is None or seg_fit.z < th.sync_min_z or support < th.sync_min_actions:
        reason = "the video's reactions do not single out one offset"
    elif late:
        reason = "the presses' changes precede the offset their reactions single out"
    if fixed and not reason:
        reason = "read at the offset given"
    if withheld is not None and not reason:
        reason = (f"the offset the reactions single out, {withheld:.3f} s, is under the "
                  "one-click bar and far from the offset given: read at the offset given")
    suggested = None if reason else round(offset - ahead, 4)
    if wanted and reason:
        return _unwanted(n, offset_s)
    if reason:
        conf = min(conf, 0.3)
        speed = 1.0
        lag = 0.0  # the moderator's offset, or the part's: no later change read here
    if reason and given is not None and given.suggested_offset_s is not None:
        # the part's offset, measured as the part's own analysis did
        suggested, conf, support, reason = given.suggested_offset_s, given.confidence, \
            given.supporting_actions, ""
        seg_fit = replace(seg_fit, offset_s=suggested)
        null_z = math.inf
    used = suggested if suggested is not None else offset_s
    if suggested is not None and ahead and null_z < math.inf:
        used = round(offset, 4)  # the reactions' offset (`ahead`)
    res = SyncAnalysis(suggested, conf, support, n, speed, reason, used)
    if used is None:
        return res
    nov_r = nov if w is None else reactions.novelty(sig, w - FIT_WEIGHT_FLOOR + 1.0, like=nov1)

    def aligned(sub: np.ndarray, offset: float, min_z: float = th.sync_min_z) -> bool:
        """A stretch of actions whose own (learned) fit stands out at `offset` (see _path)."""
        if len(sub) < th.sync_min_actions:
            return False
        lk = learned_fit(sig, nov1, look1, q, sub, speed, th, memo)[2]
        return align.z_at(sig, lk, sub, speed, offset) >= min_z

    out = measure_all(res, run_s, sig, nov, look, th, nov_r, aligned, latency_q,
                       pts if res.speed == fit_speed else None, plain, lag)
    if fixed:  # nothing suggested: the rules that read the reactions, at the offset given
        return answered_runs(replace(out, findings=reaction_findings(out, run_s, sig, nov, th)),
                             sig, th)
    part = unexplained(out, run_s, sig, nov_r, th, aligned, q, memo)
    if part is not None and line_answers(out, part, th):
        part = None  # the drift's own reactions answer it: no stretch at chance
    if part is None:
        inserted = with_insertion(out, run_s, sig, nov_r, th, q, memo)
        if inserted is None and null_z < math.inf and len(out.segments) == 1 and \
                withheld is None:
            # the run's head must follow the offset suggested as its start (core/sync/head.py)
            head = head_at_chance(out, sig, nov_r, th, q, memo)
            start = out.offset_used_s
            if head is not None and start is not None and \
                    not aligned(run_s[:head[0]], start, HEAD_MARK_Z):
                res = replace(res, suggested_offset_s=None, confidence=min(conf, 0.3),
                              speed=1.0, offset_used_s=offset_s,
                              refused_offset_s=start,
                              reason=f"the run's first {head[0]} actions are answered no "
                              "more often than by chance at the offset the rest singles out")
                if offset_s is None:
                    return res
                out = replace(measure_all(res, run_s, sig, nov, look, th, nov_r, aligned,
                                          latency_q, pts if fit_speed == 1.0 else None,
                                          plain, 0.0), refused_offset_s=start)
                inserted = with_insertion(out, run_s, sig, nov_r, th, q, memo)
        if inserted is None and span[1] - span[0] < n and null_z < math.inf and \
                len(out.segments) == 1 and out.suggested_offset_s is not None:
            out = _whole_stands(out, run_s, sig, nov1, look1, q, speed, th, memo)
        return answered_runs(with_answers(inserted or out, sig, nov_r, th, q, memo), sig, th)
    # The offset from the part the video follows; the rest is a finding, not evidence.
    i0, i1 = part
    if withheld is None:  # (withheld: the moderator's offset stays the one read)
        res, lag = _from_rest(res, run_s, np.r_[0:i0, i1:n], sig, nov, plain, seg_fit,
                              null_z, speed, ahead, bound, th, latency_q)
    # the stretch at chance does not follow the offset used: the offset it does follow
    # carries evidence already, and needs no more than the rest (`measure_all`'s `part`),
    # when the stretch is answered there; a chance match is not (Breakout's 14 s cut: its
    # last 18 actions at -5.86 s, truth -12.02, 6 answered against 3.1 by chance)
    at = pts if res.speed == fit_speed else None
    out = measure_all(res, run_s, sig, nov, look, th, nov_r, aligned, latency_q, at, plain,
                      lag, (float(run_s[i0]), float(run_s[i1 - 1])))
    if len(out.segments) > 1 and not answered(out, sig, nov_r, th, q, i0, i1):
        out = measure_all(res, run_s, sig, nov, look, th, nov_r, aligned, latency_q, at,
                          plain, lag)
    out = with_unexplained(out, run_s, sig, nov_r, th, i0, i1, q, nov, latency_q)
    if i0 == 0 and null_z < math.inf and out.suggested_offset_s is not None and \
            not any(f.rule == "sync.offset_jump" for f in out.findings):
        # the run's head does not follow the offset the rest singles out, and no other offset
        # explains it: that offset is not the run's start for sure (core/sync/head.py)
        out = replace(out, confidence=min(out.confidence, HEAD_BOUND),
                      confidence_note=head_note(i1))
    # its answers too: a held picture inside the stretch may explain it (freeze.py)
    return answered_runs(with_answers(out, sig, nov_r, th, q, memo), sig, th)


def line_answers(out: SyncAnalysis, part: tuple[int, int], th) -> bool:
    """Whether a drift's line (`out.speed` not 1) has sync_min_actions or more of its
    supporting reactions (`fit.SUPPORT_BEFORE_S` to `SUPPORT_AFTER_S` from where the line
    expects them) inside the actions `part` that `unexplained` finds answered at chance.
    Why: the line is then the clock of that stretch too, and the rest alone is a shorter
    line through fewer presses. Solaris sped up 2.9 % (the wide set, at the truth): the
    coarse reading's line, +2.89 %, 19 of 30 presses, was refitted on the last 8 presses
    after the first 22 read "at chance" in the player's tiles, though 11 of the line's 18
    supporting reactions lie among them: +2.64 % on 7 presses at 0.106, too weak a line
    for a drift (`local_findings.weak_line`), and the speed-up was said nowhere. At speed 1
    the stretch test keeps its word (a second attempt spliced in)."""
    if out.speed == 1.0:
        return False
    i0, i1 = part
    inside = sum(1 for r in out.reactions[i0:i1] if r.delay_s is not None and
                 -SUPPORT_BEFORE_S - 1e-6 <= r.delay_s <= SUPPORT_AFTER_S)
    return inside >= th.sync_min_actions


def _from_rest(res: SyncAnalysis, run_s, keep, sig: FrameSignals, nov, plain, seg_fit,
               null_z: float, speed: float, ahead: float, bound: float, th,
               latency_q: float) -> tuple[SyncAnalysis, float]:
    """The offset from the part of the run the video follows (`keep`); the rest is a
    finding, not evidence. Returns the analysis suggesting it, and the later change's lag."""
    offset, support, lag = first_offset(run_s[keep], sig, nov, plain, seg_fit.offset_s,
                                        speed, th, latency_q)
    if speed != 1.0:
        offset, speed, line_se = refine_speed(run_s[keep], sig, nov, offset, speed, th)
        bound = min(bound, line_bound(line_se, sig.fps))
    conf = res.confidence
    if null_z < math.inf:  # (a part's suggestion keeps the part's confidence)
        conf = min(confidence(min(seg_fit.z, null_z), support), bound)
    return replace(res, suggested_offset_s=round(offset - ahead, 4),
                   offset_used_s=round(offset, 4), supporting_actions=support, speed=speed,
                   confidence=conf), lag


# A suggestion tested on a part of the log (the track's stretch) and read over the whole run
# as one stretch, no splice found, whose whole log does not stand sync_min_null_z over its
# shuffled logs, is bounded to this (under records.APPLY_MIN_CONFIDENCE: shown, not applied
# in one click). Pitfall's genuine videos beside Pong's genuine log (session 27): a stretch
# of 21 of its 32 presses stood 5.53 spreads at 8x8, the whole log 0.0 (a shuffled log did
# as well): 8.123 s offered at 0.692 / 0.641, Pitfall's truth 2.0 s. Every run of the
# sweep offered so at >= 0.5 and within a frame stands 8.55 to 57 spreads whole.
WHOLE_BOUND = 0.4


def _whole_stands(out: SyncAnalysis, run_s, sig: FrameSignals, nov1, look1, q, speed: float,
                  th, memo: dict) -> SyncAnalysis:
    """`out` (one stretch at one offset over the whole run, no splice found, its offset
    tested on a part of the run only), its confidence bounded to WHOLE_BOUND when the whole
    run does not stand its own shuffled-log test (sync_min_null_z). Why: a part of a log
    whose presses come in a steady rhythm (Pong's pairs, about two seconds apart) lines up
    with another game's picture by chance and passes its own test, while the whole log,
    read the same way, does no better than its shuffled logs. A genuine run read as one
    stretch is the whole run's evidence: its whole log stands out too."""
    if out.confidence <= WHOLE_BOUND:
        return out
    zz = significance(sig, nov1, look1, q, run_s, speed, th, memo)[1]
    if zz >= th.sync_min_null_z:
        return out
    return replace(out, confidence=WHOLE_BOUND, confidence_note=(
        f"a part of the log singles out this offset, the whole log ({counted(len(run_s), 'action')}) "
        f"stands {zz:.1f} spreads over its shuffled logs ({th.sync_min_null_z:g} needed): "
        "it may be a chance alignment of the log's rhythm with the picture"))
