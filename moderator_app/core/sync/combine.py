"""The two tile scales' analyses made one (`combine`): the fine (8x8) scale's analysis,
completed by the coarse (4x4) one's suggestion and findings where they agree on the offset.

A reaction seen at one scale is a reaction: a finding about a stretch "without reaction" at
one scale is dropped when the other scale sees its actions answered (`_unseen`,
`_answered_in`) or explains it by an offset jump into it (`_jumps_into`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from . import splices, stretch
from .records import CHANCE_WORDS, SyncAnalysis, SyncFinding, video_order
from .signals import FrameSignals


def by_chance(f: SyncFinding) -> bool:
    """A stretch whose answers were tested against chance (`with_unexplained`), not a run of
    misses: a wall in the band does not explain it."""
    return f.rule == "sync.no_reaction" and CHANCE_WORDS in f.message


def near(f: SyncFinding, g: SyncFinding, slack_s: float = 1.0) -> bool:
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
    three walks from the 8x8 onsets, not from the 4x4 ones: a false `sync.no_reaction`).
    A reaction here is the rule's (`Reaction.missed`: within REACTION_MAX_S), whatever
    window attributed it to its press."""
    a, b = f.run_start_s, f.run_end_s
    if a is None or b is None:
        return True
    return not any(not r.missed for r in other.reactions
                   if a - 1e-6 <= r.run_s <= b + 1e-6)


def _jumps_into(f: SyncFinding, other: SyncAnalysis, slack_s: float = 5.0) -> bool:
    """The other scale explains a stretch answered only by chance (`by_chance`) by an
    offset jump into it: the stretch follows another offset (Breakout's cut: the 8x8 scale
    saw a stretch at chance, the 4x4 scale the jump). A reaction the other scale sees in the
    stretch is no such explanation: chance answers are reactions too."""
    a, b = f.run_start_s, f.run_end_s
    if a is None or b is None:
        return False
    jumps = [g for g in other.findings if g.rule == "sync.offset_jump"]
    return any(g.run_end_s is not None and a - slack_s <= g.run_end_s <= b for g in jumps) \
        or (bool(jumps) and _after_jump(a, b, other))


def _after_jump(a: float, b: float, other: SyncAnalysis) -> bool:
    """The run span a..b lies inside a stretch the other scale measures at another offset
    than its first (`SyncAnalysis.segments`): the footage there answers at the offset after
    the other scale's jump, however far the jump's own actions lie from the span's start.
    QA s31's sir_lancelot-insert@r24mpeg1ts (4 s inserted at video 22.90 s): the 4x4 scale
    read the jump (segments from run 18.05 s at +3.99 s), the 8x8 scale a stretch at chance
    from run 24.21 s, past the 5 s reach of the jump's actions: a `sync.no_reaction`
    26.92-40.93 s beside the jump, one splice said as two findings (session 32)."""
    segs = other.segments
    return len(segs) > 1 and any(
        s0 - 1e-6 <= a and b <= s1 + 1e-6 and off != segs[0][2]
        for s0, s1, off in segs[1:])


def _answered_in(f: SyncFinding, other: SyncAnalysis) -> bool:
    """The other scale's answers (`SyncAnalysis.answers`) to the actions of a stretch
    answered only by chance (`by_chance`) stand above chance (`stretch.above_chance`): the
    stretch is answered there. A genuine 150 s Boxing run's last 24 actions at 4x4: 4
    answered, 2.6 by chance, the player's tiles silent around 12; at 8x8: 17 against 8.2
    (+4.1 spreads). Chance answers at one scale are no answers at the other: a log spliced
    from another run stays a finding."""
    a, b = f.run_start_s, f.run_end_s
    if a is None or b is None or len(other.answers) != len(other.reactions):
        return False
    pick = [i for i, r in enumerate(other.reactions) if a - 1e-6 <= r.run_s <= b + 1e-6]
    if not pick:
        return False
    s = np.array([other.answers[i][0] for i in pick], float)
    chance = np.array([other.answers[i][1] for i in pick])
    return stretch.above_chance(s, chance)


