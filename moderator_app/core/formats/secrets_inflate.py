"""One reading of every compressed payload a line's decoded runs hold (base64, base32, hex,
Ascii85, uuencode): told by its header, read whole, or refused as too large to read; asked by
`withhold` and by `verify`'s gate alike (session 45, spell; issue 15, review s44 R7 / s43 R3,
QA s44 T7 / T6).

Until session 45 a stream was read to its first 4 KiB and, for a short stream of text, on to
64x its size and 64 KiB: a key after 70 KB of text or of `#` (gzip), after 101 KiB of text or 1
MiB of `#` (bzip2), after 70 KB (zstd) was published, and so was a key in a stream of binary
data (a zstd or bzip2 data URI, 3 KB of noise before it: the first 4 KiB were no text, so
nothing was read). A ratio bound loses to a compressible pad; a head bound to a long one.

Now a stream is read whole, to the line's `LINE_MAX` of inflated bytes in all (`Budget`); a
stream with more to give is *too large to read* (`TOO_LARGE`), and the line is refused, never
published with a part unread. There is no bound on the ratio (the lead, session 45, review s45
R5): a bomb is zeros, and so is an honest payload that compresses far (a black 210x160 frame
is 100,800 zero bytes in 180 characters of gzip base64, 560x; a sparse RAM dump, blank lines),
so a ratio refused honest logs and bought only the difference between its allowance and the
line's budget, which costs ~1 ms a MiB to inflate. Honest payloads are read whole: the escape
logs' gzip blobs inflate 1.3-3.4x
(e_b64gz's 12 KB blobs to 28.5 KB, e_mime76 29.6 KB, e_pem64 28.9 KB, e_mime60 7.5 KB a
line), the QA logs' honest streams at most 19.7x (h43_15); a log of counters written out
(`frame 00001: ...`, 101 KiB) 24x in gzip, 56x in bzip2, 85x in zstd -19, 131x in xz. A bomb
costs its allowance: 200 MiB of zeros is refused after `LINE_MAX` (4 MiB) inflated, and a
file's bombs after its `Allowance` (session 46: 5,000 lines of 1 KB gzip bombs cost `verify` 37
s of CPU, each read to its 1 MiB of zeros; 1.7 s so).

A stream's members or frames one after another (`cat a.gz b.gz`, `gunzip` reads both) are
read as one; a damaged or cut stream gives what inflated before the damage (what `gunzip`
prints); a zstd frame or an xz stream that asks more memory than the decoder allows is too
large to read too (`zstd --long=27`: "corrupt" to a decoder of 8 MiB, its key unread). A ZIP
(`PK\\x03\\x04`: a data URI of `application/zip`, QA s44 h44_09) is read member by member
(stored, deflate, bzip2, zstd; an encrypted member is nobody's text).
"""

from __future__ import annotations

import bz2
import lzma
import struct
import zlib
from collections.abc import Callable
from contextvars import ContextVar

import zstandard

from moderator_app.core.formats.zstream import ZSTD_MAGIC

INFLATED = "a compressed stream in it (gzip, zlib, xz, lzma, bzip2, zstd, a ZIP) is inflated"
TOO_LARGE = "stream of compressed data too large to read"
# A stream refused because the file's `Allowance` is spent, not its line's budget: verify reports
# such lines once (their count, first and last line), so that a key on a later line is still
# named on its own line (QA s46 T6: 2,400 refused lines filled the 500 findings of the rule)
SPENT = "stream of compressed data not read: the file's allowance of inflated bytes is spent"
REFUSED = (TOO_LARGE, SPENT)  # a stream's refusals: its line is refused, never published
# inflated bytes a line: QA s45 h45_15's honest line 5 holds 1.5 MiB (300 KiB of text in xz,
# 1.2 MiB of JSON lines in zlib); 1 MiB refused it (session 46, spell)
LINE_MAX = 4 << 20
# A file's allowance (`Allowance`): its floor, then this many inflated bytes for each compressed
# byte of a stream the file holds (session 46, spell)
FILE_FLOOR = 64 << 20
FILE_RATIO = 4
_CHUNK = 1 << 12  # compressed bytes fed at a time: what inflated before a damage is kept
_GZIP_HEAD = b"\x1f\x8b\x08"
_XZ_HEAD = b"\xfd7zXZ\x00"
_BZIP2_BLOCK = b"1AY&SY"
_ZIP_HEAD = b"PK\x03\x04"
_ZSTD_WINDOW = 1 << 23  # (`zstd -19` of a pipe asks 8 MiB)
_XZ_MEMORY = 1 << 27  # (`xz -9` asks 65 MiB)
_RAW_PROBE = 16
_PRINTABLE = bytes(range(32, 127)) + b"\t\n\r"


