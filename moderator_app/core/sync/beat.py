"""A sped-up or slowed video read from the beat of a fast console cycle against the video's
frame rate, its sign told by the log's presses (`pace.py`'s fallback, no offset needed).

`pace.py` reads the game's animation lines from 2 Hz up. A cycle close to the video's own
frame rate (or a multiple of it) aliases near 0 Hz instead: Othello's cursor blinks on the
console's 30 Hz (one cycle in 2 of its 60 Hz frames), so a 29.97 fps capture of an honest
run shows a beat of 0.03 Hz (16.7 s with the cursor changing on every frame, 16.7 s with no
change at all: QA s17's note on Othello), and the same run slowed 3.5 % (the cycle now at
28.95 Hz) beats at 1.02 Hz: 14 frames that change, 15 that do not, all through the run. A
beat's frequency is |m * fps - line * speed|, so it tells the speed's size, never its sign:
1.02 Hz is 30 Hz slowed 3.50 % or sped up 3.30 % (a sampled two-state picture runs the same
forwards and backwards). QA s17's othello-slow read nothing on either recorder (session 17).

The test (`beat_speed`):
- the strongest peak of the picture's change between BEAT_MIN_HZ and pace.MIN_HZ, standing
  `sync_pace_min_strength` times above the median power of the band above (pace's floor);
- its readings as an alias (m >= 1) of a console cycle of 2-8 frames at a speed within
  pace.MAX_DRIFT, at least `sync_drift_pct` off the console's clock: one per sign;
- the sign the log's presses tell: the moments where what changes on screen moves (the set
  of tiles that change differs from the last changing frame's: a cursor or a sprite moved,
  `_moves`) against the presses at each reading's speed, at the offset that explains most
  (`_explained`: a move from 0 to REACT_S after the press). The reading is said when it
  explains at least MIN_EXPLAINED presses, SIGN_RATIO times the other sign's count,
  HONEST_MARGIN more than the console's own clock (speed 1) explains and MIN_Z spreads more
  than chance does, in a picture whose moves are sparse (MAX_CHANCE): else nothing. On a
  busy picture (Pitfall: 92 moves in 40 s, half the time within REACT_S of one) every speed
  explains half the presses: the log cannot tell a sign there.
Measured (docs/DECISIONS.md, session 18): othello-slow@r2997prores 10 presses explained
at -3.5 % against 5 at +3.3 % and 7 at the console's clock; @r30vfr1080 8, 5 and 6.
"""

from __future__ import annotations

import numpy as np

from .signals import FrameSignals
from .stats import median

BEAT_MIN_HZ = 0.3    # below: a beat slower than a few cycles in a 20-40 s run
REACT_S = 0.3        # a press moves what it moves within this (Othello: 26-243 ms)
MIN_EXPLAINED = 6    # presses a sign's reading must explain ...
SIGN_RATIO = 1.5     # ... this many times the other sign's ...
HONEST_MARGIN = 2    # ... and this many more than the console's own clock explains ...
MIN_Z = 3.0          # ... and this many spreads above what chance explains ...
MAX_CHANCE = 0.25    # ... in a picture where at most this share of the time is within
                     # REACT_S before a move (denser moves explain any press by chance)
OFFSET_STEP_S = 0.01  # the offsets tried, this far apart
MAX_CELLS = 4_000_000  # offsets x presses looked up at most (the step widens beyond)


def beat_line(times: np.ndarray, change: np.ndarray, fps: float, min_strength: float,
              min_seconds: float, min_hz: float) -> tuple[float, float] | None:
    """(Hz, strength) of the strongest peak between BEAT_MIN_HZ and `min_hz` when it stands
    `min_strength` times above the median power from `min_hz` to the Nyquist frequency."""
    n = len(times)
    if fps <= 0 or n < 3 or n / fps < min_seconds:
        return None
    k = np.arange(n)
    if float(np.max(np.abs(times - times[0] - k / fps))) > 0.5 / fps:
        return None  # not evenly timed: a spectrum over the index is no clock
    x = np.asarray(change, np.float64)
    x = x - x.mean()
    if not np.any(x):
        return None
    size = 1 << int(np.ceil(np.log2(n * 8)))
    power = np.abs(np.fft.rfft(x * np.hanning(n), size)) ** 2
    freq = np.fft.rfftfreq(size, 1.0 / fps)
    above = power[(freq >= min_hz) & (freq <= fps / 2)]
    low = np.nonzero((freq >= BEAT_MIN_HZ) & (freq < min_hz))[0]
    if len(above) < 3 or len(low) < 3:
        return None
    floor = float(median(above))
    i = int(low[np.argmax(power[low])])
    if floor <= 0 or i in (low[0], low[-1]) or power[i] < min_strength * floor:
        return None  # no peak, or the band's edge (a slower change's skirt)
    return float(freq[i]), float(power[i] / floor)


