"""Session 10's QA pass (docs/qa/session10.md): deterministic inputs nobody on the team (nor
session 9's QA) had used, run through the product, actual against expected. Heavy files go to
`.cache/qa-s10/` (gitignored with the rest of .cache); nothing here is imported by the app or
the tests.

    .venv/bin/python scripts/qa_session10.py sync [RUN...]   # issue 13: Kangaroo and Tennis
    .venv/bin/python scripts/qa_session10.py video [SHAPE...] # issue 12: new codecs/containers
    .venv/bin/python scripts/qa_session10.py scan [SHAPE...]  # issue 12: inserted stretches
    .venv/bin/python scripts/qa_session10.py hostile [ID...]  # issue 15 (qa_hostile_s10.py)
"""

from __future__ import annotations

import json
import subprocess
import sys
from bisect import bisect_right
from fractions import Fraction
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "scripts")]
CACHE = REPO / ".cache" / "qa-s10"
CLI = [str(REPO / ".venv" / "bin" / "moderator-app")]
LIMIT = ["prlimit", "--as=536870912", "timeout", "60"]


# -- issue 13: two games in no corpus set (then; held out in the corpus since, one agent each)
from corpus.agents import kangaroo, tennis  # noqa: E402

GAMES = {"kangaroo": (kangaroo, 41), "tennis": (tennis, 43)}
R24MKV = {"fps": 24, "scale": 3, "flags": "bilinear", "container": "mkv", "crf": 26}
KINDS = ("genuine", "genuine2", "genuine@r24mkv", "cut", "insert", "speed3", "slow", "deleted",
         "human")
SYNC_RUNS = [f"{g}-{k}" for g in GAMES for k in KINDS]


def build_sync_run(name: str) -> Path:
    from corpus import agents
    from corpus.build import generate
    from corpus.record import Recorder

    out = CACHE / "sync" / name
    if (out / "truth.json").exists():
        return out
    game, _, kind = name.partition("-")
    kind, _, rec_name = kind.partition("@")
    agent, seed = GAMES[game]
    agents.AGENTS[game] = agent
    sys.modules["corpus.build"].SPEEDUPS.setdefault("speed3", 0.03)  # +3 %: between the corpus' 2, 4 and 6 %
    rec = Recorder(**R24MKV) if rec_name else Recorder(fps=60, scale=2)
    generate(game, kind, out, seed=seed, rec=rec, rec_name=rec_name)
    return out


def _sync_report(folder: Path, extra: list[str]) -> dict:
    r = subprocess.run([*LIMIT, *CLI, "verify", str(folder), "--json", *extra],
                       capture_output=True, text=True)
    rep = json.loads(r.stdout) if r.stdout.strip() else {}
    return {"exit": r.returncode, "stderr": r.stderr[-300:], "rep": rep}


def check_sync(name: str) -> dict:
    """`verify --offset auto --json`, and `--sync --offset TRUTH` on the same run."""
    folder = build_sync_run(name)
    truth = json.loads((folder / "truth.json").read_text())
    res: dict = {"run": name, "truth_offset_s": truth["offset_s"], "fps": truth["fps"],
                 "tamper": truth["tamper"], "actions": len(truth["actions"]),
                 "visible_actions": sum(a["shows_video_s"] is not None
                                        for a in truth["actions"])}
    for label, extra in (("auto", ["--offset", "auto"]),
                         ("at_truth", ["--sync", "--offset", str(truth["offset_s"])])):
        out = _sync_report(folder, extra)
        rep = out["rep"]
        sync = rep.get("sync") or {}
        off = sync.get("suggested_offset_s")
        res[label] = {
            "exit": out["exit"], "stderr": out["stderr"] if not rep else "",
            "suggested_offset_s": off, "confidence": sync.get("confidence"),
            "offset_error_frames": None if off is None else
            round((off - truth["offset_s"]) * truth["fps"], 2),
            "drift_percent": sync.get("drift_percent"),
            "sync_findings": [(f["severity"], f["rule"], f["message"][:200])
                              for f in rep.get("findings", []) if f["rule"].startswith("sync")]}
    return res


