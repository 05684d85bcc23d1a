"""A sped-up or slowed video read from the game's evenly spaced ticks (`pace.py`'s fallback
for a picture whose cycles are too short-lived for a spectral line; no offset needed).

Zaxxon's fortress scrolls one step every 6 console frames (10 Hz) in stretches of a few
seconds, broken by the ship's moves and explosions: at 29.97 fps an honest capture shows a
scroll step every 3 frames exactly ("O..O..O"), the game slowed 3.5 % shows one every 3.11
frames: eight gaps of 3 and one of 4, evenly ("333333334"). The stretches start at their
own phases, so the picture's change holds no sharp line (Zaxxon's strongest: 40x at
0.3 Hz): QA s17's zaxxon-slow read nothing on either recorder. Each stretch is a clock.

The test (`tick_speed`), on the whole picture's change per frame:
- ticks: frames changing by TICK_SHARE of the median change or more;
- trains: runs of MIN_GAPS gaps or more between ticks, each 2-8 frames, of two neighbouring
  lengths (3 and 4; counted in console frames where a video shows each twice: `trains`), whose ticks lie within a frame of an even grid (a resampled cycle: the
  longer gaps spread evenly), each read as a console cycle's line (pace's readings) at
  fps / (its mean gap), and as the speeds its grid gaps `lo` .. `hi` read (`span`: a
  train of 12 gaps is no better than +-5 % at 8 frames a tick);
- nothing when trains reading the console's own clock hold HONEST_SHARE of the gaps, or
  fewer than MIN_TOTAL gaps are in trains; else the speed that trains of at least two
  holding SHARE of the gaps all allow (the middle of the speeds they all allow), at least
  MIN_PCT off the console's clock, when the trains place it within MAX_SPREAD (no other
  speed is allowed so). A train whose rate a cycle under the Nyquist frequency explains is
  read as that cycle only, not as a faster one folded onto it by the frame rate (session 19,
  QA s19 M1: 3-D Tic-Tac-Toe's 8-frame cycle at 23.976 fps slowed 4 % reads 7.5 Hz slowed
  4.1 % or 30 Hz folded and sped up 3.9 %; Zaxxon's 10 Hz scroll slowed, or 20 Hz folded
  and sped up).
Why the speeds a train allows, not its mean gap within 1 % (session 19, QA s19 M1): a
train's reading is no better than its whole frames. 3-D Tic-Tac-Toe sped up 4 % at 23.976
fps (a blink every 8 console frames, 3.074 video frames): fourteen trains of 12 gaps ("4 3
3 3 3 3 3 3 3 3 3 4", cut where a tick near a frame's edge shows a frame late: "4 2 4")
read 7.5 Hz sped up 0.95 %, one of 74 gaps +3.76 %, 2.8 points apart: nothing was said (and
+5.38 % through the fold before it was dropped). The speeds each allows: 12 gaps -0.10 ..
+6.56 %, 74 gaps +3.51 .. +4.35 %: all allow +3.51 .. +4.35 %, +3.93 % is said.
Space Invaders' march, on no console cycle (its own tempo: a step every 3.95 frames at 60
fps), reads +0.8 to +1.6 % on its honest runs: MIN_PCT stands above it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .signals import FrameSignals
from .stats import median

TICK_SHARE = 0.3   # a tick changes this share of the median changing frame's points or more
MIN_GAPS = 12      # gaps in a train
MIN_GAP, MAX_GAP = 2, 8  # a gap's video frames, at most one per console frame (`trains`)
MIN_TOTAL = 60     # gaps in all trains
HONEST_SHARE = 0.25  # trains on the console's clock holding this share of the gaps: honest
SHARE = 0.8        # trains reading one speed hold this share of the gaps
GRID_SLACK = 2.0   # a train's ticks lie within a frame of an even grid: residuals this close
# A train's speeds: the grid gaps that keep its ticks this close off an even grid (or its own
# residuals', if wider): a frame for the ticks' whole frames, and a tick near a frame's edge
# shown a frame late (QA s19's 3-D Tic-Tac-Toe: trains of 12 gaps 1.11 frames off the truth).
# Measured (tick_speed on 544 signal sets: corpus first and held-out, QA s14-s19): at 2.0
# held-out space_invaders-slow read nothing (its speeds -4.00 .. -1.89 %, more than MAX_SPREAD
# either side) nor QA s18's phoenix-slow; at 1.5 and 1.75 all nine speed changes read are
# within 0.7 points; at 1.0 (whole frames alone) M1's trains of 12 gaps miss the truth.
BOUND_SLACK = 1.75
EDGE = 1e-9        # a speed at a train's edge is among its speeds (rounding)
MAX_SPREAD = 0.01  # a speed the trains cannot place within this either side is not said
MIN_PCT = 2.5      # a train's drift under this is no evidence (a game's own tempo: <= 1.7 %)


@dataclass(frozen=True)
class Train:
    """An even train of ticks: its mean gap (frames), its gaps, and the least and largest
    grid gaps (`lo`, `hi`) that keep its ticks within BOUND_SLACK of an even grid (`span`)."""

    period: float
    gaps: int
    lo: float
    hi: float


def span(pos: np.ndarray, slack: float) -> tuple[float, float]:
    """The grid gaps P for which the ticks at frames `pos` lie within `slack` frames of each
    other off an even grid (their residuals pos - j * P): every pair i < j bounds P to
    (d - slack) / (j - i) .. (d + slack) / (j - i). A train's own uncertainty: its ticks
    are whole frames, and a tick near a frame's edge may show a frame late (3-D Tic-Tac-Toe's
    blink at 23.976 fps, "3 3 4 2 4 3 3"). Empty (lo > hi) when they stray further."""
    j = np.arange(len(pos))
    dj = (j[None, :] - j[:, None]).astype(float)
    dp = pos[None, :] - pos[:, None]
    up = np.triu(np.ones(dj.shape, bool), 1)
    return (float(np.max((dp[up] - slack) / dj[up])),
            float(np.min((dp[up] + slack) / dj[up])))


def trains(change: np.ndarray, hold: int = 1) -> list[Train]:
    """Each even train of ticks (see the module's docstring), in a video that shows each
    console frame `hold` times: gaps, their neighbouring lengths and the grid's slack are
    counted in console frames, `hold` video frames each, and a gap may be a console frame
    longer than MAX_GAP's (that cycle slowed). QA s19's 120 fps recorder shows each frame
    twice: 3-D Tic-Tac-Toe's 8-frame blink every 16 video frames, sped up 4 % gaps of 14
    and 16, slowed 17 and 18; with session 18's 2-8 frames, 1 apart, no train at all.
    At one video frame per console frame or fewer (`hold` 1) the bounds are session 18's."""
    g0, g1 = MIN_GAP * hold, MAX_GAP * hold + (hold if hold > 1 else 0)
    c = np.asarray(change)
    busy = np.nonzero(c > 0)[0]
    if len(busy) < MIN_GAPS + 1:
        return []
    ticks = np.nonzero(c >= TICK_SHARE * float(median(c[busy])))[0]
    d = np.diff(ticks)
    out: list[Train] = []
    i = 0
    while i < len(d):
        if not g0 <= d[i] <= g1:
            i += 1
            continue
        j, lo, hi = i, int(d[i]), int(d[i])
        while j + 1 < len(d) and g0 <= d[j + 1] <= g1 and \
                max(hi, int(d[j + 1])) - min(lo, int(d[j + 1])) <= hold:
            j += 1
            lo, hi = min(lo, int(d[j])), max(hi, int(d[j]))
        n = j - i + 1
        if n >= MIN_GAPS:
            pos = ticks[i:j + 2].astype(float)
            period = (pos[-1] - pos[0]) / n
            res = pos - (pos[0] + period * np.arange(n + 1))
            r = float(res.max() - res.min())
            if r < GRID_SLACK * hold:
                out.append(Train(period, n, *span(pos, max(BOUND_SLACK * hold, r))))
        i = j + 1
    return out


def _bounds(s: float, k: int, m: int, t: Train, fps: float, console_hz: float
            ) -> tuple[float, float]:
    """The speeds that reading (s, k, m) of train t takes over the train's gaps lo .. hi:
    s = (m * fps +- f) / line is linear in the train's frequency f = fps / P."""
    line = console_hz / k
    f = fps / t.period
    sign = 1.0 if m == 0 else (s * line - m * fps) / f
    a, b = ((m * fps + sign * fps / p) / line for p in (t.lo, t.hi))
    return min(a, b), max(a, b)


def tick_speed(sig: FrameSignals, readings, console_hz: float, honest: float
               ) -> tuple[float, int, int] | None:
    """(speed, trains, gaps) the game's even trains of ticks read (see the module's
    docstring), or None. `readings(f, fps, console_hz)`: pace's (speed, k, m) of a line at
    f Hz; `honest`: a reading this close to 1 is the console's own clock."""
    fps = float(sig.fps)
    hold = max(1, round(fps / console_hz))  # video frames a console frame shows
    found = trains(sig.picture_change, hold) if fps > 0 else []
    total = sum(t.gaps for t in found)
    if total < MIN_TOTAL:
        return None
    on_clock = 0
    reads: list[tuple[int, float, float, float, int]] = []  # (train, speed, lo, hi, gaps)
    for i, t in enumerate(found):
        rd = readings(fps / t.period, fps, console_hz)
        if any(m == 0 for _, _, m in rd):  # a cycle under the Nyquist frequency, shown as
            rd = [r for r in rd if r[2] == 0]  # it is, before a faster one folded onto it
        if any(abs(s - 1.0) < honest for s, _, _ in rd):
            on_clock += t.gaps
        else:
            reads += [(i, s, *_bounds(s, k, m, t, fps, console_hz), t.gaps)
                      for s, k, m in rd]
    if on_clock >= HONEST_SHARE * total:
        return None
    told: list[tuple[float, float, int, int]] = []  # (speed, spread, trains, gaps)
    # every speed some trains allow together is at an edge of one train's speeds
    for s0 in sorted({x for r in reads for x in r[2:4]}):
        group: dict[int, tuple[float, float, float, int]] = {}
        for i, s, lo, hi, n in reads:  # each train's reading whose speeds hold s0
            if lo - EDGE <= s0 <= hi + EDGE and \
                    (i not in group or abs(s - s0) < abs(group[i][0] - s0)):
                group[i] = (s, lo, hi, n)
        w = sum(g[3] for g in group.values())
        if len(group) >= 2 and w >= SHARE * total:
            lo = max(g[1] for g in group.values())
            hi = min(g[2] for g in group.values())
            told.append(((lo + hi) / 2, (hi - lo) / 2, len(group), w))
    if not told:
        return None
    # the speeds any such reading allows: two cycles' trains that read apart, or trains too
    # short to place it, leave them more than MAX_SPREAD either side
    lo = min(t[0] - t[1] for t in told)
    hi = max(t[0] + t[1] for t in told)
    if (hi - lo) / 2 > MAX_SPREAD:
        return None
    speed = (lo + hi) / 2
    if abs(speed - 1.0) * 100.0 < MIN_PCT:
        return None
    _, _, n, w = max(told, key=lambda t: t[3])
    return speed, n, w
