"""The `held` request in the isolated video process (`child.py`): the frames of a few held
pictures decoded again at full resolution, each compared with the frame before it.

Why a request of its own: the scan's signals are a 256x128 grid of sample points (scaled,
so a thin stroke is averaged), enough to say a picture is held, not to see a game clock's
digit change (QA s34 T4: Flag Capture's clock, 26-30 luma levels over 28-32 pixels, changed
no sample point beyond the noise bar). Only the held stretches the scan warns of, and a still
to the end of the footage (held_finer.py `ends`), are decoded again, never the whole video (its scan is cached by SHA-256; held_finer.py says what the
answer means). The answer is counts, not pictures: per frame its timestamp, whether it is a
keyframe, how many pixels moved beyond the noise bar and the area of their bounding box,
and, for a frame that changed, how many pixels set it apart from the nearest picture the hold
already showed (`seen`: a line blinking over an edited freeze shows the same two pictures by
turns, review V6; a clock's next digit is a picture not shown before) and the per mille of
its moved pixels in colours the frame before the hold did not hold (`foreign`: a mark drawn
over held frames, a blended overlay, makes colours the footage never showed; decoding starts
at the keyframe before that frame so it is read).

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
# ... and at most this many bytes of them (review V10: 32 whole pictures are 265 MB at 4K,
# 1.06 GB at 8K, over issue 15's 512 MiB). The hold's first picture is kept whole, each later
# one as the crop where it differs from the first (`_Shown`): a mark's few pixels, so 32 fit
# at any size (review s36 V3b: as whole pictures 12 fitted at 4K, 3 at 8K, and a small mark
# cycling among 13 places at 4K read as new pictures, a clock)
SHOWN_BYTES = 96 << 20


def op_held(req: dict, open_container) -> tuple[dict, tuple[bytes, ...]]:
    """The answer to a `held` request: `spans`, a list of [first_pts, last_pts] in the
    recording stream's time base; per span every frame decoded from the keyframe before it,
    in the decoder's order, until `AFTER_LAST` frames past the first whose pts is after
    `last_pts` (an AVI's B-frames carry their packets' pts, a few places off: the caller
    gives them the sorted pts, as the scan does): `pts`, `key`, `points`, `area`, `seen`
    and `foreign` (-1 where not compared: before the span, or fewer than `min_points` pixels
    moved), `hue` (`_hue`: the per mille of chroma samples that moved, -1 where not
    comparable) and `complete`. `tol`: `COLOUR_TOL` unless given."""
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
                               int(req.get("min_points", 8)), int(req.get("tol", COLOUR_TOL)))
        out.append(dict(rows, complete=complete))
        if time.process_time() > deadline:
            break
    return {"ok": True, "spans": out}, ()


# frames decoded past the first one after the span: a B-frame's pts may be a few places off
AFTER_LAST = 20


def _span(container, v, first: int, last: int, deadline: float, av, min_points: int,
          tol: int):
    """One span's rows and whether it was read to its end. `shown`: the hold's first picture
    and each changed one not close to those before it (`_Shown.seen`)."""
    import numpy as np

    rows: dict[str, list] = {"pts": [], "key": [], "points": [], "area": [], "seen": [],
                             "foreign": [], "box": [], "hue": []}
    prev = prev_f = prev_c = None
    palette = None
    shown: _Shown | None = None
    past = -1  # frames decoded since the first after `last`
    reached = False  # a frame at or after `last` decoded
    try:
        # from the keyframe before the frame before the span: the footage before the hold
        # gives the colours the place held (`_palette`)
        container.seek(first - 1, stream=v, backward=True, any_frame=False)
        for pk in container.demux(v):
            try:
                frames = pk.decode()
            except av.error.FFmpegError:
                continue
            for f in frames:
                if f.pts is None:
                    continue
                g = f.to_ndarray(format="gray")
                c = _chroma(f, np)
                rows["hue"].append(_hue(c, prev_c, np) if f.pts >= first else -1)
                prev_c = c
                points, area, box = -1, 0, (slice(0, 0), slice(0, 0))
                moved = None
                if prev is not None and prev.shape == g.shape:
                    moved = _apart(g, prev, np)
                    points = int(moved.sum())
                    if points:
                        ys = np.nonzero(moved.any(axis=1))[0]
                        xs = np.nonzero(moved.any(axis=0))[0]
                        area = int((ys[-1] - ys[0] + 1) * (xs[-1] - xs[0] + 1))
                        box = (slice(ys[0], ys[-1] + 1), slice(xs[0], xs[-1] + 1))
                seen = foreign = -1
                if f.pts >= first:
                    if shown is None:
                        shown = _Shown(g)
                        palette = _palette(prev_f if prev_f is not None else f, tol, np)
                        prev_f = None
                    elif points >= min_points:
                        seen = shown.seen(g, box, np)
                        if seen >= min_points:
                            shown.add(g, np)
                        foreign = _foreign(f, moved, palette, np)
                else:
                    prev_f = f
                prev = g
                rows["seen"].append(seen)
                rows["foreign"].append(foreign)
                rows["pts"].append(int(f.pts))
                rows["key"].append(int(bool(f.key_frame)))
                rows["points"].append(points)
                rows["area"].append(area)
                rows["box"].append([int(box[0].start), int(box[1].start), int(box[0].stop), int(box[1].stop)])
                reached = reached or f.pts >= last
                if past >= 0 or f.pts > last:
                    past += 1
                if past >= AFTER_LAST:
                    return rows, True
                if len(rows["pts"]) >= MAX_FRAMES:
                    return rows, False
            if time.process_time() > deadline:
                return rows, False
        # the file's end: read whole once its last frame was decoded (a span that runs to
        # the end of the footage has no frame after it: held_finer's `ends`)
        return rows, reached
    except av.error.FFmpegError:
        return rows, False


class _Shown:
    """The pictures a hold showed (`_span`'s `shown`): the first whole, each later one as
    the box where it differs from the first beyond the noise bar and its pixels there (a
    mark's few pixels; a keyframe's re-quantisation scatters some over the whole picture,
    whose box is then the picture). Outside its box a kept picture is taken as the first
    (within the noise bar there). At most `MAX_SHOWN` of them and `SHOWN_BYTES`, the oldest
    after the first dropped."""

    def __init__(self, g) -> None:
        self.first = g
        self.crops: list[tuple[slice, slice, object]] = []
        self.nbytes = int(g.nbytes)

    def add(self, g, np) -> None:
        moved = _apart(g, self.first, np)
        ys = np.nonzero(moved.any(axis=1))[0]
        if ys.shape[0] == 0:
            return
        xs = np.nonzero(moved.any(axis=0))[0]
        box = (slice(int(ys[0]), int(ys[-1]) + 1), slice(int(xs[0]), int(xs[-1]) + 1))
        crop = g[box].copy()
        self.crops.append((*box, crop))
        self.nbytes += int(crop.nbytes)
        while self.crops and (len(self.crops) + 1 > MAX_SHOWN or self.nbytes > SHOWN_BYTES):
            self.nbytes -= int(self.crops.pop(0)[2].nbytes)  # type: ignore[attr-defined]

    def seen(self, g, box, np) -> int:
        """The fewest pixels of the changed `box` of `g` that differ beyond the noise bar
        from that box in one of the pictures kept (0: it shows one of them again there; -1:
        none of its size). The box, not the whole picture: a keyframe re-quantises a held
        picture (105 pixels in review V6's freeze), and the pictures before it are still
        shown again."""
        if self.first.shape != g.shape:
            return -1
        want = g[box]
        ref = self.first[box]
        best = int(_apart(want, ref, np).sum())
        y0, x0 = box[0].start, box[1].start
        for ys, xs, crop in self.crops:
            a0, a1 = max(ys.start, box[0].start), min(ys.stop, box[0].stop)
            b0, b1 = max(xs.start, box[1].start), min(xs.stop, box[1].stop)
            if best == 0:
                break
            if a0 >= a1 or b0 >= b1:
                continue  # this picture is the first one in the box
            pic = ref.copy()
            pic[a0 - y0:a1 - y0, b0 - x0:b1 - x0] = \
                crop[a0 - ys.start:a1 - ys.start, b0 - xs.start:b1 - xs.start]  # type: ignore[index]
            best = min(best, int(_apart(want, pic, np).sum()))
        return best


# a colour turned where a chroma sample moved by this many levels or more on U or V (QA s40's
# synth_prism at RealVideo 2: a hue step of 7.5 degrees moves 59-76 % of its chroma samples
# by 3 or more, the frames between steps 0-2.5 %)
HUE_LEVEL = 3


def _chroma(f, np):
    """U and V of a planar YUV frame (any subsampling) as views of its planes (no copy: a
    view keeps its frame's buffer), else None (RGB)."""
    if not f.format.name.startswith("yuv") or len(f.planes) < 3:
        return None
    return [np.frombuffer(p, np.uint8).reshape(p.height, p.line_size)[:, :p.width]
            for p in f.planes[1:3]]


def _hue(c, prev, np) -> int:
    """Per mille of the chroma samples of a frame whose U or V moved by `HUE_LEVEL` or more
    from the frame before (-1: not comparable): a palette turned at a fixed brightness moves
    most of them and no luma (held_colour.py). In unsigned bytes, as `_apart`."""
    if c is None or prev is None or c[0].shape != prev[0].shape \
            or c[1].shape != prev[1].shape or c[0].size == 0:
        return -1
    moved = _apart(c[0], prev[0], np, HUE_LEVEL - 1) | _apart(c[1], prev[1], np, HUE_LEVEL - 1)
    return int(round(1000 * float(moved.mean())))


def _apart(a, b, np, level: int = POINT_LEVEL):
    """Where two grey pictures (or two chroma planes) differ beyond `level`, in unsigned
    bytes (|a - b| as max - min: no 16-bit copies, 66 MB each at 8K)."""
    d = np.maximum(a, b)
    d -= np.minimum(a, b)
    return d > level


# Colours (review V6's class: a mark drawn over an edited freeze): a colour is three bytes,
# Y, U, V of the decoded picture (4:2:0's chroma at the pixel's 2x2 block) or R, G, B for
# other pixel formats, looked up in a grid of `QUANT`-level cells ...
QUANT = 4
# ... and a colour the footage held when one within this many levels on each of the three
# (the cells around it: 8-11) was held by the frame before the hold (session 36, on QA
# s28-s35 and the wide set's 152 warned holds: at 8 no held picture that lives lost its
# note; at 12 and 16 review V6's growing line, white at 0.20 over Beam Rider, was within
# reach of the frame's own colours)
COLOUR_TOL = 8
# moved pixels looked up a frame (evenly spaced among them): a keyframe's re-quantisation
# moves millions at 4K
MAX_LOOKED = 4096


def _planes(f, np):
    """Y, U, V of a 4:2:0 frame as views of its planes (no copy), else None."""
    if f.format.name not in ("yuv420p", "yuvj420p"):
        return None
    return [np.frombuffer(p, np.uint8).reshape(p.height, p.line_size)[:, :p.width]
            for p in f.planes[:3]]


def _palette(f, tol: int, np):
    """The colours `f` holds, widened by `tol` levels: a boolean grid of (256 / QUANT)^3."""
    n = 256 // QUANT
    grid = np.zeros((n, n, n), bool)
    yuv = _planes(f, np)
    if yuv is None:
        rgb = f.to_ndarray(format="rgb24") // QUANT
        grid[rgb[..., 0], rgb[..., 1], rgb[..., 2]] = True
    else:
        y, u, v = yuv
        for dy in (0, 1):
            for dx in (0, 1):
                yy = y[dy::2, dx::2]
                h, w = min(yy.shape[0], u.shape[0]), min(yy.shape[1], u.shape[1])
                grid[yy[:h, :w] // QUANT, u[:h, :w] // QUANT, v[:h, :w] // QUANT] = True
    r = -(-tol // QUANT)
    for axis in range(3):
        out = grid.copy()
        for k in range(1, r + 1):
            a = [slice(None)] * 3
            b = [slice(None)] * 3
            a[axis], b[axis] = slice(k, None), slice(None, -k)
            out[tuple(a)] |= grid[tuple(b)]
            out[tuple(b)] |= grid[tuple(a)]
        grid = out
    return grid


def _foreign(f, moved, palette, np) -> int:
    """Per mille of the pixels that moved in `f` (`MAX_LOOKED` of them, evenly) whose colour
    the frame before the hold did not hold within the tolerance (`_palette`): an overlay
    blended over the footage, or drawn in a colour the game does not show."""
    if moved is None or palette is None:
        return -1
    ys, xs = np.nonzero(moved)
    if ys.shape[0] == 0:
        return -1
    step = max(1, ys.shape[0] // MAX_LOOKED)
    ys, xs = ys[::step], xs[::step]
    yuv = _planes(f, np)
    if yuv is None:
        c = f.to_ndarray(format="rgb24")[ys, xs] // QUANT
    else:
        y, u, v = yuv
        cy, cx = np.minimum(ys // 2, u.shape[0] - 1), np.minimum(xs // 2, u.shape[1] - 1)
        c = np.stack([y[ys, xs], u[cy, cx], v[cy, cx]], axis=1) // QUANT
    held = palette[c[:, 0], c[:, 1], c[:, 2]]
    return int(round(1000 * (1.0 - float(held.mean()))))
