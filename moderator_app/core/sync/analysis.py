"""Does the video show what the log says? Auto-sync, reactions, the offset track, findings.

`analyze(run_s, sig, th)` takes the run times of the inputs (seconds since run_start, in log
order) and the video's frame signals, and returns a `SyncAnalysis`: the suggested offset (or
None: not enough signal), per-action reactions, the local offset track and the findings. It
never raises on odd input: no action or no frame is "not enough signal".

The pieces: `records` (SyncFinding, SyncAnalysis), `fit` (the offset fit and its significance),
`local_findings` (the findings along the local offset track) and `combine` (the two tile
scales' analyses made one); this module chooses which stretch's fit to trust, at which tile
scale, and re-exports the public names.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from moderator_app.core.text import counted

from . import (
    align,
    at_offset,
    band,
    band_jump,
    band_splice,
    cadence,
    clock,
    event_jump,
    freeze,
    kinds,
    lookup,
    narrow,
    pace,
    precede,
    reactions,
    repeats,
    rise,
    splices,
    track,
)
from .combine import by_chance, combine, near
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
from .local_findings import (
    answered,
    measure_all,
    reaction_findings,
    unexplained,
    with_answers,
    with_insertion,
    with_unexplained,
)
from .records import CHANCE_WORDS, SyncAnalysis, SyncFinding, video_order
from .signals import FrameSignals

__all__ = ["CHANCE_WORDS", "SyncAnalysis", "SyncFinding", "analyze", "analyze_at", "combine"]


COARSE_GRID = 4  # the second scale (the first is the signals' own 8x8)


def analyze(run_s, sig: FrameSignals, th, offset_s: float | None = None,
            run_duration_s: float | None = None, input_kinds=None) -> SyncAnalysis:
    """The sync analysis (`_analyze`), with the held pictures it does not explain
    (core/sync/freeze.py: found at every offset at which the video covers the run when there
    is no offset; `run_duration_s`, run_start to run_end, narrows those offsets; a finding
    of its own inside a held picture dated from the picture's first held frame), and the
    slowdown its evenly repeated frames show (core/sync/repeats.py: no offset needed), or
    else the speed the game's own animation clock shows (core/sync/pace.py: no offset either),
    and where a clock the game draws changes its schedule (core/sync/clock.py).
    `input_kinds`: beside `run_s`, the log's name for each input (a press's button), or
    None: the offset then also answers to the kind the game reacts to first (`kinds`)."""
    res = splices.dated_jumps(cadence.bounded(cadence.captured(
        _first_stretch(_analyze(run_s, sig, th, offset_s, input_kinds), sig), sig), sig), sig)
    widened: dict[int, SyncFinding] = {}
    held = freeze.frozen_findings(res, run_s, sig, th, run_duration_s, widened,
                                  input_kinds) + \
        repeats.repeat_drift(res, run_s, sig, th)
    if not any(f.rule == pace.RULE for f in held):
        held += pace.pace_drift(res, run_s, sig, th)
    held += clock.clock_jumps(res, run_s, sig, th)
    if not held and not widened:
        return res
    mine = [widened.get(j, f) for j, f in enumerate(res.findings)]
    found = sorted(mine + held, key=video_order)
    return replace(res, findings=found)


def _first_stretch(res: SyncAnalysis, sig: FrameSignals) -> SyncAnalysis:
    """The offset is the video time of run_start: when the footage jumps (an offset jump
    between stretches), the first stretch's offset, not the one the most actions follow.
    Footage inserted 14 s into Breakout's, Pong's and a letterboxed Pitfall's runs had the
    jump found at its place and yet 240 frames of error in the suggested offset (the part
    after the insertion; confidence 0.73-0.79), while the first stretch's own measured offset
    was within 0.6 frame (session 13). Each action's reaction is measured at its own
    stretch's offset either way: only the offset suggested and used changes."""
    if res.suggested_offset_s is None or len(res.segments) < 2 or sig.fps <= 0 or \
            not any(f.rule == "sync.offset_jump" for f in res.findings):
        return res
    first = float(res.segments[0][2])
    if abs(first - res.suggested_offset_s) * sig.fps <= 1.0:
        return res
    # the actions that support it are the first stretch's, and the confidence follows
    # their number (`fit.confidence`: support/10 of the fit's own); Gopher's insertion at
    # 50 fps said "10 of 26 actions", the stretch after the insertion's
    a0, a1 = res.segments[0][0], res.segments[0][1]
    support = sum(1 for r in res.reactions if a0 - 1e-9 <= r.run_s <= a1 + 1e-9
                  and r.delay_s is not None
                  and -SUPPORT_BEFORE_S - 1e-6 <= r.delay_s <= SUPPORT_AFTER_S)
    had = min(1.0, res.supporting_actions / 10)
    conf = res.confidence if had <= 0 else \
        round(min(res.confidence, res.confidence / had * min(1.0, support / 10)), 3)
    return replace(res, suggested_offset_s=round(first, 4), offset_used_s=round(first, 4),
                   supporting_actions=support, confidence=conf)


