"""Bundles read in place: `.zip`, `.tar`, `.tar.gz`/`.tgz`, `.tar.zst`/`.tzst`.

Nothing is ever extracted to a path taken from the archive (docs/DESIGN.md): each regular member
becomes a `Member` whose opener streams its bytes out of the archive. Members that are links,
devices or FIFOs, or whose names are absolute or climb with `..`, are refused with a finding
and never opened. Sizes in headers are not trusted: every read is counted and capped
(`MAX_MEMBER_BYTES`), so a zip bomb or a lying header ends as an error, not as a full disk.
A `.tar.zst` is decompressed by the honest `zstream.ZstdReader` (a truncated bundle is an
error, not a shorter bundle).
"""

from __future__ import annotations

import contextlib
import io
import stat
import struct
import tarfile
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import IO, BinaryIO

from moderator_app.core.errors import InputError
from moderator_app.core.formats.members import (
    MAX_MEMBERS,
    MAX_SNIFFED,
    ROLE_OTHER,
    SNIFF_BYTES,
    Member,
    classify,
    needs_sniff,
    sniff_by_name,
)
from moderator_app.core.formats.zstream import (
    ZstdReader,
    ZstdStreamError,
    bomb_message,
    bomb_ratio,
)
from moderator_app.core.rules import Finding, Severity, rule
from moderator_app.core.text import printable_name

MAX_MEMBER_BYTES = 64 << 30  # bytes actually read from one member
MAX_ZIP_ENTRIES = 200_000  # a zip with more entries is refused before its directory is parsed
# A GNU long name/link or a pax header is read whole into memory by tarfile: PATH_MAX is 4 KiB
# and honest pax headers (times, long names, xattrs) hold a few KiB, so 1 MiB is ample.
MAX_TAR_META_BYTES = 1 << 20

LINK = rule("archive.link", Severity.ERROR,
            "An archive member is a symbolic or hard link: refused, never followed.", "archive")
DEVICE = rule("archive.device", Severity.ERROR,
              "An archive member is a device, FIFO or other special file: refused.", "archive")
UNSAFE_PATH = rule("archive.unsafe_path", Severity.ERROR,
                   "An archive member's name is absolute or contains `..`: refused.", "archive")
ENCRYPTED = rule("archive.encrypted", Severity.ERROR,
                 "An encrypted zip member cannot be verified.", "archive")
DUPLICATE = rule("archive.duplicate_name", Severity.ERROR,
                 "Two archive members have the same name: the bundle is ambiguous.", "archive")
CORRUPT = rule("archive.corrupt", Severity.ERROR,
               "The archive is damaged or truncated; members after the damage are missing.",
               "archive")
SPARSE = rule("archive.sparse", Severity.ERROR,
              "A sparse tar member (mostly holes), or a log, trajectory or video file of a "
              "folder with 64 MiB or more never written: refused, never read.", "archive")
OVERLAP = rule("archive.overlap", Severity.ERROR,
               "Zip entries whose data overlap (a zip bomb construction): refused.", "archive")
TOO_MANY = rule("archive.too_many_members", Severity.ERROR,
                f"More than {MAX_MEMBERS} members: the rest are not listed.", "archive")

_READ_ERRORS = (OSError, EOFError, zlib.error, zipfile.BadZipFile, tarfile.TarError,
                ZstdStreamError, ValueError, RuntimeError)


_HEAD_BYTES = 64 << 10  # read when a member is opened (see _MemberStream.__init__)


class ArchiveReadError(OSError):
    """Reading a member failed (damaged archive, CRC error, cap exceeded)."""


