"""Session 44's QA pass (docs/qa/session44.md): held-out inputs for session 44's work, run
through main, actual against expected. Heavy files go to `/work/main/.cache/qa-s44/`
(gitignored); nothing here is imported by the app or the tests. Sessions 13-43's machinery
(scripts/qa_session43.py and through it qa_session10/12..42.py, qa_common.py, the corpus
generator tests/corpus) is reused by import. Every generator is deterministic (fixed seeds,
fixed encoder settings, one thread).

This pass plays (1) **a new synthetic game, `synth_tide`** (sprites multiplexed over THREE
frames, not two, over a checkerboard; presses answered 3-6 frames late, most in colour at a
fixed luma: a gem turning from gray to a colour of its own luma (SATURATION, not hue), a dial
stepping through six hues; a still whose chroma falls to 20 % and comes back in a V (an honest
desaturation, a pause screen's); a still under a DIP TO GREEN with a slow attack and a fast
release; the flicker again over a vertically scrolling field), the truth by construction, with
tamperings placed where no pass put them (a freeze put through a SEPIA channel mixer blended in
across its hold; a freeze under a TRAPEZOID fade to green with a plateau; a freeze inside a
colour-temperature grade cycling over the WHOLE video; a cut, an insert inside the green dip, a
deleted stretch, a human stretch), at two recorders no pass used (Snow wavelets in AVI at 26
fps with A-law audio; QuickTime Graphics (SMC, an 8-bit dithered palette) in MOV at 49 fps
with big-endian PCM), and (2) an ALE difficulty variant of an untuned wide game no pass played
in that variant, reported apart.

Run the product of another worktree with PYTHONPATH=/that/worktree (the CLI subprocesses
inherit it; the CLI is started with `python -P`).

    .venv/bin/python scripts/qa_session44.py sync-build|sync-truth|sync [RUN...]
    .venv/bin/python scripts/qa_session44.py table SYNC.jsonl [MISMATCH.jsonl]
    .venv/bin/python scripts/qa_session44.py mismatch [CASE...]
    .venv/bin/python scripts/qa_session44.py synth-probe [SEED]
    .venv/bin/python scripts/qa_session44.py build [chain|hostile|escape]
    .venv/bin/python scripts/qa_session44.py chain|jcs-check [SHAPE...]  # issue 15: held-out shape
    .venv/bin/python scripts/qa_session44.py hostile [ID...]      # issue 15: new spellings
    .venv/bin/python scripts/qa_session44.py escape [CASE...]     # issue 15: escape-heavy CPU
    .venv/bin/python scripts/qa_session44.py diag                 # QA s43 T7's heads again
    .venv/bin/python scripts/qa_session44.py hostile-table LOG    # one row an input
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
import qa_session43 as s43  # noqa: E402

s42, s41, s40, s39, s38, s37 = s43.s42, s43.s41, s43.s40, s43.s39, s43.s38, s43.s37
s36, s34, s28, s29, s30, s25 = s43.s36, s43.s34, s43.s28, s43.s29, s43.s30, s43.s25
s22, s23 = s43.s22, s43.s23
CACHE43 = s43.CACHE
CACHE = CACHE43.parent / "qa-s44"
for _m in (s43, s42, s41, s40, s39, s38, s37, s36, s43.s35, s34, s43.s33, s43.s32, s43.s31,
           s30, s29, s28, s43.s27, s43.s26, s25, s43.s24, s23, s22, s23.s10, s23.s13, s43.s14,
           s23.s15, s22.s12, s22.s16, s22.s17, s22.s18, s43.s19, s23.s20, s43.s21):
    _m.CACHE = CACHE
_rows = s22._rows
MAX_HOLD = s43.MAX_HOLD   # every press or wait <= 84 frames: no event after run_end (s36 T7)
_ycc = s43._ycc


def _gray_of(img: np.ndarray) -> np.ndarray:
    return img @ np.array([0.299, 0.587, 0.114], np.float32)


def _chroma(img: np.ndarray, keep: float) -> np.ndarray:
    """Every pixel's chroma scaled by `keep` at its BT.601 luma."""
    y = _gray_of(img)[..., None]
    return y + (img - y) * keep


