"""A held picture looked at again at full resolution: a still screen that lives, or a freeze.

The scan says `video.frozen` from its signals, a 256x128 grid of sample points scaled from
each picture: a frame is "the same picture" when under 0.1 % of them changed beyond codec
noise, and a still screen is told from a held one by the spots that keep changing
(`scan_holds._living`). A game clock's digit or a cursor a few pixels wide is averaged away
by the grid: QA s34 T4's Flag Capture ticks once a second, 26-30 luma levels over 28-32
pixels, and none of it reached a sample point, so the genuine wait 29.94-33.03 s was a
warning; so were Pitfall's timer (31.0-34.0, 34.0-37.0 s) and QA s33's Superman clock.

An edited freeze repeats one decoded picture: re-encoded, its frames are identical but where
the codec refines it (the first frames after the jump into it, a keyframe re-quantising it
and the frames just after). So each held stretch the scan warns of is decoded again at full
resolution (`child_held.py`, in the isolated process; a few seconds of frames, not the whole
video, whose scan is cached by SHA-256), and the picture's changes inside it are found: a
frame where `MIN_POINTS` or more pixels moved beyond the noise bar, packed together (at least
`MIN_DENSITY` of their bounding box: a clock's digit, not a codec's scattered refinement),
not at a keyframe nor within `AFTER_KEY` frames after one (in a stream of keyframes and
others; in an all-keyframe stream, lossless or intra-coded, every frame counts), and
`SETTLE_S` or more after the hold's first frame, and, when fewer than `RETURN_POINTS`
pixels moved, showing a picture the hold had not shown there (`MIN_POINTS` or more pixels of
the change's box apart from each): review V6, a faint 24x1 line blinking at 1 Hz over the
duplicated frames of an edited freeze shows two pictures by turns and made its warning a
note; a clock's next digit, a timer counting down, is a picture not shown before, and a
digit redrawn whole (Basic Math's answer, 128-704 pixels, shown again as the player steps
through digits) is a large change. Where no stretch between two such changes
(and the hold's ends) lasts `freeze_s`, the picture was
never the same for the rule's 3 s: the warning becomes a note that says where it changed.
A change whose moved pixels mostly (`DRAWN` per mille or more) took colours the frame before
the hold did not hold (within `child_held.COLOUR_TOL` levels) is no change either: review
V6's class, a mark drawn over the duplicated frames of an edited freeze that shows something
new every < 3 s (a line that grows, a counter), is an overlay blended over the footage or
drawn in a colour the game does not show; an honest clock's digits are in the colours the
screen showed before it stood still.
A still picture that runs to the end of the footage is a note (`scan_holds`: a game-over
screen), but a picture that lives at full resolution there (a blinking cursor too small for
the sample points: QA s36 T3's Video Checkers, 18.76-43.46 s) is not held to the end: where
it lives at a `rhythm` (the gap between changes that the middle of its living time lies
in) under `LIVING_GAP_S`, each stretch of `freeze_s` or more in which it stops, with that
rhythm before it and after it, is a held picture inside the run, said as a warning of its
own (`ends`; the edited freeze's 4.1-4.5 s against the cursor's 0.27 s blink, the genuine
run's longest 0.52 s). Each on its own: a second freeze or a shorter hold elsewhere voided
the stretch until review s37 R1. A picture that changes only now and then there
(Adventure's player standing still 1-5 s between moves of a few frames: rhythm 1.7 s, where
the plain median of its gaps is 0.04 s) says nothing: the rhythm it stops is not one.
The still is read place by place too (`place_stops`, session 38): QA s37 T3's Glider docks
to the end with only a 4x4 beacon alive, on and off every 0.33 s, two pictures by turns of
16 pixels that `changes` counts as neither (shown before, under `RETURN_POINTS`); an edited
freeze 31.15-35.15 s stops it. Each change's box is a place; where one place changes at a
`rhythm` under `LIVING_GAP_S`, stops `freeze_s` or more with nothing changing over its box,
and resumes at that rhythm, with no other place living through the stop (a cursor moved),
the stop warns, whatever is drawn elsewhere on the frozen frames (its faint line).
A still whose only life is such a beacon is read by it too (session 40): in a still to the
end, a held stretch (`held_inside`) that one place beats through, on past its edges, is no
held picture (`beaten`: QA s39's human@r57, where a sprite's two moves of a few frames made
the picture's rhythm); and a warning inside the run whose beacon beats in part of it and
stops `freeze_s` or more is placed at the stop (`placed`: QA s39 T4, the still's honest
start read with the edit). Placing only moves a warning: where no stop is found it stays
whole, so a mark blinking over an edited freeze hides nothing.
One-sided: anything not read (a span not decoded within the child's CPU budget, frames the
decode does not match one for one with the scan's, a video process that fails) keeps the
warning. Never by the log: the picture alone decides (a freeze under NOOPs inside the run
stays a warning: review R14).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from moderator_app.core.rules import Severity

from .held_colour import EDGE_S, beyond, coloured, confined, drift_note, faded, turns
from .held_pace import (  # noqa: F401 - INTRA_SHARE: held_finer's name (sync/finer_beat.py)
    AFTER_KEY,
    INTRA_SHARE,
    LIVING_AFTER,
    LIVING_GAP_S,
    SETTLE_S,
    intra_coded,
    rhythm,
)
from .isolate import VideoProcess, VideoProcessError
from .scan_spans import FROZEN, Span

if TYPE_CHECKING:
    from .scan import ScanResult

# A change inside a held picture: this many pixels moved beyond the noise bar ...
MIN_POINTS = 8
# ... filling at least this share of their bounding box (a digit, a cursor, a sprite: the
# codec's refinement after a keyframe scatters its pixels, 52 over 11,562 in the corpus'
# Ms. Pac-Man freeze, 0.005) ...
MIN_DENSITY = 0.05
# A change that shows again a picture the hold showed (review V6: a line blinking over an
# edited freeze, 24 pixels) counts only when this many pixels moved: a digit redrawn whole
# (QA s29's Basic Math in FFV1, 128-704 pixels a step)
RETURN_POINTS = 100
# A change whose moved pixels (per mille) took colours the frame before the hold did not hold
# at least this often is drawn over the picture, no change of it (review V6's growing line:
# 600-1000; the 27 held pictures of QA s28-s35 and the wide set that live: their counted
# changes at most 1000, but never all of a hold's, session 36)
DRAWN = 500
# Two changes' boxes are one place (`places`) when their overlap is at least this share of
# their union (a beacon's 4x4 box on and off: 1.0; a sprite a step on: less)
SAME_PLACE = 0.5
# A mark read place by place (`marks`) is this many pixels moved beyond the noise bar: a
# 1-px or 2x2 blink (QA s37's Glider beacon is 4x4); a place must still live at a rhythm,
# stop and resume (`place_stops`). Changes under `MIN_POINTS` are rare off keyframes: 10
# frames in the 89 end-of-footage stills of QA s28-s37, the wide set and corpus v2
MARK_POINTS = 1


def changes(times: Sequence[float], keys: Sequence[int], points: Sequence[int],
            areas: Sequence[int], seen: Sequence[int] | None = None,
            foreign: Sequence[int] | None = None) -> list[float] | None:
    """The times of the frames (after the first) where the picture changed at full
    resolution: `points` pixels moved (-1: not comparable) in a bounding box of `areas`,
    `keys` whether each frame is a keyframe, `seen` the pixels apart from the nearest
    picture the hold showed before (under `MIN_POINTS`: shown again, no change unless
    `RETURN_POINTS` moved; -1: not compared), `foreign` the per mille of the moved pixels in
    colours the frame before the hold did not hold (`DRAWN` or more: drawn over it, no
    change; -1: not looked up). None when a frame could not be compared."""
    k = np.asarray(keys, bool)
    intra = intra_coded(k)
    out = []
    for i in range(1, len(times)):
        n, area = int(points[i]), int(areas[i])
        if n < 0:
            return None
        if n < MIN_POINTS or area <= 0 or n < MIN_DENSITY * area:
            continue
        if not intra and k[max(0, i - AFTER_KEY):i + 1].any():
            continue
        if seen is not None and 0 <= int(seen[i]) < MIN_POINTS and n < RETURN_POINTS:
            continue
        if foreign is not None and int(foreign[i]) >= DRAWN:
            continue
        out.append(float(times[i]))
    return out


def counted(start_s: float, changed: Sequence[float]) -> list[float]:
    """The changes that split a hold starting at `start_s`: those `SETTLE_S` or more after
    its first frame."""
    return sorted(c for c in changed if c - start_s >= SETTLE_S)


def lives(start_s: float, end_s: float, changed: Sequence[float], freeze_s: float) -> bool:
    """Is no stretch of `start_s`..`end_s` between two changes (`counted`) or an end
    `freeze_s` long?"""
    edges = [start_s, *counted(start_s, changed), end_s]
    return max(b - a for a, b in zip(edges, edges[1:], strict=False)) < freeze_s


def held_inside(start_s: float, changed: Sequence[float], freeze_s: float
                ) -> list[tuple[float, float]]:
    """The held stretches of a picture still from `start_s` to the end of the footage that
    changes at `changed` (`counted`) at full resolution: each stretch from its start or a
    change to the next change of `freeze_s` or more, when the picture's `rhythm` is under
    `LIVING_GAP_S` and `LIVING_AFTER` changes or more follow the one that ends it, the
    `rhythm` before it (unless it starts the still) and after it under `LIVING_GAP_S` too
    (a rhythm stopped and resumed: wide's blackjack-speed33 changes 1-1.5 s apart before
    its 5.2 s wait and 0.8 s after it, no rhythm stopped). Each stretch on its own: a second freeze
    or a 1-3 s hold elsewhere in the still (review s37 R1) voids none. Empty when the
    picture has no rhythm (a still that changes now and then: Adventure's player, a game's
    next screen) or nothing stops it (after the last change the footage ends: an end)."""
    c = counted(start_s, changed)
    edges = [start_s, *c]
    gaps = [b - a for a, b in zip(edges, edges[1:], strict=False)]
    if rhythm(gaps, freeze_s) >= LIVING_GAP_S:
        return []
    return [(edges[k], edges[k + 1]) for k, g in enumerate(gaps)
            if g >= freeze_s and len(c) - k - 1 >= LIVING_AFTER
            and rhythm(gaps[k + 1:], freeze_s) < LIVING_GAP_S
            and (k == 0 or rhythm(gaps[:k], freeze_s) < LIVING_GAP_S)]


def marks(times: Sequence[float], keys: Sequence[int], points: Sequence[int],
          areas: Sequence[int], boxes: Sequence[Sequence[int]]
          ) -> list[tuple[float, tuple[int, int, int, int]]]:
    """Every change of the picture (`MARK_POINTS` pixels or more, `changes`' density and
    keyframe tests; a picture shown again and a colour drawn over it count too) with the box where it changed
    (top, left, bottom, right): the places a still to the end lives at (`place_stops`)."""
    k = np.asarray(keys, bool)
    intra = intra_coded(k)
    out = []
    for i in range(1, len(times)):
        n, area = int(points[i]), int(areas[i])
        if n < MARK_POINTS or area <= 0 or n < MIN_DENSITY * area:
            continue
        if not intra and k[max(0, i - AFTER_KEY):i + 1].any():
            continue
        y0, x0, y1, x1 = (int(v) for v in boxes[i])
        out.append((float(times[i]), (y0, x0, y1, x1)))
    return out


def _overlap(a: Sequence[int], b: Sequence[int]) -> int:
    """The pixels two boxes (top, left, bottom, right) share."""
    h = min(a[2], b[2]) - max(a[0], b[0])
    w = min(a[3], b[3]) - max(a[1], b[1])
    return h * w if h > 0 and w > 0 else 0


def _same_place(a: Sequence[int], b: Sequence[int]) -> bool:
    """Do two boxes cover one place: their overlap at least `SAME_PLACE` of their union?"""
    inter = _overlap(a, b)
    if not inter:
        return False
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter >= SAME_PLACE * union


def places(marked: Sequence[tuple[float, Sequence[int]]]
           ) -> list[tuple[tuple[int, ...], list[float]]]:
    """The places the picture changes at and their times: a change joins the first place
    whose first box it covers (`_same_place`), else starts one (a beacon on and off: one
    place; a sprite moving: a place a step)."""
    out: list[tuple[tuple[int, ...], list[float]]] = []
    for t, box in marked:
        for anchor, times in out:
            if _same_place(anchor, box):
                times.append(t)
                break
        else:
            out.append((tuple(box), [t]))
    return out


def place_stops(start_s: float, marked: Sequence[tuple[float, Sequence[int]]],
                freeze_s: float) -> list[tuple[float, float, tuple[int, ...], float]]:
    """The held stretches of a still to the end read place by place (`places`, the changes
    `SETTLE_S` or more after `start_s`): where one place changes at a `rhythm` under
    `LIVING_GAP_S`, at least `LIVING_AFTER` times before and after a stop of `freeze_s` or
    more and at that rhythm on both sides, nothing changes over any of its box meanwhile
    (QA s29's Basic Math: an answer digit cycles every 0.5 s, stops while the sum above it
    is redrawn over it, and cycles again), and no other place lives through the stop (at
    that rhythm, `LIVING_AFTER` times or more inside it: a cursor moved and blinking
    elsewhere), the stop is a held picture: (start, end, the place's box, its rhythm). A
    beacon of 2x2-4x4 pixels on and off by turns (QA s37 T3's Glider, every 0.33 s) shows
    two pictures again and again (`changes` counts neither) and a mark drawn elsewhere
    during the freeze (a faint line over black) changes other places, not the beacon's."""
    settled = [(t, b) for t, b in marked if t - start_s >= SETTLE_S]
    where = places(settled)
    out: list[tuple[float, float, tuple[int, ...], float]] = []
    for box, c in where:
        gaps = [b - a for a, b in zip(c, c[1:], strict=False)]
        pace = rhythm(gaps, freeze_s)
        if pace >= LIVING_GAP_S:
            continue
        for k, g in enumerate(gaps):
            if g < freeze_s or k + 1 < LIVING_AFTER or len(c) - k - 2 < LIVING_AFTER:
                continue
            if rhythm(gaps[:k], freeze_s) >= LIVING_GAP_S \
                    or rhythm(gaps[k + 1:], freeze_s) >= LIVING_GAP_S:
                continue
            a, b = c[k], c[k + 1]
            if any(a < t < b and _overlap(box, bx) for t, bx in settled):
                continue  # something changed there meanwhile: the place did not stop
            if any(_lives_in(o, a, b, freeze_s) for ob, o in where if ob != box):
                continue
            out.append((a, b, box, pace))
    return sorted(out)


def _beats(times: Sequence[float], freeze_s: float) -> bool:
    """Do `times` beat: `LIVING_AFTER` changes or more at a `rhythm` under `LIVING_GAP_S`?"""
    gaps = [y - x for x, y in zip(times, times[1:], strict=False)]
    return len(times) >= LIVING_AFTER and rhythm(gaps, freeze_s) < LIVING_GAP_S


def beaten(start_s: float, a: float, b: float,
           where: Sequence[tuple[Sequence[int], Sequence[float]]], freeze_s: float) -> bool:
    """Does one place of a still to the end from `start_s` (`places`) beat through `a`-`b`:
    at its rhythm inside it, never stopping `freeze_s` there, and beating on after `b` and
    before `a` (unless `a` starts the still)? Then `a`-`b` is no held picture, however the
    picture's larger changes fall around it: QA s39's synth_strobe human@r57 docks with a
    2x2 beacon on and off every 0.33 s from 25.67 s to the end, and a sprite's two moves
    of a few frames (30.9 s, 38.2 s) made a `rhythm` of 0.018 s of the frames of each move,
    so `held_inside` read 25.49-30.90 and 30.98-38.21 as held. A beat that runs on past the
    stretch's edges is the picture's own, not a mark drawn over one freeze."""
    for _, c in where:
        inside = [t for t in c if a < t < b]
        edges = [a, *inside, b]
        if not _beats(inside, freeze_s) \
                or max(y - x for x, y in zip(edges, edges[1:], strict=False)) >= freeze_s:
            continue
        if _beats([t for t in c if t >= b], freeze_s) and (
                a <= start_s + 1e-6 or _beats([t for t in c if t <= a], freeze_s)):
            return True
    return False


def placed(start_s: float, end_s: float, changed: Sequence[float],
           marked: Sequence[tuple[float, Sequence[int]]], freeze_s: float
           ) -> list[tuple[float, float, tuple[int, ...], float]]:
    """A held stretch `start_s`-`end_s` (a warning the picture does not live through,
    `lives`) read place by place: where one place (`places`, the marks `SETTLE_S` or more
    after `start_s`) beats at a `rhythm` under `LIVING_GAP_S` inside it and stops `freeze_s`
    or more, from its last beat to the stretch's end, from the stretch's start to its first,
    or between two, with its beat on each side of the stop that lies inside the stretch,
    nothing changing over its box nor a counted change (`changed`) there and no other place
    living through the stop, the stop is where the picture is held: (start, end, the place's
    box, its rhythm). QA s39 T4: the edit 31.60-35.60 s of synth_strobe freezeend@r41 stops
    its 2x2 beacon (every 0.33 s), and the scan's held stretch ran from the still's honest
    start, 26.49-35.61 s. The stops only place the warning: a stretch with none stays one
    warning whole (a mark blinking over a freeze keeps it: review V6)."""
    settled = [(t, bx) for t, bx in marked if t - start_s >= SETTLE_S]
    where = places(settled)
    out: list[tuple[float, float, tuple[int, ...], float]] = []
    for box, c in where:
        gaps = [y - x for x, y in zip(c, c[1:], strict=False)]
        pace = rhythm(gaps, freeze_s)
        if len(c) < LIVING_AFTER or pace >= LIVING_GAP_S:
            continue
        edges = [start_s, *c, end_s]
        for k in range(len(edges) - 1):
            a, b = edges[k], edges[k + 1]
            if b - a < freeze_s or (k >= 1 and not _beats(c[:k], freeze_s)) \
                    or (k < len(c) and not _beats(c[k:], freeze_s)):
                continue
            if any(a < t < b and _overlap(box, bx) for t, bx in settled) \
                    or any(a < t < b for t in changed) \
                    or any(_lives_in(o, a, b, freeze_s) for ob, o in where if ob != box):
                continue
            if not any(x < b and a < y for x, y, _, _ in out):
                out.append((a, b, box, pace))
    return sorted(out)


def _lives_in(times: Sequence[float], a: float, b: float, freeze_s: float) -> bool:
    """Does a place changing at `times` live through `a`-`b` (`LIVING_AFTER` changes or more
    inside it, at a `rhythm` under `LIVING_GAP_S`)?"""
    inside = [t for t in times if a < t < b]
    gaps = [y - x for x, y in zip(inside, inside[1:], strict=False)]
    return len(inside) >= LIVING_AFTER and rhythm(gaps, freeze_s) < LIVING_GAP_S


def finer(scan: ScanResult, path: Path | str, slip: int, timeout_s: float = 120.0
          ) -> ScanResult:
    """`scan` with each `video.frozen` warning whose picture lives at full resolution
    (`changes`, `lives`) said as a note, and the held stretch of a picture still to the end
    of the footage that lives (`ends`) a warning; `scan` itself when there is none or nothing
    could be read. `slip`: the most places sorting may move a frame's pts for the decoder's
    order to be kept (`scan.NEIGHBOUR_SLIP`, passed in: this module is below scan.py)."""
    return ends(_notes(scan, path, slip, timeout_s), path, slip, timeout_s)


def _answers(scan: ScanResult, held: list[Span], path: Path | str, timeout_s: float):
    """The frames of each span of `held` and the child's answer for each (None: no answer)."""
    t = scan.signals.times_s
    frames = [np.nonzero((t >= s.start_s - 1e-6) & (t < s.end_s - 1e-6))[0] for s in held]
    asked = [[int(scan.signals.pts[i[0]]), int(scan.signals.pts[i[-1]])]
             for i in frames if i.shape[0] >= 2]
    if len(asked) != len(held):
        return frames, None
    try:
        with VideoProcess(path, timeout_s=timeout_s) as vp:
            msg = vp.request({"op": "held", "spans": asked, "min_points": MIN_POINTS})
    except VideoProcessError:
        return frames, None
    answers = msg.header.get("spans")
    return frames, answers if isinstance(answers, list) else None


def spans_rows(scan: ScanResult, path: Path | str, slip: int,
               spans: Sequence[tuple[float, float]], timeout_s: float = 120.0
               ) -> list[dict[str, list] | None]:
    """The frames of the scan from `start` to `end` (video s) of each span decoded again at
    full resolution (`child_held`, one request for all): per span its rows in the scan's
    order (`times`, `key`, `points`, `area`, `box`, ...) or None when it was not read whole.
    The sync asks it of a still it would warn of (core/sync/finer_beat.py): a 1-px beacon
    between the sample points' rows beats there and nowhere in the scan's signals."""
    if not spans or scan.signals.frame_count == 0:
        return [None] * len(spans)
    held = [Span(FROZEN.id, FROZEN.severity.value, a, b, "") for a, b in spans]
    frames, answers = _answers(scan, held, path, timeout_s)
    if answers is None:
        return [None] * len(spans)
    out: list[dict[str, list] | None] = [
        _rows(idx, ans, scan.signals, slip) if idx.shape[0] >= 2 else None
        for idx, ans in zip(frames, answers, strict=False)]
    return out + [None] * (len(spans) - len(out))


def ends(scan: ScanResult, path: Path | str, slip: int, timeout_s: float = 120.0
         ) -> ScanResult:
    """`scan` with a warning for each held stretch (`held_inside`) of a picture still to the
    end of the footage (a `video.frozen` note, not from its first frame) that lives at full
    resolution; the note itself is kept (the footage's end)."""
    sig = scan.signals
    n = sig.frame_count
    last = [s for s in scan.spans if s.rule == FROZEN.id and s.severity == Severity.INFO.value
            and n > 0 and s.start_s > float(sig.times_s[0]) + 1e-6
            and s.end_s >= float(sig.times_s[-1]) - 1e-6]
    if not last:
        return scan
    frames, answers = _answers(scan, last, path, timeout_s)
    if answers is None:
        return scan
    found: dict[int, list[Span]] = {}
    freeze_s = scan.thresholds.freeze_s
    for s, idx, ans in zip(last, frames, answers, strict=False):
        rows = _rows(idx, ans, sig, slip)
        if rows is None:
            continue
        changed = changes(rows["times"], rows["key"], rows["points"], rows["area"],
                          rows["seen"], rows["foreign"])
        if changed is None:
            continue  # a frame not compared: nothing said
        marked = marks(rows["times"], rows["key"], rows["points"], rows["area"], rows["box"])
        where = places([(t, b) for t, b in marked if t - s.start_s >= SETTLE_S])
        # a stretch a beacon beats through is no held picture (QA s39's human@r57)
        held = [(a, b) for a, b in held_inside(s.start_s, changed, freeze_s)
                if not beaten(s.start_s, a, b, where, freeze_s)]
        warned = [_inside(s, a, b, changed) for a, b in held]
        # the picture read place by place: a beacon whose two pictures return (QA s37 T3)
        for a, b, box, pace in place_stops(s.start_s, marked, freeze_s):
            if not any(a < y and x < b for x, y in held):
                warned.append(_at_place(s, a, b, box, pace))
        if warned:
            found[id(s)] = warned
    if not found:
        return scan
    spans: list[Span] = []
    for s in scan.spans:
        spans.extend(found.get(id(s), ()))
        spans.append(s)
    # in the scan's order (`scan.analyse`), the warning before a note that starts with it
    return replace(scan, spans=tuple(sorted(spans, key=lambda s: (s.start_s, s.rule))))


def _inside(s: Span, a: float, b: float, changed: list[float]) -> Span:
    """The warning of the held stretch `a`-`b` inside the still to the end `s`."""
    after = [c for c in counted(s.start_s, changed) if c >= b]
    shown = ", ".join(f"{c:.2f}" for c in after[:4]) + (", ..." if len(after) > 4 else "")
    return Span(FROZEN.id, FROZEN.severity.value, a, b, (
        f"the picture is frozen from {a:.3f} s to {b:.3f} s ({b - a:.1f} s) inside the "
        f"still picture {s.start_s:.3f}-{s.end_s:.3f} s that runs to the end of the "
        f"footage: at full resolution that picture changes every {LIVING_GAP_S:g} s or "
        f"less most of the time but there, and again after it (video {shown} s: a cursor, "
        f"a clock): held inside the run, not the footage's end"))


def _at_place(s: Span, a: float, b: float, box: tuple[int, ...], pace: float) -> Span:
    """The warning of the held stretch `a`-`b` where the place `box` stops (`place_stops`)
    inside the still to the end `s`."""
    y0, x0, y1, x1 = box
    return Span(FROZEN.id, FROZEN.severity.value, a, b, (
        f"the picture is frozen from {a:.3f} s to {b:.3f} s ({b - a:.1f} s) inside the "
        f"still picture {s.start_s:.3f}-{s.end_s:.3f} s that runs to the end of the "
        f"footage: at full resolution a mark of {x1 - x0}x{y1 - y0} px at x {x0}, y {y0} "
        f"(a beacon, a cursor) changes every {pace:.2f} s before and after it but not "
        f"there: held inside the run, not the footage's end"))


def _notes(scan: ScanResult, path: Path | str, slip: int, timeout_s: float) -> ScanResult:
    """`scan` with each `video.frozen` warning whose picture lives said as a note."""
    held = [s for s in scan.spans if s.rule == FROZEN.id
            and (s.severity == FROZEN.severity.value or drift_note(s))]
    if not held or scan.signals.frame_count == 0:
        return scan
    frames, answers = _answers(scan, held, path, timeout_s)
    if answers is None:
        return scan
    said: dict[int, list[Span]] = {}
    freeze_s = scan.thresholds.freeze_s
    for s, idx, ans in zip(held, frames, answers, strict=False):
        rows = _rows(idx, ans, scan.signals, slip)
        changed = None if rows is None else changes(
            rows["times"], rows["key"], rows["points"], rows["area"], rows["seen"],
            rows["foreign"])
        # still in gray, its colours turning (QA s40 T2): a note, the stops read on
        turned = None if rows is None else turns(
            rows["times"], rows["key"], rows["hue"], s.start_s)
        col = coloured(s, turned, freeze_s)
        first = s
        if col is not None and not _turns_on(scan, path, slip, s, timeout_s):
            # its colours turn with the held stretch only: recoloured by an edit (review
            # s41 R3), a warning (a drift note too), read on as one
            col, first = None, confined(s, turned or [], freeze_s)
        elif drift_note(s):
            if turned is None:
                continue  # not read: the note stays
            # its brightness drifts and its colours do not turn: a fade, said so (a note)
            col = col or ([faded(s)], [])
        out = [] if col is None else list(col[0])
        for w in [first] if col is None else col[1]:
            out.extend(_read(w, rows, None if changed is None else [
                c for c in changed if w.start_s <= c <= w.end_s], freeze_s))
        if col is not None or out != [s]:
            said[id(s)] = sorted(out, key=lambda x: x.start_s)
    if not said:
        return scan
    return replace(scan, spans=tuple(x for s in scan.spans for x in said.get(id(s), [s])))


def _turns_on(scan: ScanResult, path: Path | str, slip: int, s: Span, timeout_s: float
              ) -> bool:
    """Do the colours of the held stretch `s` turn on past one of its edges
    (`held_colour.beyond`, the `EDGE_S` before and after it read in one request)? True too
    where `s` reaches the footage's first or last frame: nothing there to read (the scan
    keeps such a still a note)."""
    t = scan.signals.times_s
    wins = [(s.start_s - EDGE_S, s.start_s), (s.end_s, s.end_s + EDGE_S)]
    if any(np.count_nonzero((t >= a - 1e-6) & (t < b - 1e-6)) < 2 for a, b in wins):
        return True
    return beyond(spans_rows(scan, path, slip, wins, timeout_s), scan.thresholds.freeze_s)


def _read(s: Span, rows: dict[str, list] | None, changed: list[float] | None,
          freeze_s: float) -> list[Span]:
    """The warning `s` read at full resolution: a note where the picture lives (`_note`),
    placed where a beacon that beats in part of it stops (`placed`), else itself."""
    note = _note(s, changed, freeze_s)
    if note is not None:
        return [note]
    if rows is not None and changed is not None:
        # a held stretch a beacon beats through in part: the warning where it stops
        marked = [(t, b) for t, b in marks(rows["times"], rows["key"], rows["points"],
                                           rows["area"], rows["box"]) if t <= s.end_s]
        stops = placed(s.start_s, s.end_s, counted(s.start_s, changed), marked, freeze_s)
        if stops:
            return [_placed(s, a, b, box, pace) for a, b, box, pace in stops]
    return [s]


def _rows(idx: np.ndarray, ans, sig, slip: int) -> dict[str, list] | None:
    """The child's answer `ans` for the scan's frames `idx`, row by row in the scan's order
    (`times` added); None when it was not read whole or its frames are not the scan's."""
    names = ("key", "points", "area", "seen", "foreign", "box", "hue")
    try:
        if not ans.get("complete"):
            return None
        pts = np.asarray(ans["pts"], np.int64)
        if any(len(ans[k]) != pts.shape[0] for k in names):
            return None
    except (AttributeError, KeyError, TypeError, ValueError):
        return None
    # the frames in the decoder's order given the sorted pts, as the scan gives them
    # (`scan.frame_order`: an AVI's B-frames carry their packets' pts); they must match the
    # scan's frames one for one, or nothing is said
    order = np.argsort(pts, kind="stable")
    if pts.shape[0] == 0 or int(np.abs(order - np.arange(pts.shape[0])).max()) > slip:
        return None
    given = pts[order]
    at = np.nonzero((given >= sig.pts[idx[0]]) & (given <= sig.pts[idx[-1]]))[0]
    if not np.array_equal(given[at], sig.pts[idx]):
        return None
    rows = {k: [ans[k][i] for i in at.tolist()] for k in names}
    rows["times"] = sig.times_s[idx].tolist()
    return rows


def _placed(s: Span, a: float, b: float, box: tuple[int, ...], pace: float) -> Span:
    """The warning `s` placed at `a`-`b`, where the place `box` stops (`placed`)."""
    y0, x0, y1, x1 = box
    return Span(FROZEN.id, FROZEN.severity.value, a, b, (
        f"the picture is frozen from {a:.3f} s to {b:.3f} s ({b - a:.1f} s): the scan's "
        f"still picture {s.start_s:.3f}-{s.end_s:.3f} s is held there, where at full "
        f"resolution a mark of {x1 - x0}x{y1 - y0} px at x {x0}, y {y0} (a beacon, a "
        f"cursor) that changes every {pace:.2f} s in the rest of it stops"))


def _note(s: Span, changed: list[float] | None, freeze_s: float) -> Span | None:
    """The note `s` becomes when the picture changes at `changed` (None: not read) so that
    it lives, else None."""
    if changed is None or not lives(s.start_s, s.end_s, changed, freeze_s):
        return None
    changed = counted(s.start_s, changed)
    shown = ", ".join(f"{c:.2f}" for c in changed[:6]) + (", ..." if len(changed) > 6 else "")
    return replace(s, severity=Severity.INFO.value, message=(
        f"{s.message}: at full resolution the picture changes inside it (video {shown} s: "
        f"a clock, a cursor, a small sprite the scan's sample points miss) and is never the "
        f"same for {freeze_s:g} s: a still screen that lives, not a held frame"))
