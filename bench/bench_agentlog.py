"""Community-log verification speed against its floor, timed in the same run (issue 15).

Generates once into .bench/ deterministic agent logs of four shapes and times, on each:

* the floor: read the file, SHA-256 every byte and `orjson.loads` every line, on one core (in
  this process): the least any verifier that parses the log and binds its bytes must do;
* `moderator-app verify --json` on it (a subprocess; its peak RSS from wait4).

Shapes (`--shape`, default all):

* `histories`: the realistic log of the issue, 1,000,000 events, ~468 MB: every model_request
  carries the conversation so far (a system prompt and the last turns, with newlines, quotes
  and non-ASCII text), responses carry text, reasoning, usage and their actions, then the
  actions and an observation;
* `screenshots`: the same run with a base64 PNG screenshot in each request (~40 KB lines);
* `actions`: short requests, each response asking for ten small actions (`press A`): most
  lines are actions, checked against their response;
* `tiny`: short requests and responses, one action each: every line is small, a quarter are
  responses;
* `cjk`: the `histories` run with its conversation in Chinese and Japanese with emoji (every
  character of the text non-ASCII, some outside the BMP) and a longer history (the last ten
  turns), as a model prompted in those languages logs it.

Target: verify <= 2x the floor on each shape, peak RSS flat (the same at 100 MB and 468 MB:
`--events 214000` gives the 100 MB log). Each timing is the best of `--repeat` runs, the floor
and verify interleaved (a shared machine's noise only ever adds time).
Usage: python bench/bench_agentlog.py [--shape S] [--events N | --scale F] [--regen] [--repeat N]
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import random
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import EXE, ROOT, compile_tree, timed  # noqa: E402

_WORDS = ("the", "piece", "board", "row", "left", "right", "rotate", "drop", "hold", "line",
          "score", "level", "gap", "column", "next", "T", "L", "I", "é", "→", "stack", "clear")
_BUTTONS = ("A", "B", "LEFT", "RIGHT", "UP", "DOWN", "START")
_OBS = ("piece locked", "line cleared", "menu opened", "level 2", "score 1200",
        "piece rotated", "next piece: T")
_SYSTEM = ("You are playing Tetris on a Game Boy emulator.\nUse the tools to press buttons. "
           "Think step by step; answer with \"press\" calls only.\nRules: …")
_CJK_WORDS = ("方块", "旋转", "左移", "右移", "下落", "消除", "得分", "关卡", "下一个", "ブロック",
              "回転", "ライン", "スコア", "次", "\U0001f3ae", "\u2b07\ufe0f", "\U0001f600", "。",
              "、", "「はい」")
DEFAULT_EVENTS = {"histories": 1_000_000, "screenshots": 20_000, "actions": 1_000_000,
                  "tiny": 1_000_000, "cjk": 1_000_000}
# Per shape: how many actions a response asks for (low, high); whether requests are short.
_ACTIONS = {"histories": (1, 2), "screenshots": (1, 2), "actions": (10, 10), "tiny": (1, 1),
            "cjk": (1, 2)}
_HISTORY = {"cjk": 10}  # turns a request carries (else 6)
_SHORT_REQUESTS = {"actions", "tiny"}


def _text(rng: random.Random, n_words: int, vocabulary: tuple[str, ...] = _WORDS) -> str:
    words = rng.choices(vocabulary, k=n_words)
    for i in range(0, n_words, 9):
        words[i] += rng.choice((".\n", ",", " \"ok\"", ":\t"))
    return " ".join(words)


def generate(path: Path, events: int, shape: str, seed: int = 15) -> None:
    """Write a valid agent log of `events` lines in `shape` (deterministic for a seed)."""
    import orjson

    rng = random.Random(seed)
    t0 = datetime(2026, 10, 22, 18, tzinfo=timezone.utc)
    history: list[dict] = []
    shot = shape == "screenshots"
    lo, hi = _ACTIONS[shape]
    short = shape in _SHORT_REQUESTS
    vocabulary = _CJK_WORDS if shape == "cjk" else _WORDS
    keep = _HISTORY.get(shape, 6)
    el = seq = call = 0
    started = time.perf_counter()
    with open(path, "wb") as fh:
        def emit(typ: str, data: dict) -> None:
            nonlocal seq
            dt = t0 + timedelta(milliseconds=el + (rng.randint(-3, 3) if seq else 0))
            at = dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"
            fh.write(orjson.dumps({"seq": seq, "at": at, "elapsedMs": el, "type": typ,
                                   "data": data}) + b"\n")
            seq += 1

        emit("run_start", {"game": "tetris-gb", "category": "any-percent",
                           "model": "provider/model-id",
                           "scaffold": {"name": "bench-agent", "version": "2.0.1"}})
        while seq < events - 1:
            if events - 1 - seq < 3 + hi:  # no room for a whole turn: observations
                el += rng.randint(100, 400)
                emit("observation", {"summary": rng.choice(_OBS)})
                continue
            call += 1
            el += rng.randint(100, 300)
            user: dict = {"role": "user", "content": f"Step {call}. Board:\n"
                          + _text(rng, rng.randint(28, 50), vocabulary)}
            if shot:
                png = base64.b64encode(rng.randbytes(rng.randint(24_000, 36_000))).decode()
                user = {"role": "user", "content": [
                    {"type": "text", "text": user["content"]},
                    {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                                 "data": png}}]}
            history.append(user)
            del history[:-keep]
            if short:
                emit("model_request", {"messages": [user]})
            else:
                emit("model_request", {"messages": [{"role": "system", "content": _SYSTEM},
                                                    *history], "temperature": 0.7,
                                       "max_tokens": 1024})
            el += rng.randint(800, 3000)
            acts = [{"name": "press", "args": {"button": rng.choice(_BUTTONS)}}
                    for _ in range(rng.randint(lo, hi))]
            text = _text(rng, rng.randint(6, 14), vocabulary)
            if short:
                emit("model_response", {"id": f"c{call}", "model": "provider/model-id",
                                        "actions": acts})
            else:
                emit("model_response", {"id": f"c{call}", "model": "provider/model-id",
                                        "usage": {"input": rng.randint(500, 9000),
                                                  "output": rng.randint(20, 300)},
                                        "text": text,
                                        "reasoning": _text(rng, rng.randint(8, 20),
                                                           vocabulary),
                                        "actions": acts})
            history.append({"role": "assistant", "content": text})
            if shot:  # old screenshots are dropped from the history, as scaffolds do
                history[:] = [h if isinstance(h["content"], str) else
                              {"role": "user", "content": h["content"][0]["text"]}
                              for h in history[:-2]] + history[-2:]
            for a in acts:
                el += rng.randint(20, 50)
                emit("action", {"call": f"c{call}", **a})
            el += rng.randint(100, 300)
            emit("observation", {"summary": rng.choice(_OBS), "frame": rng.randint(0, 10**6)})
        el += rng.randint(200, 900)
        emit("run_end", {"reason": "goal reached"})
    print(f"generated {events} events ({shape}), {path.stat().st_size / 1e6:.0f} MB in "
          f"{time.perf_counter() - started:.1f} s -> {path}", flush=True)


def floor(path: Path) -> tuple[float, int, float]:
    """(seconds, bytes, CPU seconds): SHA-256 of every byte and orjson.loads of every line,
    one core."""
    import orjson

    loads = orjson.loads
    t = time.perf_counter()
    cpu = time.process_time()
    sha = hashlib.sha256()
    total = 0
    pending = b""
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            sha.update(chunk)
            total += len(chunk)
            lines = (pending + chunk).split(b"\n")
            pending = lines.pop()
            for line in lines:
                loads(line)
    if pending:
        loads(pending)
    return time.perf_counter() - t, total, time.process_time() - cpu


def bench_shape(shape: str, events: int, repeat: int, regen: bool) -> tuple[bool, str]:
    import orjson

    bench = ROOT / ".bench" / f"agentlog-{shape}-{events}"
    bench.mkdir(parents=True, exist_ok=True)
    path = bench / "agent-log.jsonl"
    if regen or not path.exists():
        generate(path, events, shape)
    floor(path)  # warm the page cache
    floors, verifies, cpus = [], [], []
    rss = 0.0
    for _ in range(repeat):
        floors.append(floor(path))
        t, r, rc, out, c = timed([str(EXE), "verify", "--json", str(path)])
        verifies.append(t)
        cpus.append(c)
        rss = max(rss, r)
    t_floor, total, _ = min(floors)
    c_floor = min(c for _, _, c in floors)
    t_verify = min(verifies)
    c_verify = min(cpus)
    rep = orjson.loads(out)
    log_findings = [f for f in rep.get("findings", []) if f.get("rule", "").startswith("log.")]
    ratio = t_verify / t_floor
    print(f"[{shape}] {total / 1e6:.0f} MB, {events} events\n"
          f"  floor (sha256 + orjson.loads per line, 1 core): {t_floor:.2f} s "
          f"(runs: {', '.join(f'{t:.2f}' for t, _, _ in floors)}), CPU {c_floor:.2f} s\n"
          f"  moderator-app verify --json: {t_verify:.2f} s (runs: "
          f"{', '.join(f'{t:.2f}' for t in verifies)}), CPU {c_verify:.2f} s, peak RSS {rss:.0f} MiB, exit {rc}, "
          f"events {rep.get('events')}, log.* findings {len(log_findings)}", flush=True)
    ok = ratio <= 2.0 and rep.get("events") == events and not log_findings
    return ok, (f"{shape} verify/floor = {ratio:.2f}x wall, {c_verify / c_floor:.2f}x CPU "
                f"(target <= 2x), peak {rss:.0f} MiB")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--shape", choices=sorted(DEFAULT_EVENTS), action="append")
    ap.add_argument("--events", type=int, help="events per log (default: per shape)")
    ap.add_argument("--scale", type=float, default=1.0,
                    help="each shape's default events times this (0.2: 200,000 events of "
                         "histories, 4,000 of screenshots; the shapes are the same)")
    ap.add_argument("--regen", action="store_true")
    ap.add_argument("--repeat", type=int, default=3, help="runs of the floor and of verify")
    args, _ = ap.parse_known_args()  # bench/run.py passes its arguments to every bench
    compile_tree()
    from moderator_app.core.formats import native

    print(f"engine: {'C accelerator' if native.JCS else 'pure Python (no C accelerator)'}; "
          f"best of {args.repeat} runs each, floor and verify interleaved", flush=True)
    results = [bench_shape(s, args.events or int(DEFAULT_EVENTS[s] * args.scale), args.repeat,
                           args.regen)
               for s in args.shape or sorted(DEFAULT_EVENTS)]
    for _, line in results:
        print("RESULT " + line)
    ok = all(r for r, _ in results)
    print("PASS" if ok else "MISSED A TARGET")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
