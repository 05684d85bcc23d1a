"""Session 43's QA pass (docs/qa/session43.md): held-out inputs for session 43's work, run
through main, actual against expected. Heavy files go to `/work/main/.cache/qa-s43/`
(gitignored); nothing here is imported by the app or the tests. Sessions 13-42's machinery
(scripts/qa_session42.py and through it qa_session10/12..41.py, qa_common.py, the corpus
generator tests/corpus) is reused by import. Every generator is deterministic (fixed seeds,
fixed encoder settings, one thread).

This pass plays (1) **a new synthetic game, `synth_loom`** (Atari-style sprite multiplexing:
birds drawn on alternate frames over a striped field; presses answered 2-4 frames late, most
in colour at a fixed luma (a lamp toggling between two hues, a patch cycling three hues); a
still whose whole picture SWINGS its hue +40 / -40 degrees and back (an honest grade of a new
shape); a still under a DIP TO RED (a damage flash: fast attack, hold, slow release); a flash
to WHITE over the moving flicker; the flicker again over a scrolling field), the truth by
construction, with tamperings placed where no pass put them (a freeze recoloured by an
editor's COLORIZE blend toward orange; a freeze DESATURATED to gray across its hold; a freeze
under a dip to BLUE; a cut at 8 s; an insert inside the white flash; a human stretch; a
deleted stretch), at two recorders no pass used (H.261 in AVI at 31 fps with IMA ADPCM audio;
JPEG-LS in Matroska at 58 fps with FLAC), and (2) an ALE difficulty variant of an untuned wide
game no pass played, reported apart.

Run the product of another worktree with PYTHONPATH=/that/worktree (the CLI subprocesses
inherit it; the CLI is started with `python -P`).

    .venv/bin/python scripts/qa_session43.py sync-build|sync-truth|sync [RUN...]
    .venv/bin/python scripts/qa_session43.py table SYNC.jsonl [MISMATCH.jsonl]
    .venv/bin/python scripts/qa_session43.py mismatch [CASE...]
    .venv/bin/python scripts/qa_session43.py synth-probe [SEED]
    .venv/bin/python scripts/qa_session43.py build [chain|hostile|escape]
    .venv/bin/python scripts/qa_session43.py chain|jcs-check [SHAPE...]  # issue 15: held-out shape
    .venv/bin/python scripts/qa_session43.py hostile [ID...]      # issue 15: new spellings
    .venv/bin/python scripts/qa_session43.py escape [CASE...]     # issue 15: escape-heavy CPU
    .venv/bin/python scripts/qa_session43.py s42 [T1..T4,T10]     # QA s42's sync misses again
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
import qa_session42 as s42  # noqa: E402

s41, s40, s39, s38, s37, s36 = s42.s41, s42.s40, s42.s39, s42.s38, s42.s37, s42.s36
s35, s34, s33, s32, s31, s30 = s42.s35, s42.s34, s42.s33, s42.s32, s42.s31, s42.s30
s29, s28, s27, s26, s25, s24 = s42.s29, s42.s28, s42.s27, s42.s26, s42.s25, s42.s24
s23, s22, s21, s19, s14 = s42.s23, s42.s22, s42.s21, s42.s19, s42.s14
CACHE42 = s42.CACHE
CACHE = CACHE42.parent / "qa-s43"
for _m in (s42, s41, s40, s39, s38, s37, s36, s35, s34, s33, s32, s31, s30, s29, s28, s27,
           s26, s25, s24, s23, s22, s23.s10, s23.s13, s14, s23.s15, s22.s12, s22.s16,
           s22.s17, s22.s18, s19, s23.s20, s21):
    _m.CACHE = CACHE
_rows = s22._rows
MAX_HOLD = s41.MAX_HOLD   # every press or wait <= 84 frames: no event after run_end (s36 T7)
_ycc = s40._ycc
_rot_hue = s42._rot_hue


def _desat(img: np.ndarray, keep: float) -> np.ndarray:
    """Every pixel's chroma scaled by `keep` at its BT.601 luma (an editor's saturation key)."""
    y = img @ np.array([0.299, 0.587, 0.114], np.float32)
    return y[..., None] + (img - y[..., None]) * keep


# -- 1. a synthetic game written for this pass --------------------------------------------------
class SynthLoom:
    """**synth_loom**, a 160x210 game with the emulator's interface (act, getScreenRGB,
    cloneState / restoreState, getRAM, game_over, reset_game): the corpus generator plays it
    and finds each press' first visible frame by its own NOOP counterfactual (the truth by
    construction). Screen behaviour no earlier pass had (s38 lantern, s39 strobe, s40 prism,
    s41 tint, s42 ember: a pan, a beat, a palette cycle, luma beacons, rain, a monotone hue
    turn, a dip to white over a still). Phases in emulator frames from reset, the lead-in
    included (video s = frame / 60):
    - **flicker** (video 0-11 s): six birds (5x3 px) drawn by SPRITE MULTIPLEXING, three on
      even frames and three on odd (as the Atari draws more sprites than it has), each
      drifting 1 px every 3 frames over a still field of 8-px vertical stripes (4 shades, 2
      tinted): the picture changes every frame, at half the emulator's rate;
    - **answers 2-4 frames late** (a hash of the step, changing every 50 frames);
    - **answers mostly in colour at a fixed luma**: FIRE toggles a 10x10 lamp between two
      HUES of the same luma; UP / DOWN step a 6x6 patch through three hues of one luma every 4
      frames held; only LEFT / RIGHT move something (a 12x4 paddle, 1 px a frame);
    - **an honest hue SWING over a still** (video 11-17 s): the birds gone, every pixel's chroma
      turned 40 sin(2 pi t / 6 s) degrees at its luma: +40, back through 0, -40, back to 0
      (a grade that starts and stops with the still and reverses: new);
    - **an honest dip to RED over a still** (video 17-22 s): every pixel blended toward
      (200, 40, 40): w 0 -> 0.6 in 0.5 s, held 1.5 s, back to 0 over 3 s (a damage flash);
    - **a flash to WHITE over the flicker** (video 22-26 s): the birds back; w 0 -> 0.85 in
      0.3 s, held 1 s, back over 2.7 s (the answers whitened, not hidden);
    - **the flicker over a scrolling field** (video 26 s to the end): the stripes move 1 px
      every 4 frames;
    - rows 192-209 pure black ground."""

    W, H = 160, 210
    ACTIONS = ("NOOP", "FIRE", "UP", "RIGHT", "LEFT", "DOWN")
    SWING_A = 11 * 60
    RED_A = 17 * 60
    WHITE_A = 22 * 60
    SCROLL_A = 26 * 60
    SWING = 40.0
    RED = (200.0, 40.0, 40.0)
    LAMP_Y, PATCH_Y = 120, 100

    def __init__(self, seed: int) -> None:
        self.seed = seed
        rng = np.random.default_rng(seed)
        pal = np.array([(50, 50, 50), (0, 0, 0), (0, 0, 0), (150, 150, 150)], np.float32)
        pal[1] = _ycc(85, 35, 200)
        pal[2] = _ycc(120, 30, 20)
        self.cols = pal[rng.integers(0, 4, 40)]                 # 40 stripes of 8 px (wraps)
        self.birds = np.stack([rng.integers(0, 160, 6), rng.integers(20, 100, 6)], axis=1)
        self.reset_game()

    def reset_game(self) -> None:
        self.s = {"f": 0, "pad": 74, "lamp": 0, "patch": 0, "held": 0, "queue": (0,) * 8}

    def cloneState(self):  # noqa: N802 - the emulator's name
        return dict(self.s)

    def restoreState(self, st) -> None:  # noqa: N802
        self.s = dict(st)

    def getRAM(self):  # noqa: N802
        return np.zeros(128, np.uint8)

    def game_over(self) -> bool:
        return False

    def _lag(self, f: int) -> int:
        return 2 + ((f // 50) * 6007 + self.seed * 17) % 3

    def act(self, a: int) -> int:
        s = self.s
        f = s["f"] + 1
        q = (*s["queue"][1:], int(a))
        s["queue"], s["f"] = q, f
        lag = self._lag(f)
        name, prev = self.ACTIONS[q[-1 - lag]], self.ACTIONS[q[-2 - lag]]
        s["held"] = s["held"] + 1 if name == prev else 0
        if name == "LEFT":
            s["pad"] = max(6, s["pad"] - 1)
        elif name == "RIGHT":
            s["pad"] = min(142, s["pad"] + 1)
        elif name in ("UP", "DOWN") and s["held"] % 4 == 0:
            s["patch"] = (s["patch"] + (1 if name == "UP" else 2)) % 3
        elif name == "FIRE" and prev != "FIRE":
            s["lamp"] = 1 - s["lamp"]
        return 0

    def _swing(self, f: int) -> float:
        if not self.SWING_A <= f < self.RED_A:
            return 0.0
        return self.SWING * float(np.sin(2 * np.pi * (f - self.SWING_A) / (self.RED_A - self.SWING_A)))

    def _red(self, f: int) -> float:
        t = f - self.RED_A
        if not 0 <= t < self.WHITE_A - self.RED_A:
            return 0.0
        return 0.6 * min(1.0, t / 30, (300 - t) / 180)

    def _white(self, f: int) -> float:
        t = f - self.WHITE_A
        if not 0 <= t < self.SCROLL_A - self.WHITE_A:
            return 0.0
        return 0.85 * min(1.0, t / 18, (240 - t) / 162)

    def getScreenRGB(self):  # noqa: N802
        s, f = self.s, self.s["f"]
        img = np.zeros((self.H, self.W, 3), np.float32)
        shift = (f - self.SCROLL_A) // 4 if f >= self.SCROLL_A else 0
        cols = np.roll(self.cols, 0)[(np.arange(self.W) + shift) // 8 % 40]
        img[12:192] = cols[None, :, :]
        if not self.SWING_A <= f < self.WHITE_A:                           # the multiplexed birds
            for i, (x0, y0) in enumerate(self.birds):
                if i % 2 != f % 2:
                    continue
                x = int(x0 + f // 3) % (self.W - 5)
                img[y0:y0 + 3, x:x + 5] = (240, 220, 90)
        img[:12] = (30, 30, 30)
        img[176:180, 4:156] = (70, 70, 70)                                 # the paddle's rail
        img[172:176, s["pad"]:s["pad"] + 12] = (225, 225, 225)             # the paddle (gray)
        img[30:40, 40:50] = _ycc(self.LAMP_Y, 60, 40 if s["lamp"] else 220)   # the lamp: hue
        img[3:9, 130:136] = _ycc(self.PATCH_Y, 55, 100 + 120 * s["patch"])  # the patch: 3 hues
        sw = self._swing(f)
        if sw:
            img[:192] = _rot_hue(img[:192], sw)
        r = self._red(f)
        if r:
            img[:192] = img[:192] + (np.array(self.RED, np.float32) - img[:192]) * r
        w = self._white(f)
        if w:
            img[:192] = img[:192] + (255.0 - img[:192]) * w
        img[192:] = 0
        return np.clip(np.rint(img), 0, 255).astype(np.uint8)


SYNTH = "synth_loom"


def synth_loom(ram, rng: random.Random) -> list[tuple[str, int]]:
    """The loom's agent: FIRE 3-6 (the lamp), UP / DOWN 4-10 (the patch), LEFT / RIGHT 4-12
    (the paddle), a wait of 0.7-1.4 s a fifth of the time."""
    r = rng.random()
    if r < 0.25:
        return [("FIRE", rng.randint(3, 6))]
    if r < 0.55:
        return [(rng.choice(("UP", "DOWN")), rng.randint(4, 10))]
    if r < 0.8:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(4, 12))]
    return [("NOOP", rng.randint(40, MAX_HOLD))]


# -- 1b. an ALE difficulty variant of an untuned wide game no pass played ----------------------
#: chosen by s37's probe (seed 37) at 10:44-10:50 UTC: see the doc's section 1b
VARIANTS: dict[str, tuple[str, int, int]] = {"up_n_down_m0d2": ("up_n_down", 0, 2),
                                             "bowling_m2d1": ("bowling", 2, 1)}
UD, BW = "up_n_down_m0d2", "bowling_m2d1"


def up_n_down_m0d2(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Up'n Down, difficulty 2: the buggy speeds up / slows down (UP / DOWN 6-16 frames),
    jumps (FIRE 3-6), a wait of 0.7-1.4 s a fifth of the time."""
    r = rng.random()
    if r < 0.55:
        return [(rng.choice(("UP", "DOWN")), rng.randint(6, 16))]
    if r < 0.8:
        return [("FIRE", rng.randint(3, 6))]
    return [("NOOP", rng.randint(40, MAX_HOLD))]


