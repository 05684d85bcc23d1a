"""Session 20's QA pass (docs/qa/session20.md): deterministic inputs nobody on the team (nor
sessions 9-19's QA) had used, run through main, actual against expected. Heavy files go to
`.cache/qa-s20/` (gitignored); nothing here is imported by the app or the tests. Session 19's
machinery (scripts/qa_session19.py, and through it qa_session10/12..18.py) is reused by import,
pointed at two new games, one new recorder and new video shapes.

    .venv/bin/python scripts/qa_session20.py sync-build [RUN...]  # build the real-game runs
    .venv/bin/python scripts/qa_session20.py sync [RUN...]        # issue 13: Frogger, Pooyan
    .venv/bin/python scripts/qa_session20.py frame-count [RUN...] # issue 12: real-game runs
    .venv/bin/python scripts/qa_session20.py frames-real [RUN...] # issue 12: real-game runs
    .venv/bin/python scripts/qa_session20.py video [SHAPE...]     # issue 12: new recording kinds
    .venv/bin/python scripts/qa_session20.py scan [SHAPE...]      # issue 12: inserted stretches
    .venv/bin/python scripts/qa_session20.py hostile [ID...]      # issue 15 (qa_hostile_s20.py)
    .venv/bin/python scripts/qa_session20.py gui-hostile DIR      # issue 15: one, in the window
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
import qa_session19 as s19  # noqa: E402

CACHE = REPO / ".cache" / "qa-s20"
for _m in (s10, s12, s13, s14, s15, s16, s17, s18, s19):
    _m.CACHE = CACHE


# -- issue 13: two games in no set so far ------------------------------------------------------
def frogger(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Frogger (cars and logs move on their own; each press hops the frog one step)."""
    r = rng.random()
    if r < 0.55:
        return [("UP", rng.randint(4, 9))]
    if r < 0.85:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(4, 9))]
    return [("DOWN", rng.randint(4, 9))]


