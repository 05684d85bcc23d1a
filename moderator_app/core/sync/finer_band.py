"""The player's band read on the scan's finer tiles (16x16, the half-shifted 8x8 grid) and
without busy tiles, when no reading of the whole picture suggests an offset (`suggested`).

Why apart from `analysis` (session 38, fitread: moved, no behaviour change): these readings
are one stage of the analysis' cascade with its own grids and bounds (`CALM_READS`,
`ONE_KIND_BOUND`), and `analysis` was over the modules' ~600 lines.
"""

from __future__ import annotations

from dataclasses import replace

from . import band, kinds
from .fit import SUPPORT_AFTER_S, SUPPORT_BEFORE_S
from .local_findings import weak_line
from .records import SyncAnalysis
from .signals import FrameSignals


def suggested(run_s, sig: FrameSignals, th, silent: SyncAnalysis, in_band,
              input_kinds=None, offset_s: float | None = None) -> SyncAnalysis | None:
    """`in_band` (`analysis._in_band`, passed in: it reads the picture's own analysis) on the scan's finer tiles (`FrameSignals.finer`: 16x16), when it suggests
    an offset in one stretch at speed 1 and its band stands `sync_min_null_z` over the
    shuffled logs' best; None otherwise (nothing is said of a weaker band: the 8x8 band has
    said it). Only with no offset given and nothing else suggested: every other run keeps
    its analysis bit for bit. When no band stands at speed 1, on either grid: the band at the
    whole picture's drift (`_in_band`'s `drift`, `_drift_speed`), kept only when its reading
    finds a drift with its own test; that is also tried at a moderator's `offset_s` (nothing
    else is, there: the speed-1 bands at a given offset are `at_offset`'s).

    Why: a sprite smaller than an 8x8 tile, on a lane beside traffic, shares its tile with
    the traffic. Frogger's frog waits on the bottom pavement, and the lowest lane's cars
    cross the same 8x8 row every other frame: the frog's hop is no onset there (its tile is
    never still for `QUIET_S`), and every scale, band and narrowing read "not enough
    signal" (session 25: 27 of 29 runs). At 16x16 the pavement is a row of its own: its
    tiles have an onset after 65-76 % of the shown presses against 4-5 % of any window, the
    band stands 8.5-11.6 spreads over the shuffled logs' best (issue 13, session 26).
    Then, the same, on the signals' grid moved down by half a tile (`FrameSignals.
    half_shifted`: two 16x16 rows in one). Why: Space Invaders' cannon moves along the
    boundary of two 8x8 rows (and of two 16x16 rows: its shots answer FIRE in one, its moves
    in the next); every reading, the 16x16 band too (2.6-3.6 spreads), said "not enough
    signal" on the corpus' genuine runs, while the half-shifted row that holds it stands
    12.3 and 16.4 spreads over the shuffled logs' best (space_invaders-genuine, -genuine3;
    issue 13, session 27).
    Why no jump: as `narrow.suggested` (a part of the picture lined up by chance with a few
    actions is no splice).
    Why the drift (session 28): Kangaroo's and Space Invaders' genuine runs get their offset
    from these bands, and their sped-up or slowed runs' actions slide off a band chosen at
    speed 1 (4 % over 40 s: 1.6 s): kangaroo-speed, -speed2, -speed6, -slow,
    space_invaders-speed6 and frostbite-speed6 read no drift at all; at the whole picture's
    drift their band stands and its reading finds +4.01, +1.99, +6.02, -2.90, +6.02 and
    +5.99 % (truth 4, 2, 6, -2.91, 6, 6), offsets 0.2-0.9 frame off at 0.42-0.49.
    Why the band searched with the speed on the drift pass (`_in_band`'s `search`, session
    29): where the whole picture proposes a chance speed (Kangaroo +3.7 % at 48 fps: -2 %),
    no band stands at it; searched with the speed, Kangaroo's band stands 5.3 spreads.
    Last (session 29), the bands without their busy tiles (`CALM_READS`), at speed 1 and
    at the drift."""
    reads = [(True, _finer), (True, FrameSignals.half_shifted)]
    if offset_s is None:
        reads = [(False, _finer), (False, FrameSignals.half_shifted)] + reads
    calm = [(False, r) for r in CALM_READS] if offset_s is None else []
    reads += calm + [(True, r) for r in CALM_READS]
    picked: dict = {r: [] for _, r in reads}  # (each grid's speed-1 band)
    # each grid's signals made once, and its band's reading when a band was picked at speed
    # 1: the drift pass reads that same band (`_in_band`'s `drift` is for no band), the same
    # answer (River Raid's second genuine run: the 16x16 band read twice, 9 % of its analysis)
    made: dict = {}
    read_once: dict = {}
    for drift, read in reads:
        if read not in made:  # (the calm 16x16 from the 16x16's: its onsets found once)
            made[read] = band.calm_signals(made[_finer]) \
                if read is _calm_finer and made.get(_finer) is not None else read(sig)
        other = made[read]
        if other is None:
            continue
        # (`_in_band` suggests only from a band standing sync_min_null_z and answering
        # first; a weaker one's gaps played, said on `silent` there, are not taken)
        if read in read_once:
            a = read_once[read]
        else:
            a = in_band(run_s, other, th, offset_s, silent, drift=drift, picked=picked[read],
                        search=drift, wanted=True)
            if picked[read] and picked[read][0][0] is not None:
                read_once[read] = a
        if a is None or a.suggested_offset_s is None or (a.speed != 1.0) != drift or \
                any(f.rule == "sync.offset_jump" for f in a.findings):
            continue
        if drift and weak_line(a):
            continue  # a weak line through a minority of the presses is no clock (QA s28 T3)
        if read in CALM_READS and any(f.rule == "sync.no_reaction" for f in a.findings):
            continue  # a part of the run the calm band does not answer (`CALM_READS`)
        one = _one_kind(a, run_s, input_kinds, th)
        if one is not None and a.confidence > ONE_KIND_BOUND:
            a = replace(a, confidence=ONE_KIND_BOUND, confidence_note=(
                f"the band's reactions all follow one kind of press ({one}), none of the "
                "log's other presses: it may show a later consequence of that button, not "
                "the press"))
        return a
    return None


