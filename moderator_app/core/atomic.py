"""Writing a file so that a reader sees the old file or the whole new one, never a part.

Exports of the decision ledger and the public version of an agent log are written to a
temporary file beside the target, flushed to disk, renamed over the target, and the folder is
synced so that the rename itself survives a crash. On any error the temporary file is removed
and the target is untouched.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO


@contextlib.contextmanager
def atomic_writer(out: str | os.PathLike) -> Iterator[BinaryIO]:
    """A binary file to write; it replaces `out` only if the `with` block ends normally."""
    out = Path(out)
    directory = out.parent if str(out.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, out)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_dir(directory)


def atomic_write(out: str | os.PathLike, data: bytes) -> None:
    with atomic_writer(out) as fh:
        fh.write(data)


def _sync_dir(directory: Path) -> None:
    try:
        dfd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)