# -- issue 12: codecs and containers nobody tried ---------------------------------------------
RUN_OFFSET = 1.5  # video time of run_start in the video submissions
SECONDS = 24
_X264_BF = ["-c:v", "libx264", "-preset", "veryfast", "-bf", "3", "-pix_fmt", "yuv420p"]
VIDEO_SHAPES = {  # id -> (suffix, fps, ffmpeg encoder/muxer args, to a pipe, post-step)
    "av1_mp4": ("mp4", "25", ["-c:v", "libsvtav1", "-preset", "12", "-g", "50",
                              "-pix_fmt", "yuv420p", "-f", "mp4"], False, None),
    "mpeg2_ts_25": ("ts", "25", ["-c:v", "mpeg2video", "-q:v", "3", "-bf", "2", "-g", "12",
                                 "-f", "mpegts"], False, None),
    "h264_opengop_50_mkv": ("mkv", "50", [*_X264_BF, "-x264-params", "open-gop=1:keyint=50",
                                          "-f", "matroska"], True, None),
    "mp4_editlist": ("mp4", "30", [*_X264_BF, "-g", "45", "-f", "mp4"], False, "editlist"),
    "mpeg4_avi_bf": ("avi", "30", ["-c:v", "mpeg4", "-q:v", "3", "-bf", "2", "-g", "60",
                                   "-f", "avi"], False, None),
    "odd_444_mov": ("mov", "30", ["-vf", "pad=323:241:0:0:gray", "-c:v", "libx264", "-preset",
                                  "veryfast", "-pix_fmt", "yuv444p", "-f", "mov"], False, None),
    "vp8_webm": ("webm", "30", ["-c:v", "libvpx", "-b:v", "2M", "-auto-alt-ref", "1",
                                "-lag-in-frames", "16", "-g", "90", "-f", "webm"], False, None),
    "theora_ogv": ("ogv", "25", ["-c:v", "libtheora", "-q:v", "8", "-g", "50", "-f", "ogg"],
                   False, None),
    # audio tracks: 10 s of AAC under 24 s of video; 34 s of Opus beyond it (MKV, no cues)
    "h264_aac_short_mp4": ("mp4", "30", [*_X264_BF, "-g", "60", "-f", "mp4"], False,
                           "sine=frequency=440:duration=10:sample_rate=48000|aac"),
    "h264_opus_long_mkv": ("mkv", "30", [*_X264_BF, "-g", "60", "-f", "matroska"], False,
                           "sine=frequency=660:duration=34:sample_rate=48000|libopus"),
}


def _dims(video: Path) -> tuple[int, int]:
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                          "stream=width,height", "-of", "json", str(video)],
                         capture_output=True, text=True, check=True).stdout
    s = json.loads(out)["streams"][0]
    return int(s["width"]), int(s["height"])


def truth_codes(video: Path) -> tuple[list[int], list[float]]:
    """ffmpeg's own decode of `video` (any picture size): the frame code of every frame it
    shows and its time from the first shown frame (`video_corpus.ffmpeg_truth`, any size)."""
    import video_corpus as vc

    w, h = _dims(video)
    raw = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", str(video), "-fps_mode",
                          "passthrough", "-pix_fmt", "gray", "-f", "rawvideo", "-"],
                         capture_output=True, check=True).stdout
    codes = [vc.read_code(img[:vc.H, :vc.W])
             for img in np.frombuffer(raw, np.uint8).reshape(-1, h, w)]
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                          "frame=best_effort_timestamp_time", "-of", "csv=p=0", str(video)],
                         capture_output=True, text=True, check=True).stdout
    ts = [float(x.strip(",")) for x in out.split() if x.strip(",") not in ("", "N/A")]
    t0 = ts[0] if ts else 0.0
    return codes, [t - t0 for t in ts]


