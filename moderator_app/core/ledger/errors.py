"""The ledger's errors, in one place below every store (claims and stores both raise them)."""

from __future__ import annotations

import os
import resource
from pathlib import Path


class LedgerError(Exception):
    """The ledger cannot be used (not a ledger, corrupt, unreadable, unreachable), or the
    record was refused. Never auto-repaired. The message never holds a credential."""


class LedgerPathError(LedgerError):
    """No ledger can be read at the store's path: it is a FIFO, a device, a socket, a
    directory where the ledger file should be, a symbolic link to nothing or a link loop, a
    path under a regular file; or the store names no usable place at all: an empty path
    (`--store ""`, which was the current folder), a NUL character, a connection address
    that is not a PostgreSQL one or cannot be parsed. Every `decisions` command (and
    `decide`, `claim`, `release`, `queue`) exits 2 on it, as for any input that cannot be
    read at all; `decisions verify` keeps 1 for a ledger it read and found not intact."""


class ClaimConflict(LedgerError):
    """The record would act on a submission someone else holds (or a claim you do not hold).
    Nothing was written. The message says who holds it until when, and how to override."""


class OutcomeUnknown(LedgerError):
    """The store went away while committing and could not be asked afterwards: the record
    may or may not be stored. Never reported as recorded, nor as refused."""


# -- what an SQLite error means: a full disk or a file-size limit, said as such -----------
def disk_full(path: Path) -> bool:
    """Whether the file system holding `path` has (almost) no room left: SQLite says "disk
    I/O error" when it cannot grow the -shm there, which read as "corrupt" (session 26)."""
    try:
        st = os.statvfs(path.parent)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < _FULL_BELOW


_FULL_BELOW = 64 << 10  # bytes free: less than an -shm's first 32 KiB page pair
_SHM_BYTES = 32 << 10  # the -shm's first size, written when a reader opens the WAL


def _file_size_limit() -> int | None:
    """The process's file-size limit in bytes (`ulimit -f`, RLIMIT_FSIZE), or None."""
    try:
        soft = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    except (OSError, ValueError):
        return None
    return None if soft == resource.RLIM_INFINITY else soft


def corrupt_error(path: Path, exc: Exception) -> LedgerError:
    """The error for SQLite failing to open the ledger at `path`: a file-size limit or a
    full disk said as such, anything else "corrupt". Under a limit or on a full disk the
    ledger could not be read at all, so nothing is said of its state either way: until
    session 30 the message said "it is not damaged" for ANY failure under a small limit,
    a truly damaged ledger included (a refusal to open is no evidence of no damage)."""
    limit = _file_size_limit()
    if limit is not None and limit < _SHM_BYTES:
        # SQLite cannot make the -shm (32 KiB) a reader needs and says "disk I/O error",
        # which read as "corrupt" (s29 hostile sweep, `prlimit --fsize=8192`).
        return LedgerError(
            f"this process may not write files larger than {limit} bytes (a file-size "
            f"limit, `ulimit -f`), so SQLite cannot open the decision ledger {path} "
            f"({exc}); the ledger was left untouched and could not be checked, so whether "
            "it is intact is not known. Raise the limit and try again (`moderator-app "
            "decisions verify` then checks it).")
    if disk_full(path):
        return LedgerError(
            f"the disk holding the decision ledger {path} is full ({exc}): nothing can be "
            "recorded there; the ledger was left untouched and could not be checked, so "
            "whether it is intact is not known. Free some space and try again "
            "(`moderator-app decisions verify` then checks it).")
    return LedgerError(
        f"the decision ledger {path} is corrupt or unreadable ({exc}); it was left "
        "untouched. Move it aside and restore from a backup or an export "
        "(see docs/decisions-ledger.md).")
