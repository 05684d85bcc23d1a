"""A held picture that ticks: the game's own clock beating under a wait no button broke.

The sync's still stretches forgive small changes (`freeze.still_spans`: up to
`freeze.NOISE_POINTS` points on up to `freeze.NOISE_FRAMES` frames, a keyframe's
re-quantisation). A game standing still whose screen keeps a small mark blinking (a beacon,
a cursor, a lamp) is such a stretch too, one whose small changes never stop: footage frozen
by an edit is one picture repeated, and nothing in it beats. QA s37 T2
(synth_glider-genuine@r44j2kmov, docked from ~26 s): a 2x2 beacon blinks every 0.33 s
(8 points each time) through 29.98-38.91 s, under three NOOPs, and the first FIRE after
them lights a lamp 0.109 s later (14 points against the usual 8: 1.75 times). The
one-offset rule (`freeze.WAIT_RESUME_RATIO`, 1.0) refused it, so the genuine run got
`sync.no_reaction` "the picture does not change for 8.9 s while the log holds 4 actions" at
every offset; the same hold with 4 s frozen inside it by an edit (-freezeend) stops
beating for 4.3 s and keeps it.

A hold is taken here (`ticking_waits`) when all of these hold:
- its small changes beat throughout in one place (a tile of the whole picture, the scan's
  16x16 finer grid when kept): no gap from its first held frame, between them, or to its
  first changed frame longer than `TICK_GAP_S`. Review R5 (session 38): a 4x4 dot drawn
  blinking at (20, 20) only during -freezeend's edited freeze beats while the beacon
  stops; counted anywhere in the picture, the beat never stopped and the freeze's only
  warning went. Place by place, the beacon's stops through the freeze and the dot's starts
  1.2 s into the hold;
- it ends at the first press of a button inside it (only NOOPs pressed before it there, at
  least one: a log silent under a still picture is a pause, `hidden.PAUSE_GAP_S`), expected
  from `Thresholds.sync_wait_reaction_s` before its first changed frame to
  `NOTE_LATE_FRAMES` after, at the offset used (a moderator's: `freeze.WAIT_REACH_S` either
  side), or at some offset at which the video covers the run when none is used;
- it resumes as a game's answer does: a first changed frame under
  `wait_lag.UNPRESSED_RESUME_RATIO` of the usual change (wait_lag.py's unpressed rule, session 33:
  nothing pressed there for a freeze to hide).
A hold whose beating place also changes within `TICK_GAP_S` after its first changed frame
(`beats_through`: the game's clock ran on through it and past its end; an edit's frozen
picture stops it, review R5's dot beats only inside the freeze) is taken
without the last two, when the change that ends it lies in one place (`ends_in_one_place`:
its tiles touch; an edited freeze whose beacon is kept alive ends with every hidden answer in
the same frame, review s39 R4): it ends at the first button expected at its end (up to
`freeze.WAIT_LATE_FRAMES` after, as the sync's own wait rule), after any presses the game
ignored. QA s38 T2 (synth_lantern, 46 and 52 fps): a 1-px beacon (2 sample points every
0.25 s in one 16x16 tile) through the genuine wait 31.11-37.09 s under a NOOP and a LEFT the
way the lantern already faced (shown as nothing); the DOWN after them steps the HUD's gear
bar, 24 points against the beacon's 2 after it (12x the "usual change", which is the beacon
itself): `sync.no_reaction` at every offset on the three genuine runs. -freezeend's edited
freeze inside the same wait stops the beacon for 4.26 s and keeps its warning.
Session 38 also asked the place to beat within `TICK_GAP_S` before the hold; session 41
dropped it. QA s40 T3 (synth_prism-genuine@r53rv20rm, RealVideo 2 at 53 fps): the game
lights its 75 % beacon (2 points at the sample points, one fine tile) as its still stage
begins, 0.076 s after the hold's first held frame 30.924 s; the beacon beats every 0.19 /
0.55 s to 36.66 s, past the FIRE's answer at 36.188, and nothing beat in that tile before
(the 20 % beacon of the stage before beats elsewhere and stops at 30.58). `sync.no_reaction`
30.92-36.19 stood at every offset. What the edge before added is nothing an edit needs:
a frozen picture stops the beat inside (the gap), and a mark drawn only inside the freeze
(review R5) stops at its end (the edge after).
A beat too small for the sample points (a 1-px beacon between their rows, QA s39 T2) is read
at full resolution by finer_beat.py, over a hold a `sync.no_reaction` would cover, with
`reach`, `ending` and `game_wait` from here.
`analysis.analyze` gives them to `freeze.frozen_findings` as the game's waits (`holds=`):
no `sync.no_reaction` over them, and the reactions' findings inside them are explained. They
are not added to `SyncAnalysis.waits`: a scan's `video.frozen` is read as before (its own
rules read a living still at full resolution, core/video/held_finer.py).
"""

from __future__ import annotations

import numpy as np

from moderator_app.core.video.resume import resumes_gradually

