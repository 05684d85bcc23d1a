"""Session 16's QA pass (docs/qa/session16.md): deterministic inputs nobody on the team (nor
sessions 9-15's QA) had used, run through main, actual against expected. Heavy files go to
`.cache/qa-s16/` (gitignored); nothing here is imported by the app or the tests. Session 15's
machinery (scripts/qa_session15.py, and through it qa_session10/12/13/14.py) is reused by
import, pointed at two new games, two new recorders and new video shapes.

    .venv/bin/python scripts/qa_session16.py sync-build [RUN...]  # build the real-game runs
    .venv/bin/python scripts/qa_session16.py sync [RUN...]   # issue 13: Adventure, Kung-Fu Master
    .venv/bin/python scripts/qa_session16.py video [SHAPE...] # issue 12: new recording kinds
    .venv/bin/python scripts/qa_session16.py scan [SHAPE...]  # issue 12: inserted stretches
    .venv/bin/python scripts/qa_session16.py recheck          # H1-H3, G4 on s15/s14's inputs
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

CACHE = REPO / ".cache" / "qa-s16"
s10.CACHE = s12.CACHE = s13.CACHE = s14.CACHE = s15.CACHE = CACHE
CLI, LIMIT = s10.CLI, s10.LIMIT
#: session 15's built runs (read-only; H1-H3 are re-checked on them)
S15_SYNC = Path("/work/wt/s15-qa/.cache/qa-s15/sync")


# -- issue 13: two games in no set so far ------------------------------------------------------
def adventure(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Adventure (a still room: the picture stands still until the square moves on the
    joystick; a dragon may wander in; leaving the room redraws the whole screen)."""
    r = rng.random()
    if r < 0.8:
        return [(rng.choice(("LEFT", "RIGHT", "UP", "DOWN")), rng.randint(6, 20))]
    if r < 0.9:
        return [(rng.choice(("UPLEFT", "UPRIGHT", "DOWNLEFT", "DOWNRIGHT")), rng.randint(6, 14))]
    return [("FIRE", rng.randint(3, 8))]


