"""A sped-up video found from its dropped frames, on a game whose picture alternates on every
console frame (no offset needed).

A video sped up at a constant frame rate (the corpus' `speed` kinds; ffmpeg's `setpts` then
`fps`) drops one console frame in every P video frames: the content plays 1/P faster than
the frames' clock, so the log's actions, stamped on the real clock, drift against it by
+100/P %. `repeats.py` finds the slowed twin (a frame shown twice: no change at all); a
dropped frame of a moving picture is one larger change, which a game's own motion hides.

Not on a game that draws its objects on alternate console frames (Asteroids' flicker: the
picture changes on every frame of a 60 fps capture, ~1,000 points of 4,096). There, two
consecutive console frames differ by a whole set of objects and two frames two apart by
their motion alone: where a console frame is dropped, the change collapses to a few
percent of its neighbours' (a dip). On the corpus' Asteroids runs sped up 2, 4 and 6 %,
27, 54 and 56 such dips, every one of them on one lattice of period 50, 25 and 16.67
frames; on every genuine and otherwise tampered run of the corpus and QA s26/s27 (472 runs
with Asteroids' own) at most 77 % of a run's dips sit on any one lattice.

The test (`drop_period`), on the whole picture's change per frame:
- a dip: a frame whose change is more than none (none is a repeat: `repeats.py`) and under
  DIP_SHARE of both its neighbours';
- at least MIN_DIPS of them, LATTICE_SHARE of which lie within a frame of one lattice
  phi + m P (the largest such P: its halves hold the same dips; a P too long to report is
  no drift, not its half's), P between MIN_PERIOD frames and 100 / `sync_drift_pct`;
- the lattice's slots between its first and last dip FILL_SHARE full (a flicker that comes
  and goes leaves holes, a game's own dips no lattice), spanning SPAN_SHARE of the footage.

Only where every video frame is a whole number of console frames (`console_frames`: 60, 30,
20 fps of the 60 Hz game; `cadence.CLOCK_HZ`). A capture at another rate samples the console
frames on a beat: at 22 fps (11/30 of 60 Hz) frame i shows console frame floor(i * 30 / 11),
steps of 2 and 3 console frames repeating every 11 video frames, and a step of 2 puts two
frames of one parity side by side on a lattice of period 11, as a dropped frame in every 11
would: QA s34's Earthworld, honest RealVideo files at 22 fps (ms stamps, 22.0001 fps by the
frame index: the container's clock is right), read a `sync.drift` of +9.09 % (46 and 52
dips, every one on that lattice; T3). Such a capture sped up is a capture at another rate,
its dips on that rate's beat: the lattice cannot tell the two apart. On every cached run of
the wide set, corpus v2 and QA s28-s34 the test found a lattice on the three Asteroids
speed-ups (60 fps) and the two Earthworld files alone.
"""

from __future__ import annotations

import numpy as np

from .cadence import CLOCK_HZ
from .records import SyncAnalysis, SyncFinding
from .signals import FrameSignals
from .stats import unique_sorted

RULE = "sync.drift"
DIP_SHARE = 0.35      # a dip's change is under this share of both neighbours' changes
MIN_DIPS = 20         # Asteroids sped up 2 % over 40 s: 27
LATTICE_SHARE = 0.9   # of the dips, at least this share on one lattice (the rest at most 0.77)
FILL_SHARE = 0.5      # of the lattice's slots between its first and last dip, this share hold one
SPAN_SHARE = 0.25     # ... and those dips span this share of the footage at least
MIN_PERIOD = 10.0     # frames: a dropped frame in every 10 is a 10 % speed-up
MAX_GUESSES = 3       # a gap between two dips spans up to this many periods (dips lost)
BEAT_TOL = 0.01       # console frames per video frame this near a whole number: no beat
# (59.94 fps: 1.001, a console frame missed in every 1,000 video frames, 0.1 %: no drift)


