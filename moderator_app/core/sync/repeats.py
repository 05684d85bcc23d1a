"""A slowed video found from its repeated frames, without a fitted offset.

A drift was found only through the fit (the reactions' line at another clock speed), so on
every game whose picture singles out no offset (held-out Skiing, Freeway, Asteroids, ...) a
slowed video was silent. Yet slowing a video at a constant frame rate (ffmpeg's `setpts`
then `fps`, the corpus' `slow` kind) shows the same frame twice, one frame in every P, evenly
through the footage: the content plays 1/P slower than the frames' clock, so the log's
actions, stamped on the real clock, drift against it by -100/P %. In a game whose picture
changes on every frame, such a repeat needs no offset to be seen.

The test (`repeat_drift`), on the whole picture's change per frame:
- a repeat is a frame with no changed point between two frames that change (a game's own
  still stretch, a pause, a held picture is no repeat);
- at least `MIN_REPEATS`, and they are nearly all the footage's frames without change
  (`OWN_SHARE`: a game that stands still on its own, one frame in four or more, hides the
  repeats among its own and tells nothing; Space Invaders slowed: 63 repeats among 21 %
  still frames, not said);
- their gaps are one period P or a few, give or take a frame (`REGULAR_SHARE` of them; the
  3 % slowdown repeats one frame in 34.33: gaps of 34 and 35; heavy compression leaves some
  repeats with a few changed points, and the gap around a lost repeat is two periods: 53 of
  77 repeats left by CRF 32), and those gaps cover `COVER_SHARE` of the footage (the whole
  video is slowed, not a stretch);
- P lies between `MIN_PERIOD` frames (a 10 % slowdown) and 100 / `sync_drift_pct` (a drift
  too small to report). River Raid's own still frames come every 2nd frame, Pong's every 8th:
  periods a game draws on its own are short; the periods of 10 frames or more on any genuine
  run of the corpus are irregular (at most 47 % of the gaps within a frame of the median).
A sped-up video drops frames instead; nothing here finds it (a dropped frame of a moving
picture is one larger change, which a game's own motion hides: measured, not found).
"""

from __future__ import annotations

import numpy as np

from .records import SyncAnalysis, SyncFinding
from .signals import FrameSignals
from .stats import unique_sorted

RULE = "sync.drift"
MIN_REPEATS = 20      # a 40 s video slowed 3 % repeats 77 frames
OWN_SHARE = 0.8       # of the footage's frames without change, at least this share are repeats
REGULAR_SHARE = 0.9   # of the gaps between repeats, this share within a frame of their median
COVER_SHARE = 0.8     # ... and those gaps cover this share of the footage
MIN_PERIOD = 10.0     # frames: a repeat in every 10 is a 10 % slowdown
MAX_LOST = 2          # repeats lost in a row (given changed points by compression) still bridged
# Repeats among a game's own still frames (`grid_period`): the frames without change that lie
# on one grid of a period P (within ON_GRID frames of it) fill GRID_FILL of its slots in each
# half of the footage, GRID_ALONE times as many as the same grid at any other phase, and
# GRID_Z spreads over the other phases' mean.
GRID_FILL = 0.5
GRID_ALONE = 2.0
GRID_Z = 6.0
ON_GRID = 1.0
PHASE_STEP = 1 / 16   # periods searched: the last slot's phase moves this share of a period
# ... not tried where more than this share of the frames is still: chance then fills 3 of 4
# slots of a 2-frame window, and 70 slots (a 40 s video slowed 2.6 %) all filled stand
# under GRID_Z spreads
MAX_STILL = 0.5
# ... and periods from GRID_MIN_PERIOD frames (a 6 % slowdown, pace.MAX_DRIFT): a game's own
# still frames can fall on a short grid of its clock (the wide set's seaquest-cut@r36ffv1,
# every 12 frames at 36 fps: 20 console frames, read -8.33 %)
GRID_MIN_PERIOD = 100 / 6


