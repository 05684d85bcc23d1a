"""What every archive reader shares: the `archive.*` rules, the caps, and the guards.

`MemberStream` counts and caps every byte read out of a member (a lying header or a bomb
ends as an error, never as a full disk or memory), `unsafe_name` refuses absolute and `..`
paths, and `skipped` / `clean_name` treat hidden files and odd spellings of a name alike for
a zip and a tar (archive_zip.py, archive_tar.py). Split out of archive.py in session 29 (650
lines), no change in behaviour.
"""

from __future__ import annotations

import contextlib
import tarfile
import zipfile
import zlib
from collections.abc import Callable
from typing import IO

from moderator_app.core.formats.members import MAX_MEMBERS
from moderator_app.core.formats.zstream import ZstdStreamError, bomb_message, bomb_ratio
from moderator_app.core.rules import Severity, rule
from moderator_app.core.text import printable_name

MAX_MEMBER_BYTES = 64 << 30  # bytes actually read from one member

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

READ_ERRORS = (OSError, EOFError, zlib.error, zipfile.BadZipFile, tarfile.TarError,
               ZstdStreamError, ValueError, RuntimeError)


_HEAD_BYTES = 64 << 10  # read when a member is opened (see MemberStream.__init__)


class ArchiveReadError(OSError):
    """Reading a member failed (damaged archive, CRC error, cap exceeded)."""


class MemberStream:
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
        except READ_ERRORS as exc:
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

    def __enter__(self) -> MemberStream:
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


def skipped(name: str) -> bool:
    """Hidden files and macOS resource forks, skipped as a folder's dotfiles are."""
    parts = [p for p in name.replace("\\", "/").split("/") if p]
    parts = [p for p in parts if p != "."]
    return not parts or parts[0] == "__MACOSX" or any(p.startswith(".") for p in parts)


def clean_name(name: str) -> str:
    """The member's path in POSIX form, as valid Unicode (undecodable bytes as \\xNN)."""
    return printable_name(
        "/".join(p for p in name.replace("\\", "/").split("/") if p and p != "."))

