"""Helpers shared by the agent-log tests: the seed document's example run as events, and
verifying a log given as events or raw lines."""

from __future__ import annotations

import copy

import orjson

from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths

T = "2026-10-22T18:"


def ev(seq, at, el, typ, data):
    return {"seq": seq, "at": T + at, "elapsedMs": el, "type": typ, "data": data}


BASE = [
    ev(0, "00:00.000Z", 0, "run_start", {
        "game": "tetris-gb", "category": "any-percent", "model": "provider/model-id",
        "scaffold": {"name": "my-agent", "version": "1.2.0",
                     "url": "https://github.com/example/my-agent"}}),
    ev(1, "00:00.120Z", 120, "model_request", {
        "messages": [{"role": "system", "content": "You play Tetris."},
                     {"role": "user", "content": "Board: empty. Next piece: T."}]}),
    ev(2, "00:02.480Z", 2480, "model_response", {
        "id": "c1", "model": "provider/model-id", "usage": {"input": 812, "output": 64},
        "text": "Rotate and drop.", "actions": [{"name": "press", "args": {"button": "A"}}]}),
    ev(3, "00:02.500Z", 2500, "action", {"call": "c1", "name": "press",
                                          "args": {"button": "A"}}),
    ev(4, "00:02.700Z", 2700, "observation", {"summary": "piece locked"}),
    ev(5, "00:05.000Z", 5000, "run_end", {"reason": "goal reached"}),
]


def base():
    return copy.deepcopy(BASE)


def renumber(events):
    for i, e in enumerate(events):
        e["seq"] = i
    return events


def run(tmp_path, lines, **opts):
    """Verify a log given as events (dicts) or raw lines (bytes); return the report."""
    path = tmp_path / "agent-log.jsonl"
    out = b"".join((x if isinstance(x, bytes) else orjson.dumps(x)) + b"\n" for x in lines)
    path.write_bytes(out)
    return verify_paths([path], VerifyOptions(probe_video=False, **opts)).report
