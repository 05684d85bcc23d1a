"""Session 45's QA pass (docs/qa/session45.md): held-out inputs for session 45's work, run
through main, actual against expected. Heavy files go to `/work/main/.cache/qa-s45/`
(gitignored); nothing here is imported by the app or the tests. Sessions 13-44's machinery
(scripts/qa_session44.py and through it qa_session10/12..43.py, qa_common.py, the corpus
generator tests/corpus) is reused by import. Every generator is deterministic (fixed seeds,
fixed encoder settings, one thread).

This pass plays (1) **a new synthetic game, `synth_vane`** (a RADAR SWEEP rotating over
CONCENTRIC RINGS that zoom in, then out; presses answered 1-2 frames late by a bar that grows,
a tile whose luma flips and a NEEDLE that ROTATES; three honest colour changes over a still of
shapes no pass had: a VIGNETTE pulse (position-dependent), a GAMMA curve dip (one non-linear
curve), a one-way DUSK ramp to half brightness that stays), the truth by construction, with
tamperings placed where and as long as no pass put them (a freeze under an S-CURVE contrast
ramp, under a VIGNETTE closing in, under a BRIGHTNESS RAMP, a plain freeze; cuts of 2 s and
7 s, inserts of 1.5 s and 6 s), at two recorders no pass used (VC-2 / Dirac wavelets in
Matroska at 34 fps with WavPack audio; Cirrus Logic AccuPak (CLJR, 4:1:1) in AVI at 21 fps
with GSM 6.10 audio), and (2) two ALE mode / difficulty variants of untuned wide games no pass
played in that variant (video_pinball mode 2 difficulty 1, with a 3-s cut and a 5-s insert;
private_eye mode 2 difficulty 1), reported apart.

Run the product of another worktree with PYTHONPATH=/that/worktree (the CLI subprocesses
inherit it; the CLI is started with `python -P`).

    .venv/bin/python scripts/qa_session45.py sync-build|sync-truth|sync|scan [RUN...]
    .venv/bin/python scripts/qa_session45.py table SYNC.jsonl [SCAN.jsonl]
    .venv/bin/python scripts/qa_session45.py synth-probe [SEED]
    .venv/bin/python scripts/qa_session45.py hostile [ID...]      # issue 15: held-out spellings
    .venv/bin/python scripts/qa_session45.py hostile-table LOG    # one row an input
    .venv/bin/python scripts/qa_session45.py s44 sync|hostile ...  # QA s44's T1-T9 again
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
import qa_session44 as s44  # noqa: E402

s43, s42, s41, s40, s39, s38, s37 = s44.s43, s44.s42, s44.s41, s44.s40, s44.s39, s44.s38, \
    s44.s37
s36, s34, s28, s29, s30, s25 = s44.s36, s44.s34, s44.s28, s44.s29, s44.s30, s44.s25
s22, s23 = s44.s22, s44.s23
CACHE44 = s44.CACHE
CACHE = CACHE44.parent / "qa-s45"
_MODS = (s44, s43, s42, s41, s40, s39, s38, s37, s36, s43.s35, s34, s43.s33, s43.s32, s43.s31,
         s30, s29, s28, s43.s27, s43.s26, s25, s43.s24, s23, s22, s23.s10, s23.s13, s43.s14,
         s23.s15, s22.s12, s22.s16, s22.s17, s22.s18, s43.s19, s23.s20, s43.s21)


def _use_cache(cache: Path) -> None:
    for m in _MODS:
        m.CACHE = cache


_use_cache(CACHE)
_rows = s22._rows
MAX_HOLD = s43.MAX_HOLD   # every press or wait <= 84 frames: no event after run_end (s36 T7)
_rot_hue = s42._rot_hue


# -- 1. a synthetic game written for this pass --------------------------------------------------
class SynthVane(s43.SynthLoom):
    """**synth_vane**, a 160x210 game with the emulator's interface (the loom's plumbing), so
    the corpus generator plays it and finds each press' first visible frame by its own NOOP
    counterfactual (the truth by construction). Screen behaviour no earlier pass had (s38
    lantern ... s44 tide: a pan, a beat, a palette cycle, luma beacons, rain, hue turns and
    swings, dips to white / red / green, a desaturation V, sprite multiplexing, a vertical
    scroll). Phases in emulator frames from reset, the lead-in included (video s = frame / 60):
    - **a radar sweep over zooming rings** (video 0-11 s): concentric rings (7 px, 4 shades,
      two tinted) around (80, 100) moving OUTWARD 1 px every 4 frames (a zoom, not a pan),
      and a 14-degree wedge, 60 levels brighter, ROTATING 3 degrees a frame (a turn every 2 s);
    - **answers 1-2 frames late** (a hash of the step, changing every 60 frames);
    - **answers of three shapes, all in gray**: UP / DOWN grow / shrink a bar (1 px a frame
      held, 8-70 px); FIRE flips a 10x10 tile's luma (40 <-> 210); LEFT / RIGHT ROTATE a
      22-px needle about its pivot (6 degrees a frame held);
    - **an honest VIGNETTE pulse over the still** (video 11-16.5 s): the sweep and the zoom
      stop; every pixel darkened by w (d / d_max)^2 (d its distance from the centre): w 0 ->
      0.75 in 1.5 s, held 1.5 s, back in 2.5 s (a spotlight: the change depends on where the
      pixel is, not only on its colour);
    - **an honest GAMMA dip over the still** (video 16.5-22 s): every channel v -> 255 (v /
      255)^g, g 1 -> 2.2 in 2 s, held 1 s, back in 2.5 s (one non-linear curve);
    - **an honest one-way DUSK** (video 22-26 s): every pixel scaled 1 -> 0.5 over 4 s, and it
      STAYS at 0.5 (not a dip: it does not come back);
    - **the sweep back, counter-rotating, over rings zooming in** (video 26 s to the end), at
      the dusk's half brightness;
    - rows 0-11 a dark band, rows 192-209 pure black ground."""

    VIGN_A = 11 * 60
    GAMMA_A = 990
    DUSK_A = 22 * 60
    SWEEP2_A = 26 * 60
    CX, CY = 80.0, 100.0
    _YY, _XX = np.mgrid[0:192, 0:160].astype(np.float32)
    _D = np.hypot(_XX - CX, _YY - CY)
    _ANG = np.degrees(np.arctan2(_YY - CY, _XX - CX)) % 360.0
    _V = (_D / _D.max()) ** 2

    def __init__(self, seed: int) -> None:
        self.seed = seed
        rng = np.random.default_rng(seed)
        pal = np.array([(55, 55, 55), (0, 0, 0), (0, 0, 0), (135, 135, 135)], np.float32)
        pal[1] = s44._ycc(90, 38, 130)
        pal[2] = s44._ycc(115, 30, 300)
        self.pal = pal
        self.rings = rng.integers(0, 4, 64)
        self.reset_game()

    def reset_game(self) -> None:
        self.s = {"f": 0, "bar": 30, "tile": 0, "needle": 0, "held": 0, "queue": (0,) * 6}

    def _lag(self, f: int) -> int:
        return 1 + ((f // 60) * 7919 + self.seed * 11) % 2

    def act(self, a: int) -> int:
        s = self.s
        f = s["f"] + 1
        q = (*s["queue"][1:], int(a))
        s["queue"], s["f"] = q, f
        lag = self._lag(f)
        name, prev = self.ACTIONS[q[-1 - lag]], self.ACTIONS[q[-2 - lag]]
        s["held"] = s["held"] + 1 if name == prev else 0
        if name == "UP":
            s["bar"] = min(70, s["bar"] + 1)
        elif name == "DOWN":
            s["bar"] = max(8, s["bar"] - 1)
        elif name == "LEFT":
            s["needle"] = (s["needle"] - 6) % 360
        elif name == "RIGHT":
            s["needle"] = (s["needle"] + 6) % 360
        elif name == "FIRE" and prev != "FIRE":
            s["tile"] = 1 - s["tile"]
        return 0

    def _phase_motion(self, f: int) -> tuple[float, float | None]:
        """(ring shift in px, the wedge's angle or None) at frame f."""
        if f < self.VIGN_A:
            return f / 4.0, (3.0 * f) % 360
        if f < self.SWEEP2_A:
            return self.VIGN_A / 4.0, None
        t = f - self.SWEEP2_A
        return self.VIGN_A / 4.0 - t / 4.0, (3.0 * self.VIGN_A - 3.0 * t) % 360

    def _vign(self, f: int) -> float:
        t = f - self.VIGN_A
        if not 0 <= t < self.GAMMA_A - self.VIGN_A:
            return 0.0
        return 0.75 * min(1.0, t / 90, (330 - t) / 150)

    def _gamma(self, f: int) -> float:
        t = f - self.GAMMA_A
        if not 0 <= t < self.DUSK_A - self.GAMMA_A:
            return 1.0
        return 1.0 + 1.2 * min(1.0, t / 120, (330 - t) / 150)

    def _dusk(self, f: int) -> float:
        if f < self.DUSK_A:
            return 1.0
        return 1.0 - 0.5 * min(1.0, (f - self.DUSK_A) / 240)

    def getScreenRGB(self):  # noqa: N802
        s, f = self.s, self.s["f"]
        img = np.zeros((self.H, self.W, 3), np.float32)
        shift, wedge = self._phase_motion(f)
        ring = ((self._D - shift) // 7).astype(np.int64) % 64
        img[:192] = self.pal[self.rings[ring]]
        if wedge is not None:                                               # the radar sweep
            da = (self._ANG - wedge + 180.0) % 360.0 - 180.0
            img[:192][(np.abs(da) < 7.0) & (self._D < 75)] += 60.0
        img[:12] = (28, 28, 28)
        img[120:190, 8:16] = (20, 20, 20)                                   # the bar's slot
        img[190 - s["bar"]:190, 9:15] = (215, 215, 215)                     # the bar (gray)
        img[30:40, 30:40] = 210 if s["tile"] else 40                        # the tile (luma)
        a = np.radians(s["needle"])                                         # the needle
        for r in np.arange(0, 22, 0.5):
            x, y = int(round(135 + r * np.cos(a))), int(round(60 + r * np.sin(a)))
            img[y - 1:y + 1, x - 1:x + 1] = (235, 235, 235)
        img[58:62, 133:137] = (90, 90, 90)                                  # its pivot
        v = self._vign(f)
        if v:
            img[:192] *= (1.0 - v * self._V)[..., None]
        g = self._gamma(f)
        if g != 1.0:
            img[:192] = 255.0 * (np.clip(img[:192], 0, 255) / 255.0) ** g
        img[:192] *= self._dusk(f)
        img[192:] = 0
        return np.clip(np.rint(img), 0, 255).astype(np.uint8)


SYNTH = "synth_vane"


def synth_vane(ram, rng: random.Random) -> list[tuple[str, int]]:
    """The vane's agent: UP / DOWN 4-12 (the bar), FIRE 3-6 (the tile), LEFT / RIGHT 3-10
    (the needle), a wait of 0.6-1.3 s a fifth of the time."""
    r = rng.random()
    if r < 0.3:
        return [(rng.choice(("UP", "DOWN")), rng.randint(4, 12))]
    if r < 0.55:
        return [("FIRE", rng.randint(3, 6))]
    if r < 0.8:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(3, 10))]
    return [("NOOP", rng.randint(36, 78))]


