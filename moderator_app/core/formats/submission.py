"""What was submitted: a folder, separate files, or an archive, as a list of members.

A `Member` is a named file of the submission with a way to open it for reading; nothing is
ever extracted to a path taken from an archive (docs/DESIGN.md). Roles are decided by name, and
for unusually named `.jsonl` files by looking at the first line.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from moderator_app.core.errors import InputError
from moderator_app.core.formats.members import (
    AGENT_LOG_NAME,
    ARCHIVE_SUFFIXES,
    MAX_MEMBERS,
    MAX_SNIFFED,
    ROLE_LOG,
    ROLE_OTHER,
    ROLE_TRAJECTORY,
    ROLE_VIDEO,
    VIDEO_EXTS,
    Member,
    classify,
    needs_sniff,
)
from moderator_app.core.kinds import Kind
from moderator_app.core.rules import Finding
from moderator_app.core.text import printable_name


@dataclass(frozen=True)
class Submission:
    path: Path
    display_name: str
    kind: Kind
    members: tuple[Member, ...]
    findings: tuple[Finding, ...] = ()  # problems met while listing (refused archive members)
    # symbolic links met in a submission folder (at most MAX_LINKS_NAMED), never followed:
    # verify names them (`input.link`), so a linked video is not only "no video"
    links: tuple[str, ...] = ()
    # What each file the verification reads looked like when it was listed (`file_stamp`):
    # the archive, or the evidence and video files of a folder. A file swapped or rewritten
    # while it is verified, or between the verification and the decision, no longer matches
    # (`changed_files`), so a verdict and a digest never describe different bytes unnoticed.
    stamps: tuple[tuple[str, tuple[int, ...]], ...] = ()

    def by_role(self, role: str) -> list[Member]:
        return [m for m in self.members if m.role == role]

    @property
    def evidence(self) -> Member:
        """The agent log (community) or the trajectory (official)."""
        return self.by_role(self.kind.evidence_role)[0]

    @property
    def videos(self) -> list[Member]:
        """Videos, largest first (the one checked against the run is the first)."""
        return sorted(self.by_role(ROLE_VIDEO), key=lambda m: -m.size)

    def changed_files(self) -> list[str]:
        """The files read for this submission that are no longer what they were when it was
        listed (another inode, size, modification or status-change time), or are gone."""
        return [path for path, stamp in self.stamps if file_stamp(path) != stamp]


def file_stamp(path: str | os.PathLike) -> tuple[int, ...]:
    """What identifies a file's bytes without reading them: its device and inode (a file
    renamed over it is another inode), type, size, and modification and status-change times
    in nanoseconds (a rewrite in place moves both; `touch -d` can set the first, never the
    second). The link itself, never its target. () when it cannot be looked up."""
    try:
        st = os.stat(path, follow_symlinks=False)
    except (OSError, ValueError):
        return ()
    return (st.st_dev, st.st_ino, st.st_mode, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _stamps(members: Sequence[Member]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The stamps of the members some role reads, each as listed: one whose size is no
    longer the listed one has changed already, and is stamped so (`(-1,)` matches nothing)."""
    out = []
    for m in members:
        if m.role != ROLE_OTHER and m.local_path is not None:
            stamp = file_stamp(m.local_path)
            out.append((os.fspath(m.local_path),
                        stamp if stamp and stamp[3] == m.size else (-1,)))
    return tuple(out)


def is_archive(path: Path) -> bool:
    name = path.name.lower()
    return path.is_file() and name.endswith(ARCHIVE_SUFFIXES)


def _file_member(path: Path, name: str, sniff: bool = True) -> Member:
    def opener(p: Path = path) -> BinaryIO:
        return open(p, "rb")  # noqa: SIM115 - caller closes

    name = printable_name(name)  # bytes that are not UTF-8 shown as \xNN (core/text.py)
    return Member(name, path.stat().st_size, classify(name, opener if sniff else None), opener,
                  path)


