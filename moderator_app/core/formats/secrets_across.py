"""A key of any family glued into a wrapped blob across its escaped line break (session 47,
redact; issue 15, review s46 R2's escaped-wrap set, QA s46 T4).

A tool that prints base64 inside JSON wraps it (`chunk_split`'s `\\r\\n` every 76, PEM's `\\n`
every 64; escaped again in JSON inside JSON: `\\\\r\\\\n`, deeper). A key glued into such a blob
(a letter before it: the families' look-behinds never hold) and cut by a break was published
whole: each piece is shorter than the family's pattern, the glued rules read a line as
written, and `secrets._rejoined` joins only a key its pattern may start (43 of 288 of the
reviewer's cells, h46_07's `xai-`). Here the breaks inside a family prefix's run (its key
characters up to the break, the next line's after it) are removed, and that view is read by
every key rule as the line is (`secrets_public.scan_public`): a key there in base64 of binary
data is recorded by `in_binary_base64` in the view and starred in the line piece by piece
(`secrets_redact.public_hit`, the breaks kept); elsewhere it is named."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from moderator_app.core.formats.secrets import markers_of
from moderator_app.core.formats.secrets_chance import _BREAK_AT
from moderator_app.core.formats.secrets_glued import FAMILY_MARKERS, glued_sources
from moderator_app.core.formats.secrets_read import FAMILIES

#: Every family's prefix (`secrets_read.FAMILIES`, the glued families' `FAMILY_MARKERS`).
PREFIXES = tuple(dict.fromkeys((*(m for m, _, _ in FAMILIES), *FAMILY_MARKERS)))
# ... looked for 16 a SIMD pass: the 62 in one pass cost ~70 us a 16 KB line of a
# screenshot's base64 (its short prefixes fill the pass' buckets), 4 passes ~6 us
_CHUNKS = tuple(PREFIXES[i:i + 16] for i in range(0, len(PREFIXES), 16))
# (a key's characters: a family's random part, its `_` / `-` / `.` frame)
_KEY_RUN = re.compile(rb"[A-Za-z0-9_\-.]*")
_KEY_CHAR = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.")
# A key read on past this many characters after its prefix, or over more breaks, is none
# (the longest pattern's part: OpenAI's `sk-proj-` + 156, a 64-column wrapping's 3 lines)
_REACH = 256
_CUTS = 4


@dataclass(frozen=True)
class Across:
    """The line read across the breaks that cut family keys: `view` (the line without
    `cuts`, (start, end) in the line, in order) and `shapes`, each key shape read there
    (label, start, end in `view`)."""

    view: bytes
    cuts: tuple[tuple[int, int], ...]
    shapes: tuple[tuple[str, int, int], ...]


def across_breaks(raw: bytes) -> Across | None:
    """`raw` read with each escaped line break that cuts a family key's shape removed (above),
    or None when none does. Linear: a `find` a prefix (SIMD passes find those the line
    holds), a bounded match a run, a family's patterns over 256 characters where a run
    crosses a break."""
    if b"\\n" not in raw:
        return None  # (one break is enough: a terminal's wrap of a long line, a 2-row blob)
    present = [marker for chunk in _CHUNKS for marker in markers_of(raw, chunk)]
    cuts: set[tuple[int, int]] = set()
    spans: list[tuple[str, int, int]] = []  # (label, start, end: from the prefix, breaks out)
    at: list[int] = []
    for marker in present:
        i = raw.find(marker)
        while i >= 0:
            found = _breaks_in_run(raw, marker, i)
            shape = _shaped(raw, marker, i, found) if found else None
            if shape is not None:
                cuts.update(found)
                spans.append(shape)
                at.append(i)
            i = raw.find(marker, i + 1)
    if not cuts:
        return None
    ordered = tuple(sorted(cuts))
    out, stop = bytearray(), 0
    for start, end in ordered:
        out += raw[stop:start]
        stop = end
    out += raw[stop:]

    def in_view(k: int) -> int:
        return k - sum(end - start for start, end in ordered if end <= k)

    shapes = tuple((label, in_view(i) + a, in_view(i) + b)
                   for i, (label, a, b) in zip(at, spans, strict=True))
    return Across(bytes(out), ordered, shapes)


def _breaks_in_run(raw: bytes, marker: bytes, i: int) -> list[tuple[int, int]]:
    """The escaped breaks inside the run of key characters after the prefix at `i` (each
    followed by a key character), at most `_CUTS` within `_REACH`."""
    found: list[tuple[int, int]] = []
    pos = i + len(marker)
    while len(found) < _CUTS and pos < i + _REACH:
        pos = _KEY_RUN.match(raw, pos, i + _REACH).end()  # type: ignore[union-attr]
        brk = _BREAK_AT.match(raw, pos) if raw[pos:pos + 1] == b"\\" else None
        if brk is None or brk.end() >= len(raw) or raw[brk.end()] not in _KEY_CHAR:
            break
        found.append((brk.start(), brk.end()))
        pos = brk.end()
    return found


def _shaped(raw: bytes, marker: bytes, at: int, found: list[tuple[int, int]]
            ) -> tuple[str, int, int] | None:
    """The key shape a family of `marker` reads at `at` once the breaks `found` are removed,
    running on past the first of them (its pattern with its look-behind and look-ahead left
    out: the key is glued), as (label, start, end) from `at` with the breaks out; or None.
    A chance prefix in a wrapped blob of binary data reads none but where its family's
    characters follow it (`sq0`, `shp`, `eyJ` ... need a `-`, `_` or `.` that standard
    base64 never spells): the line is read again only where a key may be."""
    head = raw[max(0, at - _HEAD):at]  # (`[0-9]{8,10}:AA`, `[rs]k_test_`: before the prefix)
    joined, stop = bytearray(head), at
    for start, end in found:
        joined += raw[stop:start]
        stop = end
    cut = len(head) + found[0][0] - at  # (the first break: a key must run on past it)
    joined += raw[stop:stop + _REACH]
    for shape, label in _shapes(marker):
        m = shape.search(joined)
        if m is not None and m.start() <= len(head) and m.end() > cut:
            return label, m.start() - len(head), m.end() - len(head)
    return None


_HEAD = 12


@functools.cache
def _shapes(marker: bytes) -> tuple[tuple[re.Pattern[bytes], str], ...]:
    """A prefix's family patterns and labels (`secrets_read.FAMILIES`, the glued families'),
    their look-around at either end left out; compiled on first use (a process compiling
    all 70 paid ~40 ms: a prefix is asked only where its run crosses a break)."""
    sources = [(source, label) for m, label, source in FAMILIES if m == marker]
    sources += [(source, label) for m, label, source in glued_sources() if m == marker]
    return tuple((re.compile(_LOOK.sub(b"", source)), label) for source, label in sources)


_LOOK = re.compile(rb"\A\(\?<?[!=][^)]*\)|\(\?[!=][^)]*\)\Z")


def column_in_line(column: int, cuts: tuple[tuple[int, int], ...]) -> int:
    """A 1-based column of the view `across_breaks` gives (0: none) as a column of the line."""
    at = column - 1
    for start, end in cuts:
        if start > at or not column:
            break
        at += end - start
    return at + 1 if column else 0
