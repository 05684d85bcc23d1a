"""One build of a cached test input at a time, across the suite's worker processes.

Why (session 45): `make test` runs the suite on both cores (pytest-xdist, two worker
processes), and on an empty cache (a clean clone, CI) two workers may ask for the same corpus
run or video at once. Each wrote it under the same `.part` name (a corrupt file) or built it
twice (minutes of ffmpeg and emulator time for nothing). The first asker now builds it under an
exclusive lock beside it; the second waits for that lock and then reads the finished file.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path


@contextlib.contextmanager
def locked(out: Path) -> Iterator[None]:
    """Hold the build lock of `out` (a file `.NAME.lock` beside it, left in the cache)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out.with_name(f".{out.name}.lock"), "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)  # released when the file is closed
        yield


def made(out: Path, make: Callable[[Path], object]) -> Path:
    """`out`, made first by `make(tmp)` when it is not there yet: under its lock, into a
    temporary name of this process, then renamed (a half-made file is never read)."""
    if out.exists():
        return out
    with locked(out):
        if not out.exists():
            tmp = out.with_name(f"{out.stem}.part{os.getpid()}{out.suffix}")
            try:
                make(tmp)
                os.replace(tmp, out)
            finally:
                tmp.unlink(missing_ok=True)
    return out


@functools.cache
def _qa_cache() -> Path:
    """Where the QA passes' generators keep their runs: `.cache` beside the repository's git
    folder (scripts/qa_session23.py on: shared by every worktree of a clone)."""
    repo = Path(__file__).resolve().parents[1]
    try:
        common = subprocess.run(["git", "-C", str(repo), "rev-parse", "--git-common-dir"],
                                capture_output=True, text=True, check=True).stdout.strip()
        return (repo / common).resolve().parent / ".cache"
    except (OSError, subprocess.CalledProcessError):
        return repo / ".cache"


def qa_builds() -> contextlib.AbstractContextManager[None]:
    """The one lock of every QA generator a test starts (scripts/qa_session<N>.py: `sync-build`,
    its cut cases, `file_shift`). They build into `.cache/qa-s<N>` with fixed temporary names
    or straight into the run's folder, and one pass' run is often built on another's (the
    genuine run an edit is made from), so two workers building at once could write one file
    together; built already, a call holds the lock for its 0.4-0.7 CPU-s."""
    return locked(_qa_cache() / "qa-builds")
