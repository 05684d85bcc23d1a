"""The decision ledger: an append-only, hash-chained SQLite store.

Each decision is stored as its RFC 8785 canonical JSON, sealed with the trajectory chain rule
(`core.chain`: `hash = SHA256(prev_hash || canonical_json(record_without_hash))`, the first
`prev_hash` is 64 zeros) and a `seq` that counts from 1. An edited, deleted or reordered
decision therefore breaks the chain and `verify()` names the first bad record. The columns
beside the JSON (note, reason, ...) exist for queries and for people browsing the file; they
are checked against the hashed JSON, so an `UPDATE decisions SET note=...` is caught too.

Durability: WAL with `synchronous=FULL` (a commit is on disk before `append` returns), one
writer (`BEGIN IMMEDIATE` plus a process-wide lock). A file that is not our SQLite ledger is
refused with a clear error and never written to: we neither "repair" nor recreate it.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from moderator_app.core.atomic import atomic_write
from moderator_app.core.formats.canonical import canonical_json
from moderator_app.core.formats.chain import ZERO_HASH, event_hash, seal
from moderator_app.core.ledger.records import DecisionRecord

STORE_ENV = "MODERATOR_APP_STORE"
APP_DIR_NAME = "moderator-app"
LEDGER_FILE = "decisions.sqlite3"
SQLITE_MAGIC = b"SQLite format 3\x00"
APPLICATION_ID = 0x4D4F4431  # "MOD1": marks the file as our ledger (PRAGMA application_id)
SCHEMA_VERSION = 1

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

#: Columns that mirror a member of the hashed JSON; `verify` compares each one.
MIRRORED = ("seq", "decided_at", "decision", "reason", "note", "reviewer", "submission",
            "evidence_digest", "prev_hash", "hash")


BUSY_TIMEOUT_S = 10.0


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    msg = str(exc).lower()
    return "locked" in msg or "busy" in msg


class LedgerError(Exception):
    """The ledger cannot be used (not a ledger, corrupt, unreadable). Never auto-repaired."""


@dataclass(frozen=True, slots=True)
class StoredDecision:
    """A decision as stored: its place in the chain and the record."""

    seq: int
    prev_hash: str
    hash: str
    record: DecisionRecord
    raw: bytes  # the stored canonical JSON line (with seq, prev_hash, hash)


@dataclass(frozen=True, slots=True)
class VerifyOutcome:
    """`ok`, how many records were checked, the head hash, and the first problem if any."""

    ok: bool
    count: int
    head: str
    bad_seq: int | None = None
    reason: str | None = None

    def describe(self, what: str = "ledger") -> str:
        if self.ok:
            return f"{what} intact: {self.count} decisions, head {self.head}"
        return f"{what} NOT intact: first bad record seq {self.bad_seq}: {self.reason}"


def default_store_path() -> Path:
    """`$MODERATOR_APP_STORE`, else the per-user data directory (platformdirs)."""
    env = os.environ.get(STORE_ENV)
    if env:
        return Path(env).expanduser()
    import platformdirs

    return platformdirs.user_data_path(APP_DIR_NAME) / LEDGER_FILE


def resolve_store(path: str | Path | None) -> Path:
    """`--store PATH` wins; a directory means the ledger file inside it."""
    if path is None:
        return default_store_path()
    p = Path(path).expanduser()
    return p / LEDGER_FILE if p.is_dir() else p


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


class Ledger:
    """One open ledger. Use as a context manager, or call `close()`.

    `create=False` (list, export, verify) never creates a file: a missing ledger reads as
    empty. `append` creates it when needed.
    """

    _write_lock = threading.Lock()  # one writer per process; SQLite serialises processes

    def __init__(self, path: str | Path | None = None, create: bool = True) -> None:
        self.path = resolve_store(path)
        self._default = path is None and not os.environ.get(STORE_ENV)
        self._conn: sqlite3.Connection | None = None
        if self.path.exists() or create:
            self._open()

    # -- opening ---------------------------------------------------------------------------

    def _open(self) -> None:
        path = self.path
        if path.exists():
            if not path.is_file():
                raise LedgerError(f"{path} is not a file")
            _check_header(path)
        else:
            _make_private_dirs(path.parent)
        if self._default:  # our own per-user directory: always private
            with contextlib.suppress(OSError):
                os.chmod(path.parent, 0o700)
        if not path.exists():
            # Create the file ourselves so that it is private from the first byte.
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                os.close(fd)
            except FileExistsError:  # another process created it first: use theirs
                _check_header(path)
        try:
            conn = sqlite3.connect(str(path), timeout=10.0, isolation_level=None,
                                   check_same_thread=False)
        except sqlite3.Error as exc:
            raise LedgerError(f"cannot open the decision ledger {path}: {exc}") from exc
        try:
            self._configure(conn)
        except LedgerError:
            conn.close()
            raise
        except sqlite3.OperationalError as exc:
            conn.close()
            if _is_busy(exc):
                raise LedgerError(f"the decision ledger {path} is busy (another process "
                                  f"holds it): {exc}") from exc
            raise LedgerError(
                f"the decision ledger {path} is corrupt or unreadable ({exc}); it was left "
                "untouched. Move it aside and restore from a backup or an export "
                "(see docs/decisions-ledger.md).") from exc
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise LedgerError(
                f"the decision ledger {path} is corrupt or unreadable ({exc}); it was left "
                "untouched. Move it aside and restore from a backup or an export "
                "(see docs/decisions-ledger.md).") from exc
        self._conn = conn

    def _configure(self, conn: sqlite3.Connection) -> None:
        """Check that this is our ledger, set WAL and FULL sync, create the schema. Retried
        while another process is creating or checkpointing the same file (SQLite reports
        some of those lock states as busy without waiting)."""
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        while True:
            try:
                self._configure_once(conn)
                return
            except sqlite3.OperationalError as exc:
                if not _is_busy(exc) or time.monotonic() > deadline:
                    raise
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                time.sleep(0.02)

    def _configure_once(self, conn: sqlite3.Connection) -> None:
        # Tables first: the schema and the application id are committed together, so once
        # tables are seen the id read after them is the committed one.
        tables = {r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table'")}
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        if tables and (app_id != APPLICATION_ID or "decisions" not in tables):
            raise LedgerError(
                f"{self.path} is an SQLite database but not a moderator-app decision ledger; "
                "it was left untouched")
        conn.execute("PRAGMA busy_timeout = 10000")
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise LedgerError(f"{self.path}: cannot switch the ledger to WAL mode ({mode})")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        if not tables:
            conn.executescript(
                "BEGIN IMMEDIATE;" + _SCHEMA
                + f"PRAGMA application_id = {APPLICATION_ID};"
                + f"PRAGMA user_version = {SCHEMA_VERSION};"
                + f"INSERT OR IGNORE INTO meta VALUES ('schema', '{SCHEMA_VERSION}');"
                + "COMMIT;")
        else:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise LedgerError(
                    f"{self.path} was written by a newer moderator-app (ledger schema "
                    f"{version}); this version reads schema {SCHEMA_VERSION}")

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _query(self, sql: str, params: tuple = ()) -> list[sqlite3.Row | tuple]:
        if self._conn is None:
            return []
        try:
            return self._conn.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as exc:
            raise LedgerError(f"the decision ledger {self.path} is unreadable: {exc}") from exc

    # -- writing ---------------------------------------------------------------------------

    def append(self, record: DecisionRecord) -> StoredDecision:
        """Seal and store `record`; returns only after the commit is durable on disk."""
        if self._conn is None:
            self._open()
        assert self._conn is not None
        body = record.to_dict()
        with self._write_lock:
            try:
                self._begin_immediate()
                try:
                    row = self._conn.execute(
                        "SELECT seq, hash FROM decisions ORDER BY seq DESC LIMIT 1").fetchone()
                    seq, prev = (row[0] + 1, row[1]) if row else (1, ZERO_HASH)
                    sealed = seal({**body, "seq": seq}, prev)
                    raw = canonical_json(sealed)
                    self._conn.execute(
                        "INSERT INTO decisions (seq, decided_at, decision, reason, note, "
                        "reviewer, submission, evidence_digest, record_json, prev_hash, hash) "
                        "VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                        (seq, record.decided_at, record.decision, record.reason, record.note,
                         record.reviewer, record.submission, record.evidence_digest, raw,
                         prev, sealed["hash"]))
                    self._conn.execute(
                        "INSERT OR REPLACE INTO meta VALUES ('head', ?)",
                        (f"{seq} {sealed['hash']}",))
                    self._conn.execute("COMMIT")
                except BaseException:
                    if self._conn.in_transaction:
                        self._conn.execute("ROLLBACK")
                    raise
            except sqlite3.DatabaseError as exc:
                raise LedgerError(f"could not save the decision to {self.path}: {exc}") from exc
        return StoredDecision(seq, prev, sealed["hash"], record, raw)

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

    # -- reading ---------------------------------------------------------------------------

    def _rows(self, where: str = "", params: tuple = ()) -> list[tuple]:
        return self._query(
            "SELECT seq, prev_hash, hash, record_json FROM decisions " + where
            + " ORDER BY seq", params)

    @staticmethod
    def _stored(row: tuple) -> StoredDecision:
        raw = bytes(row[3])
        try:
            d = json.loads(raw)
            rec = DecisionRecord.from_dict(d)
        except (ValueError, KeyError, TypeError) as exc:
            raise LedgerError(f"decision seq {row[0]} cannot be read: {exc}; run "
                              "`moderator-app decisions verify`") from exc
        return StoredDecision(row[0], row[1], row[2], rec, raw)

    def list(self) -> list[StoredDecision]:
        return [self._stored(r) for r in self._rows()]

    def by_evidence(self, digest: str) -> list[StoredDecision]:
        """Earlier decisions on the same evidence (see `decision.evidence_digest`)."""
        return [self._stored(r) for r in self._rows("WHERE evidence_digest = ?", (digest,))]

    def count(self) -> int:
        rows = self._query("SELECT count(*) FROM decisions")
        return int(rows[0][0]) if rows else 0

    # -- verifying -------------------------------------------------------------------------

    def verify(self) -> VerifyOutcome:
        """Walk the whole chain; the first record that does not check out is reported."""
        if self._conn is None:
            return VerifyOutcome(True, 0, ZERO_HASH)
        try:
            integrity = self._conn.execute("PRAGMA quick_check").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise LedgerError(f"the decision ledger {self.path} is corrupt: {exc}") from exc
        if integrity != "ok":
            return VerifyOutcome(False, 0, ZERO_HASH, None, f"SQLite quick_check: {integrity}")
        cols = ", ".join(MIRRORED)
        try:
            cur = self._conn.execute(f"SELECT {cols}, record_json FROM decisions ORDER BY seq")
            prev = ZERO_HASH
            expected_seq = 1
            count = 0
            for row in cur:
                count += 1
                bad = _check_row(dict(zip(MIRRORED, row[:-1], strict=True)), row[-1], prev,
                                 expected_seq)
                seq = row[0]
                if bad:
                    return VerifyOutcome(False, count - 1, prev, seq, bad)
                prev = row[MIRRORED.index("hash")]
                expected_seq += 1
            head_row = self._conn.execute("SELECT value FROM meta WHERE key='head'").fetchone()
        except sqlite3.DatabaseError as exc:
            raise LedgerError(f"the decision ledger {self.path} is unreadable: {exc}") from exc
        last = count
        if count and head_row is None:
            return VerifyOutcome(False, count, prev, last, "the ledger head marker is missing")
        if head_row is not None and head_row[0] != f"{last} {prev}":
            recorded = head_row[0].split(" ", 1)
            try:
                recorded_seq = int(recorded[0])
            except ValueError:
                recorded_seq = last
            return VerifyOutcome(
                False, count, prev, last + 1 if recorded_seq > last else last,
                f"the ledger head marker says seq {recorded[0]} hash {recorded[-1][:16]}… but "
                f"the chain ends at seq {last} hash {prev[:16]}… (decisions were deleted at "
                "the end, or the head marker was edited)")
        return VerifyOutcome(True, count, prev)

    # -- exporting -------------------------------------------------------------------------

    def iter_raw(self) -> Iterator[tuple[int, bytes]]:
        for r in self._rows():
            yield r[0], bytes(r[3])

    def export(self, fmt: str, out: str | Path) -> int:
        """Write every decision to `out` atomically (temp file + rename); returns the count.

        `jsonl`: the stored canonical JSON, one record per line, with `seq`, `prev_hash` and
        `hash`, so the export can be re-verified without the database. `csv`: one row per
        decision for spreadsheets, with formula-like cells neutralised.
        """
        rows = list(self.iter_raw())
        if fmt == "jsonl":
            data = b"".join(raw + b"\n" for _, raw in rows)
        elif fmt == "csv":
            data = records_to_csv([json.loads(raw) for _, raw in rows]).encode("utf-8")
        else:
            raise ValueError(f"unknown export format {fmt!r} (jsonl or csv)")
        atomic_write(Path(out), data)
        return len(rows)


def verify_jsonl(path: str | Path) -> VerifyOutcome:
    """Check a JSON Lines export on its own (no database): canonical lines, `seq` from 1,
    each `prev_hash` the hash before, each `hash` recomputed. An export that verifies can
    be trusted as far as its last `hash`; compare that with a head you noted earlier."""
    prev = ZERO_HASH
    count = 0
    with open(path, "rb") as fh:
        for n, line in enumerate(fh, 1):
            raw = line[:-1] if line.endswith(b"\n") else line
            try:
                d = json.loads(raw)
            except ValueError as exc:
                return VerifyOutcome(False, count, prev, n, f"line {n} is not JSON: {exc}")
            cols = {k: d.get(k) for k in MIRRORED} if isinstance(d, dict) else {"seq": None}
            bad = _check_row(cols, raw, prev, n)
            if bad:
                return VerifyOutcome(False, count, prev, n, f"line {n}: {bad}")
            prev = d["hash"]
            count += 1
    return VerifyOutcome(True, count, prev)


def _check_row(cols: dict[str, Any], raw: Any, prev: str, expected_seq: int) -> str | None:
    """Why this row is bad, or None. Order matters: the most telling reason first."""
    seq = cols["seq"]
    if seq != expected_seq:
        return (f"sequence gap: expected seq {expected_seq}, found {seq} "
                "(a decision was deleted or inserted)")
    if not isinstance(raw, bytes | str):
        return "record_json is not text"
    raw_b = raw.encode("utf-8") if isinstance(raw, str) else bytes(raw)
    try:
        d = json.loads(raw_b)
    except ValueError as exc:
        return f"record_json is not valid JSON: {exc}"
    if not isinstance(d, dict):
        return "record_json is not a JSON object"
    try:
        canon = canonical_json(d)
    except ValueError as exc:
        return f"record_json cannot be canonicalised: {exc}"
    if canon != raw_b:
        return "record_json is not in canonical form (it was rewritten after sealing)"
    if d.get("prev_hash") != prev:
        return (f"prev_hash {str(d.get('prev_hash'))[:16]}… does not match the previous "
                f"record's hash {prev[:16]}… (a decision was deleted, inserted or reordered)")
    body = {k: v for k, v in d.items() if k != "hash"}
    if event_hash(prev, body) != d.get("hash"):
        return "hash mismatch: the record's content was edited after it was sealed"
    for name in MIRRORED:
        if cols[name] != d.get(name):
            return (f"column {name!r} differs from the sealed record "
                    "(the column was edited directly in the database)")
    return None


# -- export helpers ------------------------------------------------------------------------

CSV_COLUMNS = (
    "seq", "decided_at", "decision", "reason", "note", "reviewer", "app_version", "kind",
    "submission", "evidence_digest", "chain_head", "verdict", "errors", "warnings",
    "sync_offset_s", "retime_start_s", "retime_end_s", "checklist", "override_note",
    "files", "file_sha256", "prev_hash", "hash",
)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def neutralise_cell(value: Any) -> str:
    """A CSV cell a spreadsheet will not run: text starting with = + - @ TAB or CR (also after
    leading spaces) gets a leading apostrophe (OWASP CSV injection advice)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, int | float):
        text = canonical_json(value).decode("ascii")
    else:
        text = str(value)
    if text.lstrip(" ").startswith(_FORMULA_START) or text.startswith(_FORMULA_START):
        return "'" + text
    return text


def records_to_csv(records: list[dict[str, Any]]) -> str:
    """One row per decision. `files` lists `name (size bytes) sha256` per file; `file_sha256`
    only the digests, both separated by `; `."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(CSV_COLUMNS)
    for d in records:
        s = d.get("summary") or {}
        files = d.get("files") or []
        row = {
            **{k: d.get(k) for k in CSV_COLUMNS},
            "verdict": s.get("verdict"), "errors": s.get("errors"),
            "warnings": s.get("warnings"),
            "checklist": "; ".join(d.get("checklist") or []),
            "files": "; ".join(f"{f.get('name')} ({f.get('size')} bytes) {f.get('sha256')}"
                               for f in files),
            "file_sha256": "; ".join(str(f.get("sha256")) for f in files),
        }
        w.writerow([neutralise_cell(row[c]) for c in CSV_COLUMNS])
    return buf.getvalue()


