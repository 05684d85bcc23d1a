"""Session 33's QA pass (docs/qa/session33.md): held-out inputs for session 33's work, run
through main, actual against expected. Heavy files go to `/work/main/.cache/qa-s33/`
(gitignored); nothing here is imported by the app or the tests. Sessions 13-32's machinery
(scripts/qa_session32.py and through it qa_session10/12..31.py, qa_common.py) is reused by
import. Every generator is deterministic (fixed seeds, fixed encoder settings, one thread).

Run the product of another worktree with PYTHONPATH=/that/worktree (the CLI subprocesses
inherit it; the CLI is started with `python -P`).

    .venv/bin/python scripts/qa_session33.py build [scan|cuts|small|chain|hostile]
    .venv/bin/python scripts/qa_session33.py sync-build|sync-truth|holds-truth|sync [RUN...]
    .venv/bin/python scripts/qa_session33.py table SYNC.jsonl [MISMATCH.jsonl]  # the counts
    .venv/bin/python scripts/qa_session33.py mismatch [CASE...]   # issue 13: another game's log
    .venv/bin/python scripts/qa_session33.py synccost [RUN...] [--pairs N]  # issue 13: 20 %
    .venv/bin/python scripts/qa_session33.py scan [CASE...]       # issue 12: freeze/black/gap
    .venv/bin/python scripts/qa_session33.py cuts [CASE...]       # issue 12: a same-scene cut
    .venv/bin/python scripts/qa_session33.py small [CASE...] [--pairs N]  # issue 12: scan
    .venv/bin/python scripts/qa_session33.py chain [SHAPE...]     # issue 15: a held-out shape
    .venv/bin/python scripts/qa_session33.py hostile [ID...]      # issue 15: new classes
    .venv/bin/python scripts/qa_session33.py s32 [T1..T5]         # QA s32's misses again
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "scripts"), str(REPO / "bench")]
import qa_session32 as s32  # noqa: E402

s31, s30, s29, s28, s27, s26, s25 = s32.s31, s32.s30, s32.s29, s32.s28, s32.s27, s32.s26, s32.s25
s24, s23, s22, s21, s19, s14 = s32.s24, s32.s23, s32.s22, s32.s21, s32.s19, s32.s14
CACHE32 = s32.CACHE
CACHE = CACHE32.parent / "qa-s33"
s32.CACHE = s31.CACHE = s30.CACHE = s29.CACHE = s28.CACHE = s27.CACHE = s26.CACHE = CACHE
s25.CACHE = s24.CACHE = s23.CACHE = CACHE
for _m in (s22, s23.s10, s23.s13, s14, s23.s15, s22.s12, s22.s16, s22.s17, s22.s18, s19,
           s23.s20, s21):
    _m.CACHE = CACHE
CLI = s22.CLI
_rows, _ff, _X264 = s22._rows, s23._ff, s23._X264


# -- 1. real-game runs (issue 13): seven games of the pool and two new recorders ----------------
# Chosen with a probe of the emulator (/tmp/qa33/probe.py, not kept: 600 NOOP steps, 300 more
# NOOP steps for the pixels changed a step and the share of unchanged steps, then 20 presses of
# 8 frames after random play, each against its NOOP counterfactual from the same state: the
# first frame that differs). Probe of all 14 pool ids (still share at NOOP, median pixels a
# step, presses shown of 20 and their lag in emulator frames): double_dunk 0.00/14/7 (1-7),
# earthworld 0.50/964/6 (0-5), entombed 0.42/19/3 (1-2), et 1.00/0/15 (0-3), flag_capture
# 0.98/0/12 (0-1), king_kong 0.49/16/4 (2-5), klax 0.84/0/1, lost_luggage 0.32/24/20 (0 each),
# pacman 0.03/192/3 (1-8), pitfall2 0.50/14/5 (1-5), space_war 1.00/0/9 (0-20), superman
# 0.75/0/17 (0-2), trondead 1.00/0/17 (1-3, 2 on 12 of 17), word_zapper 0.00/299/20 (0-29,
# 1 on 17).
def trondead(ram, rng: random.Random) -> list[tuple[str, int]]:
    """TRON Deadly Discs (**a frame-locked lag**: every shown press shows 2-3 emulator frames
    after it, 12 of 17 probe presses exactly 2; the arena is still at NOOP: QA s32 T1's
    class, an answer late by a fixed step that an offset must not absorb)."""
    r = rng.random()
    if r < 0.6:
        return [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT", "UPLEFT", "DOWNRIGHT")),
                 rng.randint(5, 12))]
    if r < 0.85:
        return [(rng.choice(("FIRE", "LEFTFIRE", "UPFIRE")), rng.randint(2, 5))]
    return [("NOOP", rng.randint(8, 20))]


def lost_luggage(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Lost Luggage (**an immediate answer**: 20 of 20 probe presses show on the next frame;
    the suitcases fall and burst on their own, 32 % still at NOOP). The porter runs in eight
    directions; there is no button."""
    r = rng.random()
    if r < 0.85:
        return [(rng.choice(("LEFT", "RIGHT", "LEFT", "RIGHT", "UPLEFT", "DOWNRIGHT", "UP",
                             "DOWN")), rng.randint(4, 12))]
    return [("NOOP", rng.randint(6, 14))]


