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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import orjson

from moderator_app.core.atomic import atomic_writer
from moderator_app.core.formats.jsonline import LineError
from moderator_app.core.formats.secrets import SecretHit, unescape_json
from moderator_app.core.formats.secrets_inflate import Allowance, reading_file
from moderator_app.core.formats.secrets_parts import numbered_parts, numbered_parts_in
from moderator_app.core.formats.secrets_public import may_hold_public_secret
from moderator_app.core.formats.secrets_redact import public_hit, redact_lines
from moderator_app.core.formats.secrets_split import SplitWatch, may_open
from moderator_app.core.formats.streams import BlankRun, iter_lines
from moderator_app.core.formats.withhold_events import (
    _ENVELOPE_KEYS,
    _FLAT_PUBLIC,
    PUBLIC_DATA,
    WithholdError,
    _parse,
    withhold_event,
)
from moderator_app.core.formats.withhold_gate import VERIFY_GATE, public_secret_hits
from moderator_app.core.text import terminal_safe_json

# (the event's public form and verify's gate live in `withhold_events` and `withhold_gate`;
# named here too, where their callers have always imported them)
__all__ = ["PUBLIC_DATA", "VERIFY_GATE", "WithholdError", "WithholdStats", "public_secret_hits",
           "withhold_event", "withhold_log"]


@dataclass(frozen=True, slots=True)
class WithholdStats:
    lines: int
    requests_withheld: int
    responses_stripped: int
    redacted: tuple[int, ...] = ()  # lines whose key shapes in base64 data were redacted


_BLOCK = 1 << 20


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
    inflate = Allowance()  # (the file's streams inflate out of one allowance, as verify's)
    with open(src, "rb") as fin, atomic_writer(dst) as fout, reading_file(inflate):
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
