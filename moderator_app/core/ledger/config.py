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
from moderator_app.core.ledger.chained import LedgerBase, LedgerError, VerifyOutcome
from moderator_app.core.ledger.errors import LedgerPathError
from moderator_app.core.ledger.paths import STORE_ENV, check_store_text, resolve_store
from moderator_app.core.ledger.postgres import PostgresLedger, display_name, is_postgres
from moderator_app.core.ledger.store import Ledger
from moderator_app.core.progress import CancelToken

STORE_FILE_ENV = "MODERATOR_APP_STORE_FILE"
_STORE_FILE_MAX = 65536


def read_store_file(path: str | os.PathLike) -> str:
    """The store named in an owner-only file. Refused when group or others may read it.
    Every refusal is a LedgerPathError (exit 2: the store cannot be used, nothing was read
    from a ledger). Only the first 64 KiB are read: a store file is one line."""
    p = Path(path).expanduser()
    try:
        with open_regular(p) as fh:  # never a FIFO or a device: no hang, no endless read
            st = os.fstat(fh.fileno())
            text = fh.read(_STORE_FILE_MAX).decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = getattr(exc, "strerror", None) or "not UTF-8 text"
        raise LedgerPathError(f"cannot read the store file {p}: {why}") from None
    if not stat.S_ISREG(st.st_mode):
        raise LedgerPathError(f"the store file {p} is not a regular file")
    if st.st_mode & 0o077 or (hasattr(os, "getuid") and st.st_uid != os.getuid()):
        raise LedgerPathError(
            f"the store file {p} may hold a password but can be read by others (mode "
            f"{stat.S_IMODE(st.st_mode):04o}); run `chmod 600 {p}` as its owner")
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            return line
    raise LedgerPathError(f"the store file {p} names no store")


# A libpq keyword/value connection string (`host=db port=5432 password=...`): not a path.
# Every keyword libpq 17 knows (a string starts with one), and a password given anywhere.
_LIBPQ_KEYWORDS = (
    "host|hostaddr|port|dbname|user|password|passfile|require_auth|channel_binding|"
    "connect_timeout|client_encoding|options|application_name|fallback_application_name|"
    "keepalives|keepalives_idle|keepalives_interval|keepalives_count|tcp_user_timeout|"
    "replication|gssencmode|sslmode|sslnegotiation|requiressl|sslcompression|sslcert|sslkey|"
    "sslpassword|sslcertmode|sslrootcert|sslcrl|sslcrldir|sslsni|requirepeer|"
    "ssl_min_protocol_version|ssl_max_protocol_version|krbsrvname|gsslib|gssdelegation|"
    "service|target_session_attrs|load_balance_hosts")
_KEYWORD_CONNINFO = re.compile(rf"\s*(?:{_LIBPQ_KEYWORDS})\s*=|.*(?:^|\s)(?:ssl)?password\s*=",
                               re.IGNORECASE | re.DOTALL)
# `scheme://...` or `scheme:/...` (two letters or more: `C:/` is a Windows drive): an address,
# never a file name. `postgresql+psycopg://u:pw@h/db` (SQLAlchemy's form), a leading space
# before `postgresql://`, or `postgresql:/` with one slash were taken as SQLite paths: echoed
# with the password (`No decisions in postgresql+psycopg:/u:pw@h/db`), and `decide` made
# folders named after it.
_URL_LIKE = re.compile(r"\s*[A-Za-z][A-Za-z0-9+.\-]+:/")
_KEYWORD_REFUSED = ("the store looks like a key=value PostgreSQL connection string, which is "
                    "not accepted (and not shown: it may hold a password); use "
                    "postgresql://USER@HOST:PORT/DATABASE, with the password in ~/.pgpass or "
                    "PGPASSWORD")
_URL_REFUSED = ("the store looks like a connection address but not postgresql://USER@HOST:PORT/"
                "DATABASE (exactly that prefix, nothing before it); it is not accepted, and "
                "not shown: it may hold a password. A file name that starts with `NAME:/` "
                "can be given as ./NAME:/...")


def _is_keyword_conninfo(spec: object) -> bool:
    """Whether `spec` is a libpq keyword/value string. Taken as an SQLite path it was echoed
    (`No decisions in host=... password=...`) and `decide` made a file of that name."""
    return isinstance(spec, str) and _KEYWORD_CONNINFO.match(spec) is not None


def _refuse_unusable(spec: object) -> None:
    """LedgerPathError (exit 2, never quoting `spec`) for a store text that is not a usable
    store: empty or blank, a NUL, a key=value connection string, an address that is not
    `postgresql://`. None and PathLike objects (tests, the GUI's Path) pass through."""
    if spec is None:
        return
    if isinstance(spec, str) and not is_postgres(spec):
        if _is_keyword_conninfo(spec):
            raise LedgerPathError(_KEYWORD_REFUSED)
        if _URL_LIKE.match(spec):
            raise LedgerPathError(_URL_REFUSED)
    if not is_postgres(spec):
        check_store_text(spec)  # type: ignore[arg-type]


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
    _refuse_unusable(spec)
    return spec


def open_store(spec: str | os.PathLike | None = None, create: bool = True) -> LedgerBase:
    """An open store for `spec` (see `store_spec`); None means the default SQLite file."""
    if is_postgres(spec):
        return PostgresLedger(str(spec), create=create)
    _refuse_unusable(spec)
    return Ledger(None if spec is None else os.fspath(spec), create=create)


def walk_ahead(spec: str | os.PathLike | None = None,
               cancel: CancelToken | None = None) -> VerifyOutcome | None:
    """Walk the store's chain now, so that the next append in this process checks only the
    records added since (`LedgerBase.walked_before_append`, `walk_memo.WALKS`). The decision
    panel runs it off the window's thread when it shows a store: the first decision on a
    10,000-decision ledger no longer walks it on that thread. What `verify` would say of the
    chain (None: the store could not be read); nothing is refused here, the append checks
    again. `cancel`: Cancelled between rows (a walk the panel no longer wants)."""
    try:
        with open_store(spec, create=False) as ledger:
            return ledger.walked_before_append(cancel)
    except LedgerError:
        return None


def describe_store(spec: str | os.PathLike | None) -> str:
    """The store's name as it may be printed (never a password)."""
    if is_postgres(spec):
        try:
            return display_name(str(spec))
        except LedgerError:
            return "postgresql://(unparsable address)"
    try:
        _refuse_unusable(spec)
    except LedgerPathError:
        return "(an unusable store, not shown)"
    return str(resolve_store(None if spec is None else os.fspath(spec)))
