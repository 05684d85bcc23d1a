"""Evidence frames: the exact picture the workstation shows at a moment, as a PNG.

`frame_for_time(index, t, no_footage)` is the one rule for "which frame is on screen at video
time t" (the last frame whose timestamp is at or before t; None outside the footage, inside a
gap longer than the footage-gap threshold, or inside a span the probe declares without footage:
`VideoProbe.no_footage`, the footage gaps and the joined recordings that do not decode), shared
by the player, File > Save frame and `moderator-app frame`, so the exported frame is the one
the moderator saw and nothing is shown where the verdict counts footage missing (the frames of
a joined recording decoded with another's parameters are a smear: QA s22 "O").
`no_footage_reason` says why there is none, with the finding's rule. Decoding happens in the
isolated video process.
"""

from __future__ import annotations

import zlib
from bisect import bisect_right
from pathlib import Path
from struct import pack

import numpy as np

from moderator_app.core.thresholds import DEFAULT_VIDEO_LIMITS

from .index import FrameIndex
from .isolate import VideoProcess, VideoProcessError
from .probe import FOOTAGE_GAP, NoFootage, union_spans

_HOLD_S = DEFAULT_VIDEO_LIMITS.footage_gap_s
_EPS = 1e-6  # boundaries read at 1 µs, as FrameIndex.frame_at reads them


def frame_for_time(index: FrameIndex, t: float, max_hold_s: float | None = _HOLD_S,
                   no_footage: tuple[NoFootage, ...] = ()) -> int | None:
    """The frame shown at video time `t`, or None when there is no footage at `t`."""
    n = index.frame_at(t, max_hold_s)
    return None if n is None or _span_at(no_footage, t) is not None else n


def no_footage_reason(index: FrameIndex, t: float, max_hold_s: float | None = _HOLD_S,
                      no_footage: tuple[NoFootage, ...] = ()) -> str | None:
    """Why there is no footage at video time `t` ("video.joined_undecodable: recording 2 ...",
    "the video spans 0.000-28.000 s"), or None when `frame_for_time` gives a frame."""
    if index.frame_at(t, max_hold_s) is not None:
        span = _span_at(no_footage, t)
        return None if span is None else f"{span.rule}: {span.text}"
    # a span of the probe's first: a joined stretch runs on past the index's last frame when
    # that frame is a damaged one inside it (QA s23 Q1: "the video spans 0.000-21.866 s" at
    # 23.5 s of a 3.0-24.0 s stretch of a 24.0 s video)
    span = _span_at(no_footage, t) if t >= -_EPS else None
    if span is not None:
        return f"{span.rule}: {span.text}"
    end = index.duration_s
    if not -_EPS <= t < end - _EPS:  # before, after (a NaN too)
        return f"the video spans 0.000-{end:.3f} s"
    return f"{FOOTAGE_GAP.id}: no new frame for more than {max_hold_s:g} s"


def _span_at(spans: tuple[NoFootage, ...], t: float) -> NoFootage | None:
    """The span (sorted by start, overlaps possible but few) holding `t`: a moment within 1 µs
    of a start is inside, of an end after it (as `FrameIndex.frame_at` reads boundaries)."""
    i = bisect_right(spans, t + _EPS, key=lambda s: s.start_s)
    for k in range(i - 1, max(i - 9, -1), -1):
        if t < spans[k].end_s - _EPS:
            return spans[k]
    return None


def no_footage_spans(index: FrameIndex, max_hold_s: float | None = _HOLD_S,
                     no_footage: tuple[NoFootage, ...] = ()) -> tuple[tuple[float, float], ...]:
    """Every span of video time where `frame_for_time` gives no frame, sorted and merged:
    before the first frame and after the last one's end (infinite), a frame held longer than
    `max_hold_s`, and the probe's `no_footage`. The player's sound is silent there
    (`AudioFeeder`'s `silent`): the picture says "no footage at this time", and the sound
    played on under it (session 23, issue 12 point 3)."""
    spans = [(-np.inf, 0.0), (index.duration_s, np.inf)]
    if max_hold_s is not None and index.frame_count:
        ends = np.append(index.times_s, index.duration_s)
        held = np.nonzero(np.diff(ends) > max_hold_s)[0]
        spans += [(float(ends[i]) + max_hold_s, float(ends[i + 1])) for i in held]
    spans += [(s.start_s, s.end_s) for s in no_footage if s.start_s < s.end_s]
    return union_spans(spans)


def read_frames(path: Path | str, index: FrameIndex, frames: list[int],
                timeout_s: float = 120.0) -> list[np.ndarray | None]:
    """RGB pixels (H, W, 3) of each frame number (None for one that cannot be decoded), decoded
    exactly by the index in one isolated process."""
    out: list[np.ndarray | None] = []
    blob = index.to_bytes()
    with VideoProcess(path, timeout_s=timeout_s) as vp:
        first = True
        for n in frames:
            req = {"op": "frame", "n": int(n), "keep": True}
            payload = b""
            if first:
                req["index_len"] = len(blob)
                payload = blob
                first = False
            try:
                msg = vp.request(req, payload)
            except VideoProcessError as exc:
                if exc.reason.startswith("frame "):
                    out.append(None)
                    continue
                raise
            w, h = int(msg.header["width"]), int(msg.header["height"])
            data = msg.blobs[0]
            if len(data) != w * h * 3:
                raise VideoProcessError("the video reader sent a malformed frame")
            out.append(np.frombuffer(data, np.uint8).reshape(h, w, 3))
    return out


def png_bytes(rgb: np.ndarray) -> bytes:
    """A PNG of RGB pixels (zlib, no image library: the CLI stays light)."""
    h, w = rgb.shape[:2]
    raw = b"".join(b"\x00" + rgb[y].tobytes() for y in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return pack(">I", len(data)) + kind + data + pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))
