"""A sped-up or slowed video read from the game's seconds timer (`pace.py`'s last fallback:
no offset, no animation line needed).

Many games draw a clock that counts seconds of game time: Private Eye's, Pitfall's, Boxing's
and Skiing's. Its digit changes once every 60 frames of the 60 Hz console, so the tile that
holds it starts changing on a grid of exactly `fps` video frames in an honest recording of
any frame rate, and of fps / speed frames in a video sped up or slowed at a constant frame
rate. QA s15's private_eye-speed35 (+3.5 %) shows no line in the whole picture's change on
either recorder (the strongest 3x the median power; 3.2x at 60 fps on the genuine run) and
no reaction is read (no offset singled out): its clock tile starts changing every 28.96
frames at 30 fps (every 29.96 on the genuine run).

The test (`timer_speed`), per tile of the signals' grid:
- onsets: the frames where the tile changes and did not on the frame before;
- a tile with MIN_TICKS onsets or more, and at most BUSY times as many as a seconds timer
  would start (more: a tile where other things change);
- the period at a speed from SLOWEST to FASTEST that the onsets follow most closely (their
  phases' mean resultant, periods PHASE_STEP of a cycle apart over the run), then refined by
  a least-squares line through the onsets within a frame of that grid;
- a timer: onsets on the grid fill FILL of its slots between the first and the last, hold
  SHARE of the tile's onsets and span SPAN of the footage. The tile with the most such
  onsets reads the speed: fps / period.
Said (`pace.py`) when the speed is at least `sync_drift_pct` off; a timer within pace.HONEST
of the console's clock is honest. Measured (session 19) over 500 decoded signal sets (QA
s14-s18 and the corpus): a timer read on 34 honest runs (Boxing, Pitfall, Private Eye,
Skiing), -0.20 to +0.10 %; on 16 speed changes, each within 0.17 point of the truth.
Assumed: a tile that changes on a grid of 57-63 console frames through the run is a seconds
timer, or, on the slow side, a frame counter's 64-frame cycle (`readings`): a grid of 60.1-63
console frames is a seconds timer slowed 0.2-5 % or a 64-frame cycle sped up 1.6-6.5 %, one
period read two ways with opposite signs. QA s30's koolaid-speed26@r18divx (+2.6 %, 18 fps):
a tile on a grid of 18.71 video frames (62.38 console frames) was said as a seconds timer
slowed 3.82 %, the wrong sign; Kool-Aid Man's genuine runs show that tile on 64 frames (-6.25 %
as a timer: outside the speeds read, silent). Where both readings are speeds read, the log
tells which (`told`: the whole picture's fit of the presses stands at one speed and not at the
other); where it cannot, nothing is said (session 31).
"""

from __future__ import annotations

import numpy as np

from . import align, lookup, reactions
from .signals import FrameSignals

TICK_FRAMES = 60    # console frames per tick of a seconds timer
COUNTER_FRAMES = 64  # ... and of a frame counter's cycle, read on the same grid (`readings`)
TOLD_MARGIN = 2.0   # the log tells a reading when its fit stands sync_min_z and this many
                    # spreads over the other reading's fit
MIN_TICKS = 20      # onsets on the grid: 20 s of a timer
BUSY = 3.0          # a tile starting to change more than this many times a tick: no timer
FILL = 0.8          # of the grid's slots from the first onset to the last, this share hold one
SHARE = 0.5         # of the tile's onsets, this share lie on the grid
SPAN = 0.7          # the onsets on the grid span this share of the footage
PHASE_STEP = 1 / 16  # periods searched: the last tick's phase moves this share of a cycle
MAX_TICKS = 300     # the footage read: its first 300 ticks (5 min; the work grows with the
                    # ticks squared: 90 ms of CPU for a 300 s Pong run, 3 ms for a 40 s one)
SLOWEST = 0.95      # speeds read: from 5 % slower (a frame counter's 64-frame cycle reads
                    # 60 / 64 = 6.25 % slower: QA s17's Zaxxon, every genuine run -6.27 %) ...
FASTEST = 1.065     # ... to 6.5 % faster (no such cycle on that side: 56 frames, +7.1 %)
ON_GRID = 1.0       # an onset within this many frames of the grid is a tick
NEAR = 0.15         # ... of the coarse grid: within this share of a cycle


