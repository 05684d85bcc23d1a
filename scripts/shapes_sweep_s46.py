"""Session 46 sweep (issue 12): recording shapes no test or sweep had tried, each checked for
frame truth as session 23's sweep checks it (`qa_sweep_s23.check`: the core export at 64 moments
drawn at random, so the decoder seeks backwards and forwards, and `moderator-app frame --time`
at 8, against ffmpeg's own decode of the drawn frame numbers), the frame count and duration
against ffprobe, and the video findings of `verify --json --scan` (none expected: every file is
honest).

    PYTHONPATH=. nice -n 10 .venv/bin/python scripts/shapes_sweep_s46.py [SHAPE ...]

Files are built under $MODERATOR_SHAPES_DIR (default: .cache/shapes-s46 beside the git common
directory, never in git), SHAPE/run.EXT + agent-log.jsonl; one JSON line per shape is printed.
Every file is a few seconds of `video_corpus.draw_frame` pictures (the number drawn on each), so
the truth is exact.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "scripts")]
import qa_sweep_s23 as s23  # noqa: E402
import video_corpus as vc  # noqa: E402

_COMMON = Path(subprocess.run(["git", "-C", str(REPO), "rev-parse", "--git-common-dir"],
                              capture_output=True, text=True).stdout.strip() or REPO / ".git")
CACHE = Path(os.environ.get("MODERATOR_SHAPES_DIR",
                            (REPO / _COMMON).resolve().parent / ".cache" / "shapes-s46"))
X264 = ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-threads", "1"]
X265 = ["-c:v", "libx265", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
MPEG2 = ["-c:v", "mpeg2video", "-q:v", "3", "-bf", "2", "-g", "15"]
VP8 = ["-c:v", "libvpx", "-b:v", "600k", "-g", "45", "-deadline", "realtime", "-cpu-used", "8"]
VP9 = ["-c:v", "libvpx-vp9", "-b:v", "600k", "-g", "45", "-deadline", "realtime",
       "-cpu-used", "8", "-row-mt", "0"]
AOM = ["-c:v", "libaom-av1", "-cpu-used", "8", "-usage", "realtime", "-b:v", "500k",
       "-g", "45", "-row-mt", "0", "-threads", "1"]
SVT = ["-c:v", "libsvtav1", "-preset", "12", "-g", "45", "-pix_fmt", "yuv420p"]


def _x265(params: str) -> list[str]:
    return [*X265, "-x265-params", f"log-level=none:{params}"]


def _ff(*args: str, stdout=None) -> None:
    s23._ff(*args, stdout=stdout)


def _piped(src: Path, out: Path, fmt: str, *extra: str) -> Path:
    """`src` stream-copied into format `fmt` written to a pipe: the muxer cannot seek back, so
    it writes no index (AVI idx1, FLV keyframes, ASF index, MKV cues) and no counts."""
    with open(out, "wb") as fh:
        _ff("-i", str(src), "-map", "0", "-c", "copy", *extra, "-f", fmt, "-", stdout=fh)
    return out


# name -> (ext, encoder and muxer args, frames, fps); every one drawn 320x240 unless scaled
PLAIN: dict[str, tuple[str, list[str], int, str]] = {
    # AV1 in the containers that carry it
    "webm_av1_aom": ("webm", AOM, 120, "30"),
    "mp4_av1_aom": ("mp4", AOM, 120, "30"),
    "mkv_av1_rav1e": ("mkv", ["-c:v", "librav1e", "-speed", "10", "-g", "45"], 90, "30"),
    "ivf_av1_svt": ("ivf", SVT, 120, "30"),
    "obu_av1_svt": ("obu", [*SVT, "-f", "obu"], 120, "30"),
    "webm_av1_svt_10bit": ("webm", [*SVT[:-1], "yuv420p10le"], 120, "30"),
    # HEVC with B-frames in MOV and TS; raw elementary streams (no container times)
    "mov_hevc_bf3_hvc1": ("mov", [*_x265("bframes=3:keyint=45"), "-tag:v", "hvc1"], 150, "30"),
    "ts_hevc_bf3": ("ts", [*_x265("bframes=3:keyint=45"), "-f", "mpegts"], 150, "30"),
    "m2ts_hevc_opengop": ("m2ts", [*_x265("bframes=4:keyint=40:open-gop=1"), "-f", "mpegts",
                                   "-mpegts_m2ts_mode", "1"], 150, "30"),
    "hevc_annexb_raw": ("hevc", [*_x265("bframes=3:keyint=45"), "-f", "hevc"], 150, "25"),
    "h264_annexb_raw": ("h264", [*X264, "-bf", "2", "-g", "45", "-f", "h264"], 150, "25"),
    "h264_annexb_raw_opengop": ("264", [*X264, "-bf", "3", "-g", "45", "-x264-params",
                                        "open-gop=1", "-f", "h264"], 150, "25"),
    "hevc_annexb_raw_cra": ("h265", [*_x265("bframes=4:keyint=40:open-gop=1"), "-f", "hevc"],
                            150, "25"),
    "mpg_ps_h264_bf2": ("mpg", [*X264, "-bf", "2", "-g", "30", "-f", "mpeg"], 150, "25"),
    "m4v_mpeg4_raw": ("m4v", ["-c:v", "mpeg4", "-q:v", "3", "-bf", "2", "-g", "30", "-f",
                              "m4v"], 150, "25"),
    "m2v_mpeg2_raw": ("m2v", [*MPEG2, "-f", "mpeg2video"], 150, "25"),
    "mpeg1_raw": ("m1v", ["-c:v", "mpeg1video", "-q:v", "3", "-bf", "2", "-g", "15", "-f",
                          "mpeg1video"], 150, "25"),
    "drc_dirac_raw": ("drc", ["-c:v", "vc2", "-b:v", "20M", "-f", "dirac"], 75, "25"),
    # intra / mezzanine codecs in MOV, MXF, MKV
    "mov_dnxhr_lb": ("mov", ["-c:v", "dnxhd", "-profile:v", "dnxhr_lb", "-pix_fmt",
                             "yuv422p"], 60, "30"),
    "mxf_dnxhr_sq": ("mxf", ["-c:v", "dnxhd", "-profile:v", "dnxhr_sq", "-pix_fmt",
                             "yuv422p"], 60, "25"),
    "mkv_prores_aw": ("mkv", ["-c:v", "prores_aw", "-profile:v", "2", "-pix_fmt",
                               "yuv422p10le"], 60, "30"),
    "mov_cfhd": ("mov", ["-c:v", "cfhd", "-pix_fmt", "yuv422p10le"], 60, "30"),
    "mov_hap": ("mov", ["-c:v", "hap", "-format", "hap"], 60, "30"),
    "mov_v210": ("mov", ["-c:v", "v210"], 45, "30"),
    "mov_uyvy_raw": ("mov", ["-c:v", "rawvideo", "-pix_fmt", "uyvy422"], 45, "30"),
    "mov_jpeg2000": ("mov", ["-c:v", "jpeg2000", "-pix_fmt", "yuv420p"], 45, "25"),
    "mxf_mpeg2_opgop_bf2": ("mxf", [*MPEG2, "-flags", "-cgop"], 150, "25"),
    "mov_cinepak": ("mov", ["-c:v", "cinepak"], 45, "15"),
    "mov_svq1": ("mov", ["-c:v", "svq1", "-g", "15"], 60, "15"),
    "mov_mpeg4_bf2": ("mov", ["-c:v", "mpeg4", "-q:v", "3", "-bf", "2", "-g", "30"], 150, "30"),
    "mp4_mpeg2_bf2": ("mp4", MPEG2, 150, "30"),
    "mkv_mpeg2_bf2_opengop": ("mkv", [*MPEG2, "-flags", "-cgop"], 150, "30"),
    "mkv_mjpeg": ("mkv", ["-c:v", "mjpeg", "-q:v", "3", "-pix_fmt", "yuvj420p"], 60, "30"),
    "mkv_theora": ("mkv", ["-c:v", "libtheora", "-q:v", "7", "-g", "30"], 120, "30"),
    "mkv_x264rgb": ("mkv", ["-c:v", "libx264rgb", "-preset", "veryfast", "-bf", "2", "-g",
                            "45", "-threads", "1"], 120, "30"),
    "mkv_x265_422_10bit": ("mkv", [*_x265("bframes=3:keyint=45")[:-3], "yuv422p10le",
                                   "-x265-params", "log-level=none:bframes=3:keyint=45"],
                           120, "30"),
    "mov_x264_422_10bit": ("mov", ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt",
                                   "yuv422p10le", "-bf", "2", "-g", "45", "-threads", "1"],
                           120, "30"),
    "nut_snow": ("nut", ["-c:v", "snow", "-q:v", "3", "-g", "30"], 60, "30"),
    "nut_ffv1_piped": ("nut", ["-c:v", "ffv1", "-g", "30"], 60, "30"),
    # VP8 / VP9 where few tests look
    "ogg_vp8": ("ogv", [*VP8, "-f", "ogg"], 120, "30"),
    "webm_vp9_444_12bit": ("webm", [*VP9, "-pix_fmt", "yuv444p12le"], 90, "30"),
    "mkv_vp9_altref_10bit": ("mkv", [*VP9[:-4], "-auto-alt-ref", "1", "-lag-in-frames", "16",
                                     "-cpu-used", "8", "-pix_fmt", "yuv420p10le"], 120, "30"),
    # old screen / PC codecs
    "avi_zmbv": ("avi", ["-c:v", "zmbv", "-pix_fmt", "bgr0", "-g", "30"], 60, "15"),
    "flv_flashsv": ("flv", ["-c:v", "flashsv"], 45, "15"),
    "avi_jpegls": ("avi", ["-c:v", "jpegls"], 30, "15"),
    "avi_magicyuv": ("avi", ["-c:v", "magicyuv"], 45, "30"),
    "rm_rv20": ("rm", ["-c:v", "rv20", "-q:v", "3", "-g", "30"], 90, "25"),
    "asf_wmv1": ("asf", ["-c:v", "wmv1", "-q:v", "3", "-g", "30"], 120, "25"),
    "avi_h261_cif": ("avi", ["-vf", "scale=352:288", "-c:v", "h261", "-q:v", "3"], 75, "25"),
    "3g2_h263": ("3g2", ["-vf", "scale=176:144", "-c:v", "h263", "-q:v", "3", "-g", "30"],
                 90, "15"),
    "swf_flv1": ("swf", ["-c:v", "flv", "-q:v", "3", "-g", "30"], 90, "15"),
    # H.264 / HEVC in AVI (no presentation times) and MP4 variants
    "avi_h264_bf3": ("avi", [*X264, "-bf", "3", "-g", "45"], 150, "30"),
    "avi_hevc_bf3": ("avi", _x265("bframes=3:keyint=45"), 150, "30"),
    "mp4_no_editlist_bf2": ("mp4", [*X264, "-bf", "2", "-g", "30", "-use_editlist", "0"],
                            150, "30"),
    "mp4_negcts_bf3": ("mp4", [*X264, "-bf", "3", "-g", "30", "-movflags",
                               "negative_cts_offsets", "-use_editlist", "0"], 150, "30"),
    "mp4_frag_every_frame": ("mp4", [*X264, "-bf", "2", "-g", "30", "-movflags",
                                     "frag_every_frame+empty_moov"], 150, "30"),
    "ismv_h264": ("ismv", [*X264, "-bf", "2", "-g", "30"], 150, "30"),
    "f4v_h264": ("f4v", [*X264, "-bf", "2", "-g", "30"], 150, "30"),
    "mov_timecode_track": ("mov", [*X264, "-bf", "2", "-g", "30", "-timecode",
                                   "01:02:03:04"], 150, "30"),
    "mp4_x264_pulldown32": ("mp4", [*X264, "-bf", "0", "-g", "30", "-x264-params",
                                    "pulldown=32"], 120, "24000/1001"),
    "ts_x264_interlaced_tff": ("ts", [*X264, "-flags", "+ildct+ilme", "-x264-params",
                                      "tff=1", "-bf", "2", "-g", "30", "-f", "mpegts"],
                               150, "30"),
    "ts_mpeg2_interlaced_fields": ("ts", [*MPEG2, "-flags", "+ildct+ilme", "-top", "1",
                                          "-alternate_scan", "1", "-f", "mpegts"], 150, "25"),
    "mkv_x264_slices_intra_refresh": ("mkv", [*X264, "-bf", "0", "-x264-params",
                                              "intra-refresh=1:keyint=60"], 150, "30"),
    # odd sizes
    "mkv_x264_444_161x97": ("mkv", ["-vf", "scale=161:97", "-c:v", "libx264", "-preset",
                                    "veryfast", "-pix_fmt", "yuv444p", "-bf", "2", "-g", "30",
                                    "-threads", "1"], 120, "30"),
    "webm_vp9_161x97": ("webm", ["-vf", "scale=161:97", *VP9, "-pix_fmt", "yuv420p"], 120,
                        "30"),
    "mkv_ffv1_161x97": ("mkv", ["-vf", "scale=161:97", "-c:v", "ffv1", "-pix_fmt",
                                "yuv420p"], 60, "30"),
    "mp4_av1_161x97": ("mp4", ["-vf", "scale=161:97", *AOM], 90, "30"),
    "mp4_x264_1x_tall_98x722": ("mp4", ["-vf", "scale=98:722", *X264, "-bf", "2", "-g", "30"],
                                120, "30"),
}

PIPED = {  # name -> (source shape args, ext, muxer): written to a pipe, so no index
    "avi_mpeg4_piped_noindex": (["-c:v", "mpeg4", "-q:v", "3", "-g", "30"], "avi", "avi"),
    "avi_h264_piped_noindex": ([*X264, "-bf", "2", "-g", "30"], "avi", "avi"),
    "flv_h264_piped_nokeyframes": ([*X264, "-bf", "2", "-g", "30"], "flv", "flv"),
    "asf_wmv2_piped_noindex": (["-c:v", "wmv2", "-q:v", "3", "-g", "30"], "asf", "asf"),
    "nut_h264_piped": ([*X264, "-bf", "2", "-g", "30"], "nut", "nut"),
    "webm_av1_piped_nocues": (AOM, "webm", "webm"),
    "mkv_hevc_piped_nocues": (_x265("bframes=3:keyint=45"), "mkv", "matroska"),
    "mov_frag_piped": ([*X264, "-bf", "2", "-g", "30"], "mov", "mov"),
    "mxf_piped": (MPEG2, "mxf", "mxf"),
}
EXTRA_MUX = {"mov_frag_piped": ["-movflags", "frag_keyframe+empty_moov"],
             "avi_h264_piped_noindex": ["-bsf:v", "h264_mp4toannexb"]}


def _make(shape: str, d: Path) -> Path:
    """run.EXT of `shape` in `d`."""
    if shape in PLAIN:
        ext, args, frames, fps = PLAIN[shape]
        return vc.encode(d / f"run.{ext}", list(args), frames, fps)
    s = CACHE / "_src" / shape  # outside the run folder: verify takes the folder's one video
    s.mkdir(parents=True, exist_ok=True)
    if shape in PIPED:
        args, ext, fmt = PIPED[shape]
        src = vc.encode(s / f"a.{'mkv' if ext != 'mov' else 'mov'}", list(args), 150, "30")
        return _piped(src, d / f"run.{ext}", fmt, *EXTRA_MUX.get(shape, []))
    if shape == "mp4_ss_copy_editlist_bf3":  # -ss with copy: an edit list starting mid-GOP
        src = vc.encode(s / "a.mp4", [*X264, "-bf", "3", "-g", "60"], 300, "30")
        _ff("-ss", "2.37", "-i", str(src), "-c", "copy", str(d / "run.mp4"))
        return d / "run.mp4"
    if shape == "mov_hevc_ss_copy_editlist":
        src = vc.encode(s / "a.mov", [*_x265("bframes=3:keyint=60"), "-tag:v", "hvc1"], 300,
                        "30")
        _ff("-ss", "3.3", "-i", str(src), "-c", "copy", str(d / "run.mov"))
        return d / "run.mov"
    if shape == "webm_vp9_ss_copy":
        src = vc.encode(s / "a.webm", VP9, 240, "30")
        _ff("-ss", "2.2", "-i", str(src), "-c", "copy", str(d / "run.webm"))
        return d / "run.webm"
    if shape == "mkv_av1_ss_copy":
        src = vc.encode(s / "a.mkv", AOM, 180, "30")
        _ff("-ss", "2.2", "-i", str(src), "-c", "copy", str(d / "run.mkv"))
        return d / "run.mkv"
    if shape == "mp4_negative_start_neg1s":  # first pts -1 s: an edit list drops a second
        src = vc.encode(s / "a.mkv", [*X264, "-bf", "2", "-g", "30"], 150, "30")
        _ff("-itsoffset", "-1", "-i", str(src), "-c", "copy", str(d / "run.mp4"))
        return d / "run.mp4"
    if shape == "ts_first_pts_7s_audio_first":  # audio from 0, video from 7 s in one TS
        src = vc.encode(s / "a.mkv", [*X264, "-bf", "2", "-g", "30"], 150, "30")
        _ff("-f", "lavfi", "-i", "sine=frequency=440:duration=12", "-itsoffset", "7", "-i",
            str(src), "-map", "0:a", "-map", "1:v", "-c:v", "copy", "-c:a", "mp2", "-f",
            "mpegts", str(d / "run.ts"))
        return d / "run.ts"
    if shape == "mkv_two_videos_second_default":  # the game second, flagged default
        a = vc.encode(s / "a.mkv", [*X264, "-g", "30"], 150, "30")
        _ff("-f", "lavfi", "-i", "color=c=gray:s=160x120:r=30:d=5", "-i", str(a), "-map", "0:v",
            "-map", "1:v", "-c:v:0", "libx264", "-c:v:1", "copy", "-disposition:v:0", "0",
            "-disposition:v:1", "default", str(d / "run.mkv"))
        return d / "run.mkv"
    if shape == "mp4_cover_after_video":  # an attached picture after the footage's stream
        src = vc.encode(s / "a.mp4", [*X264, "-bf", "2", "-g", "30"], 150, "30")
        _ff("-f", "lavfi", "-i", "color=c=red:s=200x200:d=1", "-frames:v", "1",
            str(s / "cover.png"))
        _ff("-i", str(src), "-i", str(s / "cover.png"), "-map", "0", "-map", "1", "-c", "copy",
            "-disposition:v:1", "attached_pic", str(d / "run.mp4"))
        return d / "run.mp4"
    if shape == "mkv_vfr_concat_rates":  # 30 fps then 15 fps then 60 fps in one stream
        src = vc.encode(s / "a.mkv", ["-vf", "setpts='if(lt(N,60),N/30,if(lt(N,120),2+(N-60)/15,"
                                             "6+(N-120)/60))/TB'", "-fps_mode", "vfr", *X264,
                                      "-bf", "2", "-g", "30"], 180, "30")
        _ff("-i", str(src), "-c", "copy", str(d / "run.mkv"))
        return d / "run.mkv"
    if shape in DD_CUT:  # an elementary stream cut by bytes (`dd skip=`): no IDR first
        ext, args = DD_CUT[shape]
        data = vc.encode(s / f"a.{ext}", args, 150, "25").read_bytes()
        (d / f"run.{ext}").write_bytes(data[int(len(data) * 0.37):])
        return d / f"run.{ext}"
    raise KeyError(shape)


DD_CUT = {"h264_annexb_dd_cut": ("h264", [*X264, "-bf", "2", "-g", "30", "-f", "h264"]),
          "hevc_annexb_dd_cut": ("hevc", [*_x265("bframes=3:keyint=30"), "-f", "hevc"]),
          "m2v_dd_cut": ("m2v", [*MPEG2, "-f", "mpeg2video"])}


SHAPES = [*PLAIN, *PIPED, "mp4_ss_copy_editlist_bf3", "mov_hevc_ss_copy_editlist",
          "webm_vp9_ss_copy", "mkv_av1_ss_copy", "mp4_negative_start_neg1s",
          "ts_first_pts_7s_audio_first", "mkv_two_videos_second_default",
          "mp4_cover_after_video", "mkv_vfr_concat_rates", *DD_CUT]


def summary(res: dict) -> dict:
    """What decides a shape: right = 0 core and CLI errors, the count = ffprobe's, no video
    warning (info notes are listed, not failures)."""
    v = res.get("verify") or {}
    warns = [f for f in v.get("video_findings", []) if f[0] not in ("info",)]
    ok = (res.get("core_n_err") == 0 and not res.get("cli_errors")
          and res.get("frames") == res.get("ffprobe_frames") and not warns
          and v.get("frames") == res.get("ffprobe_frames"))
    return {"shape": res["shape"], "right": bool(ok), "frames": res.get("frames"),
            "ffprobe": res.get("ffprobe_frames"), "core_err": res.get("core_n_err"),
            "cli_err": len(res.get("cli_errors") or []), "warnings": warns}


if __name__ == "__main__":
    for name in sys.argv[1:] or SHAPES:
        try:
            res = s23.check(name, make=_make, cache=CACHE, moments_n=64, cli_n=8)
            res["summary"] = summary(res)
            print(json.dumps(res), flush=True)
        except Exception as e:  # noqa: BLE001 - one broken shape must not hide the others
            print(json.dumps({"shape": name, "crash": repr(e)[:400]}), flush=True)
