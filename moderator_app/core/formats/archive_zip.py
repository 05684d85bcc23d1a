"""Zip bundles read in place: the central directory read once, checked against the local
headers and for overlapping entries, each member streamed by `zipfile` under the shared caps
(archive_guard.py). Split out of archive.py in session 29, no change in behaviour."""

from __future__ import annotations

import contextlib
import stat
import struct
import zipfile
from pathlib import Path
from typing import BinaryIO

from moderator_app.core.errors import InputError
from moderator_app.core.formats.archive_guard import (
    CORRUPT,
    DEVICE,
    DUPLICATE,
    ENCRYPTED,
    LINK,
    OVERLAP,
    READ_ERRORS,
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
    Member,
    classify,
    needs_sniff,
)
from moderator_app.core.rules import Finding
from moderator_app.core.text import printable_name

MAX_ZIP_ENTRIES = 200_000  # a zip with more entries is refused before its directory is parsed


def zip_members(path: Path) -> tuple[list[Member], list[Finding]]:
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
        if info.is_dir() or skipped(name):
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
        clean = clean_name(name)
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
            except READ_ERRORS as exc:
                raise ArchiveReadError(f"{clean}: cannot open in the archive: {exc}") from None
            def consumed(inner=inner, total=info.compress_size) -> int:
                # compressed bytes read so far (ZipExtFile counts down what is left)
                return total - int(getattr(inner, "_compress_left", 0) or 0)

            return MemberStream(inner, [], clean,  # type: ignore[return-value]
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