# -- 1b. ALE mode / difficulty variants of untuned wide games no pass played ---------------------
#: probed with s37's probe (seed 37) at 18:16 UTC: video_pinball m2d1 13 of 20 presses shown
#: (lags 0-4, the ball moves on its own: 50 % of NOOP steps still), private_eye m2d1 12 of 20
#: (lags 0-5, 87 % still: it moves mostly on input); qbert d1 1 of 20 (not taken)
VARIANTS: dict[str, tuple[str, int, int]] = {"video_pinball_m2d1": ("video_pinball", 2, 1),
                                             "private_eye_m2d1": ("private_eye", 2, 1)}
VP, PE = "video_pinball_m2d1", "private_eye_m2d1"


def video_pinball_m2d1(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Video Pinball game 3 (mode 2), difficulty 1: flippers (LEFT / RIGHT 3-8 frames),
    the plunger / nudge (FIRE, UP, DOWN 4-12), a wait of 0.6-1.3 s a fifth of the time."""
    r = rng.random()
    if r < 0.4:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(3, 8))]
    if r < 0.8:
        return [(rng.choice(("FIRE", "UP", "DOWN")), rng.randint(4, 12))]
    return [("NOOP", rng.randint(36, 78))]


def private_eye_m2d1(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Private Eye case 3 (mode 2), difficulty 1: the car drives LEFT / RIGHT 6-16 frames,
    jumps (UP / FIRE 3-6), a wait of 0.6-1.3 s a fifth of the time."""
    r = rng.random()
    if r < 0.5:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(6, 16))]
    if r < 0.8:
        return [(rng.choice(("UP", "FIRE")), rng.randint(3, 6))]
    return [("NOOP", rng.randint(36, 78))]


