"""One line a moderator reads for each event, instead of its raw JSON.

`press B`, `c3 · provider/model-id · 856→65 tokens · 2 actions`, `withheld`, the observation's
summary: the table's Content column shows this, the detail pane keeps the raw line. Pure
functions over the parsed line (Qt-free in spirit: no Qt import), so they are tested directly.
Every string comes from the submission: callers show it as plain text only.
"""

from __future__ import annotations

from typing import Any

import orjson

from moderator_app.core.text import counted, safe_text

MAX_CHARS = 200
# A line longer than this is shown as its raw text, never parsed and serialised again in the
# window's process: `orjson.dumps` reserves its worst-case output (about 13 bytes of address
# space per character) without checking the mapping, so under an address-space limit the
# row of a 300,000-member line crashed the workstation (SIGSEGV, issue 15). 1 MiB of line
# costs at most ~13 MiB there; a moderator reads 200 characters of it in the table.
RAW_ABOVE = 1 << 20


def _short(value: Any, limit: int = 60) -> str:
    if isinstance(value, str):
        text = value
    else:
        try:
            text = orjson.dumps(value).decode("utf-8")
        except (TypeError, orjson.JSONEncodeError):
            try:
                text = repr(value)
            except RecursionError:  # 1,000 to 1,024 levels: orjson read it, repr cannot
                text = f"({type(value).__name__} nested too deep to show)"
    text = " ".join(text.split())  # newlines and runs of spaces: one line
    return text if len(text) <= limit else text[: limit - 1] + "…"


def action_text(name: Any, args: Any) -> str:
    """`press B`; `move x=3 y=4`; `reset` (no args)."""
    head = _short(name, 40) if name is not None else "?"
    if args is None or args == {}:
        return head
    if isinstance(args, dict):
        if len(args) == 1:
            return f"{head} {_short(next(iter(args.values())), 40)}"
        return head + " " + " ".join(f"{_short(k, 20)}={_short(v, 30)}"
                                     for k, v in list(args.items())[:6])
    return f"{head} {_short(args, 60)}"


def _tokens(usage: Any) -> str | None:
    if not isinstance(usage, dict):
        return None
    i = usage.get("input", usage.get("input_tokens", usage.get("prompt_tokens")))
    o = usage.get("output", usage.get("output_tokens", usage.get("completion_tokens")))
    if isinstance(i, int) and isinstance(o, int):
        return f"{i}→{o} tokens"
    return None


def community_text(kind: str, data: Any) -> str:
    if not isinstance(data, dict):
        return _short(data, MAX_CHARS)
    if kind == "action":
        return action_text(data.get("name"), data.get("args"))
    if kind == "model_response":
        parts = [_short(data.get("id", "?"), 24), _short(data.get("model", "?"), 48)]
        tokens = _tokens(data.get("usage"))
        if tokens:
            parts.append(tokens)
        actions = data.get("actions")
        if isinstance(actions, list):
            parts.append(counted(len(actions), "action") + (
                ": " + ", ".join(action_text(a.get("name"), a.get("args"))
                                 for a in actions[:4] if isinstance(a, dict))
                if actions else ""))
        if "text" not in data and "reasoning" not in data:
            parts.append("text withheld")
        return " · ".join(parts)
    if kind == "model_request":
        if data.get("withheld") is True:
            return "withheld"
        messages = data.get("messages")
        if isinstance(messages, list) and messages:
            last = messages[-1]
            content = last.get("content") if isinstance(last, dict) else last
            return f"{counted(len(messages), 'message')} · {_short(content, 120)}"
        return _short(data, MAX_CHARS)
    if kind == "observation":
        summary = data.get("summary")
        return _short(summary if summary is not None else data, MAX_CHARS)
    if kind == "run_start":
        scaffold = data.get("scaffold")
        sc = ""
        if isinstance(scaffold, dict):
            sc = " ".join(_short(scaffold.get(k), 30) for k in ("name", "version")
                          if scaffold.get(k) is not None)
        return " · ".join(p for p in (_short(data.get("game", "?"), 40),
                                      _short(data.get("category", "?"), 30),
                                      _short(data.get("model", "?"), 48), sc) if p)
    if kind == "run_end":
        return _short(data.get("reason", data), MAX_CHARS)
    if kind == "error":
        return _short(data.get("message", data), MAX_CHARS)
    return _short(data, MAX_CHARS)


def official_text(kind: str, payload: Any) -> str:
    if not isinstance(payload, dict):
        return _short(payload, MAX_CHARS)
    if kind == "tool_call":
        return f"{_short(payload.get('tool', '?'), 30)}: {_short(payload.get('command', ''), 120)}"
    if kind == "model_message":
        tin, tout = payload.get("tokens_in"), payload.get("tokens_out")
        tokens = f"{tin}→{tout} tokens · " if isinstance(tin, int) and isinstance(tout, int) \
            else ""
        return tokens + _short(payload.get("text", ""), 120)
    if kind == "http_request":
        return " ".join(_short(payload.get(k, ""), 80) for k in ("method", "url", "status"))
    if kind == "observation" and "exit_code" in payload:
        return f"exit {payload.get('exit_code')} · {_short(payload.get('stdout', ''), 120)}"
    if kind == "eval_result":
        return f"score {_short(payload.get('score'))} · {_short(payload.get('episodes'))} episodes"
    if kind == "seed_commitment":
        return f"episode {_short(payload.get('episode'))} · " \
               f"{_short(payload.get('seed_commitment', ''), 20)}"
    if kind == "run_start":
        return " · ".join(_short(payload.get(k, "?"), 40) for k in ("game", "model"))
    if kind == "run_end":
        return _short(payload.get("status", payload), MAX_CHARS)
    return _short(payload, MAX_CHARS)


def event_text(raw: bytes, official: bool, size: int | None = None) -> str:
    """The one-line text for a raw log line; the raw line itself when it is not an object.
    Control and bidi characters in it are escapes (`safe_text`), as on every output path.
    `size`: the whole line's, when `raw` is only its start (`text_of_row`)."""
    return safe_text(_event_text(raw, official, len(raw) if size is None else size))


def text_of_row(index, row: int, official: bool) -> str:
    """`event_text` of an index row, reading only the start of a row above `RAW_ABOVE`
    bytes (shown raw from its start anyway): a run of 640 MiB of blank lines is one row,
    and reading it whole for its text took the window to 749 MB (session 25)."""
    size = index.lengths[row]
    if size > RAW_ABOVE:
        return event_text(index.read_prefix(row, 4 * MAX_CHARS), official, size)
    return event_text(index.read_raw(row), official)


def raw_head(raw: bytes, limit: int, size: int | None = None) -> str:
    """The start of a long line as text, with its size (`size`, else its own): what the
    table and the detail pane show of a line above `RAW_ABOVE` bytes."""
    size = len(raw) if size is None else size
    return f"[{size / (1 << 20):.1f} MiB line, shown raw] " + \
        raw[: 4 * limit].decode("utf-8", "replace")


def _event_text(raw: bytes, official: bool, size: int) -> str:
    if size > RAW_ABOVE:
        return _short(raw_head(raw, MAX_CHARS, size), MAX_CHARS)
    try:
        obj = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return _short(raw.decode("utf-8", "replace"), MAX_CHARS)
    if not isinstance(obj, dict):
        return _short(obj, MAX_CHARS)
    kind = obj.get("type")
    kind = kind if isinstance(kind, str) else ""
    if official:
        return official_text(kind, obj.get("payload"))
    return community_text(kind, obj.get("data"))
