"""The log's presses as the wait readers see them (waits.py, wait_lag.py, ticking.py).

Both readers of the game's waits start from the same things: the log's inputs in order with
their kinds (a wait ends at a *button*), their times on the video's clock less the offset
(the run time over the analysis' speed when an offset is used), the frame times and rate,
whether an offset is used, and the reaction window a wait's ending press is expected in.
One place reads them, so the two readers cannot drift apart (session 38's review found the
preamble copied, `duplicates`: ticking.py ~ waits.py, 11 lines).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .kinds import in_order
from .records import SyncAnalysis
from .signals import FrameSignals


@dataclass(frozen=True, eq=False)
class WaitPresses:
    """`e`: the inputs' run times in order; `x`: the same over the speed (video seconds
    from the offset); `kinds`: each input's kind; `t`, `fps`: the frames' times and rate;
    `used`: an offset is used (a moderator's or the analysis' own); `within`:
    `Thresholds.sync_wait_reaction_s`."""

    e: np.ndarray
    x: np.ndarray
    kinds: list[str]
    t: np.ndarray
    fps: float
    used: bool
    within: float


def wait_presses(a: SyncAnalysis, run_s, sig: FrameSignals, th,
                 input_kinds=None) -> WaitPresses | None:
    """The presses of `run_s` as the wait readers need them; None with no kinds, no input or
    fewer than three frames (nothing a wait could be read from)."""
    if input_kinds is None or len(sig) < 3:
        return None
    e, kinds = in_order(run_s, input_kinds)
    if kinds is None or not len(e):
        return None
    used = a.offset_used_s is not None
    speed = a.speed if used and a.speed > 0 else 1.0
    return WaitPresses(e, e / speed, kinds, np.asarray(sig.times, float),
                       max(sig.fps, 1e-6), used, float(th.sync_wait_reaction_s))