def repeats(sig: FrameSignals) -> np.ndarray:
    """Frames with no changed point between two frames that change (indexes, ascending)."""
    c = np.asarray(sig.picture_change)
    if len(c) < 3:
        return np.zeros(0, int)
    zero = c == 0
    iso = np.zeros(len(c), bool)
    iso[1:-1] = zero[1:-1] & ~zero[:-2] & ~zero[2:]
    return np.nonzero(iso)[0]


def repeat_period(sig: FrameSignals, max_period: float) -> tuple[float, int] | None:
    """(P, repeats) when the footage repeats one frame in every P frames evenly throughout
    (see the module's docstring), else None."""
    z = repeats(sig)
    if len(z) < MIN_REPEATS:
        return None
    still = int((np.asarray(sig.picture_change)[1:] == 0).sum())
    if len(z) < OWN_SHARE * still:
        return None
    d = np.diff(z).astype(float)

    def regular_at(p: float) -> tuple[np.ndarray, np.ndarray]:
        """The gaps of one period p or up to `MAX_LOST` + 1 (repeats lost), give or take a
        frame, and how many periods each spans."""
        k = np.clip(np.round(d / p), 1.0, MAX_LOST + 1.0)
        return np.abs(d - k * p) <= 1, k

    def fit(p: float) -> float:
        """The share of gaps regular at p, times the share of p's slots that hold a repeat:
        p / 2 makes every gap regular too, with half its slots empty."""
        regular, k = regular_at(p)
        return float(regular.mean() * regular.sum() / max(1.0, k[regular].sum()))

    # (a period too long to report is a candidate too: it must beat its own halves)
    top = (MAX_LOST + 1) * (max_period + 1)
    cands = {g / j for g in unique_sorted(d) for j in range(1, MAX_LOST + 2)
             if MIN_PERIOD - 1 <= g / j <= top}  # at most ~2,700, whatever the video
    if not cands:
        return None
    period = max(sorted(cands), key=fit)
    for _ in range(2):  # the mean period of the regular gaps
        regular, k = regular_at(period)
        period = float(d[regular].sum() / max(1.0, k[regular].sum()))
    regular, _k = regular_at(period)
    if regular.mean() < REGULAR_SHARE or d[regular].sum() < COVER_SHARE * (len(sig) - 1):
        return None
    if not MIN_PERIOD <= period <= max_period:
        return None
    return period, len(z)


def _on_grid(z: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Which slots x hold a still frame (of z, ascending) within ON_GRID frames."""
    return np.searchsorted(z, x + ON_GRID, side="right") > np.searchsorted(z, x - ON_GRID)


def _grid_fill(z: np.ndarray, n: int, period: float, phase: float) -> tuple[int, int, float]:
    """(slots filled, slots, spreads) of the grid phase + k period in frames 1 .. n - 1, each
    half of its slots filled GRID_FILL or more (a slowdown runs all through; else spreads 0).
    The spreads are over the same grid's fill at every other phase (shifted 2 .. P - 2
    frames): the footage's own still frames, by chance or on a cycle of their own, fill those
    as much. A game still every 8th frame fills a 40-frame grid at 5 phases alike: no
    slowdown's grid, which one phase alone fills."""
    k = np.arange(np.ceil((1 - phase) / period), np.floor((n - 1 - phase) / period) + 1)
    if len(k) < MIN_REPEATS:
        return 0, len(k), 0.0
    x = phase + k * period
    hit = _on_grid(z, x)
    filled, half = int(hit.sum()), len(k) // 2
    if min(hit[:half].mean(), hit[half:].mean()) < GRID_FILL:
        return filled, len(k), 0.0
    other = np.array([_on_grid(z, x + d).sum() for d in range(2, int(period) - 1)], float)
    if len(other) == 0 or filled < GRID_ALONE * other.max():
        return filled, len(k), 0.0
    c = min(max(float(other.mean()) / len(k), 0.5 / len(k)), 1 - 0.5 / len(k))
    return filled, len(k), (filled - c * len(k)) / float(np.sqrt(len(k) * c * (1 - c)))