class _MemberStream:
    """A read-only stream over one member: counts bytes, enforces the cap, turns the archive
    libraries' many exceptions into ArchiveReadError, and closes the archive with itself."""

    def __init__(self, inner: IO[bytes], closers: list, name: str,
                 cap: int = MAX_MEMBER_BYTES,
                 compressed: Callable[[], int] | None = None) -> None:
        self._inner = inner
        self._closers = closers
        self._name = name
        self._cap = cap
        self._compressed = compressed  # compressed bytes consumed so far, for the bomb check
        self.bytes_read = 0
        # The first bytes are read now, so that an archive damaged right at the start of the
        # member fails in the opener (where callers turn OSError into a finding) rather than
        # at a caller's first peek (a cut .tar.gz crashed `verify` at `read(4)` before this).
        try:
            self._head = self._read_inner(_HEAD_BYTES)
        except BaseException:
            self.close()
            raise

    def readable(self) -> bool:
        return True

    def compressed_read(self) -> int | None:
        """Bytes of the archive file consumed for this member so far (None when unknown):
        with `bytes_read`, the member's compression ratio (local_copy's video bound)."""
        return self._compressed() if self._compressed is not None else None

    def _read_inner(self, size: int) -> bytes:
        try:
            data = self._inner.read(size)
        except _READ_ERRORS as exc:
            raise ArchiveReadError(f"{self._name}: cannot read from the archive: {exc}") from None
        self.bytes_read += len(data)
        if self.bytes_read > self._cap:
            raise ArchiveReadError(f"{self._name}: more than {self._cap} bytes (cap)")
        if self._compressed is not None and bomb_ratio(self.bytes_read, self._compressed()):
            raise ArchiveReadError(
                f"{self._name}: {bomb_message(self.bytes_read, self._compressed())}")
        return data

    def read(self, size: int = -1) -> bytes:
        want = size if size is not None and size >= 0 else 1 << 20
        if self._head:
            data, self._head = self._head[:want], self._head[want:]
            return data
        return self._read_inner(want)

    def close(self) -> None:
        for c in [self._inner, *self._closers]:
            # closing a damaged archive must not mask the error that got us here
            with contextlib.suppress(Exception):
                c.close()

    def __enter__(self) -> _MemberStream:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def unsafe_name(name: str) -> str | None:
    """Why a member name is refused (absolute, drive, `..`), or None when it is safe."""
    if not name:
        return "empty name"
    norm = name.replace("\\", "/")
    if norm.startswith("/") or (len(norm) > 1 and norm[1] == ":"):
        return "absolute path"
    if any(part == ".." for part in norm.split("/")):
        return "`..` in the path"
    if "\x00" in name:
        return "NUL in the name"
    return None


def _skipped(name: str) -> bool:
    """Hidden files and macOS resource forks, skipped as a folder's dotfiles are."""
    parts = [p for p in name.replace("\\", "/").split("/") if p]
    parts = [p for p in parts if p != "."]
    return not parts or parts[0] == "__MACOSX" or any(p.startswith(".") for p in parts)


def _clean(name: str) -> str:
    """The member's path in POSIX form, as valid Unicode (undecodable bytes as \\xNN)."""
    return printable_name(
        "/".join(p for p in name.replace("\\", "/").split("/") if p and p != "."))


def open_archive(path: Path) -> tuple[list[Member], list[Finding]]:
    """List an archive's regular members (readable in place) and the refused ones."""
    path = Path(path)
    lower = path.name.lower()
    if lower.endswith(".zip"):
        return _zip_members(path)
    if lower.endswith((".tar.zst", ".tzst")):
        return _tar_members(path, _zst_open)
    if lower.endswith((".tar.gz", ".tgz")):
        return _tar_members(path, _gz_open)
    if lower.endswith(".tar"):
        return _tar_members(path, lambda p: open(p, "rb"), "r|")  # noqa: SIM115
    raise InputError(f"{path}: not a supported archive (.zip .tar .tar.gz .tar.zst)")


def list_tar_stream(path: Path, open_raw: Callable[[Path], io.RawIOBase]) -> tuple[
        list[Member], list[Finding]]:
    """`open_archive` for a tar behind a decompressor named by the caller (a nested `.tar.xz`
    listed by name, core/verify/nested.py): the same caps and refusals."""
    return _tar_members(path, open_raw, "r|")


