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
        o.get("duration_s")) + _footage(o) + ")" for o in others)
    total = info.get("other_video_count")
    total = total if isinstance(total, int) and total >= len(others) else len(others)
    more = f"; and {total - len(others)} more" if total > len(others) else ""
    return (f"the file holds {total + 1} video streams: stream "
            f"{_int(info.get('video_stream'))} ({shown}) is checked and shown, as ffmpeg plays "
            f"it by default; not checked or shown: {rest}{more}")


def several_streams_span(info: dict, duration: float) -> tuple[float, float]:
    """The note's moment (video time): where the other streams have footage (the first
    packet of the earliest to the end of the latest, `child_others.other_spans`), within the
    video; the whole video, 0 to `duration`, when one of them has no span read (or more are
    counted than named) or their footage is not inside the video's time."""
    others = _other_streams(info)
    spans = [_span(o) for o in others]
    total = info.get("other_video_count")
    named_all = not isinstance(total, int) or total <= len(others)
    if not others or not named_all or any(sp is None for sp in spans):
        return 0.0, duration
    start = max(0.0, min(sp[0] for sp in spans if sp is not None))
    end = min(duration, max(sp[1] for sp in spans if sp is not None))
    return (start, end) if end > start else (0.0, duration)


def _span(o: dict) -> tuple[float, float] | None:
    """The stream's footage span the video process read (`footage_s`), when it is one."""
    raw = o.get("footage_s")
    if not isinstance(raw, list) or len(raw) != 2:
        return None
    a, b = raw
    ok = all(isinstance(v, (int, float)) and not isinstance(v, bool) and np.isfinite(v)
             for v in (a, b))
    return (float(a), float(b)) if ok and b > a else None


def _footage(o: dict) -> str:
    sp = _span(o)
    return "" if sp is None else f"; footage from {sp[0]:.3f} s to {sp[1]:.3f} s"


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
