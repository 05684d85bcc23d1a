"""Session 21's QA pass (docs/qa/session21.md): held-out inputs for the classes of QA session
20's open findings M6 (B-frames in AVI one frame late), M5 (a two-segment MKV passes), M1 (a
false drift on a genuine Xvid AVI run) and M7 (the analysis' cost), run through main, actual
against expected. Heavy files go to `.cache/qa-s21/` (gitignored); nothing here is imported by
the app or the tests. Session 20's machinery (scripts/qa_session20.py, and through it
qa_session10/12..19.py) is reused by import.

    .venv/bin/python scripts/qa_session21.py video [SHAPE...]      # M6's class, held out
    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/qa_session21.py gui-frames [SHAPE...]
    .venv/bin/python scripts/qa_session21.py segments [CASE...]    # M5's class, held out
    .venv/bin/python scripts/qa_session21.py sync-build [RUN...]   # M1's class (ale-py)
    .venv/bin/python scripts/qa_session21.py sync [RUN...]         # M1 + s20 speed regressions
    .venv/bin/python scripts/qa_session21.py frame-count [RUN...]  # counts on those runs
    .venv/bin/python scripts/qa_session21.py cost [RUN...]         # M7
    .venv/bin/python scripts/qa_session21.py copy-s20 DIR          # s20's built runs -> cache
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "scripts")]
import qa_session10 as s10  # noqa: E402
import qa_session12 as s12  # noqa: E402
import qa_session13 as s13  # noqa: E402
import qa_session14 as s14  # noqa: E402
import qa_session15 as s15  # noqa: E402
import qa_session16 as s16  # noqa: E402
import qa_session17 as s17  # noqa: E402
import qa_session18 as s18  # noqa: E402
import qa_session19 as s19  # noqa: E402
import qa_session20 as s20  # noqa: E402

CACHE = REPO / ".cache" / "qa-s21"
for _m in (s10, s12, s13, s14, s15, s16, s17, s18, s19, s20):
    _m.CACHE = CACHE
_raw = s13._raw


# -- M6's class (issue 12): B-frames where timestamps are DTS-only or unusual ----------------
#: shape -> the top-left box that holds the 320x240 picture
VIDEO_SHAPES = {"mpeg4_avi_bf2_25": (320, 240), "h264_avi_bf3_30": (320, 240),
                "mpeg2_ps_bf2_25": (320, 240), "mpeg1_avi_bf2_25": (320, 240),
                "wmv2_asf_25": (320, 240), "flv1_flv_25": (320, 240),
                "mpeg4_avi_bf2_packed_25": (320, 240),
                # added 13:17, after a clean first run of the 7 above on a56afc4: the packed
                # class itself (libxvid) in shapes the engineer's inputs (40 fps, -bf 2, -g 80,
                # AVI) did not have
                "xvid_avi_bf1_25": (320, 240), "xvid_avi_bf3_30_g12": (320, 240),
                "xvid_mkv_bf2_25": (320, 240), "xvid_avi_to_mp4_copy": (320, 240),
                "xvid_avi_unpacked_bsf": (320, 240)}
_MP3 = ["-c:a", "libmp3lame", "-b:a", "96k"]
#: shape -> (fps, encoder and muxer args, file name)
_SHAPE_ARGS = {
    "mpeg4_avi_bf2_25": ("25", ["-c:v", "mpeg4", "-q:v", "3", "-bf", "2", "-g", "50", *_MP3,
                                "-f", "avi"], "run.avi"),
    "h264_avi_bf3_30": ("30", ["-c:v", "libx264", "-preset", "veryfast", "-bf", "3", "-g", "60",
                               "-pix_fmt", "yuv420p", *_MP3, "-f", "avi"], "run.avi"),
    "mpeg2_ps_bf2_25": ("25", ["-c:v", "mpeg2video", "-q:v", "3", "-bf", "2", "-g", "15",
                               "-c:a", "mp2", "-b:a", "128k", "-f", "vob"], "run.mpg"),
    "mpeg1_avi_bf2_25": ("25", ["-c:v", "mpeg1video", "-q:v", "3", "-bf", "2", "-g", "15",
                                *_MP3, "-f", "avi"], "run.avi"),
    "wmv2_asf_25": ("25", ["-c:v", "wmv2", "-q:v", "3", "-g", "50", "-c:a", "wmav2",
                           "-b:a", "96k", "-f", "asf"], "run.wmv"),
    "flv1_flv_25": ("25", ["-c:v", "flv", "-q:v", "3", "-g", "50", *_MP3, "-ar", "44100",
                           "-f", "flv"], "run.flv"),
    # ffmpeg's mpeg4 encoder tagged as DivX 5 (unpacked): does a tag alone change the reading?
    "mpeg4_avi_bf2_packed_25": ("25", ["-c:v", "mpeg4", "-vtag", "DX50", "-q:v", "3", "-bf",
                                       "2", "-g", "50", *_MP3, "-f", "avi"], "run.avi"),
    "xvid_avi_bf1_25": ("25", ["-c:v", "libxvid", "-q:v", "3", "-bf", "1", "-g", "50",
                               "-pix_fmt", "yuv420p", *_MP3, "-f", "avi"], "run.avi"),
    "xvid_avi_bf3_30_g12": ("30", ["-c:v", "libxvid", "-q:v", "4", "-bf", "3", "-g", "12",
                                   "-pix_fmt", "yuv420p", *_MP3, "-f", "avi"], "run.avi"),
    "xvid_mkv_bf2_25": ("25", ["-c:v", "libxvid", "-q:v", "3", "-bf", "2", "-g", "50",
                               "-pix_fmt", "yuv420p", *_MP3, "-f", "matroska"], "run.mkv"),
}
#: shape -> (the libxvid AVI it is made from, the stream copy's args, file name)
_REMUX = {"xvid_avi_to_mp4_copy": ("xvid_avi_bf1_25", ["-c", "copy", "-f", "mp4"], "run.mp4"),
          "xvid_avi_unpacked_bsf": ("xvid_avi_bf1_25", ["-c", "copy", "-bsf:v",
                                                        "mpeg4_unpack_bframes", "-f", "avi"],
                                    "run.avi")}


def build_video(shape: str) -> Path:
    """A submission folder: 24 s of frame-numbered pictures in `shape`, a 330 Hz tone, and a
    40-event community log whose run_start is at 1.5 s in the video (as sessions 13-20's)."""
    import video_corpus as vc

    from moderator_app.core.samples.community import make_agent_log

    folder = CACHE / "video" / shape
    if any(folder.glob("run.*")):
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    if shape in _REMUX:  # a stream copy of another shape's file (same frames, same log)
        src, args, name = _REMUX[shape]
        vc._ffmpeg(["-i", str(next(build_video(src).glob("run.*"))), *args,
                    str(folder / name)])
        make_agent_log(folder / "agent-log.jsonl", 40, 14)
        return folder
    fps, args, name = _SHAPE_ARGS[shape]
    n = s15.SECONDS
    tone = ["-f", "lavfi", "-i", f"sine=frequency=330:duration={n}:sample_rate=44100",
            "-map", "0:v", "-map", "1:a"]
    vc._ffmpeg([*_raw(fps), *tone, "-threads", "1", *args, str(folder / name)],
               vc.Script(frames=n * int(fps)))
    make_agent_log(folder / "agent-log.jsonl", 40, 14)
    return folder


def check_video(shape: str) -> dict:
    """Session 13's check_video, plus each event's picture against the encoded truth (frame
    floor(t * fps), drawn in the picture): check_video judges by ffmpeg's own decode and
    timestamps, and on a packed stream those can be wrong too. Also ffmpeg's errors against
    the encoded truth (`ffmpeg_errors_vs_encoded`)."""
    import math
    from bisect import bisect_right

    res = s13.check_video(shape)
    fps = int(_SHAPE_ARGS[_REMUX[shape][0] if shape in _REMUX else shape][0])
    folder = build_video(shape)
    video = next(folder.glob("run.*"))
    codes, times = s13.truth_codes(video, VIDEO_SHAPES[shape])
    log = [json.loads(x) for x in (folder / "agent-log.jsonl").read_bytes().splitlines()]
    bad = {i: g for i, _w, g in res["core_errors"]}
    step = (times[-1] - times[0]) / max(1, len(times) - 1)
    mine, theirs = [], []
    for i, e in enumerate(log, 1):
        t = s13.RUN_OFFSET + e["elapsedMs"] / 1000
        ideal = math.floor(t * fps + 1e-6)
        ideal = ideal if ideal < s15.SECONDS * fps else None
        ff = codes[bisect_right(times, t + 1e-6) - 1] if t < times[-1] + step else None
        got = bad.get(i, ff)
        if got != ideal:
            mine.append((i, ideal, got))
        if ff != ideal:
            theirs.append((i, ideal, ff))
    res["core_errors_vs_encoded"] = mine
    res["ffmpeg_errors_vs_encoded"] = theirs
    return res


#: the player's path (added 13:27): the packed class and two unpacked B-frame AVIs
GUI_SHAPES = ["xvid_avi_bf1_25", "xvid_avi_bf3_30_g12", "mpeg4_avi_bf2_25", "h264_avi_bf3_30"]


# -- M5's class (issue 15): concatenations ---------------------------------------------------
SEGMENTS = ("seg_mp4_after_mp4", "seg_ts_res_change", "seg_mkv_second_codec",
            "seg_mkv_then_garbage", "seg_mkv_body_garbage",
            # added 13:22, after the 5 above behaved on 745a69d and a56afc4 alike: closer to
            # s20's h20_06 (same codec in both segments), in other codecs and lengths
            "seg_mkv_h264_black_then_honest", "seg_webm_vp9_two", "seg_mkv_mpeg4_12s_16s",
            # s20's h20_06 itself, rebuilt as qa_hostile_s20 does (M5: the regression check)
            "h20_06_repeat",
            # added 13:26, after reading 4173367's approach (joined recordings found from the
            # container's timestamp restarts, checked by decoding): joins it may not see
            "seg_ts_codec_change", "seg_fmp4_res_change",
            # added 13:40, after N4: H.264 joins in Matroska whose second header differs
            "seg_mkv_h264_res_change", "seg_mkv_h264_profile_change")
_H264 = ["-c:v", "libx264", "-preset", "veryfast", "-g", "60", "-bf", "2", "-pix_fmt", "yuv420p"]


def _part(out: Path, args: list[str], first: int, count: int, fps: str = "30") -> Path:
    if not out.exists():
        s13._feed([*_raw(fps), "-threads", "1", *args, str(out)], first, count)
    return out


def build_segments(case: str) -> Path:
    """A folder with the community sample's log (run 24.5 s) and a video of 30 fps
    frame-numbered footage put together as `case` says."""
    import qa_hostile_s20 as h20
    import video_corpus as vc

    d = CACHE / "segments" / case
    d.mkdir(parents=True, exist_ok=True)
    parts = CACHE / "segments" / "parts"
    parts.mkdir(exist_ok=True)
    rng = np.random.default_rng(2121)
    if case == "seg_mp4_after_mp4":
        out = d / "video.mp4"
        if not out.exists():
            a = _part(parts / "a2s.mp4", [*_H264, "-f", "mp4"], 0, 60)
            b = _part(parts / "b26s.mp4", [*_H264, "-f", "mp4"], 60, 780)
            out.write_bytes(a.read_bytes() + b.read_bytes())
    elif case == "seg_ts_res_change":
        out = d / "video.ts"
        if not out.exists():
            a = _part(parts / "a640.ts", ["-vf", "pad=640:480:0:0:0x303030", *_H264,
                                          "-f", "mpegts"], 0, 420)
            b = _part(parts / "b800.ts", ["-vf", "pad=800:600:0:0:0x303030", *_H264,
                                          "-output_ts_offset", "14", "-f", "mpegts"], 420, 420)
            out.write_bytes(a.read_bytes() + b.read_bytes())
    elif case == "seg_mkv_second_codec":
        out = d / "video.mkv"
        if not out.exists():
            a = _part(parts / "a3s_h264.mkv", [*_H264, "-f", "matroska"], 0, 90)
            b = _part(parts / "b25s_mpeg4.mkv", ["-c:v", "mpeg4", "-q:v", "3", "-f",
                                                  "matroska"], 90, 750)
            out.write_bytes(a.read_bytes() + b.read_bytes())
    elif case == "seg_mkv_then_garbage":
        out = d / "video.mkv"
        if not out.exists():
            a = _part(parts / "honest28.mkv", [*_H264, "-f", "matroska"], 0, 840)
            out.write_bytes(a.read_bytes() + rng.bytes(4 << 20))
    elif case == "seg_mkv_body_garbage":
        out = d / "video.mkv"
        if not out.exists():
            a = _part(parts / "honest28_cues_front.mkv", [*_H264, "-cues_to_front", "1",
                                                          "-f", "matroska"], 0, 840)
            data = bytearray(a.read_bytes())
            at = len(data) * 15 // 100
            data[at:] = rng.bytes(len(data) - at)
            out.write_bytes(bytes(data))
    elif case in ("seg_mkv_h264_black_then_honest", "seg_webm_vp9_two", "seg_mkv_mpeg4_12s_16s"):
        ext = "webm" if "webm" in case else "mkv"
        out = d / f"video.{ext}"
        if not out.exists():
            if case == "seg_webm_vp9_two":
                enc = ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v",
                       "1M", "-g", "60", "-f", "webm"]
            elif case == "seg_mkv_mpeg4_12s_16s":
                enc = ["-c:v", "mpeg4", "-q:v", "3", "-f", "matroska"]
            else:
                enc = [*_H264, "-f", "matroska"]
            first = 360 if case == "seg_mkv_mpeg4_12s_16s" else 60
            if case == "seg_mkv_h264_black_then_honest":
                a = parts / "black2s_h264.mkv"
                if not a.exists():
                    vc._ffmpeg(["-f", "lavfi", "-i", "color=black:size=320x240:rate=30:"
                                "duration=2", *enc, str(a)])
            else:
                a = _part(parts / f"{case}-a.{ext}", enc, 0, first)
            b = _part(parts / f"{case}-b.{ext}", enc, first, 840 - first)
            out.write_bytes(a.read_bytes() + b.read_bytes())
    elif case == "h20_06_repeat":
        out = d / "video.mkv"
        if not out.exists():
            black, one = parts / "black2s_mpeg4.mkv", parts / "sample.mkv"
            h20._ffmpeg(["-f", "lavfi", "-i", "color=black:size=320x240:rate=30:duration=2",
                         "-c:v", "mpeg4", "-f", "matroska"], black)
            h20._ffmpeg(["-i", str(h20.qh.SAMPLE / "video.mp4"), "-map", "0", "-c", "copy",
                         "-f", "matroska"], one)
            out.write_bytes(black.read_bytes() + one.read_bytes())
    elif case == "seg_ts_codec_change":  # one PID: 2 s MPEG-2 video, then 26 s H.264
        out = d / "video.ts"
        if not out.exists():
            a = _part(parts / "a2s_mpeg2.ts", ["-c:v", "mpeg2video", "-q:v", "3", "-f",
                                               "mpegts"], 0, 60)
            b = _part(parts / "b26s_h264.ts", [*_H264, "-output_ts_offset", "2", "-f",
                                               "mpegts"], 60, 780)
            out.write_bytes(a.read_bytes() + b.read_bytes())
    elif case == "seg_fmp4_res_change":  # fragmented MP4 640x480 2 s + fragmented 800x600 26 s
        out = d / "video.mp4"
        if not out.exists():
            frag = ["-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-f", "mp4"]
            a = _part(parts / "a2s_640.mp4", ["-vf", "pad=640:480:0:0:0x303030", *_H264, *frag],
                      0, 60)
            b = _part(parts / "b26s_800.mp4", ["-vf", "pad=800:600:0:0:0x303030", *_H264,
                                               *frag], 60, 780)
            out.write_bytes(a.read_bytes() + b.read_bytes())
    elif case == "seg_mkv_h264_res_change":  # MKV 640x480 2 s + MKV 800x600 26 s (H.264)
        out = d / "video.mkv"
        if not out.exists():
            a = _part(parts / "a2s_640.mkv", ["-vf", "pad=640:480:0:0:0x303030", *_H264, "-f",
                                              "matroska"], 0, 60)
            b = _part(parts / "b26s_800.mkv", ["-vf", "pad=800:600:0:0:0x303030", *_H264,
                                               "-f", "matroska"], 60, 780)
            out.write_bytes(a.read_bytes() + b.read_bytes())
    elif case == "seg_mkv_h264_profile_change":  # same size: baseline (CAVLC) 2 s + high 26 s
        out = d / "video.mkv"
        if not out.exists():
            a = _part(parts / "a2s_baseline.mkv", ["-c:v", "libx264", "-preset", "veryfast",
                                                   "-profile:v", "baseline", "-pix_fmt",
                                                   "yuv420p", "-f", "matroska"], 0, 60)
            b = _part(parts / "b26s_high.mkv", ["-c:v", "libx264", "-preset", "slow",
                                                "-profile:v", "high", "-bf", "3", "-pix_fmt",
                                                "yuv420p", "-f", "matroska"], 60, 780)
            out.write_bytes(a.read_bytes() + b.read_bytes())
    else:
        raise ValueError(case)
    h20._with_sample_log(d)
    return d