def word_zapper(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Word Zapper (**a busy scroller**: the letters and the meteors scroll across the screen
    all the time, 299 pixels a step at NOOP, never still; presses show 1 frame after them,
    17 of 20). LEFT / RIGHT move the zapper, FIRE shoots a letter."""
    r = rng.random()
    if r < 0.6:
        return [(rng.choice(("LEFT", "RIGHT", "UPLEFT", "UPRIGHT")), rng.randint(5, 12))]
    if r < 0.9:
        return [(rng.choice(("FIRE", "LEFTFIRE", "RIGHTFIRE")), rng.randint(2, 4))]
    return [("NOOP", rng.randint(4, 10))]


def et(ram, rng: random.Random) -> list[tuple[str, int]]:
    """E.T. (**a still picture until a button**: 100 % of NOOP steps unchanged; presses show
    0-3 frames after them, 15 of 20; long waits make holds that a press ends)."""
    r = rng.random()
    if r < 0.55:
        return [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT", "UPRIGHT", "DOWNLEFT")),
                 rng.randint(5, 14))]
    if r < 0.75:
        return [("FIRE", rng.randint(3, 6))]
    return [("NOOP", rng.randint(12, 36))]


def superman(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Superman (**a small figure over a still city**: 75 % still at NOOP; presses show 0-2
    frames after them, 17 of 20; the screen flips when he leaves it)."""
    r = rng.random()
    if r < 0.65:
        return [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT", "UPLEFT", "DOWNRIGHT")),
                 rng.randint(5, 14))]
    if r < 0.85:
        return [(rng.choice(("FIRE", "UPFIRE")), rng.randint(2, 5))]
    return [("NOOP", rng.randint(6, 14))]


def king_kong(ram, rng: random.Random) -> list[tuple[str, int]]:
    """King Kong (**a slow, sparse answer**: 4 of 20 probe presses shown, 2-5 frames after
    them; bombs roll down the girders on their own, 49 % still). LEFT / RIGHT walk, UP / DOWN
    climb, FIRE jumps."""
    r = rng.random()
    if r < 0.7:
        return [(rng.choice(("LEFT", "RIGHT", "LEFT", "RIGHT", "UP", "DOWN")),
                 rng.randint(6, 16))]
    if r < 0.9:
        return [("FIRE", rng.randint(3, 6))]
    return [("NOOP", rng.randint(6, 14))]


