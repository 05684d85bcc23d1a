"""Session 14's QA pass (docs/qa/session14.md): deterministic inputs nobody on the team (nor
sessions 9-13's QA) had used, run through the integrated product, actual against expected.
Heavy files go to `.cache/qa-s14/` (gitignored with the rest of .cache); nothing here is
imported by the app or the tests. Session 13's machinery (scripts/qa_session13.py, and through
it qa_session10/12.py) is reused, pointed at new games, recorders and shapes.

    .venv/bin/python scripts/qa_session14.py sync-build [RUN...]  # build the real-game runs
    .venv/bin/python scripts/qa_session14.py sync [RUN...]    # issue 13: Montezuma, Time Pilot
    .venv/bin/python scripts/qa_session14.py video [SHAPE...] # issue 12: four recording kinds
    .venv/bin/python scripts/qa_session14.py scan             # issue 12: inserted stretches
    .venv/bin/python scripts/qa_session14.py budget           # verify --scan-budget
    .venv/bin/python scripts/qa_session14.py hostile [ID...]  # issue 15 (qa_hostile_s14.py)
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "scripts")]
import qa_session10 as s10  # noqa: E402
import qa_session12 as s12  # noqa: E402
import qa_session13 as s13  # noqa: E402

CACHE = REPO / ".cache" / "qa-s14"
s10.CACHE = s12.CACHE = s13.CACHE = CACHE
CLI, LIMIT = s10.CLI, s10.LIMIT


# -- issue 13: two games in no set so far ------------------------------------------------------
def montezuma(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Montezuma's Revenge (a still room; Panama Joe walks, jumps and climbs only on input; a
    skull rolls on its own on the lower floor)."""
    r = rng.random()
    if r < 0.5:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(8, 24))]
    if r < 0.7:
        return [("FIRE", rng.randint(3, 6))]
    if r < 0.85:
        return [(rng.choice(("LEFTFIRE", "RIGHTFIRE")), rng.randint(4, 10))]
    return [(rng.choice(("UP", "DOWN")), rng.randint(10, 24))]


def time_pilot(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Time Pilot (the sky and its clouds scroll on their own all the time, enemy planes fly in;
    the joystick turns the plane, so the scrolling direction changes on input; FIRE shoots)."""
    if rng.random() < 0.7:
        return [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT")), rng.randint(8, 30))]
    return [(rng.choice(("FIRE", "UPFIRE", "LEFTFIRE", "RIGHTFIRE", "DOWNFIRE")),
             rng.randint(3, 8))]


def video_pinball(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Video Pinball (added 09:49, after the first two games gave little signal: the ball moves
    on its own; each LEFT/RIGHT flips a flipper at once, visibly; FIRE pulls the plunger)."""
    r = rng.random()
    if r < 0.75:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(4, 12))]
    if r < 0.9:
        return [("FIRE", rng.randint(10, 30))]
    return [("UP", rng.randint(3, 6))]


