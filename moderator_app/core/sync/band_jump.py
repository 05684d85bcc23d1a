"""A splice on a screen that moves on its own, read in the player's band at an offset the
analysis did not have to find (session 19, issue 13, QA s18 L2).

When no stage of the analysis suggests an offset, nothing along the run was tested for a
splice: the offset track's jumps, the stretch at chance and the insertion search all start
from a suggestion (session 18: with one, 24 of 26 splices found; without, 4 of 58). The splice
is itself what takes the suggestion away: half the presses follow another offset, and the
whole run's band test (`band.select`) falls under its shuffled logs (Frostbite's band margin
8.56 -> 0.18 for its cut, Zaxxon's 6.40 -> 3.41).

An offset that is given needs no shuffled logs to be chosen: the moderator's (`--offset`, the
Sync panel's). At it, the band (column or row of the grid) whose onsets answer the presses
best (`band.at_offset`), when they answer there clearly more often than at other offsets
(AT_MIN_Z), is analysed as a suggested offset's picture is (`analyze_at` with the
offset `given`): the track's windows, each stretch's own fit and the two-offset bar
(`local_findings._path`), the stretch at chance and the shift that explains it, the insertion
search. Only its `sync.offset_jump` findings are kept: the offset stays the moderator's, and
a band's silence is no missing reaction (a press into a wall). A band that singles out an
offset of its own, away from the given one, is no reading at the given offset: nothing.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from . import band, reactions, splices
from .reading import analyze_at
from .records import SyncAnalysis, SyncFinding, video_order
from .signals import FrameSignals

RULE = "sync.offset_jump"
# The band's count of answered presses at the given offset, in spreads over its counts at every
# offset within 60 s (`band.at_offset`), from which the offset is read at all. A given offset
# may be mistyped, or the default 0 (`verify --sync` without `--offset`): at 0, three genuine
# corpus runs (pong-genuine3, skiing-genuine@r30, space_invaders-genuine@lead5) got a false
# jump, their bands standing 2.85, 2.80 and 1.59 there; the splices found at the true offset
# stand 3.04-4.39 (frostbite-cut 3.42). At 3.0: 0 of 192 honest runs changed at 0, at the
# truth +0.3 s or -1.0 s; asteroids-cut (2.82) is no longer found.
AT_MIN_Z = 3.0


def jumps_at(run_s, sig: FrameSignals, th, offset_s: float, res: SyncAnalysis,
             latency_q: float,
             said: str | None = None, clock_s: float | None = None) -> SyncAnalysis | None:
    """`res` (an analysis that suggests no offset, measured at the moderator's `offset_s`)
    with the offset jumps the player's band shows at that offset (`analyze_at`: the
    analysis' own, `latency_q` its band percentile); None when it shows none. `said`: how
    the offset was had, in the message (default: given); `clock_s`: the offset the
    findings' run times are on (default `offset_s`; `jumps_from_head`)."""
    e = np.asarray(sorted(float(x) for x in run_s if math.isfinite(x)), float)
    n = len(e)
    if n < th.sync_min_actions or len(sig) < 2 or sig.fps <= 0 or \
            not math.isfinite(offset_s) or any(f.rule == RULE for f in res.findings):
        return None
    tiles, z = band.at_offset(sig, reactions.novelty(sig), e, offset_s, sig.grid)
    if tiles is None or z < AT_MIN_Z:
        return None  # the band answers there no better than at other offsets
    given = SyncAnalysis(round(offset_s, 4), 0.0, 0, n, 1.0, "", offset_s)
    a = analyze_at(e, band.band_signals(sig, tiles), th, offset_s, latency_q, given=given)
    if a.suggested_offset_s is None or abs(a.suggested_offset_s - offset_s) * sig.fps > 1.0:
        return None
    said = said or f" (read in the player's band at the offset given, {offset_s:.3f} s)"
    jumps = [splices.on_run_clock(splices.placed(f, sig, offset_s),
                                  offset_s if clock_s is None else clock_s)
             for f in _from_given(a, offset_s, sig.fps)]
    jumps = [replace(f, message=f.message + said) for f in jumps]
    if not jumps:
        return None
    found = sorted(list(res.findings) + jumps, key=video_order)
    return replace(res, findings=found)


# A head too short to stand out on its own is not read (analysis.HEAD_MIN_ACTIONS, the same).
HEAD_MIN_ACTIONS = 10


def jumps_from_head(run_s, sig: FrameSignals, th, res: SyncAnalysis,
                    latency_q: float) -> SyncAnalysis | None:
    """`res` (an analysis with no offset given and none suggested) with the offset jumps the
    player's band shows at the offset the run's first half reads in its own band; None when
    the first half reads none or the band shows no jump there. Nothing is suggested.

    A splice on a moving screen takes the whole run's suggestion away (its presses after the
    splice follow another offset), so at `--offset auto` no splice was looked for: Carnival's
    cut (QA s23) got "not enough signal" and no finding. The presses before the splice still
    follow the log. Their band (`band.select` on the first half, over the shuffled logs'
    best bands by `sync_band_min_null_z`) is read as the whole run's band is (`analyze_at` at
    the band's earliest reactions, its own shuffled-log bar): its offset is then within a
    frame of the truth, or there is none. Session 24 measured the first half's band alone
    (its best count's offset): it ties over 2-5 frames (Carnival's 1.606-1.766 s for 1.7 s),
    and `jumps_at` there read Carnival's cut 2 frames off in size, and Kangaroo's at a wrong
    place (9.32 s for 17.93 s). Read by its reactions, the first half suggests an offset on
    3 of the 142 corpus and QA runs that get none at auto: both Carnival cuts (0.1 frame off)
    and frostbite-cutlong (-0.4 frame); on no genuine run. The offset is used only to read
    the jump; `res` suggests none: a confident offset from half a run is not offered (the
    run's rules at that offset are not read). The findings' run times are on the clock of
    the offset `res` reports (0 when none), so that a click shows the video place named."""
    e = np.asarray(sorted(float(x) for x in run_s if math.isfinite(x)), float)
    k = len(e) // 2
    if k < HEAD_MIN_ACTIONS or len(sig) < 2 or sig.fps <= 0 or \
            any(f.rule == RULE for f in res.findings):
        return None
    tiles, _ = band.select(sig, reactions.novelty(sig), e[:k], th.sync_band_min_null_z,
                           sig.grid)
    if tiles is None:
        return None
    head = analyze_at(e[:k], band.band_signals(sig, tiles), th, None, latency_q,
                      wanted=True)
    o = head.suggested_offset_s
    if o is None or not math.isfinite(o):
        return None
    said = f" (read in the player's band at the offset its first {k} presses read there, " \
           f"{o:.3f} s; no offset suggested)"
    return jumps_at(e, sig, th, o, res, latency_q, said=said,
                    clock_s=res.offset_used_s or 0.0)


# How far from the offset given a moderator's offset may be and still be read near it
# (`jumps_near`): the offsets tried in session 24-25's sweeps lay 0.3-1.0 s off the truth.
NEAR_S = 1.0


def jumps_near(run_s, sig: FrameSignals, th, offset_s: float, res: SyncAnalysis,
               latency_q: float) -> SyncAnalysis | None:
    """`res` (an analysis that suggests no offset, at the moderator's `offset_s`) with the
    offset jumps the player's band shows at the offset the band itself reads within NEAR_S of
    the given one, more than a frame from it; None when it reads none there or shows no jump.

    `jumps_at` reads a jump only at the given offset within a frame: a moderator's offset
    0.3 s off the truth is another band's best (Carnival's cut at 2.0 s for 1.7 s), and
    nothing was found at the truth + 0.3 s, - 0.5 s or - 1.0 s on any run `jumps_at` finds at
    the truth. Here the band that stands highest at an offset within NEAR_S of the given one
    (`band.near_offset`) reads its own offset by its reactions (`analyze_at` with no offset:
    the fit singles one out, or nothing), first on the whole run (an insertion keeps every
    press: Carnival's, 1.708 s), then on its first half (a cut leaves only the presses
    before it at that offset: Carnival's, 1.704 s); that offset is read as a given one. The
    offset stays the moderator's: the findings' run times are on its clock."""
    e = np.asarray(sorted(float(x) for x in run_s if math.isfinite(x)), float)
    if len(e) < th.sync_min_actions or len(sig) < 2 or sig.fps <= 0 or \
            not math.isfinite(offset_s) or any(f.rule == RULE for f in res.findings):
        return None
    nov = reactions.novelty(sig)
    for part in (e, e[:len(e) // 2]):
        if len(part) < HEAD_MIN_ACTIONS:
            continue
        tiles, z = band.near_offset(sig, nov, part, offset_s, NEAR_S, sig.grid)
        if tiles is None or z < AT_MIN_Z:
            continue
        o = analyze_at(part, band.band_signals(sig, tiles), th, None,
                       latency_q, wanted=True).suggested_offset_s
        if o is None or not math.isfinite(o) or abs(o - offset_s) * sig.fps <= 1.0 or \
                abs(o - offset_s) > NEAR_S + 1.0 / sig.fps:
            continue  # none read, the given one (read by `jumps_at`), or not near it
        said = f" (read in the player's band at the offset it reads near the one given, " \
               f"{o:.3f} s; given {offset_s:.3f} s)"
        found = jumps_at(e, sig, th, o, res, latency_q, said=said,
                         clock_s=res.offset_used_s if res.offset_used_s is not None
                         else offset_s)
        if found is not None:
            return found
    return None


def _from_given(a: SyncAnalysis, offset_s: float, fps: float) -> list[SyncFinding]:
    """The jumps of the band's reading `a` that follow a stretch read at the given offset.

    The given offset says where run_start is in the video: a splice leaves the presses before
    it at that offset and moves those after it. A jump out of a stretch read elsewhere, back
    to the given offset or between two other offsets, is the band's chance match over some
    presses, not footage removed or inserted: s22-phoenix-genuine@r25mp4 (genuine, 24
    presses) at its true 3.3 s read its first 8 presses at 10.30 s (+7.0 s, by chance) and
    the rest at 3.3 s, and said "-7.00 s near video 21.12 s: footage removed?". Every splice
    `band_jump` reads (Frostbite's, Carnival's, Kangaroo's) leaves a first stretch read at the
    given offset, within a frame (Carnival's insertion 1.7077 s for 1.7 s, 0.3 frame)."""
    ends = [end for _, end, o in a.segments if abs(o - offset_s) * fps <= 1.0]
    if not ends:
        return []
    first = round(min(ends), 3) - 1e-6  # where the first stretch at the given offset ends
    return [f for f in a.findings if f.rule == RULE and f.run_start_s is not None
            and f.run_start_s >= first]
