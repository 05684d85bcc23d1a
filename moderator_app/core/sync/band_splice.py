"""A splice on a screen that moves on its own, read per stretch in the player's band and at
the band's own reaction delay, at an offset the moderator gave (session 23, issue 13, QA s20
M3; docs/DECISIONS.md session 18 "What would find them").

`band_jump` reads the band chosen on the whole log at the given offset, with the band's
0.1 s window (`band.WINDOW_S`): on Phoenix the ship's row has an onset in 22-37 % of those
windows, so the 8-15 presses after a splice are answered as often at hundreds of other shifts
(the true shift ranks 3-7 frames of 3,000-7,000, never alone). Here each split of the log is
read on its own:

- the head (the presses before the split) chooses its band at the given offset: the column or
  row whose onsets answer most of them beyond the band's rate, at least MIN_HEAD of them;
- the band's window is narrowed to the head's own delays (the 10th to 75th percentile of the
  first onset after each press, in frames): Phoenix's ship answers 0-1 frame after a press,
  and that window's onset rate is 7-10 % instead of 22-37 %;
- the head must be answered at the offset (its binomial log-likelihood ratio over AT_CHANCE)
  and the tail (the presses from the split on) must not (at most AT_CHANCE): a genuine run's
  tail is answered where its head is;
- the tail's best shift (at least sync_jump_s, within RANGE_S) on that band and window, which
  the head must not follow (at most AT_CHANCE);
- the best split's tail stands MIN_NULL_Z over the same search on NULL_SETS shuffles of its
  gaps, and beats each of them;
- the head's band answers the given offset as `band_jump` asks of the whole log's
  (`band.at_offset` on the head, `band_jump.AT_MIN_Z`): an offset given 0.3 s off the truth
  let a genuine Phoenix run's tail line up at -14.13 s (head 2.20 spreads; the splices found
  3.09-3.58);
- the splice is then dated by the picture: between the last press answered at the offset and
  the first answered at the shift, the frame whose whole picture changes most (footage
  inserted: with the frame the shift later). That frame must change more than PICTURE_PCT
  of the video's frames do and more than `splices.SPLICE_SPIKE` times each frame beside it
  (the splices found: 99.8-99.9th percentile, 2.2-7.5 times). On Phoenix this is a weak
  test: the genuine run's false line-up above was dated at a frame that passes it (99.8th,
  2.6 times); the head's test is what keeps it out.

Read only when no stage suggests an offset and an offset is given (as `band_jump` and
`event_jump`), and only where the band's narrowed window answers at most MAX_RATE of the
frames (a busier band answers any shift: Beam Rider's and Frogger's rows at 0.45-0.85 gave
all-answered tails at dozens of shifts). The offset stays the moderator's.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from . import band, band_jump, reactions, splices
from .at_offset import _band_name
from .records import SyncAnalysis, video_order
from .signals import FrameSignals
from .stats import percentile

RULE = "sync.offset_jump"
MIN_SIDE = 8        # presses on each side of a split (a stretch of ~10 presses)
MIN_HEAD = 4        # head presses the band answers in its 0.1 s window, at least
AT_CHANCE = 1.0     # a side's log-likelihood ratio up to which it is answered only by chance
MAX_RATE = 0.2      # the narrowed window's onset rate, at most
RANGE_S = 60.0      # the shifts searched (as band.AT_RANGE_S)
NULL_SETS = 99      # shuffles of the tail's gaps
MIN_NULL_Z = 4.0    # the tail's best shift over theirs, in their spreads
PICTURE_PCT = splices.STANDOUT_PCT  # the splice frame's whole-picture change, percentile
# Presses x shifts counted at once (int32, and their sums from each split on): 4 million is
# 32 MB, 555 presses at 60 fps within +-60 s; a longer log is not read here.
MAX_TERMS = 4_000_000


def _llr(c, m: float, p: float) -> np.ndarray:
    """Binomial log-likelihood ratio of `c` of `m` answered against rate `p` (0 where no
    more than the rate are: band._binomial_llr on one band)."""
    return band._binomial_llr(np.asarray(c, float), m, np.asarray(p, float))


def _window(on: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """hit[k]: an onset in frames k+lo .. k+hi."""
    n = len(on)
    c = np.concatenate([[0], np.cumsum(on, dtype=np.int64)])
    a = np.clip(np.arange(n) + lo, 0, n)
    b = np.clip(np.arange(n) + hi + 1, 0, n)
    return (c[b] - c[a]) > 0


def _shift_counts(hit: np.ndarray, ks: np.ndarray, shifts: np.ndarray) -> np.ndarray:
    """counts[i, j]: 1 when the press at frame ks[i] has a hit at shift j (int32; a press off
    the footage has none)."""
    r = int(np.abs(shifts).max()) + 1
    pad = np.zeros(len(hit) + 2 * r, np.uint8)
    pad[r:r + len(hit)] = hit
    return pad[np.clip(ks, -r, len(hit) + r - 1)[:, None] + shifts + r].astype(np.int32)


NONE = -(1 << 20)  # no onset in a press' window (`_delays`)


def _delays(on: np.ndarray, ks: np.ndarray, w: int) -> np.ndarray:
    """Per press at frame k, the first onset from k-1 to k+w, in frames from k; NONE where
    there is none."""
    n = len(on)
    offs = np.arange(-1, w + 1)
    idx = ks[:, None] + offs
    ok = (idx >= 0) & (idx < n)
    hit = ok & on[np.clip(idx, 0, n - 1)]
    first = hit.argmax(axis=1)
    return np.where(hit.any(axis=1), offs[first], NONE)


def _best_split(e: np.ndarray, sig: FrameSignals, offset_s: float, jump_s: float):
    """(split, shift in frames, band, window hits, tail llr) of the split whose tail's best
    shift stands highest with every gate of the module docstring but the shuffles; None."""
    nov = reactions.novelty(sig)
    hit = band._window_hits(sig, nov, sig.grid)
    rate = hit.mean(axis=0)
    w = max(1, int(round(band.WINDOW_S * sig.fps)))
    bands = band.bands(sig.grid)
    r = int(round(RANGE_S * sig.fps))
    shifts = np.arange(-r, r + 1)
    far = np.abs(shifts) >= math.ceil(jump_s * sig.fps - 1e-9)
    v = offset_s + e
    ks = np.searchsorted(sig.times, v - 1e-6)
    shown = (v >= sig.times[0] - 1e-6) & (ks < len(sig))
    best = None
    seen: dict[tuple[int, int, int], tuple[np.ndarray, np.ndarray | None, np.ndarray | None]] = {}
    delays: dict[int, np.ndarray] = {}
    for s in range(MIN_SIDE, len(e) - MIN_SIDE + 1):
        kh = ks[:s][shown[:s]]
        if len(kh) < MIN_SIDE:
            continue
        cnt = hit[kh].sum(axis=0)
        lh = np.where(cnt >= MIN_HEAD, band._binomial_llr(cnt.astype(float), float(len(kh)),
                                                          rate), 0.0)
        if float(lh.max()) <= 0.0:
            continue
        b = int(lh.argmax())
        on = np.asarray(nov.onsets[:, bands[b]].any(axis=1))
        if b not in delays:  # each shown press' first onset in the band, once per band
            delays[b] = _delays(on, ks[shown], w)
        d = delays[b][:len(kh)]
        d = d[d != NONE]
        if not len(d):
            continue
        lo, hi = int(percentile(d, 10)), int(percentile(d, 75))
        key = (b, lo, hi)
        if key not in seen:  # each press' hits at every shift, and their sums from a split on
            hb = _window(on, lo, hi)
            per = _shift_counts(hb, ks, shifts) if hb.mean() <= MAX_RATE else None
            seen[key] = (hb, per, None if per is None else
                         np.cumsum(per[::-1], axis=0, dtype=np.int32)[::-1])
        hb, per, after = seen[key]
        if per is None or after is None:
            continue  # a band this busy answers any shift
        rb = float(hb.mean())
        acc = after[s]
        m = float(len(e) - s)
        if float(_llr(acc[r], m, rb)) > AT_CHANCE:
            continue  # the tail is answered at the offset given
        tl = np.where(far, _llr(acc, m, rb), -1.0)
        j = int(tl.argmax())
        head = per[:s][shown[:s]][:, [r, j]].sum(axis=0)
        if float(_llr(head[0], float(len(kh)), rb)) <= AT_CHANCE or \
                float(_llr(head[1], float(len(kh)), rb)) > AT_CHANCE:
            continue  # the head is not answered at the offset, or at the shift too
        if best is None or float(tl[j]) > best[4]:
            best = (s, int(shifts[j]), b, hb, float(tl[j]))
    return best


def _stands(e: np.ndarray, sig: FrameSignals, offset_s: float, jump_s: float,
            found) -> float:
    """The tail's best shift over NULL_SETS shuffles of its gaps (same band, window and
    search), in their spreads; -inf when one of them reaches it."""
    s, _, _, hb, real = found
    tail = e[s:]
    r = int(round(RANGE_S * sig.fps))
    shifts = np.arange(-r, r + 1)
    far = np.abs(shifts) >= math.ceil(jump_s * sig.fps - 1e-9)
    rng = np.random.default_rng(len(e))
    gaps = np.diff(tail)
    null = np.zeros(NULL_SETS)
    for i in range(NULL_SETS):  # one at a time: a shuffle's counts are presses x shifts
        rng.shuffle(gaps)
        fake = np.concatenate([tail[:1], tail[0] + np.cumsum(gaps)])
        acc = _shift_counts(hb, np.searchsorted(sig.times, offset_s + fake - 1e-6),
                            shifts).sum(axis=0)
        null[i] = float(np.where(far, _llr(acc, float(len(tail)), float(hb.mean())),
                                 -1.0).max())
    if real <= float(null.max()):
        return -math.inf
    return (real - float(null.mean())) / max(float(null.std()), 1e-6)


def _dated(e: np.ndarray, sig: FrameSignals, offset_s: float, shift: int,
           hb: np.ndarray) -> tuple[int, int] | None:
    """(frame of the splice, frames of inserted footage or 0): between the last press
    answered at the offset and the first at the shift (the split that explains the most),
    the frame whose picture changes most (inserted footage: with the frame `shift` later);
    None when that change does not stand out as a splice's."""
    n = len(sig)
    size_s = shift / sig.fps
    k0 = np.searchsorted(sig.times, offset_s + e - 1e-6)
    kd = np.searchsorted(sig.times, offset_s + size_s + e - 1e-6)
    a0 = np.zeros(len(e), bool)
    ad = np.zeros(len(e), bool)
    a0[k0 < n] = hb[k0[k0 < n]]
    ad[kd < n] = hb[kd[kd < n]]
    score = np.array([a0[:j].sum() + ad[j:].sum() for j in range(1, len(e))])
    js = np.flatnonzero(score == score.max()) + 1
    lo = int(k0[js.min() - 1])
    hi = max(int(k0[j - 1]) if shift < 0 else int(k0[j]) for j in js.tolist())
    if shift < 0:
        hi = max(hi, max(int(kd[j]) for j in js.tolist()))
    w = max(shift, 0)
    k = splices.standout(sig, lo, hi, w)
    if k is None:
        return None  # no splice in the picture there: a chance line-up of the presses
    return k, w


