"""Where a jump of the offset is in the video: the splice frames of footage removed or
inserted between two stretches of the track, and the `sync.offset_jump` finding that names them.

Why apart from `local_findings`: dating a splice reads the picture's changes frame by frame
(a splice changes the whole picture; footage of another attempt of the same game may not),
while the other local findings read the reactions at the offset used.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from . import reactions, track
from .records import SyncAnalysis, SyncFinding, video_order
from .signals import FrameSignals
from .stats import percentile


def splice_frames(look, run_s, a, b, sig: FrameSignals, speed: float,
                   th, seen: tuple[float, float] | None = None) -> tuple[int, np.ndarray]:
    """(first frame, mask from it): the frames where a splice between the stretch at offset
    a[2] and the next at b[2] explains the most actions, each action shown at
    a's offset before the splice, at b's after it (footage removed: b's offset is earlier,
    and actions in the removed stretch are shown at neither; inserted: b's actions are those
    after the inserted footage). The Viterbi boundary alone can be a chance match early:
    Boxing's cut was placed 1.3 s early, its insertion 2.1 s early. `seen`: a's and b's
    offsets as `look` sees them (`measure_all`'s lag), where their support is read."""
    e = run_s[(run_s >= a[0] - 1e-9) & (run_s <= b[1] + 1e-9)]
    z = th.sync_reaction_z
    la, lb = seen if seen is not None else (a[2], b[2])
    sa = track.supported(look, e, la, speed, z)
    sb = track.supported(look, e, lb, speed, z)
    va = a[2] + e / speed
    vb = min(a[2], b[2]) + e / speed  # shown at b from this splice time on (see above)
    k0 = reactions.frame_at(sig.times, float(va.min()))
    k1 = min(reactions.frame_at(sig.times, float((b[2] + e / speed).max())), len(sig) - 1)
    # in frames: an action is shown on the first frame at or after its time, so the one
    # expected just before the splice frame is shown on it, in the footage after the splice
    # (H.E.R.O.'s cut at 15.167 s: the first action after it expected at 15.164 s, on the
    # cut's own frame; in times the cut's frame explained one action fewer than the frames
    # before it, and the cut was placed 1.5 s early)
    ks = np.arange(k0, k1 + 1)[:, None]
    ka = np.searchsorted(sig.times, va - 1e-6)[None, :]
    kb = np.searchsorted(sig.times, vb - 1e-6)[None, :]
    sup = ((ka < ks) & sa[None, :]).sum(axis=1) + ((kb >= ks) & sb[None, :]).sum(axis=1)
    if not len(sup):
        return k0, np.zeros(0, bool)
    return k0, sup == sup.max()


# A splice changes the whole picture: a frame change above this percentile of the video's
# stands out (`dated`).
SPLICE_PCT = 99.0


def dated(ok: np.ndarray, t: np.ndarray, pick: int, lo: float, hi: float, strength: float,
           bar: float) -> int:
    """The first splice of inserted footage (an index into `ok`, `splice_frames`' ties):
    `pick`, the tied frame whose two splices change the picture most, when it lies between
    the last action of the stretch before and the first of the one after (video times
    lo .. hi at the offset before) or its smaller change (`strength`; the second splice's
    within a frame of `size` after the first: Tennis's is measured 4.01 s, cut at 4.00,
    397 and 389 points against a 99th percentile of 127) passes `bar`; else
    the actions date it: the middle of the tied frames between lo and hi, or the tied frame
    nearest them. Footage of another attempt of the same game may show no splice, and
    actions in the inserted span answered at both offsets by chance make the ties span
    further. Video Pinball with 4 s inserted (QA s14): changes at the splices 24-48 points
    (the videos' median; 99th percentile 119); the largest among the ties a bumper's flash:
    placed at 23.17 s (24 fps, truth 16.78; 20.08 s before the offsets were dated) and 24.70
    s (20 fps, truth 18.38); now 17.04 and 17.90 s. Boxing's insertion (1,535 points, outside
    lo .. hi) and Pong's and Pitfall's (inside) keep their frame."""
    if lo - 1e-9 <= t[pick] <= hi + 1e-9 or strength > bar:
        return pick
    idx = np.flatnonzero(ok)
    inside = idx[(t[idx] >= lo - 1e-9) & (t[idx] <= hi + 1e-9)]
    if len(inside):
        return int(inside[len(inside) // 2])
    return int(idx[np.argmin(np.maximum(lo - t[idx], t[idx] - hi))]) if len(idx) else pick


# A removed footage's splice also stands out when its frame changes more than this many times
# each frame next to it: it joins two moments in one frame, where a reaction's move changes
# the picture over several (`unseen`).
SPLICE_SPIKE = 1.25


def unseen(sig: FrameSignals, k: int) -> bool:
    """The removed footage's splice is not in the picture: the frame `k` the largest change
    picks among the ties changes the whole picture, its colour counted (`picture_change`),
    no more than the video's SPLICE_PCT percentile and no more than SPLICE_SPIKE times the
    frames on either side of it. The picture then stood the same across the cut (a player
    standing in one room), and the largest change among the ties is a reaction's move:
    QA s16 J4, Adventure with 4 s removed, dated at the square's last move 1.23 s (48 fps)
    and 1.28 s (25 fps) before the splice, whose frame changes no sample point (70 points
    among 54-67 on the frames around it; 15 among 15s). Video Pinball's cut (QA s14, 24 fps)
    changes 89 points between 48 and 62: seen, it keeps its frame."""
    pc = np.asarray(sig.picture_change, float)
    if not 0 < k < len(pc) - 1:
        return False
    return float(pc[k]) <= float(percentile(pc, SPLICE_PCT)) and \
        float(pc[k]) <= SPLICE_SPIKE * max(float(pc[k - 1]), float(pc[k + 1]))


# A splice dated by the whole picture alone (`standout`): its frame changes more than this
# percentile of the video's frames (band_splice's splices found: 99.8-99.9th).
STANDOUT_PCT = 99.5


def _window(sig: FrameSignals, lo: int, hi: int, w: int
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The frames `lo`..`hi` (kept off both ends), the whole picture's change and each frame's
    strength as a splice's (with the frame `w` later: footage inserted), shared by `standout`
    and `strongest_standout`; None on a video of fewer than 3 frames."""
    n = len(sig)
    if n < 3:
        return None
    lo, hi = sorted((max(1, min(lo, n - 2)), max(1, min(hi, n - 2))))
    pc = np.asarray(sig.picture_change, float)
    idx = np.arange(lo, hi + 1)
    strength = pc[idx] + (pc[np.minimum(idx + w, n - 1)] if w > 0 else 0.0)
    return pc, idx, strength


def standout(sig: FrameSignals, lo: int, hi: int, w: int = 0) -> int | None:
    """The frame from `lo` to `hi` whose whole picture changes most (`picture_change`; footage
    inserted, `w` frames long: with the frame `w` later), when that change stands out as a
    splice's: over STANDOUT_PCT of the video's frames and more than SPLICE_SPIKE times each
    frame beside it; None when none does. A splice joins two moments in one frame, where a
    screen that moves on its own (or a reaction) changes it over several: where the presses
    only say between which of them a splice is (seconds apart), its frame says where."""
    win = _window(sig, lo, hi, w)
    if win is None:
        return None
    pc, idx, strength = win
    k = int(idx[int(np.argmax(strength))])
    if float(pc[k]) < float(percentile(pc, STANDOUT_PCT)) or \
            float(pc[k]) <= SPLICE_SPIKE * max(float(pc[k - 1]), float(pc[k + 1])):
        return None
    return k


def strongest_standout(sig: FrameSignals, lo: int, hi: int, w: int = 0) -> int | None:
    """Of the frames from `lo` to `hi` that stand out as a splice's (`standout`'s test, each
    on its own), the one whose whole picture changes most (with the frame `w` later: footage
    inserted); None when none does. Where `standout` asks whether the largest change is a
    splice's, this passes over larger changes that are not: a flash or a scene change over
    two frames or more (Kangaroo's 54,142 points on two frames beside a cut's 447)."""
    win = _window(sig, lo, hi, w)
    if win is None:
        return None
    pc, idx, strength = win
    side = np.maximum(pc[idx - 1], pc[idx + 1])
    ok = (pc[idx] >= float(percentile(pc, STANDOUT_PCT))) & (pc[idx] > SPLICE_SPIKE * side)
    if not ok.any():
        return None
    return int(idx[int(np.argmax(np.where(ok, strength, -1.0)))])


def stronger_own(sig: FrameSignals, k: int, own: int, w: int = 0) -> int:
    """`own` (the frame the track placed the jump at) rather than `k` (the one that stands out
    between the presses that bracket it) when `own` stands out as a splice's itself
    (`standout`'s test, on its own) and changes the whole picture more (with the frame `w`
    later: footage inserted); else `k`.

    The presses that bracket a jump can miss its splice by a press: QA s24 R3, Assault's
    insertion (30 fps, 21.27-25.27 s), was placed by the track at its splice (21.267 s, 1,888
    points, 2.97 times its neighbours), but the first press after it is read before the
    splice (run 18.769 s, splice run 18.972 s), and between the two presses another frame
    passes the test (20.233 s, 1,014 points against a 99.5th percentile of 988): the jump was
    said 1.03 s early. Where both stand out, the stronger change is the splice's."""
    n = len(sig)
    if own == k:
        return k
    pc = np.asarray(sig.picture_change, float)

    def strength(j: int) -> float:
        return float(pc[j]) + (float(pc[min(j + w, n - 1)]) if w > 0 else 0.0)

    return own if stands_out(pc, own) and strength(own) > strength(k) else k


def stands_out(pc: np.ndarray, j: int) -> bool:
    """Does frame j's whole-picture change stand out as a splice's (`standout`'s test, on its
    own: over STANDOUT_PCT of the video's frames, more than SPLICE_SPIKE times each side)?"""
    return 0 < j < len(pc) - 1 and float(pc[j]) >= float(percentile(pc, STANDOUT_PCT)) and \
        float(pc[j]) > SPLICE_SPIKE * max(float(pc[j - 1]), float(pc[j + 1]))


# A splice the video's percentile does not show (a game whose own changes are far larger:
# Kaboom!'s flashes) may still stand out from every other frame within LONE_S either side
# (those over STANDOUT_PCT of the video's aside) by LONE_SPIKE, at the video's LONE_PCT
# percentile at least. Measured on the corpus' frames between the 90th and 99.5th
# percentiles: Kaboom!'s cuts stand 1.54-2.09 (QA's 1.57; 5 of 11 built cuts at 1.5 or
# more); a game's own frames stand up to 1.28 and 1.34 inside Kaboom!'s stretches at chance
# (a cut 1.09 s and an insertion 3.3 s away), so SPLICE_SPIKE's 1.25 would take them. Only
# the plausible boundaries' footage is searched so: over a whole video a game's own frame
# stands 1.42 in half the genuine runs.
LONE_S = 0.5
LONE_SPIKE = 1.5
LONE_PCT = 90.0


def lone_at(pc: np.ndarray, j: int, w: int, top: float, floor: float) -> bool:
    """Does frame j's change stand LONE_SPIKE times over every other frame's within w frames
    either side (those at or over `top` aside), and at `floor` at least?"""
    lo, hi = max(0, j - w), min(len(pc), j + w + 1)
    other = np.r_[pc[lo:j], pc[j + 1:hi]]
    other = other[other < top]
    return bool(floor <= pc[j] < top and
                (not len(other) or float(pc[j]) > LONE_SPIKE * float(other.max())))


def alone(sig: FrameSignals, t: float) -> bool:
    """Does the frame shown at video time `t` change the whole picture (`picture_change`)
    more than LONE_SPIKE times every other frame within LONE_S either side, and at the
    video's LONE_PCT percentile at least (`lone_at`'s floor: one point of change on a still
    screen is no splice)? A splice joins two moments in one frame; a game's flash or scene
    change recurs around it. The wide set (session 45): tennis-cut@vfr's splice at 18.783 s
    changes 598 points, 1.80 times the most of its second either side; a genuine Kaboom!@r50
    frame at 20.84 s 25,384, with 28,047 two frames of its flash later: no splice."""
    pc = np.asarray(sig.picture_change, float)
    if len(pc) < 3:
        return False
    k = min(int(np.searchsorted(np.asarray(sig.times, float), t - 1e-6)), len(pc) - 1)
    w = max(1, int(round(LONE_S * sig.fps)))
    return lone_at(pc, k, w, math.inf, max(1.0, float(percentile(pc, LONE_PCT))))


def lone_frames(pc: np.ndarray, fps: float) -> np.ndarray:
    """The frames whose change stands out as `lone_at`'s (LONE_SPIKE times every other frame's
    within LONE_S either side, those at or over the video's STANDOUT_PCT aside, and at the
    video's LONE_PCT at least), over the whole video, in order; `lone_at`'s rule for every
    frame at once (a sliding maximum: an hour at 60 fps is 216,000 frames)."""
    pc = np.asarray(pc, float)
    n = len(pc)
    if n < 3:
        return np.zeros(0, np.int64)
    top = float(percentile(pc, STANDOUT_PCT))
    floor = max(1.0, float(percentile(pc, LONE_PCT)))
    w = max(1, int(round(LONE_S * fps)))
    low = np.where(pc < top, pc, 0.0)  # the flashes aside (changes are >= 0)
    pad = np.r_[np.zeros(w), low, np.zeros(w)]
    most = np.lib.stride_tricks.sliding_window_view(pad, w).max(axis=1)  # most[i]: pad[i:i+w]
    j = np.arange(n)
    other = np.maximum(most[j], most[j + w + 1])  # frames j-w..j-1 and j+1..j+w
    ok = (pc >= floor) & (pc < top) & (pc > LONE_SPIKE * other)
    return np.nonzero(ok)[0].astype(np.int64)


def splice_pair(pc: np.ndarray, fps: float, ks: np.ndarray, w: int) -> int | None:
    """Of the frames `ks` (an insertion's tied first splices, `splice_frames`; `pc` each
    frame's whole-picture change, `fps` the video's rate), the one that stands out as a
    splice's with the frame `w` later (within a frame: the size is measured between two
    offsets) standing out too: each a `lone_frames` frame, or one over the video's
    STANDOUT_PCT (`stands_out`); of several such pairs, the one whose smaller change
    is largest. None when no tied frame has such a partner.

    Why: inserted footage has two splices exactly its length apart, and both join two
    moments in one frame. The ties span every frame between the last press answered at the
    old offset and the first at the new one, seconds apart when presses between go
    unanswered, and their largest paired change (`jumps`) is where the game flashes. QA s32
    T4, Battle Zone with 4 s inserted at video 19.28 s (48 fps): ties 14.40-20.42 s, the
    largest pair at the game's explosion (17.33 s, up to 47,433 points a frame; its frame
    4 s later 27 points); the splices change 1,649 and 1,594 points against 0-10 beside
    them, under the video's 99th percentile (31,112): dated to the middle of the
    segments' bracket, 15.21 s, 4.07 s early. The pair test puts it at 19.29 s."""
    pc = np.asarray(pc, float)
    n = len(pc)
    ks = np.asarray(ks, np.int64)
    ks = ks[(ks >= 0) & (ks < n)]
    if w <= 0 or not len(ks) or n < 3:
        return None
    side = np.maximum(np.r_[np.inf, pc[:-1]], np.r_[pc[1:], np.inf])  # the ends never
    like = (pc >= float(percentile(pc, STANDOUT_PCT))) & (pc > SPLICE_SPIKE * side)
    like[lone_frames(pc, fps)] = True
    ks = ks[like[ks]]
    best, at = -1.0, None
    for d in (-1, 0, 1):
        j = ks + w + d
        ok = j < n
        if not ok.any():
            continue
        both = np.where(like[j[ok]], np.minimum(pc[ks[ok]], pc[j[ok]]), -1.0)
        i = int(np.argmax(both))
        if both[i] > best:
            best, at = float(both[i]), int(ks[ok][i])
    return at


def inserted_start(sig: FrameSignals, k: int, w: int) -> int:
    """The first splice of footage inserted, `w` frames long, given a frame `k` that stands
    out as one of its two: k - w when that frame stands out as a splice's too and the pair
    (k - w, k) changes the picture more than (k, k + w); else k.

    Why: an insertion has two splices `w` apart and the presses that bracket it may hold only
    the second. QA s25 S2, Chopper Command with 4 s inserted at video 19.43-23.43 s: the
    bracket held 23.43 s alone (1,858 points), which was taken as the insertion's start, and
    the span marked 23.43-27.43 s, none of it inserted; the frame 4 s before (19.43 s, 1,460
    points, 11 times its neighbours) is the first splice, the pair 3,318 points against
    2,311 for (23.43, 27.43)."""
    n = len(sig)
    if w <= 0 or k - w < 1 or k >= n:
        return k
    pc = np.asarray(sig.picture_change, float)
    after = float(pc[min(k + w, n - 1)])
    return k - w if stands_out(pc, k - w) and float(pc[k - w]) > after else k


def jumps(segs, sig: FrameSignals, speed: float, th, look, run_s,
           looks: list[float] | None = None) -> list[SyncFinding]:
    """`sync.offset_jump` between segments; `looks`: each segment's offset as `look` sees
    it (where its splice is searched), by default their own."""
    out = []
    change = sig.change.astype(float)
    fps = sig.fps
    seen = looks if looks is not None else [s[2] for s in segs]
    for i, (a, b) in enumerate(zip(segs, segs[1:], strict=False)):
        size = b[2] - a[2]
        if abs(size) < th.sync_jump_s:
            continue
        k0, ok = splice_frames(look, run_s, a, b, sig, speed, th, (seen[i], seen[i + 1]))
        w = int(round(size * fps))
        if size < 0 or len(ok) <= w:
            # footage removed: one splice; the frame with the biggest change where allowed,
            # or the middle of those frames when no change there stands out (`unseen`: the
            # actions alone date it, and the middle is never further than half their span)
            c = np.where(ok, change[k0:k0 + len(ok)], -1.0)
            k = k0 + int(np.argmax(c)) if len(c) else k0
            if len(c) and unseen(sig, k):
                k = k0 + int(np.flatnonzero(ok)[int(np.count_nonzero(ok)) // 2])
            vs, ve = float(sig.times[min(k, len(sig) - 1)]), None
        else:
            # footage inserted: two splices `size` apart
            pair = change[k0:k0 + len(ok) - w] + change[k0 + w:k0 + len(ok)]
            pair = np.where(ok[:len(pair)], pair, -1.0)
            k = k0 + int(np.argmax(pair))
            both = splice_pair(sig.picture_change, sig.fps, k0 + np.flatnonzero(ok[:len(pair)]), w)
            k = both if both is not None else k0 + dated(
                ok[:len(pair)], sig.times[k0:k0 + len(pair)], k - k0,
                a[2] + a[1] / speed, a[2] + b[0] / speed,
                min(change[k], change[max(k0, k + w - 1):k + w + 2].max()),
                float(percentile(change, SPLICE_PCT)))
            vs, ve = float(sig.times[k]), float(sig.times[min(k + w, len(sig) - 1)])
        out.append(jump_finding(size, vs, ve, a[1], b[0]))
    return out


def jump_finding(size: float, vs: float, ve: float | None, run_a: float,
                  run_b: float) -> SyncFinding:
    """`sync.offset_jump`: the offset changes by `size` between the actions at run_a and
    run_b, at video vs (to ve: inserted footage)."""
    what = "removed" if size < 0 else "inserted"
    return SyncFinding(
        "sync.offset_jump", f"the offset jumps by {size:+.2f} s near video "
        f"{vs:.2f} s: footage {what}?", round(vs, 3), None if ve is None else round(ve, 3),
        round(run_a, 3), round(run_b, 3), size_s=round(size, 3))


def placed(f: SyncFinding, sig: FrameSignals, before_s: float, speed: float = 1.0,
           shown: bool = False) -> SyncFinding:
    """The jump `f` (the offset `before_s` before it, `speed` the video's over the log's
    clock) dated by the whole picture (`standout`), where a splice's frame stands out between
    the presses that bracket it (`f`'s run times); else the strongest frame that stands out
    within the jump's size of where `f` is placed (`strongest_standout`); else `f`.

    The track places a jump from presses seconds apart: Carnival (QA s23 Q3, targets sliding
    on their own) with 4 s cut at video 18.38 s was placed at 21.40 s, its insertion at 15.6 s
    at 14.16 s. Footage removed: the last press read at the old offset may be one the cut
    removed, answered there by chance (Carnival's, run 19.63 s), so the splice is looked for
    where the presses are read at the new offset, from the last press before to the first
    after (video offset + size + run). Footage inserted: every press is shown, the splice is
    between the two presses at the old offset, and its second splice `size` later counts
    with it. Frostbite's and Kangaroo's cuts (run 13.25-15.34 and 12.33-13.31 s) were
    bracketed 4-5 s before their splice, and the track placed them at the largest change
    among its ties: Frostbite's 18.70 s (truth 19.28), Kangaroo's a two-frame flash at
    19.68 s (54,142 points, no spike; truth 17.93 s, 447 points, 56 times its neighbours).

    `shown` (the main analysis' own jumps, `dated_jumps`): the press before a cut is taken as
    shown at the old offset (the track's stretches are read from the reactions, not a band's
    chance), so the splice is looked for from it (old offset + run) to the first press after
    (new offset + run), and nowhere else: no fallback, and when the two contradict each
    other (a press the cut removed) `f` is kept. Read from the new offset as above, Boxing's
    cut (run 13.60-15.74 s, splice at video 16.82 s) was moved to 12.28 s; with the fallback,
    Breakout's insertion at 14.68 s was moved to its second splice at 18.68 s."""
    size, ra, rb = f.size_s, f.run_start_s, f.run_end_s
    if size is None or ra is None or rb is None or len(sig) < 3 or speed <= 0:
        return f
    base = before_s + min(size, 0.0)
    lo, hi = (int(np.searchsorted(sig.times, base + r / speed - 1e-6)) for r in (ra, rb))
    if shown:
        lo = int(np.searchsorted(sig.times, before_s + ra / speed - 1e-6))
        if lo > hi:
            return f  # the presses contradict each other (one in a removed stretch): kept
    w = max(int(round(size * sig.fps)), 0)
    k = standout(sig, lo, hi, w)
    if k is not None and f.video_start_s is not None:
        k = stronger_own(sig, k, int(np.searchsorted(sig.times, f.video_start_s - 1e-6)), w)
    if k is None and f.video_start_s is not None and not shown:
        c, m = f.video_start_s, abs(size)
        lo, hi = (int(np.searchsorted(sig.times, t - 1e-6)) for t in (c - m, c + m))
        k = strongest_standout(sig, lo, hi, w)
    if k is None:
        return f
    k = inserted_start(sig, k, w)
    end = float(sig.times[min(k + w, len(sig) - 1)]) if w else None
    g = jump_finding(size, float(sig.times[k]), end, ra, rb)
    return replace(f, message=g.message, video_start_s=g.video_start_s, video_end_s=g.video_end_s)


def on_run_clock(f: SyncFinding, clock_s: float) -> SyncFinding:
    """`f` with the run times of the place its message names, on the clock the offset
    `clock_s` sets (the one the analysis reports as used, or the moderator's): from the
    splice's run time to where the run resumes after a cut (the removed stretch, shown
    nowhere), or, footage inserted, the inserted span where the timeline places it. The
    finding's click (its run start), its span on the timeline and its message's "run ... to
    ..." are read from them. The track's were the presses around the window it placed the
    jump from: Carnival's cut, dated at video 18.40 s, still said "run 19.63 s to 21.65 s"
    (video 21.33 s at the offset given), where a click took the moderator, 2.9 s past the
    splice; Kangaroo's, at video 19.68 s, "run 12.33 s to 13.31 s" (video 14.3 s)."""
    vs, size = f.video_start_s, f.size_s
    if vs is None or size is None:
        return f
    r1 = (f.video_end_s if f.video_end_s is not None else vs - min(size, 0.0)) - clock_s
    return replace(f, run_start_s=round(vs - clock_s, 3), run_end_s=round(r1, 3))


def dated_jumps(res: SyncAnalysis, sig: FrameSignals) -> SyncAnalysis:
    """`res` (an analysis with a suggested offset) with its own offset jumps (`jumps`, the
    track's stretches at a chance or a moved part) dated as `band_jump` dates its own:
    `placed` from the offset of the stretch before each, on the clock of the offset used
    (`on_run_clock`), so that the message, the span and the click name one place.

    The track places these jumps at their splice already (on the 226 cached corpus runs,
    session 24), but their run times were the presses around it, so a click went there:
    kangaroo-insert's mark at video 11.92 s for a splice at 14.18 s, boxing-cut's at 15.50 s
    for 16.82 s. (QA s24 R3, Assault's insertion dated 1.03 s early, is a `band_jump`
    finding, not one of these: `band_jump.jumps_at`.)"""
    used = res.offset_used_s
    if res.suggested_offset_s is None or used is None or \
            not any(f.rule == "sync.offset_jump" for f in res.findings):
        return res
    ends = {round(float(b), 3): float(o) for _, b, o in res.segments}
    found = [on_run_clock(placed(f, sig, ends.get(f.run_start_s, used), res.speed, True),
                          used)
             if f.rule == "sync.offset_jump" and f.run_start_s is not None else f
             for f in res.findings]
    return replace(res, findings=sorted(found, key=video_order))
