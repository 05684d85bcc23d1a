"""The public (withheld) version of an agent log, by the seed's withholding rules.

Only what the format lists as public is published (an allow-list, PUBLIC_DATA): the envelope
(`seq`, `at`, `elapsedMs`, `type`, `data`), `model_request` data as `{"withheld": true}`, a
`model_response`'s `id`, `model`, `usage` (its numbers only) and `actions`, and the named
members of the other types (an observation is public whatever its shape). Any other member, at the top level or in
`data`, is dropped. A line with nothing to drop is copied byte for byte, and `seq` is
untouched, so the public log verifies like the original. An unknown event type is refused.

A line that cannot be parsed is refused (WithholdError names it) rather than copied: unknown
bytes could be a prompt, and a withholding tool must not publish what it cannot read. For the
same reason a line whose public part holds something that looks like a secret (an API key, a
private key block, a bearer token: the trajectory's `secret.suspect` patterns; a JSON web
token, a URL's password, a value named like a secret, any of these in base64) is refused,
naming its line, what it looks like and a redacted excerpt, never the secret: the public file
is what gets posted, and an action's arguments or an observation are public as written. The output
is written to a temporary file beside the target and renamed over it only when complete, so a
failure never leaves a half-withheld file that looks finished.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import orjson

from moderator_app.core.atomic import atomic_writer
from moderator_app.core.formats.jsonline import LineError, parse_line
from moderator_app.core.formats.secrets import (
    may_hold_public_secret,
    numbered_parts,
    numbered_parts_in,
    scan_public,
    unescape_json,
)
from moderator_app.core.formats.streams import BlankRun, iter_lines
from moderator_app.core.text import terminal_safe_json

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


@dataclass(frozen=True, slots=True)
class WithholdStats:
    lines: int
    requests_withheld: int
    responses_stripped: int


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


def withhold_log(src: str | os.PathLike, dst: str | os.PathLike) -> WithholdStats:
    """Write the public version of `src` to `dst` atomically. Raises WithholdError for a line
    that cannot be parsed, OSError when a file cannot be read or written."""
    src, dst = Path(src), Path(dst)
    if src.exists() and not src.is_file():  # /dev/zero would be read forever
        raise OSError(f"{src}: not a regular file")
    if dst.exists() and src.exists() and os.path.samefile(src, dst):
        raise WithholdError("the output must be another file than the input")
    lines = requests = responses = 0
    pending: list[tuple[int, bytes]] = []  # public lines not yet looked at for secrets
    outs: list[bytes] = []  # public lines not yet written (a write and an escape a block)
    size = 0
    with open(src, "rb") as fin, atomic_writer(dst) as fout:
        def flush() -> None:
            if outs:
                # every line parsed or was written by orjson: valid UTF-8, so escaping the
                # block at once escapes each line as it would alone
                fout.write(terminal_safe_json(b"\n".join(outs)) + b"\n")
                outs.clear()

        def queued(out: bytes) -> None:
            """`out` to be written; once a block's worth waits, its lines are looked at for
            secrets (a refusal comes before the atomic rename: nothing is written) and
            written."""
            nonlocal size
            outs.append(out)
            if size >= _BLOCK:
                _refuse_secrets_in(pending)
                pending.clear()
                size = 0
                flush()

        def take(run: bytes, n: int) -> None:
            """`n` lines public as they are (`_PublicRuns`), joined by newlines."""
            nonlocal lines, size
            first = lines + 1
            lines += n
            if b"\\" in run:  # (an escaped newline, decoded, would shift the line numbers)
                for i, one in enumerate(run.split(b"\n")):
                    seen = one if b"\\" not in one else unescape_json(one)
                    pending.append((first + i, seen))
                    size += len(seen)
            else:
                pending.append((first, run))
                size += len(run)
            queued(run)

        for _, raw in iter_lines(fin, blank_runs=True, skim=_PublicRuns(take)):
            if type(raw) is BlankRun:  # blank lines hold nothing to withhold
                flush()
                lines += raw.count
                fout.write(raw.raw.replace(b"\r\n", b"\n"))
                continue
            lines += 1
            if raw is None:
                raise WithholdError(f"line {lines}: too long to read; nothing written")
            body = raw[:-1] if raw.endswith(b"\r") else raw
            if lines == 1 and body.startswith(b"\xef\xbb\xbf"):
                body = body[3:]
            if body[:1] <= b" " and not body.strip():  # (a copy of the line only then)
                # A blank line holds nothing to withhold: copied as is, so that a log that
                # verifies (a trailing blank line is only a warning) can be withheld.
                flush()
                fout.write(body + b"\n")
                continue
            try:
                ev = _parse(body)
            except (TypeError, ValueError, RecursionError):
                ev = LineError("json", "JSON nested too deeply to be checked")
            if isinstance(ev, LineError):
                raise WithholdError(f"line {lines}: {ev.message}; nothing written")
            try:
                public = withhold_event(ev)
            except WithholdError as exc:
                raise WithholdError(f"line {lines}: {exc}; nothing written") from None
            if public is None:
                out = body
            else:
                if ev.get("type") == "model_request":
                    requests += 1
                else:
                    responses += 1
                try:
                    out = orjson.dumps(public)
                except TypeError as exc:  # nested deeper than orjson writes
                    raise WithholdError(f"line {lines}: cannot be rewritten ({exc}); "
                                        "nothing written") from exc
            # a secret spelled with JSON escapes (`sk\u002d...`) is one once parsed: look at
            # the line with its \uXXXX and \/ escapes decoded
            seen = out if b"\\" not in out else unescape_json(out)
            pending.append((lines, seen))
            size += len(seen)
            queued(out)
        _refuse_secrets_in(pending)
        flush()
    return WithholdStats(lines, requests, responses)


_BLOCK = 1 << 20


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


def _refuse_secrets_in(pending: list[tuple[int, bytes]]) -> None:
    """`pending`: (the number of its first line, public lines joined by newlines). Lines are
    scanned one by one only when the block may hold something (`may_hold_public_secret`);
    a block that may hold only numbered parts of a named secret (`"key1": ...`) is asked
    only that, line by line."""
    if not pending:
        return
    block = b"\n".join(out for _, out in pending)
    if may_hold_public_secret(block):
        scan = scan_public
    elif numbered_parts_in(block):
        scan = numbered_parts
    else:
        return
    for line, out in pending:
        for i, one in enumerate(out.split(b"\n")):
            _refuse_secrets(one, line + i, scan)


# A run of lines public as they are is read at once (`_PublicRuns`): at least this many bytes,
# doubling while runs go on, up to a whole read (1 MiB); after a line to rewrite, the next
# try waits for more lines each time it fails, so that a log mixing requests and responses
# pays for few runs read in vain.
_RUN_MIN = 16 << 10
_RUN_MAX = 1 << 20


class _PublicRuns:
    """`iter_lines`' skim for `withhold_log`: consumes runs of lines that are public as they
    are (a type whose public part is flat, no member the format does not list, orjson's own
    spelling) with one orjson parse and one write of the whole run, and hands them to `take`.
    Any other line (one to rewrite, blank, with a BOM or CR, not parsed) is left to the
    line-by-line path, which words every refusal. A flood of short public lines cost ~4.3 us a
    line line by line (s26-hostile's open item 5; 256 MiB of them ran past 60 s at this
    machine's load)."""

    def __init__(self, take) -> None:
        self.take = take
        self.wait = 0
        self.fails = 0
        self.window = _RUN_MIN

    def __call__(self, data: bytes, start: int) -> int:
        if self.wait:
            self.wait -= 1
            return start
        end = data.rfind(b"\n", start, start + self.window)
        if end <= start:
            return start
        run = data[start:end]
        n = run.count(b"\n") + 1
        k = _public_prefix(run, n)
        if k == n:
            self.take(run, n)
            self.fails = 0
            self.window = min(self.window * 2, _RUN_MAX)
            return end + 1
        self.fails += 1
        self.window = _RUN_MIN
        self.wait = n - k + (16 << min(self.fails, 12))
        if not k:
            return start
        cut = -1
        for _ in range(k):
            cut = run.find(b"\n", cut + 1)
        self.take(run[:cut], k)
        return start + cut + 1


def _public_prefix(run: bytes, n: int) -> int:
    """How many of the `n` lines of `run` (at its start) are public as they are; 0 when the
    run cannot be read at once in orjson's spelling (a line is then left to `_parse`)."""
    joined = b"[" + run.replace(b"\n", b",") + b"]"
    try:
        events = orjson.loads(joined)
        if len(events) != n or orjson.dumps(events) != joined:
            return 0  # a line of two values, a repeated member, another spelling ...
    except (orjson.JSONDecodeError, TypeError):
        return 0
    for i, ev in enumerate(events):
        typ = ev.get("type") if type(ev) is dict else None
        if type(typ) is not str or typ not in _FLAT_PUBLIC:
            return i
        flat = _FLAT_PUBLIC[typ]
        data = ev.get("data")
        if type(data) is not dict or not ev.keys() <= _ENVELOPE_KEYS or (
                flat is not None and not data.keys() <= flat):
            return i
    return n


def _refuse_secrets(public: bytes, line: int, scan=scan_public) -> None:
    """Refuse to publish a line whose public bytes look like they hold a secret (the
    withheld members are gone already: a key in a prompt is no reason to refuse). The
    message gives the kind and a redacted excerpt (`secrets.SecretHit`), never the secret."""
    hit = scan(public)
    if hit is not None:
        raise WithholdError(
            f"line {line}: its public part holds what looks like a secret ({hit.label}: "
            f"{hit.excerpt}); "
            "remove it from the log and withhold again; nothing written")
