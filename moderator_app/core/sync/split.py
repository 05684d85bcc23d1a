"""A sped-up or slowed video read from a two-frame cycle's line split in two (`pace.py`'s
fallback, no offset needed).

A game that draws some of its picture on every other console frame (Beam Rider: a 30 Hz
line, 462 times the picture's usual change on a genuine 120 fps capture) shows that cycle as
one line on the console's clock. A video sped up or slowed at a constant frame rate drops or
repeats a console frame every 1 / |speed - 1| frames, and each dropped or repeated frame
flips the two-frame cycle's phase: the line does not move, it splits into two lines of half
the power each, at 30 Hz * (1 + d) and 30 Hz * (1 - d) (QA s19's beam_rider-speed4 at 120
fps: 31.199 and 28.801 Hz, 192 times each, no line at 30 Hz). `pace.animation_speed` reads
each as a speed of its own, +4.0 % and -4.0 %, and says nothing: they disagree. The pair's
spread tells the size of the drift exactly; never its sign (a phase flip is one whichever
way it turns).

The sign is told where the recorder shows each console frame on `hold` >= 2 video frames
(120 fps of a 60 Hz console: 2): the phase flips are found in the picture's change summed
per console frame (where its alternation of large and small breaks), and a slowed video
shows a console frame held twice at its flips (a console frame with no change at all),
a sped-up one a frame dropped (a change as usual). Elsewhere (23.976 or 15 fps: a console
frame is not a whole number of video frames) nothing is said.

The test (`split_speed`):
- two lines standing `sync_pace_min_strength` times above the band's median power (pace's
  floor), within POWER_RATIO of each other's power, whose two-frame cycle readings are
  1 + d and 1 - d within SYMMETRY, d at least `sync_drift_pct`, at most pace.MAX_DRIFT;
- no line on the console's own clock (the caller: pace found no honest reading);
- the phase flips, at least MIN_FLIPS; a drift of d drops or holds d x the footage's console
  frames (E). A game's own held frame (a console frame with no change) breaks the
  alternation too: flips next to one (within a console frame) are the held ones, the others
  dropped ones. Faster: FLIPS_LOW E .. FLIPS_HIGH E flips no held frame explains
  (beam_rider-speed4@r120rgb3x: 84 of 141, E 96; the genuine run: 0 of 54); slower: at
  most OTHER_SHARE E of those and FLIPS_LOW E or more held ones (beam_rider-slow: 0 and
  140); else nothing.
"""

from __future__ import annotations

import numpy as np

from .signals import FrameSignals
from .stats import median

SYMMETRY = 0.002     # the two readings' deviations cancel within this
POWER_RATIO = 3.0    # the two lines' powers within this factor of each other
MIN_FLIPS = 10       # phase flips found, at least
FLIPS_LOW = 0.6      # flips that tell a sign: at least this share of the console frames
FLIPS_HIGH = 1.5     # a drift of d drops or holds (d x console frames), at most this share
OTHER_SHARE = 0.25   # slower: flips no held frame explains, at most this share of them
PEAKS = 12           # strongest peaks looked at


def _lines(x: np.ndarray, fps: float, min_strength: float, min_hz: float
           ) -> list[tuple[float, float]]:
    """(Hz, strength) of the strongest local peaks standing `min_strength` times above the
    median power of `min_hz` .. Nyquist (pace's spectrum: Hann window, 8x zero padding)."""
    n = len(x)
    size = 1 << int(np.ceil(np.log2(n * 8)))
    power = np.abs(np.fft.rfft((x - x.mean()) * np.hanning(n), size)) ** 2
    freq = np.fft.rfftfreq(size, 1.0 / fps)
    band = np.nonzero((freq >= min_hz) & (freq <= fps / 2 - 2 * fps / n))[0]
    if len(band) < 3:
        return []
    floor = float(median(power[band]))
    if floor <= 0:
        return []
    p = power[band]
    peak = band[1:-1][(p[1:-1] > p[:-2]) & (p[1:-1] >= p[2:])]
    peak = peak[power[peak] >= min_strength * floor]
    top = peak[np.argsort(power[peak])[::-1][:PEAKS]]
    return [(float(freq[i]), float(power[i] / floor)) for i in top]