def _tile_period(onsets: np.ndarray, periods: np.ndarray, n: int
                 ) -> tuple[float, int] | None:
    """(period, ticks) of one tile's onsets when they follow a timer's grid, else None. The
    period searched is coarse (a sixteenth of a cycle over the run) and other changes of the
    tile pull its phase: the onsets within NEAR of a cycle of it give a line, and the onsets
    within ON_GRID frames of that line the final one."""
    ph = np.exp(2j * np.pi * onsets[None, :] / periods[:, None])
    sums = ph.sum(axis=1)
    i = int(np.argmax(np.abs(sums)))
    p = float(periods[i])
    r = (onsets - np.angle(sums[i]) / (2 * np.pi) * p) / p
    k = np.round(r)
    grid = np.abs(r - k) <= NEAR
    at = onsets.astype(float)
    for _ in range(2):
        if grid.sum() < MIN_TICKS or np.ptp(k[grid]) < 1:
            return None
        slope, icpt = np.polyfit(k[grid], at[grid], 1)
        grid = np.abs(at - (slope * k + icpt)) <= ON_GRID
    ticks = int(grid.sum())
    if ticks < MIN_TICKS or ticks < SHARE * len(onsets):
        return None
    slots = float(k[grid].max() - k[grid].min() + 1)
    if ticks < FILL * slots or float(np.ptp(at[grid])) < SPAN * n:
        return None
    return float(np.polyfit(k[grid], at[grid], 1)[0]), ticks


def timer_speed(sig: FrameSignals, console_hz: float) -> tuple[float, int, int] | None:
    """(speed, ticks, tile) the game's seconds timer reads (see the module's docstring), or
    None: no tile holds a timer. The frame index is the clock: the caller has checked that
    the frames are evenly timed (`pace._evenly_timed`)."""
    fps = float(sig.fps)
    n = len(sig)
    if fps <= 0 or n < 3:
        return None
    base = fps * TICK_FRAMES / console_hz  # video frames per tick at the console's clock
    n = min(n, int(MAX_TICKS * base))  # a speed changed at a constant frame rate is constant
    expected = n / base
    if expected < MIN_TICKS:
        return None
    step = PHASE_STEP * base / expected
    periods = np.arange(base / FASTEST, base / SLOWEST + step, step)
    on = np.asarray(sig.tiles[:n]) > 0
    starts = on[1:] & ~on[:-1]
    counts = starts.sum(axis=0)
    best: tuple[int, float, int] | None = None  # (ticks, period, tile)
    for j in np.nonzero((counts >= MIN_TICKS) & (counts <= BUSY * expected))[0]:
        got = _tile_period(np.nonzero(starts[:, j])[0] + 1, periods, n)
        if got is not None and (best is None or got[1] > best[0]):
            best = (got[1], got[0], int(j))
    if best is None:
        return None
    ticks, period, tile = best
    if not SLOWEST <= base / period <= FASTEST:
        return None  # refined out of the range searched: another cycle's
    return base / period, ticks, tile


def readings(speed: float) -> list[tuple[float, int]]:
    """(speed, console frames per tick) of a timer grid `timer_speed` read as `speed` (a
    seconds timer's 60 frames), for each cycle that reads a speed from SLOWEST to FASTEST:
    the seconds timer's, and a frame counter's 64-frame cycle (a slowed timer's grid only)."""
    out = []
    for frames in (TICK_FRAMES, COUNTER_FRAMES):
        s = speed * frames / TICK_FRAMES
        if SLOWEST <= s <= FASTEST:
            out.append((s, frames))
    return out


def told(sig: FrameSignals, run_s, speeds: list[float], min_z: float) -> float | None:
    """The one of `speeds` at which the whole picture's fit of the log's presses (`align.fit`
    at that speed alone) stands `min_z` spreads, TOLD_MARGIN spreads over every other's;
    None when the log cannot tell (too few presses shown, or all alike).
    Measured (session 31): Boxing's and Pitfall's slowed runs (-2.9 %, -2.5 %) stand 7.1-9.6
    at the timer's slowed reading, 3.2-4.1 at the 64-frame cycle's; koolaid-speed26 (3 of its
    22 presses shown) 3.2 and 3.0: nothing said."""
    e = np.asarray(sorted(float(x) for x in run_s if np.isfinite(x)), float)
    if len(e) < 2 or len(sig) < 2 or len(speeds) < 2:
        return None
    nov = reactions.novelty(sig)
    look = lookup.Lookup(sig, lookup.lookahead(sig, nov))
    fits = [align.fit(sig, nov, e, speeds=np.array([s]), look=look) for s in speeds]
    zs = [f.z if f is not None else -np.inf for f in fits]
    i = int(np.argmax(zs))
    f = fits[i]
    if f is None or f.z < min_z or \
            any(z > f.z - TOLD_MARGIN for j, z in enumerate(zs) if j != i):
        return None
    return float(speeds[i])
