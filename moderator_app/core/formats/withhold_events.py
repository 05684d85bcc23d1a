"""The public form of one agent-log event, by the format's allow-list (moved out of `withhold`,
session 43, redact: that module was 602 lines): `withhold_log` writes it and `verify`'s gate
(`withhold_gate`) asks the same part of each line, so that the two read one public part."""

from __future__ import annotations

import orjson

from moderator_app.core.formats.jsonline import LineError, parse_line
from moderator_app.core.formats.secrets import unescape_json

# What the format (shared/seeds/agent-log-format.md) lists as public, and nothing else: an
# allow-list, so that a prompt put anywhere the format does not name (a top-level `prompt`
# beside `data`, a `system` member inside a response) is never published.
ENVELOPE = ("seq", "at", "elapsedMs", "type")
PUBLIC_DATA: dict[str, tuple[str, ...] | None] = {
    "run_start": ("game", "category", "model", "scaffold"),
    "model_response": ("id", "model", "usage", "actions"),
    "action": ("call", "name", "args"),
    "observation": None,  # "any shape: what the agent saw" - public as a whole
    "error": ("message",),
    "run_end": ("reason",),
}
SCAFFOLD_KEEP = ("name", "version", "url")
ACTION_KEEP = ("name", "args")
RESPONSE_KEEP = PUBLIC_DATA["model_response"]


class WithholdError(ValueError):
    """The log cannot be withheld safely; the message names the line."""


def _only(d: dict, keep: tuple[str, ...]) -> dict:
    return {k: d[k] for k in keep if k in d}


def _counts(value: object, depth: int = 0) -> object | None:
    """`usage` is token counts: only its numbers are published (and objects of numbers, as
    `{"input_tokens_details": {"cached": 5}}`), never a string or a list, which could carry
    the very prompt being withheld. None when nothing of it is a count."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    if isinstance(value, dict) and depth < 4:
        kept = {k: c for k, v in value.items() if (c := _counts(v, depth + 1)) is not None}
        return kept if kept or not value else None
    return None


# Types whose public part is the envelope and named members of `data`, nothing nested: an
# event of one of them with no other member is public as it is, told by two key-set tests
# (a flood of short lines spent ~1 us each building and comparing its public copy).
_FLAT_PUBLIC: dict[str, frozenset[str] | None] = {
    typ: None if keep is None else frozenset(keep) for typ, keep in PUBLIC_DATA.items()
    if typ not in ("run_start", "model_response")}  # (observation: any data is public)
_ENVELOPE_KEYS = frozenset((*ENVELOPE, "data"))


def withhold_event(ev: dict) -> dict | None:
    """The public form of one event, or None when the event is public as it is. Raises
    WithholdError for an event whose public part the format does not define (an unknown
    type, `data` that is not an object)."""
    typ = ev.get("type")
    if type(typ) is str and typ in _FLAT_PUBLIC:
        flat = _FLAT_PUBLIC[typ]
        given = ev.get("data")
        if type(given) is dict and ev.keys() <= _ENVELOPE_KEYS and (
                flat is None or given.keys() <= flat):
            return None
    if typ == "model_request":
        data: object = {"withheld": True}
    elif isinstance(typ, str) and typ in PUBLIC_DATA:
        data = ev.get("data")
        if not isinstance(data, dict):
            raise WithholdError(f"a {typ} event whose data is not an object")
        keep = PUBLIC_DATA[typ]
        if keep is not None:
            data = _only(data, keep)
        if typ == "run_start" and isinstance(data.get("scaffold"), dict):
            data["scaffold"] = _only(data["scaffold"], SCAFFOLD_KEEP)
        if typ == "model_response" and "usage" in data:
            usage = _counts(data["usage"])
            if usage is None:
                del data["usage"]
            else:
                data["usage"] = usage
        if typ == "model_response" and isinstance(data.get("actions"), list):
            data["actions"] = [_only(a, ACTION_KEEP) if isinstance(a, dict) else a
                               for a in data["actions"]]
    else:
        raise WithholdError(f"unknown event type {str(typ)[:80]!r}: what of it is public is "
                            "not defined")
    public = _only(ev, ENVELOPE)
    public["data"] = data
    return None if public == ev else public


def _parse(body: bytes) -> dict | LineError:
    """`parse_line`, with its usual case first: a line orjson reads and writes back as it is
    (then no member is repeated) costs one loads and one dumps, without the calls around."""
    try:
        obj = orjson.loads(body)
    except orjson.JSONDecodeError:
        return parse_line(body)  # (its words for the error)
    try:
        if type(obj) is dict and orjson.dumps(obj) == body:
            return obj
    except TypeError:  # nested deeper than orjson writes: parse_line words it
        pass
    return parse_line(body)


def public_seen(raw: bytes) -> bytes:
    """A line's public part as `withhold` looks at it (escapes decoded), or the line as
    written when it is no event `withhold` could publish."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        ev = _parse(raw)
    except (TypeError, ValueError, RecursionError):
        ev = None
    public = None
    if isinstance(ev, dict):
        try:
            got = withhold_event(ev)
        except WithholdError:
            got = None  # (an unknown type: asked as written)
        try:
            public = raw if got is None else orjson.dumps(got)
        except TypeError:  # nested deeper than orjson writes
            public = None
    seen = raw if public is None else public
    return seen if b"\\" not in seen else unescape_json(seen)