def bank_heist(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Bank Heist (added 10:04, genuine runs only: is G7's late offset Pinball's own? The maze
    stands still; the getaway car turns and drives only on input; police cars move alone)."""
    if rng.random() < 0.85:
        return [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT")), rng.randint(8, 24))]
    return [("FIRE", rng.randint(3, 6))]


GAMES = {"montezuma_revenge": (montezuma, 141), "time_pilot": (time_pilot, 143),
         "video_pinball": (video_pinball, 147), "bank_heist": (bank_heist, 149)}


def _recorder_cls():
    from corpus.record import Recorder

    @dataclass(frozen=True)
    class QARecorder(Recorder):
        codec: str = ""          # "" (the corpus' own), "x265ts", "vp8jitter"
        jitter_ms: float = 0.0   # each frame's timestamp moved by up to +-jitter_ms/2

    return QARecorder


#: two recorders no corpus set or QA pass used
RECORDERS = {
    # 24 fps (60/24 = 2.5: every other frame held 3 vs 2 emulator frames), HEVC (x265, its
    # default open GOP and B-frames) in MPEG-TS, as OBS writes a .ts; 1.7 s lead-in
    "r24hevcts": {"fps": 24, "scale": 2, "lead_s": 1.7, "container": "ts", "codec": "x265ts"},
    # 60 fps VP8 WebM written to a pipe (no cues, no duration), each timestamp jittered by
    # +-3 ms (a browser's MediaRecorder stamps frames as they arrive); 0.8 s lead-in
    "r60vp8jit": {"fps": 60, "scale": 2, "lead_s": 0.8, "container": "webm",
                  "codec": "vp8jitter", "jitter_ms": 6.0},
    # added 09:58 (the VP8 encode ran at ~1/10 real time under the session's load): 20 fps
    # (60/20 = 3), H.264 in Matroska (the corpus' own encoder), 3.3 s lead-in
    "r20mkv": {"fps": 20, "scale": 2, "lead_s": 3.3, "container": "mkv"},
    # added 10:09: the corpus' own 60 fps x264 MP4 (not new: G7's bias counted in 60 fps frames)
    "r60mp4": {"fps": 60, "scale": 2, "lead_s": 2.2},
}
KINDS_A = ("genuine", "genuine2", "cut", "insert", "freeze", "speed5", "slow", "deleted",
           "human")
KINDS_B = ("genuine", "genuine2", "cut", "insert", "freeze", "speed5", "deleted", "human")
SYNC_RUNS = [f"{g}-{k}@r24hevcts" for g in GAMES for k in KINDS_A] + \
    [f"{g}-{k}@r60vp8jit" for g in GAMES for k in KINDS_B]
# added 09:49: Video Pinball at the 24 fps recorder
SYNC_RUNS_PINBALL = [f"video_pinball-{k}@r24hevcts" for k in
                     ("genuine", "cut", "insert", "speed5", "deleted", "human")]
SYNC_RUNS_PINBALL20 = [f"video_pinball-{k}@r20mkv" for k in
                       ("genuine", "cut", "insert", "deleted", "human", "freeze")]
SPEED5 = 0.05                     # +5 % (QA s13: +3 %, corpus 2/4/4.4/6 %)
SLOW25 = 1 / 0.975 - 1            # the video at 97.5 % of the log's clock (-2.5 %)


def _encode(frames: np.ndarray, folder: Path, rec) -> Path:
    """The corpus' record.encode, with this pass' two recorders added."""
    codec = getattr(rec, "codec", "")
    if not codec:
        return _ORIG_ENCODE(frames, folder, rec)
    h, w = frames.shape[1:3]
    path = folder / rec.video_name
    cmd = ["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
           "rgb24", "-s", f"{w}x{h}", "-r", str(rec.fps), "-i", "-"]
    vf = [f"scale={w * rec.scale}:{h * rec.scale}:flags=neighbor"]
    if codec == "x265ts":
        cmd += ["-vf", ",".join(vf), "-c:v", "libx265", "-preset", "veryfast", "-crf", "24",
                "-pix_fmt", "yuv420p", "-x265-params", f"keyint={2 * rec.fps}:log-level=error",
                "-f", "mpegts", str(path)]
        subprocess.run(cmd, input=np.ascontiguousarray(frames).tobytes(), check=True)
        return path
    if codec == "vp8jitter":
        j = rec.jitter_ms
        vf += ["settb=1/1000",
               f"setpts=N*1000/{rec.fps}+(random(0)-0.5)*{j}+{j}"]  # +j: no negative first
        cmd += ["-vf", ",".join(vf), "-fps_mode", "passthrough", "-enc_time_base", "1:1000", "-c:v", "libvpx",
                "-b:v", "3M", "-deadline", "realtime", "-cpu-used", "8", "-g",
                str(2 * rec.fps), "-pix_fmt", "yuv420p", "-f", "webm", "-"]
        with open(path, "wb") as fh:
            subprocess.run(cmd, input=np.ascontiguousarray(frames).tobytes(), check=True,
                           stdout=fh)
        return path
    raise ValueError(codec)


_ORIG_ENCODE = None


def build_sync_run(name: str) -> Path:
    global _ORIG_ENCODE
    import corpus.record as record
    from corpus import agents
    from corpus.build import generate

    build = sys.modules["corpus.build"]
    out = CACHE / "sync" / name
    if (out / "truth.json").exists():
        return out
    if _ORIG_ENCODE is None:
        _ORIG_ENCODE = record.encode
        record.encode = _encode
    game, _, kind = name.partition("-")
    kind, _, rec_name = kind.partition("@")
    agent, seed = GAMES[game]
    agents.AGENTS[game] = agent
    build.SPEEDUPS.setdefault("speed5", SPEED5)
    build.SLOWDOWN = SLOW25
    generate(game, kind, out, seed=seed, rec=_recorder_cls()(**RECORDERS[rec_name]),
             rec_name=rec_name)
    return out


s13.build_sync_run = build_sync_run  # check_sync builds through the module's global
_JUDGE13 = s13.judge


def judge(truth: dict, auto: dict, at_truth: dict) -> tuple[bool, str]:
    """Session 13's judge; this pass' speed5 is judged as its speed3 (a drift within 1 point)."""
    if truth["tamper"]["kind"].startswith("speed"):
        truth = {**truth, "tamper": {**truth["tamper"], "kind": "speed3"}}
    return _JUDGE13(truth, auto, at_truth)


s13.judge = judge


# -- issue 12: four recording kinds nobody tried ------------------------------------------------
RUN_OFFSET = s13.RUN_OFFSET  # 1.5 s: video time of run_start
SECONDS = 24
#: shape -> the top-left box holding the whole 320x240 coded picture
VIDEO_SHAPES = {"hevc_ts_24_aac": (320, 240), "vp8_webm_jitter_pipe": (320, 240),
                "h264_mp4_rate_change": (320, 240), "mp4_webcam_first": (320, 240)}
_raw, _feed, _X264 = s13._raw, s13._feed, s13._X264
_JITTER = ["settb=1/1000", "setpts=N*1000/60+(random(0)-0.5)*6+6"]


def build_video(shape: str) -> Path:
    """A submission folder: the video of `shape` and a 40-event community log whose run_start
    is at RUN_OFFSET in the video (as session 13's)."""
    import video_corpus as vc

    from moderator_app.core.samples.community import make_agent_log

    folder = CACHE / "video" / shape
    if any(folder.glob("run.*")):
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    if shape == "hevc_ts_24_aac":
        vc._ffmpeg([*_raw("24"), "-f", "lavfi", "-i",
                    "sine=frequency=330:duration=24:sample_rate=44100", "-map", "0:v",
                    "-map", "1:a", "-c:v", "libx265", "-preset", "veryfast", "-pix_fmt",
                    "yuv420p", "-x265-params", "keyint=48:log-level=error", "-c:a", "aac",
                    "-f", "mpegts", str(folder / "run.ts")], vc.Script(frames=SECONDS * 24))
    elif shape == "vp8_webm_jitter_pipe":
        with open(folder / "run.webm", "wb") as fh:
            vc._ffmpeg([*_raw("60"), "-vf", ",".join(_JITTER), "-fps_mode", "passthrough",
                        "-enc_time_base", "1:1000", "-c:v", "libvpx", "-b:v", "2M",
                        "-deadline", "realtime", "-cpu-used", "8", "-g", "120", "-f", "webm",
                        "-"], vc.Script(frames=SECONDS * 60), stdout=fh)
    elif shape == "h264_mp4_rate_change":  # 12 s at 60 fps, then 12 s at 30 fps, one stream
        parts = []
        for i, (fps, first, count) in enumerate(((60, 0, 720), (30, 720, 360))):
            part = folder / f"part{i}.ts"
            _feed([*_raw(str(fps)), *_X264, "-preset", "veryfast", "-g", str(2 * fps), "-bf",
                   "2", "-f", "mpegts", str(part)], first, count)
            parts.append(part)
        lst = folder / "list.txt"
        lst.write_text("".join(f"file '{p.name}'\n" for p in parts))
        vc._ffmpeg(["-f", "concat", "-safe", "0", "-i", str(lst), "-c", "copy", "-movflags",
                    "+faststart", str(folder / "run.mp4")])
        for p in (*parts, lst):
            p.unlink()
    elif shape == "mp4_webcam_first":  # a 160x120 webcam as stream 0, the game as stream 1
        vc._ffmpeg([*_raw("30"), "-f", "lavfi", "-i",
                    "testsrc2=size=160x120:rate=30:duration=24", "-map", "1:v", "-map", "0:v",
                    *_X264, "-preset", "veryfast", "-g", "60", "-movflags", "+faststart",
                    str(folder / "run.mp4")], vc.Script(frames=SECONDS * 30))
    make_agent_log(folder / "agent-log.jsonl", 40, 14)
    return folder


_TRUTH13 = s13.truth_codes


def truth_codes(video: Path, box: tuple[int, int]) -> tuple[list[int], list[float]]:
    """Session 13's truth (ffmpeg's decode of stream v:0), from the game's stream (v:1) in
    the webcam-first file: the workstation must show what ffmpeg shows by default (the
    largest picture), the game."""
    if video.parent.name != "mp4_webcam_first":
        return _TRUTH13(video, box)
    tmp = video.parent / "game-only.mp4"
    if not tmp.exists():
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", str(video), "-map", "0:v:1", "-c",
                        "copy", str(tmp)], check=True)
    return _TRUTH13(tmp, box)


