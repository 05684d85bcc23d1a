"""Session 18's QA pass (docs/qa/session18.md): deterministic inputs nobody on the team (nor
sessions 9-17's QA) had used, run through main, actual against expected. Heavy files go to
`.cache/qa-s18/` (gitignored); nothing here is imported by the app or the tests. Session 17's
machinery (scripts/qa_session17.py, and through it qa_session10/12/13/14/15/16.py) is reused by
import, pointed at two new games, two new recorders and new video shapes.

    .venv/bin/python scripts/qa_session18.py sync-build [RUN...]  # build the real-game runs
    .venv/bin/python scripts/qa_session18.py sync [RUN...]   # issue 13: Video Checkers, Phoenix
    .venv/bin/python scripts/qa_session18.py video [SHAPE...] # issue 12: new recording kinds
    .venv/bin/python scripts/qa_session18.py gui-frames [SHAPE...] # issue 12: the player's path
    .venv/bin/python scripts/qa_session18.py scan [SHAPE...]  # issue 12: inserted stretches
    .venv/bin/python scripts/qa_session18.py frames-real [RUN...] # issue 12: real-game runs
    .venv/bin/python scripts/qa_session18.py derive [NAME...]  # ... piped, killed, no index
    .venv/bin/python scripts/qa_session18.py hostile [ID...]  # issue 15 (qa_hostile_s18.py)
    .venv/bin/python scripts/qa_session18.py gui-hostile DIR  # issue 15: one, in the window
    .venv/bin/python scripts/qa_session18.py recheck-s17 [RUN...] # K2, K4 on s17's runs
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
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

CACHE = REPO / ".cache" / "qa-s18"
for _m in (s10, s12, s13, s14, s15, s16, s17):
    _m.CACHE = CACHE
#: session 17's built runs (read-only; K2 and K4 are re-checked on them)
S17_SYNC = Path("/work/wt/s17-qa/.cache/qa-s17/sync")


# -- issue 13: two games in no set so far ------------------------------------------------------
def video_checkers(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Video Checkers (a still board; the only inputs are the four diagonals and FIRE, which
    picks up and drops a piece; the computer answers a move after a pause)."""
    if rng.random() < 0.8:
        return [(rng.choice(("UPRIGHT", "UPLEFT", "DOWNRIGHT", "DOWNLEFT")), rng.randint(6, 14))]
    return [("FIRE", rng.randint(4, 8))]


