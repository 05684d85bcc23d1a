"""The offset read again with the picture's colour, when the gray picture singles out none.

Every reading of the sync (core/sync/analysis.py) counts the luma's moved sample points per
tile. A game may answer a press in colour alone, at one brightness: QA s41 T1's synth_tint
turns a HUD box green (84,133,25) to purple (128,78,186), luma 106 -> 105, on every FIRE,
and 60 % of its answers are such; in its scroll stage every frame moves 2,700 luma points
and the answers are lost among them. The gray reader measured 5 supporting answers on
genuine@r37svq1mov (22 actions, 20 shown) and said "not enough signal". The scan already
keeps the colour's moved points per tile (`chroma_tiles`, core/video/chroma.py: cached, no
new decode), so the same readings can be made on the luma's and the colour's moved points
together (`FrameSignals.coloured`); the FIRE answers then stand out in their HUD tile.

Its confidence is bounded under the one-click bar (`COLOUR_BOUND`): a suggestion for the
moderator to check, yet shown and printed, so issue 13's bar counts it (within a frame, or
"not enough signal"). It is read only when nothing else suggested an offset and none was
given: every run that had a suggestion keeps it bit for bit, and a moderator's offset is read
as before. Only the analysis' first reading is made on the colour (`suggested`), offered only
where it agrees with itself (`_agrees`: both tile scales and both halves of the run), and an
offset the gray picture's head refused (`refused` in analysis.py) is not offered by it. Its
reactions and findings are those of the same offset given (`as_given`): one offset, one set
of warnings, whoever set it.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from .combine import combine
from .reading import analyze_at
from .records import SyncAnalysis
from .signals import FrameSignals

NOTE = ("read on the picture's colour as well as its brightness: a colour-only answer "
        "dates run_start less surely (a codec settles colour frames late, and a game's own "
        "delay looks like a later offset)")
# The confidence such a suggestion can have: under the one-click bar (records.
# APPLY_MIN_CONFIDENCE 0.5), shown for the moderator to check. Why: a lossy codec codes colour
# coarser than brightness and settles it over frames (synth_prism@r53, RealVideo 2: the HUD's
# colour onsets 0.13 s after the truth's answer, 7 frames), and an answer in colour alone
# cannot be told from the game's own delay (synth_tint@r48: answered 2-3 game frames late,
# read 1.49 frames after the truth at 0.486). Sessions 40-41 decided a delay the picture
# cannot show is not guessed (DECISIONS, session 40 delay).
COLOUR_BOUND = 0.45
# The parts of the colour's reading (the 8x8 and 4x4 readings, each half of the run) agree
# with its offset within this many frames: issue 13's bar, within a frame or no suggestion.
AGREE_FRAMES = 1.0


def suggested(run_s, sig: FrameSignals, th, input_kinds, coarse_grid: int) -> SyncAnalysis | None:
    """The first reading of the analysis (`analyze_at` at the signals' grid and at
    `coarse_grid`, `combine`d) on `sig`'s coloured signals, when it suggests one offset for
    the whole run and its parts agree with it (`_agrees`); None otherwise, or when `sig`
    carries no colour the luma missed. Only the first reading, the one whose stretch must
    stand the shuffled logs at both scales: the later ones (the player's band, the head,
    calmed tiles, the sprites alone, faint support, the answers' fit) were each shaped on
    the gray picture's noise, and read on the colour they suggested a wrong offset on the
    wide set (amidar-genuine2@letterbox by the band: 1.18 frames off at 0.642;
    synth_prism-genuine@r53 by the sprites: 4.2 frames at 0.483). Its confidence is at
    most COLOUR_BOUND."""
    col = sig.coloured()
    if col is None or col.grid <= coarse_grid or col.grid % coarse_grid:
        return None  # (one scale alone has no second reading to agree with)
    coarse = col.coarser(coarse_grid)
    frame = 1.0 / max(col.fps, 1e-6)
    fine = analyze_at(run_s, col, th, None, input_kinds=input_kinds)
    thick = analyze_at(run_s, coarse, th, None, input_kinds=input_kinds)
    a = combine(fine, thick, frame)
    x = a.suggested_offset_s
    if x is None or not _agrees(float(x), a, fine, thick, run_s, col, coarse, th):
        return None
    note = NOTE if not a.confidence_note else f"{a.confidence_note}; {NOTE}"
    return replace(a, confidence=min(a.confidence, COLOUR_BOUND), confidence_note=note)


def _agrees(x: float, a: SyncAnalysis, fine: SyncAnalysis, thick: SyncAnalysis, run_s,
            col: FrameSignals, coarse: FrameSignals, th) -> bool:
    """Whether the colour's reading `a` (its offset `x`) agrees with itself: one stretch (no offset jump), and
    the 8x8 and 4x4 readings (`fine`, `thick`) and each half of the run's actions read alone
    (both scales, `combine`d) each suggest an offset within AGREE_FRAMES of `a`'s.
    Why: with nothing else to check it, the colour offered three wrong offsets of six in
    session 42 (reverted in 698fa07): riverraid-genuine2 (1.49 frames late at 0.348, the
    clean-clone CI's failure), synth_tint-genuine@r48 (1.49 frames late) and cut06@r48 (-3.119
    s, the stretch after a 4 s cut: a cut run's halves disagree by the cut)."""
    frame = 1.0 / max(col.fps, 1e-6)
    if len(a.segments) > 1 or any(f.rule == "sync.offset_jump" for f in a.findings):
        return False

    def near(r: SyncAnalysis) -> bool:
        return r.suggested_offset_s is not None and \
            abs(float(r.suggested_offset_s) - x) <= AGREE_FRAMES * frame

    if not (near(fine) and near(thick)):
        return False
    e = np.asarray(sorted(float(t) for t in run_s if math.isfinite(t)), float)
    k = len(e) // 2
    return all(near(combine(analyze_at(h, col, th, wanted=True),
                            analyze_at(h, coarse, th, wanted=True), frame))
               for h in (e[:k], e[k:]))


def offered(a: SyncAnalysis) -> bool:
    """Whether `a`'s suggestion is the colour's (`suggested`)."""
    return a.suggested_offset_s is not None and NOTE in a.confidence_note


def as_given(a: SyncAnalysis, given: SyncAnalysis) -> SyncAnalysis:
    """`given` (the whole analysis with `a`'s offset given, as a moderator would type it)
    carrying `a`'s suggestion (as `analysis.analyze` refined it: a held picture's cadence),
    its confidence (at most COLOUR_BOUND) and the colour's note. Why: the colour's own reactions set
    other warnings than the same offset given (review s42 R5: adventure-genuine2@crf32 at
    auto gained a second `sync.no_reaction`, 37.567-40.194 s, that its offset given does not
    show): one run at one offset, one set of findings."""
    note = a.confidence_note if NOTE in a.confidence_note else \
        "; ".join(x for x in (a.confidence_note, NOTE) if x)
    return replace(given, suggested_offset_s=a.suggested_offset_s,
                   offset_used_s=a.suggested_offset_s,
                   confidence=min(a.confidence, COLOUR_BOUND),
                   supporting_actions=a.supporting_actions, reason="", confidence_note=note)