GAMES45 = {SYNTH: (synth_vane, 945), VP: (video_pinball_m2d1, 955),
           PE: (private_eye_m2d1, 965)}

#: two recorders no sync run of the corpus, the wide set or a QA pass used (grep of scripts/,
#: tests/, bench/ at 18:17 UTC for vc2, dirac, cljr, wavpack, gsm, "fps": 34, "fps": 21: none):
#: - r34vc2mkv: **VC-2** (SMPTE's Dirac-subset wavelet codec, intra-only, 4:2:0, 2 Mb/s) +
#:   **WavPack** 32 kHz in **Matroska**, **34 fps** (every 1.76th emulator frame), x2 nearest,
#:   **0.85 s** lead-in;
#: - r21cljravi: **Cirrus Logic AccuPak** (CLJR: 4:1:1, 5 bits of luma, a fixed 12 bits a
#:   pixel) + **GSM 6.10** (Microsoft's framing) 8 kHz mono in an **AVI**, **21 fps** (every
#:   2.86th emulator frame), x1, **1.40 s** lead-in.
RECORDERS45 = {"r34vc2mkv": {"fps": 34, "scale": 2, "lead_s": 0.85, "container": "mkv",
                             "codec": "vc2mkv34"},
               "r21cljravi": {"fps": 21, "scale": 1, "lead_s": 1.40, "container": "avi",
                              "codec": "cljravi21"}}
