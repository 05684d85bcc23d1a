"""The local offset track: which offset each stretch of actions follows.

Honest footage keeps one offset all through the run. Candidate offsets come from fits in sliding
windows of the run; a Viterbi pass over the actions then gives each action the candidate that
its reaction supports, with a penalty for each change, so a change needs several actions that
agree. A change of offset is footage removed (the offset drops) or inserted (it rises).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import align, lookup
from .reactions import Novelty
from .signals import FrameSignals

WINDOW_S = 10.0       # run seconds per window of the track
STEP_S = 2.0
SWITCH_PENALTY = 3.0  # in supporting actions
SAME_S = 0.1          # candidate offsets closer than this are one
WINDOW_RANGE_S = 60.0


@dataclass(frozen=True)
class TrackPoint:
    run_s: float          # window centre (run time)
    offset_s: float | None
    z: float


def supported(look: lookup.Lookup, run_s: np.ndarray, offset: float | np.ndarray,
              speed: float, min_z: float) -> np.ndarray:
    """Per action: does a reaction stand out right after offset + e/speed? (`offset`: one,
    or one per action)"""
    return look(offset + run_s / speed) >= min_z


def windows(sig: FrameSignals, nov: Novelty, look: lookup.Lookup, run_s: np.ndarray,
            speed: float, min_z: float, min_actions: int) -> list[TrackPoint]:
    """The best offset of each window of WINDOW_S run seconds (None where it does not stand
    out), every STEP_S; windows without an action are left out."""
    if len(run_s) == 0:
        return []
    # an analysis asks for the same windows again on one lookup (the drift's piecewise
    # support and the track at speed 1 share theirs when no tile weights were learned): kept
    # on the lookup, which is made for one set of signals (`sig`) and lives for one analysis
    key = (run_s.tobytes(), float(speed), float(min_z), int(min_actions))
    known = look.kept_windows.get(key)
    if known is not None and known[0] is sig:
        return list(known[1])
    pts = _windows(sig, nov, look, run_s, speed, min_z, min_actions)
    look.kept_windows[key] = (sig, tuple(pts))
    return pts


def _windows(sig: FrameSignals, nov: Novelty, look: lookup.Lookup, run_s: np.ndarray,
             speed: float, min_z: float, min_actions: int) -> list[TrackPoint]:
    """`windows`, computed (`nov` is `look`'s novelty: every fit here reads `look`)."""
    pts = []
    end = float(run_s[-1])
    # Windows look for offsets within WINDOW_RANGE_S of the global fit (the global score's
    # other peaks, over the whole video, are candidates too): bounded work on long runs.
    dt = 1.0 / sig.fps
    full = align.offset_grid(sig, run_s)
    near = None
    if len(full) * dt > 2 * WINDOW_RANGE_S:  # (the global fit is needed for that alone)
        g = align.fit(sig, nov, run_s, speeds=np.array([speed]), look=look)
        near = full[np.abs(full - (g.offset_s if g else 0.0)) <= WINDOW_RANGE_S]
    # on those shared offsets, each action's row of scores serves every window it is in
    x = run_s / speed
    rows = SharedRows(look, near, x) if near is not None else None
    centres = []
    c = WINDOW_S / 2
    while True:
        # a window with no action has no offset: go straight to the next window that holds
        # one (on the same grid). A log whose last actions claim an elapsed time of 63,000
        # years stepped here every 2 s until out of memory (QA session 13).
        first = int(np.searchsorted(run_s, c - WINDOW_S / 2))
        if first == len(run_s):
            break
        if run_s[first] >= c + WINDOW_S / 2:
            c += STEP_S * (math.floor((float(run_s[first]) - WINDOW_S / 2 - c) / STEP_S) + 1)
        centres.append(c)
        if c + WINDOW_S / 2 >= end:
            break
        c += STEP_S
    cs = np.array(centres)
    ordered = bool(np.all(run_s[1:] >= run_s[:-1]))
    if ordered:  # in order (no NaN): a window is a range of actions
        lo = np.searchsorted(run_s, cs - WINDOW_S / 2, side="left").tolist()
        hi = np.searchsorted(run_s, cs + WINDOW_S / 2, side="left").tolist()
        picks = [np.arange(a, b) for a, b in zip(lo, hi, strict=True)]
    else:
        picks = [np.flatnonzero((run_s >= c - WINDOW_S / 2) & (run_s < c + WINDOW_S / 2))
                 for c in centres]
    shared = [len(p) >= min_actions and rows is not None and rows.applies(len(p))
              for p in picks]
    # the C sums, where built, fit every shared window in one call (the same doubles)
    fits = window_fits(look, near, x, [p for p, ok in zip(picks, shared, strict=True) if ok],
                       speed) if near is not None else None
    at = 0
    for c, idx, ok in zip(centres, picks, shared, strict=True):
        f = None
        if ok and fits is not None:
            f, at = fits[at], at + 1
        elif ok:
            assert near is not None and rows is not None  # (rows are made on it)
            f = align.fit_of(near, rows.scores(idx), speed)
        elif len(idx) >= min_actions:
            f = _window_fit(sig, look, run_s[idx], x[idx], speed, ordered) \
                if near is None else None
            if f is None:
                f = align.fit(sig, nov, run_s[idx], speeds=np.array([speed]), look=look,
                              offsets=near)
        good = f is not None and f.z >= min_z and f.margin >= 1.0
        pts.append(TrackPoint(round(c, 3), round(f.offset_s, 4) if f is not None and good else None,
                              round(f.z, 2) if f else 0.0))
    return pts


def _window_fit(sig: FrameSignals, look: lookup.Lookup, sub: np.ndarray, x: np.ndarray,
                speed: float, ordered: bool = False) -> align.Fit | None:
    """`align.fit(sig, nov, sub, speeds=[speed], look=look)` of one window of a short run
    (its own grid of offsets), bit for bit: the same offsets (`ordered`: `sub` ascending
    without NaN, its median read off), the same C sums of `x` (= `sub / speed`, as
    `lookup.scores` divides) and the same peak, mean and spread (`align.fit_of`'s C stats),
    without `scores`' keeping of each window's row on the lookup (asked once, it only
    crowded the rows asked again out of the lookup's memo), its look-up keys and the layers
    between; None where the C sums are not built (the caller fits as before). A 40 s run's
    analysis fits ~300 windows: their Python around the sums was a fifth of its CPU."""
    if lookup.NATIVE is None or len(sub) == 0 or len(sig) < 2:
        return None
    offsets = align.grid_about(sig, align.sorted_median(sub) if ordered else
                               align.median(sub))
    if not lookup.direct(look, offsets, len(x)):
        return None
    sc = look.sums(offsets, x)  # the C sums (by grid where the offsets are one)
    return None if sc is None else align.fit_of(offsets, sc, speed)


class SharedRows:
    """`_scores` of many subsets of one log's actions over one grid of offsets (the track's
    windows: 10 s of the run every 2 s, all on the offsets within 60 s of the global fit),
    bit for bit: each action's row of table values (`Lookup.index`'s operations, elementwise
    the same) is looked up once while it stays in the subsets asked for, not once per window
    it falls in (five), and a subset's rows are summed in the order and grouping numpy's sum
    over the actions uses (`_pairwise`). Subsets must move forward through the log (a row is
    dropped once a subset leaves it out): memory stays one window's rows."""

    def __init__(self, look: lookup.Lookup, offsets: np.ndarray, x: np.ndarray) -> None:
        self.look, self.offsets, self.x = look, offsets, x  # x: run_s / speed
        self._rows: dict[int, np.ndarray] = {}

    def applies(self, actions: int) -> bool:
        """Whether `_scores` sums this many actions directly (the rows are its terms)."""
        return lookup.direct(self.look, self.offsets, actions)

    def scores(self, idx: np.ndarray) -> np.ndarray:
        """`_scores(look, offsets, run_s[idx], speed)` (idx ascending, as a window selects)."""
        look, rows = self.look, self._rows
        keep = [int(j) for j in idx]
        inside = set(keep)
        for j in [j for j in rows if j not in inside]:
            del rows[j]
        for j in keep:
            if j not in rows:  # one row at a time: each array stays under 128 KiB
                v = np.add(self.x[j], self.offsets)  # x + offsets, as `Lookup.index` adds
                np.divide(v, look.res, out=v)
                np.subtract(v, look.base, out=v)
                np.ceil(v, out=v)
                rows[j] = np.take(look.table, v.astype(np.int64), mode="clip")
        return _pairwise([rows[j] for j in keep])


def _pairwise(rows: list[np.ndarray]) -> np.ndarray:
    """np.stack(rows, axis=1).sum(axis=1), bit for bit, by whole-row additions: numpy sums
    each row of an (offsets, actions) block pairwise (fewer than 8 terms in order; up to 128
    in 8 running sums joined as ((0+1)+(2+3))+((4+5)+(6+7)), then the rest in order; more
    split in two at a multiple of 8), which row_sums' (offsets, actions) layout runs once per
    offset; here each step is one addition over every offset. Non-negative terms (the
    lookup's table): no -0.0 to keep."""
    n = len(rows)
    if n < 8:
        out = rows[0].copy()
        for r in rows[1:]:
            out += r
        return out
    if n > 128:
        h = n // 2
        h -= h % 8
        return _pairwise(rows[:h]) + _pairwise(rows[h:])
    acc = [r.copy() for r in rows[:8]]
    i = 8
    while i < n - n % 8:
        for j in range(8):
            acc[j] += rows[i + j]
        i += 8
    out = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))
    for r in rows[i:]:
        out += r
    return out