def _analyze(run_s, sig: FrameSignals, th, offset_s: float | None = None,
             input_kinds=None) -> SyncAnalysis:
    """The sync analysis at two tile scales, combined (`combine`); `offset_s` (the
    moderator's) is used for reactions when given and there is no confident suggestion.

    Why two: a sprite that moves within one coarse tile (Pitfall's walking Harry) gives one
    clean onset per press at 4x4 but a stream of tile-crossing onsets at 8x8, while a small
    sprite among moving things (Breakout's paddle beside the ball) needs 8x8 to stand apart.
    Each scale is judged on its own, with its own significance test against shuffled logs.
    When neither suggests an offset, the player's band alone may (`_in_band`)."""
    fine = analyze_at(run_s, sig, th, offset_s, input_kinds=input_kinds)
    g = sig.grid
    if g <= COARSE_GRID or g % COARSE_GRID:
        return fine
    coarse = analyze_at(run_s, sig.coarser(COARSE_GRID), th, offset_s,
                        input_kinds=input_kinds)
    res = combine(fine, coarse, 1.0 / max(sig.fps, 1e-6))
    if res.suggested_offset_s is None:
        res = _in_band(run_s, sig, th, offset_s, res) or res
    if res.suggested_offset_s is None:
        res = _from_head(run_s, sig, th, offset_s) or res
    if res.suggested_offset_s is None:
        res = _calm(run_s, sig, th, offset_s, input_kinds) or res
    if res.suggested_offset_s is None and offset_s is None:  # the sprites' changes alone
        a = narrow.suggested(run_s, sig, th, analyze_at, input_kinds)
        res = res if a is None else _misses_frozen(a, sig, chance_too=True)
    if res.suggested_offset_s is None:
        res = _rising(run_s, sig, th, offset_s, res) or res
    if res.suggested_offset_s is None and offset_s is not None:
        res = at_offset.band_at(run_s, sig, th, offset_s, res, _band_read) or res
        # ... and the band that answers best there read for a splice (core/sync/band_jump.py)
        res = band_jump.jumps_at(run_s, sig, th, offset_s, res, analyze_at,
                                 BAND_LATENCY_Q) or res
        # ... or per stretch, at the band's own delay (core/sync/band_splice.py)
        res = band_splice.jumps_at(run_s, sig, th, offset_s, res) or res
        # ... or, on a still screen, the picture's events (core/sync/event_jump.py)
        res = event_jump.jumps_at(run_s, sig, offset_s, res) or res
        # ... or at the offset the band reads near the given one (a moderator's is rarely exact)
        res = band_jump.jumps_near(run_s, sig, th, offset_s, res, analyze_at,
                                   BAND_LATENCY_Q) or res
    elif res.suggested_offset_s is None:  # none given: at the offset the first half reads
        res = band_jump.jumps_from_head(run_s, sig, th, res, analyze_at, BAND_LATENCY_Q) or res
    return res


def _band_read(run_s, sig: FrameSignals, tiles, th, offset_s: float) -> SyncAnalysis:
    """The analysis of the band `tiles` of `sig` read at `offset_s`, nothing suggested (for
    `at_offset`), with its reactions' earliest quarter as the band's latency (as `_in_band`)
    and its misses, also those at chance, kept only where the whole picture freezes
    (`_misses_frozen`: the band is not the picture)."""
    a = analyze_at(run_s, band.band_signals(sig, tiles), th, offset_s, BAND_LATENCY_Q,
                   fixed=True)
    return _misses_frozen(a, sig, chance_too=True)