RA, RB = "r34vc2mkv", "r21cljravi"
_CODECS = ("vc2mkv34", "cljravi21")

#: placed tamperings: label -> (the corpus' kind, the VIDEO second it starts at (run s = that
#: minus the lead-in), the footage's length in s: cut / insert lengths no pass used (the
#: corpus' and every pass' were 4 s; cutlong 14 s)). The edited freezes' edits (`_edit`) are
#: over the held frames as recorded: curvefreeze an S-curve contrast ramp (v -> v + u (S(v) -
#: v), S a smoothstep curve, u 0 -> 1 across the hold); vignettefreeze a vignette closing in
#: (each pixel darkened by 0.8 u (d / d_max)^2); rampfreeze a brightness ramp (+55 u levels,
#: clipped); plainfreeze no edit (the control).
PLACED = {"curvefreeze": ("freeze", 6.0, 4.0), "vignettefreeze": ("freeze", 31.0, 4.0),
          "rampfreeze": ("freeze", 3.5, 4.0), "plainfreeze": ("freeze", 29.0, 4.0),
          "cut2": ("cut", 8.0, 2.0), "cut7": ("cut", 27.0, 7.0),
          "insert15": ("insert", 9.0, 1.5), "insert6": ("insert", 29.5, 6.0),
          "cut3": ("cut", 15.0, 3.0), "insert5": ("insert", 21.0, 5.0)}
EDITS = ("curvefreeze", "vignettefreeze", "rampfreeze")
VIGN_EDIT, RAMP_EDIT = 0.8, 55.0
SYNTH_RUNS = [f"{SYNTH}-genuine@{RA}", f"{SYNTH}-genuine@{RB}", f"{SYNTH}-genuine2@{RA}",
              f"{SYNTH}-genuine2@{RB}", f"{SYNTH}-curvefreeze@{RA}",
              f"{SYNTH}-vignettefreeze@{RA}", f"{SYNTH}-rampfreeze@{RB}",
              f"{SYNTH}-plainfreeze@{RB}", f"{SYNTH}-cut2@{RA}", f"{SYNTH}-cut7@{RB}",
              f"{SYNTH}-insert15@{RB}", f"{SYNTH}-insert6@{RA}"]
VARIANT_RUNS = [f"{VP}-genuine@{RA}", f"{VP}-genuine2@{RB}", f"{VP}-cut3@{RB}",
                f"{VP}-insert5@{RA}", f"{PE}-genuine@{RB}"]
ALL_RUNS = SYNTH_RUNS + VARIANT_RUNS
HIDDEN = (VP, PE, SYNTH)
HOLDS = (SYNTH, VP, PE)
LAG = ()
_ENCODE44 = s44._encode
_EDIT: dict = {}