def grid_period(sig: FrameSignals, max_period: float) -> tuple[float, int] | None:
    """(P, repeats on the grid) when the frames without change fall on one grid of a period
    P, GRID_MIN_PERIOD .. max_period, filling GRID_FILL of its slots in each half of the
    footage, GRID_ALONE times as many as the grid at any other phase and GRID_Z spreads over
    their mean (`_grid_fill`); else None. Why: `repeat_period` reads isolated repeats that
    are nearly all the still frames (OWN_SHARE); a game that stands still on its own now and
    then (a still frame beside a repeat makes a still pair, not an isolated one) hides them.
    The wide set's koolaid-slow26@letterbox (-2.6 %, 60 fps): 97 isolated repeats among 142
    still frames (12 still pairs, a 19-frame pause), silent; its still frames fill the slots
    of a 38.45-frame grid (-2.60 %), 5.3 % of its frames still. The period: the still
    frames' phases' mean resultant over periods PHASE_STEP apart over the run, the grid
    refined by least squares over the still frames within ON_GRID of it, then its multiples
    (a period's half holds the same resultant) told apart by their spreads."""
    c = np.asarray(sig.picture_change)
    n = len(c)
    z = np.nonzero(c[1:] == 0)[0] + 1
    rho = len(z) / max(1, n - 1)
    if len(z) < MIN_REPEATS or max_period < GRID_MIN_PERIOD or rho > MAX_STILL:
        return None
    periods = [GRID_MIN_PERIOD]
    while periods[-1] < max_period:
        periods.append(periods[-1] * (1 + PHASE_STEP * periods[-1] / n))
    p = np.asarray(periods)
    sums = np.concatenate([np.exp(2j * np.pi * z[None, :] / p[i:i + 256, None]).sum(axis=1)
                           for i in range(0, len(p), 256)])
    best: tuple[float, float, int, int] | None = None  # (spreads, period, filled, slots)
    for i in np.argsort(-np.abs(sums))[:3]:
        for j in (1, 2, 3):
            period, phase = float(p[i]) * j, float(np.angle(sums[i]) / (2 * np.pi) * p[i])
            if period > max_period * (1 + PHASE_STEP):
                break
            for _ in range(3):  # least squares over the still frames near the grid
                k = np.round((z - phase) / period)
                on = np.abs(z - phase - k * period) <= ON_GRID
                if on.sum() < MIN_REPEATS or np.ptp(k[on]) < 1:
                    break
                period, phase = (float(v) for v in np.polyfit(k[on], z[on].astype(float), 1))
            filled, slots, spreads = _grid_fill(z, n, period, phase)
            if slots and (best is None or spreads > best[0]):
                best = (spreads, period, filled, slots)
    if best is None:
        return None
    spreads, period, filled, slots = best
    if spreads < GRID_Z or filled < MIN_REPEATS or not GRID_MIN_PERIOD <= period <= max_period:
        return None
    return period, filled


def repeat_drift(a: SyncAnalysis, run_s, sig: FrameSignals, th) -> list[SyncFinding]:
    """A `sync.drift` for a video slowed by repeated frames, when the analysis `a` reports
    no drift already (its own, from the fit, is measured against the reactions)."""
    if any(f.rule == RULE for f in a.findings):
        return []
    longest = 100.0 / max(th.sync_drift_pct, 1e-6)
    found = repeat_period(sig, longest)
    how = "the picture changes on every other frame"
    if found is None:
        found = grid_period(sig, longest)
        how = "among the game's own still frames, on one grid"
    if found is None:
        return []
    period, n = found
    pct = round(-100.0 / period, 2)
    last = max((float(x) for x in run_s if np.isfinite(x)), default=0.0)
    return [SyncFinding(
        RULE, f"the video runs {abs(pct):.1f} % slower than the log's clock: one frame in "
        f"every {period:.2f} repeats the one before, evenly through the footage ({n} "
        f"repeats; {how}), as a video slowed at a constant frame rate shows",
        float(sig.times[0]), float(sig.times[-1]), 0.0, last, percent=pct)]