def phoenix(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Phoenix (the birds flap and fly on their own; the ship moves left/right, FIRE shoots,
    DOWN raises the shield)."""
    r = rng.random()
    if r < 0.55:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(6, 20))]
    if r < 0.85:
        return [(rng.choice(("FIRE", "LEFTFIRE", "RIGHTFIRE")), rng.randint(3, 8))]
    return [("DOWN", rng.randint(4, 8))]


GAMES = {"video_checkers": (video_checkers, 181), "phoenix": (phoenix, 183)}

NTSC60 = 60000 / 1001
#: two recorders no corpus set or QA pass used for real-game runs
RECORDERS = {
    # 59.94 fps (one 60 Hz emulator frame in 1,001 dropped: one every 16.7 s), H.264 High with
    # 3 B-frames and open GOP (keyint 120), an AAC track (a 440 Hz tone), MP4 moov first,
    # x2 nearest (320x420); 1.3 s lead-in
    "r5994bfaac": {"fps": NTSC60, "scale": 2, "lead_s": 1.3, "container": "mp4",
                   "codec": "h264ogop5994"},
    # 15 fps (4 emulator frames per captured one), MJPEG q3 (all intra) in AVI with PCM audio,
    # x2 nearest letterboxed in 640x480 (a capture card's SD frame); 2.4 s lead-in
    "r15mjpeg": {"fps": 15, "scale": 2, "pad": (640, 480), "lead_s": 2.4, "container": "avi",
                 "codec": "mjpeg15"},
}
KINDS = ("genuine", "genuine2", "genuine3", "cut", "insert", "freeze", "slow", "deleted",
         "human")
SYNC_RUNS = [f"{g}-{k}@{r}" for r in RECORDERS for g in GAMES for k in KINDS]
SLOW45 = 1 / 0.955 - 1  # the video at 95.5 % of the log's clock (used: -2.5, -3, -3.5, -4 %)


def _encode(frames: np.ndarray, folder: Path, rec) -> Path:
    """Session 17's encoder, with this pass' two recorders added."""
    codec = getattr(rec, "codec", "")
    if codec not in ("h264ogop5994", "mjpeg15"):
        return _ENCODE17(frames, folder, rec)
    h, w = frames.shape[1:3]
    path = folder / rec.video_name
    rate = "60000/1001" if codec == "h264ogop5994" else str(rec.fps)
    cmd = ["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
           "rgb24", "-s", f"{w}x{h}", "-r", rate, "-i", "-", "-f", "lavfi", "-i",
           "sine=frequency=440:sample_rate=48000", "-map", "0:v", "-map", "1:a", "-shortest"]
    vf = f"scale={w * rec.scale}:{h * rec.scale}:flags=neighbor"
    if codec == "h264ogop5994":
        cmd += ["-vf", vf, "-c:v", "libx264", "-preset", "veryfast", "-crf", "20",
                "-pix_fmt", "yuv420p", "-bf", "3", "-x264-params", "open-gop=1:keyint=120",
                "-threads", "1", "-c:a", "aac", "-b:a", "96k", "-movflags", "+faststart",
                str(path)]
    else:
        pw, ph = rec.pad
        vf += f",pad={pw}:{ph}:(ow-iw)/2:(oh-ih)/2:black"
        cmd += ["-vf", vf, "-c:v", "mjpeg", "-q:v", "3", "-pix_fmt", "yuvj420p",
                "-c:a", "pcm_s16le", "-f", "avi", str(path)]
    subprocess.run(cmd, input=np.ascontiguousarray(frames).tobytes(), check=True)
    return path


_ENCODE17 = s17._encode
s14._encode = _encode  # s14.build_sync_run installs the module global `_encode`
s14.GAMES, s14.RECORDERS = GAMES, RECORDERS
s14.SLOW25 = SLOW45  # s14.build_sync_run sets build.SLOWDOWN from this global


def _legal_actions() -> None:
    """Video Checkers' minimal action set has no NOOP (the corpus' idle input): use the full
    legal set (18 actions) for every game, so that NOOP exists."""
    import corpus.play as play

    if getattr(play, "_qa18", False):
        return
    orig = play._emulator

    def emulator(game: str, seed: int):
        ale, _ = orig(game, seed)
        return ale, {a.name: a for a in ale.getLegalActionSet()}

    play._emulator, play._qa18 = emulator, True


def build_sync_run(name: str) -> Path:
    _legal_actions()
    return s14.build_sync_run(name)


s13.build_sync_run = build_sync_run


def check_sync(name: str) -> dict:
    """Session 15's strict judge (session 13's, plus the nearest warning only)."""
    return s15.check_sync_strict(name)


def recheck_s17(runs: list[str]) -> None:
    """Session 13's judge on session 17's built runs (read-only), as session 17 judged them."""
    s13.build_sync_run = lambda name: S17_SYNC / name
    s15.CACHE = S17_SYNC.parent
    for name in runs:
        try:
            print(json.dumps({"item": "K", **s15.check_sync_strict(name)}), flush=True)
        except Exception as e:  # noqa: BLE001 - a QA row, not the product
            print(json.dumps({"item": "K", "run": name, "qa_error": repr(e)[:300]}), flush=True)


#: K2 (Othello confident late), K4 (Zaxxon deleted / human / slow)
RECHECK_K = ["othello-genuine2@r2997prores", "othello-genuine@r2997prores",
             "othello-genuine2@r30vfr1080", "zaxxon-genuine@r2997prores",
             "zaxxon-deleted@r2997prores", "zaxxon-human@r2997prores", "zaxxon-slow@r2997prores",
             "zaxxon-deleted@r30vfr1080", "zaxxon-human@r30vfr1080", "zaxxon-slow@r30vfr1080"]


# -- issue 12: recording kinds nobody tried ------------------------------------------------------
VIDEO_SHAPES = {"vp9_alpha_webm_odd_30": (320, 240), "hevc12_mkv_25": (320, 240),
                "mjpeg_avi_15_pcm": (320, 240), "h264_mp4_5994_ogop_aacshort": (320, 240)}
_raw = s13._raw


def build_video(shape: str) -> Path:
    """A submission folder: the video of `shape` and a 40-event community log whose run_start
    is at RUN_OFFSET (1.5 s) in the video (as sessions 13-17's)."""
    import video_corpus as vc

    from moderator_app.core.samples.community import make_agent_log

    folder = CACHE / "video" / shape
    if any(folder.glob("run.*")):
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    n = s15.SECONDS
    if shape == "vp9_alpha_webm_odd_30":  # VP9 with alpha (yuva420p), 321x243, WebM
        vc._ffmpeg([*_raw("30"), "-vf", "format=rgba,pad=321:243:0:0:black@0.0",
                    "-c:v", "libvpx-vp9", "-pix_fmt", "yuva420p", "-b:v", "1M",
                    "-deadline", "realtime", "-cpu-used", "8", "-g", "60",
                    str(folder / "run.webm")], vc.Script(frames=n * 30))
    elif shape == "hevc12_mkv_25":  # HEVC Main 12 (x265, yuv420p12le) in Matroska
        vc._ffmpeg([*_raw("25"), "-c:v", "libx265", "-pix_fmt", "yuv420p12le", "-preset",
                    "veryfast", "-x265-params", "keyint=50:log-level=error",
                    str(folder / "run.mkv")], vc.Script(frames=n * 25))
    elif shape == "mjpeg_avi_15_pcm":  # MJPEG in AVI with a PCM track (a capture card)
        vc._ffmpeg([*_raw("15"), "-f", "lavfi", "-i",
                    f"sine=frequency=330:duration={n}:sample_rate=48000", "-map", "0:v",
                    "-map", "1:a", "-c:v", "mjpeg", "-q:v", "3", "-pix_fmt", "yuvj420p",
                    "-c:a", "pcm_s16le", str(folder / "run.avi")], vc.Script(frames=n * 15))
    elif shape == "h264_mp4_5994_ogop_aacshort":  # 59.94, 3 B, open GOP, AAC of 10 s
        vc._ffmpeg([*_raw("60000/1001"), "-f", "lavfi", "-i",
                    "sine=frequency=330:duration=10:sample_rate=48000", "-map", "0:v",
                    "-map", "1:a", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset",
                    "veryfast", "-bf", "3", "-x264-params", "open-gop=1:keyint=120",
                    "-c:a", "aac", str(folder / "run.mp4")],
                   vc.Script(frames=round(n * 60000 / 1001)))
    make_agent_log(folder / "agent-log.jsonl", 40, 14)
    return folder


#: issue 12's scan on inserted stretches, two shapes no session had
s15.SCANS["scan_hevc12_mkv_25"] = (
    25, {"video.frozen": 5.2, "video.black": 14.4, "video.cut": 29.2,
         "video.timestamp_gap": 39.6}, (5.2, 8.8), (14.4, 15.6), 29.2, (39.6, 40.4),
    ["-c:v", "libx265", "-pix_fmt", "yuv420p12le", "-preset", "veryfast", "-x265-params",
     "keyint=50:log-level=error", "-c:a", "libopus", "-b:a", "64k"], "run.mkv")
# 60 fps (check_scan feeds an integer rate), 3 B-frames, open GOP, AAC: the GOP shape is new
s15.SCANS["scan_h264_mp4_60_ogop"] = (
    60, {"video.frozen": 7.3, "video.black": 18.1, "video.cut": 27.9,
         "video.timestamp_gap": 36.6}, (7.3, 10.9), (18.1, 19.2), 27.9, (36.6, 37.3),
    ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "veryfast", "-bf", "3",
     "-x264-params", "open-gop=1:keyint=120", "-c:a", "aac", "-b:a", "96k"], "run.mp4")


