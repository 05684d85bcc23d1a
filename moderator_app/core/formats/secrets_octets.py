"""A secret printed as an octal byte dump: the view `withhold` and `verify` read with `od -b`'s
numbers decoded (session 38, views; issue 15, QA s37 T5 h37_01).

`od -b ~/.sentryclirc.token` prints each byte of the file as three octal digits, 16 a row
after the row's offset:

    0000000 163 156 164 162 171 163 137 121 101 063 067 157 144 117 143 164
    0000020 141 154 104 165 155 160 060 141 102 061 143 104 062 145 106 063

The key is there to anyone who reads a number a character, but no detector reads it: each
byte is a number between spaces, and `od -c`'s view (`secrets_chars`) reads characters. A cell
is a space and three octal digits of a byte (000-377; `[0-3][0-7][0-7]`, no word character or
`.` after it). A dump (`DUMP`) is 4+ cells in a row after a space, then rows of 1+ cells after
a line break (real, or escaped as a JSON line writes it) and an offset (`od`'s 7 octal digits,
`-Ax`'s 6 hex, `-Ad`'s 7 decimal, `hexdump -b`'s 7 hex) or none (`-An`): any `-w` width of 4
or more, `od -t o1` alike; `hexdump -b`'s padded last row, `od -t o1z`'s `  >text<` column and
od's `*` (rows the same as the one before, not printed: read as no row) end a row too.

What a dump decodes to (8+ bytes) is read **alone**, as `od -c`'s and decimal lists are: text
(`secrets_decode.is_text`) for the families and the patterns, bytes by the byte patterns and
their printable stretches (`secrets_bytes._printable`) as text. What tells an honest dump (a
text file, a binary file's header, a table of three-digit numbers) apart is so what it holds:
no family's key. File modes (`0755`: four digits), IP-like numbers (dots between) and
Windows paths (`\\100`: a backslash before) are no cells.

Gated (`octets_in`): a space before `0`-`3` (one SIMD pass), then one `translate` of the
block (an octal digit `o`, a space kept, anything else `x`) and a search for 4 cells in a row;
a regex only there. Bounded: the pattern is
linear (fixed cells, possessive repeats, no nesting); a dump is decoded by one regex pass over
its row breaks, a `translate` and numpy's arithmetic on its digits, three a byte.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from moderator_app.core.formats.secrets import markers_of

OCTETS = "its od -b octal byte dump is decoded"

# a row's cells: no test a cell (a lookahead after each cost ~40 % of the pattern), one after
# the row's last (`_ROW_END`): a row ending inside a number or a word is no row
_CELLS = rb"(?: [0-3][0-7][0-7])"
# a row's end: `hexdump -b`'s padding, `od -t o1z`'s text column, a line break (escaped as a
# JSON line writes it, or real in a decoded text), od's `*` row, the next row's offset
_NL = rb"(?:(?:\\r)?\\n|\r?\n)"
_BREAK = (rb" {0,256}+(?:>(?:[^\\\n]|\\[\\\"/]){1,256}<)?" + _NL + rb"(?:\*" + _NL
          + rb")?(?:[0-9A-Fa-f]{6,8}+)?")
# A dump is whole rows: it starts at a row's start (a line break, escaped or real, or a string's
# quote; then an offset or none) and each row's cells run to the row's end (a line break, 3+
# spaces of `hexdump -b`'s padding then one, `od -t o1z`'s column after 2 spaces, or 6+ on its
# last row, the string's end). Why: `od -c` prints a byte no character as a space and three
# octal digits too, and an `od -c` of binary data holds 4+ such cells in a row in ~16 % of its
# rows; read as dumps they cost ~4x the line's scan (an 11 MB line of them: 0.37 -> 1.43 s). A
# row of `od -c` all octal cells (16 non-characters in a row: ~0.06 % of rows of random bytes)
# is still read. Each start is its own pattern, its literal first (`re` skips to it at C speed:
# the three as one alternation were tried at every byte, 0.21 s an 11 MB `od -c` line, 0.03
# each); a break or quote right after a backslash is `od -c`'s `\\n` or `\"` cell, no row's.
_ROW_END = rb"(?=(?:\\r)?\\n|[\r\n\"]|\Z| {3,256}+(?:\\r)?\\n|(?:  | {6,256}+)>)"
# (a row's usual break first, a line break and an offset: ~12 % of the pattern's time on
# e_odb's rows; `_BREAK` where it fails: padding, a column, a `*` row)
_ROW_BREAK = rb"(?:(?:\\r)?\\n(?:[0-9A-Fa-f]{6,8}+)?|" + _BREAK + rb")"
_ROWS = (rb"(?:[0-9A-Fa-f]{6,8}+)?(" + _CELLS + rb"{4,}+" + _ROW_END + rb"(?:" + _ROW_BREAK
         + _CELLS + rb"++" + _ROW_END + rb")*+)")
DUMP = re.compile(rb"\\(?<!\\\\)(?:r\\)?n" + _ROWS)  # (after an escaped line break)
_QUOTED = re.compile(rb"\"(?<!\\\")" + _ROWS)  # (a string's first line)
_LINED = re.compile(rb"\n" + _ROWS)  # (after a real line break: a decoded text's)
# verify's gate: where a dump may start (4 cells after a row's start; the views read on)
_HEAD = rb"(?:[0-9A-Fa-f]{6,8}+)?(" + _CELLS + rb"{4})"
_STARTS = (re.compile(rb"\\(?<!\\\\)(?:r\\)?n" + _HEAD), re.compile(rb"\"(?<!\\\")" + _HEAD))
# Decoding: `od -t o1z`'s columns (its literal first, `>`), then each line break, od's `*` row
# and the next row's offset (a backslash first: `re` skips to it at C speed; `_BREAK`, opening
# with optional spaces, was tried at every byte, 6.2 of 13.6 s verifying 8 MiB of e_odb); the spaces
# (`hexdump -b`'s padding among them) are then deleted, three digits a cell left
_COLUMNS = re.compile(rb">(?:[^\\\n]|\\[\\\"/]){1,256}<(?=\\(?:r\\)?n)")
_BREAKS = re.compile(rb"\\(?:r\\)?n(?:\*\\(?:r\\)?n)?[0-9A-Fa-f]{0,8}+")
_LEAST = 8  # bytes a dump decodes to, to be read (a key is longer)
# the gate: an octal digit `o`, a space kept, anything else `x`; 4 cells in a row
_MAP = bytes(111 if 48 <= c <= 55 else 32 if c == 32 else 120 for c in range(256))
_NEEDLE = b" ooo ooo ooo ooo"
_FIRSTS = (b" 0", b" 1", b" 2", b" 3")


def octets_in(data: bytes | memoryview) -> bool:
    """Whether `data` (a line or a block) may hold an octal byte dump (`DUMP`): a space
    before a cell's first digit (`_FIRSTS`, one SIMD pass), then one `translate` and a
    substring search for 4 cells in a row. (The `translate` alone, on every line `scan_public`
    reads, cost ~3 % of e_bashhex's verify: lines of `\\xHH` escapes hold no ` 0`-` 3`.)"""
    if not markers_of(data, _FIRSTS):
        return False
    return bool(markers_of(bytes(data).translate(_MAP), (_NEEDLE,)))  # (`in`: ~1 ns a byte)


def spots(data: bytes, lo: int, hi: int, gate: bool | None = None) -> list[int]:
    """Offsets from `lo` of the first place an octal byte dump may start (`_STARTS`) of each
    line of `data[lo:hi]` (verify's gate, `secrets_decode.encoded_spots`); `gate`: the range's
    `octets_in`, when the caller has it."""
    out: list[int] = []
    if not (octets_in(memoryview(data)[lo:hi]) if gate is None else gate):
        return out
    for pattern in _STARTS:  # (a JSON line holds no real line break)
        pos = lo
        while (m := pattern.search(data, pos, hi)) is not None:
            out.append(m.start(1) - lo)
            pos = data.find(b"\n", m.end(), hi) + 1
            if not pos:
                break
    return sorted(out)


def decoded(run: bytes) -> bytes:
    """The bytes a dump `DUMP` matched stands for: its text columns, row breaks and offsets
    removed, then its spaces, then each three digits' value (numpy: a dump of a big file is
    millions of cells, and a Python object a cell cost ~0.1 us each)."""
    import numpy as np

    if b"\n" in run:  # (real line breaks: a decoded text's; written as a JSON line's)
        run = run.replace(b"\r\n", b"\\r\\n").replace(b"\n", b"\\n")
    if b">" in run:
        run = _COLUMNS.sub(b"", run)
    digits = _BREAKS.sub(b"", run).translate(None, b" ")
    cells = np.frombuffer(digits, np.uint8, count=len(digits) // 3 * 3).reshape(-1, 3)
    values = (cells[:, 0].astype(np.int32) - 48) * 64 + (cells[:, 1] - 48) * 8 + cells[:, 2] - 48
    return values.astype(np.uint8).tobytes()


def octet_views(raw: bytes) -> Iterator[tuple[bytes, int]]:
    """(decoded bytes, column) of each octal byte dump of `raw` that decodes to `_LEAST` bytes
    or more; nothing when the gate (`octets_in`) is shut."""
    if not octets_in(raw):
        return
    found = [*DUMP.finditer(raw), *_QUOTED.finditer(raw),
             *(_LINED.finditer(raw) if b"\n" in raw else ())]
    after = 0
    for m in sorted(found, key=lambda m: m.start(1)) if len(found) > 1 else found:
        if m.start(1) < after:
            continue  # (a later row of a dump the last one read: its rows start with breaks)
        after = m.end(1)
        got = decoded(m.group(1))
        if len(got) >= _LEAST:
            yield got, m.start(1) + 1
