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
timer (a 64-frame cycle of a game sped up 2 % or more would read as slowed).
"""

from __future__ import annotations

import numpy as np

from .signals import FrameSignals

TICK_FRAMES = 60    # console frames per tick of a seconds timer
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