def frames_real(name: str, lines: int = 10) -> dict:
    """Issue 12 on a real-game run as recorded: `moderator-app frame --line N --offset TRUTH`
    for the first `lines` action lines, each PNG matched (least squared error) against every
    frame ffmpeg decodes; the frame ffmpeg shows at offset + elapsed (the last with pts <= t)
    must be the best match (0 frames of error)."""
    import cv2

    folder = CACHE / "sync" / name
    truth = json.loads((folder / "truth.json").read_text())
    video = folder / truth["video"]
    w, h = truth["size"]
    dec = subprocess.Popen(["ffmpeg", "-v", "error", "-i", str(video), "-map", "0:v:0", "-f",
                            "rawvideo", "-pix_fmt", "bgr24", "-fps_mode", "passthrough", "-"],
                           stdout=subprocess.PIPE)
    size, kept = w * h * 3, []  # every 4th pixel of each frame (memory: 1/16 of the decode)
    while len(buf := dec.stdout.read(size)) == size:
        kept.append(np.frombuffer(buf, np.uint8).reshape(h, w, 3)[::4, ::4].astype(np.int16))
    dec.wait()
    small = np.stack(kept).astype(np.int32)
    pts = [x.split(",")[0] for x in subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
         "frame=best_effort_timestamp_time", "-of", "csv=p=0", str(video)],
        capture_output=True, text=True, check=True).stdout.split()]
    for i, x in enumerate(pts):  # a frame with no timestamp (MPEG-PS): one frame on
        pts[i] = float(x) if x != "N/A" else pts[i - 1] + 1 / truth["fps"]
    t0 = pts[0]
    log = [json.loads(x) for x in (folder / "agent-log.jsonl").read_bytes().splitlines()]
    acts = [i + 1 for i, e in enumerate(log) if e["type"] == "action"][:lines]
    errors, rows = [], []
    for line in acts:
        t = truth["offset_s"] + log[line - 1]["elapsedMs"] / 1000
        want = int(np.searchsorted(np.asarray(pts) - t0, t + 1e-6)) - 1
        png = CACHE / "frames-real" / f"{name}-{line}.png"
        png.parent.mkdir(parents=True, exist_ok=True)
        png.unlink(missing_ok=True)
        r = subprocess.run([*s10.LIMIT, *s10.CLI, "frame", str(folder), "--line", str(line),
                            "--offset", str(truth["offset_s"]), "-o", str(png)],
                           capture_output=True, text=True)
        img = cv2.imread(str(png)) if png.exists() else None
        if img is None or img.shape[:2] != (h, w):
            errors.append((line, want, None, r.returncode, r.stderr[-120:]))
            continue
        d = ((small - img[::4, ::4].astype(np.int32)) ** 2).mean(axis=(1, 2, 3))
        got = int(np.argmin(d))
        # identical pictures (a still screen) match equally: any of them is right
        same = set(np.nonzero(d <= d[got] + 1e-9)[0].tolist())
        rows.append((line, want, got))
        if want not in same:
            errors.append((line, want, got, round(float(d[want]), 1), round(float(d[got]), 1)))
    return {"run": name, "frames": len(small), "ffprobe_frames": len(pts), "checked": len(acts),
            "errors": errors, "rows": rows[:4], "met": not errors}


