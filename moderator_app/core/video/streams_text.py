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


#: Findings the note is given at most: one per span where other streams have footage; the
#: last one runs from its span to the last span's end.
MAX_NOTES = 8


def several_streams_spans(info: dict, duration: float
                          ) -> list[tuple[float, float, tuple[int, ...], int]]:
    """Where the other streams have footage (video time), each span of any of them (spans of
    two streams that meet are one): (start, end, the streams there, spans taken in), within
    the video; at most MAX_NOTES, the last running to the last span's end. [(0, `duration`,
    (), 0)], the whole video, when one of them has no span read (or more are counted than
    named) or their footage is not inside the video's time."""
    others = _other_streams(info)
    whole: list[tuple[float, float, tuple[int, ...], int]] = [(0.0, duration, (), 0)]
    total = info.get("other_video_count")
    named_all = not isinstance(total, int) or total <= len(others)
    per = [_spans(o) for o in others]
    if not others or not named_all or any(not sp for sp in per):
        return whole
    pieces = sorted((max(0.0, a), min(duration, b), _index(o))
                    for o, sp in zip(others, per, strict=True) for a, b in sp)
    out: list[tuple[float, float, tuple[int, ...], int]] = []
    for a, b, k in pieces:
        if b <= a:
            continue
        if out and a <= out[-1][1]:
            s, e, ks, n = out[-1]
            out[-1] = (s, max(e, b), tuple(sorted({*ks, k})), n)
        else:
            out.append((a, b, (k,), 1))
    if not out:
        return whole
    if len(out) > MAX_NOTES:
        rest = out[MAX_NOTES - 1:]
        ks = tuple(sorted({k for _, _, kk, _ in rest for k in kk}))
        out = [*out[:MAX_NOTES - 1], (rest[0][0], max(e for _, e, _, _ in rest), ks,
                                       len(rest))]
    return out


def again_text(streams: tuple[int, ...], start: float, end: float, spans: int) -> str:
    """The note's later findings: 'stream 1 (not checked or shown) has footage again from
    18.000 s to 20.000 s'."""
    who = (f"stream {streams[0]} (not checked or shown) has" if len(streams) == 1 else
           f"streams {', '.join(map(str, streams))} (not checked or shown) have")
    more = f", in {spans} spans," if spans > 1 else ""
    return f"{who} footage again{more} from {start:.3f} s to {end:.3f} s"


def _spans(o: dict) -> list[tuple[float, float]]:
    """The stream's footage spans the video process read (`footage_spans_s`; before session
    25 the one `footage_s`, its first packet to its last), those that are spans."""
    raw = o.get("footage_spans_s")
    if not isinstance(raw, list):
        raw = [o.get("footage_s")]
    return [sp for sp in map(_pair, raw[:64]) if sp is not None]


def _pair(raw) -> tuple[float, float] | None:
    if not isinstance(raw, list) or len(raw) != 2:
        return None
    a, b = raw
    ok = all(isinstance(v, (int, float)) and not isinstance(v, bool) and np.isfinite(v)
             for v in (a, b))
    return (float(a), float(b)) if ok and b > a else None


def _index(o: dict) -> int:
    k = o.get("index")
    return k if isinstance(k, int) and not isinstance(k, bool) else -1


def _footage(o: dict) -> str:
    """'; footage from 3.000 s to 5.000 s and from 18.000 s to 20.000 s' (four at most, then
    how many more), and the stretch between the reads that was not read, if any."""
    spans = _spans(o)
    text = ""
    if spans:
        listed = " and ".join(f"from {a:.3f} s to {b:.3f} s" for a, b in spans[:4])
        more = len(spans) - 4
        extra = o.get("footage_spans_more")
        more += extra if isinstance(extra, int) and not isinstance(extra, bool) and extra > 0 \
            else 0
        text = f"; footage {listed}" + (f" and {more} more spans" if more > 0 else "")
    unread = _pair(o.get("footage_unread_s"))
    if unread is not None:
        text += f"; its packets from {unread[0]:.3f} s to {unread[1]:.3f} s not read"
    return text


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