def walk_folder(root: str | os.PathLike) -> Iterator[tuple[str, list[str]]]:
    """`(dirpath, file names)` of every folder under `root`, top-down, folders and files in
    name order, hidden folders skipped, symlinked folders not entered: the order of
    `os.walk` with sorted `dirnames`, without its recursion. Python 3.11's `os.walk` recurses
    once per level, so a submission nested 1,000 folders deep ended in RecursionError (an
    internal error, exit 2) instead of being listed (issue 15). Unreadable folders (too long
    a path, no permission) are skipped, as `os.walk` does."""
    stack = [os.fspath(root)]
    while stack:
        top = stack.pop()
        dirs: list[str] = []
        files: list[str] = []
        try:
            with os.scandir(top) as it:
                for entry in it:
                    try:
                        is_dir = entry.is_dir()
                    except OSError:
                        is_dir = False
                    if not is_dir:
                        files.append(entry.name)
                    elif not entry.name.startswith(".") and not entry.is_symlink():
                        dirs.append(entry.name)
        except OSError:
            continue
        yield top, sorted(files)
        stack.extend(os.path.join(top, d) for d in sorted(dirs, reverse=True))


MAX_LINKS_NAMED = 20  # a folder of a million links costs one listing, and 20 names

# A file of a submission folder with this many bytes never written (holes) is refused like a
# sparse tar member (`archive.sparse`): `truncate -s 32G video.mp4` made a 280 KB file that
# `verify` spent over 60 s hashing (QA session 13), while no recorder writes a file with holes.
SPARSE_MIN_HOLES = 64 << 20
_MAX_EXTENTS = 4096  # holes counted over at most this many data/hole extents


def hole_bytes(path: str | os.PathLike, size: int | None = None) -> int:
    """Bytes of `path` never written (holes), counted with SEEK_DATA/SEEK_HOLE over at most
    `_MAX_EXTENTS` extents; 0 where the file system cannot tell (no guess from `st_blocks`,
    which compressed or network file systems report differently). A file whose allocated
    blocks cover its length is answered from one `stat`, without opening it."""
    st = os.stat(path)
    size = st.st_size if size is None else size
    if size < SPARSE_MIN_HOLES or getattr(st, "st_blocks", 0) * 512 >= size:
        return 0
    holes = 0
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return 0
    try:
        pos = 0
        for _ in range(_MAX_EXTENTS):
            if pos >= size:
                break
            try:
                data = os.lseek(fd, pos, os.SEEK_DATA)
            except OSError as exc:  # ENXIO: no data after pos, all hole; EINVAL: cannot tell
                if exc.errno == errno.ENXIO:
                    holes += size - pos
                break
            holes += data - pos
            try:
                pos = os.lseek(fd, data, os.SEEK_HOLE)
            except OSError:
                break
    finally:
        os.close(fd)
    return holes


def _sparse_refusal(p: Path, member: Member) -> Finding | None:
    """`archive.sparse` for a file some role would read (log, trajectory, video) that is mostly
    holes; a sparse file no role needs is listed and never read, so it costs nothing."""
    if member.role == ROLE_OTHER or member.size < SPARSE_MIN_HOLES:
        return None
    holes = hole_bytes(p, member.size)
    if holes < SPARSE_MIN_HOLES:
        return None
    from moderator_app.core.formats.archive import SPARSE

    return SPARSE.at(f"{member.name[:200]!r} is a sparse file ({member.size} bytes, "
                     f"{holes} of them never written): refused, never read", member.name)


def _folder_members(root: Path, max_members: int,
                    links: list[str] | None = None) -> tuple[list[Member], list[Finding]]:
    """The regular files under `root`, in name order, at most `max_members` of them: a folder
    of a million files costs one directory listing, never a million members (issue 15). The
    cap, its finding and the sniffing budget are the archive readers' (`archive_guard.py`),
    so a folder and a bundle of the same files are listed alike."""
    members: list[Member] = []
    findings: list[Finding] = []
    sniffed = 0
    for dirpath, filenames in walk_folder(root):
        for fn in filenames:
            p = Path(dirpath) / fn
            if fn.startswith("."):
                continue
            if p.is_symlink():
                if links is not None and len(links) < MAX_LINKS_NAMED:
                    links.append(printable_name(p.relative_to(root).as_posix()))
                continue
            if not p.is_file():
                continue
            if len(members) >= max_members:
                from moderator_app.core.formats.archive import TOO_MANY

                return members, [*findings, TOO_MANY.at(f"more than {max_members} members",
                                                        printable_name(root.name))]
            name = p.relative_to(root).as_posix()
            member = _file_member(p, name, sniffed < MAX_SNIFFED)
            sniffed += needs_sniff(name)
            refused = _sparse_refusal(p, member)
            if refused is not None:
                findings.append(refused)
                continue
            members.append(member)
    return members, findings