def check_segments(case: str) -> dict:
    """`verify --json --scan --offset 0` (512 MiB, 60 s) against ffprobe's count."""
    import video_corpus as vc

    d = build_segments(case)
    video = next(p for p in d.iterdir() if p.name.startswith("video."))
    try:
        ff = vc.ffprobe_frames(video)
    except Exception as e:  # noqa: BLE001 - a QA row
        ff = f"ffprobe failed: {e!r}"[:120]
    t0 = time.monotonic()
    r = subprocess.run([*s10.LIMIT, *s10.CLI, "verify", str(d), "--json", "--scan", "--offset",
                        "0"], capture_output=True, text=True)
    wall = round(time.monotonic() - t0, 1)
    try:
        rep = json.loads(r.stdout)
    except ValueError:
        rep = {}
    v = rep.get("video") or {}
    return {"case": case, "exit": r.returncode, "wall_s": wall, "verdict": rep.get("verdict"),
            "ffprobe_frames": ff, "report_frames": v.get("frame_count"),
            "duration_s": v.get("duration_s"), "footage_gaps": v.get("footage_gaps"),
            "findings": [(f.get("severity"), f.get("rule"), f.get("message", "")[:160])
                         for f in rep.get("findings", [])
                         if str(f.get("rule", "")).split(".")[0] in ("video", "coverage",
                                                                     "audio")],
            "scan_findings": [(f.get("rule"), f.get("start_s"), f.get("end_s"))
                              for f in (rep.get("video_scan") or {}).get("findings", [])],
            "stderr": r.stderr[-300:] if not rep else ""}