SEPIA = np.array([[0.393, 0.769, 0.189], [0.349, 0.686, 0.168], [0.272, 0.534, 0.131]],
                 np.float32)


# -- 1. a synthetic game written for this pass --------------------------------------------------
class SynthTide(s43.SynthLoom):
    """**synth_tide**, a 160x210 game with the emulator's interface (the loom's plumbing:
    act, getScreenRGB, cloneState / restoreState, getRAM, game_over, reset_game), so the corpus
    generator plays it and finds each press' first visible frame by its own NOOP
    counterfactual (the truth by construction). Screen behaviour no earlier pass had (s38
    lantern ... s43 loom: a pan, a beat, a palette cycle, luma beacons, rain, a monotone hue
    turn, a dip to white, two-frame multiplexing, a hue swing, a dip to red, a white flash).
    Phases in emulator frames from reset, the lead-in included (video s = frame / 60):
    - **three-phase flicker** (video 0-12 s): nine drops (4x4 px, pale cyan) drawn three a
      frame in turn (frame f shows group f % 3), each drifting diagonally 1 px every 2 frames,
      over a still CHECKERBOARD of 10-px squares (3 shades, one tinted): every frame changes,
      with a period of 3 frames;
    - **answers 3-6 frames late** (a hash of the step, changing every 45 frames);
    - **answers mostly in colour at a fixed luma**: FIRE toggles a 12x8 gem between GRAY and a
      saturated colour of the SAME luma (a saturation answer); UP / DOWN step an 8x8 dial
      through six hues of one luma every 5 frames held; only LEFT / RIGHT move something (a
      3x10 cursor, 1 px a frame, gray);
    - **an honest desaturation over a still** (video 12-17 s): the drops gone; every pixel's
      chroma scaled 100 % -> 20 % over 2.5 s and back over 2.5 s (a V, luma kept: a pause
      screen's grey-out and back);
    - **an honest dip to GREEN over the still** (video 17-22 s): every pixel blended toward
      (40, 190, 60): w 0 -> 0.55 over 2.0 s (a SLOW attack), held 0.5 s, back to 0 in 0.3 s
      (a FAST release), then 2.2 s plain (the loom's red dip was fast in, slow out);
    - **the flicker over a vertically scrolling field** (video 22 s to the end): the drops back,
      the checkerboard moving down 1 px every 3 frames;
    - rows 192-209 pure black ground, rows 0-11 a dark band."""

    DESAT_A = 12 * 60
    GREEN_A = 17 * 60
    SCROLL_A = 22 * 60
    GREEN = (40.0, 190.0, 60.0)
    GEM_Y, DIAL_Y = 110, 95

    def __init__(self, seed: int) -> None:
        self.seed = seed
        rng = np.random.default_rng(seed)
        pal = np.array([(60, 60, 60), (0, 0, 0), (140, 140, 140)], np.float32)
        pal[1] = _ycc(100, 40, 300)
        self.board = rng.integers(0, 3, (19, 16))          # 10-px squares (rows wrap)
        self.pal = pal
        self.drops = np.stack([rng.integers(0, 150, 9), rng.integers(16, 150, 9)], axis=1)
        self.reset_game()

    def reset_game(self) -> None:
        self.s = {"f": 0, "cur": 78, "gem": 0, "dial": 0, "held": 0, "queue": (0,) * 10}

    def _lag(self, f: int) -> int:
        return 3 + ((f // 45) * 7919 + self.seed * 13) % 4

    def act(self, a: int) -> int:
        s = self.s
        f = s["f"] + 1
        q = (*s["queue"][1:], int(a))
        s["queue"], s["f"] = q, f
        lag = self._lag(f)
        name, prev = self.ACTIONS[q[-1 - lag]], self.ACTIONS[q[-2 - lag]]
        s["held"] = s["held"] + 1 if name == prev else 0
        if name == "LEFT":
            s["cur"] = max(4, s["cur"] - 1)
        elif name == "RIGHT":
            s["cur"] = min(152, s["cur"] + 1)
        elif name in ("UP", "DOWN") and s["held"] % 5 == 0:
            s["dial"] = (s["dial"] + (1 if name == "UP" else 5)) % 6
        elif name == "FIRE" and prev != "FIRE":
            s["gem"] = 1 - s["gem"]
        return 0

    def _desat(self, f: int) -> float:
        t = f - self.DESAT_A
        if not 0 <= t < self.GREEN_A - self.DESAT_A:
            return 1.0
        return 1.0 - 0.8 * min(t / 150, (300 - t) / 150)

    def _green(self, f: int) -> float:
        t = f - self.GREEN_A
        if not 0 <= t < 168:
            return 0.0
        return 0.55 * min(1.0, t / 120, (168 - t) / 18)

    def getScreenRGB(self):  # noqa: N802
        s, f = self.s, self.s["f"]
        img = np.zeros((self.H, self.W, 3), np.float32)
        shift = (f - self.SCROLL_A) // 3 if f >= self.SCROLL_A else 0
        rows = (np.arange(192) - shift) // 10 % 19
        img[:192] = self.pal[self.board[rows][:, np.arange(self.W) // 10]]
        if not self.DESAT_A <= f < self.SCROLL_A:                          # the drops, 3 phases
            for i, (x0, y0) in enumerate(self.drops):
                if i % 3 != f % 3:
                    continue
                x, y = int(x0 + f // 2) % (self.W - 4), int(y0 + f // 2) % 150 + 16
                img[y:y + 4, x:x + 4] = (150, 225, 230)
        img[:12] = (25, 25, 25)
        img[170:180, s["cur"]:s["cur"] + 3] = (230, 230, 230)               # the cursor (gray)
        img[40:48, 30:42] = (_ycc(self.GEM_Y, 62, 150) if s["gem"]
                             else np.array([self.GEM_Y] * 3, np.float32))  # the gem: saturation
        img[2:10, 140:148] = _ycc(self.DIAL_Y, 50, 20 + 60 * s["dial"])    # the dial: six hues
        k = self._desat(f)
        if k < 1.0:
            img[:192] = _chroma(img[:192], k)
        g = self._green(f)
        if g:
            img[:192] = img[:192] + (np.array(self.GREEN, np.float32) - img[:192]) * g
        img[192:] = 0
        return np.clip(np.rint(img), 0, 255).astype(np.uint8)


SYNTH = "synth_tide"


def synth_tide(ram, rng: random.Random) -> list[tuple[str, int]]:
    """The tide's agent: FIRE 3-6 (the gem), UP / DOWN 5-10 (the dial), LEFT / RIGHT 4-12 (the
    cursor), a wait of 0.7-1.4 s a fifth of the time."""
    r = rng.random()
    if r < 0.25:
        return [("FIRE", rng.randint(3, 6))]
    if r < 0.55:
        return [(rng.choice(("UP", "DOWN")), rng.randint(5, 10))]
    if r < 0.8:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(4, 12))]
    return [("NOOP", rng.randint(40, MAX_HOLD))]


# -- 1b. an ALE difficulty variant of an untuned wide game no pass played ----------------------
#: chosen by s37's probe (seed 37) at 14:22 UTC: up_n_down difficulty 1 (6 of 20 probe presses
#: shown, lags 3-6; QA s43 played difficulty 2, 3 of 20; difficulty 3 probes as 2); bowling
#: m0d1 and m4d1 showed 0 of 20 (not taken)
VARIANTS: dict[str, tuple[str, int, int]] = {"up_n_down_m0d1": ("up_n_down", 0, 1)}
UD = "up_n_down_m0d1"
up_n_down_m0d1 = s43.up_n_down_m0d2
GAMES44 = {SYNTH: (synth_tide, 944), UD: (up_n_down_m0d1, 954)}

#: two recorders no sync run of the corpus, the wide set or a QA pass used (grep of scripts/,
#: tests/, bench/ for snow, smc, pcm_alaw, pcm_s16be, "fps": 26, "fps": 49: none):
#: - r26snowavi: **Snow** (FFmpeg's experimental wavelet codec, lossy, qscale 3) + **A-law**
#:   8 kHz mono in an **AVI**, **26 fps** (every 2.31th emulator frame), x1, **1.15 s** lead-in;
#: - r49smcmov: **QuickTime Graphics (SMC)**: an 8-bit PALETTE codec (FFmpeg's rgb24 -> pal8
#:   conversion, error-diffusion dithered) + **big-endian 16-bit PCM** 22.05 kHz in a **MOV**,
#:   **49 fps** (every 1.22th emulator frame), x2 nearest, **0.65 s** lead-in: colour kept only
#:   to a 256-colour palette, dithered; a held picture is bit-identical.
RECORDERS44 = {"r26snowavi": {"fps": 26, "scale": 1, "lead_s": 1.15, "container": "avi",
                              "codec": "snowavi26"},
               "r49smcmov": {"fps": 49, "scale": 2, "lead_s": 0.65, "container": "mov",
                             "codec": "smcmov49"}}
RA, RB = "r26snowavi", "r49smcmov"
#: placed tamperings: label -> (the corpus' kind, the VIDEO second it starts at; run s = that
#: minus the lead-in). sepiafreeze: the freeze in the flicker, its held frames through a sepia
#: channel mixer (colorchannelmixer's sepia matrix) blended 0 -> 100 % across the hold (luma,
#: hue and saturation all move); greenfreeze: the freeze over the scrolling flicker under a
#: TRAPEZOID fade to green (w 0 -> 0.7 in the hold's first quarter, held at 0.7 for its middle
#: half, back in its last quarter: a plateau, not s43's sine); gradefreeze: the freeze inside a
#: colour-temperature grade over the WHOLE video (red gain 1 + 0.25 sin(2 pi t / 8 s), blue
#: gain 1 - 0.25 sin(...): review s43 R2's class, a grade an editor lays over everything).
PLACED = {"sepiafreeze": ("freeze", 7.0), "greenfreeze": ("freeze", 27.0),
          "gradefreeze": ("freeze", 30.0), "cut10": ("cut", 10.0), "insert19": ("insert", 19.0),
          "deleted26": ("deleted", None), "human33": ("human", None)}
#: deleted26 / human33 are placed in RUN seconds (the log's clock)
PLACED_RUN_S = {"deleted26": 26.0, "human33": 33.0}
EDITS = ("sepiafreeze", "greenfreeze", "gradefreeze")
GREEN_EDIT, GRADE_AMP, GRADE_PERIOD_S = 0.7, 0.25, 8.0
SYNTH_RUNS = [f"{SYNTH}-genuine@{RA}", f"{SYNTH}-genuine@{RB}", f"{SYNTH}-genuine2@{RA}",
              f"{SYNTH}-genuine2@{RB}", f"{SYNTH}-sepiafreeze@{RA}", f"{SYNTH}-greenfreeze@{RB}",
              f"{SYNTH}-gradefreeze@{RA}", f"{SYNTH}-cut10@{RB}", f"{SYNTH}-insert19@{RA}",
              f"{SYNTH}-deleted26@{RB}", f"{SYNTH}-human33@{RA}"]
VARIANT_RUNS = [f"{UD}-genuine@{RA}"]
ALL_RUNS = SYNTH_RUNS + VARIANT_RUNS
HIDDEN = (UD, SYNTH)
HOLDS = (SYNTH, UD)
LAG = ()
_ENCODE43 = s43._encode
_EDIT: dict = {}


def _ffmpeg_tail(codec: str, w: int, h: int, path: Path) -> list[str]:
    if codec == "snowavi26":
        return ["sine=frequency=430:sample_rate=8000", "-map", "0:v", "-map", "1:a",
                "-shortest", "-c:v", "snow", "-strict", "-2", "-qscale:v", "3",
                "-pix_fmt", "yuv420p", "-threads", "1", "-c:a", "pcm_alaw", "-ac", "1",
                "-f", "avi", str(path)]
    return ["sine=frequency=610:sample_rate=22050", "-map", "0:v", "-map", "1:a",
            "-shortest", "-vf", f"scale={w * 2}:{h * 2}:flags=neighbor", "-c:v", "smc",
            "-pix_fmt", "pal8", "-threads", "1", "-c:a", "pcm_s16be", "-f", "mov", str(path)]


def _edit(frames: np.ndarray, kind: str, fps: float) -> np.ndarray:
    """The forger's edit over the held frames (s42's _longest_hold finds them); gradefreeze's
    grade over every frame."""
    start, n = s42._longest_hold(frames)
    out = frames.astype(np.float32)
    if kind == "gradefreeze":
        t = np.arange(len(out), dtype=np.float32) / fps
        k = GRADE_AMP * np.sin(2 * np.pi * t / GRADE_PERIOD_S)
        out[..., 0] *= (1 + k)[:, None, None]
        out[..., 2] *= (1 - k)[:, None, None]
    else:
        for i in range(n):
            x, u = out[start + i], i / (n - 1)
            if kind == "sepiafreeze":
                out[start + i] = x + (x @ SEPIA.T - x) * u
            else:
                w = GREEN_EDIT * min(1.0, 4 * u, 4 * (1 - u))
                out[start + i] = x + (np.array(SynthTide.GREEN, np.float32) - x) * w
    _EDIT.update(frames=n, first=start)
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def _encode(frames: np.ndarray, folder: Path, rec) -> Path:
    codec = getattr(rec, "codec", "")
    if _EDIT.get("on"):
        frames = _edit(frames, _EDIT["on"], float(rec.fps))
    if codec not in ("snowavi26", "smcmov49"):
        return _ENCODE43(frames, folder, rec)
    h, w = frames.shape[1:3]
    path = folder / rec.video_name
    cmd = ["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
           "rgb24", "-s", f"{w}x{h}", "-r", str(rec.fps), "-i", "-", "-f", "lavfi", "-i",
           *_ffmpeg_tail(codec, w, h, path)]
    subprocess.run(cmd, input=np.ascontiguousarray(frames).tobytes(), check=True,
                   stderr=subprocess.DEVNULL)
    return path


def _generate_placed() -> None:
    """This pass' placed kinds over s43's hook (corpus.build's tamper_for at a chosen time)."""
    build = sys.modules["corpus.build"]
    if getattr(build, "_qa44", False):
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

    build.generate, build._qa44 = generate, True


def _emulator_variants() -> None:
    import corpus.play as play

    s43._emulator_variants()
    if getattr(play, "_qa44", False):
        return
    orig = play._emulator

    def emulator(game: str, seed: int):
        if game == SYNTH:
            return SynthTide(seed), {n: i for i, n in enumerate(SynthTide.ACTIONS)}
        if game not in VARIANTS:
            return orig(game, seed)
        rom, mode, diff = VARIANTS[game]
        ale, acts = orig(rom, seed)
        ale.setMode(mode)
        ale.setDifficulty(diff)
        ale.reset_game()
        return ale, acts

    play._emulator, play._qa44 = emulator, True


def _install() -> None:
    s43._install()
    s25._encode = _encode
    s25.GAMES25.update(GAMES44)
    s25.RECORDERS25.update(RECORDERS44)
    s34.HIDDEN, s34.HOLDS, s34.LAG = HIDDEN, HOLDS, LAG
    s28.HIDDEN, s28.HOLDS = HIDDEN, HOLDS
    s28.build_sync_run = s29.build_sync_run = s30.build_sync_run = build_sync_run
    s36.build_sync_run = s37.build_sync_run = s43.build_sync_run = build_sync_run
    s23._FMT.setdefault(".mov", "mov,mp4,m4a,3gp,3g2,mj2")
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


#: the tide's stretches in video seconds (emulator frames from reset / 60, the lead-in
#: included: the same at every recorder of a run at the log's pace)
DESAT_S = (SynthTide.DESAT_A / 60, SynthTide.GREEN_A / 60)
GREEN_S = (SynthTide.GREEN_A / 60, SynthTide.GREEN_A / 60 + 2.8)
STILL_S = (SynthTide.DESAT_A / 60, SynthTide.SCROLL_A / 60)


def stretch_bar(sync_log: Path, span: tuple[float, float]) -> dict:
    s40.SYNTH = SYNTH
    return s40.stretch_bar(sync_log, span)


def table(sync_log: Path, mismatch_log: Path | None = None) -> dict:
    """s37.table's counts plus this pass' bars: S-ds, S-gd, S-st (the honest stretches) and
    S-sp, S-gf, S-gr (the three recoloured / dipped / graded freezes)."""
    s37.SYNTH, s37.HIDDEN, s37.HOLDS, s37.LAG = SYNTH, HIDDEN, HOLDS, LAG
    out = s37.table(sync_log, mismatch_log)
    out["S-ds"] = stretch_bar(sync_log, DESAT_S)
    out["S-gd"] = stretch_bar(sync_log, GREEN_S)
    out["S-st"] = stretch_bar(sync_log, STILL_S)
    for bar, label in (("S-sp", "sepiafreeze"), ("S-gf", "greenfreeze"),
                       ("S-gr", "gradefreeze")):
        out[bar] = s41.freeze_bar(sync_log, label)
    return out


MISMATCH = {"tide_avi+updown_log": (SYNTH, UD, RA)}


def check_mismatch(case: str) -> dict:
    _install()
    s28.MISMATCH = MISMATCH
    return s28.check_mismatch(case)


def synth_probe(seed: str) -> dict:
    """s42's probe, per phase of this pass' game (NOOP steps' changed pixels in colour and in
    BT.601 gray; 20 probe presses against their NOOP counterfactual)."""
    s42.SynthEmber, saved = SynthTide, s42.SynthEmber
    SynthTide.STILL_A, SynthTide.HUE_A = SynthTide.DESAT_A, SynthTide.GREEN_A
    SynthTide.WHITE_A, SynthTide.WHITE_C = SynthTide.GREEN_A + 150, SynthTide.SCROLL_A
    try:
        return s42.synth_probe(seed)
    finally:
        s42.SynthEmber = saved


# -- 2/3/4: chain shape, hostile spellings, escape-heavy logs: scripts/qa_hostile_s44.py -------
def hostile_module():
    import qa_hostile_s44
    return qa_hostile_s44


#: QA s43 T7's heads (training now): verify --json on each, the secret findings counted
DIAG43 = ("e_pem64_head2000", "e_gif64_head2000", "e_pem64_keyonly", "e_gif64_keyonly",
          "e_mime60_head2000", "e_mime60_keyonly")


def diag(case: str) -> dict:
    """verify --json on a head / the key line alone of an escape log (this pass' e_mime60 in
    CACHE/diag, QA s43's in its cache): the secret findings counted; withhold on a key line."""
    folder = CACHE / "diag" / case
    if not folder.exists():
        folder = CACHE43 / "diag" / case
    code, rep, _err = s22._verify(folder)
    found = [x for x in rep.get("findings", []) if str(x.get("rule", "")).startswith("secret")]
    sev: dict[str, int] = {}
    for x in found:
        sev[str(x.get("severity"))] = sev.get(str(x.get("severity")), 0) + 1
    strong = sorted({x.get("line") for x in found if x.get("severity") in ("error", "warning")})
    out = {"case": case, "exit": code, "n": len(found), "sev": sev, "strong_lines": strong[:20],
           "n_strong_lines": len(strong),
           "labels": sorted({str(x.get("message", ""))[:110] for x in found})[:4]}
    if case.endswith("keyonly"):
        pub = CACHE / "diag" / f"{case}.pub"
        pub.unlink(missing_ok=True)
        r = subprocess.run([*s22.CLI, "withhold", str(folder / "agent-log.jsonl"), "-o",
                            str(pub)], capture_output=True, text=True, timeout=600)
        out["withhold"] = {"exit": r.returncode, "wrote": pub.exists(),
                           "stderr": r.stderr[-300:]}
    return out


def hostile_table(log: Path) -> dict:
    """One row an input of a hostile log (qa_hostile_s28's harness rows, then POST_CHECKS):
    verify --json's exit and verdict, withhold's exit, the slowest / largest command, problems,
    the secret findings (H-s / H-f) and what withhold published (H-a). Written after the
    expectations landed: it reads logs only."""
    rows = [json.loads(x) for x in log.read_text().splitlines() if x.startswith("{")]
    out: dict[str, dict] = {}
    post = {r["check"][:3]: r for r in rows if "check" in r}
    for r in rows:
        if "case" not in r:
            continue
        tag = r["case"][:6]
        row = out.setdefault(tag, {"max_s": 0.0, "max_mib": 0, "problems": []})
        row["max_s"] = max(row["max_s"], r.get("seconds") or 0.0)
        row["max_mib"] = max(row["max_mib"], round((r.get("max_rss_kb") or 0) / 1024))
        row["problems"] += r.get("problems", [])
        if r["cmd"].endswith("--json"):
            row["verify_json"] = [r["exit"], r.get("verdict")]
        elif r["cmd"].startswith("withhold"):
            row["withhold"] = r["exit"]
            row["withhold_err"] = r.get("stderr", "")[-160:]
    sec = post.get("H-s", {}).get("rows", {})
    pub = post.get("H-a", {}).get("published", {})
    for tag, row in out.items():
        s = sec.get(tag, {})
        row.update({k: s.get(k) for k in ("secret_lines", "warned_lines", "n_strong", "n_found",
                                          "severities", "rules", "labels", "met",
                                          "strong_by_place")})
        row["published"] = pub.get(f"{tag}.pub")
    return out


def main(argv: list[str]) -> int:  # noqa: C901, PLR0912 - one dispatch table
    s23._FMT.setdefault(".dv", "dv")
    s23._FMT.setdefault(".avi", "avi")
    what, rest = (argv[0] if argv else ""), argv[1:]
    if what == "build":
        hm = hostile_module()
        kinds = rest or ["chain", "hostile", "escape"]
        if "chain" in kinds:
            _rows(lambda s: {"shape": s, "folder": str(hm.build_chain44(s))},
                  list(hm.CHAIN_SHAPES44), "shape")
        if "hostile" in kinds:
            print(json.dumps([c for c, _ in hm.cases(CACHE / "hostile")]))
        if "escape" in kinds:
            _rows(lambda c: {"case": c, **hm.build_escape(CACHE / "escape", c)},
                  list(hm.ESCAPE), "case")
    elif what == "jcs-check":
        hm = hostile_module()
        _rows(hm.jcs_check44, rest or list(hm.CHAIN_SHAPES44), "shape")
    elif what == "chain":
        hm = hostile_module()
        _rows(hm.check_chain44, rest or list(hm.CHAIN_SHAPES44), "shape")
    elif what == "sync-build":
        _rows(lambda r: {"run": r, "folder": str(build_sync_run(r))}, rest or ALL_RUNS, "run")
    elif what == "synth-probe":
        _rows(synth_probe, rest or ["944"], "seed")
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
    elif what == "hostile-table":
        print(json.dumps(hostile_table(Path(rest[0])), indent=1))
    elif what == "diag":
        _rows(diag, rest or list(DIAG43), "case")
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
