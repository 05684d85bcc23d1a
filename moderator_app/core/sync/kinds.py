"""The offset from the kind of input the game answers first, when the log names its inputs.

Why: a game answers some buttons sooner than others, and the fit (`fit.refine`: the median
of the supporting reactions, less one input latency for all) sits on the buttons whose
reactions it sees most. Centipede (ale-py, QA session 15, H1; 50 fps MPEG-2 TS): FIRE, UP and
DOWN change the picture 0.002-0.017 s after the press, the wand moves 0.058-0.101 s after
RIGHT or LEFT; the reactions seen were mostly RIGHT's, and the suggestion was 2.48 frames
late (confidence 0.64). An offset is the video time of run_start, so no kind of input may
react before it: each kind with KIND_MIN_ACTIONS or more is fitted on its own between
KIND_REACH_S before the suggestion and a frame before it. When one kind's reactions single
out an earlier offset (KIND_MIN_SUPPORT of them and KIND_SHARE of the kind's actions, more
than at the suggestion, on every novelty) and gain more there than random sets of as many
actions do (`_beyond_chance`), the suggestion moves to it; the reactions, the offset track
and the findings stay measured at the fit's offset (`SyncAnalysis.offset_used_s`).

What it does not do: date H1 itself. Its early kind is UP (4 presses, the only fast kind
with 3 or more): 2 reactions more 0.06 s earlier, where 2 of 19 random sets of 4 of the
run's presses gain as many (p ~ 0.15): chance could make that offset, so it is not taken.
`precede` dates it, counting the presses of every kind whose change precedes the offset.
The kinds are the log's words for the input (`formats.input_events.inputs`: a press's
button), never the picture's.
"""

from __future__ import annotations

import math

import numpy as np

from . import align
from .fit import _supported, refine
from .lookup import Lookup

# How far before the suggestion a kind's own offset is searched: the slowest kind seen
# answers 0.1 s after the fastest (Centipede's wand: 3-5 frames of a 60 Hz game after
# FIRE's shot), and Video Pinball's flipper steps that `fit.earliest` moves past are 0.19 s.
KIND_REACH_S = 0.15
KIND_MIN_ACTIONS = 3     # a kind with fewer actions is not fitted on its own
KIND_MIN_SUPPORT = 3     # ... nor trusted with fewer supporting reactions at its offset
KIND_SHARE = 0.6         # ... or fewer than this share of its actions
KIND_MIN_GAIN = 2        # reactions a kind gains before the suggestion, at least ...
KIND_NULL_SETS = 19      # ... and more than every one of this many random sets of actions
KIND_MAX_FITTED = 8      # the most numerous kinds fitted (an Atari stick has 18 inputs)


def kind_groups(kinds, n: int) -> list[np.ndarray]:
    """Indices of each kind's actions (kinds with KIND_MIN_ACTIONS or more), [] when the
    log names no two kinds (`kinds` None, or all one kind: the fit is that kind's)."""
    if kinds is None or len(kinds) != n:
        return []
    names, inv, counts = np.unique(np.asarray([str(k) for k in kinds]), return_inverse=True,
                                   return_counts=True)
    if len(names) < 2:
        return []
    # the most numerous first, ties by name; a hostile log's thousands of kinds cost
    # KIND_MAX_FITTED searches at most
    top = sorted((-int(c), i) for i, c in enumerate(counts) if c >= KIND_MIN_ACTIONS)
    return [np.nonzero(inv == i)[0] for _, i in top[:KIND_MAX_FITTED]]


