"""Session 30's QA pass (docs/qa/session30.md): held-out inputs for session 30's work, run
through main, actual against expected. Heavy files go to `/work/main/.cache/qa-s30/`
(gitignored); nothing here is imported by the app or the tests. Sessions 13-29's machinery
(scripts/qa_session29.py and through it qa_session10/12..28.py, qa_common.py) is reused by
import. Every generator is deterministic (fixed seeds, fixed encoder settings, one thread).

Run the product of another worktree with PYTHONPATH=/that/worktree (the CLI subprocesses
inherit it; the CLI is started with `python -P`).

    .venv/bin/python scripts/qa_session30.py build [frames|cuts|small|chain|hostile]
    .venv/bin/python scripts/qa_session30.py sync-build|sync-truth|sync [RUN...]  # issue 13
    .venv/bin/python scripts/qa_session30.py holds-truth [RUN...]        # the pictures' holds
    .venv/bin/python scripts/qa_session30.py mismatch [CASE...]   # issue 13: another game's log
    .venv/bin/python scripts/qa_session30.py synccost [RUN...] [--pairs N]  # issue 13: 20 %
    .venv/bin/python scripts/qa_session30.py frames [CASE...]     # issue 12: Matroska joins
    .venv/bin/python scripts/qa_session30.py cuts [CASE...]       # issue 12: a cut by flashes
    .venv/bin/python scripts/qa_session30.py small [CASE...] [--pairs N]  # issue 12: scan
    .venv/bin/python scripts/qa_session30.py chain [SHAPE...]     # issue 15: a held-out shape
    .venv/bin/python scripts/qa_session30.py hostile [ID...]      # issue 15: new classes
    .venv/bin/python scripts/qa_session30.py s29 [T1..T9]         # QA s29's misses again
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "scripts"), str(REPO / "bench")]
import qa_session29 as s29  # noqa: E402

s28, s27, s26, s25 = s29.s28, s29.s27, s29.s26, s29.s25
s24, s23, s22, s21, s19, s14 = s29.s24, s29.s23, s29.s22, s29.s21, s29.s19, s29.s14
CACHE29 = s29.CACHE
CACHE = CACHE29.parent / "qa-s30"
s29.CACHE = s28.CACHE = s27.CACHE = s26.CACHE = s25.CACHE = s24.CACHE = s23.CACHE = CACHE
for _m in (s22, s23.s10, s23.s13, s14, s23.s15, s22.s12, s22.s16, s22.s17, s22.s18, s19,
           s23.s20, s21):
    _m.CACHE = CACHE
CLI = s22.CLI
_rows, _ff, _X264 = s22._rows, s23._ff, s23._X264


# -- 1. real-game runs (issue 13): six games and two recorders nobody used ----------------------
def backgammon(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Backgammon (a board game: **the picture holds until a button**: the joystick moves the
    cursor along the points, FIRE picks up / drops a checker; 100 % of steps unchanged at
    NOOP)."""
    r = rng.random()
    if r < 0.6:
        return [(rng.choice(("LEFT", "RIGHT", "UP", "DOWN")), rng.randint(4, 9))]
    if r < 0.88:
        return [("FIRE", rng.randint(2, 4))]
    return [("NOOP", rng.randint(6, 14))]