def jumps_at(run_s, sig: FrameSignals, th, offset_s: float,
             res: SyncAnalysis) -> SyncAnalysis | None:
    """`res` (an analysis that suggests no offset, measured at the moderator's `offset_s`)
    with the splice a stretch of the presses shows in the player's band (module docstring);
    None when none stands (or `res` already has an offset jump)."""
    e = np.asarray(sorted(float(x) for x in run_s if math.isfinite(x)), float)
    too_few_presses = len(e) < 2 * MIN_SIDE  # MIN_SIDE on each side of a split
    no_frames = len(sig) < 3 or sig.fps <= 0
    no_offset = not math.isfinite(offset_s)
    jump_said = any(f.rule == RULE for f in res.findings)  # by an earlier stage
    if too_few_presses or no_frames or no_offset or jump_said:
        return None
    if len(e) * (2 * round(RANGE_S * sig.fps) + 1) > MAX_TERMS:
        return None  # presses x shifts beyond what one analysis holds (a long log)
    found = _best_split(e, sig, offset_s, th.sync_jump_s)
    if found is None:
        return None
    _, head_z = band.at_offset(sig, reactions.novelty(sig), e[:found[0]], offset_s, sig.grid)
    if head_z < band_jump.AT_MIN_Z:
        return None  # the head's band answers the given offset no better than others
    z = _stands(e, sig, offset_s, th.sync_jump_s, found)
    if z < MIN_NULL_Z:
        return None
    s, shift, b, hb, _ = found
    at = _dated(e, sig, offset_s, shift, hb)
    if at is None:
        return None
    k, w = at
    size = shift / sig.fps
    vs = float(sig.times[k])
    ve = float(sig.times[min(k + w, len(sig) - 1)]) if w else None
    f = splices.jump_finding(size, vs, ve, float(e[s - 1]), float(e[s]))
    where = _band_name(band.bands(sig.grid)[b], sig.grid)
    jump = replace(f, message=f"{f.message} (read per stretch in the player's band, {where}, "
                   f"at the offset given, {offset_s:.3f} s: the presses from run "
                   f"{e[s]:.2f} s on answered {z:.1f} spreads over their shuffled gaps)")
    found_all = sorted([*res.findings, jump], key=video_order)
    return replace(res, findings=found_all)
