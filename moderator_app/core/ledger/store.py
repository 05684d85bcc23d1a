"""The decision ledger in SQLite: the default store (embedded, nothing to set up).

The chain (sealing, claims, verification, export) is `chained.LedgerBase`; this module is the
SQLite part. Durability: WAL with `synchronous=FULL` (a commit is on disk before `append`
returns), one writer (`BEGIN IMMEDIATE`, plus an exclusive `flock` on the head file so
appends from many processes are serialised end to end). After each commit the WAL is
checkpointed into the main file and the head (`seq hash`) is mirrored in a small file beside
the database (`decisions.sqlite3.head`), so a dropped `-wal`, or decisions deleted at the end
together with the head row, are detected by `verify` (docs/decisions-ledger.md says exactly
what is and is not detected). A file that is not our SQLite ledger is refused with a clear
error and never written to: we neither "repair" nor recreate it. Reading (list, verify,
export) works on a read-only file or mount.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import sqlite3
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

from moderator_app.core.formats.chain import ZERO_HASH
from moderator_app.core.ledger.chained import (  # noqa: F401 - re-exported
    MIRRORED,
    LedgerBase,
    LedgerError,
    StoredDecision,
    VerifyOutcome,
    damaged,
    verify_jsonl,
)
from moderator_app.core.ledger.errors import corrupt_error, disk_full
from moderator_app.core.ledger.export import neutralise_cell, records_to_csv  # noqa: F401
from moderator_app.core.ledger.paths import (
    STORE_ENV,
    check_ledger_path,
    head_file,
    resolve_store,
)

SQLITE_MAGIC = b"SQLite format 3\x00"
APPLICATION_ID = 0x4D4F4431  # "MOD1": marks the file as our ledger (PRAGMA application_id)
SCHEMA_VERSION = 1
BUSY_TIMEOUT_S = 10.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS decisions (
    seq INTEGER PRIMARY KEY,
    decided_at TEXT NOT NULL,
    decision TEXT NOT NULL,
    reason TEXT NOT NULL,
    note TEXT NOT NULL,
    reviewer TEXT NOT NULL,
    submission TEXT NOT NULL,
    evidence_digest TEXT NOT NULL,
    record_json BLOB NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE
);
CREATE INDEX IF NOT EXISTS decisions_evidence ON decisions (evidence_digest);
"""


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    msg = str(exc).lower()
    return "locked" in msg or "busy" in msg


def _make_private_dirs(directory: Path) -> None:
    """Create missing directories as 0o700. Existing directories are left alone (a `--store`
    in /tmp must not chmod /tmp), except the default per-user data directory."""
    missing = []
    d = directory
    while not d.exists():
        missing.append(d)
        if d.parent == d:
            break
        d = d.parent
    for m in reversed(missing):
        try:
            os.mkdir(m, 0o700)
        except FileExistsError:  # another process made it meanwhile: not ours to chmod
            continue
        os.chmod(m, 0o700)  # mkdir's mode is masked by the umask


