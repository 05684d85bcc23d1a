"""Footage inserted or removed, found from a clock the game draws, without a fitted offset.

On games whose picture moves on its own the fit finds no offset, so no offset jump either
(QA s15 H3: Private Eye's insertions, 4 s at 14.78 and 16.18 s, went unreported on both
recorders, also at the true offset). Many games draw a clock that counts seconds (Private
Eye's countdown, Pitfall's timer, Boxing's round clock): a tile of the picture that changes
once every 60 console frames, 1.000 s, on a fixed schedule through the whole run. Footage
from another moment carries that schedule at another phase: Private Eye's clock ticks at
.98 of each second before the insertion, at .10 inside it, at .98 again after it.

The test (`clock_shifts`), per tile of the sync grid:
- its change events (more than CLOCK_POINTS changed points; events within MERGE_FRAMES
  frames are one), CLOCK_MIN_EVENTS or more and at most one in every 10 frames;
- a clock: the median interval is 1 s within half a frame (`sync_pace_console_hz` frames;
  a sped-up or slowed video's clock is `pace.py`'s to read) and CLOCK_REGULAR of the
  intervals are one to three periods within MERGE_TOL frames;
- its events chained on that schedule (an event joins a chain one to three periods after the
  chain's last, within MERGE_TOL frames; other events start chains of their own: a digit's
  other changes, a screen redrawn);
- a shift: two chains of CLOCK_CHAIN events or more, one after the other, whose schedules
  differ by more than SHIFT_FRAMES frames. Its place is the span from the first chain's last
  event to the second's first: the footage changed between them;
- unless the tile shows no event for more than STOP_TICKS periods (a chain's reach) inside
  that span: the clock stopped, and a clock that restarts does so on the game's phase.
  QA s31's genuine Surround blinks a tile once a second four or five times after each point
  and is then still for 3.8-5 s: every restart stood 0.2-0.47 s off the last blink's
  schedule, four false jumps (session 32). A splice leaves the clock ticking up to the cut
  and from it (spans 0.13-1.73 s on every insertion found: Private Eye, Boxing, Pitfall,
  Skiing); an insertion of footage that shows no clock is not found this way.
Measured on every run of the corpus and of QA sessions 14-16 (docs/DECISIONS.md, session 17):
a clock's schedule never shifts on a genuine run; with a period other than 1 s, or chains of
two events, genuine Pong, Frostbite, Kung-Fu Master and Private Eye runs did.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np

from .records import SyncAnalysis, SyncFinding
from .signals import FrameSignals
from .stats import median

RULE = "sync.offset_jump"
CLOCK_POINTS = 2       # changed points in a tile that make an event (codec noise: 0-2)
MERGE_FRAMES = 3       # events this close are one (a digit redrawn over two frames)
MERGE_TOL = 1.5        # frames: an interval's tolerance around whole periods
CLOCK_MIN_EVENTS = 12  # a clock ticks through the run: 40 s of footage, 20-40 ticks
CLOCK_REGULAR = 0.6    # of the intervals, this share on the schedule
CLOCK_CHAIN = 3        # events of a schedule on each side of a shift
SHIFT_FRAMES = 3.0     # a schedule moved by more than this: not a frame's jitter
STOP_TICKS = 3        # no event for longer than this many periods (a chain's reach): stopped
SAID_S = 1.0           # an offset jump already said this close: not said twice


def _events(col: np.ndarray, times: np.ndarray, most: int | None = None) -> np.ndarray | None:
    """The times of a tile's change events: frames with more than CLOCK_POINTS changed
    points, each within MERGE_FRAMES of the last one kept merged into it; None when there
    are more than `most` (no clock: the caller's bound)."""
    return _merged(np.nonzero(col > CLOCK_POINTS)[0], times, most)


def _merged(ev: np.ndarray, times: np.ndarray, most: int | None) -> np.ndarray | None:
    """`_events` of the event frames `ev` (ascending), without a loop over every event (as
    numpy integers, Frogger's 64 tiles and 28,000 events were 5 % of an analysis). A run of
    events each within MERGE_FRAMES of the one before starts with a kept one; a run spanning
    no more than MERGE_FRAMES is that one alone, and a longer run keeps one at least every
    2 MERGE_FRAMES (the next kept is the first past the last kept + MERGE_FRAMES, and the run
    has an event within MERGE_FRAMES of that point): more than `most` at least is None at once.
    Only the runs of a tile with longer ones are walked, kept by kept."""
    if not len(ev):
        return np.zeros(0)
    starts = np.flatnonzero(np.r_[True, np.diff(ev) > MERGE_FRAMES])
    span = np.r_[ev[starts[1:] - 1], ev[-1]] - ev[starts]
    if most is not None and len(starts) + int(
            (np.maximum(span - MERGE_FRAMES, 0) // (2 * MERGE_FRAMES)).sum()) > most:
        return None
    if not (span > MERGE_FRAMES).any():
        return times[ev[starts]]
    nxt = np.searchsorted(ev, ev + MERGE_FRAMES, side="right").tolist()
    keep, i = [], 0
    while i < len(nxt):
        keep.append(i)
        if most is not None and len(keep) > most:
            return None
        i = nxt[i]
    return times[ev[np.asarray(keep)]]


def _is_clock(ts: np.ndarray, fd: float, tick: float) -> bool:
    d = np.diff(ts)
    near = d[(d > 0.4 * tick) & (d < 2.5 * tick)]
    if len(near) < CLOCK_MIN_EVENTS - 4 or abs(float(median(near)) - tick) > 0.5 * fd:
        return False
    m = np.round(d / tick)
    on = (m >= 1) & (m <= 3) & (np.abs(d - m * tick) <= MERGE_TOL * fd)
    return bool(on.mean() >= CLOCK_REGULAR)


def _chains(ts: np.ndarray, fd: float, tick: float) -> list[list[float]]:
    out: list[list[float]] = []
    for x in ts:
        for c in reversed(out[-3:]):
            d = x - c[-1]
            m = round(d / tick)
            if 1 <= m <= 3 and abs(d - m * tick) <= MERGE_TOL * fd:
                c.append(float(x))
                break
        else:
            out.append([float(x)])
    return out


def _stopped(ts: np.ndarray, t0: float, t1: float, fd: float, tick: float) -> bool:
    """Whether the tile holds no event for longer than a chain reaches (STOP_TICKS periods)
    somewhere from `t0` to `t1`: a clock that stopped there (a game's blink between rounds),
    whose restart's phase says nothing of the footage."""
    inside = ts[(ts >= t0 - 1e-9) & (ts <= t1 + 1e-9)]
    return bool(len(inside) >= 2 and np.diff(inside).max() > STOP_TICKS * tick + MERGE_TOL * fd)


def clock_shifts(sig: FrameSignals, console_hz: float) -> list[tuple[float, float, float]]:
    """(last event before, first event after, shift in s) of every place where a clock the
    game draws changes its schedule (see the module's docstring), in video seconds, one per
    place (tiles of one clock agree), ascending."""
    n = len(sig.times)
    if n < 3 or sig.fps <= 0:
        return []
    fd, tick = 1.0 / sig.fps, 60.0 / console_hz
    times = np.asarray(sig.times, float)
    found: list[tuple[float, float, float]] = []
    # each tile's event frames from one pass over the signals, tile by tile in memory
    events = np.ascontiguousarray((sig.tiles > CLOCK_POINTS).T)
    for j in range(sig.tiles.shape[1]):
        ts = _merged(np.flatnonzero(events[j]), times, n // 10)
        if ts is None or len(ts) < CLOCK_MIN_EVENTS or len(ts) > n / 10 or \
                not _is_clock(ts, fd, tick):
            continue
        chains = sorted((c for c in _chains(ts, fd, tick) if len(c) >= CLOCK_CHAIN),
                        key=lambda c: c[0])
        for a, b in pairwise(chains):
            if b[0] <= a[-1]:
                continue  # two schedules at once: a clock and another tick in one tile
            if _stopped(ts, a[-1], b[0], fd, tick):
                continue  # the clock stopped: it restarts on the game's phase, not the footage's
            d = b[0] - a[-1]
            off = d - round(d / tick) * tick
            if abs(off) > SHIFT_FRAMES * fd:
                found.append((a[-1], b[0], off))
    out: list[tuple[float, float, float]] = []
    for f in sorted(found, key=lambda f: f[1] - f[0]):  # the narrowest span of each place
        if not any(f[0] <= g[1] and g[0] <= f[1] for g in out):
            out.append(f)
    return sorted(out)


def clock_jumps(a: SyncAnalysis, run_s, sig: FrameSignals, th) -> list[SyncFinding]:
    """`sync.offset_jump` findings where a clock the game draws shifts its schedule, unless
    the analysis `a` has one within SAID_S of its span already (from the reactions, with
    its size; an insertion's spans both of its ends)."""
    said = [(f.video_start_s, f.video_end_s if f.video_end_s is not None else f.video_start_s)
            for f in a.findings if f.rule == RULE and f.video_start_s is not None]
    out = []
    for t0, t1, off in clock_shifts(sig, th.sync_pace_console_hz):
        if any(t0 - SAID_S <= e and s <= t1 + SAID_S for s, e in said):
            continue  # an insertion said from the reactions spans both of its ends
        r0 = r1 = None
        if a.offset_used_s is not None and a.speed > 0:
            r0 = round((t0 - float(a.offset_used_s)) * a.speed, 3)
            r1 = round((t1 - float(a.offset_used_s)) * a.speed, 3)
        out.append(SyncFinding(
            RULE, f"a clock the game draws (a part of the picture that changes once a second "
            f"on a fixed schedule) changes its schedule by {abs(off):.2f} s between "
            f"{t0:.2f} and {t1:.2f} s: the footage there comes from another moment "
            "(footage removed or inserted)", video_start_s=round(t0, 3),
            video_end_s=round(t1, 3), run_start_s=r0, run_end_s=r1))
    return out
