"""Which path is the SQLite ledger's store (`resolve_store`: `--store`, `$MODERATOR_APP_STORE`,
the per-user data folder; its head file beside it), and whether a store path can hold a ledger
at all, before anything is opened there.

Apart from `store.py` (the SQLite ledger; the path's resolution moved here in session 39) so
that the refusals every command shares (exit 2: `LedgerPathError`) are in one place: a path that names no place (empty, blank, a NUL), and a
path at which no ledger file can stand (a FIFO, a device, a socket, a folder, a link to
nothing, a link loop, a path under a regular file), and the SQLite companions that must be
regular files.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from moderator_app.core.ledger.errors import LedgerError, LedgerPathError

STORE_ENV = "MODERATOR_APP_STORE"
APP_DIR_NAME = "moderator-app"
LEDGER_FILE = "decisions.sqlite3"
HEAD_SUFFIX = ".head"


def check_store_text(path: str | os.PathLike) -> None:
    """LedgerPathError when a store path names no place: empty or blank text (`Path("")` is
    the current folder, so `--store ""` silently made ./decisions.sqlite3), or a NUL
    character (which no file name holds; `os.stat` raised ValueError, a traceback)."""
    text = os.fsdecode(path)
    if not text.strip():
        raise LedgerPathError(
            "the store path is empty or blank: it names no ledger (it would be the current "
            "folder). Give a ledger file or a folder for it, or leave the store out for the "
            "default")
    if "\x00" in text:
        raise LedgerPathError("the store path holds a NUL character, which no file name can "
                              "hold: no ledger can be read or recorded there")


def check_ledger_path(path: Path) -> None:
    """LedgerPathError unless `path` is a regular file or nothing at all. A dangling link or a
    link loop read as "no ledger yet (0 decisions)", exit 0 (`Path.exists` says False), and
    `decide` would have created the file wherever the link points."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise LedgerPathError(f"{path} is a symbolic link to a file that does not exist: "
                                  "no ledger can be read or recorded there") from None
        return  # nothing there: no ledger yet
    except NotADirectoryError:  # a regular file where a folder of the path should be
        blocker = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
        if blocker is None:
            raise LedgerPathError(f"{path} cannot be opened: a part of the path is not a "
                                  "folder") from None
        raise LedgerPathError(f"{blocker} is a file, not a folder: no ledger can be read or "
                              f"recorded at {path}") from None
    except OSError as exc:  # ELOOP, EACCES on a folder, ENAMETOOLONG ...
        raise LedgerPathError(f"{path} cannot be opened: {exc.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        raise LedgerPathError(f"{path} is not a file")
    for suffix in ("-wal", "-shm", "-journal"):  # SQLite's companions: regular files or none
        other = path.with_name(path.name + suffix)
        try:
            kind = os.lstat(other).st_mode
        except OSError:
            continue
        if not stat.S_ISREG(kind):
            what = "a symbolic link" if stat.S_ISLNK(kind) else "not a file"
            # SQLite would follow it (writing the newest decisions wherever it points) or
            # refuse with "unable to open database file", read as "corrupt"
            raise LedgerError(
                f"{other} is {what}: the ledger's write-ahead log and lock files must be "
                "regular files beside it; nothing was opened. Decisions held only in that "
                "log may be missing: look at where it points, then move it aside "
                "(see docs/decisions-ledger.md).")


def default_store_path() -> Path:
    """`$MODERATOR_APP_STORE` (a path), else the per-user data directory (platformdirs).
    An empty variable counts as unset (the shell's `VAR= cmd` idiom)."""
    env = os.environ.get(STORE_ENV)
    if env:
        check_store_text(env)
        return Path(env).expanduser()
    import platformdirs

    return platformdirs.user_data_path(APP_DIR_NAME) / LEDGER_FILE


def resolve_store(path: str | os.PathLike | None) -> Path:
    """`--store PATH` wins; a directory means the ledger file inside it."""
    if path is None:
        return default_store_path()
    check_store_text(path)
    p = Path(path).expanduser()
    try:
        is_dir = p.is_dir()
    except OSError:  # ENAMETOOLONG (a 5,000-byte name): an internal error; checked later
        is_dir = False
    if is_dir:
        # A folder whose name has a ledger's companions beside it (`X.head`, `X-wal`) is a
        # ledger file replaced by a folder: read as "a folder for the ledger", it gave a new,
        # empty ledger inside it and `decisions verify` said "intact: 0 decisions" while the
        # decisions were gone (session 27 hostile sweep). Refused, as any other thing that
        # stands where the ledger file should be.
        for companion in (head_file(p), p.with_name(p.name + "-wal")):
            if os.path.lexists(companion):
                raise LedgerPathError(
                    f"{p} is a folder, but {companion.name} beside it belongs to a ledger "
                    f"file of that name: the ledger was replaced by a folder, and its "
                    "decisions are not there. Restore the ledger file from a backup (see "
                    "docs/decisions-ledger.md), or give another store")
    return p / LEDGER_FILE if is_dir else p


def head_file(path: Path) -> Path:
    return path.with_name(path.name + HEAD_SUFFIX)
