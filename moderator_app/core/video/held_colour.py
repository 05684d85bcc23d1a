"""A held picture whose colours turn: still in gray, living in colour (issue 12, QA s40 T2).

The scan reads a picture in gray at low resolution, and its colour rows only past codec noise
(12 levels, chroma.py). A palette that turns a step at a time at a fixed brightness moves no
luma and no chroma sample that far: QA s40's synth_prism turns every colour's chroma 7.5
degrees every 6 of its frames, luma kept, and at RealVideo 2 (53 fps) the scan read 16-22 s
as one held picture, `video.frozen` 16.00-22.09 at every offset. Session 40's drift rule
(`scan_holds._drifting`) reads the mean luma, which does not move here.

The full-resolution pass (`held_finer._notes`) decodes each warned stretch again; the child
says per frame how much of the chroma moved by `child_held.HUE_LEVEL` (3) levels or more
(`hue`). At the prism's hue steps 59-76 % of its chroma samples move, every 0.09-0.11 s;
between steps 0-2.5 % (the codec refining). A frame whose colours turn (`turns`) has
`HUE_SHARE` or more of them moved, not at a keyframe nor within `AFTER_KEY` frames after one
(in a stream with inter frames: a keyframe re-quantises a held picture everywhere), and is
`SETTLE_S` or more after the stretch's first frame (the codec settling after a jump).

Where the colours turn at a `rhythm` under `LIVING_GAP_S` and never stop `freeze_s` inside
the warning, the picture is not held: the warning is a note ("still in gray but its colours
turn"), not dropped, as the drift note is (review s40 R2: a held frame recoloured by an edit
reads alike). Where they stop `freeze_s` or more, the stops stay warnings (and are read
further, `held_finer.placed`), the turning part a note. One-sided: a stretch not read, a
frame not comparable (RGB pixels, a size change), keeps the warning as it is.

A game's colour cycle is the game's: it beats on past the held stretch's edges (`beyond`),
where an edit's recolouring starts and stops with the freeze it hides (review s41 R3: wide
time_pilot-freeze@crf32 under an ffmpeg `hue` step of 5 degrees every 0.1 s over the freeze
only was a note, and no warning of any kind was left). Read `EDGE_S` before the stretch and
after it: QA s40's synth_prism turns its palette every frame or two in the scroll before its
still (75-78 turns in 1.5 s, every 0.02 s), the recoloured freezes 0 before and 0-1 after
(the jump back into the game). Where the turns beat on neither side, or the edges were not
read, the warning stays, said so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from moderator_app.core.rules import Severity

from .held_pace import AFTER_KEY, LIVING_AFTER, LIVING_GAP_S, SETTLE_S, intra_coded, rhythm
from .scan_holds import DRIFT_SAID
from .scan_spans import FROZEN, Span

# A frame's colours turn when this per mille of its chroma samples moved by HUE_LEVEL or more
# (the prism's steps 590-760, the frames between them 0-25: 8x the most of those)
HUE_SHARE = 200
# The colours of a held stretch are the game's when they turn on past one of its edges: read
# this long before its start and after its end (LIVING_AFTER turns at a rhythm under
# LIVING_GAP_S fit in it; synth_prism's scroll turns 75-78 times in it, the recoloured
# freezes of review s41 R3 0-1 times)
EDGE_S = 1.5


def turns(times: Sequence[float], keys: Sequence[int], hue: Sequence[int], start_s: float
          ) -> list[float] | None:
    """The times of the frames (after the first) whose colours turn (`HUE_SHARE`), keyframes
    and the `AFTER_KEY` frames after them apart in a stream with inter frames, `SETTLE_S` or
    more after `start_s`; None when a frame after the first was not comparable."""
    k = [bool(x) for x in keys]
    intra = intra_coded(k)
    out = []
    for i in range(1, len(times)):
        h = int(hue[i])
        if h < 0:
            return None
        if h < HUE_SHARE or times[i] - start_s < SETTLE_S:
            continue
        if not intra and any(k[max(0, i - AFTER_KEY):i + 1]):
            continue
        out.append(float(times[i]))
    return out


def coloured(s: Span, turned: Sequence[float] | None, freeze_s: float
             ) -> tuple[list[Span], list[Span]] | None:
    """The warning `s` read by the frames whose colours turn (`turns`): None where they do
    not beat inside it (`LIVING_AFTER` turns or more at a `rhythm` under `LIVING_GAP_S`) or
    were not read; else (notes, warnings): the stretches between turns (and its ends) of
    `freeze_s` or more stay warnings (`s` narrowed to them), and the time its colours turn
    through is a note when it lasts `freeze_s` (none else: a turn or two before a freeze)."""
    if turned is None:
        return None
    inside = [t for t in turned if s.start_s < t < s.end_s]
    edges = [s.start_s, *inside, s.end_s]
    gaps = [b - a for a, b in zip(edges, edges[1:], strict=False)]
    pace = rhythm([b - a for a, b in zip(inside, inside[1:], strict=False)], freeze_s)
    if len(inside) < LIVING_AFTER or pace >= LIVING_GAP_S:
        return None
    held = [(edges[k], edges[k + 1]) for k, g in enumerate(gaps) if g >= freeze_s]
    warned = [replace(s, severity=FROZEN.severity.value, start_s=a, end_s=b, message=(
        f"the picture is frozen from {a:.3f} s to {b:.3f} s ({b - a:.1f} s): the scan's still "
        f"picture {s.start_s:.3f}-{s.end_s:.3f} s is held there, where at full resolution "
        f"its colours turn every {pace:.2f} s in the rest of it and stop")) for a, b in held]
    notes = []
    cuts = [s.start_s, *(x for h in held for x in h), s.end_s]
    for a, b in zip(cuts[::2], cuts[1::2], strict=True):  # between the held stretches
        if b - a < freeze_s:
            continue
        notes.append(replace(s, severity=Severity.INFO.value, start_s=a, end_s=b, message=(
            f"the picture is still from {a:.3f} s to {b:.3f} s ({b - a:.1f} s) but its "
            f"colours turn: at full resolution most of its colour samples move every "
            f"{pace:.2f} s where the scan's sample points read no change (a palette "
            f"cycling, or a held frame recoloured): a note, step through it")))
    return notes, warned


def beyond(edges: Sequence[dict[str, list] | None], freeze_s: float) -> bool:
    """Do the colours turn on past an edge of a held stretch: in the rows of the `EDGE_S`
    before it or after it (`held_finer.spans_rows`; None: not read), `LIVING_AFTER` turns or
    more (`turns`, no settling: the footage lives there) at a `rhythm` under `LIVING_GAP_S`?
    An edit's recolouring stops with its freeze (review s41 R3)."""
    for rows in edges:
        if rows is None:
            continue
        t = turns(rows["times"], rows["key"], rows["hue"], float("-inf"))
        if t is not None and len(t) >= LIVING_AFTER and rhythm(
                [b - a for a, b in zip(t, t[1:], strict=False)], freeze_s) < LIVING_GAP_S:
            return True
    return False


