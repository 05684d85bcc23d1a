"""Per-frame low-resolution signals of a video, computed in one decoding pass (in the isolated
video process): what the integrity scan judges and what log-video sync correlates.

For each decoded frame: its raw pts, mean luminance (0-255), motion energy (mean absolute
difference of a 64x36 luma thumbnail against the previous frame's, 0-255), an 8x8 grid of
per-tile motion (same measure per tile) and, for log-video sync, a SYNC_GRID x SYNC_GRID grid
of changed-point counts (sample points whose luma moved by more than SYNC_NOISE since the
previous frame), plus per-packet timing (pts, dts, size, keyframe).
For the first audio stream: a loudness envelope (RMS in dBFS per 50 ms window) and every jump
in the audio timestamps. Sampling the luma plane on a grid costs next to nothing beside the
decoding itself, which is why the scan stays near the decode floor.
"""

from __future__ import annotations

import io

import numpy as np

THUMB_W, THUMB_H = 64, 32
TILES = 8
ENVELOPE_S = 0.05
CHANGE_LEVEL = 12.0  # a sample point changed: more than codec noise on a still picture
# Sync's signal (core/sync/signals.py is its view): a count, not a sum of differences, because
# compression noise moves many points by a few levels and a sprite moves few points by many.
# 16x16 tiles of 16x8 sample points (counts fit a byte); sync sums them to the grid it needs.
SYNC_GRID = 16
SYNC_NOISE = 24.0
_LUMA_FIRST = {"yuv420p", "yuvj420p", "yuv422p", "yuvj422p", "yuv444p", "yuvj444p", "nv12",
               "nv21", "yuv420p10le", "yuv422p10le", "yuv444p10le", "gray", "yuva420p",
               "yuv411p", "yuv410p", "yuv440p"}


GRID_W, GRID_H = 256, 128  # sample points: dense enough to see an upscaled Atari sprite