def window_fits(look: lookup.Lookup, offsets: np.ndarray, x: np.ndarray, picks: list[np.ndarray],
                speed: float) -> list[align.Fit] | None:
    """`align.fit_of(offsets, lookup.scores(look, offsets, run_s[p], speed), speed)` for each
    window `p` (the indices of consecutive actions, the windows moving forward; x = run_s /
    speed), bit for bit, in one call of the C sums (`_lookup.c`'s `window_fits`: each
    action's terms once, not once per window it is in); None where they do not apply (not
    built, no grid, a NaN score): the caller fits each window as before."""
    if lookup.NATIVE is None or not picks:
        return None
    step = look._grid_step(offsets)
    span = []
    for p in picks:
        if not len(p) or int(p[-1]) - int(p[0]) + 1 != len(p):
            return None
        span.append((int(p[0]), int(p[-1]) + 1))
    w = np.array(span, np.int64)
    if not step or np.any(np.diff(w, axis=0) < 0):
        return None
    out = np.empty((len(w), 5))
    offsets = np.ascontiguousarray(offsets, dtype=np.float64)
    lookup.NATIVE.window_fits(look.table, look.res, look.base, offsets,
                             np.ascontiguousarray(x, dtype=np.float64), w, step,
                             look.phases(step), 0.1, out)
    if np.any(out[:, 0] < 0):
        return None
    fits: list[align.Fit] = []
    for i, top, mu, std, rest_max in out.tolist():
        sd = float(max(std, 1e-6))
        fits.append(align.Fit(float(offsets[int(i)]), float(speed), top, (top - mu) / sd,
                              (top - rest_max) / sd))
    return fits