def build_video(shape: str) -> Path:
    """A submission folder: the video of `shape` (each picture carries its frame number) and
    a 40-event community log whose run_start is at RUN_OFFSET in the video."""
    import video_corpus as vc

    from moderator_app.core.samples.community import make_agent_log

    ext, fps, args, pipe, post = VIDEO_SHAPES[shape]
    folder = CACHE / "video" / shape
    video = folder / f"run.{ext}"
    if video.exists():
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    n = int(SECONDS * Fraction(fps))
    raw = ["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{vc.W}x{vc.H}", "-r", fps, "-i", "-"]
    if post == "editlist":  # encode 27 s, then a stream-copy cut that starts between keyframes
        src = folder / "src.mp4"
        vc._ffmpeg([*raw, *args, str(src)], vc.Script(frames=n + 90, fps=int(fps)))
        vc._ffmpeg(["-ss", "2.37", "-i", str(src), "-c", "copy", str(video)])
        src.unlink()
    elif post and "|" in post:  # mux an audio track (lavfi source | encoder) beside it
        src = folder / f"src.{ext}"
        vc._ffmpeg([*raw, *args, str(src)], vc.Script(frames=n))
        lavfi, codec = post.split("|")
        vc._ffmpeg(["-i", str(src), "-f", "lavfi", "-i", lavfi, "-map", "0:v", "-map", "1:a",
                    "-c:v", "copy", "-c:a", codec, str(video)])
        src.unlink()
    elif pipe:
        with open(video, "wb") as fh:
            vc._ffmpeg([*raw, *args, "-"], vc.Script(frames=n), stdout=fh)
    else:
        vc._ffmpeg([*raw, *args, str(video)], vc.Script(frames=n))
    make_agent_log(folder / "agent-log.jsonl", 40, 5)
    return folder


def check_video(shape: str) -> dict:
    import cv2
    import video_corpus as vc

    from moderator_app.core.video.export import frame_for_time, read_frames
    from moderator_app.core.video.probe import probe_video

    folder = build_video(shape)
    video = next(folder.glob("run.*"))
    log = [json.loads(line) for line in (folder / "agent-log.jsonl").read_bytes().splitlines()]
    codes, times = truth_codes(video)
    res: dict = {"shape": shape, "ffprobe_frames": vc.ffprobe_frames(video),
                 "ffmpeg_frames": len(codes), "ffmpeg_times": len(times)}
    p = probe_video(video, video.name)
    res["probe_ok"] = p.ok
    res["probe_frames"] = p.frame_count
    res["probe_findings"] = [(f.severity.name, f.rule, f.message[:160]) for f in p.findings]
    moments = [RUN_OFFSET + e["elapsedMs"] / 1000 for e in log]
    want = [codes[bisect_right(times, t + 1e-6) - 1] for t in moments]
    got: list = []
    if p.index is not None:
        frames = [frame_for_time(p.index, t, None) for t in moments]
        imgs = read_frames(video, p.index, [f for f in frames if f is not None])
        it = iter(imgs)
        got = [None if f is None else vc.read_code(next(it)[:vc.H, :vc.W]) for f in frames]
    got += [None] * (len(want) - len(got))
    res["core_errors"] = [(i + 1, w, g) for i, (w, g) in enumerate(zip(want, got, strict=True))
                          if w != g]
    cli_bad = []
    for line in (2, 5, 11, 17, 23, 29, 35, 40):
        png = CACHE / "video" / f"{shape}-{line}.png"
        png.unlink(missing_ok=True)
        r = subprocess.run([*LIMIT, *CLI, "frame", str(folder), "--line", str(line), "--offset",
                            str(RUN_OFFSET), "-o", str(png)], capture_output=True, text=True)
        img = cv2.imread(str(png)) if png.exists() else None
        code = None if img is None else vc.read_code(img[:vc.H, :vc.W])
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
    res["verdict"] = rep.get("verdict")
    res["verify_video_findings"] = [(f["severity"], f["rule"], f["message"][:160])
                                    for f in rep.get("findings", [])
                                    if f["rule"].split(".")[0] in ("video", "audio", "coverage")]
    res["verify_video"] = {k: v for k, v in (rep.get("video") or {}).items()
                           if k in ("frames", "frame_count", "duration_s", "fps",
                                    "audio_streams")}
    # the run's end 3.5 s past the video's end (and inside the audio when it is longer):
    # coverage must count the video's footage, not the container's or the audio's length
    r = subprocess.run([*LIMIT, *CLI, "verify", str(folder), "--json", "--offset", "5.0"],
                       capture_output=True, text=True)
    rep = json.loads(r.stdout) if r.stdout.strip() else {}
    res["late_offset_coverage"] = [(f["severity"], f["rule"], f["message"][:120])
                                   for f in rep.get("findings", [])
                                   if f["rule"].startswith("coverage.")]
    return res


