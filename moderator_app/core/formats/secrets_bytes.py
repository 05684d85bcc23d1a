"""A secret printed as its bytes: the views `withhold` and `verify` read with a byte array or a
spaced hex dump decoded (session 35, issue 15, QA s34 T6).

`static const uint8_t figma_token[] = {0x66, 0x69, 0x67, 0x64, ...}` (h34_02) and a request
body dumped as `0000  66 6F 31 5F 51 41 ...` (h34_03) are the key to anyone who reads two
hex digits a character, but no detector reads them: each byte stands alone between commas or
spaces, and the hex view (`secrets_decode`) reads runs of 32+ digits only. Two views:

- **byte arrays** (`ARRAY`): 8+ hex bytes written `0xNN` (C, C++, Java, Python, JavaScript,
  Rust, Go print or declare them so), each one or two digits, between commas and/or white
  space (real or escaped line breaks: an array declared over lines in a JSON string);
- **spaced hex dumps** (`DUMP`): 8+ two-digit bytes (or 4+ four-digit groups, `xxd`'s) one
  separator apart: a space (two in `hexdump -C`'s middle), a colon (`openssl`, a MAC-like
  `66:6f:31`) or a dash (.NET's `BitConverter`), read over its line breaks (real or escaped)
  past an offset at a line's start (`0010  `, `00000010: `) and an ASCII column at a line's
  end (`  |fo1_QA34...|`, `xxd`'s `  fo1_QA34...`).

What a run decodes to is read as the hex view's runs are: **text** (UTF-8, 97%+ printable,
12+ bytes: `secrets_decode.is_text`) is put in the line in place of the run (the name before
it kept: `figma_token[] = {figd_...}`) and the line so read is tested for the key families
and the patterns, not the high-entropy rule (a dump of honest text with an id in it is no
key); **bytes** (a PNG's signature, a TCP header, a digest printed `43:51:43:a1...`, colour
bytes) are read by the byte patterns only, as hex runs that decode to bytes are, and their
stretches of 16+ printable characters as text (`strings`: a key dumped after a block of zeros
is one run with them). What
separates honest hex-looking data is so what its bytes are, not how it is spelled: colour
codes (`0xFF00FF`, `#ff00ff`) are no bytes of two digits, hashes and fingerprints decode to
random bytes, byte counts and coordinates are decimal.

Gated (`spots`): a byte array where one SIMD pass of `secrets_decode.encoded_spots` saw `0x`
(`MARKERS`); a dump where one `translate` of the block shows 6 bytes or 3 groups between
separators (`dump_in`, ~1 ns a byte), a regex only there. Bounded: both patterns are linear
(bounded, possessive repeats, no nesting); a run is decoded at C speed (`translate`,
`fromhex`), the line once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

import orjson

from moderator_app.core.formats import native
from moderator_app.core.formats.secrets import markers_of
from moderator_app.core.formats.secrets_inflate import told
from moderator_app.core.formats.secrets_join import CHAINS
from moderator_app.core.formats.secrets_words import WIDE, WORDS, is_words, swapped, wide_words

BYTES = "its byte array or hex dump is decoded"
DECIMALS = "its list of decimal bytes is decoded"

_WS = rb"(?:[ \t\r\n]|\\[nrt])"
# one byte `0xNN`, the separator between two (a comma or `;` with white space either side and
# a `//` comment after it to the line's end, or white space alone), an array of 8+ (session
# 36, review V4: `0x66;0x69;...` and a comment a row, `0x74, // row 0`, ended the run)
_HB = rb"0[xX][0-9A-Fa-f]{1,2}+(?![0-9A-Za-z_])"
_COMMENT = rb"//[^\n\\]{0,120}+"
_ASEP = (rb"(?:" + _WS + rb"{0,16}+[,;](?:[ \t]{0,16}+" + _COMMENT + rb")?" + _WS + rb"{0,16}+|"
         + _WS + rb"{1,16}+)")
# (literal first, `0`, the lookbehinds after it: a pattern opening with a lookbehind is tried
# by `re` at every byte, ~70 ns a byte on a line holding `0x` anywhere; escape's note)
ARRAY = re.compile(rb"0(?:(?<![0-9A-Za-z_]0)|(?<=\\[nrt]0))[xX][0-9A-Fa-f]{1,2}+(?![0-9A-Za-z_])"
                   rb"(?:" + _ASEP + _HB + rb"){7,}+")
MARKERS = (b"0x", b"0X")
# decimal bytes (session 36, QA s35 T6 h35_02, review V4): 8+ numbers of 1-3 digits between
# commas (white space, real or escaped line breaks, either side), as Python's `bytes([115,
# 98, ...])`, Node's `{"type":"Buffer","data":[102,105,...]}` and `new Uint8Array([...])` print
# them. Literal first (a digit; the lookbehinds after it, as `ARRAY`'s): not inside a word, a
# number (`1234`, `1.5`, `-3`) or a version; each item ends where no word character or `.`
# follows it, inside the repeat (a run that fails is not read again from each item: V3)
_DI = rb"[0-9]{1,3}+(?![0-9A-Za-z_.])"
DECIMAL = re.compile(rb"[0-9](?:(?<![0-9A-Za-z_.\-][0-9])|(?<=\\[nrt][0-9]))[0-9]{0,2}+"
                     rb"(?![0-9A-Za-z_.])(?:" + _WS + rb"{0,16}+," + _WS + rb"{0,16}+" + _DI
                     + rb"){7,}+")
_DEC_SEPS = b" \t\r\n\\nrt"
# a dump's piece: 8+ two-digit bytes or 4+ four-digit groups, one separator apart; each byte
# or group ends where no word character follows it, so a run whose last byte runs on into a
# word (`41 41 ... 41z`) ends one byte sooner instead of failing whole. Why: with the test
# after the possessive repeat, the failed run was read again from each of its bytes, O(n^2)
# per line (a 180 KB line cost 55 s to verify and withhold; session 35's review V3).
_DSEP = rb"(?:  ?|:|-)"
_END = rb"(?![0-9A-Za-z_])"
# (and 3+ eight-digit groups: `xxd -g4`, review V4; 4-digit groups 4 spaces apart: `hexdump
# -x`'s, session 44, QA s42 h42_02, read as `od -x`'s words by `secrets_words`)
# A piece starts not inside a word, or right after an escaped line break (`\n66 6f`): its
# first hex digit first, the lookbehinds after it over that digit, as `ARRAY`'s (where they
# opened it, `re` tried it at every byte: ~60 ns a byte of text whose 4-digit numbers open
# the gate; session 37, mendviews: the od -c view's decoded text, e_odc)
_PIECE = (rb"[0-9A-Fa-f](?:(?<![0-9A-Za-z_][0-9A-Fa-f])|(?<=\\[nrt][0-9A-Fa-f]))"
          rb"(?:[0-9A-Fa-f](?:" + _DSEP + rb"[0-9A-Fa-f]{2}" + _END + rb"){7,}+"
          rb"|[0-9A-Fa-f]{3}(?:(?:   )? [0-9A-Fa-f]{4}" + _END + rb"){3,}+"
          rb"|[0-9A-Fa-f]{7}(?: [0-9A-Fa-f]{8}" + _END + rb"){2,}+)")
DUMP = re.compile(_PIECE)
# after a piece: an ASCII column to the line's end, a line break, an offset, then the next
# piece (one byte or more: a dump's last line)
_NEXT = re.compile(
    rb"[:-]?"  # (openssl's rows end in their separator: `    4e:52:...:48:` then a break)
    rb"(?:  ?\|(?:[^\n\\]|\\[\"\\/]){1,16}\||   ?(?:[^\n\\]|\\[\"\\/])(?:[^\n\\]|\\[\"\\/]){0,15}+)?"
    rb"(?:\r?\n|\\r\\n|\\n)[ \t]{0,16}+"  # (and the next is indented)
    rb"(?:[0-9A-Fa-f]{4,8}(?::[ \t]{0,4}+|[ \t]{2,4}+)|[0-9A-Fa-f]{6,8}[ \t])?"
    rb"([0-9A-Fa-f]{2}(?:" + _DSEP + rb"[0-9A-Fa-f]{2}){0,63}+"
    rb"|[0-9A-Fa-f]{4}(?: [0-9A-Fa-f]{2,4}){0,15}+"
    rb"|[0-9A-Fa-f]{2,8}+(?: [0-9A-Fa-f]{2,8}){0,7}+)(?![0-9A-Za-z_])")
# (and a shell's quotes side by side, as a JSON line writes them, `'\"` or `\"'`: a quote
# then the other, `secrets_join.SHELL_MARKERS`: no marker of the escapes' SIMD pass, where two
# more cost ~9x; here three needles of mapped bytes no other needle or common text holds)
_QUOTES = {39: 113, 34: 100, 92: 98}  # (`'` q, `"` d, `\` b)
_SHELL_NEEDLES = (b"qbd", b"bdq")
# Rows of two-digit bytes only (openssl's, a spaced dump's without offset or column), as many
# as follow, in one regex call (session 36, escape; QA s35 T7: a `_NEXT.match` and its Python a
# row, 360 rows a 16 KiB observation, ~28 s per 512 MiB). Where one such row matches,
# `_NEXT`'s first choice is the same row (no column: the break follows `[:-]?` at once; no
# offset: two digits and a separator are no 4-8 digit run), so `_dump_runs` reads these
# rows here and the rest with `_NEXT`, a row at a time; what they span holds no hex digit but
# their bytes' (separators, breaks as `\r`/`\n`, indentation).
_PAIR_ROWS = re.compile(
    rb"(?:(?>[:-]?(?:\r?\n|\\r\\n|\\n)[ \t]{0,16}+"
    rb"[0-9A-Fa-f]{2}(?:" + _DSEP + rb"[0-9A-Fa-f]{2}){0,63}+(?![0-9A-Za-z_])))*+")
# the gate: each hex digit mapped to `a`, a separator to `,`, a comma to `c`, all else to `x`;
# a dump holds 6 two-digit bytes or 3 four-digit groups between separators (a piece's 8 bytes,
# or 3 groups after an offset's `: `); a decimal list has a gate of its own (`_DEC_NEEDLES`)
_DUMP_MAP = bytes(97 if chr(c) in "0123456789abcdefABCDEF" else 44 if chr(c) in " :-"
                  else 99 if c == 44 else _QUOTES.get(c, 120) for c in range(256))
# (one SIMD pass over the mapped bytes: ~0.2 ns a byte, where a regex of the two cost ~1.3 on
# the bench's honest histories and a `find` a needle ~2 on hex text, each `a` a near miss)
_DUMP_NEEDLES = (b",aa,aa,aa,aa,aa,aa,", b",aaaa,aaaa,aaaa,", b",aaaaaaaa,aaaaaaaa,aaaaaaaa",
                 WIDE,  # (`od -t x8`: `secrets_words.wide_words`)
                 b",aaaa,,,,aaaa,,,,aaaa,")  # (`hexdump -x`: 4 spaces between its groups)
_NEEDLES = _DUMP_NEEDLES + _SHELL_NEEDLES
# The decimal gate as wide as `DECIMAL` (session 36, mendviews; review V4): its white space
# (spaces, tabs, line breaks, escaped `\n`, `\r`, `\t`) deleted, a decimal digit mapped to `a`, a
# comma to `c`, all else to `x`; then a number ending in 2 digits, one of 2 or 3, and a third
# (a key's bytes are 32-126). Each needle a pass of its own, the gate open at the first found
# (`_gates`): in one pass of four needles, a 12 MB list of `100, 99, ` cost 2.2 ns a byte, each
# `ac` a near miss of a needle it does not hold; now 0.0-0.08 on 2-, 3- and mixed-digit lists,
# 0.11 on honest logs. (The gate costs ~0.6 ns a byte more than its needles in the dump's pass,
# the `translate`: 0.90 -> 1.6 ns a byte for both gates on the 523 honest logs' bytes.)
# A gate of `,` or `, ` only missed Node's padded columns (`,  50`: 7 of 100 keys of its own
# `console.log(new Uint8Array(b))`) and one number a line (`JSON.stringify(b, null, 2)`,
# `pprint.pformat`: 0 of 100). Deleting every `n`, `r` and `t` (a translate deletes bytes, not
# pairs) makes the gate wider than the regex, never narrower: a regex search where it is wrong.
_DEC_MAP = bytes(97 if 48 <= c <= 57 else 99 if c == 44 else 120 for c in range(256))
_DEC_DELETE = b" \t\r\n\\nrt"
_DEC_NEEDLES = (b"aacaaca", b"aacaaaca")
_SEPS = b" :-\t\r\n,;\\nrt"
_COMMENTS = re.compile(_COMMENT)
_NOT_HEX = bytes(c for c in range(256) if chr(c) not in "0123456789abcdefABCDEF")
# a hex run's characters, either case (`run.translate(None, HEX_DIGITS)` is empty for hex)
HEX_DIGITS = b"0123456789abcdefABCDEF"


def dump_in(data: bytes | memoryview) -> bool:
    """Whether `data` (a line or a block) may hold a spaced hex dump (`DUMP`), a list of
    decimal bytes (`DECIMAL`) or a shell's quotes side by side: two `translate`s and two SIMD
    passes (`_gates`)."""
    return any(_gates(data))


def gates(data: bytes | memoryview) -> tuple[bool, bool, bool]:
    """`_gates` (below), for a caller that hands them to `spots` (`secrets_decode`)."""
    return _gates(data)


def _gates(data: bytes | memoryview) -> tuple[bool, bool, bool]:
    """(whether `data` may hold a dump, a decimal list, a shell's quotes side by side): one
    pass of the dump's and the quotes' needles, one of the decimal gate's (`_DEC_MAP`)."""
    raw = bytes(data)
    found = markers_of(raw.translate(_DUMP_MAP), _NEEDLES)
    mapped = raw.translate(_DEC_MAP, _DEC_DELETE)
    dec = any(markers_of(mapped, (needle,)) for needle in _DEC_NEEDLES)
    return (any(f in _DUMP_NEEDLES for f in found), dec, any(f in _SHELL_NEEDLES for f in found))


def spots(data: bytes, lo: int, hi: int, arrays: bool,
          known: tuple[bool, bool, bool] | None = None) -> list[int]:
    """Offsets from `lo` of the first byte array (when `arrays`: the caller's SIMD pass saw
    `0x`), dump, decimal list or chain of a shell's quotes (`secrets_join.CHAIN`) of each
    line of `data[lo:hi]` (`secrets_decode.encoded_spots`); `known`: the range's `_gates`,
    when the caller has them."""
    out: list[int] = []
    dump, dec, shell = _gates(memoryview(data)[lo:hi]) if known is None else known
    pos = lo
    while dec and (span := _decimal_search(data, pos, hi)) is not None:
        out.append(span[0] - lo)
        pos = data.find(b"\n", span[1], hi) + 1
        if not pos:
            break
    for pattern, present in ((ARRAY, arrays), (DUMP, dump), (CHAINS, shell)):
        pos = lo
        while present and (m := pattern.search(data, pos, hi)) is not None:
            out.append(m.start() - lo)
            pos = data.find(b"\n", m.end(), hi) + 1
            if not pos:
                break
    return out


def _array_bytes(run: bytes) -> bytes:
    """The bytes of an array `ARRAY` matched: at C speed when each is written `0xNN` (the
    digits the 3rd and 4th of every 4 once the separators are gone), else one by one."""
    if b"//" in run:
        run = _COMMENTS.sub(b"", run)
    clean = run.translate(None, _SEPS).replace(b"0X", b"0x")
    if len(clean) % 4 == 0 and clean[1::4].count(b"x") == len(clean) // 4:
        pairs = bytearray(len(clean) // 2)
        pairs[0::2] = clean[2::4]
        pairs[1::2] = clean[3::4]
        return bytes.fromhex(pairs.decode("ascii"))
    return bytes(int(h, 16) for h in clean.split(b"0x")[1:])


def _decimal_search_py(data: bytes, pos: int, hi: int) -> tuple[int, int] | None:
    """(start, end) of the first list of decimal bytes (`DECIMAL`) in `data[pos:hi]`, or None:
    the pure-Python path and the tests' reference."""
    m = DECIMAL.search(data, pos, hi)
    return None if m is None else (m.start(), m.end())


# (in C where built, `_unescape.decimal`: the same spans; the regex cost ~0.25 s a 12 MB line
# of `100, 99, `, run twice a line, by `spots` and by `_decimal_views`; session 36's review V5)
_decimal_search: Callable[[bytes, int, int], tuple[int, int] | None] = (
    native.UNESCAPE.decimal if native.UNESCAPE is not None else _decimal_search_py)


def _decimal_lists_py(raw: bytes) -> Iterator[tuple[int, int, bytes | None]]:
    """(start, end, bytes or None: `_decimal_bytes`) of each list of decimal bytes in `raw`,
    left to right, each searched from the last one's end: the pure-Python path and the tests'
    reference."""
    pos = 0
    while (span := _decimal_search(raw, pos, len(raw))) is not None:
        start, pos = span
        yield start, pos, _decimal_bytes(raw[start:pos])


def _decimal_bytes(run: bytes) -> bytes | None:
    """The bytes of a list `DECIMAL` matched, or None when a number is past 255 (no bytes:
    byte counts, scores, coordinates past 255). Read as a JSON array at C speed (orjson: 0.03 s
    a 12 MB list, where a split and a lookup a number cost 0.39 s, review V5); a number written
    with leading zeros (`007`, no JSON) sends the list to `_decimal_bytes_py`."""
    clean = run.translate(None, _DEC_SEPS)
    out = bytearray()
    at = 0
    try:
        while at < len(clean):  # (`_DEC_PIECE` bytes of digits at a time: a list of 3.9 million
            cut = clean.find(b",", at + _DEC_PIECE)  # numbers at once held ~100 MB more)
            cut = len(clean) if cut < 0 else cut
            out += bytes(orjson.loads(b"[%b]" % clean[at:cut]))
            at = cut + 1
    except orjson.JSONDecodeError:
        return _decimal_bytes_py(clean)
    except ValueError:
        return None  # (a number past 255)
    return bytes(out)


def _decimal_bytes_py(clean: bytes) -> bytes | None:
    """`_decimal_bytes` of a list without its separators, `_DEC_PIECE` bytes of digits at a
    time (the temporaries of a piece only: one `split` of a 15.7 MB list held 330 MB), each
    number looked up (`_DEC_VALUE`: 0.16 s for 3.9 million, `int` 0.25)."""
    out = bytearray()
    at = 0
    try:
        while at < len(clean):
            cut = clean.find(b",", at + _DEC_PIECE)
            cut = len(clean) if cut < 0 else cut
            out += bytes(map(_DEC_VALUE.__getitem__, clean[at:cut].split(b",")))
            at = cut + 1
    except KeyError:
        return None
    return bytes(out)


_DEC_PIECE = 1 << 16
_DEC_VALUE = {**{b"%d" % i: i for i in range(256)}, **{b"%02d" % i: i for i in range(100)},
              **{b"%03d" % i: i for i in range(256)}}


# (in C where built, `_unescape.decimal_lists`: the same lists, all of a line in one call; its
# search, translate and orjson parse cost ~5 us of Python a list, ~0.17 s of 0.75 a 16 MiB
# slice of QA s36's e_charcodes, 46 `String.fromCharCode` lists a line; session 37, unescape)
_decimal_lists: Callable[[bytes], Iterable[tuple[int, int, bytes | None]]] = (
    native.UNESCAPE.decimal_lists if native.UNESCAPE is not None else _decimal_lists_py)


def _pair_rows_py(raw: bytes, pos: int) -> tuple[int, bytes]:
    """The end of the rows `_PAIR_ROWS` matches at `pos` and their hex digits."""
    end = _PAIR_ROWS.match(raw, pos).end()  # type: ignore[union-attr]  # (it matches empty)
    return end, raw[pos:end].translate(None, _NOT_HEX)


# (in C where built, `_unescape.pair_rows`: the same end and digits, ~0.5 us a row less)
_pair_rows: Callable[[bytes, int], tuple[int, bytes]] = (
    native.UNESCAPE.pair_rows if native.UNESCAPE is not None else _pair_rows_py)


def _dump_rows_py(raw: bytes, pos: int) -> tuple[int, bytes]:
    """(end, hex digits) of the rows after a dump's first piece (`pos`: its end): its rows
    of bytes alone many at a time (`_PAIR_ROWS`), any other row one at a time (`_NEXT`)."""
    digits = []
    end = pos
    while True:
        rows, got = _pair_rows(raw, end)
        if rows > end:
            digits.append(got)
            end = rows
        if (nxt := _NEXT.match(raw, end)) is None:
            break
        digits.append(nxt.group(1).translate(None, _NOT_HEX))
        end = nxt.end()
    return end, b"".join(digits)


# (in C where built, `_unescape.dump_rows`: `_NEXT`'s rows one after the other, the regex's
# choices in its order; a `_NEXT.match` and its Python a row cost ~1 us, ~20 s per 512 MiB of
# `od -x` and `hexdump -C` rows, QA s38 T6; session 39, dumps)
_dump_rows: Callable[[bytes, int], tuple[int, bytes]] = (
    native.UNESCAPE.dump_rows if native.UNESCAPE is not None else _dump_rows_py)


# `hexdump -x`'s rows (4-digit groups 4 spaces apart, QA s42 h42_02) are dumps of a row or so
# each (`_NEXT`, in C, reads a next row's groups one space apart: its first only): word dumps
# only spaces, or a break and an offset, apart are one dump's
_ROW_GAP = re.compile(rb"(?:(?:\r?\n|\\r\\n|\\n)[0-9A-Fa-f]{6,8})? +")
# (and the 1-3 groups a row ends with after the dump `_NEXT` cut there: no dump's 4)
_MORE_WORDS = re.compile(rb"(?:(?:\r?\n|\\r\\n|\\n)[0-9A-Fa-f]{6,8})?"
                         rb"(?:    [0-9A-Fa-f]{4}(?![0-9A-Za-z_]))+")
_WORD4 = re.compile(rb"    ([0-9A-Fa-f]{4})")


def _dump_runs(raw: bytes) -> Iterator[tuple[int, int, bytes]]:
    """(start, end, bytes) of each spaced hex dump of `raw`, read over its line breaks
    (`_dump_rows`)."""
    pos = 0
    while (m := DUMP.search(raw, pos)) is not None:
        end, rows = _dump_rows(raw, m.end())
        hexed = m.group().translate(None, _NOT_HEX) + rows
        yield m.start(), end, bytes.fromhex(hexed[:len(hexed) // 2 * 2].decode("ascii"))
        pos = end


def _dump_runs_py(raw: bytes) -> Iterator[tuple[int, int, bytes]]:
    """`_dump_runs` a row at a time, each by `_NEXT` (session 35's loop): the tests' reference."""
    pos = 0
    while (m := DUMP.search(raw, pos)) is not None:
        digits = [m.group().translate(None, _NOT_HEX)]
        end = m.end()
        while (nxt := _NEXT.match(raw, end)) is not None:
            digits.append(nxt.group(1).translate(None, _NOT_HEX))
            end = nxt.end()
        hexed = b"".join(digits)
        yield m.start(), end, bytes.fromhex(hexed[:len(hexed) // 2 * 2].decode("ascii"))
        pos = end


def byte_views(raw: bytes, is_text: Callable[[bytes], bool]
               ) -> Iterator[tuple[bytes, bool, int, str]]:
    """(view, whether it is text, column, how) of `raw`'s byte arrays and dumps (above): the
    line with each run that decodes to text put in its place (one view, column its first
    run's), then each run that decodes to bytes alone; then each decimal list (`DECIMAL`)
    alone, `DECIMALS`. Nothing when `raw` holds none."""
    runs: list[tuple[int, int, bytes]] = []
    if markers_of(raw, MARKERS):  # (one SIMD pass: `in` cost ~1.8 ns a byte on hex text)
        runs += [(m.start(), m.end(), _array_bytes(m.group())) for m in ARRAY.finditer(raw)]
    dump, dec, _ = _gates(raw)
    words: list[tuple[int, bytes]] = []
    last = -1
    for start, end, got in _dump_runs(raw) if dump else ():
        # (`od -x`'s shape: its words little-endian, read alone by `secrets_words`; and
        # big-endian too, as before: `od --endian=big -x` and `xxd -g2`'s groups without their
        # offset or column print the same shape, and their keys were refused; review s39 R1)
        runs.append((start, end, got))
        if start >= last and is_words(raw, start) and (
                little := swapped(raw[start:end], got)) is not None:
            if words and _ROW_GAP.fullmatch(raw, last, start) is not None:
                words[-1] = (words[-1][0], words[-1][1] + little)  # (`hexdump -x`'s next row)
            else:
                words.append((start, little))
            last = end
            while (more := _MORE_WORDS.match(raw, last)) is not None:  # (a row's last 1-3)
                words[-1] = (words[-1][0], words[-1][1] + b"".join(
                    bytes.fromhex(w.decode("ascii"))[::-1] for w in _WORD4.findall(more.group())))
                last = more.end()
    if dump and markers_of(raw.translate(_DUMP_MAP), (WIDE,)):
        words += wide_words(raw)  # (`od -t x8`'s 16-digit words)
    if runs:
        yield from _views_of(raw, sorted(runs), is_text)
    for start, got in words:
        text = is_text(got)
        yield got, text, start + 1, WORDS
        if not text and (printable := _printable(got)):
            yield printable, True, start + 1, WORDS
    if dec:
        yield from _decimal_views(raw, is_text)


def _views_of(raw: bytes, runs: list[tuple[int, int, bytes]],
              is_text: Callable[[bytes], bool]) -> Iterator[tuple[bytes, bool, int, str]]:
    """`byte_views` of the arrays and dumps `runs` (in order)."""
    texts = [(s, e, got) for s, e, got in runs if is_text(got)]
    if texts:
        out, at = [], 0
        for start, end, got in texts:
            if start < at:
                continue
            out += [raw[at:start], got]
            at = end
        out.append(raw[at:])
        yield b"".join(out), True, texts[0][0] + 1, BYTES
    for start, _, got in runs:
        if not is_text(got):
            yield got, False, start + 1, BYTES
            printable = _printable(got)
            if printable:
                yield printable, True, start + 1, BYTES


def _decimal_views(raw: bytes, is_text: Callable[[bytes], bool]
                   ) -> Iterator[tuple[bytes, bool, int, str]]:
    """Each decimal list of `raw` decoded, alone: what separates an honest list (scores,
    coordinates, RGB triples, pixel rows, byte counts) from a key is what its bytes are, a
    key of a family or not. Not put back in the line, as arrays' text is: the line's words
    would be read with it, and `password_attempts = [91, 120, ...]` decodes to a value named
    like a secret (401 of 1,000 such honest lists were so named in the probe); a list alone
    is read for the families and patterns (text) or the byte patterns (bytes)."""
    for start, _, got in _decimal_lists(raw):
        if got is None:
            continue
        if is_text(got):
            yield got, True, start + 1, DECIMALS
            continue
        yield got, False, start + 1, DECIMALS
        printable = _printable(got)
        if printable:
            yield printable, True, start + 1, DECIMALS


# A compressed stream written as `\xNN` escapes (session 47, spell; review s46 R5: a C or
# Python string of gzip's bytes, `"\x1f\x8b\x08..."`, or Python's `repr` of them, escapes and
# printable characters by turns): the escape views read `\xNN` of printable codes only (a
# colour code `\x1b[0m` is no text), so such a stream was never read, and its key was
# published. A run: 16+ `\xNN` escapes (one backslash or two: as a JSON line writes them), up
# to 64 characters between two that are no backslash, quote or line break, or Python's own
# escapes (`\\n`, `\\'`, `\\\\`) and a quote, as a JSON line writes them. Read only when its bytes open as
# a compressed stream (`secrets_inflate.told`): a run of printable codes is the escape views'.
_XB = rb"\\\\?x[0-9A-Fa-f]{2}"
_XB_GAP = rb"(?:[^\\\"\r\n]|\\\\(?:[nrt']|\\\\)|\\\")"
XB_RUN = re.compile(_XB + rb"(?:" + _XB_GAP + rb"{0,64}+" + _XB + rb"){15,}+")
_XB_TOKEN = re.compile(rb"\\\\?x([0-9A-Fa-f]{2})|\\\\([nrt'])|\\\\(\\\\)|\\(\")")
_XB_CHARS = {**{b"%02x" % c: bytes([c]) for c in range(256)},
             **{b"%02X" % c: bytes([c]) for c in range(256)},
             **{b"%x%X" % (c >> 4, c & 15): bytes([c]) for c in range(256)},
             **{b"%X%x" % (c >> 4, c & 15): bytes([c]) for c in range(256)},
             b"n": b"\n", b"r": b"\r", b"t": b"\t", b"'": b"'", b"\\\\": b"\\", b'"': b'"'}
_XB_HEAD = 512  # escapes decoded to tell a stream (raw deflate's probe reads 512 bytes)
_XB_MAX = 1 << 20  # bytes of a line's runs decoded


def _xb_char(m: re.Match[bytes]) -> bytes:
    return _XB_CHARS[m.group(1) or m.group(2) or m.group(3) or m.group(4)]


def _xb_bytes(run: bytes) -> bytes:
    """The bytes `XB_RUN`'s `run` stands for (each escape its byte, the rest as written): at C
    speed when it is escapes alone (`"\\x1f\\x8b..."`: `fromhex` of its digits), else a
    piece an escape, Python's own escapes between by the regex (a callback an escape cost ~1
    us: 5,000 lines of a 1 KB bomb in escapes, 6.5 s of `verify`)."""
    if b"\\\\\\\\" in run:  # (Python's escaped backslash: only a scan left to right reads it)
        return _XB_TOKEN.sub(_xb_char, run)
    run = run.replace(b"\\\\x", b"\\x")
    parts = run.split(b"\\x")
    digits = b"".join(parts)
    if len(digits) == 2 * (len(parts) - 1) and not parts[0] and not digits.translate(None, HEX_DIGITS):
        return bytes.fromhex(digits.decode("ascii"))
    out = [_xb_literal(parts[0])]
    for part in parts[1:]:
        out.append(_XB_CHARS.get(part[:2], b""))
        if len(part) > 2:
            out.append(_xb_literal(part[2:]))
    return b"".join(out)


def _xb_literal(piece: bytes) -> bytes:
    """A piece between two escapes as it stands for: its characters, Python's `\\n` / `\\'`
    / `\\\\` and a JSON line's `\\"` decoded."""
    return _XB_TOKEN.sub(_xb_char, piece) if 92 in piece else piece


# (an escape of a control code, not `\\t` `\\n` `\\r`: a compressed stream holds one in 9
# bytes, and none in its first ~100 bytes about once in 10^5; text written in escapes,
# `$'\\x67h\\x70_...'` or UTF-8 (e_bashhex, e_xescape), holds none, and its lines are only
# looked at for runs when `\\x0` or `\\x1` is in them: `XB_RUN` over every `\\x` line cost
# e_bashhex's `verify` +150 %)
_XB_CONTROL = re.compile(rb"\\\\?x(?:0[0-8bcefBCEF]|1[0-9a-fA-F])")
XB_LINE = (b"\\x0", b"\\x1")
_XB_PROBE = 512  # (characters of a run, ~100 escapes)


def _xb_start(data: bytes, m: re.Match[bytes]) -> int:
    """Where the run `m` of `data` starts: at its first escape, or at the printable characters
    before it after a quote (Python's `repr`, `b'x\\x9c...` or `b"BZh91AY&SY\\x..."`: a
    stream's first bytes are letters)."""
    lo = max(0, m.start() - 64)
    quote = max(data.rfind(b"'", lo, m.start()), data.rfind(b'"', lo, m.start()))
    if quote >= 0 and not data[quote + 1:m.start()].translate(None, _XB_LITERAL):
        return quote + 1
    return m.start()


_XB_LITERAL = bytes(c for c in range(32, 127) if c not in b"\\\"'")


def _xb_told(data: bytes, start: int, m: re.Match[bytes]) -> bool:
    """Whether the run `m` of `data` (from `start`) opens as a compressed stream (its first
    `_XB_HEAD` bytes or more decoded: an escape is 4-5 characters; a piece cut inside one is
    read as written)."""
    if _XB_CONTROL.search(data, m.start(), min(m.end(), m.start() + _XB_PROBE)) is None:
        return False  # (text in escapes: the escape views')
    return told(_xb_bytes(data[start:min(m.end(), m.start() + 5 * _XB_HEAD)]), raw=True)


def xbyte_streams(raw: bytes) -> Iterator[tuple[int, bytes]]:
    """(column, bytes) of each run of `\\xNN` escapes of `raw` (above) whose bytes open as a
    compressed stream, at most `_XB_MAX` bytes a line (asked where `raw` holds `XB_LINE`)."""
    left = _XB_MAX
    for m in XB_RUN.finditer(raw):
        start = _xb_start(raw, m)
        if _xb_told(raw, start, m):
            got = _xb_bytes(raw[start:m.end()])
            left -= len(got)
            if left < 0:
                return
            yield m.start() + 1, got  # (its first escape: the finding's excerpt)


def xbyte_spots(data: bytes, lo: int, hi: int) -> list[int]:
    """Offsets from `lo` of each line of `data[lo:hi]` holding such a run (verify asks those
    lines; `secrets_decode.encoded_spots`, where its SIMD pass saw `\\x`): one SIMD pass for
    `XB_LINE`, a `find` for each there, then the line's runs."""
    out: list[int] = []
    for needle in markers_of(memoryview(data)[lo:hi], XB_LINE):
        at = data.find(needle, lo, hi)
        while at >= 0:
            a = data.rfind(b"\n", lo, at) + 1 or lo
            b = data.find(b"\n", at, hi)
            b = hi if b < 0 else b
            if any(_xb_told(data, _xb_start(data, m), m) for m in XB_RUN.finditer(data, a, b)):
                out.append(a - lo)
            at = data.find(needle, b, hi) if b < hi else -1
    return sorted(set(out))


# Printable ASCII (a key's characters) mapped to `a`, the rest to a space
_PRINT_MAP = bytes(97 if 33 <= c < 127 else 32 for c in range(256))
_PRINT_LEAST = 16


def _printable(got: bytes) -> bytes:
    """The runs of 16+ printable characters of bytes that are no text, joined by line breaks
    (as `strings` shows them): a key's bytes dumped after a block of zeros are read as one
    run with them, bytes, and would be read by the byte patterns only (the families are
    not). Found at C speed (`translate`, `find`), linear."""
    mapped = got.translate(_PRINT_MAP)
    needle = b"a" * _PRINT_LEAST
    out = []
    i = mapped.find(needle)
    while i >= 0:
        end = mapped.find(b" ", i)
        end = len(mapped) if end < 0 else end
        out.append(got[i:end])
        i = mapped.find(needle, end)
    return b"\n".join(out)