# -- M1's class (issue 13): genuine runs at cadences not yet tried ------------------------------
RECORDERS = {**s20.RECORDERS,
             "r50m4avi": {"fps": 50, "scale": 2, "lead_s": 2.6, "container": "avi",
                          "codec": "mpeg4bf50"},
             "r25h264avi": {"fps": 25, "scale": 2, "lead_s": 1.9, "container": "avi",
                            "codec": "h264bf25"},
             # added 13:17: the packed class at another cadence (libxvid -bf 1, 30 fps)
             "r30xvidbf1": {"fps": 30, "scale": 2, "lead_s": 2.3, "container": "avi",
                            "codec": "xvidbf1_30"},
             # added 13:37 (s21-drift built r50m4avi/r25h264avi from this script at 2843227):
             # 60 fps, libx264 with 8 B-frames (a deep reorder) in AVI, 1.4 s lead-in
             "r60h264bf8avi": {"fps": 60, "scale": 2, "lead_s": 1.4, "container": "avi",
                               "codec": "h264bf8_60"}}
NEW_RUNS = [f"{g}-genuine@{r}" for r in ("r50m4avi", "r25h264avi", "r30xvidbf1",
                                         "r60h264bf8avi") for g in s20.GAMES]
S20_RUNS = [f"{g}-{k}@r40xvidavi" for g in s20.GAMES for k in ("speed4", "slow")] + \
    ["frogger-genuine2@r40xvidavi"]