#: issue 12 without a seek index: the real-game runs as a live capture leaves them (a pipe:
#: no cues, no duration), killed (cut to 90 % of their bytes) or without their AVI index
DERIVED = {  # name: (source run, file, ffmpeg output arguments or None (a byte edit), cut)
    "phoenix-genuine@r5994bfaac-mkvpipecut": ("phoenix-genuine@r5994bfaac", "video.mkv",
                                              ["-map", "0", "-c", "copy", "-f", "matroska"], 1),
    "phoenix-genuine@r15mjpeg-mkvpipecut": ("phoenix-genuine@r15mjpeg", "video.mkv",
                                            ["-map", "0", "-c", "copy", "-f", "matroska"], 1),
    "phoenix-genuine@r15mjpeg-mkvpipe": ("phoenix-genuine@r15mjpeg", "video.mkv",
                                         ["-map", "0", "-c", "copy", "-f", "matroska"], 0),
    "phoenix-genuine@r15mjpeg-avicut": ("phoenix-genuine@r15mjpeg", "video.avi", None, 1),
    "phoenix-genuine@r15mjpeg-x264avicut": (
        "phoenix-genuine@r15mjpeg", "video.avi",
        ["-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-bf", "0", "-g", "30",
         "-pix_fmt", "yuv420p", "-c:a", "copy", "-f", "avi"], 1),
    "phoenix-genuine@r5994bfaac-fmp4cut": (
        "phoenix-genuine@r5994bfaac", "video.mp4",
        ["-map", "0", "-c", "copy", "-movflags", "+frag_keyframe+empty_moov+default_base_moof",
         "-f", "mp4"], 1),
    "phoenix-genuine@r5994bfaac-mpgpscut": (
        "phoenix-genuine@r5994bfaac", "video.mpg",
        ["-c:v", "mpeg2video", "-q:v", "3", "-g", "15", "-bf", "2", "-c:a", "mp2", "-f", "mpeg"],
        1),
    "phoenix-genuine@r15mjpeg-wmvcut": ("phoenix-genuine@r15mjpeg", "video.wmv",
                                        ["-c:v", "wmv2", "-q:v", "3", "-g", "30", "-c:a",
                                         "wmav2", "-f", "asf"], 1),
    "phoenix-genuine@r15mjpeg-noidx1": ("phoenix-genuine@r15mjpeg", "video.avi", "noidx1", 0),
    # added 23:12: MPEG-4 ASP (XviD tag, 2 B-frames) in AVI without idx1, whole
    "phoenix-genuine@r15mjpeg-xvidnoidx1": ("phoenix-genuine@r15mjpeg", "video.avi",
                                            ["-c:v", "mpeg4", "-vtag", "XVID", "-q:v", "3",
                                             "-bf", "2", "-g", "60", "-c:a", "copy", "-f",
                                             "avi"], "noidx1"),
}