def pacman(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Pac-Man (**a busy maze**: the ghosts and the flicker change 192 pixels a step at NOOP,
    3 % still; 3 of 20 probe presses shown, 1-8 frames after them: a turn shows only at a
    junction)."""
    r = rng.random()
    if r < 0.88:
        return [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT")), rng.randint(6, 16))]
    return [("NOOP", rng.randint(4, 10))]


GAMES33 = {"trondead": (trondead, 457), "lost_luggage": (lost_luggage, 461),
           "word_zapper": (word_zapper, 463), "et": (et, 467), "superman": (superman, 479),
           "king_kong": (king_kong, 487), "pacman": (pacman, 491)}
#: two recorders no corpus set, wide set or QA pass used for a run (42 and 28 fps never
#: recorded anything; H.263+ and HuffYUV never encoded anything; grep of scripts/ tests/ bench/):
#: - r42h263pmov: **H.263+ (h263p, GOP 84) + IMA ADPCM in QuickTime MOV**, **42 fps** (every
#:   1.43th emulator frame), x2 nearest (320x420), 3.35 s lead-in;
#: - r28huffyuvavi: **HuffYUV (lossless, yuv422p) + PCM in AVI** (a capture card's / FRAPS-era
#:   recorder), **28 fps** (every 2.14th emulator frame), x2 bilinear, 2.45 s lead-in.
RECORDERS33 = {"r42h263pmov": {"fps": 42, "scale": 2, "lead_s": 3.35, "container": "mov",
                               "codec": "h263pmov42"},
               "r28huffyuvavi": {"fps": 28, "scale": 2, "lead_s": 2.45, "container": "avi",
                                 "codec": "huffyuvavi28"}}
SPEED33A = 0.043          # kind speed43: the video 4.3 % fast (no QA pass used 4.3)
SPEED33B = 0.027          # kind speed27: 2.7 % fast (at 28 fps)
SLOW33A = 1 / 0.953 - 1   # kind slow47: the video at 95.3 % of the log's clock (-4.7 %)
SLOW33B = 1 / 0.969 - 1   # kind slow31: at 96.9 % (-3.1 %; at 28 fps)
REC, REC28 = "r42h263pmov", "r28huffyuvavi"
SYNC_RUNS = [f"{g}-genuine@{REC}" for g in GAMES33] + [
    f"{g}-genuine2@{REC}" for g in ("trondead", "et", "lost_luggage")] + [
    f"superman-cut@{REC}", f"word_zapper-cut@{REC}", f"lost_luggage-insert@{REC}",
    f"king_kong-insert@{REC}", f"et-freeze@{REC}", f"pacman-freeze@{REC}",
    f"trondead-speed43@{REC}", f"word_zapper-slow47@{REC}",
    f"king_kong-deleted@{REC}", f"pacman-deleted@{REC}",
    f"lost_luggage-human@{REC}", f"trondead-human@{REC}"]
SYNC_28 = [f"{g}-genuine@{REC28}" for g in ("trondead", "lost_luggage", "et", "superman",
                                             "king_kong")] + [
    f"et-speed27@{REC28}", f"superman-slow31@{REC28}"]
ALL_RUNS = SYNC_RUNS + SYNC_28
HIDDEN = ("lost_luggage", "word_zapper", "superman")   # signal: immediate / busy / small
HOLDS = ("et", "trondead")                            # still until a button
LAG = ("trondead", "king_kong")                       # a late answer: 2-3 / 2-5 frames
_ENCODE32 = s32._encode


def _encode(frames: np.ndarray, folder: Path, rec) -> Path:
    codec = getattr(rec, "codec", "")
    if codec not in ("h263pmov42", "huffyuvavi28"):
        return _ENCODE32(frames, folder, rec)
    h, w = frames.shape[1:3]
    path = folder / rec.video_name
    cmd = ["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
           "rgb24", "-s", f"{w}x{h}", "-r", str(rec.fps), "-i", "-", "-f", "lavfi", "-i"]
    if codec == "h263pmov42":
        cmd += ["sine=frequency=310:sample_rate=22050", "-map", "0:v", "-map", "1:a",
                "-shortest", "-vf", f"scale={w * 2}:{h * 2}:flags=neighbor",
                "-c:v", "h263p", "-q:v", "4", "-g", "84", "-pix_fmt", "yuv420p",
                "-threads", "1", "-c:a", "adpcm_ima_qt", "-f", "mov", str(path)]
    else:
        cmd += ["sine=frequency=610:sample_rate=32000", "-map", "0:v", "-map", "1:a",
                "-shortest", "-vf", f"scale={w * 2}:{h * 2}:flags=bilinear",
                "-c:v", "huffyuv", "-pix_fmt", "yuv422p", "-threads", "1",
                "-c:a", "pcm_s16le", "-f", "avi", str(path)]
    subprocess.run(cmd, input=np.ascontiguousarray(frames).tobytes(), check=True,
                   stderr=subprocess.DEVNULL)
    return path


#: where a freeze starts (run s) on a game whose own place (corpus.build.tamper_for's) lies in
#: a still hold: et-freeze at its own place (19.25 s of the run, video 22.60-26.60) continued
#: the genuine hold 15.76-23.33 (holds-truth, ffmpeg, before any product run; a freeze that
#: starts inside a hold cannot be placed by any reading: QA s32's judge note 3), so it is
#: moved to 4.0 s of the run (video 7.35-11.35), where the genuine picture holds < 2.5 s
FREEZE_AT33: dict[str, float] = {"et": 4.0}


def _install() -> None:
    s32._install()
    s32.FREEZE_AT32.update(FREEZE_AT33)
    s25._encode = _encode
    s25.GAMES25.update(GAMES33)
    s25.RECORDERS25.update(RECORDERS33)
    build = sys.modules["corpus.build"]
    build.SPEEDUPS["speed43"] = SPEED33A
    build.SPEEDUPS["speed27"] = SPEED33B
    build.SLOWDOWNS["slow47"] = SLOW33A
    build.SLOWDOWNS["slow31"] = SLOW33B
    s28.HIDDEN, s28.HOLDS = HIDDEN, HOLDS
    s28.build_sync_run = s29.build_sync_run = s30.build_sync_run = build_sync_run
    s28.judge_sync = judge_sync


def build_sync_run(name: str) -> Path:
    _install()
    return s25.build_sync_run(name)


def judge_sync(res: dict, truth: dict) -> dict:
    """s30.judge_sync (genuine runs with the holds named, a freeze's warning that reaches more
    than 1 s past it counted elsewhere); this pass' slow kinds judged as `slow` (a drift within
    1 point of the truth's percent)."""
    tam = truth["tamper"]
    if tam["kind"].startswith("slow") and tam["kind"] != "slow":
        truth = {**truth, "tamper": {**tam, "kind": "slow34"}}
    return s30.judge_sync(res, truth)


def sync_truth(name: str) -> dict:
    _install()
    return s31.sync_truth(name)


def check_sync(name: str) -> dict:
    """s28.check_sync (`verify --json --scan --sync` at auto, the truth in the file's time, +2
    and -4 frames off it; judge_sync's bars with this pass' HIDDEN / HOLDS)."""
    _install()
    s30.holds_truth(name)
    return s28.check_sync(name)


def table(sync_log: Path, mismatch_log: Path | None = None) -> dict:
    """s31.table's counts (S-a, S-l, S-c, S-h, S-b, S-j, S-f, S-d, S-e, S-m, S-w) with this
    pass' LAG / HIDDEN / HOLDS."""
    s31.LAG, s31.HIDDEN, s31.HOLDS = LAG, HIDDEN, HOLDS
    return s31.table(sync_log, mismatch_log)


#: a genuine run's video beside another game's genuine log (same recorder)
MISMATCH = {"lost_luggage_video+trondead_log": ("lost_luggage", "trondead", REC),
            "et_video+superman_log": ("et", "superman", REC),
            "king_kong_avi+lost_luggage_log": ("king_kong", "lost_luggage", REC28)}


def check_mismatch(case: str) -> dict:
    _install()
    s28.MISMATCH = MISMATCH
    return s28.check_mismatch(case)


# -- 1b. the analysis' share of the scan (issue 13, bar 20 %) ------------------------------------
SYNCCOST_RUNS = [f"superman-genuine@{REC}", f"lost_luggage-genuine@{REC28}"]


def check_synccost(name: str, pairs: int = 3) -> dict:
    _install()
    return s29.check_synccost(name, pairs)


# -- 2. inserted freeze / black stretch / timestamp gap / cut in new containers (issue 12) ------
#: case -> (fps, frames, {rule: (start, end) frames}, encoder + muxer args, suffix), as
#: qa_session32.SCAN32 (tests/video_corpus Script, frames dropped for the gap)
SCAN33 = {
    # QuickTime MOV (stts durations hold the gap), H.263+, 42 fps, 36 s
    "v33_scan_mov_h263p_42": (42, 1512, {"frozen": (357, 483), "black": (714, 777),
                                         "gap": (966, 1008), "cut": 1239},
                              ["-c:v", "h263p", "-q:v", "4", "-g", "84", "-threads", "1",
                               "-f", "mov"], ".mov"),
    # AVI (no timestamps: a dropped frame is an empty chunk / index hole), HuffYUV, 28 fps, 40 s
    "v33_scan_avi_huffyuv_28": (28, 1120, {"frozen": (196, 294), "black": (448, 490),
                                           "gap": (672, 700), "cut": 882},
                                ["-c:v", "huffyuv", "-pix_fmt", "yuv422p", "-threads", "1",
                                 "-f", "avi"], ".avi"),
}


def _scan_install() -> None:
    s32.SCAN32.update(SCAN33)


def build_scan33(case: str) -> Path:
    _scan_install()
    return s32.build_scan32(case)


def check_scan33(case: str) -> dict:
    _scan_install()
    return s32.check_scan32(case)


# -- 2b. a real cut of the same scene (issue 12: video.cut), new games and containers -----------
#: case -> (game, seed, fps, the cut's time in video s, seconds removed, encoder args, suffix)
#: (s31.build_cut31's footage: one play with this pass' agent, x2 nearest, 20 s, the same
#: scene before and after the cut, no flash)
CUTS33 = {
    # Lost Luggage (the same carousel: the porter and the suitcases jump), 30 fps, H.263+ in
    # MOV, 2 s removed at 9.6 s
    "c33_cut_same_scene_luggage_mov": ("lost_luggage", 3907, 30, 9.6, 2.0,
                                       ["-c:v", "h263p", "-q:v", "4", "-g", "60", "-threads",
                                        "1", "-pix_fmt", "yuv420p", "-f", "mov"], ".mov"),
    # Superman (the same street: the figures jump), 24 fps, HuffYUV in AVI, 3.5 s removed at
    # 11.25 s
    "c33_cut_same_scene_superman_avi": ("superman", 3911, 24, 11.25, 3.5,
                                        ["-c:v", "huffyuv", "-pix_fmt", "yuv422p", "-threads",
                                         "1", "-f", "avi"], ".avi"),
    # E.T. (the same field: E.T. jumps; the game's own screen flips and blinks are larger),
    # 25 fps, H.264 in MPEG-TS, 3 s removed at 10.6 s (at 7.8 s, where nothing moved, the cut
    # changed 0.04 % of the pixels, the file's 96th change: moved before any product run)
    "c33_cut_same_scene_et_ts": ("et", 3917, 25, 10.6, 3.0,
                                 [*_X264, "-crf", "20", "-g", "50", "-f", "mpegts"], ".ts"),
}


def _cuts_install() -> None:
    _install()
    s31.CUTS31.update(CUTS33)
    s31.GAMES31.update(GAMES33)


def build_cut33(case: str) -> Path:
    _cuts_install()
    return s31.build_cut31(case)


def check_cut33(case: str) -> dict:
    _cuts_install()
    return s31.check_cut31(case)


# -- 3. the small-file scan against its decode floor (issue 12), through process start ----------
SMALL33 = {
    # 5 s of 320x240 H.263+ at 42 fps in MOV: 210 small frames
    "small33_a_320x240_5s_42_mov": ("testsrc2=size=320x240:rate=42", 5,
                                    ["-c:v", "h263p", "-q:v", "4", "-g", "84", "-threads",
                                     "1"], "mov"),
    # 2 s of 640x480 HuffYUV at 28 fps in AVI: 56 large lossless frames (a decode floor of
    # its own: no motion search, every byte Huffman-coded)
    "small33_b_640x480_2s_28_avi": ("testsrc2=size=640x480:rate=28", 2,
                                    ["-c:v", "huffyuv", "-pix_fmt", "yuv422p", "-threads",
                                     "1"], "avi"),
}


# -- 4. the official chain on a held-out payload shape (issue 15) --------------------------------
_WORDS = ("ok", "Jane O'Neil", 'say "hi"', "a,b;c", "tab\there", "C:\\tmp", "<b>x</b>",
          "naïve", "100%", "", "NULL", "line\nbreak", "emoji 🎮", "x" * 12)


def _sqlrows_payload(rng: random.Random, size: int) -> dict:
    """A SQL query's result as a harness dumps it: a column list, then rows as ARRAYS of
    mixed scalars (int, 2-decimal float, short string with quotes / commas / escapes, null,
    bool), no keys per row. No pass used heterogeneous arrays as the bulk of a payload
    (floatarray / deeparrays / boolgrid / points are arrays of one type)."""
    rows, used = [], 60
    while used < size - 60:
        row = [rng.randint(-99999, 99999), round(rng.uniform(-1000, 1000), 2),
               rng.choice(_WORDS), None if rng.random() < 0.3 else rng.randint(0, 9),
               rng.random() < 0.5, rng.choice(("2026-12-05", "2026-12-06", None))]
        rows.append(row)
        used += len(json.dumps(row, ensure_ascii=False, separators=(",", ":"))) + 1
    return {"sql": "SELECT id, score, name, lvl, alive, day FROM players",
            "columns": ["id", "score", "name", "lvl", "alive", "day"], "rows": rows}


CHAIN_SHAPES33 = {"sqlrows": _sqlrows_payload}
CHAIN_ENCODE33 = {"sqlrows": lambda ev: json.dumps(ev, ensure_ascii=False,
                                                   separators=(",", ":")).encode()}


def check_chain33(shape: str) -> dict:
    s26.CHAIN_SHAPES.update(CHAIN_SHAPES33)
    s26.CHAIN_ENCODE.update(CHAIN_ENCODE33)
    return s26.check_chain(shape)


def build_chain33(shape: str) -> Path:
    s26.CHAIN_SHAPES.update(CHAIN_SHAPES33)
    s26.CHAIN_ENCODE.update(CHAIN_ENCODE33)
    return s26.build_chain(shape)


# -- 5. hostile inputs of classes no pass used ---------------------------------------------------
def hostile_module():
    import qa_hostile_s33
    return qa_hostile_s33


# -- 6. QA s32's misses T1-T5, their repro lines, on this pass' versions (training data) --------
_R48, _R32 = "r48mp4v3gp", "r32flv1"
S32_MISSES = {
    "T1": [(f"sync/tetris-genuine@{_R48}", "auto"), (f"sync/darkchambers-genuine@{_R48}", "auto")],
    "T2": [(f"sync/tetris-genuine@{_R32}", "3.700"), (f"sync/crossbow-genuine2@{_R48}", "2.850")],
    "T3": [(f"sync/krull-genuine@{_R48}", "auto"), (f"sync/darkchambers-genuine2@{_R48}", "auto")],
    "T4": [(f"sync/battle_zone-insert@{_R48}", "2.850"), (f"sync/jamesbond-cut@{_R48}", "2.850"),
           (f"sync/krull-insert@{_R48}", "2.850")],
    "T5": [(f"sync/krull-speed29@{_R48}", "2.770"), (f"sync/jamesbond-slow36@{_R32}", "3.838")],
}


def check_s32(miss: str) -> dict:
    """T1-T5: `verify --json --scan --sync --offset X` on QA s32's runs (.cache/qa-s32, built
    by qa_session32.py sync-build): the warnings, the suggestion, the drift; T6 / T9 by their
    own commands (qa_session32.py cuts / hostile h32_01..06)."""
    rows = []
    for rel, off in S32_MISSES[miss]:
        d = CACHE32 / rel
        code, rep, err = s22._verify(d, "--scan", "--sync", "--offset", off)
        sy = rep.get("sync") or {}
        dr = [f.get("percent") for f in sy.get("findings", []) if f.get("rule") == "sync.drift"]
        rows.append({"run": rel, "offset": off, "exit": code,
                     "suggested_offset_s": sy.get("suggested_offset_s"),
                     "confidence": sy.get("confidence"), "drift": dr,
                     "warnings": s27._warnings(rep), "stderr": err if not rep else ""})
    return {"miss": miss, "rows": rows}


def main(argv: list[str]) -> int:  # noqa: C901, PLR0912 - one dispatch table
    s25.SMALL.update(SMALL33)
    s23._FMT.setdefault(".avi", "avi")
    s23._FMT.setdefault(".mov", "mov")
    what, rest = (argv[0] if argv else ""), argv[1:]
    pairs = 0
    if "--pairs" in rest:
        i = rest.index("--pairs")
        pairs = int(rest[i + 1])
        rest = rest[:i] + rest[i + 2:]
    if what == "build":
        kinds = rest or ["scan", "cuts", "small"]
        if "scan" in kinds:
            _scan_install()
            _rows(lambda c: {"case": c, "folder": str(build_scan33(c)),
                             "truth": s32.scan_truth(c)}, list(SCAN33), "case")
        if "cuts" in kinds:
            _rows(lambda c: {"case": c, "truth": json.loads(
                (build_cut33(c) / "cut_truth.json").read_text())}, list(CUTS33), "case")
        if "small" in kinds:
            _rows(lambda c: {"case": c, "folder": str(s25.build_small(c))}, list(SMALL33),
                  "case")
        if "chain" in kinds:
            _rows(lambda s: {"shape": s, "folder": str(build_chain33(s))},
                  list(CHAIN_SHAPES33), "shape")
        if "hostile" in kinds:
            print(json.dumps([c for c, _ in hostile_module().cases(CACHE / "hostile")]))
    elif what == "scan":
        _rows(check_scan33, rest or list(SCAN33), "case")
    elif what == "cuts":
        _rows(check_cut33, rest or list(CUTS33), "case")
    elif what == "small":
        _rows(lambda c: s25.check_small(c, pairs or 5), rest or list(SMALL33), "case")
    elif what == "chain":
        _rows(check_chain33, rest or list(CHAIN_SHAPES33), "shape")
    elif what == "sync-build":
        _rows(lambda r: {"run": r, "folder": str(build_sync_run(r))}, rest or ALL_RUNS, "run")
    elif what == "holds-truth":
        _install()
        _rows(s30.holds_truth, rest or [r for r in ALL_RUNS
                                        if r.split("-")[0] in HOLDS or "freeze" in r], "run")
    elif what == "sync-truth":
        _rows(sync_truth, rest or ALL_RUNS, "run")
    elif what == "sync":
        _rows(check_sync, rest or ALL_RUNS, "run")
    elif what == "table":
        print(json.dumps(table(Path(rest[0]), Path(rest[1]) if rest[1:] else None), indent=1))
    elif what == "mismatch":
        _rows(check_mismatch, rest or list(MISMATCH), "case")
    elif what == "synccost":
        _rows(lambda r: check_synccost(r, pairs or 3), rest or SYNCCOST_RUNS, "run")
    elif what == "hostile":
        hostile_module().run(CACHE, rest)
    elif what == "s32":
        _rows(check_s32, rest or list(S32_MISSES), "miss")
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