s13.VIDEO_SHAPES, s13.build_video, s13.truth_codes = VIDEO_SHAPES, build_video, truth_codes


# -- issue 12: the scan on inserted stretches (HEVC in MPEG-TS, 24 fps, AAC) -------------------
SCAN_TRUTH = {"video.frozen": 3.3, "video.black": 13.7, "video.cut": 22.45,
              "video.timestamp_gap": 33.2}


def check_scan() -> dict:
    import video_corpus as vc

    from moderator_app.core.samples.community import make_agent_log

    fps = 24
    folder = CACHE / "video" / "scan_hevc_ts_24"
    video = folder / "run.ts"
    if not video.exists():
        folder.mkdir(parents=True, exist_ok=True)

        def f(t: float) -> int:
            return round(t * fps)

        script = vc.Script(frames=50 * fps, fps=fps, frozen=(f(3.3), f(7.1)),
                           black=(f(13.7), f(15.2)), cut=f(22.45))
        vf = f"select='not(between(n\\,{f(33.2)}\\,{f(34.0) - 1}))'"
        vc._ffmpeg([*_raw(str(fps)), "-f", "lavfi", "-i",
                    "sine=frequency=330:duration=50:sample_rate=44100", "-map", "0:v",
                    "-map", "1:a", "-vf", vf, "-fps_mode", "passthrough", "-c:v", "libx265",
                    "-preset", "veryfast", "-pix_fmt", "yuv420p", "-x265-params",
                    "keyint=48:log-level=error", "-c:a", "aac", "-f", "mpegts", str(video)],
                   script)
        make_agent_log(folder / "agent-log.jsonl", 100, 16, min_duration_s=45.0)
    r = subprocess.run([*LIMIT, "/usr/bin/time", "-f", "%e %M", *CLI, "verify", str(folder),
                        "--scan", "--json", "--offset", "1.0"], capture_output=True, text=True)
    rep = json.loads(r.stdout)
    scan = rep.get("video_scan") or {}
    found = [{k: f.get(k) for k in ("severity", "rule", "start_s", "end_s")}
             for f in scan.get("findings", [])]
    judged = {}
    for rule, t in SCAN_TRUTH.items():
        errs = [abs(f["start_s"] - t) for f in found if f["rule"] == rule]
        judged[rule] = None if not errs else round(min(errs), 3)
    return {"exit": r.returncode, "time_rss": r.stderr.strip().splitlines()[-1:],
            "truth_start_s": SCAN_TRUTH, "errors_s": judged,
            "other": [f for f in found if f["rule"] not in SCAN_TRUTH], "found": found,
            "ffprobe_frames": vc.ffprobe_frames(video),
            "report_frames": (rep.get("video") or {}).get("frame_count"),
            "report_duration_s": (rep.get("video") or {}).get("duration_s"),
            "met": all(e is not None and e <= 0.5 for e in judged.values())}