class Budget:
    """What a line's streams may still inflate to (`LINE_MAX` at first): shared by the line's
    every reading (its views, and their views), so that a stream read at depth 1 or twice
    pays out of the same allowance. `credit`: how many of the line's own bytes may still earn
    the file's `Allowance` its `FILE_RATIO` (the line's length, `scanning(size)`). A stream
    nested in another's inflated text was never paid for by the log: credited by its own
    length, 40 lines of base64(gzip(base64(2.9 MB of gzip members))) raised the allowance
    ~7.7 MB each and let every bomb line after them be read whole (review s46 R3). `spent`:
    the kind of the last stream refused on this line when the file's allowance refused it
    (`SPENT`), None when the line's own budget did (`TOO_LARGE`) or none was."""

    __slots__ = ("credit", "left", "spent")

    def __init__(self, left: int = LINE_MAX, credit: int = 0) -> None:
        self.left = left
        self.credit = credit
        self.spent: str | None = None


_LINE: ContextVar[Budget | None] = ContextVar("secrets_inflate_line", default=None)


class Allowance:
    """What a file's streams may still inflate to past what each pays for itself (session 46,
    spell; the lead's session 45 proposal; session 47, allow): `FILE_FLOOR`. A stream pays
    for `FILE_RATIO` inflated bytes a compressed byte its decoder consumed, up to the length
    of the line that holds it (`Budget.credit`: the log's own bytes, never a nested stream's,
    review s46 R3), and only for itself: so at most `FILE_FLOOR` plus `FILE_RATIO` times the
    file's size is ever inflated, and no more than `FILE_FLOOR` of it at a ratio over
    `FILE_RATIO`. Until session 47 a stream credited the file's pool with `FILE_RATIO` bytes a
    byte of its run, and a stream that used less left the rest to any other (review s46 R3's
    residual): base64 of a 25-byte gzip member and 1 MB of junk after it credited 4 MB and
    inflated 5 bytes, so lines of it funded lines of gzip of 3.9 MB of text each (53.8 MB of
    log cost verify 9 s of CPU); so did funding that a decoder consumes (1 MB of empty stored
    deflate blocks, gzip of 1 MB of random bytes). A line's `Budget` bounds one
    line; without this 5,000 lines of 1 KB gzip bombs (1 MiB of zeros each, within a line's
    budget) cost `verify` 37 s of CPU
    (~7.4 ms a line), a 512 MiB log of them ~45 min. Past it a stream is too large to read
    and its line refused, never published part-read. Honest payloads pay their own way: the
    escape logs' gzip blobs inflate 1.3-3.4x, and a single stream that inflates further (a
    black frame, 560x; QA s45 h45_15's 1.5 MiB line) is read out of the floor."""

    __slots__ = ("left",)

    def __init__(self, left: int | None = None) -> None:
        self.left = FILE_FLOOR if left is None else left


_FILE: ContextVar[Allowance | None] = ContextVar("secrets_inflate_file", default=None)


class reading_file:  # noqa: N801 - (a context manager read as a phrase)
    """One file's reading (`withhold_log`, `verify`'s log checker): every stream read inside
    pays out of `allowance` too (the file's: kept by the caller between its calls)."""

    def __init__(self, allowance: Allowance) -> None:
        self.allowance = allowance

    def __enter__(self) -> Allowance:
        self._token = _FILE.set(self.allowance)
        return self.allowance

    def __exit__(self, *exc: object) -> None:
        _FILE.reset(self._token)