def _luma_grid(frame, scaler=None) -> np.ndarray:
    """A GRID_H x GRID_W float32 luma sample of `frame` (nearest points on a grid). A frame
    smaller than the grid is scaled by swscale: pass one `av.video.reformatter.VideoReformatter`
    for a whole video (it keeps its scaling context; `frame.reformat` builds one per call,
    which made the scan of a 160x210 video 7x the decode floor)."""
    fmt = frame.format.name
    if fmt in _LUMA_FIRST and frame.width >= GRID_W and frame.height >= GRID_H:
        plane = frame.planes[0]
        bpp = 2 if fmt.endswith("10le") else 1
        dtype = np.dtype("<u2") if bpp == 2 else np.uint8
        arr = np.frombuffer(plane, dtype).reshape(plane.height, plane.line_size // bpp)
        ys = np.arange(GRID_H) * frame.height // GRID_H + frame.height // (2 * GRID_H)
        xs = np.arange(GRID_W) * frame.width // GRID_W + frame.width // (2 * GRID_W)
        g = arr[ys[:, None], xs[None, :]].astype(np.float32)
        return g / 4.0 if bpp == 2 else g
    if scaler is None:
        small = frame.reformat(width=GRID_W, height=GRID_H, format="gray")
    else:
        small = scaler.reformat(frame, width=GRID_W, height=GRID_H, format="gray")
    return small.to_ndarray().astype(np.float32)


def _thumb(g: np.ndarray) -> np.ndarray:
    """Block means of the grid down to THUMB_H x THUMB_W."""
    return g.reshape(THUMB_H, GRID_H // THUMB_H, THUMB_W, GRID_W // THUMB_W).mean(axis=(1, 3))


def scan_container(container, progress=None, total: int = 0) -> tuple[dict, dict]:
    """Decode every frame of the first video stream (and the first audio stream) once."""
    import av  # only in the isolated video process (scan.py imports this module for packing)
    from av.video.reformatter import VideoReformatter

    scaler = VideoReformatter()
    v = container.streams.video[0]
    v.thread_type = "AUTO"
    streams = [v]
    a = container.streams.audio[0] if container.streams.audio else None
    if a is not None:
        streams.append(a)
    vtb = float(v.time_base or 0.001)
    pts_l, luma_l, lmax_l, motion_l, changed_l, tiles_l, size_l = [], [], [], [], [], [], []
    sync_l: list[np.ndarray] = []
    sync_zero = np.zeros((SYNC_GRID, SYNC_GRID), np.uint8)
    sh, sw = GRID_H // SYNC_GRID, GRID_W // SYNC_GRID
    pk_pts, pk_dts, pk_size, pk_key = [], [], [], []
    a_pts, a_end, env = [], [], []
    a_rate = 0
    acc = None
    prev = None
    done = errors = 0
    for pk in container.demux(*streams):
        if pk.stream.type == "video":
            if pk.size:
                pk_pts.append(pk.pts if pk.pts is not None else -(1 << 62))
                pk_dts.append(pk.dts if pk.dts is not None else -(1 << 62))
                pk_size.append(pk.size)
                pk_key.append(bool(pk.is_keyframe))
            try:
                frames = pk.decode()
            except av.error.FFmpegError:
                errors += 1
                continue
            for f in frames:
                if f.pts is None:
                    continue
                g = _luma_grid(f, scaler)
                t = _thumb(g)
                pts_l.append(f.pts)
                luma_l.append(float(t.mean()))
                lmax_l.append(float(g.max()))
                size_l.append((f.width, f.height))
                if prev is None or prev[0].shape != g.shape or size_l[-2] != size_l[-1]:
                    motion_l.append(np.nan)
                    changed_l.append(np.nan)
                    tiles_l.append(np.full((TILES, TILES), np.nan, np.float32))
                    sync_l.append(sync_zero)
                else:
                    d = np.abs(t - prev[1])
                    motion_l.append(float(d.mean()))
                    dg = np.abs(g - prev[0])
                    changed_l.append(float(np.count_nonzero(dg > CHANGE_LEVEL)) / g.size)
                    sync_l.append((dg > SYNC_NOISE).reshape(SYNC_GRID, sh, SYNC_GRID, sw)
                                  .sum(axis=(1, 3), dtype=np.uint8))
                    tiles_l.append(d.reshape(TILES, THUMB_H // TILES, TILES,
                                             THUMB_W // TILES).mean(axis=(1, 3)))
                prev = (g, t)
                done += 1
                if progress is not None and done % 256 == 0:
                    progress(done, total)
        elif a is not None:
            atb = float(pk.stream.time_base or 0)
            try:
                aframes = pk.decode()
            except av.error.FFmpegError:
                errors += 1
                continue
            for af in aframes:
                a_rate = af.sample_rate or a_rate
                if af.pts is not None and a_rate:
                    t0 = af.pts * atb
                    a_pts.append(t0)
                    a_end.append(t0 + af.samples / a_rate)
                mono = _mono(af)
                acc = mono if acc is None else np.concatenate((acc, mono))
                win = max(1, int(a_rate * ENVELOPE_S))
                k = acc.shape[0] // win
                if k:
                    blk = acc[:k * win].reshape(k, win)
                    env.extend((10 * np.log10(np.mean(blk * blk, axis=1) + 1e-10)).tolist())
                    acc = acc[k * win:]
    arrays = {
        "pts": np.asarray(pts_l, np.int64), "luma": np.asarray(luma_l, np.float32),
        "motion": np.asarray(motion_l, np.float32),
        "luma_max": np.asarray(lmax_l, np.float32),
        "changed": np.asarray(changed_l, np.float32),
        "tiles": (np.stack(tiles_l).astype(np.float32) if tiles_l
                  else np.zeros((0, TILES, TILES), np.float32)),
        "sync_tiles": (np.stack(sync_l) if sync_l
                       else np.zeros((0, SYNC_GRID, SYNC_GRID), np.uint8)),
        "size": np.asarray(size_l, np.int32).reshape(-1, 2),
        "packet_pts": np.asarray(pk_pts, np.int64), "packet_dts": np.asarray(pk_dts, np.int64),
        "packet_size": np.asarray(pk_size, np.int64), "packet_key": np.asarray(pk_key, bool),
        "audio_start": np.asarray(a_pts, np.float64), "audio_end": np.asarray(a_end, np.float64),
        "audio_envelope_db": np.asarray(env, np.float32),
    }
    meta = {"decode_errors": errors, "time_base": vtb, "audio_rate": a_rate, "envelope_s": ENVELOPE_S,
            "has_audio": a is not None}
    return arrays, meta


def _mono(af) -> np.ndarray:
    """Samples of an audio frame as mono float32 in [-1, 1]."""
    raw = af.to_ndarray()
    kind, size = raw.dtype.kind, raw.dtype.itemsize
    x = raw.astype(np.float32)
    if kind == "i":
        x /= float(1 << (8 * size - 1))
    elif kind == "u":
        x = (x - 128.0) / 128.0
    channels = max(1, len(af.layout.channels))
    if af.format.is_planar:
        return x.mean(axis=0) if x.ndim == 2 else x
    return x.reshape(-1, channels).mean(axis=1)


def pack_arrays(arrays: dict) -> bytes:
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


def unpack_arrays(data: bytes) -> dict:
    with np.load(io.BytesIO(data), allow_pickle=False) as z:
        out = {}
        for k in z.files:
            arr = np.ascontiguousarray(z[k])
            arr.setflags(write=False)
            out[k] = arr
    return out
