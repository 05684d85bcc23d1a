"""The integrity scan's still pictures: `video.frozen` (the same picture held) and
`video.black` (scan.py: the rules' story). Apart from scan.py by what it judges."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from moderator_app.core.rules import Severity
from moderator_app.core.thresholds import ScanThresholds

from .middle import median
from .resume import held_resumes_gradually
from .scan_spans import BLACK, FROZEN, Span, end_of, gap_limit

if TYPE_CHECKING:
    from .scan import FrameSignals

# the words of a drift note (`still_spans`): the full-resolution pass reads such a note's
# colours again (held_colour.py: a fade moves no colour, a palette's turn does)
DRIFT_SAID = "but for a brightness drift"


def same_picture(sig: FrameSignals, keyframes: np.ndarray, th: ScanThresholds) -> np.ndarray:
    """Per frame: the same picture as the frame before it (False for the first frame)."""
    n = sig.frame_count
    changed = sig.changed  # luma: colour's codec noise alone exceeds the share (chroma.py)
    same = np.zeros(n, bool)
    same[1:] = changed[1:] <= th.same_changed_max  # NaN compares False
    # a keyframe between two still neighbours that changed little is the held picture coded
    # afresh (intra re-quantisation), not the picture moving
    recoded = np.zeros(n, bool)
    recoded[1:-1] = keyframes[1:-1] & (changed[1:-1] <= th.keyframe_noise_max) \
        & same[:-2] & same[2:]
    return same | recoded


def _changed(sig: FrameSignals) -> np.ndarray:
    """Per frame, the share of sample points that changed beyond codec noise in luma or in
    colour, whichever is more: a frame is identical to the one before only when neither
    moved (a green square on a grey room moves no luma, chroma.py)."""
    if sig.chroma_changed is None or sig.chroma_changed.shape != sig.changed.shape:
        return sig.changed
    return np.fmax(sig.changed, sig.chroma_changed)  # NaN only where both are


def held_slots(sig: FrameSignals, th: ScanThresholds) -> np.ndarray:
    """Per frame, the frame durations it stays on screen where the next frame comes after a
    timestamp gap (more than `gap_limit`), else 1: a picture is shown from its timestamp to
    the next frame's, and across a gap the file holds no other picture."""
    n = sig.frame_count
    slots = np.ones(n, np.float64)
    if n >= 2:
        d = np.diff(sig.times_s)
        gap = d > gap_limit(sig, th)
        slots[:-1][gap] = np.maximum(1.0, np.round(d[gap] / sig.frame_duration_s))
    return slots


def still_spans(sig: FrameSignals, same: np.ndarray, keyframes: np.ndarray,
                th: ScanThresholds) -> list[Span]:
    """`video.black` and `video.frozen` spans. A frame is on screen from its timestamp to the
    next frame's (`end_of`), across a timestamp gap too: a black frame held over a gap is
    black for that whole time, a picture held over one is still (scan_gaps.py leaves such a
    gap to the stretch)."""
    out: list[Span] = []
    n = sig.frame_count
    if n == 0:
        return out
    black = sig.luma_max <= th.black_luma_max
    # black stretches
    i = 0
    while i < n:
        if not black[i]:
            i += 1
            continue
        j = i
        while j + 1 < n and black[j + 1]:
            j += 1
        t0, t1 = float(sig.times_s[i]), end_of(sig, j)
        if t1 - t0 >= th.black_s:
            # under black_warning_s a game's own blank screen looks the same (3-D Tic-Tac-Toe
            # blanks for 0.5 s at each of its moves): listed as a note, not a warning
            short = t1 - t0 < th.black_warning_s
            out.append(Span(BLACK.id, Severity.INFO.value if short else BLACK.severity.value,
                            t0, t1,
                            f"black from {t0:.3f} s to {t1:.3f} s ({t1 - t0:.1f} s)"
                            + (f"; under {th.black_warning_s:g} s, as a game's own blank "
                               "screen is: a note" if short else "")))
        i = j + 1
    # frozen: a frame and the frames after it that are the same picture (not black), where
    # the picture is held (`_held_stretches`), not a still screen that lives
    i = 0
    while i < n:
        j = i
        while j + 1 < n and same[j + 1]:
            j += 1
        if end_of(sig, j) - float(sig.times_s[i]) >= th.freeze_s \
                and not black[i:j + 1].all():
            pieces, drifted = _held_stretches(sig, i, j, keyframes, th)
            for a, b in drifted:
                t0, t1 = float(sig.times_s[a]), end_of(sig, b)
                out.append(Span(FROZEN.id, Severity.INFO.value, t0, t1, (
                    f"the picture is still from {t0:.3f} s to {t1:.3f} s ({t1 - t0:.1f} s) "
                    f"{DRIFT_SAID}: no sample point changes past codec noise "
                    f"while its mean luma moves more than {th.drift_max:g} level within "
                    f"{th.held_window_s:g} s (a palette's colours turning a step at a time, "
                    f"or a held frame faded): a note, step through it")))
            for a, b in pieces:
                t0, t1 = float(sig.times_s[a]), end_of(sig, b)
                if t1 - t0 < th.freeze_s:
                    continue
                # a still picture from the first frame or to the last is a title, pre-start
                # or game-over screen on honest footage, one that resumes gradually a
                # game's own pause: listed, not a warning (DECISIONS.md)
                edge = " at the start of the footage" if a == 0 else \
                    " at the end of the footage" if b == n - 1 else \
                    " and resumes gradually (a game's own pause)" if held_resumes_gradually(
                        _changed(sig), a, b, 1.0 / max(sig.frame_duration_s, 1e-9)) else ""
                out.append(Span(FROZEN.id, Severity.INFO.value if edge
                                else FROZEN.severity.value, t0, t1,
                                f"the picture is frozen from {t0:.3f} s to {t1:.3f} s "
                                f"({t1 - t0:.1f} s, {b - a + 1} frames){edge}"))
        i = j + 1
    return out


