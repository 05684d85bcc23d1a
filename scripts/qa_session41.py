"""Session 41's QA pass (docs/qa/session41.md): held-out inputs for session 41's work, run
through main, actual against expected. Heavy files go to `/work/main/.cache/qa-s41/`
(gitignored); nothing here is imported by the app or the tests. Sessions 13-40's machinery
(scripts/qa_session40.py and through it qa_session10/12..39.py, qa_common.py, the corpus
generator tests/corpus) is reused by import. Every generator is deterministic (fixed seeds,
fixed encoder settings, one thread).

The reserved pool of games is empty: this pass plays (1) **a new synthetic game,
`synth_tint`** (a slowly scrolling field; presses answered 2-3 frames late, most of them by a
sprite's change of colour at a fixed luma; a still whose life is a beacon lit 90 % of the
time, then one lit 10 % of the time; a palette fade over a still, down to 20 % and back; the
scroll again), the truth by construction, with tamperings placed at times and in stretches no
pass used (a freeze hidden under a dip to dark, a freeze inside the honest fade, a freeze
inside the 90 % beacon's still, a cut at 6 s, an insert inside the fade, +4.3 % / -1.2 %),
and (2) **an ALE mode / difficulty variant of an untuned wide game** no pass played,
reported apart.

Run the product of another worktree with PYTHONPATH=/that/worktree (the CLI subprocesses
inherit it; the CLI is started with `python -P`).

    .venv/bin/python scripts/qa_session41.py sync-build|sync-truth|holds-truth|waits-truth|sync [RUN...]
    .venv/bin/python scripts/qa_session41.py table SYNC.jsonl [MISMATCH.jsonl] | summary SYNC.jsonl
    .venv/bin/python scripts/qa_session41.py mismatch [CASE...]
    .venv/bin/python scripts/qa_session41.py synth-probe [SEED]
    .venv/bin/python scripts/qa_session41.py build [chain|hostile|escape]
    .venv/bin/python scripts/qa_session41.py chain|jcs-check [SHAPE...]  # issue 15: a held-out shape
    .venv/bin/python scripts/qa_session41.py hostile [ID...]      # issue 15: new spellings
    .venv/bin/python scripts/qa_session41.py escape [CASE...]     # issue 15: escape-heavy CPU
    .venv/bin/python scripts/qa_session41.py s40 [T1..T5]         # QA s40's sync misses again
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
import qa_session40 as s40  # noqa: E402

s39, s38, s37, s36, s35, s34 = s40.s39, s40.s38, s40.s37, s40.s36, s40.s35, s40.s34
s33, s32, s31, s30, s29, s28 = s40.s33, s40.s32, s40.s31, s40.s30, s40.s29, s40.s28
s27, s26, s25, s24, s23, s22 = s40.s27, s40.s26, s40.s25, s40.s24, s40.s23, s40.s22
s21, s19, s14 = s40.s21, s40.s19, s40.s14
CACHE40 = s40.CACHE
CACHE = CACHE40.parent / "qa-s41"
s40.CACHE = s39.CACHE = s38.CACHE = s37.CACHE = s36.CACHE = s35.CACHE = s34.CACHE = CACHE
s33.CACHE = s32.CACHE = s31.CACHE = s30.CACHE = s29.CACHE = s28.CACHE = s27.CACHE = CACHE
s26.CACHE = s25.CACHE = s24.CACHE = s23.CACHE = CACHE
for _m in (s22, s23.s10, s23.s13, s14, s23.s15, s22.s12, s22.s16, s22.s17, s22.s18, s19,
           s23.s20, s21):
    _m.CACHE = CACHE
_rows = s22._rows
MAX_HOLD = s40.MAX_HOLD   # every press or wait <= 84 frames: no event after run_end (s36 T7)
_ycc = s40._ycc


# -- 1. a synthetic game written for this pass --------------------------------------------------
class SynthTint:
    """**synth_tint**, a 160x210 game with the emulator's interface (act, getScreenRGB,
    cloneState / restoreState, getRAM, game_over, reset_game), so the corpus generator plays
    it and finds each press' first visible frame by its own NOOP counterfactual (the truth by
    construction). Screen behaviour no earlier pass had (s38's lantern panned a world, s39's
    strobe redrew on a beat and turned its hue, s40's prism scrolled under a palette cycle,
    answered in colour 1-4 frames late and held 20 % / 75 % beacons). The phases count the
    emulator's frames from its reset, the lead-in included (video s = frame / 60):
    - **a slowly scrolling field** (frames < STILL_A, video 0-15 s): 8x8 blocks of 5 shades at
      5 lumas scroll down 1 px every 3 frames (20 px/s): the picture moves on its own, slowly;
    - **answers 2-3 frames late** (a hash of the step, changing every 45 frames);
    - **answers mostly in colour at a fixed luma**: FIRE toggles a 12x12 gem's tint a third of
      a turn round the chroma circle (BT.601 luma kept; persistent until the next FIRE); UP /
      DOWN turn an 8x8 pip's tint 15 degrees a frame either way (luma kept); only LEFT / RIGHT
      move something (a 10x6 cart on a rail, 1 px a frame): 3 of 5 buttons invisible in gray;
    - **a still whose life is a beacon lit 90 % of the time** (STILL_A..STILL_B, video 15-21
      s): the scroll stops; a 2x2 beacon lit 36 frames in 40 (dark 4, every 0.67 s);
    - **a still whose life is a beacon lit 10 % of the time** (STILL_B..FADE_A, video 21-28
      s): another 2x2 beacon lit 3 frames in 30 (every 0.5 s);
    - **a palette fade over a still** (FADE_A..FADE_C, video 28-36 s): every pixel's RGB scaled
      by k, 1 -> 0.2 over 4 s (28-32) and 0.2 -> 1 over 4 s (32-36); no beacon; the sprites
      answer as before (faded with the rest);
    - **the scroll again** (FADE_C to the end): 1 px every 2 frames, sideways;
    - the game's black: rows 192-209 pure black ground."""

    W, H = 160, 210
    ACTIONS = ("NOOP", "FIRE", "UP", "RIGHT", "LEFT", "DOWN")
    STILL_A = 15 * 60     # emulator frames from reset, the lead-in included (= video s x 60)
    STILL_B = 21 * 60
    FADE_A = 28 * 60
    FADE_B = 32 * 60
    FADE_C = 36 * 60
    SHADES = (40, 75, 110, 145, 180)   # the field's lumas (gray)
    GEM_Y, PIP_Y = 118, 132            # the sprites' lumas (fixed)

    def __init__(self, seed: int) -> None:
        self.seed = seed
        rng = np.random.default_rng(seed)
        self.field = rng.integers(0, 5, (48, 40))     # 8x8 blocks, 384 x 320: it wraps
        self.reset_game()

    def reset_game(self) -> None:
        self.s = {"f": 0, "cart": 70, "gem": 0, "pip": 0, "queue": (0,) * 8}

    def cloneState(self):  # noqa: N802 - the emulator's name
        return dict(self.s)

    def restoreState(self, st) -> None:  # noqa: N802
        self.s = dict(st)

    def getRAM(self):  # noqa: N802
        return np.zeros(128, np.uint8)

    def game_over(self) -> bool:
        return False

    def _lag(self, f: int) -> int:
        return 2 + ((f // 45) * 7919 + self.seed * 31) % 2

    def act(self, a: int) -> int:
        s = self.s
        f = s["f"] + 1
        q = (*s["queue"][1:], int(a))
        s["queue"], s["f"] = q, f
        lag = self._lag(f)
        name, prev = self.ACTIONS[q[-1 - lag]], self.ACTIONS[q[-2 - lag]]
        if name == "LEFT":
            s["cart"] = max(8, s["cart"] - 1)
        elif name == "RIGHT":
            s["cart"] = min(142, s["cart"] + 1)
        elif name == "UP":
            s["pip"] = (s["pip"] + 15) % 360
        elif name == "DOWN":
            s["pip"] = (s["pip"] - 15) % 360
        elif name == "FIRE" and prev != "FIRE":
            s["gem"] = (s["gem"] + 120) % 360
        return 0

    def _scroll(self, f: int) -> tuple[int, int]:
        """(rows, columns) the field has moved by frame f."""
        down = min(f, self.STILL_A) // 3
        side = max(0, f - self.FADE_C) // 2
        return down, side

    def _fade(self, f: int) -> float:
        if f < self.FADE_A or f >= self.FADE_C:
            return 1.0
        if f < self.FADE_B:
            return 1.0 - 0.8 * (f - self.FADE_A) / (self.FADE_B - self.FADE_A)
        return 0.2 + 0.8 * (f - self.FADE_B) / (self.FADE_C - self.FADE_B)

    def getScreenRGB(self):  # noqa: N802
        s, f = self.s, self.s["f"]
        down, side = self._scroll(f)
        cols = np.repeat(np.repeat(self.field, 8, 0), 8, 1)              # 384 x 320
        cols = np.roll(np.roll(cols, down, axis=0), -side, axis=1)[:182, :self.W]
        pal = np.array([(y, y, y) for y in self.SHADES], np.float32)
        pal[1] = _ycc(75, 20, 200)                                        # two tinted shades
        pal[3] = _ycc(145, 20, 40)
        img = np.zeros((self.H, self.W, 3), np.float32)
        img[10:192] = pal[cols]
        img[:10] = (20, 20, 20)                                           # the top strip
        img[150:154, 4:156] = (60, 60, 60)                                # the cart's rail
        img[144:150, s["cart"]:s["cart"] + 10] = (235, 235, 235)          # the cart (gray)
        img[40:52, 30:42] = _ycc(self.GEM_Y, 60, 20 + s["gem"])           # the gem (colour)
        img[2:10, 120:128] = _ycc(self.PIP_Y, 55, 250 + s["pip"])         # the pip (colour)
        if self.STILL_A <= f < self.STILL_B and f % 40 < 36:
            img[80:82, 100:102] = (255, 250, 190)                         # beacon: 90 %
        if self.STILL_B <= f < self.FADE_A and f % 30 < 3:
            img[100:102, 60:62] = (190, 255, 250)                         # beacon: 10 %
        img[192:] = 0                                                     # the black ground
        img *= self._fade(f)
        return np.clip(np.rint(img), 0, 255).astype(np.uint8)


SYNTH = "synth_tint"


def synth_tint(ram, rng: random.Random) -> list[tuple[str, int]]:
    """The tint's agent: FIRE 3-6 (the gem), UP / DOWN 4-10 (the pip), LEFT / RIGHT 4-12 (the
    cart), a wait of 0.7-1.4 s a fifth of the time."""
    r = rng.random()
    if r < 0.24:
        return [("FIRE", rng.randint(3, 6))]
    if r < 0.56:
        return [(rng.choice(("UP", "DOWN")), rng.randint(4, 10))]
    if r < 0.8:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(4, 12))]
    return [("NOOP", rng.randint(40, MAX_HOLD))]


