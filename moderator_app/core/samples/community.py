"""Generators of realistic community-run evidence, for tests, the bundled sample and benchmarks.

Stable API (other modules and tests import these):

    duration_s = make_agent_log(path, n_events=40, seed=1)   # a valid agent-log.jsonl
    make_video(path, duration_s, fps=10, size=(160, 90))     # a real video covering the run

`make_agent_log` writes run_start, then request / response / action(s) / observation cycles,
then run_end; every rule of the format holds, and no moderation signal fires with the default
arguments, so a test can break exactly one thing and assert exactly one finding. It streams,
so a 100 MB benchmark log costs no memory. `make_video` draws each frame's number and time on
it, so that a screenshot of the player shows which frame is on screen.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import orjson

DEFAULT_START = "2026-10-22T18:00:00.000Z"
DEFAULT_MODEL = "provider/model-id"
_BUTTONS = ("A", "B", "LEFT", "RIGHT", "UP", "DOWN", "START")
_OBS = ("piece locked", "line cleared", "menu opened", "level 2", "score 1200",
        "piece rotated", "next piece: T")


def format_at(dt: datetime) -> str:
    """The log's `at` form: UTC with milliseconds and a `Z`."""
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + \
        f"{dt.microsecond // 1000:03d}Z"


def make_agent_log(path: str | Path, n_events: int = 40, seed: int = 0, *,
                   start: str = DEFAULT_START, game: str = "tetris-gb",
                   category: str = "any-percent", model: str = DEFAULT_MODEL,
                   withheld: bool = False, message_bytes: int = 120,
                   min_duration_s: float = 0.0) -> float:
    """Write a valid agent log of exactly `n_events` lines (at least 5); return the run
    duration in seconds (run_end's elapsedMs / 1000).

    withheld: write model_request data as {"withheld": true} and responses without text
        and reasoning, as the public version of a log looks.
    message_bytes: rough size of each prompt (raise it to make large benchmark logs).
    min_duration_s: stretch the pause before run_end so that the run lasts at least this
        long (a pause over the gap threshold, 120 s, raises the `log.gap` warning).
    """
    if n_events < 5:
        raise ValueError("a valid log needs at least 5 events")
    rng = random.Random(seed)
    t0 = datetime.fromisoformat(start.replace("Z", "+00:00"))
    filler = ("Board state: " + "row ........ " * (message_bytes // 13 + 1))[:message_bytes]
    el = 0
    seq = 0
    with open(path, "wb") as fh:
        def emit(typ: str, data: dict) -> None:
            nonlocal seq
            jitter = rng.randint(-3, 3) if seq else 0
            at = format_at(t0 + timedelta(milliseconds=el + jitter))
            fh.write(orjson.dumps({"seq": seq, "at": at, "elapsedMs": el, "type": typ,
                                   "data": data}) + b"\n")
            seq += 1

        emit("run_start", {"game": game, "category": category, "model": model,
                           "scaffold": {"name": "sample-agent", "version": "1.2.0",
                                        "url": "https://example.org/sample-agent"}})
        call = 0
        while seq < n_events - 1:
            remaining = n_events - 1 - seq
            if remaining < 4:
                el += rng.randint(100, 400)
                emit("observation", {"summary": rng.choice(_OBS)})
                continue
            k = min(rng.randint(1, 2), remaining - 3)
            call += 1
            el += rng.randint(100, 300)
            emit("model_request", {"withheld": True} if withheld else {
                "messages": [{"role": "system", "content": "You play the game."},
                             {"role": "user", "content": f"{filler} step {call}"}]})
            el += rng.randint(800, 3000)
            acts: list[dict[str, Any]] = [
                {"name": "press", "args": {"button": rng.choice(_BUTTONS)}} for _ in range(k)]
            resp: dict = {"id": f"c{call}", "model": model,
                          "usage": {"input": rng.randint(500, 1500),
                                    "output": rng.randint(20, 120)}}
            if not withheld:
                resp["text"] = "Pressing " + ", ".join(a["args"]["button"] for a in acts)
                resp["reasoning"] = "The piece fits on the left."
            resp["actions"] = acts
            emit("model_response", resp)
            for a in acts:
                el += rng.randint(20, 50)
                emit("action", {"call": f"c{call}", **a})
            el += rng.randint(100, 300)
            emit("observation", {"summary": rng.choice(_OBS)})
        el = max(el + rng.randint(200, 900), int(min_duration_s * 1000))
        emit("run_end", {"reason": "goal reached"})
    return el / 1000


def make_video(path: str | Path, duration_s: float, fps: float = 10.0,
               size: tuple[int, int] = (160, 90), fourcc: str = "mp4v") -> Path:
    """Write a real video of `duration_s` seconds (round(duration*fps) frames) with
    cv2.VideoWriter; each frame shows its number and time. Returns the path.

    Codecs that work with the headless wheel: mp4v (.mp4), MJPG/XVID (.avi), VP80/VP90 (.webm).
    """
    import cv2
    import numpy as np

    w, h = size
    n = max(1, round(duration_s * fps))
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*fourcc), fps, (w, h))
    if not writer.isOpened():
        raise OSError(f"cv2.VideoWriter cannot write {fourcc} to {path}")
    scale = max(0.3, h / 220)
    try:
        for i in range(n):
            frame = np.full((h, w, 3), (40, 30, 20), np.uint8)
            x = int((i % max(1, int(fps * 4))) / max(1, fps * 4) * w)
            frame[h - max(2, h // 12):, :x] = (0, 180, 255)  # a bar that sweeps every 4 s
            cv2.putText(frame, f"#{i}", (4, int(h * 0.4)), cv2.FONT_HERSHEY_SIMPLEX, scale,
                        (255, 255, 255), 1, cv2.LINE_AA)
            cv2.putText(frame, f"{i / fps:.2f}s", (4, int(h * 0.75)), cv2.FONT_HERSHEY_SIMPLEX,
                        scale, (200, 255, 200), 1, cv2.LINE_AA)
            writer.write(frame)
    finally:
        writer.release()
    return Path(path)