def _ffmpeg_tail(codec: str, w: int, h: int, path: Path) -> list[str]:
    if codec == "vc2mkv34":
        return ["sine=frequency=470:sample_rate=32000", "-map", "0:v", "-map", "1:a",
                "-shortest", "-vf", f"scale={w * 2}:{h * 2}:flags=neighbor", "-c:v", "vc2",
                "-b:v", "20M", "-pix_fmt", "yuv420p", "-threads", "1", "-c:a", "wavpack",
                "-f", "matroska", str(path)]
    return ["sine=frequency=330:sample_rate=8000", "-map", "0:v", "-map", "1:a", "-shortest",
            "-c:v", "cljr", "-pix_fmt", "yuv411p", "-threads", "1", "-c:a", "libgsm_ms",
            "-ac", "1", "-f", "avi", str(path)]


def _smooth(x: np.ndarray) -> np.ndarray:
    u = x / 255.0
    return 255.0 * u * u * (3.0 - 2.0 * u)


def _edit(frames: np.ndarray, kind: str) -> np.ndarray:
    """The forger's edit over the held frames (s42's _longest_hold finds them)."""
    start, n = s42._longest_hold(frames)
    out = frames.astype(np.float32)
    h, w = out.shape[1:3]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    d = np.hypot(xx - w / 2, yy - h / 2)
    vig = (d / d.max()) ** 2
    for i in range(n):
        x, u = out[start + i], i / (n - 1)
        if kind == "curvefreeze":
            out[start + i] = x + (_smooth(x) - x) * u
        elif kind == "vignettefreeze":
            out[start + i] = x * (1.0 - VIGN_EDIT * u * vig)[..., None]
        else:
            out[start + i] = x + RAMP_EDIT * u
    _EDIT.update(frames=n, first=start)
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def _encode(frames: np.ndarray, folder: Path, rec) -> Path:
    codec = getattr(rec, "codec", "")
    if _EDIT.get("on"):
        frames = _edit(frames, _EDIT["on"])
    if codec not in _CODECS:
        return _ENCODE44(frames, folder, rec)
    h, w = frames.shape[1:3]
    path = folder / rec.video_name
    cmd = ["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
           "rgb24", "-s", f"{w}x{h}", "-r", str(rec.fps), "-i", "-", "-f", "lavfi", "-i",
           *_ffmpeg_tail(codec, w, h, path)]
    subprocess.run(cmd, input=np.ascontiguousarray(frames).tobytes(), check=True,
                   stderr=subprocess.DEVNULL)
    return path


def _generate_placed() -> None:
    """This pass' placed kinds over s44's hook (corpus.build's tamper_for at a chosen time,
    its SPAN_S at the chosen length)."""
    build = sys.modules["corpus.build"]
    if getattr(build, "_qa45", False):
        return
    orig_generate, orig_tamper = build.generate, build.tamper_for

    def generate(game: str, kind: str, out: Path, **kw) -> dict:
        if kind not in PLACED:
            return orig_generate(game, kind, out, **kw)
        base, video_s, size_s = PLACED[kind]
        lead = kw["rec"].lead_s or 0.0
        at = round(video_s - lead, 3)
        span = build.SPAN_S
        build.tamper_for = lambda g, k: build.Tamper(k, at)
        build.SPAN_S = size_s
        _EDIT["on"] = kind if kind in EDITS else None
        try:
            truth = orig_generate(game, base, out, **kw)
        finally:
            build.tamper_for, build.SPAN_S = orig_tamper, span
            _EDIT["on"] = None
        t = json.loads((out / "truth.json").read_text())
        t["tamper"]["label"] = kind
        if kind in EDITS:
            t["tamper"]["edit"] = {"kind": kind, "recorded_frames": _EDIT["frames"],
                                   "first_frame": _EDIT["first"]}
        (out / "truth.json").write_text(json.dumps(t, indent=1) + "\n")
        return truth

    build.generate, build._qa45 = generate, True


def _emulator_variants() -> None:
    import corpus.play as play

    s44._emulator_variants()
    if getattr(play, "_qa45", False):
        return
    orig = play._emulator

    def emulator(game: str, seed: int):
        if game == SYNTH:
            return SynthVane(seed), {n: i for i, n in enumerate(SynthVane.ACTIONS)}
        if game not in VARIANTS:
            return orig(game, seed)
        rom, mode, diff = VARIANTS[game]
        ale, acts = orig(rom, seed)
        ale.setMode(mode)
        ale.setDifficulty(diff)
        ale.reset_game()
        return ale, acts

    play._emulator, play._qa45 = emulator, True


