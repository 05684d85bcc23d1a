"""Payload shapes for the bench and the engine tests: what the body of an event may look like.

Why: the verifier's speed against its floor depends on what the payloads hold, not only on
their size (an escape, a float, a member, a nesting level, a non-ASCII character each cost the
engine something per occurrence that the floor never pays). One realistic shape hides the
pathological ones, so the bench runs several, each deterministic from its seed:

* `plain`: English-like words in a few members (the historical bench corpus);
* `escape`: shell output (lines of `ls -l`, tables, compiler logs) full of `\\n` and `\\t`
  escapes, member names outside the BMP (UTF-16 order differs from code point order) and floats
  that are hard for RFC 8785 (17 significant digits, subnormals, 1e21, -0.0, 2^53);
* `unicode`: CJK, accented and emoji text (every character non-ASCII, some outside the BMP);
* `members`: many small members (counters, flags, short strings), in no particular order;
* `nested`: objects nested ~24 deep, members unsorted at each level;
* `ints`: long arrays of integers (pixel rows, RAM snapshots);
* `base64`: an observation carrying a base64 screenshot (one long string of `A-Za-z0-9+/`,
  no escape) beside a few small members, as a harness logs the frame it showed the model;
* `toolcall`: a chat model's turn as an OpenAI-style harness logs it: messages with tool calls
  whose `arguments` are JSON held in a string (an escaped `\"` every few bytes), tool
  results of shell output, usage counters and short ids.

Shapes added in session 9 (issue 15: "measured on shapes you have not seen"), each a payload
a harness plausibly logs and that costs the engine something the others do not:

* `numbers`: telemetry: microsecond timestamps (16 digits, below 2^53), random() floats (17
  significant digits), floats with exponents (`6.02e+23`, `1.5e-07`), small counters, in
  arrays and in unsorted objects;
* `cjkkeys`: member names in CJK, accented Latin and emoji (UTF-16 order differs from code
  point order for those outside the BMP), in unsorted objects, with CJK values;
* `tiny`: events of ~100 bytes of payload (a key press, a frame number): per-event costs;
* `detections`: an array of many small unsorted objects (object detections: label, box,
  score), the members-per-byte extreme of the tool-call shape.

Shapes added in session 11 (issue 15), again ones no bench had used:

* `deeparrays`: parse trees or tokenised text as arrays nested ~15 deep, of short strings and
  small integers (no object, no member to order: the per-value and per-level costs alone);
* `ansi`: coloured terminal output (a test runner's, a progress bar) in one long string: ANSI
  escape sequences (ESC is written `\\u001b`, RFC 8785's spelling) every ~20 bytes, quotes
  and Windows paths full of backslashes, tabs and newlines.
* `floatarray` (session 13): one long array of small rounded floats (an observation vector).
* `deepargs` (session 13): tool-call arguments as JSON objects nested 16-24 deep (a filter
  tree), not a string.

Shapes added in session 24 (issue 15), the per-member and per-float extremes of small objects:

* `gamestate`: game-state trees, objects nested 3-6 deep of 2-5 members with 1-2 letter names
  in random order, over small integers and booleans (no string value): the per-member cost,
  the member order seldom the same twice;
* `points`: agents' state as 5-member objects of unrounded floats (longitude, latitude,
  speed, heading: 14-17 significant digits), in no particular order: the shortest-spelling
  proof per float.

The shapes QA held out and the bench took up after (`html`, `boolgrid`, `nullsparse`,
`phpslashes`, `uuidmap`, `sqlrows`, `tuplelog`, `keymap`) are in `payload_heldout`.

`shaped_payload(shape, rng, size)` returns one payload dict of about `size` bytes once encoded
(`plain` is `trajectory_writer.make_run_events`' own mix of four event kinds).
"""

from __future__ import annotations

import base64
import json
import random

from moderator_app.core.samples.payload_heldout import HELD_OUT

