"""The held pictures a game's wait for a button explains, for the report's notes.

The scan's `video.frozen` is a finding without the log. Beside a log, a held picture that
ends where the game, waiting for a button, is given it is said as a note (core/sync/run.py
`wait_note`). Two ways a hold is taken (`game_waits`):

1. **One hold, by the one-offset rule** (session 26): a still stretch of the sync's picture of
   at least `freeze.WAIT_HELD_S` that resumes with the game's next frame (a first changed
   frame under `freeze.WAIT_RESUME_RATIO` of the usual change), within
   `Thresholds.sync_wait_reaction_s` after a press of a button none of its held presses
   named, at the offset used (a moderator's: `freeze.WAIT_REACH_S` either side).
2. **The game's button, learned from the run's holds** (session 27): when at one offset
   `WAIT_AGREE_MIN` holds of (1) end at a press of the *same* button (the game waits for
   it, and its reaction shows at one lag: the holds' lags lie within the reaction window),
   any other held picture that ends at a press of that button at that offset and at that lag
   (`WAIT_LAG_SLACK_FRAMES` either side of the agreeing holds' lags) is the same wait,
   whatever its first frame and whatever it held: a game ignores its button at times (Human
   Cannonball takes no FIRE while it shows where the man landed, ~3 s; the shot's first frame
   is 3-5x the usual change), which the one-hold rule cannot tell from an edit.
   With no offset used (auto, none suggested), the offset is found so: the holds agreeing at
   one offset is itself evidence of it, `WAIT_AGREE_MIN_AUTO` of them over the covering
   offsets (a coincidence of two is likely there: a window of 0.28 s in a few seconds).
   A scan's hold taken this way must hold a press before the ending one (`GameWait.held_s`):
   a pause (the log and the picture held together, nothing pressed) is not a wait.
3. **The game's button, from its opening wait** (session 27, `freeze.opening_wait`): the hold
   from before the log's first press to the game's start, ended by a button none of its
   presses named, teaches the button and its lag; a later hold ending at that button at that
   lag (+-1 frame) is the same wait (Donkey Kong after a lost life: the level is redrawn, a
   first changed frame 5x the usual change, which (1) cannot take).
4. **The game's button, from the lag its holds end at** (session 28), and 5. **the game's lag,
   over all its buttons** (session 31): core/sync/wait_lag.py (`lag_waits`, its docstring).
Footage frozen by an edit is a single hold that resumes where the cut lands: the corpus'
freezes keep their warnings (a game that waits for no button agrees on none; in a game that
does, an edit resumes at that lag after the first press of its button only by chance,
and the presses of it held inside the freeze, which the game would have shown, exclude it).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from moderator_app.core.video.resume import resumes_gradually

from .freeze import (
    WAIT_HELD_S,
    WAIT_REACH_S,
    WAIT_RESUME_RATIO,
    covering_offsets,
    ending_press,
    near_offsets,
    no_button,
    opening_wait,
    same_press,
    still_spans,
)
from .records import GameWait, SyncAnalysis
from .signals import FrameSignals
from .wait_lag import (
    NOTE_LATE_FRAMES,
    WAIT_AGREE_PAIRS,
    WAIT_LAG_SLACK_FRAMES,
    _settled,
    _stabbed,
    _wait,
    lag_waits,
)
from .wait_presses import wait_presses

# Holds of the one-hold rule that must end at a press of one button at one offset for the
# game's button to be learned: at the offset used (or a moderator's reach, +-1 s: ~50
# offsets), and over every offset the video covers the run at when none is used.
WAIT_AGREE_MIN = 2
WAIT_AGREE_MIN_AUTO = 3
# The still stretches the learned button may end: at least this many frames (the sync's
# picture, finer than the scan's, splits a scan's hold at the game's own small changes:
# Human Cannonball's 9.64-13.16 s at 12.72 s, the man back in the cannon, still to the FIRE).
WAIT_SAME_FRAMES = 2
# A one-hold wait read at another offset than the agreed waits ends at a press at their lag,
# this either side of their band, at their offset (`_off_the_agreed_offset`; run.py's
# WAIT_MATCH_S at the same offset).
LAG_MATCH_S = 0.1


def game_waits(a: SyncAnalysis, run_s, sig: FrameSignals, th, input_kinds=None,
               run_duration_s: float | None = None,
               lagged: tuple[GameWait, ...] | None = None) -> tuple[GameWait, ...]:
    """The held pictures the game's wait explains (the module's docstring), in video
    order; empty with no kinds, or with no offset used and none the holds agree on.
    `lagged`: `lag_waits` of the same arguments when the caller has them already (the
    analysis reads them first for `freeze.frozen_findings`), else read here."""
    wp = wait_presses(a, run_s, sig, th, input_kinds)
    if wp is None:
        return ()
    e, x, kinds, t, fps, used, within = wp.e, wp.x, wp.kinds, wp.t, wp.fps, wp.used, wp.within
    change = np.asarray(sig.picture_change)
    still = still_spans(sig)
    spans = [(int(p), _settled(change, int(q))) for p, q in still.tolist()
             if p > 0 and q < len(sig) - 1]
    hold = [(float(t[p]), float(t[q]) + 1.0 / fps) for p, q in spans]
    # the holds of the one-hold rule: long enough, resumed with the game's next frame
    long = [k for k, (p, q) in enumerate(spans) if (q - p + 1) / fps >= WAIT_HELD_S
            and resumes_gradually(sig.picture_change, q, fps, ratio=WAIT_RESUME_RATIO,
                                  frames=1)]
    out: dict[int, GameWait] = {}
    if used:
        base = float(a.offset_used_s)  # type: ignore[arg-type]
        # a moderator's offset is rarely exact: the press may be expected WAIT_REACH_S
        # either side of it (a suggestion's is the reactions' own: that offset only)
        reach = 0.0 if a.suggested_offset_s is not None else WAIT_REACH_S
        for k in long:
            f0, f1 = hold[k]
            for o in near_offsets(reach):
                c = ending_press(x + base + o, kinds, f0, f1, fps, within, True,
                                  NOTE_LATE_FRAMES)
                if c is not None:
                    # said at the offset used (the press's time there)
                    out[k] = _wait(f0, f1, x, kinds, c, base, base)
                    break
        lo, hi, need = base - reach, base + reach, WAIT_AGREE_MIN
    else:
        grid = covering_offsets(a, sig, e, run_duration_s)
        if not len(grid):
            return ()
        lo, hi, need = float(grid[0]), float(grid[-1]), WAIT_AGREE_MIN_AUTO
        base = (lo + hi) / 2
    agreed = _agreed(long, hold, lo, hi, base, x, kinds, fps, within, need, used)
    if agreed is not None:
        o, button, ends = agreed
        lags = [hold[k][1] - float(x[c]) - o for k, c in ends.items()]
        lo = min(lags) - WAIT_LAG_SLACK_FRAMES / fps
        hi = max(lags) + WAIT_LAG_SLACK_FRAMES / fps
        band = (round(min(lags), 3), round(max(lags), 3))
        for k, c in ends.items():
            if k not in out:  # found at the offset the holds agree on (auto)
                out[k] = _wait(*hold[k], x, kinds, c, o, o, len(ends), band)
        for k, (p, q) in enumerate(spans):
            if k in out or q - p + 1 < WAIT_SAME_FRAMES:
                continue
            f1 = hold[k][1]
            c = _pressed_at(x + o, kinds, button, f1 - hi, f1 - lo)
            if c is not None:
                out[k] = _wait(*hold[k], x, kinds, c, o, o, len(ends), band)
    opening = opening_wait(a, sig, still, e, kinds, th) if used else None
    if opening is not None:
        # the button the game was started with, at its lag (freeze.py's note): a later
        # hold ending at it is the same wait (Donkey Kong after a lost life, QA s27)
        lag = round(opening.lag_s, 3)
        for k, (p, q) in enumerate(spans):
            if k in out or q - p + 1 < WAIT_SAME_FRAMES:
                continue
            c = same_press(opening, x, kinds, *hold[k], fps)
            if c is not None:
                out[k] = replace(_wait(*hold[k], x, kinds, c, opening.offset_s,
                                       opening.offset_s, 1, (lag, lag)),
                                 opening_s=round(opening.end_s, 3))
    found = [out[k] for k in sorted(out)]
    seen = {(w.start_s, w.end_s) for w in found}
    if lagged is None:
        lagged = lag_waits(a, run_s, sig, th, input_kinds)
    if lagged:
        found = [w for w in found if not _off_the_agreed_offset(w, lagged[0], x, kinds)]
    found += [w for w in lagged if (w.start_s, w.end_s) not in seen]
    return tuple(sorted(found, key=lambda w: w.start_s))


def _off_the_agreed_offset(w: GameWait, agreed: GameWait, x: np.ndarray,
                           kinds: list[str]) -> bool:
    """Is the one-hold wait `w`, found at an offset other than the one the run's agreed
    waits (`lag_waits`) were read at, ended by no press at their lag there (their band,
    `LAG_MATCH_S` either side; any button)? At a moderator's offset both are searched a
    second either side, each on its own: QA s28's Blackjack with 4 s frozen at 20.10 s, given
    the truth + 0.3 s, had its freeze taken as a wait for UP at 4.00 s (the UP 0.37 s before
    it resumed), while four holds agree on FIRE at 3.76 s, where the freeze resumes 0.61 s
    after that UP and at no press at their lag (-0.02 to 0.03 s). At the same offset
    `run._off_the_games_lag` compares the lags."""
    if w.agreed or w.opening_s is not None or abs(w.offset_s - agreed.offset_s) <= LAG_MATCH_S:
        return False
    lo, hi = agreed.lags
    v = x + agreed.offset_s
    c0 = int(np.searchsorted(v, w.end_s - hi - LAG_MATCH_S - 1e-9))
    c1 = int(np.searchsorted(v, w.end_s - lo + LAG_MATCH_S + 1e-9))
    return not any(not no_button(kinds[c]) for c in range(c0, c1))


def _agreed(long: list[int], hold: list[tuple[float, float]], lo: float, hi: float,
            base: float, x: np.ndarray, kinds: list[str], fps: float, within: float,
            need: int, nearest: bool) -> tuple[float, str, dict[int, int]] | None:
    """The offset from `lo` to `hi` at which the most holds of `long` end at a press of one
    button by the one-hold rule (at least `need`): (offset, the button, {hold: its press}),
    or None. Each (hold, press) pair holds over an interval of offsets (`_interval`: exact,
    no grid: two holds can agree over less than a frame of offsets); of equal counts the
    button whose offsets are nearest `base`; the offset: the nearest to `base` when
    `nearest` (a moderator's), else the middle of the offsets at which they agree."""
    if len(long) < need or hi < lo:
        return None
    late = NOTE_LATE_FRAMES / fps
    ranges = [(int(np.searchsorted(x, hold[k][1] - within - hi - 1e-9)),
               int(np.searchsorted(x, hold[k][1] + late - lo + 1e-9))) for k in long]
    if sum(b - a for a, b in ranges) > WAIT_AGREE_PAIRS:
        return None
    last: dict[str, int] = {}
    before = []  # the last press of the same kind before each press, or -1
    for c, kind in enumerate(kinds):
        before.append(last.get(kind, -1))
        last[kind] = c
    spans: dict[str, list[tuple[float, float, int, int]]] = {}  # button -> (from, to, hold, press)
    for k, (a, b) in zip(long, ranges, strict=True):
        f0, f1 = hold[k]
        for c in range(max(a, 1), b):
            if no_button(kinds[c]):
                continue
            o0 = max(lo, f1 - within - float(x[c]), f0 - float(x[c - 1]))
            o1 = min(hi, f1 + late - float(x[c]))
            if before[c] >= 0:  # a press of its kind held before it: not a new button
                o1 = min(o1, f0 - float(x[before[c]]) - 1e-6)
            if o0 <= o1:
                spans.setdefault(kinds[c], []).append((o0, o1, k, c))
    best = None
    for button, ivs in spans.items():
        got = _stabbed(ivs, 0, need, base, nearest)
        if got is not None and (best is None or got[0] > best[0]):
            best = (got[0], got[1], button, {k: iv[3] for k, iv in got[2].items()})
    return None if best is None else (best[1], best[2], best[3])


def _pressed_at(x: np.ndarray, kinds: list[str], button: str, lo: float,
                hi: float) -> int | None:
    """The first press of `button` expected from video time `lo` to `hi`, or None."""
    for c in range(int(np.searchsorted(x, lo - 1e-9)), int(np.searchsorted(x, hi + 1e-9))):
        if kinds[c] == button:
            return c
    return None

