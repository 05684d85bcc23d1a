"""Inserted footage the offset track cannot see: the picture's own splices name the shift.

Footage inserted into a video moves every action after it by the insertion's length. The
track finds that jump when each side singles out its offset on its own (Breakout, Pong,
Tennis); a short side in a picture that moves everywhere does not (Kangaroo, held out: 6
actions before 4 s of another attempt, 16 after; the whole run fitted at the offset after
the insertion, +240.9 frames from run_start's, confidence 0.64, and no finding). Those 6
actions, searched at every shift, line up with some shift as well as shuffled ones do. But
inserted footage starts and ends with a splice, a change of the whole picture, and the two
splices are exactly the insertion's length apart: the shifts worth trying are the distances
between the picture's largest changes (SPLICE_PEAKS), a few dozen instead of 7,200. For each
pair (ta, tb), the actions on one side of it (the head, shown before ta, or the tail, after
tb) are moved by tb - ta and their answers in the player's tiles (core/sync/stretch.py)
scored as `track.stretch_jump` does: at the rest's answer rate against their chance. The
same side at every other shift within NEAR_S must score lower, the pair's shift
sync_min_null_z_splice of their spreads above their mean, and the side must be answered
more often there than at the offset used. (Not the side's gaps shuffled, as
`track.stretch_jump` tests: 6 actions have 120 orders of 5 gaps, and a shuffle keeps the
first action; Kangaroo's shuffles scored up to 5.27 against the real 5.32, its nearby
shifts at most 3.36.)

When no pair of the largest changes explains a side, the pairs with a frame that stands out
from its own second at either end (`lone_peaks`) are tried the same way: a game whose own
changes dwarf a splice's (Kaboom!'s flashes) keeps its splices out of the largest changes.
Only then, so a run whose insertion the largest changes found keeps it.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import splices, stretch
from .signals import FrameSignals

SPLICE_PEAKS = 12   # the picture's largest changes tried as an insertion's ends
PEAK_SEP_S = 0.25   # changes closer than this are one (a splice spans a frame or two)
# Inserted footage shorter than this is not looked for: a shift under a second moves the
# actions within their own reactions' motion (a sprite still moving after a press).
MIN_SIZE_S = 1.0
MAX_SIZE_S = 60.0   # as track.JUMP_RANGE_S
MIN_MOVED = 4       # actions on the moved side, at least (Kangaroo's head: 6)
# The null: the same side at shifts up to NEAR_S either side of the pair's, but not within
# NEAR_MIN_S of it (the answers' own window and the sprite's motion after an answer), a
# 60th of a second apart.
NEAR_S = 5.0
NEAR_MIN_S = 0.3
_NEAR = np.arange(-NEAR_S, NEAR_S + 1e-9, 1 / 60)
_NEAR = _NEAR[np.abs(_NEAR) > NEAR_MIN_S]


@dataclass(frozen=True)
class Insertion:
    start_s: float   # video time of the first splice
    end_s: float     # ... and of the second: the inserted footage lies between
    head: bool       # the moved actions are those before it (else those after it)
    moved: np.ndarray  # bool per action: shown `size` earlier (head) or later (tail)
    z: float         # the moved side's score over the nearby shifts', in their spreads

    @property
    def size_s(self) -> float:
        return self.end_s - self.start_s


def splice_peaks(sig: FrameSignals) -> np.ndarray:
    """Frame indices of the SPLICE_PEAKS largest picture changes, PEAK_SEP_S apart."""
    pc = np.asarray(sig.picture_change, float)
    sep = max(1, int(round(PEAK_SEP_S * sig.fps)))
    out: list[int] = []
    for k in np.argsort(-pc, kind="stable").tolist():
        if pc[k] <= 0 or len(out) >= SPLICE_PEAKS:
            break
        if all(abs(k - j) > sep for j in out):
            out.append(k)
    return np.array(sorted(out), int)


# ... and only in a video where such frames are rare: at most LONE_PER_MIN a minute of video,
# besides an insertion's own two. A game whose own rhythm makes them names no splice: Space
# Invaders' march (a step every 0.53 s) makes 43-56 a video (52-77 a minute), and tried as
# an insertion's ends they put a false `sync.offset_jump` (+2.13 s) on a genuine run read at
# the truth + 0.3 s. Kaboom!'s genuine runs have 0-2 (at most 2.8 a minute), its insertions
# 2-3; Pong, Seaquest and Pitfall's 5-25 a minute.
LONE_PER_MIN = 3.0


def lone_peaks(sig: FrameSignals, big: np.ndarray | None = None) -> np.ndarray:
    """Frame indices of up to SPLICE_PEAKS more changes, each standing out from every other
    frame within its own second but the video's flashes (`splices.lone_frames`), the largest
    first, PEAK_SEP_S from each other and from the largest changes (`big`: `splice_peaks`);
    none where such frames are not rare (LONE_PER_MIN).
    Why: a game whose own changes dwarf a splice's keeps it out of the largest changes.
    Kaboom! flashes the screen whenever a bomb lands (~28,000 points, the 12 largest changes
    all flashes); 4 s inserted at video 22.87 s (session 26's seed 2653) changed the
    picture 354 and 348 points at its two ends, the video's only such frames, exactly the
    insertion's length apart; the track kept one stretch at the offset after the insertion,
    offered at 0.71 (truth 2.6 s, 6.59 s offered)."""
    pc = np.asarray(sig.picture_change, float)
    cand = splices.lone_frames(pc, sig.fps)
    minutes = float(sig.times[-1] - sig.times[0]) / 60.0 if len(sig) else 0.0
    if len(cand) > LONE_PER_MIN * minutes + 2:
        return np.zeros(0, int)
    big = splice_peaks(sig) if big is None else big
    sep = max(1, int(round(PEAK_SEP_S * sig.fps)))
    out: list[int] = []
    for k in cand[np.argsort(-pc[cand], kind="stable")].tolist():
        if len(out) >= SPLICE_PEAKS:
            break
        if all(abs(k - j) > sep for j in out) and all(abs(k - int(j)) > sep for j in big):
            out.append(k)
    return np.array(sorted(out), int)


def _llr(s: np.ndarray, chance: np.ndarray, rate: float,
         held: np.ndarray | None = None) -> np.ndarray:
    """Per row: log P(answers | rate) - log P(answers | chance); an action `held` (its window
    in a held picture: answered at no offset) adds nothing."""
    ll = s * np.log(rate / chance) + (1 - s) * np.log((1 - rate) / (1 - chance))
    return (ll if held is None else np.where(held, 0.0, ll)).sum(axis=-1)


def _side_fits(srt: list[float], at: float, head: bool, shift: float, lo: float, hi: float,
               min_rest: int) -> bool:
    """`find`'s first checks of a side on the sorted times: the side (those before `at`, or
    from `at` on) holds MIN_MOVED actions, leaves `min_rest`, and shifted stays on the
    footage (lo .. hi)."""
    j = bisect_left(srt, at)
    a, b = (0, j) if head else (j, len(srt))
    k = b - a
    if k < MIN_MOVED or len(srt) - k < min_rest:
        return False
    return not (srt[a] + shift < lo or srt[b - 1] + shift > hi)


def find(answer: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]], exp: np.ndarray,
         s: np.ndarray, chance: np.ndarray, sig: FrameSignals, min_null_z: float,
         min_rest: int, held: Callable[[np.ndarray], np.ndarray] | None = None
         ) -> Insertion | None:
    """The inserted footage (between two of the picture's largest changes, else with a
    change that stands out from its own second at either end: `lone_peaks`) that explains
    one side of the run far better than its shuffled gaps do, or None. `exp`: the actions'
    expected video times at the offset used, `s`/`chance` their answers there, `answer(v)`
    the answers at other expected times (any shape); `min_rest` actions must stay.
    `held(v)` (`stretch.held_at`): the expected times whose misses weigh nothing, at the
    pair's shift and at every shift of its null alike (None: every action weighs)."""
    if len(exp) < MIN_MOVED + min_rest or len(sig) < 2:
        return None
    t = sig.times
    lo, hi = float(t[0]), float(t[-1])
    # the side's count and ends from the sorted times (finite ones: a comparison with NaN is
    # false either way round), not from a mask per pair: the same sides, checked for a tenth
    # of the cost (adding the shift keeps the order, so the ends stay the ends)
    srt = sorted(exp.tolist()) if bool(np.isfinite(exp).all()) else None
    big = splice_peaks(sig)
    pk = t[big]
    best = _best(answer, exp, s, pk, pk, srt, lo, hi, min_null_z, min_rest, held)
    if best is None:
        # a splice under a game's own larger flashes stands out from its own second alone
        # (`lone_peaks`): pairs with such a frame at either end (Kaboom!, session 27)
        lone = t[lone_peaks(sig, big)]
        if len(lone):
            both = np.sort(np.r_[pk, lone])
            best = _best(answer, exp, s, both, lone, srt, lo, hi, min_null_z, min_rest,
                         held)
    return best