def _check_exists(p: Path) -> None:
    """InputError unless `p` can be looked up. `Path.exists` raises for what it does not
    expect (a name longer than the file system allows, a folder on the way that may not be
    searched): those were internal errors (exit 2 with no report)."""
    try:
        os.stat(p)
    except (FileNotFoundError, NotADirectoryError):
        raise InputError(f"{p}: no such file or folder") from None
    except OSError as exc:  # ENAMETOOLONG, EACCES, ELOOP, EIO ...
        raise InputError(f"{p}: cannot be opened: {exc.strerror or exc}") from None


def load_submission(paths: Sequence[str | os.PathLike],
                    max_members: int = MAX_MEMBERS) -> Submission:
    """List a submission's members and decide its kind. Raises InputError when unreadable.
    A folder holding more than `max_members` files lists the first ones (by name) and an
    `archive.too_many_members` error, as an archive does."""
    if not paths:
        raise InputError("no submission given")
    ps = [Path(p) for p in paths]
    for p in ps:
        _check_exists(p)
    findings: list[Finding] = []
    links: list[str] = []
    archive: Path | None = None
    if len(ps) == 1 and ps[0].is_dir():
        root = ps[0]
        members, findings = _folder_members(root, max_members, links)
        display = printable_name(root.resolve().name)
    elif len(ps) == 1 and is_archive(ps[0]):
        # tarfile and zipfile are imported for archives only (a sixth of a small
        # verification's start-up went to importing them)
        from moderator_app.core.formats.archive import open_archive

        archive = ps[0]
        stamp = file_stamp(archive)  # before a byte of it is read
        members, findings = open_archive(ps[0])
        display = printable_name(ps[0].name)
    else:
        members = []
        for p in ps:
            if p.is_dir():
                raise InputError(f"{p}: give a folder alone, or files")
            if not p.is_file():  # /dev/zero, a FIFO: endless or blocking, never evidence
                raise InputError(f"{p}: not a regular file")
            try:
                member = _file_member(p, p.name)
            except OSError as exc:
                raise InputError(f"{p}: cannot read: {exc.strerror}") from exc
            refused = _sparse_refusal(p, member)
            if refused is not None:
                findings.append(refused)
            else:
                members.append(member)
        display = printable_name(ps[0].name)
    roles = {m.role for m in members}
    if ROLE_TRAJECTORY in roles:
        kind = Kind.OFFICIAL
    elif ROLE_LOG in roles:
        kind = Kind.COMMUNITY
    else:
        names = ", ".join(m.name for m in members[:8]) or "nothing"
        # why members were left out (encrypted, refused, a cap): the submitter reads this
        # line, and "found: nothing" alone does not say that the log was there but encrypted
        why = [f.message for f in findings if f.rule.startswith("archive.")]
        capped = "".join(f"; {m}" for m in why[:3]) + \
            (f"; and {len(why) - 3} more" if len(why) > 3 else "")
        # a log that is a symbolic link was met and refused, never followed: say so, not
        # only "not found" beside a file `ls` shows (QA session 14, G6)
        capped += "".join(f"; {name} is a symbolic link: refused, never followed"
                          for name in links[:3])
        raise InputError(
            f"{ps[0]}: no {AGENT_LOG_NAME} or events.jsonl(.zst) found (found: {names})"
            + capped)
    stamps = ((os.fspath(archive), stamp),) if archive is not None else _stamps(members)
    return Submission(ps[0], display, kind, tuple(members), tuple(findings), tuple(links),
                      stamps)


