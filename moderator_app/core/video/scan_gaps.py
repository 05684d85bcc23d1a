"""The integrity scan's timestamps: `video.timestamp_gap` (footage missing between two frames)
and `video.timestamp_backwards` (scan.py: the rules' story). Apart from scan.py by what it
judges."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from moderator_app.core.thresholds import ScanThresholds

from .middle import median
from .scan_spans import TS_BACK, TS_GAP, Span, end_of, gap_limit

if TYPE_CHECKING:
    from .scan import FrameSignals


def timestamp_spans(sig: FrameSignals, arrays: dict, tb: float, keyframes: np.ndarray,
                    th: ScanThresholds, stores_repeats: bool = True) -> list[Span]:
    """`video.timestamp_gap` where footage is missing between two frames (the picture moved
    on across the gap), `video.timestamp_backwards` where timestamps repeat or go back.
    `stores_repeats` False: the codec never stores a repeated picture (Theora writes an empty
    packet for one, which the demuxer drops; the few small packets refining a still picture
    before that decode identical), so `_repeats_kept` is no evidence of missing footage."""
    out: list[Span] = []
    t = sig.times_s
    holes = dict(zip(arrays["hole_pts"].tolist(), arrays["hole_span_motion"].tolist(),
                     strict=True)) if "hole_pts" in arrays else {}
    # Theora dated by its pages (ogg_theora.py): a repeated picture is an empty packet, so
    # where no frame is missing the gap is a held picture, and where one is, footage is lost,
    # whatever the picture did
    lost = dict(zip(arrays["lost_pts"].tolist(), arrays["lost_n"].tolist(), strict=True)) \
        if "lost_pts" in arrays and "lost_n" in arrays \
        and arrays["lost_pts"].shape == arrays["lost_n"].shape else None
    if sig.frame_count >= 2:
        d = np.diff(t)
        for i in np.nonzero(d > gap_limit(sig, th))[0]:
            why = "the picture changed across the gap"
            t0, t1 = float(t[i]) + sig.frame_duration_s, float(t[i + 1])
            if lost is not None:
                n = lost.get(int(sig.pts[i + 1]), 0)
                if n <= 0:
                    continue  # every frame of it an empty packet: the picture held
                # the frames no packet holds are those just before this one (the count
                # jumps there); the empty packets before them held the picture
                t0 = max(t0, t1 - n * sig.frame_duration_s)
                why = f"the file holds no packet for {n} frames there"
            elif _same_sides(sig, int(i), keyframes, th):
                continue  # one picture on both sides: held, whatever the encoder stored
            elif _held(sig, int(i), th, holes.get(int(sig.pts[i + 1]))) and not (
                    stores_repeats and _repeats_kept(sig, int(i), th)):
                continue  # a still picture held: a VFR repeat drop (judged as a freeze)
            out.append(Span(TS_GAP.id, TS_GAP.severity.value, t0, t1,
                            f"no frame from {t0:.3f} s to {t1:.3f} s ({t1 - t0:.3f} s, "
                            f"{(t1 - t0) / sig.frame_duration_s:.0f} frame durations) and "
                            f"{why}"))
        for i in np.nonzero(d == 0)[0][:20]:
            out.append(Span(TS_BACK.id, TS_BACK.severity.value, float(t[i]), float(t[i]),
                            f"two frames with the same timestamp at {float(t[i]):.3f} s"))
    # where the decode timestamps went back: the packets after it were shifted to follow in
    # file order (joined_timeline.Timeline); the span is the footage whose raw timestamps repeat
    # earlier ones, from the splice on
    base = int(sig.pts[0]) if sig.frame_count else 0
    end = end_of(sig, sig.frame_count - 1) if sig.frame_count else 0.0
    for first, back in zip(arrays["splice_pts"][:20].tolist(),
                           arrays["splice_back"][:20].tolist(), strict=True):
        t0 = (first - base) * tb
        b = back * tb
        # clipped to the decoded footage's end, never before its own start (a splice after
        # the last frame that decodes is a moment there: QA s22 P5 read 20.6 -> 4.0 s)
        out.append(Span(TS_BACK.id, TS_BACK.severity.value, t0, max(t0, min(end, t0 + b)),
                        f"the timestamps go back by {b:.3f} s at {t0:.3f} s (recordings "
                        "joined, or a splice): the footage after it is shown in file order"))
    return out


def _same_sides(sig: FrameSignals, i: int, keyframes: np.ndarray, th: ScanThresholds) -> bool:
    """Whether the frames on both sides of the gap after frame i show one picture: identical
    (no sample point changed beyond codec noise, in luma or colour), or the picture coded
    afresh in a keyframe (at most `same_changed_max` of the points moved). The picture was on
    screen the whole time: no footage is missing, whatever repeats the encoder stored before
    (Theora refines a still picture in a few small packets, then stores none: those stored
    repeats are not `_repeats_kept`'s CFR encoder)."""
    k = i + 1
    luma = sig.changed[k]
    colour = sig.chroma_changed[k] if sig.chroma_changed is not None and \
        sig.chroma_changed.shape == sig.changed.shape else 0.0
    if luma == 0 and colour == 0:
        return True
    return bool(keyframes[k]) and bool(luma <= th.same_changed_max)


def held_through(gap: Span, stills: list[Span]) -> bool:
    """Whether a `video.timestamp_gap` is the end of a reported still stretch (a picture or a
    black frame held across it until the next frame): that stretch is what the moderator
    looks at; the gap is not footage lost (QA s17 K5: a 3.4 s freeze in Theora stored as a
    frame at 9.000 s then 9.500 s was also a gap warning 9.033-9.5, dated 2.9 s late)."""
    return gap.rule == TS_GAP.id and any(
        s.start_s <= gap.start_s and abs(s.end_s - gap.end_s) < 1e-6 for s in stills)


def _repeats_kept(sig: FrameSignals, i: int, th: ScanThresholds) -> bool:
    """Whether the recording keeps repeated frames near the hole after frame i: a still
    picture stored as `repeats_kept_frames` or more repeats (decoded identical: no changed point,
    motion at most `repeat_motion_max`) in a row at the usual spacing, within `repeats_kept_s` before or after
    the hole. An encoder that stores repeats did not drop the hole's frames for being repeats:
    the hole is missing footage however little the picture changed across it (a 1.5 s hole in
    a real Atari game whose ball barely moves was taken for a VFR hold, issue 12 QA). Frames
    that are only the same picture at the scan's resolution (a ball moving) do not count: a
    VFR recorder that drops exact repeats keeps them."""
    t = sig.times_s
    repeat = (sig.changed <= th.repeat_changed_max) & (sig.motion <= th.repeat_motion_max)
    lo = int(np.searchsorted(t, t[i] - th.repeats_kept_s, side="left"))
    hi = int(np.searchsorted(t, t[i + 1] + th.repeats_kept_s, side="right"))
    run = 0
    for k in range(max(1, lo), min(hi, sig.frame_count)):
        regular = t[k] - t[k - 1] <= 1.5 * sig.frame_duration_s
        run = run + 1 if repeat[k] and regular else 0
        if run >= th.repeats_kept_frames:
            return True
    return False


def _held(sig: FrameSignals, i: int, th: ScanThresholds, span: float | None = None) -> bool:
    """Whether the picture after a timestamp gap (frame i+1) differs from the one before no
    more than one frame's usual change does: the encoder dropped repeats (or the game paused),
    rather than footage being missing (the scene would have moved on). `span`: the change the
    picture made over the hole's own length just before it (signals._Holes); a change across
    the hole nearer to that than to one frame's is footage that moved on, even under the
    fixed ratio (content that changes a third of the picture every frame saturates)."""
    m = sig.motion
    across = m[i + 1]
    if not np.isfinite(across):
        return False
    before = m[max(1, i - 30):i + 1]
    before = before[np.isfinite(before)]
    usual = float(median(before)) if before.shape[0] else 0.0
    if across > max(th.hold_motion_min, th.hold_ratio * usual):
        return False
    # The share of points changed tells it where the mean change saturates: a picture that
    # moved every frame before the hole (not a still one whose repeats an encoder drops) and
    # changed hold_ratio times the usual share of its points across it moved on. QA session 14
    # (G5): 19 frames (0.79 s) cut from 24 fps footage changing 14 % of its points a frame
    # changed 35-49 % across the hole at 1.3-1.5x the usual mean change, under both rules
    # below; a hole of 20 frames changed more and was found.
    changed = sig.changed[max(1, i - 30):i + 1]
    changed = changed[np.isfinite(changed)]
    if usual > th.hold_motion_min and changed.shape[0] and np.isfinite(sig.changed[i + 1]) \
            and sig.changed[i + 1] > th.hold_ratio * float(median(changed)):
        return False
    # Footage moved on when the picture had been moving on before the hole (its change over
    # the hole's length is well above one frame's) and changed across it about as much. A
    # first change after a VFR hold is one frame's: an honest VFR Breakout recording had a
    # hole whose first change was 5x the near-still frames before it (span under one frame's
    # change) and one at 0.67 of the span; a 1.5 s hole cut from a Breakout CFR recording is
    # at 1.09 of it, busy content at ~1.
    moved_on = span is not None and np.isfinite(span) and across > th.moved_on_min * usual \
        and span > th.moved_on_min * usual and across >= th.moved_on_span_share * span
    return not moved_on