def check_budget() -> list[dict]:
    """verify --scan-budget on a 60 fps run: a budget far below the scan's CPU stops it
    (video.scan_stopped, video_scan.complete false, 'STOPPED'), nothing cached: the next scan
    without a budget is whole."""
    folder = build_sync_run("montezuma_revenge-genuine@r60vp8jit")
    rows = []
    for budget in ("0.05", "0", None):
        cmd = [*CLI, "verify", str(folder), "--scan", "--json", "--offset", "0.8"]
        if budget is not None:
            cmd += ["--scan-budget", budget]
        r = subprocess.run([*LIMIT, *cmd], capture_output=True, text=True)
        rep = json.loads(r.stdout) if r.stdout.startswith("{") else {}
        scan = rep.get("video_scan") or {}
        txt = subprocess.run([c for c in cmd if c != "--json"], capture_output=True,
                             text=True).stdout
        rows.append({"budget": budget, "exit": r.returncode, "complete": scan.get("complete"),
                     "notes": [(f.get("severity"), f["rule"], f.get("message", "")[:160])
                               for f in rep.get("findings", [])
                               if f["rule"].startswith("video.scan")],
                     "frames_scanned": scan.get("frames") or scan.get("frame_count"),
                     "text_says_stopped": "STOPPED" in txt, "stderr": r.stderr[-200:]})
        print(json.dumps(rows[-1]), flush=True)
    return rows


