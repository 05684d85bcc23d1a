"""The `video.several_streams` note's text: the stream checked and shown, and the others, each
as its header describes it ("h264 320x240, 30 fps, 5.0 s"; any value may be missing). Moved out
of probe.py (session 23) to keep it under the ~600-line guide."""

from __future__ import annotations

import numpy as np


def several_streams_text(info: dict, index, duration: float) -> str | None:
    """The note on the other video streams the video process listed in `info`, or None when
    the file holds one. `index`: the checked stream's `FrameIndex`."""
    others = _other_streams(info)
    if not others:
        return None
    rate = 1 / index.frame_duration_s if index.frame_duration_s > 0 else None
    shown = _shape(index.codec, index.width, index.height, rate, duration)
    rest = "; ".join(f"stream {_int(o.get('index'))} (" + _shape(
        o.get("codec"), o.get("width"), o.get("height"), o.get("fps"),
        o.get("duration_s")) + ")" for o in others)
    total = info.get("other_video_count")
    total = total if isinstance(total, int) and total >= len(others) else len(others)
    more = f"; and {total - len(others)} more" if total > len(others) else ""
    return (f"the file holds {total + 1} video streams: stream "
            f"{_int(info.get('video_stream'))} ({shown}) is checked and shown, as ffmpeg plays "
            f"it by default; not checked or shown: {rest}{more}")


def _other_streams(info: dict) -> list[dict]:
    raw = info.get("other_video")
    return [o for o in raw[:8] if isinstance(o, dict)] if isinstance(raw, list) else []


def _int(v) -> str:
    return str(v) if isinstance(v, int) and not isinstance(v, bool) else "?"


def _num(v) -> float | None:
    ok = isinstance(v, (int, float)) and not isinstance(v, bool) and np.isfinite(v) and v > 0
    return float(v) if ok else None


def _shape(codec, w, h, fps, seconds) -> str:
    """'h264 320x240, 30 fps, 5.0 s' from a stream's header values (any may be missing)."""
    parts = [f"{str(codec or '?')[:40]} {_int(w)}x{_int(h)}"]
    if (f := _num(fps)) is not None:
        parts.append(f"{f:.6g} fps")
    if (d := _num(seconds)) is not None:
        parts.append(f"{d:.1f} s")
    return ", ".join(parts)
