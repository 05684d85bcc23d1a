"""A drift read from the picture alone that the log's presses contradict (session 47, QA s46 T2).

`pace.py`'s readers (the game's animation line, its evenly spaced ticks, a split two-frame
cycle, a beat, a seconds timer) read a speed from the picture with no offset: they exist for
games whose reactions the fit cannot line up (QA s15's Centipede). They assume the game
animates on whole console frames; a game whose own tempo is no such cycle reads as a drift.
QA s46's Berzerk (mode 1) at 39 fps moves on 6.79 and 5.80 console frames: trains of ticks
at 4.41 and 3.77 video frames, read as the 7- and 6-frame cycles sped up 3.1-4.4 %, together
+3.4 %, a whole-run `sync.drift` on a plain freeze (berzerk_m1-freeze@r39mts422) beside its
right `video.frozen`, at every offset; its genuine2 run at the same rate escaped by one
train reading the console's clock (17 of 69 gaps, the honest share 25 %).

The log can say otherwise. A video 3.4 % fast shows a press made 30 s into the run 1 s
earlier than the offset of the run's start puts it: such presses (the drift's line FAR_S or
more from the offset's) are answered at the offset, not along the drift's line, only where
the video runs at the log's speed. The test (`contradicted`), at the offset the analysis
used (the moderator's, else its suggestion; none: nothing is tested): the presses the drift
displaces FAR_S or more, counted answered by the per-action reader's frames
(`reactions.answering`) at the offset and along the drift's line, each beside the chance the
picture's own motion answers a press there (its answering frames' share over LOCAL_S either
side of the window, the window left out; session 46's scripts/answer_chance.py). The drift
is contradicted when the offset's answers stand MIN_Z spreads over their chance and the
line's no more than MAX_Z. Berzerk's freeze at 0.65 s: 10 such presses, 4 answered at the
offset (chance 0.9, 3.7 spreads), 1 along the line (chance 1.2, -0.2).

A sped-up video leaves no such answers at the offset of its start: its far presses show
along the line. A run whose offset no reading gives (`offset_used_s` None) is not tested.
With an offset given, `pace.pace_drift` also tests at the one the analysis suggests with
none given (review s47 R2: the freeze kept its drift at 0, 0.8 and 1.65 s, where the offset
given answers no press): a drift dropped with the offset left blank is dropped at any.
"""

from __future__ import annotations

import numpy as np

from . import reactions
from .freeze import no_button
from .records import SyncAnalysis
from .signals import FrameSignals

FAR_S = 0.5    # a press the drift's line puts this far from the offset's time is read ...
MIN_Z = 3.0    # ... its answers at the offset this many spreads over their chance ...
MAX_Z = 1.0    # ... and along the drift's line no more: the video runs at the log's speed
MIN_ANSWERED = 3  # fewer answers at the offset: too few presses to stand against the picture


def answered(sig: FrameSignals, ok: np.ndarray, expected: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray]:
    """(answered, chance) per expected video time: a frame of `ok` from EARLY_FRAMES before it
    to ANSWER_MAX_S after (the per-action reader's window), and the chance of one there from
    the share of `ok` frames over LOCAL_S either side, the window left out (1 - (1 - p)^w)."""
    t = np.asarray(sig.times, float)
    n = len(t)
    c = np.r_[0, np.cumsum(ok)]
    half = int(round(reactions.LOCAL_S * sig.fps))
    k0 = np.maximum(0, np.searchsorted(t, expected - 1e-6) - reactions.EARLY_FRAMES)
    k1 = np.minimum(n, np.searchsorted(t, expected + reactions.ANSWER_MAX_S + 1e-6))
    w = np.maximum(1, k1 - k0)
    lo, hi = np.maximum(0, k0 - half), np.minimum(n, k1 + half)
    p = ((c[hi] - c[lo]) - (c[k1] - c[k0])) / np.maximum(1, (hi - lo) - (k1 - k0))
    p = np.maximum(p, c[-1] / max(1, n))  # at least the whole footage's share of them
    return (c[k1] - c[k0]) > 0, 1.0 - (1.0 - p) ** w


def spreads(hit: np.ndarray, chance: np.ndarray) -> float:
    """How many spreads the answers stand over their chance (0 with no spread)."""
    sd = float(np.sqrt((chance * (1.0 - chance)).sum()))
    return (float(hit.sum()) - float(chance.sum())) / sd if sd > 0 else 0.0


def contradicted(a: SyncAnalysis, run_s, sig: FrameSignals, th, speed: float,
                 input_kinds=None) -> tuple[int, int, float, float] | None:
    """(presses read, answered at the offset, its spreads, the line's spreads) when the log's
    presses contradict a drift at `speed` (see the module's docstring), else None.
    `input_kinds`: beside `run_s`, each action's button, or None; a press of no button
    (`freeze.no_button`: NOOP) asks the game for nothing and is not read."""
    if a.offset_used_s is None or len(sig) < 2 or sig.fps <= 0 or speed <= 0:
        return None
    t = np.asarray(run_s, float)
    if input_kinds is not None and len(input_kinds) == len(t):
        t = t[[not no_button(str(k)) for k in input_kinds]]
    t = t[np.isfinite(t)]
    far = t[np.abs(t / speed - t) >= FAR_S]
    if len(far) == 0:
        return None
    o = float(a.offset_used_s)
    nov = reactions.novelty(sig)
    coarse, fine = reactions.answering(sig, nov, th.sync_reaction_z, th.sync_finer_reader)
    ok = coarse if fine is None else coarse | fine
    at, at_chance = answered(sig, ok, o + far)
    on, on_chance = answered(sig, ok, o + far / speed)
    z_at, z_on = spreads(at, at_chance), spreads(on, on_chance)
    if int(at.sum()) >= MIN_ANSWERED and z_at >= MIN_Z and z_on <= MAX_Z:
        return len(far), int(at.sum()), round(z_at, 2), round(z_on, 2)
    return None
