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
is what gets posted, and an action's arguments or an observation are public as written. A key's
shape inside base64 of binary data is no refusal: its characters are published as `*`
(`secrets_redact`; `verify`'s `secret.redacted` note). The output is written to a temporary
file beside the target and renamed over it only when complete, so a failure never leaves a
half-withheld file that looks finished.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import orjson

from moderator_app.core.atomic import atomic_writer
from moderator_app.core.formats.jsonline import LineError, parse_line
from moderator_app.core.formats.secrets import MARKERS, SecretHit, markers_of, unescape_json
from moderator_app.core.formats.secrets_decode import encoded_gates, encoded_spots
from moderator_app.core.formats.secrets_parts import numbered_parts, numbered_parts_in
from moderator_app.core.formats.secrets_public import (
    has_format,
    may_hold_public_secret,
    named_value_near,
    reader_spots,
)
from moderator_app.core.formats.secrets_redact import public_hit, redact_lines
from moderator_app.core.formats.secrets_split import SplitWatch, may_open, split_hits
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
    redacted: tuple[int, ...] = ()  # lines whose key shapes in base64 data were redacted


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
    watch = SplitWatch()  # a key split over consecutive events (`secrets_split`)
    # not yet written (a write and an escape a block): (its first line's number, public lines)
    # or (0, blank lines); written once looked at, so that a key shape is redacted first
    outs: list[tuple[int, bytes]] = []
    redacted_lines: list[int] = []
    size = 0
    with open(src, "rb") as fin, atomic_writer(dst) as fout:
        def flush() -> None:
            """Looks at the pending lines (a refusal comes before the atomic rename: nothing
            is written) and writes what waits, redacted."""
            nonlocal size
            marks = _refuse_secrets_in(pending, watch)  # (line -> places to redact)
            pending.clear()
            size = 0
            if marks:
                redacted_lines.extend(sorted(marks))
                redact_lines(outs, marks)
            group: list[bytes] = []
            for first, out in (*outs, (0, b"")):
                if first:
                    group.append(out)
                    continue
                if group:  # (each line parsed or was written by orjson: valid UTF-8, so
                    # escaping the block at once escapes each line as it would alone)
                    fout.write(terminal_safe_json(b"\n".join(group)) + b"\n")
                    group.clear()
                fout.write(out)
            outs.clear()

        def queued(first: int, out: bytes) -> None:
            """`out` (its first line, or 0: blank lines) waits; a block's worth is flushed."""
            outs.append((first, out))
            if size >= _BLOCK:
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
            queued(first, run)

        for _, raw in iter_lines(fin, blank_runs=True, skim=_PublicRuns(take)):
            if type(raw) is BlankRun:  # blank lines hold nothing to withhold
                lines += raw.count
                size += len(raw.raw)
                queued(0, raw.raw.replace(b"\r\n", b"\n"))
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
                size += len(body)
                queued(0, body + b"\n")
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
            queued(lines, out)
        flush()
    return WithholdStats(lines, requests, responses, tuple(redacted_lines))


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


def _refuse_secrets_in(pending: list[tuple[int, bytes]], watch: SplitWatch | None = None
                       ) -> dict[int, tuple[tuple[int, int], ...]]:
    """`pending`: (the number of its first line, public lines joined by newlines); returns
    the lines to publish redacted (`_refuse_secrets`). Lines are scanned one by one only when the block may hold something (`may_hold_public_secret`);
    a block that may hold only numbered parts of a named secret (`"key1": ...`) is asked
    only that, line by line. `watch` joins the ends of consecutive events
    (`secrets_split`): fed the lines that may open a chain, and every line while one is open;
    its finding names the first part's line."""
    marks: dict[int, tuple[tuple[int, int], ...]] = {}
    if not pending:
        return marks
    block = b"\n".join(out for _, out in pending)
    scan: Callable[[bytes], SecretHit | None] | None
    if may_hold_public_secret(block):
        scan = public_hit
    elif numbered_parts_in(block):
        scan = numbered_parts
    else:
        scan = None
    present = watch.wants(block) if watch is not None else None
    if scan is None and present is None:
        return marks
    for line, out in pending:
        for i, one in enumerate(out.split(b"\n")):
            if scan is not None:
                spans = _refuse_secrets(one, line + i, scan)
                if spans:
                    marks[line + i] = spans
            if watch is not None and present is not None \
                    and (watch.open or may_open(one, present)):
                split = watch.feed(line + i, one, present)
                if split is not None:
                    raise WithholdError(
                        f"line {split[0]}: its public part holds what looks like the start of "
                        f"a secret ({split[1].label}: {split[1].excerpt}) once "
                        f"{split[1].how}; remove it from the log and withhold again; "
                        "nothing written")
    return marks


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


def _refuse_secrets(public: bytes, line: int,
                    scan=public_hit) -> tuple[tuple[int, int], ...]:
    """Refuse to publish a line whose public bytes look like they hold a secret (the
    withheld members are gone already: a key in a prompt is no reason to refuse). The
    message gives the kind and a redacted excerpt (`secrets.SecretHit`), never the secret;
    the places of key shapes inside base64 data to redact are returned (`public_hit`)."""
    hit = scan(public)
    if hit is not None and hit.redact:
        return hit.redact
    if hit is not None:
        raise WithholdError(
            f"line {line}: its public part holds what looks like a secret ({hit.label}: "
            f"{hit.excerpt}); "
            "remove it from the log and withhold again; nothing written")
    return ()


# `verify` on a community log (`secret.suspect`) asks each line's public part what `withhold`
# asks it (`scan_public`, one engine: QA s30 T9 had `withhold` refuse a Slack token that
# `verify` never named), on the lines two C passes over the block point at: a secrets marker
# (`MARKERS`), or a piece of a word naming a secret in its usual spellings (`secret`,
# `SECRET`, `password`, `api_key`, `apiKey`, `API-KEY`, `access_key`, `accessKey`, `auth_token`,
# `private_key`, `privateKey` ...), a JSON web token's `eyJ`, a numbered part's `1":"`. The
# pieces are ordered so that each SIMD bucket holds one piece's case variants (lower, UPPER,
# then camel or kebab: a piece every 8th), which costs ~0.16 ns a byte where the 55 markers in
# one call cost 7. A URL's password and a secret in base64 are refused by `withhold` but not
# looked for by `verify`: `://` and a run of 24 base64 characters are in most blocks of an
# honest log, and each line they point at costs a parse.
_NAMED_PIECES = (b"ecret", b"assw", b"pi_k", b"ss_k", b"te_k", b"h_to", b"pike", b"sske",
                 b"ECRET", b"ASSW", b"PI_K", b"SS_K", b"TE_K", b"H_TO", b"PIKE", b"SSKE",
                 b"eyJh", b"eyJ0", b"pi-k", b"ss-k", b"te-k", b"hTok", b"piKe", b"cessK",
                 b"teKe", b"eyJr")
_PART_PIECES = (b'1":"', b'1": "', b'arts":', b'unks":', b'eces":', b'ents":')
# A model_request in the writer's own spelling: its public part is the envelope alone, so a
# marker in a base64 screenshot or a prompt costs no parse of the (40 KB) line. Anchored at
# the line's start, where no nested member can be.
_REQUEST = re.compile(rb'\{"seq":[0-9]{1,19},"at":"[^"\\]{0,64}","elapsedMs":[0-9.eE+\-]{1,32},'
                      rb'"type":"model_request","data":')
VERIFY_GATE = _NAMED_PIECES + _PART_PIECES


def public_secret_hits(data: bytes, first: int, lo: int = 0, hi: int | None = None,
                       watch: SplitWatch | None = None) -> list[tuple[int, SecretHit]]:
    """(line number, hit) of each line of `data[lo:hi]` (whole lines joined by newlines, the
    first numbered `first`) whose public part `withhold` would refuse to publish, in line
    order. A line that cannot be parsed is asked as written (`withhold` refuses it whole).
    Looked at in chunks of whole lines (`_CHUNK`), a chunk's lines one by one only when the
    chunk holds a marker, without copies but of a line asked, and newlines counted only up to
    a hit: a base64 screenshot holds a marker every few 100 KB, and a substring search for
    each cost ~1 ns a byte. `watch` (the file's, kept between calls) joins the ends of
    consecutive events (`secrets_split.split_hits`)."""
    hi = len(data) if hi is None else hi
    view = memoryview(data)
    present = markers_of(view[lo:hi], MARKERS) + markers_of(view[lo:hi], VERIFY_GATE)
    formats = has_format(view[lo:hi])
    out: list[tuple[int, SecretHit]] = []
    line, at, pos = first, lo, lo
    while pos < hi:
        end = data.find(b"\n", pos + _CHUNK, hi)
        end = hi if end < 0 else end
        here = markers_of(view[pos:end], present) if present else ()
        if here and all(m in _WORDS for m in here) and not named_value_near(view[pos:end]):
            here = ()  # (words naming a secret, none followed by `=` or `:`: one C pass)
        # the lines the reader's view (`secrets_read`) may find a key in, whatever their
        # markers: their starts
        reads = _line_starts(data, pos, _reader_spots(data, view, pos, end, formats))
        starts = iter(reads) if not here else None
        start = pos if here else next(starts, end)  # type: ignore[arg-type]
        while start < end:
            stop = data.find(b"\n", start, end)
            stop = end if stop < 0 else stop
            if _REQUEST.match(data, start, stop) is None:  # (a request: no parse)
                found = markers_of(view[start:stop], here) if here else ()
                read = start in reads
                raw = data[start:stop] if found or read else b""
                if (found and _worth_asking(found, raw)) or read:
                    hit = _public_hit(raw[:-1] if raw.endswith(b"\r") else raw)
                    if hit is not None:
                        line += data.count(b"\n", at, start)
                        at = start
                        out.append((line, hit))
            start = stop + 1 if starts is None else next(starts, end)
        pos = end + 1
    if watch is not None:
        split = split_hits(watch, data, first, lo, hi, _split_public,
                           _segments(data, lo, hi, _SPLIT_REQUEST), present)
        if split:
            out = sorted(out + split, key=lambda x: x[0])
    return out


def _split_public(raw: bytes) -> bytes | None:
    """A line's public part for `split_hits` (None for a model request: its public part is
    the envelope, no part of a key)."""
    if _REQUEST.match(raw) is not None:
        return None
    return _public_seen(raw[:-1] if raw.endswith(b"\r") else raw)


_REQUEST_TYPE = b'"type":"model_request","data":'
# (split_hits' ranges leave out requests of 16 KiB or more only: a range costs four SIMD
# calls, and a log of 2 KB requests cut into thousands of ranges doubled verify's time)
_SPLIT_REQUEST = 16 << 10


def _reader_spots(data: bytes, view: memoryview, pos: int, end: int,
                  formats: bool) -> list[int]:
    """`reader_spots` and `encoded_spots` of `data[pos:end]`, the model requests of 1 KB or
    more left out (`_segments`)."""
    spots: list[int] = []
    encoded: list[int] = []  # (percent or character escapes: `secrets_decode.encoded_spots`)
    # (the gates `encoded_spots` asks, asked once: a spaced hex dump has no marker,
    # `secrets_bytes`; a chunk holding `%` asks them in `encoded_spots` only)
    gates = None if data.find(b"%", pos, end) >= 0 else encoded_gates(view[pos:end])
    escapes = gates is None or gates.open
    for at, stop in _segments(data, pos, end):
        spots += [at - pos + k for k in reader_spots(view[at:stop], formats)]
        if escapes:  # (asked a chunk at once: a log of 2 KB requests has thousands of ranges)
            whole = gates if (at, stop) == (pos, end) else None
            encoded += [at - pos + k for k in encoded_spots(data, at, stop, whole)]
    return sorted(spots + encoded) if encoded else spots


def _segments(data: bytes, pos: int, end: int,
              least: int = 1024) -> list[tuple[int, int]]:
    """The ranges of `data[pos:end]` without its model requests of `least` bytes or more
    (their public part is the envelope; a request carrying a base64 screenshot made the gate's
    passes ~40 % of `verify`'s time on such a log). Looked for until the first shorter request
    (a log of short requests pays one search a chunk)."""
    out: list[tuple[int, int]] = []
    at = pos
    i = data.find(_REQUEST_TYPE, pos, end)
    while i >= 0:
        start = data.rfind(b"\n", pos, i) + 1 or pos
        stop = data.find(b"\n", i, end)
        stop = end if stop < 0 else stop
        if stop - start < least:
            break
        if _REQUEST.match(data, start, stop) is not None:
            if start > at:
                out.append((at, start))
            at = stop
        i = data.find(_REQUEST_TYPE, stop, end)
    if at < end:
        out.append((at, end))
    return out


def _line_starts(data: bytes, lo: int, spots: list[int]) -> dict[int, None]:
    """The start of the line holding each of `spots` (offsets from `lo`, in order), once.
    Linear: a spot inside the line found last is skipped, and a line's start is looked for
    back to the end of that line only (a 5 MB line of 43,000 hex runs looked back over the
    whole line for each: 1.9 s)."""
    out: dict[int, None] = {}
    floor, stop = lo, -1
    for at in spots:
        at += lo
        if at <= stop:
            continue
        start = data.rfind(b"\n", floor, at) + 1 or floor
        out[start] = None
        stop = data.find(b"\n", at)
        if stop < 0:
            break
        floor = stop + 1
    return out


_CHUNK = 1 << 16
_WORDS = frozenset(_NAMED_PIECES) - {b"eyJh", b"eyJ0", b"eyJr"}


def _worth_asking(found: tuple[bytes, ...], raw: bytes) -> bool:
    """Whether a line whose `found` markers the gate saw may hold what `withhold` refuses, so
    that it is worth parsing (~20 us): a secrets marker or a token's `eyJ` always; numbered
    parts when their names end in a stem word (`numbered_parts_in`: `"x1":"left"` is no part
    of a named secret) and, in a line with no escape, the parts are read in it as written; a
    word naming a secret when it is followed by `=` or `:` (`named_value_near`). Session 31's
    review: lines of honest text naming a secret door, a password prompt, or numbered
    `key_partN` members too short for a key were each parsed (verify of 400,000 lines: 2.1 s
    -> 7.9 and 10.9 s)."""
    words = parts = False
    for m in found:
        if m in _WORDS:
            words = True
        elif m in _PART_PIECES:
            parts = True
        else:
            return True
    if parts and numbered_parts_in(raw) and (b"\\" in raw or numbered_parts(raw) is not None):
        return True
    return words and named_value_near(raw)


def _public_hit(raw: bytes) -> SecretHit | None:
    """`withhold`'s test of one line's public part (`_refuse_secrets`), or of the line as
    written when it is no event `withhold` could publish."""
    return public_hit(_public_seen(raw))


def _public_seen(raw: bytes) -> bytes:
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