# -- zip ----------------------------------------------------------------------------------
def _zip_members(path: Path) -> tuple[list[Member], list[Finding]]:
    entries = _zip_entry_count(path)
    if entries is not None and entries > MAX_ZIP_ENTRIES:
        many = f"at least {entries}" if entries == MAX_ZIP_ENTRIES + 1 else str(entries)
        raise InputError(f"{path}: the zip archive has {many} entries, more than the "
                         f"{MAX_ZIP_ENTRIES} this tool reads: refused")
    try:
        zf = zipfile.ZipFile(path)  # one handle for every member: the central directory is
        infos = zf.infolist()       # read once, not once per member (9,000 members: >300 s)
    except (OSError, zipfile.BadZipFile, ValueError) as exc:
        raise InputError(f"{path}: not a readable zip archive: {exc}") from exc
    members: list[Member] = []
    findings: list[Finding] = []
    seen: set[str] = set()
    overlapping = _overlapping(infos)
    if overlapping:
        zf.close()
        findings.append(OVERLAP.at(
            f"{overlapping} zip entries overlap the data of another entry (a zip bomb "
            "construction): every member of this archive is refused", path.name))
        return members, findings
    sniffed = 0
    local = _local_names(path, infos[: MAX_MEMBERS + 1])
    for info in infos:
        name = info.filename
        if len(members) >= MAX_MEMBERS:
            findings.append(TOO_MANY.at(f"more than {MAX_MEMBERS} members", path.name))
            break
        other = _other_local_name(info, local.get(info.header_offset))
        if other is not None:
            findings.append(CORRUPT.at(
                f"member {name[:200]!r}: {other}, so a tool that reads local headers (a "
                "streaming unzip) sees another file: refused", path.name))
            continue
        mode = info.external_attr >> 16
        why = unsafe_name(name)
        if why:
            findings.append(UNSAFE_PATH.at(f"member {name[:200]!r} refused: {why}", path.name))
            continue
        if info.is_dir() or _skipped(name):
            continue
        if mode and stat.S_ISLNK(mode):
            findings.append(LINK.at(f"member {name[:200]!r} is a symbolic link: refused",
                                    path.name))
            continue
        if mode and stat.S_IFMT(mode) not in (0, stat.S_IFREG):
            findings.append(DEVICE.at(f"member {name[:200]!r} is not a regular file: refused",
                                      path.name))
            continue
        if info.flag_bits & 0x1:
            findings.append(ENCRYPTED.at(f"member {name[:200]!r} is encrypted", path.name))
            continue
        clean = _clean(name)
        if clean in seen:
            findings.append(DUPLICATE.at(f"member {clean[:200]!r} appears twice", path.name))
            continue
        seen.add(clean)

        def opener(info=info, clean=clean) -> BinaryIO:
            if info.compress_type not in _ZIP_METHODS:
                raise ArchiveReadError(
                    f"{clean}: compressed with {_method_name(info.compress_type)}; this tool "
                    "reads zip members stored or deflated only (zipfile expands a bzip2 or "
                    "lzma read without bound: 100 KB of bzip2 took 1.4 GB)")
            try:
                inner = zf.open(info)
            except _READ_ERRORS as exc:
                raise ArchiveReadError(f"{clean}: cannot open in the archive: {exc}") from None
            def consumed(inner=inner, total=info.compress_size) -> int:
                # compressed bytes read so far (ZipExtFile counts down what is left)
                return total - int(getattr(inner, "_compress_left", 0) or 0)

            return _MemberStream(inner, [], clean,  # type: ignore[return-value]
                                 compressed=consumed)

        role = classify(clean, opener if sniffed < MAX_SNIFFED else None)
        sniffed += needs_sniff(clean)
        members.append(Member(clean, info.file_size, role, opener))
    return members, findings