def split_size(x: np.ndarray, fps: float, console_hz: float, min_strength: float,
               min_hz: float, readings, drift_pct: float, max_drift: float
               ) -> tuple[float, float, float] | None:
    """(d, Hz up, Hz down) of a two-frame cycle's line split into 1 + d and 1 - d, or None.
    `readings(f, fps, console_hz)`: pace's (speed, k, m) of a line at f Hz."""
    lines = _lines(np.asarray(x, np.float64), fps, min_strength, min_hz)
    best: tuple[float, float, float, float] | None = None  # (power, d, up, down)
    for i, (fa, pa) in enumerate(lines):
        for fb, pb in lines[i + 1:]:
            if max(pa, pb) > POWER_RATIO * min(pa, pb):
                continue
            for sa, ka, _ in readings(fa, fps, console_hz):
                for sb, kb, _ in readings(fb, fps, console_hz):
                    if ka != 2 or kb != 2 or abs((sa - 1) + (sb - 1)) > SYMMETRY:
                        continue
                    d = (abs(sa - 1) + abs(sb - 1)) / 2
                    if d * 100 < drift_pct or d > max_drift:
                        continue
                    up, down = (fa, fb) if sa > sb else (fb, fa)
                    if best is None or pa + pb > best[0]:
                        best = (pa + pb, d, up, down)
    return None if best is None else best[1:]


def per_console_frame(change: np.ndarray, hold: int) -> np.ndarray:
    """The picture's change summed per console frame: `hold` video frames each, starting at
    the phase where the change falls (a console frame's first video frame changes, the
    others repeat it)."""
    c = np.asarray(change, np.float64)
    phase = int(np.argmax([c[p::hold].sum() for p in range(hold)]))
    n = (len(c) - phase) // hold
    return c[phase:phase + n * hold].reshape(n, hold).sum(axis=1)


def flips(x: np.ndarray) -> np.ndarray:
    """Console frames where the two-frame cycle's alternation of larger and smaller change
    breaks (two steps the same way in a row), ascending."""
    step = np.sign(np.diff(x))
    return np.nonzero((step[1:] == step[:-1]) & (step[1:] != 0))[0] + 1


def whole_hold(fps: float, console_hz: float) -> int | None:
    """Video frames per console frame when each console frame is shown on a whole number
    (2 or more) of them (120 fps of a 60 Hz console: 2), else None: only then can the phase
    flips be told dropped from held (`split_sign`)."""
    hold = round(fps / console_hz) if console_hz > 0 else 0
    if hold < 2 or abs(fps / console_hz - hold) > 0.01:
        return None
    return hold


def split_sign(sig: FrameSignals, d: float, console_hz: float) -> tuple[int, int, int] | None:
    """(+1 faster or -1 slower, phase flips that tell it, console frames) or None: no whole
    number of video frames per console frame, or flips that tell neither way (see the
    module's docstring)."""
    fps = float(sig.fps)
    hold = whole_hold(fps, console_hz)
    if hold is None:
        return None
    x = per_console_frame(np.asarray(sig.picture_change), hold)
    at = flips(x)
    expected = d * len(x)  # console frames dropped or held by a drift of d
    if len(at) < MIN_FLIPS or expected < MIN_FLIPS:
        return None
    held = x == 0
    near = held.copy()
    near[1:] |= held[:-1]
    near[:-1] |= held[1:]
    at_held = int(near[at].sum())
    other = len(at) - at_held  # flips no held console frame explains: a dropped one
    if FLIPS_LOW * expected <= other <= FLIPS_HIGH * expected:
        return 1, other, len(x)
    if other <= OTHER_SHARE * expected and at_held >= FLIPS_LOW * expected:
        return -1, at_held, len(x)
    return None