def _install() -> None:
    s44._install()
    s25._encode = _encode
    s25.GAMES25.update(GAMES45)
    s25.RECORDERS25.update(RECORDERS45)
    s34.HIDDEN, s34.HOLDS, s34.LAG = HIDDEN, HOLDS, LAG
    s28.HIDDEN, s28.HOLDS = HIDDEN, HOLDS
    s28.build_sync_run = s29.build_sync_run = s30.build_sync_run = build_sync_run
    s36.build_sync_run = s37.build_sync_run = s43.build_sync_run = build_sync_run
    s44.build_sync_run = build_sync_run
    s23._FMT.setdefault(".mkv", "matroska")
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


def scan_row(name: str) -> dict:
    """Issue 12's view at the truth's offset: every `video.*` and `sync.*` finding of `verify
    --json --scan --sync` with its severity and span (the sync rows keep warnings only), and
    the tampering's video start, so a freeze's or a cut's scan finding within 0.5 s (issue
    12) and any finding within 1 s can be read."""
    _install()
    d = CACHE / "sync" / name
    t = json.loads((d / "truth.json").read_text())
    code, rep, err = s22._verify(d, "--scan", "--sync", "--offset", f"{t['offset_s']:.3f}")
    spans = [(f["rule"], f["severity"], f["a"], f["b"]) for f in s23.s13._spans(rep)]
    tam = t["tamper"]
    start = tam.get("video_start_s", tam.get("video_s"))
    return {"run": name, "exit": code, "verdict": rep.get("verdict"), "tamper": tam,
            "tamper_video_s": start, "findings": spans, "stderr": err[-200:],
            "frames_reported": (rep.get("video") or {}).get("frames"),
            "duration_reported": (rep.get("video") or {}).get("duration_s")}


#: the vane's stretches in video seconds (emulator frames from reset / 60)
VIGN_S = (SynthVane.VIGN_A / 60, SynthVane.GAMMA_A / 60)
GAMMA_S = (SynthVane.GAMMA_A / 60, SynthVane.DUSK_A / 60)
DUSK_S = (SynthVane.DUSK_A / 60, SynthVane.SWEEP2_A / 60)
STILL_S = (SynthVane.VIGN_A / 60, SynthVane.SWEEP2_A / 60)


def stretch_bar(sync_log: Path, span: tuple[float, float]) -> dict:
    s40.SYNTH = SYNTH
    return s40.stretch_bar(sync_log, span)


def table(sync_log: Path, scan_log: Path | None = None) -> dict:
    """s37.table's counts plus this pass' bars: S-vg, S-gm, S-dk, S-st (the honest stretches),
    S-cv, S-vf, S-rp, S-pf (the four placed freezes), S-p45 (the six placed cuts / inserts by
    their own truth) and, from the scan log, V-f (a `video.frozen` of any severity starting
    within 0.5 s of a freeze, issue 12's bar)."""
    s37.SYNTH, s37.HIDDEN, s37.HOLDS, s37.LAG = SYNTH, HIDDEN, HOLDS, LAG
    out = s37.table(sync_log, None)
    out["S-vg"] = stretch_bar(sync_log, VIGN_S)
    out["S-gm"] = stretch_bar(sync_log, GAMMA_S)
    out["S-dk"] = stretch_bar(sync_log, DUSK_S)
    out["S-st"] = stretch_bar(sync_log, STILL_S)
    for bar, label in (("S-cv", "curvefreeze"), ("S-vf", "vignettefreeze"),
                       ("S-rp", "rampfreeze"), ("S-pf", "plainfreeze")):
        out[bar] = s41.freeze_bar(sync_log, label)
    out["S-p45"] = placed_bar(sync_log)
    if scan_log is not None:
        out["V-f"] = scan_bar(scan_log)
    return out


def placed_bar(sync_log: Path) -> dict:
    """S-p45: for each placed cut / insert, a `sync.*` WARNING whose start lies within 1 s of
    the tampering's start (video s, the file's time) at each of the 4 offsets."""
    rows = [json.loads(x) for x in sync_log.read_text().splitlines() if x.startswith("{")]
    out = {}
    for r in rows:
        kind = r["tamper"].get("kind")
        if kind not in ("cut", "insert"):
            continue
        t = json.loads((CACHE / "sync" / r["run"] / "truth.json").read_text())
        a = t["tamper"]["video_s"] + t.get("file_shift_s", 0.0)
        per = {}
        for k in ("auto", "truth", "+2f", "-4f"):
            ws = [w for w in r.get(k, {}).get("warnings", [])
                  if w[1] is not None and w[0].startswith("sync.")]
            per[k] = [(w[0], round(w[1] - a, 2)) for w in ws]
        out[r["run"]] = {"video_s": round(a, 2), **per,
                         "met_truth": any(abs(e) <= 1.0 for _r, e in per["truth"]),
                         "met_any": any(abs(e) <= 1.0 for v in per.values() for _r, e in v)}
    return out