def line_budget() -> Budget:
    """The budget of the line being scanned (`scanning`), or a fresh one."""
    return _LINE.get() or Budget()


class scanning:  # noqa: N801 - (a context manager read as a phrase: `with scanning():`)
    """One line's reading (`secrets_public.scan_public`): every stream read inside pays out
    of one `Budget` (a context variable: a thread's scan is its own). `size`: the line's
    length, what its streams may credit the file's `Allowance` by (a nested reading, inside
    an outer one, shares the outer's budget and credit)."""

    def __init__(self, size: int = 0) -> None:
        self.size = size

    def __enter__(self) -> Budget:
        budget = _LINE.get()
        self._token = None
        if budget is None:
            budget = Budget(credit=self.size)
            self._token = _LINE.set(budget)
        return budget

    def __exit__(self, *exc: object) -> None:
        if self._token is not None:
            _LINE.reset(self._token)


def _is_deflated(data: bytes) -> bool:
    """Whether `data` opens as a gzip member or a zlib stream (`78`, deflate with a window of
    32 KiB, and the header's check: its two bytes a multiple of 31; RFC 1950)."""
    return data[:3] == _GZIP_HEAD or (
        len(data) > 2 and data[0] == 0x78 and (data[0] << 8 | data[1]) % 31 == 0)


def _is_bzip2(data: bytes) -> bool:
    """Whether `data` opens as a bzip2 stream: `BZh`, a block size 1-9, a block's magic."""
    return len(data) >= 10 and data[:3] == b"BZh" and 0x31 <= data[3] <= 0x39 \
        and data[4:10] == _BZIP2_BLOCK


def _is_raw_deflate(data: bytes) -> bool:
    """Whether `data` may be a raw deflate stream of text: its first block's type no reserved
    one and a stored block's length check kept (JPEG's 0xFF, PNG's 0x89: no inflater made),
    then its first `_RAW_PROBE` inflated bytes printable (of its first 512 bytes). No header
    tells raw deflate; random bytes pass about once in 10^7 (session 44, spell)."""
    if len(data) < 5:
        return False
    kind = data[0] >> 1 & 3
    if kind == 3 or (kind == 0 and (data[1] ^ data[3] != 255 or data[2] ^ data[4] != 255)):
        return False
    try:
        head = zlib.decompressobj(-15).decompress(data[:512], _RAW_PROBE)
    except zlib.error:
        return False
    return len(head) == _RAW_PROBE and not head.translate(None, _PRINTABLE)


# (what inflated, whether that is all, compressed bytes the decoder consumed: what a stream
# credits the file's `Allowance`, and what its members cost besides their bytes: `_MEMBER`)
_Read = tuple[bytes, bool, int, int]
# What each member or frame of a stream after its first costs the line's budget and the file's
# allowance, as if it inflated to it (session 47, allow; review s47 R1): one decoder a member,
# ~3 us, and an empty gzip member is 20 bytes, so 200,000 of them a line cost ~1 s even walked
# without copies (10 s with them); 4,096 a line at most now. BGZF's members (`bgzip`, 64 KiB
# each) pay ~1.5 %.
_MEMBER = 1 << 10


def _stream(unpack: object, data: bytes | memoryview, cap: int) -> tuple[bytes, bool, int, bool]:
    """What one zlib / bzip2 / xz decompressor (`unpack`) inflates `data` to, `cap` bytes at
    most (not all, `False`, when there is more), fed `_CHUNK` bytes at a time (the pieces
    joined once: a bomb's 1 MiB copied once, not at each piece); the bytes it consumed, and
    whether its stream ended there (another member may follow). Consumed: to the stream's
    end (not the junk after it); before a damage, the chunks decoded whole before it (a
    damaged stream credits no more than what surely decoded)."""
    pieces: list[bytes] = []
    size = fed = 0
    for at in range(0, len(data), _CHUNK):
        piece = data[at:at + _CHUNK]
        fed += len(piece)
        try:
            got = unpack.decompress(piece, cap + 1 - size)  # type: ignore[attr-defined]
        except (zlib.error, lzma.LZMAError, OSError, EOFError, ValueError) as e:
            # (damaged: what inflated before it)
            return _joined(pieces), not _too_much_memory(e), fed - len(piece), False
        pieces.append(got)
        size += len(got)
        if size > cap:
            tail = len(getattr(unpack, "unconsumed_tail", b""))
            return _joined(pieces)[:cap], False, fed - tail, False
        if unpack.eof:  # type: ignore[attr-defined]
            used = fed - len(unpack.unused_data)  # type: ignore[attr-defined]
            return _joined(pieces), True, used, True
    return _joined(pieces), True, len(data), False  # (cut: no more to read)


