"""A scan's held picture whose colour answers the log's presses inside it (issue 12, QA s43 T2).

The scan's `video.frozen` is read on the picture alone (core/video/held_finer.py: "never by
the log", review R14): a still in gray whose only life is a mark that changes colour at one
brightness (a lamp toggled between two hues) shows two pictures by turns, exactly review V6's
mark blinking over an edited freeze, so the picture cannot call it life. QA s43's synth_loom
dips to red over a gray still (17-22 s) while FIRE toggles its 10x10 lamp between two hues of
one luma: genuine2@r31h261avi's `video.frozen` 17.613-21.484 s (and the dip's drift note read
as a recoloured still, 16.903-22.065 s) warned at every offset, though the scan's own chroma
tiles (`chroma_tiles`, cached) moved at 17.903 s (16 points, one tile) and 19.968 s (31 points,
two tiles), the frames the truth's two FIRE presses show at, and nowhere else in the span.

Only the log tells that toggle from a mark drawn over a freeze, so the reading is the sync's
(session 42's decision: the picture's rules stay log-free; the sync may use the log), beside
`run._answered`, which does the same with the gray reactions: a held picture inside which the
picture's colour alone changes in a few tiles (`marks`: at most `LOCAL_TILES` of the scan's
chroma tiles, a mark, not a grade or a dip over the whole picture), at `ANSWERED_MIN` presses
of a button or more at the run's own delay (`COLOUR_EARLY_S` before to `COLOUR_LATE_S` after
the median delay of its confident gray reactions outside the span), and at no other time in
it, answers the run: a note. A freeze repeats one picture and its colour moves nowhere; an
editor's tint, dip or grade over it moves every tile or none past the noise bar. What a forger
gains: a coloured mark drawn at the log's presses' answers over the frozen frames, and nowhere
else, reads as the game's answers; a gray one does already (`run._answered`).
"""

from __future__ import annotations

import numpy as np

from moderator_app.core.sync import stats
from moderator_app.core.sync.freeze import no_button
from moderator_app.core.sync.records import SyncAnalysis

# A frame's colour changed as a mark when its chroma moved past the noise bar in at least one
# and at most this many of the scan's chroma tiles (16x8 of them): the loom's lamp 1-2, a dip
# or grade fast enough to move chroma past the bar moves them all
LOCAL_TILES = 4
# A press is answered in colour when a mark lies this long before ...
COLOUR_EARLY_S = 0.05
# ... to this long after its expected time plus the run's own delay: a game answers a few of
# its own frames late (the loom 2-4 at 60 Hz), and a codec settles a colour frames after its
# brightness (core/sync/coloured.py: RealVideo 2, 0.13 s). genuine2@r31's two lamp toggles lie
# 0.038 and 0.093 s after the gray reactions' median delay
COLOUR_LATE_S = 0.15
# as run.py's `_answered`: at least this many presses, the run's delay from reactions this sure
ANSWERED_MIN = 2
CONFIDENT = 0.7
# the held picture's first and last frames are the changes into and out of it (run.WAIT_MATCH_S)
EDGE_S = 0.1


def marks(times: np.ndarray, hue: np.ndarray | None) -> tuple[float, ...]:
    """The video times of the frames whose colour changed in 1 to `LOCAL_TILES` of the scan's
    chroma tiles (`FrameSignals.hue`; empty without them)."""
    if hue is None or hue.ndim != 3 or hue.shape[0] != len(times):
        return ()
    moved = np.count_nonzero(hue.reshape(hue.shape[0], -1), axis=1)
    at = np.nonzero((moved >= 1) & (moved <= LOCAL_TILES))[0]
    return tuple(float(times[i]) for i in at)


def answered_in_colour(start_s: float, end_s: float, a: SyncAnalysis) -> list[float]:
    """The video times of the colour marks (`a.colour_marks`) inside the held picture
    `start_s`-`end_s` that answer a press of a button at the run's own delay at the offset
    `a` used; empty unless `ANSWERED_MIN` presses are so answered and every mark inside it
    answers one (a picture whose colour changes only when the log presses)."""
    if a.offset_used_s is None or not a.colour_marks or len(a.kinds) != len(a.reactions):
        return []
    lo, hi = start_s + EDGE_S, end_s - EDGE_S
    others = [float(r.delay_s) for r in a.reactions
              if r.video_s is not None and r.delay_s is not None
              and r.confidence >= CONFIDENT and not start_s <= r.video_s <= end_s]
    inside = [m for m in a.colour_marks if lo <= m <= hi]
    if not others or len(inside) < ANSWERED_MIN:
        return []
    usual = stats.median(np.asarray(others))
    answers: set[float] = set()
    pressed = 0
    for r, kind in zip(a.reactions, a.kinds, strict=True):
        due = float(r.expected_video_s) + usual
        if no_button(kind) or not lo <= due <= hi:
            continue
        got = [m for m in inside if due - COLOUR_EARLY_S <= m <= due + COLOUR_LATE_S]
        if got:
            pressed += 1
            answers.update(got)
    if pressed < ANSWERED_MIN or len(answers) < len(inside):
        return []
    return sorted(answers)