def segment(look: lookup.Lookup, run_s: np.ndarray, candidates: list[float], speed: float,
            min_z: float) -> np.ndarray:
    """Per action, the candidate offset (index into candidates) of its stretch (Viterbi)."""
    m = len(candidates)
    if len(run_s) == 0:
        return np.zeros(0, int)
    emit = np.stack([supported(look, run_s, o, speed, min_z) for o in candidates],
                    axis=1).astype(float).tolist()  # (n, m)
    n = len(run_s)
    # In Python floats over the few candidates (the same doubles and the same first-of-the-
    # highest choices as numpy's argmax and where, which cost ~10 calls an action: a fifth
    # of the track's time)
    score = [v - 0.01 if k else v for k, v in enumerate(emit[0])]
    # (ties go to the global offset, candidate 0)
    back = [list(range(m))]
    for i in range(1, n):
        j = _first_top(score)
        switch = score[j] - SWITCH_PENALTY
        row = emit[i]
        back.append([j if switch > st else k for k, st in enumerate(score)])
        score = [(switch if switch > st else st) + e for st, e in zip(score, row, strict=True)]
    path = np.zeros(n, int)
    at = _first_top(score)
    path[-1] = at
    for i in range(n - 1, 0, -1):
        at = back[i][at]
        path[i - 1] = at
    return path


