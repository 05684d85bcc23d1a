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
  lengths (3 and 4), whose ticks lie within a frame of an even grid (a resampled cycle: the
  longer gaps spread evenly), each read as a console cycle's line (pace's readings) at
  fps / (its mean gap);
- nothing when trains reading the console's own clock hold HONEST_SHARE of the gaps, or
  fewer than MIN_TOTAL gaps are in trains; else the speed that trains of at least two
  holding SHARE of the gaps read within AGREE, at least MIN_PCT off the console's clock,
  when no other speed is read so. A train whose rate a cycle under the Nyquist frequency
  explains is read as that cycle only, not as a faster one folded onto it by the frame rate
  (session 19, QA s19 M1: 3-D Tic-Tac-Toe's 8-frame cycle at 23.976 fps slowed 4 % reads
  7.5 Hz slowed 4.1 % or 30 Hz folded and sped up 3.9 %; Zaxxon's 10 Hz scroll slowed, or
  20 Hz folded and sped up).
Space Invaders' march, on no console cycle (its own tempo: a step every 3.95 frames at 60
fps), reads +0.8 to +1.6 % on its honest runs: MIN_PCT stands above it.
"""

from __future__ import annotations

import numpy as np

from .signals import FrameSignals

TICK_SHARE = 0.3   # a tick changes this share of the median changing frame's points or more
MIN_GAPS = 12      # gaps in a train
MIN_TOTAL = 60     # gaps in all trains
HONEST_SHARE = 0.25  # trains on the console's clock holding this share of the gaps: honest
SHARE = 0.8        # trains reading one speed hold this share of the gaps
AGREE = 0.01       # ... within this
MIN_PCT = 2.5      # a train's drift under this is no evidence (a game's own tempo: <= 1.7 %)


def trains(change: np.ndarray) -> list[tuple[float, int]]:
    """(mean gap in frames, gaps) of each even train of ticks (see the module's docstring)."""
    c = np.asarray(change)
    busy = np.nonzero(c > 0)[0]
    if len(busy) < MIN_GAPS + 1:
        return []
    ticks = np.nonzero(c >= TICK_SHARE * float(np.median(c[busy])))[0]
    d = np.diff(ticks)
    out: list[tuple[float, int]] = []
    i = 0
    while i < len(d):
        if not 2 <= d[i] <= 8:
            i += 1
            continue
        j, lo, hi = i, int(d[i]), int(d[i])
        while j + 1 < len(d) and 2 <= d[j + 1] <= 8 and \
                max(hi, int(d[j + 1])) - min(lo, int(d[j + 1])) <= 1:
            j += 1
            lo, hi = min(lo, int(d[j])), max(hi, int(d[j]))
        n = j - i + 1
        if n >= MIN_GAPS:
            pos = ticks[i:j + 2].astype(float)
            period = (pos[-1] - pos[0]) / n
            res = pos - (pos[0] + period * np.arange(n + 1))
            if float(res.max() - res.min()) < 2.0:  # within a frame of an even grid
                out.append((period, n))
        i = j + 1
    return out


def tick_speed(sig: FrameSignals, readings, console_hz: float, honest: float
               ) -> tuple[float, int, int] | None:
    """(speed, trains, gaps) the game's even trains of ticks read (see the module's
    docstring), or None. `readings(f, fps, console_hz)`: pace's (speed, k, m) of a line at
    f Hz; `honest`: a reading this close to 1 is the console's own clock."""
    fps = float(sig.fps)
    found = trains(sig.picture_change) if fps > 0 else []
    total = sum(n for _, n in found)
    if total < MIN_TOTAL:
        return None
    on_clock = 0
    reads: list[tuple[int, float, int]] = []  # (train, speed, gaps)
    for i, (period, n) in enumerate(found):
        rd = readings(fps / period, fps, console_hz)
        if any(m == 0 for _, _, m in rd):  # a cycle under the Nyquist frequency, shown as
            rd = [r for r in rd if r[2] == 0]  # it is, before a faster one folded onto it
        if any(abs(s - 1.0) < honest for s, _, _ in rd):
            on_clock += n
        else:
            reads += [(i, s, n) for s, _, _ in rd]
    if on_clock >= HONEST_SHARE * total:
        return None
    told: list[tuple[float, int, int]] = []  # (speed, trains, gaps) read by SHARE of the gaps
    for _, s0, _ in reads:
        group: dict[int, tuple[float, int]] = {}
        for i, s, n in reads:  # each train's reading nearest s0, within AGREE
            if abs(s - s0) <= AGREE and (i not in group or abs(s - s0) < abs(group[i][0] - s0)):
                group[i] = (s, n)
        w = sum(n for _, n in group.values())
        if len(group) >= 2 and w >= SHARE * total:
            told.append((sum(s * n for s, n in group.values()) / w, len(group), w))
    if not told or max(t[0] for t in told) - min(t[0] for t in told) > 2 * AGREE:
        return None  # none, or two speeds (two cycles' trains that read apart)
    speed, n, w = max(told, key=lambda t: t[2])
    if abs(speed - 1.0) * 100.0 < MIN_PCT:
        return None
    return speed, n, w
