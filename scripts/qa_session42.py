"""Session 42's QA pass (docs/qa/session42.md): held-out inputs for session 42's work, run
through main, actual against expected. Heavy files go to `/work/main/.cache/qa-s42/`
(gitignored); nothing here is imported by the app or the tests. Sessions 13-41's machinery
(scripts/qa_session41.py and through it qa_session10/12..40.py, qa_common.py, the corpus
generator tests/corpus) is reused by import. Every generator is deterministic (fixed seeds,
fixed encoder settings, one thread).

The reserved pool of games is empty: this pass plays (1) **a new synthetic game,
`synth_ember`** (rain falling over a field; presses answered 3-5 frames late, most of them in
colour at a fixed luma, one by a sprite's SATURATION (gray <-> coloured); a still whose life
is a beacon that changes colour at one luma, lit 20 frames in 45; a still whose whole picture
turns its hue at fixed luma, an honest colour grade; a dip to WHITE over a still; the rain
again, slanting), the truth by construction, with tamperings placed at times and in stretches
no pass used (a freeze recoloured by an editor's hue turn, a freeze under a dip to white, a
freeze inside the honest hue turn, a freeze inside the colour beacon's still, a cut at 10 s, an
insert inside the white dip, -2.7 % / +3.6 %, a deleted stretch, a human stretch), and (2)
**ALE mode / difficulty variants of untuned wide games** no pass played, reported apart.

Run the product of another worktree with PYTHONPATH=/that/worktree (the CLI subprocesses
inherit it; the CLI is started with `python -P`).

    .venv/bin/python scripts/qa_session42.py sync-build|sync-truth|holds-truth|waits-truth|sync [RUN...]
    .venv/bin/python scripts/qa_session42.py table SYNC.jsonl [MISMATCH.jsonl] | summary SYNC.jsonl
    .venv/bin/python scripts/qa_session42.py mismatch [CASE...]
    .venv/bin/python scripts/qa_session42.py synth-probe [SEED] | probe GAME MODE DIFF
    .venv/bin/python scripts/qa_session42.py build [chain|hostile|escape]
    .venv/bin/python scripts/qa_session42.py chain|jcs-check [SHAPE...]  # issue 15: a held-out shape
    .venv/bin/python scripts/qa_session42.py hostile [ID...]      # issue 15: new spellings
    .venv/bin/python scripts/qa_session42.py escape [CASE...]     # issue 15: escape-heavy CPU
    .venv/bin/python scripts/qa_session42.py s41 [T1..T4]         # QA s41's sync misses again
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
import qa_session41 as s41  # noqa: E402

s40, s39, s38, s37, s36, s35, s34 = s41.s40, s41.s39, s41.s38, s41.s37, s41.s36, s41.s35, s41.s34
s33, s32, s31, s30, s29, s28 = s41.s33, s41.s32, s41.s31, s41.s30, s41.s29, s41.s28
s27, s26, s25, s24, s23, s22 = s41.s27, s41.s26, s41.s25, s41.s24, s41.s23, s41.s22
s21, s19, s14 = s41.s21, s41.s19, s41.s14
CACHE41 = s41.CACHE
CACHE = CACHE41.parent / "qa-s42"
s41.CACHE = s40.CACHE = s39.CACHE = s38.CACHE = s37.CACHE = s36.CACHE = s35.CACHE = CACHE
s34.CACHE = s33.CACHE = s32.CACHE = s31.CACHE = s30.CACHE = s29.CACHE = s28.CACHE = CACHE
s27.CACHE = s26.CACHE = s25.CACHE = s24.CACHE = s23.CACHE = CACHE
for _m in (s22, s23.s10, s23.s13, s14, s23.s15, s22.s12, s22.s16, s22.s17, s22.s18, s19,
           s23.s20, s21):
    _m.CACHE = CACHE
_rows = s22._rows
MAX_HOLD = s41.MAX_HOLD   # every press or wait <= 84 frames: no event after run_end (s36 T7)
_ycc = s40._ycc


def _rot_hue(img: np.ndarray, deg: float) -> np.ndarray:
    """Every pixel's chroma (BT.601 Cb, Cr) turned by `deg`, its luma kept: a colour grade (an
    editor's hue filter, a game's dusk). Gray pixels stay as they are."""
    r, g, b = img[..., 0], img[..., 1], img[..., 2]
    y = 0.299 * r + 0.587 * g + 0.114 * b
    cb, cr = (b - y) / 1.772, (r - y) / 1.402
    a = np.deg2rad(deg)
    cb2, cr2 = cb * np.cos(a) - cr * np.sin(a), cb * np.sin(a) + cr * np.cos(a)
    out = np.empty_like(img)
    out[..., 0] = y + 1.402 * cr2
    out[..., 1] = y - 0.344136 * cb2 - 0.714136 * cr2
    out[..., 2] = y + 1.772 * cb2
    return out


# -- 1. a synthetic game written for this pass --------------------------------------------------
class SynthEmber:
    """**synth_ember**, a 160x210 game with the emulator's interface (act, getScreenRGB,
    cloneState / restoreState, getRAM, game_over, reset_game), so the corpus generator plays
    it and finds each press' first visible frame by its own NOOP counterfactual (the truth by
    construction). Screen behaviour no earlier pass had (s38's lantern panned a world, s39's
    strobe redrew on a beat, s40's prism scrolled under a palette cycle with luma beacons,
    s41's tint scrolled slowly, held 90 % / 10 % luma beacons and faded to dark). The phases
    count the emulator's frames from its reset, the lead-in included (video s = frame / 60):
    - **rain** (frames < STILL_A, video 0-12 s): 40 drops (1x3 px, light blue) fall at 1-3 px
      a frame over a still field of 8x8 blocks (5 shades, 3 of them tinted): small changes all
      over the picture, every frame;
    - **answers 3-5 frames late** (a hash of the step, changing every 40 frames);
    - **answers mostly in colour at a fixed luma**: FIRE toggles a 12x12 gem between GRAY and
      a saturated colour of the same BT.601 luma (its saturation, not its hue; persistent); UP
      / DOWN turn an 8x8 pip's hue 20 degrees a frame (luma kept); only LEFT / RIGHT move
      something (a 10x6 cart on a rail, 1 px a frame): 3 of 5 buttons invisible in gray;
    - **a still whose life is a colour-only beacon** (STILL_A..HUE_A, video 12-19 s): the rain
      stops; a 4x4 lamp shows one colour 20 frames in 45 and another of the same luma the other
      25 (a duty cycle invisible in gray);
    - **an honest hue turn over a still** (HUE_A..WHITE_A, video 19-26 s): every pixel's chroma
      turned 0 -> 90 degrees over 7 s at its luma (a dusk colour grade); the lamp gone;
    - **a dip to white over a still** (WHITE_A..WHITE_C, video 26-32 s): every pixel blended
      toward white, w 0 -> 0.75 over 3 s and back over 3 s; the sprites answer in it;
    - **the rain again** (WHITE_C to the end): slanting (1 px sideways every 2 frames);
    - the game's black: rows 192-209 pure black ground."""

    W, H = 160, 210
    ACTIONS = ("NOOP", "FIRE", "UP", "RIGHT", "LEFT", "DOWN")
    STILL_A = 12 * 60     # emulator frames from reset, the lead-in included (= video s x 60)
    HUE_A = 19 * 60
    WHITE_A = 26 * 60
    WHITE_B = 29 * 60
    WHITE_C = 32 * 60
    HUE_TURN = 90.0
    WHITE_TOP = 0.75
    GEM_Y, PIP_Y, LAMP_Y = 110, 140, 120

    def __init__(self, seed: int) -> None:
        self.seed = seed
        rng = np.random.default_rng(seed)
        self.field = rng.integers(0, 5, (23, 20))           # 8x8 blocks over 184 x 160
        self.drops = np.stack([rng.integers(0, 160, 40), rng.integers(0, 182, 40),
                               rng.integers(1, 4, 40)], axis=1)
        pal = np.array([(45, 45, 45), (0, 0, 0), (0, 0, 0), (0, 0, 0), (175, 175, 175)],
                       np.float32)
        pal[1] = _ycc(80, 30, 230)                          # three tinted shades
        pal[2] = _ycc(110, 35, 100)
        pal[3] = _ycc(145, 30, 330)
        self.base = pal[np.repeat(np.repeat(self.field, 8, 0), 8, 1)[:182]]
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
        return 3 + ((f // 40) * 7919 + self.seed * 31) % 3

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
            s["pip"] = (s["pip"] + 20) % 360
        elif name == "DOWN":
            s["pip"] = (s["pip"] - 20) % 360
        elif name == "FIRE" and prev != "FIRE":
            s["gem"] = 1 - s["gem"]
        return 0

    def _hue(self, f: int) -> float:
        if f < self.HUE_A:
            return 0.0
        return self.HUE_TURN * min(1.0, (f - self.HUE_A) / (self.WHITE_A - self.HUE_A))

    def _white(self, f: int) -> float:
        if f < self.WHITE_A or f >= self.WHITE_C:
            return 0.0
        if f < self.WHITE_B:
            return self.WHITE_TOP * (f - self.WHITE_A) / (self.WHITE_B - self.WHITE_A)
        return self.WHITE_TOP * (self.WHITE_C - f) / (self.WHITE_C - self.WHITE_B)

    def getScreenRGB(self):  # noqa: N802
        s, f = self.s, self.s["f"]
        img = np.zeros((self.H, self.W, 3), np.float32)
        img[10:192] = self.base
        if f < self.STILL_A or f >= self.WHITE_C:                        # the rain
            t = f if f < self.STILL_A else f - self.WHITE_C
            side = 0 if f < self.STILL_A else t // 2
            for x0, y0, v in self.drops:
                y = 10 + (y0 + v * t) % 180
                x = (x0 + side) % self.W
                img[y:y + 3, x] = (150, 190, 235)
        img[:10] = (20, 20, 20)                                           # the top strip
        img[150:154, 4:156] = (60, 60, 60)                                # the cart's rail
        img[144:150, s["cart"]:s["cart"] + 10] = (235, 235, 235)          # the cart (gray)
        img[40:52, 30:42] = (_ycc(self.GEM_Y, 70, 140) if s["gem"]
                             else (self.GEM_Y,) * 3)                      # the gem: saturation
        img[2:10, 120:128] = _ycc(self.PIP_Y, 50, 60 + s["pip"])          # the pip (hue)
        if self.STILL_A <= f < self.HUE_A:                                # the colour beacon
            img[90:94, 100:104] = _ycc(self.LAMP_Y, 55, 30 if f % 45 < 20 else 210)
        if f >= self.HUE_A:
            img[:192] = _rot_hue(img[:192], self._hue(f) if f < self.WHITE_C else self.HUE_TURN)
        w = self._white(f)
        if w:
            img[:192] = img[:192] + (255.0 - img[:192]) * w
        img[192:] = 0                                                     # the black ground
        return np.clip(np.rint(img), 0, 255).astype(np.uint8)


SYNTH = "synth_ember"


def synth_ember(ram, rng: random.Random) -> list[tuple[str, int]]:
    """The ember's agent: FIRE 3-6 (the gem), UP / DOWN 4-10 (the pip), LEFT / RIGHT 4-12 (the
    cart), a wait of 0.7-1.4 s a fifth of the time."""
    r = rng.random()
    if r < 0.24:
        return [("FIRE", rng.randint(3, 6))]
    if r < 0.56:
        return [(rng.choice(("UP", "DOWN")), rng.randint(4, 10))]
    if r < 0.8:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(4, 12))]
    return [("NOOP", rng.randint(40, MAX_HOLD))]


# -- 1b. ALE mode / difficulty variants of untuned wide games no pass played -------------------
#: chosen by s37's probe (seed 37) at 06:10-06:12 UTC: see the doc's section 1b
VARIANTS = {"galaxian_m2d1": ("galaxian", 2, 1), "tic_tac_toe_3d_m3d2": ("tic_tac_toe_3d", 3, 2)}
GX, TT = "galaxian_m2d1", "tic_tac_toe_3d_m3d2"


def galaxian_m2d1(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Galaxian, game 3 (mode 2), difficulty 1: the ship moves left / right (4-14 frames), FIRE
    (3-6), a wait of 0.7-1.4 s a fifth of the time."""
    r = rng.random()
    if r < 0.5:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(4, 14))]
    if r < 0.8:
        return [("FIRE", rng.randint(3, 6))]
    return [("NOOP", rng.randint(40, MAX_HOLD))]


def tic_tac_toe_3d_m3d2(ram, rng: random.Random) -> list[tuple[str, int]]:
    """3-D Tic-Tac-Toe, game 4 (mode 3), difficulty 2: the cursor moves four ways (4-12
    frames), FIRE places a mark (3-6); a wait of 0.7-1.4 s a fifth of the time."""
    r = rng.random()
    if r < 0.6:
        return [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT")), rng.randint(4, 12))]
    if r < 0.8:
        return [("FIRE", rng.randint(3, 6))]
    return [("NOOP", rng.randint(40, MAX_HOLD))]


GAMES42 = {SYNTH: (synth_ember, 842), GX: (galaxian_m2d1, 862), TT: (tic_tac_toe_3d_m3d2, 872)}

#: two recorders no sync run of the corpus, the wide set or a QA pass used (both codecs are
#: frame-truth shapes of tests/video/test_video_shapes_13.py, qa_session19, qa_hostile_s25):
#: - r25dvpal: **DV** (dvvideo, PAL, 4:2:0, 25 Mb/s, intra-only DCT) + PCM s16le 48 kHz stereo
#:   in a **raw DV stream (.dv)**, as a camcorder / FireWire capture writes it, **25 fps**, the
#:   game x2 nearest letterboxed into 720x576, **1.15 s** lead-in;
#: - r47utvavi: **Ut Video** (utvideo, lossless, yuv422p: AmaRecTV's game-capture codec) +
#:   PCM s16le 44.1 kHz in an **AVI**, **47 fps** (every 1.277th emulator frame), x2 nearest,
#:   **0.65 s** lead-in.
RECORDERS42 = {"r25dvpal": {"fps": 25, "scale": 2, "pad": (720, 576), "lead_s": 1.15,
                            "container": "dv", "codec": "dvpal25"},
               "r47utvavi": {"fps": 47, "scale": 2, "lead_s": 0.65, "container": "avi",
                             "codec": "utvideo47"}}
REC, REC2 = "r25dvpal", "r47utvavi"
SLOW42 = 1 / 0.973 - 1     # kind slow27: the video at 97.3 % of the log's clock (-2.7 %)
SPEED42 = 0.036            # kind speed36: the video 3.6 % fast
#: placed tamperings: label -> (the corpus' kind, the VIDEO second it starts at; the run
#: second is that minus the recorder's lead-in). huefreeze: the corpus' freeze in the rain, its
#: frozen frames recoloured by an editor's hue turn (0 -> 120 degrees over the held clip, luma
#: kept); whitefreeze: the freeze in the slanting rain under a dip to white (w 0 -> 0.7 -> 0).
PLACED = {"huefreeze": ("freeze", 6.0), "whitefreeze": ("freeze", 35.0),
          "freezehue": ("freeze", 21.0), "freezebeacon": ("freeze", 14.0),
          "cut10": ("cut", 10.0), "insert28": ("insert", 28.0),
          "deleted17": ("deleted", None), "human33": ("human", None)}
#: deleted17 / human33 are placed in RUN seconds (the log's clock)
PLACED_RUN_S = {"deleted17": 17.0, "human33": 33.0}
HUE_EDIT = 120.0
WHITE_EDIT = 0.7
SYNTH_RUNS = [f"{SYNTH}-genuine@{REC}", f"{SYNTH}-genuine@{REC2}", f"{SYNTH}-genuine2@{REC2}",
              f"{SYNTH}-huefreeze@{REC}", f"{SYNTH}-whitefreeze@{REC2}",
              f"{SYNTH}-freezehue@{REC2}", f"{SYNTH}-freezebeacon@{REC}",
              f"{SYNTH}-cut10@{REC2}", f"{SYNTH}-insert28@{REC}", f"{SYNTH}-slow27@{REC}",
              f"{SYNTH}-speed36@{REC2}", f"{SYNTH}-deleted17@{REC2}", f"{SYNTH}-human33@{REC}"]
DROPPED: list[str] = []
VARIANT_RUNS = [f"{GX}-genuine@{REC2}", f"{TT}-genuine@{REC}"]
ALL_RUNS = SYNTH_RUNS + VARIANT_RUNS
GENUINE_RUNS = [r for r in ALL_RUNS if "-genuine" in r]
HIDDEN = (GX, TT, SYNTH)
HOLDS = (SYNTH, GX, TT)
LAG = ()
_ENCODE41 = s41._encode
_EDIT: dict = {}


def _ffmpeg_tail(codec: str, w: int, h: int, path: Path) -> list[str]:
    if codec == "dvpal25":
        return ["sine=frequency=620:sample_rate=48000", "-map", "0:v", "-map", "1:a",
                "-shortest", "-vf", f"scale={w * 2}:{h * 2}:flags=neighbor,"
                "pad=720:576:(ow-iw)/2:(oh-ih)/2:black", "-c:v", "dvvideo", "-pix_fmt",
                "yuv420p", "-threads", "1", "-c:a", "pcm_s16le", "-ac", "2", "-f", "dv",
                str(path)]
    return ["sine=frequency=330:sample_rate=44100", "-map", "0:v", "-map", "1:a",
            "-shortest", "-vf", f"scale={w * 2}:{h * 2}:flags=neighbor", "-c:v", "utvideo",
            "-pred", "median", "-pix_fmt", "yuv422p", "-threads", "1", "-c:a", "pcm_s16le",
            "-f", "avi", str(path)]


def _longest_hold(frames: np.ndarray) -> tuple[int, int]:
    """(first frame, frames) of the longest run of identical recorded frames: the corpus'
    freeze (this game never holds a picture for 0.5 s)."""
    same = (frames[1:] == frames[:-1]).reshape(len(frames) - 1, -1).all(axis=1)
    best_len, best_start, run = 0, 0, 0
    for i, x in enumerate(same):       # same[i]: frame i + 1 repeats frame i
        run = run + 1 if x else 0
        if run > best_len:
            best_len, best_start = run, i + 1 - run
    return best_start, best_len + 1


def _edit(frames: np.ndarray, kind: str) -> np.ndarray:
    """The forger's edit over the held frames: `huefreeze` turns their hue 0 -> HUE_EDIT
    degrees across the hold (an editor's keyframed hue filter, luma kept); `whitefreeze` dips
    them to white and back (w = WHITE_EDIT sin(pi i / (n - 1)))."""
    start, n = _longest_hold(frames)
    out = frames.astype(np.float32)
    for i in range(n):
        x = out[start + i]
        if kind == "huefreeze":
            out[start + i] = _rot_hue(x, HUE_EDIT * i / (n - 1))
        else:
            out[start + i] = x + (255.0 - x) * WHITE_EDIT * np.sin(np.pi * i / (n - 1))
    _EDIT.update(frames=n, first=start)
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def _encode(frames: np.ndarray, folder: Path, rec) -> Path:
    codec = getattr(rec, "codec", "")
    if _EDIT.get("on"):
        frames = _edit(frames, _EDIT["on"])
    if codec not in ("dvpal25", "utvideo47"):
        return _ENCODE41(frames, folder, rec)
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
    tamper_for draws 12-22 s); the truth keeps the corpus' kind and adds `label` (and `edit`)."""
    build = sys.modules["corpus.build"]
    if getattr(build, "_qa42", False):
        return
    orig_generate, orig_tamper = build.generate, build.tamper_for

    def generate(game: str, kind: str, out: Path, **kw) -> dict:
        if kind not in PLACED:
            return orig_generate(game, kind, out, **kw)
        base, video_s = PLACED[kind]
        lead = kw["rec"].lead_s or 0.0
        at = PLACED_RUN_S[kind] if video_s is None else round(video_s - lead, 3)
        build.tamper_for = lambda g, k: build.Tamper(k, at)
        _EDIT["on"] = kind if kind in ("huefreeze", "whitefreeze") else None
        try:
            truth = orig_generate(game, base, out, **kw)
        finally:
            build.tamper_for = orig_tamper
            _EDIT["on"] = None
        t = json.loads((out / "truth.json").read_text())
        t["tamper"]["label"] = kind
        if kind in ("huefreeze", "whitefreeze"):
            t["tamper"]["edit"] = {"kind": kind, "recorded_frames": _EDIT["frames"],
                                   "first_frame": _EDIT["first"],
                                   "amount": HUE_EDIT if kind == "huefreeze" else WHITE_EDIT}
        (out / "truth.json").write_text(json.dumps(t, indent=1) + "\n")
        return truth

    build.generate, build._qa42 = generate, True


def _emulator_variants() -> None:
    """This pass' ALE variants and its synthetic game, over s41's hook."""
    import corpus.play as play

    s41._emulator_variants()
    if getattr(play, "_qa42", False):
        return
    orig = play._emulator

    def emulator(game: str, seed: int):
        if game == SYNTH:
            return SynthEmber(seed), {n: i for i, n in enumerate(SynthEmber.ACTIONS)}
        if game not in VARIANTS:
            return orig(game, seed)
        rom, mode, diff = VARIANTS[game]
        ale, acts = orig(rom, seed)
        ale.setMode(mode)
        ale.setDifficulty(diff)
        ale.reset_game()
        return ale, acts

    play._emulator, play._qa42 = emulator, True


def _install() -> None:
    s41._install()
    s25._encode = _encode
    s25.GAMES25.update(GAMES42)
    s25.RECORDERS25.update(RECORDERS42)
    build = sys.modules["corpus.build"]
    build.SLOWDOWNS["slow27"] = SLOW42
    build.SPEEDUPS["speed36"] = SPEED42
    s34.HIDDEN, s34.HOLDS, s34.LAG = HIDDEN, HOLDS, LAG
    s28.HIDDEN, s28.HOLDS = HIDDEN, HOLDS
    s28.build_sync_run = s29.build_sync_run = s30.build_sync_run = build_sync_run
    s36.build_sync_run = s37.build_sync_run = build_sync_run
    s23._FMT.setdefault(".dv", "dv")
    s23._FMT.setdefault(".avi", "avi")
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


#: the ember's stretches in video seconds (the emulator's frames from reset / 60, the lead-in
#: included: the same at every recorder of a run at the log's pace)
BEACON_S = (SynthEmber.STILL_A / 60, SynthEmber.HUE_A / 60)
HUE_S = (SynthEmber.HUE_A / 60, SynthEmber.WHITE_A / 60)
WHITE_S = (SynthEmber.WHITE_A / 60, SynthEmber.WHITE_C / 60)


def stretch_bar(sync_log: Path, span: tuple[float, float]) -> dict:
    """S-cb / S-ht / S-wd (the doc's bars, set before any product run): on the ember's
    genuine runs, at the 4 offsets, no `video.frozen` / `sync.*` warning covering any of it."""
    s40.SYNTH = SYNTH
    return s40.stretch_bar(sync_log, span)


def table(sync_log: Path, mismatch_log: Path | None = None) -> dict:
    """s37.table's counts (section 1 apart from 1b), plus this pass' bars: S-cb, S-ht, S-wd
    (the stretches) and S-hf, S-wf, S-fh, S-fb (the four placed freezes)."""
    s37.SYNTH, s37.HIDDEN, s37.HOLDS, s37.LAG = SYNTH, HIDDEN, HOLDS, LAG
    out = s37.table(sync_log, mismatch_log)
    out["S-cb"] = stretch_bar(sync_log, BEACON_S)
    out["S-ht"] = stretch_bar(sync_log, HUE_S)
    out["S-wd"] = stretch_bar(sync_log, WHITE_S)
    for bar, label in (("S-hf", "huefreeze"), ("S-wf", "whitefreeze"), ("S-fh", "freezehue"),
                       ("S-fb", "freezebeacon")):
        out[bar] = s41.freeze_bar(sync_log, label)
    return out


def summary(sync_log: Path) -> list[dict]:
    s40.RECORDERS40.update(RECORDERS42)
    return s40.summary(sync_log)


MISMATCH = {"ember_avi+galaxian_log": (SYNTH, GX, REC2)}


def check_mismatch(case: str) -> dict:
    _install()
    s28.MISMATCH = MISMATCH
    return s28.check_mismatch(case)


def synth_probe(seed: str) -> dict:
    """s41's probe on this pass' game, per phase: NOOP steps' changed pixels (in colour and in
    BT.601 gray, > 2 levels), and 20 probe presses (8 frames, after 20-60 random steps)
    against their NOOP counterfactual, with whether each answer shows in gray."""
    out = {"seed": seed}

    def gray(x: np.ndarray) -> np.ndarray:
        return x.astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)

    for label, start in (("rain", 60), ("beacon", SynthEmber.STILL_A + 30),
                         ("hue", SynthEmber.HUE_A + 30), ("white", SynthEmber.WHITE_A + 30),
                         ("rain2", SynthEmber.WHITE_C + 30)):
        g = SynthEmber(int(seed))
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
        g = SynthEmber(int(seed))
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


# -- 2/3/4: chain shape, hostile spellings, escape-heavy logs: scripts/qa_hostile_s42.py -------
def hostile_module():
    import qa_hostile_s42
    return qa_hostile_s42


# -- 5. QA s41's misses (training data now; the engineers' targets) -----------------------------
_T = "sync/synth_tint"
_R37, _R48 = "r37svq1mov", "r48dnxmxf"
S41_MISSES = {
    "T1": [(f"{_T}-genuine@{_R37}", "auto"), (f"{_T}-genuine@{_R48}", "auto"),
           (f"{_T}-genuine2@{_R48}", "auto"), (f"sync/othello_m1d2-genuine@{_R48}", "auto")],
    "T2": [(f"{_T}-genuine@{_R48}", "0.85"), (f"{_T}-genuine2@{_R48}", "0.85")],
    "T3": [(f"{_T}-fadefreeze@{_R37}", "1.85"), (f"{_T}-genuine@{_R48}", "0.85"),
           (f"{_T}-deleted24@{_R48}", "0.85")],
    "T4": [(f"{_T}-cut06@{_R48}", "0.85"), (f"{_T}-insert33@{_R37}", "1.85"),
           (f"{_T}-speed43@{_R48}", "auto")],
}


def check_s41(miss: str) -> dict:
    s37.S36_MISSES = S41_MISSES
    s37.CACHE36 = CACHE41
    return s37.check_s36(miss)


def main(argv: list[str]) -> int:  # noqa: C901, PLR0912 - one dispatch table
    s23._FMT.setdefault(".rm", "rm")
    s23._FMT.setdefault(".mxf", "mxf")
    s23._FMT.setdefault(".dv", "dv")
    what, rest = (argv[0] if argv else ""), argv[1:]
    if what == "build":
        hm = hostile_module()
        kinds = rest or ["chain", "hostile", "escape"]
        if "chain" in kinds:
            _rows(lambda s: {"shape": s, "folder": str(hm.build_chain42(s))},
                  list(hm.CHAIN_SHAPES42), "shape")
        if "hostile" in kinds:
            print(json.dumps([c for c, _ in hm.cases(CACHE / "hostile")]))
        if "escape" in kinds:
            _rows(lambda c: {"case": c, **hm.build_escape(CACHE / "escape", c)},
                  list(hm.ESCAPE), "case")
    elif what == "jcs-check":
        hm = hostile_module()
        _rows(hm.jcs_check42, rest or list(hm.CHAIN_SHAPES42), "shape")
    elif what == "chain":
        hm = hostile_module()
        _rows(hm.check_chain42, rest or list(hm.CHAIN_SHAPES42), "shape")
    elif what == "sync-build":
        _rows(lambda r: {"run": r, "folder": str(build_sync_run(r))}, rest or ALL_RUNS, "run")
    elif what == "synth-probe":
        _rows(synth_probe, rest or ["842"], "seed")
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
    elif what == "s41":
        _rows(check_s41, rest or list(S41_MISSES), "miss")
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