SCAN_SHAPES = {  # id -> (suffix, fps, encoder/muxer args, to a pipe)
    "scan_mpeg2_ts_25": ("ts", 25, ["-c:v", "mpeg2video", "-q:v", "3", "-bf", "2", "-g", "12",
                                    "-f", "mpegts"], False),
    "scan_opengop_50_mkv": ("mkv", 50, [*_X264_BF, "-x264-params", "open-gop=1:keyint=50",
                                        "-f", "matroska"], True),
}
# 60 s: frozen 13.0-16.5 s, black 31.2-33.0 s, a cut to another scene at 44.6 s, the frames
# of 52.0-53.2 s never written (their timestamps missing: a gap)
SCAN_TRUTH = {"video.frozen": 13.0, "video.black": 31.2, "video.cut": 44.6,
              "video.timestamp_gap": 52.0}


def check_scan(shape: str) -> dict:
    import video_corpus as vc

    from moderator_app.core.samples.community import make_agent_log

    ext, fps, args, pipe = SCAN_SHAPES[shape]
    folder = CACHE / "video" / shape
    video = folder / f"run.{ext}"
    if not video.exists():
        folder.mkdir(parents=True, exist_ok=True)

        def f(t: float) -> int:
            return round(t * fps)

        script = vc.Script(frames=60 * fps, fps=fps, frozen=(f(13.0), f(16.5)),
                           black=(f(31.2), f(33.0)), cut=f(44.6))
        raw = ["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{vc.W}x{vc.H}", "-r", str(fps),
               "-i", "-"]
        drop = ["-vf", f"select='not(between(n\\,{f(52.0)}\\,{f(53.2) - 1}))'",
                "-fps_mode", "passthrough"]
        if pipe:
            with open(video, "wb") as fh:
                vc._ffmpeg([*raw, *drop, *args, "-"], script, stdout=fh)
        else:
            vc._ffmpeg([*raw, *drop, *args, str(video)], script)
        make_agent_log(folder / "agent-log.jsonl", 120, 9, min_duration_s=50.0)
    r = subprocess.run([*LIMIT, *CLI, "verify", str(folder), "--scan", "--json", "--offset",
                        "1.0"], capture_output=True, text=True)
    rep = json.loads(r.stdout)
    found = [(f["severity"], f["rule"], f["message"][:170]) for f in rep["findings"]
             if f["rule"].startswith(("video.", "audio."))]
    return {"shape": shape, "exit": r.returncode, "truth_start_s": SCAN_TRUTH,
            "found": found, "ffprobe_frames": vc.ffprobe_frames(video),
            "report_frames": (rep.get("video") or {}).get("frame_count")}


def run_hostile(only: list[str]) -> list[dict]:
    """Session 10's hostile inputs through the shared runner (qa_common.run_hostile)."""
    import qa_hostile_s10 as qh
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
        for shape in (argv[1:] or VIDEO_SHAPES):
            try:
                print(json.dumps(check_video(shape)), flush=True)
            except Exception as e:  # noqa: BLE001 - a QA table row, not the product
                print(json.dumps({"shape": shape, "qa_error": repr(e)[:300]}), flush=True)
    if what in ("scan", "all"):
        for shape in (argv[1:] or SCAN_SHAPES):
            print(json.dumps(check_scan(shape)), flush=True)
    if what in ("hostile", "all"):
        run_hostile(argv[1:])
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
