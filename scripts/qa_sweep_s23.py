"""Session 23 sweep (issue 12): recording shapes no session had tried, each checked for frame
truth (the core export at 48 moments and `moderator-app frame --time` at 6, against ffmpeg's own
decode of the drawn frame numbers), frame count and duration against ffprobe, and the video
findings of `verify --json --scan` with a 40-event agent log.

    PYTHONPATH=. nice -n 10 .venv/bin/python scripts/qa_sweep_s23.py [SHAPE ...]

Files are built under .cache/qa-s23-sweep/SHAPE/ (run.EXT + agent-log.jsonl); one JSON line per
shape is printed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests")]
import video_corpus as vc  # noqa: E402

from moderator_app.core.samples.community import make_agent_log  # noqa: E402

CACHE = REPO / ".cache" / "qa-s23-sweep"
CLI = [sys.executable, "-m", "moderator_app"]
X264 = ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-threads", "1"]


def _ff(*args: str, stdout=None) -> None:
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args], check=True,
                   stdout=stdout)


def _make(shape: str, d: Path) -> Path:
    """run.EXT of `shape` in `d`, built from `vc.encode`'s numbered pictures."""
    s = CACHE / "_src" / shape  # outside the run folder: verify takes the folder's one video
    s.mkdir(parents=True, exist_ok=True)
    if shape == "mpg_ps_mpeg2_bf2_2997":
        return vc.encode(d / "run.mpg", ["-c:v", "mpeg2video", "-q:v", "4", "-bf", "2",
                                         "-g", "15", "-f", "mpeg"], 300, "30000/1001")
    if shape == "mpg_ps_mpeg2_opengop_25":
        return vc.encode(d / "run.mpg", ["-c:v", "mpeg2video", "-q:v", "4", "-bf", "2",
                                         "-g", "12", "-flags", "-cgop", "-sc_threshold",
                                         "1000000000", "-f", "vob"], 250, "25")
    if shape == "ts_mpeg2_opengop_cut_nonkey":
        src = vc.encode(s / "a.ts", ["-c:v", "mpeg2video", "-q:v", "4", "-bf", "2", "-g", "15",
                                     "-flags", "-cgop", "-f", "mpegts"], 300, "30")
        _ff("-i", str(src), "-ss", "2.2", "-c", "copy", "-f", "mpegts", str(d / "run.ts"))
        return d / "run.ts"
    if shape == "webm_vp8_nocues":
        src = vc.encode(s / "a.webm", ["-c:v", "libvpx", "-b:v", "400k", "-g", "60",
                                       "-deadline", "realtime", "-cpu-used", "8"], 240, "30")
        with open(d / "run.webm", "wb") as fh:
            _ff("-i", str(src), "-c", "copy", "-f", "webm", "-", stdout=fh)
        return d / "run.webm"
    if shape == "mov_editlist_start2_bf2":
        src = vc.encode(s / "a.mov", [*X264, "-bf", "2", "-g", "30"], 240, "30")
        _ff("-itsoffset", "2", "-i", str(src), "-c", "copy", str(d / "run.mov"))
        return d / "run.mov"
    if shape == "mp4_faststart_bf3_g48":
        return vc.encode(d / "run.mp4", [*X264, "-bf", "3", "-g", "48", "-movflags",
                                         "+faststart"], 300, "30")
    if shape == "fmp4_emptymoov_bpyramid_negcts":
        return vc.encode(d / "run.mp4", [*X264, "-bf", "3", "-x264-params", "b-pyramid=normal",
                                         "-g", "30", "-movflags",
                                         "frag_keyframe+empty_moov+negative_cts_offsets"],
                         300, "30")
    if shape == "3gp_h263_qcif_15":
        return vc.encode(d / "run.3gp", ["-vf", "scale=176:144", "-c:v", "h263", "-q:v", "3",
                                         "-g", "30"], 150, "15")
    if shape == "3gp_h264_baseline_176":
        return vc.encode(d / "run.3gp", ["-vf", "scale=176:144", *X264, "-profile:v",
                                         "baseline", "-g", "25"], 200, "25")
    if shape == "avi_mjpeg_322x242":
        return vc.encode(d / "run.avi", ["-vf", "scale=322:242", "-c:v", "mjpeg", "-q:v", "3",
                                         "-pix_fmt", "yuvj422p"], 200, "20")
    if shape == "nut_rawvideo":
        return vc.encode(d / "run.nut", ["-c:v", "rawvideo", "-pix_fmt", "yuv420p"], 120, "24")
    if shape == "y4m":
        return vc.encode(d / "run.y4m", ["-pix_fmt", "yuv420p", "-f", "yuv4mpegpipe"], 120,
                         "24")
    if shape == "mkv_h264_high444_nocues":
        src = vc.encode(s / "a.mkv", ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt",
                                      "yuv444p", "-bf", "2", "-g", "40", "-threads", "1"],
                        240, "30")
        with open(d / "run.mkv", "wb") as fh:
            _ff("-i", str(src), "-c", "copy", "-f", "matroska", "-", stdout=fh)
        return d / "run.mkv"
    if shape == "mkv_h264_10bit_bf3":
        return vc.encode(d / "run.mkv", ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt",
                                         "yuv420p10le", "-bf", "3", "-g", "50", "-threads",
                                         "1"], 240, "30")
    if shape == "mp4_av1_svt":
        return vc.encode(d / "run.mp4", ["-c:v", "libsvtav1", "-preset", "12", "-g", "60",
                                         "-pix_fmt", "yuv420p"], 180, "30")
    if shape == "mkv_cut_nonkey_first":
        src = vc.encode(s / "a.mkv", [*X264, "-bf", "2", "-g", "60"], 300, "30")
        _ff("-i", str(src), "-ss", "3.1", "-c", "copy", str(d / "run.mkv"))
        return d / "run.mkv"
    if shape == "mp4_cut_nonkey_first":
        src = vc.encode(s / "a.mp4", [*X264, "-bf", "2", "-g", "60"], 300, "30")
        _ff("-i", str(src), "-ss", "3.1", "-c", "copy", str(d / "run.mp4"))
        return d / "run.mp4"
    if shape == "ts_cut_nonkey_first":
        src = vc.encode(s / "a.ts", [*X264, "-bf", "2", "-g", "60", "-f", "mpegts"], 300, "30")
        _ff("-i", str(src), "-ss", "3.1", "-c", "copy", "-f", "mpegts", str(d / "run.ts"))
        return d / "run.ts"
    if shape == "mp4_23976_tb90000_bf2":
        return vc.encode(d / "run.mp4", [*X264, "-bf", "2", "-g", "24",
                                         "-video_track_timescale", "90000"], 240, "24000/1001")
    if shape == "mp4_5994_tb90000_bf2":
        return vc.encode(d / "run.mp4", [*X264, "-bf", "2", "-g", "60",
                                         "-video_track_timescale", "90000"], 360, "60000/1001")
    if shape == "mkv_23976_nocues":
        src = vc.encode(s / "a.mkv", [*X264, "-bf", "2", "-g", "24"], 240, "24000/1001")
        with open(d / "run.mkv", "wb") as fh:
            _ff("-i", str(src), "-c", "copy", "-f", "matroska", "-", stdout=fh)
        return d / "run.mkv"
    if shape == "ts_trailing_partial_packet":
        src = vc.encode(s / "a.ts", [*X264, "-bf", "2", "-g", "30", "-f", "mpegts"], 241, "30")
        data = src.read_bytes()
        (d / "run.ts").write_bytes(data[:len(data) - 188 * 3 - 77])
        return d / "run.ts"
    if shape == "mkv_trailing_partial_block":
        src = vc.encode(s / "a.mkv", [*X264, "-bf", "2", "-g", "30", "-f", "matroska"], 241,
                        "30")
        with open(s / "b.mkv", "wb") as fh:
            _ff("-i", str(src), "-c", "copy", "-f", "matroska", "-", stdout=fh)
        data = (s / "b.mkv").read_bytes()
        (d / "run.mkv").write_bytes(data[:len(data) - 700])
        return d / "run.mkv"
    if shape == "ts_pts_wrap":  # 90 kHz PTS wrap (2^33 ticks, 95443.7 s) at 4 s
        return vc.encode(d / "run.ts", [*X264, "-bf", "2", "-g", "30", "-output_ts_offset",
                                        "95439.7", "-f", "mpegts"], 300, "30")
    if shape == "mpg_ps_pts_wrap":
        return vc.encode(d / "run.mpg", ["-c:v", "mpeg2video", "-q:v", "4", "-bf", "2",
                                         "-g", "15", "-output_ts_offset", "95440.2", "-f",
                                         "mpeg"], 300, "30")
    if shape == "mpg_cut_nonkey_first":
        src = vc.encode(s / "a.mpg", ["-c:v", "mpeg2video", "-q:v", "4", "-bf", "2", "-g",
                                      "30", "-f", "mpeg"], 300, "30")
        _ff("-i", str(src), "-ss", "2.5", "-c", "copy", "-f", "mpeg", str(d / "run.mpg"))
        return d / "run.mpg"
    if shape == "mov_tb600_2997_bf2":  # QuickTime's 600 ticks/s: 20 or 21 ticks a frame
        return vc.encode(d / "run.mov", [*X264, "-bf", "2", "-g", "30",
                                         "-video_track_timescale", "600"], 300, "30000/1001")
    if shape == "webm_vp8_altref":
        src = vc.encode(s / "a.webm", ["-c:v", "libvpx", "-b:v", "400k", "-g", "60",
                                       "-auto-alt-ref", "1", "-lag-in-frames", "16",
                                       "-cpu-used", "8"], 240, "30")
        with open(d / "run.webm", "wb") as fh:
            _ff("-i", str(src), "-c", "copy", "-f", "webm", "-", stdout=fh)
        return d / "run.webm"
    if shape == "mp4_vp9_altref":
        return vc.encode(d / "run.mp4", ["-c:v", "libvpx-vp9", "-b:v", "400k", "-g", "60",
                                         "-auto-alt-ref", "1", "-lag-in-frames", "16",
                                         "-cpu-used", "8", "-row-mt", "0"], 240, "30")
    if shape == "mkv_ts_offset5":  # first block at 5 s
        return vc.encode(d / "run.mkv", [*X264, "-bf", "2", "-g", "30", "-output_ts_offset",
                                         "5"], 240, "30")
    if shape == "avi_vfr_dropped":  # frames dropped: AVI holds empty chunks for them
        keep = "select='not(eq(mod(n\\,23)\\,5)+eq(mod(n\\,41)\\,9))'"
        return vc.encode(d / "run.avi", ["-vf", keep, "-fps_mode", "vfr", "-c:v", "mpeg4",
                                         "-q:v", "4", "-g", "30"], 300, "30")
    if shape == "fmp4_global_sidx_bf2":
        return vc.encode(d / "run.mp4", [*X264, "-bf", "2", "-g", "30", "-movflags",
                                         "frag_keyframe+global_sidx"], 300, "30")
    if shape == "mp4_h264_opengop_bf3":
        return vc.encode(d / "run.mp4", [*X264, "-bf", "3", "-g", "45", "-x264-params",
                                         "open-gop=1"], 300, "30")
    if shape == "ts_h264_opengop_cut_nonkey":
        src = vc.encode(s / "a.ts", [*X264, "-bf", "3", "-g", "45", "-x264-params",
                                     "open-gop=1", "-f", "mpegts"], 300, "30")
        _ff("-i", str(src), "-ss", "2.0", "-c", "copy", "-f", "mpegts", str(d / "run.ts"))
        return d / "run.ts"
    if shape == "flv_cut_nonkey_first":
        src = vc.encode(s / "a.flv", [*X264, "-bf", "2", "-g", "60", "-f", "flv"], 300, "30")
        _ff("-i", str(src), "-ss", "3.1", "-c", "copy", "-f", "flv", str(d / "run.flv"))
        return d / "run.flv"
    if shape == "mkv_audio_first_video_late":  # audio from 0 s, video from 1.5 s
        src = vc.encode(s / "a.mkv", [*X264, "-bf", "2", "-g", "30"], 240, "30")
        _ff("-f", "lavfi", "-i", "sine=frequency=440:duration=10", "-itsoffset", "1.5", "-i",
            str(src), "-map", "0:a", "-map", "1:v", "-c:v", "copy", "-c:a", "aac",
            str(d / "run.mkv"))
        return d / "run.mkv"
    if shape == "mkv_ts_offset5_audio":
        src = vc.encode(s / "a.mkv", [*X264, "-bf", "2", "-g", "30"], 240, "30")
        _ff("-i", str(src), "-f", "lavfi", "-i", "sine=frequency=440:duration=8", "-map",
            "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", "libopus", "-output_ts_offset", "5",
            str(d / "run.mkv"))
        return d / "run.mkv"
    if shape == "mxf_mpeg2_25":
        return vc.encode(d / "run.mxf", ["-c:v", "mpeg2video", "-q:v", "4", "-bf", "2", "-g",
                                         "12", "-f", "mxf"], 200, "25")
    if shape == "avi_rawvideo_bgr24_322x242":  # rows padded to 4 bytes (966 -> 968)
        return vc.encode(d / "run.avi", ["-vf", "scale=322:242", "-c:v", "rawvideo",
                                         "-pix_fmt", "bgr24"], 100, "20")
    if shape == "mov_mjpeg_321x241":
        return vc.encode(d / "run.mov", ["-vf", "scale=321:241", "-c:v", "mjpeg", "-q:v",
                                         "3", "-pix_fmt", "yuvj420p"], 150, "25")
    if shape == "mp4_bf16_pyramid":
        return vc.encode(d / "run.mp4", [*X264, "-bf", "16", "-x264-params",
                                         "b-pyramid=normal:b-adapt=0", "-g", "90"], 300, "30")
    if shape == "nut_h264_bf3":
        return vc.encode(d / "run.nut", [*X264, "-bf", "3", "-g", "40"], 240, "30")
    if shape == "mkv_hevc_cra_cut_nonkey":
        src = vc.encode(s / "a.mkv", ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params",
                                      "log-level=none:keyint=45:open-gop=1:bframes=3",
                                      "-pix_fmt", "yuv420p"], 300, "30")
        _ff("-i", str(src), "-ss", "2.0", "-c", "copy", str(d / "run.mkv"))
        return d / "run.mkv"
    if shape.startswith("cut_lead_1p9s_"):  # key frames every 4 s, cut at 2.1 s
        ext, fmt = {"mkv": ("mkv", "matroska"), "mp4": ("mp4", "mp4"), "ts": ("ts", "mpegts"),
                    "webm": ("webm", "webm")}[shape.rsplit("_", 1)[1]]
        codec = (["-c:v", "libvpx", "-b:v", "400k", "-deadline", "realtime", "-cpu-used", "8"]
                 if ext == "webm" else [*X264, "-bf", "2"])
        src = vc.encode(s / f"a.{ext}", [*codec, "-g", "120", "-f", fmt], 300, "30")
        _ff("-i", str(src), "-ss", "2.1", "-c", "copy", "-f", fmt, str(d / f"run.{ext}"))
        return d / f"run.{ext}"
    raise KeyError(shape)


