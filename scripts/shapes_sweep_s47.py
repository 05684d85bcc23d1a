"""Session 47 sweep (issue 12): recording shapes no sweep had tried, checked as session 46's
sweep checks them (`shapes_sweep_s46.summary`, `qa_sweep_s23.check`: 64 moments through the
core against ffmpeg's own decode, 8 `moderator-app frame --time` runs, the frame count against
ffprobe, the video findings of `verify --json --scan`).

    PYTHONPATH=. nice -n 10 .venv/bin/python scripts/shapes_sweep_s47.py [SHAPE ...]

Files are built under $MODERATOR_SHAPES_DIR (default: .cache/shapes-s47 beside the git common
directory, never in git). The shapes: H.264 / HEVC in MPEG-PS stamped late, dropping frames,
with a gap, without B-frames, open-GOP, interlaced (MBAFF), beside audio, two files joined
(review s46 R6 and their kin); two programs in one TS, a TS whose times jump 100 s forward,
an MP4 whose edit list drops the first GOP, a fragmented MP4 with a fragment cut out, a
Matroska file whose clusters are of unknown size, a WebM whose Cues point at the wrong
clusters, 12-bit 4:4:4 HEVC. Not made: H.264 field pictures (PAFF; x264 writes MBAFF only) and
laced Matroska video (ffmpeg 5.1 never laces video; no mkvmerge here).
"""

from __future__ import annotations

import json
import os
import struct
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "scripts")]
import qa_sweep_s23 as s23  # noqa: E402
import shapes_sweep_s46 as s46  # noqa: E402
import video_corpus as vc  # noqa: E402

CACHE = Path(os.environ.get("MODERATOR_SHAPES_DIR",
                            s46.CACHE.parent / "shapes-s47"))
X264 = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-threads", "1"]
BF2 = [*X264, "-g", "30", "-bf", "2"]
DROP = ["-vf", "select='not(eq(mod(n\\,7)\\,3)+eq(mod(n\\,11)\\,5))'", "-fps_mode", "vfr"]
GAP = ["-vf", "setpts='PTS+if(gte(N\\,60)\\,3/TB\\,0)'", "-fps_mode", "vfr"]

# name -> (ext, encoder and muxer args, frames, fps); 320x240
PLAIN: dict[str, tuple[str, list[str], int, str]] = {
    "mpg_ps_h264_from_10s": ("mpg", [*BF2, "-output_ts_offset", "10", "-f", "vob"], 150, "30"),
    "mpg_ps_h264_vfr": ("mpg", [*DROP, *BF2, "-f", "vob"], 150, "30"),
    "mpg_ps_h264_gap3s": ("mpg", [*GAP, *BF2, "-f", "vob"], 150, "30"),
    "mpg_ps_hevc_vfr": ("mpg", [*DROP, *s46._x265("keyint=30"), "-f", "vob"], 120, "30"),
    "mpg_ps_hevc_closed_bf3_from_10s": ("mpg", [*s46._x265("keyint=30:open-gop=0:bframes=3"),
                                                "-output_ts_offset", "10", "-f", "vob"],
                                        150, "30"),
    "mpg_ps_h264_no_bframes": ("mpg", [*X264, "-g", "30", "-bf", "0", "-f", "mpeg"], 150, "25"),
    "mpg_ps_h264_opengop_bf3": ("mpg", [*X264, "-g", "30", "-bf", "3", "-x264-params",
                                        "open-gop=1", "-f", "vob"], 150, "30"),
    "mpg_ps_h264_mbaff": ("mpg", [*BF2, "-flags", "+ildct+ilme", "-x264-params", "tff=1",
                                  "-f", "vob"], 150, "30"),
    "mkv_hevc_444_12bit": ("mkv", [*s46._x265("keyint=30:bframes=3")[:-3], "yuv444p12le",
                                   "-x265-params", "log-level=none:keyint=30:bframes=3"],
                           120, "30"),
}


def _ff(*args: str) -> None:
    s46._ff(*args)


