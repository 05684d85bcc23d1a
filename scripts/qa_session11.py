"""Session 11's QA pass (docs/qa/session11.md): deterministic inputs nobody on the team (nor
sessions 9 and 10's QA) had used, run through the product, actual against expected. Heavy files
go to `.cache/qa-s11/` (gitignored with the rest of .cache); nothing here is imported by the app
or the tests. The checks themselves are session 10's (scripts/qa_session10.py), fed new inputs.

    .venv/bin/python scripts/qa_session11.py sync [RUN...]   # issue 13: Q*bert and Bowling
    .venv/bin/python scripts/qa_session11.py video [SHAPE...] # issue 12: new codecs/containers
    .venv/bin/python scripts/qa_session11.py scan [SHAPE...]  # issue 12: inserted stretches
    .venv/bin/python scripts/qa_session11.py hostile [ID...]  # issue 15 (qa_hostile_s11.py)
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "scripts")]
import qa_session10 as s10  # noqa: E402 - the checks, pointed at this session's inputs

CACHE = REPO / ".cache" / "qa-s11"
s10.CACHE = CACHE
CLI, LIMIT = s10.CLI, s10.LIMIT


# -- issue 13: two games in no corpus set and no earlier QA pass -------------------------------
def qbert(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Q*bert (balls and Coily bounce on their own; Q*bert hops only on input): a hop is one
    press held long enough to register, sometimes off the pyramid (a real agent's mistake)."""
    return [(rng.choice(("UP", "RIGHT", "LEFT", "DOWN", "RIGHT", "DOWN")), rng.randint(4, 10))]


