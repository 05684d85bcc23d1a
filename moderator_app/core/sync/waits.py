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
4. **The game's button, from the lag its holds end at** (session 28, `lag_agreed`): a game
   whose every change of picture is a reaction (Casino, a card table: QA s27 T1) redraws much
   of the screen when its button is pressed (the first changed frame 1.1-17x the usual
   change), so (1) takes none of its holds, and they hold no ignored press of the button to
   learn from. What they show instead: `WAIT_LAG_AGREE_MIN` of them (at a suggested offset,
   at a moderator's, searched +-1 s, or with none used: at the offsets at which the video
   shows every press) end at the first press of one button inside them, at one lag (their
   lags, first changed frame - press, within `WAIT_LAG_BAND_S` of each other: the game's
   reaction, as it polls its button and the frame shows it). Those holds are the game's
   waits; the sync's `sync.no_reaction` over them is dropped too
   (`freeze.frozen_findings(holds=)`). A hold that ignores a press of the button and
   resumes at the next (QA s28's Blackjack, 35.76-39.71 s: a FIRE at 38.30 s ignored) is not
   taken: a freeze that hides a press the game showed looks the same, and taking such holds
   took 28 of 773 freezes made in Casino's genuine run (2 without; docs/DECISIONS.md,
   session 29). Once they agree, a hold that ends at their lag after the first press of
   *another* button inside it is a wait too, when two holds at least end so at that button
   (`_at_the_lag`, session 30: Hangman takes UP, DOWN and FIRE, QA s29 T1); an earlier press
   of that button inside it the picture answered faintly at that lag (a change under the
   still stretch's noise bar) is not one the hold hid (session 31, QA s30 T1); one hold
   will do when no button was pressed under it before that press and it resumes as a
   game's answer does (`_unpressed`, session 33: Crossbow, QA s32 T2).
5. **The game's lag, over all its buttons** (session 31, `lag_agreed(pooled=True)`): when no
   one button ends `WAIT_LAG_AGREE_MIN` holds (Backgammon: its holds end at a FIRE, a RIGHT,
   a FIRE, QA s30 T1), holds ending within `POOLED_BAND_FRAMES` of one lag after the first
   press of *any* button inside them are the game's waits, when the expected number of so
   close an agreement by chance (`pooled_chance`, a null model over the run's own (hold,
   press) pairs and the offsets searched) is at most `POOLED_CHANCE_MAX`.
Footage frozen by an edit is a single hold that resumes where the cut lands: the corpus'
freezes keep their warnings (a game that waits for no button agrees on none; in a game that
does, an edit resumes at that lag after the first press of its button only by chance,
and the presses of it held inside the freeze, which the game would have shown, exclude it).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from moderator_app.core.video.resume import resumes_gradually