# Stored and deflate are what zip writers use by default (zip, Windows, macOS, Python). The
# others are refused when opened: zipfile hands a whole compressed read to the bzip2 or lzma
# decompressor with no output bound (unlike deflate), so a few KB become gigabytes in memory
# before any cap can count them; deflate64, zstd and others it cannot read at all.
_ZIP_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
_METHOD_NAMES = {zipfile.ZIP_BZIP2: "bzip2", zipfile.ZIP_LZMA: "lzma", 9: "deflate64",
                 93: "zstd", 99: "AES encryption"}


def _method_name(method: int) -> str:
    return _METHOD_NAMES.get(method, f"compression method {method}")


def _zip_entry_count(path: Path) -> int | None:
    """The zip's entry count, before zipfile parses every entry (a million entries cost it
    seconds and ~580 bytes each): the end-of-central-directory record's count, or the
    entries the central directory holds when more (walked header by header, up to one past
    MAX_ZIP_ENTRIES: a record that says 5 over 600,000 entries took zipfile to 352 MB, a
    million past 512 MiB; session 25). None when it cannot be read."""
    try:
        with open(path, "rb") as fh:
            end = zipfile._EndRecData(fh)  # type: ignore[attr-defined]
            if not end:
                return None
            said = int(end[zipfile._ECD_ENTRIES_TOTAL])  # type: ignore[attr-defined]
            return max(said, _central_entries(fh, end))
    except (OSError, AttributeError, ValueError, struct.error):
        return None


_CENTRAL = struct.Struct("<I24xHHH12x")  # signature; name, extra and comment lengths


def _central_entries(fh, end) -> int:
    """Central directory headers from where `end` (zipfile's end record) places the
    directory, counted up to MAX_ZIP_ENTRIES + 1 (as zipfile finds its start, concatenated
    data before the zip included); 0 when the directory is not where it says."""
    size = int(end[zipfile._ECD_SIZE])  # type: ignore[attr-defined]
    start = int(end[zipfile._ECD_LOCATION]) - size  # type: ignore[attr-defined]
    if end[zipfile._ECD_SIGNATURE] == zipfile.stringEndArchive64:  # type: ignore[attr-defined]
        start -= zipfile.sizeEndCentDir64 + zipfile.sizeEndCentDir64Locator  # type: ignore
    if start < 0:
        return 0
    fh.seek(start)
    buf, at, count, left = b"", 0, 0, size
    while count <= MAX_ZIP_ENTRIES:
        if len(buf) - at < _CENTRAL.size:
            chunk = fh.read(min(left, 1 << 20))
            left -= len(chunk)
            buf, at = buf[at:] + chunk, 0
            if len(buf) < _CENTRAL.size:
                break
        sig, name, extra, comment = _CENTRAL.unpack_from(buf, at)
        if sig != 0x02014B50:
            break
        count += 1
        at += _CENTRAL.size + name + extra + comment
        while at > len(buf) and left > 0:  # a header longer than what is read: skip on
            skip = min(at - len(buf), left)
            fh.seek(skip, 1)
            left -= skip
            at -= skip
    return count


def _local_names(path: Path, infos: list[zipfile.ZipInfo]) -> dict[int, bytes | None]:
    """Each entry's name as its local header spells it (None: no local header there), by
    header offset. zipfile lists the central directory's names and checks the local one only
    when a member is opened: a failing `agent-log.jsonl` listed as `notes.txt` beside a
    self-made chain was never opened, and passed (s28 hostile sweep), while a streaming
    reader (bsdtar, Java's ZipInputStream) sees the log. One pass in offset order."""
    names: dict[int, bytes | None] = {}
    with contextlib.suppress(OSError), open(path, "rb", buffering=1 << 16) as fh:
        for info in sorted(infos, key=lambda i: i.header_offset):
            fh.seek(info.header_offset)
            head = fh.read(30)
            if len(head) < 30 or head[:4] != b"PK\x03\x04":
                names[info.header_offset] = None
                continue
            size, = struct.unpack_from("<H", head, 26)
            names[info.header_offset] = fh.read(size)
    return names


