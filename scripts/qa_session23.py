"""Session 23's QA pass (docs/qa/session23.md): held-out inputs for session 23's work, run
through main, actual against expected. Heavy files go to `.cache/qa-s23/` (gitignored); nothing
here is imported by the app or the tests. Sessions 13-22's machinery (scripts/qa_session22.py
and through it qa_session10/12..21.py, qa_common.py) is reused by import. Every generator is
deterministic (fixed seeds, fixed encoder settings, `-threads 1` where the encoder has threads).

Run the product of another worktree with PYTHONPATH=/that/worktree (the CLI subprocesses and
the offscreen window inherit it; the CLI is started with `python -P`).

    .venv/bin/python scripts/qa_session23.py build [moments|joins|chain|hostile]
    .venv/bin/python scripts/qa_session23.py moments [CASE...]     # issue 11 #3 / 12: CLI side
    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/qa_session23.py gui-moments [CASE...]
    .venv/bin/python scripts/qa_session23.py joins [CASE...]       # issue 12/15: codec pairs
    .venv/bin/python scripts/qa_session23.py chain [SHAPE...]      # issue 15: held-out shapes
    .venv/bin/python scripts/qa_session23.py sync-build [RUN...]   # real-game runs (ale-py)
    .venv/bin/python scripts/qa_session23.py sync [RUN...]         # issue 13: moving screens
    .venv/bin/python scripts/qa_session23.py hostile [ID...]       # issue 15: new classes
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "scripts"), str(REPO / "bench")]
import qa_session22 as s22  # noqa: E402

from moderator_app.core.samples import payload_heldout  # noqa: E402

s10, s13, s14, s15, s19, s20, s21 = s22.s10, s22.s13, s22.s14, s22.s15, s22.s19, s22.s20, s22.s21
#: the main worktree's .cache (the brief: inputs under /work/main/.cache/qa-s23/), whichever
#: worktree runs this
CACHE = Path(subprocess.run(["git", "-C", str(REPO), "rev-parse", "--git-common-dir"],
                            capture_output=True, text=True).stdout.strip() or REPO / ".git"
             ).resolve().parent / ".cache" / "qa-s23"
for _m in (s22, s10, s13, s14, s15, s22.s12, s22.s16, s22.s17, s22.s18, s19, s20, s21):
    _m.CACHE = CACHE
CLI = s22.CLI
_run, _verify, _frame_code, _rows = s22._run, s22._verify, s22._frame_code, s22._rows
_TIME_KEYS = s22._TIME_KEYS


def _ff(args: list[str], out: Path) -> Path:
    """ffmpeg ARGS OUT, once (written to a .part then renamed: an interrupted build redoes it)."""
    if out.exists():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    part = out.with_name(out.name + ".part")
    subprocess.run(["ffmpeg", "-nostdin", "-hide_banner", "-v", "error", "-y", *args,
                    "-f", _FMT[out.suffix], str(part)], check=True)
    part.rename(out)
    return out


_FMT = {".mkv": "matroska", ".mp4": "mp4", ".webm": "webm", ".mov": "mov", ".ts": "mpegts",
        ".mpg": "mpeg", ".avi": "avi", ".nut": "nut"}
_SRC = "testsrc2=size=320x240:rate={fps}:duration={d}"
_TONE = "sine=frequency={hz}:duration={d}:sample_rate=48000"
_X264 = ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-threads", "1"]


def _log(d: Path, seconds: float, seed: int, events: int = 60) -> None:
    from moderator_app.core.samples.community import make_agent_log

    if not (d / "agent-log.jsonl").exists():
        make_agent_log(d / "agent-log.jsonl", events, seed, min_duration_s=seconds)


# -- 1. moments (issue 11 #3, 12 #3): the untimed findings' times -----------------------------
#: case -> (offset, {rule: (expected video_start_s, expected video_end_s or None)}, tolerance s)
MOMENTS = {
    # 30 fps for 0-10 s, 15 fps for 10-20 s, 30 fps for 20-30 s (H.264 in MKV; each frame's
    # pts kept): the first interval that differs starts at the frame at 10.0 s
    "m23_vfr_steps_mkv": (0.0, {"video.variable_rate": (10.0, 20.0)}, 1 / 30),
    # 30 s of 25 fps H.264 in MP4, moov at the front (+faststart), cut at 55 % of its bytes:
    # the index promises 30 s; the file holds the frames up to truth.json's `readable_end_s`
    "m23_trunc_mp4_faststart": (0.0, {"video.truncated": ("readable_end_s", 30.0)}, 0.04),
    # 30 s of 30 fps VP9 + Opus in WebM cut at 60 %: where readable footage ends
    "m23_trunc_webm": (0.0, {"video.truncated": ("readable_end_s", None)}, 1 / 30),
    # 24 s of 30 fps H.264 (stream 0, the game) + a second video stream (320x180 MPEG-4, a
    # webcam) present only from 6.0 to 14.0 s, in MKV
    "m23_two_streams_mkv": (0.0, {"video.several_streams": (6.0, 14.0)}, 1 / 30),
    # 72 blocks of 7 s at 25 fps: 1 s of footage then 6 s with no frame: 71 gaps, gap k from
    # 7k + 1.0 to 7k + 7.0 s; the 51st (k = 50) from 351.0 s, the last (k = 70) to 497.0 s
    "m23_gaps71_mkv": (0.0, {"video.footage_gap": (351.0, 497.0)}, 0.04),
    # 20 s of 25 fps H.264 in MKV whose Segment Info Duration and the track's DURATION tag
    # are patched to 45.0 s
    "m23_header_lies_mkv": (0.0, {"video.header_mismatch": (20.0, 45.0)}, 0.04),
    # the no-footage sound case: VP9 + Opus (a 440 Hz tone the whole 30 s) in WebM, 30 fps,
    # frames 360-569 dropped: a 7.0 s footage gap 12.0-19.0 s with the tone going on
    "m23_gap_tone_webm": (0.0, {"video.footage_gap": (12.0, 19.0)}, 1 / 30),
    # the shading case: H.264 MKV 320x240 25 fps 0-12 s with frames 100-249 dropped (a 6.0 s
    # footage gap 4.0-10.0 s), `cat` with an H.264 MKV 400x300 of 12 s (frames 300-599): the
    # second recording decoded with the first's parameters, 12.0-24.0 s without footage
    "m23_gap_then_join_mkv": (0.0, {"video.footage_gap": (4.0, 10.0),
                                    "video.joined_undecodable": (12.0, 24.0)}, 0.04),
}


def _patch_mkv_duration(path: Path, seconds: float) -> None:
    """Set a Matroska's Segment Info Duration (EBML 0x4489, an 8-byte float in TimecodeScale
    units, ms by default) to `seconds`."""
    import struct

    data = bytearray(path.read_bytes())
    at = data.find(b"\x44\x89")
    if at < 0:
        raise ValueError("no Duration element")
    size = data[at + 2]
    if size == 0x88:
        data[at + 3:at + 11] = struct.pack(">d", seconds * 1000.0)
    elif size == 0x84:
        data[at + 3:at + 7] = struct.pack(">f", seconds * 1000.0)
    else:
        raise ValueError(f"Duration size byte {size:#x}")
    tag = data.find(b"00:00:20.000000000")  # the video track's DURATION tag, the same lie
    if tag >= 0:
        data[tag:tag + 18] = b"00:00:45.000000000"
    path.write_bytes(bytes(data))


def _readable_end(path: Path) -> dict:
    """What ffmpeg decodes of a (truncated) file: frames and the end of the last one (its pts
    plus one frame)."""
    r = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                        "frame=best_effort_timestamp_time,duration_time", "-of", "json",
                        str(path)], capture_output=True, text=True)
    frames = json.loads(r.stdout or "{}").get("frames", [])
    ts = [float(f["best_effort_timestamp_time"]) for f in frames
          if f.get("best_effort_timestamp_time") not in (None, "N/A")]
    if not ts:
        return {"frames": 0, "readable_end_s": None}
    step = float(np.median(np.diff(ts))) if len(ts) > 1 else 0.0
    return {"frames": len(ts), "last_pts_s": max(ts), "readable_end_s": round(max(ts) + step, 4)}


def build_moment(case: str) -> Path:  # noqa: C901, PLR0915 - one recipe per case
    d = CACHE / "moments" / case
    d.mkdir(parents=True, exist_ok=True)
    if case == "m23_vfr_steps_mkv":
        # frame n of a 30 fps source kept unless 300 <= n < 600 and n odd: 15 fps 10-20 s
        _ff(["-f", "lavfi", "-i", _SRC.format(fps=30, d=30), "-vf",
             "select='not(between(n\\,300\\,599)*mod(n\\,2))'", "-fps_mode", "passthrough",
             *_X264, "-g", "60"], d / "video.mkv")
        _log(d, 28.0, 231)
    elif case == "m23_trunc_mp4_faststart":
        whole = CACHE / "parts" / "m23_trunc_whole.mp4"
        _ff(["-f", "lavfi", "-i", _SRC.format(fps=25, d=30), *_X264, "-g", "50",
             "-movflags", "+faststart"], whole)
        out = d / "video.mp4"
        if not out.exists():
            b = whole.read_bytes()
            out.write_bytes(b[:int(len(b) * 0.55)])
        _log(d, 28.0, 232)
    elif case == "m23_trunc_webm":
        whole = CACHE / "parts" / "m23_trunc_whole.webm"
        _ff(["-f", "lavfi", "-i", _SRC.format(fps=30, d=30), "-f", "lavfi", "-i",
             _TONE.format(hz=550, d=30), "-map", "0:v", "-map", "1:a", "-c:v", "libvpx-vp9",
             "-deadline", "realtime", "-cpu-used", "8", "-b:v", "600k", "-g", "60",
             "-threads", "1", "-c:a", "libopus", "-b:a", "48k"], whole)
        out = d / "video.webm"
        if not out.exists():
            b = whole.read_bytes()
            out.write_bytes(b[:int(len(b) * 0.60)])
        _log(d, 28.0, 233)
    elif case == "m23_two_streams_mkv":
        _ff(["-f", "lavfi", "-i", _SRC.format(fps=30, d=24), "-itsoffset", "6", "-f", "lavfi",
             "-i", "testsrc=size=320x180:rate=30:duration=8", "-map", "0:v", "-map", "1:v",
             "-c:v:0", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-g", "60",
             "-c:v:1", "mpeg4", "-q:v:1", "5", "-threads", "1",
             "-metadata:s:v:1", "title=webcam"], d / "video.mkv")
        _log(d, 22.0, 234)
    elif case == "m23_gaps71_mkv":
        _ff(["-f", "lavfi", "-i", _SRC.format(fps=25, d=504), "-vf",
             "select='lt(mod(n\\,175)\\,25)'", "-fps_mode", "passthrough", *_X264, "-g", "25"],
            d / "video.mkv")
        _log(d, 60.0, 235)
    elif case == "m23_header_lies_mkv":
        out = d / "video.mkv"
        if not out.exists():
            tmp = CACHE / "parts" / "m23_header_lies.mkv"
            _ff(["-f", "lavfi", "-i", _SRC.format(fps=25, d=20), *_X264, "-g", "50"], tmp)
            b = CACHE / "parts" / "m23_header_lies_patched.mkv"
            b.write_bytes(tmp.read_bytes())
            _patch_mkv_duration(b, 45.0)
            b.rename(out)
        _log(d, 18.0, 236)
    elif case == "m23_gap_tone_webm":
        _ff(["-f", "lavfi", "-i", _SRC.format(fps=30, d=30), "-f", "lavfi", "-i",
             _TONE.format(hz=440, d=30), "-map", "0:v", "-map", "1:a", "-vf",
             "select='not(between(n\\,360\\,569))'", "-fps_mode", "passthrough",
             "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "600k",
             "-g", "60", "-threads", "1", "-c:a", "libopus", "-b:a", "48k"], d / "video.webm")
        _log(d, 28.0, 237)
    elif case == "m23_gap_then_join_mkv":
        out = d / "video.mkv"
        if not out.exists():
            pdir = CACHE / "parts"
            pdir.mkdir(parents=True, exist_ok=True)
            a = s21._part(pdir / "m23_gj_a.mkv", [
                "-vf", "select='not(between(n\\,100\\,249))'", "-fps_mode", "passthrough",
                *_X264, "-bf", "2", "-g", "50", "-f", "matroska"], 0, 300, "25")
            b = s21._part(pdir / "m23_gj_b.mkv", [
                "-vf", "pad=400:300:0:0:0x303030", *_X264, "-bf", "2", "-g", "50",
                "-f", "matroska"], 300, 300, "25")
            part = out.with_name("video.mkv.part")
            part.write_bytes(a.read_bytes() + b.read_bytes())
            part.rename(out)
        import qa_hostile_s20 as h20
        h20._with_sample_log(d)
    else:
        raise ValueError(case)
    video = next(p for p in d.glob("video.*") if not p.name.endswith(".part"))
    truth = d / "truth.json"
    if not truth.exists():
        t = {"ffprobe_frames": _readable_end(video)}
        truth.write_text(json.dumps(t))
    return d


def check_moments(case: str) -> dict:
    """`verify --json --scan --offset OFFSET`: the case's rule's findings, their time keys
    against the truth (a start within `tol`; a end within `tol` where one is expected)."""
    d = build_moment(case)
    offset, rules, tol = MOMENTS[case]
    truth = json.loads((d / "truth.json").read_text())
    t0 = time.monotonic()
    code, rep, err = _verify(d, "--scan", "--offset", str(offset))
    wall = round(time.monotonic() - t0, 1)
    rows = {}
    for rule, (a, b) in rules.items():
        if a == "readable_end_s":
            a = truth["ffprobe_frames"]["readable_end_s"]
        fs = [f for f in rep.get("findings", []) if f.get("rule") == rule]
        got = []
        for f in fs:
            keys = {k: f[k] for k in _TIME_KEYS if k in f}
            s = f.get("video_start_s", f.get("video_s"))
            e = f.get("video_end_s")
            got.append({**keys, "start_err_s": None if s is None or a is None else round(s - a, 3),
                        "end_err_s": None if e is None or b is None else round(e - b, 3),
                        "message": f.get("message", "")[:160]})
        judged = got[-1:] if rule == "video.footage_gap" else got  # the summary is the last
        met = bool(judged) and all(g["start_err_s"] is not None and abs(g["start_err_s"]) <= tol
                                   and (g["end_err_s"] is None or abs(g["end_err_s"]) <= tol)
                                   for g in judged)
        rows[rule] = {"truth": [a, b], "n": len(fs), "got": got if len(got) <= 3 else
                      [got[0], "...", got[-2], got[-1]], "met": met}
    return {"case": case, "exit": code, "wall_s": wall, "verdict": rep.get("verdict"),
            "duration_s": (rep.get("video") or {}).get("duration_s"),
            "frames": (rep.get("video") or {}).get("frame_count"), "truth": truth,
            "stderr": err if not rep else "", "rules": rows,
            "untimed_video": [f["rule"] for f in rep.get("findings", [])
                              if str(f.get("rule", "")).startswith("video.")
                              and not any(k in f for k in _TIME_KEYS)],
            "met": all(r["met"] for r in rows.values())}


def gui_moments(case: str) -> dict:
    """Mo-b and the shading: the offscreen window opens the case at its offset; the timeline's
    no-footage spans before any click (its public state and a picture of it); then each
    finding selected through `window.nav.select_finding(i)` and where the playhead lands
    (`player.current_time`, video time; `player.in_footage`) against the JSON's time."""
    import qa_gui_s10 as g10
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from moderator_app.ui.main_window import MainWindow

    d = build_moment(case)
    offset, rules, tol = MOMENTS[case]
    app = QApplication.instance() or QApplication([])
    outd = CACHE / "gui" / case
    outd.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("MODERATOR_APP_CACHE", str(outd / "cache"))
    win = MainWindow(settings=QSettings(str(outd / "s.ini"), QSettings.Format.IniFormat),
                     store_path=outd / "gui.sqlite3")
    win.resize(1280, 720)
    win.show()
    win.open_paths([d])
    g10.wait(app, lambda: win.session.result is not None, 120)
    g10.wait(app, lambda: win.player.has_video and win.player.times.complete, 120)
    win.sync.spin.setValue(offset)
    g10.wait(app, lambda: win.session.report.offset == offset, 60)
    g10.wait(app, lambda: getattr(win.player, "scan_result", None) is not None, 240)
    for _ in range(40):
        app.processEvents()
        time.sleep(0.05)
    tl = win.timeline
    shading = {"footage_gaps": [tuple(round(x, 3) for x in sp) for sp in tl.footage_gaps]}
    if hasattr(tl, "no_footage_bands"):  # s23-moments' seam: the hatched bands
        shading["no_footage_bands"] = [tuple(round(x, 3) for x in sp)
                                       for sp in tl.no_footage_bands()]
        shading["no_footage"] = [(s.rule, s.start_s, s.end_s) for s in tl.no_footage]
    tl.grab().save(str(outd / "timeline-open.png"))
    win.grab().save(str(outd / "window-open.png"))
    rep = win.session.report
    rows = []
    for i, f in enumerate(list(win.findings.findings)):
        if not f.rule.startswith("video."):
            continue
        win.nav.select_finding(i)
        for _ in range(20):
            app.processEvents()
            time.sleep(0.05)
        got = win.player.current_time
        want = getattr(f, "video_start", None)
        rows.append({"i": i, "rule": f.rule, "finding_video_s": want,
                     "player_video_s": round(got, 3),
                     "in_footage": getattr(win.player, "in_footage", None),
                     "err_s": None if want is None else round(got - want, 3),
                     "message": f.message[:100]})
    win.grab().save(str(outd / "window-last-click.png"))
    win.shutdown() if hasattr(win, "shutdown") else win.close()
    judged = [r for r in rows if r["rule"] in rules]
    return {"case": case, "verdict": getattr(rep, "verdict", None), "timeline": shading,
            "timeline_png": str(outd / "timeline-open.png"), "rows": rows,
            "met_jumps": bool(judged) and all(r["err_s"] is not None and abs(r["err_s"]) <= tol
                                              for r in judged)}