COST_RUNS = ["frogger-genuine@r40xvidavi", "pooyan-genuine@r40xvidavi",
             "frogger-freeze@r40xvidavi"]


def _encode(frames: np.ndarray, folder: Path, rec) -> Path:
    """Session 20's encoder, with this pass' two recorders added."""
    codec = getattr(rec, "codec", "")
    if codec not in ("mpeg4bf50", "h264bf25", "xvidbf1_30", "h264bf8_60"):
        return s20._encode(frames, folder, rec)
    h, w = frames.shape[1:3]
    path = folder / rec.video_name
    vcodec = {"mpeg4bf50": ["-c:v", "mpeg4", "-q:v", "3", "-bf", "2", "-g", "100"],
              "h264bf25": ["-c:v", "libx264", "-preset", "veryfast", "-bf", "3", "-g", "50"],
              "xvidbf1_30": ["-c:v", "libxvid", "-q:v", "3", "-bf", "1", "-g", "60"],
              "h264bf8_60": ["-c:v", "libx264", "-preset", "veryfast", "-bf", "8",
                             "-b-pyramid", "normal", "-g", "120"]}[codec]
    cmd = ["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
           "rgb24", "-s", f"{w}x{h}", "-r", str(rec.fps), "-i", "-", "-f", "lavfi", "-i",
           "sine=frequency=550:sample_rate=44100", "-map", "0:v", "-map", "1:a", "-shortest",
           "-vf", f"scale={w * rec.scale}:{h * rec.scale}:flags=neighbor", *vcodec,
           "-pix_fmt", "yuv420p", "-threads", "1", "-c:a", "libmp3lame", "-b:a", "96k",
           "-f", "avi", str(path)]
    subprocess.run(cmd, input=np.ascontiguousarray(frames).tobytes(), check=True)
    return path


