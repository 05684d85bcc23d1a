"""The recordings joined in a file, as the probe reads the video process's check of them
(`child_segments.check_joined`): plain helpers on its JSON, apart from probe.py by size."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .index import FrameIndex

# frames that end this close to a stretch's end reach it (rounding of 1/1000 time bases)
_TICK_S = 0.001


def through_joined(index: FrameIndex, joined, duration: float, frames: int
                   ) -> tuple[float, float | None]:
    """The measured duration, and where footage stops, when the file's last frame lies inside
    a joined recording that does not decode to the file's end (`check_joined`: a stretch to
    the end) and the frames stop short of that stretch's end: the duration is the stretch's
    end (where its packets end), and the footage stops at its start. Such a frame is a
    damaged picture the decoder made of another codec's packets, at a moment of no meaning:
    QA s23 Q1 j23_mpeg4bf2_then_h264bf0_mkv_30 measured 21.866 s of a 24.0 s file (one
    damaged frame at 21.833 s of its 3.0-24.0 s stretch), with a header mismatch, a freeze
    and uneven intervals over the stretch. A stretch that holds no frame leaves the duration
    at the last frame that decodes, before it (3.0 s for the same join without that frame,
    the rule QA s22 accepted); frames that run to the stretch's end (pictures decoded with
    another recording's parameters) measure it themselves. (duration, None) otherwise."""
    if not isinstance(joined, dict) or not frames or not joined.get("to_end"):
        return duration, None
    base, tb = int(index.pts[0]), float(index.time_base)
    last = float(index.times_s[frames - 1])
    raw = joined.get("stretches")
    for st in raw[:50] if isinstance(raw, list) else ():
        if not isinstance(st, dict) or isinstance(st.get("end_pts"), int):
            continue  # a stretch that ends at a whole frame: the footage goes on after it
        a, until = st.get("start_pts"), st.get("until_pts")
        if not isinstance(a, int) or not isinstance(until, int) or isinstance(until, bool):
            continue
        a_s, b_s = float((a - base) * tb), float((until - base) * tb)
        if a_s <= last < b_s and duration < b_s - _TICK_S and np.isfinite(b_s):
            return b_s, a_s
    return duration, None


def params(v) -> tuple[str, str] | None:
    """A joined recording's own parameters and those it is decoded with, as text ("h264
    800x600", "h264 640x480"); None when the video process said nothing usable."""
    if not isinstance(v, dict):
        return None
    out = []
    for key in ("own", "shown"):
        p = v.get(key)
        if not isinstance(p, dict) or not isinstance(p.get("codec"), str):
            return None
        out.append(f"{p['codec'][:32]} {count(p.get('width'))}x{count(p.get('height'))}")
    return out[0], out[1]


def count(v) -> int:
    """A count from the JSON: a non-negative int, else 0."""
    return v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else 0


def unread(joined) -> list[dict]:
    """The recordings joined past the demuxer's last packet (`joined_headers.unread_recordings`,
    from the video process): each a dict with an int `at` and `number` (2 and up, rising);
    at most 32."""
    raw = joined.get("unread") if isinstance(joined, dict) else None
    out = [u for u in raw[:32] if isinstance(u, dict) and count(u.get("at"))
           and count(u.get("number")) >= 2] if isinstance(raw, list) else []
    rising = all(a["number"] < b["number"] for a, b in zip(out, out[1:], strict=False))
    return out if rising else []


def recordings(joined, read: int) -> tuple[int, int]:
    """(recordings the demuxer read, recordings in the file): by the headers when some are
    unread (`unread`; never fewer in the file than `read` and those unread), else `read` (the
    index's restarts + 1) both."""
    recs = unread(joined)
    if not recs:
        return read, read
    return recs[0]["number"] - 1, max(recs[-1]["number"], read + len(recs))


def unread_text(joined, read: int, total: int, read_end: float
                ) -> tuple[str, float, float] | None:
    """What is said of the recordings joined after the last one read (QA s24 R2: FFmpeg
    reads a Matroska file's first two Segments only; a third, 16 s of a 24 s file, was said
    nowhere; session 26: a later one is read from its own header, `joined_chain`, unless its
    video is another codec, size or clock, or lies past the walk's bound): which (by number, of `total`), where their own headers are (bytes), and the
    stretch they would fill from `read_end` (where the `read` recordings end) for as long as
    their headers say, when each says; else from `read_end` on (a moment). None: no such."""
    recs = unread(joined)
    if not recs:
        return None
    more = joined.get("unread_more") is True
    first, last = recs[0]["number"], recs[-1]["number"]
    which = f"recording {first}" if len(recs) == 1 else f"recordings {first}-{last}"
    of = f"at least {total}" if more else str(total)
    at = ", ".join(f"{count(u.get('at')):,}" for u in recs[:8]) + (
        f" and {len(recs) - 8} more" if len(recs) > 8 else "")
    durs = [u.get("duration_s") for u in recs]
    known = all(isinstance(d, (int, float)) and not isinstance(d, bool) and np.isfinite(d)
                and 0 < d < 1e7 for d in durs)
    end = read_end + sum(float(d) for d in durs if d is not None) if known else read_end
    span = (f"no footage from {read_end:.3f} s to {end:.3f} s ({end - read_end:.3f} s by "
            f"{'their own headers' if len(recs) > 1 else 'its own header'})" if known else
            f"no footage from {read_end:.3f} s on (how long is not known: "
            "a header that gives no duration)")
    return (f"{which} of the {of} joined in the file (own header"
            f"{'s' if len(recs) > 1 else ''} at byte {at}) "
            f"{'is' if len(recs) == 1 else 'are'} never read: FFmpeg's demuxer (as ffprobe's) "
            "reads the first two, a later one is read from its own header when its video is "
            "of the file's codec and clock, and the reading stops after "
            f"recording {read}; the file's bytes from byte "
            f"{count(recs[0].get('at')):,} on are not looked at; {span}, counted as missing",
            read_end, end)