def audio_gap(case: str = "m23_gap_tone_webm", t0: float = 11.0, t1: float = 20.0) -> dict:
    """No sound inside a footage gap, through the seam s23-moments' test uses (core: the
    probe's spans, `export.no_footage_spans`, `AudioFeeder` feeding a keeping `NullSink`), on
    this pass' VP9 + Opus file: the samples fed from t0 to t1 (ticks every 0.1 s, playing at
    1x), each placed on the video's clock; the loudest sample in each 0.1 s bin."""
    from moderator_app.core.video import audio
    from moderator_app.core.video.export import no_footage_spans
    from moderator_app.core.video.probe import probe_video

    d = build_moment(case)
    video = next(d.glob("video.*"))
    p = probe_video(video, video.name)
    silent = no_footage_spans(p.index, no_footage=p.no_footage)
    track = audio.AudioTrack.for_index(video, p.index)
    sink = audio.NullSink(keep=True)
    feeder = audio.AudioFeeder(track, sink, silent=silent)
    try:
        for k in range(int(round((t1 - t0) * 10)) + 1):
            feeder.tick(t0 + k / 10, True, 1.0, False)
    finally:
        feeder.close()
    # the feeder's samples run on from t0 (its test's `fed` reads them so: sample i at
    # t0 + i / RATE)
    a = np.frombuffer(bytes(sink.data), np.int16).reshape(-1, 2)
    t, amp = t0 + np.arange(a.shape[0]) / audio.RATE, np.abs(a.astype(np.int32)).max(axis=1)
    bins = {round(b / 10, 1): int(amp[(t >= b / 10) & (t < b / 10 + 0.1)].max(initial=0))
            for b in range(int(t0 * 10), int(t1 * 10))}
    inside = [v for k, v in bins.items() if 12.05 <= k < 18.95]
    before = [v for k, v in bins.items() if k < 11.95]
    after = [v for k, v in bins.items() if k >= 19.3]
    return {"case": case, "silent_spans": [list(x) for x in silent],
            "samples_fed": int(t.shape[0]), "loudest_inside": max(inside, default=None),
            "loudest_before": min(before, default=None),
            "quietest_after_19_3": min(after, default=None), "bins": bins,
            "met": bool(inside) and max(inside) == 0 and min(before) > 500
            and min(after) > 500}


