"""Does the video show what the log says? Auto-sync, reactions, the offset track, findings.

`analyze(run_s, sig, th)` takes the run times of the inputs (seconds since run_start, in log
order) and the video's frame signals, and returns a `SyncAnalysis`: the suggested offset (or
None: not enough signal), per-action reactions, the local offset track and the findings. It
never raises on odd input: no action or no frame is "not enough signal".

The pieces: `records` (SyncFinding, SyncAnalysis), `fit` (the offset fit and its significance),
`local_findings` (the findings along the local offset track), `combine` (the two tile
scales' analyses made one) and `reading` (`analyze_at`: one reading of some signals, the fit
and the stretch to trust); this module chooses which readings to make and keep (tile scale,
the player's band, the run's first half, the sprites' changes alone, a given offset), and
re-exports the public names.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from . import (
    align,
    answer_fit,
    at_offset,
    band,
    band_jump,
    band_splice,
    cadence,
    calibrate,
    clock,
    coloured,
    drops,
    event_jump,
    faint,
    finer_band,
    freeze,
    held_insert,
    kinds,
    lookup,
    narrow,
    pace,
    reactions,
    repeats,
    rise,
    rival,
    splices,
)
from .combine import by_chance, combine, near
from .finer_beat import Look, finer_waits
from .fit import (
    SUPPORT_AFTER_S,
    SUPPORT_BEFORE_S,
    learned_fit,
)
from .hidden import without_noop_misses
from .local_findings import DRIFT_WEAK_CONFIDENCE
from .reading import GIVEN_NEAR_S, analyze_at
from .records import CHANCE_WORDS, SyncAnalysis, SyncFinding, video_order
from .signals import FrameSignals
from .ticking import ticking_waits
from .wait_lag import lag_waits
from .waits import game_waits

__all__ = ["CHANCE_WORDS", "SyncAnalysis", "SyncFinding", "analyze", "analyze_at", "combine"]


COARSE_GRID = 4  # the second scale (the first is the signals' own 8x8)


def analyze(run_s, sig: FrameSignals, th, offset_s: float | None = None,
            run_duration_s: float | None = None, input_kinds=None,
            look: Look | None = None) -> SyncAnalysis:
    """The sync analysis (`_analyze`), with the held pictures it does not explain
    (core/sync/freeze.py: found at every offset at which the video covers the run when there
    is no offset; `run_duration_s`, run_start to run_end, narrows those offsets; a finding
    of its own inside a held picture dated from the picture's first held frame), and the
    slowdown its evenly repeated frames show (core/sync/repeats.py: no offset needed), the
    speed-up its evenly dropped frames show (core/sync/drops.py), or else the speed the
    game's own animation clock shows (core/sync/pace.py: no offset either), and where a
    clock the game draws changes its schedule (core/sync/clock.py).
    `input_kinds`: beside `run_s`, the log's name for each input (a press's button), or
    None: the offset then also answers to the kind the game reacts to first (`kinds`).
    `look`: the recording read again at full resolution over a few held pictures
    (`finer_beat.video_look`), or None: a warned hold is then read at the sample points
    alone."""
    first, res = _read(run_s, sig, th, offset_s, input_kinds)
    if offset_s is None and coloured.offered(first) and res.suggested_offset_s is not None:
        return coloured.as_given(res, analyze(run_s, sig, th, res.suggested_offset_s,
                                              run_duration_s, input_kinds, look))  # R5
    widened: dict[int, SyncFinding] = {}
    explained: set[int] = set()
    # the holds several of which end at one button at one lag: the game's waits (waits.py)
    lagged = lag_waits(res, run_s, sig, th, input_kinds)
    # a held picture whose small changes beat throughout, ended by the first button after
    # NOOPs and resumed as an answer: the game's wait, no `sync.no_reaction` (ticking.py,
    # QA s37 T2; not in `res.waits`: the scan's `video.frozen` is read as before)
    ticking = ticking_waits(res, run_s, sig, th, input_kinds, run_duration_s)
    holds = [(w.start_s, w.end_s) for w in lagged + ticking]
    held = freeze.frozen_findings(res, run_s, sig, th, run_duration_s, widened,
                                  input_kinds, explained, holds)
    # a warned hold whose beacon beats between the sample points: read again at full
    # resolution (finer_beat.py, QA s39 T2), the warnings read anew with its waits
    finer = finer_waits(res, run_s, sig, th, input_kinds, run_duration_s, look,
                        [*res.findings, *held])
    if finer:
        widened.clear()
        explained.clear()
        held = freeze.frozen_findings(res, run_s, sig, th, run_duration_s, widened,
                                      input_kinds, explained,
                                      holds + [(w.start_s, w.end_s) for w in finer])
    held += repeats.repeat_drift(res, run_s, sig, th)
    if not any(f.rule == pace.RULE for f in held):
        held += drops.drop_drift(res, run_s, sig, th)
    if not any(f.rule == pace.RULE for f in held):
        held += pace.pace_drift(res, run_s, sig, th, input_kinds, None if offset_s is None else
                                lambda: _read(run_s, sig, th, None, input_kinds)[1])
    held += clock.clock_jumps(res, run_s, sig, th)
    waits = game_waits(res, run_s, sig, th, input_kinds, run_duration_s, lagged)
    if waits:
        res = replace(res, waits=waits)
    names = kinds.in_order(run_s, input_kinds)[1]  # (core/sync/hidden.py reads them)
    if names is not None:
        res = replace(res, kinds=tuple(names))
    if not held and not widened and not explained:
        return without_noop_misses(held_insert.at_held(res, sig))
    mine = [widened.get(j, f) for j, f in enumerate(res.findings) if j not in explained]
    found = sorted(mine + held, key=video_order)
    # a jump of inserted footage onto the held picture of its length ahead of it; a run of
    # NOOPs unanswered is no miss (hidden.py)
    return without_noop_misses(held_insert.at_held(replace(res, findings=found), sig))


def _read(run_s, sig: FrameSignals, th, offset_s: float | None, input_kinds
          ) -> tuple[SyncAnalysis, SyncAnalysis]:
    """(the first reading, it with its stretch, cadence, dated jumps, a rival head and the
    capture's calibration): `analyze`'s offset before its findings are read."""
    first = _analyze(run_s, sig, th, offset_s, input_kinds)
    res = splices.dated_jumps(cadence.bounded(cadence.captured(
        _first_stretch(first, sig), sig), sig), sig)
    res = rival.head_rival(res, th)  # a head at another offset: no sure start (rival.py)
    # a fast capture's offset its evidence cannot promise to a frame (calibrate.py)
    return first, calibrate.calibrated(res, run_s, sig, th)


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
    coarse_sig = sig.coarser(COARSE_GRID)
    coarse = analyze_at(run_s, coarse_sig, th, offset_s, input_kinds=input_kinds)
    res = combine(fine, coarse, 1.0 / max(sig.fps, 1e-6), coarse_sig)
    # an offset the whole picture refused (the run's head does not follow it: core/sync/
    # head.py) is not offered by a reading of a part of it
    refused = [a.refused_offset_s for a in (fine, coarse) if a.refused_offset_s is not None]
    if refused and res.suggested_offset_s is None:  # say why, rather than "no one offset"
        why = next(a.reason for a in (fine, coarse) if a.refused_offset_s is not None)
        res = replace(res, reason=why)
    whole, heads = res, fine.track + coarse.track  # (a part's head read on them: rival.py)
    if res.suggested_offset_s is None:
        res = _not_refused(_in_band(run_s, sig, th, offset_s, res), refused, th) or res
    if res.suggested_offset_s is None:
        res = _from_head(run_s, sig, th, offset_s) or res
    if res.suggested_offset_s is None:
        res = _not_refused(_calm(run_s, sig, th, offset_s, input_kinds), refused, th) or res
    if res.suggested_offset_s is None and offset_s is None:  # the sprites' changes alone
        a = _not_refused(narrow.suggested(run_s, sig, th, input_kinds), refused, th)
        res = res if a is None else _misses_frozen(a, sig, chance_too=True)
    if res.suggested_offset_s is None and offset_s is None:  # the band at the scan's grid
        res = _not_refused(finer_band.suggested(run_s, sig, th, res, _in_band, input_kinds), refused,
                           th) or res
    if res.suggested_offset_s is None and offset_s is None:  # reactions faint (faint.py)
        res = _not_refused(_faint(run_s, sig, th, input_kinds), refused, th) or res
    if res.suggested_offset_s is None and offset_s is None and input_kinds is not None:
        res = _not_refused(_buttons(run_s, sig, th, input_kinds), refused, th) or res
    if res.suggested_offset_s is None and offset_s is None:  # the per-action reader's answers
        res = _not_refused(_answered(run_s, sig, th, input_kinds), refused, th) or res
    if res.suggested_offset_s is None:
        res = _rising(run_s, sig, th, offset_s, res) or res
    if res.suggested_offset_s is None and offset_s is None:  # the colour's too (coloured.py)
        res = _not_refused(coloured.suggested(run_s, sig, th, input_kinds, COARSE_GRID),
                           refused, th) or res
    if res.suggested_offset_s is None and offset_s is not None:  # a drift the finer band reads
        res = _not_refused(finer_band.suggested(run_s, sig, th, res, _in_band, input_kinds,
                                                    offset_s),
                           refused, th) or res
    if res.suggested_offset_s is None and offset_s is not None:
        res = at_offset.band_at(run_s, sig, th, offset_s, res, _band_read) or res
        # ... and the band that answers best there read for a splice (core/sync/band_jump.py)
        res = band_jump.jumps_at(run_s, sig, th, offset_s, res, BAND_LATENCY_Q) or res
        # ... or per stretch, at the band's own delay (core/sync/band_splice.py)
        res = band_splice.jumps_at(run_s, sig, th, offset_s, res) or res
        # ... or, on a still screen, the picture's events (core/sync/event_jump.py)
        res = event_jump.jumps_at(run_s, sig, offset_s, res) or res
        # ... or at the offset the band reads near the given one (a moderator's is rarely exact)
        res = band_jump.jumps_near(run_s, sig, th, offset_s, res, BAND_LATENCY_Q) or res
    elif res.suggested_offset_s is None:  # none given: at the offset the first half reads
        res = band_jump.jumps_from_head(run_s, sig, th, res, BAND_LATENCY_Q) or res
    return rival.part_rival(res, whole, heads, th, offset_s, GIVEN_NEAR_S)


def _not_refused(a: SyncAnalysis | None, refused: list[float], th) -> SyncAnalysis | None:
    """`a`, unless it suggests an offset within sync_jump_s of one the whole picture refused
    (`refused`: its head does not follow it, core/sync/head.py). Why: a part of the picture
    reads the same footage, and its own head test may pass on fewer tiles. Star Gunner with 4
    s inserted at 15.7 s (session 25): refused at 6.600 s by the whole picture (its first 8
    presses at LLR 6.3, their fit 1.5 spreads there), offered again by the player's band
    (LLR 4.8, fit 2.4 on the band's tiles) at 6.560 s, confidence 0.588 (truth 2.6 s)."""
    if a is None or a.suggested_offset_s is None or not refused:
        return a
    if any(abs(float(a.suggested_offset_s) - r) < th.sync_jump_s for r in refused):
        return None
    return a


def _faint(run_s, sig: FrameSignals, th, input_kinds) -> SyncAnalysis | None:
    """The analysis with the offset's support read at a lower bar (core/sync/faint.py),
    when no reading before suggested an offset: the fine scale suggests, the coarse one
    completes it or suggests where the fine one does not (`combine`); None when neither
    does. Last, and with no offset given only: every run that had a suggestion keeps it,
    bit for bit, and a moderator's offset is read as before. Why: a small player among
    motion read at a low frame rate (QA s29's Turmoil at 16 fps) passes the fit's tests
    over the offsets and the shuffled logs with too few reactions clearing the usual bar."""
    g = sig.grid
    e = kinds.in_order(run_s, input_kinds)[0]  # (as the readings order them)
    scales = [sig] + ([sig.coarser(COARSE_GRID)] if g > COARSE_GRID and not g % COARSE_GRID
                      else [])
    if not any(faint.stood(s, e) for s in scales):
        return None  # no stretch stood its shuffled logs: nothing a faint reading can choose
    fine = analyze_at(run_s, sig, th, None, input_kinds=input_kinds, wanted=True,
                      faint=True)
    if g <= COARSE_GRID or g % COARSE_GRID:
        coarse = fine
    else:
        coarse = analyze_at(run_s, sig.coarser(COARSE_GRID), th, None,
                            input_kinds=input_kinds, wanted=True, faint=True)
    res = combine(fine, coarse, 1.0 / max(sig.fps, 1e-6))
    return None if res.suggested_offset_s is None else res


def _buttons(run_s, sig: FrameSignals, th, input_kinds) -> SyncAnalysis | None:
    """The analysis whose stretch stands its shuffled logs on the presses of the buttons the
    picture answers (core/sync/buttons.py), when no reading before suggested an offset and
    none was given (every run that had a suggestion keeps it, bit for bit): as `_faint`, the
    fine scale and the coarse one combined; None when neither suggests."""
    g = sig.grid
    fine = analyze_at(run_s, sig, th, None, input_kinds=input_kinds, wanted=True,
                      buttons=True)
    coarse = fine if g <= COARSE_GRID or g % COARSE_GRID else \
        analyze_at(run_s, sig.coarser(COARSE_GRID), th, None, input_kinds=input_kinds,
                   wanted=True, buttons=True)
    res = combine(fine, coarse, 1.0 / max(sig.fps, 1e-6))
    return None if res.suggested_offset_s is None else res


def _answered(run_s, sig: FrameSignals, th, input_kinds) -> SyncAnalysis | None:
    """The analysis read at the offset the per-action reader's answers single out
    (core/sync/answer_fit.py), its confidence bounded under the one-click bar, when no
    reading before suggested an offset and none was given (every run that had a suggestion
    keeps it, bit for bit); its stretches of misses, at chance or not, kept only where the
    whole picture freezes (`_misses_frozen`: evidence this weak says no missing reaction).
    None when the answers do not beat the shuffled logs."""
    got = answer_fit.fitted(run_s, sig, th)
    if got is None:
        return None
    offset, support, z = got
    a = analyze_at(run_s, sig, th, offset, input_kinds=input_kinds, fixed=True)
    a = replace(a, suggested_offset_s=round(offset, 4), offset_used_s=round(offset, 4),
                confidence=answer_fit.confidence(z, support), supporting_actions=support,
                reason="", confidence_note=answer_fit.NOTE)
    return _misses_frozen(a, sig, chance_too=True)


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
    the scan's noise floor), and a gap's seconds do not hang on a frame, nor does a jump's
    size; a jump joins where its splice frame stands alone in the picture (`splices.alone`:
    the rises' answers are weak, a splice shows). tennis-cut@vfr: only the rises read its cut,
    -4.00 s at 18.783 s, its frame (session 45)."""
    g, q = sig.grid, BAND_LATENCY_Q
    phase = rise.out_of_phase(sig)
    # (each reading is read for its suggestion alone: one without it is dropped, and
    # `combine` takes the other scale's whole when one has none)
    a = analyze_at(run_s, phase, th, offset_s, q, wanted=True)
    in_phase = a.suggested_offset_s is not None
    if not in_phase:
        a = analyze_at(run_s, rise.rising(sig), th, offset_s, q, wanted=True)
        if g > COARSE_GRID and not g % COARSE_GRID:
            a = combine(a, analyze_at(run_s, rise.rising(sig.coarser(COARSE_GRID)), th,
                                      offset_s, q, wanted=True), 1.0 / max(sig.fps, 1e-6))
        if a.suggested_offset_s is None and g > 1:
            a = analyze_at(run_s, rise.rising(sig.coarser(1)), th, offset_s, q, wanted=True)
    if a.suggested_offset_s is None:
        return None
    played = [replace(f, message=f"{f.message} (at the offset the screen's motion rises "
                      f"single out, {a.suggested_offset_s:.3f} s, not suggested: a rise "
                      "follows a press's first change by 0 to 4 frames)")
              for f in a.findings if (f.rule == "sync.activity_without_actions" or (
                  f.rule == "sync.offset_jump" and splices.alone(sig, f.video_start_s or -1.0)))
              and not any(near(f, g) for g in silent.findings)]
    played += rise.drift_of(a, silent)
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
    # like with like: `measure` answers within 0.5 s, the per-action reader within 0.15 s;
    # both say "answered within 0.5 s" as `not missed` (review s36 V2)
    if sum(not r.missed for r in rs) <= sum(not r.missed for r in res.reactions):
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
        return analyze_at(run_s, s, th, offset_s, input_kinds=input_kinds, calm=True,
                          wanted=True)  # (the coarse one completes a fine suggestion only)

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
        head = analyze_at(e[:k], s, th, wanted=True)
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
             silent: SyncAnalysis, drift: bool = True,
             picked: list | None = None, search: bool = False,
             wanted: bool = False) -> SyncAnalysis | None:
    """The analysis on the player's band alone (core/sync/band.py), when one band singles
    out an offset far better than the shuffled logs' best bands (sync_min_null_z); None
    otherwise. A band that stands out less (from sync_band_min_null_z) suggests no offset
    (Space Invaders through a dropping 25 fps recorder: 4.7, its band's offset 1.09 frames
    off), but the log gaps it shows being played are said, on `silent` (the whole picture's
    analysis): a gap's seconds do not hang on a frame (Pong's human stretch: 4.2, its band's
    offset +0.12 frame). `drift`: a band at the whole picture's drift is tried when none
    stands at speed 1 (`_drift_speed`). `picked`: the band chosen at speed 1 on these
    signals by an earlier call (its one item), or empty: it is chosen and kept there (the
    finer bands are read at speed 1, then at the drift: 19 shuffled logs' bands once).
    `search`: when no band stands at the whole picture's drift either, the band and the
    speed searched together (`band.select_over_speeds`, the shuffled logs searched alike),
    its reading kept only at DRIFT_WEAK_CONFIDENCE or more whatever share of the presses it
    answers (the best of the bands at every speed is a wider search than one band's: Star
    Gunner's second genuine run at 30 fps, its half-shifted band 5.18 spreads over the
    shuffled logs' best at +6.25 %, read a false +6.88 % on 12 of 24 at 0.21, 10.6 frames
    off; the speed runs it reads stand at 0.37-0.78).
    `wanted`: the caller reads a suggestion only (`finer_band.suggested`): a band under
    sync_min_null_z, which suggests nothing whatever its reading, is not read. Why: River
    Raid's second genuine run's 16x16 band stands 4.36 spreads, was read (13 % of its
    analysis) and its gaps played said on `silent`, which `finer_band.suggested` drops."""
    e = np.asarray(sorted(float(x) for x in run_s if math.isfinite(x)), float)
    if len(e) < th.sync_min_actions or len(sig) < 2:
        return None
    nov = reactions.novelty(sig)
    if picked:
        tiles, margin = picked[0]
    else:
        tiles, margin = band.select(sig, nov, e, th.sync_band_min_null_z, sig.grid)
        if picked is not None:
            picked.append((tiles, margin))
    drifted = searched = False
    if tiles is None and drift:  # ... or at the whole picture's drift (`_drift_speed`)
        speed = _drift_speed(sig, nov, e, th)
        if speed is not None:
            tiles, margin = band.select(sig, nov, e / speed, th.sync_band_min_null_z,
                                        sig.grid)
            drifted = True
        if tiles is None and search:
            tiles, margin, _speed = band.select_over_speeds(
                sig, nov, e, _drifts(th), th.sync_band_min_null_z, sig.grid)
            searched = drifted = True
    if tiles is None or (wanted and margin < th.sync_min_null_z):
        return None
    a = analyze_at(e, band.band_signals(sig, tiles), th, offset_s, BAND_LATENCY_Q,
                   wanted=True)
    if a.suggested_offset_s is None or (drifted and a.speed == 1.0):
        return None
    if searched and a.confidence < DRIFT_WEAK_CONFIDENCE:
        return None  # (a band searched over the speeds too: a weak line at any support)
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


def _drift_speed(sig: FrameSignals, nov: reactions.Novelty, e: np.ndarray, th) -> float | None:
    """The speed the whole picture's fit over every speed (`align.fit`, as `analyze_at`'s
    drift search) finds for these actions, when it is a drift (sync_drift_pct or more, inside
    the searched grid); None otherwise. A candidate only: the band is chosen at it by its own
    shuffled logs (`band.select`, the actions' times divided by it), and its reading must
    find the drift again with its own test (`analyze_at`: the piecewise support and the
    shuffled logs searched over every speed, `fit.drift_significant`).

    Why: the band is chosen at speed 1, and a sped-up video's actions slide off it (4 % over
    40 s: 1.6 s). Mario Bros 4 % fast through a 25 fps MJPEG recorder (QA s26, held out): the
    whole picture's fit over every speed reads 1.04 and 2.632 s (truth 2.596 s) but is
    refused there (its piecewise support 2.0 against 3.0 at speed 1), its band at speed 1
    stands -0.67 spreads over the shuffled logs' best, at 1.04 10.1 (8x8), whose reading
    finds +3.96 % and 2.6033 s (0.18 frame) at 0.894: no drift and no offset before."""
    look = lookup.Lookup(sig, lookup.lookahead(sig, nov))
    f = align.every_speed_fit(sig, nov, e, look)
    if f is None or abs(f.speed - 1) * 100 < th.sync_drift_pct or \
            not align.SPEEDS[0] < f.speed < align.SPEEDS[-1]:
        return None
    return float(f.speed)


def _drifts(th) -> np.ndarray:
    """The drift search's speeds (`align.SPEEDS`) that are a drift (sync_drift_pct or more)."""
    return align.SPEEDS[np.abs(align.SPEEDS - 1) * 100 >= th.sync_drift_pct - 1e-9]


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