from .freeze import (
    NOISE_POINTS,
    WAIT_HELD_S,
    WAIT_LATE_FRAMES,
    WAIT_REACH_S,
    covering_offsets,
    near_offsets,
    no_button,
    still_spans,
)
from .records import GameWait, SyncAnalysis
from .signals import FrameSignals
from .wait_presses import WaitPresses, wait_presses

# The longest stretch of a ticking hold with no small change at all: the beacon of QA s37's
# synth_glider beats every 0.33 s; session 37's freezes rule reads a living still by the same
# second (`held_finer`'s LIVING_GAP_S). An edited freeze is a run of identical frames: one
# of a second or more breaks the beat (-freezeend: 4.3 s).
TICK_GAP_S = 1.0
# As waits.py: the first changed frame under this many times the usual change after it, and
# the press expected up to this many frames after it.
RESUME_RATIO = 3.0
NOTE_LATE_FRAMES = 1


def ticks_throughout(sig: FrameSignals, p: int, q: int) -> bool:
    """Do the small changes inside the still stretch of frames p..q beat in one place with
    no gap over `TICK_GAP_S`, counted from its first held frame to its first changed frame
    after? A place is a tile of the whole picture (`_places`): the game's beacon beats in
    its own tile throughout; a dot drawn only inside an edited freeze beats elsewhere while
    the beacon stops (review R5), so no one place beats throughout. False when the signals
    carry no places of the whole picture."""
    return bool(_beating(sig, p, q))


def beats_through(sig: FrameSignals, p: int, q: int, beat: list[int] | None = None) -> bool:
    """Does a place that beats throughout the still stretch p..q (`ticks_throughout`: from
    its first held frame on, no gap over `TICK_GAP_S`) also change within `TICK_GAP_S`
    after its first changed frame? Then the game's own clock beat on through the hold and
    past its end: the footage was never held (an edit's frozen picture stops every beat;
    review R5's dot, drawn only inside the freeze, does not beat after it). QA s38 T2.
    A beat before the hold is not asked for: a game may light its beacon as it begins to
    wait (QA s40 T3, the module's docstring). `beat`: `_beating(sig, p, q)` when the caller has it
    (read once a hold)."""
    places = _places(sig)
    if places is None or q + 1 >= len(sig):
        return False
    t = np.asarray(sig.times, float)
    b = int(np.searchsorted(t, t[q + 1] + TICK_GAP_S + 1e-9))
    after = np.asarray(places[q + 2:b])
    return any(bool((after[:, j] > 0).any())
               for j in (_beating(sig, p, q) if beat is None else beat))


def ends_in_one_place(sig: FrameSignals, p: int, q: int,
                      beat: list[int] | None = None) -> bool:
    """Does the change that ends the still stretch p..q lie in one place? Its first changed
    frame after the hold with a change outside the beating places (`_beating`; looked for
    up to `freeze.WAIT_LATE_FRAMES` frames on) changes tiles that touch one another (one
    8-connected cluster of `_places`' grid), or none. A game answers one press at a time;
    an edited freeze's end shows every answer it hid in the same frame. Review s39 R4:
    genuine@r46's picture frozen 30.5-37.065 s with the beacon's 2x2 kept alive ends with
    the gear bar (fine tiles (1, 7), (1, 8)) and the hidden LEFT's flame (rows 9) at once;
    the honest wait ends with the gear bar alone, as do the 12 QA s38 lantern runs'.
    `beat`: `_beating(sig, p, q)` when the caller has it."""
    places = _places(sig)
    if places is None:
        return True
    beating = set(_beating(sig, p, q) if beat is None else beat)
    g = int(round(places.shape[1] ** 0.5))
    for k in range(q + 1, min(q + 2 + WAIT_LATE_FRAMES, len(sig))):
        cells = {divmod(j, g) for j in np.flatnonzero(np.asarray(places[k]) > 0).tolist()
                 if j not in beating}
        if cells:
            return _clusters(cells) == 1
    return True


def _clusters(cells: set[tuple[int, int]]) -> int:
    """How many groups of 8-connected (row, column) tiles `cells` makes."""
    left, n = set(cells), 0
    while left:
        n += 1
        todo = [left.pop()]
        while todo:
            r, c = todo.pop()
            near = {(r + i, c + j) for i in (-1, 0, 1) for j in (-1, 0, 1)} & left
            left -= near
            todo.extend(near)
    return n


def _beating(sig: FrameSignals, p: int, q: int) -> list[int]:
    """The places (`_places`' columns) whose small changes inside the still stretch p..q
    beat with no gap over `TICK_GAP_S` from its first held frame to its first changed
    frame after; [] when the signals carry no places of the whole picture."""
    fps = max(sig.fps, 1e-6)
    t = np.asarray(sig.times, float)
    c = np.asarray(sig.picture_change)[p:q + 1]
    small = (c > 0) & (c <= NOISE_POINTS)
    places = _places(sig)
    if not small.any() or places is None:
        return []
    at = np.asarray(places[p:q + 1])[small] > 0
    times = t[p:q + 1][small]
    out = []
    for j in np.flatnonzero(at.any(axis=0)).tolist():
        beats = np.r_[t[p], times[at[:, j]], t[q] + 1.0 / fps]
        if float(np.diff(beats).max()) <= TICK_GAP_S:
            out.append(j)
    return out


