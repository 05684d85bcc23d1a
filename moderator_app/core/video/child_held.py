"""The `held` request in the isolated video process (`child.py`): the frames of a few held
pictures decoded again at full resolution, each compared with the frame before it.

Why a request of its own: the scan's signals are a 256x128 grid of sample points (scaled,
so a thin stroke is averaged), enough to say a picture is held, not to see a game clock's
digit change (QA s34 T4: Flag Capture's clock, 26-30 luma levels over 28-32 pixels, changed
no sample point beyond the noise bar). Only the held stretches the scan warns of are decoded
again, never the whole video (its scan is cached by SHA-256; held_finer.py says what the
answer means). The answer is counts, not pictures: per frame its timestamp, whether it is a
keyframe, how many pixels moved beyond the noise bar and the area of their bounding box,
and, for a frame that changed, how many pixels set it apart from the nearest picture the hold
already showed (`seen`: a line blinking over an edited freeze shows the same two pictures by
turns, review V6; a clock's next digit is a picture not shown before).

The work is bounded on the process's CPU clock (`budget_s`), as the probe's: a span not
decoded to its end within it is answered incomplete, and the caller keeps its finding.
"""

from __future__ import annotations

import time

# a pixel moved when its luma changed by more than this (the sync's sample points' bar:
# signals_rows.SYNC_NOISE), read on the decoded picture itself
POINT_LEVEL = 24
# CPU seconds for one request (all its spans): a span of a 1080p video takes ~20 ms a frame
BUDGET_S = 10.0
# at most this many frames a span (a held picture of minutes is not looked at again)
MAX_FRAMES = 4000
# the pictures a hold showed that a changed frame is compared with (the oldest after the
# first dropped) ...
MAX_SHOWN = 32
# ... and at most this many bytes of them (review V10: 32 pictures are 265 MB at 4K, 1.06 GB
# at 8K, over issue 15's 512 MiB; 32 up to 1080p's 2 MB, 11 at 4K, 2 at 8K: the hold's first
# picture and the newest)
SHOWN_BYTES = 96 << 20


def op_held(req: dict, open_container) -> tuple[dict, tuple[bytes, ...]]:
    """The answer to a `held` request: `spans`, a list of [first_pts, last_pts] in the
    recording stream's time base; per span every frame decoded from the keyframe before it,
    in the decoder's order, until `AFTER_LAST` frames past the first whose pts is after
    `last_pts` (an AVI's B-frames carry their packets' pts, a few places off: the caller
    gives them the sorted pts, as the scan does): `pts`, `key`, `points`, `area` and
    `seen` (-1 where not compared: before the span, or fewer than `min_points` pixels moved)
    and `complete`."""
    import av

    from .index import recording_stream

    deadline = time.process_time() + float(req.get("budget_s", BUDGET_S))
    container = open_container(req)
    v = recording_stream(container)
    if v is None:
        return {"ok": False, "reason": "no video stream"}, ()
    v.thread_count = 1
    out = []
    for first, last in req["spans"]:
        rows, complete = _span(container, v, int(first), int(last), deadline, av,
                               int(req.get("min_points", 8)))
        out.append(dict(rows, complete=complete))
        if time.process_time() > deadline:
            break
    return {"ok": True, "spans": out}, ()


# frames decoded past the first one after the span: a B-frame's pts may be a few places off
AFTER_LAST = 20


def _span(container, v, first: int, last: int, deadline: float, av, min_points: int):
    """One span's rows and whether it was read to its end. `shown`: the hold's first picture
    and each changed one not close to those before it (`_seen`)."""
    import numpy as np

    rows: dict[str, list[int]] = {"pts": [], "key": [], "points": [], "area": [], "seen": []}
    prev = None
    shown: list = []
    past = -1  # frames decoded since the first after `last`
    try:
        container.seek(first, stream=v, backward=True, any_frame=False)
        for pk in container.demux(v):
            try:
                frames = pk.decode()
            except av.error.FFmpegError:
                continue
            for f in frames:
                if f.pts is None:
                    continue
                g = f.to_ndarray(format="gray")
                points, area, box = -1, 0, (slice(0, 0), slice(0, 0))
                if prev is not None and prev.shape == g.shape:
                    moved = _apart(g, prev, np)
                    points = int(moved.sum())
                    if points:
                        ys = np.nonzero(moved.any(axis=1))[0]
                        xs = np.nonzero(moved.any(axis=0))[0]
                        area = int((ys[-1] - ys[0] + 1) * (xs[-1] - xs[0] + 1))
                        box = (slice(ys[0], ys[-1] + 1), slice(xs[0], xs[-1] + 1))
                seen = -1
                if f.pts >= first:
                    if not shown:
                        shown.append(g)
                    elif points >= min_points:
                        seen = _seen(g, box, shown, np)
                        if seen >= min_points:
                            shown.append(g)
                            del shown[1:-(_kept(g) - 1) or None]
                prev = g
                rows["seen"].append(seen)
                rows["pts"].append(int(f.pts))
                rows["key"].append(int(bool(f.key_frame)))
                rows["points"].append(points)
                rows["area"].append(area)
                if past >= 0 or f.pts > last:
                    past += 1
                if past >= AFTER_LAST:
                    return rows, True
                if len(rows["pts"]) >= MAX_FRAMES:
                    return rows, False
            if time.process_time() > deadline:
                return rows, False
        return rows, past >= 0  # the file's end: read whole once past the span
    except av.error.FFmpegError:
        return rows, False


def _kept(g) -> int:
    """How many pictures of `g`'s size are kept to compare with (`SHOWN_BYTES`): two at
    least, the hold's first and the newest."""
    return max(2, min(MAX_SHOWN, SHOWN_BYTES // max(1, g.nbytes)))


def _apart(a, b, np):
    """Where two grey pictures differ beyond the noise bar, in unsigned bytes (|a - b| as
    max - min: no 16-bit copies, 66 MB each at 8K)."""
    d = np.maximum(a, b)
    d -= np.minimum(a, b)
    return d > POINT_LEVEL


def _seen(g, box, shown: list, np) -> int:
    """The fewest pixels of the changed `box` that differ beyond the noise bar from that box
    in one of the pictures `shown` (0: it shows one of them again there; -1: none of its
    size). The box, not the whole picture: a keyframe re-quantises a held picture (105
    pixels in review V6's freeze), and the pictures before it are still shown again."""
    moved = [int(_apart(g[box], p[box], np).sum()) for p in shown if p.shape == g.shape]
    return min(moved) if moved else -1
