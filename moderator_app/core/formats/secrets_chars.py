"""A secret printed as a character dump: the view `withhold` and `verify` read with `od -c`'s
(or `hexdump -c`'s) cells decoded (session 37, issue 15, QA s36 T5 h36_02).

`od -An -c ~/.gem/key` prints each byte of the file as a character in a column four wide:

    r   u   b   y   g   e   m   s   _   3   f   6   a   9   c   0
    e   2   b   4   d   8   f   1   a   7   c   5   e   3   b   9
   \\n

The key is there to anyone who reads one character a cell, but no detector reads it: each
character stands alone between three spaces. A cell (`_CELL`) is three spaces and a printable
character (a `"` or a backslash escaped as a JSON line writes them: GNU od prints a backslash
so, `   \\`), two spaces and one of od's escapes (`\\n`,
`\\0`, `\\t`, `\\\\`, ...: their backslash escaped in a JSON line), a space and three octal
digits (any other byte), or four spaces (a space). A dump (`DUMP`) is 4+ cells, then rows of
1+ cells after a line break (real or escaped) and an offset (`od`'s 7 octal digits, `-Ax`'s
6 hex, `hexdump -c`'s 7 hex) or none (`-An`); any width (`-w8`, `-w32`), `od -t c` alike.

What a dump decodes to is read **alone**, as a decimal list is (`secrets_bytes`): text
(`secrets_decode.is_text`) for the families and the patterns, bytes by the byte patterns and
their printable stretches as text. What tells an honest dump (a text file, a save, a table
whose columns are four wide) apart is so what it holds: no family's key.

Gated (`chars_in`): one `translate` of the block (a space kept, anything else `a`) and a
search for 5 cells in a row (`a   a   a   a   a`: 5 one-character cells, or 4 and a row's
offset or line break), a regex only there. Bounded: the pattern is linear (fixed cells,
possessive repeats, no nesting); a dump is decoded by two regex passes over its special cells
(od's escapes; line breaks and offsets) and a slice, every fourth byte (octal bytes' cells by
numpy, a dump of a binary file being mostly those).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from moderator_app.core.formats import native
from moderator_app.core.formats.secrets import markers_of

CHARS = "its od -c character dump is decoded"

# A cell, as a JSON line writes it (`secrets.unescape_json` keeps `\\` and `\"` as written):
# three spaces and a printable character (`"` escaped; a backslash escaped, `   \\\\`: GNU od
# prints a backslash so, `   \`, and without it an od -c of binary data was cut into a dump
# every ~16 rows, session 37 mendods), two spaces and od's escape (its backslash escaped:
# `\\n`, and `\\\\` for a backslash), a space and 3 octal digits, 4 spaces.
_BS = rb"\\\\"
_CELL = (rb"(?:   (?:[!#-\[\]-~]|\\\"|" + _BS + rb")|  " + _BS + rb"(?:[0abfnrtv]|" + _BS + rb")"
         rb"| [0-3][0-7]{2}|    )")
_BREAK = rb"(?:\\r)?\\n"  # (escaped, as a JSON line writes it)
_OFFSET = rb"[0-9A-Fa-f]{6,8}+"
DUMP = re.compile(_CELL + rb"{4,}+(?:" + _BREAK + rb"(?:" + _OFFSET + rb")?" + _CELL
                  + rb"{1,}+)*+")
# verify's gate: where a dump may start (4 cells; `DUMP` after them reads to the dump's end,
# which the gate need not: one spot a line)
_START = re.compile(_CELL + rb"{4}")
# Decoding: od's escapes (two spaces and a backslash escaped, then a letter, `0` or a backslash
# escaped) each made a plain cell of its byte (`_TOKEN`, a callback each: a dump has a few),
# then a `"` (escaped) so; what is left of the JSON line's backslashes are then the line breaks,
# removed with their offsets (`_BREAKS`, no callback); every cell is then four bytes, a
# character's (three spaces and it) or an octal byte's (a space and three digits). (Nine
# `replace`s, one an escape, cost 1.7 s of 13 on 16 MB of dumps: each a search of the dump.)
_TOKEN = re.compile(rb"  \\\\([0abfnrtv]|\\\\)")  # (its literal first: searched at C speed)
_PLAIN = {b"0": b"   \x00", b"a": b"   \x07", b"b": b"   \x08", b"f": b"   \x0c",
          b"n": b"   \n", b"r": b"   \r", b"t": b"   \t", b"v": b"   \x0b", b"\\\\": b"   \\"}
_TOKEN_QUOTE = (b'   \\"', b'   "')
_BREAKS = re.compile(rb"\\(?:r\\)?n[0-9A-Fa-f]{0,8}+")
_BACKSLASH = b"   " + b"\\" * 2  # (a backslash cell, JSON-escaped; or a space, then od's)
_UNIT = re.compile(_CELL + rb"|" + _BREAK + rb"[0-9A-Fa-f]{0,8}+")
_LEAST = 8  # characters a dump decodes to, to be read (a key is longer)
# the gate: a space kept, any other byte `a`; 5 cells in a row
_MAP = bytes(32 if c == 32 else 97 for c in range(256))
_NEEDLE = b"a   a   a   a   a"
_SPACES = (b"   ",)


def chars_in(data: bytes | memoryview) -> bool:
    """Whether `data` (a line or a block) may hold a character dump (`DUMP`): a SIMD pass for
    three spaces, then one `translate` and a SIMD pass for 5 cells in a row. (Two `in` tests
    cost ~1 ns a byte each on lines of double spaces, `hexdump -C`'s, each a near miss; the
    SIMD passes ~0.15: ~6 % of e_hexdumpc's verify; session 39, dumps.)"""
    if not markers_of(data, _SPACES):
        return False
    return bool(markers_of(bytes(data).translate(_MAP), (_NEEDLE,)))


def spots(data: bytes, lo: int, hi: int, gate: bool | None = None) -> list[int]:
    """Offsets from `lo` of the first place a character dump may start (`_START`) of each
    line of `data[lo:hi]` (verify's gate, `secrets_decode.encoded_spots`); `gate`: the range's
    `chars_in`, when the caller has it."""
    out: list[int] = []
    if not (chars_in(memoryview(data)[lo:hi]) if gate is None else gate):
        return out
    pos = lo
    while (m := _START.search(data, pos, hi)) is not None:
        out.append(m.start() - lo)
        pos = data.find(b"\n", m.end(), hi) + 1
        if not pos:
            break
    return out


def _plain(m: re.Match[bytes]) -> bytes:
    return _PLAIN[m.group(1)]


def _decoded_py(run: bytes) -> bytes:
    """The bytes a dump `DUMP` matched stands for (above): its special cells made plain, line
    breaks and offsets removed, then each cell's byte (the fallback of `_unescape.chars`, which
    reads the cells in one pass: here a callback and a bytes piece an od escape cell cost ~75 s
    and 500 MiB per 512 MiB of `\\n` cells, review s37 R3)."""
    if _BACKSLASH in run:  # (maybe od's backslash cell: read cell by cell, below)
        return _decoded_cells(run)
    run = _TOKEN.sub(_plain, run)  # (od's escapes: a dump has a few, a callback each)
    if b'\\"' in run:
        run = run.replace(*_TOKEN_QUOTE)
    run = _BREAKS.sub(b"", run)
    seconds = run[1::4]
    if seconds.count(b" ") == len(seconds):
        return run[3::4]
    return _with_octal(run)


def _decoded_cells(run: bytes) -> bytes:
    """`_decoded_py` read one cell or break at a time (`_UNIT`, from the start as `DUMP` read
    it): a backslash cell (`   \\\\`) cannot be found by a search, which may start inside
    a space cell (`    ` then `  \\\\n` holds `   \\\\`). Slow (a match a cell): the fallback's
    fallback, for dumps holding one."""
    out = bytearray()
    for m in _UNIT.finditer(run):
        cell = m.group()
        if cell[:1] == b"\\":
            continue  # (a line break and its offset)
        if cell[1:2] != b" ":
            out.append(int(cell[1:4], 8))
        elif cell[2:3] == b" ":
            out.append(cell[-1])  # (`\"` and `\\\\` end in their byte)
        else:
            out += _PLAIN[cell[4:]][3:]
    return bytes(out)


def _with_octal(run: bytes) -> bytes:
    """Each four-byte cell's byte: the last byte of a character's cell, the value of an octal
    byte's three digits (numpy, a cell at a time in C: a dump of a binary file is mostly
    octal cells)."""
    import numpy as np

    cells = np.frombuffer(run, np.uint8, count=len(run) // 4 * 4).reshape(-1, 4)
    out = cells[:, 3].copy()
    octal = cells[:, 1] != 32
    digits = cells[octal, 1:].astype(np.int32) - 48
    out[octal] = (digits[:, 0] * 64 + digits[:, 1] * 8 + digits[:, 2]).astype(np.uint8)
    return out.tobytes()


# (in C where built, `_unescape.chars`: the same bytes, one pass, no object a cell)
decoded: Callable[[bytes], bytes] = (native.UNESCAPE.chars if native.UNESCAPE is not None
                                     else _decoded_py)


def _spans(raw: bytes) -> Iterator[tuple[int, int]]:
    """(start, end) of each match of `DUMP` in `raw`, left to right as `finditer` finds them;
    in C where built (`_unescape.dump_next`: those of `_LEAST` cells or more only, a cell
    making one byte; the regex cost ~8 ns a byte of an od -c line of binary, C ~1, session
    38 odc)."""
    if native.UNESCAPE is None:
        for m in DUMP.finditer(raw):
            yield m.span()
        return
    pos = 0
    while (span := native.UNESCAPE.dump_next(raw, pos, _LEAST)) is not None:
        yield span
        pos = span[1]


def char_views(raw: bytes) -> Iterator[tuple[bytes, int]]:
    """(decoded bytes, column) of each character dump of `raw` that decodes to `_LEAST`
    bytes or more; nothing when the gate (`chars_in`) is shut."""
    if not chars_in(raw):
        return
    for start, end in _spans(raw):
        got = decoded(raw[start:end])
        if len(got) >= _LEAST:
            yield got, start + 1
