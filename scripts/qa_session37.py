"""Session 37's QA pass (docs/qa/session37.md): held-out inputs for session 37's work, run
through main, actual against expected. Heavy files go to `/work/main/.cache/qa-s37/`
(gitignored); nothing here is imported by the app or the tests. Sessions 13-36's machinery
(scripts/qa_session36.py and through it qa_session10/12..35.py, qa_common.py) is reused by
import. Every generator is deterministic (fixed seeds, fixed encoder settings, one thread).

The reserved pool of games is empty: this pass plays (1) **a new synthetic game,
`synth_glider`** (a sprite in steady motion whose course a press changes, a scrolling field,
flicker, a ticking HUD, a varying 2-6 frame reaction lag, and a docked phase where only a
small beacon ticks), the truth by construction, and (2) **ALE difficulty variants of two
untuned wide games** s36 did not use (time_pilot d2, amidar d3), reported apart.

QA s36's T7 (an observation after `run_end`) is fixed by construction here: every agent's
press or wait is <= 84 frames (1.4 s), so the corpus loop's last model call (begun before
run_ms - 3.5 s; latency <= 1.6 s, <= 0.4 s of gaps) ends >= 0.1 s before `run_end`;
`sync-build` asserts it on every log it writes.

Run the product of another worktree with PYTHONPATH=/that/worktree (the CLI subprocesses
inherit it; the CLI is started with `python -P`).

    .venv/bin/python scripts/qa_session37.py sync-build|sync-truth|holds-truth|waits-truth|sync [RUN...]
    .venv/bin/python scripts/qa_session37.py table SYNC.jsonl [MISMATCH.jsonl]
    .venv/bin/python scripts/qa_session37.py mismatch [CASE...]
    .venv/bin/python scripts/qa_session37.py probe GAME MODE DIFF | synth-probe [SEED]
    .venv/bin/python scripts/qa_session37.py build [chain|hostile|escape]
    .venv/bin/python scripts/qa_session37.py chain|jcs-check [SHAPE...]  # issue 15: a held-out shape
    .venv/bin/python scripts/qa_session37.py hostile [ID...]      # issue 15: new spellings
    .venv/bin/python scripts/qa_session37.py escape [CASE...]     # issue 15: escape-heavy CPU
    .venv/bin/python scripts/qa_session37.py s36 [T1..T3]         # QA s36's misses again
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "scripts"), str(REPO / "bench")]
import qa_session36 as s36  # noqa: E402

s35 = s36.s35
s34, s33, s32, s31, s30, s29, s28 = s35.s34, s35.s33, s35.s32, s35.s31, s35.s30, s35.s29, s35.s28
s27, s26, s25, s24, s23, s22 = s35.s27, s35.s26, s35.s25, s35.s24, s35.s23, s35.s22
s21, s19, s14 = s35.s21, s35.s19, s35.s14
CACHE36 = s36.CACHE
CACHE = CACHE36.parent / "qa-s37"
s36.CACHE = s35.CACHE = s34.CACHE = s33.CACHE = s32.CACHE = s31.CACHE = s30.CACHE = CACHE
s29.CACHE = s28.CACHE = s27.CACHE = s26.CACHE = s25.CACHE = s24.CACHE = s23.CACHE = CACHE
for _m in (s22, s23.s10, s23.s13, s14, s23.s15, s22.s12, s22.s16, s22.s17, s22.s18, s19,
           s23.s20, s21):
    _m.CACHE = CACHE
_rows = s22._rows
#: Judge note 1 (13:23, after the expectations landed; no outcome seen but a timeout): s10's
#: harness bounds each CLI call at 60 s wall; at this machine's load (25-28 on 2 cores) the
#: first scan of a 43 s JPEG 2000 file took 88.7 s wall for 13.6 s CPU, so every r44 row timed
#: out (exit 124). The bound is raised to 600 s wall for this pass (memory bound kept); CPU is
#: what the escape / chain rows measure.
s22.s10.LIMIT[:] = ["prlimit", "--as=536870912", "timeout", "600"]


# -- 1b. ALE difficulty variants of two untuned wide games s36 did not play ---------------------
# Probe (`probe GAME MODE DIFF`, seed 37: 600 NOOP steps, then 900 NOOP steps for the pixels
# changed a step; then 20 presses of 8 frames after 20-60 random steps, each against its NOOP
# counterfactual, lag in steps; None = unshown). Probed and not taken: bank_heist m8 d2 (2 of
# 20 shown), alien m2 d1 (0), galaxian m5 d1 (0), zaxxon m16 d0 (8, 0-2 late), up_n_down d2 (3).
# - time_pilot difficulty 2: 41 % of NOOP steps unchanged, median 2 pixels, <= 6,617 (the sky
#   scrolls, clouds): **a plane always flying whose course a press turns**; 12 of 20 shown,
#   0-7 steps late (the reader's target: a press changing a motion already going).
# - amidar difficulty 3: 67 % unchanged, <= 256 pixels (the enemies walk the grid): 7 of 20
#   shown, 1-3 steps late (the later probe presses after a death).
VARIANTS = {"time_pilot_m0d2": ("time_pilot", 0, 2), "amidar_m0d3": ("amidar", 0, 3)}
TP, AM = VARIANTS
#: every press or wait <= 84 frames (QA s36's T7 fixed by construction; see the docstring)
MAX_HOLD = 84


def time_pilot_m0d2(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Time Pilot, difficulty 2: the plane turns toward the pressed direction (a course
    change of a motion already going), FIRE shoots; a sixth of the time a wait <= 1.4 s."""
    r = rng.random()
    if r < 0.6:
        return [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT")), rng.randint(6, 14))]
    if r < 0.84:
        return [(rng.choice(("FIRE", "UPFIRE", "LEFTFIRE")), rng.randint(3, 6))]
    return [("NOOP", rng.randint(30, MAX_HOLD))]


def amidar_m0d3(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Amidar, difficulty 3: the gorilla walks the grid (the four directions); FIRE (a jump)
    rarely; a fifth of the time a wait <= 1.4 s."""
    r = rng.random()
    if r < 0.72:
        return [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT")), rng.randint(6, 16))]
    if r < 0.8:
        return [("FIRE", rng.randint(3, 6))]
    return [("NOOP", rng.randint(40, MAX_HOLD))]


# -- 1. a synthetic game written for this pass --------------------------------------------------
class SynthGlider:
    """**synth_glider**, a 160x210 game with the emulator's interface (act, getScreenRGB,
    cloneState / restoreState, getRAM, game_over, reset_game), so the corpus generator plays
    it and finds each press' first visible frame by its own NOOP counterfactual (the truth by
    construction). Its screen, each piece a class the sync rules meet:
    - **a sprite in steady motion whose course a press changes** (flight phase, frames <
      DOCK): the glider moves 1 px a frame on both axes and bounces off its box; LEFT / RIGHT /
      UP / DOWN set the sign of one velocity component, so a press the same way as the course
      shows nothing and a press against it turns the glider (the answer is a change of
      direction, not a start of motion);
    - **reaction lag 2-6 frames** (changes every second: a hash of the second);
    - **a scrolling field**: stars scroll left 1 px every 2 frames in flight;
    - **flicker**: an exhaust 2x2 behind the glider on even frames only (30 Hz);
    - **a ticking HUD**: a mission clock (3 digits as bars) steps every 30 frames in flight;
    - **the game's black**: rows 150-209 are pure black (0, 0, 0) ground;
    - **a docked phase** (frames >= DOCK, run ~24 s to the end): the glider has landed, the
      field and the clock stop; a direction moves it 1 px every 4 frames, FIRE lights a 3x3
      lamp for 6 frames, and a 2x2 beacon blinks every 20 frames: a picture that ticks only a
      little (a still stretch at low resolution that runs to the end of the footage, where
      the agent's waits are honest ticking holds that presses end)."""

    W, H = 160, 210
    ACTIONS = ("NOOP", "FIRE", "UP", "RIGHT", "LEFT", "DOWN")
    DOCK = 26 * 60   # emulator frames from reset: run ~23.9 s at 2.15 s lead, 24.1 s at 1.9 s

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.reset_game()

    def reset_game(self) -> None:
        rng = np.random.default_rng(self.seed)
        self.stars = np.stack([rng.integers(30, 146, 48), rng.integers(0, self.W, 48)], 1)
        self.s = {"f": 0, "x": 70, "y": 80, "vx": 1, "vy": 1, "shot": -1, "sx": 0, "sy": 0,
                  "queue": (0,) * 8, "scroll": 0, "clock": 0, "lamp": 0}

    def cloneState(self):  # noqa: N802 - the emulator's name
        return dict(self.s)

    def restoreState(self, st) -> None:  # noqa: N802
        self.s = dict(st)

    def getRAM(self):  # noqa: N802
        return np.zeros(128, np.uint8)

    def game_over(self) -> bool:
        return False

    def _lag(self, f: int) -> int:
        return 2 + ((f // 60) * 7919 + self.seed * 31) % 5

    def act(self, a: int) -> int:
        s = self.s
        f = s["f"] + 1
        q = (*s["queue"][1:], int(a))
        s["queue"], s["f"] = q, f
        name = self.ACTIONS[q[-1 - self._lag(f)]]
        if f < self.DOCK:
            if name == "LEFT":
                s["vx"] = -1
            elif name == "RIGHT":
                s["vx"] = 1
            elif name == "UP":
                s["vy"] = -1
            elif name == "DOWN":
                s["vy"] = 1
            elif name == "FIRE" and s["shot"] < 0:
                s["shot"], s["sx"], s["sy"] = 1, s["x"] + 3, s["y"] + 2
            s["x"] += s["vx"]
            s["y"] += s["vy"]
            if not 8 <= s["x"] <= 144:
                s["vx"] = -s["vx"]
                s["x"] = min(144, max(8, s["x"]))
            if not 40 <= s["y"] <= 130:
                s["vy"] = -s["vy"]
                s["y"] = min(130, max(40, s["y"]))
            if s["shot"] > 0:
                s["sx"] += 4 * (1 if s["vx"] > 0 else -1)
                if not 0 <= s["sx"] < self.W - 2:
                    s["shot"] = -1
            s["scroll"] = (s["scroll"] + (f % 2 == 0)) % self.W
            s["clock"] = f // 30
        else:
            if f % 4 == 0:
                dx = {"LEFT": -1, "RIGHT": 1}.get(name, 0)
                dy = {"UP": -1, "DOWN": 1}.get(name, 0)
                s["x"] = min(144, max(8, s["x"] + dx))
                s["y"] = min(130, max(40, s["y"] + dy))
            if name == "FIRE":
                s["lamp"] = 6
            elif s["lamp"] > 0:
                s["lamp"] -= 1
            s["shot"] = -1
        return 0

    def getScreenRGB(self):  # noqa: N802
        s, f = self.s, self.s["f"]
        img = np.zeros((self.H, self.W, 3), np.uint8)
        img[30:146] = (12, 16, 52)
        xs = (self.stars[:, 1] - s["scroll"]) % self.W
        img[self.stars[:, 0], xs] = (190, 190, 205)
        img[146:150] = (70, 60, 40)          # the horizon; rows 150-209 stay black
        x, y = s["x"], s["y"]
        img[y:y + 6, x:x + 8] = (90, 230, 130)
        img[y + 2:y + 4, x + 8 if s["vx"] > 0 else x - 2:(x + 8 if s["vx"] > 0 else x - 2) + 2] = (
            250, 250, 250)                    # the nose, on the course's side
        if f < self.DOCK:
            if f % 2 == 0:                    # 30 Hz exhaust behind the glider
                ex = x - 3 if s["vx"] > 0 else x + 9
                img[y + 2:y + 4, max(0, ex):max(0, ex) + 2] = (255, 140, 40)
            if s["shot"] > 0:
                img[s["sy"]:s["sy"] + 2, s["sx"]:s["sx"] + 3] = (250, 250, 90)
        else:
            if (f // 20) % 2 == 0:            # the beacon: 2x2 every 20 frames
                img[34:36, 150:152] = (255, 60, 60)
            if s["lamp"] > 0:
                img[36:39, 4:7] = (255, 255, 120)
        for i, d in enumerate(f"{s['clock'] % 1000:03d}"):
            x0 = 60 + 14 * i
            img[6:20, x0:x0 + 10] = (36, 36, 36)
            img[6 + 12 - int(d):18, x0 + 2:x0 + 8] = (240, 200, 60)
        return img


SYNTH = "synth_glider"


def synth_glider(ram, rng: random.Random) -> list[tuple[str, int]]:
    """The glider's agent: a direction 4-16 frames (half of them the course it already flies:
    shown as nothing), FIRE 3-6, a wait of 0.7-1.4 s a fifth of the time."""
    r = rng.random()
    if r < 0.58:
        return [(rng.choice(("LEFT", "RIGHT", "UP", "DOWN")), rng.randint(4, 16))]
    if r < 0.8:
        return [("FIRE", rng.randint(3, 6))]
    return [("NOOP", rng.randint(40, MAX_HOLD))]


GAMES37 = {SYNTH: (synth_glider, 677), TP: (time_pilot_m0d2, 683), AM: (amidar_m0d3, 691)}

#: two recorders no corpus set, wide set or QA pass used (grep of scripts/ tests/ bench/ for
#: jpeg2000, msvideo1, `"fps": 44`, `"fps": 38`: 0 hits):
#: - r44j2kmov: **JPEG 2000** (intra, wavelet; lossy at the encoder's default rate, yuv420p)
#:   + PCM s24le in **MOV** (`mjp2`), **44 fps** (every 1.36th emulator frame), x2 nearest,
#:   2.15 s lead-in (a broadcast / archive recorder);
#: - r38msvideo1avi: **Microsoft Video-1** (CRAM, rgb555, 4x4 blocks of 2 colours: lossy)
#:   + PCM u8 22.05 kHz in **AVI**, **38 fps** (every 1.58th emulator frame), x2 nearest,
#:   1.9 s lead-in (an old Windows capture tool).
RECORDERS37 = {"r44j2kmov": {"fps": 44, "scale": 2, "lead_s": 2.15, "container": "mov",
                             "codec": "j2kmov44"},
               "r38msvideo1avi": {"fps": 38, "scale": 2, "lead_s": 1.9, "container": "avi",
                                  "codec": "msvideo1avi38"}}
REC, REC2 = "r44j2kmov", "r38msvideo1avi"
SPEED37 = 0.014            # kind speed14: the video 1.4 % fast (s36 held out 1.7 %)
SLOW37 = 1 / 0.964 - 1     # kind slow36: the video at 96.4 % of the log's clock (-3.6 %)
#: kind freezeend: the corpus' freeze (4 s of one picture) at run 29.0 s, inside the docked
#: phase's still stretch that runs to the end of the footage; freezeenddraw: the same with a
#: faint line drawn over the game's black ground
FREEZE_END_AT_S = 29.0
SYNTH_RUNS = [f"{SYNTH}-genuine@{REC}", f"{SYNTH}-genuine@{REC2}", f"{SYNTH}-genuine2@{REC}",
              f"{SYNTH}-freezeend@{REC}", f"{SYNTH}-freezeenddraw@{REC}",
              f"{SYNTH}-cut@{REC2}", f"{SYNTH}-insert@{REC}", f"{SYNTH}-freeze@{REC2}",
              f"{SYNTH}-speed14@{REC}", f"{SYNTH}-slow36@{REC2}", f"{SYNTH}-deleted@{REC}",
              f"{SYNTH}-human@{REC2}"]
VARIANT_RUNS = [f"{TP}-genuine@{REC}", f"{TP}-genuine@{REC2}", f"{AM}-genuine@{REC}",
                f"{AM}-genuine@{REC2}", f"{TP}-cut@{REC}", f"{TP}-insert@{REC2}",
                f"{AM}-deleted@{REC2}", f"{AM}-human@{REC}"]
ALL_RUNS = SYNTH_RUNS + VARIANT_RUNS
GENUINE_RUNS = [r for r in ALL_RUNS if "-genuine" in r]
HIDDEN = (TP, AM, SYNTH)
HOLDS = (SYNTH, AM)
LAG = ()
_ENCODE36 = s36._encode


def _ffmpeg_tail(codec: str, w: int, h: int, path: Path) -> list[str]:
    if codec == "j2kmov44":
        return ["sine=frequency=470:sample_rate=48000", "-map", "0:v", "-map", "1:a",
                "-shortest", "-vf", f"scale={w * 2}:{h * 2}:flags=neighbor",
                "-c:v", "jpeg2000", "-pix_fmt", "yuv420p", "-threads", "1",
                "-c:a", "pcm_s24le", "-f", "mov", str(path)]
    return ["sine=frequency=390:sample_rate=22050", "-map", "0:v", "-map", "1:a",
            "-shortest", "-vf", f"scale={w * 2}:{h * 2}:flags=neighbor,format=rgb555le",
            "-c:v", "msvideo1", "-threads", "1", "-c:a", "pcm_u8", "-f", "avi", str(path)]


def _encode(frames: np.ndarray, folder: Path, rec) -> Path:
    codec = getattr(rec, "codec", "")
    if codec not in ("j2kmov44", "msvideo1avi38"):
        return _ENCODE36(frames, folder, rec)
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
    and its synthetic game, over s36's hook."""
    import corpus.play as play

    if getattr(play, "_qa37", False):
        return
    orig = play._emulator

    def emulator(game: str, seed: int):
        if game == SYNTH:
            return SynthGlider(seed), {n: i for i, n in enumerate(SynthGlider.ACTIONS)}
        if game not in VARIANTS:
            return orig(game, seed)
        rom, mode, diff = VARIANTS[game]
        ale, acts = orig(rom, seed)
        ale.setMode(mode)
        ale.setDifficulty(diff)
        ale.reset_game()
        return ale, acts

    play._emulator, play._qa37 = emulator, True


def _generate_freezeend() -> None:
    """Kind `freezeend`: the corpus' own freeze, placed at FREEZE_END_AT_S (corpus.build's
    tamper_for draws 12-22 s); the truth keeps kind `freeze` and adds `at: end`."""
    build = sys.modules["corpus.build"]
    if getattr(build, "_qa37", False):
        return
    orig_generate, orig_tamper = build.generate, build.tamper_for

    def generate(game: str, kind: str, out: Path, **kw) -> dict:
        if kind != "freezeend":
            return orig_generate(game, kind, out, **kw)
        build.tamper_for = lambda g, k: build.Tamper(k, FREEZE_END_AT_S)
        try:
            truth = orig_generate(game, "freeze", out, **kw)
        finally:
            build.tamper_for = orig_tamper
        t = json.loads((out / "truth.json").read_text())
        t["tamper"]["at"] = "end"
        (out / "truth.json").write_text(json.dumps(t, indent=1) + "\n")
        return truth

    build.generate, build._qa37 = generate, True


def _install() -> None:
    s36._install()
    s25._encode = _encode
    s25.GAMES25.update(GAMES37)
    s25.RECORDERS25.update(RECORDERS37)
    build = sys.modules["corpus.build"]
    build.SPEEDUPS["speed14"] = SPEED37
    build.SLOWDOWNS["slow36"] = SLOW37
    s34.HIDDEN, s34.HOLDS, s34.LAG = HIDDEN, HOLDS, LAG
    s28.HIDDEN, s28.HOLDS = HIDDEN, HOLDS
    s28.build_sync_run = s29.build_sync_run = s30.build_sync_run = build_sync_run
    s36.build_sync_run = build_sync_run
    s23._FMT.setdefault(".mov", "mov")
    s23._FMT.setdefault(".avi", "avi")
    _emulator_variants()
    _generate_freezeend()


#: the faint overlay over the game's black (kind freezeenddraw): a 2-px line at the foot of
#: the black ground that grows 6 px every 0.5 s over the freeze, in 0x1C1C1C (28 of 255 on
#: each channel over 0: a line a forger would hope the still test reads as a live picture)
DRAW_EVERY_S = 0.5
DRAW_COLOUR = "0x1C1C1C"


def _freezeenddraw(name: str) -> Path:
    src = build_sync_run(name.replace("-freezeenddraw@", "-freezeend@"))
    out = CACHE / "sync" / name
    if (out / "truth.json").exists():
        return out
    out.mkdir(parents=True, exist_ok=True)
    t = json.loads((src / "truth.json").read_text())
    a, b = t["tamper"]["video_start_s"], t["tamper"]["video_end_s"]
    vid = next(p for p in src.iterdir() if p.name.startswith("video."))
    steps = int((b - a) / DRAW_EVERY_S)
    boxes = ",".join(
        f"drawbox=x=16:y=ih-12:w={6 * (k + 1)}:h=2:color={DRAW_COLOUR}:t=fill:"
        f"enable='between(t,{a + k * DRAW_EVERY_S:.4f},{b:.4f})'" for k in range(steps))
    cmd = ["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-threads", "1", "-i", str(vid),
           "-vf", boxes, "-map", "0:v", "-map", "0:a?", "-c:v", "jpeg2000", "-pix_fmt",
           "yuv420p", "-threads", "1", "-c:a", "copy", "-f", "mov", str(out / vid.name)]
    subprocess.run(cmd, check=True)
    shutil.copy(src / "agent-log.jsonl", out / "agent-log.jsonl")
    t["overlay"] = {"kind": "faint growing line over black", "colour": DRAW_COLOUR,
                    "every_s": DRAW_EVERY_S, "from_s": a, "to_s": b}
    (out / "truth.json").write_text(json.dumps(t, indent=1) + "\n")
    return out


def _t7_check(folder: Path) -> None:
    """QA s36's T7: no event of the log after `run_end` (elapsedMs and `at` both)."""
    evs = [json.loads(x) for x in (folder / "agent-log.jsonl").read_text().splitlines() if x]
    end = next(e for e in evs if e["type"] == "run_end")
    late = [e["seq"] for e in evs if e is not end and (
        e["elapsedMs"] >= end["elapsedMs"] or e["at"] >= end["at"])]
    assert not late, f"{folder.name}: events after run_end: {late}"


def build_sync_run(name: str) -> Path:
    _install()
    out = _freezeenddraw(name) if "-freezeenddraw@" in name else s25.build_sync_run(name)
    _t7_check(out)
    return out


def sync_truth(name: str) -> dict:
    _install()
    return s34.sync_truth(name)


def check_sync(name: str) -> dict:
    _install()
    return s34.check_sync(name)


def table(sync_log: Path, mismatch_log: Path | None = None) -> dict:
    """s35.table's counts, split: the synthetic game (section 1) apart from the variants
    (section 1b); plus S-fe (the edited freeze inside the still stretch to the end, with and
    without the faint line: a `video.frozen` WARNING starting within 1 s of the freeze at the
    truth's offset; info, a note or nothing fails it)."""
    rows_all = [x for x in sync_log.read_text().splitlines() if x.startswith("{")]
    out = {}
    for label, keep in (("synthetic", lambda r: r.startswith(SYNTH)),
                        ("variants", lambda r: not r.startswith(SYNTH))):
        sub = sync_log.with_suffix(f".{label}.tmp")
        sub.write_text("\n".join(x for x in rows_all if keep(json.loads(x)["run"])) + "\n")
        s35.HIDDEN, s35.HOLDS, s35.LAG = HIDDEN, HOLDS, LAG
        out[label] = s35.table(sub, mismatch_log if label == "variants" else None)
        sub.unlink()
    rows = [json.loads(x) for x in rows_all]
    fe, bad = [r for r in rows if "-freezeend" in r["run"]], []
    for r in fe:
        a = r["tamper"].get("video_start_s")
        hit = [w for w in r.get("truth", {}).get("warnings", [])
               if w[0] == "video.frozen" and len(w) > 1 and w[1] is not None
               and abs(w[1] - a) <= 1.0]
        if not hit:
            bad.append(r["run"])
    out["S-fe"] = {"met": len(fe) - len(bad), "of": len(fe), "not_met": bad}
    return out


MISMATCH = {"glider_video+time_pilot_log": (SYNTH, TP, REC),
            "amidar_avi+glider_log": (AM, SYNTH, REC2)}


def check_mismatch(case: str) -> dict:
    _install()
    s28.MISMATCH = MISMATCH
    return s28.check_mismatch(case)


def synth_probe(seed: str) -> dict:
    """s36's probe on this pass' synthetic game (flight phase: NOOP steps 0-900)."""
    g = SynthGlider(int(seed))
    prev, ch = g.getScreenRGB(), []
    for _ in range(900):
        g.act(0)
        cur = g.getScreenRGB()
        ch.append(int((cur != prev).any(axis=2).sum()))
        prev = cur
    rng = random.Random(int(seed))
    lags = []
    for _ in range(20):
        for _ in range(rng.randint(20, 60)):
            g.act(rng.randint(1, 5))
        st = g.cloneState()
        base = []
        for _ in range(40):
            g.act(0)
            base.append(g.getScreenRGB())
        g.restoreState(st)
        b = rng.randint(1, 5)
        got = None
        for k in range(40):
            g.act(b if k < 8 else 0)
            if got is None and (g.getScreenRGB() != base[k]).any():
                got = k
        lags.append(got)
    arr = np.array(ch)
    return {"seed": seed, "still_share": round(float((arr == 0).mean()), 3),
            "changing": int((arr > 0).sum()), "max_pixels": int(arr.max()),
            "shown": sum(x is not None for x in lags), "lags": lags}


def ale_probe(game: str, mode: str, diff: str) -> dict:
    """The variants' probe (seed 37), as s36's (its script was not kept)."""
    from ale_py import ALEInterface, LoggerMode, roms

    ALEInterface.setLoggerMode(LoggerMode.Error)
    ale = ALEInterface()
    ale.setInt("random_seed", 37)
    ale.setFloat("repeat_action_probability", 0.0)
    ale.loadROM(roms.get_rom_path(game))
    ale.setMode(int(mode))
    ale.setDifficulty(int(diff))
    ale.reset_game()
    acts = ale.getMinimalActionSet()
    for _ in range(600):
        ale.act(acts[0])
    prev, ch = ale.getScreenRGB(), []
    for _ in range(900):
        ale.act(acts[0])
        cur = ale.getScreenRGB()
        ch.append(int((cur != prev).any(2).sum()))
        prev = cur
    rng, lags = random.Random(37), []
    for _ in range(20):
        for _ in range(rng.randint(20, 60)):
            ale.act(rng.choice(acts[1:]))
        st, base = ale.cloneState(), []
        for _ in range(40):
            ale.act(acts[0])
            base.append(ale.getScreenRGB())
        ale.restoreState(st)
        b, got = rng.choice(acts[1:]), None
        for k in range(40):
            ale.act(b if k < 8 else acts[0])
            if got is None and (ale.getScreenRGB() != base[k]).any():
                got = k
        lags.append(got)
    a = np.array(ch)
    return {"game": game, "mode": mode, "diff": diff, "still": round(float((a == 0).mean()), 3),
            "median": int(np.median(a)), "max": int(a.max()),
            "shown": sum(x is not None for x in lags), "lags": lags}


# -- 2/3/4: chain shape, hostile spellings, escape-heavy logs: scripts/qa_hostile_s37.py -------
def hostile_module():
    import qa_hostile_s37
    return qa_hostile_s37


# -- 5. QA s36's misses T1-T3 on s36's inputs (training data now) -------------------------------
_R33, _R56 = "r33speedhqmov", "r56ffvhuffmkv"
S36_MISSES = {
    "T1": [(f"sync/name_this_game_m24d1-genuine@{_R33}", "auto"),
           (f"sync/synth_courier-genuine@{_R33}", "auto"),
           (f"sync/video_checkers_m5d0-genuine@{_R56}", "auto")],
    "T2": [(f"sync/adventure_m2d3-cut@{_R56}", "auto"),
           (f"sync/name_this_game_m24d1-insert@{_R33}", "auto"),
           (f"sync/synth_courier-cut@{_R33}", "2.45")],
    "T3": [(f"sync/video_checkers_m5d0-freezedraw@{_R33}", "2.45"),
           (f"sync/video_checkers_m5d0-freeze@{_R33}", "2.45"),
           (f"sync/synth_courier-freeze@{_R56}", "1.85")],
}


def check_s36(miss: str) -> dict:
    rows = []
    for rel, off in S36_MISSES[miss]:
        code, rep, err = s22._verify(CACHE36 / rel, "--scan", "--sync", "--offset", off)
        sy = rep.get("sync") or {}
        dr = [f.get("percent") for f in sy.get("findings", []) if f.get("rule") == "sync.drift"]
        rows.append({"run": rel, "offset": off, "exit": code,
                     "suggested_offset_s": sy.get("suggested_offset_s"),
                     "confidence": sy.get("confidence"), "drift": dr,
                     "warnings": s27._warnings(rep), "stderr": err if not rep else ""})
    return {"miss": miss, "rows": rows}


def main(argv: list[str]) -> int:  # noqa: C901, PLR0912 - one dispatch table
    s23._FMT.setdefault(".mov", "mov")
    s23._FMT.setdefault(".avi", "avi")
    what, rest = (argv[0] if argv else ""), argv[1:]
    if what == "build":
        hm = hostile_module()
        kinds = rest or ["chain", "hostile", "escape"]
        if "chain" in kinds:
            _rows(lambda s: {"shape": s, "folder": str(hm.build_chain37(s))},
                  list(hm.CHAIN_SHAPES37), "shape")
        if "hostile" in kinds:
            print(json.dumps([c for c, _ in hm.cases(CACHE / "hostile")]))
        if "escape" in kinds:
            _rows(lambda c: {"case": c, **hm.build_escape(CACHE / "escape", c)},
                  list(hm.ESCAPE), "case")
    elif what == "jcs-check":
        hm = hostile_module()
        _rows(hm.jcs_check37, rest or list(hm.CHAIN_SHAPES37), "shape")
    elif what == "chain":
        hm = hostile_module()
        _rows(hm.check_chain37, rest or list(hm.CHAIN_SHAPES37), "shape")
    elif what == "sync-build":
        _rows(lambda r: {"run": r, "folder": str(build_sync_run(r))}, rest or ALL_RUNS, "run")
    elif what == "synth-probe":
        _rows(synth_probe, rest or ["37"], "seed")
    elif what == "probe":
        print(json.dumps(ale_probe(*rest[:3])))
    elif what == "holds-truth":
        _install()
        _rows(s30.holds_truth, rest or [r for r in ALL_RUNS
                                        if r.split("-")[0] in HOLDS or "freeze" in r], "run")
    elif what == "waits-truth":
        _install()
        _rows(s34.waits_truth, rest or [r for r in ALL_RUNS if r.split("-")[0] in HOLDS], "run")
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
    elif what == "s36":
        _rows(check_s36, rest or list(S36_MISSES), "miss")
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