def scan_bar(scan_log: Path) -> dict:
    """V-f / V-c: on each freeze, a `video.frozen` (any severity) starting within 0.5 s of it;
    on each cut / insert, a `video.cut` (any severity) within 0.5 s of its start (issue 12);
    and every `video.*` warning on a genuine run (issue 12: none)."""
    rows = [json.loads(x) for x in scan_log.read_text().splitlines() if x.startswith("{")]
    out = {}
    for r in rows:
        kind, a = r["tamper"].get("kind"), r.get("tamper_video_s")
        fs = r.get("findings", [])
        if kind in ("genuine", "genuine2"):
            out[r["run"]] = {"video_warnings": [f for f in fs if f[0].startswith("video.")
                                                and f[1] in ("warning", "error")]}
            continue
        want = "video.frozen" if kind == "freeze" else "video.cut"
        near = [(f[0], f[1], round(f[2] - a, 2)) for f in fs
                if f[0] == want and f[2] is not None and abs(f[2] - a) <= 1.0]
        out[r["run"]] = {"near": near, "met05": any(abs(e) <= 0.5 for *_x, e in near),
                         "warned05": any(abs(e) <= 0.5 and s == "warning"
                                         for _f, s, e in near)}
    return out


def synth_probe(seed: str) -> dict:
    """s42's probe, per phase of this pass' game (NOOP steps' changed pixels in colour and in
    BT.601 gray; 20 probe presses against their NOOP counterfactual)."""
    s42.SynthEmber, saved = SynthVane, s42.SynthEmber
    SynthVane.STILL_A, SynthVane.HUE_A = SynthVane.VIGN_A, SynthVane.GAMMA_A
    SynthVane.WHITE_A, SynthVane.WHITE_C = SynthVane.DUSK_A, SynthVane.SWEEP2_A
    try:
        return s42.synth_probe(seed)
    finally:
        s42.SynthEmber = saved


def hostile_module():
    import qa_hostile_s45
    return qa_hostile_s45


def s44_again(what: str, rest: list[str]) -> None:
    """QA s44's misses T1-T9 on their (training) inputs, read from s44's cache: `sync` (the
    T1-T4 rows at the 4 offsets), `hostile` (T5-T8's inputs). Each version's scans in the
    cache named by MODERATOR_APP_CACHE."""
    _use_cache(CACHE44)
    s44._install()
    if what == "sync":
        _rows(s44.check_sync, rest or s44.ALL_RUNS, "run")
    elif what == "hostile":
        out = CACHE / "s44hostile"      # s44's generator writes its (identical) inputs here
        out.mkdir(parents=True, exist_ok=True)
        s44.hostile_module().run(out, rest)


def main(argv: list[str]) -> int:  # noqa: C901, PLR0912 - one dispatch table
    what, rest = (argv[0] if argv else ""), argv[1:]
    if what == "sync-build":
        _rows(lambda r: {"run": r, "folder": str(build_sync_run(r))}, rest or ALL_RUNS, "run")
    elif what == "synth-probe":
        _rows(synth_probe, rest or ["945"], "seed")
    elif what == "probe":
        print(json.dumps(s37.ale_probe(*rest[:3])))
    elif what == "sync-truth":
        _rows(sync_truth, rest or ALL_RUNS, "run")
    elif what == "sync":
        _rows(check_sync, rest or ALL_RUNS, "run")
    elif what == "scan":
        _rows(scan_row, rest or ALL_RUNS, "run")
    elif what == "table":
        print(json.dumps(table(Path(rest[0]), Path(rest[1]) if rest[1:] else None), indent=1))
    elif what == "hostile":
        hostile_module().run(CACHE, rest)
    elif what == "hostile-table":
        print(json.dumps(s44.hostile_table(Path(rest[0])), indent=1))
    elif what == "s44":
        s44_again(rest[0], rest[1:])
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
