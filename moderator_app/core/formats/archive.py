"""Bundles read in place: `.zip`, `.tar`, `.tar.gz`/`.tgz`, `.tar.zst`/`.tzst`.

Nothing is ever extracted to a path taken from the archive (docs/DESIGN.md): each regular member
becomes a `Member` whose opener streams its bytes out of the archive. Members that are links,
devices or FIFOs, or whose names are absolute or climb with `..`, are refused with a finding
and never opened. Sizes in headers are not trusted: every read is counted and capped
(`MAX_MEMBER_BYTES`), so a zip bomb or a lying header ends as an error, not as a full disk.
A `.tar.zst` is decompressed by the honest `zstream.ZstdReader` (a truncated bundle is an
error, not a shorter bundle).

The readers live in archive_zip.py and archive_tar.py, the rules, caps and guards they share
in archive_guard.py; this module picks the reader by the file's name.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from moderator_app.core.errors import InputError
from moderator_app.core.formats.archive_guard import (  # noqa: F401 - the rules, named here
    CORRUPT,
    DEVICE,
    DUPLICATE,
    ENCRYPTED,
    LINK,
    MAX_MEMBER_BYTES,
    OVERLAP,
    SPARSE,
    TOO_MANY,
    UNSAFE_PATH,
    ArchiveReadError,
    unsafe_name,
)
from moderator_app.core.formats.archive_tar import gz_open, tar_members, zst_open
from moderator_app.core.formats.archive_zip import zip_members
from moderator_app.core.formats.members import Member
from moderator_app.core.rules import Finding


def open_archive(path: Path) -> tuple[list[Member], list[Finding]]:
    """List an archive's regular members (readable in place) and the refused ones."""
    path = Path(path)
    lower = path.name.lower()
    if lower.endswith(".zip"):
        return zip_members(path)
    if lower.endswith((".tar.zst", ".tzst")):
        return tar_members(path, zst_open)
    if lower.endswith((".tar.gz", ".tgz")):
        return tar_members(path, gz_open)
    if lower.endswith(".tar"):
        return tar_members(path, lambda p: open(p, "rb"), "r|")  # noqa: SIM115
    raise InputError(f"{path}: not a supported archive (.zip .tar .tar.gz .tar.zst)")


def list_tar_stream(path: Path, open_raw: Callable[[Path], io.RawIOBase]) -> tuple[
        list[Member], list[Finding]]:
    """`open_archive` for a tar behind a decompressor named by the caller (a nested `.tar.xz`
    listed by name, core/verify/nested.py): the same caps and refusals."""
    return tar_members(path, open_raw, "r|")

