"""Session 9's QA pass (docs/qa/session9.md): deterministic inputs nobody on the team had used,
run through the product, actual against expected. Heavy files go to `.cache/qa-s9/` (gitignored
with the rest of .cache); nothing here is imported by the app or the tests.

    .venv/bin/python scripts/qa_session9.py sync      # issue 13: Frostbite, new to the corpus
    .venv/bin/python scripts/qa_session9.py video     # issue 12: new codecs and containers
    .venv/bin/python scripts/qa_session9.py hostile   # issue 15: new hostile bytes
    .venv/bin/python scripts/qa_session9.py gui       # issue 11: GUI verdict = CLI verdict
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "scripts")]
CACHE = REPO / ".cache" / "qa-s9"
CLI = [str(REPO / ".venv" / "bin" / "moderator-app")]
LIMIT = ["prlimit", "--as=536870912", "timeout", "60"]


# -- issue 13: a game in no corpus set -----------------------------------------------------
def frostbite(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Frostbite (ice floes drift on their own; the player moves on input): hop down and up
    the floes, walk along them. Reads no RAM: a plausible agent's habits for the controls."""
    r = rng.random()
    if r < 0.4:
        return [(rng.choice(("DOWN", "UP")), rng.randint(3, 8))]
    if r < 0.85:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(6, 20))]
    return [("FIRE", 3)]


# The better agent became the corpus's (tests/corpus/agents.py, held out in session 9): one copy.
from corpus.agents import frostbite as frostbite_hopper  # noqa: E402

AGENT_VARIANTS = {"idle": frostbite, "hop": frostbite_hopper}
R48MKV = {"fps": 48, "scale": 2, "container": "mkv"}
SYNC_RUNS = {  # name -> (agent, kind, seed, recorder kwargs or None: 60 fps 2x MP4)
    "idle-genuine": ("idle", "genuine", 31, None),
    "idle-genuine@r48mkv": ("idle", "genuine", 31, R48MKV),
    "idle-cut": ("idle", "cut", 31, None),
    "idle-freeze": ("idle", "freeze", 31, None),
    "idle-speed2": ("idle", "speed2", 31, None),
    "idle-human": ("idle", "human", 31, None),
    "hop-genuine": ("hop", "genuine", 32, None),
    "hop-genuine2": ("hop", "genuine", 33, None),
    "hop-genuine@r48mkv": ("hop", "genuine", 32, R48MKV),
    "hop-cut": ("hop", "cut", 32, None),
    "hop-insert": ("hop", "insert", 32, None),
    "hop-speed2": ("hop", "speed2", 32, None),
    "hop-human": ("hop", "human", 32, None),
}


def build_sync_run(name: str) -> Path:
    from corpus import agents
    from corpus.build import generate
    from corpus.record import Recorder

    out = CACHE / "sync" / name
    if (out / "truth.json").exists():
        return out
    agent, kind, seed, rec = SYNC_RUNS[name]
    agents.AGENTS["frostbite"] = AGENT_VARIANTS[agent]
    rec_obj = Recorder(**rec) if rec else Recorder(fps=60, scale=2)
    generate("frostbite", kind, out, seed=seed, rec=rec_obj, rec_name=name.partition("@")[2])
    return out


# -- issue 12: codecs and containers nobody tried ---------------------------------------------
RUN_OFFSET = 1.5  # video time of run_start in the video submissions
VIDEO_SHAPES = {  # id -> (suffix, fps, ffmpeg encoder/muxer args, written to a pipe)
    "hevc_mp4": ("mp4", "30", ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params",
                               "bframes=4:keyint=60:log-level=error", "-tag:v", "hvc1",
                               "-pix_fmt", "yuv420p", "-f", "mp4"], False),
    "prores_mov": ("mov", "24", ["-c:v", "prores_ks", "-profile:v", "2", "-f", "mov"], False),
    "ffv1_mkv_nocues": ("mkv", "25", ["-c:v", "ffv1", "-level", "3", "-g", "25",
                                      "-f", "matroska"], True),
    "mjpeg_avi": ("avi", "30", ["-c:v", "mjpeg", "-q:v", "4", "-f", "avi"], False),
    "h264_intrarefresh_mkv": ("mkv", "30", ["-c:v", "libx264", "-preset", "veryfast",
                                            "-x264-params", "intra-refresh=1:keyint=45",
                                            "-pix_fmt", "yuv420p", "-f", "matroska"], True),
    "h264_ntsc_mp4": ("mp4", "60000/1001", ["-c:v", "libx264", "-preset", "ultrafast", "-bf",
                                            "3", "-g", "90", "-pix_fmt", "yuv420p",
                                            "-f", "mp4"], False),
    "ts_ptswrap": ("ts", "30", ["-c:v", "libx264", "-preset", "ultrafast", "-bf", "2", "-g",
                                "60", "-pix_fmt", "yuv420p", "-output_ts_offset", "95440.5",
                                "-f", "mpegts"], False),
}
SECONDS = 24


