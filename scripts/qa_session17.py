"""Session 17's QA pass (docs/qa/session17.md): deterministic inputs nobody on the team (nor
sessions 9-16's QA) had used, run through main, actual against expected. Heavy files go to
`.cache/qa-s17/` (gitignored); nothing here is imported by the app or the tests. Session 16's
machinery (scripts/qa_session16.py, and through it qa_session10/12/13/14/15.py) is reused by
import, pointed at two new games, two new recorders and new video shapes.

    .venv/bin/python scripts/qa_session17.py sync-build [RUN...]  # build the real-game runs
    .venv/bin/python scripts/qa_session17.py sync [RUN...]   # issue 13: Othello, Zaxxon
    .venv/bin/python scripts/qa_session17.py video [SHAPE...] # issue 12: new recording kinds
    .venv/bin/python scripts/qa_session17.py gui-frames [SHAPE...] # issue 12: the player's path
    .venv/bin/python scripts/qa_session17.py recheck | recheck-s16 | recheck-g4
    .venv/bin/python scripts/qa_session17.py gui-hostile DIR  # issue 15: one, in the window
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

CACHE = REPO / ".cache" / "qa-s17"
s10.CACHE = s12.CACHE = s13.CACHE = s14.CACHE = s15.CACHE = s16.CACHE = CACHE
#: session 16's built runs (read-only; J2-J4 are re-checked on them)
S16_SYNC = Path("/work/wt/s16-qa/.cache/qa-s16/sync")


# -- issue 13: two games in no set so far ------------------------------------------------------
def othello(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Othello (a still board; the cursor square blinks at 30 Hz on its own; the joystick moves
    the cursor one square, FIRE places a disc and the computer answers after a pause)."""
    r = rng.random()
    if r < 0.75:
        return [(rng.choice(("LEFT", "RIGHT", "UP", "DOWN")), rng.randint(6, 16))]
    if r < 0.85:
        return [(rng.choice(("UPLEFT", "UPRIGHT", "DOWNLEFT", "DOWNRIGHT")), rng.randint(6, 12))]
    return [("FIRE", rng.randint(4, 8))]