def _moves(sig: FrameSignals) -> np.ndarray:
    """Video times of the frames whose changing tiles differ from the last changing frame's
    (what changes on screen moved: a cursor, a sprite), ascending."""
    on = np.asarray(sig.tiles) > 0
    busy = np.nonzero(on.any(axis=1))[0]
    if len(busy) < 2:
        return np.zeros(0)
    moved = np.any(on[busy[1:]] != on[busy[:-1]], axis=1)
    return np.asarray(sig.times, float)[busy[1:][moved]]


def _chance(moves: np.ndarray, t0: float, t1: float) -> float:
    """The share of the footage's time within REACT_S before a move: the chance that a press
    at a random moment is followed by one."""
    if t1 <= t0 or not len(moves):
        return 0.0
    gaps = np.diff(np.concatenate(([t0], moves)))
    return float(np.minimum(gaps, REACT_S).sum() / (t1 - t0))


def _explained(moves: np.ndarray, run_s: np.ndarray, speed: float, t0: float,
               t1: float) -> int:
    """The most presses followed within REACT_S by a move, over the offsets that put the
    first press in the footage (video time = offset + run time / speed)."""
    if not len(moves) or not len(run_s):
        return 0
    lo, hi = t0 - float(run_s[0]) / speed, t1 - float(run_s[0]) / speed
    step = max(OFFSET_STEP_S, (hi - lo) * len(run_s) / MAX_CELLS)
    offs = np.arange(lo, hi + step, step)
    best = 0
    for part in np.array_split(offs, max(1, len(offs) // 512)):
        x = part[:, None] + run_s[None, :] / speed
        j = np.searchsorted(moves, x)
        nxt = moves[np.minimum(j, len(moves) - 1)]
        hit = (j < len(moves)) & (nxt - x <= REACT_S)
        best = max(best, int(hit.sum(axis=1).max()))
    return best


def beat_speed(sig: FrameSignals, run_s, readings, console_hz: float, min_strength: float,
               drift_pct: float, min_seconds: float, min_hz: float
               ) -> tuple[float, float, float, int, int, int] | None:
    """(speed, beat Hz, strength, frames per cycle, presses explained, the other sign's) of
    the video against the console's clock read from a beat (see the module's docstring), or
    None. `readings(f, fps, console_hz)`: pace's (speed, k, m) of a line at f Hz."""
    times = np.asarray(sig.times, float)
    fps = float(sig.fps)
    got = beat_line(times, sig.picture_change, fps, min_strength, min_seconds, min_hz)
    if got is None:
        return None
    f, strength = got
    cands = [(s, k) for s, k, m in readings(f, fps, console_hz)
             if m >= 1 and abs(s - 1.0) * 100.0 >= drift_pct]
    slower = [c for c in cands if c[0] < 1.0]
    faster = [c for c in cands if c[0] > 1.0]
    if not slower or not faster:
        return None  # a beat's two signs: both must be readings, for the log to choose
    run = np.asarray([x for x in run_s if np.isfinite(x)], float)
    run.sort()
    moves = _moves(sig)
    t0, t1 = float(times[0]), float(times[-1])
    chance = _chance(moves, t0, t1)
    if chance > MAX_CHANCE:
        return None
    # the speeds of each sign that one line reads (one cycle each): the nearest to 1
    s_lo = max(c[0] for c in slower)
    s_hi = min(c[0] for c in faster)
    lo, hi = _explained(moves, run, s_lo, t0, t1), _explained(moves, run, s_hi, t0, t1)
    honest = _explained(moves, run, 1.0, t0, t1)
    (s, n), other = ((s_lo, lo), hi) if lo >= hi else ((s_hi, hi), lo)
    spread = np.sqrt(max(len(run) * chance * (1.0 - chance), 1e-9))
    if n < MIN_EXPLAINED or n < SIGN_RATIO * other or n < honest + HONEST_MARGIN or \
            (n - len(run) * chance) / spread < MIN_Z:
        return None
    k = next(c[1] for c in cands if c[0] == s)
    return s, f, strength, k, n, other
