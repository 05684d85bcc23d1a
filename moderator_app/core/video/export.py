"""Evidence frames: the exact picture the workstation shows at a moment, as a PNG.

`frame_for_time(index, t)` is the one rule for "which frame is on screen at video time t"
(the last frame whose timestamp is at or before t; None outside the footage or inside a gap
longer than the footage-gap threshold), shared by the player and `moderator-app frame`, so the
exported frame is the one the moderator saw. Decoding happens in the isolated video process.
"""

from __future__ import annotations

import zlib
from pathlib import Path
from struct import pack

import numpy as np

from moderator_app.core.thresholds import DEFAULT_VIDEO_LIMITS

from .index import FrameIndex
from .isolate import VideoProcess, VideoProcessError


def frame_for_time(index: FrameIndex, t: float,
                   max_hold_s: float | None = DEFAULT_VIDEO_LIMITS.footage_gap_s) -> int | None:
    """The frame shown at video time `t`, or None when there is no footage at `t`."""
    return index.frame_at(t, max_hold_s)


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
