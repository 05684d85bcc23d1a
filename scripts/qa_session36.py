"""Session 36's QA pass (docs/qa/session36.md): held-out inputs for session 36's work, run
through main, actual against expected. Heavy files go to `/work/main/.cache/qa-s36/`
(gitignored); nothing here is imported by the app or the tests. Sessions 13-35's machinery
(scripts/qa_session35.py and through it qa_session10/12..34.py, qa_common.py) is reused by
import. Every generator is deterministic (fixed seeds, fixed encoder settings, one thread).

The reserved pool of games is empty (session 35): this pass plays **ALE mode/difficulty
variants of three untuned wide games** (QA s35's proposal): weaker held-out evidence than a
new game (the sprites are known to the wide set), reported apart.

Run the product of another worktree with PYTHONPATH=/that/worktree (the CLI subprocesses
inherit it; the CLI is started with `python -P`).

    .venv/bin/python scripts/qa_session36.py build [chain|hostile|escape]
    .venv/bin/python scripts/qa_session36.py sync-build|sync-truth|holds-truth|waits-truth|sync [RUN...]
    .venv/bin/python scripts/qa_session36.py table SYNC.jsonl [MISMATCH.jsonl]
    .venv/bin/python scripts/qa_session36.py mismatch [CASE...]   # issue 13: another game's log
    .venv/bin/python scripts/qa_session36.py chain [SHAPE...]     # issue 15: a held-out shape
    .venv/bin/python scripts/qa_session36.py jcs-check [SHAPE...] # its truth apart from the product
    .venv/bin/python scripts/qa_session36.py hostile [ID...]      # issue 15: new spellings
    .venv/bin/python scripts/qa_session36.py escape [CASE...]     # issue 15: escape-heavy CPU
    .venv/bin/python scripts/qa_session36.py s35 [T1..T3]         # QA s35's misses again
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
import qa_session35 as s35  # noqa: E402

s34, s33, s32, s31, s30, s29, s28 = s35.s34, s35.s33, s35.s32, s35.s31, s35.s30, s35.s29, s35.s28
s27, s26, s25, s24, s23, s22 = s35.s27, s35.s26, s35.s25, s35.s24, s35.s23, s35.s22
s21, s19, s14 = s35.s21, s35.s19, s35.s14
CACHE35 = s35.CACHE
CACHE = CACHE35.parent / "qa-s36"
s35.CACHE = s34.CACHE = s33.CACHE = s32.CACHE = s31.CACHE = s30.CACHE = s29.CACHE = CACHE
s28.CACHE = s27.CACHE = s26.CACHE = s25.CACHE = s24.CACHE = s23.CACHE = CACHE
for _m in (s22, s23.s10, s23.s13, s14, s23.s15, s22.s12, s22.s16, s22.s17, s22.s18, s19,
           s23.s20, s21):
    _m.CACHE = CACHE
_rows = s22._rows


# -- 1. real-game runs (issue 13): mode/difficulty variants of three untuned wide games ---------
# Probe (/tmp/qa36/probe.py, not kept: seed 36; 600 NOOP steps, then 900 NOOP steps for the
# pixels changed a step, the unchanged share and the gaps between changing steps; then 20
# presses of 8 frames after 20-60 random steps, each against its NOOP counterfactual, lag in
# emulator steps). Candidates probed and not taken: bowling m4 d1 (0 of 20 shown), ice_hockey
# m2 d3, othello m2 d2 (6 of 20, 1-8 late), gopher m2 d1, tic_tac_toe_3d m4 d2.
# - adventure mode 2 difficulty 3 ("game 3": objects placed at random, fast dragons):
#   still 1.00 at NOOP (0 of 900 steps change): **a dead-still screen**; 17 of 20 presses
#   shown 1-3 steps late. (Wide: adventure-genuine@r60mp4, mode 0.)
# - name_this_game mode 24 difficulty 1: 899 of 900 steps change (median 46 pixels, <= 120):
#   **a screen always moving** (the octopus and the shark); 16 of 20 shown, 14 of them 1
#   step late.
# - video_checkers mode 5 difficulty 0: 94 % unchanged, 56 of 900 steps change, **every 16
#   steps** (55 of 55 gaps; <= 70 pixels): **a picture that ticks** (the cursor blinks every
#   0.27 s), still between; 9 of 20 shown, 0-1 steps late. The agent waits 2-3.3 s a third of
#   the time: the honest ticking hold (freezes' "must not warn").
#: variant name -> (ALE ROM id, mode, difficulty)
VARIANTS = {"adventure_m2d3": ("adventure", 2, 3),
            "name_this_game_m24d1": ("name_this_game", 24, 1),
            "video_checkers_m5d0": ("video_checkers", 5, 0)}
AD, NT, VC = VARIANTS


def adventure_m2d3(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Adventure, game 3 (**a dead-still screen** until the square moves): the square walks
    the rooms (the 8 directions); FIRE drops what it carries. A fifth of the time it waits
    2-3.3 s (a logged NOOP): a still hold a press ends."""
    r = rng.random()
    if r < 0.65:
        return [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT", "UPLEFT", "DOWNRIGHT")),
                 rng.randint(6, 16))]
    if r < 0.8:
        return [("FIRE", rng.randint(3, 6))]
    return [("NOOP", rng.randint(120, 200))]


