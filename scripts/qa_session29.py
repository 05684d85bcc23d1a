"""Session 29's QA pass (docs/qa/session29.md): held-out inputs for session 29's work, run
through main, actual against expected. Heavy files go to `/work/main/.cache/qa-s29/`
(gitignored); nothing here is imported by the app or the tests. Sessions 13-28's machinery
(scripts/qa_session28.py and through it qa_session10/12..27.py, qa_common.py) is reused by
import. Every generator is deterministic (fixed seeds, fixed encoder settings, one thread).

Run the product of another worktree with PYTHONPATH=/that/worktree (the CLI subprocesses
inherit it; the CLI is started with `python -P`).

    .venv/bin/python scripts/qa_session29.py build [frames|audio|small|chain|hostile]
    .venv/bin/python scripts/qa_session29.py sync-build|sync [RUN...]   # issue 13 (ale-py)
    .venv/bin/python scripts/qa_session29.py sync-judge SAVED.jsonl      # judged again
    .venv/bin/python scripts/qa_session29.py mismatch [CASE...]   # issue 13: another game's log
    .venv/bin/python scripts/qa_session29.py synccost [RUN...] [--pairs N]  # issue 13: 20 %
    .venv/bin/python scripts/qa_session29.py frames [CASE...]     # issue 12: joins of other clocks
    .venv/bin/python scripts/qa_session29.py audio [CASE...]      # issue 12: sound after a seek
    .venv/bin/python scripts/qa_session29.py small [CASE...] [--pairs N]  # issue 12: scan
    .venv/bin/python scripts/qa_session29.py chain [SHAPE...]     # issue 15: a held-out shape
    .venv/bin/python scripts/qa_session29.py hostile [ID...]      # issue 15: new classes
"""

from __future__ import annotations

import json
import os
import random
import resource
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "scripts"), str(REPO / "bench")]
import qa_session28 as s28  # noqa: E402

s27, s26, s25 = s28.s27, s28.s26, s28.s25
s24, s23, s22, s21, s19, s14 = s28.s24, s28.s23, s28.s22, s28.s21, s28.s19, s28.s14
CACHE = s28.CACHE.parent / "qa-s29"
s28.CACHE = s27.CACHE = s26.CACHE = s25.CACHE = s24.CACHE = s23.CACHE = CACHE
for _m in (s22, s23.s10, s23.s13, s14, s23.s15, s22.s12, s22.s16, s22.s17, s22.s18, s19,
           s23.s20, s21):
    _m.CACHE = CACHE
CLI = s22.CLI
_rows, _ff, _X264 = s22._rows, s23._ff, s23._X264