def video_cube(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Video Cube (a Rubik's cube puzzle: **the picture holds until a button**: the joystick
    walks the small player over the cube's face, FIRE + a direction turns a row)."""
    r = rng.random()
    if r < 0.55:
        return [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT")), rng.randint(5, 12))]
    if r < 0.85:
        return [(rng.choice(("UPFIRE", "DOWNFIRE", "LEFTFIRE", "RIGHTFIRE", "FIRE")),
                 rng.randint(2, 5))]
    return [("NOOP", rng.randint(6, 14))]


def crazy_climber(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Crazy Climber (the building **scrolls when the climber climbs**; windows open and close
    on their own; 99 % of steps unchanged at NOOP)."""
    r = rng.random()
    if r < 0.55:
        return [("UP", rng.randint(8, 20))]
    if r < 0.85:
        return [(rng.choice(("LEFT", "RIGHT", "DOWN")), rng.randint(5, 12))]
    return [("NOOP", rng.randint(4, 10))]


def gravitar(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Gravitar (a **small ship** drifting under gravity on its own, never a still step; LEFT /
    RIGHT turn it, UP thrusts, FIRE shoots, DOWN shields)."""
    r = rng.random()
    if r < 0.5:
        return [(rng.choice(("LEFT", "RIGHT", "UP", "UPLEFT", "UPRIGHT")), rng.randint(4, 10))]
    if r < 0.85:
        return [(rng.choice(("FIRE", "DOWN")), rng.randint(2, 5))]
    return [("NOOP", rng.randint(4, 10))]


def koolaid(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Kool-Aid Man (a **busy background**: the Thirsties bounce around the pool on their own,
    120 pixels a step with no input; the player runs in eight directions)."""
    r = rng.random()
    if r < 0.75:
        return [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT", "UPLEFT", "UPRIGHT", "DOWNLEFT",
                             "DOWNRIGHT")), rng.randint(5, 14))]
    if r < 0.9:
        return [("FIRE", rng.randint(2, 4))]
    return [("NOOP", rng.randint(4, 10))]


def solaris(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Solaris (space that **scrolls** with the ship's heading, enemy fleets on the sector map;
    the joystick steers, FIRE shoots)."""
    r = rng.random()
    if r < 0.6:
        return [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT", "UPLEFT", "DOWNRIGHT")),
                 rng.randint(6, 16))]
    if r < 0.9:
        return [(rng.choice(("FIRE", "UPFIRE")), rng.randint(2, 5))]
    return [("NOOP", rng.randint(4, 10))]


GAMES30 = {"backgammon": (backgammon, 313), "video_cube": (video_cube, 317),
           "crazy_climber": (crazy_climber, 331), "gravitar": (gravitar, 337),
           "koolaid": (koolaid, 347), "solaris": (solaris, 349)}
#: two recorders no corpus set or QA pass used (54 and 18 fps never used; QuickTime Animation
#: (RLE), ALAC, MS-MPEG-4 v3, MP3-in-AVI and an anamorphic 3:2 scale never recorded a run):
#: - r54qtrle: **QuickTime Animation (qtrle, RLE, rgb24)** + **ALAC** in **MOV**, **54 fps**
#:   (60/54: 9 of every 10 emulator frames, one in ten missed), x2 nearest, 2.45 s lead-in;
#: - r18divx: **MS-MPEG-4 v3 ("DivX ;-) 3.11")** + **MP3** in **AVI**, **18 fps** (60/18: every
#:   3.33rd emulator frame), **x3 wide, x2 high** bicubic (480x420, anamorphic), 5.15 s
#:   lead-in.
RECORDERS30 = {"r54qtrle": {"fps": 54, "scale": 2, "lead_s": 2.45, "container": "mov",
                            "codec": "qtrle54"},
               "r18divx": {"fps": 18, "scale": 2, "lead_s": 5.15, "container": "avi",
                           "codec": "msmpeg4avi18"}}
SPEED30 = 0.026           # kind speed26: the video 2.6 % fast (no pass used 2.6)
SLOW30 = 1 / 0.966 - 1    # kind slow34: the video at 96.6 % of the log's clock (-3.4 %: none)
REC, REC18 = "r54qtrle", "r18divx"
SYNC_RUNS = [f"{g}-genuine@{REC}" for g in GAMES30] + [
    f"{g}-genuine2@{REC}" for g in ("backgammon", "crazy_climber", "gravitar", "koolaid")] + [
    f"gravitar-cut@{REC}", f"video_cube-cut@{REC}",
    f"koolaid-insert@{REC}", f"crazy_climber-insert@{REC}",
    f"backgammon-freeze@{REC}", f"solaris-freeze@{REC}",
    f"crazy_climber-speed26@{REC}", f"gravitar-slow34@{REC}",
    f"solaris-deleted@{REC}", f"koolaid-human@{REC}"]
SYNC_AVI = [f"{g}-genuine@{REC18}" for g in ("backgammon", "crazy_climber", "gravitar",
                                              "koolaid", "solaris")] + [
    f"solaris-insert@{REC18}", f"koolaid-speed26@{REC18}"]
HIDDEN = ("gravitar", "koolaid", "solaris")   # motion of its own / a busy screen: signal's case
HOLDS = ("backgammon", "video_cube")          # the picture holds until a button: holds' case
_ENCODE29 = s29._encode


def _encode(frames: np.ndarray, folder: Path, rec) -> Path:
    codec = getattr(rec, "codec", "")
    if codec not in ("qtrle54", "msmpeg4avi18"):
        return _ENCODE29(frames, folder, rec)
    h, w = frames.shape[1:3]
    path = folder / rec.video_name
    cmd = ["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
           "rgb24", "-s", f"{w}x{h}", "-r", str(rec.fps), "-i", "-", "-f", "lavfi", "-i"]
    if codec == "qtrle54":
        cmd += ["sine=frequency=610:sample_rate=44100", "-map", "0:v", "-map", "1:a",
                "-shortest", "-vf", f"scale={w * 2}:{h * 2}:flags=neighbor",
                "-c:v", "qtrle", "-g", "54", "-pix_fmt", "rgb24", "-threads", "1",
                "-c:a", "alac", "-f", "mov", str(path)]
    else:
        cmd += ["sine=frequency=290:sample_rate=44100", "-map", "0:v", "-map", "1:a",
                "-shortest", "-vf", f"scale={w * 3}:{h * 2}:flags=bicubic",
                "-c:v", "msmpeg4", "-q:v", "4", "-g", "90", "-pix_fmt", "yuv420p",
                "-threads", "1", "-c:a", "libmp3lame", "-b:a", "128k", "-f", "avi",
                str(path)]
    subprocess.run(cmd, input=np.ascontiguousarray(frames).tobytes(), check=True,
                   stderr=subprocess.DEVNULL)
    return path


def _install() -> None:
    import corpus.build  # noqa: F401 - sys.modules: the package exports a function `build`

    s29._install()
    s25._encode = _encode
    s25.GAMES25.update(GAMES30)
    s25.RECORDERS25.update(RECORDERS30)
    build = sys.modules["corpus.build"]
    build.SPEEDUPS["speed26"] = SPEED30
    build.SLOWDOWNS["slow34"] = SLOW30
    s28.HIDDEN, s28.HOLDS = HIDDEN, HOLDS
    s28.build_sync_run = build_sync_run
    s28.judge_sync = judge_sync
    s28.file_shift = s29.file_shift = file_shift
    s29.build_sync_run = build_sync_run


def build_sync_run(name: str) -> Path:
    _install()
    return s25.build_sync_run(name)


def file_shift(d: Path, fps: float) -> float:
    """How much later than the i / fps grid the file's frames stand (memoised in the run's
    folder as `file_shift.json`). MOV and AVI stamp each frame at its index / fps: the median
    of each frame's distance from the grid (not from its place in the decoded list: the AVI
    muxer writes a repeated picture of the black lead-in as an empty chunk, which decodes to
    no frame, so counting decoded frames would put every later frame one 18th late)."""
    v = next(d.glob("video.*"))
    if v.suffix not in (".mov", ".avi"):
        return _FILE_SHIFT29(d, fps)
    memo = d / "file_shift.json"
    if memo.exists():
        return json.loads(memo.read_text())["shift_s"]
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                          "frame=pts_time", "-of", "csv=p=0", str(v)],
                         capture_output=True, text=True, check=True).stdout
    pts = [float(x.strip(",")) for x in out.split() if x.strip(",") not in ("", "N/A")]
    off = [p - round(p * fps) / fps for p in pts]
    shift = round(float(np.median(off)), 6)
    memo.write_text(json.dumps({"shift_s": shift, "first_pts_s": pts[0], "max_dev_s": round(
        max(abs(x - shift) for x in off), 6), "frames_decoded": len(pts),
        "grid_slots": int(round(pts[-1] * fps)) + 1}))
    return shift


_FILE_SHIFT29 = s29.file_shift
_JUDGE28 = s28.judge_sync


def judge_sync(res: dict, truth: dict) -> dict:
    """s28.judge_sync (the bars of section 1), with this pass' slow34 judged as its `slow`
    (a drift within 1 point of the truth's percent) and the pictures' holds beside: a
    `video.frozen` on a genuine run over a hold that no shown press ends (the picture truly
    still while the log presses) is named (`frozen_unended`) and not counted (section 1)."""
    tam = truth["tamper"]
    if tam["kind"] == "slow34":
        truth = {**truth, "tamper": {**tam, "kind": "slow"}}
    res = _JUDGE28(res, truth)
    if tam["kind"] in ("genuine", "genuine2"):
        ht = holds_truth(res["run"])
        unended = [(h["a"], h["b"]) for h in ht["holds"] if not h["ended_by_press"]]
        why = [w for w in res["why"] if "warnings on a genuine run" not in w]
        counted, named = [], []
        for k in [k for k, _ in s28._offsets(truth)]:
            for w in res[k]["warnings"]:
                frozen_end = w[0] == "video.frozen" and any(
                    s27._near(w, a, b, tol=0.5) and (w[2] or 0) >= b - 0.5 for a, b in unended)
                (named if frozen_end else counted).append((k, *w))
        if counted:
            why.append(f"{len(counted)} warnings on a genuine run")
        res["frozen_unended"] = named
        res["why"], res["met"] = why, not why
    elif tam["kind"] == "freeze":  # QA s29's judge note: a warning containing the freeze but
        a, b = tam["video_start_s"], tam["video_end_s"]  # reaching > 1 s past it is elsewhere
        for k in [k for k, _ in s28._offsets(truth)]:
            for w in res[k]["warnings"]:
                wa = w[1] if w[1] is not None else w[2]
                wb = w[2] if w[2] is not None else wa
                if wa is not None and s27._near(w, a, b) and (wa < a - 1.0 or wb > b + 1.0):
                    res["why"].append(f"{k}: {w[0]} {wa}-{wb} reaches past the freeze")
        res["met"] = not res["why"]
    return res


def holds_truth(name: str) -> dict:
    """Holds of >= 2.5 s in the pictures (ffmpeg: gray 80x105 at the file's rate, the largest
    pixel step between frames <= 12), each with whether a shown press ends it (a press whose
    `shown` video time is within 2 frames of its end); written once, before any product run,
    to the run's `holds_truth.json`."""
    d = CACHE / "sync" / name
    memo = d / "holds_truth.json"
    if memo.exists():
        return json.loads(memo.read_text())
    truth = json.loads((d / "truth.json").read_text())
    fps = truth["fps"]
    v = next(d.glob("video.*"))
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", str(v), "-map", "0:v:0", "-vf",
                          "scale=80:105:flags=area,format=gray", "-f", "rawvideo", "-"],
                         capture_output=True, check=True).stdout
    g = np.frombuffer(raw, np.uint8).reshape(-1, 105, 80).astype(np.int16)
    step = np.abs(np.diff(g, axis=0)).reshape(len(g) - 1, -1).max(axis=1)
    still = np.r_[False, step <= 12]
    holds, i = [], 0
    shown = sorted(p["shown_video_s"] for p in _presses(truth) if p.get("shown_video_s"))
    while i < len(still):
        if not still[i]:
            i += 1
            continue
        j = i
        while j < len(still) and still[j]:
            j += 1
        a, b = (i - 1) / fps, j / fps
        if b - a >= 2.5:
            ends = [s for s in shown if abs(s - b) <= 2 / fps + 1e-6]
            holds.append({"a": round(a, 3), "b": round(b, 3), "ended_by_press": bool(ends),
                          "to_end": j >= len(still)})
        i = j
    out = {"run": name, "frames": len(g), "holds": holds, "presses": len(_presses(truth)),
           "shown": len(shown)}
    memo.write_text(json.dumps(out))
    return out