def name_this_game_m24d1(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Name This Game (**a screen always moving**): the diver goes LEFT / RIGHT and shoots
    (FIRE, LEFTFIRE, RIGHTFIRE); short NOOP only."""
    r = rng.random()
    if r < 0.6:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(5, 12))]
    if r < 0.88:
        return [(rng.choice(("FIRE", "LEFTFIRE", "RIGHTFIRE")), rng.randint(3, 6))]
    return [("NOOP", rng.randint(6, 14))]


def video_checkers_m5d0(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Video Checkers, game 5 (**a picture that ticks**: the cursor blinks every 16 frames):
    the cursor moves on the diagonals, FIRE picks / drops a piece. A third of the time the
    agent waits 2-3.3 s (a logged NOOP): the blinking cursor is all that moves."""
    r = rng.random()
    if r < 0.45:
        return [(rng.choice(("UPLEFT", "UPRIGHT", "DOWNLEFT", "DOWNRIGHT")), rng.randint(5, 10))]
    if r < 0.67:
        return [("FIRE", rng.randint(3, 6))]
    return [("NOOP", rng.randint(120, 200))]


GAMES36 = {AD: (adventure_m2d3, 631), NT: (name_this_game_m24d1, 637),
           VC: (video_checkers_m5d0, 641)}
#: two recorders no corpus set, wide set or QA pass used (grep of scripts/ tests/ bench/ for
#: `"fps": 33`, `"fps": 56`, speedhq, ffvhuff: 0 hits):
#: - r33speedhqmov: **SpeedHQ** (NDI's intra codec, as NDI / vMix recorders write it; lossy,
#:   4:2:2) + PCM s16le in **MOV**, **33 fps** (every 1.82th emulator frame), x2 nearest,
#:   2.45 s lead-in;
#: - r56ffvhuffmkv: **FFVHuff** (FFmpeg's HuffYUV, lossless, yuv420p) + FLAC in **Matroska**,
#:   **56 fps** (every 1.07th emulator frame: 4 of 60 dropped a second), x2 nearest, 1.85 s
#:   lead-in.
RECORDERS36 = {"r33speedhqmov": {"fps": 33, "scale": 2, "lead_s": 2.45, "container": "mov",
                                 "codec": "speedhqmov33"},
               "r56ffvhuffmkv": {"fps": 56, "scale": 2, "lead_s": 1.85, "container": "mkv",
                                 "codec": "ffvhuffmkv56"}}
SPEED36 = 0.017            # kind speed17: the video 1.7 % fast (the wide set draws 2.0-4.0)
SLOW36 = 1 / 0.948 - 1     # kind slow52: the video at 94.8 % of the log's clock (-5.2 %)
REC, REC2 = "r33speedhqmov", "r56ffvhuffmkv"
GENUINE_RUNS = [f"{g}-genuine@{r}" for r in (REC, REC2) for g in GAMES36]
SYNC_RUNS = GENUINE_RUNS + [
    f"{VC}-genuine2@{REC2}",
    f"{AD}-cut@{REC2}", f"{NT}-insert@{REC}", f"{VC}-freeze@{REC}", f"{VC}-freezedraw@{REC}",
    f"{NT}-speed17@{REC2}", f"{AD}-slow52@{REC}", f"{AD}-deleted@{REC}", f"{NT}-human@{REC2}"]
ALL_RUNS = SYNC_RUNS
HIDDEN = (AD, NT)          # signal: a dead-still screen / a screen always moving
HOLDS = (AD, VC)           # long waits: a still screen, a ticking cursor
LAG = ()                   # set from sync-truth if a game shows < 10 % of its presses
_ENCODE35 = s35._encode


def _encode(frames: np.ndarray, folder: Path, rec) -> Path:
    codec = getattr(rec, "codec", "")
    if codec not in ("speedhqmov33", "ffvhuffmkv56"):
        return _ENCODE35(frames, folder, rec)
    h, w = frames.shape[1:3]
    path = folder / rec.video_name
    cmd = ["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
           "rgb24", "-s", f"{w}x{h}", "-r", str(rec.fps), "-i", "-", "-f", "lavfi", "-i"]
    if codec == "speedhqmov33":
        cmd += ["sine=frequency=560:sample_rate=48000", "-map", "0:v", "-map", "1:a",
                "-shortest", "-vf", f"scale={w * 2}:{h * 2}:flags=neighbor",
                "-c:v", "speedhq", "-pix_fmt", "yuv422p", "-threads", "1",
                "-c:a", "pcm_s16le", "-f", "mov", str(path)]
    else:
        cmd += ["sine=frequency=660:sample_rate=44100", "-map", "0:v", "-map", "1:a",
                "-shortest", "-vf", f"scale={w * 2}:{h * 2}:flags=neighbor",
                "-c:v", "ffvhuff", "-pix_fmt", "yuv420p", "-threads", "1",
                "-c:a", "flac", "-f", "matroska", str(path)]
    subprocess.run(cmd, input=np.ascontiguousarray(frames).tobytes(), check=True,
                   stderr=subprocess.DEVNULL)
    return path


# -- 1b. a synthetic game written for this pass (a new game: no sprite of it in any set) --------
class SynthCourier:
    """**synth_courier**, a 160x210 game with the emulator's interface (act, getScreenRGB,
    cloneState / restoreState, getRAM, game_over, reset_game), so the corpus generator plays
    it and finds each press' first visible frame by its own NOOP counterfactual (the truth
    by construction). Its screen behaviour, each piece a class the sync rules meet:
    - **reaction lag**: an input takes effect 2-7 frames late (the lag changes every second,
      a hash of the second: a game that answers late by a varying amount);
    - **a ticking HUD**: a 3-digit counter at the top steps every 45 frames (0.75 s);
    - **flicker and scrolling**: a star field scrolls down 1 px every 3 frames and an enemy
      drawn on even frames only (30 Hz flicker) crosses the screen, **except in calm phases**
      (3 s of every 7 s: the field stops, the enemy is gone, only the HUD ticks: a picture
      that ticks, honest, the freezes' "must not warn");
    - **sparse answers**: the courier lives in a corridor x 64-96; a press into its wall shows
      nothing; UP / DOWN move it only on a ladder column (x 72-75 or 88-91); FIRE shows a
      shot only when none is in flight."""

    W, H = 160, 210
    ACTIONS = ("NOOP", "FIRE", "UP", "RIGHT", "LEFT", "DOWN")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.reset_game()

    def reset_game(self) -> None:
        rng = np.random.default_rng(self.seed)
        self.stars = np.stack([rng.integers(0, self.H, 40), rng.integers(0, self.W, 40)], 1)
        self.s = {"f": 0, "x": 80, "y": 170, "shot": -1, "sx": 0, "queue": (0,) * 8,
                  "scroll": 0, "ex": 0}

    def cloneState(self):  # noqa: N802 - the emulator's name
        return dict(self.s)

    def restoreState(self, st) -> None:  # noqa: N802
        self.s = dict(st)

    def getRAM(self):  # noqa: N802
        return np.zeros(128, np.uint8)

    def game_over(self) -> bool:
        return False

    def _lag(self, f: int) -> int:
        return 2 + ((f // 60) * 7919 + self.seed) % 6

    def act(self, a: int) -> int:
        s = self.s
        f = s["f"] + 1
        q = (*s["queue"][1:], int(a))
        s["queue"], s["f"] = q, f
        eff = q[-1 - self._lag(f)] if self._lag(f) < len(q) else 0
        name = self.ACTIONS[eff]
        if name == "LEFT":
            s["x"] = max(64, s["x"] - 2)
        elif name == "RIGHT":
            s["x"] = min(92, s["x"] + 2)
        elif name in ("UP", "DOWN") and (72 <= s["x"] <= 75 or 88 <= s["x"] <= 91):
            s["y"] = min(190, max(120, s["y"] + (-2 if name == "UP" else 2)))
        elif name == "FIRE" and s["shot"] < 0:
            s["shot"], s["sx"] = s["y"] - 4, s["x"] + 3
        if s["shot"] >= 0:
            s["shot"] = s["shot"] - 4 if s["shot"] > 30 else -1
        calm = (f // 60) % 7 >= 4
        if not calm:
            s["scroll"] = (s["scroll"] + (f % 3 == 0)) % self.H
            s["ex"] = (s["ex"] + 1) % (self.W + 20)
        return 0

    def getScreenRGB(self):  # noqa: N802
        s, f = self.s, self.s["f"]
        img = np.zeros((self.H, self.W, 3), np.uint8)
        img[:, :] = (10, 14, 48)
        ys = (self.stars[:, 0] + s["scroll"]) % self.H
        img[ys, self.stars[:, 1]] = (200, 200, 210)
        img[:, 60:64] = (90, 70, 40)
        img[:, 100:104] = (90, 70, 40)
        for lx in (72, 88):
            img[118:198:6, lx:lx + 12] = (150, 120, 60)
        calm = (f // 60) % 7 >= 4
        if not calm and f % 2 == 0:
            ex = s["ex"] - 10
            if 0 <= ex < self.W - 10:
                img[60:68, ex:ex + 10] = (220, 60, 60)
        img[s["y"]:s["y"] + 8, s["x"]:s["x"] + 8] = (80, 220, 120)
        if s["shot"] >= 0:
            img[s["shot"]:s["shot"] + 4, s["sx"]:s["sx"] + 2] = (250, 250, 90)
        n = (f // 45) % 1000
        for i, d in enumerate(f"{n:03d}"):
            x0 = 56 + 16 * i
            img[8:20, x0:x0 + 10] = (40, 40, 40)
            k = int(d)
            img[8:8 + 2 + k, x0 + 2:x0 + 8] = (240, 200, 60)  # a bar as tall as the digit
        return img


SYNTH = "synth_courier"


def synth_courier(ram, rng: random.Random) -> list[tuple[str, int]]:
    """The courier's agent: LEFT / RIGHT in the corridor, UP / DOWN (shown on a ladder only),
    FIRE; a quarter of the time it waits 2-3.3 s (a logged NOOP)."""
    r = rng.random()
    if r < 0.45:
        return [(rng.choice(("LEFT", "RIGHT", "LEFT", "RIGHT", "UP", "DOWN")),
                 rng.randint(5, 12))]
    if r < 0.75:
        return [("FIRE", rng.randint(3, 6))]
    return [("NOOP", rng.randint(120, 200))]


GAMES36[SYNTH] = (synth_courier, 653)
SYNTH_RUNS = [f"{SYNTH}-genuine@{REC}", f"{SYNTH}-genuine@{REC2}", f"{SYNTH}-genuine2@{REC}",
              f"{SYNTH}-cut@{REC}", f"{SYNTH}-freeze@{REC2}", f"{SYNTH}-insert@{REC2}"]


def _emulator_variants() -> None:
    """ALE modes / difficulties: a variant name loads its ROM, then setMode / setDifficulty
    (ALE applies them at the reset that follows); the synthetic game is played by its own
    class."""
    import corpus.play as play

    if getattr(play, "_qa36", False):
        return
    orig = play._emulator

    def emulator(game: str, seed: int):
        if game == SYNTH:
            g = SynthCourier(seed)
            return g, {n: i for i, n in enumerate(SynthCourier.ACTIONS)}
        if game not in VARIANTS:
            return orig(game, seed)
        rom, mode, diff = VARIANTS[game]
        ale, acts = orig(rom, seed)
        ale.setMode(mode)
        ale.setDifficulty(diff)
        ale.reset_game()
        return ale, acts

    play._emulator, play._qa36 = emulator, True


def _install() -> None:
    s35._install()
    s25._encode = _encode
    s25.GAMES25.update(GAMES36)
    s25.RECORDERS25.update(RECORDERS36)
    build = sys.modules["corpus.build"]
    build.SPEEDUPS["speed17"] = SPEED36
    build.SLOWDOWNS["slow52"] = SLOW36
    s34.HIDDEN, s34.HOLDS, s34.LAG = HIDDEN, HOLDS, LAG
    s28.HIDDEN, s28.HOLDS = HIDDEN, HOLDS
    s28.build_sync_run = s29.build_sync_run = s30.build_sync_run = build_sync_run
    s35._install = lambda: None
    s23._FMT.setdefault(".mov", "mov")
    s23._FMT.setdefault(".mkv", "matroska")
    s19.s18._legal_actions()
    _emulator_variants()


#: the drawn overlay on the edited freeze (kind freezedraw): a 2-px line at the picture's
#: foot that grows 6 px every 0.5 s over the freeze (a new picture every 0.5 s, < 3 s), in a
#: yellow no Atari palette entry of the screen around it holds (0xF0F040 drawn, 4:2:2 smeared)
DRAW_EVERY_S = 0.5


def _freezedraw(name: str) -> Path:
    """`X-freezedraw@R`: X-freeze@R's video re-encoded (the same recorder's settings) with a
    line that grows over the freeze; log and truth copied (truth.json gets `overlay`)."""
    src = build_sync_run(name.replace("-freezedraw@", "-freeze@"))
    out = CACHE / "sync" / name
    if (out / "truth.json").exists():
        return out
    out.mkdir(parents=True, exist_ok=True)
    t = json.loads((src / "truth.json").read_text())
    a, b = t["tamper"]["video_start_s"], t["tamper"]["video_end_s"]
    vid = next(p for p in src.iterdir() if p.name.startswith("video."))
    steps = int((b - a) / DRAW_EVERY_S)
    boxes = ",".join(
        f"drawbox=x=8:y=ih-6:w={6 * (k + 1)}:h=2:color=0xF0F040:t=fill:"
        f"enable='between(t,{a + k * DRAW_EVERY_S:.4f},{b:.4f})'" for k in range(steps))
    cmd = ["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-threads", "1", "-i", str(vid),
           "-vf", boxes, "-map", "0:v", "-map", "0:a?", "-c:v", "speedhq", "-pix_fmt",
           "yuv422p", "-threads", "1", "-c:a", "copy", "-f", "mov", str(out / vid.name)]
    subprocess.run(cmd, check=True)
    shutil.copy(src / "agent-log.jsonl", out / "agent-log.jsonl")
    t["overlay"] = {"kind": "growing line", "every_s": DRAW_EVERY_S, "from_s": a, "to_s": b}
    (out / "truth.json").write_text(json.dumps(t, indent=1) + "\n")
    return out


def build_sync_run(name: str) -> Path:
    _install()
    if "-freezedraw@" in name:
        return _freezedraw(name)
    return s25.build_sync_run(name)


def sync_truth(name: str) -> dict:
    _install()
    return s34.sync_truth(name)


def check_sync(name: str) -> dict:
    _install()
    return s34.check_sync(name)


def table(sync_log: Path, mismatch_log: Path | None = None) -> dict:
    """s35.table's counts with this pass' groups, plus the bars the doc set before any
    product run: S-l36 (Video Checkers' genuine runs, the sparse game: no confident wrong
    offset and no `sync.no_reaction` at any of the 4 offsets) and S-fd (the drawn overlay
    on the edited freeze: a `video.frozen` WARNING starting within 1 s of the freeze's start
    at the truth's offset; a note or nothing fails it)."""
    s35.HIDDEN, s35.HOLDS, s35.LAG = HIDDEN, HOLDS, LAG
    out = s35.table(sync_log, mismatch_log)
    rows = [json.loads(x) for x in sync_log.read_text().splitlines() if x.startswith("{")]
    offs = ("auto", "truth", "+2f", "-4f")
    sparse = [r for r in rows if r["run"].startswith(VC)
              and r["tamper"]["kind"] in ("genuine", "genuine2")]
    bad = [r["run"] for r in sparse if r["confident_wrong"] or any(
        w[0] == "sync.no_reaction" for k in offs for w in r.get(k, {}).get("warnings", []))]
    out["S-l36"] = {"met": len(sparse) - len(bad), "of": len(sparse), "not_met": sorted(bad)}
    fd = [r for r in rows if "-freezedraw@" in r["run"]]
    fd_bad = []
    for r in fd:
        a = r["tamper"].get("video_start_s")
        hit = [w for w in r.get("truth", {}).get("warnings", [])
               if w[0] == "video.frozen" and len(w) > 1 and w[1] is not None
               and abs(w[1] - a) <= 1.0]
        if not hit:
            fd_bad.append(r["run"])
    out["S-fd"] = {"met": len(fd) - len(fd_bad), "of": len(fd), "not_met": fd_bad}
    return out


#: a genuine run's video beside another game's genuine log (same recorder)
MISMATCH = {"adventure_video+video_checkers_log": (AD, VC, REC),
            "name_this_game_mkv+adventure_log": (NT, AD, REC2)}


def check_mismatch(case: str) -> dict:
    _install()
    s28.MISMATCH = MISMATCH
    return s28.check_mismatch(case)


def synth_probe(seed: str) -> dict:
    """The synthetic game's probe (as the ALE games'): NOOP still share and change gaps, then
    20 presses of 8 frames against their NOOP counterfactual (lag in steps; None = unshown)."""
    g = SynthCourier(int(seed))
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


# -- 2/3/4: chain shape, hostile spellings, escape-heavy logs: scripts/qa_hostile_s36.py -------
def hostile_module():
    import qa_hostile_s36
    return qa_hostile_s36


# -- 5. QA s35's misses T1-T3 on s35's inputs (training data now) -------------------------------
_R70, _R27 = "r70zmbvavi", "r27flashsvflv"
S35_MISSES = {
    "T1": [(f"sync/space_war-genuine@{_R70}", "auto"), (f"sync/space_war-genuine@{_R27}", "auto"),
           (f"sync/entombed-genuine@{_R70}", "auto"), (f"sync/entombed-genuine@{_R27}", "auto")],
    "T2": [(f"sync/space_war-genuine2@{_R27}", "auto")],
    "T3": [(f"sync/entombed-cut@{_R70}", "2.15"), (f"sync/space_war-insert@{_R70}", "2.15"),
           (f"sync/space_war-speed21@{_R27}", "2.9873")],
}


def check_s35(miss: str) -> dict:
    rows = []
    for rel, off in S35_MISSES[miss]:
        code, rep, err = s22._verify(CACHE35 / rel, "--scan", "--sync", "--offset", off)
        sy = rep.get("sync") or {}
        dr = [f.get("percent") for f in sy.get("findings", []) if f.get("rule") == "sync.drift"]
        rows.append({"run": rel, "offset": off, "exit": code,
                     "suggested_offset_s": sy.get("suggested_offset_s"),
                     "confidence": sy.get("confidence"), "drift": dr,
                     "warnings": s27._warnings(rep), "stderr": err if not rep else ""})
    return {"miss": miss, "rows": rows}


def main(argv: list[str]) -> int:  # noqa: C901, PLR0912 - one dispatch table
    s23._FMT.setdefault(".mov", "mov")
    s23._FMT.setdefault(".mkv", "matroska")
    what, rest = (argv[0] if argv else ""), argv[1:]
    if what == "build":
        hm = hostile_module()
        kinds = rest or ["chain", "hostile", "escape"]
        if "chain" in kinds:
            _rows(lambda s: {"shape": s, "folder": str(hm.build_chain36(s))},
                  list(hm.CHAIN_SHAPES36), "shape")
        if "hostile" in kinds:
            print(json.dumps([c for c, _ in hm.cases(CACHE / "hostile")]))
        if "escape" in kinds:
            _rows(lambda c: {"case": c, **hm.build_escape(CACHE / "escape", c)},
                  list(hm.ESCAPE), "case")
    elif what == "jcs-check":
        hm = hostile_module()
        _rows(hm.jcs_check36, rest or list(hm.CHAIN_SHAPES36), "shape")
    elif what == "chain":
        hm = hostile_module()
        _rows(hm.check_chain36, rest or list(hm.CHAIN_SHAPES36), "shape")
    elif what == "sync-build":
        _rows(lambda r: {"run": r, "folder": str(build_sync_run(r))}, rest or ALL_RUNS, "run")
    elif what == "synth-probe":
        _rows(synth_probe, rest or ["36"], "seed")
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
    elif what == "s35":
        _rows(check_s35, rest or list(S35_MISSES), "miss")
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
