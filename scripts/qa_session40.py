"""Session 40's QA pass (docs/qa/session40.md): held-out inputs for session 40's work, run
through main, actual against expected. Heavy files go to `/work/main/.cache/qa-s40/`
(gitignored); nothing here is imported by the app or the tests. Sessions 13-39's machinery
(scripts/qa_session39.py and through it qa_session10/12..38.py, qa_common.py, the corpus
generator tests/corpus) is reused by import. Every generator is deterministic (fixed seeds,
fixed encoder settings, one thread).

The reserved pool of games is empty: this pass plays (1) **a new synthetic game,
`synth_prism`** (a scrolling field under a palette cycle; presses answered a variable 1-4
frames late, half of them by colour-only changes at a fixed luma; a wait whose life is a
colour cycle at a fixed luma, still in gray; then two still stretches whose life is a beacon
with a duty cycle of 20 % and then of 75 %), the truth by construction, and (2) **ALE mode /
difficulty variants of two untuned wide games** no pass played, reported apart.

Run the product of another worktree with PYTHONPATH=/that/worktree (the CLI subprocesses
inherit it; the CLI is started with `python -P`).

    .venv/bin/python scripts/qa_session40.py sync-build|sync-truth|holds-truth|waits-truth|sync [RUN...]
    .venv/bin/python scripts/qa_session40.py table SYNC.jsonl [MISMATCH.jsonl] | summary SYNC.jsonl
    .venv/bin/python scripts/qa_session40.py mismatch [CASE...]
    .venv/bin/python scripts/qa_session40.py probe GAME MODE DIFF | synth-probe [SEED]
    .venv/bin/python scripts/qa_session40.py build [chain|hostile|escape]
    .venv/bin/python scripts/qa_session40.py chain|jcs-check [SHAPE...]  # issue 15: a held-out shape
    .venv/bin/python scripts/qa_session40.py hostile [ID...]      # issue 15: new spellings
    .venv/bin/python scripts/qa_session40.py escape [CASE...]     # issue 15: escape-heavy CPU
    .venv/bin/python scripts/qa_session40.py s39 [T1..T5]         # QA s39's sync misses again
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
import qa_session39 as s39  # noqa: E402

s38, s37, s36, s35, s34 = s39.s38, s39.s37, s39.s36, s39.s35, s39.s34
s33, s32, s31, s30, s29, s28 = s39.s33, s39.s32, s39.s31, s39.s30, s39.s29, s39.s28
s27, s26, s25, s24, s23, s22 = s39.s27, s39.s26, s39.s25, s39.s24, s39.s23, s39.s22
s21, s19, s14 = s39.s21, s39.s19, s39.s14
CACHE39 = s39.CACHE
CACHE = CACHE39.parent / "qa-s40"
s39.CACHE = s38.CACHE = s37.CACHE = s36.CACHE = s35.CACHE = s34.CACHE = s33.CACHE = CACHE
s32.CACHE = s31.CACHE = s30.CACHE = s29.CACHE = s28.CACHE = s27.CACHE = s26.CACHE = CACHE
s25.CACHE = s24.CACHE = s23.CACHE = CACHE
for _m in (s22, s23.s10, s23.s13, s14, s23.s15, s22.s12, s22.s16, s22.s17, s22.s18, s19,
           s23.s20, s21):
    _m.CACHE = CACHE
_rows = s22._rows
MAX_HOLD = s39.MAX_HOLD   # every press or wait <= 84 frames: no event after run_end (s36 T7)


# -- 1b. ALE mode / difficulty variants of two untuned wide games no pass played ---------------
# Probe (s37's `probe GAME MODE DIFF`, seed 37; lag in steps, None = unshown), at 22:16-22:25
# UTC. Not taken: gopher m2 d1 (7 of 20 shown), qbert m0 d1 (1), galaxian m5 d0 (0), bank_heist
# m8 d2 (2), up_n_down m0 d2 (3), galaxian m7 d1 (0), bowling m2 d0 (5), galaxian m3 d0 (3),
# tic_tac_toe_3d m3 d2 (9, answers 0-3 steps late on a board that barely moves). Taken:
# - gopher mode 0 difficulty 1: 99.9 % of NOOP steps unchanged, <= 1,872 pixels (a screen
#   that moves on input), 11 of 20 shown, all 1 step late;
# - bank_heist mode 16 difficulty 0: 75 % unchanged, median 0, <= 18 pixels, 8 of 20 shown,
#   **1-7 steps late** (a variable delay, as *delay*'s target).
VARIANTS = {"gopher_m0d1": ("gopher", 0, 1), "bank_heist_m16d0": ("bank_heist", 16, 0)}
GO, BH = VARIANTS


def gopher_m0d1(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Gopher, difficulty 1: the farmer runs left / right and shovels (FIRE); a fifth of the
    time a wait <= 1.4 s."""
    r = rng.random()
    if r < 0.55:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(5, 14))]
    if r < 0.8:
        return [(rng.choice(("FIRE", "LEFTFIRE", "RIGHTFIRE")), rng.randint(3, 8))]
    return [("NOOP", rng.randint(40, MAX_HOLD))]