from .freeze import (
    NOISE_FRAMES,
    NOISE_POINTS,
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
from .wait_presses import wait_presses

# Holds of the one-hold rule that must end at a press of one button at one offset for the
# game's button to be learned: at the offset used (or a moderator's reach, +-1 s: ~50
# offsets), and over every offset the video covers the run at when none is used.
WAIT_AGREE_MIN = 2
WAIT_AGREE_MIN_AUTO = 3
# A hold taken by the learned button ends at a lag (first changed frame - the press) within
# this many frames of the agreeing holds' lags: the game's reaction to its button.
WAIT_LAG_SLACK_FRAMES = 1
# The still stretches the learned button may end: at least this many frames (the sync's
# picture, finer than the scan's, splits a scan's hold at the game's own small changes:
# Human Cannonball's 9.64-13.16 s at 12.72 s, the man back in the cannon, still to the FIRE).
WAIT_SAME_FRAMES = 2
# The most (hold, press) pairs the agreement weighs (each an interval of offsets, compared
# with the others of its button: quadratic in them): a bound about the input (QA's 40 s Human
# Cannonball run at auto, 3.7 s of offsets: 23 pairs; a video minutes longer than its run
# pairs each press with each hold), not the machine. Past it, no button is learned (the
# one-hold rule alone, as before).
WAIT_AGREE_PAIRS = 1_000
# The press that ends a wait may be expected up to this many frames after its first changed
# frame in the one-hold rule here (freeze.WAIT_LATE_FRAMES is the sync finding's 2).
NOTE_LATE_FRAMES = 1
# Holds that must end at the first press of one button inside them, at one lag, for (4), at
# any offset used or none. QA s27's Casino: 3 (genuine2) and 7 holds agree at the
# suggestion; QA s28's Blackjack genuine2: 3, at auto and at the truth +-4 frames. Four were
# asked at a moderator's offset (searched WAIT_REACH_S either side) and with none used
# (session 28: a coincidence of three likelier over seconds of offsets): Blackjack's three
# kept `video.frozen` at every offset. Measured with three (session 29, holds sweep: the
# corpus' 439 runs and QA s26-s28's 55 x 8 offsets): no freeze, pause or insertion cell
# changed; a freeze made at every frame beside genuine2's three holds is taken only within
# two frames of where a genuine wait ended (4 of 867, as Casino's 2 of 773).
WAIT_LAG_AGREE_MIN = 3
# Their lags lie within this of each other (and a frame at least): one reaction, as the
# game polls its button (a few emulator frames) and the video shows it (a frame). The
# truths' lags of the shown presses of a genuine run spread 0.03-0.063 s on Casino (QA s27's
# AV1 at 20 fps, our H.264 at 25), 0.04-0.07 s on Human Cannonball and Donkey Kong.
WAIT_LAG_BAND_S = 0.08
# The most comparisons (pairs in one band, squared, summed) `lag_agreed` makes: presses of one
# button crowded at one lag are an input's, not a game's (QA s27 Casino at auto: 94).
WAIT_AGREE_WORK = 100_000
# A one-hold wait read at another offset than the agreed waits ends at a press at their lag,
# this either side of their band, at their offset (`_off_the_agreed_offset`; run.py's
# WAIT_MATCH_S at the same offset).
LAG_MATCH_S = 0.1
# Holds that must end at another button at the agreed waits' lag (`_at_the_lag`) for it to
# be one the game waits for too.
OTHER_BUTTON_MIN = 2
# With no one button agreeing, holds ending at the first press of *any* button inside them
# agree when their lags lie within this many frames (the game polls its input; the video's
# frame shows the answer: one frame, not WAIT_LAG_BAND_S) ...
POOLED_BAND_FRAMES = 1.0
# ... and the expected number of such agreements by chance (`pooled_chance`) is at most this.
POOLED_CHANCE_MAX = 0.01
# A hold that ends at the agreed lag after another button, with no button pressed under it
# before that press (`_unpressed`), is a wait on its own (not OTHER_BUTTON_MIN of them) when
# its first changed frame is under this many times the picture's usual change after it
# (`_resumes_as_answered`). The wide set's genuine holds taken so resume at 0.33-1.69 of it
# (QA s32's crossbow-genuine2 1.37); a freeze over Casino's dealing, no button pressed,
# ending 0.02 s before an UP the game ignores, 541 (test_sync_wait_lag).
UNPRESSED_RESUME_RATIO = 3.0


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


def lag_waits(a: SyncAnalysis, run_s, sig: FrameSignals, th,
              input_kinds=None) -> tuple[GameWait, ...]:
    """The held pictures of (4) (the module's docstring: holds ending at the first press of
    one button inside them, at one lag), in video order; empty with no kinds, or when too
    few agree. `freeze.frozen_findings` takes their spans as the game's waits too. With no
    offset used, the offsets searched are those at which the video shows every press (not
    the run's end: a recording may stop before it)."""
    wp = wait_presses(a, run_s, sig, th, input_kinds)
    if wp is None:
        return ()
    e, x, kinds, t, fps, used = wp.e, wp.x, wp.kinds, wp.t, wp.fps, wp.used
    change = np.asarray(sig.picture_change)
    holds, lasts = [], []
    for p, q in still_spans(sig).tolist():
        if q >= len(sig) - 1:
            continue  # held to the video's end: it does not resume at any press
        last = _settled(change, int(q))
        f0, f1 = float(t[p]), float(t[last]) + 1.0 / fps
        if f1 - f0 >= WAIT_HELD_S:
            holds.append((f0, f1))
            lasts.append(last)
    if used:
        base = float(a.offset_used_s)  # type: ignore[arg-type]
        # a suggestion is the reactions' own offset; a moderator's is searched +-1 s
        reach = 0.0 if a.suggested_offset_s is not None else WAIT_REACH_S
        lo, hi = base - reach, base + reach
    else:
        # the offsets at which the video shows every press, not run_end: a recording
        # stopped before run_end still shows the holds the presses end (QA s28's Blackjack
        # at 12 fps: 41.67 s of video, a 40 s run from 2.9 s; covering run_end, 0-1.75 s)
        grid = covering_offsets(a, sig, e, None)
        if not len(grid):
            return ()
        lo, hi = float(grid[0]), float(grid[-1])
        base = (lo + hi) / 2
    within = float(th.sync_wait_reaction_s)
    found = lag_agreed(holds, x, kinds, fps, within, lo, hi, base, WAIT_LAG_AGREE_MIN, used)
    pooled = found is None
    if pooled:
        # no one button agrees: the lag is the game's, not the button's (`_at_the_lag`);
        # the holds ending at one frame's lag after the first press of any button inside
        # them, when so many agreeing so closely is unlikely by chance (`pooled_chance`)
        found = lag_agreed(holds, x, kinds, fps, within, lo, hi, base, WAIT_LAG_AGREE_MIN,
                           used, pooled=True)
    if found is None:
        return ()
    o, ends, band = found
    button = kinds[next(iter(ends.values()))]
    if pooled:
        # each ends at its own button, at the one lag: said as the game's reaction to its
        # buttons (run.wait_note), the first agreeing hold's button named as the agreed one
        taken = {k: replace(_wait(*holds[k], x, kinds, c, o, o, len(ends), band),
                            agreed_kind=button if kinds[c] != button else None)
                 for k, c in ends.items()}
        return tuple(taken[k] for k in sorted(taken))
    faintly: set[int] = set()
    more = _at_the_lag(holds, ends, x + o, kinds, band, fps, _faint(sig), faintly)
    # another button is the game's when two holds at least end at it there: one alone is
    # as likely a freeze ending at that lag after a press the game ignored (QA s28's
    # Blackjack genuine2, 4 s frozen at every frame: 7 more of 867 taken with one, ended
    # 0.07-0.11 s after an UP the game never answers, at its FIRE's lag; 0 more with two)
    # (a hold ending at the agreed button past an earlier press of it that the game showed
    # faintly at the lag, `_at_the_lag`, is one more of the agreeing holds: the faint
    # answer is a second reaction at the game's lag; an agreed-button hold without one, at
    # the band's slack, still needs a second: Casino's freeze guard, test_sync_wait_lag)
    # (one alone will do when no button was pressed under it before its end and it resumes
    # as a game's answer does: nothing there for a freeze to hide, `_unpressed`)
    per = [kinds[c] for c in more.values()]
    more = {k: c for k, c in more.items() if per.count(kinds[c]) >= OTHER_BUTTON_MIN
            or (k in faintly and kinds[c] == button)
            or (_unpressed(x + o, kinds, holds[k][0], c)
                and _resumes_as_answered(sig, lasts[k], fps))}
    taken = {k: _wait(*holds[k], x, kinds, c, o, o, len(ends), band)
             for k, c in ends.items()}
    taken.update({k: replace(_wait(*holds[k], x, kinds, c, o, o, len(ends), band),
                             agreed_kind=button) for k, c in more.items()})
    return tuple(taken[k] for k in sorted(taken))


def _unpressed(v: np.ndarray, kinds: list[str], f0: float, c: int) -> bool:
    """Is press `c` the first press of any button from video time `f0` on (`v`: the
    presses' video times)? NOOPs aside, nothing was pressed under the held picture before
    the press that ends it: the game had nothing to answer, and a freeze there hid no press
    the game would have shown (QA s32 T2, crossbow-genuine2@r48mp4v3gp: held 30.52-34.17 s
    under one NOOP, resumed 0.017 s after a LEFT, the one hold of the run to end at a LEFT,
    while four end at a RIGHT at 0.00-0.02 s)."""
    c0 = int(np.searchsorted(v, f0))
    return all(no_button(kinds[b]) for b in range(c0, c))


def _resumes_as_answered(sig: FrameSignals, last: int, fps: float) -> bool:
    """Does the picture held to frame `last` resume with a change under
    `UNPRESSED_RESUME_RATIO` of its usual change after (`resume.resumes_gradually` on its
    first changed frame)? A game's answer to a press is one of its own changes; footage
    frozen by an edit over a stretch where nothing was pressed resumes with all the game's
    own motion it hid in one frame."""
    return resumes_gradually(sig.picture_change, last, fps, ratio=UNPRESSED_RESUME_RATIO,
                             frames=1)


def _faint(sig: FrameSignals) -> np.ndarray:
    """The video times of the frames whose picture changed by at most `NOISE_POINTS` points
    (`still_spans` joins a still stretch over them: a keyframe's re-quantisation, or the
    game's own small answer, as Backgammon's checker moved one point in a lossy MPEG-4
    recording at 18 fps: 8 points at 14.78 s, QA s30 T1)."""
    c = np.asarray(sig.picture_change)
    return np.asarray(sig.times, float)[(c > 0) & (c <= NOISE_POINTS)]


def _at_the_lag(holds: list[tuple[float, float]], ends: dict[int, int], v: np.ndarray,
                kinds: list[str], band: tuple[float, float], fps: float,
                faint: np.ndarray | None = None,
                faintly: set[int] | None = None) -> dict[int, int]:
    """The other `holds` (not in `ends`) that end at the agreed waits' lag (`band`,
    `WAIT_LAG_SLACK_FRAMES` either side) after the first press of *any* button inside them
    (`v`: the presses' video times at the agreed offset): {hold: its press}. A game that
    waits for a button may take several (Hangman: UP and DOWN change the letter, FIRE
    guesses it; QA s29 T1: five holds agree on UP at 0.009-0.026 s, three more end 0.001-
    0.025 s after a FIRE and one 0.021 s after a DOWN, each a `sync.no_reaction`). The lag,
    not the button, is the game's: it polls its input and the next frame shows the answer.
    The press must be the first of its button inside the hold (the game would have shown an
    earlier one: footage frozen over it hides a reaction), as `lag_agreed` asks, unless each
    earlier one was shown: a `faint` change (video times) at that lag after it. Footage
    frozen over a press shows nothing there; a game's small answer under the still
    stretch's noise bar does (QA s30 T1, Backgammon at 18 fps: a LEFT at 14.66 s answered
    by 8 points at 14.78 s, the hold resuming at the next LEFT's lag at 16.00 s; before,
    `video.frozen` 10.44-16.00 s and `sync.no_reaction` over the two ignored presses).
    The holds taken so are added to `faintly`."""
    slack = WAIT_LAG_SLACK_FRAMES / fps
    lo, hi = band[0] - slack - 1e-6, band[1] + slack + 1e-6
    if faint is None:
        faint = np.zeros(0)

    def shown(c: int) -> bool:
        j = int(np.searchsorted(faint, v[c] + lo))
        return j < len(faint) and faint[j] <= v[c] + hi
    out: dict[int, int] = {}
    for k, (f0, f1) in enumerate(holds):
        if k in ends:
            continue
        c0 = int(np.searchsorted(v, f1 - hi))
        c1 = int(np.searchsorted(v, f1 - lo, side="right"))
        for c in range(c0, c1):
            if v[c] < f0 or no_button(kinds[c]):
                continue
            seen = _earlier_shown(kinds, int(np.searchsorted(v, f0)), c, shown)
            if seen is not None:
                out[k] = c
                if seen and faintly is not None:
                    faintly.add(k)
                break
    return out


def _earlier_shown(kinds: list[str], i0: int, c: int,
                   shown: Callable[[int], bool]) -> bool | None:
    """Whether press `c` had earlier presses of its button from `i0` on, each `shown`; None
    when one was not. Stops at the first not shown, each found by `list.index` at C speed
    (session 31's review: the list of them all, built in Python for each candidate press,
    took 0.21 -> 6.67 s on 100,000 earlier presses)."""
    kind, b, seen = kinds[c], i0, False
    while True:
        try:
            b = kinds.index(kind, b, c)
        except ValueError:
            return seen
        if not shown(b):
            return None
        seen, b = True, b + 1


def lag_agreed(holds: list[tuple[float, float]], x: np.ndarray, kinds: list[str],
               fps: float, within: float, lo: float, hi: float, base: float, need: int,
               nearest: bool, pooled: bool = False
               ) -> tuple[float, dict[int, int], tuple[float, float]] | None:
    """The offset from `lo` to `hi` at which the most `holds` (video times, first held frame
    to first changed frame) end at the first press of one button inside them, their lags
    (first changed frame - the press) within `WAIT_LAG_BAND_FRAMES` of each other, at least
    `need` of them: (offset, {hold: its press}, (least lag, most lag)), or None. Each (hold,
    press) pair holds over an exact interval of offsets (the press expected from `within`
    before the first changed frame to `NOTE_LATE_FRAMES` after it, inside the hold, no press
    of its kind before it there); a pair's lag less the offset is fixed, so the band is
    read on it. Of equal counts, the offset nearest `base`: itself when `nearest` (a
    moderator's offset), else the middle of the offsets at which they agree. At most
    `WAIT_AGREE_PAIRS` pairs are weighed (None past it). `pooled`: the presses of every
    button weighed as one (each still the first of its own button inside its hold), their
    lags within `POOLED_BAND_FRAMES`, and the agreement taken only when `pooled_chance` of
    it is at most `POOLED_CHANCE_MAX`."""
    if len(holds) < need or hi < lo:
        return None
    late = NOTE_LATE_FRAMES / fps
    band = (POOLED_BAND_FRAMES / fps if pooled else max(WAIT_LAG_BAND_S, 1.0 / fps)) + 1e-6
    last: dict[str, int] = {}
    before = []  # the last press of the same kind before each press, or -1
    for c, kind in enumerate(kinds):
        before.append(last.get(kind, -1))
        last[kind] = c
    pairs: dict[str, list[tuple[float, float, float, int, int]]] = {}  # (lag+o, from, to, hold, press)
    weighed = 0
    for k, (f0, f1) in enumerate(holds):
        a = int(np.searchsorted(x, f1 - within - hi - 1e-9))
        b = int(np.searchsorted(x, f1 + late - lo + 1e-9))
        weighed += b - a
        if weighed > WAIT_AGREE_PAIRS:
            return None
        for c in range(a, b):
            if no_button(kinds[c]):
                continue
            xc = float(x[c])
            o0 = max(lo, f1 - within - xc, f0 - xc)
            o1 = min(hi, f1 + late - xc)
            if before[c] >= 0:  # its kind pressed before it inside the hold: not the first
                o1 = min(o1, f0 - float(x[before[c]]) - 1e-6)
            if o0 <= o1:
                pairs.setdefault("" if pooled else kinds[c], []).append(
                    (f1 - xc, o0, o1, k, c))
    wins = []  # per button and first pair, the pairs whose lags lie in its band
    for ps in pairs.values():
        ps.sort()
        j = 0
        for i in range(len(ps)):
            j = max(j, i)
            while j + 1 < len(ps) and ps[j + 1][0] - ps[i][0] <= band:
                j += 1
            wins.append(ps[i:j + 1])
    if sum(len(w) ** 2 for w in wins) > WAIT_AGREE_WORK:
        return None  # presses crowded at one lag: a bound about the input (as the pairs')
    best = None
    for win in wins:
        got = _stabbed(win, 1, need, base, nearest)
        if got is not None and (best is None or got[0] > best[0]):
            best = got
    if best is None:
        return None
    _, o, inside = best
    if pooled and pooled_chance(sum(map(len, pairs.values())), len(inside), band,
                                hi - lo + within + late) > POOLED_CHANCE_MAX:
        return None
    d = [iv[0] for iv in inside.values()]
    return o, {k: iv[4] for k, iv in inside.items()}, (round(min(d) - o, 3),
                                                        round(max(d) - o, 3))


def pooled_chance(pairs: int, agree: int, band: float, span: float) -> float:
    """The expected number of sets of `agree` of `pairs` (hold, press) lags lying within
    `band` of each other by chance, the lags spread evenly over `span` (a recording frozen
    by an edit resumes at no press: its lag is anywhere in the reach searched): C(n, k) *
    k * (band / span) ** (k - 1), the chance k uniform points spread at most `band`. A
    null model of the agreement, not a threshold fitted to a game: the more presses a run
    holds near its holds' ends and the wider the offsets searched, the closer the lags must
    agree, or the more holds must."""
    if agree < 2 or pairs < agree or span <= 0:
        return 0.0 if agree >= 2 and pairs >= agree else 1.0
    return math.comb(pairs, agree) * agree * min(1.0, band / span) ** (agree - 1)


def _stabbed(ivs: list, at: int, need: int, base: float, nearest: bool):
    """Of the offset intervals `ivs` (tuples holding an interval's first offset at index
    `at`, its last at `at` + 1 and its hold at `at` + 2), the offset that the most holds'
    intervals hold (one interval a hold), `need` at least: ((count, -distance to `base`), the
    offset, {hold: its interval}), or None. The offset: the nearest to `base` when `nearest`
    (a moderator's), else the middle of the offsets at which they agree; of equal counts the
    nearest to `base`, then the first. `lag_agreed` and `_agreed` both ask this."""
    best = None
    for first in ivs:
        p = first[at]
        inside: dict[int, tuple] = {}
        for iv in ivs:
            if iv[at] <= p <= iv[at + 1] and iv[at + 2] not in inside:
                inside[iv[at + 2]] = iv
        if len(inside) < need:
            continue
        a0 = max(iv[at] for iv in inside.values())
        a1 = min(iv[at + 1] for iv in inside.values())
        o = min(max(base, a0), a1) if nearest else (a0 + a1) / 2
        key = (len(inside), -abs(o - base))
        if best is None or key > best[0]:
            best = (key, o, inside)
    return best


def _wait(f0: float, f1: float, x: np.ndarray, kinds: list[str], c: int, at: float,
          offset: float, agreed: int = 0, lags: tuple[float, float] = (0.0, 0.0)) -> GameWait:
    """The GameWait of hold f0..f1 ended by press `c` expected at `x[c] + at`."""
    return GameWait(round(f0, 3), round(f1, 3), round(float(x[c]) + at, 3), kinds[c],
                    round(offset, 4), agreed, lags,
                    round(float(x[c - 1]) + at, 3) if c > 0 else None)


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


def _settled(change: np.ndarray, last: int) -> int:
    """The last held frame of a still stretch ending at `last`, past up to `NOISE_FRAMES`
    frames of at most `NOISE_POINTS` changed points right before a larger change: the
    codec's, not the game's (Human Cannonball in H.264: 1 point at 25.40 s, then the shot's
    22 at 25.44 s, its FIRE's reaction; the scan's hold ends at 25.52 s, the MJPEG
    recording's sync picture at 25.44 s)."""
    k = last
    while k - last < NOISE_FRAMES and k + 2 < len(change) and \
            0 < change[k + 1] <= NOISE_POINTS:
        k += 1
    return k if k + 1 < len(change) and change[k + 1] > NOISE_POINTS else last


def _pressed_at(x: np.ndarray, kinds: list[str], button: str, lo: float,
                hi: float) -> int | None:
    """The first press of `button` expected from video time `lo` to `hi`, or None."""
    for c in range(int(np.searchsorted(x, lo - 1e-9)), int(np.searchsorted(x, hi + 1e-9))):
        if kinds[c] == button:
            return c
    return None