# -- 2. joins of other codec pairs (issue 12/15) ----------------------------------------------
#: case -> (fps, [(frames, encoder args)], ext): each part drawn by tests/video_corpus.py
#: (frame numbers readable), 320x240, joined with `cat`
_MPEG4 = ["-c:v", "mpeg4", "-q:v", "3", "-pix_fmt", "yuv420p"]
_VP9 = ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "800k",
        "-pix_fmt", "yuv420p"]
_HEVC = ["-c:v", "libx265", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
JOINS = {
    "j23_h264_then_mpeg4_mkv_25": (25, [(75, [*_X264, "-bf", "2", "-g", "50"]),
                                        (525, [*_MPEG4, "-g", "50"])], "mkv"),
    "j23_vp9_then_h264_mkv_30": (30, [(60, [*_VP9, "-g", "60", "-threads", "1"]),
                                      (660, [*_X264, "-bf", "3", "-g", "60"])], "mkv"),
    "j23_hevc_then_h264_mkv_25": (25, [(75, [*_HEVC, "-x265-params",
                                             "keyint=50:bframes=3:log-level=error"]),
                                       (525, [*_X264, "-bf", "2", "-g", "50"])], "mkv"),
    "j23_mpeg4bf2_then_h264_mkv_30": (30, [(90, [*_MPEG4, "-bf", "2", "-g", "60"]),
                                           (630, [*_X264, "-bf", "3", "-g", "60"])], "mkv"),
    # added 19:58, after Q1, to tell its factors apart: no B-frames in the MPEG-4 recording;
    # no B-frames in the H.264 one
    "j23_mpeg4_then_h264bf3_mkv_30": (30, [(90, [*_MPEG4, "-g", "60"]),
                                           (630, [*_X264, "-bf", "3", "-g", "60"])], "mkv"),
    "j23_mpeg4bf2_then_h264bf0_mkv_30": (30, [(90, [*_MPEG4, "-bf", "2", "-g", "60"]),
                                              (630, [*_X264, "-bf", "0", "-g", "60"])], "mkv"),
}
JOIN_TIMES = (1.0, 2.5, 4.0, 8.0, 12.0, 16.0, 20.0, 23.5)


def build_join(case: str) -> Path:
    import qa_hostile_s20 as h20

    fps, parts, ext = JOINS[case]
    d = CACHE / "joins" / case
    d.mkdir(parents=True, exist_ok=True)
    out = d / f"video.{ext}"
    if not out.exists():
        pdir = CACHE / "parts"
        pdir.mkdir(parents=True, exist_ok=True)
        blobs, first = [], 0
        for k, (n, args) in enumerate(parts):
            p = s21._part(pdir / f"{case}-{k}.{ext}", [*args, "-f", _FMT["." + ext]], first, n,
                          str(fps))
            blobs.append(p.read_bytes())
            first += n
        tmp = out.with_name(out.name + ".part")
        tmp.write_bytes(b"".join(blobs))
        tmp.rename(out)
    h20._with_sample_log(d)
    return d


def check_join(case: str) -> dict:
    import video_corpus as vc

    fps, parts, _ext = JOINS[case]
    d = build_join(case)
    video = next(d.glob("video.*"))
    try:
        ff = vc.ffprobe_frames(video)
    except Exception as e:  # noqa: BLE001 - a QA row
        ff = f"ffprobe failed: {e!r}"[:120]
    t0 = time.monotonic()
    code, rep, err = _verify(d, "--scan", "--offset", "0")
    wall = round(time.monotonic() - t0, 1)
    v = rep.get("video") or {}
    pics = []
    for t in JOIN_TIMES:
        ex, got, size = _frame_code(d, (320, 240), "--time", str(t), "--offset", "0")
        want = math.floor(t * fps + 1e-6)
        pics.append({"t": t, "want": want, "got": got, "exit": ex, "size": size,
                     "ok": got is not None and abs(got - want) <= 1})
    text = " ".join(f.get("message", "") for f in rep.get("findings", []))
    import re
    joined_n = sorted({int(m) for m in re.findall(r"of the (\d+) joined", text)} |
                      {int(m) for m in re.findall(r"(\d+) recordings joined", text)})
    finds = [(f.get("severity"), f.get("rule"), [f.get(k) for k in _TIME_KEYS if k in f],
              f.get("message", "")[:160]) for f in rep.get("findings", [])
             if str(f.get("rule", "")).split(".")[0] in ("video", "coverage")]
    join_s = parts[0][0] / fps
    total_s = sum(p[0] for p in parts) / fps
    spans = [f for f in rep.get("findings", []) if f.get("rule") == "video.joined_undecodable"]
    one_span = (len(spans) == 1 and abs(spans[0].get("video_start_s", -9) - join_s) <= 1 / fps
                and abs(spans[0].get("video_end_s", -9) - total_s) <= 1 / fps)
    shown_wrong = [p for p in pics if p["got"] is not None and not p["ok"]]
    return {"case": case, "exit": code, "wall_s": wall, "verdict": rep.get("verdict"),
            "ffprobe_frames": ff, "report_frames": v.get("frame_count"),
            "duration_s": v.get("duration_s"), "truth_duration_s": total_s, "join_s": join_s,
            "recordings_named": joined_n, "one_span_join_to_end": one_span,
            "pictures": pics, "shown_wrong": len(shown_wrong), "findings": finds,
            "stderr": err if not rep else "",
            "met": (joined_n in ([], [2]) and (one_span or (rep.get("verdict") == "PASS"
                                                            and not shown_wrong))
                    and v.get("frame_count") == ff
                    and not (rep.get("verdict") == "PASS" and shown_wrong))}


# -- 3. the chain on held-out payload shapes (issue 15) ---------------------------------------
# (the generators moved to payload_shapes in session 24, unchanged: the bench runs them too;
# in payload_heldout since session 40)
CHAIN_SHAPES = {"html": payload_heldout.html_payload, "boolgrid": payload_heldout.boolgrid_payload}
CHAIN_EVENTS = 120_000


def build_chain(shape: str) -> Path:
    """An official trajectory of CHAIN_EVENTS ~1.4 KB events in a held-out shape (the bench's
    own writer: trajectory_writer with its payload hook pointed at this shape)."""
    import moderator_app.core.samples.trajectory_writer as tw

    d = CACHE / "chain" / shape
    path = d / "events.jsonl.zst"
    if path.exists():
        return d
    d.mkdir(parents=True, exist_ok=True)
    fn = CHAIN_SHAPES[shape]
    orig = tw.shaped_payload
    tw.shaped_payload = lambda s, rng, size: fn(rng, size)
    try:
        evs = tw.make_run_events(CHAIN_EVENTS, seed=23, text_bytes=1270, variety=0.15,
                                 shape=shape)
    finally:
        tw.shaped_payload = orig
    part = d / "events.jsonl.zst.part"
    tw.write_trajectory(part, evs, frames=4, compress=True)
    part.rename(path)
    return d


def check_chain(shape: str, repeat: int = 3) -> dict:
    """The floor (zstd + SHA-256 over the file, one core, bench_chain.floor) and `verify
    --json` (bench/_common.timed_verify: wall, CPU of the process tree, the main process' own
    CPU), interleaved, best of `repeat`; the two engines' reports compared."""
    import bench_chain as bc
    from _common import timed_verify

    d = build_chain(shape)
    path = d / "events.jsonl.zst"
    # timed_verify starts `python -c`, which puts the current directory first on sys.path:
    # from a worktree that would run the worktree's own package, not PYTHONPATH's
    os.chdir(d)
    bc.floor(path)
    floors, runs = [], []
    for _ in range(repeat):
        floors.append(bc.floor(path))
        t, rss, rc, out, cpu, main = timed_verify(["verify", "--json", str(d)])
        runs.append((t, cpu, main, rss, rc))
    rep = json.loads(out)
    r0 = subprocess.run([*CLI, "verify", "--json", str(d)], capture_output=True,
                        env={**os.environ, "MODERATOR_APP_NATIVE": "0"})
    fw, fc = min(f[0] for f in floors), min(f[2] for f in floors)
    vw, vc_, vm = min(r[0] for r in runs), min(r[1] for r in runs), min(r[2] for r in runs)
    load = os.getloadavg()[0]
    return {"shape": shape, "uncompressed_mb": round(floors[0][1] / 1e6, 1),
            "floor_wall_s": round(fw, 3), "floor_cpu_s": round(fc, 3),
            "verify_wall_s": round(vw, 3), "verify_cpu_s": round(vc_, 3),
            "verify_main_cpu_s": round(vm, 3), "peak_rss_mib": round(max(r[3] for r in runs)),
            "wall_ratio": round(vw / fw, 2), "cpu_ratio": round(vc_ / fc, 2),
            "main_cpu_ratio": round(vm / fc, 2), "load1": round(load, 1),
            "verdict": rep.get("verdict"), "events": rep.get("events"), "exit": runs[0][4],
            "engines_identical": r0.stdout == out, "pure_exit": r0.returncode}


# -- 4. real-game runs on moving screens (issue 13) -------------------------------------------
def carnival(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Carnival (rows of targets slide across on their own; LEFT/RIGHT move the gun, FIRE
    shoots)."""
    r = rng.random()
    if r < 0.45:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(5, 12))]
    if r < 0.8:
        return [("FIRE", rng.randint(3, 6))]
    return [(rng.choice(("LEFTFIRE", "RIGHTFIRE")), rng.randint(4, 8))]


def up_n_down(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Up'n Down (the road scrolls on its own; UP/DOWN change the buggy's speed, FIRE jumps)."""
    r = rng.random()
    if r < 0.6:
        return [(rng.choice(("UP", "DOWN")), rng.randint(6, 14))]
    return [("FIRE", rng.randint(3, 6))]


GAMES23 = {"carnival": (carnival, 231), "up_n_down": (up_n_down, 233)}
#: a recorder no corpus set or QA pass used: 25 fps MPEG-2 (GOP 12, 2 B-frames) in MPEG-PS with
#: MP2 sound (a 500 Hz tone), x2 nearest; 1.7 s lead-in
RECORDERS23 = {"r25mpeg2ps": {"fps": 25, "scale": 2, "lead_s": 1.7, "container": "mpg",
                              "codec": "mpeg2ps25"}}
SYNC_RUNS = [f"{g}-{k}@r25mpeg2ps" for g in GAMES23 for k in ("genuine", "cut", "insert")]
_ENCODE20 = s14._encode


def _encode(frames: np.ndarray, folder: Path, rec) -> Path:
    if getattr(rec, "codec", "") != "mpeg2ps25":
        return _ENCODE20(frames, folder, rec)
    h, w = frames.shape[1:3]
    path = folder / rec.video_name
    cmd = ["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
           "rgb24", "-s", f"{w}x{h}", "-r", "25", "-i", "-", "-f", "lavfi", "-i",
           "sine=frequency=500:sample_rate=48000", "-map", "0:v", "-map", "1:a", "-shortest",
           "-vf", f"scale={w * rec.scale}:{h * rec.scale}:flags=neighbor",
           "-c:v", "mpeg2video", "-q:v", "3", "-g", "12", "-bf", "2", "-pix_fmt", "yuv420p",
           "-threads", "1", "-c:a", "mp2", "-b:a", "128k", "-f", "mpeg", str(path)]
    subprocess.run(cmd, input=np.ascontiguousarray(frames).tobytes(), check=True)
    return path


def _sync_setup() -> None:
    s14._encode = _encode
    s14.GAMES = {**s14.GAMES, **GAMES23}
    s14.RECORDERS = {**s14.RECORDERS, **RECORDERS23}


def build_sync_run(name: str) -> Path:
    _sync_setup()
    return s19.build_sync_run(name)


def check_sync(name: str) -> dict:
    _sync_setup()
    res = s22.check_sync(name)
    folder = CACHE / "sync" / name
    res["video_frames"] = (_verify(folder)[1].get("video") or {}).get("frame_count")
    try:
        import video_corpus as vc
        res["ffprobe_frames"] = vc.ffprobe_frames(next(folder.glob("video.*")))
    except Exception as e:  # noqa: BLE001
        res["ffprobe_frames"] = repr(e)[:100]
    return res


# -- 5. hostile inputs of classes no pass used -------------------------------------------------
def hostile_module():
    import qa_hostile_s23
    return qa_hostile_s23


def main(argv: list[str]) -> int:  # noqa: C901 - one dispatch table
    what, rest = (argv[0] if argv else ""), argv[1:]
    if what == "build":
        kinds = rest or ["moments", "joins", "chain"]
        if "moments" in kinds:
            _rows(lambda c: {"case": c, "folder": str(build_moment(c)),
                             "truth": json.loads((build_moment(c) / "truth.json").read_text())},
                  list(MOMENTS), "case")
        if "joins" in kinds:
            _rows(lambda c: {"case": c, "folder": str(build_join(c))}, list(JOINS), "case")
        if "chain" in kinds:
            _rows(lambda s: {"shape": s, "folder": str(build_chain(s))}, list(CHAIN_SHAPES),
                  "shape")
        if "hostile" in kinds:
            print(json.dumps([c for c, _ in hostile_module().cases(CACHE / "hostile")]))
    elif what == "moments":
        _rows(check_moments, rest or list(MOMENTS), "case")
    elif what == "audio":
        _rows(audio_gap, rest or ["m23_gap_tone_webm"], "case")
    elif what == "gui-moments":
        _rows(gui_moments, rest or list(MOMENTS), "case")
    elif what == "walk":  # OUT W H: s13's walk on two of this pass' real-game runs
        import qa_walk_s13_review as w13
        import qa_walk_s14 as w14
        w14.RUNS = CACHE / "sync"
        w14.PICK = {"carnival-mpeg2ps-25-insert": "carnival-insert@r25mpeg2ps",
                    "up-n-down-mpeg2ps-25-genuine": "up_n_down-genuine@r25mpeg2ps"}
        w13.DECISIONS = {
            "carnival-mpeg2ps-25-insert": (
                "reject", "other", "4 s of footage that the log never saw inserted", ()),
            "up-n-down-mpeg2ps-25-genuine": ("accept", "ok", "", ())}
        w13.CLI = os.environ.get("QA23_CLI", w13.CLI)
        w13.walk(Path(rest[0]), int(rest[1]), int(rest[2]))
    elif what == "joins":
        _rows(check_join, rest or list(JOINS), "case")
    elif what == "chain":
        _rows(check_chain, rest or list(CHAIN_SHAPES), "shape")
    elif what == "sync-build":
        _rows(lambda r: {"run": r, "folder": str(build_sync_run(r))}, rest or SYNC_RUNS, "run")
    elif what == "sync":
        _rows(check_sync, rest or SYNC_RUNS, "run")
    elif what == "hostile":
        import qa_common
        qa_common.CLI = CLI
        qa_common.run_hostile(hostile_module(), CACHE, rest)
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