def _places(sig: FrameSignals) -> np.ndarray | None:
    """Per-frame changed points of the whole picture tile by tile: the scan's finer tiles
    when kept (`FrameSignals.fine`, 16x16), else the tiles when they are the whole picture
    (not a band's, `whole` None); None otherwise."""
    fine = sig.finer()
    if fine is not None:
        return fine.tiles
    tiles = sig.tiles
    if sig.whole is None and tiles.ndim == 2 and len(tiles) == len(sig.times):
        return tiles
    return None


def ticking_waits(a: SyncAnalysis, run_s, sig: FrameSignals, th,
                  input_kinds=None, run_duration_s: float | None = None
                  ) -> tuple[GameWait, ...]:
    """The held pictures of the module's docstring, in video order; empty with no kinds."""
    wp = wait_presses(a, run_s, sig, th, input_kinds)
    if wp is None:
        return ()
    got_reach = reach(a, sig, wp, run_duration_s)
    if got_reach is None:
        return ()
    lo, hi, base = got_reach
    x, kinds, t, fps, used, within = wp.x, wp.kinds, wp.t, wp.fps, wp.used, wp.within
    late = NOTE_LATE_FRAMES / fps
    through_late = WAIT_LATE_FRAMES / fps
    out = []
    for p, q in still_spans(sig).tolist():
        if p <= 0 or q >= len(sig) - 1:
            continue  # not inside the footage: nothing resumes
        f0, f1 = float(t[p]), float(t[q]) + 1.0 / fps
        if f1 - f0 < WAIT_HELD_S:
            continue
        beat = _beating(sig, p, q)  # once a hold: the three tests below read it
        if not beat:
            continue
        # the beat past both edges: the game's clock never stopped (QA s38 T2), and the
        # change that ends it is one answer, not an edit's catch-up (review s39 R4)
        through = beats_through(sig, p, q, beat) and ends_in_one_place(sig, p, q, beat)
        if not through and not resumes_gradually(sig.picture_change, q, fps,
                                                 ratio=RESUME_RATIO, frames=1):
            continue
        got = ending(x, kinds, f0, f1, within, through_late if through else late, lo, hi,
                      base, used, through)
        if got is not None:
            out.append(game_wait(f0, f1, x, kinds, *got))
    return tuple(out)


def reach(a: SyncAnalysis, sig: FrameSignals, wp: WaitPresses, run_duration_s: float | None
          ) -> tuple[float, float, float] | None:
    """(lo, hi, base): the offsets a hold's ending press is looked for at (a moderator's,
    `freeze.WAIT_REACH_S` either side unless suggested; with none used, every offset at
    which the video covers the run, `base` their middle); None when there is none."""
    if wp.used:
        base = float(a.offset_used_s)  # type: ignore[arg-type]
        r = 0.0 if a.suggested_offset_s is not None else WAIT_REACH_S
        return base - r, base + r, base
    grid = covering_offsets(a, sig, wp.e, run_duration_s)
    if not len(grid):
        return None
    lo, hi = float(grid[0]), float(grid[-1])
    return lo, hi, (lo + hi) / 2


def game_wait(f0: float, f1: float, x: np.ndarray, kinds: list[str], o: float,
              c: int) -> GameWait:
    """The wait f0..f1 ended by press `c` at the offset `o` (`ending`'s answer)."""
    return GameWait(round(f0, 3), round(f1, 3), round(float(x[c]) + o, 3), kinds[c],
                    round(o, 4), 0, (0.0, 0.0), round(float(x[c - 1]) + o, 3))


def ending(x: np.ndarray, kinds: list[str], f0: float, f1: float, within: float,
            late: float, lo: float, hi: float, base: float, used: bool,
            ignored: bool = False) -> tuple[float, int] | None:
    """(offset, press): the first button pressed inside the hold f0..f1, after one NOOP at
    least and nothing else, expected from `within` before f1 to `late` after it, at an
    offset from `lo` to `hi` (a moderator's: the nearest `base` first; with none used, each
    press's earliest such offset, where the fewest presses lie before it in the hold).
    `ignored`: the presses before it may be buttons too (the game ignored them; its beat
    went on through the hold, `beats_through`): the first button expected there, after
    one press at least inside the hold."""
    if used:
        offsets = [base + o for o in near_offsets((hi - lo) / 2)]
    else:
        a = int(np.searchsorted(x, f1 - within - hi - 1e-9))
        b = int(np.searchsorted(x, f1 + late - lo + 1e-9))
        offsets = sorted({max(lo, f1 - within - float(x[c])) for c in range(a, b)})
    for o in offsets:
        v = x + o
        start = int(np.searchsorted(v, f0 - 1e-9))
        c = start
        if ignored:  # past the presses the game ignored, to the first expected at its end
            c = max(c, int(np.searchsorted(v, f1 - within - 1e-9)))
        while c < len(v) and no_button(kinds[c]):
            c += 1
        if c == start or c >= len(v) or not f1 - within - 1e-9 <= v[c] <= f1 + late + 1e-9:
            continue
        return o, c
    return None