def _rising(run_s, sig: FrameSignals, th, offset_s: float | None,
            silent: SyncAnalysis) -> SyncAnalysis | None:
    """`silent` with the log gaps the motion's rises (core/sync/rise.py) show being played,
    when the onsets single out no offset at any scale, in the band or in the first half, and
    the rises do; None otherwise. First the rises over each tile's own animation phase
    (`rise.out_of_phase`, 8x8 only), then those over the tile's recent most (`rise.rising`:
    8x8 and 4x4, combined as the onsets' scales are, else the whole picture as one tile).
    Why in that order: a press that starts a scroll where an animation rests shows on its
    first frame against its phase (Private Eye at 30 fps), while a screen whose motion has
    no phase (Centipede's sprites) rises above its recent most. Why the phase at 8x8 only:
    at 4x4 too it found nothing more on QA session 15's 37 runs, and cost Private Eye at 50
    fps 20.2 % of its scan's CPU instead of 17.8 % (the rises alone: 15.1 %).
    The rises' offset is named, not suggested: a rise comes 0 to 4 frames after the press's
    first change (Private Eye at 50 fps: its offset 2.2-3.3 frames late at confidence
    0.68-0.86; out of phase at 30 fps +1.84 frames at 0.94, the press's first change under
    the scan's noise floor), and a gap's seconds do not hang on a frame."""
    g, q = sig.grid, BAND_LATENCY_Q
    phase = rise.out_of_phase(sig)
    a = analyze_at(run_s, phase, th, offset_s, q)
    in_phase = a.suggested_offset_s is not None
    if not in_phase:
        a = analyze_at(run_s, rise.rising(sig), th, offset_s, q)
        if g > COARSE_GRID and not g % COARSE_GRID:
            a = combine(a, analyze_at(run_s, rise.rising(sig.coarser(COARSE_GRID)), th,
                                      offset_s, q), 1.0 / max(sig.fps, 1e-6))
        if a.suggested_offset_s is None and g > 1:
            a = analyze_at(run_s, rise.rising(sig.coarser(1)), th, offset_s, q)
    if a.suggested_offset_s is None:
        return None
    played = [replace(f, message=f"{f.message} (at the offset the screen's motion rises "
                      f"single out, {a.suggested_offset_s:.3f} s, not suggested: a rise "
                      "follows a press's first change by 0 to 4 frames)")
              for f in a.findings if f.rule == "sync.activity_without_actions"
              and not any(near(f, g) for g in silent.findings)]
    out = replace(silent, findings=silent.findings + played) if played else silent
    if in_phase:
        out = _phase_reactions(out, run_s, phase, th, float(a.suggested_offset_s)) or out
    return None if out is silent else out


# A moderator's offset this near the one the phase singles out is read on the phase's rises.
PHASE_NEAR_FRAMES = 3.0


def _phase_reactions(res: SyncAnalysis, run_s, phase: FrameSignals, th,
                     named: float) -> SyncAnalysis | None:
    """`res` (a silent analysis at the moderator's offset) with its reactions measured on
    the rises over each tile's phase (`rise.out_of_phase`), when the offset the phase names
    is within PHASE_NEAR_FRAMES of the moderator's, the run is one stretch at speed 1, and
    more reactions are measured so; None otherwise. Why: at the true offset of Private Eye
    at 30 fps the onsets measure 1 reaction of 22, the phase's rises 17 (12 within a frame of
    the truth's first change), and the phase names an offset 1.84 frames from it. The
    findings stay the onsets' (measured as before)."""
    used = res.offset_used_s
    if used is None or res.speed != 1.0 or len(res.segments) > 1 or \
            abs(named - used) * phase.fps > PHASE_NEAR_FRAMES:
        return None
    times = np.asarray([r.run_s for r in res.reactions], float)
    rs = reactions.measure(phase, reactions.novelty(phase), times, used, 1.0,
                           th.sync_reaction_z)
    if sum(r.video_s is not None for r in rs) <= \
            sum(r.video_s is not None for r in res.reactions):
        return None
    return replace(res, reactions=rs)