def pooyan(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Pooyan (wolves float down on balloons on their own; UP/DOWN move the basket, FIRE shoots
    an arrow)."""
    r = rng.random()
    if r < 0.5:
        return [(rng.choice(("UP", "DOWN")), rng.randint(6, 14))]
    return [(rng.choice(("FIRE", "UPFIRE", "DOWNFIRE")), rng.randint(3, 8))]


GAMES = {"frogger": (frogger, 201), "pooyan": (pooyan, 203)}

#: one recorder no corpus set or QA pass used for real-game runs: 40 fps (60/40 = 1.5: captured
#: frames alternately hold 1 and 2 emulator frames), MPEG-4 Part 2 (libxvid, 2 B-frames, GOP 80)
#: in AVI + MP3 (a 440 Hz tone), x2 nearest (320x420); 3.3 s lead-in
RECORDERS = {"r40xvidavi": {"fps": 40, "scale": 2, "lead_s": 3.3, "container": "avi",
                            "codec": "xvid40"}}
KINDS = ("genuine", "genuine2", "pause", "cut", "insert", "freeze", "speed4", "slow", "deleted",
         "human")
SYNC_RUNS = [f"{g}-{k}@{r}" for r in RECORDERS for g in GAMES for k in KINDS]


def _encode(frames: np.ndarray, folder: Path, rec) -> Path:
    """Session 19's encoder, with this pass' recorder added."""
    if getattr(rec, "codec", "") != "xvid40":
        return _ENCODE19(frames, folder, rec)
    h, w = frames.shape[1:3]
    path = folder / rec.video_name
    cmd = ["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
           "rgb24", "-s", f"{w}x{h}", "-r", str(rec.fps), "-i", "-", "-f", "lavfi", "-i",
           "sine=frequency=440:sample_rate=44100", "-map", "0:v", "-map", "1:a", "-shortest",
           "-vf", f"scale={w * rec.scale}:{h * rec.scale}:flags=neighbor",
           "-c:v", "libxvid", "-q:v", "3", "-bf", "2", "-g", "80", "-pix_fmt", "yuv420p",
           "-threads", "1", "-c:a", "libmp3lame", "-b:a", "96k", "-f", "avi", str(path)]
    subprocess.run(cmd, input=np.ascontiguousarray(frames).tobytes(), check=True)
    return path


_ENCODE19 = s19._encode
s14._encode = _encode
s14.GAMES, s14.RECORDERS = GAMES, RECORDERS
build_sync_run = s19.build_sync_run
s13.build_sync_run = build_sync_run


def check_sync(name: str) -> dict:
    """Session 15's strict judge (session 19's judge: pause judged as genuine)."""
    return s15.check_sync_strict(name)


# -- issue 12: recording kinds nobody tried ------------------------------------------------------
#: (06:43: cinepak_mov_40_mp3 stopped: its encoder took > 13 min under the load; magicyuv added)
VIDEO_SHAPES = {"h263_3gp_15_aac": (320, 240), "cinepak_mov_40_mp3": (320, 240),
                "magicyuv_avi_40_mp3": (320, 240),
                "mpeg4_nut_30_noindex": (320, 240),
                # 06:53: M6's trigger isolated (libxvid with B-frames in AVI: packed bitstream)
                "xvid_avi_bf2_40": (320, 240)}
_raw = s13._raw


def build_video(shape: str) -> Path:
    """A submission folder: the video of `shape` and a 40-event community log whose run_start
    is at RUN_OFFSET (1.5 s) in the video (as sessions 13-19's)."""
    import video_corpus as vc

    from moderator_app.core.samples.community import make_agent_log

    folder = CACHE / "video" / shape
    if any(folder.glob("run.*")):
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    n = s15.SECONDS
    tone = ["-f", "lavfi", "-i", f"sine=frequency=330:duration={n}:sample_rate=44100",
            "-map", "0:v", "-map", "1:a"]
    if shape == "h263_3gp_15_aac":  # H.263 baseline needs CIF: the picture padded at right/bottom
        vc._ffmpeg([*_raw("15"), *tone, "-vf", "pad=352:288:0:0:black", "-c:v", "h263",
                    "-q:v", "3", "-g", "30", "-c:a", "aac", "-b:a", "64k", "-f", "3gp",
                    str(folder / "run.3gp")], vc.Script(frames=n * 15))
    elif shape == "cinepak_mov_40_mp3":  # Cinepak at 40 fps in QuickTime + MP3
        vc._ffmpeg([*_raw("40"), *tone, "-c:v", "cinepak", "-c:a", "libmp3lame", "-b:a", "96k",
                    "-f", "mov", str(folder / "run.mov")], vc.Script(frames=n * 40))
    elif shape == "magicyuv_avi_40_mp3":  # MagicYUV (lossless intra screen codec), AVI + MP3
        vc._ffmpeg([*_raw("40"), *tone, "-c:v", "magicyuv", "-pix_fmt", "yuv420p",
                    "-c:a", "libmp3lame", "-b:a", "96k", "-f", "avi", str(folder / "run.avi")],
                   vc.Script(frames=n * 40))
    elif shape == "xvid_avi_bf2_40":  # libxvid, 2 B-frames (packed, N-VOPs), AVI + MP3, 40 fps
        vc._ffmpeg([*_raw("40"), *tone, "-c:v", "libxvid", "-q:v", "3", "-bf", "2", "-g", "80",
                    "-pix_fmt", "yuv420p", "-c:a", "libmp3lame", "-b:a", "96k", "-f", "avi",
                    str(folder / "run.avi")], vc.Script(frames=n * 40))
    elif shape == "mpeg4_nut_30_noindex":  # MPEG-4 Part 2 with B-frames, NUT, no index
        vc._ffmpeg([*_raw("30"), *tone, "-c:v", "mpeg4", "-q:v", "3", "-bf", "2", "-g", "90",
                    "-c:a", "libmp3lame", "-b:a", "96k", "-write_index", "0", "-f", "nut",
                    str(folder / "run.nut")], vc.Script(frames=n * 30))
    make_agent_log(folder / "agent-log.jsonl", 40, 14)
    return folder


#: issue 12's scan on inserted stretches, two shapes no session had
#: (06:43: Cinepak's encoder took > 13 min for 24 s at the session's load: replaced here by
#: QuickTime Animation (RLE) in MOV + MP3, 40 fps)
s15.SCANS["scan_qtrle_mov_40_mp3"] = (
    40, {"video.frozen": 6.1, "video.black": 17.3, "video.cut": 27.4,
         "video.timestamp_gap": 36.6}, (6.1, 9.4), (17.3, 18.2), 27.4, (36.6, 37.3),
    ["-c:v", "qtrle", "-c:a", "libmp3lame", "-b:a", "96k", "-f", "mov"], "run.mov")
s15.SCANS["scan_mpeg4_nut_30_noindex"] = (
    30, {"video.frozen": 3.8, "video.black": 14.6, "video.cut": 29.9,
         "video.timestamp_gap": 41.2}, (3.8, 7.5), (14.6, 15.7), 29.9, (41.2, 41.8),
    ["-c:v", "mpeg4", "-q:v", "3", "-bf", "2", "-g", "90", "-c:a", "libmp3lame", "-b:a", "96k",
     "-write_index", "0", "-f", "nut"], "run.nut")
SCAN_SHAPES = ["scan_qtrle_mov_40_mp3", "scan_mpeg4_nut_30_noindex"]


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
    if what in ("frame-count", "frames-real", "cost"):
        fn = {"frame-count": s19.frame_count, "frames-real": s19.frames_real,
              "cost": s19.cost}[what]
        default = SYNC_RUNS if what == "frame-count" else \
            [r for r in SYNC_RUNS if "-genuine@" in r or "-cut@" in r]
        for name in (argv[1:] or default):
            try:
                print(json.dumps(fn(name)), flush=True)
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
        for shape in (argv[1:] or SCAN_SHAPES):
            try:
                print(json.dumps(s15.check_scan(shape)), flush=True)
            except Exception as e:  # noqa: BLE001
                print(json.dumps({"shape": shape, "qa_error": repr(e)[:300]}), flush=True)
    if what == "hostile":
        import qa_hostile_s20
        from qa_common import run_hostile

        run_hostile(qa_hostile_s20, CACHE, argv[1:])
    if what == "gui-hostile":  # one input per process (a crash is then the row's, not ours)
        print(json.dumps(s16.gui_hostile(Path(argv[1]))), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