def _first_top(xs: list[float]) -> int:
    """The first index of the highest of `xs` (no NaN), as np.argmax gives it."""
    top = max(xs)
    return xs.index(top)


ORDER_SLACK_S = 0.1   # two stretches' offsets are each measured to a frame or so


def out_of_order(look: lookup.Lookup, run_s: np.ndarray, path: np.ndarray,
                 candidates: list[float], speed: float, min_z: float) -> list[tuple[int, int]]:
    """The stretches (from, to) of `path` at another offset than the one used (candidate 0)
    that the video would show out of the log's order with the stretch beside them at the
    one used, by more of that stretch's answered actions than they have answered actions
    of their own: no cut or insertion reorders the log, so such a stretch is a chance match.

    Only answered actions count, and against the stretch's own evidence: the stretch ahead
    of a cut also holds the actions inside the removed footage, which have no pictures but
    may be answered by chance (Boxing's cut: 2 and 3 such answers, against 13 answered after
    the cut; an order check on the stretches' ends lost 7 true cuts). Pong's genuine 9 s
    pause: the 6 actions after it match an offset 19.5 s earlier, all 6 answered there,
    which would show them before 8 answered actions ahead of them."""
    cuts = [0] + [i for i in range(1, len(path)) if path[i] != path[i - 1]] + [len(path)]
    spans = list(zip(cuts, cuts[1:], strict=False))
    bad = []
    for (a0, a1), (b0, b1) in zip(spans, spans[1:], strict=False):
        if (path[a0] == 0) == (path[b0] == 0):
            continue
        oa, ob = candidates[path[a0]], candidates[path[b0]]
        ea, eb = run_s[a0:a1], run_s[b0:b1]
        va = oa + ea[supported(look, ea, oa, speed, min_z)] / speed
        vb = ob + eb[supported(look, eb, ob, speed, min_z)] / speed
        if not len(va) or not len(vb):
            continue
        if path[a0] == 0:  # the used offset's answers shown after the next stretch starts
            late, own, span = int((va > vb.min() + ORDER_SLACK_S).sum()), len(vb), (b0, b1)
        else:  # ... shown before the stretch ahead ends
            late, own, span = int((vb < va.max() - ORDER_SLACK_S).sum()), len(va), (a0, a1)
        if late > own or overtakes(va, vb) or 2 * misordered(va, vb) > own:
            bad.append(span)
    return bad


def in_order(look: lookup.Lookup, run_s: np.ndarray, path: np.ndarray,
             candidates: list[float], speed: float, min_z: float) -> np.ndarray:
    """`path` with every stretch `out_of_order` names returned to the offset used (candidate
    0), until it names none. Why again: a stretch returned makes the one before it (or after
    it) a neighbour of the used offset's stretch, and only neighbours are tested. QA s34 T3,
    Earthworld's honest 22 fps RealVideo (its first 12 presses never shown): the first 6
    matched at +24.0 s, the next 6 at +15.1 s, the rest at the truth; one pass returned the
    middle stretch and never tested the first against the truth's (its answers at video
    29.1-36.0 s, inside the truth's 24.8-38.4 s), and a false `sync.offset_jump` of -24.04 s
    was said at 27.86 s (and 25.88 s suggested at 0.23, the truth 1.85)."""
    out = np.array(path, copy=True)
    while True:
        bad = out_of_order(look, run_s, out, candidates, speed, min_z)
        if not bad:
            return out
        for i0, i1 in bad:
            out[i0:i1] = 0