def kung_fu_master(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Kung-Fu Master (gripping men and knife throwers walk in on their own and the energy
    bars count down; walking scrolls the whole floor; a kick or punch poses Thomas; its
    minimal action set has no FIRE/UPFIRE)."""
    r = rng.random()
    if r < 0.45:
        return [(rng.choice(("LEFT", "LEFT", "RIGHT")), rng.randint(8, 24))]
    if r < 0.75:
        return [(rng.choice(("DOWNFIRE", "UPLEFTFIRE", "UPRIGHTFIRE")), rng.randint(4, 10))]
    if r < 0.9:
        return [(rng.choice(("LEFTFIRE", "RIGHTFIRE")), rng.randint(4, 10))]
    return [(rng.choice(("UP", "DOWN")), rng.randint(5, 12))]


GAMES = {"adventure": (adventure, 161), "kung_fu_master": (kung_fu_master, 163)}

#: two recorders no corpus set or QA pass used for real-game runs
RECORDERS = {
    # 25 fps (60/25 = 2.4: 3,2,3,2,2 emulator frames per captured one) VP8 (libvpx, realtime,
    # 2 Mb/s) in WebM, the 160x210 picture x3 (480x630) pillarboxed into 1280x720 (a
    # browser's screen capture of a game window in a 16:9 frame); 1.1 s lead-in
    "r25vp8pb": {"fps": 25, "scale": 3, "pad": (1280, 720), "lead_s": 1.1,
                 "container": "webm", "codec": "vp8pb"},
    # 48 fps (60/48 = 1.25: every fifth emulator frame skipped) H.264 High 4:2:2 (x264,
    # yuv422p) in QuickTime MOV, moov at the end (a camera/ProRes-style workflow); x2
    # nearest (320x420); 3.1 s lead-in
    "r48h422mov": {"fps": 48, "scale": 2, "lead_s": 3.1, "container": "mov",
                   "codec": "h264_422mov"},
}
KINDS = ("genuine", "genuine2", "genuine3", "cut", "insert", "freeze", "speed45", "deleted",
         "human")
SYNC_RUNS = [f"{g}-{k}@{r}" for r in RECORDERS for g in GAMES for k in KINDS]
SPEED45 = 0.045  # +4.5 % (used before: 2, 3, 3.5, 4, 4.4, 5, 6 % up; 2.5, 3, 4 % down)


def _encode(frames: np.ndarray, folder: Path, rec) -> Path:
    """Session 15's encoder, with this pass' two recorders added."""
    codec = getattr(rec, "codec", "")
    if codec not in ("vp8pb", "h264_422mov"):
        return _ENCODE15(frames, folder, rec)
    h, w = frames.shape[1:3]
    path = folder / rec.video_name
    cmd = ["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
           "rgb24", "-s", f"{w}x{h}", "-r", str(rec.fps), "-i", "-"]
    vf = f"scale={w * rec.scale}:{h * rec.scale}:flags=neighbor"
    if codec == "vp8pb":
        pw, ph = rec.pad
        vf += f",pad={pw}:{ph}:(ow-iw)/2:(oh-ih)/2:black"
        cmd += ["-vf", vf, "-c:v", "libvpx", "-b:v", "2M", "-deadline", "realtime",
                "-cpu-used", "8", "-g", str(2 * rec.fps), "-pix_fmt", "yuv420p",
                "-threads", "1", str(path)]
    else:
        cmd += ["-vf", vf, "-c:v", "libx264", "-preset", "veryfast", "-crf", "20",
                "-pix_fmt", "yuv422p", "-g", str(2 * rec.fps), "-f", "mov", str(path)]
    subprocess.run(cmd, input=np.ascontiguousarray(frames).tobytes(), check=True)
    return path


_ENCODE15 = s15._encode
s14._encode = _encode  # s14.build_sync_run installs the module global `_encode`
s14.GAMES, s14.RECORDERS = GAMES, RECORDERS


def _recorder_cls():
    """Session 14's QA recorder (codec, jitter) with the corpus' own `pad` kept."""
    return s14._recorder_cls()


def build_sync_run(name: str) -> Path:
    import corpus.build  # noqa: F401 - registers the module

    sys.modules["corpus.build"].SPEEDUPS["speed45"] = SPEED45
    return s14.build_sync_run(name)


s13.build_sync_run = build_sync_run


def check_sync(name: str) -> dict:
    """Session 15's strict judge (session 13's, plus the nearest warning only)."""
    return s15.check_sync_strict(name)


# -- issue 12: recording kinds nobody tried ------------------------------------------------------
VIDEO_SHAPES = {"prores422_mov_2997": (320, 240), "vp8_webm_25_pipe": (320, 240),
                "h264_mp4_fragmented_48": (320, 240), "mjpeg_avi_24": (320, 240)}
_raw, _feed, _X264 = s13._raw, s13._feed, s13._X264


def build_video(shape: str) -> Path:
    """A submission folder: the video of `shape` and a 40-event community log whose run_start
    is at RUN_OFFSET in the video (as sessions 13-15's)."""
    import video_corpus as vc

    from moderator_app.core.samples.community import make_agent_log

    folder = CACHE / "video" / shape
    if any(folder.glob("run.*")):
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    n = s15.SECONDS
    if shape == "prores422_mov_2997":  # NTSC 29.97 (30000/1001), ProRes 422 10-bit, PCM audio
        vc._ffmpeg([*_raw("30000/1001"), "-f", "lavfi", "-i",
                    "sine=frequency=440:duration=25:sample_rate=48000", "-map", "0:v",
                    "-map", "1:a", "-shortest", "-c:v", "prores_ks", "-profile:v", "2",
                    "-pix_fmt", "yuv422p10le", "-c:a", "pcm_s16le", str(folder / "run.mov")],
                   vc.Script(frames=n * 30))
    elif shape == "vp8_webm_25_pipe":  # VP8 25 fps WebM to a pipe: no cues, no duration
        with open(folder / "run.webm", "wb") as fh:
            vc._ffmpeg([*_raw("25"), "-c:v", "libvpx", "-b:v", "1M", "-deadline", "realtime",
                        "-cpu-used", "8", "-g", "250", "-pix_fmt", "yuv420p", "-f", "webm",
                        "-"], vc.Script(frames=n * 25), stdout=fh)
    elif shape == "h264_mp4_fragmented_48":  # fragmented MP4 (OBS-style), 48 fps, B-frames
        vc._ffmpeg([*_raw("48"), *_X264, "-preset", "veryfast", "-g", "96", "-bf", "3",
                    "-movflags", "frag_keyframe+empty_moov+default_base_moof",
                    str(folder / "run.mp4")], vc.Script(frames=n * 48))
    elif shape == "mjpeg_avi_24":  # every frame a keyframe, AVI (old index), 24 fps
        vc._ffmpeg([*_raw("24"), "-c:v", "mjpeg", "-q:v", "4", "-pix_fmt", "yuvj420p",
                    str(folder / "run.avi")], vc.Script(frames=n * 24))
    make_agent_log(folder / "agent-log.jsonl", 40, 14)
    return folder


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
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
