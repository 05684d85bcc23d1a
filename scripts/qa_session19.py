"""Session 19's QA pass (docs/qa/session19.md): deterministic inputs nobody on the team (nor
sessions 9-18's QA) had used, run through main, actual against expected. Heavy files go to
`.cache/qa-s19/` (gitignored); nothing here is imported by the app or the tests. Session 18's
machinery (scripts/qa_session18.py, and through it qa_session10/12/13/14/15/16/17.py) is reused
by import, pointed at two new games, two new recorders and new video shapes.

    .venv/bin/python scripts/qa_session19.py sync-build [RUN...]  # build the real-game runs
    .venv/bin/python scripts/qa_session19.py sync [RUN...]   # issue 13: Beam Rider, 3-D Tic-Tac-Toe
    .venv/bin/python scripts/qa_session19.py frames-real [RUN...] # issue 12: real-game runs
    .venv/bin/python scripts/qa_session19.py video [SHAPE...] # issue 12: new recording kinds
    .venv/bin/python scripts/qa_session19.py gui-frames [SHAPE...] # issue 12: the player's path
    .venv/bin/python scripts/qa_session19.py scan [SHAPE...]  # issue 12: inserted stretches
    .venv/bin/python scripts/qa_session19.py hostile [ID...]  # issue 15 (qa_hostile_s19.py)
    .venv/bin/python scripts/qa_session19.py gui-hostile DIR  # issue 15: one, in the window
    .venv/bin/python scripts/qa_session19.py recheck-s18 [RUN...] # L1, L2, slow on s18's runs
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
import qa_session18 as s18  # noqa: E402

CACHE = REPO / ".cache" / "qa-s19"
for _m in (s10, s12, s13, s14, s15, s16, s17, s18):
    _m.CACHE = CACHE
#: session 18's built runs (read-only; L1, L2 and the missed slow-downs are re-checked on them)
S18_SYNC = Path("/work/wt/s18-qa/.cache/qa-s18/sync")


# -- issue 13: two games in no set so far ------------------------------------------------------
def beam_rider(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Beam Rider (the beams scroll and enemies fly on their own; LEFT/RIGHT move the ship one
    beam, FIRE shoots, UP fires one of three torpedoes)."""
    r = rng.random()
    if r < 0.5:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(6, 14))]
    if r < 0.88:
        return [(rng.choice(("FIRE", "LEFTFIRE", "RIGHTFIRE")), rng.randint(3, 8))]
    return [("UP", rng.randint(3, 6))]