# -- 1. real-game runs (issue 13): five games and two recorders nobody used --------------------
def hangman(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Hangman (a word puzzle: **the picture holds until a button**: the joystick picks a
    letter, FIRE guesses it; nothing moves on its own)."""
    r = rng.random()
    if r < 0.55:
        return [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT")), rng.randint(4, 10))]
    if r < 0.9:
        return [("FIRE", rng.randint(2, 4))]
    return [("NOOP", rng.randint(6, 14))]


def basic_math(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Basic Math (an arithmetic drill: **the picture holds until a button**: UP/DOWN change
    the digit, LEFT/RIGHT the column, FIRE answers)."""
    r = rng.random()
    if r < 0.6:
        return [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT")), rng.randint(3, 8))]
    if r < 0.9:
        return [("FIRE", rng.randint(2, 4))]
    return [("NOOP", rng.randint(6, 12))]


def turmoil(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Turmoil (enemies race along seven corridors on their own; the player's ship is small:
    UP/DOWN change corridor, LEFT/RIGHT fire and turn)."""
    r = rng.random()
    if r < 0.5:
        return [(rng.choice(("UP", "DOWN")), rng.randint(5, 12))]
    if r < 0.85:
        return [(rng.choice(("FIRE", "LEFTFIRE", "RIGHTFIRE")), rng.randint(3, 6))]
    return [("NOOP", rng.randint(4, 10))]


def atlantis2(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Atlantis II (Gorgon ships fly across on their own all the time; the player has three
    fixed guns: FIRE, LEFTFIRE, RIGHTFIRE; only the shots answer)."""
    r = rng.random()
    if r < 0.8:
        return [(rng.choice(("FIRE", "LEFTFIRE", "RIGHTFIRE")), rng.randint(2, 5))]
    return [("NOOP", rng.randint(5, 12))]


def robotank(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Robotank (a first-person tank: the landscape **scrolls** when it turns, the radar
    sweeps and enemy tanks move on their own)."""
    r = rng.random()
    if r < 0.6:
        return [(rng.choice(("LEFT", "RIGHT", "UP", "UPLEFT", "UPRIGHT", "DOWN")),
                 rng.randint(6, 14))]
    if r < 0.9:
        return [(rng.choice(("FIRE", "UPFIRE")), rng.randint(3, 6))]
    return [("NOOP", rng.randint(4, 10))]


GAMES29 = {"hangman": (hangman, 291 + 8), "basic_math": (basic_math, 301),
           "turmoil": (turmoil, 303), "atlantis2": (atlantis2, 307),
           "robotank": (robotank, 311)}
#: two recorders no corpus set or QA pass used (fps, codec, container as a set; 36 and 16 fps
#: never used, FFV1, WMV2 / WMA2 and ASF never recorded a run):
#: - r36ffv1: **FFV1** (lossless, level 3, OBS's "lossless" preset) + PCM s16le in
#:   **Matroska**, **36 fps** (60/36: 3 of every 5 emulator frames), x2 nearest, 4.3 s lead-in;
#: - r16wmv: **WMV2 + WMA2 in ASF** (`video.wmv`, a Windows screen recorder's output),
#:   **16 fps** (60/16: every 3.75th emulator frame), x2 bilinear, 1.6 s lead-in.
RECORDERS29 = {"r36ffv1": {"fps": 36, "scale": 2, "lead_s": 4.3, "container": "mkv",
                           "codec": "ffv1mkv36"},
               "r16wmv": {"fps": 16, "scale": 2, "lead_s": 1.6, "container": "wmv",
                          "codec": "wmv2asf16"}}
SPEED29 = 0.033            # kind speed33: the video 3.3 % fast (no pass used 3.3)
SLOW29 = 1 / 0.94 - 1      # kind slow: the video at 94 % of the log's clock (-6 %: none used)
REC, REC16 = "r36ffv1", "r16wmv"
SYNC_RUNS = [f"{g}-genuine@{REC}" for g in GAMES29] + [
    f"hangman-genuine2@{REC}",
    f"turmoil-cut@{REC}", f"hangman-cut@{REC}", f"atlantis2-insert@{REC}",
    f"basic_math-freeze@{REC}", f"robotank-freeze@{REC}",
    f"turmoil-speed33@{REC}", f"robotank-slow@{REC}",
    f"atlantis2-deleted@{REC}", f"turmoil-human@{REC}"]
SYNC_WMV = [f"{g}-genuine@{REC16}" for g in ("hangman", "turmoil", "atlantis2", "robotank")] + [
    f"robotank-insert@{REC16}", f"atlantis2-speed33@{REC16}"]
HIDDEN = ("turmoil", "atlantis2", "robotank")   # motion of its own, a small player: signal's case
HOLDS = ("hangman", "basic_math")                # the picture holds until a button: holds' case
_ENCODE28 = s28._encode


def _encode(frames: np.ndarray, folder: Path, rec) -> Path:
    codec = getattr(rec, "codec", "")
    if codec not in ("ffv1mkv36", "wmv2asf16"):
        return _ENCODE28(frames, folder, rec)
    h, w = frames.shape[1:3]
    path = folder / rec.video_name
    cmd = ["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
           "rgb24", "-s", f"{w}x{h}", "-r", str(rec.fps), "-i", "-", "-f", "lavfi", "-i"]
    if codec == "ffv1mkv36":
        cmd += ["sine=frequency=530:sample_rate=48000", "-map", "0:v", "-map", "1:a",
                "-shortest", "-vf", f"scale={w * 2}:{h * 2}:flags=neighbor",
                "-c:v", "ffv1", "-level", "3", "-g", "1", "-slices", "4", "-slicecrc", "1",
                "-pix_fmt", "yuv420p", "-threads", "1", "-c:a", "pcm_s16le", "-f", "matroska",
                str(path)]
    else:
        cmd += ["sine=frequency=370:sample_rate=44100", "-map", "0:v", "-map", "1:a",
                "-shortest", "-vf", f"scale={w * 2}:{h * 2}:flags=bilinear",
                "-c:v", "wmv2", "-b:v", "1500k", "-g", "80", "-pix_fmt", "yuv420p",
                "-threads", "1", "-c:a", "wmav2", "-b:a", "96k", "-f", "asf", str(path)]
    subprocess.run(cmd, input=np.ascontiguousarray(frames).tobytes(), check=True,
                   stderr=subprocess.DEVNULL)
    return path


def _install() -> None:
    import corpus.build  # noqa: F401 - sys.modules: the package exports a function `build`

    s28._install()
    s25._encode = _encode
    s25.GAMES25.update(GAMES29)
    s25.RECORDERS25.update(RECORDERS29)
    sys.modules["corpus.build"].SPEEDUPS["speed33"] = SPEED29
    s14.SLOW25 = SLOW29  # s14.build_sync_run sets corpus.build.SLOWDOWN from it each call
    s28.HIDDEN, s28.HOLDS = HIDDEN, HOLDS
    s28.build_sync_run = build_sync_run


def build_sync_run(name: str) -> Path:
    _install()
    return s25.build_sync_run(name)


def file_shift(d: Path, fps: float) -> float:
    """How much later than i / fps the file's frames stand on the product's clock (video time
    is rebased on the first frame: moderator_app/core/video/index.py), with ASF's and
    Matroska's millisecond stamps: the median of each frame's offset from the i / fps grid
    counted from the first frame (ASF's first video packet stands at 46 ms, the sound at 0)."""
    v = next(d.glob("video.*"))
    memo = d / "file_shift.json"
    if memo.exists():
        return json.loads(memo.read_text())["shift_s"]
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                          "frame=pts_time", "-of", "csv=p=0", str(v)],
                         capture_output=True, text=True, check=True).stdout
    pts = [float(x.strip(",")) for x in out.split() if x.strip(",") not in ("", "N/A")]
    off = [p - pts[0] - i / fps for i, p in enumerate(pts)]
    shift = round(float(np.median(off)), 6)
    memo.write_text(json.dumps({"shift_s": shift, "first_pts_s": pts[0], "max_dev_s": round(max(
        abs(x - shift) for x in off), 6), "frames": len(pts)}))
    return shift


def check_sync(name: str) -> dict:
    """s28.check_sync (`verify --json --scan --sync` at auto, the truth in the file's time, +2
    and -4 frames off it; s28.judge_sync's bars, HIDDEN / HOLDS as this pass')."""
    _install()
    s28.file_shift = file_shift
    return s28.check_sync(name)


#: a genuine run's video beside another game's genuine log (same recorder)
MISMATCH = {"turmoil_video+atlantis2_log": ("turmoil", "atlantis2", REC),
            "hangman_video+basic_math_log": ("hangman", "basic_math", REC),
            "robotank_wmv+hangman_log": ("robotank", "hangman", REC16)}


def check_mismatch(case: str) -> dict:
    _install()
    s28.MISMATCH = MISMATCH
    return s28.check_mismatch(case)


# -- 1b. the analysis' share of the scan (issue 13: synccost, bar 20 %) ---------------------------
SYNCCOST_RUNS = [f"turmoil-genuine@{REC}", f"hangman-genuine@{REC16}",
                 f"atlantis2-genuine@{REC}", f"robotank-genuine@{REC16}"]


def _tree_cpu(argv: list[str], env: dict) -> tuple[float, int]:
    """CPU seconds of the whole process tree (user + system of every waited child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(argv, env=env, capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 3), \
        r.returncode


def check_synccost(name: str, pairs: int = 5) -> dict:
    """`verify --json --scan --offset T` against `verify --json --scan --sync --offset T` (the
    truth in the file's time; and `--offset auto` beside), interleaved, each with a fresh
    MODERATOR_APP_CACHE: the analysis' share = (sync - scan) / scan of the tree CPU, median
    over the pairs; the bar 20 %."""
    d = build_sync_run(name)
    truth = json.loads((d / "truth.json").read_text())
    T = truth["offset_s"] + file_shift(d, truth["fps"])
    rows = []
    for k in range(pairs):
        row = {}
        for label, extra in (("scan", []), ("sync", ["--sync"]), ("auto", ["--sync"])):
            cache = CACHE / "tmp-synccost" / f"{label}-{k}"
            shutil.rmtree(cache, ignore_errors=True)  # fresh: never a cache of another run
            env = {**os.environ, "MODERATOR_APP_CACHE": str(cache)}
            off = "auto" if label == "auto" else f"{T:.3f}"
            cpu, code = _tree_cpu([*CLI, "verify", str(d), "--json", "--scan", *extra,
                                   "--offset", off], env)
            row[label] = cpu
            row[f"{label}_exit"] = code
        rows.append(row)
    share = sorted((r["sync"] - r["scan"]) / r["scan"] for r in rows)
    share_auto = sorted((r["auto"] - r["scan"]) / r["scan"] for r in rows)
    med = share[len(share) // 2]
    return {"run": name, "pairs": rows, "share_median": round(med, 3),
            "share_best": round(share[0], 3),
            "share_auto_median": round(share_auto[len(share_auto) // 2], 3),
            "met": med <= 0.20}


# -- 2. frame export: Matroska joins of another clock, fMP4 joins of other rates (12) -----------
FRAG = s28.FRAG
NTSC = Fraction(30000, 1001)
#: case -> (suffix, [(fps, frames, encoder + muxer args of that recording)]) of frame-numbered
#: 320x240 footage (tests/video_corpus draw_frame, numbers continuing), each recording its own
#: file, `cat`-joined
FRAMES29 = {
    # two Matroska recordings, 25 fps then 30 fps, the second of **another clock**: its
    # timestamps start at 7200 s (a recorder counting from its start-up two hours before);
    # 6 + 6 s, H.264 -bf 2
    "j29_mkv_clock7200_25_30_cat": (".mkv", [
        (25, 150, [*_X264, "-bf", "2", "-g", "50", "-f", "matroska"]),
        (30, 180, [*_X264, "-bf", "2", "-g", "60", "-output_ts_offset", "7200",
                   "-f", "matroska"])]),
    # two Matroska recordings at 24 fps, the second's clock starting at 1000.02 s (off the
    # 1/24 s grid), the first without B-frames, the second -bf 3; 5 + 7 s
    "j29_mkv_clock_offgrid_24_cat": (".mkv", [
        (24, 120, [*_X264, "-bf", "0", "-g", "48", "-f", "matroska"]),
        (24, 168, [*_X264, "-bf", "3", "-g", "24", "-output_ts_offset", "1000.02",
                   "-f", "matroska"])]),
    # two fragmented MP4 recordings: 25 fps in a 90 kHz track clock, then **29.97 fps in a
    # 1 kHz track clock** (33 / 34 ms samples: the clock rounds); 5 + 6 s
    "j29_fmp4_25tb90k_2997tb1k_cat": (".mp4", [
        (25, 125, [*_X264, "-bf", "2", "-g", "50", "-video_track_timescale", "90000", *FRAG,
                   "-f", "mp4"]),
        (NTSC, 180, [*_X264, "-bf", "2", "-g", "60", "-video_track_timescale", "1000", *FRAG,
                     "-f", "mp4"])]),
    # two fragmented MP4 recordings, **60 fps then 20 fps** (a 3x step down at the join), 4 + 7 s
    "j29_fmp4_60_20_cat": (".mp4", [
        (60, 240, [*_X264, "-bf", "2", "-g", "120", *FRAG, "-f", "mp4"]),
        (20, 140, [*_X264, "-bf", "0", "-g", "40", *FRAG, "-f", "mp4"])]),
}


def _segments29(case: str) -> list[tuple[float, int, int, Fraction]]:
    out, t, first = [], Fraction(0), 0
    for fps, n, _ in FRAMES29[case][1]:
        fps = Fraction(fps)
        out.append((t, first, n, fps))
        t += n / fps
        first += n
    return out


def frame_times29(case: str) -> list[tuple[float, int]]:
    """(time at the middle of a frame on the joined clock, its number): early, mid-recording,
    the frame before and the two after each join, 1.3 s after each join, late."""
    segs = _segments29(case)
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


def build_frames29(case: str) -> Path:
    import qa_hostile_s20 as h20

    suf, segs = FRAMES29[case]
    d = CACHE / "frames" / case
    d.mkdir(parents=True, exist_ok=True)
    out = d / f"video{suf}"
    if not out.exists():
        pdir = CACHE / "parts"
        pdir.mkdir(parents=True, exist_ok=True)
        blobs = []
        for k, (_t0, first, n, fps) in enumerate(_segments29(case)):
            p = s21._part(pdir / f"{case}-{k}{suf}", segs[k][2], first, n, str(fps))
            blobs.append(p.read_bytes())
        tmp = out.with_name(out.name + ".part")
        tmp.write_bytes(b"".join(blobs))
        tmp.rename(out)
    h20._with_sample_log(d)
    return d


def check_frames29(case: str) -> dict:
    """s28.check_frames28's row on this pass' joins: the picture exported at each time read
    back (F-a: 0 frames of error), the count (F-b), the findings."""
    import video_corpus as vc

    d = build_frames29(case)
    video = next(d.glob("video.*"))
    try:
        ff = vc.ffprobe_frames(video)
    except Exception as e:  # noqa: BLE001 - a QA row
        ff = f"ffprobe failed: {e!r}"[:120]
    code, rep, err = s22._verify(d, "--scan", "--offset", "0")
    v = rep.get("video") or {}
    pics = []
    for t, want in frame_times29(case):
        ex, got, size = s27._frame_number(d, t)
        pics.append({"t": t, "want": want, "got": got, "exit": ex, "size": size,
                     "err_frames": None if got is None else got - want})
    wrong = [p for p in pics if p["got"] is not None and p["err_frames"] != 0]
    refused = [p for p in pics if p["got"] is None]
    total = sum(n for _, n, _ in FRAMES29[case][1])
    finds = [(f.get("severity"), f.get("rule"), f.get("message", "")[:160],
              f.get("video_start_s", f.get("start_s")))
             for f in rep.get("findings", [])
             if str(f.get("rule", "")).split(".")[0] in ("video", "coverage")]
    return {"case": case, "exit": code, "verdict": rep.get("verdict"), "ffprobe_frames": ff,
            "report_frames": v.get("frame_count"), "truth_frames": total,
            "duration_s": v.get("duration_s"),
            "joins_at_s": [round(float(t0), 4) for t0, *_ in _segments29(case)][1:],
            "pictures": pics, "pictures_right": len(pics) - len(wrong) - len(refused),
            "pictures_wrong": len(wrong), "pictures_refused": len(refused),
            "pictures_n": len(pics), "findings": finds, "stderr": err if not rep else "",
            "F_a": not wrong, "met": not wrong and not refused and v.get("frame_count") == total}


# -- 2b. the sound after a seek into a later recording (issue 12) -------------------------------
#: case -> (suffix, [(fps, seconds, tone Hz, extra args)], audio encoder args, seek times)
AUDIO29 = {
    # two fragmented MP4 recordings (H.264 + AAC, 30 fps), 9 s of 510 Hz then 11 s of 830 Hz,
    # cat-joined (OBS "Fragmented MP4" restarted); a keyframe every 2 s
    "a29_fmp4_tones_cat": (".mp4", [(30, 9, 510, []), (30, 11, 830, [])],
                           ["-c:a", "aac", "-b:a", "128k", *FRAG],
                           [2.33, 6.17, 9.61, 12.47, 17.83]),
    # two Matroska recordings (H.264 + Opus), 25 fps then 30 fps, 8 s of 390 Hz then 10 s of
    # 950 Hz, the second of another clock (its timestamps from 3600 s)
    "a29_mkv_clock_tones_opus_cat": (".mkv", [(25, 8, 390, []),
                                              (30, 10, 950, ["-output_ts_offset", "3600"])],
                                     ["-c:a", "libopus", "-b:a", "96k"],
                                     [3.07, 8.53, 11.29, 16.71]),
}


def build_audio29(case: str) -> Path:
    import qa_hostile_s20 as h20

    suf, recs, acodec, _seeks = AUDIO29[case]
    d = CACHE / "audio" / case
    d.mkdir(parents=True, exist_ok=True)
    out = d / f"video{suf}"
    if not out.exists():
        blobs = []
        for k, (fps, secs, hz, extra) in enumerate(recs):
            p = _ff(["-f", "lavfi", "-i", s23._SRC.format(fps=fps, d=secs), "-f", "lavfi",
                     "-i", s23._TONE.format(hz=hz, d=secs), "-map", "0:v", "-map", "1:a",
                     *_X264, "-g", str(2 * fps), "-bf", "2", *acodec, *extra],
                    CACHE / "parts" / f"{case}-{k}{suf}")
            blobs.append(p.read_bytes())
        tmp = out.with_name(out.name + ".part")
        tmp.write_bytes(b"".join(blobs))
        tmp.rename(out)
    h20._with_sample_log(d)
    return d


def check_audio29(case: str, t_len: float = 1.5) -> dict:
    """The sound after a seek through the core seam (qa_session24.audio_seek: probe_video ->
    no_footage_spans -> AudioFeeder over AudioTrack.for_index into a keeping NullSink, a
    fresh feeder per seek), per 0.1 s: the loudest sample and the pitch, against the tone of
    the recording the seek lands in. Met: the right tone within 0.1 s of each seek, no bin of
    another pitch."""
    from moderator_app.core.video import audio
    from moderator_app.core.video.export import no_footage_spans
    from moderator_app.core.video.probe import probe_video

    suf, recs, _a, seeks = AUDIO29[case]
    d = build_audio29(case)
    video = d / f"video{suf}"
    p = probe_video(video, video.name)
    silent = no_footage_spans(p.index, no_footage=p.no_footage)
    bounds, acc = [], 0.0
    for _fps, secs, hz, _x in recs:
        bounds.append((acc, acc + secs, hz))
        acc += secs
    rows = []
    for t0 in seeks:
        hz = next(h for a, b, h in bounds if a <= t0 < b)
        track = audio.AudioTrack.for_index(video, p.index)
        sink = audio.NullSink(keep=True)
        feeder = audio.AudioFeeder(track, sink, silent=silent)
        try:
            for k in range(int(round(t_len * 10)) + 1):
                feeder.tick(t0 + k / 10, True, 1.0, False)
        finally:
            feeder.close()
        failed = track.failed
        a = np.frombuffer(bytes(sink.data), np.int16).reshape(-1, 2)[:, 0].astype(np.float64)
        rate = audio.RATE
        bins = []
        for b in range(int(t_len * 10)):
            x = a[int(b * rate / 10):int((b + 1) * rate / 10)]
            bins.append((round(t0 + b / 10, 2), int(np.abs(x).max(initial=0)), s24._pitch(x)))
        first_tone = next((t for t, amp, f in bins if amp > 300 and abs(f - hz) <= 20), None)
        wrong = [(t, f) for t, amp, f in bins if amp > 300 and abs(f - hz) > 20]
        rows.append({"seek_s": t0, "tone_hz": hz, "samples": int(a.size),
                     "track_failed": None if failed is None else str(failed)[:160],
                     "first_tone_s": first_tone,
                     "delay_s": None if first_tone is None else round(first_tone - t0, 2),
                     "wrong_pitch_bins": wrong[:4], "bins": bins[:8],
                     "met": first_tone is not None and first_tone - t0 <= 0.1 + 1e-9
                     and not wrong})
    return {"case": case, "frames": p.index.frame_count,
            "silent_spans": [list(x) for x in silent],
            "no_footage": [(s.rule, s.start_s, s.end_s) for s in p.no_footage],
            "seeks": rows, "met": bool(rows) and all(r["met"] for r in rows)}


# -- 3. the small-file scan against its decode floor (issue 12) ----------------------------------
SMALL29 = {
    # 3 s of 960x540 H.264 (-bf 2) at 30 fps, MP4 with the index first (faststart): 90 frames
    "small29_a_960x540_3s_30_mp4": ("testsrc2=size=960x540:rate=30", 3,
                                    [*_X264, "-g", "60", "-bf", "2", "-movflags",
                                     "+faststart"], "mp4"),
    # 6 s of 400x224 H.264 at 60 fps, Matroska: 360 small frames
    "small29_b_400x224_6s_60_mkv": ("testsrc2=size=400x224:rate=60", 6,
                                    [*_X264, "-g", "120"], "mkv"),
}


# -- 4. the official chain on a held-out payload shape (issue 15) --------------------------------
_INFO_KEYS = ("lives", "episode_frame_number", "frame_number", "ale.lives", "TimeLimit.truncated")


def _pyspaced_payload(rng: random.Random, size: int) -> dict:
    """A Python gym harness' step records (a reward, flags, an info dict, small float stats,
    a short note with an emoji now and then), ~1.4 KB an event; the shape is in how it is
    written: `json.dumps` with its DEFAULT separators (", " and ": ") and ensure_ascii (every
    non-ASCII character a \\u escape, an emoji a surrogate pair; see CHAIN_ENCODE29)."""
    rows, used = [], 0
    while used < size - 80:
        row = {"t": rng.randrange(10**6), "reward": rng.choice((0.0, 0.0, 1.0, -1.0, 10.0)),
               "terminated": rng.random() < 0.02, "truncated": False,
               "info": {k: rng.randrange(10**5) for k in rng.sample(_INFO_KEYS, 3)},
               "stats": [round(rng.gauss(0, 1), rng.randint(2, 6)) for _ in range(4)],
               "note": rng.choice(("ok", "jump \u2191", "score +1 \U0001F3AF", "caf\u00e9",
                                   None, "lost a life \U0001F480"))}
        rows.append(row)
        used += len(json.dumps(row))
    return {"steps": rows}


CHAIN_SHAPES29 = {"pyspaced": _pyspaced_payload}
CHAIN_ENCODE29 = {"pyspaced": lambda ev: json.dumps(ev).encode()}


def check_chain29(shape: str) -> dict:
    s26.CHAIN_SHAPES.update(CHAIN_SHAPES29)
    s26.CHAIN_ENCODE.update(CHAIN_ENCODE29)
    return s26.check_chain(shape)


def build_chain29(shape: str) -> Path:
    s26.CHAIN_SHAPES.update(CHAIN_SHAPES29)
    s26.CHAIN_ENCODE.update(CHAIN_ENCODE29)
    return s26.build_chain(shape)


# -- 5. hostile inputs of classes no pass used ---------------------------------------------------
def hostile_module():
    import qa_hostile_s29
    return qa_hostile_s29


def main(argv: list[str]) -> int:  # noqa: C901, PLR0912 - one dispatch table
    s25.SMALL.update(SMALL29)
    what, rest = (argv[0] if argv else ""), argv[1:]
    pairs = 0
    if "--pairs" in rest:
        i = rest.index("--pairs")
        pairs = int(rest[i + 1])
        rest = rest[:i] + rest[i + 2:]
    if what == "build":
        kinds = rest or ["frames", "audio", "small"]
        if "frames" in kinds:
            _rows(lambda c: {"case": c, "folder": str(build_frames29(c))}, list(FRAMES29),
                  "case")
        if "audio" in kinds:
            _rows(lambda c: {"case": c, "folder": str(build_audio29(c))}, list(AUDIO29),
                  "case")
        if "small" in kinds:
            _rows(lambda c: {"case": c, "folder": str(s25.build_small(c))}, list(SMALL29),
                  "case")
        if "chain" in kinds:
            _rows(lambda s: {"shape": s, "folder": str(build_chain29(s))},
                  list(CHAIN_SHAPES29), "shape")
        if "hostile" in kinds:
            print(json.dumps([c for c, _ in hostile_module().cases(CACHE / "hostile")]))
    elif what == "frames":
        _rows(check_frames29, rest or list(FRAMES29), "case")
    elif what == "audio":
        _rows(check_audio29, rest or list(AUDIO29), "case")
    elif what == "small":
        _rows(lambda c: s25.check_small(c, pairs or 7), rest or list(SMALL29), "case")
    elif what == "chain":
        _rows(check_chain29, rest or list(CHAIN_SHAPES29), "shape")
    elif what == "sync-build":
        _rows(lambda r: {"run": r, "folder": str(build_sync_run(r))},
              rest or SYNC_RUNS + SYNC_WMV, "run")
    elif what == "sync":
        _rows(check_sync, rest or SYNC_RUNS + SYNC_WMV, "run")
    elif what == "sync-judge":
        _install()
        s28.file_shift = file_shift
        for line in Path(rest[0]).read_text().splitlines():
            if line.startswith("{") and "auto" in (row := json.loads(line)):
                truth = json.loads((CACHE / "sync" / row["run"] / "truth.json").read_text())
                print(json.dumps(s28.judge_sync(row, truth)))
    elif what == "mismatch":
        _rows(check_mismatch, rest or list(MISMATCH), "case")
    elif what == "synccost":
        _rows(lambda r: check_synccost(r, pairs or 5), rest or SYNCCOST_RUNS, "run")
    elif what == "hostile":
        hostile_module().run(CACHE, rest)
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