def _calm_finer(sig: FrameSignals) -> FrameSignals | None:
    """The scan's finer tiles (`_finer`) without their busy tiles (`band.calm_signals`)."""
    fine = _finer(sig)
    return None if fine is None else band.calm_signals(fine)


# The bands without their busy tiles (`band.calm_signals`), 8x8 then 16x16, read last by
# `suggested` (a run any reading before answers keeps it). One with a stretch of
# presses its band does not answer (`sync.no_reaction`, at chance or not) suggests nothing:
# Laser Gates with 4 s cut 12 s into its run (QA s28, 45 fps): the ship's column after the
# cut stands 11.6 spreads over the shuffled logs' best, its first 12 s at chance there: the
# offset after the cut, 180 frames off the run's start, was shown at 0.4.
CALM_READS = (band.calm_signals, _calm_finer)


def _finer(sig: FrameSignals) -> FrameSignals | None:
    """The scan's finer tiles (`FrameSignals.finer`) when finer than `sig`'s grid."""
    fine = sig.finer()
    return fine if fine is not None and fine.grid > sig.grid else None


# A finer band's suggestion (`suggested`) whose reactions all follow presses of one
# kind, while the log holds sync_min_actions or more presses of other kinds and the band
# answers none of them, is bounded to this (under records.APPLY_MIN_CONFIDENCE: shown, not
# applied in one click). Frostbite's third genuine run (60 fps): row 3 of the 16x16 tiles
# answers 7 DOWN presses 0.49 s after each first shows (the jumper's landing, not its
# jump; `band.answered_earlier` looks 0.2 s back), none of its 12 UP, LEFT and RIGHT
# presses: 2.158 s offered at 0.685 for a truth of 1.667 s (29 frames late). The band runs
# it suggests for rightly (Frogger's eight, Space Invaders letterboxed) answer 3 or 4 kinds.
ONE_KIND_BOUND = 0.4


def _one_kind(a: SyncAnalysis, run_s, input_kinds, th) -> str | None:
    """The one kind of press every supporting reaction of `a` follows, when the log holds
    sync_min_actions or more presses of other kinds (none of them answered); else None."""
    times, names = kinds.in_order(run_s, input_kinds)
    if names is None or len(names) != len(a.reactions):
        return None
    shown = {names[i] for i, r in enumerate(a.reactions)
             if r.video_s is not None and r.delay_s is not None
             and -SUPPORT_BEFORE_S - 1e-6 <= r.delay_s <= SUPPORT_AFTER_S}
    if len(shown) != 1:
        return None
    (one,) = shown
    return one if sum(k != one for k in names) >= th.sync_min_actions else None
