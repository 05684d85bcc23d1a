"""A secret printed as little-endian 2-byte words: the view `withhold` and `verify` read with
`od -x`'s words put back in byte order (session 39, dumps; issue 15, QA s38 T5 h38_03).

`od -x stripe.key` (`od -t x2`, `hexdump` with no option) prints the file two bytes a word,
each word a number read little-endian, so each pair of characters shows swapped:

    0000000 6b72 6c5f 7669 5f65 4151 3833 646f 7758
    0000020 726f 7364 6130 3142 4463 6532 3346 4867

`rk_live_QA38odXwords...` is there to anyone who reads the words back to front, but the hex
dump view (`secrets_bytes`) reads 4-digit groups as `xxd` prints them, big-endian, and finds
`kr_ilev_...`: no family's key (h38_03 and e_odx's last line: unflagged, published).

The words are read where the dump view found a dump whose first piece is 4-digit groups (its
rows, offsets and breaks already matched: `secrets_bytes._dump_runs`), and only when what it
spans is `od`'s shape: groups of exactly 4 hex digits between spaces (one, or `hexdump -x`'s
four), row breaks (real or escaped) each followed by an offset of 6-8 digits or none (`-An`),
nothing else (an `xxd` dump's `00000010: ` and its text
column are big-endian: the dump view reads them). Each word's two bytes are swapped; what
that decodes to is read **alone**, as `od -b`'s and `od -c`'s views are (`secrets_octets`,
`secrets_chars`): text for the families and the patterns, bytes by the byte patterns and their
printable stretches. An honest `od -x` of a text is that text read again; of binary data,
bytes; a table of 4-digit numbers decodes to bytes no pattern holds.

The dump is read big-endian as well, as before (`secrets_bytes._views_of`): the same shape is
`od --endian=big -x`'s and `xxd -g2`'s groups cut from their offset and column, and a key
there was refused before this view (review s39 R1). Neither reading can be told from the
other by its shape; a key is in one of them.

Bounded: no regex of its own; the span's shape is checked at C speed (`replace`, `translate`,
`count`) and the bytes the dump view decoded are swapped by two slice assignments.
"""

from __future__ import annotations

import array
import re
from collections.abc import Iterator

WORDS = "its od -x little-endian words are decoded"

_HEX = b"0123456789abcdefABCDEF"
# the words' shape, checked at C speed on the span with its line breaks made `\n`: a hex
# digit mapped to `a`, a space kept, a break `n`, anything else `x`; each offset (after a
# break: 6-8 digits, a space) removed, then each word (a space and 4 digits); nothing but
# spaces and breaks left. (A regex of the breaks and one of the words cost ~4x this on e_odx.)
_MAP = bytes(97 if c in _HEX else 32 if c == 32 else 110 if c == 10 else 120 for c in range(256))
_OFFSETS = (b"naaaaaaaa ", b"naaaaaaa ", b"naaaaaa ")
_LEAST = 8  # bytes the words decode to, to be read (a key is longer)


def is_words(raw: bytes, start: int) -> bool:
    """Whether the dump `secrets_bytes.DUMP` found at `start` opens with a 4-digit group
    (`6b72 6c5f ...`: its fifth byte a space), the only shape of `od -x`'s first row, after
    no `xxd` offset (`00000000: `: a one-row `xxd` dump's span holds no colon of its own)."""
    head = raw[start:start + 5]
    return (len(head) == 5 and head[4] == 32 and not head[:4].translate(None, _HEX)
            and raw[max(start - 2, 0):start] != b": ")