def bowling_m2d1(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Bowling, game 3 (mode 2), difficulty 1: the bowler steps UP / DOWN (4-12 frames) and
    rolls (FIRE 3-6), a wait of 0.7-1.4 s a fifth of the time."""
    r = rng.random()
    if r < 0.5:
        return [(rng.choice(("UP", "DOWN")), rng.randint(4, 12))]
    if r < 0.8:
        return [("FIRE", rng.randint(3, 6))]
    return [("NOOP", rng.randint(40, MAX_HOLD))]


GAMES43 = {SYNTH: (synth_loom, 943), UD: (up_n_down_m0d2, 953), BW: (bowling_m2d1, 963)}

#: two recorders no sync run of the corpus, the wide set or a QA pass used (grep of scripts/,
#: tests/, bench/ for h261, jpegls, adpcm_ima_wav: none):
#: - r31h261avi: **H.261** (a videoconference codec: CIF 352x288 only, 4:2:0, 1 Mb/s, inter
#:   frames, its first frame reported "no keyframe" by OpenCV) + **IMA ADPCM** 8 kHz mono in an
#:   **AVI**, **31 fps** (every 1.935th emulator frame), the game x1 letterboxed into CIF,
#:   **0.9 s** lead-in: a run shared over a video call and recorded there;
#: - r58jlsmkv: **JPEG-LS** (lossless, intra-only, RGB: a medical / archival still codec used
#:   as a capture codec) + **FLAC** 48 kHz in **Matroska**, **58 fps** (every 1.034th emulator
#:   frame), x2 nearest, **1.35 s** lead-in. Lossless: a held picture is bit-identical.
RECORDERS43 = {"r31h261avi": {"fps": 31, "scale": 1, "lead_s": 0.9, "container": "avi",
                              "codec": "h261avi31"},
               "r58jlsmkv": {"fps": 58, "scale": 2, "lead_s": 1.35, "container": "mkv",
                             "codec": "jpegls58"}}
RA, RB = "r31h261avi", "r58jlsmkv"
#: placed tamperings: label -> (the corpus' kind, the VIDEO second it starts at; run s = that
#: minus the lead-in). tintfreeze: the freeze in the flicker, its held frames blended toward
#: orange 0 -> 35 % across the hold (an editor's colorize / tint keyframes: luma moves too);
#: satfreeze: the freeze over the scrolling flicker, its held frames desaturated 100 % -> 0 %
#: chroma across the hold (luma kept); bluefreeze: the freeze there under a dip to BLUE and
#: back (w = 0.6 sin(pi i / (n - 1)) toward (30, 60, 210)).
PLACED = {"tintfreeze": ("freeze", 6.0), "satfreeze": ("freeze", 30.0),
          "bluefreeze": ("freeze", 33.0), "cut08": ("cut", 8.0), "insert24": ("insert", 24.0),
          "deleted20": ("deleted", None), "human30": ("human", None)}
#: deleted20 / human30 are placed in RUN seconds (the log's clock)
PLACED_RUN_S = {"deleted20": 20.0, "human30": 30.0}
EDITS = ("tintfreeze", "satfreeze", "bluefreeze")
ORANGE, TINT_EDIT = (255.0, 140.0, 20.0), 0.35
BLUE, BLUE_EDIT = (30.0, 60.0, 210.0), 0.6
SYNTH_RUNS = [f"{SYNTH}-genuine@{RA}", f"{SYNTH}-genuine@{RB}", f"{SYNTH}-genuine2@{RA}",
              f"{SYNTH}-genuine2@{RB}", f"{SYNTH}-tintfreeze@{RA}", f"{SYNTH}-satfreeze@{RB}",
              f"{SYNTH}-bluefreeze@{RA}", f"{SYNTH}-cut08@{RB}", f"{SYNTH}-insert24@{RA}",
              f"{SYNTH}-deleted20@{RB}", f"{SYNTH}-human30@{RA}"]
VARIANT_RUNS = [f"{UD}-genuine@{RB}", f"{BW}-genuine@{RA}"]
ALL_RUNS = SYNTH_RUNS + VARIANT_RUNS
HIDDEN = (UD, BW, SYNTH)
HOLDS = (SYNTH, UD, BW)
LAG = ()
_ENCODE42 = s42._encode
_EDIT: dict = {}


def _ffmpeg_tail(codec: str, w: int, h: int, path: Path) -> list[str]:
    if codec == "h261avi31":
        return ["sine=frequency=510:sample_rate=8000", "-map", "0:v", "-map", "1:a",
                "-shortest", "-vf", "pad=352:288:(ow-iw)/2:(oh-ih)/2:black", "-c:v", "h261",
                "-b:v", "1000k", "-pix_fmt", "yuv420p", "-threads", "1", "-c:a",
                "adpcm_ima_wav", "-ac", "1", "-f", "avi", str(path)]
    return ["sine=frequency=270:sample_rate=48000", "-map", "0:v", "-map", "1:a",
            "-shortest", "-vf", f"scale={w * 2}:{h * 2}:flags=neighbor", "-c:v", "jpegls",
            "-pix_fmt", "rgb24", "-threads", "1", "-c:a", "flac", "-f", "matroska", str(path)]


def _edit(frames: np.ndarray, kind: str) -> np.ndarray:
    """The forger's edit over the held frames (s42's _longest_hold finds them)."""
    start, n = s42._longest_hold(frames)
    out = frames.astype(np.float32)
    for i in range(n):
        x, u = out[start + i], i / (n - 1)
        if kind == "tintfreeze":
            out[start + i] = x + (np.array(ORANGE, np.float32) - x) * TINT_EDIT * u
        elif kind == "satfreeze":
            out[start + i] = _desat(x, 1.0 - u)
        else:
            out[start + i] = x + (np.array(BLUE, np.float32) - x) * BLUE_EDIT * np.sin(np.pi * u)
    _EDIT.update(frames=n, first=start)
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def _encode(frames: np.ndarray, folder: Path, rec) -> Path:
    codec = getattr(rec, "codec", "")
    if _EDIT.get("on"):
        frames = _edit(frames, _EDIT["on"])
    if codec not in ("h261avi31", "jpegls58"):
        return _ENCODE42(frames, folder, rec)
    h, w = frames.shape[1:3]
    path = folder / rec.video_name
    cmd = ["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
           "rgb24", "-s", f"{w}x{h}", "-r", str(rec.fps), "-i", "-", "-f", "lavfi", "-i",
           *_ffmpeg_tail(codec, w, h, path)]
    subprocess.run(cmd, input=np.ascontiguousarray(frames).tobytes(), check=True,
                   stderr=subprocess.DEVNULL)
    return path


def _generate_placed() -> None:
    """This pass' placed kinds over s42's hook (corpus.build's tamper_for at a chosen time)."""
    build = sys.modules["corpus.build"]
    if getattr(build, "_qa43", False):
        return
    orig_generate, orig_tamper = build.generate, build.tamper_for

    def generate(game: str, kind: str, out: Path, **kw) -> dict:
        if kind not in PLACED:
            return orig_generate(game, kind, out, **kw)
        base, video_s = PLACED[kind]
        lead = kw["rec"].lead_s or 0.0
        at = PLACED_RUN_S[kind] if video_s is None else round(video_s - lead, 3)
        build.tamper_for = lambda g, k: build.Tamper(k, at)
        _EDIT["on"] = kind if kind in EDITS else None
        try:
            truth = orig_generate(game, base, out, **kw)
        finally:
            build.tamper_for = orig_tamper
            _EDIT["on"] = None
        t = json.loads((out / "truth.json").read_text())
        t["tamper"]["label"] = kind
        if kind in EDITS:
            t["tamper"]["edit"] = {"kind": kind, "recorded_frames": _EDIT["frames"],
                                   "first_frame": _EDIT["first"]}
        (out / "truth.json").write_text(json.dumps(t, indent=1) + "\n")
        return truth

    build.generate, build._qa43 = generate, True


def _emulator_variants() -> None:
    import corpus.play as play

    s42._emulator_variants()
    if getattr(play, "_qa43", False):
        return
    orig = play._emulator

    def emulator(game: str, seed: int):
        if game == SYNTH:
            return SynthLoom(seed), {n: i for i, n in enumerate(SynthLoom.ACTIONS)}
        if game not in VARIANTS:
            return orig(game, seed)
        rom, mode, diff = VARIANTS[game]
        ale, acts = orig(rom, seed)
        ale.setMode(mode)
        ale.setDifficulty(diff)
        ale.reset_game()
        return ale, acts

    play._emulator, play._qa43 = emulator, True


def _install() -> None:
    s42._install()
    s25._encode = _encode
    s25.GAMES25.update(GAMES43)
    s25.RECORDERS25.update(RECORDERS43)
    s34.HIDDEN, s34.HOLDS, s34.LAG = HIDDEN, HOLDS, LAG
    s28.HIDDEN, s28.HOLDS = HIDDEN, HOLDS
    s28.build_sync_run = s29.build_sync_run = s30.build_sync_run = build_sync_run
    s36.build_sync_run = s37.build_sync_run = build_sync_run
    s23._FMT.setdefault(".mkv", "matroska")
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


#: the loom's stretches in video seconds (emulator frames from reset / 60, the lead-in
#: included: the same at every recorder of a run at the log's pace)
SWING_S = (SynthLoom.SWING_A / 60, SynthLoom.RED_A / 60)
RED_S = (SynthLoom.RED_A / 60, SynthLoom.WHITE_A / 60)
WHITE_S = (SynthLoom.WHITE_A / 60, SynthLoom.SCROLL_A / 60)


def stretch_bar(sync_log: Path, span: tuple[float, float]) -> dict:
    s40.SYNTH = SYNTH
    return s40.stretch_bar(sync_log, span)


def table(sync_log: Path, mismatch_log: Path | None = None) -> dict:
    """s37.table's counts plus this pass' bars: S-sw, S-rd, S-wh (the honest stretches) and
    S-tf, S-sf, S-bf (the three recoloured / dipped freezes)."""
    s37.SYNTH, s37.HIDDEN, s37.HOLDS, s37.LAG = SYNTH, HIDDEN, HOLDS, LAG
    out = s37.table(sync_log, mismatch_log)
    out["S-sw"] = stretch_bar(sync_log, SWING_S)
    out["S-rd"] = stretch_bar(sync_log, RED_S)
    out["S-wh"] = stretch_bar(sync_log, WHITE_S)
    for bar, label in (("S-tf", "tintfreeze"), ("S-sf", "satfreeze"), ("S-bf", "bluefreeze")):
        out[bar] = s41.freeze_bar(sync_log, label)
    return out


MISMATCH = {"loom_mkv+updown_log": (SYNTH, UD, RB)}


def check_mismatch(case: str) -> dict:
    _install()
    s28.MISMATCH = MISMATCH
    return s28.check_mismatch(case)


def synth_probe(seed: str) -> dict:
    """s42's probe, per phase of this pass' game (NOOP steps' changed pixels in colour and in
    BT.601 gray; 20 probe presses against their NOOP counterfactual)."""
    s42.SynthEmber, saved = SynthLoom, s42.SynthEmber
    SynthLoom.STILL_A, SynthLoom.HUE_A = SynthLoom.SWING_A, SynthLoom.RED_A
    SynthLoom.WHITE_C = SynthLoom.SCROLL_A
    try:
        return s42.synth_probe(seed)
    finally:
        s42.SynthEmber = saved


# -- 2/3/4: chain shape, hostile spellings, escape-heavy logs: scripts/qa_hostile_s43.py -------
def hostile_module():
    import qa_hostile_s43
    return qa_hostile_s43


# -- 5. QA s42's misses (training data now; the engineers' targets) -----------------------------
_E = "sync/synth_ember"
_DV, _UT = "r25dvpal", "r47utvavi"
S42_MISSES = {
    "T1": [(f"{_E}-genuine@{_DV}", "auto"), (f"{_E}-genuine@{_UT}", "auto"),
           (f"{_E}-genuine2@{_UT}", "auto"), (f"sync/galaxian_m2d1-genuine@{_UT}", "auto"),
           (f"sync/tic_tac_toe_3d_m3d2-genuine@{_DV}", "auto")],
    "T2": [(f"{_E}-genuine@{_DV}", "1.15"), (f"{_E}-genuine@{_UT}", "0.65"),
           (f"{_E}-genuine2@{_UT}", "0.65")],
    "T3": [(f"{_E}-genuine@{_UT}", "0.65")],
    "T4": [(f"{_E}-whitefreeze@{_UT}", "0.65"), (f"{_E}-freezebeacon@{_DV}", "1.15"),
           (f"{_E}-freezehue@{_UT}", "0.65")],
    "T10": [(f"{_E}-cut10@{_UT}", "0.65"), (f"{_E}-insert28@{_DV}", "1.15"),
            (f"{_E}-speed36@{_UT}", "auto")],
}


def check_s42(miss: str) -> dict:
    s37.S36_MISSES = S42_MISSES
    s37.CACHE36 = CACHE42
    return s37.check_s36(miss)


def main(argv: list[str]) -> int:  # noqa: C901, PLR0912 - one dispatch table
    s23._FMT.setdefault(".dv", "dv")
    s23._FMT.setdefault(".avi", "avi")
    what, rest = (argv[0] if argv else ""), argv[1:]
    if what == "build":
        hm = hostile_module()
        kinds = rest or ["chain", "hostile", "escape"]
        if "chain" in kinds:
            _rows(lambda s: {"shape": s, "folder": str(hm.build_chain43(s))},
                  list(hm.CHAIN_SHAPES43), "shape")
        if "hostile" in kinds:
            print(json.dumps([c for c, _ in hm.cases(CACHE / "hostile")]))
        if "escape" in kinds:
            _rows(lambda c: {"case": c, **hm.build_escape(CACHE / "escape", c)},
                  list(hm.ESCAPE), "case")
    elif what == "jcs-check":
        hm = hostile_module()
        _rows(hm.jcs_check43, rest or list(hm.CHAIN_SHAPES43), "shape")
    elif what == "chain":
        hm = hostile_module()
        _rows(hm.check_chain43, rest or list(hm.CHAIN_SHAPES43), "shape")
    elif what == "sync-build":
        _rows(lambda r: {"run": r, "folder": str(build_sync_run(r))}, rest or ALL_RUNS, "run")
    elif what == "synth-probe":
        _rows(synth_probe, rest or ["943"], "seed")
    elif what == "probe":
        print(json.dumps(s37.ale_probe(*rest[:3])))
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
        hm = hostile_module()
        _rows(lambda c: hm.check_escape(CACHE / "escape", c), rest or list(hm.ESCAPE), "case")
    elif what == "s42":
        _rows(check_s42, rest or list(S42_MISSES), "miss")
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