def _joined(pieces: list[bytes]) -> bytes:
    return pieces[0] if len(pieces) == 1 else b"".join(pieces)


def _too_much_memory(error: Exception) -> bool:
    """Whether a decoder refused a stream for the memory it asks (xz's memory limit, zstd's
    window), not for damage: such a stream is unread, not read to its damage."""
    return "memory" in str(error).lower()


def _members(make: Callable[[], object], head: Callable[[bytes], bool], data: bytes,
             cap: int) -> _Read:
    """A stream's members one after another (`head` tells the next), read as one, walked by
    offset (a copy of the rest a member made 200,000 empty gzip members cost 10 s: review s47
    R1); each after the first costs `_MEMBER`, and one past `cap` so is too large to read."""
    view = memoryview(data)
    pieces: list[bytes] = []
    size = used = charge = 0
    while True:
        got, whole, took, ended = _stream(make(), view[used:], cap - size - charge)
        pieces.append(got)
        size += len(got)
        used += took
        if not whole or not ended or used >= len(data) or not took \
                or not head(data[used:used + 16]):
            return _joined(pieces), whole, used, charge
        charge += _MEMBER
        if size + charge > cap:
            return _joined(pieces), False, used, charge


def _gzip_or_zlib(data: bytes, cap: int) -> _Read:
    return _members(lambda: zlib.decompressobj(47), lambda d: d[:3] == _GZIP_HEAD, data, cap)


def _xz(data: bytes, cap: int) -> _Read:
    return _members(lambda: lzma.LZMADecompressor(lzma.FORMAT_XZ, memlimit=_XZ_MEMORY),
                    lambda d: d[:6] == _XZ_HEAD, data, cap)


def _bzip2(data: bytes, cap: int) -> _Read:
    # (a block is decoded whole before its first byte: a 49-byte stream of 40 MB of zeros
    # costs ~3.5 ms once, and its first block is past any allowance: the line's reading ends)
    return _members(bz2.BZ2Decompressor, _is_bzip2, data, cap)


