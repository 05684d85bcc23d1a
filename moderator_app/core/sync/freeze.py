"""A frozen picture under the log's actions, found without trusting a fitted offset.

A frozen stretch (frames held while the log goes on pressing) was found only where the fit
explains the run: as a run of actions without reactions at the suggested offset. On games
where the whole picture singles out no offset (held-out Frostbite, Skiing, River Raid, Ms.
Pac-Man, Freeway, Space Invaders, Seaquest, Enduro, Asteroids) every freeze was silent, yet a
held picture needs no offset to be seen: not one point of the picture changes for seconds,
and the log presses during it at *every* offset at which the video covers the run.

The test (`frozen_findings`), per still stretch of the whole picture:
- it lies inside the footage (the picture moves before and after it: a game's own lead-in
  and its game-over screen stand still at the ends, Breakout's lost ball for 6 s);
- it lasts `Thresholds.sync_freeze_s` (3 s, the scan's `video.frozen` default);
- it holds `sync_freeze_actions` (2) actions at every offset considered: the suggested (or
  the moderator's) offset when there is one, else every offset at which the video covers
  the run from run_start to run_end (0 to video length - run length; none when the video is
  shorter than the run: a cut or a speed-up there is coverage's to say);
- it lasts `reactions.FROZEN_RATIO` times the longest other still stretch that holds an
  action at one of those offsets (a game that stands still under input on its own does so
  elsewhere too: Frostbite's shore, 2.03 s).
A keyframe inside a held picture re-quantises it (Ms. Pac-Man: 5 changed points on two
frames every 2 s), so still stretches joined by at most `NOISE_FRAMES` frames of at most
`NOISE_POINTS` changed points are one.
"""

from __future__ import annotations

import math

import numpy as np

from .reactions import FROZEN_RATIO
from .records import SyncAnalysis, SyncFinding
from .signals import FrameSignals

RULE = "sync.no_reaction"
NOISE_POINTS = 8   # of the 256x128 sample points: a keyframe's re-quantised still picture
NOISE_FRAMES = 2
OFFSET_STEPS_MAX = 20_000  # offsets tried when none is known (a frame apart; 5.5 min at 60 fps)


def still_spans(sig: FrameSignals) -> np.ndarray:
    """(m, 2) first and last frame of each stretch where the whole picture stands still,
    a keyframe's re-quantisation inside it forgiven (see the module's docstring)."""
    c = np.asarray(sig.picture_change)
    if not len(c):
        return np.zeros((0, 2), int)
    d = np.diff(np.r_[0, (c == 0).astype(np.int8), 0])
    spans = np.c_[np.nonzero(d == 1)[0], np.nonzero(d == -1)[0] - 1]
    out: list[list[int]] = []
    for a, b in spans:
        if out and a - out[-1][1] - 1 <= NOISE_FRAMES and \
                bool((c[out[-1][1] + 1:a] <= NOISE_POINTS).all()):
            out[-1][1] = int(b)
        else:
            out.append([int(a), int(b)])
    return np.asarray(out, int).reshape(-1, 2)


def _offsets(a: SyncAnalysis, sig: FrameSignals, e: np.ndarray,
             run_duration_s: float | None) -> np.ndarray:
    """The offsets the test must hold at: the one the analysis uses, else every offset (a
    frame apart) at which the video covers the run; empty when it covers it at none."""
    if a.offset_used_s is not None:
        return np.array([float(a.offset_used_s)])
    run = max(float(e[-1]), float(run_duration_s or 0.0))
    video = float(sig.times[-1] - sig.times[0]) + 1.0 / max(sig.fps, 1e-6)
    room = video - run
    if not math.isfinite(room) or room < 0:
        return np.zeros(0)
    step = max(1.0 / max(sig.fps, 1e-6), room / OFFSET_STEPS_MAX)
    return np.arange(0.0, room + 1e-9, step)


def frozen_findings(a: SyncAnalysis, run_s, sig: FrameSignals, th,
                    run_duration_s: float | None = None) -> list[SyncFinding]:
    """`sync.no_reaction` findings for the held pictures the analysis `a` does not already
    report (see the module's docstring)."""
    e = np.asarray(sorted(float(x) for x in run_s if math.isfinite(x)), float)
    if len(e) < th.sync_freeze_actions or len(sig) < 3:
        return []
    spans = still_spans(sig)
    spans = spans[(spans[:, 0] > 0) & (spans[:, 1] < len(sig) - 1)] if len(spans) else spans
    if not len(spans):
        return []
    fps = max(sig.fps, 1e-6)
    length = (spans[:, 1] - spans[:, 0] + 1) / fps
    offs = _offsets(a, sig, e, run_duration_s)
    if not len(offs) or not (length >= th.sync_freeze_s).any():
        return []
    t = np.asarray(sig.times, float)
    v0, v1 = t[spans[:, 0]], t[spans[:, 1]] + 1.0 / fps
    speed = a.speed if a.offset_used_s is not None and a.speed > 0 else 1.0
    x = e / speed
    # actions inside each stretch at each offset: counts of x in [v - o) by binary search
    lo = np.searchsorted(x, v0[None, :] - offs[:, None] - 1e-9)
    hi = np.searchsorted(x, v1[None, :] - offs[:, None] - 1e-9)
    inside = hi - lo                      # (offsets, stretches)
    least, most = inside.min(axis=0), inside.max(axis=0)
    out = []
    for i in np.nonzero((length >= th.sync_freeze_s) & (least >= th.sync_freeze_actions))[0]:
        others = np.delete(np.arange(len(spans)), i)
        held = others[most[others] >= 1]
        longest = float(length[held].max()) if len(held) else 0.0
        if length[i] < FROZEN_RATIO * longest:
            continue
        f0, f1 = float(v0[i]), float(v1[i])
        if any(g.rule == RULE and g.video_start_s is not None
               and g.video_start_s - 1.0 <= f1
               and f0 - 1.0 <= (g.video_end_s if g.video_end_s is not None else g.video_start_s)
               for g in a.findings):
            continue  # already said, from the reactions
        one = len(offs) == 1
        r0 = r1 = None
        if one:
            k0, k1 = int(lo[0, i]), int(hi[0, i]) - 1
            r0, r1 = round(float(e[k0]), 3), round(float(e[k1]), 3)
        where = "at the offset used" if one else \
            f"at every offset from {offs[0]:.2f} to {offs[-1]:.2f} s at which the video covers the run"
        count = f"{int(least[i])}" if least[i] == most[i] else f"{int(least[i])} to {int(most[i])}"
        out.append(SyncFinding(
            RULE, f"the picture does not change for {length[i]:.1f} s while the log holds "
            f"{count} actions there ({where}; the longest other still stretch under an "
            f"action: {longest:.1f} s): a frozen or held picture",
            video_start_s=round(f0, 3), video_end_s=round(f1, 3), run_start_s=r0,
            run_end_s=r1, actions=int(least[i])))
    return out
