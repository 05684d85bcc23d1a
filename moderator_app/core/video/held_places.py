"""A held picture read place by place at full resolution (held_finer.py's places, split from it
in session 43 to keep it under 600 lines; the reasons are held_finer's docstring's): each
change's box is a place; a place that beats at a `rhythm` and stops is where a picture is held
(`place_stops` in a still to the end, `placed` in a warning), a place that beats through a
stretch and on past it makes it no held picture (`beaten`). Pure functions of the changes'
times and boxes; no decoding here."""

from __future__ import annotations

from collections.abc import Sequence

from .held_pace import LIVING_AFTER, LIVING_GAP_S, SETTLE_S, rhythm

# Two changes' boxes are one place (`places`) when their overlap is at least this share of
# their union (a beacon's 4x4 box on and off: 1.0; a sprite a step on: less)
SAME_PLACE = 0.5


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
