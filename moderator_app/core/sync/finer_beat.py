"""A held picture whose beacon beats between the sample points: the game's wait, read again
at full resolution only where the sync would warn.

The sync's picture is the scan's 256x128 sample points (core/video/signals_rows.py): in a
320x420 recording they read rows 79 and 83, and a 2x2 beacon on rows 80-81 changes none
of them. QA s39 T2 (synth_strobe-genuine@r41wmv1asf, 1.6 s lead-in): the still stretch's
wait 26.54-31.63 s under an ignored FIRE and a NOOP, ended by a DOWN whose cursor answers
0.04 s after it, was `sync.no_reaction` 26.54-29.67 s at every offset. Its only life is a
1-px beacon lit 20 frames in 40: at full resolution 4 pixels (rows 80-81, x 300-301)
every 0.32-0.34 s through the hold and on both sides of it, at the sample points nothing
at all, so session 39's `ticking.beats_through` (which reads the beat at the sample
points) had no beat to read. A square wave is read as any blink is (`held_finer.places`:
one place whose every change, on or off, counts), at any duty cycle whose longer half is
under `ticking.TICK_GAP_S`.

`finer_waits` looks at the holds a `sync.no_reaction` overlaps (the reactions' own, as
QA s39 T2's, or `freeze.frozen_findings`'), and nothing else (the
look decodes a few seconds at full resolution in the isolated video process:
`held_finer.spans_rows`, one request for every hold, at most `MAX_LOOKS`). A hold is taken
as `ticking.ticking_waits` takes a hold the beacon beats through, the beat read on the
full-resolution frames instead of the sample points:
- one place (`held_finer.places` of `held_finer.marks`: a change's box, a keyframe's
  re-quantisation dropped) changes with no gap over `TICK_GAP_S` from the hold's first held
  frame to the first changed frame, and within `TICK_GAP_S` after that frame
  (`beacon_through`): an edited freeze repeats one picture and stops every beat (QA s39's
  freezeend runs: the beacon stops for 4 s). As `ticking.beats_through`, no beat before the
  hold is asked for since session 41 (a game may light its beacon as it begins to wait,
  QA s40 T3);
- the change that ends it lies in one place, at the sample points
  (`ticking.ends_in_one_place`) and at full resolution (`ends_packed`: its first change
  beside the beacon's own fills `held_finer.MIN_DENSITY` of its box; an edit's catch-up of
  answers far apart fills a box that spans them thinly, review s39 R4);
- it ends at the first button expected at its end, after any presses the game ignored
  (`ticking.ending`, as the sample points' rule).
Anything not read (no video, a span not decoded whole, more holds than `MAX_LOOKS`) keeps
the warning.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from moderator_app.core.video import held_finer

from .freeze import RULE, WAIT_HELD_S, WAIT_LATE_FRAMES, WAIT_REACH_S, still_spans
from .records import GameWait, SyncAnalysis
from .signals import FrameSignals
from .ticking import TICK_GAP_S, ending, ends_in_one_place, game_wait, reach
from .wait_presses import wait_presses

# The holds looked at again in one analysis (each a few seconds of decoding; the child's own
# CPU budget, `child_held.BUDGET_S`, bounds the request): a run warned over more holds than
# this is read as before.
MAX_LOOKS = 4

# spans (video s) -> each span's full-resolution rows (`held_finer.spans_rows`), or None
Look = Callable[[Sequence[tuple[float, float]]], list]


def video_look(path: str | Path, scan_of: Callable[[], object]) -> Look:
    """The look of the recording at `path` whose integrity scan `scan_of()` gives (the
    verification's, or its cache read when first asked)."""
    from moderator_app.core.video.scan import NEIGHBOUR_SLIP

    def look(spans: Sequence[tuple[float, float]]) -> list:
        return held_finer.spans_rows(scan_of(), path, NEIGHBOUR_SLIP, spans)  # type: ignore[arg-type]

    return look


def beacon_through(rows: dict, f0: float, f1: float) -> tuple[int, ...] | None:
    """The box of a place that beats at full resolution through the hold f0..f1 (first held
    frame, first changed frame) and past its end (the module's docstring), or None."""
    marked = held_finer.marks(rows["times"], rows["key"], rows["points"], rows["area"],
                              rows["box"])
    eps = 1e-6
    for box, times in held_finer.places(marked):
        after = [v for v in times if f1 + eps < v <= f1 + TICK_GAP_S + eps]
        inside = [v for v in times if f0 - eps <= v <= f1 + eps]
        if after and float(np.diff([f0, *inside, f1]).max()) <= TICK_GAP_S:
            return box
    return None


def ends_packed(rows: dict, beacon: tuple[int, ...], f1: float, late: float) -> bool:
    """Is the first change at full resolution from the first changed frame f1 to `late`
    after it, beside the beacon's own, packed (`held_finer.MIN_DENSITY` of its box), or is
    there none? A keyframe's change is no answer (read on, as `held_finer.marks`)."""
    k = np.asarray(rows["key"], bool)
    intra = k.shape[0] > 0 and float(k.mean()) >= held_finer.INTRA_SHARE
    for i, v in enumerate(rows["times"]):
        if not f1 - 1e-6 <= v <= f1 + late + 1e-6:
            continue
        n, area, box = int(rows["points"][i]), int(rows["area"][i]), rows["box"][i]
        if n < held_finer.MARK_POINTS or area <= 0 or held_finer._same_place(beacon, box):
            continue
        if not intra and k[max(0, i - held_finer.AFTER_KEY):i + 1].any():
            continue
        return n >= held_finer.MIN_DENSITY * area
    return True


def finer_waits(a: SyncAnalysis, run_s, sig: FrameSignals, th, input_kinds,
                run_duration_s: float | None, look: Look | None,
                warned: Sequence) -> tuple[GameWait, ...]:
    """The game's waits among the holds `warned` (the analysis' findings and
    `freeze.frozen_findings`') says `sync.no_reaction` over, read at full resolution (the
    module's docstring); empty with no look, no kinds or nothing warned."""
    spans = [(f.video_start_s, f.video_end_s) for f in warned
             if f.rule == RULE and f.video_start_s is not None and f.video_end_s is not None]
    wp = wait_presses(a, run_s, sig, th, input_kinds) if look is not None and spans else None
    got_reach = reach(a, sig, wp, run_duration_s) if wp is not None else None
    if wp is None or got_reach is None or look is None:
        return ()
    lo, hi, base = got_reach
    if wp.used:  # a moderator's offset or the analysis' own, a second either side: QA s39
        lo, hi = base - WAIT_REACH_S, base + WAIT_REACH_S  # T2 at 1.6 is read at 1.7335
    t, fps = wp.t, wp.fps
    late = WAIT_LATE_FRAMES / fps
    asked = []
    for p, q in still_spans(sig).tolist():
        if p <= 0 or q >= len(sig) - 1:
            continue
        f0, f1 = float(t[p]), float(t[q]) + 1.0 / fps
        if f1 - f0 < WAIT_HELD_S or not any(s < f1 and f0 < e for s, e in spans):
            continue
        got = ending(wp.x, wp.kinds, f0, f1, wp.within, late, lo, hi, base, wp.used, True)
        if got is not None and ends_in_one_place(sig, p, q):
            asked.append((f0, f1, float(t[q + 1]), got))
    if not asked or len(asked) > MAX_LOOKS:
        return ()
    rows = look([(f0 - TICK_GAP_S, e + TICK_GAP_S + 1.0 / fps) for f0, _, e, _ in asked])
    out = []
    for (f0, f1, e, got), r in zip(asked, rows, strict=False):
        box = beacon_through(r, f0, e) if r is not None else None
        if box is not None and ends_packed(r, box, e, late):
            out.append(game_wait(f0, f1, wp.x, wp.kinds, *got))
    return tuple(out)
