"""Session 16's QA pass (docs/qa/session16.md): deterministic inputs nobody on the team (nor
sessions 9-15's QA) had used, run through main, actual against expected. Heavy files go to
`.cache/qa-s16/` (gitignored); nothing here is imported by the app or the tests. Session 15's
machinery (scripts/qa_session15.py, and through it qa_session10/12/13/14.py) is reused by
import, pointed at two new games, two new recorders and new video shapes.

    .venv/bin/python scripts/qa_session16.py sync-build [RUN...]  # build the real-game runs
    .venv/bin/python scripts/qa_session16.py sync [RUN...]   # issue 13: Adventure, Kung-Fu Master
    .venv/bin/python scripts/qa_session16.py video [SHAPE...] # issue 12: new recording kinds
    .venv/bin/python scripts/qa_session16.py scan [SHAPE...]  # issue 12: inserted stretches
    .venv/bin/python scripts/qa_session16.py recheck | recheck-g4 # H1-H3 | G4 on s15/s14 runs
    .venv/bin/python scripts/qa_session16.py hostile [CASE...] # issue 15: new classes, CLI
    .venv/bin/python scripts/qa_session16.py gui-hostile DIR  # issue 15: one, in the window
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
    # 2 Mb/s) in WebM, the picture x2 (320x420; Adventure 320x500) centred in 1280x720 (a
    # browser's screen capture of a game window in a 16:9 frame); 1.1 s lead-in
    "r25vp8pb": {"fps": 25, "scale": 2, "pad": (1280, 720), "lead_s": 1.1,
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


# -- issue 15: new hostile classes, through the CLI and the workstation ------------------------
class _Hostile16:
    """New classes for the shared runner (qa_common.run_hostile): JSON's non-standard numbers
    (Python's json module reads NaN, Infinity and 1e400 as floats) in `elapsedMs`/`seq`; OSC 8
    hyperlinks and OSC 52 (a terminal's clipboard write) in an observation's text; and H7's
    leftover, 40 streams of 1080p in MPEG-TS (streams listed only while probing)."""

    MARK = "QA-S16-PRIVATE"
    SECRETS = ["qa16-evaluator-secret-c4a9"]
    ENV: dict = {}

    @staticmethod
    def cases(root: Path) -> list[tuple[str, list[list[str]]]]:
        import os

        import qa_hostile_s14 as qh

        def folder(name: str, log: bytes | None) -> Path:
            d = qh._folder(root, name, log)
            _Hostile16.ENV[name] = {"ALE_EVALUATOR_SECRET": _Hostile16.SECRETS[0]}
            return d

        def cmds(d: Path, name: str) -> list[list[str]]:
            return [["verify", str(d)], ["verify", str(d), "--json", "--scan"],
                    ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / f"{name}.pub")],
                    ["decide", str(d), "--reject", "--reason", "other", "--note",
                     "qa16 hostile", "--offset", "0"],
                    ["decisions", "verify"], ["decisions", "export", "--format", "csv",
                                              "--out", str(root / f"{name}.csv")]]

        out = []
        ev = qh._lines()
        acts = [i for i, e in enumerate(ev) if e["type"] == "action"]
        for name, key, raw in (("h16_01_elapsed_nan", "elapsedMs", "NaN"),
                               ("h16_02_elapsed_infinity", "elapsedMs", "Infinity"),
                               ("h16_03_elapsed_1e400", "elapsedMs", "1e400"),
                               ("h16_04_seq_minus_infinity", "seq", "-Infinity")):
            lines = qh._dump(ev).splitlines()
            i = acts[2]
            obj = json.loads(lines[i])
            obj[key] = "@@"
            lines[i] = json.dumps(obj, separators=(",", ":")).replace('"@@"', raw).encode()
            d = folder(name, b"\n".join(lines) + b"\n")
            out.append((name, cmds(d, name)))
        evs = [dict(e) for e in ev]
        for e in evs:
            if e["type"] == "observation":
                e["data"] = {**e["data"], "text": "see \x1b]8;;https://evil.example/x\x1b\\here"
                             "\x1b]8;;\x1b\\ \x1b]52;c;cHduZWQ=\x07 \u2067RTL\u2069 \x85 end"}
        d = folder("h16_05_osc8_osc52_observation", qh._dump(evs))
        out.append(("h16_05_osc8_osc52_observation", cmds(d, "h16_05")))
        d = root / "h16_06_ts_40x1080p"
        video = d / "video.ts"
        if not video.exists():
            d.mkdir(parents=True, exist_ok=True)
            maps = [a for _ in range(40) for a in ("-map", "0:v")]
            subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                            "testsrc2=size=1920x1080:rate=30:duration=2", *maps, "-c:v",
                            "libx264", "-preset", "ultrafast", "-crf", "40", "-threads", "1",
                            "-f", "mpegts", str(video)], check=True)
        if not (d / "agent-log.jsonl").exists():
            os.link(qh.SAMPLE / "agent-log.jsonl", d / "agent-log.jsonl")
        _Hostile16.ENV["h16_06_ts_40x1080p"] = {}
        out.append(("h16_06_ts_40x1080p", [["verify", str(d)], ["verify", str(d), "--json"],
                                           ["frame", str(d), "--line", "5", "--offset", "0",
                                            "-o", str(root / "h16_06.png")]]))
        return out


def _all_texts(win) -> str:
    """Every text the window shows: labels, editors, list/tree items, each view's model cells
    (first 400 rows), the title: what a moderator can read."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import (
        QAbstractButton,
        QAbstractItemView,
        QLabel,
        QLineEdit,
        QPlainTextEdit,
        QTextEdit,
    )

    parts = [win.windowTitle()]
    for w in win.findChildren(QLabel):
        parts.append(w.text())
    for w in win.findChildren(QAbstractButton):
        parts.append(w.text())
    for w in win.findChildren(QLineEdit):
        parts.append(w.text())
    for w in win.findChildren(QPlainTextEdit):
        parts.append(w.toPlainText())
    for w in win.findChildren(QTextEdit):
        parts.append(w.toPlainText())
    for v in win.findChildren(QAbstractItemView):
        m = v.model()
        if m is None:
            continue
        from PySide6.QtCore import QModelIndex

        try:
            cols = m.columnCount(QModelIndex())
        except TypeError:  # a list model's columnCount is private in PySide6
            cols = 1
        for r in range(min(m.rowCount(QModelIndex()), 400)):
            for c in range(cols):
                val = m.data(m.index(r, c), Qt.ItemDataRole.DisplayRole)
                if val is not None:
                    parts.append(str(val))
    return "\n".join(p for p in parts if p)


def gui_hostile(path: Path) -> dict:
    """Open `path` in the window (offscreen, 1280x720), wait for its verification, select its
    lines 1-12 in turn: the status, the longest event-loop turn, raw control characters or the
    secret in any text shown, peak memory."""
    import resource
    import time

    from hostile_corpus import RAW_CONTROL
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from moderator_app.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    out = CACHE / "gui-hostile-tmp"
    out.mkdir(parents=True, exist_ok=True)
    win = MainWindow(settings=QSettings(str(out / "s.ini"), QSettings.Format.IniFormat),
                     store_path=out / "g.sqlite3")
    win.resize(1280, 720)
    win.show()
    t0 = time.monotonic()
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

    ok, worst = spin(lambda: win.session.result is not None and not win.is_verifying(), 60)
    res: dict = {"input": path.name, "verified": ok, "verified_s": round(time.monotonic() - t0, 2),
                 "status": win.status_label.text()[:200]}
    texts = [_all_texts(win)]
    if ok and win.session.result is not None:
        for line in range(1, 13):
            try:
                row = win.session.result.index.row_for_line(line)
            except Exception as e:  # noqa: BLE001 - a QA row, not the product
                res.setdefault("row_errors", []).append(f"{line}: {e!r}"[:120])
                continue
            if row is None:
                continue
            win.select_event(row)
            worst = max(worst, spin(lambda: False, 0.4)[1])
            texts.append(_all_texts(win))
    win.grab().save(str(CACHE / f"gui-hostile-{path.name}.png"))
    both = "\n".join(texts)
    res["longest_turn_s"] = round(worst, 2)
    res["raw_control_shown"] = sorted({hex(ord(c)) for c in RAW_CONTROL if c in both})
    res["secret_shown"] = any(s in both for s in _Hostile16.SECRETS)
    res["findings_shown"] = [t[:120] for t in both.splitlines() if "video." in t or
                             "log." in t][:6]
    res["max_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(json.dumps(res), flush=True)
    win.shutdown()
    spin(lambda: False, 1.0)  # let the player's threads end before the interpreter does
    return res


def gui_decide_hostile(path: Path) -> dict:
    """The decision panel with hostile text typed in: a reviewer and a note holding OSC/CSI
    escapes, BEL, C1 CSI and bidi overrides; reject `other`; then every text the window shows
    (status line, history, labels) read for raw control characters."""
    import time

    from hostile_corpus import RAW_CONTROL
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from moderator_app.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    import shutil

    out = CACHE / "gui-decide-tmp"
    shutil.rmtree(out, ignore_errors=True)  # the ledger and its head file: a new store
    out.mkdir(parents=True)
    win = MainWindow(settings=QSettings(str(out / "s.ini"), QSettings.Format.IniFormat),
                     store_path=out / "g.sqlite3")
    win.resize(1280, 720)
    win.show()
    win.open_paths([path])
    end = time.monotonic() + 60
    while (win.session.result is None or win.is_verifying()) and time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)
    panel = win.decision_panel
    said: list[str] = []  # a modal box would block offscreen: what it would say is kept
    panel.confirm = lambda title, text: said.append(f"confirm: {text}") or True
    panel.reviewer.setText("qa\x1b]0;pwned\x07\u202eviewer\x9b2J")
    panel.reason.setCurrentIndex(panel.reason.findData("other"))
    panel.note.setPlainText("see \x1b]8;;https://evil.example\x1b\\here\x1b]8;;\x1b\\ "
                            "\x1b[2J\u2067RTL\u2069 \x85 \x07 end")
    stored = panel.decide("reject")
    for _ in range(50):
        app.processEvents()
        time.sleep(0.01)
    typed = (panel.note.toPlainText(), panel.reviewer.text())  # the editors hold what we typed
    both = _all_texts(win)
    for t in typed:
        both = both.replace(t, "") if t else both
    win.grab().save(str(CACHE / f"gui-decide-{path.name}.png"))
    res = {"input": path.name, "recorded": stored is not None,
           "status": panel.status.text()[:200], "dialogs": [t[:200] for t in said],
           "raw_control_shown": sorted({hex(ord(c)) for c in RAW_CONTROL if c in both}),
           "raw_control_in_confirmation": sorted({hex(ord(c)) for c in RAW_CONTROL
                                                  if c in "".join(said)}),
           "history": [t[:160] for t in both.splitlines() if "#1" in t][:4]}
    print(json.dumps(res), flush=True)
    win.shutdown()
    for _ in range(100):
        app.processEvents()
        time.sleep(0.01)
    return res


# -- re-checks of session 15's open items on main (H1-H3 on s15's runs, G4 on s14's) ----------
RECHECK_H1 = ["centipede-genuine@r50m2ts", "centipede-genuine3@r30av1odd"]
RECHECK_H3 = [f"{g}-{k}@r50m2ts" for g in ("centipede", "private_eye")
              for k in ("genuine", "cut", "insert", "freeze", "speed35", "deleted", "human")]


def recheck_s15(runs: list[str]) -> None:
    """Session 13's judge on session 15's built runs (read-only), as session 15 judged them."""
    s13.build_sync_run = lambda name: S15_SYNC / name
    for name in runs:
        try:
            print(json.dumps({"item": "H1-H3", **s13.check_sync(name)}), flush=True)
        except Exception as e:  # noqa: BLE001 - a QA row, not the product
            print(json.dumps({"item": "H1-H3", "run": name, "qa_error": repr(e)[:300]}),
                  flush=True)


#: issue 12's scan on inserted stretches, a shape session 15's `check_scan` had not: VP8 in
#: WebM at 25 fps with Vorbis audio; a shorter freeze (3.6 s), black 1.2 s, a 0.8 s hole
s15.SCANS["scan_vp8_webm_25"] = (
    25, {"video.frozen": 5.2, "video.black": 13.4, "video.cut": 24.36,
         "video.timestamp_gap": 33.2}, (5.2, 8.8), (13.4, 14.6), 24.36, (33.2, 34.0),
    ["-c:v", "libvpx", "-b:v", "1M", "-deadline", "realtime", "-cpu-used", "8", "-g", "250",
     "-pix_fmt", "yuv420p", "-c:a", "libvorbis", "-b:a", "64k"], "run.webm")


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
        for shape in (argv[1:] or ["scan_vp8_webm_25"]):
            print(json.dumps(s15.check_scan(shape)), flush=True)
    if what == "recheck":  # H1, H2/H3 on session 15's runs
        recheck_s15(argv[1:] or RECHECK_H1 + RECHECK_H3)
    if what == "recheck-g4":  # G4 on session 14's runs
        s15.recheck_g4(argv[1:] or s15.G4_RUNS)
    if what == "hostile":
        from qa_common import run_hostile

        run_hostile(_Hostile16, CACHE, argv[1:])
    if what == "gui-decide-hostile":
        gui_decide_hostile(Path(argv[1]))
    if what == "gui-hostile":  # one input per process (a crash is then the row's, not ours)
        gui_hostile(Path(argv[1]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