def _other_local_name(info: zipfile.ZipInfo, raw: bytes | None) -> str | None:
    """Why the local header does not name `info`'s file, or None when it does: the same
    bytes as the central name in UTF-8 or CP437 (writers differ in the UTF-8 flag of one
    header or the other, not in the name's bytes)."""
    if raw is None:
        return "no local header where the central directory puts it"
    for encoding in ("utf-8", "cp437"):
        try:
            if info.orig_filename.encode(encoding) == raw:
                return None
        except UnicodeEncodeError:
            continue
    return f"its local header names {printable_name(raw.decode('utf-8', 'surrogateescape'))[:200]!r}"


def _overlapping(infos: list[zipfile.ZipInfo]) -> int:
    """How many entries start inside the previous entry's local header and data. Honest
    writers lay entries end to end; overlapping ones let a few KB of deflate stand for
    thousands of members (Fifield's "better zip bomb")."""
    spans = sorted((i.header_offset, i.compress_size) for i in infos)
    count = 0
    for (start, size), (nxt, _) in zip(spans, spans[1:], strict=False):
        if nxt < start + 30 + size:  # 30: the fixed part of a local file header
            count += 1
    return count


# -- tar ----------------------------------------------------------------------------------
def _zst_open(p: Path) -> BinaryIO:
    raw = open(p, "rb")  # noqa: SIM115 - closed by the member stream / listing
    return ZstdReader(raw)  # type: ignore[return-value]


def _gz_open(p: Path) -> BinaryIO:
    raw = open(p, "rb")  # noqa: SIM115 - closed by the member stream / listing
    return GzipReader(raw)  # type: ignore[return-value]


class GzipReader:
    """The decompressed bytes of a gzip file (all its members), at most `size` per read.

    tarfile's own gzip stream keeps its decompressed buffer in one bytes object and copies
    the rest of it on every 10 KB read: a 1 GiB zero member (1 MB of gzip, ratio 1000:1)
    took 41 s. zlib's `max_length` bounds each call's output instead. A gzip stream that
    ends inside a member raises EOFError (never a silently shorter archive)."""

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        self._d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self._in = b""  # compressed bytes not yet given to zlib
        self._fed = False  # the current gzip member has started
        self._done = False
        self._raw_read = 0  # compressed bytes read, and decompressed bytes made (bomb check)
        self._out = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        want = size if size is not None and size > 0 else 1 << 20
        while not self._done:
            if not self._in:
                self._in = self._raw.read(1 << 16)
                self._raw_read += len(self._in)
                if not self._in:
                    if self._fed:
                        raise EOFError("the gzip stream is truncated (it ends inside a "
                                       "compressed member)")
                    self._done = True
                    break
            self._fed = True
            data = self._d.decompress(self._in, want)
            self._in = self._d.unconsumed_tail
            self._out += len(data)
            if bomb_ratio(self._out, self._raw_read):
                raise EOFError(bomb_message(self._out, self._raw_read))
            if self._d.eof:  # a gzip member ended; another may follow (concatenated gzip)
                self._in = self._d.unused_data + self._in
                self._d = zlib.decompressobj(16 + zlib.MAX_WBITS)
                self._fed = False
                if self._in and not self._in.startswith(b"\x1f\x8b"[:len(self._in)]):
                    self._done = True  # padding after the last member (tar pads with zeros)
            if data:
                return data
        return b""

    def close(self) -> None:
        self._raw.close()


