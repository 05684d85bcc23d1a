"""Session 34's QA pass (docs/qa/session34.md): held-out inputs for session 34's work, run
through main, actual against expected. Heavy files go to `/work/main/.cache/qa-s34/`
(gitignored); nothing here is imported by the app or the tests. Sessions 13-33's machinery
(scripts/qa_session33.py and through it qa_session10/12..32.py, qa_common.py) is reused by
import. Every generator is deterministic (fixed seeds, fixed encoder settings, one thread).

Run the product of another worktree with PYTHONPATH=/that/worktree (the CLI subprocesses
inherit it; the CLI is started with `python -P`).

    .venv/bin/python scripts/qa_session34.py build [chain|hostile|escape]
    .venv/bin/python scripts/qa_session34.py sync-build|sync-truth|holds-truth|sync [RUN...]
    .venv/bin/python scripts/qa_session34.py waits-truth [RUN...]  # the agent's waits, pictures
    .venv/bin/python scripts/qa_session34.py table SYNC.jsonl [MISMATCH.jsonl]  # the counts
    .venv/bin/python scripts/qa_session34.py mismatch [CASE...]   # issue 13: another game's log
    .venv/bin/python scripts/qa_session34.py chain [SHAPE...]     # issue 15: a held-out shape
    .venv/bin/python scripts/qa_session34.py hostile [ID...]      # issue 15: new spellings
    .venv/bin/python scripts/qa_session34.py escape [CASE...]     # issue 15: escape-heavy CPU
    .venv/bin/python scripts/qa_session34.py s33 [T1..T8]         # QA s33's misses again
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
import qa_session33 as s33  # noqa: E402

if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
from moderator_app.core.samples.payload_shapes import shaped_payload  # noqa: E402

s32, s31, s30, s29, s28, s27, s26, s25 = (s33.s32, s33.s31, s33.s30, s33.s29, s33.s28, s33.s27,
                                          s33.s26, s33.s25)
s24, s23, s22, s21, s19, s14 = s33.s24, s33.s23, s33.s22, s33.s21, s33.s19, s33.s14
CACHE33 = s33.CACHE
CACHE = CACHE33.parent / "qa-s34"
s33.CACHE = s32.CACHE = s31.CACHE = s30.CACHE = s29.CACHE = s28.CACHE = CACHE
s27.CACHE = s26.CACHE = s25.CACHE = s24.CACHE = s23.CACHE = CACHE
for _m in (s22, s23.s10, s23.s13, s14, s23.s15, s22.s12, s22.s16, s22.s17, s22.s18, s19,
           s23.s20, s21):
    _m.CACHE = CACHE
CLI = s22.CLI
_rows = s22._rows


# -- 1. real-game runs (issue 13): four games of the pool and two new recorders -----------------
# Chosen with a probe of the emulator (/tmp/qa34/probe.py, not kept: seed 34, 600 NOOP steps,
# 300 more NOOP steps for the pixels changed a step and the share of unchanged steps, then 20
# presses of 8 frames after 20-60 random steps, each against its NOOP counterfactual from the
# same state: the first of 24 frames that differs). The pool's 7 (still share at NOOP, median
# pixels a step, presses shown of 20, their lag in emulator frames): double_dunk 0.00/14/8
# (1-3, 1 on 6), earthworld 0.50/964/11 (0-8, 0-1 on 10), entombed 0.42/19/10 (1-2),
# flag_capture 0.98/0/10 (0-1), klax 0.84/0/10 (0-7), pitfall2 0.50/14/6 (0-7: 6, 3, 0, 6,
# 1, 7), space_war 1.00/0/8 (0-5). Taken: four screens unlike each other; left for later
# passes: entombed, klax, space_war.
def flag_capture(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Flag Capture (**a still picture until a button, long waits**: 98 % of NOOP steps
    unchanged; presses show 0-1 frames after them). The agent waits 2-3.3 s a third of the
    time, so the picture holds for seconds and a press ends the hold: the frozen engineer's
    target (a hold a press ends is not a freeze)."""
    r = rng.random()
    if r < 0.5:
        return [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT", "UPLEFT", "DOWNRIGHT")),
                 rng.randint(6, 14))]
    if r < 0.67:
        return [("FIRE", rng.randint(3, 6))]
    return [("NOOP", rng.randint(120, 200))]