def confined(s: Span, turned: Sequence[float], freeze_s: float) -> Span:
    """The held stretch `s` (a warning, or the scan's drift note) whose colours turn at
    `turned` inside it but on past neither edge (`beyond`): a held frame recoloured by an
    edit, a warning that says so (then read on as any warning)."""
    inside = [t for t in turned if s.start_s < t < s.end_s]
    pace = rhythm([b - a for a, b in zip(inside, inside[1:], strict=False)], freeze_s)
    return replace(s, severity=FROZEN.severity.value, message=(
        f"the picture is frozen from {s.start_s:.3f} s to {s.end_s:.3f} s "
        f"({s.end_s - s.start_s:.1f} s): still in gray, and at full resolution its colours "
        f"turn every {pace:.2f} s inside it but neither in the {EDGE_S:g} s before it nor "
        f"after it: a held frame recoloured (an edit's colours start and stop with it), "
        f"not a game's palette cycling on"))


def drift_note(s: Span) -> bool:
    """Is `s` the scan's drift note (`scan_holds.DRIFT_SAID`: a held stretch whose only life
    is its mean luma's drift)?"""
    return s.rule == FROZEN.id and s.severity == Severity.INFO.value and DRIFT_SAID in s.message


def faded(s: Span) -> Span:
    """The drift note `s` whose colours do not turn at full resolution, said so: a brightness
    ramp over a held picture, a game's fade or a held frame faded by an edit (review s40 R2:
    beam_rider-freeze@crf32 faded ~2 levels a second over the edit 22.7-26.7 s). It stays a
    note (the lead, session 41, review s41 R6): an honest fade to black over a still, 5 s or
    15 s long, reads the same (every colour darkens, none turns), and the issue names a fade
    to black as a game's right; a palette's turn moves its chroma (QA s39's synth_strobe
    54-80 % of the samples every 0.13 s), so the two notes are told apart in words."""
    return replace(s, message=(
        f"the picture is still from {s.start_s:.3f} s to {s.end_s:.3f} s "
        f"({s.end_s - s.start_s:.1f} s) but for a brightness drift, and at full resolution "
        f"no colour turns: a fade (a game's fade, or a held frame faded by an edit), not a "
        f"palette cycling: a note, step through it"))