def console_frames(fps: float) -> bool:
    """Whether each video frame of a capture at `fps` is a whole number of console frames
    of the game's clock (no beat between the two: see the module's docstring)."""
    if fps <= 0:
        return False
    k = CLOCK_HZ / fps
    return round(k) >= 1 and abs(k - round(k)) <= BEAT_TOL


def dips(change: np.ndarray) -> np.ndarray:
    """Frames whose change is more than none and under DIP_SHARE of both neighbours'."""
    c = np.asarray(change, np.int64)
    if len(c) < 3:
        return np.zeros(0, int)
    mid = c[1:-1]
    low = (mid > 0) & (mid < DIP_SHARE * np.minimum(c[:-2], c[2:]))
    return np.nonzero(low)[0] + 1


def _on_lattice(x: np.ndarray, p: float) -> np.ndarray:
    """Which of the frames `x` lie within a frame of the lattice phi + m p, phi their
    circular mean phase."""
    ang = np.exp(2j * np.pi * np.mod(x, p) / p)
    phi = float(np.angle(ang.mean())) / (2 * np.pi) * p
    r = np.mod(x - phi + p / 2, p) - p / 2
    return np.abs(r) <= 1.0


def drop_period(change: np.ndarray, max_period: float) -> tuple[float, int] | None:
    """(P, dips on the lattice) when the footage drops one console frame in every P video
    frames (see the module's docstring), else None."""
    x = dips(change).astype(float)
    if len(x) < MIN_DIPS:
        return None
    d = np.diff(x)
    # (a period too long to report is a candidate too: its halves hold its dips as well)
    top = MAX_GUESSES * (max_period + 1)
    cands = sorted({float(g) / j for g in unique_sorted(d) for j in range(1, MAX_GUESSES + 1)
                    if MIN_PERIOD - 1 <= g / j <= top}, reverse=True)
    for p in cands:  # the largest period that holds the dips: its halves hold them too
        for _ in range(2):  # the mean period of the gaps regular at p (16 and 17: 16.67)
            k = np.clip(np.round(d / p), 1.0, float(MAX_GUESSES))
            regular = np.abs(d - k * p) <= 1.5  # (a frame each side: 49 and 51 at 50.04)
            if not regular.any():
                break
            p = float(d[regular].sum() / k[regular].sum())
        on = _on_lattice(x, p)
        if on.mean() < LATTICE_SHARE:
            continue
        xs = x[on]
        span = float(xs[-1] - xs[0])
        slots = max(1.0, round(span / p))
        p = span / slots  # the period the first and last dips on it measure
        on = _on_lattice(x, p)
        xs = x[on]
        if on.mean() < LATTICE_SHARE or len(xs) < MIN_DIPS or \
                len(xs) < FILL_SHARE * (slots + 1) or span < SPAN_SHARE * len(change):
            continue
        return (p, len(xs)) if MIN_PERIOD <= p <= max_period else None
    return None


def drop_drift(a: SyncAnalysis, run_s, sig: FrameSignals, th) -> list[SyncFinding]:
    """A `sync.drift` for a video sped up by dropped frames, when the analysis `a` reports no
    drift already (its own, from the fit, is measured against the reactions)."""
    if any(f.rule == RULE for f in a.findings) or len(sig) < 3 or \
            not console_frames(float(sig.fps)):
        return []
    found = drop_period(np.asarray(sig.picture_change), 100.0 / max(th.sync_drift_pct, 1e-6))
    if found is None:
        return []
    period, n = found
    pct = round(100.0 / period, 2)
    last = max((float(x) for x in run_s if np.isfinite(x)), default=0.0)
    return [SyncFinding(
        RULE, f"the video runs {pct:.1f} % faster than the log's clock: one console frame "
        f"in every {period:.2f} video frames is missing, evenly through the footage ({n} "
        "frames where the game's alternating picture changes by a few percent of its "
        "neighbours' change: two frames of one parity side by side), as a video sped up at "
        "a constant frame rate shows", float(sig.times[0]), float(sig.times[-1]), 0.0, last,
        percent=pct)]