def misordered(va: np.ndarray, vb: np.ndarray) -> int:
    """The fewest answered actions (video times `va` of the stretch the log puts first, `vb`
    of the next) that any one splice leaves on its wrong side: `va`'s shown after it, `vb`'s
    before it. A true cut or insertion leaves only the chance answers of the actions inside
    the removed footage there (Boxing's cut: 2 and 3 of them, against 13 answered after it).

    Why beside `late` and `overtakes`: those test the stretch at another offset against the
    ends of the one at the offset used, and a chance stretch whose footage lies inside the
    used one's passes both. QA s29 T2, Turmoil's genuine run (the rows of enemies repeat):
    the first 9 presses matched 13.5 s later (answers at video 18.99-31.21 s), the 16 after
    them the truth (19.02-40.28 s); 5 of the 10 answers came before the first stretch's last
    (not more than its 7) and neither stretch starts or ends ahead of the other, so a false
    `sync.offset_jump` of -13.53 s was said at video 22.56 s. Any splice there leaves 6 of
    the 17 answers on its wrong side."""
    cuts = np.r_[va, vb]
    cuts = np.r_[cuts.min() - 1.0, cuts]
    # counted on the sorted times (O(n log n), flat memory), not a cuts x answers table: a
    # log at the 100,000-action cap would have asked for ~10 GB (s29 review)
    after = len(va) - np.searchsorted(np.sort(va), cuts + ORDER_SLACK_S, side="right")
    before = np.searchsorted(np.sort(vb), cuts - ORDER_SLACK_S, side="left")
    return int((after + before).min())


def overtakes(va: np.ndarray, vb: np.ndarray) -> bool:
    """Does the later stretch's footage (`vb`, its answered actions' video times) start
    before the earlier one's starts, or end before it ends? Not a boundary's few actions (a
    cut's removed footage holds chance answers on either side of it): the whole stretch
    shown ahead of, or inside, the one the log puts before it. Kaboom!'s cut (session 26's
    seed 2629): its first 11 presses matched at 21.17 s (video 23.2-39.0 s) by the bombs'
    flashes, the 13 after them at the offset after the cut (video 18.3-36.0 s): a jump of
    -22.57 s said 13.3 s after the cut, and 21.17 s suggested (session 28)."""
    return bool(vb.min() < va.min() - ORDER_SLACK_S or vb.max() < va.max() - ORDER_SLACK_S)


def candidate_offsets(global_offset: float, pts: list[TrackPoint],
                      peaks: Sequence[float] = ()) -> list[float]:
    cands = [global_offset]
    for o in [p.offset_s for p in pts if p.offset_s is not None] + list(peaks):
        if all(abs(o - c) > SAME_S for c in cands):
            cands.append(o)
    return cands


JUMP_RANGE_S = 60.0   # a stretch's own offset is searched this far from the offset used
JUMP_NULL_SETS = 19   # shuffled stretches, as in the fit's own test
NEAR_S = 0.2          # shifts closer than this to a peak are the peak's own (`shift_peak`)