class _EndGuard:
    """The archive's bytes for tarfile, refusing to be read on and on past their end.

    In stream mode tarfile skips a member by reading forward to its end, a block at a time,
    without ever looking at what it got: a header claiming a size of 10^40 bytes (a pax
    `size` record) made it read empty blocks for ever after the real end (a hang, issue 15).
    tarfile itself reads the end a few times (the zero blocks, the last header), so the
    guard lets a few empty reads pass and then ends the listing as a damaged archive."""

    _EMPTY_READS = 64

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        self._empty = 0

    def read(self, size: int = -1) -> bytes:
        data = self._raw.read(size)
        if data:
            return data
        self._empty += 1
        if self._empty > self._EMPTY_READS:
            raise tarfile.ReadError("unexpected end of data (a member claims more bytes "
                                    "than the archive holds)")
        return data

    def close(self) -> None:
        self._raw.close()


_META_TYPES = (tarfile.GNUTYPE_LONGNAME, tarfile.GNUTYPE_LONGLINK, tarfile.XHDTYPE,
               tarfile.XGLTYPE, tarfile.SOLARIS_XHDTYPE)


_END_HEADERS = ("EOFHeaderError", "EmptyHeaderError")  # the zero blocks, or no more bytes


class _BoundedTarInfo(tarfile.TarInfo):
    """A header that refuses a long name or pax header larger than MAX_TAR_META_BYTES.

    tarfile reads such a header's data into one bytes object (and joins its blocks once
    more): a GNU long name of 600 MiB, 2.7 MB as .tar.gz, ended in MemoryError under a
    512 MiB limit (internal error, exit 2; QA session 8). The bound is checked on the
    header's size field before a byte of its data is read."""

    @classmethod
    def fromtarfile(cls, tarfile_):
        """tarfile ends a listing quietly at a damaged header after the first member (an
        `InvalidHeaderError` past offset 0 is taken for the end): a tar whose log had a
        negative base-256 size read the log as 0 bytes and then simply had no more members,
        video included, with no word of damage. Here that is a damaged archive."""
        try:
            return super().fromtarfile(tarfile_)
        except tarfile.HeaderError as exc:  # (its subclasses are not public names)
            if tarfile_.offset == 0 or type(exc).__name__ in _END_HEADERS:
                raise  # tarfile's own "not a tar" and "end of the archive" paths
            raise tarfile.ReadError(f"a damaged header at byte {tarfile_.offset} ({exc}): "
                                    "the members after it are missing") from None

    def _proc_member(self, tarfile_):
        if self.size < 0:  # base-256 lets a size be negative; tarfile takes it as 0 blocks
            raise tarfile.ReadError(f"member {self.name[:200]!r} has a negative size "
                                    f"({self.size} bytes)")
        if self.type in _META_TYPES and self.size > MAX_TAR_META_BYTES:
            kind = "pax" if self.type not in _META_TYPES[:2] else "long name/link"
            raise tarfile.ReadError(f"a {kind} header of {self.size} bytes (more than "
                                    f"{MAX_TAR_META_BYTES} bytes): refused, not read")
        return super()._proc_member(tarfile_)  # type: ignore[misc]


def _tar_iter(path: Path, open_raw: Callable, mode: str):
    raw = _EndGuard(open_raw(path))
    try:
        # stream mode: never seeks, never extracts
        # (mode: one of the stream-read modes, "r|" "r|gz", named by the caller)
        tf = tarfile.open(fileobj=raw, mode=mode,  # type: ignore[call-overload]  # noqa: SIM115
                          tarinfo=_BoundedTarInfo)
    except _READ_ERRORS:
        raw.close()
        raise
    return raw, tf