def _held_stretches(sig: FrameSignals, i: int, j: int, keyframes: np.ndarray,
                    th: ScanThresholds
                    ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The stretches of the same-picture frames i..j where the picture is held: around each
    frame (`held_window_s`, within i..j) at least `held_identical_share` of the frames are
    identical to the one before (no sample point changed beyond codec noise). A frozen
    capture repeats one picture: only the codec moves a few points now and then (a keyframe,
    quality refined over a few frames; 88-100 % of the frames identical in the 17 inserted
    freezes of the real-game corpus). A still game screen that lives (Tennis between
    points: a few points change in runs of 9-20 frames) has 17-41 % (docs/DECISIONS.md).
    A frame shown across a timestamp gap (`held_slots`) counts as itself and, for each frame
    duration of the gap, one identical repeat: an encoder that stores no packet for a repeated
    picture (Theora; a VFR recorder) holds the picture on screen that long (QA s17 K5: a 3.4 s
    freeze stored as 3 frames, the last two 2.87 s and 0.5 s apart, counted 3 frames).
    Neither where the picture lives (`_living`) nor where its mean luma drifts (`_drifting`:
    colours that turn a step at a time under every bar, QA s39 T3). Second: the held
    stretches of `freeze_s` or more that drift, each whole, or only from its first drifting
    frame to its last (when that lasts `freeze_s`) where a held piece of `freeze_s` or more
    is left in it (said on its own)."""
    if j <= i:
        return [(i, j)], []
    t = sig.times_s[i:j + 1]
    ident = np.zeros(j - i + 1, np.float64)
    ident[1:] = _changed(sig)[i + 1:j + 1] == 0  # NaN: not identical
    ident[0] = ident[1]  # the run's first frame is judged with the next
    slots = held_slots(sig, th)[i:j + 1]
    cum = np.concatenate(([0.0], np.cumsum(ident + slots - 1)))
    count = np.concatenate(([0.0], np.cumsum(slots)))
    h = th.held_window_s / 2
    lo = np.searchsorted(t, t - h, "left")
    hi = np.searchsorted(t, t + h, "right")
    held = (cum[hi] - cum[lo]) / (count[hi] - count[lo]) >= th.held_identical_share
    held &= ~_living(sig, i, j, keyframes, th)
    drift = _drifting(sig, i, j, th)
    pieces = _runs(held & ~drift, i)
    # a held stretch whose only life is its mean luma's drift stays said, as a note: an
    # honest colour cycle (QA s39 T3) and a held frame faded by an edit (review s40 R2: a
    # brightness ramp of 2 levels a second over an edited freeze) read alike here
    drifted = []
    for a, b in _runs(held, i):
        d = np.nonzero(drift[a - i:b - i + 1])[0]
        if d.shape[0] == 0 or end_of(sig, b) - float(sig.times_s[a]) < th.freeze_s:
            continue
        kept = [(x, y) for x, y in pieces if a <= x and y <= b
                and end_of(sig, y) - float(sig.times_s[x]) >= th.freeze_s]
        x, y = (a + int(d[0]), a + int(d[-1])) if kept else (a, b)
        if end_of(sig, y) - float(sig.times_s[x]) >= th.freeze_s:  # beside a kept piece
            drifted.append((x, y))
    return pieces, drifted


def _runs(mask: np.ndarray, i: int) -> list[tuple[int, int]]:
    """The runs of True in `mask` as frame indices (first, last), offset by `i`."""
    out = []
    k = 0
    while k < mask.shape[0]:
        if not mask[k]:
            k += 1
            continue
        m = k
        while m + 1 < mask.shape[0] and mask[m + 1]:
            m += 1
        out.append((i + k, i + m))
        k = m + 1
    return out


def _living(sig: FrameSignals, i: int, j: int, keyframes: np.ndarray,
            th: ScanThresholds) -> np.ndarray:
    """Per frame of i..j: between two changes of the same spot (a 16x16 tile with a point
    moved beyond SYNC_NOISE), neither at a keyframe, at most `live_gap_s` apart and with an
    unchanged frame between them (a codec refines a picture in consecutive frames). A still
    screen that lives keeps changing the same few points (H.E.R.O.'s idle hero: 6 points of
    one tile every 1.07 s, 145 levels; a blinking cursor), so most of its frames are
    identical and `held_identical_share` alone takes it for a freeze. A held picture's
    frames change only where the codec recodes it (a keyframe, or quality refined: under
    SYNC_NOISE in the inserted freezes of the corpus, docs/DECISIONS.md). A frame the file
    does not hold (a timestamp gap: a repeat the encoder dropped) is an unchanged frame."""
    live = np.zeros(j - i + 1, bool)
    if sig.sync_tiles.shape[0] != sig.frame_count or j <= i:
        return live
    moved = sig.sync_tiles[i:j + 1] > 0
    ct = sig.chroma_tiles
    if ct is not None and ct.shape[0] == sig.frame_count and ct.shape[1:] == (
            moved.shape[1], moved.shape[2] // 2):
        moved |= np.repeat(ct[i:j + 1] > 0, 2, axis=2)  # a spot that lives in colour
    moved[0] = False  # the stretch's first frame changed from the picture before it
    ev = np.nonzero(moved.any(axis=(1, 2)) & ~keyframes[i:j + 1])[0]
    t = sig.times_s[i:j + 1]
    for p, q in zip(ev[:-1].tolist(), ev[1:].tolist(), strict=True):
        # a frame the encoder did not store (a timestamp gap) is an unchanged one: a cursor
        # blinking every 0.5 s in a file that drops repeats is two frames a blink
        between = q - p >= 2 or t[q] - t[p] > 1.5 * sig.frame_duration_s
        if between and t[q] - t[p] <= th.live_gap_s and (moved[p] & moved[q]).any():
            live[p:q + 1] = True
    return live


def _drifting(sig: FrameSignals, i: int, j: int, th: ScanThresholds) -> np.ndarray:
    """Per frame of i..j: the picture's mean luma drifts around it, its running median over
    `drift_median_s` spanning more than `drift_max` levels within `held_window_s` (both
    windows inside i..j). A held picture repeats one mean (the 47 spans over an edited
    freeze in the census of session 39 drift at most 0.234 levels); a picture whose colours
    turn a step at a time does not, while every step stays under the still test's bars (QA
    s39 T3: synth_strobe's hue cycle, 7.5 degrees every 8th frame, at most 3.95 luma levels
    a step, no sample point past 12 levels, a range of 16.26 levels over 6 s). The median
    lets a flash that comes back (a frame or two) be no drift. Windows in frames of the
    usual duration: over a held picture the mean is one value however its frames are
    spaced."""
    y = np.asarray(sig.luma[i:j + 1], np.float64)
    n = y.shape[0]
    fd = max(sig.frame_duration_s, 1e-9)
    if n < 2 or not np.isfinite(y).all():
        return np.zeros(n, bool)
    k = int(round(th.drift_median_s / fd)) // 2
    # middle.median, not np.median: the same numbers without importing numpy.ma (session 27;
    # tests/video/test_video_forked.py)
    med = median(np.lib.stride_tricks.sliding_window_view(
        np.pad(y, (k, k), mode="edge"), 2 * k + 1), axis=1) if k > 0 else y
    w = max(1, int(round(th.held_window_s / 2 / fd)))
    win = np.lib.stride_tricks.sliding_window_view(np.pad(med, (w, w), mode="edge"), 2 * w + 1)
    return win.max(axis=1) - win.min(axis=1) > th.drift_max