def build_video(shape: str) -> Path:
    """A submission folder: the video of `shape` (every picture carries its frame number) and
    a 20 s community log whose run_start is at RUN_OFFSET in the video."""
    from fractions import Fraction

    import video_corpus as vc

    from moderator_app.core.samples.community import make_agent_log

    ext, fps, args, pipe = VIDEO_SHAPES[shape]
    folder = CACHE / "video" / shape
    video = folder / f"run.{ext}"
    if video.exists():
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    n = int(SECONDS * Fraction(fps))
    raw = ["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{vc.W}x{vc.H}", "-r", fps, "-i", "-"]
    if pipe:
        with open(video, "wb") as fh:
            vc._ffmpeg([*raw, *args, "-"], vc.Script(frames=n), stdout=fh)
    else:
        vc._ffmpeg([*raw, *args, str(video)], vc.Script(frames=n))
    make_agent_log(folder / "agent-log.jsonl", 40, 5)
    return folder


def check_video(shape: str) -> dict:
    from bisect import bisect_right

    import cv2
    import video_corpus as vc

    from moderator_app.core.video.export import frame_for_time, read_frames
    from moderator_app.core.video.probe import probe_video

    folder = build_video(shape)
    video = next(folder.glob("run.*"))
    log = [json.loads(line) for line in (folder / "agent-log.jsonl").read_bytes().splitlines()]
    codes, times = vc.ffmpeg_truth(video)
    res: dict = {"shape": shape, "ffprobe_frames": vc.ffprobe_frames(video),
                 "ffmpeg_frames": len(codes)}
    p = probe_video(video, video.name)
    res["probe_ok"] = p.ok
    res["probe_frames"] = p.frame_count
    res["probe_findings"] = [(f.severity.name, f.rule, f.message[:120]) for f in p.findings]
    moments = [RUN_OFFSET + e["elapsedMs"] / 1000 for e in log]
    want = [codes[bisect_right(times, t + 1e-6) - 1] for t in moments]
    got: list = []
    if p.index is not None:
        frames = [frame_for_time(p.index, t, None) for t in moments]
        imgs = read_frames(video, p.index, [f for f in frames if f is not None])
        it = iter(imgs)
        got = [None if f is None else vc.read_code(next(it)) for f in frames]
    got += [None] * (len(want) - len(got))  # no index: every event is an error
    res["core_errors"] = [(i + 1, w, g) for i, (w, g) in enumerate(zip(want, got, strict=True))
                          if w != g]
    cli_bad = []
    for line in (2, 4, 9, 15, 22, 28, 34, 39):
        png = CACHE / "video" / f"{shape}-{line}.png"
        png.unlink(missing_ok=True)
        r = subprocess.run([*LIMIT, *CLI, "frame", str(folder), "--line", str(line), "--offset",
                            str(RUN_OFFSET), "-o", str(png)], capture_output=True, text=True)
        img = cv2.imread(str(png)) if png.exists() else None
        code = None if img is None else vc.read_code(img)
        if code != want[line - 1] or r.returncode != 0:
            cli_bad.append((line, want[line - 1], code, r.returncode, r.stderr[-200:]))
    res["cli_errors"] = cli_bad
    r = subprocess.run([*LIMIT, *CLI, "verify", str(folder), "--json", "--scan", "--offset",
                        str(RUN_OFFSET)], capture_output=True, text=True)
    try:
        rep = json.loads(r.stdout)
    except ValueError:
        rep = {}
        res["verify_stderr"] = r.stderr[-400:]
    res["verify_exit"] = r.returncode
    res["verify_video_findings"] = [(f["severity"], f["rule"], f["message"][:140])
                                    for f in rep.get("findings", [])
                                    if f["rule"].split(".")[0] in ("video", "audio", "coverage")]
    res["verify_video"] = {k: v for k, v in (rep.get("video") or {}).items()
                           if k in ("frames", "frame_count", "duration_s", "fps")}
    return res