def _tar_members(path: Path, open_raw: Callable,
                 mode: str = "r|") -> tuple[list[Member], list[Finding]]:
    members: list[Member] = []
    findings: list[Finding] = []
    seen: set[str] = set()
    try:
        raw, tf = _tar_iter(path, open_raw, mode)
    except _READ_ERRORS as exc:
        raise InputError(f"{path}: not a readable tar archive: {exc}") from None
    ordinal = -1
    sniffed = 0
    try:
        while True:
            try:
                info = tf.next()
            except _READ_ERRORS as exc:
                findings.append(CORRUPT.at(f"the archive cannot be read past {len(members)} "
                                           f"members: {exc}", path.name))
                break
            if info is None:
                break
            ordinal += 1
            if len(members) >= MAX_MEMBERS:
                findings.append(TOO_MANY.at(f"more than {MAX_MEMBERS} members", path.name))
                break
            name = info.name
            why = unsafe_name(name)
            if why:
                findings.append(UNSAFE_PATH.at(f"member {name[:200]!r} refused: {why}",
                                               path.name))
                continue
            if info.isdir() or _skipped(name):
                continue
            if info.issym() or info.islnk():
                findings.append(LINK.at(f"member {name[:200]!r} is a link to "
                                        f"{info.linkname[:200]!r}: refused", path.name))
                continue
            if not info.isreg():
                findings.append(DEVICE.at(f"member {name[:200]!r} is a device, FIFO or "
                                          "special file: refused", path.name))
                continue
            if info.sparse is not None:
                findings.append(SPARSE.at(f"member {name[:200]!r} is a sparse file "
                                          f"({info.size} bytes, mostly holes): refused",
                                          path.name))
                continue
            clean = _clean(name)
            if clean in seen:
                findings.append(DUPLICATE.at(f"member {clean[:200]!r} appears twice",
                                             path.name))
                continue
            seen.add(clean)

            def opener(ordinal=ordinal, clean=clean) -> BinaryIO:
                return _open_tar_member(path, open_raw, mode, ordinal, clean)

            role = classify(clean, None)
            if needs_sniff(clean) and sniffed < MAX_SNIFFED:
                # read the first line here, in this pass: opening the member would be
                # another pass over the archive for each oddly named .jsonl
                sniffed += 1
                role = _sniff_in_pass(tf, info, clean)
            members.append(Member(clean, info.size, role, opener))
    finally:
        tf.close()
        raw.close()
    return members, findings


def _consumed_since_now(stream) -> Callable[[], int] | None:
    """Bytes of the archive file read from now on, through the layers over it (_EndGuard,
    GzipReader, ZstdReader keep the layer below as `_raw`; the file is at the bottom). The
    decompressor reads ahead by at most 64 KiB-1 MiB, which only lowers the ratio seen."""
    while hasattr(stream, "_raw"):
        stream = stream._raw
    tell = getattr(stream, "tell", None)
    if tell is None:
        return None
    try:
        start = tell()
    except (OSError, ValueError):
        return None
    return lambda: tell() - start


def _sniff_in_pass(tf: tarfile.TarFile, info: tarfile.TarInfo, name: str) -> str:
    try:
        fh = tf.extractfile(info)
        head = fh.read(SNIFF_BYTES) if fh is not None else b""
    except _READ_ERRORS:
        return ROLE_OTHER
    return sniff_by_name(name, head)


def _open_tar_member(path: Path, open_raw: Callable, mode: str, ordinal: int,
                     clean: str) -> BinaryIO:
    """Stream the `ordinal`-th header's member: a new sequential pass over the archive."""
    try:
        raw, tf = _tar_iter(path, open_raw, mode)
    except _READ_ERRORS as exc:
        raise ArchiveReadError(f"{clean}: cannot open the archive: {exc}") from None
    try:
        for i, info in enumerate(tf):
            if i == ordinal:
                inner = tf.extractfile(info)
                if inner is None:
                    break
                return _MemberStream(inner, [tf, raw], clean,  # type: ignore[return-value]
                                     compressed=_consumed_since_now(raw))
    except ArchiveReadError:  # already worded (and the member stream closed the archive)
        raise
    except _READ_ERRORS as exc:
        tf.close()
        raw.close()
        raise ArchiveReadError(f"{clean}: cannot read the archive: {exc}") from None
    tf.close()
    raw.close()
    raise ArchiveReadError(f"{clean}: member not found on a second pass over the archive")