def bank_heist_m16d0(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Bank Heist, game 16: drive the maze's four ways, FIRE drops dynamite; a fifth of the
    time a wait <= 1.4 s."""
    r = rng.random()
    if r < 0.62:
        return [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT")), rng.randint(5, 14))]
    if r < 0.8:
        return [(rng.choice(("FIRE", "UPFIRE", "DOWNFIRE")), rng.randint(3, 7))]
    return [("NOOP", rng.randint(40, MAX_HOLD))]


# -- 1. a synthetic game written for this pass --------------------------------------------------
def _ycc(y: float, r: float, ang_deg: float) -> np.ndarray:
    """An RGB colour of luma y (BT.601) whose chroma (Cb, Cr) lies at radius r, angle ang: two
    colours of one y and radius differ in colour only (a gray reader sees them as one)."""
    a = np.deg2rad(ang_deg)
    cb, cr = r * np.cos(a), r * np.sin(a)
    return np.array([y + 1.402 * cr, y - 0.344136 * cb - 0.714136 * cr, y + 1.772 * cb],
                    np.float32)


class SynthPrism:
    """**synth_prism**, a 160x210 game with the emulator's interface (act, getScreenRGB,
    cloneState / restoreState, getRAM, game_over, reset_game), so the corpus generator plays
    it and finds each press' first visible frame by its own NOOP counterfactual (the truth by
    construction). Screen behaviour no earlier pass had (s36's courier, s37's glider, s38's
    lantern panned a world and stepped a palette, s39's strobe redrew on a beat and turned the
    hue about the grey axis):
    The phases count the emulator's frames from its reset, the lead-in included: video s = frame
    / 60 at every recorder (run s = video s - the lead-in).
    - **a scrolling field under a palette cycle** (frames < ISO, video 0-16 s): an 8x8-block
      field of 4 shades scrolls sideways 1 px a frame (wrapping) while every colour's chroma
      turns 6 degrees every 4 frames: every frame changes, none because of a press;
    - **answers a variable 1-4 frames late** (a hash of the step, changing every 30 frames);
    - **colour-only answers**: FIRE (its first frame) turns a 20x8 lamp in the top strip
      half a turn round the chroma circle **at the same luma** for 8 frames; LEFT / RIGHT turn
      an 80x10 gauge above the ground 4 degrees of chroma a frame **at the same luma**;
      UP / DOWN move a **4x4 marker** on a track at the right (2 px a frame): about half the
      answers are invisible in gray;
    - **a wait whose life is a colour cycle at a fixed luma** (frames ISO..STILL_A, video
      16-22 s): the scroll stops; every colour's chroma turns 7.5 degrees every 6 frames, its luma
      kept: **exactly still in gray**, every pixel's colour changing;
    - **a still stretch whose life is a beacon lit 20 % of the time** (STILL_A..STILL_B, video
      22-31 s): a 2x1 beacon lit 6 frames in 30;
    - **a still stretch whose life is a beacon lit 75 % of the time** (STILL_B to the end,
      video 31 s to the end): a 1-px beacon elsewhere, lit 33 frames in 44 (dark 11);
    - the game's black: rows 186-209 pure black ground."""

    W, H = 160, 210
    ACTIONS = ("NOOP", "FIRE", "UP", "RIGHT", "LEFT", "DOWN")
    ISO = 16 * 60       # emulator frames from reset, the lead-in included (= video s x 60)
    STILL_A = 22 * 60
    STILL_B = 31 * 60
    SHADES = ((70, 38, 20), (105, 38, 110), (140, 38, 200), (175, 38, 290))  # y, r, angle

    def __init__(self, seed: int) -> None:
        self.seed = seed
        rng = np.random.default_rng(seed)
        self.field = rng.integers(0, 4, (22, 40))     # 8x8 blocks, 320 px wide: it wraps
        self.reset_game()

    def reset_game(self) -> None:
        self.s = {"f": 0, "cur": 100, "gauge": 0, "flash": 0, "queue": (0,) * 8}

    def cloneState(self):  # noqa: N802 - the emulator's name
        return dict(self.s)

    def restoreState(self, st) -> None:  # noqa: N802
        self.s = dict(st)

    def getRAM(self):  # noqa: N802
        return np.zeros(128, np.uint8)

    def game_over(self) -> bool:
        return False

    def _lag(self, f: int) -> int:
        return 1 + ((f // 30) * 7919 + self.seed * 13) % 4

    def act(self, a: int) -> int:
        s = self.s
        f = s["f"] + 1
        q = (*s["queue"][1:], int(a))
        s["queue"], s["f"] = q, f
        lag = self._lag(f)
        name, prev = self.ACTIONS[q[-1 - lag]], self.ACTIONS[q[-2 - lag]]
        if name == "UP":
            s["cur"] = max(14, s["cur"] - 2)
        elif name == "DOWN":
            s["cur"] = min(168, s["cur"] + 2)
        elif name == "LEFT":
            s["gauge"] = (s["gauge"] - 4) % 360
        elif name == "RIGHT":
            s["gauge"] = (s["gauge"] + 4) % 360
        if name == "FIRE" and prev != "FIRE":
            s["flash"] = 8
        elif s["flash"] > 0:
            s["flash"] -= 1
        return 0

    def _turn(self, f: int) -> float:
        if f < self.ISO:
            return 6.0 * (f // 4)
        return 6.0 * (self.ISO // 4) + 7.5 * ((min(f, self.STILL_A) - self.ISO) // 6)

    def getScreenRGB(self):  # noqa: N802
        s, f = self.s, self.s["f"]
        turn = self._turn(f)
        pal = np.stack([_ycc(y, r, a + turn) for y, r, a in self.SHADES])
        cols = np.repeat(np.repeat(self.field, 8, 0), 8, 1)[:176]       # 176 x 320
        shift = f % 320 if f < self.ISO else self.ISO % 320
        cols = np.roll(cols, -shift, axis=1)[:, :self.W]
        img = np.zeros((self.H, self.W, 3), np.float32)
        img[10:186] = pal[cols]
        img[:10] = (24, 24, 24)                                           # the top strip
        lamp = 200 + (180 if s["flash"] > 0 else 0)
        img[1:9, 70:90] = _ycc(120, 55, lamp)                             # colour-only lamp
        img[176:186, 40:120] = _ycc(96, 50, 30 + s["gauge"])              # colour-only gauge
        img[10:186, 148:156] = (30, 30, 30)                               # the marker's track
        img[s["cur"]:s["cur"] + 4, 150:154] = (250, 250, 250)             # the 4x4 marker
        img[186:] = 0                                                     # the black ground
        if self.STILL_A <= f < self.STILL_B and f % 30 < 6:
            img[60, 30:32] = (255, 255, 160)                              # beacon A: 20 %
        if f >= self.STILL_B and f % 44 < 33:
            img[120, 130] = (200, 255, 255)                               # beacon B: 75 %
        return np.clip(np.rint(img), 0, 255).astype(np.uint8)


SYNTH = "synth_prism"


def synth_prism(ram, rng: random.Random) -> list[tuple[str, int]]:
    """The prism's agent: FIRE 3-6 (the lamp), UP / DOWN 4-10 (the marker), LEFT / RIGHT 4-12
    (the gauge), a wait of 0.7-1.4 s a fifth of the time."""
    r = rng.random()
    if r < 0.22:
        return [("FIRE", rng.randint(3, 6))]
    if r < 0.48:
        return [(rng.choice(("UP", "DOWN")), rng.randint(4, 10))]
    if r < 0.8:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(4, 12))]
    return [("NOOP", rng.randint(40, MAX_HOLD))]


GAMES40 = {SYNTH: (synth_prism, 840), GO: (gopher_m0d1, 857), BH: (bank_heist_m16d0, 859)}

#: two recorders no corpus set, wide set or QA pass used (grep of scripts/ tests/ bench/ for
#: speedhq, rv20, `.rm`, `"fps": 43`, `"fps": 53`: 0 hits):
#: - r43shqmov: **SpeedHQ** (NewTek NDI's all-intra DCT codec, 4:2:2) + PCM s24le in a **MOV**
#:   (an NDI Studio Monitor recording), **43 fps** (every 1.395th emulator frame), x2 nearest,
#:   1.35 s lead-in;
#: - r53rv20rm: **RealVideo 2** (rv20: an inter-frame H.263-like codec, a key frame every 106
#:   frames, q 4, yuv420p) + AC-3 in a **RealMedia** (`.rm`) file, **53 fps** (every 1.13th
#:   emulator frame), x2 nearest, 2.4 s lead-in. RealMedia stamps in milliseconds (53 fps is
#:   18.87 ms: the stamps jitter by up to 0.5 ms).
RECORDERS40 = {"r43shqmov": {"fps": 43, "scale": 2, "lead_s": 1.35, "container": "mov",
                             "codec": "speedhqmov43"},
               "r53rv20rm": {"fps": 53, "scale": 2, "lead_s": 2.4, "container": "rm",
                             "codec": "rv20rm53"}}
REC, REC2 = "r43shqmov", "r53rv20rm"
SPEED40 = 0.016            # kind speed16: the video 1.6 % fast (no pass used 1.6)
SLOW40 = 1 / 0.976 - 1     # kind slow24: the video at 97.6 % of the log's clock (-2.4 %)
#: kind freezeend: the corpus' freeze (4 s of one picture) at run 33.0 s, inside the still
#: stretch whose life is the 75 % beacon (and the presses' answers)
FREEZE_END_AT_S = 33.0
SYNTH_RUNS = [f"{SYNTH}-genuine@{REC}", f"{SYNTH}-genuine@{REC2}", f"{SYNTH}-genuine2@{REC}",
              f"{SYNTH}-freezeend@{REC}", f"{SYNTH}-freezeend@{REC2}",
              f"{SYNTH}-cut@{REC2}", f"{SYNTH}-insert@{REC}", f"{SYNTH}-freeze@{REC2}",
              f"{SYNTH}-speed16@{REC}", f"{SYNTH}-slow24@{REC2}", f"{SYNTH}-deleted@{REC}",
              f"{SYNTH}-human@{REC2}"]
VARIANT_RUNS = [f"{GO}-genuine@{REC}", f"{GO}-genuine@{REC2}", f"{BH}-genuine@{REC}",
                f"{BH}-genuine@{REC2}", f"{GO}-cut@{REC2}", f"{BH}-insert@{REC}",
                f"{GO}-deleted@{REC}", f"{BH}-human@{REC2}"]
ALL_RUNS = SYNTH_RUNS + VARIANT_RUNS
GENUINE_RUNS = [r for r in ALL_RUNS if "-genuine" in r]
HIDDEN = (GO, BH, SYNTH)
HOLDS = (SYNTH, GO)
LAG = ()
_ENCODE39 = s39._encode


def _ffmpeg_tail(codec: str, w: int, h: int, path: Path) -> list[str]:
    if codec == "speedhqmov43":
        return ["sine=frequency=610:sample_rate=48000", "-map", "0:v", "-map", "1:a",
                "-shortest", "-vf", f"scale={w * 2}:{h * 2}:flags=neighbor",
                "-c:v", "speedhq", "-q:v", "3", "-pix_fmt", "yuv422p", "-threads", "1",
                "-c:a", "pcm_s24le", "-f", "mov", str(path)]
    return ["sine=frequency=390:sample_rate=44100", "-map", "0:v", "-map", "1:a",
            "-shortest", "-vf", f"scale={w * 2}:{h * 2}:flags=neighbor",
            "-c:v", "rv20", "-q:v", "4", "-g", "106", "-pix_fmt", "yuv420p",
            "-threads", "1", "-c:a", "ac3", "-b:a", "96k", "-f", "rm", str(path)]


def _encode(frames: np.ndarray, folder: Path, rec) -> Path:
    codec = getattr(rec, "codec", "")
    if codec not in ("speedhqmov43", "rv20rm53"):
        return _ENCODE39(frames, folder, rec)
    h, w = frames.shape[1:3]
    path = folder / rec.video_name
    cmd = ["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
           "rgb24", "-s", f"{w}x{h}", "-r", str(rec.fps), "-i", "-", "-f", "lavfi", "-i",
           *_ffmpeg_tail(codec, w, h, path)]
    subprocess.run(cmd, input=np.ascontiguousarray(frames).tobytes(), check=True,
                   stderr=subprocess.DEVNULL)
    return path


def _emulator_variants() -> None:
    """This pass' ALE variants (setMode / setDifficulty, applied at the reset that follows)
    and its synthetic game, over s39's hook."""
    import corpus.play as play

    s39._emulator_variants()
    if getattr(play, "_qa40", False):
        return
    orig = play._emulator

    def emulator(game: str, seed: int):
        if game == SYNTH:
            return SynthPrism(seed), {n: i for i, n in enumerate(SynthPrism.ACTIONS)}
        if game not in VARIANTS:
            return orig(game, seed)
        rom, mode, diff = VARIANTS[game]
        ale, acts = orig(rom, seed)
        ale.setMode(mode)
        ale.setDifficulty(diff)
        ale.reset_game()
        return ale, acts

    play._emulator, play._qa40 = emulator, True


def _install() -> None:
    s39._install()
    s37.FREEZE_END_AT_S = s38.FREEZE_END_AT_S = s39.FREEZE_END_AT_S = FREEZE_END_AT_S
    s25._encode = _encode
    s25.GAMES25.update(GAMES40)
    s25.RECORDERS25.update(RECORDERS40)
    build = sys.modules["corpus.build"]
    build.SPEEDUPS["speed16"] = SPEED40
    build.SLOWDOWNS["slow24"] = SLOW40
    s34.HIDDEN, s34.HOLDS, s34.LAG = HIDDEN, HOLDS, LAG
    s28.HIDDEN, s28.HOLDS = HIDDEN, HOLDS
    s28.build_sync_run = s29.build_sync_run = s30.build_sync_run = build_sync_run
    s36.build_sync_run = s37.build_sync_run = build_sync_run
    s23._FMT.setdefault(".rm", "rm")
    _emulator_variants()


def build_sync_run(name: str) -> Path:
    _install()
    out = s25.build_sync_run(name)
    s37._t7_check(out)
    return out


def sync_truth(name: str) -> dict:
    _install()
    return s34.sync_truth(name)


def check_sync(name: str) -> dict:
    _install()
    return s34.check_sync(name)


#: the prism's stretches in video seconds (the emulator's frames from reset / 60, the lead-in
#: included: the same at every recorder of a run at the log's pace)
ISO_S = (SynthPrism.ISO / 60, SynthPrism.STILL_A / 60)
BEACON_S = (SynthPrism.STILL_A / 60, 60.0)


def table(sync_log: Path, mismatch_log: Path | None = None) -> dict:
    """s37.table's counts (section 1 apart from 1b; S-fe: the edited freeze inside the 75 %
    beacon's stretch, a `video.frozen` WARNING starting within 1 s of the freeze), plus S-cc
    (the fixed-luma colour cycle) and S-bd (the duty-cycle beacons' stretches)."""
    s37.SYNTH, s37.HIDDEN, s37.HOLDS, s37.LAG = SYNTH, HIDDEN, HOLDS, LAG
    out = s37.table(sync_log, mismatch_log)
    out["S-cc"] = stretch_bar(sync_log, ISO_S)
    out["S-bd"] = stretch_bar(sync_log, BEACON_S)
    return out


def stretch_bar(sync_log: Path, span: tuple[float, float]) -> dict:
    """S-cc / S-bd (the doc's bars, set before any product run): on the prism's genuine runs,
    at the 4 offsets, no `video.frozen` / `sync.*` warning covering any of the stretch (video
    s; a warning with no end counts where its start lies)."""
    rows = [json.loads(x) for x in sync_log.read_text().splitlines() if x.startswith("{")]
    gen = [r for r in rows if r["run"].startswith(SYNTH) and r["tamper"]["kind"] in (
        "genuine", "genuine2")]
    bad, hits = [], {}
    for r in gen:
        a, b = span
        ws = [(k, *w) for k in ("auto", "truth", "+2f", "-4f")
              for w in r.get(k, {}).get("warnings", [])
              if (w[0] == "video.frozen" or w[0].startswith("sync.")) and len(w) > 2
              and w[1] is not None]
        hit = [w for w in ws if w[2] <= b and (w[3] if w[3] is not None else w[2]) >= a]
        if hit:
            bad.append(r["run"])
            hits[r["run"]] = hit
    return {"met": len(gen) - len(bad), "of": len(gen), "not_met": bad, "warnings": hits}


def waits_truth(name: str) -> dict:
    """s34's waits_truth (ffmpeg, full size, never the product: from the end of the press
    before a wait to the first shown press after it, the frames whose picture changes by a
    step > 12 and the most pixels one step changes), in gray AND in colour (any of R, G, B
    stepping > 12): the prism's colour cycle is still in gray. (s34's copy pads a `.rm`
    file's height to 16: ffmpeg no longer does.)"""
    d = CACHE / "sync" / name
    t = json.loads((d / "truth.json").read_text())
    fps, off = t["fps"], t["offset_s"]
    w, h = t["size"]
    out = {}
    for label, fmt, depth in (("gray", "gray", 1), ("colour", "rgb24", 3)):
        proc = subprocess.Popen(["ffmpeg", "-v", "error", "-threads", "1", "-i",
                                 str(d / t["video"]), "-f", "rawvideo", "-pix_fmt", fmt, "-"],
                                stdout=subprocess.PIPE)
        n, prev, steps = w * h * depth, None, []
        while True:
            buf = proc.stdout.read(n)
            if len(buf) < n:
                break
            cur = np.frombuffer(buf, np.uint8).reshape(h, w, depth).astype(np.int16)
            if prev is not None:
                steps.append(int((np.abs(cur - prev) > 12).any(axis=2).sum()))
            prev = cur
        proc.wait()
        ch = np.array(steps)
        acts, rows = t["actions"], []
        for k, a in enumerate(acts):
            if a["button"] != "NOOP":
                continue
            nxt = [b for b in acts[k + 1:] if b["shows_video_s"] is not None]
            prev = [b for b in acts[:k] if b["button"] != "NOOP"]
            a0 = off + prev[-1]["elapsed_ms"] / 1000 + prev[-1]["hold"] / 60 if prev else 0.0
            b0 = nxt[0]["shows_video_s"] if nxt else len(ch) / fps
            seg = ch[int(a0 * fps) + 3:int(b0 * fps) - 1]
            if rows and rows[-1]["a"] == round(a0, 2):
                continue
            rows.append({"a": round(a0, 2), "b": round(b0, 2), "ended_by_press": bool(nxt),
                         "frames": len(seg), "frames_changing": int((seg > 0).sum()),
                         "max_pixels_changed": int(seg.max()) if len(seg) else 0})
        out[label] = rows
    return {"run": name, "waits": out}


def summary(sync_log: Path) -> list[dict]:
    """One line a run for the doc: auto's suggestion, its confidence and its error in frames of
    the file (against the truth in the file's time), and the `sync.*` / `video.frozen`
    warnings at each of the 4 offsets (rule, start, end)."""
    out = []
    for x in sync_log.read_text().splitlines():
        if not x.startswith("{"):
            continue
        r = json.loads(x)
        fps = RECORDERS40.get(r["run"].split("@")[1], {}).get("fps") or 1
        a = r.get("auto", {})
        sug, truth = a.get("suggested_offset_s"), r.get("truth_in_file_s", r["truth_offset_s"])
        row = {"run": r["run"], "sug": sug, "conf": a.get("confidence"),
               "err_frames": None if sug is None else round((sug - truth) * fps, 2),
               "drift": a.get("drift_percent"), "exits": {}}
        for k in ("auto", "truth", "+2f", "-4f"):
            v = r.get(k, {})
            row["exits"][k] = v.get("exit")
            row[k] = [(w[0], w[1], w[2] if len(w) > 2 else None) for w in v.get("warnings", [])
                      if w[0].startswith("sync.") or w[0] == "video.frozen"]
        out.append(row)
    return out


MISMATCH = {"prism_video+gopher_log": (SYNTH, GO, REC),
            "bank_heist_rm+prism_log": (BH, SYNTH, REC2)}


def check_mismatch(case: str) -> dict:
    _install()
    s28.MISMATCH = MISMATCH
    return s28.check_mismatch(case)


def synth_probe(seed: str) -> dict:
    """s39's probe on this pass' game, per phase: NOOP steps' changed pixels (in colour and in
    BT.601 gray, > 2 levels), and 20 probe presses (8 frames, after 20-60 random steps)
    against their NOOP counterfactual, with whether each answer shows in gray."""
    out = {"seed": seed}

    def gray(x: np.ndarray) -> np.ndarray:
        return x.astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)

    for label, start in (("scroll", 60), ("iso", SynthPrism.ISO + 30),
                         ("beacon20", SynthPrism.STILL_A + 30),
                         ("beacon75", SynthPrism.STILL_B + 30)):
        g = SynthPrism(int(seed))
        for _ in range(start):
            g.act(0)
        prev, ch, chg = g.getScreenRGB(), [], []
        for _ in range(120):
            g.act(0)
            cur = g.getScreenRGB()
            ch.append(int((cur != prev).any(axis=2).sum()))
            chg.append(int((np.abs(gray(cur) - gray(prev)) > 2).sum()))
            prev = cur
        rng, lags, in_gray = random.Random(int(seed)), [], 0
        g = SynthPrism(int(seed))
        for _ in range(start):
            g.act(0)
        for _ in range(20):
            for _ in range(rng.randint(20, 60)):
                g.act(rng.randint(1, 5))
            st, base = g.cloneState(), []
            for _ in range(40):
                g.act(0)
                base.append(g.getScreenRGB())
            g.restoreState(st)
            b, got, seen_gray = rng.randint(1, 5), None, False
            for k in range(40):
                g.act(b if k < 8 else 0)
                scr = g.getScreenRGB()
                if got is None and (scr != base[k]).any():
                    got = k
                if (np.abs(gray(scr) - gray(base[k])) > 2).any():
                    seen_gray = True
            lags.append(got)
            in_gray += seen_gray
            g.restoreState(st)
        arr, arg = np.array(ch), np.array(chg)
        out[label] = {"still_share": round(float((arr == 0).mean()), 3),
                      "gray_still_share": round(float((arg == 0).mean()), 3),
                      "max_pixels": int(arr.max()), "median_pixels": int(np.median(arr)),
                      "shown": sum(x is not None for x in lags), "shown_in_gray": in_gray,
                      "lags": lags}
    return out


# -- 2/3/4: chain shape, hostile spellings, escape-heavy logs: scripts/qa_hostile_s40.py -------
def hostile_module():
    import qa_hostile_s40
    return qa_hostile_s40


# -- 5. QA s39's misses (training data now; the engineers' targets) -----------------------------
_R41, _R57 = "r41wmv1asf", "r57asv2nut"
S39_MISSES = {
    "T1": [(f"sync/synth_strobe-genuine@{_R41}", "auto"),
           (f"sync/synth_strobe-genuine@{_R57}", "auto"),
           (f"sync/synth_strobe-genuine2@{_R41}", "auto"),
           (f"sync/zaxxon_m8d0-genuine@{_R41}", "auto"),
           (f"sync/alien_m3d2-genuine@{_R41}", "auto"),
           (f"sync/alien_m3d2-genuine@{_R57}", "auto")],
    "T2": [(f"sync/synth_strobe-genuine@{_R41}", "1.6"),
           (f"sync/synth_strobe-human@{_R57}", "2.05")],
    "T3": [(f"sync/synth_strobe-genuine@{_R57}", "2.05"),
           (f"sync/synth_strobe-cut@{_R57}", "2.05"),
           (f"sync/synth_strobe-slow17@{_R57}", "auto")],
    "T4": [(f"sync/synth_strobe-freezeend@{_R41}", "1.6"),
           (f"sync/synth_strobe-freezeend@{_R57}", "2.05")],
    "T5": [(f"sync/synth_strobe-cut@{_R57}", "2.05"),
           (f"sync/synth_strobe-insert@{_R41}", "1.6"),
           (f"sync/zaxxon_m8d0-cut@{_R57}", "2.05"),
           (f"sync/alien_m3d2-insert@{_R41}", "1.6"),
           (f"sync/synth_strobe-speed19@{_R41}", "auto"),
           (f"sync/synth_strobe-slow17@{_R57}", "auto")],
}


def check_s39(miss: str) -> dict:
    s37.S36_MISSES = S39_MISSES
    s37.CACHE36 = CACHE39
    return s37.check_s36(miss)


def main(argv: list[str]) -> int:  # noqa: C901, PLR0912 - one dispatch table
    s23._FMT.setdefault(".rm", "rm")
    what, rest = (argv[0] if argv else ""), argv[1:]
    if what == "build":
        hm = hostile_module()
        kinds = rest or ["chain", "hostile", "escape"]
        if "chain" in kinds:
            _rows(lambda s: {"shape": s, "folder": str(hm.build_chain40(s))},
                  list(hm.CHAIN_SHAPES40), "shape")
        if "hostile" in kinds:
            print(json.dumps([c for c, _ in hm.cases(CACHE / "hostile")]))
        if "escape" in kinds:
            _rows(lambda c: {"case": c, **hm.build_escape(CACHE / "escape", c)},
                  list(hm.ESCAPE), "case")
    elif what == "jcs-check":
        hm = hostile_module()
        _rows(hm.jcs_check40, rest or list(hm.CHAIN_SHAPES40), "shape")
    elif what == "chain":
        hm = hostile_module()
        _rows(hm.check_chain40, rest or list(hm.CHAIN_SHAPES40), "shape")
    elif what == "sync-build":
        _rows(lambda r: {"run": r, "folder": str(build_sync_run(r))}, rest or ALL_RUNS, "run")
    elif what == "synth-probe":
        _rows(synth_probe, rest or ["40"], "seed")
    elif what == "probe":
        print(json.dumps(s37.ale_probe(*rest[:3])))
    elif what == "holds-truth":
        _install()
        _rows(s30.holds_truth, rest or [r for r in ALL_RUNS
                                        if r.split("-")[0] in HOLDS or "freeze" in r], "run")
    elif what == "waits-truth":
        _install()
        _rows(waits_truth, rest or [r for r in ALL_RUNS if r.split("-")[0] in HOLDS], "run")
    elif what == "sync-truth":
        _rows(sync_truth, rest or ALL_RUNS, "run")
    elif what == "sync":
        _rows(check_sync, rest or ALL_RUNS, "run")
    elif what == "table":
        print(json.dumps(table(Path(rest[0]), Path(rest[1]) if rest[1:] else None), indent=1))
    elif what == "summary":
        for row in summary(Path(rest[0])):
            print(json.dumps(row))
    elif what == "mismatch":
        _rows(check_mismatch, rest or list(MISMATCH), "case")
    elif what == "hostile":
        hostile_module().run(CACHE, rest)
    elif what == "escape":
        hm = hostile_module()
        _rows(lambda c: hm.check_escape(CACHE / "escape", c), rest or list(hm.ESCAPE), "case")
    elif what == "s39":
        _rows(check_s39, rest or list(S39_MISSES), "miss")
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