def _shift_lls(answer, expected_v: np.ndarray, shifts: np.ndarray, rate: float,
               span: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """(log-likelihood ratios, shifts): per shift of the stretch's expected video times that
    keeps every action on the footage, its answers at the rest's answer rate against their
    chance."""
    v = expected_v[None, :] + shifts[:, None]
    ok = (v.min(axis=1) >= span[0]) & (v.max(axis=1) <= span[1])
    if not ok.any():
        return np.zeros(0), np.zeros(0)
    s, chance = answer(v[ok])
    ll = (s * np.log(rate / chance) + (1 - s) * np.log((1 - rate) / (1 - chance))).sum(axis=1)
    return ll, shifts[ok]


def _best_shift(answer, expected_v: np.ndarray, shifts: np.ndarray, rate: float,
                span: tuple[float, float]) -> tuple[float, float]:
    """(log-likelihood ratio, shift): the shift at which the stretch's answers are likeliest
    (`_shift_lls`)."""
    ll, ok = _shift_lls(answer, expected_v, shifts, rate, span)
    if not len(ll):
        return -np.inf, 0.0
    i = int(np.argmax(ll))
    return float(ll[i]), float(ok[i])


def shift_peak(answer, expected_v: np.ndarray, rate: float, span: tuple[float, float],
               fps: float, min_jump_s: float) -> tuple[float, float, float] | None:
    """(shift, z, margin): the shift of +-JUMP_RANGE_S at which the stretch's answers are
    likeliest, how far it stands above the mean of all shifts and above the best shift
    more than NEAR_S from it, in standard deviations of all shifts (a track window's
    `align.Fit` z and margin, on answers); None when no shift keeps it on the footage."""
    dt = 1.0 / max(fps, 1e-6)
    shifts = np.arange(-JUMP_RANGE_S, JUMP_RANGE_S + dt / 2, dt)
    ll, ok = _shift_lls(answer, expected_v, shifts[np.abs(shifts) >= min_jump_s], rate, span)
    if len(ll) < 2:
        return None
    i = int(np.argmax(ll))
    far = np.abs(ok - ok[i]) > NEAR_S
    sd = max(float(ll.std()), 1e-6)
    rest = float(ll[far].max()) if far.any() else float(ll.mean())
    return float(ok[i]), (float(ll[i]) - float(ll.mean())) / sd, (float(ll[i]) - rest) / sd


def stretch_jump(answer, expected_v: np.ndarray, rate: float, span: tuple[float, float],
                 fps: float, min_jump_s: float, min_null_z: float) -> float | None:
    """The offset change that explains a stretch the offset used does not (its actions
    answered no more often than by chance there), or None when no change explains it
    clearly better than it explains the same stretch with its gaps shuffled.

    `answer(v)` gives (answered, chance) for expected video times of any shape (the player's
    tiles, `stretch.answers`). Pong's cut: the 13 actions after it align at no offset on their
    own through the fit (the paddle answers 0.5 to 6 frames late), but 11 of them are answered
    at -4.08 s (chance 0.3 each), and the best shift of shuffled stretches scores lower (the
    real one stands 3.1 of their spreads above them). A removed or inserted stretch of
    footage is then a jump of that size, not a missing reaction."""
    if not 0.0 < rate < 1.0 or len(expected_v) < 2:
        return None
    dt = 1.0 / max(fps, 1e-6)
    shifts = np.arange(-JUMP_RANGE_S, JUMP_RANGE_S + dt / 2, dt)
    shifts = shifts[np.abs(shifts) >= min_jump_s]
    real, shift = _best_shift(answer, expected_v, shifts, rate, span)
    if not np.isfinite(real) or real <= 0.0:
        return None
    rng = np.random.default_rng(len(expected_v))
    null = []
    for _ in range(JUMP_NULL_SETS):
        gaps = np.diff(expected_v)
        rng.shuffle(gaps)
        null.append(_best_shift(answer, np.concatenate(
            [expected_v[:1], expected_v[0] + np.cumsum(gaps)]), shifts, rate, span)[0])
        if null[-1] >= real:
            return None  # a shuffled stretch does as well: no evidence for this shift
    nz = np.array([x for x in null if np.isfinite(x)])
    if len(nz) < 2 or (real - nz.mean()) / max(float(nz.std()), 1e-6) < min_null_z:
        return None
    return shift
