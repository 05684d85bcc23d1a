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
moderator to check. It is read only when nothing else suggested an offset and none was given:
every run that had a suggestion keeps it bit for bit, and a moderator's offset is read as
before (the reactions at a given offset stay the luma's). Only the analysis' first reading is
made on the colour (`suggested`), and an offset the gray picture's head refused (`refused`
in analysis.py) is not offered by it.
"""

from __future__ import annotations

from dataclasses import replace

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


def suggested(run_s, sig: FrameSignals, th, input_kinds, coarse_grid: int) -> SyncAnalysis | None:
    """The first reading of the analysis (`analyze_at` at the signals' grid and at
    `coarse_grid`, `combine`d) on `sig`'s coloured signals, when it suggests an offset; None
    when `sig` carries no colour the luma missed, or that reading suggests none. Only the
    first reading, the one whose stretch must stand the shuffled logs at both scales: the
    later ones (the player's band, the head, calmed tiles, the sprites alone, faint
    support, the answers' fit) were each shaped on the gray picture's noise, and read on
    the colour they suggested a wrong offset on the wide set (amidar-genuine2@letterbox by
    the band: 1.18 frames off at 0.642; synth_prism-genuine@r53 by the sprites: 4.2 frames
    at 0.483, its RealVideo colour settling frames after the truth's answer). Its confidence
    is at most COLOUR_BOUND."""
    col = sig.coloured()
    if col is None:
        return None
    fine = analyze_at(run_s, col, th, None, input_kinds=input_kinds)
    g = col.grid
    if g <= coarse_grid or g % coarse_grid:
        a = fine
    else:
        a = combine(fine, analyze_at(run_s, col.coarser(coarse_grid), th, None,
                                     input_kinds=input_kinds), 1.0 / max(col.fps, 1e-6))
    if a.suggested_offset_s is None:
        return None
    note = NOTE if not a.confidence_note else f"{a.confidence_note}; {NOTE}"
    return replace(a, confidence=min(a.confidence, COLOUR_BOUND), confidence_note=note)
