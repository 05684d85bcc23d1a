"""Does the run's head read another offset than the one suggested? A suggestion the rest of
the run supports is a claim about run_start only when nothing in the head says otherwise.

The offset suggested is the video time of run_start, extrapolated from the actions whose
reactions support it. When the first of them comes late in the run, the head before it is
held by no evidence at that offset, and a splice anywhere in it leaves the suggestion wrong
by the splice's size with its confidence untouched: the local offsets of the run's parts
disagree, and the global one is only the later part's. QA s30's crazy_climber-insert@r54qtrle
(4 s of another play inserted at video 14.72 s, run 12.26 s; 54 fps qtrle): 6.4325 s offered
at 0.843 (the footage after the insertion; truth 2.45 s), its first supporting reaction at
run 11.14 s, while the track's window about run 9 s stands at 2.4285 s (z 5.63). The game
shows one press of the head's six (the rest are NOOPs or no move), so no jump can be placed
with two consistent sides; the suggestion's confidence falls instead.

The test (`head_rival`), on the analysis' own track (`track.windows`: a point is an offset only
where its window's fit stands sync_min_z with a margin of a spread over the next offset):
- a window centred before the first supporting reaction's action (the head, unheld);
- reading an offset more than sync_jump_s from the suggested one (a splice's size, not a lag:
  a frame or two of disagreement is the response lag's question);
- in the log's order with the suggestion: the window centre's footage at its offset comes
  before the first supporting reaction's footage (no splice reorders the log: a chance peak
  far later in the video, as most disagreeing windows of genuine runs read, is not a head).
Then the confidence is at most `head.HEAD_BOUND` (shown, not applied in one click, refused by
`verify --offset auto`), with a note. Nothing else changes: offset, reactions and findings
stay, so a genuine run keeps every finding and its offset (only its one-click apply can go).
Where: on each reading (`reading.analyze_at`, so that a bounded suggestion does not override
a moderator's offset more than GIVEN_NEAR_S away: the reading is made at the offset given),
on a reading of a part of the picture against the whole picture's windows too (`part_rival`:
the band's own windows need not hold the head's), and on the analysis' answer.
Measured (session 31, DECISIONS): on corpus v2 (449 runs) and QA s26-s30 (103) at auto the
rule moves this one run; it is met too by s26 human_cannonball-genuine (a window +1.84 s, in
order, before its first support at 9.1 s), whose suggestion stood at 0.193 already.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .fit import SUPPORT_AFTER_S, SUPPORT_BEFORE_S
from .head import HEAD_BOUND
from .records import SyncAnalysis
from .track import WINDOW_S, TrackPoint


def head_rival(res: SyncAnalysis, th, also: Sequence[TrackPoint] = ()) -> SyncAnalysis:
    """`res` with its confidence at most HEAD_BOUND when a track window of the run's unheld
    head reads another offset in the log's order (see the module's docstring); else `res`.
    `also`: more windows to read (the whole picture's, for a reading of a part of it)."""
    g = res.suggested_offset_s
    if g is None or res.confidence <= HEAD_BOUND or res.speed != 1.0 or \
            any(f.rule == "sync.offset_jump" for f in res.findings):
        return res
    support = [r.run_s for r in res.reactions if r.delay_s is not None
               and -SUPPORT_BEFORE_S - 1e-6 <= r.delay_s <= SUPPORT_AFTER_S]
    if not support:
        return res
    first = min(support)
    used = res.offset_used_s if res.offset_used_s is not None else g
    for p in list(res.track) + list(also):
        o = p.offset_s
        if o is None or abs(o - used) <= th.sync_jump_s or p.run_s >= first or \
                o + p.run_s >= used + first:
            continue
        return replace(res, confidence=HEAD_BOUND, confidence_note=(
            f"the run's first supporting reaction follows its action at {first:.2f} s; the "
            f"actions of {max(0.0, p.run_s - WINDOW_S / 2):.0f}-{p.run_s + WINDOW_S / 2:.0f} s "
            f"of the run stand at another offset, {o:.3f} s ({o - used:+.2f} s): this may be "
            "the offset after a splice, not the run's start"))
    return res


def part_rival(res: SyncAnalysis, whole: SyncAnalysis, heads: Sequence[TrackPoint], th,
               offset_s: float | None, near_s: float) -> SyncAnalysis:
    """`res`, a reading of a part of the picture (the player's band, the calmed onsets, ...)
    made where the whole picture (`whole`, its windows `heads`) suggested nothing, read
    against the whole picture's windows too (`head_rival`): its confidence bounded at
    `--offset auto`; with an offset given more than `near_s` from its suggestion, the whole
    picture's reading at the offset given instead (a suggestion under the one-click bar does
    not override a moderator's offset: `reading.analyze_at`). Why: the band's own windows
    need not hold the head's. crazy_climber-insert@r54qtrle given its truth, 2.45 s: the whole
    picture read there, the band suggested 6.4565 s at 0.854 and was used; the whole picture's
    window about run 9 s stands at 2.4285 s."""
    if res is whole or res.suggested_offset_s is None:
        return res
    bounded = head_rival(res, th, heads)
    if bounded is res:
        return res
    if offset_s is not None and abs(float(res.suggested_offset_s) - offset_s) > near_s:
        return whole
    return bounded