def _calm(run_s, sig: FrameSignals, th, offset_s: float | None,
          input_kinds) -> SyncAnalysis | None:
    """The analysis with each tile's onsets weighed by how rarely it has one
    (`reactions.calmed`), when a tile is busy and the plain onsets single out no offset at
    any scale, in the band or in the first half; None otherwise. Only then: a run that had
    its offset keeps it, bit for bit, and a screen with no busy tile costs nothing more.

    The fine scale suggests, the coarse one only completes it (`combine`): a coarse tile
    is four fine ones, so a busy one weighs down the player's sprite beside the busy
    sprite too (Ms. Pac-Man's cut, held out: at 4x4 alone +19.19 frames, confidence 0.30;
    Montezuma's runs are suggested at 8x8)."""

    def at(s: FrameSignals) -> SyncAnalysis | None:
        busy = reactions.background_rates(s, reactions.novelty(s))
        if not len(busy) or float(busy.max()) < reactions.BUSY_SHARE:
            return None
        return analyze_at(run_s, s, th, offset_s, input_kinds=input_kinds, calm=True)

    fine = at(sig)
    if fine is None or fine.suggested_offset_s is None:
        return None
    g = sig.grid
    coarse = at(sig.coarser(COARSE_GRID)) if g > COARSE_GRID and not g % COARSE_GRID \
        else None
    if coarse is not None:
        fine = combine(fine, coarse, 1.0 / max(sig.fps, 1e-6))
    if any(f.rule == "sync.offset_jump" for f in fine.findings):
        # two stretches at two offsets: on a busy screen the weighed onsets line a few
        # actions up by chance (a synthetic conveyor screen, 20 genuine logs: 2 false jumps
        # at 1.7-3.8 s; no corpus or QA run's jump comes from here): not enough signal
        return None
    # the weights discount the busy tiles: a stretch of presses the player's tiles do not
    # answer is the game's silence unless the whole picture freezes (Montezuma's genuine
    # run: 1 of its last 12 presses shows, truth; a `sync.no_reaction` over 18.6-38.0 s)
    return _misses_frozen(fine, sig, chance_too=True)


# A run too short for its first half to stand out on its own is not tried by halves.
HEAD_MIN_ACTIONS = 10


def _from_head(run_s, sig: FrameSignals, th, offset_s: float | None) -> SyncAnalysis | None:
    """The analysis at the offset of the run's first half, when the whole run singles out no
    offset but its first half does (at 8x8, else 4x4): a video spliced from a second attempt
    follows the log only up to the splice, so the actions after it are chance matches that
    sink the whole run's fit below its shuffled logs (Pitfall's retake: not enough signal; its
    first 11 actions alone: an offset 0.1 frame from the truth). The rest of the run is then
    tested as any stretch the offset does not explain (`unexplained`). The half stands the
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
        if head.suggested_offset_s is not None and \
                _whole_z(e, s, th, head.suggested_offset_s) >= HEAD_MIN_WHOLE_Z:
            return analyze_at(e, s, th, offset_s, given=head)
    return None


# The first half's offset must leave a mark on the whole run's learned fit, as a stretch's
# must (PART_MIN_WHOLE_Z, whose true parts stand 3.25 to 10.35 spreads): Pitfall's retake,
# the one corpus run (of 304) that takes its head's offset, 7.22 at 8x8. Amidar sped up 5 %
# (session 12's QA, F2): its first 10 actions stood out at 14.26 s by chance (truth 1.68 s)
# and the whole run at that offset 2.05 spreads: a confident offset 755 frames off, a false
# `sync.offset_jump` and `sync.no_reaction`, verdict FAIL.
HEAD_MIN_WHOLE_Z = 3.0


def _whole_z(e: np.ndarray, sig: FrameSignals, th, offset: float) -> float:
    """The whole run's learned fit at `offset`, in spreads over its other offsets."""
    nov1 = reactions.novelty(sig)
    look1 = lookup.Lookup(sig, lookup.lookahead(sig, nov1))
    q = reactions.background_rates(sig, nov1)
    look = learned_fit(sig, nov1, look1, q, e, 1.0, th)[2]
    return align.z_at(sig, look, e, 1.0, offset)


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
    nov = reactions.novelty(sig)
    tiles, margin = band.select(sig, nov, e, th.sync_band_min_null_z, sig.grid)
    if tiles is None:
        return None
    a = analyze_at(e, band.band_signals(sig, tiles), th, offset_s, BAND_LATENCY_Q)
    if a.suggested_offset_s is None:
        return None
    why = "too weak to suggest" if margin < th.sync_min_null_z else \
        _first_answer(sig, nov, tiles, a)
    if why:
        played = [replace(f, message=f"{f.message} (at the player's band's offset, "
                          f"{a.suggested_offset_s:.3f} s, {why})")
                  for f in a.findings if f.rule == "sync.activity_without_actions"]
        return replace(silent, findings=silent.findings + played) if played else None
    # the band is not the picture: a stretch without the sprite's answer (a press into a
    # wall) is no missing reaction unless the whole picture freezes (`reactions.frozen`: a
    # share of still frames is a game's own pace too, Frostbite's floes: 88 % of a genuine
    # stretch's frames, 81 % of its run's)
    return _misses_frozen(a, sig)