def zaxxon(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Zaxxon (the fortress scrolls diagonally on its own once flying; the joystick climbs,
    dives and banks the ship; FIRE shoots)."""
    r = rng.random()
    if r < 0.5:
        return [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT")), rng.randint(8, 24))]
    if r < 0.8:
        return [(rng.choice(("UPFIRE", "DOWNFIRE", "LEFTFIRE", "RIGHTFIRE")), rng.randint(4, 12))]
    return [("FIRE", rng.randint(3, 8))]


GAMES = {"othello": (othello, 171), "zaxxon": (zaxxon, 173)}

NTSC = 30000 / 1001
#: two recorders no corpus set or QA pass used for real-game runs
RECORDERS = {
    # NTSC 29.97 fps (30000/1001: 60/29.97 = 2.002, a captured frame now and then holds 3
    # emulator frames), ProRes 422 (prores_ks profile 2, 10-bit 4:2:2, all intra) in QuickTime
    # MOV, x2 nearest (320x420); 1.9 s lead-in (a capture card's editing format)
    "r2997prores": {"fps": NTSC, "scale": 2, "lead_s": 1.9, "container": "mov",
                    "codec": "prores2997"},
    # 30 fps nominal, variable frame rate (exact repeats not written, timestamps kept), the
    # 160x210 picture stretched to 4:3 (1440x1080 bilinear) and pillar-boxed in 1920x1080
    # (OBS: a 4:3 game in a 1080p canvas), H.264 in Matroska; 2.7 s lead-in
    "r30vfr1080": {"fps": 30, "scale": 1, "pad": (1920, 1080), "lead_s": 2.7,
                   "container": "mkv", "codec": "vfr1080lb"},
}
KINDS = ("genuine", "genuine2", "genuine3", "cut", "insert", "freeze", "slow", "deleted",
         "human")
SYNC_RUNS = [f"{g}-{k}@{r}" for r in RECORDERS for g in GAMES for k in KINDS]
SLOW35 = 1 / 0.965 - 1  # the video at 96.5 % of the log's clock (used: -2.5 %, +2..+6 %)
s14.SLOW25 = SLOW35  # s14.build_sync_run sets build.SLOWDOWN from this global


def _encode(frames: np.ndarray, folder: Path, rec) -> Path:
    """Session 16's encoder, with this pass' two recorders added."""
    codec = getattr(rec, "codec", "")
    if codec not in ("prores2997", "vfr1080lb"):
        return _ENCODE16(frames, folder, rec)
    h, w = frames.shape[1:3]
    path = folder / rec.video_name
    rate = "30000/1001" if codec == "prores2997" else str(rec.fps)
    cmd = ["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
           "rgb24", "-s", f"{w}x{h}", "-r", rate, "-i", "-"]
    if codec == "prores2997":
        cmd += ["-vf", f"scale={w * rec.scale}:{h * rec.scale}:flags=neighbor",
                "-c:v", "prores_ks", "-profile:v", "2", "-pix_fmt", "yuv422p10le",
                "-f", "mov", str(path)]
    else:
        pw, ph = rec.pad
        vf = ("mpdecimate=hi=64:lo=64:frac=0,scale=1440:1080:flags=bilinear,"
              f"pad={pw}:{ph}:(ow-iw)/2:(oh-ih)/2:black")
        cmd += ["-vf", vf, "-fps_mode", "vfr", "-c:v", "libx264", "-preset", "veryfast",
                "-crf", "20", "-pix_fmt", "yuv420p", "-g", "60", "-threads", "1", str(path)]
    subprocess.run(cmd, input=np.ascontiguousarray(frames).tobytes(), check=True)
    return path


_ENCODE16 = s16._encode
s14._encode = _encode  # s14.build_sync_run installs the module global `_encode`
s14.GAMES, s14.RECORDERS = GAMES, RECORDERS


def build_sync_run(name: str) -> Path:
    return s14.build_sync_run(name)


s13.build_sync_run = build_sync_run


def check_sync(name: str) -> dict:
    """Session 15's strict judge (session 13's, plus the nearest warning only)."""
    return s15.check_sync_strict(name)


def recheck_s16(runs: list[str]) -> None:
    """Session 13's judge on session 16's built runs (read-only), as session 16 judged them."""
    s13.build_sync_run = lambda name: S16_SYNC / name
    s15.CACHE = S16_SYNC.parent  # check_sync_strict reads CACHE/sync/NAME/truth.json
    for name in runs:
        try:
            print(json.dumps({"item": "J", **s15.check_sync_strict(name)}), flush=True)
        except Exception as e:  # noqa: BLE001 - a QA row, not the product
            print(json.dumps({"item": "J", "run": name, "qa_error": repr(e)[:300]}), flush=True)


#: J2 (Adventure genuine late), J3 (Kung-Fu Master unseen presses), J4 (Adventure cut early)
RECHECK_J = ["adventure-genuine@r25vp8pb", "adventure-genuine@r48h422mov",
             "kung_fu_master-genuine@r25vp8pb", "kung_fu_master-genuine2@r48h422mov",
             "kung_fu_master-genuine3@r48h422mov", "adventure-cut@r48h422mov",
             "adventure-cut@r25vp8pb"]


# -- issue 12: recording kinds nobody tried ------------------------------------------------------
VIDEO_SHAPES = {"theora_ogv_30": (320, 240), "mpeg4_avi_bframes_25": (320, 240),
                "ffv1_mkv_2398": (320, 240), "h264_ts_2997_interlaced": (320, 240)}
_raw, _X264 = s13._raw, s13._X264


def build_video(shape: str) -> Path:
    """A submission folder: the video of `shape` and a 40-event community log whose run_start
    is at RUN_OFFSET (1.5 s) in the video (as sessions 13-16's)."""
    import video_corpus as vc

    from moderator_app.core.samples.community import make_agent_log

    folder = CACHE / "video" / shape
    if any(folder.glob("run.*")):
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    n = s15.SECONDS
    if shape == "theora_ogv_30":  # Ogg/Theora + Vorbis (.ogv): granule positions, no index
        vc._ffmpeg([*_raw("30"), "-f", "lavfi", "-i",
                    "sine=frequency=330:duration=25:sample_rate=44100", "-map", "0:v",
                    "-map", "1:a", "-shortest", "-c:v", "libtheora", "-q:v", "7", "-g", "90",
                    "-c:a", "libvorbis", str(folder / "run.ogv")], vc.Script(frames=n * 30))
    elif shape == "mpeg4_avi_bframes_25":  # MPEG-4 Part 2 (XviD tag) with 2 B-frames in AVI
        vc._ffmpeg([*_raw("25"), "-c:v", "mpeg4", "-vtag", "XVID", "-q:v", "3", "-bf", "2",
                    "-g", "100", str(folder / "run.avi")], vc.Script(frames=n * 25))
    elif shape == "ffv1_mkv_2398":  # lossless FFV1 (archival) at film rate 24000/1001 in MKV
        vc._ffmpeg([*_raw("24000/1001"), "-c:v", "ffv1", "-level", "3", "-g", "24",
                    "-pix_fmt", "yuv420p", str(folder / "run.mkv")],
                   vc.Script(frames=round(n * 24000 / 1001)))
    elif shape == "h264_ts_2997_interlaced":  # broadcast: interlaced (tff) H.264, 29.97, TS
        vc._ffmpeg([*_raw("30000/1001"), *_X264, "-preset", "veryfast", "-flags",
                    "+ilme+ildct", "-x264opts", "tff=1", "-g", "15", "-bf", "2",
                    "-f", "mpegts", str(folder / "run.ts")],
                   vc.Script(frames=round(n * 30000 / 1001)))
    make_agent_log(folder / "agent-log.jsonl", 40, 14)
    return folder


#: issue 12's scan on inserted stretches, a shape no session had: Theora + Vorbis in Ogg (.ogv),
#: 30 fps; frozen 6.1-9.5, black 15.2-16.0, a cut at 27.4, a 0.7 s hole at 36.3
s15.SCANS["scan_theora_ogv_30"] = (
    30, {"video.frozen": 6.1, "video.black": 15.2, "video.cut": 27.4,
         "video.timestamp_gap": 36.3}, (6.1, 9.5), (15.2, 16.0), 27.4, (36.3, 37.0),
    ["-c:v", "libtheora", "-q:v", "7", "-g", "90", "-c:a", "libvorbis"], "run.ogv")


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
        for shape in (argv[1:] or ["scan_theora_ogv_30"]):
            print(json.dumps(s15.check_scan(shape)), flush=True)
    if what == "recheck-s16":  # J2-J4 on session 16's runs
        recheck_s16(argv[1:] or RECHECK_J)
    if what == "recheck":  # H1-H3 on session 15's runs
        s16.recheck_s15(argv[1:] or s16.RECHECK_H1 + s16.RECHECK_H3)
    if what == "recheck-g4":  # G4 on session 14's runs
        s15.recheck_g4(argv[1:] or s15.G4_RUNS)
    if what == "hostile":
        import qa_hostile_s17
        from qa_common import run_hostile

        run_hostile(qa_hostile_s17, CACHE, argv[1:])
    if what == "queue-build":  # session 16's 10,000-submission queue (links, loops), here
        import qa_hostile_s16

        print(qa_hostile_s16._queue_cases(CACHE / "queue"))
    if what == "gui-hostile":  # one input per process (a crash is then the row's, not ours)
        s16.gui_hostile(Path(argv[1]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