# -- issue 15: TMPDIR, concurrent writers -----------------------------------------------------
def check_tmpdir() -> list[dict]:
    """r06: a video inside a zip (copied out for the decoder) with TMPDIR at a regular file, a
    missing folder, a name holding ESC/BEL: a clean answer (or a clean error, exit 2), no
    traceback, no raw control character, nothing left behind."""
    import os

    import qa_hostile_s14 as qh
    from hostile_corpus import RAW_CONTROL

    root = CACHE / "hostile"
    qh.cases(root)
    z = root / "r06_video_in.zip"
    if not z.exists():
        import zipfile

        with zipfile.ZipFile(z, "w") as zf:
            zf.write(qh.SAMPLE / "agent-log.jsonl", "agent-log.jsonl")
            zf.write(qh.SAMPLE / "video.mp4", "video.mp4", zipfile.ZIP_STORED)
    afile = root / "r06_tmp_is_a_file"
    afile.write_bytes(b"x")
    esc = root / "r06_tmp_\x1b]0;pwn\x07"
    esc.mkdir(exist_ok=True)
    rows = []
    for tag, tmpdir in (("file", afile), ("missing", root / "r06_none" / "t"), ("esc", esc)):
        for cmd in (["verify", str(z), "--json", "--scan"],
                    ["frame", str(z), "--line", "5", "--offset", "0", "-o",
                     str(root / f"r06_{tag}.png")],
                    ["decide", str(z), "--accept", "--reviewer", "qa", "--store",
                     str(root / "r06.sqlite3")]):
            env = {**os.environ, "TMPDIR": str(tmpdir)}
            r = subprocess.run(["prlimit", "--as=536870912", "timeout", "60", *CLI, *cmd],
                               capture_output=True, text=True, env=env)
            both = r.stdout + r.stderr
            rows.append({"tmpdir": tag, "cmd": cmd[0], "exit": r.returncode,
                         "traceback": "Traceback" in both,
                         "raw_control": sorted({hex(ord(c)) for c in RAW_CONTROL if c in both}),
                         "left_in_esc_dir": [p.name for p in esc.iterdir()],
                         "out": (r.stdout[:160] if cmd[0] != "verify" else
                                 str(json.loads(r.stdout).get("verdict")) if
                                 r.stdout.startswith("{") else r.stdout[:160]),
                         "err": r.stderr[-240:]})
            print(json.dumps(rows[-1]), flush=True)
    return rows