def _best(answer, exp: np.ndarray, s: np.ndarray, pk: np.ndarray, among: np.ndarray,
          srt: list[float] | None, lo: float, hi: float, min_null_z: float,
          min_rest: int, held=None) -> Insertion | None:
    """`find`'s search over the pairs of `pk` (video times, in order) with at least one end
    in `among`."""
    best: Insertion | None = None
    mine = set(among.tolist())
    for i, ta in enumerate(pk):
        for tb in pk[i + 1:]:
            size = float(tb - ta)
            if not MIN_SIZE_S <= size <= MAX_SIZE_S or \
                    (float(ta) not in mine and float(tb) not in mine):
                continue
            for head in (True, False):
                # head: the actions the footage shows before ta, expected (at the offset
                # used: after the insertion) before tb; tail: those expected from ta on
                shift = -size if head else size
                if srt is not None and not _side_fits(srt, float(tb) if head else float(ta),
                                                      head, shift, lo, hi, min_rest):
                    continue
                moved = exp < tb if head else exp >= ta
                k = int(moved.sum())
                if k < MIN_MOVED or len(exp) - k < min_rest:
                    continue
                v = exp[moved] + shift
                if v.min() < lo or v.max() > hi:
                    continue
                rest = s[~moved]
                rate = float((rest.sum() + 1) / (len(rest) + 2))
                sm, cm = answer(v)
                if sm.sum() <= s[moved].sum():
                    continue  # answered no more often there than at the offset used
                real = float(_llr(sm, cm, rate, None if held is None else held(v)))
                if real <= 0.0:
                    continue
                # the same side at the shifts nearby: is this one special?
                vn = v[None, :] + _NEAR[:, None]
                sn, cn = answer(vn)
                null = _llr(sn, cn, rate, None if held is None else held(vn))
                if float(null.max()) >= real:
                    continue
                z = (real - float(null.mean())) / max(float(null.std()), 1e-6)
                if z >= min_null_z and (best is None or z > best.z):
                    best = Insertion(float(ta), float(tb), head, moved, z)
    return best


def held_stretch(answer: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]],
                 exp: np.ndarray, s: np.ndarray, chance: np.ndarray, sig: FrameSignals,
                 min_null_z: float, min_rest: int, i0: int, i1: int) -> Insertion | None:
    """The insertion (`find`, a held picture's misses weighing nothing: `stretch.held_at`)
    whose moved side holds the whole stretch i0..i1-1 answered at chance at the offset used
    (at the start of the run or its end, `local_findings.with_unexplained`), or None.
    Why: a game that holds its picture between rooms misses every press there at any
    offset, and at the rest's answer rate those misses were evidence against the offset
    after the splice. venture-insert@r15vp9opus (QA s31 T3, 4 s at video 19.85 s): 5 of its
    14 last actions answered at the shift, 6 in Venture's 4.3 s holds at its doors; no jump
    and a `sync.no_reaction` 23.87-40.90 s from the insertion to the end (session 32)."""
    ins = find(answer, exp, s, chance, sig, min_null_z, min_rest, stretch.held_at(sig))
    if ins is None or ins.head != (i0 == 0) or not bool(ins.moved[i0:i1].all()):
        return None
    return ins