def _is_lzma_alone(data: bytes) -> bool:
    """Whether `data` opens as `lzma -c`'s stream (xz's legacy `.lzma`; QA s44 h44_06): the
    properties byte every preset writes (0x5D: lc 3, lp 0, pb 2), a dictionary of 2^n or
    2^n + 2^(n-1) bytes from 4 KiB to 1.5 GiB, a size unknown (all ones) or under 2^40."""
    if len(data) < 13 or data[0] != 0x5D:
        return False
    size, whole = int.from_bytes(data[1:5], "little"), int.from_bytes(data[5:13], "little")
    low = size & -size
    return 1 << 12 <= size <= 3 << 29 and size in (low, 3 * low // 2 if low > 1 else 0) \
        and (whole == (1 << 64) - 1 or whole < 1 << 40)


def _lzma_alone(data: bytes, cap: int) -> _Read:
    return _members(lambda: lzma.LZMADecompressor(lzma.FORMAT_ALONE, memlimit=_XZ_MEMORY),
                    lambda d: False, data, cap)


def _raw(data: bytes, cap: int) -> _Read:
    got, whole, used, _ = _stream(zlib.decompressobj(-15), data, cap)
    return got, whole, used, 0


_ZSTD: list[zstandard.ZstdDecompressor] = []
_SKIPPABLE = 0x184D2A50  # (a skippable frame's magic, its low 4 bits free)


def _zstd_frames(data: bytes) -> int:
    """Where `data`'s zstd frames (and skippable frames) end, walked by their headers and
    block headers (RFC 8878: no byte of a block read); `len(data)` when the last is cut. A
    reader across frames errs on bytes after them (`Unknown frame descriptor`) before it
    gives any byte: a key in a zstd stream with junk after it was never read (session 47)."""
    at = 0
    while at + 4 <= len(data):
        magic = int.from_bytes(data[at:at + 4], "little")
        if magic & ~0xF == _SKIPPABLE:
            at += 8 + int.from_bytes(data[at + 4:at + 8], "little")
            continue
        if magic != int.from_bytes(ZSTD_MAGIC, "little") or at + 5 > len(data):
            return at if magic != int.from_bytes(ZSTD_MAGIC, "little") else len(data)
        fhd = data[at + 4]
        single, fcs = fhd >> 5 & 1, fhd >> 6
        at += 5 + (not single) + (0, 1, 2, 4)[fhd & 3] + ((1 if single else 0), 2, 4, 8)[fcs]
        while True:
            if at + 3 > len(data):
                return len(data)
            head = int.from_bytes(data[at:at + 3], "little")
            kind, size = head >> 1 & 3, head >> 3
            if kind == 3:
                return len(data)  # (reserved: damaged, the reader tells)
            at += 3 + (1 if kind == 1 else size)
            if head & 1:
                break
        at += 4 * (fhd >> 2 & 1)
    return min(at, len(data))


def _zstd(data: bytes, cap: int) -> _Read:
    """A zstd stream's frames (`read_across_frames`) to their end (`_zstd_frames`), `cap`
    bytes at most; one decompressor a process (its context reused: ~2 us a stream, 5 with a
    new one). Consumed: to the frames' end when they are read without an error, else none
    (the reader tells no place: a damaged or refused stream pays nothing)."""
    if not _ZSTD:
        _ZSTD.append(zstandard.ZstdDecompressor(max_window_size=_ZSTD_WINDOW))
    end = _zstd_frames(data) or len(data)
    reader = _ZSTD[0].stream_reader(memoryview(data)[:end], read_across_frames=True)
    pieces: list[bytes] = []
    size = 0
    try:
        while size <= cap and (piece := reader.read(cap + 1 - size)):
            pieces.append(piece)
            size += len(piece)
    except zstandard.ZstdError as e:
        return _joined(pieces) if pieces else b"", not _too_much_memory(e), 0, 0
    got = _joined(pieces) if pieces else b""
    return (got, True, end, 0) if size <= cap else (got[:cap], False, 0, 0)


# A ZIP member's methods read (stored, deflate, bzip2, zstd); another's bytes are left as they
# are (`lzma`'s 14 and PPMd's 98 are rare, and the member's name is still read)
_ZIP_LOCAL = struct.Struct("<4sHHHHHIIIHH")
_ZIP_DESCRIPTOR = b"PK\x07\x08"


def _zip(data: bytes, cap: int) -> _Read:
    """A ZIP's members (local headers one after another), each its name and a line break,
    then what it inflates to; `cap` bytes in all at most, each member after the first costing
    `_MEMBER` too. Consumed: the members read whole (not the central directory after them,
    nor a member refused or left unread)."""
    view = memoryview(data)
    out, at, charge = b"", 0, -_MEMBER
    while data[at:at + 4] == _ZIP_HEAD and len(data) >= at + _ZIP_LOCAL.size:
        _, _, flags, method, _, _, _, size, _, name, extra = _ZIP_LOCAL.unpack_from(data, at)
        body = at + _ZIP_LOCAL.size + name + extra
        charge += _MEMBER
        out += data[at + _ZIP_LOCAL.size:at + _ZIP_LOCAL.size + name] + b"\n"
        if flags & 1:
            return out, True, at, charge  # (encrypted: no reader has its text)
        left = cap - len(out) - charge
        if method == 0:
            stored = size if size or not flags & 8 else len(data) - body
            got, whole, used = data[body:body + max(0, min(stored, left))], stored <= left, stored
        elif method == 8:
            got, whole, used, _ = _stream(zlib.decompressobj(-15), view[body:], max(0, left))
        elif method in (12, 93):
            got, whole, _, _ = (_bzip2 if method == 12 else _zstd)(data[body:body + size],
                                                                    max(0, left))
            used = size
        else:
            return out, True, at, charge
        out += got + b"\n"
        if not whole or len(out) + charge > cap:
            return out[:max(0, cap - charge)], False, at, charge
        at = min(len(data), body + used)
        if flags & 8:  # (a data descriptor after the data, its signature optional)
            at += 16 if data[at:at + 4] == _ZIP_DESCRIPTOR else 12
    return out, True, min(at, len(data)), max(0, charge)


# (how a stream is told, how it is read, its name): a new format is a row
_Format = tuple[Callable[[bytes], bool], Callable[[bytes, int], _Read], str]
_FORMATS: tuple[_Format, ...] = (
    (_is_deflated, _gzip_or_zlib, "gzip / zlib"),
    (lambda data: data[:6] == _XZ_HEAD, _xz, "xz"),
    (_is_bzip2, _bzip2, "bzip2"),
    (lambda data: data[:4] == ZSTD_MAGIC, _zstd, "zstd"),
    (lambda data: data[:4] == _ZIP_HEAD, _zip, "ZIP"),
    (_is_lzma_alone, _lzma_alone, "lzma"),
    (_is_raw_deflate, _raw, "raw deflate"),
)


def _formats(raw: bool) -> tuple[_Format, ...]:
    """`_FORMATS`, or all but raw deflate (its last) for a stream with a header only."""
    return _FORMATS if raw else _FORMATS[:-1]


def told(data: bytes, raw: bool = True) -> bool:
    """Whether `data` (a run's decoded bytes) opens as a compressed stream of `_FORMATS`: the
    one test of `withhold`'s reading (`inflated`) and `verify`'s gate
    (`withhold_gate.payload_spots`). `raw`: False for a stream with a header only (hex runs:
    no gate of `verify`'s can probe raw deflate in a hex digest, session 46)."""
    return any(tell(data) for tell, _, _ in _formats(raw))


def inflated(data: bytes, budget: Budget | None = None,
             raw: bool = True) -> tuple[bytes, bool] | None:
    """(what `data` inflates to, whether that is all of it) when `data` is a compressed stream
    (`told`), else None. At most what `budget` (the line's: `line_budget`) has left; `False`:
    too large to read (more to give). Inside `reading_file`, a stream pays `FILE_RATIO` bytes
    a byte its decoder consumed (for as many bytes as the line itself still holds:
    `Budget.credit`), and what it inflates past that out of the file's `Allowance`; it is read
    to that sum at most (`FILE_RATIO` bytes a byte of `data` first: the bytes it will consume
    are known once it is read) and refused when what it consumed and the allowance do not
    pay for what it inflated (a 25-byte bomb member before 1 MB of junk). The allowance
    never falls below nothing: a bomb's overdraft is no debt a later honest stream must pay
    (QA s46 h46_09's key, in a small gzip after 2,400 bombs). Refused by the allowance, the
    stream's kind is `budget.spent`. A refusal spends the line's budget: the line is refused,
    its text is still read, and its later streams are refused unread (five bzip2 bombs a line
    cost five block decodes, ~3.5 ms each, session 45)."""
    budget = line_budget() if budget is None else budget
    for tell, read, name in _formats(raw):
        if tell(data):
            cap = max(0, budget.left)
            if not cap:
                return b"", False  # (its reason: the line's first refusal's, `spent`)
            allowance = _FILE.get()
            if allowance is None:
                got, whole, _, charge = read(data, cap)
                budget.left -= len(got) + charge
                if not whole:
                    budget.spent, budget.left = None, 0
                return got, whole
            credit = max(0, budget.credit)
            have = max(0, allowance.left)
            file_cap = have + FILE_RATIO * min(len(data), credit)
            got, whole, used, charge = read(data, min(cap, file_cap))
            paid = min(used, credit)
            budget.credit -= paid
            budget.left -= len(got) + charge
            excess = max(0, len(got) + charge - FILE_RATIO * paid)  # (no surplus kept)
            allowance.left = max(0, have - excess)
            if whole and excess > have:
                whole = False
            if not whole:
                budget.spent = name if excess > have or file_cap < cap else None
                budget.left = 0
            return got, whole
    return None