def _boxes(data: bytes, start: int = 0, end: int | None = None):
    """(offset, size, type) of the MP4 boxes from `start` to `end`."""
    at, end = start, len(data) if end is None else end
    while at + 8 <= end:
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        size = size or end - at
        if size == 1:
            size = struct.unpack(">Q", data[at + 8:at + 16])[0]
        yield at, size, kind.decode("latin-1")
        at += max(size, 8)


def _edit_list_drops_first_gop(src: Path, out: Path, frames: int) -> None:
    """`src` (one video track with an edit list) whose edit starts `frames` later: the media
    of the first GOP is in the file but never shown."""
    data = bytearray(src.read_bytes())
    elst = data.index(b"elst")
    mdhd = data.index(b"mdhd")
    mvhd = data.index(b"mvhd")
    track_scale = struct.unpack(">I", data[mdhd + 16:mdhd + 20])[0]
    movie_scale = struct.unpack(">I", data[mvhd + 16:mvhd + 20])[0]
    rate = 30
    assert data[elst + 4] == 0, "a version-0 edit list"
    dur, media = struct.unpack(">Ii", data[elst + 12:elst + 20])
    data[elst + 12:elst + 20] = struct.pack(">Ii", dur - frames * movie_scale // rate,
                                            media + frames * track_scale // rate)
    out.write_bytes(bytes(data))


def _without_fragment(src: Path, out: Path, which: int) -> None:
    """The fragmented MP4 `src` without its `which`-th moof and the mdat after it."""
    data = src.read_bytes()
    boxes = list(_boxes(data))
    moofs = [i for i, b in enumerate(boxes) if b[2] == "moof"]
    i = moofs[which]
    cut = {i, i + 1} if boxes[i + 1][2] == "mdat" else {i}
    out.write_bytes(b"".join(data[a:a + n] for k, (a, n, _) in enumerate(boxes)
                             if k not in cut))


def _vint(data: bytes, at: int, keep_marker: bool) -> tuple[int, int]:
    """An EBML variable-length integer at `at`: (value, its length)."""
    first = data[at]
    n = 1
    while n <= 8 and not first & (0x80 >> (n - 1)):
        n += 1
    v = first if keep_marker else first & (0xFF >> n)
    for b in data[at + 1:at + n]:
        v = v << 8 | b
    return v, n


def _elements(data: bytes, start: int, end: int):
    """(id, offset of the size, size length, offset of the body, body size) of the EBML
    elements from `start` to `end` (an unknown size runs to `end`)."""
    at = start
    while at < end:
        eid, n = _vint(data, at, True)
        size, m = _vint(data, at + n, False)
        body = at + n + m
        if size == (1 << (7 * m)) - 1:
            size = end - body
        yield eid, at + n, m, body, size
        at = body + size


def _matroska_patched(src: Path, out: Path, how: str) -> None:
    """`src` with its Segment and every Cluster of unknown size (`how` = "unknown", as a live
    capture writes them) or every Cues entry pointing at the next cue's cluster ("cues")."""
    data = bytearray(src.read_bytes())
    seg = next(e for e in _elements(data, 0, len(data)) if e[0] == 0x18538067)
    if how == "unknown":
        data[seg[1]:seg[1] + seg[2]] = ((1 << (7 * seg[2] + 1)) - 1).to_bytes(seg[2], "big")
    for eid, size_at, m, body, size in _elements(data, seg[3], seg[3] + seg[4]):
        if how == "unknown" and eid == 0x1F43B675:
            data[size_at:size_at + m] = ((1 << (7 * m + 1)) - 1).to_bytes(m, "big")
        if how == "cues" and eid == 0x1C53BB6B:
            where = []
            for pid, _, _, pbody, psize in _elements(data, body, body + size):
                if pid != 0xBB:
                    continue
                for tid, _, _, tbody, tsize in _elements(data, pbody, pbody + psize):
                    if tid != 0xB7:
                        continue
                    for cid, _, _, cbody, csize in _elements(data, tbody, tbody + tsize):
                        if cid == 0xF1:
                            where.append((cbody, csize))
            values = [int.from_bytes(data[a:a + n], "big") for a, n in where]
            for (a, n), v in zip(where, [*values[1:], values[0]], strict=True):
                if v < 1 << (8 * n):
                    data[a:a + n] = v.to_bytes(n, "big")
    out.write_bytes(bytes(data))


def _make(shape: str, d: Path) -> Path:
    """run.EXT of `shape` in `d`."""
    if shape in PLAIN:
        ext, args, frames, fps = PLAIN[shape]
        return vc.encode(d / f"run.{ext}", list(args), frames, fps)
    s = CACHE / "_src" / shape  # outside the run folder: verify takes the folder's one video
    s.mkdir(parents=True, exist_ok=True)
    if shape == "mpg_ps_h264_with_mp2_audio":
        src = vc.encode(s / "a.mpg", [*BF2, "-f", "vob"], 150, "30")
        _ff("-f", "lavfi", "-i", "sine=frequency=440:duration=5", "-i", str(src), "-map", "1:v",
            "-map", "0:a", "-c:v", "copy", "-c:a", "mp2", "-f", "vob", str(d / "run.mpg"))
        return d / "run.mpg"
    if shape == "mpg_ps_h264_joined":  # two captures joined by `cat`, both stamped from 0
        a = vc.encode(s / "a.mpg", [*BF2, "-f", "vob"], 90, "30")
        b = vc.encode(s / "b.mpg", [*BF2, "-f", "vob"], 90, "30")
        (d / "run.mpg").write_bytes(a.read_bytes() + b.read_bytes())
        return d / "run.mpg"
    if shape == "ts_two_programs":  # the game in program 1, a small grey feed in program 2
        a = vc.encode(s / "a.mkv", BF2, 150, "30")
        _ff("-i", str(a), "-f", "lavfi", "-i", "color=c=gray:s=160x120:r=30:d=5", "-map", "0:v",
            "-map", "1:v", "-c:v:0", "copy", "-c:v:1", "libx264", "-program",
            "title=game:st=0", "-program", "title=other:st=1", "-f", "mpegts",
            str(d / "run.ts"))
        return d / "run.ts"
    if shape == "ts_times_jump_100s":  # one capture whose clock jumps 100 s forward mid-way
        a = vc.encode(s / "a.ts", [*BF2, "-f", "mpegts"], 90, "30")
        b = vc.encode(s / "b.ts", [*BF2, "-output_ts_offset", "103", "-f", "mpegts"], 90,
                      "30")
        (d / "run.ts").write_bytes(a.read_bytes() + b.read_bytes())
        return d / "run.ts"
    if shape == "mp4_editlist_drops_first_gop":
        src = vc.encode(s / "a.mp4", BF2, 150, "30")
        _edit_list_drops_first_gop(src, d / "run.mp4", 30)
        return d / "run.mp4"
    if shape == "mp4_frag_missing_moof":
        src = vc.encode(s / "a.mp4", [*BF2, "-movflags",
                                      "frag_keyframe+empty_moov+default_base_moof"], 150, "30")
        _without_fragment(src, d / "run.mp4", 2)
        return d / "run.mp4"
    if shape in ("mkv_unknown_size_clusters", "webm_cues_point_wrong"):
        ext = "mkv" if shape.startswith("mkv") else "webm"
        args = [*BF2, "-cluster_time_limit", "500"] if ext == "mkv" else \
            [*s46.VP9, "-cluster_time_limit", "500"]
        src = vc.encode(s / f"a.{ext}", args, 150, "30")
        _matroska_patched(src, d / f"run.{ext}", "unknown" if ext == "mkv" else "cues")
        return d / f"run.{ext}"
    raise KeyError(shape)


SHAPES = [*PLAIN, "mpg_ps_h264_with_mp2_audio", "mpg_ps_h264_joined", "ts_two_programs",
          "ts_times_jump_100s", "mp4_editlist_drops_first_gop", "mp4_frag_missing_moof",
          "mkv_unknown_size_clusters", "webm_cues_point_wrong"]


if __name__ == "__main__":
    for name in sys.argv[1:] or SHAPES:
        try:
            res = s23.check(name, make=_make, cache=CACHE, moments_n=64, cli_n=8)
            res["summary"] = s46.summary(res)
            print(json.dumps(res), flush=True)
        except Exception as e:  # noqa: BLE001 - one broken shape must not hide the others
            print(json.dumps({"shape": name, "crash": repr(e)[:400]}), flush=True)
