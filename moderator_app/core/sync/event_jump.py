"""A splice on a still screen, read from the picture's events at an offset the moderator gave
(session 20, issue 13, QA s19's 3-D Tic-Tac-Toe cuts and insertions, QA s18 L2).

When no stage of the analysis suggests an offset, the track, the stretch at chance and the
band's reading (`band_jump`) have nothing to test: on QA s19's 3-D Tic-Tac-Toe runs the tile
reactions (`track.supported`, 8x8) answer 0 of 7-13 presses on either side of a splice, at
the true offset and at the true offset plus the cut's length, because a blinking cursor
changes its tile every third frame whether or not a press moved it.

What the picture does show there is *where* it changes: a tile that starts changing after a
quiet spell (QUIET_S) is an event, a cursor arriving somewhere new, a mark placed, the computer
answering. A still game has a few dozen in a run (3-D Tic-Tac-Toe 11-20 in 40 s; Beam Rider
84-111, where this reading gives nothing). At the given offset, an event is *explained* by a
press expected at most EXPLAIN_S before it. Footage removed (inserted) at T leaves the events
before T explained at the offset and those after it explained at the offset minus (plus) the
removed (inserted) length, and no longer at the offset itself. Measured on the 4 QA s19
Tic-Tac-Toe splices at the true offset (events after the splice explained at the truth's
shift / at the offset): 9/10 and 3/10 (cut, 120 fps), 6/7 and 2/7 (cut, 23.976 fps), 6/8
(insertion, 120 fps); the fourth (insertion, 23.976 fps) 5/7, under the bar.

The search: every event as the first after a splice, every shift of at least MIN_SHIFT_S up to
MAX_SHIFT_S (a twentieth of a second apart: under a third of the explaining window). Kept
when the events after it are explained at the shift far beyond chance (a binomial tail under
MAX_TAIL, with the chance of an event being explained at all: presses x EXPLAIN_S / the
video's length), most of them (MIN_AFTER_SHARE), MIN_ONLY_SHIFT of them at the shift and not
at the offset, at most MAX_ONLY_OFFSET at the offset alone, and the events before it are
explained at the offset (MIN_BEFORE, half of them), and the offset read within EXPLAIN_S of
itself does not explain the events after it nearly as well (`offset_near`). The splice is
the split that explains the most events (before at the offset, after at the shift). Among equals, footage removed is
dated by the latest (the events the shift explains start at the splice; a splice moves the
picture itself, the cursor jumps, an event explained at neither offset, so one of those right
before it, SPLICE_NEAR_S, is taken as the splice), footage inserted by the earliest (the
events right after the last one the offset explains are the other attempt's). The offset and the shift are
the moderator's and the events' own: a run that suggests an offset is read by the track.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from . import splices
from .records import SyncAnalysis, video_order
from .signals import FrameSignals

RULE = "sync.offset_jump"
THRESHOLD = 2          # changed sample points in a tile that count as it changing
QUIET_S = 0.3          # ... after this long without a change in that tile: an event
MERGE_S = 0.1          # events closer than this are one (120 fps: each picture twice)
# A still screen's events: at most this many a second (3-D Tic-Tac-Toe 0.34-0.45; Breakout
# 1.1-1.2, whose insertion was read as 23.2 s inserted at 11.2 s, truth 4 s at 14.68 s;
# Beam Rider, Phoenix, Air Raid 2-6): where a moving picture makes more, chance explains them.
MAX_EVENTS_PER_S = 0.8
EXPLAIN_S = 0.35       # an event this long after a press is its reaction (Tic-Tac-Toe: 9-250 ms)
MIN_SHIFT_S = 1.0      # a shorter jump moves the presses within their own reactions
MAX_SHIFT_S = 30.0
SHIFT_STEP_S = 0.05
MIN_EVENTS = 5         # events after the splice, and explained at the shift, at least
MIN_AFTER_SHARE = 0.7
MIN_ONLY_SHIFT = 4     # events after it explained at the shift and not at the offset
MAX_ONLY_OFFSET = 1    # ... and at the offset and not at the shift, at most
# ... and the offset explains at most this share of the events after it (or inside inserted
# footage): Breakout genuine at 30 fps had 12 of 17 explained at +19.2 s, but 10 at the offset
MAX_AFTER_OFFSET_SHARE = 0.4
MIN_BEFORE = 3         # events before it explained at the offset (and half of them)
SPLICE_NEAR_S = 2.0   # an unexplained event this close before the splice found is its own
MAX_TAIL = 1e-3        # binomial tail of the explained events after it, at chance
# ... and the offset given, read within EXPLAIN_S of it, explains fewer of those events than
# the shift does, by more than this (`offset_near`): else they are the offset's own
NEAR_MISSING = 1


def events(sig: FrameSignals) -> np.ndarray:
    """Video times of the picture's events: a tile changing after QUIET_S without a change
    (the first frame has nothing before it), events within MERGE_S of the previous one kept
    as one."""
    n = len(sig)
    if n < 2 or sig.fps <= 0:
        return np.zeros(0)
    active = sig.tiles > THRESHOLD
    w = max(2, int(round(QUIET_S * sig.fps)))
    cs = np.vstack([np.zeros((1, active.shape[1]), np.int64),
                    np.cumsum(active, axis=0, dtype=np.int64)])
    k = np.arange(n)
    recent = cs[k] - cs[np.maximum(0, k - w)]
    onset = active & (recent == 0)
    onset[0] = False
    t = np.asarray(sig.times, float)[onset.any(axis=1)]
    if not len(t):
        return t
    return t[np.r_[True, np.diff(t) > MERGE_S]]


def explained(ev: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Per event: a press expected (sorted times `x`) at most EXPLAIN_S before it."""
    j = np.searchsorted(x, ev + 1e-6) - 1
    out = np.zeros(len(ev), bool)
    ok = j >= 0
    out[ok] = x[j[ok]] >= ev[ok] - EXPLAIN_S
    return out


