"""What is in a queue folder: each subfolder or bundle (archive) is one submission.

Listing must be fast for a thousand submissions, so nothing is read here: a submission is
described by a stat fingerprint (its path, and every file's relative name, size, mtime and
inode). An unchanged fingerprint means an unchanged submission, so its cached evidence digest
and report are reused without reading a byte; a changed one is re-digested (see `cache`).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from moderator_app.core.formats.members import MAX_MEMBERS
from moderator_app.core.formats.submission import ARCHIVE_SUFFIXES, walk_folder


@dataclass(frozen=True, slots=True)
class Candidate:
    """One submission of the queue, before anything is read."""

    name: str  # the entry's name in the queue folder
    path: Path
    submitted_at: float  # newest mtime of its files (when it was complete), epoch seconds
    fingerprint: str  # SHA-256 of the stat data: changes when any file changes


def _folder_stats(root: Path) -> tuple[list[str], float]:
    """The stat lines of the files a folder submission lists: at most one past the member cap
    (`load_submission` lists no more; a folder over it fails whatever the rest holds)."""
    parts: list[str] = []
    newest = 0.0
    for dirpath, filenames in walk_folder(root):
        for fn in filenames:
            if fn.startswith("."):
                continue
            if len(parts) > MAX_MEMBERS:
                return parts, newest
            p = os.path.join(dirpath, fn)
            try:
                st = os.lstat(p)
            except OSError:
                continue
            rel = os.path.relpath(p, root)
            # the status-change time too: a log rewritten in place at its size with its
            # modification time put back (`touch -r`) kept its fingerprint, and the queue
            # showed the cached PASS of the bytes it no longer held (session 15)
            parts.append(f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}\0{st.st_mode}"
                         f"\0{st.st_ctime_ns}")
            newest = max(newest, st.st_mtime)
    return parts, newest


def scan_queue(folder: str | os.PathLike) -> list[Candidate]:
    """The submissions in `folder`, oldest first. Hidden entries, symlinks and loose files
    that are not bundles are not submissions. Raises OSError when the folder is unreadable."""
    root = Path(folder)
    out: list[Candidate] = []
    with os.scandir(root) as it:
        entries = sorted(it, key=lambda e: e.name)
    for e in entries:
        if e.name.startswith(".") or e.is_symlink():
            continue
        path = Path(e.path).absolute()
        if e.is_dir(follow_symlinks=False):
            parts, newest = _folder_stats(path)
            if not newest:
                newest = e.stat(follow_symlinks=False).st_mtime
        elif e.is_file(follow_symlinks=False) and e.name.lower().endswith(ARCHIVE_SUFFIXES):
            st = e.stat(follow_symlinks=False)
            parts = [f"\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}\0{st.st_ctime_ns}"]
            newest = st.st_mtime
        else:
            continue
        h = hashlib.sha256(os.fsencode(str(path)) + b"\n")
        for p in parts:
            h.update(os.fsencode(p) + b"\n")
        out.append(Candidate(e.name, path, newest, h.hexdigest()))
    out.sort(key=lambda c: (c.submitted_at, c.name))
    return out
