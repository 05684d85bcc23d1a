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
Measured (session 31, DECISIONS): on corpus v2 (449 runs) and QA s26-s30 (103) the rule is
met by this one run; the nearest genuine run (s26 human_cannonball, a window +1.84 s in
order) already stood at 0.193.
"""

from __future__ import annotations

from dataclasses import replace

from .fit import SUPPORT_AFTER_S, SUPPORT_BEFORE_S
from .head import HEAD_BOUND
from .records import SyncAnalysis
from .track import WINDOW_S


def head_rival(res: SyncAnalysis, th) -> SyncAnalysis:
    """`res` with its confidence at most HEAD_BOUND when a track window of the run's unheld
    head reads another offset in the log's order (see the module's docstring); else `res`."""
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
    for p in res.track:
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