def tic_tac_toe_3d(ram, rng: random.Random) -> list[tuple[str, int]]:
    """3-D Tic-Tac-Toe (four still 4x4 boards; the joystick moves the cursor, FIRE places a
    mark, the computer answers after a pause)."""
    if rng.random() < 0.8:
        return [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT")), rng.randint(6, 14))]
    return [("FIRE", rng.randint(4, 8))]


GAMES = {"beam_rider": (beam_rider, 191), "tic_tac_toe_3d": (tic_tac_toe_3d, 193)}

FILM = 24000 / 1001
#: two recorders no corpus set or QA pass used for real-game runs
RECORDERS = {
    # 23.976 fps (60/23.976 = 2.5025: 2 or 3 emulator frames per captured one, drifting), VP9
    # (libvpx realtime, GOP 48) + Opus (a 660 Hz tone) in Matroska, x2 nearest; 2.1 s lead-in
    "r2398vp9opus": {"fps": FILM, "scale": 2, "lead_s": 2.1, "container": "mkv",
                     "codec": "vp9opus2398"},
    # 120 fps (each emulator frame captured twice), x264rgb lossless (RGB, qp 0) in MP4, a 3x
    # nearest-neighbour upscale (480x630); 0.6 s lead-in
    "r120rgb3x": {"fps": 120, "scale": 3, "lead_s": 0.6, "container": "mp4",
                  "codec": "x264rgb120"},
}
KINDS = ("genuine", "genuine2", "genuine3", "pause", "cut", "insert", "freeze", "speed4",
         "slow", "deleted", "human")
SYNC_RUNS = [f"{g}-{k}@{r}" for r in RECORDERS for g in GAMES for k in KINDS]
SLOW4 = 1 / 0.96 - 1  # the video at 96 % of the log's clock (used: -2.5, -3, -3.5, -4, -4.5 %)
SPEED4 = 0.04         # the video 4 % fast (used: +2, +3, +4.4, +5, +6 %)


def _encode(frames: np.ndarray, folder: Path, rec) -> Path:
    """Session 18's encoder, with this pass' two recorders added."""
    codec = getattr(rec, "codec", "")
    if codec not in ("vp9opus2398", "x264rgb120"):
        return _ENCODE18(frames, folder, rec)
    h, w = frames.shape[1:3]
    path = folder / rec.video_name
    rate = "24000/1001" if codec == "vp9opus2398" else str(rec.fps)
    cmd = ["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
           "rgb24", "-s", f"{w}x{h}", "-r", rate, "-i", "-"]
    vf = f"scale={w * rec.scale}:{h * rec.scale}:flags=neighbor"
    if codec == "vp9opus2398":
        cmd += ["-f", "lavfi", "-i", "sine=frequency=660:sample_rate=48000", "-map", "0:v",
                "-map", "1:a", "-shortest", "-vf", vf, "-c:v", "libvpx-vp9", "-deadline",
                "realtime", "-cpu-used", "8", "-b:v", "2M", "-g", "48", "-pix_fmt", "yuv420p",
                "-threads", "1", "-c:a", "libopus", "-b:a", "64k", "-f", "matroska", str(path)]
    else:
        cmd += ["-vf", vf, "-c:v", "libx264rgb", "-preset", "ultrafast", "-qp", "0", "-g", "240",
                "-pix_fmt", "rgb24", "-threads", "1", "-f", "mp4", str(path)]
    subprocess.run(cmd, input=np.ascontiguousarray(frames).tobytes(), check=True)
    return path


_ENCODE18 = s18._encode
s14._encode = _encode  # s14.build_sync_run installs the module global `_encode`
s14.GAMES, s14.RECORDERS = GAMES, RECORDERS
s14.SLOW25 = SLOW4  # s14.build_sync_run sets build.SLOWDOWN from this global


def build_sync_run(name: str) -> Path:
    import corpus.build  # noqa: F401 - sys.modules: the package exports a function `build`

    sys.modules["corpus.build"].SPEEDUPS.setdefault("speed4", SPEED4)
    s18._legal_actions()
    return s14.build_sync_run(name)


s13.build_sync_run = build_sync_run
_JUDGE14 = s14.judge


def judge(truth: dict, auto: dict, at_truth: dict) -> tuple[bool, str]:
    """Session 14's judge (speed kinds as a drift within 1 point); the long-pause control is
    judged as a genuine run (offset within a frame or none; 0 sync warnings)."""
    if truth["tamper"]["kind"] == "pause":
        truth = {**truth, "tamper": {**truth["tamper"], "kind": "genuine"}}
    return _JUDGE14(truth, auto, at_truth)


s13.judge = s14.judge = judge


def check_sync(name: str) -> dict:
    """Session 15's strict judge (session 13's, plus the nearest warning only)."""
    return s15.check_sync_strict(name)


# -- issue 12: recording kinds nobody tried ------------------------------------------------------
VIDEO_SHAPES = {"hevc10_mp4_editlist_30": (320, 240), "x264rgb_mkv_120": (320, 240),
                "vp9p2_mkv_2398_opus": (320, 240), "utvideo_avi_30_pcm": (320, 240)}
_raw = s13._raw


def build_video(shape: str) -> Path:
    """A submission folder: the video of `shape` and a 40-event community log whose run_start
    is at RUN_OFFSET (1.5 s) in the video (as sessions 13-18's)."""
    import video_corpus as vc

    from moderator_app.core.samples.community import make_agent_log

    folder = CACHE / "video" / shape
    if any(folder.glob("run.*")):
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    n = s15.SECONDS
    if shape == "hevc10_mp4_editlist_30":  # x265 10-bit with B-frames, then -ss 0.9 -c copy
        tmp = folder / "whole.mp4.tmp"
        vc._ffmpeg([*_raw("30"), "-c:v", "libx265", "-pix_fmt", "yuv420p10le", "-preset",
                    "veryfast", "-x265-params", "keyint=60:bframes=3:log-level=error",
                    "-f", "mp4", str(tmp)], vc.Script(frames=(n + 1) * 30))
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-ss", "0.9", "-i", str(tmp),
                        "-c", "copy", "-f", "mp4", str(folder / "run.mp4")], check=True)
        tmp.unlink()
    elif shape == "x264rgb_mkv_120":  # lossless RGB H.264 at 120 fps in Matroska
        vc._ffmpeg([*_raw("120"), "-c:v", "libx264rgb", "-preset", "ultrafast", "-qp", "0",
                    "-g", "240", "-pix_fmt", "rgb24", str(folder / "run.mkv")],
                   vc.Script(frames=n * 120))
    elif shape == "vp9p2_mkv_2398_opus":  # VP9 profile 2 (10-bit), film rate, Opus, MKV
        vc._ffmpeg([*_raw("24000/1001"), "-f", "lavfi", "-i",
                    f"sine=frequency=330:duration={n}:sample_rate=48000", "-map", "0:v",
                    "-map", "1:a", "-c:v", "libvpx-vp9", "-pix_fmt", "yuv420p10le",
                    "-profile:v", "2", "-b:v", "1M", "-deadline", "realtime", "-cpu-used", "8",
                    "-g", "48", "-c:a", "libopus", str(folder / "run.mkv")],
                   vc.Script(frames=round(n * 24000 / 1001)))
    elif shape == "utvideo_avi_30_pcm":  # UT Video (lossless, intra) in AVI + PCM
        vc._ffmpeg([*_raw("30"), "-f", "lavfi", "-i",
                    f"sine=frequency=330:duration={n}:sample_rate=48000", "-map", "0:v",
                    "-map", "1:a", "-c:v", "utvideo", "-pix_fmt", "yuv420p",
                    "-c:a", "pcm_s16le", str(folder / "run.avi")], vc.Script(frames=n * 30))
    make_agent_log(folder / "agent-log.jsonl", 40, 14)
    return folder


