"""Tar bundles (`.tar`, `.tar.gz`, `.tar.zst`, and a nested tar behind any decompressor)
read in place, in stream mode: one sequential pass lists the members, and each member is
streamed by a pass of its own, under the shared caps (archive_guard.py). Split out of
archive.py in session 29, no change in behaviour."""

from __future__ import annotations

import tarfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from moderator_app.core.errors import InputError
from moderator_app.core.formats.archive_guard import (
    CORRUPT,
    DEVICE,
    DUPLICATE,
    LINK,
    READ_ERRORS,
    SPARSE,
    TOO_MANY,
    UNSAFE_PATH,
    ArchiveReadError,
    MemberStream,
    clean_name,
    skipped,
    unsafe_name,
)
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
from moderator_app.core.formats.zstream import ZstdReader, bomb_message, bomb_ratio
from moderator_app.core.rules import Finding

# A GNU long name/link or a pax header is read whole into memory by tarfile: PATH_MAX is 4 KiB
# and honest pax headers (times, long names, xattrs) hold a few KiB, so 1 MiB is ample.
MAX_TAR_META_BYTES = 1 << 20


def zst_open(p: Path) -> BinaryIO:
    raw = open(p, "rb")  # noqa: SIM115 - closed by the member stream / listing
    return ZstdReader(raw)  # type: ignore[return-value]


def gz_open(p: Path) -> BinaryIO:
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

    # A member's name may be given by a GNU long name (`L`) and by a pax `path` record, each
    # wrapping the header that follows: tarfile takes the outer one, so the order decides,
    # while GNU tar takes the pax path in either order. A failing `agent-log.jsonl` named
    # `notes.txt` by the other record beside a self-made chain passed `validated` (s28
    # hostile sweep). Each name given is kept; two different ones refuse the member.
    def _proc_gnulong(self, tarfile_):
        member = super()._proc_gnulong(tarfile_)  # type: ignore[misc]
        if self.type == tarfile.GNUTYPE_LONGNAME:
            _named(member, "a GNU long name", member.name)
        return member

    def _proc_pax(self, tarfile_):
        member = super()._proc_pax(tarfile_)  # type: ignore[misc]
        if self.type in (tarfile.XHDTYPE, tarfile.SOLARIS_XHDTYPE) and \
                "path" in member.pax_headers:
            _named(member, "a pax path", member.pax_headers["path"])
        return member


def _named(member: tarfile.TarInfo, how: str, name: str) -> None:
    """Keep on `member` a name a record gave it (inner records first)."""
    given = member.__dict__.setdefault("names_given", [])
    given.append((how, name))


def named_twice(info: tarfile.TarInfo) -> str | None:
    """Why a member's name is ambiguous (two records name it differently), or None."""
    given = getattr(info, "names_given", ())
    names = {name for _, name in given}
    if len(names) < 2:
        return None
    said = " and ".join(f"{name[:200]!r} by {how}" for how, name in reversed(given))
    return (f"is named {said}: tar readers differ in which they take (Python's tarfile the "
            "outer record, GNU tar the pax path), so another tool may see another file: "
            "refused")


def _tar_iter(path: Path, open_raw: Callable, mode: str):
    raw = _EndGuard(open_raw(path))
    try:
        # stream mode: never seeks, never extracts
        # (mode: one of the stream-read modes, "r|" "r|gz", named by the caller)
        tf = tarfile.open(fileobj=raw, mode=mode,  # type: ignore[call-overload]  # noqa: SIM115
                          tarinfo=_BoundedTarInfo)
    except READ_ERRORS:
        raw.close()
        raise
    return raw, tf


def tar_members(path: Path, open_raw: Callable,
                 mode: str = "r|") -> tuple[list[Member], list[Finding]]:
    members: list[Member] = []
    findings: list[Finding] = []
    seen: set[str] = set()
    try:
        raw, tf = _tar_iter(path, open_raw, mode)
    except READ_ERRORS as exc:
        raise InputError(f"{path}: not a readable tar archive: {exc}") from None
    ordinal = -1
    sniffed = 0
    try:
        while True:
            try:
                info = tf.next()
            except READ_ERRORS as exc:
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
            twice = named_twice(info)
            if twice is not None:
                findings.append(CORRUPT.at(f"member {twice}", path.name))
                continue
            why = unsafe_name(name)
            if why:
                findings.append(UNSAFE_PATH.at(f"member {name[:200]!r} refused: {why}",
                                               path.name))
                continue
            if info.isdir() or skipped(name):
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
            clean = clean_name(name)
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
    except READ_ERRORS:
        return ROLE_OTHER
    return sniff_by_name(name, head)


def _open_tar_member(path: Path, open_raw: Callable, mode: str, ordinal: int,
                     clean: str) -> BinaryIO:
    """Stream the `ordinal`-th header's member: a new sequential pass over the archive."""
    try:
        raw, tf = _tar_iter(path, open_raw, mode)
    except READ_ERRORS as exc:
        raise ArchiveReadError(f"{clean}: cannot open the archive: {exc}") from None
    try:
        for i, info in enumerate(tf):
            if i == ordinal:
                inner = tf.extractfile(info)
                if inner is None:
                    break
                return MemberStream(inner, [tf, raw], clean,  # type: ignore[return-value]
                                     compressed=_consumed_since_now(raw))
    except ArchiveReadError:  # already worded (and the member stream closed the archive)
        raise
    except READ_ERRORS as exc:
        tf.close()
        raw.close()
        raise ArchiveReadError(f"{clean}: cannot read the archive: {exc}") from None
    tf.close()
    raw.close()
    raise ArchiveReadError(f"{clean}: member not found on a second pass over the archive")