def _presses(truth: dict) -> list[dict]:
    """The truth's logged presses as {run_s, shown_video_s} (`actions`: elapsed_ms and
    shows_video_s, None where the press never shows)."""
    return [{"run_s": a["elapsed_ms"] / 1000, "shown_video_s": a.get("shows_video_s")}
            for a in truth.get("actions", [])]


def sync_truth(name: str) -> dict:
    """A run's truth as the doc states it (truth.json, ffprobe; never the product): the offset
    in the file's time, presses that show, the tampering's place."""
    d = CACHE / "sync" / name
    t = json.loads((d / "truth.json").read_text())
    pr = _presses(t)
    tam = {k: (round(v, 3) if isinstance(v, float) else v) for k, v in t["tamper"].items()}
    return {"run": name, "fps": t["fps"], "offset_s": t["offset_s"],
            "file_shift_s": file_shift(d, t["fps"]), "frames": t["frames"],
            "presses": len(pr), "shown": sum(p["shown_video_s"] is not None for p in pr),
            "tamper": tam}


def check_sync(name: str) -> dict:
    """s28.check_sync (`verify --json --scan --sync` at auto, the truth in the file's time, +2
    and -4 frames off it; judge_sync's bars with this pass' HIDDEN / HOLDS)."""
    _install()
    holds_truth(name)
    return s28.check_sync(name)


