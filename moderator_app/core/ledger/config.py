"""Which decision store to use: SQLite (a path) by default, PostgreSQL when configured.

Order: `--store VALUE`, else `--store-file FILE`, else `$MODERATOR_APP_STORE`, else
`$MODERATOR_APP_STORE_FILE`, else the per-user SQLite file. A VALUE starting with
`postgresql://` (or `postgres://`) is a team store; anything else is an SQLite path. A store
file holds the value on its first non-comment line and must be readable by its owner only
(a connection string may hold a password): a file others can read is refused, not used.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from moderator_app.core.atomic import open_regular
from moderator_app.core.ledger.chained import LedgerBase, LedgerError
from moderator_app.core.ledger.postgres import PostgresLedger, display_name, is_postgres
from moderator_app.core.ledger.store import STORE_ENV, Ledger

STORE_FILE_ENV = "MODERATOR_APP_STORE_FILE"


def read_store_file(path: str | os.PathLike) -> str:
    """The store named in an owner-only file. Refused when group or others may read it."""
    p = Path(path).expanduser()
    try:
        with open_regular(p) as fh:  # never a FIFO or a device: no hang, no endless read
            st = os.fstat(fh.fileno())
            text = fh.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LedgerError(f"cannot read the store file {p}: "
                          f"{getattr(exc, 'strerror', None) or 'not UTF-8 text'}") from None
    if not stat.S_ISREG(st.st_mode):
        raise LedgerError(f"the store file {p} is not a regular file")
    if st.st_mode & 0o077 or (hasattr(os, "getuid") and st.st_uid != os.getuid()):
        raise LedgerError(f"the store file {p} may hold a password but can be read by others "
                          f"(mode {stat.S_IMODE(st.st_mode):04o}); run `chmod 600 {p}` as "
                          "its owner")
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            return line
    raise LedgerError(f"the store file {p} names no store")


# A libpq keyword/value connection string (`host=db port=5432 password=...`): not a path.
_KEYWORD_CONNINFO = re.compile(
    r"\s*(?:host|hostaddr|port|dbname|user|password|passfile|service|sslmode|options|"
    r"connect_timeout|application_name)\s*=", re.IGNORECASE)
_KEYWORD_REFUSED = ("the store looks like a key=value PostgreSQL connection string, which is "
                    "not accepted (and not shown: it may hold a password); use "
                    "postgresql://USER@HOST:PORT/DATABASE, with the password in ~/.pgpass or "
                    "PGPASSWORD")


def _is_keyword_conninfo(spec: object) -> bool:
    """Whether `spec` is a libpq keyword/value string. Taken as an SQLite path it was echoed
    (`No decisions in host=... password=...`) and `decide` made a file of that name."""
    return isinstance(spec, str) and _KEYWORD_CONNINFO.match(spec) is not None


def store_spec(store: str | os.PathLike | None = None,
               store_file: str | os.PathLike | None = None) -> str | None:
    """The configured store as text (a path or a connection string), or None (default).
    Raises LedgerError for a key=value connection string (never quoting it)."""
    spec: str | None = None
    if store is not None:
        spec = str(store)
    elif store_file is not None:
        spec = read_store_file(store_file)
    elif os.environ.get(STORE_ENV):
        spec = os.environ[STORE_ENV]
    elif os.environ.get(STORE_FILE_ENV):
        spec = read_store_file(os.environ[STORE_FILE_ENV])
    if _is_keyword_conninfo(spec):
        raise LedgerError(_KEYWORD_REFUSED)
    return spec


def open_store(spec: str | os.PathLike | None = None, create: bool = True) -> LedgerBase:
    """An open store for `spec` (see `store_spec`); None means the default SQLite file."""
    if is_postgres(spec):
        return PostgresLedger(str(spec), create=create)
    if _is_keyword_conninfo(spec):
        raise LedgerError(_KEYWORD_REFUSED)
    return Ledger(None if spec is None else os.fspath(spec), create=create)


def describe_store(spec: str | os.PathLike | None) -> str:
    """The store's name as it may be printed (never a password)."""
    if is_postgres(spec):
        try:
            return display_name(str(spec))
        except LedgerError:
            return "postgresql://(unparsable address)"
    if _is_keyword_conninfo(spec):
        return "(a key=value connection string, not shown)"
    from moderator_app.core.ledger.store import resolve_store

    return str(resolve_store(None if spec is None else os.fspath(spec)))
