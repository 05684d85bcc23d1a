"""What `withhold` redacts rather than refuses, and `verify` notes rather than warns of: a key's
shape passed over inside base64 of binary data (`secrets_chance.in_binary_base64`).

Base64 of compressed data spells `AIza` + 35 key characters about once in 2 MB, so a log of
screenshots holds such runs by chance and must not be refused (QA s40 T7, QA s41 T6). But no
reading of the bytes tells that chance from a key glued between base64 characters on purpose
(review s41 R2: "Q"*64 + a Google key + "Q"*64 was published whole), so `withhold` publishes
the line with the match's characters replaced by `*`, one for each (the blob's others
untouched: a screenshot loses ~39 characters, never a key is published), and `verify` names
it in an info note, `secret.redacted` (session 42, redact; the lead's decision on R2)."""

from __future__ import annotations

import re
from bisect import bisect_right

from moderator_app.core.formats.secrets import _ESCAPE, SecretHit, _redact, _regex, _unescaped
from moderator_app.core.formats.secrets_chance import passing_over
from moderator_app.core.formats.secrets_public import scan_public

REDACTED = b"*"
# A key passed over in another reading of the line (a decoded view, escapes removed) is
# looked for in the line as written, at most this many distinct keys a line: one not found
# there is not written in it (its bytes are encoded), so nothing of it is published verbatim.
_ELSEWHERE = 64


def public_hit(seen: bytes) -> SecretHit | None:
    """`scan_public(seen)` (`seen`: a line's public part as `withhold` reads it, escapes
    decoded), or, when that names nothing but passed over key shapes written in the line, a
    hit whose `redact` holds their places in `seen` (in order), labelled and excerpted by the
    first: `withhold`'s and `verify`'s one test of a line, so that the two agree."""
    with passing_over() as passed:
        hit = scan_public(seen)
    if hit is not None or not passed:
        return hit
    spans: set[tuple[int, int]] = set()
    labels: dict[tuple[int, int], str] = {}
    other: dict[bytes, str] = {}
    for raw, start, end, label in passed:
        if raw is seen:
            spans.add((start, end))
            labels.setdefault((start, end), label)
        elif len(other) < _ELSEWHERE:
            other.setdefault(raw[start:end], label)
    for key, label in other.items():
        at = seen.find(key)
        if at < 0 and b"\\" in seen:
            for piece in _over_breaks(seen, key):
                spans.add(piece)
                labels.setdefault(piece, label)
        while at >= 0:
            spans.add((at, at + len(key)))
            labels.setdefault((at, at + len(key)), label)
            at = seen.find(key, at + 1)
    if not spans:
        return None
    ordered = tuple(sorted(spans))
    start, end = ordered[0]
    return SecretHit(labels[ordered[0]] or "key", start + 1, _redact(seen[start:end]),
                     redact=ordered)


# A key passed over in the view with a wrapping's escaped breaks removed (`secrets._rejoined`:
# a shape across a 64-column `\n` of base64 of binary data, QA s43 h43_16, e_pem64) is written
# in the line in pieces: each piece is starred, the breaks kept.
_BREAK = re.compile(rb"(?:\\+[rn])+")  # (doubled or deeper in JSON inside JSON: session 47)


def _over_breaks(seen: bytes, key: bytes) -> list[tuple[int, int]]:
    """The places of `key`'s pieces in `seen` where it is written cut by escaped line breaks
    (its first such writing), or []."""
    m = re.compile(rb"(?:\\+[rn])*".join(re.escape(key[i:i + 1]) for i in range(len(key))))
    found = m.search(seen)
    if found is None:
        return []
    pieces, at = [], found.start()
    for brk in _BREAK.finditer(seen, found.start(), found.end()):
        pieces.append((at, brk.start()))
        at = brk.end()
    pieces.append((at, found.end()))
    return [(a, b) for a, b in pieces if b > a]


def redacted(out: bytes, spans: tuple[tuple[int, int], ...]) -> bytes:
    """`out` (a public line as written) with the characters at `spans` (places in its reading
    with JSON's `\\uXXXX` and `\\/` escapes decoded, `secrets.unescape_json`, as `public_hit`
    gives them) replaced by `*`, one for each character read; an escape inside a key (`\\/`,
    `\\u0041`) is replaced with the character it stands for. A key's characters are ASCII
    letters, digits and `+/-_`, each one byte read, so a place maps to one escape or byte."""
    buf = bytearray(out)
    if b"\\" not in out:
        for start, end in spans:
            buf[start:end] = REDACTED * (end - start)
        return bytes(buf)
    # the escapes of the line: where each starts and ends as written, where its reading starts
    starts: list[int] = []
    units: list[tuple[int, int, int]] = []
    read = 0  # (the reading's length up to the last escape's end)
    written = 0
    for m in _regex(_ESCAPE).finditer(out):
        read += m.start() - written
        starts.append(read)
        width = len(_unescaped(m))
        units.append((m.start(), m.end(), width))
        read += width
        written = m.end()

    def unit(at: int) -> tuple[int, int]:
        """Where the byte read at `at` is written: (start, end) in `out`."""
        i = bisect_right(starts, at) - 1
        if i < 0:
            return at, at + 1
        begin, stop, width = units[i]
        if at < starts[i] + width:
            return begin, stop
        at = stop + at - starts[i] - width
        return at, at + 1

    for start, end in sorted(spans, reverse=True):
        begin, stop = unit(start)[0], unit(end - 1)[1]
        buf[begin:stop] = REDACTED * (end - start)
    return bytes(buf)


def redact_lines(outs: list[tuple[int, bytes]],
                 marks: dict[int, tuple[tuple[int, int], ...]]) -> None:
    """`withhold`'s lines waiting to be written ((the number of the first, lines joined by
    newlines) or (0, blank lines)) with those named in `marks` (line number -> places in its
    escapes-decoded reading) redacted, in place (`redacted`)."""
    for k, (first, out) in enumerate(outs):
        last = first + out.count(b"\n") if first else 0
        here = [n for n in marks if first <= n <= last]
        if here:
            parts = out.split(b"\n")
            for n in here:
                parts[n - first] = redacted(parts[n - first], marks[n])
            outs[k] = (first, b"\n".join(parts))