def binom_tail(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p)."""
    return float(sum(math.comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k, n + 1)))


def find(ev: np.ndarray, x: np.ndarray, video_s: float) -> tuple[float, float] | None:
    """(video time of the splice, shift in s) that the events `ev` show for the presses
    expected at `x` (sorted, at the given offset), or None."""
    n = len(ev)
    if n < MIN_BEFORE + MIN_EVENTS or len(x) == 0 or video_s <= 0 or \
            n > MAX_EVENTS_PER_S * video_s:
        return None
    p = min(1.0, len(x) * EXPLAIN_S / video_s)
    ex0 = explained(ev, x)
    c0 = np.r_[0, np.cumsum(ex0)]
    best: tuple[tuple[int, int, float], float, float, int, int] | None = None
    shifts = np.round(np.arange(-MAX_SHIFT_S, MAX_SHIFT_S + 1e-9, SHIFT_STEP_S), 2)
    s = np.arange(MIN_BEFORE, n - MIN_EVENTS + 1)
    b = c0[s]
    before_ok = (b >= MIN_BEFORE) & (2 * b >= s)
    if not before_ok.any():
        return None
    for d in shifts[np.abs(shifts) >= MIN_SHIFT_S]:
        exd = explained(ev, x + d)
        cd = np.r_[0, np.cumsum(exd)]
        only_d = np.r_[0, np.cumsum(exd & ~ex0)]
        only_0 = np.r_[0, np.cumsum(ex0 & ~exd)]
        # the events after it: from the splice on (removed), after the inserted footage
        a = np.searchsorted(ev, ev[s] + max(float(d), 0.0) - 1e-9)
        na = n - a
        ad = cd[n] - cd[a]
        # inserted footage is another attempt's: the offset explains its events by chance
        mid = a - s
        ok = before_ok & (na >= MIN_EVENTS) & (ad >= MIN_EVENTS) & (ad >= MIN_AFTER_SHARE * na) \
            & (only_d[n] - only_d[a] >= MIN_ONLY_SHIFT) & (only_0[n] - only_0[a] <= MAX_ONLY_OFFSET) \
            & (c0[n] - c0[a] <= MAX_AFTER_OFFSET_SHARE * na) \
            & (c0[a] - c0[s] <= np.maximum(1, MAX_AFTER_OFFSET_SHARE * mid))
        for i in np.flatnonzero(ok):
            tail = binom_tail(int(ad[i]), int(na[i]), p)
            if tail > MAX_TAIL:
                continue
            key = (int(b[i] + ad[i]), int(s[i]) if d < 0 else -int(s[i]), -tail)
            if best is None or key > best[0]:
                best = (key, float(ev[s[i]]), float(d), int(a[i]), int(ad[i]))
    if best is None:
        return None
    at, d = best[1], best[2]
    if offset_near(ev[best[3]:], x, best[4]):
        return None
    # the splice's own event (the picture jumps) is explained at neither offset, so the split
    # before it explains as many: it is kept when it comes right before (SPLICE_NEAR_S)
    k = int(np.searchsorted(ev, at - 1e-9))
    if d < 0 and k > MIN_BEFORE and ev[k - 1] >= at - SPLICE_NEAR_S and not ex0[k - 1] and \
            not explained(ev[k - 1:k], x + d)[0]:
        at = float(ev[k - 1])
    return at, d


def offset_near(after: np.ndarray, x: np.ndarray, count: int) -> bool:
    """Does the offset given, read up to EXPLAIN_S earlier or later, explain all but
    NEAR_MISSING of the `count` events `after` a splice that its shift explains? Then the
    shift does not single those events out: they follow the offset's own presses, with a
    reaction of the game's a little slower than EXPLAIN_S or a moderator's offset a few
    frames off (a moderator's offset is rarely exact), and the shift explains them by
    chance, the best of ~1,160 tried. The wide set's bank_heist-genuine2@r60h264bf8avi
    (session 44, at the truth's offset, genuine): 5 of 5 events after 32.92 s explained at
    +1.65 s (binomial tail 5.5e-4, under MAX_TAIL), 4 of the 5 at +0.05 to +0.35 s: a false
    insertion. A splice's events after it follow another offset, which the given one does
    not reach within a window: the still-screen model of tests/sync/test_sync_event_jump.py
    (seeds 1-29) keeps every cut and insertion it placed (16 and 19)."""
    near = np.round(np.arange(-EXPLAIN_S, EXPLAIN_S + 1e-9, SHIFT_STEP_S), 2)
    return any(int(explained(after, x + o).sum()) >= count - NEAR_MISSING for o in near)


def jumps_at(run_s, sig: FrameSignals, offset_s: float, res: SyncAnalysis) -> SyncAnalysis | None:
    """`res` (an analysis that suggests no offset, measured at the moderator's `offset_s`)
    with the offset jump the picture's events show at that offset; None when they show none
    (or `res` already has one)."""
    if len(sig) < 2 or sig.fps <= 0 or not math.isfinite(offset_s) or \
            any(f.rule == RULE for f in res.findings):
        return None
    e = np.asarray(sorted(float(v) for v in run_s if math.isfinite(v)), float)
    if not len(e):
        return None
    t = np.asarray(sig.times, float)
    hit = find(events(sig), offset_s + e, float(t[-1] - t[0]))
    if hit is None:
        return None
    at, size = hit
    before = e[offset_s + e < at]
    after = e[offset_s + size + e >= at + max(size, 0.0)]
    run_a = float(before[-1]) if len(before) else float(e[0])
    run_b = float(after[0]) if len(after) else float(e[-1])
    f = splices.jump_finding(size, at, at + size if size > 0 else None, run_a, run_b)
    jump = replace(f, message=f.message + f" (read in the picture's events at the offset given, "
                   f"{offset_s:.3f} s)")
    found = sorted([*res.findings, jump], key=video_order)
    return replace(res, findings=found)