#: issue 12's scan on inserted stretches, two shapes no session had
s15.SCANS["scan_vp9_mkv_24_opus"] = (
    24, {"video.frozen": 5.5, "video.black": 16.25, "video.cut": 28.7,
         "video.timestamp_gap": 37.9}, (5.5, 9.0), (16.25, 17.2), 28.7, (37.9, 38.6),
    ["-c:v", "libvpx-vp9", "-b:v", "1M", "-deadline", "realtime", "-cpu-used", "8", "-g", "48",
     "-pix_fmt", "yuv420p", "-c:a", "libopus", "-b:a", "64k"], "run.mkv")
s15.SCANS["scan_hevc10_mp4_30_aac"] = (
    30, {"video.frozen": 4.9, "video.black": 19.4, "video.cut": 25.6,
         "video.timestamp_gap": 40.3}, (4.9, 8.3), (19.4, 20.5), 25.6, (40.3, 40.9),
    ["-c:v", "libx265", "-pix_fmt", "yuv420p10le", "-preset", "veryfast", "-x265-params",
     "keyint=60:log-level=error", "-c:a", "aac", "-b:a", "96k"], "run.mp4")


def frames_real(name: str, lines: int = 10) -> dict:
    """Session 18's frames-real (moderator-app frame per action line vs ffmpeg's decode)."""
    return s18.frames_real(name, lines)


def frame_count(name: str) -> dict:
    """`verify --json` video.frame_count and duration against ffprobe's count."""
    import video_corpus as vc

    folder = build_sync_run(name)
    truth = json.loads((folder / "truth.json").read_text())
    r = subprocess.run([*s10.LIMIT, *s10.CLI, "verify", str(folder), "--json", "--offset",
                        str(truth["offset_s"])], capture_output=True, text=True)
    rep = json.loads(r.stdout) if r.stdout.startswith("{") else {}
    v = rep.get("video") or {}
    ff = vc.ffprobe_frames(folder / truth["video"])
    return {"run": name, "report_frames": v.get("frame_count"), "ffprobe_frames": ff,
            "truth_frames": truth["frames"], "duration_s": v.get("duration_s"),
            "video_findings": [(f.get("severity"), f.get("rule")) for f in rep.get("findings", [])
                               if str(f.get("rule", "")).startswith("video.")],
            "met": v.get("frame_count") == ff}


