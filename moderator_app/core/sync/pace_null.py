"""Null models for a speed read from the game's animation clock (core/sync/pace.py).

A spectral line read as a drift is said only where what an honest video would show does not
explain it as well: the line stands all through the footage, not in one part
(`in_both_halves`), and a neighbour that reads the same speed on the console's own frame
clock is the same evidence, not a sign of a cycle that comes and goes (`twin_of`). Session 32
(issue 13, QA s31 T1 + T5 and the wide set).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np

from .stats import median

MIN_HZ = 2.0  # below: a scene's slow changes, not an animation cycle (pace.py's too)
PAD = 8       # zero padding: the spectrum's bins are fps / (PAD * frames) apart (pace.py's)
# A line read stands in each half of the footage at least this many times that half's median
# power: noise's power at one frequency passes 8 x its median about once in 250
# (exponential: exp(-8 ln 2)); the speed runs pace reads from a line (corpus v2, QA s22-s31)
# stand 16.8 x (QA s22 frogger-speed4@r24, a fading line) to 4,503 x in their weaker half.
HALF_STRENGTH = 8.0
# The recorder's cadence: console_hz / fps as p / q in lowest terms (q up to CADENCE_Q, within
# CADENCE_TOL of the measured ratio) repeats every q video frames: lines at fps / q and its
# multiples, on the video's clock (`on_cadence`).
CADENCE_Q = 12
CADENCE_TOL = 1e-4
# Console cycles longer than pace.CYCLES whose line, exactly on the console's clock, is an
# honest reading (`long_honest`): 9 .. 32 frames, 6.67 .. 1.88 Hz at 60 Hz.
LONG_HONEST = range(9, 33)


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


def cadence_step(fps: float, console_hz: float) -> float | None:
    """fps / q, the recorder's cadence's fundamental (see CADENCE_Q), or None where a video
    frame holds a whole number of console frames (q = 1) or the ratio is no short fraction."""
    if fps <= 0 or console_hz <= 0:
        return None
    r = console_hz / fps
    fr = Fraction(r).limit_denominator(CADENCE_Q)
    if fr.denominator == 1 or abs(float(fr) - r) > CADENCE_TOL * r:
        return None
    return fps / fr.denominator


def on_cadence(hz: float, fps: float, console_hz: float, tol: float) -> bool:
    """Whether a line at `hz` lies (within `tol`) on a line of the recorder's cadence, a
    multiple of `cadence_step`. Why: a recorder whose rate is no whole share of the console's
    shows p console frames in q video frames, an uneven step repeating every q frames: lines
    at fps / q and its multiples at any speed of the video. A game cycle of k frames, k a
    divisor of p, falls there too at the console's clock (its line 60 / k = (p / k) fps / q,
    and so do its aliases), so a reading of such a line is no evidence either way. The wide
    set's asteroids-slow26@r16wmv (-2.6 %, 16 fps: 15 console frames in 4 video frames) shows
    the cadence at 4.000 Hz (666x the median), read as a 3- and a 5-frame cycle (20 and 12 Hz
    folded) at the console's own clock: the run was called honest and its -2.61 % line
    (2.781 Hz, 403x) went unsaid. `pace.cadence_cycle` (session 20) named one such cycle,
    the one whose own line is the cadence's (24, 40 fps); this is every line of it."""
    step = cadence_step(fps, console_hz)
    if step is None:
        return False
    j = round(hz / step)
    return j >= 1 and abs(hz - j * step) <= tol


def long_honest(hz: float, console_hz: float, tol: float) -> bool:
    """Whether a line at `hz` is, within `tol`, a console cycle of LONG_HONEST frames at the
    console's own clock. Why: a game's slow cycle (a blink, a piece's fall) is on the
    console's clock like its fast ones; pace reads drifts from 2-8-frame cycles only (a line
    near 3.75 Hz on a moving picture reads no 16-frame cycle: corpus Kangaroo's tempo), but a
    line exactly on such a cycle, and read as a fast cycle aliased at a drift, is the slow
    cycle's. QA s32's tetris-genuine@r32flv1 shows 3.7500 Hz (460x the median; its harmonics
    7.5, 11.25, 15 Hz 357x, 257x, 137x): a 16-frame cycle, or the 2-frame cycle aliased at
    32 fps and slowed 5.83 %, which was said (QA s32 T2). A drift's line between 1.9 and
    6.7 Hz lands this close to one of these 24 lines by chance about once in 25 (`tol` two
    bins of the padded spectrum, +-0.004 Hz on 40 s: 0.19 Hz of the 4.8); of the 16 speed
    runs pace reads (corpus v2, the wide set, QA s28-s32: 61 swept), none."""
    return any(abs(hz - console_hz / k) <= tol for k in LONG_HONEST)
