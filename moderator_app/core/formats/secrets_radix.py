"""A secret printed as rows of numbers in any radix: decimal, octal words and binary dumps,
read by `withhold` and `verify` alike (session 40, spell; issue 15, QA s39 T6 h39_03/h39_04).

`od -t d1 app_token` prints a file's bytes as signed decimals, `xxd -b` as 8-digit binary
groups, `od -o` / `od -d` / `od -t d4` as 2- and 4-byte words, each row after an offset:

    0000000  103 104 117  95  81  65  51  57 111 100  84 100  49 100 101  99
    00000000: 01100100 01101111 01101111 01011111 01110110 00110001  doo_v1

A key is there to anyone who reads the numbers back to bytes, but no view read them (the
decimal list view wants separators, and each row's offset cut the list; 8-digit binary
groups read as hex are no key): `withhold` published both, `verify` named neither.

One reader, table-driven (`_KINDS`), for every such dump: a row is an optional offset (`od`'s
6-7 digits, `xxd`'s digits and a colon) then two or more numbers of one kind, then anything
(an ASCII column, `od -z`'s `>...<`); a dump is the rows in a row of one kind. The kinds:

- **binary** (`xxd -b`, any `-g`): groups of 8, 16, 32 or 64 bits, bytes in file order;
- **octal** words (`od -o`, `od -t o4`, `od -t o8`): zero-padded, 6, 11 or 22 digits;
  1-byte octal (`od -b`) is `secrets_octets`' view;
- **decimal** (`od -t d1/u1`, `od -d`, `od -t d2/u2/d4/u4/d8/u8`, `od -s`, `od -i`,
  `od -l`): signed or not, padded with spaces; a word's size is the least that holds the
  dump's largest number (text's words of 2+ bytes are all past 255, as they are past 65,535
  at 4 bytes: their high byte is a character).

Words of 2+ bytes are read in both orders (od prints the machine's, little-endian here; `od
--endian=big` the other: no shape tells them apart, as `secrets_words` says of `od -x`). The
bytes are read **alone**, as `od -b`'s are: text for the families and patterns, bytes by the
byte patterns and their 16+ printable stretches. An honest dump of a text is that text read
again; a table of numbers (scores, sizes, coordinates) decodes to bytes no pattern holds.

Bounded: the gate (`radix_in`) is one `translate` and one substring search (a run of
`_GATE` digits and spaces: every row of these dumps holds one, hex words rarely, prose
never); the rows are split and read only in a line that holds one, each at most once.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

RADIX = "its dump of decimal, octal or binary numbers is decoded"

# the gate: a digit, `-` or a blank mapped to `a`, all else to `x`; a dump's row of numbers
# holds a run of `_GATE` of them (od -t d1's 16 numbers and offset: 71, od -o's 63, od -t u4's
# 51, xxd -b's 6 groups: 55); a hex dump's row of 4 digit-only 8-digit words is 43, of od -x's
# 8 words 47: not asked (at 32, e_odtx4's rows opened it 13 times a line, ~25 % of its cost)
_GATE_MAP = bytes(97 if 48 <= c <= 57 or c in (32, 45, 9) else 120 for c in range(256))
_GATE = 48
_BREAK = re.compile(rb"\r?\n|\\r\\n|\\n")
_OFFSET = re.compile(rb"[0-9A-Fa-f]{4,8}:|[0-9]{6,7}|[0-9a-f]{6,7}")
# a dump's first row opening with offset 0 as wide as its words (`od -A x -t o2`'s `000000`
# then 6-digit words; QA s43 h43_01): every row's first number is its offset, not a word
_ZERO = re.compile(rb"[ \t]*0{6,7}[ \t]+[0-9]+[ \t]+[0-9]")
_BIN = re.compile(rb"(?:[01]{8}){1,8}")
_OCT = re.compile(rb"0[0-7]{5}|[0-3][0-7]{10}|[01][0-7]{21}")
_DEC = re.compile(rb"-?[0-9]{1,20}")
_OCT_SIZE = {6: 2, 11: 4, 22: 8}
_HEX_WIDTHS = (4, 8, 16)
# a hex dump's row of digits alone, told before a row is split: 3 words of 4 or 8 digits
# between single spaces (no decimal or octal dump is so spaced; binary groups are 0s and 1s)
_SHAPE_MAP = bytes(97 if 48 <= c <= 57 else 32 if c == 32 else 120 for c in range(256))
_HEX_ROWS = (b" aaaaaaaa aaaaaaaa ", b" aaaa aaaa aaaa ")  # (od prints no decimal word so: text's are 3, 5, 10 or 20 wide)
_LEAST = 8  # bytes a dump decodes to, to be read (a key is longer)
_ROWS_MAX = 1 << 16  # rows of one line read (a 16 MiB line of rows: a few MB of bytes)


def radix_in(data: bytes | memoryview) -> bool:
    """Whether `data` (a line or a block) may hold a dump of numbers (the gate above)."""
    return b"a" * _GATE in bytes(data).translate(_GATE_MAP)


def spots(data: bytes, lo: int, hi: int, gate: bool) -> list[int]:
    """Offsets from `lo` of the first run `radix_in` saw of each line of `data[lo:hi]` that
    holds one (`secrets_decode.encoded_spots`: verify asks those lines); `gate`: the range's
    `radix_in`."""
    if not gate:
        return []
    out: list[int] = []
    mapped = data[lo:hi].translate(_GATE_MAP)
    needle = b"a" * _GATE
    i = mapped.find(needle)
    while i >= 0:
        out.append(i)
        nxt = data.find(b"\n", lo + i, hi)
        if nxt < 0:
            break
        i = mapped.find(needle, nxt - lo)
    return out


def _row(row: bytes, offsets: bool = False) -> tuple[str, int, list[bytes]] | None:
    """(kind, its width, the numbers) of one row: its offset dropped (`offsets`: the dump's
    rows have one, as wide as its words), then the numbers up to the first token of another
    kind (an ASCII column); None when fewer than two."""
    tokens = row.split()
    if tokens and _OFFSET.fullmatch(tokens[0]) is not None and (
            offsets or tokens[0].endswith(b":") or len(tokens) == 1
            or len(tokens[1]) != len(tokens[0])):
        tokens = tokens[1:]
    if len(tokens) < 2:
        return None
    first = tokens[0]
    if len(first) in _HEX_WIDTHS:
        joined = b"".join(tokens)
        if len(joined) == len(first) * len(tokens) and joined.isdigit() \
                and joined.translate(None, b"01"):
            return None  # (digits all 4, 8 or 16 wide, no bits: a hex dump's row of digits)
    for kind, pattern in (("bin", _BIN), ("oct", _OCT), ("dec", _DEC)):
        if pattern.fullmatch(first) is None:
            continue
        width = len(first) if kind != "dec" else 0
        n = 0
        for token in tokens:
            if pattern.fullmatch(token) is None or (width and len(token) != width):
                break
            n += 1
        return (kind, width, tokens[:n]) if n >= 2 else None
    return None


def _hex_row(window: bytes) -> bool:
    """Whether `window` (where the gate opened) holds a hex dump's row of digits alone
    (`_HEX_ROWS`) whose digits are not all 0s and 1s (`xxd -b`'s)."""
    shape = b" " + window.translate(_SHAPE_MAP) + b" "
    for row in _HEX_ROWS:
        at = shape.find(row)
        if at >= 0 and window[max(at - 1, 0):at - 1 + len(row)].translate(None, b"01 "):
            return True
    return False


def _dumps(raw: bytes) -> Iterator[tuple[int, str, int, list[bytes]]]:
    """(the column of its first row, kind, width, numbers) of each dump of `raw`: from a row
    where the gate opens, the rows in a row of its kind and width (an `od` dump's last row,
    its offset alone, ends it). Only rows where the gate opens and those after them are
    split (a hex dump's row of digits alone opens it: one or two rows read, not the line's)."""
    mapped = raw.translate(_GATE_MAP)
    needle = b"a" * _GATE
    i, rows = mapped.find(needle), 0
    while i >= 0 and rows < _ROWS_MAX:
        if _hex_row(raw[i:i + _GATE + 8]):
            brk = _BREAK.search(raw, i)  # (a hex dump's row of digits: its next row)
            i = -1 if brk is None else mapped.find(needle, brk.end())
            continue
        esc = raw.rfind(b"\\n", 0, i)
        start = max(raw.rfind(b"\n", 0, i) + 1, esc + 2 if esc >= 0 else 0)
        kind, width, at, stop = "", 0, start, start
        numbers: list[bytes] = []
        offsets = _ZERO.match(raw, start) is not None
        while rows < _ROWS_MAX:
            brk = _BREAK.search(raw, at)
            stop = len(raw) if brk is None else brk.end()
            got = _row(raw[at:stop if brk is None else brk.start()], offsets)
            rows += 1
            if got is None or (numbers and (got[0], got[1]) != (kind, width)):
                break
            kind, width = got[0], got[1]
            numbers += got[2]
            at = stop
            if brk is None:
                break
        if numbers:
            yield start, kind, width, numbers
        i = mapped.find(needle, max(stop, i + 1))


def _decoded(kind: str, width: int, numbers: list[bytes]) -> list[bytes]:
    """The bytes `numbers` stand for: binary in file order; octal and decimal words in both
    byte orders, little-endian first (a 1-byte dump: once)."""
    if kind == "bin":
        bits = b"".join(numbers)
        return [int(bits, 2).to_bytes(len(bits) // 8, "big")]
    values = [int(t, 8) for t in numbers] if kind == "oct" else [int(t) for t in numbers]
    if kind == "oct":
        size = _OCT_SIZE[width]
    else:
        top = max(max(values), -min(values) - 1)
        size = next((s for s in (1, 2, 4, 8) if top < 1 << (8 * s)), 0)
        if not size:
            return []
    wrap = 1 << (8 * size)
    words = [v % wrap for v in values]
    little = b"".join(v.to_bytes(size, "little") for v in words)
    if size == 1:
        return [little]
    return [little, b"".join(v.to_bytes(size, "big") for v in words)]


def radix_views(raw: bytes) -> Iterator[tuple[bytes, int]]:
    """(bytes, column of the dump's first row) of each dump of numbers in `raw`, in each
    reading (`_decoded`), the zero bytes a file's last word was padded with dropped; nothing
    when the gate is shut (`_dumps`' first search)."""
    for column, kind, width, numbers in _dumps(raw):
        for got in _decoded(kind, width, numbers):
            got = got.rstrip(b"\0")
            if len(got) >= _LEAST:
                yield got, column + 1