def earthworld(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Swordquest: Earthworld (**a flicker-busy screen**: 964 pixels a step at NOOP, half the
    steps unchanged: rooms of the zodiac flash and alternate; 11 of 20 probe presses shown,
    10 of them 0-1 frames after, one 8). The hero walks through room edges (a new room)."""
    r = rng.random()
    if r < 0.7:
        return [(rng.choice(("LEFT", "RIGHT", "UP", "DOWN", "UPRIGHT", "DOWNLEFT")),
                 rng.randint(6, 16))]
    if r < 0.9:
        return [("FIRE", rng.randint(2, 5))]
    return [("NOOP", rng.randint(6, 14))]


def double_dunk(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Double Dunk (**never still, small changes**: 0 % of NOOP steps unchanged, 14 pixels a
    step: players jog on the court; 8 of 20 presses shown, 6 of them 1 frame after). FIRE
    passes / shoots, the stick picks plays and moves the player."""
    r = rng.random()
    if r < 0.6:
        return [(rng.choice(("LEFT", "RIGHT", "UP", "DOWN", "UPLEFT", "DOWNRIGHT")),
                 rng.randint(5, 12))]
    if r < 0.88:
        return [(rng.choice(("FIRE", "LEFTFIRE", "RIGHTFIRE")), rng.randint(2, 5))]
    return [("NOOP", rng.randint(6, 14))]


def pitfall2(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Pitfall II (**a sparse, late answer**: half the NOOP steps unchanged, 14 pixels a step:
    bats, condors and eels move on their own; 6 of 20 probe presses shown, 0-7 frames after:
    Harry's steps show only after his run animation turns). LEFT / RIGHT run, FIRE jumps,
    UP / DOWN climb ladders."""
    r = rng.random()
    if r < 0.7:
        return [(rng.choice(("LEFT", "RIGHT", "RIGHT", "LEFT", "UP", "DOWN")),
                 rng.randint(8, 18))]
    if r < 0.88:
        return [(rng.choice(("FIRE", "RIGHTFIRE", "LEFTFIRE")), rng.randint(3, 6))]
    return [("NOOP", rng.randint(6, 14))]


GAMES34 = {"flag_capture": (flag_capture, 503), "earthworld": (earthworld, 509),
           "double_dunk": (double_dunk, 521), "pitfall2": (pitfall2, 523)}
#: two recorders no corpus set, wide set or QA pass used for a run (35 and 22 fps never
#: recorded anything; MS Video 1 and RealVideo 1 never encoded anything; RealMedia only as
#: one hostile file, qa_hostile_s27's h27_01 (RV20), never a run; grep of scripts/ tests/
#: bench/ for msvideo1, rv10, `"fps": 35`, `"fps": 22`: 0 hits):
#: - r35msvideo1avi: **MS Video 1 (msvideo1, "CRAM": 4x4 blocks of 2 or 8 colours, RGB555)
#:   + MS ADPCM in AVI**, **35 fps** (every 1.71th emulator frame), x2 nearest (320x420),
#:   2.65 s lead-in;
#: - r22rv10rm: **RealVideo 1 (rv10, an H.263 variant) + AC-3 in RealMedia**, **22 fps**
#:   (every 2.73th emulator frame; RealMedia keeps times in whole milliseconds, so frame times
#:   jitter 45 / 46 ms), x2 nearest, padded to 320x432 (rv10 needs sizes in 16s: 6 black rows
#:   above and below), 1.85 s lead-in.
RECORDERS34 = {"r35msvideo1avi": {"fps": 35, "scale": 2, "lead_s": 2.65, "container": "avi",
                                  "codec": "msvideo1avi35"},
               "r22rv10rm": {"fps": 22, "scale": 2, "lead_s": 1.85, "container": "rm",
                             "codec": "rv10rm22"}}
#: judge note 1 (docs/qa/session34.md): added at 03:18, after the before pass read every
#: r35msvideo1avi run as `video.empty` (FAIL): the same plays at the same 35 fps and lead-in,
#: encoded by the corpus' x264 MP4 writer (crf 20, x2 nearest), so the sync bars can be read
#: on these games where the codec is not the question. Built before any product run on them.
RECORDERS34["r35h264mp4"] = {"fps": 35, "scale": 2, "lead_s": 2.65, "container": "mp4"}
SPEED34 = 0.034           # kind speed34: the video 3.4 % fast (no pass used 3.4)
SLOW34 = 1 / 0.961 - 1    # kind slow39: the video at 96.1 % of the log's clock (-3.9 %)
REC, REC22 = "r35msvideo1avi", "r22rv10rm"
GENUINE_RUNS = [f"{g}-genuine@{r}" for r in (REC, REC22) for g in GAMES34]
SYNC_RUNS = GENUINE_RUNS + [
    f"flag_capture-genuine2@{REC}",
    f"pitfall2-cut@{REC}", f"earthworld-insert@{REC}", f"double_dunk-freeze@{REC}",
    f"double_dunk-speed34@{REC}", f"flag_capture-slow39@{REC22}",
    f"double_dunk-deleted@{REC22}", f"earthworld-human@{REC22}"]
REC35B = "r35h264mp4"
SYNC_35B = [r.replace(f"@{REC}", f"@{REC35B}") for r in SYNC_RUNS if r.endswith(f"@{REC}")]
ALL_RUNS = SYNC_RUNS + SYNC_35B
#: the groups by the generator's truth (sync-truth, before any product run): Pitfall II with
#: this agent's long runs shows 18 of 20 button presses 0.6 frames late (the probe's short
#: presses showed 6 of 20); Double Dunk shows 4 of 18 (r35) and 7 of 18 (r22), 2.0 / 1.0
#: frames late (median), up to 4: the sparse, late one
HIDDEN = ("flag_capture", "earthworld", "pitfall2")     # signal: immediate / flicker / runs
HOLDS = ("flag_capture",)                               # still until a button, long waits
LAG = ("double_dunk",)                                  # a sparse answer, up to 4 frames late
_ENCODE33 = s33._encode


def _encode(frames: np.ndarray, folder: Path, rec) -> Path:
    codec = getattr(rec, "codec", "")
    if codec not in ("msvideo1avi35", "rv10rm22"):
        return _ENCODE33(frames, folder, rec)
    h, w = frames.shape[1:3]
    path = folder / rec.video_name
    cmd = ["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
           "rgb24", "-s", f"{w}x{h}", "-r", str(rec.fps), "-i", "-", "-f", "lavfi", "-i"]
    if codec == "msvideo1avi35":
        cmd += ["sine=frequency=410:sample_rate=22050", "-map", "0:v", "-map", "1:a",
                "-shortest", "-vf", f"scale={w * 2}:{h * 2}:flags=neighbor",
                "-c:v", "msvideo1", "-pix_fmt", "rgb555le", "-threads", "1",
                "-c:a", "adpcm_ms", "-f", "avi", str(path)]
    else:
        ph = -(-h * 2 // 16) * 16
        cmd += ["sine=frequency=710:sample_rate=44100", "-map", "0:v", "-map", "1:a",
                "-shortest", "-vf",
                f"scale={w * 2}:{h * 2}:flags=neighbor,pad={w * 2}:{ph}:0:{(ph - h * 2) // 2}",
                "-r", str(rec.fps), "-c:v", "rv10", "-q:v", "4", "-g", "44",
                "-pix_fmt", "yuv420p", "-threads", "1", "-c:a", "ac3", "-b:a", "96k",
                "-f", "rm", str(path)]
    subprocess.run(cmd, input=np.ascontiguousarray(frames).tobytes(), check=True,
                   stderr=subprocess.DEVNULL)
    return path


def _install() -> None:
    s33._install()
    s25._encode = _encode
    s25.GAMES25.update(GAMES34)
    s25.RECORDERS25.update(RECORDERS34)
    build = sys.modules["corpus.build"]
    build.SPEEDUPS["speed34"] = SPEED34
    build.SLOWDOWNS["slow39"] = SLOW34
    s28.HIDDEN, s28.HOLDS = HIDDEN, HOLDS
    s28.build_sync_run = s29.build_sync_run = s30.build_sync_run = build_sync_run
    s28.judge_sync = s33.judge_sync
    s23._FMT.setdefault(".rm", "rm")


def build_sync_run(name: str) -> Path:
    _install()
    return s25.build_sync_run(name)


def sync_truth(name: str) -> dict:
    """s31.sync_truth (truth.json, ffprobe; never the product) plus the logged presses of a
    button (NOOP presses left out: they cannot show) and how many the pictures show (the
    bar's "< 10 % shown" for "not enough signal")."""
    _install()
    out = s31.sync_truth(name)
    t = json.loads((CACHE / "sync" / name / "truth.json").read_text())
    acts = [a for a in t.get("actions", []) if a.get("button") != "NOOP"]
    out["buttons_shown"] = sum(a.get("shows_video_s") is not None for a in acts)
    out["buttons"] = len(acts)
    return out


def check_sync(name: str) -> dict:
    """s28.check_sync (`verify --json --scan --sync` at auto, the truth in the file's time, +2
    and -4 frames off it; s33.judge_sync's bars with this pass' HIDDEN / HOLDS), plus the
    truth's shown share for S-a34."""
    _install()
    s30.holds_truth(name)
    res = s28.check_sync(name)
    t = json.loads((CACHE / "sync" / name / "truth.json").read_text())
    acts = [a for a in t.get("actions", []) if a.get("button") != "NOOP"]
    res["shown_share"] = round(sum(a.get("shows_video_s") is not None for a in acts)
                               / max(1, len(acts)), 3)
    return res


def waits_truth(name: str) -> dict:
    """The agent's waits (a logged NOOP press) as the pictures show them (ffmpeg, full-size
    gray, never the product): from the end of the button press before the wait to the first
    shown press after it, the frames in it whose picture changes (a pixel step > 12) and the
    most pixels one step changes. On Flag Capture the picture is still but for the game
    clock's digits once a second (holds-truth's max-step rule finds no hold of 2.5 s), and a
    shown press ends each wait: a `video.frozen` there is a warning on a moving picture that
    a press ends."""
    d = CACHE / "sync" / name
    t = json.loads((d / "truth.json").read_text())
    fps, off = t["fps"], t["offset_s"]
    raw = subprocess.run(["ffmpeg", "-v", "error", "-threads", "1", "-i", str(d / t["video"]),
                          "-f", "rawvideo", "-pix_fmt", "gray", "-"], capture_output=True,
                         check=True).stdout
    w, h = t["size"][0], -(-t["size"][1] // 16) * 16 if t["video"].endswith(".rm") else \
        t["size"][1]
    f = np.frombuffer(raw, np.uint8).reshape(-1, h, w).astype(np.int16)
    ch = (np.abs(np.diff(f, axis=0)) > 12).sum(axis=(1, 2))
    acts, out = t["actions"], []
    for k, a in enumerate(acts):
        if a["button"] != "NOOP":
            continue
        nxt = [b for b in acts[k + 1:] if b["shows_video_s"] is not None]
        prev = [b for b in acts[:k] if b["button"] != "NOOP"]
        a0 = off + prev[-1]["elapsed_ms"] / 1000 + prev[-1]["hold"] / 60 if prev else 0.0
        b0 = nxt[0]["shows_video_s"] if nxt else len(ch) / fps
        seg = ch[int(a0 * fps) + 3:int(b0 * fps) - 1]
        if out and out[-1]["a"] == round(a0, 2):
            continue
        out.append({"a": round(a0, 2), "b": round(b0, 2), "ended_by_press": bool(nxt),
                    "frames": len(seg), "frames_changing": int((seg > 0).sum()),
                    "max_pixels_changed": int(seg.max()) if len(seg) else 0})
    return {"run": name, "waits": out}


def _start(w) -> float | None:
    return w[1] if w[1] is not None else w[2]


def table(sync_log: Path, mismatch_log: Path | None = None) -> dict:
    """s31.table's counts with this pass' LAG / HIDDEN / HOLDS, plus this session's bars:
    S-a34 (a genuine run: an offset within 1 frame at >= 0.5 at auto, or no offset presented
    only where the truth shows < 10 % of the presses; 0 counted warnings at all 4 offsets) and
    S-p (a tampering placed: cut / insert / deleted / human a `sync.*` warning, freeze a
    `video.frozen` or `sync.*`, whose START is within 1 s of the tampering's start, in the
    file's time, at auto or the truth)."""
    s31.LAG, s31.HIDDEN, s31.HOLDS = LAG, HIDDEN, HOLDS
    out = s31.table(sync_log, mismatch_log)
    rows = [json.loads(x) for x in sync_log.read_text().splitlines() if x.startswith("{")]
    good, bad = [], []
    for r in rows:
        if r["tamper"]["kind"] not in ("genuine", "genuine2"):
            continue
        a = r["auto"]
        presented = a["suggested_offset_s"] is not None and (a["confidence"] or 0) >= 0.5
        ok_off = (presented and r["within_frame"]) or (not presented
                                                       and r.get("shown_share", 1) < 0.10)
        warned = any("warnings on a genuine run" in w for w in r["why"])
        (good if ok_off and not warned and not r["failed_exit"] else bad).append(r["run"])
    out["S-a34"] = {"met": len(good), "of": len(good) + len(bad), "not_met": sorted(bad)}
    placed, missed = [], []
    for r in rows:
        tam = r["tamper"]
        k = tam["kind"]
        if k not in ("cut", "insert", "deleted", "human", "freeze"):
            continue
        st = tam.get("video_s", tam.get("video_start_s"))
        st = st + (r.get("file_shift_s") or 0.0)
        hit = False
        for off in ("auto", "truth"):
            for w in r[off]["warnings"]:
                ok_rule = w[0].startswith("sync.") or (k == "freeze" and w[0] == "video.frozen")
                if ok_rule and _start(w) is not None and abs(_start(w) - st) <= 1.0:
                    hit = True
        (placed if hit else missed).append(r["run"])
    out["S-p"] = {"met": len(placed), "of": len(placed) + len(missed), "not_met": sorted(missed)}
    # V-e (issue 12: no error on an honest recording): an error finding at the truth's offset
    errs = {r["run"]: sorted({e[0] for e in r["truth"].get("errors", [])}) for r in rows}
    out["V-e"] = {"met": sum(not v for v in errs.values()), "of": len(errs),
                  "not_met": sorted(f"{k}: {','.join(v)}" for k, v in errs.items() if v)}
    return out


#: a genuine run's video beside another game's genuine log (same recorder)
MISMATCH = {"flag_capture_video+double_dunk_log": ("flag_capture", "double_dunk", REC),
            "earthworld_rm+pitfall2_log": ("earthworld", "pitfall2", REC22)}


def check_mismatch(case: str) -> dict:
    _install()
    s28.MISMATCH = MISMATCH
    return s28.check_mismatch(case)


# -- 4. the official chain on a held-out payload shape (issue 15) --------------------------------
def _tuplelog_payload(rng: random.Random, size: int) -> dict:
    """A game server's event log as a harness dumps it: one array a row, mixing a 13-digit
    millisecond int, a level string, a 3-decimal float, a small OBJECT (`hp`, `pos` as a
    2-int array), null, a short string (quotes, backslash, non-ASCII) or null, a bool and a
    tiny float that Python spells with an exponent (`3.5e-05`, which RFC 8785 spells
    `0.000035`). No pass used rows that nest objects and arrays among scalars (sqlrows: flat
    scalars; deeparrays: arrays of arrays; points: one type). The rows are the bench shape's
    (`payload_shapes`, `tuplelog`), which was this file's generator, moved there in session 35:
    one generator, so that the bench times what this pass built (session 36, review V2)."""
    return shaped_payload("tuplelog", rng, size)


CHAIN_SHAPES34 = {"tuplelog": _tuplelog_payload}
CHAIN_ENCODE34 = {"tuplelog": lambda ev: json.dumps(ev, ensure_ascii=False,
                                                    separators=(",", ":")).encode()}


def _chain_install() -> None:
    s26.CHAIN_SHAPES.update(CHAIN_SHAPES34)
    s26.CHAIN_ENCODE.update(CHAIN_ENCODE34)


def check_chain34(shape: str) -> dict:
    _chain_install()
    return s26.check_chain(shape)


def build_chain34(shape: str) -> Path:
    _chain_install()
    return s26.build_chain(shape)


# -- 5. hostile inputs: new secret spellings, an honest control, escape-heavy logs ------------
def hostile_module():
    import qa_hostile_s34
    return qa_hostile_s34


# -- 6. QA s33's misses T1-T8, their repro lines, on s33's inputs (training data) --------------
_R42, _R28 = "r42h263pmov", "r28huffyuvavi"
S33_MISSES = {
    "T1": [(f"sync/word_zapper-genuine@{_R42}", "auto")],
    "T2": [(f"sync/superman-genuine@{_R42}", "3.350"), (f"sync/trondead-genuine@{_R42}", "3.350"),
           (f"sync/trondead-genuine2@{_R42}", "3.350"), (f"sync/et-genuine@{_R28}", "2.450"),
           (f"sync/superman-genuine@{_R28}", "2.450")],
    "T3": [(f"sync/superman-cut@{_R42}", "3.350"), (f"sync/word_zapper-cut@{_R42}", "3.350"),
           (f"sync/king_kong-insert@{_R42}", "3.350"),
           (f"sync/lost_luggage-insert@{_R42}", "3.350")],
    "T4": [(f"sync/et-freeze@{_R42}", "3.350")],
}


def check_s33(miss: str) -> dict:
    """T1-T4: `verify --json --scan --sync --offset X` on QA s33's runs (.cache/qa-s33): the
    warnings, the suggestion, the drift; T5-T8 by their own commands (qa_session33.py cuts /
    small / chain sqlrows / hostile h33_01 h33_02 h33_03)."""
    rows = []
    for rel, off in S33_MISSES[miss]:
        d = CACHE33 / rel
        code, rep, err = s22._verify(d, "--scan", "--sync", "--offset", off)
        sy = rep.get("sync") or {}
        dr = [f.get("percent") for f in sy.get("findings", []) if f.get("rule") == "sync.drift"]
        rows.append({"run": rel, "offset": off, "exit": code,
                     "suggested_offset_s": sy.get("suggested_offset_s"),
                     "confidence": sy.get("confidence"), "drift": dr,
                     "warnings": s27._warnings(rep), "stderr": err if not rep else ""})
    return {"miss": miss, "rows": rows}


def main(argv: list[str]) -> int:  # noqa: C901, PLR0912 - one dispatch table
    s23._FMT.setdefault(".rm", "rm")
    what, rest = (argv[0] if argv else ""), argv[1:]
    if what == "build":
        kinds = rest or ["chain", "hostile", "escape"]
        if "chain" in kinds:
            _rows(lambda s: {"shape": s, "folder": str(build_chain34(s))},
                  list(CHAIN_SHAPES34), "shape")
        if "hostile" in kinds:
            print(json.dumps([c for c, _ in hostile_module().cases(CACHE / "hostile")]))
        if "escape" in kinds:
            _rows(lambda c: {"case": c, **hostile_module().build_escape(CACHE / "escape", c)},
                  list(hostile_module().ESCAPE), "case")
    elif what == "chain":
        _rows(check_chain34, rest or list(CHAIN_SHAPES34), "shape")
    elif what == "sync-build":
        _rows(lambda r: {"run": r, "folder": str(build_sync_run(r))}, rest or ALL_RUNS, "run")
    elif what == "holds-truth":
        _install()
        _rows(s30.holds_truth, rest or [r for r in ALL_RUNS
                                        if r.split("-")[0] in HOLDS or "freeze" in r], "run")
    elif what == "waits-truth":
        _rows(waits_truth, rest or [r for r in ALL_RUNS if r.split("-")[0] in HOLDS], "run")
    elif what == "sync-truth":
        _rows(sync_truth, rest or ALL_RUNS, "run")
    elif what == "sync":
        _rows(check_sync, rest or ALL_RUNS, "run")
    elif what == "table":
        print(json.dumps(table(Path(rest[0]), Path(rest[1]) if rest[1:] else None), indent=1))
    elif what == "mismatch":
        _rows(check_mismatch, rest or list(MISMATCH), "case")
    elif what == "hostile":
        hostile_module().run(CACHE, rest)
    elif what == "escape":
        _rows(lambda c: hostile_module().check_escape(CACHE / "escape", c),
              rest or list(hostile_module().ESCAPE), "case")
    elif what == "s33":
        _rows(check_s33, rest or list(S33_MISSES), "miss")
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