SHAPES = ["mpg_ps_mpeg2_bf2_2997", "mpg_ps_mpeg2_opengop_25", "ts_mpeg2_opengop_cut_nonkey",
          "webm_vp8_nocues", "mov_editlist_start2_bf2", "mp4_faststart_bf3_g48",
          "fmp4_emptymoov_bpyramid_negcts", "3gp_h263_qcif_15", "3gp_h264_baseline_176",
          "avi_mjpeg_322x242", "nut_rawvideo", "y4m", "mkv_h264_high444_nocues",
          "mkv_h264_10bit_bf3", "mp4_av1_svt", "mkv_cut_nonkey_first", "mp4_cut_nonkey_first",
          "ts_cut_nonkey_first", "mp4_23976_tb90000_bf2", "mp4_5994_tb90000_bf2",
          "mkv_23976_nocues", "ts_trailing_partial_packet", "mkv_trailing_partial_block",
          "ts_pts_wrap", "mpg_ps_pts_wrap", "mpg_cut_nonkey_first", "mov_tb600_2997_bf2",
          "webm_vp8_altref", "mp4_vp9_altref", "mkv_ts_offset5", "avi_vfr_dropped",
          "fmp4_global_sidx_bf2", "mp4_h264_opengop_bf3", "ts_h264_opengop_cut_nonkey",
          "flv_cut_nonkey_first", "mkv_audio_first_video_late", "mkv_ts_offset5_audio",
          "mxf_mpeg2_25", "avi_rawvideo_bgr24_322x242", "mov_mjpeg_321x241", "mp4_bf16_pyramid",
          "nut_h264_bf3", "mkv_hevc_cra_cut_nonkey",
          "cut_lead_1p9s_mkv", "cut_lead_1p9s_mp4", "cut_lead_1p9s_ts", "cut_lead_1p9s_webm"]