def _cut_unseen(f: SyncFinding, sig: FrameSignals) -> bool:
    """An offset jump of footage removed whose splice frame is not in the picture
    (`splices.unseen` at its video time on `sig`, the scale that read it)."""
    if f.rule != "sync.offset_jump" or f.video_end_s is not None or f.video_start_s is None \
            or not len(sig):
        return False
    k = int(np.searchsorted(np.asarray(sig.times, float), f.video_start_s - 1e-6))
    return splices.unseen(sig, min(k, len(sig) - 1))


def _withheld(fine: SyncAnalysis, coarse: SyncAnalysis, frame_s: float) -> bool:
    """The coarse scale suggests, within a frame, the offset the fine one singled out under
    the one-click bar and withheld for a moderator's offset far from it (`withheld_offset_s`,
    `reading.analyze_at`): the fine scale's doubt stands, as it does with no offset given
    (the fine suggestion, under the bar, is the analysis' then). QA s45 T3,
    synth_vane-cut2@r34vc2mkv (2 s cut at video 8.00 s, 34 fps VC-2): at --offset auto the
    fine scale reads -1.1285 s at 0.432; given the truth, 0.85 s, that reading was withheld and
    the coarse one's -1.1095 s at 0.805 (9 of 20 presses, all after the cut) replaced the
    moderator's offset: a confident wrong offset, and no warning."""
    w = fine.withheld_offset_s
    return w is not None and coarse.suggested_offset_s is not None and \
        abs(coarse.suggested_offset_s - w) <= frame_s + 1e-9


def combine(fine: SyncAnalysis, coarse: SyncAnalysis, frame_s: float,
            coarse_sig: FrameSignals | None = None) -> SyncAnalysis:
    """The fine scale's analysis, completed by the coarse one: its suggestion when the fine
    scale has none (unless the fine scale withheld that offset for a moderator's: `_withheld`),
    and its findings about places the fine scale is silent on when both
    suggest the same offset (within a frame). Scales that disagree: the fine one alone.
    `coarse_sig` (the whole picture's two scales, `analysis._analyze`, alone): a coarse
    jump of footage removed joins only when its splice is in the picture (`_cut_unseen`):
    the fine scale read that stretch at the offset used, so the coarse one's answers alone
    do not make a cut. chopper_command-genuine2@r18divx (the wide set, genuine, 18 fps;
    session 44): a -6.53 s jump at 19.56 s on 8 of 12 answers where 4.44 come by chance,
    its frame changing the picture less than the one before; corpus v2's breakout-cut, whose
    coarse jump stands on 7 of 16 (3.06 by chance), changes it 325 against 19 around it."""
    if coarse.suggested_offset_s is None:
        return fine
    if fine.suggested_offset_s is None:
        return fine if _withheld(fine, coarse, frame_s) else coarse
    if abs(fine.suggested_offset_s - coarse.suggested_offset_s) > frame_s:
        return fine
    kept = [f for f in fine.findings if f.rule != "sync.no_reaction"
            or (_unseen(f, coarse) if not by_chance(f) else not _jumps_into(f, coarse))]
    # a run of misses at one scale whose actions the other scale sees answered is no run of
    # misses, either way round (`_unseen`): H.E.R.O.'s genuine run at 30 fps (QA session
    # 13's genuine2) had 4 actions in a row unanswered at 4x4, one of them answered at 8x8
    # (truth: 2 of the 4 show), a false `sync.no_reaction`
    extra = [f for f in coarse.findings if not any(near(f, g) for g in fine.findings)
             and not (by_chance(f) and (_jumps_into(f, fine) or _answered_in(f, fine)))
             and (f.rule != "sync.no_reaction" or by_chance(f) or _unseen(f, fine))
             and not (coarse_sig is not None and _cut_unseen(f, coarse_sig))]
    if not extra and len(kept) == len(fine.findings):
        return fine
    found = sorted(kept + extra, key=video_order)
    return replace(fine, findings=found)