def cost(name: str, pairs: int = 3) -> dict:
    """Issue 13's "the analysis adds at most 20 % to the scan's time": CPU (user+sys) of whole
    `verify --json --scan --offset auto` against `verify --json --scan` processes, interleaved,
    each with a fresh scan cache (MODERATOR_APP_CACHE in a new folder)."""
    import ctypes
    import os
    import resource
    import tempfile

    # orphans (a decoder child the CLI does not wait for) become ours, so that their CPU is
    # counted: PR_SET_CHILD_SUBREAPER, then every descendant is reaped before reading rusage
    ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)
    folder = build_sync_run(name)
    rows: dict = {"scan": [], "auto": []}
    for _ in range(pairs):
        for label, extra in (("scan", []), ("auto", ["--offset", "auto"])):
            with tempfile.TemporaryDirectory() as tmp:
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                subprocess.run([*s10.CLI, "verify", str(folder), "--json", "--scan", *extra],
                               capture_output=True, env={**os.environ, "MODERATOR_APP_CACHE": tmp})
                while True:
                    try:
                        os.wait()
                    except ChildProcessError:
                        break
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
            rows[label].append(round(after.ru_utime + after.ru_stime - before.ru_utime
                                     - before.ru_stime, 3))
    med = {k: sorted(v)[len(v) // 2] for k, v in rows.items()}
    return {"run": name, **rows, "median": med, "ratio": round(med["auto"] / med["scan"], 3)}


# -- re-checks of session 18's open items -------------------------------------------------------
#: L2 (cuts/inserts), the missed slow-downs, and the genuine controls, on s18's runs
RECHECK_L = [f"{g}-{k}@{r}" for r in ("r5994bfaac", "r15mjpeg")
             for g in ("phoenix", "video_checkers")
             for k in ("cut", "insert", "slow", "genuine", "genuine2", "deleted", "human")]


def recheck_s18(runs: list[str]) -> None:
    """Session 13's judge on session 18's built runs (read-only), as session 18 judged them."""
    s13.build_sync_run = lambda name: S18_SYNC / name
    s15.CACHE = S18_SYNC.parent
    for name in runs:
        try:
            print(json.dumps({"item": "L", **s15.check_sync_strict(name)}), flush=True)
        except Exception as e:  # noqa: BLE001 - a QA row, not the product
            print(json.dumps({"item": "L", "run": name, "qa_error": repr(e)[:300]}), flush=True)


def measured(folder: Path, offset: float) -> dict:
    """L1: how many actions have a reaction measured at the moderator's offset."""
    r = subprocess.run([*s10.LIMIT, *s10.CLI, "verify", str(folder), "--json", "--scan",
                        "--sync", "--offset", str(offset)], capture_output=True, text=True)
    rep = json.loads(r.stdout) if r.stdout.startswith("{") else {}
    sync = rep.get("sync") or {}
    return {"folder": str(folder), "offset": offset, "verdict": rep.get("verdict"),
            **{k: sync.get(k) for k in ("suggested_offset_s", "confidence", "actions",
                                          "supporting_actions", "reactions_summary")},
            "findings": [(f.get("rule"), f.get("video_start_s"), f.get("video_end_s"))
                         for f in sync.get("findings", [])]}


def main(argv: list[str]) -> int:  # noqa: C901 - one dispatch table
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
    if what == "frame-count":
        for name in (argv[1:] or SYNC_RUNS):
            try:
                print(json.dumps(frame_count(name)), flush=True)
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
        for shape in (argv[1:] or ["scan_vp9_mkv_24_opus", "scan_hevc10_mp4_30_aac"]):
            try:
                print(json.dumps(s15.check_scan(shape)), flush=True)
            except Exception as e:  # noqa: BLE001
                print(json.dumps({"shape": shape, "qa_error": repr(e)[:300]}), flush=True)
    if what == "frames-real":
        for name in (argv[1:] or [r for r in SYNC_RUNS if "-genuine@" in r or "-cut@" in r]):
            try:
                print(json.dumps(frames_real(name)), flush=True)
            except Exception as e:  # noqa: BLE001
                print(json.dumps({"run": name, "qa_error": repr(e)[:300]}), flush=True)
    if what == "cost":
        for name in argv[1:]:
            print(json.dumps(cost(name)), flush=True)
    if what == "recheck-s18":  # L2 and the slow-downs on session 18's runs
        recheck_s18(argv[1:] or RECHECK_L)
    if what == "measured":  # L1: FOLDER OFFSET ...
        for folder, off in zip(argv[1::2], argv[2::2], strict=True):
            print(json.dumps(measured(Path(folder), float(off))), flush=True)
    if what == "hostile":
        import qa_hostile_s19
        from qa_common import run_hostile

        run_hostile(qa_hostile_s19, CACHE, argv[1:])
    if what == "gui-hostile":  # one input per process (a crash is then the row's, not ours)
        print(json.dumps(s16.gui_hostile(Path(argv[1]))), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