def check_race(n: int = 8, rounds: int = 10) -> dict:
    """r07: `n` concurrent `decide`s into one new ledger (all recorded, chain intact), and
    `rounds` of two concurrent `claim`s of the same submission by two reviewers (one wins)."""
    import os

    import qa_hostile_s14 as qh

    root = CACHE / "race"
    shutil_rm(root)
    root.mkdir(parents=True)
    store = root / "ledger.sqlite3"
    procs = [subprocess.Popen([*CLI, "decide", str(qh.SAMPLE), "--accept", "--reviewer",
                               f"qa{i}", "--store", str(store)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for i in range(n)]
    outs = [(p.wait(), p.stderr.read()) for p in procs]
    ver = subprocess.run([*CLI, "decisions", "verify", "--store", str(store)],
                         capture_output=True, text=True)
    lst = subprocess.run([*CLI, "decisions", "list", "--store", str(store)],
                         capture_output=True, text=True)
    wins = []
    for k in range(rounds):
        sub = root / f"sub{k}"
        sub.mkdir()
        for m in ("agent-log.jsonl", "video.mp4"):
            os.link(qh.SAMPLE / m, sub / m)
        cs = [subprocess.Popen([*CLI, "claim", str(sub), "--reviewer", who, "--minutes", "30",
                                "--store", str(root / "claims.sqlite3")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
              for who in ("alice", "bob")]
        res = [(c.wait(), c.stdout.read()[-200:], c.stderr.read()[-200:]) for c in cs]
        wins.append(res)
    one_winner = sum(sum(r[0] == 0 for r in res) == 1 for res in wins)
    out = {"decide_exits": [o[0] for o in outs],
           "decide_errors": [o[1][-200:] for o in outs if o[0] != 0],
           "verify_exit": ver.returncode, "verify": (ver.stdout + ver.stderr)[-300:],
           "listed_lines": len(lst.stdout.strip().splitlines()),
           "claim_rounds_with_one_winner": one_winner, "claim_rounds": rounds,
           "claim_sample": wins[:2],
           "traceback": any("Traceback" in o[1] for o in outs) or
           any("Traceback" in r[2] for res in wins for r in res)}
    print(json.dumps(out), flush=True)
    return out


#: the hostile inputs opened in the workstation (gui-hostile)
GUI_HOSTILE = ("r01_seq_true", "r02_line_separators", "r03_log_environ", "r03_video_zero",
               "r03_video_is_dir", "r04_wide", "r05_bzip2_newlines.zip", "r05_method93.zip")


def gui_select(path: Path, lines: list[int]) -> dict:
    """Open `path` in the window (offscreen), then select each of `lines` and turn the event
    loop for 3 s: the longest single turn (a rendering bomb freezes it), peak memory."""
    import resource
    import time

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from moderator_app.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    out = CACHE / "gui-select-tmp"
    out.mkdir(parents=True, exist_ok=True)
    win = MainWindow(settings=QSettings(str(out / "s.ini"), QSettings.Format.IniFormat),
                     store_path=out / "g.sqlite3")
    win.resize(1280, 720)
    win.show()
    win.open_paths([path])

    def spin(cond, guard: float) -> tuple[bool, float]:
        end, worst = time.monotonic() + guard, 0.0
        while not cond():
            a = time.monotonic()
            app.processEvents()
            worst = max(worst, time.monotonic() - a)
            time.sleep(0.01)
            if time.monotonic() > end:
                return False, worst
        return True, worst

    t0 = time.monotonic()
    ok, w = spin(lambda: win.session.result is not None and not win.is_verifying(), 120)
    res: dict = {"input": path.name, "verified": ok, "verified_s": round(time.monotonic() - t0, 2),
                 "longest_turn_s": round(w, 2), "status": win.status_label.text()[:160]}
    for line in lines:
        win.select_event(win.session.result.index.row_for_line(line))
        res[f"line{line}_longest_turn_s"] = round(spin(lambda: False, 3.0)[1], 2)
    res["max_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(json.dumps(res), flush=True)
    win.shutdown()
    return res


def shutil_rm(p: Path) -> None:
    import shutil

    shutil.rmtree(p, ignore_errors=True)


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
                print(json.dumps(s13.check_sync(name)), flush=True)
            except Exception as e:  # noqa: BLE001
                print(json.dumps({"run": name, "qa_error": repr(e)[:300]}), flush=True)
    if what == "video":
        for shape in (argv[1:] or VIDEO_SHAPES):
            try:
                print(json.dumps(s13.check_video(shape)), flush=True)
            except Exception as e:  # noqa: BLE001
                print(json.dumps({"shape": shape, "qa_error": repr(e)[:300]}), flush=True)
    if what == "scan":
        print(json.dumps(check_scan()), flush=True)
    if what == "budget":
        check_budget()
    if what == "hostile":
        import qa_hostile_s14 as qh
        from qa_common import run_hostile

        run_hostile(qh, CACHE, argv[1:])
    if what == "tmpdir":
        check_tmpdir()
    if what == "race":
        check_race()
    if what == "gui-hostile":  # issue 15 in the workstation (session 13's runner, offscreen)
        import os

        s13.GUI_INPUTS = GUI_HOSTILE
        os.environ.update(QA14_TOKEN="qa14-evaluator-secret-7f3d9c")  # r03: /proc/self/environ
        s13.gui_hostile()
    if what == "gui-select":  # r10: open a submission, select lines, the longest loop turn
        gui_select(Path(argv[1]), [int(x) for x in argv[2:]] or [2, 3])
    if what == "gui-open-one":
        s13.gui_open_one(argv[1])
    if what == "gui-frames":
        for shape in (argv[1:] or VIDEO_SHAPES):
            print(json.dumps(s13.gui_frames(shape)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