def _check_header(path: Path) -> None:
    """Refuse a non-empty file that is not SQLite before SQLite ever opens it."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise LedgerError(f"cannot read the decision ledger {path}: {exc}") from exc
    if head and head != SQLITE_MAGIC:
        raise LedgerError(
            f"{path} is not an SQLite database (corrupt or not a ledger); it was left "
            "untouched. Move it aside and restore from a backup or an export "
            "(see docs/decisions-ledger.md).")


def _nonempty(path: Path) -> bool:
    try:
        return path.stat().st_size > 0
    except OSError:
        return False


_HEAD_OPEN = os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
_HEAD_MAX = 256  # "SEQ HASH\n" is under 100 bytes


def _open_head_file(path: Path, flags: int) -> int:
    """A descriptor on the head file, which must be a regular file. Opened without following
    a symlink and without blocking: a head file replaced by a FIFO hung `decisions verify`
    for ever, and one pointing at /dev/zero was read until memory ran out (issue 15)."""
    fd = os.open(head_file(path), flags | _HEAD_OPEN, 0o600)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
    except BaseException:
        os.close(fd)
        raise
    return fd


def _blob(value: Any) -> bytes:
    """A `record_json` cell as bytes, whatever SQLite type someone stored there (text, a
    number, NULL): `bytes(text)` was a TypeError, an internal error in `list` and `decide`.
    What is not a sealed record then fails where records are parsed, as a LedgerError."""
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass")
    return b"" if value is None else str(value).encode("ascii")


_HEAD_TEXT = re.compile(r"([0-9]+) ([0-9a-f]{64})")


def read_head_file(path: Path) -> str | None:
    """The mirrored head `"SEQ HASH"`, or None when there is no head file. Anything but a
    small regular file is reported as unreadable (never waited on, never read whole)."""
    try:
        fd = _open_head_file(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"unreadable ({'a symlink' if exc.errno == errno.ELOOP else exc.strerror})"
    try:
        text = os.read(fd, _HEAD_MAX).decode("ascii", errors="replace")
    except OSError as exc:
        return f"unreadable ({exc.strerror})"
    finally:
        os.close(fd)
    return " ".join(text.split())


class Ledger(LedgerBase):
    """One open SQLite ledger. Use as a context manager, or call `close()`.

    `create=False` (list, export, verify) never creates or writes anything: a missing ledger
    reads as empty, and a read-only file or mount is opened read-only. `append` creates the
    ledger when needed.
    """

    _write_lock = threading.Lock()  # one writer per process; flock + SQLite across processes

    def __init__(self, path: str | os.PathLike | None = None, create: bool = True) -> None:
        self.path = resolve_store(path)
        self._head_fd: int | None = None  # the head file, locked, during an append
        self._head_created = False  # ... and whether this append created it
        self.display = str(self.path)
        self._default = path is None and not os.environ.get(STORE_ENV)
        self._conn: sqlite3.Connection | None = None
        self._writable = False  # the connection was configured for appending (WAL, FULL)
        check_ledger_path(self.path)
        if self.path.exists():
            self._open(writable=create)
        elif create:
            self._open(writable=True)

    def own_files(self) -> list[Path]:
        """The database, its SQLite companions and the head file."""
        return [self.path, *(self.path.with_name(self.path.name + s)
                             for s in ("-wal", "-shm", "-journal")), head_file(self.path)]

    # -- opening ---------------------------------------------------------------------------

    def _open(self, writable: bool) -> None:
        path = self.path
        if path.exists():
            if not path.is_file():
                raise LedgerError(f"{path} is not a file")
            _check_header(path)
        elif writable:
            _make_private_dirs(path.parent)
        if writable and path.exists() and not (os.access(path, os.W_OK)
                                               and os.access(path.parent, os.W_OK)):
            # SQLite says "unable to open database file", which read as "corrupt": the
            # moderator was told to restore a ledger that is intact, only not writable.
            raise LedgerError(
                f"the decision ledger {path} is read-only (the file, its folder or its mount "
                "cannot be written): nothing can be recorded there. `decisions list`, "
                "`export` and `verify` still read it; record in a writable ledger "
                "(--store).")
        if writable and self._default:  # our own per-user directory: always private
            with contextlib.suppress(OSError):
                os.chmod(path.parent, 0o700)
        if writable and not path.exists():
            # Create the file ourselves so that it is private from the first byte.
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                os.close(fd)
            except FileExistsError:  # another process created it first: use theirs
                _check_header(path)
        if writable:
            self._conn = self._connect(str(path), uri=False, read_only=False)
            self._writable = True
            return
        # Reading: read-write when possible (a WAL reader may need to create the -shm);
        # read-only when the file or its folder cannot be written (a read-only mount);
        # immutable when even the -shm cannot be made (nothing can write there either).
        if os.access(path, os.W_OK) and os.access(path.parent, os.W_OK):
            try:
                self._conn = self._connect(str(path), uri=False, read_only=True)
                return
            except LedgerError as exc:
                full = disk_full(path)
                if "readonly" not in str(exc).lower() and "read-only" not in str(exc).lower() \
                        and not full:
                    raise
                if full and _nonempty(path.with_name(path.name + "-wal")):
                    raise  # decisions may be in the WAL, which an immutable read ignores
        uri = "file:" + quote(str(path.resolve()))
        try:
            self._conn = self._connect(uri + "?mode=ro", uri=True, read_only=True)
        except LedgerError:
            # a read-only mount, or a full disk with an empty WAL (each append checkpoints
            # it): the main file holds every decision, and nothing can be written beside it
            self._conn = self._connect(uri + "?mode=ro&immutable=1", uri=True, read_only=True)

    def _connect(self, target: str, uri: bool, read_only: bool) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(target, timeout=BUSY_TIMEOUT_S, isolation_level=None,
                                   check_same_thread=False, uri=uri)
        except sqlite3.Error as exc:
            raise LedgerError(f"cannot open the decision ledger {self.path}: {exc}") from exc
        try:
            self._configure(conn, read_only)
        except LedgerError:
            conn.close()
            raise
        except sqlite3.OperationalError as exc:
            conn.close()
            if _is_busy(exc):
                raise LedgerError(f"the decision ledger {self.path} is busy (another process "
                                  f"holds it): {exc}") from exc
            raise corrupt_error(self.path, exc) from exc
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise corrupt_error(self.path, exc) from exc
        return conn

    def _configure(self, conn: sqlite3.Connection, read_only: bool) -> None:
        """Check that this is our ledger, set WAL and FULL sync, create the schema. Retried
        while another process is creating or checkpointing the same file (SQLite reports
        some of those lock states as busy without waiting)."""
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        while True:
            try:
                self._configure_once(conn, read_only)
                return
            except sqlite3.OperationalError as exc:
                if not _is_busy(exc) or time.monotonic() > deadline:
                    raise
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                time.sleep(0.02)

    def _configure_once(self, conn: sqlite3.Connection, read_only: bool) -> None:
        # Tables first: the schema and the application id are committed together, so once
        # tables are seen the id read after them is the committed one.
        conn.execute("PRAGMA busy_timeout = 10000")
        tables = {r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table'")}
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        if tables and (app_id != APPLICATION_ID or "decisions" not in tables):
            raise LedgerError(
                f"{self.path} is an SQLite database but not a moderator-app decision ledger; "
                "it was left untouched")
        triggers = conn.execute(
            "SELECT count(*) FROM sqlite_master WHERE type='trigger'").fetchone()[0]
        if triggers:  # the schema has none: one runs inside our own transactions
            raise LedgerError(
                f"{self.path} holds {triggers} trigger(s) that moderator-app never creates: a "
                "trigger can change or delete decisions inside the very transaction that "
                "records one, so the ledger is not used; it was left untouched")
        if tables:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise LedgerError(
                    f"{self.path} was written by a newer moderator-app (ledger schema "
                    f"{version}); this version reads schema {SCHEMA_VERSION}")
        if read_only:
            return
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise LedgerError(f"{self.path}: cannot switch the ledger to WAL mode ({mode})")
        conn.execute("PRAGMA synchronous = FULL")
        if not tables:
            conn.executescript(
                "BEGIN IMMEDIATE;" + _SCHEMA
                + f"PRAGMA application_id = {APPLICATION_ID};"
                + f"PRAGMA user_version = {SCHEMA_VERSION};"
                + f"INSERT OR IGNORE INTO meta VALUES ('schema', '{SCHEMA_VERSION}');"
                + "COMMIT;")

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    # -- the store's primitives ------------------------------------------------------------

    def _query(self, sql: str, params: tuple = ()) -> list[Any]:
        if self._conn is None:
            return []
        try:
            return self._conn.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as exc:
            raise LedgerError(f"the decision ledger {self.path} is unreadable: {exc}") from exc

    def _raw_rows(self, evidence_digest: str | None = None) -> list[tuple[int, bytes]]:
        if evidence_digest is None:
            rows = self._query("SELECT seq, record_json FROM decisions ORDER BY seq")
        else:
            rows = self._query("SELECT seq, record_json FROM decisions WHERE "
                               "evidence_digest = ? ORDER BY seq", (evidence_digest,))
        return [(r[0], _blob(r[1])) for r in rows]

    def _verify_rows(self) -> Iterator[tuple[dict[str, Any], Any]]:
        if self._conn is None:
            return
        cols = ", ".join(MIRRORED)
        try:
            for row in self._conn.execute(
                    f"SELECT {cols}, record_json FROM decisions ORDER BY seq"):
                yield dict(zip(MIRRORED, row[:-1], strict=True)), row[-1]
        except sqlite3.DatabaseError as exc:
            raise LedgerError(f"the decision ledger {self.path} is unreadable: {exc}") from exc

    def _head_marker(self) -> str | None:
        rows = self._query("SELECT value FROM meta WHERE key='head'")
        return rows[0][0] if rows else None

    def _integrity(self) -> str | None:
        if self._conn is None:
            return None
        try:
            integrity = self._conn.execute("PRAGMA quick_check").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise LedgerError(f"the decision ledger {self.path} is corrupt: {exc}") from exc
        return None if integrity == "ok" else f"SQLite quick_check: {integrity}"

    def _extra_checks(self, outcome: VerifyOutcome) -> VerifyOutcome:
        """The head mirrored outside the database must name a record of the chain: when it
        is ahead of the chain, decisions were lost (a dropped `-wal`, an old copy of the file
        put back, records deleted at the end with the head row fixed)."""
        if not outcome.ok:
            return outcome
        mirrored = read_head_file(self.path)
        if mirrored is None:
            if outcome.count:
                return _with_note(outcome, f"no head file ({head_file(self.path).name}) "
                                  "beside the ledger: decisions lost at the end could not "
                                  "be detected (it is written again by the next decision)")
            return outcome
        if not mirrored and not outcome.count:  # created by a first append that failed
            return outcome
        problem = self._head_problem(mirrored, outcome.count)
        if problem is None:
            return outcome
        return VerifyOutcome(False, outcome.count, outcome.head, problem[0], problem[1])

    def _head_problem(self, mirrored: str, count: int) -> tuple[int | None, str] | None:
        """(first bad seq, why) when the mirrored head names no record of a chain of `count`
        records, else None."""
        if not mirrored:
            return None, (f"the head file {head_file(self.path).name} is empty but the "
                          f"database holds {count} decision(s): the head was erased, so "
                          "decisions lost at the end cannot be ruled out")
        # Only what an append writes, `SEQ HASH` in ASCII digits and lowercase hex: int()
        # also takes `-1`, `+3` and `1_0`, and `-1` with a zero hash named "no record", so
        # verify said intact and the next decide rewrote it (s28 hostile sweep).
        written = _HEAD_TEXT.fullmatch(mirrored)
        if written is None:
            return None, (f"the head file {head_file(self.path).name} is unreadable: "
                          f"{mirrored[:80]!r}")
        seq, hash_ = int(written[1]), written[2]
        if seq > count:
            return count + 1, (
                f"decisions are missing: the head file says the ledger reached seq {seq} "
                f"(hash {hash_[:16]}…) but the database ends at seq {count} (a "
                "dropped -wal file, an older copy of the database, or records deleted)")
        rows = self._query("SELECT hash FROM decisions WHERE seq = ?", (seq,)) if seq else []
        found = rows[0][0] if rows else ZERO_HASH
        if found != hash_:
            return seq, (f"the head file names seq {seq} hash {hash_[:16]}… but the database "
                         f"holds hash {str(found)[:16]}… there (records were rewritten)")
        return None

    def _check_head_before_append(self, tx: _SqliteTx) -> None:
        """Refuse to append to a ledger whose head file says decisions are missing: the
        append rewrites the head file, so a dropped `-wal` followed by one more decision
        verified as intact, the loss erased by the next `decide` (issue 15, point 11)."""
        fd = self._head_fd
        text = os.pread(fd, _HEAD_MAX, 0).decode("ascii", "replace") if fd is not None else ""
        mirrored = " ".join(text.split())
        count = tx.head()[0]
        if not mirrored and (self._head_created or not count):
            return  # a new ledger, or a head file deleted: the append writes it again
        # An existing head file that is empty beside recorded decisions was erased (an append
        # writes it whole under the lock): refused like one that is ahead, or the next
        # decision would rewrite it and `decisions verify` would call the ledger intact.
        problem = self._head_problem(mirrored, count)
        if problem is not None:
            raise LedgerError(f"{problem[1]}; nothing was recorded, so that the loss stays "
                              "visible: see `moderator-app decisions verify` and Recovery in "
                              "docs/decisions-ledger.md")

    def _walk_key(self) -> str | None:
        return "sqlite:" + os.path.realpath(self.path)

    def _check_body_before_append(self) -> None:
        """Refuse to append to a ledger `decisions verify` calls damaged: SQLite's own
        `quick_check` (a page zeroed, the file cut inside its last page; s28 hostile sweep)
        and the chain as `verify` walks it (a record deleted in the middle, edited, two
        swapped; QA s29 h29_01/02/05). `decide` appended to each and printed "Recorded",
        so a decision went into a file whose records may already be lost, and nobody was
        told. Nothing is written; the CLI and the panel say "NOT recorded" with this
        reason, so the decision is made again in a restored or another ledger (`--store`).
        The head file was checked just before (`_check_head_before_append`, which lets a
        deleted one be written again). Before every append, under the write lock:
        `quick_check` (1-5 ms on 2,000 decisions), then `walked_before_append`, which
        checks only the records this process has not walked yet and compares the rest with
        a digest of the rows it walked (session 30: until then the whole chain was walked
        before a store's first append only, ~0.7 s of CPU at 10,000 decisions for every
        decision of the panel, and a store kept open never walked again)."""
        walked = None
        try:
            problem = self._integrity()
            if problem is None:
                walked = self.walked_before_append()
        except LedgerError as exc:  # SQLite could not read a page
            problem = f"SQLite: {exc.__cause__ or exc}"
        if walked is not None and not walked.ok:
            raise self.damaged_error(walked, f"the decision ledger {self.path}")
        if problem is not None:
            raise damaged(f"the decision ledger {self.path}", problem)

    @contextlib.contextmanager
    def _write(self) -> Iterator[_SqliteTx]:
        if not self._writable:
            self.close()
            self._open(writable=True)
        assert self._conn is not None
        conn = self._conn
        with self._write_lock, self._head_lock():
            try:
                self._begin_immediate()
                tx = _SqliteTx(conn)
                try:
                    self._check_head_before_append(tx)
                    self._check_body_before_append()
                    yield tx
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
            except sqlite3.DatabaseError as exc:
                raise LedgerError(f"could not save to {self.path}: {exc}") from exc
            if tx.new_head is not None:
                self._after_commit(*tx.new_head)

    @contextlib.contextmanager
    def _head_lock(self) -> Iterator[None]:
        """An exclusive flock on the head file for the whole append, so that the head file
        is written in commit order by the process that made the commit."""
        try:
            try:
                fd = _open_head_file(self.path, os.O_RDWR)
                self._head_created = False
            except FileNotFoundError:  # deleted, or a new ledger: this append writes it
                fd = _open_head_file(self.path, os.O_RDWR | os.O_CREAT)
                self._head_created = True
        except OSError as exc:
            raise LedgerError(f"cannot write the head file {head_file(self.path)}: "
                              f"{'a symlink' if exc.errno == errno.ELOOP else exc.strerror}"
                              " (it must be a regular file; see docs/decisions-ledger.md)"
                              ) from exc
        self._head_fd = fd
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            self._head_fd = None
            os.close(fd)

    def _after_commit(self, seq: int, hash_: str) -> None:
        """Move the WAL into the main file (so the file alone holds every acknowledged
        decision) and mirror the head outside the database. Still under the head lock."""
        assert self._conn is not None
        with contextlib.suppress(sqlite3.DatabaseError):  # busy readers: the head file tells
            self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        fd = getattr(self, "_head_fd", None)
        data = f"{seq} {hash_}\n".encode("ascii")
        if fd is None:  # pragma: no cover - always called under _head_lock
            return
        # One small write, then cut any longer old text. Not fsynced: the head file may only
        # lag the database after a crash (verify accepts a head the chain contains); the
        # decision itself is already durable (synchronous=FULL).
        os.pwrite(fd, data, 0)
        os.ftruncate(fd, len(data))

    def _begin_immediate(self) -> None:
        """Take the write lock, waiting for another writer (busy_timeout, then retries)."""
        assert self._conn is not None
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        while True:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if not _is_busy(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)


def _with_note(outcome: VerifyOutcome, note: str) -> VerifyOutcome:
    return VerifyOutcome(outcome.ok, outcome.count, outcome.head, outcome.bad_seq,
                         outcome.reason, (*outcome.notes, note))


class _SqliteTx:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.new_head: tuple[int, str] | None = None

    def head(self) -> tuple[int, str]:
        row = self.conn.execute(
            "SELECT seq, hash FROM decisions ORDER BY seq DESC LIMIT 1").fetchone()
        return (row[0], row[1]) if row else (0, ZERO_HASH)

    def raw_for(self, evidence_digest: str) -> list[bytes]:
        return [_blob(r[0]) for r in self.conn.execute(
            "SELECT record_json FROM decisions WHERE evidence_digest = ? ORDER BY seq",
            (evidence_digest,))]

    def insert(self, cols: dict[str, Any], raw: bytes) -> None:
        self.conn.execute(
            "INSERT INTO decisions (seq, decided_at, decision, reason, note, reviewer, "
            "submission, evidence_digest, record_json, prev_hash, hash) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (cols["seq"], cols["decided_at"], cols["decision"], cols["reason"], cols["note"],
             cols["reviewer"], cols["submission"], cols["evidence_digest"], raw,
             cols["prev_hash"], cols["hash"]))

    def set_head(self, seq: int, hash_: str) -> None:
        self.conn.execute("INSERT OR REPLACE INTO meta VALUES ('head', ?)", (f"{seq} {hash_}",))
        self.new_head = (seq, hash_)