def ahead_s(run_s, kinds, sig, *novelties, offset: float, speed: float, th,
            q: float = 50.0) -> float:
    """How far before `offset` (the reactions' offset, `fit.refine`) the suggestion goes:
    the earliest kind's own offset when one singles out an offset more than a frame before
    it (see the module), else 0. `novelties`: (novelty, its lookup) pairs, the learned one
    first, then the plain one (the tile weights learnt from the fit favour the tiles of the
    kind it sat on: a synthetic FIRE's shot tile weighed 0.5 and showed no reaction)."""
    run_s = np.asarray(run_s, float)
    if speed != 1.0 or sig.fps <= 0 or not novelties:
        return 0.0
    frame = 1.0 / sig.fps
    grid = offset - KIND_REACH_S + np.arange(0.0, KIND_REACH_S - frame + 1e-9, 0.5 / sig.fps)
    best: tuple[int, float, Lookup] | None = None
    rng = np.random.default_rng(len(run_s))
    for g in kind_groups(kinds, len(run_s)):
        found = _kind_offset(run_s[g], sig, novelties, grid, offset, speed, th, q)
        if found is not None and found[1] < offset - frame and \
                (best is None or (found[0], -found[1]) > (best[0], -best[1])) and \
                _beyond_chance(run_s, g, sig, novelties[-1][0], grid, offset, th, rng):
            best = found
    if best is None:
        return 0.0
    _, new, look = best
    # chance stands no such offset: the whole run must stand out there as at the fit's
    return offset - new if align.z_at(sig, look, run_s, speed, new) >= th.sync_min_z else 0.0


def _gain(sub, sig, nov, grid, offset, th) -> int:
    """How many more of these actions the best offset of `grid` supports than `offset`."""
    own = _supported(sig, nov, sub, offset, 1.0, th)
    return max(_supported(sig, nov, sub, float(o), 1.0, th) for o in grid) - own


def _beyond_chance(run_s, g, sig, nov, grid, offset, th, rng) -> bool:
    """The kind's actions gain more reactions before the suggestion than KIND_NULL_SETS
    sets of as many actions drawn at random from the run, every one of them, and at least
    KIND_MIN_GAIN: a kind's name, not chance, says it is answered sooner. On `nov`, the
    plain novelty (the learned weights favour the suggestion's reactions). The corpus'
    Boxing RIGHT: +1 (3 -> 4) where random sets of 6 gain -1 to +2 (-0.22 -> -1.73 frames
    without the test); Centipede's UP: +2 (0 -> 2), random sets of 4 at most +1."""
    gain = _gain(run_s[g], sig, nov, grid, offset, th)
    if gain < KIND_MIN_GAIN:
        return False
    for _ in range(KIND_NULL_SETS):
        pick = np.sort(rng.choice(len(run_s), len(g), replace=False))
        if _gain(run_s[pick], sig, nov, grid, offset, th) >= gain:
            return False
    return True


def _kind_offset(sub, sig, novelties, grid, offset, speed, th,
                 q) -> tuple[int, float, Lookup] | None:
    """(support, offset, lookup) of one kind's actions between `grid`'s offsets, or None.
    A kind that any novelty shows answered at `offset` as well as earlier is the fit's:
    with the plain novelty alone, the corpus' Pitfall FIRE went 5 -> 6 reactions 1.1
    frames earlier, where the learned one has 8 at the suggestion and no more before."""
    out: tuple[int, float, Lookup] | None = None
    for nov, look in novelties:
        own = _supported(sig, nov, sub, offset, speed, th)
        counts = [_supported(sig, nov, sub, float(o), speed, th) for o in grid]
        if not counts or (max(counts) <= own and own >= KIND_MIN_SUPPORT):
            return None  # answered at the suggestion, and no better before it
        if out is None and max(counts) > own:
            o = float(grid[int(np.argmax(counts))])
            new, support = refine(sub, sig, nov, o, speed, th, q)
            if support >= max(KIND_MIN_SUPPORT, KIND_SHARE * len(sub)) and support > own:
                out = (support, new, look)
    return out


def in_order(run_s, input_kinds) -> tuple[np.ndarray, list[str] | None]:
    """The finite run times in order (as the analysis reads them), and their kinds beside
    them (None when there are none, or not one for each time)."""
    t = [float(x) for x in run_s]
    if input_kinds is None or len(input_kinds) != len(t):
        return np.asarray(sorted(x for x in t if math.isfinite(x)), float), None
    pairs = sorted(((x, str(k)) for x, k in zip(t, input_kinds, strict=True)
                    if math.isfinite(x)), key=lambda p: p[0])
    return np.asarray([p[0] for p in pairs], float), [p[1] for p in pairs]


def part(input_kinds: list[str] | None, i0: int, i1: int) -> list[str] | None:
    """The kinds of actions i0 .. i1 - 1 (None when there are none)."""
    return None if input_kinds is None else input_kinds[i0:i1]