SHAPES = ("plain", "escape", "unicode", "members", "nested", "ints", "base64", "toolcall",
          "numbers", "cjkkeys", "tiny", "detections", "deeparrays", "ansi", "floatarray",
          "deepargs", "html", "boolgrid", "gamestate", "points", "nullsparse", "phpslashes",
          "uuidmap", "sqlrows", "tuplelog", "keymap")

_WORDS = ("train", "loss", "python", "config", "step", "reward", "episode", "level", "move",
          "jump", "left", "right", "score", "frame", "policy", "value", "grad", "batch")
_FILES = ("train.py", "README.md", "config.yaml", "checkpoints", "logs", "policy.pt",
          "wandb", "setup.cfg", "requirements.txt", "eval_results.json")
# Member names outside the BMP sort differently in UTF-16 (RFC 8785) and in code points.
_NONBMP_KEYS = ("\U0001f600mood", "\U0001d11eclef", "\ue000private", "\uff5ewide",
                "\U0001f680launch", "zeta", "alpha")
# Floats whose RFC 8785 spelling needs care: 17 significant digits, a subnormal, the largest
# double, the 1e21 switch to exponent notation, -0.0, 2^53, 0.1 + 0.2.
_HARD_FLOATS = (0.30000000000000004, 5e-324, 1.7976931348623157e308, 1e21, 1e-7, -0.0,
                9007199254740992.0, 333333333.3333333, 2.2250738585072014e-308, 1e16,
                123456789012345680.0, 4.35, 0.1, 1.5e-5)
_CJK = "数据训练模型奖励步骤帧策略梯度批次游戏得分左右跳跃日本語の文章を書くテキスト"
_ACCENTED = "àéîõüçñßøåæœ"
_EMOJI = "\U0001f600\U0001f680\U0001f3ae\U0001f4be\u2764\U0001d11e"


def _words(rng: random.Random, k: int) -> str:
    out, size = [], 0
    while size < k:
        w = rng.choice(_WORDS)
        out.append(w)
        size += len(w) + 1
    return " ".join(out)


def _shell(rng: random.Random, k: int) -> str:
    """Terminal output: `ls -l` lines, tab-separated tables, compiler notes."""
    out: list[str] = []
    size = 0
    while size < k:
        kind = rng.randrange(3)
        if kind == 0:
            line = (f"-rw-r--r-- 1 agent agent {rng.randrange(10, 99999):>6} Jul 10 "
                    f"14:{rng.randrange(60):02d} {rng.choice(_FILES)}")
        elif kind == 1:
            line = "\t".join((f"step={rng.randrange(100000)}", f"loss={rng.random():.4f}",
                              f"reward={rng.randrange(-21, 22)}", rng.choice(_WORDS)))
        else:
            line = (f"  File \"/workspace/{rng.choice(_FILES)}\", line {rng.randrange(1, 400)}"
                    f"\n\t{rng.choice(_WORDS)} = \"{rng.choice(_WORDS)}\"\r")
        out.append(line)
        size += len(line) + 3
    return "\n".join(out) + "\n"


