"""Where a jump of the offset is in the video: the splice frames of footage removed or
inserted between two stretches of the track, and the `sync.offset_jump` finding that names them.

Why apart from `local_findings`: dating a splice reads the picture's changes frame by frame
(a splice changes the whole picture; footage of another attempt of the same game may not),
while the other local findings read the reactions at the offset used.
"""

from __future__ import annotations

import numpy as np

from . import reactions, track
from .records import SyncFinding
from .signals import FrameSignals


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
    return float(pc[k]) <= float(np.percentile(pc, SPLICE_PCT)) and \
        float(pc[k]) <= SPLICE_SPIKE * max(float(pc[k - 1]), float(pc[k + 1]))


# A splice dated by the whole picture alone (`standout`): its frame changes more than this
# percentile of the video's frames (band_splice's splices found: 99.8-99.9th).
STANDOUT_PCT = 99.5


def standout(sig: FrameSignals, lo: int, hi: int, w: int = 0) -> int | None:
    """The frame from `lo` to `hi` whose whole picture changes most (`picture_change`; footage
    inserted, `w` frames long: with the frame `w` later), when that change stands out as a
    splice's: over STANDOUT_PCT of the video's frames and more than SPLICE_SPIKE times each
    frame beside it; None when none does. A splice joins two moments in one frame, where a
    screen that moves on its own (or a reaction) changes it over several: where the presses
    only say between which of them a splice is (seconds apart), its frame says where."""
    n = len(sig)
    if n < 3:
        return None
    lo, hi = sorted((max(1, min(lo, n - 2)), max(1, min(hi, n - 2))))
    pc = np.asarray(sig.picture_change, float)
    idx = np.arange(lo, hi + 1)
    strength = pc[idx] + (pc[np.minimum(idx + w, n - 1)] if w > 0 else 0.0)
    k = int(idx[int(np.argmax(strength))])
    if float(pc[k]) < float(np.percentile(pc, STANDOUT_PCT)) or \
            float(pc[k]) <= SPLICE_SPIKE * max(float(pc[k - 1]), float(pc[k + 1])):
        return None
    return k


def strongest_standout(sig: FrameSignals, lo: int, hi: int, w: int = 0) -> int | None:
    """Of the frames from `lo` to `hi` that stand out as a splice's (`standout`'s test, each
    on its own), the one whose whole picture changes most (with the frame `w` later: footage
    inserted); None when none does. Where `standout` asks whether the largest change is a
    splice's, this passes over larger changes that are not: a flash or a scene change over
    two frames or more (Kangaroo's 54,142 points on two frames beside a cut's 447)."""
    n = len(sig)
    if n < 3:
        return None
    lo, hi = sorted((max(1, min(lo, n - 2)), max(1, min(hi, n - 2))))
    pc = np.asarray(sig.picture_change, float)
    idx = np.arange(lo, hi + 1)
    side = np.maximum(pc[idx - 1], pc[idx + 1])
    ok = (pc[idx] >= float(np.percentile(pc, STANDOUT_PCT))) & (pc[idx] > SPLICE_SPIKE * side)
    if not ok.any():
        return None
    strength = pc[idx] + (pc[np.minimum(idx + w, n - 1)] if w > 0 else 0.0)
    return int(idx[int(np.argmax(np.where(ok, strength, -1.0)))])


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
            k = k0 + dated(ok[:len(pair)], sig.times[k0:k0 + len(pair)], k - k0,
                            a[2] + a[1] / speed, a[2] + b[0] / speed,
                            min(change[k], change[max(k0, k + w - 1):k + w + 2].max()),
                            float(np.percentile(change, SPLICE_PCT)))
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
