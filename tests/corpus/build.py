"""Real-game runs with ground truth: genuine runs and six tamperings of each, cached on disk.

A run is a folder holding `agent-log.jsonl`, `video.mp4` (H.264) and `truth.json`. The truth
says the true offset (video time of run_start), each logged press's run time and the video time
where it first shows (null when it never does, e.g. a press into a wall or into cut footage),
and where the tampering is (video and run times) with its size.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import record
from .play import EMU_HZ, Played, ms_to_step, play
from .record import Recorder

GENERATOR_VERSION = 2
RUN_S = 40.0
# Per game: seed, the recorder's frame rate and scale (two different "recorders").
GAMES: dict[str, dict] = {
    "breakout": {"seed": 11, "fps": 60, "scale": 1},  # the ball moves on its own
    "pitfall": {"seed": 12, "fps": 30, "scale": 2},   # mostly still; moves on input
    "pong": {"seed": 13, "fps": 60, "scale": 1},      # ball and the other paddle always move
    # Held out (sync was not tuned on them; reported apart): a scroller and a maze game.
    "riverraid": {"seed": 14, "fps": 60, "scale": 2},  # the river scrolls on its own
    "ms_pacman": {"seed": 15, "fps": 30, "scale": 3},  # ghosts move on their own
}
HELD_OUT = ("riverraid", "ms_pacman")
KINDS = ("genuine", "genuine2", "genuine3", "cut", "insert", "freeze", "speed", "deleted",
         "human", "slow")  # genuine2/3: other seeds, for false positives
SPEEDUP = 0.04    # "video sped up by a few %"
SPEEDUP2 = 0.02   # kind speed2 (held-out set): a smaller change, at the edge of 1 point
SPEEDUP6 = 0.06   # kind speed6 (held-out set): a larger one
SPEEDUP_LONG = 0.044  # kind speedlong (held-out set): off the analysis' 0.25 % speed grid ...
LONG_RUN_S = 150.0    # ... on a run long enough for the grid's step to matter (and
                      # kind genuinelong: the same run, not sped up)
# kind genuine300 (held-out set): a 300 s genuine run, for the analysis' cost on runs of
# minutes (issue 13: its share of the scan's time; `make bench`)
RUN_LENGTHS_S = {"speedlong": LONG_RUN_S, "genuinelong": LONG_RUN_S, "genuine300": 300.0}
SPEEDUPS = {"speed": SPEEDUP, "speed2": SPEEDUP2, "speed6": SPEEDUP6,
            "speedlong": SPEEDUP_LONG}
SLOWDOWN = 0.03   # ... or slowed down (each video second shows 1/1.03 s of the game)
# Speeds off the whole percents (session 29, held-out set): +3.7 % (kind speed37) and a video
# 2.5 % slow (kind slow25: each video second shows 0.975 s of the game), as QA holds out.
SPEEDUPS["speed37"] = 0.037
SLOWDOWNS = {"slow25": 1 / 0.975 - 1}
SPAN_S = 4.0      # cut, inserted and frozen footage
STRETCH_S = 9.0   # deleted actions, human stretch
# kind `cutlong` (held-out set): a long cut late in the run, so the removed footage holds more
# of the log's actions than the footage after the splice (the limit of the track's order rule)
LONG_CUT_S = 14.0
# kind `deletedlong` (held-out set): the issue's own example, 30 s of the log's model calls
# removed and `seq` renumbered (the long-gap warning started at 120 s), in a 70 s run
DELETED_LONG_S = 30.0
DELETED_LONG_RUN_S = 70.0
# kind `pauselong` (held-out set): its genuine control, one model call answering 30 s late
PAUSE_LONG_MS = 30_000


@dataclass(frozen=True)
class Tamper:
    kind: str
    at_s: float  # run time where it starts


def tamper_for(game: str, kind: str) -> Tamper:
    rng = random.Random(f"{game}/{kind}")
    if kind == "cutlong":  # removed: 21-25 s to 31-35 s of the 40 s run; 5-9 s follow it
        return Tamper(kind, round(rng.uniform(12.0, 14.0), 3))
    if kind in ("deletedlong", "pauselong"):  # from 15-20 s, 30 s; 20-25 s follow
        return Tamper(kind, round(rng.uniform(15.0, 20.0), 3))
    return Tamper(kind, round(rng.uniform(12.0, 22.0), 3))


def _write_log(events: list[dict], path: Path) -> None:
    import orjson

    with open(path, "wb") as fh:
        for ev in events:
            fh.write(orjson.dumps(ev) + b"\n")


def _delete_stretch(events: list[dict], t0_ms: int, t1_ms: int) -> tuple[list[dict], int, int]:
    """Remove whole model calls whose request falls in [t0, t1) and renumber seq."""
    reqs = [e["elapsedMs"] for e in events if e["type"] == "model_request"]
    a = min(r for r in reqs if r >= t0_ms)
    b = min(r for r in reqs if r >= t1_ms)
    kept = [dict(e) for e in events if not a <= e["elapsedMs"] < b]
    for i, e in enumerate(kept):
        e["seq"] = i
    return kept, a, b


def generate(game: str, kind: str, out: Path, *, seed: int | None = None,
             rec: Recorder | None = None, rec_name: str = "") -> dict:
    """Play and write one run into `out`; return its truth. `seed` and `rec` default to the
    game's in GAMES (the held-out set passes its own)."""
    if rec is None:
        rec = Recorder(fps=GAMES[game]["fps"], scale=GAMES[game]["scale"])
    seed = GAMES[game]["seed"] if seed is None else seed
    fps = rec.fps
    if kind in ("genuine2", "genuine3"):
        seed += 1000 * int(kind[-1])
    tp = tamper_for(game, kind)
    at_ms = int(tp.at_s * 1000)
    human = (at_ms, at_ms + int(STRETCH_S * 1000)) if kind == "human" else None
    lead_steps = None if rec.lead_s is None else int(round(rec.lead_s * EMU_HZ))
    slow = at_ms if kind in ("pause", "pauselong") else None
    run_s = RUN_LENGTHS_S.get(kind, DELETED_LONG_RUN_S if kind in ("deletedlong", "pauselong")
                              else RUN_S)
    p: Played = play(game, seed, run_s, human_span_ms=human, lead_steps=lead_steps,
                     slow_call_ms=slow,
                     **({"slow_by_ms": PAUSE_LONG_MS} if kind == "pauselong" else {}))
    frames, events = p.frames, p.events
    steps = np.arange(len(frames), dtype=float)  # emulator step shown by each 60 Hz frame
    span = int(SPAN_S * EMU_HZ)
    at_step = p.lead + ms_to_step(at_ms)
    tamper: dict = {"kind": kind}
    if kind in ("cut", "cutlong"):
        size_s = SPAN_S if kind == "cut" else LONG_CUT_S
        gone = int(size_s * EMU_HZ)
        keep = np.r_[0:at_step, at_step + gone:len(frames)]
        frames, steps = frames[keep], steps[keep]
        tamper.update(video_s=at_step / EMU_HZ, run_s=at_ms / 1000, size_s=-size_s)
    elif kind == "insert":
        other = play(game, seed + 100, 20.0)
        src = other.frames[other.lead + 5 * EMU_HZ: other.lead + 5 * EMU_HZ + span]
        frames = np.concatenate([frames[:at_step], src, frames[at_step:]])
        steps = np.concatenate([steps[:at_step], np.full(span, np.nan), steps[at_step:]])
        tamper.update(video_s=at_step / EMU_HZ, video_end_s=(at_step + span) / EMU_HZ,
                      run_s=at_ms / 1000, size_s=SPAN_S)
    elif kind == "freeze":
        frames = frames.copy()
        frames[at_step:at_step + span] = frames[at_step - 1]
        steps = steps.copy()
        steps[at_step:at_step + span] = np.nan
        tamper.update(video_start_s=at_step / EMU_HZ, video_end_s=(at_step + span) / EMU_HZ,
                      run_start_s=at_ms / 1000, run_end_s=at_ms / 1000 + SPAN_S)
    elif kind in SPEEDUPS:
        up = SPEEDUPS[kind]
        idx = np.round(np.arange(int(len(frames) / (1 + up))) * (1 + up)).astype(int)
        frames, steps = frames[idx], steps[idx]
        tamper.update(percent=up * 100)
    elif kind == "retake":  # a second attempt at the same game (same emulator seed) spliced in
        other = play(game, seed + 500, RUN_S, emu_seed=seed, lead_steps=p.lead)
        n = min(len(frames), len(other.frames))
        frames = np.concatenate([frames[:at_step], other.frames[at_step:n]])
        steps = np.concatenate([steps[:at_step], np.full(n - at_step, np.nan)])
        tamper.update(video_s=at_step / EMU_HZ, run_s=at_ms / 1000)
    elif kind == "slow" or kind in SLOWDOWNS:
        down = SLOWDOWN if kind == "slow" else SLOWDOWNS[kind]
        idx = np.floor(np.arange(int(len(frames) * (1 + down))) / (1 + down)).astype(int)
        frames, steps = frames[idx], steps[idx]
        tamper.update(percent=round((1 / (1 + down) - 1) * 100, 3))
    elif kind in ("deleted", "deletedlong"):
        size_ms = int((STRETCH_S if kind == "deleted" else DELETED_LONG_S) * 1000)
        events, a, b = _delete_stretch(events, at_ms, at_ms + size_ms)
        tamper.update(run_start_s=a / 1000, run_end_s=b / 1000,
                      video_start_s=(p.lead + ms_to_step(a)) / EMU_HZ,
                      video_end_s=(p.lead + ms_to_step(b)) / EMU_HZ)
    elif kind in ("pause", "pauselong"):  # genuine: the log's gap is the agent's own
        gap = max((b["elapsedMs"] - a["elapsedMs"], a["elapsedMs"], b["elapsedMs"]) for a, b in
                  zip(p.events, p.events[1:], strict=False) if a["type"] == "model_request")
        tamper.update(run_start_s=gap[1] / 1000, run_end_s=gap[2] / 1000)
    elif kind == "human":  # from the first unlogged press to the end of the last
        h0 = p.human_presses[0]
        h1 = p.human_presses[-1]
        end_step = h1.step + h1.hold
        tamper.update(run_start_s=h0.elapsed_ms / 1000,
                      run_end_s=(end_step - p.lead) / EMU_HZ,
                      video_start_s=h0.step / EMU_HZ, video_end_s=end_step / EMU_HZ,
                      presses=len(p.human_presses))
    # The recorder keeps the frame on screen at each of its ticks (every (60 / fps)-th one).
    r = EMU_HZ / fps
    idx = record.keep(len(frames), rec, f"{game}/{kind}/{rec_name}")
    frames, steps = frames[idx], steps[idx]
    out.mkdir(parents=True, exist_ok=True)
    record.encode(frames, out, rec)
    _write_log(events, out / "agent-log.jsonl")
    speed = {**{k: 1 + up for k, up in SPEEDUPS.items()},
             **{k: 1 / (1 + down) for k, down in SLOWDOWNS.items()},
             "slow": 1 / (1 + SLOWDOWN)}.get(kind, 1.0)

    def shown(step: int | None) -> float | None:
        """Video time of the first frame showing `step` (None if that moment is not shown)."""
        if step is None:
            return None
        ok = np.nonzero(steps >= step)[0]
        if not len(ok) or steps[ok[0]] - step > r * max(speed, 1.0):
            return None
        return round(float(ok[0]) / fps, 6)

    logged_ms = {e["elapsedMs"] for e in events if e["type"] == "action"}
    truth = {
        "generator_version": GENERATOR_VERSION, "game": game, "kind": kind, "fps": fps,
        "size": record.size(frames, rec), "frames": len(frames),
        "offset_s": round(p.lead / EMU_HZ / speed, 6), "run_s": run_s, "tamper": tamper,
        "actions": [{"elapsed_ms": x.elapsed_ms, "button": x.button, "hold": x.hold,
                     "shows_video_s": shown(x.first_visible_step)}
                    for x in p.presses if x.elapsed_ms in logged_ms],
        "unlogged_presses": len(p.human_presses) + sum(x.elapsed_ms not in logged_ms
                                                       for x in p.presses),
    }
    if rec_name:
        truth["recorder"] = rec_name
        truth["video"] = rec.video_name
    (out / "truth.json").write_text(json.dumps(truth, indent=1) + "\n")
    return truth