def _unicode(rng: random.Random, k: int) -> str:
    alphabet = _CJK * 4 + _ACCENTED + _EMOJI + " "
    return "".join(rng.choice(alphabet) for _ in range(k // 3))


def _escape_payload(rng: random.Random, size: int) -> dict:
    payload: dict = {"stdout": _shell(rng, size - 260), "exit_code": rng.choice((0, 0, 1, 2)),
                     "stderr": "warning:\tdeprecated\n" * rng.randrange(1, 4)}
    metrics = {rng.choice(_NONBMP_KEYS): rng.choice(_HARD_FLOATS) for _ in range(4)}
    metrics["\U0001f600mood"] = rng.choice(_HARD_FLOATS)
    metrics["\uff5ewide"] = rng.random()
    payload["metrics"] = metrics
    return payload


def _members_payload(rng: random.Random, size: int) -> dict:
    payload: dict = {}
    while len(payload) * 17.6 < size:
        i = len(payload)
        kind = i % 4
        name = f"{rng.choice(_WORDS)}_{rng.randrange(1000)}"
        payload[name] = (rng.randrange(1000) if kind == 0 else rng.random() < 0.5 if kind == 1
                         else rng.choice(_WORDS) if kind == 2 else None)
    return payload


def _nested_payload(rng: random.Random, size: int, depth: int = 24) -> dict:
    leaf: dict = {"text": _words(rng, max(40, size - depth * 32)), "n": rng.randrange(100)}
    for level in range(depth):
        leaf = {"zz": level, "child": leaf, "aa": rng.choice(_WORDS)}  # unsorted
    return leaf


def _ints_payload(rng: random.Random, size: int) -> dict:
    row = [rng.randrange(0, 256) if rng.random() < 0.8 else rng.randrange(-10**12, 10**12)
           for _ in range(size * 10 // 57)]
    return {"ram": row, "frame": rng.randrange(100000)}


def _base64_payload(rng: random.Random, size: int) -> dict:
    raw = rng.randbytes(max(3, (size - 120) * 3 // 4))
    return {"frame": rng.randrange(10**6), "screenshot": {
        "mime": "image/png", "width": 160, "height": 210,
        "data": base64.b64encode(raw).decode()}, "step": rng.randrange(10**5)}


def _toolcall_payload(rng: random.Random, size: int) -> dict:
    messages: list[dict] = []
    used = 0
    call = 0
    while used < size - 200:
        call += 1
        cmd = rng.choice(("ls -la", "cat config.yaml", "python train.py --steps 100",
                          "grep -n loss logs/run.txt", "git status"))
        args = json.dumps({"command": cmd, "cwd": f"/workspace/{rng.choice(_FILES)}",
                           "timeout": rng.randrange(5, 120)})
        output = _shell(rng, rng.randrange(60, 260))
        messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"call_{rng.getrandbits(48):012x}", "type": "function",
             "function": {"name": "bash", "arguments": args}}]})
        messages.append({"role": "tool", "tool_call_id": f"call_{call}", "content": output})
        used += len(args) + len(output) + 240
    return {"model": "provider/model-id", "messages": messages,
            "usage": {"prompt_tokens": rng.randrange(500, 9000),
                      "completion_tokens": rng.randrange(20, 300)}}


def _numbers_payload(rng: random.Random, size: int) -> dict:
    t_us = 1_752_156_000_000_000 + rng.randrange(10**12)  # 16 digits, below 2^53
    samples: list[dict] = []
    used = 0
    while used < size - 120:
        t_us += rng.randrange(1, 50_000)
        samples.append({"t_us": t_us, "v": rng.random(), "dv": rng.uniform(-1e-6, 1e-6),
                        "n": rng.randrange(100000), "scale": rng.choice((6.02e23, 1.5e-07,
                                                                          1e21, 0.1, 2.5))})
        used += 108
    return {"sensor": "imu", "samples": samples,
            "pos": [rng.uniform(-1e3, 1e3) for _ in range(3)], "seq_us": t_us}


_CJK_KEYS = ("名前", "得分", "帧", "动作", "状态", "奖励", "日本語", "clé", "größe", "😀",
             "🎮ゲーム", "～幅", "zeta", "Ärger")


def _cjkkeys_payload(rng: random.Random, size: int) -> dict:
    items: list[dict] = []
    used = 0
    while used < size - 60:
        keys = rng.sample(_CJK_KEYS, 4)
        items.append({keys[0]: _unicode(rng, 30), keys[1]: rng.randrange(1000),
                      keys[2]: rng.choice(_CJK[:20]), keys[3]: rng.random() < 0.5})
        used += 90
    return {"状态": items, "回合": rng.randrange(10000), "😀": "ok"}


def _detections_payload(rng: random.Random, size: int) -> dict:
    dets: list[dict] = []
    used = 0
    while used < size - 60:
        x, y = rng.randrange(160), rng.randrange(210)
        dets.append({"label": rng.choice(("ball", "paddle", "brick", "enemy", "player")),
                     "score": round(rng.random(), 3), "box": [x, y, x + rng.randrange(1, 16),
                                                              y + rng.randrange(1, 16)],
                     "id": rng.randrange(1000)})
        used += 70
    return {"frame": rng.randrange(10**6), "detections": dets, "model": "yolo-tiny"}


_TOKENS = ("NP", "VP", "the", "a", "of", "DT", "NN", "x", "(", ")", "+", "=", "if", "ok",
           "jump", "left", "VBZ", "S", 0, 1, 7, 42)


def _deeparrays_payload(rng: random.Random, size: int) -> dict:
    def node(depth: int) -> list:
        if depth == 0:
            return [rng.choice(_TOKENS) for _ in range(rng.randrange(1, 4))]
        kids: list = [rng.choice(_TOKENS)] if rng.random() < 0.5 else []
        kids.append(node(depth - 1))
        if rng.random() < 0.25:  # ~1.25^15 = 28 leaves a tree
            kids.append(node(depth - 1))
        return kids

    trees: list = []
    used = 0
    while used < size - 40:
        tree = node(15)
        trees.append(tree)
        used += len(json.dumps(tree, separators=(",", ":")))
    return {"parse": trees, "n": len(trees)}


_ESC = "\x1b"


def _ansi(rng: random.Random, k: int) -> str:
    """Coloured terminal output: a test runner's lines, tracebacks with Windows paths, a
    progress bar redrawn in place."""
    green, red, bold, dim, reset = (f"{_ESC}[32m", f"{_ESC}[31m", f"{_ESC}[1m", f"{_ESC}[2m",
                                    f"{_ESC}[0m")
    out: list[str] = []
    size = 0
    while size < k:
        kind = rng.randrange(4)
        w, n = rng.choice(_WORDS), rng.randrange(1, 400)
        if kind == 0:
            line = (f"{green}PASSED{reset} tests/test_{w}.py::test_{rng.choice(_WORDS)}[{n}] "
                    f"{dim}({rng.random():.2f}s){reset}")
        elif kind == 1:
            line = f'  File "C:\\Users\\agent\\{rng.choice(_FILES)}", line {n}, in {w}'
        elif kind == 2:
            line = f'{red}{bold}E{reset}   assert {{"{w}": {n}}} == {{"{w}": "{w}"}}\t# {w}'
        else:
            i = rng.randrange(21)
            line = f"{_ESC}[2K\r[{'#' * i}{'.' * (20 - i)}] {i * 5}%"
        out.append(line)
        size += len(line) + 1
    return "\n".join(out) + "\n"


def _floatarray_payload(rng: random.Random, size: int) -> dict:
    """An observation vector: one long array of small floats (4-6 significant digits, as an
    agent rounds them, a share of them tiny or negative), each spelled shortest by RFC 8785."""
    n = max(1, (size - 40) // 9)
    vals = [round(rng.gauss(0.0, 0.3), rng.choice((3, 4, 5))) if rng.random() < 0.9 else
            rng.choice((1e-05, -2.5e-06, 0.0, 1.0, -0.125)) for _ in range(n)]
    return {"obs": vals, "dim": n}


_ARG_KEYS = ("path", "query", "options", "filter", "range", "items", "op", "args", "where",
             "value")


def _deepargs_payload(rng: random.Random, size: int) -> dict:
    """A tool call whose arguments are JSON objects (not a string) nested 16-24 deep: a query
    builder's filter tree, each level a few short members beside the next level."""
    def level(depth: int) -> dict:
        node: dict = {"op": rng.choice(("and", "or", "not", "eq", "in")),
                      rng.choice(_ARG_KEYS): rng.choice((_words(rng, 2), rng.randrange(999),
                                                         rng.random() < 0.5, None))}
        if depth:
            node["args"] = [level(depth - 1)] + ([level(0)] if rng.random() < 0.2 else [])
        return node

    calls: list[dict] = []
    used = 0
    while used < size - 80:
        args = level(rng.randrange(16, 25))
        calls.append({"id": f"call_{rng.randrange(10**6)}", "name": "search",
                      "arguments": args})
        used += len(json.dumps(args, separators=(",", ":"))) + 40
    return {"tool_calls": calls}


def _gamestate_payload(rng: random.Random, size: int) -> dict:
    def node(depth: int) -> dict:
        out: dict = {}
        for _ in range(rng.randint(2, 5)):
            key = rng.choice("abcdefghijklmnopqrstuvwxyz") + (
                rng.choice("xyzqk") if rng.random() < 0.4 else "")
            if depth > 0 and rng.random() < 0.45:
                out[key] = node(depth - 1)
            else:
                out[key] = rng.choice((rng.randrange(-50, 300), rng.random() < 0.5,
                                       rng.randrange(10)))
        return out

    states: list[dict] = []
    used = 0
    while used < size - 200:
        state = node(rng.randint(3, 6))
        states.append(state)
        used += len(json.dumps(state, separators=(",", ":")))
    return {"s": states}


def _points_payload(rng: random.Random, size: int) -> dict:
    agents: list[dict] = []
    used = 0
    while used < size - 100:
        heading = rng.uniform(0, 360)
        agents.append({"lon": rng.uniform(-180, 180), "lat": rng.uniform(-90, 90),
                       "speed": rng.expovariate(0.1),
                       "heading": heading if rng.random() < 0.7 else round(heading, 1),
                       "k": rng.randrange(50)})
        used += 100
    return {"agents": agents, "tick": rng.randrange(10**6)}



def shaped_payload(shape: str, rng: random.Random, size: int) -> dict:
    """One observation-like payload of about `size` bytes in `shape` (see `SHAPES`; not
    `plain`)."""
    if shape == "escape":
        return _escape_payload(rng, size)
    if shape == "unicode":
        return {"text": _unicode(rng, size), "lang": rng.choice(("zh", "ja", "fr"))}
    if shape == "members":
        return _members_payload(rng, size)
    if shape == "nested":
        return _nested_payload(rng, size)
    if shape == "ints":
        return _ints_payload(rng, size)
    if shape == "base64":
        return _base64_payload(rng, size)
    if shape == "toolcall":
        return _toolcall_payload(rng, size)
    if shape == "numbers":
        return _numbers_payload(rng, size)
    if shape == "cjkkeys":
        return _cjkkeys_payload(rng, size)
    if shape == "tiny":
        return {"key": rng.choice(("LEFT", "RIGHT", "FIRE", "NOOP")), "frame": rng.randrange(10**6),
                "held_ms": rng.randrange(16, 400)}
    if shape == "detections":
        return _detections_payload(rng, size)
    if shape == "deeparrays":
        return _deeparrays_payload(rng, size)
    if shape == "ansi":
        return {"cmd": "pytest -q", "stdout": _ansi(rng, (size - 60) * 4 // 5),
                "exit_code": rng.choice((0, 0, 1))}
    if shape == "floatarray":
        return _floatarray_payload(rng, size)
    if shape == "deepargs":
        return _deepargs_payload(rng, size)
    if shape == "gamestate":
        return _gamestate_payload(rng, size)
    if shape == "points":
        return _points_payload(rng, size)
    held_out = HELD_OUT.get(shape)
    if held_out is not None:
        return held_out(rng, size)
    raise ValueError(f"unknown payload shape {shape!r}; one of {', '.join(SHAPES)}")