def _misses_frozen(a: SyncAnalysis, sig: FrameSignals, chance_too: bool = False) -> SyncAnalysis:
    """`a` without its runs of misses (`sync.no_reaction`; `chance_too`: also the stretches
    answered only by chance, `by_chance`) where the whole picture does not freeze
    (`reactions.frozen`): for an analysis of a part of the picture or of its weighed-down
    onsets (`_in_band`, `_calm`), the game's own silence."""
    kept = [f for f in a.findings if f.rule != "sync.no_reaction"
            or (by_chance(f) and not chance_too)
            or (f.video_start_s is not None and f.video_end_s is not None
                and reactions.frozen(sig, f.video_start_s, f.video_end_s,
                                     [r.expected_video_s for r in a.reactions]))]
    return a if len(kept) == len(a.findings) else replace(a, findings=kept)


def _first_answer(sig: FrameSignals, nov: reactions.Novelty, tiles: np.ndarray,
                  a: SyncAnalysis) -> str:
    """Why the band's offset is not the input's, or "": another tile of the picture answers
    the presses before the band does (`band.answered_earlier`: a shot crossing the band
    after the gun that fired it answered)."""
    frames = [reactions.frame_at(sig.times, r.video_s) for r in a.reactions
              if r.video_s is not None and r.delay_s is not None
              and r.delay_s <= SUPPORT_AFTER_S]
    first = band.answered_earlier(sig, nov, tiles, np.asarray(frames, np.int64))
    if first is None:
        return ""
    return (f"not suggested: another part of the picture answers {first[1]} of its "
            f"{len(frames)} reactions earlier")


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


def analyze_at(run_s, sig: FrameSignals, th, offset_s: float | None = None,
               latency_q: float = 50.0, given: SyncAnalysis | None = None,
               input_kinds=None, calm: bool = False, fixed: bool = False) -> SyncAnalysis:
    """The sync analysis at the signals' own tile scale. `given`: the analysis of a part of
    these actions (`_from_head`), whose suggestion stands when these actions single out
    none. `input_kinds`: see `analyze`. `calm`: busy tiles' onsets weighed down (`_calm`).
    `fixed`: nothing is suggested, the reactions are read at `offset_s` (`at_offset`)."""
    run_s, input_kinds = kinds.in_order(run_s, input_kinds)
    n = len(run_s)
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
    drift = align.fit(sig, novd, run_s, look=lookd)
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
        s1 = piecewise_support(sig, lookd, run_s, fit1.offset_s, 1.0, th, novd)
        s2 = piecewise_support(sig, lookd, run_s, drift.offset_s, drift.speed, th, novd)
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
    for i0, i1 in zip(cuts, cuts[1:], strict=False):
        if i1 - i0 < th.sync_min_actions:
            continue
        sub = run_s[i0:i1]
        f, zz = significance(sig, nov1, look1, q, sub, speed, th, memo)
        if abs(f.offset_s - cands[path[i0]]) > 2 / sig.fps:
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
    sub = run_s if chosen is None else chosen
    plain = (nov1, look1)
    offset, support, lag = first_offset(sub, sig, nov, plain, seg_fit.offset_s, speed, th,
                                        latency_q)
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
    suggested = None if reason else round(offset - ahead, 4)
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
        return replace(out, findings=reaction_findings(out, run_s, sig, nov, th))
    part = unexplained(out, run_s, sig, nov_r, th, aligned, q, memo)
    if part is None:
        out = with_insertion(out, run_s, sig, nov_r, th, q, memo) or out
        return with_answers(out, sig, nov_r, th, q, memo)
    # The offset from the part the video follows; the rest is a finding, not evidence.
    i0, i1 = part
    keep = np.r_[0:i0, i1:n]
    offset, support, lag = first_offset(run_s[keep], sig, nov, plain, seg_fit.offset_s,
                                        speed, th, latency_q)
    if speed != 1.0:
        offset, speed, line_se = refine_speed(run_s[keep], sig, nov, offset, speed, th)
        bound = min(bound, line_bound(line_se, sig.fps))
    if null_z < math.inf:  # (a part's suggestion keeps the part's confidence)
        conf = min(confidence(min(seg_fit.z, null_z), support), bound)
    res = replace(res, suggested_offset_s=round(offset - ahead, 4),
                  offset_used_s=round(offset, 4),
                  supporting_actions=support, speed=speed, confidence=conf)
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
    return with_unexplained(out, run_s, sig, nov_r, th, i0, i1, q, nov, latency_q)