def derive(name: str) -> Path:
    """One DERIVED run: the source's log and truth (its video renamed), its video remuxed,
    re-encoded or edited, then cut to 90 % of its bytes when asked."""
    import os
    import struct

    src_name, vname, how, cut = DERIVED[name]
    src, dst = build_sync_run(src_name), CACHE / "sync" / name
    if (dst / "truth.json").exists():
        return dst
    dst.mkdir(parents=True, exist_ok=True)
    truth = json.loads((src / "truth.json").read_text())
    video = src / truth["video"]
    if how is None:
        data = video.read_bytes()
    elif how == "noidx1" or cut == "noidx1":  # the index chunk dropped, RIFF size and
        # AVIF_HASINDEX fixed (of the source, or of the re-encoded file)
        b = bytearray(video.read_bytes() if how == "noidx1" else subprocess.run(
            ["ffmpeg", "-v", "error", "-i", str(video), *how, "-"], capture_output=True,
            check=True).stdout)
        i = b.rfind(b"idx1")
        b = b[:i]
        struct.pack_into("<I", b, 4, len(b) - 8)
        a = b.find(b"avih") + 8 + 12
        struct.pack_into("<I", b, a, struct.unpack_from("<I", b, a)[0] & ~0x30)
        data = bytes(b)
    else:
        data = subprocess.run(["ffmpeg", "-v", "error", "-i", str(video), *how, "-"],
                              capture_output=True, check=True).stdout
    (dst / vname).write_bytes(data[: len(data) * 9 // 10] if cut == 1 else data)
    os.link(src / "agent-log.jsonl", dst / "agent-log.jsonl")
    (dst / "truth.json").write_text(json.dumps({**truth, "video": vname}))
    return dst


def main(argv: list[str]) -> int:
    what = argv[0] if argv else ""
    if what == "sync-build":
        for name in (argv[1:] or SYNC_RUNS):
            try:
                print(name, build_sync_run(name), flush=True)
            except Exception as e:  # noqa: BLE001 - a QA row, not the product
                print(name, "BUILD FAILED", repr(e)[:300], flush=True)
    if what == "sync":
        for name in (argv[1:] or SYNC_RUNS):
            try:
                print(json.dumps(check_sync(name)), flush=True)
            except Exception as e:  # noqa: BLE001
                print(json.dumps({"run": name, "qa_error": repr(e)[:300]}), flush=True)
    if what in ("video", "video-build", "gui-frames"):
        s13.VIDEO_SHAPES, s13.build_video = VIDEO_SHAPES, build_video
        for shape in (argv[1:] or VIDEO_SHAPES):
            try:
                row = (str(build_video(shape)) if what == "video-build" else
                       s13.check_video(shape) if what == "video" else s13.gui_frames(shape))
                print(json.dumps(row), flush=True)
            except Exception as e:  # noqa: BLE001
                print(json.dumps({"shape": shape, "qa_error": repr(e)[:300]}), flush=True)
    if what == "scan":
        for shape in (argv[1:] or ["scan_hevc12_mkv_25", "scan_h264_mp4_60_ogop"]):
            print(json.dumps(s15.check_scan(shape)), flush=True)
    if what == "derive":  # issue 12 without a seek index (DERIVED)
        for name in (argv[1:] or DERIVED):
            print(name, derive(name), flush=True)
    if what == "frames-real":  # issue 12 on the real-game runs as recorded
        for name in (argv[1:] or [r for r in SYNC_RUNS if "-genuine@" in r or "-cut@" in r]):
            try:
                print(json.dumps(frames_real(name)), flush=True)
            except Exception as e:  # noqa: BLE001
                print(json.dumps({"run": name, "qa_error": repr(e)[:300]}), flush=True)
    if what == "recheck-s17":  # K2, K4 on session 17's runs
        recheck_s17(argv[1:] or RECHECK_K)
    if what == "recheck":  # H2/H3 on session 15's runs
        s16.recheck_s15(argv[1:] or s16.RECHECK_H1 + s16.RECHECK_H3)
    if what == "hostile":
        import qa_hostile_s18
        from qa_common import run_hostile

        run_hostile(qa_hostile_s18, CACHE, argv[1:])
    if what == "gui-hostile":  # one input per process (a crash is then the row's, not ours)
        print(json.dumps(s16.gui_hostile(Path(argv[1]))), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
