"""Null models for a speed read from the game's animation clock (core/sync/pace.py).

A spectral line read as a drift is said only where what an honest video would show does not
explain it as well: the line stands all through the footage, not in one part
(`in_both_halves`), and a neighbour that reads the same speed on the console's own frame
clock is the same evidence, not a sign of a cycle that comes and goes (`twin_of`). Session 32
(issue 13, QA s31 T1 + T5 and the wide set).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .stats import median

MIN_HZ = 2.0  # below: a scene's slow changes, not an animation cycle (pace.py's too)
PAD = 8       # zero padding: the spectrum's bins are fps / (PAD * frames) apart (pace.py's)
# A line read stands in each half of the footage at least this many times that half's median
# power: noise's power at one frequency passes 8 x its median about once in 250
# (exponential: exp(-8 ln 2)); the speed runs pace reads from a line (corpus v2, QA s22-s31)
# stand 16.8 x (QA s22 frogger-speed4@r24, a fading line) to 4,503 x in their weaker half.
HALF_STRENGTH = 8.0


def in_both_halves(change, fps: float, hz: float) -> bool:
    """Whether the line at `hz` stands in each half of the footage, HALF_STRENGTH times the
    half's median power or more within the half's resolution (fps / its frames). Why: a
    video sped up or slowed runs at its speed all through, and so does the game's cycle on
    it; a cycle that comes and goes stands in one part only, and its line is no speed of the
    whole video. The wide set's elevator_action-genuine@r25h264avi (25 fps) read -3.35 %
    from 8.284 Hz (121x the median): 2.8x in its first half, 72.9x in its second."""
    x = np.asarray(change, np.float64)
    half = len(x) // 2
    for part in (x[:half], x[half:]):
        n = len(part)
        if n < 3 or fps <= 0:
            return False
        part = part - part.mean()
        size = 1 << int(np.ceil(np.log2(n * PAD)))
        power = np.abs(np.fft.rfft(part * np.hanning(n), size)) ** 2
        freq = np.fft.rfftfreq(size, 1.0 / fps)
        band = (freq >= MIN_HZ) & (freq <= fps / 2 - 2 * fps / n)
        floor = float(median(power[band])) if np.any(band) else 0.0
        near = np.abs(freq - hz) <= fps / n
        if floor <= 0 or not np.any(near) or float(power[near].max()) < HALF_STRENGTH * floor:
            return False
    return True


def console_speeds(hz: float, fps: float, console_hz: float, honest: float,
                   max_drift: float) -> list[float]:
    """The speeds at which the console's own frame line (console_hz, every frame's change),
    aliased by m times the frame rate, falls at `hz`, off the console's clock (an honest
    reading is the recorder's cadence or 0 Hz: the video's clock)."""
    out = []
    for m in range(1, 4):
        for sign in (1.0, -1.0):
            s = (m * fps + sign * hz) / console_hz
            if honest <= abs(s - 1.0) <= max_drift:
                out.append(s)
    return out


def twin_of(found: list[tuple[float, int, int]], fps: float, console_hz: float,
            honest: float, max_drift: float, agree: float) -> Callable[[float], bool]:
    """Whether a neighbour at hz is the console's frame line at one of `found`'s speeds (off
    the clock), within `agree`. Why: a video slowed by holding a console frame now and then
    moves the console's 60 Hz frame line by its factor, as it moves the game's cycles: QA
    s31's venture-slow38@r24mpeg1ts (-3.8 %) shows the 4-frame cycle at 9.570 Hz (830x the
    median: -3.8 % aliased, -4.3 % as a 6-frame cycle) and the frame line at 9.719 Hz (535x:
    60 x 0.962 - 48), 1.6 % apart. Read as a cluster of a cycle that comes and goes, the
    neighbour left 9.570 Hz not sharp and the run silent (QA s31 T5)."""
    speeds = [s for s, _, _ in found if abs(s - 1.0) >= honest]

    def twin(hz: float) -> bool:
        return any(abs(c - s) <= agree for c in console_speeds(hz, fps, console_hz, honest,
                                                               max_drift) for s in speeds)
    return twin