# A video member that decodes to more than VIDEO_RATIO times the archive bytes it came from,
# past VIDEO_RATIO_FLOOR, is not copied out. Encoded video is already compressed: gzip or
# zstd gain 1.1-1.5x on H.264, FFV1 or MJPEG (measured, docs/DECISIONS.md), while 768 MiB
# of one repeated byte is ~1 MB of .tgz (1000x) and took 49-59 s to write out (the disk, on a
# busy machine) before the probe said "unreadable". Only an uncompressed video (raw AVI,
# Y4M: an Atari game's is 94-744x) inside a *compressed* archive is refused by this; it can
# be sent in a folder, a plain .tar or a stored zip. Below the floor nothing is refused.
VIDEO_RATIO = 20
VIDEO_RATIO_FLOOR = 64 << 20


class VideoRatioError(OSError):
    """An archive's video member compresses like no encoded video does: not copied out."""


def _video_ratio_guard(raw, name: str) -> Callable[[int], None]:
    compressed_read = getattr(raw, "compressed_read", None)

    def check(copied: int) -> None:
        if copied <= VIDEO_RATIO_FLOOR or compressed_read is None:
            return
        packed = compressed_read()
        if packed is not None and copied > VIDEO_RATIO * max(packed, 1):
            raise VideoRatioError(
                f"{printable_name(name)}: {copied >> 20} MiB decoded while {packed} bytes of "
                f"the archive were read: an encoded video compresses at most ~1.5 times, so "
                f"this is no video; not copied out (more than "
                f"{VIDEO_RATIO} times past {VIDEO_RATIO_FLOOR >> 20} MiB is refused; send an "
                "uncompressed video in a folder, a plain .tar or a stored zip)")

    return check


def _copy_sparse(src, dst, chunk: int, check: Callable[[int], None] | None = None) -> None:
    """Copy `src` to `dst`, leaving a hole where a whole chunk is zeros. Why: a 766 KB `.tgz`
    holding a 768 MiB zero "video" took 49-59 s to copy out (4.5 s of CPU; the rest was the
    disk writing zeros on a busy machine), past issue 15's 30 s bound; as holes the copy costs
    the decompression and the digest only. The file's bytes are the same either way."""
    size = 0
    while block := src.read(chunk):
        n = len(block)
        if block[0] == 0 and block[-1] == 0 and block.count(0) == n:
            dst.seek(n, os.SEEK_CUR)
        else:
            dst.write(block)
        size += n
        if check is not None:
            check(size)
    dst.truncate(size)  # a trailing hole still counts toward the file's length


def local_copy(member: Member, workdir: Path | None = None,
               on_digest: Callable[[str, int], None] | None = None) -> Path:
    """A real file path for a member (OpenCV needs one). Archive members are copied into a
    temporary folder under a name we choose (`member<ext>`), never a name from the archive.

    `on_digest(sha256_hex, size)` is called with the digest of the bytes copied, so that the
    caller need not read the member a second time to bind a decision to it (a `.tar.gz`
    member would be decompressed again). It is not called for members already on disk."""
    if member.local_path is not None:
        return member.local_path
    from moderator_app.core.formats.streams import CHUNK, HashingReader

    ext = Path(member.basename).suffix.lower()
    ext = ext if ext in VIDEO_EXTS or ext in (".jsonl", ".zst") else ".bin"
    folder = Path(tempfile.mkdtemp(prefix="moderator-app-", dir=workdir))
    target = folder / f"member{ext}"
    try:
        with member.open() as raw, open(target, "wb") as dst:
            src = HashingReader(raw, member.size)
            guard = _video_ratio_guard(raw, member.name) if member.role == ROLE_VIDEO else None
            _copy_sparse(src, dst, CHUNK, guard)
    except BaseException:  # a refused, unreadable or interrupted copy leaves nothing behind
        shutil.rmtree(folder, ignore_errors=True)
        raise
    if on_digest is not None:
        on_digest(src.hexdigest(), src.bytes_read)
    return target