def swapped(span: bytes, got: bytes) -> bytes | None:
    """The bytes `od -x`'s words in `span` (a dump from its first word to its end, which the
    dump view read big-endian as `got`: its words' digits, then a last row's offset's) stand
    for, each word's two bytes swapped back; None when `span` is no `od -x` shape (the
    module's docstring) or its words are fewer than `_LEAST` bytes."""
    rows = b" " + span.replace(b"\\r\\n", b"\n").replace(b"\\n", b"\n") + b" "
    if b"\r" in rows:  # (real line breaks: a decoded text's)
        rows = rows.replace(b"\r\n", b"\n")
    mapped = rows.translate(_MAP)
    for offset in _OFFSETS:
        if offset in mapped:
            mapped = mapped.replace(offset, b"n ")
    words = mapped.count(b" aaaa")
    if mapped.replace(b" aaaa", b"").translate(None, b" n") or 2 * words < _LEAST:
        return None
    if len(got) < 2 * words:
        return None
    little = array.array(_TYPECODES[2])
    little.frombytes(got[:2 * words])
    little.byteswap()  # (C speed: two slice assignments cost ~100x)
    swapped_bytes = little.tobytes()
    return swapped_bytes[:-1] if swapped_bytes[-1:] == b"\0" else swapped_bytes  # (od pads a
    # file of odd length with a zero byte)


# `od -t x8`'s 16-digit words (session 41, spell; QA s40 T6 h40_05): no piece of the dump view
# (`secrets_bytes.DUMP` reads groups of 2 to 8 digits), so found here. A dump is words of 16
# hex digits between single spaces, its rows broken (real or escaped) and led by an offset
# (`od`'s 7 digits, `xxd`'s with a colon) or none (`-An`), the words in a row of 2 or more
# (`od`'s last word may stand alone on its row); each read in both byte orders (`od`'s is the
# machine's, little-endian here; `od --endian=big` the other), alone, as the other words are.
# Gate: `secrets_bytes._DUMP_NEEDLES`' two spaced 16-digit words.
WIDE = b"," + b"a" * 16 + b"," + b"a" * 16
# (its first digit first, the lookbehind after it: opened by one, `re` tried it at every byte)
_WORD16 = re.compile(rb"[0-9a-fA-F](?:(?<![0-9A-Za-z_][0-9a-fA-F])|(?<=\\[nrt][0-9a-fA-F]))"
                     rb"[0-9a-fA-F]{15}(?![0-9A-Za-z_])")
_GAP = re.compile(rb" |(?:\r?\n|\\r\\n|\\n)[ \t]*(?:[0-9a-fA-F]{6,8}:? +)?")
_WIDE_MAX = 1 << 16  # words of a line read (a 16 MiB line of them: 1 MB of bytes)


def wide_words(raw: bytes) -> Iterator[tuple[int, bytes]]:
    """(start, bytes) of each dump of 16-digit words in `raw` (above), little-endian then
    big-endian, the zero bytes a file's last word was padded with dropped; `_LEAST`+ bytes."""
    words: list[bytes] = []
    start = end = 0
    for n, m in enumerate(_WORD16.finditer(raw)):
        if n >= _WIDE_MAX:
            break
        if words and _GAP.fullmatch(raw, end, m.start()) is None:
            yield from _wide(start, words)
            words = []
        if not words:
            start = m.start()
        words.append(m.group())
        end = m.end()
    yield from _wide(start, words)


def _wide(start: int, words: list[bytes]) -> Iterator[tuple[int, bytes]]:
    if len(words) < 2:
        return
    big = bytes.fromhex(b"".join(words).decode("ascii"))
    little = _reversed(big, 8, len(words))
    for got in (little, big.rstrip(b"\0")):
        if got is not None and len(got) >= _LEAST:
            yield start, got


def _reversed(got: bytes, size: int, words: int) -> bytes | None:
    """`got`'s first `words` words of `size` bytes (2, 4 or 8), each word's bytes in reverse
    order (`array.byteswap`, C speed: a slice assignment a byte of the word cost ~300 us a 2.5
    KB dump), the zero bytes a file's last word was padded with dropped; None
    under `_LEAST` bytes."""
    n = size * words
    if n < _LEAST or len(got) < n:
        return None
    words_of = array.array(_TYPECODES[size])
    words_of.frombytes(got[:n])
    words_of.byteswap()
    return words_of.tobytes().rstrip(b"\0")  # (od pads a file's last word with zero bytes)


# (an unsigned type code of each word size, whatever this machine's C types' sizes)
_TYPECODES = {size: next(c for c in "HILQ" if array.array(c).itemsize == size) for size in (2, 4, 8)}