def bowling(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Bowling (still until the bowler steps or throws; the ball then rolls on its own for
    seconds, and UP/DOWN while it rolls curves it)."""
    r = rng.random()
    if r < 0.5:
        return [(rng.choice(("UP", "DOWN")), rng.randint(6, 18))]
    if r < 0.75:
        return [("FIRE", rng.randint(3, 6))]
    return [(rng.choice(("UPFIRE", "DOWNFIRE")), rng.randint(4, 10))]


GAMES = {"qbert": (qbert, 61), "bowling": (bowling, 67)}
R25WEBM = {"fps": 25, "scale": 2, "flags": "bilinear", "container": "webm", "crf": 34}
KINDS = ("genuine", "genuine2", "genuine@r25webm", "cut", "insert", "freeze", "speed45",
         "slow", "deleted", "human")
SYNC_RUNS = [f"{g}-{k}" for g in GAMES for k in KINDS]


def build_sync_run(name: str) -> Path:
    from corpus import agents
    from corpus.build import SPEEDUPS, generate
    from corpus.record import Recorder

    out = CACHE / "sync" / name
    if (out / "truth.json").exists():
        return out
    game, _, kind = name.partition("-")
    kind, _, rec_name = kind.partition("@")
    agent, seed = GAMES[game]
    agents.AGENTS[game] = agent
    SPEEDUPS.setdefault("speed45", 0.045)  # +4.5 %: none of the corpus' 2, 4, 6, 4.4 or s10's 3
    rec = Recorder(**R25WEBM) if rec_name else Recorder(fps=60, scale=2)
    generate(game, kind, out, seed=seed, rec=rec, rec_name=rec_name)
    return out


def check_sync(name: str) -> dict:
    build_sync_run(name)
    s10.build_sync_run = build_sync_run
    return s10.check_sync(name)


# -- issue 12: codecs, containers and rates nobody tried ---------------------------------------
_X264 = ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"]
_X265 = ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error",
         "-pix_fmt", "yuv420p"]
s10.VIDEO_SHAPES.clear()
s10.VIDEO_SHAPES.update({  # id -> (suffix, fps, ffmpeg encoder/muxer args, to a pipe, post-step)
    "hevc_mkv_25_nocues": ("mkv", "25", [*_X265[:4], "-x265-params",
                                         "log-level=error:open-gop=1:bframes=4:keyint=50",
                                         "-pix_fmt", "yuv420p", "-f", "matroska"], True, None),
    "hevc_mp4_50": ("mp4", "50", [*_X265, "-tag:v", "hvc1", "-g", "100", "-f", "mp4"], False,
                    None),
    "vp9_mkv_odd_24": ("mkv", "24", ["-vf", "pad=321:243:0:0:gray", "-c:v", "libvpx-vp9",
                                     "-deadline", "realtime", "-cpu-used", "8", "-b:v", "1M",
                                     "-g", "48", "-f", "matroska"], False, None),
    "mjpeg_avi_25": ("avi", "25", ["-c:v", "mjpeg", "-q:v", "3", "-pix_fmt", "yuvj420p",
                                   "-f", "avi"], False, None),
    "h264_fmp4_2997": ("mp4", "30000/1001", [*_X264, "-bf", "3", "-g", "60", "-movflags",
                                             "frag_keyframe+empty_moov", "-f", "mp4"], False,
                       None),
    "h264_ts_23976": ("ts", "24000/1001", [*_X264, "-bf", "2", "-g", "48", "-f", "mpegts"],
                      False, None),
    "mpeg4_xvid_avi_30": ("avi", "30", ["-c:v", "libxvid", "-q:v", "4", "-g", "90",
                                        "-f", "avi"], False, None),
})
s10.SCAN_SHAPES.clear()
s10.SCAN_SHAPES.update({
    "scan_hevc_mkv_25": ("mkv", 25, [*_X265, "-g", "50", "-f", "matroska"], True),
    "scan_vp9_webm_24": ("webm", 24, ["-c:v", "libvpx-vp9", "-deadline", "realtime",
                                      "-cpu-used", "8", "-b:v", "1M", "-g", "48", "-f", "webm"],
                         False),
})
# 60 s: frozen 9.4-13.0 s, black 26.6-28.4 s, a cut to another scene at 38.2 s, the frames of
# 47.5-48.5 s never written (their timestamps missing: a gap)
SCAN_TRUTH = {"video.frozen": 9.4, "video.black": 26.6, "video.cut": 38.2,
              "video.timestamp_gap": 47.5}


def check_scan(shape: str) -> dict:
    """Session 10's scan check with this session's positions (its Script and drop filter are
    rebuilt here: the positions are literals there)."""
    import video_corpus as vc

    from moderator_app.core.samples.community import make_agent_log

    ext, fps, args, pipe = s10.SCAN_SHAPES[shape]
    folder = CACHE / "video" / shape
    video = folder / f"run.{ext}"
    if not video.exists():
        folder.mkdir(parents=True, exist_ok=True)

        def f(t: float) -> int:
            return round(t * fps)

        script = vc.Script(frames=60 * fps, fps=fps, frozen=(f(9.4), f(13.0)),
                           black=(f(26.6), f(28.4)), cut=f(38.2))
        raw = ["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{vc.W}x{vc.H}", "-r", str(fps),
               "-i", "-"]
        drop = ["-vf", f"select='not(between(n\\,{f(47.5)}\\,{f(48.5) - 1}))'",
                "-fps_mode", "passthrough"]
        if pipe:
            with open(video, "wb") as fh:
                vc._ffmpeg([*raw, *drop, *args, "-"], script, stdout=fh)
        else:
            vc._ffmpeg([*raw, *drop, *args, str(video)], script)
        make_agent_log(folder / "agent-log.jsonl", 120, 11, min_duration_s=50.0)
    r = subprocess.run([*LIMIT, *CLI, "verify", str(folder), "--scan", "--json", "--offset",
                        "1.0"], capture_output=True, text=True)
    rep = json.loads(r.stdout)
    found = [(f["severity"], f["rule"], f["message"][:170]) for f in rep["findings"]
             if f["rule"].startswith(("video.", "audio."))]
    return {"shape": shape, "exit": r.returncode, "truth_start_s": SCAN_TRUTH,
            "found": found, "ffprobe_frames": vc.ffprobe_frames(video),
            "report_frames": (rep.get("video") or {}).get("frame_count")}


def run_hostile(only: list[str]) -> list[dict]:
    """Session 11's hostile inputs through the shared runner (qa_common.run_hostile)."""
    import qa_hostile_s11 as qh
    from qa_common import run_hostile as run

    return run(qh, CACHE, only)


def main(argv: list[str]) -> int:
    what = argv[0] if argv else "all"
    if what == "sync-build":
        for name in (argv[1:] or SYNC_RUNS):
            print(name, build_sync_run(name), flush=True)
    if what in ("sync", "all"):
        for name in (argv[1:] or SYNC_RUNS):
            print(json.dumps(check_sync(name)), flush=True)
    if what in ("video", "all"):
        for shape in (argv[1:] or s10.VIDEO_SHAPES):
            try:
                print(json.dumps(s10.check_video(shape)), flush=True)
            except Exception as e:  # noqa: BLE001 - a QA table row, not the product
                print(json.dumps({"shape": shape, "qa_error": repr(e)[:300]}), flush=True)
    if what in ("scan", "all"):
        for shape in (argv[1:] or s10.SCAN_SHAPES):
            print(json.dumps(check_scan(shape)), flush=True)
    if what in ("hostile", "all"):
        run_hostile(argv[1:])
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
