"""The game's waits read from the lag its holds end at: rules (4) and (5) of core/sync/waits.py's
list (`lag_waits`), and the helpers both readers share (`_settled`, `_wait`, `_stabbed`). Split
from waits.py in session 42 (604 lines), no behaviour change; `waits.game_waits` takes these
holds after its own.

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
Footage frozen by an edit keeps its warnings here as in waits.py (its docstring's last
paragraph).
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
    covering_offsets,
    no_button,
    still_spans,
)
from .records import GameWait, SyncAnalysis
from .signals import FrameSignals
from .wait_presses import wait_presses

# A hold taken by the learned button ends at a lag (first changed frame - the press) within
# this many frames of the agreeing holds' lags: the game's reaction to its button.
WAIT_LAG_SLACK_FRAMES = 1
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