def _ffprobe_duration(path: Path) -> float | None:
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                          "stream=duration:format=duration", "-of", "json", str(path)],
                         capture_output=True, text=True).stdout
    j = json.loads(out or "{}")
    for v in ((j.get("streams") or [{}])[0].get("duration"),
              (j.get("format") or {}).get("duration")):
        if v not in (None, "N/A"):
            return float(v)
    return None


def check(shape: str, make=_make, cache: Path = CACHE, moments_n: int = 48,
          cli_n: int = 6) -> dict:
    """One shape's JSON line: `make(shape, folder)` builds run.EXT in `cache`/`shape` (kept
    there; session 46's sweep passes its own `make`, `cache` and counts)."""
    import cv2

    d = cache / shape
    d.mkdir(parents=True, exist_ok=True)
    video = next((p for p in d.glob("run.*")), None) or make(shape, d)
    if not (d / "agent-log.jsonl").exists():
        make_agent_log(d / "agent-log.jsonl", 40, 23)
    res: dict = {"shape": shape, "file": video.name}
    try:
        p, codes, moments, got, want = vc.pictures_at_moments(video, "v:0", moments_n, seed=23)
    except AssertionError as e:
        res["core"] = f"probe failed: {e}"[:300]
        p = None
    if p is not None:
        res["frames"] = p.frame_count
        res["duration_s"] = round(p.index.duration_s, 4)
        res["ffmpeg_decoded"] = len(codes)
        res["drawn_consecutive"] = all(b - a == 1 for a, b in zip(codes, codes[1:], strict=False))
        res["core_errors"] = [(round(t, 3), w, g) for t, w, g in zip(moments, want, got, strict=True)
                              if w != g][:6]
        res["core_n_err"] = sum(w != g for w, g in zip(want, got, strict=True))
        cli = []
        for t, w in list(zip(moments, want, strict=True))[:cli_n]:
            out = d / "f.png"
            r = subprocess.run([*CLI, "frame", str(video), "--time", f"{t:.6f}", "-o",
                                str(out)], capture_output=True, text=True)
            if r.returncode != 0:
                cli.append((round(t, 3), w, "exit", r.returncode, r.stderr[-120:]))
                continue
            c = vc.read_code(cv2.imread(str(out), cv2.IMREAD_COLOR))
            if c != w:
                cli.append((round(t, 3), w, c))
        res["cli_errors"] = cli
    res["ffprobe_frames"] = vc.ffprobe_frames(video)
    res["ffprobe_duration"] = _ffprobe_duration(video)
    r = subprocess.run([*CLI, "verify", str(d), "--json", "--scan", "--offset", "0"],
                       capture_output=True, text=True)
    try:
        rep = json.loads(r.stdout)
    except ValueError:
        rep = {}
    v = rep.get("video") or {}
    res["verify"] = {"exit": r.returncode, "verdict": rep.get("verdict"),
                     "frames": v.get("frame_count"), "duration_s": v.get("duration_s"),
                     "video_findings": [(f.get("severity"), f.get("rule"),
                                         f.get("message", "")[:140])
                                        for f in rep.get("findings", [])
                                        if str(f.get("rule", "")).startswith("video.")],
                     "err": r.stderr[-200:] if not rep else ""}
    return res


if __name__ == "__main__":
    for name in sys.argv[1:] or SHAPES:
        try:
            print(json.dumps(check(name)), flush=True)
        except Exception as e:  # noqa: BLE001 - one broken shape must not hide the others
            print(json.dumps({"shape": name, "crash": repr(e)[:300]}), flush=True)