s14._encode = _encode
s14.RECORDERS = RECORDERS


def _rows(fn, names: list[str], key: str) -> None:
    for name in names:
        try:
            print(json.dumps(fn(name)), flush=True)
        except Exception as e:  # noqa: BLE001 - a QA row, not the product
            print(json.dumps({key: name, "qa_error": repr(e)[:300]}), flush=True)


def main(argv: list[str]) -> int:
    what, rest = (argv[0] if argv else ""), argv[1:]
    if what == "video":
        s13.VIDEO_SHAPES, s13.build_video = VIDEO_SHAPES, build_video
        _rows(check_video, rest or list(VIDEO_SHAPES), "shape")
    elif what == "gui-frames":  # the player's own path, offscreen (one process per shape)
        s13.VIDEO_SHAPES, s13.build_video = VIDEO_SHAPES, build_video
        _rows(s13.gui_frames, rest or GUI_SHAPES, "shape")
    elif what == "video-build":
        _rows(lambda s: {"shape": s, "folder": str(build_video(s))}, rest or list(VIDEO_SHAPES),
              "shape")
    elif what == "segments":
        _rows(check_segments, rest or list(SEGMENTS), "case")
    elif what == "segments-build":
        _rows(lambda c: {"case": c, "folder": str(build_segments(c))}, rest or list(SEGMENTS),
              "case")
    elif what == "sync-build":
        _rows(lambda r: {"run": r, "folder": str(s20.build_sync_run(r))}, rest or NEW_RUNS, "run")
    elif what == "sync":
        _rows(s20.check_sync, rest or NEW_RUNS + S20_RUNS, "run")
    elif what == "frames-real":  # `frame --line N --offset TRUTH` for 10 actions vs ffmpeg
        _rows(s19.frames_real, rest or NEW_RUNS, "run")
    elif what == "frame-count":
        _rows(s19.frame_count, rest or NEW_RUNS, "run")
    elif what == "cost":
        pairs = int(os.environ.get("QA_PAIRS", "3"))  # more pairs where 3 are too noisy
        _rows(lambda r: s19.cost(r, pairs), rest or COST_RUNS, "run")
    elif what == "copy-s20":  # s20's built runs (deterministic builds), copied read-only
        for name in S20_RUNS + COST_RUNS:
            dst = CACHE / "sync" / name
            if not dst.exists():
                shutil.copytree(Path(rest[0]) / name, dst)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