#: a genuine run's video beside another game's genuine log (same recorder)
MISMATCH = {"gravitar_video+solaris_log": ("gravitar", "solaris", REC),
            "backgammon_video+video_cube_log": ("backgammon", "video_cube", REC),
            "crazy_climber_avi+koolaid_log": ("crazy_climber", "koolaid", REC18)}


def check_mismatch(case: str) -> dict:
    _install()
    s28.MISMATCH = MISMATCH
    return s28.check_mismatch(case)


# -- 1b. the analysis' share of the scan (issue 13: synccost, bar 20 %) ---------------------------
SYNCCOST_RUNS = [f"gravitar-genuine@{REC}", f"koolaid-genuine@{REC18}",
                 f"crazy_climber-genuine@{REC}", f"solaris-genuine@{REC18}"]


def check_synccost(name: str, pairs: int = 5) -> dict:
    _install()
    return s29.check_synccost(name, pairs)


# -- 2. frame export: Matroska joins not starting at 0, three recordings (issue 12) --------------
#: case -> (suffix, [(fps, frames, encoder + muxer args of that recording)]) of frame-numbered
#: 320x240 footage (tests/video_corpus draw_frame, numbers continuing), each recording its own
#: file, `cat`-joined
FRAMES30 = {
    # two Matroska recordings, 30 fps then 25 fps; the FIRST's timestamps start at 37.5 s (a
    # recorder's clock that never starts at 0), the second's at 5000 s; H.264 -bf 2; 5 + 6 s
    "j30_mkv_first_at_37_5_30_25_cat": (".mkv", [
        (30, 150, [*_X264, "-bf", "2", "-g", "60", "-output_ts_offset", "37.5",
                   "-f", "matroska"]),
        (25, 150, [*_X264, "-bf", "2", "-g", "50", "-output_ts_offset", "5000",
                   "-f", "matroska"])]),
    # three Matroska recordings, 24, 30 and 50 fps, clocks from 0, 900 s and 86400 s (a day
    # later), H.264 -bf 2, a keyframe every 2 s / 1 s / 2 s; 4 + 4 + 4 s
    "j30_mkv_three_24_30_50_cat": (".mkv", [
        (24, 96, [*_X264, "-bf", "2", "-g", "48", "-f", "matroska"]),
        (30, 120, [*_X264, "-bf", "2", "-g", "30", "-output_ts_offset", "900",
                   "-f", "matroska"]),
        (50, 200, [*_X264, "-bf", "2", "-g", "100", "-output_ts_offset", "86400",
                   "-f", "matroska"])]),
    # two Matroska recordings at 30 fps whose clock goes BACK: the first from 600 s, the
    # second from 12 s (a recorder restarted); 5 + 5 s
    "j30_mkv_clock_back_600_12_cat": (".mkv", [
        (30, 150, [*_X264, "-bf", "2", "-g", "60", "-output_ts_offset", "600",
                   "-f", "matroska"]),
        (30, 150, [*_X264, "-bf", "2", "-g", "60", "-output_ts_offset", "12",
                   "-f", "matroska"])]),
}