# -- 1b. an ALE mode / difficulty variant of an untuned wide game no pass played ---------------
#: chosen by s37's probe (seed 37) at 02:30-02:40 UTC: see the doc's section 1b
VARIANTS = {"othello_m1d2": ("othello", 1, 2)}
OT = "othello_m1d2"


def othello_m1d2(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Othello, game 2 (mode 1), difficulty 2: the cursor moves four ways (4-12 frames), FIRE
    places a disc (3-6); a wait of 0.7-1.4 s a fifth of the time."""
    r = rng.random()
    if r < 0.6:
        return [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT")), rng.randint(4, 12))]
    if r < 0.8:
        return [("FIRE", rng.randint(3, 6))]
    return [("NOOP", rng.randint(40, MAX_HOLD))]


GAMES41 = {SYNTH: (synth_tint, 841), OT: (othello_m1d2, 861)}

#: two recorders no corpus set, wide set or QA pass used (grep of scripts/ tests/ bench/ for
#: svq1, dnxhd, dnxhr, `"container": "mxf"`, adpcm_ima_qt, `"fps": 37`: 0 hits):
#: - r37svq1mov: **Sorenson Video 1** (svq1: QuickTime 3's vector quantizer, yuv410p: chroma
#:   at a quarter of the luma's resolution both ways) + IMA ADPCM (QuickTime's IMA4) in a
#:   **MOV**, **37 fps** (every 1.62th emulator frame), x2 nearest, 1.85 s lead-in;
#: - r48dnxmxf: **Avid DNxHR LB** (dnxhd, all-intra, yuv422p) + PCM s16le 48 kHz in an **MXF**
#:   OP1a file (a broadcast ingest's container), **48 fps** (every 1.25th emulator frame), x2
#:   nearest, 0.85 s lead-in.
RECORDERS41 = {"r37svq1mov": {"fps": 37, "scale": 2, "lead_s": 1.85, "container": "mov",
                              "codec": "svq1mov37"},
               "r48dnxmxf": {"fps": 48, "scale": 2, "lead_s": 0.85, "container": "mxf",
                             "codec": "dnxhrmxf48"}}
REC, REC2 = "r37svq1mov", "r48dnxmxf"
SPEED41 = 0.043            # kind speed43: the video 4.3 % fast
SLOW41 = 1 / 0.988 - 1     # kind slow12: the video at 98.8 % of the log's clock (-1.2 %)
#: placed tamperings: label -> (the corpus' kind, the VIDEO second it starts at; the run
#: second is that minus the recorder's lead-in). fadefreeze: the corpus' freeze in the first
#: scroll, its frozen frames dipped to dark and back (k 1 -> 0.3 -> 1) by the forger.
PLACED = {"fadefreeze": ("freeze", 9.0), "freezefade": ("freeze", 29.0),
          "freeze90": ("freeze", 16.5), "cut06": ("cut", 6.0), "insert33": ("insert", 33.5),
          "deleted24": ("deleted", None), "human03": ("human", None)}
#: deleted24 / human03 are placed in RUN seconds (the log's clock): 24.0 / 3.0
PLACED_RUN_S = {"deleted24": 24.0, "human03": 3.0}
DIP_LOW = 0.3
SYNTH_RUNS = [f"{SYNTH}-genuine@{REC}", f"{SYNTH}-genuine@{REC2}", f"{SYNTH}-genuine2@{REC2}",
              f"{SYNTH}-fadefreeze@{REC}", f"{SYNTH}-freezefade@{REC2}",
              f"{SYNTH}-freeze90@{REC}", f"{SYNTH}-cut06@{REC2}", f"{SYNTH}-insert33@{REC}",
              f"{SYNTH}-speed43@{REC2}", f"{SYNTH}-deleted24@{REC2}"]
#: built as time allowed (02:35-03:20 at load 23-29): slow12@r37, human03@r37, othello
#: genuine@r37 and cut06@r37 were dropped before any was built (PLACED keeps their kinds)
DROPPED = [f"{SYNTH}-slow12@{REC}", f"{SYNTH}-human03@{REC}", f"{OT}-genuine@{REC}",
           f"{OT}-cut06@{REC}"]
VARIANT_RUNS = [f"{OT}-genuine@{REC2}"]
ALL_RUNS = SYNTH_RUNS + VARIANT_RUNS
GENUINE_RUNS = [r for r in ALL_RUNS if "-genuine" in r]
HIDDEN = (OT, SYNTH)
HOLDS = (SYNTH, OT)
LAG = ()
_ENCODE40 = s40._encode
_DIP: dict = {}


def _ffmpeg_tail(codec: str, w: int, h: int, path: Path) -> list[str]:
    scale = ["-vf", f"scale={w * 2}:{h * 2}:flags=neighbor"]
    if codec == "svq1mov37":
        return ["sine=frequency=520:sample_rate=22050", "-map", "0:v", "-map", "1:a",
                "-shortest", *scale, "-c:v", "svq1", "-q:v", "3", "-pix_fmt", "yuv410p",
                "-threads", "1", "-c:a", "adpcm_ima_qt", "-ac", "1", "-f", "mov", str(path)]
    return ["sine=frequency=440:sample_rate=48000", "-map", "0:v", "-map", "1:a",
            "-shortest", *scale, "-c:v", "dnxhd", "-profile:v", "dnxhr_lb", "-pix_fmt",
            "yuv422p", "-threads", "1", "-c:a", "pcm_s16le", "-f", "mxf", str(path)]


def _dip(frames: np.ndarray) -> np.ndarray:
    """kind fadefreeze: the longest run of identical recorded frames (the corpus' freeze) dipped
    to dark and back (k = 1 - (1 - DIP_LOW) sin(pi i / (n - 1))): the forger's transition."""
    same = (frames[1:] == frames[:-1]).reshape(len(frames) - 1, -1).all(axis=1)
    best_len, best_start, run = 0, 0, 0
    for i, x in enumerate(same):       # same[i]: frame i + 1 repeats frame i
        run = run + 1 if x else 0
        if run > best_len:
            best_len, best_start = run, i + 1 - run
    start, n = best_start, best_len + 1
    out = frames.astype(np.float32)
    k = 1 - (1 - DIP_LOW) * np.sin(np.pi * np.arange(n) / (n - 1))
    out[start:start + n] *= k[:, None, None, None]
    _DIP.update(frames=n, first=start)
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def _encode(frames: np.ndarray, folder: Path, rec) -> Path:
    codec = getattr(rec, "codec", "")
    if _DIP.get("on"):
        frames = _dip(frames)
    if codec not in ("svq1mov37", "dnxhrmxf48"):
        return _ENCODE40(frames, folder, rec)
    h, w = frames.shape[1:3]
    path = folder / rec.video_name
    cmd = ["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
           "rgb24", "-s", f"{w}x{h}", "-r", str(rec.fps), "-i", "-", "-f", "lavfi", "-i",
           *_ffmpeg_tail(codec, w, h, path)]
    subprocess.run(cmd, input=np.ascontiguousarray(frames).tobytes(), check=True,
                   stderr=subprocess.DEVNULL)
    return path


def _generate_placed() -> None:
    """This pass' placed kinds (PLACED): the corpus' own tampering at a chosen time (corpus.build's
    tamper_for draws 12-22 s); the truth keeps the corpus' kind and adds `label` (and `dip`)."""
    build = sys.modules["corpus.build"]
    if getattr(build, "_qa41", False):
        return
    orig_generate, orig_tamper = build.generate, build.tamper_for

    def generate(game: str, kind: str, out: Path, **kw) -> dict:
        if kind not in PLACED:
            return orig_generate(game, kind, out, **kw)
        base, video_s = PLACED[kind]
        lead = kw["rec"].lead_s or 0.0
        at = PLACED_RUN_S[kind] if video_s is None else round(video_s - lead, 3)
        build.tamper_for = lambda g, k: build.Tamper(k, at)
        _DIP["on"] = kind == "fadefreeze"
        try:
            truth = orig_generate(game, base, out, **kw)
        finally:
            build.tamper_for = orig_tamper
            _DIP["on"] = False
        t = json.loads((out / "truth.json").read_text())
        t["tamper"]["label"] = kind
        if kind == "fadefreeze":
            t["tamper"]["dip"] = {"low": DIP_LOW, "recorded_frames": _DIP["frames"],
                                  "first_frame": _DIP["first"]}
        (out / "truth.json").write_text(json.dumps(t, indent=1) + "\n")
        return truth

    build.generate, build._qa41 = generate, True


def _emulator_variants() -> None:
    """This pass' ALE variant and its synthetic game, over s40's hook."""
    import corpus.play as play

    s40._emulator_variants()
    if getattr(play, "_qa41", False):
        return
    orig = play._emulator

    def emulator(game: str, seed: int):
        if game == SYNTH:
            return SynthTint(seed), {n: i for i, n in enumerate(SynthTint.ACTIONS)}
        if game not in VARIANTS:
            return orig(game, seed)
        rom, mode, diff = VARIANTS[game]
        ale, acts = orig(rom, seed)
        ale.setMode(mode)
        ale.setDifficulty(diff)
        ale.reset_game()
        return ale, acts

    play._emulator, play._qa41 = emulator, True


def _install() -> None:
    s40._install()
    s25._encode = _encode
    s25.GAMES25.update(GAMES41)
    s25.RECORDERS25.update(RECORDERS41)
    build = sys.modules["corpus.build"]
    build.SPEEDUPS["speed43"] = SPEED41
    build.SLOWDOWNS["slow12"] = SLOW41
    s34.HIDDEN, s34.HOLDS, s34.LAG = HIDDEN, HOLDS, LAG
    s28.HIDDEN, s28.HOLDS = HIDDEN, HOLDS
    s28.build_sync_run = s29.build_sync_run = s30.build_sync_run = build_sync_run
    s36.build_sync_run = s37.build_sync_run = build_sync_run
    s23._FMT.setdefault(".mxf", "mxf")
    _emulator_variants()
    _generate_placed()


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


#: the tint's stretches in video seconds (the emulator's frames from reset / 60, the lead-in
#: included: the same at every recorder of a run at the log's pace)
B90_S = (SynthTint.STILL_A / 60, SynthTint.STILL_B / 60)
B10_S = (SynthTint.STILL_B / 60, SynthTint.FADE_A / 60)
FADE_S = (SynthTint.FADE_A / 60, SynthTint.FADE_C / 60)


def stretch_bar(sync_log: Path, span: tuple[float, float]) -> dict:
    """S-b90 / S-b10 / S-fd (the doc's bars, set before any product run): on the tint's genuine
    runs, at the 4 offsets, no `video.frozen` / `sync.*` warning covering any of the stretch."""
    s40.SYNTH = SYNTH
    return s40.stretch_bar(sync_log, span)


def freeze_bar(sync_log: Path, label: str) -> dict:
    """S-ff / S-fz / S-f9: on the run of that label, a `video.frozen` or `sync.*` WARNING
    starting within 1 s of the freeze's start (video s, the file's time) at the truth's offset
    (and at the 4 offsets: reported), with its start's error in s."""
    rows = [json.loads(x) for x in sync_log.read_text().splitlines() if x.startswith("{")]
    out = {}
    for r in rows:
        if f"-{label}@" not in r["run"]:
            continue
        t = json.loads((CACHE / "sync" / r["run"] / "truth.json").read_text())
        a = t["tamper"]["video_start_s"] + t.get("file_shift_s", 0.0)
        per = {}
        for k in ("auto", "truth", "+2f", "-4f"):
            ws = [w for w in r.get(k, {}).get("warnings", []) if w[1] is not None and (
                w[0] == "video.frozen" or w[0].startswith("sync."))]
            errs = [round(w[1] - a, 2) for w in ws]
            per[k] = {"starts_err_s": errs, "met": any(abs(e) <= 1.0 for e in errs)}
        out[r["run"]] = {"freeze_video_s": round(a, 2), **per, "met": per["truth"]["met"]}
    return out


def table(sync_log: Path, mismatch_log: Path | None = None) -> dict:
    """s37.table's counts (section 1 apart from 1b), plus this pass' bars: S-b90, S-b10, S-fd
    (the stretches) and S-ff, S-fz, S-f9 (the three placed freezes)."""
    s37.SYNTH, s37.HIDDEN, s37.HOLDS, s37.LAG = SYNTH, HIDDEN, HOLDS, LAG
    out = s37.table(sync_log, mismatch_log)
    out["S-b90"] = stretch_bar(sync_log, B90_S)
    out["S-b10"] = stretch_bar(sync_log, B10_S)
    out["S-fd"] = stretch_bar(sync_log, FADE_S)
    out["S-ff"] = freeze_bar(sync_log, "fadefreeze")
    out["S-fz"] = freeze_bar(sync_log, "freezefade")
    out["S-f9"] = freeze_bar(sync_log, "freeze90")
    return out


def summary(sync_log: Path) -> list[dict]:
    s40.RECORDERS40.update(RECORDERS41)
    return s40.summary(sync_log)


MISMATCH = {"tint_mxf+othello_log": (SYNTH, OT, REC2)}


def check_mismatch(case: str) -> dict:
    _install()
    s28.MISMATCH = MISMATCH
    return s28.check_mismatch(case)


def synth_probe(seed: str) -> dict:
    """s40's probe on this pass' game, per phase: NOOP steps' changed pixels (in colour and in
    BT.601 gray, > 2 levels), and 20 probe presses (8 frames, after 20-60 random steps)
    against their NOOP counterfactual, with whether each answer shows in gray."""
    out = {"seed": seed}

    def gray(x: np.ndarray) -> np.ndarray:
        return x.astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)

    for label, start in (("scroll", 60), ("beacon90", SynthTint.STILL_A + 30),
                         ("beacon10", SynthTint.STILL_B + 30), ("fade", SynthTint.FADE_A + 30),
                         ("scroll2", SynthTint.FADE_C + 30)):
        g = SynthTint(int(seed))
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
        g = SynthTint(int(seed))
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


def waits_truth(name: str) -> dict:
    s40.CACHE = CACHE
    return s40.waits_truth(name)


# -- 2/3/4: chain shape, hostile spellings, escape-heavy logs: scripts/qa_hostile_s41.py -------
def hostile_module():
    import qa_hostile_s41
    return qa_hostile_s41


# -- 5. QA s40's misses (training data now; the engineers' targets) -----------------------------
_R43, _R53 = "r43shqmov", "r53rv20rm"
_P, _G, _B = "sync/synth_prism", "sync/gopher_m0d1", "sync/bank_heist_m16d0"
S40_MISSES = {
    "T1": [(f"{_P}-genuine@{_R43}", "auto"), (f"{_P}-genuine@{_R53}", "auto"),
           (f"{_P}-genuine2@{_R43}", "auto"), (f"{_B}-genuine@{_R43}", "auto"),
           (f"{_B}-genuine@{_R53}", "auto"), (f"{_G}-genuine@{_R43}", "auto"),
           (f"{_G}-genuine@{_R53}", "auto")],
    "T2": [(f"{_P}-genuine@{_R53}", "2.4"), (f"{_P}-freezeend@{_R53}", "2.4"),
           (f"{_P}-freeze@{_R53}", "2.4"), (f"{_P}-slow24@{_R53}", "auto"),
           (f"{_P}-cut@{_R53}", "2.4"), (f"{_P}-insert@{_R43}", "1.35")],
    "T3": [(f"{_P}-genuine@{_R53}", "2.4")],
    "T4": [(f"{_G}-genuine@{_R43}", "1.35"), (f"{_G}-genuine@{_R53}", "2.4")],
    "T5": [(f"{_P}-cut@{_R53}", "2.4"), (f"{_P}-insert@{_R43}", "1.35"),
           (f"{_G}-cut@{_R53}", "2.4"), (f"{_B}-insert@{_R43}", "1.35"),
           (f"{_P}-speed16@{_R43}", "auto"), (f"{_P}-slow24@{_R53}", "auto")],
}


def check_s40(miss: str) -> dict:
    s37.S36_MISSES = S40_MISSES
    s37.CACHE36 = CACHE40
    return s37.check_s36(miss)


def main(argv: list[str]) -> int:  # noqa: C901, PLR0912 - one dispatch table
    s23._FMT.setdefault(".rm", "rm")
    s23._FMT.setdefault(".mxf", "mxf")
    what, rest = (argv[0] if argv else ""), argv[1:]
    if what == "build":
        hm = hostile_module()
        kinds = rest or ["chain", "hostile", "escape"]
        if "chain" in kinds:
            _rows(lambda s: {"shape": s, "folder": str(hm.build_chain41(s))},
                  list(hm.CHAIN_SHAPES41), "shape")
        if "hostile" in kinds:
            print(json.dumps([c for c, _ in hm.cases(CACHE / "hostile")]))
        if "escape" in kinds:
            _rows(lambda c: {"case": c, **hm.build_escape(CACHE / "escape", c)},
                  list(hm.ESCAPE), "case")
    elif what == "jcs-check":
        hm = hostile_module()
        _rows(hm.jcs_check41, rest or list(hm.CHAIN_SHAPES41), "shape")
    elif what == "chain":
        hm = hostile_module()
        _rows(hm.check_chain41, rest or list(hm.CHAIN_SHAPES41), "shape")
    elif what == "sync-build":
        _rows(lambda r: {"run": r, "folder": str(build_sync_run(r))}, rest or ALL_RUNS, "run")
    elif what == "synth-probe":
        _rows(synth_probe, rest or ["841"], "seed")
    elif what == "probe":
        print(json.dumps(s37.ale_probe(*rest[:3])))
    elif what == "holds-truth":
        _install()
        _rows(s30.holds_truth, rest or [r for r in ALL_RUNS
                                        if r.split("-")[0] in HOLDS], "run")
    elif what == "waits-truth":
        _install()
        _rows(waits_truth, rest or [r for r in ALL_RUNS if "-genuine" in r], "run")
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
    elif what == "s40":
        _rows(check_s40, rest or list(S40_MISSES), "miss")
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