def check_sync(name: str) -> dict:
    """`verify --offset auto --json` and `verify --sync --offset TRUTH --json` on one run."""
    folder = build_sync_run(name)
    truth = json.loads((folder / "truth.json").read_text())
    res: dict = {"run": name, "truth_offset_s": truth["offset_s"], "fps": truth["fps"],
                 "tamper": truth["tamper"],
                 "visible_actions": sum(a["shows_video_s"] is not None for a in truth["actions"]),
                 "actions": len(truth["actions"])}
    for label, extra in (("auto", ["--offset", "auto"]),
                         ("at_truth", ["--sync", "--offset", str(truth["offset_s"])])):
        r = subprocess.run([*LIMIT, *CLI, "verify", str(folder), "--json", *extra],
                           capture_output=True, text=True)
        rep = json.loads(r.stdout) if r.stdout.strip() else {}
        sync = rep.get("sync") or {}
        off = sync.get("suggested_offset_s")
        res[label] = {
            "exit": r.returncode, "error": rep.get("error"),
            "suggested_offset_s": off, "confidence": sync.get("confidence"),
            "offset_error_frames": None if off is None else
            round((off - truth["offset_s"]) * truth["fps"], 2),
            "drift_percent": sync.get("drift_percent"),
            "sync_findings": [(f["severity"], f["rule"], f["message"][:170])
                              for f in rep.get("findings", []) if f["rule"].startswith("sync")]}
    return res


def run_hostile(only: list[str]) -> list[dict]:
    """Session 9's hostile inputs through the shared runner (qa_common.run_hostile)."""
    import qa_hostile_s9 as qh
    from qa_common import run_hostile as run

    return run(qh, CACHE, only)


SCAN_SHAPES = {  # id -> (suffix, encoder/muxer args)
    "scan_hevc_mkv": ("mkv", ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params",
                              "keyint=60:log-level=error", "-pix_fmt", "yuv420p",
                              "-f", "matroska"]),
    "scan_prores_mov": ("mov", ["-c:v", "prores_ks", "-profile:v", "0", "-f", "mov"]),
}
# 60 s at 30 fps: frozen 7.0-11.0 s, black 23.5-25.5 s, a cut to another scene at 41.0 s,
# frames of 50.0-51.5 s never written (their timestamps missing: a gap)
SCAN_TRUTH = {"video.frozen": 7.0, "video.black": 23.5, "video.cut": 41.0,
              "video.timestamp_gap": 50.0}


def check_scan(shape: str) -> dict:
    import video_corpus as vc

    from moderator_app.core.samples.community import make_agent_log

    ext, args = SCAN_SHAPES[shape]
    folder = CACHE / "video" / shape
    video = folder / f"run.{ext}"
    if not video.exists():
        folder.mkdir(parents=True, exist_ok=True)
        script = vc.Script(frames=1800, fps=30, frozen=(210, 330), black=(705, 765), cut=1230)
        raw = ["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{vc.W}x{vc.H}", "-r", "30",
               "-i", "-"]
        drop = ["-vf", "select='not(between(n\\,1500\\,1544))'", "-fps_mode", "passthrough"]
        vc._ffmpeg([*raw, *drop, *args, str(video)], script)
        make_agent_log(folder / "agent-log.jsonl", 120, 9, min_duration_s=50.0)
    r = subprocess.run([*LIMIT, *CLI, "verify", str(folder), "--scan", "--json", "--offset",
                        "1.0"], capture_output=True, text=True)
    rep = json.loads(r.stdout)
    found = [(f["severity"], f["rule"], f["message"][:150]) for f in rep["findings"]
             if f["rule"].startswith(("video.", "audio."))]
    return {"shape": shape, "exit": r.returncode, "truth_start_s": SCAN_TRUTH,
            "found": found, "ffprobe_frames": vc.ffprobe_frames(video),
            "report_frames": (rep.get("video") or {}).get("frame_count"),
            "scan_keys": sorted((rep.get("video_scan") or {}).keys())}


def main(argv: list[str]) -> int:
    what = argv[0] if argv else "all"
    if what in ("sync-build",):
        for name in SYNC_RUNS:
            print(name, build_sync_run(name), flush=True)
    if what in ("sync", "all"):
        for name in (argv[1:] or SYNC_RUNS):
            print(json.dumps(check_sync(name)), flush=True)
    if what in ("scan", "all"):
        for shape in (argv[1:] or SCAN_SHAPES):
            print(json.dumps(check_scan(shape)), flush=True)
    if what in ("hostile", "all"):
        run_hostile(argv[1:])
    if what in ("video", "all"):
        for shape in (argv[1:] or VIDEO_SHAPES):
            print(json.dumps(check_video(shape)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