def _segments30(case: str) -> list[tuple[Fraction, int, int, Fraction]]:
    out, t, first = [], Fraction(0), 0
    for fps, n, _ in FRAMES30[case][1]:
        fps = Fraction(fps)
        out.append((t, first, n, fps))
        t += n / fps
        first += n
    return out


def frame_times30(case: str) -> list[tuple[float, int]]:
    """(time at the middle of a frame on the joined clock, its number): early, mid-recording,
    the frame before and the two after each join, 1.3 s after each join, late."""
    segs = _segments30(case)
    picks: set[int] = set()
    for k, (_t0, first, n, fps) in enumerate(segs):
        picks |= {first + int(Fraction(3, 10) * fps), first + n // 2, first + int(n * 0.8)}
        if k:
            picks |= {first - 1, first, first + 1, first + int(Fraction(13, 10) * fps)}
    last = segs[-1]
    picks.add(last[1] + last[2] - 2)
    out = []
    for num in sorted(picks):
        t0, first, _n, fps = next(p for p in segs if p[1] <= num < p[1] + p[2])
        out.append((round(float(t0 + (num - first + Fraction(1, 2)) / fps), 4), num))
    return out


def build_frames30(case: str) -> Path:
    import qa_hostile_s20 as h20

    suf, segs = FRAMES30[case]
    d = CACHE / "frames" / case
    d.mkdir(parents=True, exist_ok=True)
    out = d / f"video{suf}"
    if not out.exists():
        pdir = CACHE / "parts"
        pdir.mkdir(parents=True, exist_ok=True)
        blobs = []
        for k, (_t0, first, n, fps) in enumerate(_segments30(case)):
            p = s21._part(pdir / f"{case}-{k}{suf}", segs[k][2], first, n, str(fps))
            blobs.append(p.read_bytes())
        tmp = out.with_name(out.name + ".part")
        tmp.write_bytes(b"".join(blobs))
        tmp.rename(out)
    h20._with_sample_log(d)
    return d


def check_frames30(case: str) -> dict:
    """s29.check_frames29's row on this pass' joins (F-a: 0 frames of error; F-b: the count
    and every picture right; the video.* findings beside)."""
    s29.FRAMES29 = FRAMES30
    s29._segments29 = _segments30
    s29.frame_times29 = frame_times30
    s29.build_frames29 = build_frames30
    return s29.check_frames29(case)


# -- 2b. a real cut next to a burst of flashes (issue 12: video.cut) -----------------------------
#: case -> (the flashes' span in video s, the cut's time in video s); 30 fps, x2 nearest,
#: H.264 in MP4; Kool-Aid Man footage (ale-py, this pass' agent), 0-CUT_AT s of one play,
#: then the same play from CUT_AT + 8 s on (8 s removed: the splice), 20 s in all; a flash is
#: a whole white frame, every other frame through the span
CUTS30 = {"c30_cut_after_flash_burst": ((11.2, 12.0), 12.4),
          "c30_cut_inside_flash_burst": ((12.0, 12.9), 12.4),
          # the control (added at 15:18, after the first before run, judge note 1): the same
          # cut with no flash
          "c30_cut_no_flashes": ((0.0, 0.0), 12.4)}
CUT_GAME, CUT_SEED, CUT_GONE_S = "koolaid", 3607, 8.0


def build_cut30(case: str) -> Path:
    import qa_hostile_s20 as h20
    from corpus import agents
    from corpus.play import play

    (f0, f1), cut = CUTS30[case]
    d = CACHE / "cuts" / case
    d.mkdir(parents=True, exist_ok=True)
    out = d / "video.mp4"
    if not out.exists():
        _install()
        s19.s18._legal_actions()
        agents.AGENTS[CUT_GAME] = GAMES30[CUT_GAME][0]
        p = play(CUT_GAME, CUT_SEED, 32.0, lead_steps=0)
        fr = p.frames[::2]  # 30 fps
        k = int(round(cut * 30))
        gone = int(CUT_GONE_S * 30)
        fr = np.concatenate([fr[:k], fr[k + gone:k + gone + (600 - k)]]).copy()
        flashes = [i for i in range(int(round(f0 * 30)), int(round(f1 * 30))) if i % 2 == 0
                   and i != k]
        fr[flashes] = 255
        h, w = fr.shape[1:3]
        tmp = d / "video.part.mp4"
        subprocess.run(["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "rawvideo",
                        "-pix_fmt", "rgb24", "-s", f"{w}x{h}", "-r", "30", "-i", "-",
                        "-vf", f"scale={w * 2}:{h * 2}:flags=neighbor", *_X264, "-crf", "20",
                        "-g", "60", "-movflags", "+faststart", str(tmp)],
                       input=np.ascontiguousarray(fr).tobytes(), check=True)
        g = fr.mean(axis=3)
        diff = np.abs(np.diff(g, axis=0)).mean(axis=(1, 2))
        plain = [x for i, x in enumerate(diff, 1) if i not in flashes and i - 1 not in flashes]
        (d / "cut_truth.json").write_text(json.dumps({
            "cut_s": cut, "cut_frame": k, "flashes": [round(i / 30, 4) for i in flashes],
            "flash_span_s": [f0, f1], "frames": len(fr), "removed_s": CUT_GONE_S,
            "change_at_cut": round(float(diff[k - 1]), 2),
            "change_median": round(float(np.median(plain)), 2),
            "change_p99": round(float(np.percentile(plain, 99)), 2)}))
        tmp.rename(out)
    h20._with_sample_log(d)
    return d


def check_cut30(case: str) -> dict:
    """`verify --json --scan --offset 0`: every video.cut (its time), met (V-c) when one lies
    within ±0.5 s of the true cut; the flashes' own candidates counted beside."""
    d = build_cut30(case)
    truth = json.loads((d / "cut_truth.json").read_text())
    code, rep, err = s22._verify(d, "--scan", "--offset", "0")
    fs = [f for f in rep.get("findings", []) if str(f.get("rule", "")).startswith("video.")]
    cuts = [(f.get("severity"), f.get("video_start_s", f.get("start_s")),
             f.get("video_end_s", f.get("end_s"))) for f in fs if f.get("rule") == "video.cut"]
    vs = (rep.get("video_scan") or {})
    more = [c for c in vs.get("cut_candidates", vs.get("cuts", [])) or []] \
        if isinstance(vs, dict) else []
    near = [c for c in cuts if c[1] is not None and abs(c[1] - truth["cut_s"]) <= 0.5]
    return {"case": case, "exit": code, "verdict": rep.get("verdict"), "truth": truth,
            "video_cut": cuts, "scan_candidates": more[:20],
            "others": [(f.get("severity"), f.get("rule"), f.get("video_start_s",
                        f.get("start_s")), str(f.get("message", ""))[:120])
                       for f in fs if f.get("rule") != "video.cut"],
            "stderr": err if not rep else "", "met": bool(near)}


# -- 3. the small-file scan against its decode floor (issue 12) ----------------------------------
SMALL30 = {
    # 2 s of 1280x720 H.264 at 60 fps (-bf 3), MOV: 120 large frames
    "small30_a_1280x720_2s_60_mov": ("testsrc2=size=1280x720:rate=60", 2,
                                     [*_X264, "-g", "120", "-bf", "3"], "mov"),
    # 8 s of 352x288 (CIF) MPEG-4 part 2 at 15 fps in AVI: 120 tiny frames
    "small30_b_352x288_8s_15_avi": ("testsrc2=size=352x288:rate=15", 8,
                                    ["-c:v", "mpeg4", "-q:v", "5", "-g", "30", "-threads", "1"],
                                    "avi"),
}


# -- 4. the official chain on a held-out payload shape (issue 15) --------------------------------
_GO_LINES = ("go test ./... 2>&1 | tee out.log", "if a < b && b > c { return }",
             "<div class=\"score\">12 &amp; up</div>", "cmd > /dev/null && echo ok",
             "ch <- result", "x := <-done", "vals[i] >= 0 && vals[i] <= 255",
             "curl -s 'https://example.com/?a=1&b=2'", "<b>Level 3</b> & <i>bonus</i>",
             "resp.StatusCode >= 400", "PASS: TestLoop (0.00s)", "ok  \tgame/emu\t0.412s")


def _goescaped_payload(rng: random.Random, size: int) -> dict:
    """A Go harness' tool results: shell output and HTML fragments full of `<`, `>` and `&`,
    which Go's `encoding/json` writes as `\\u003c`, `\\u003e`, `\\u0026` by default (its HTML
    escaping; see CHAIN_ENCODE30), compact, ~1.3 KB an event."""
    lines, used = [], 0
    while used < size - 60:
        line = rng.choice(_GO_LINES)
        if rng.random() < 0.3:
            line = f"{line} // step {rng.randrange(10**5)}"
        lines.append(line)
        used += len(line) + 12
    return {"tool": rng.choice(("bash", "go_run", "browser")), "exit_code": rng.choice((0, 0, 1)),
            "output": "\n".join(lines), "elapsed_ms": rng.randrange(5, 4000)}


def _go_encode(ev: dict) -> bytes:
    line = json.dumps(ev, separators=(",", ":"), ensure_ascii=False)
    return line.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026").encode()


CHAIN_SHAPES30 = {"goescaped": _goescaped_payload}
CHAIN_ENCODE30 = {"goescaped": _go_encode}


def check_chain30(shape: str) -> dict:
    s26.CHAIN_SHAPES.update(CHAIN_SHAPES30)
    s26.CHAIN_ENCODE.update(CHAIN_ENCODE30)
    return s26.check_chain(shape)


def build_chain30(shape: str) -> Path:
    s26.CHAIN_SHAPES.update(CHAIN_SHAPES30)
    s26.CHAIN_ENCODE.update(CHAIN_ENCODE30)
    return s26.build_chain(shape)


# -- 5. hostile inputs of classes no pass used ---------------------------------------------------
def hostile_module():
    import qa_hostile_s30
    return qa_hostile_s30


# -- 6. QA s29's misses T1-T9, their repro lines, on this pass' versions ------------------------
S29_MISSES = {
    "T1": [("verify", "sync/hangman-genuine2@r36ffv1", "4.300"),
           ("verify", "sync/hangman-genuine@r16wmv", "1.600"),
           ("verify", "sync/basic_math-genuine@r36ffv1", "4.300"),
           ("verify", "sync/hangman-cut@r36ffv1", "auto")],
    "T2": [("verify", "sync/turmoil-genuine@r36ffv1", "4.300")],
    "T3": [("verify", f"sync/{r}", "auto") for r in (
        "turmoil-genuine@r16wmv", "turmoil-genuine@r36ffv1", "atlantis2-genuine@r36ffv1",
        "atlantis2-genuine@r16wmv", "robotank-genuine@r16wmv")],
    "T4": [("verify", "sync/turmoil-speed33@r36ffv1", "auto"),
           ("verify", "sync/atlantis2-speed33@r16wmv", "auto")],
    "T5": [("verify", "sync/robotank-freeze@r36ffv1", "4.300")],
}


def check_s29(miss: str) -> dict:
    """T1-T5: `verify --json --scan --sync --offset X` on QA s29's runs (built by
    qa_session29.py sync-build into .cache/qa-s29): the warnings and the suggestion; T6-T9 by
    their own commands (qa_session29.py synccost / hostile h29_08 / small / chain)."""
    rows = []
    for _v, rel, off in S29_MISSES[miss]:
        d = CACHE29 / rel
        code, rep, err = s22._verify(d, "--scan", "--sync", "--offset", off)
        sy = rep.get("sync") or {}
        dr = [f.get("percent") for f in sy.get("findings", []) if f.get("rule") == "sync.drift"]
        rows.append({"run": rel, "offset": off, "exit": code,
                     "suggested_offset_s": sy.get("suggested_offset_s"),
                     "confidence": sy.get("confidence"), "drift": dr,
                     "warnings": s27._warnings(rep), "stderr": err if not rep else ""})
    return {"miss": miss, "rows": rows}


def main(argv: list[str]) -> int:  # noqa: C901, PLR0912 - one dispatch table
    s25.SMALL.update(SMALL30)
    what, rest = (argv[0] if argv else ""), argv[1:]
    pairs = 0
    if "--pairs" in rest:
        i = rest.index("--pairs")
        pairs = int(rest[i + 1])
        rest = rest[:i] + rest[i + 2:]
    if what == "build":
        kinds = rest or ["frames", "cuts", "small"]
        if "frames" in kinds:
            _rows(lambda c: {"case": c, "folder": str(build_frames30(c))}, list(FRAMES30),
                  "case")
        if "cuts" in kinds:
            _rows(lambda c: {"case": c, "truth": json.loads(
                (build_cut30(c) / "cut_truth.json").read_text())}, list(CUTS30), "case")
        if "small" in kinds:
            _rows(lambda c: {"case": c, "folder": str(s25.build_small(c))}, list(SMALL30),
                  "case")
        if "chain" in kinds:
            _rows(lambda s: {"shape": s, "folder": str(build_chain30(s))},
                  list(CHAIN_SHAPES30), "shape")
        if "hostile" in kinds:
            print(json.dumps([c for c, _ in hostile_module().cases(CACHE / "hostile")]))
    elif what == "frames":
        _rows(check_frames30, rest or list(FRAMES30), "case")
    elif what == "cuts":
        _rows(check_cut30, rest or list(CUTS30), "case")
    elif what == "small":
        _rows(lambda c: s25.check_small(c, pairs or 7), rest or list(SMALL30), "case")
    elif what == "chain":
        _rows(check_chain30, rest or list(CHAIN_SHAPES30), "shape")
    elif what == "sync-build":
        _rows(lambda r: {"run": r, "folder": str(build_sync_run(r))},
              rest or SYNC_RUNS + SYNC_AVI, "run")
    elif what == "holds-truth":
        _install()
        _rows(holds_truth, rest or [r for r in SYNC_RUNS + SYNC_AVI
                                    if r.split("-")[0] in HOLDS or "freeze" in r], "run")
    elif what == "sync-truth":
        _install()
        _rows(sync_truth, rest or SYNC_RUNS + SYNC_AVI, "run")
    elif what == "sync":
        _rows(check_sync, rest or SYNC_RUNS + SYNC_AVI, "run")
    elif what == "mismatch":
        _rows(check_mismatch, rest or list(MISMATCH), "case")
    elif what == "synccost":
        _rows(lambda r: check_synccost(r, pairs or 5), rest or SYNCCOST_RUNS, "run")
    elif what == "hostile":
        hostile_module().run(CACHE, rest)
    elif what == "s29":
        _rows(check_s29, rest or list(S29_MISSES), "miss")
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
