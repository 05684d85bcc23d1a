"""The decision ledger in PostgreSQL: team mode, one chain shared by many workstations.

Same records, same chain, same checks as the SQLite store (`chained.LedgerBase`); psycopg 3,
no ORM (four statements do not need one). Concurrent appends are serialised IN THE DATABASE:
each append runs in one transaction that first locks the single head row
(`SELECT ... FOR UPDATE`), reads the claims on the evidence, inserts the sealed record and
moves the head, then commits with `synchronous_commit = on`. A second writer waits on the
row lock and then sees the first one's record, so the chain can neither fork nor gap; the
primary key on `seq` and the unique `hash` are a second line of defence.

Credentials never leave this module: every message names the store by `display` (user, host,
port, database; never the password), and any text from the driver is scrubbed of the
password and the connection string before it is shown. The connection string comes from
`--store`, `$MODERATOR_APP_STORE`, or an owner-only file (`store_config`); libpq's own
`PGPASSWORD` / `~/.pgpass` and TLS options (`sslmode`, `sslrootcert`, ...) pass through.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import Any

from moderator_app.core.formats.chain import ZERO_HASH
from moderator_app.core.ledger.chained import (
    MIRRORED,
    LedgerBase,
    LedgerError,
    VerifyOutcome,
    check_head_marker,
    polled,
    walk_from,
)
from moderator_app.core.ledger.errors import LedgerPathError, OutcomeUnknown
from moderator_app.core.ledger.walk_memo import WALKS, WalkedPrefix
from moderator_app.core.progress import CancelToken

CONNECT_TIMEOUT_S = 5  # an unreachable team store is reported at once, not after minutes
SCHEMA_LOCK_KEY = 0x4D4F4431  # advisory lock id while creating the tables ("MOD1")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS moderator_ledger_meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE IF NOT EXISTS moderator_ledger_head (
    id integer PRIMARY KEY CHECK (id = 1),
    seq bigint NOT NULL,
    hash text NOT NULL
);
CREATE TABLE IF NOT EXISTS moderator_decisions (
    seq bigint PRIMARY KEY,
    decided_at text NOT NULL,
    decision text NOT NULL,
    reason text NOT NULL,
    note text NOT NULL,
    reviewer text NOT NULL,
    submission text NOT NULL,
    evidence_digest text NOT NULL,
    record_json bytea NOT NULL,
    prev_hash text NOT NULL,
    hash text NOT NULL UNIQUE
);
CREATE INDEX IF NOT EXISTS moderator_decisions_evidence ON moderator_decisions (evidence_digest);
INSERT INTO moderator_ledger_head VALUES (1, 0, '""" + ZERO_HASH + """') ON CONFLICT DO NOTHING;
INSERT INTO moderator_ledger_meta VALUES ('schema', '1') ON CONFLICT DO NOTHING;
"""


def _row_bytes_sql() -> str:
    """One row as bytes, unambiguously (seq as 8 bytes, then each column's UTF-8 length and
    bytes, a NULL as length -1), for the digest the server computes (`_snapshot`)."""
    parts = ["int8send(seq)"]
    for col in MIRRORED[1:]:
        x = f"convert_to({col}, 'UTF8')"
        parts.append(f"coalesce(int4send(octet_length({x})) || {x}, '\\xffffffff'::bytea)")
    parts.append("coalesce(int4send(length(record_json)) || record_json, "
                 "'\\xffffffff'::bytea)")
    return " || ".join(parts)


# One statement, so one snapshot (READ COMMITTED takes one per statement): each row's
# SHA-256 computed once, the digest of those up to the remembered count and of all of them
# (with their counts), and the rows after the remembered count.
_SNAPSHOT = (
    f"WITH r AS (SELECT seq, sha256({_row_bytes_sql()}) AS h FROM moderator_decisions), "
    "p AS (SELECT sha256(coalesce(string_agg(h, ''::bytea ORDER BY seq), ''::bytea)) AS d, "
    "count(*) AS c FROM r WHERE seq <= %(known)s), "
    "a AS (SELECT sha256(coalesce(string_agg(h, ''::bytea ORDER BY seq), ''::bytea)) AS d, "
    "count(*) AS c FROM r) "
    f"SELECT p.d, p.c, a.d, a.c, t.* FROM p CROSS JOIN a LEFT JOIN "
    f"(SELECT {', '.join(MIRRORED)}, record_json FROM moderator_decisions "
    f"WHERE seq > %(known)s) t ON true ORDER BY t.seq")


def is_postgres(spec: object) -> bool:
    return isinstance(spec, str) and spec.lower().startswith(("postgresql://", "postgres://"))


def _parse(conninfo: str) -> dict[str, str]:
    from psycopg.conninfo import conninfo_to_dict

    try:
        return {k: str(v) for k, v in conninfo_to_dict(conninfo).items() if v is not None}
    except Exception:  # noqa: BLE001 - the driver's message may quote the password
        raise LedgerPathError("the store address is not a valid PostgreSQL connection string "
                          "(postgresql://USER@HOST:PORT/DATABASE?sslmode=...)") from None


def display_name(conninfo: str) -> str:
    """The store as it may be printed: no password, no other option."""
    d = _parse(conninfo)
    host = d.get("host", "localhost")
    port = f":{d['port']}" if d.get("port") else ""
    user = f"{d['user']}@" if d.get("user") else ""
    return f"postgresql://{user}{host}{port}/{d.get('dbname', '')}"


class PostgresLedger(LedgerBase):
    """One open connection to a team ledger. `create=False` never creates the tables (a
    store without them reads as empty)."""

    def __init__(self, conninfo: str, create: bool = True) -> None:
        self._conninfo = conninfo
        self._params = _parse(conninfo)
        self._secrets = tuple(s for s in (self._params.get("password"), conninfo) if s)
        self.display = display_name(conninfo)
        self.path = self.display  # what the CLI prints as "the ledger"
        self._conn: Any = None
        self._ready = False
        self._connect()
        if create:
            self._ensure_schema()

    # -- connection and errors -------------------------------------------------------------

    def _scrub(self, text: str) -> str:
        for s in sorted(self._secrets, key=len, reverse=True):
            text = text.replace(s, "***")
        return text

    def _error(self, what: str, exc: BaseException) -> LedgerError:
        detail = " ".join(self._scrub(str(exc)).split())
        return LedgerError(f"{what} {self.display}: {detail}")

    def _connect(self) -> None:
        import psycopg

        kwargs: dict[str, Any] = {"autocommit": True, "application_name": "moderator-app"}
        if "connect_timeout" not in self._params:
            kwargs["connect_timeout"] = CONNECT_TIMEOUT_S
        try:
            self._conn = psycopg.connect(self._conninfo, **kwargs)
        except (psycopg.Error, UnicodeError, ValueError, OSError) as exc:
            # UnicodeError: a host name IDNA cannot encode (a bidi control in it) was raised
            # by the name lookup as it is, an internal error (session 14)
            raise self._error("cannot reach the team store", exc) from None

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
            self._conn = None

    def _ensure_schema(self) -> None:
        import psycopg

        if self._ready:
            return
        try:
            with self._conn.transaction():
                self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK_KEY,))
                self._conn.execute(_SCHEMA)
        except psycopg.Error as exc:
            raise self._error("cannot prepare the ledger tables in", exc) from None
        self._ready = True

    def _query(self, sql: str, params: tuple | dict = ()) -> list[tuple]:
        import psycopg

        if self._conn is None or self._conn.closed:
            self._connect()
        try:
            return self._conn.execute(sql, params).fetchall()
        except psycopg.errors.UndefinedTable:
            return []  # no ledger in this database yet: empty
        except psycopg.Error as exc:
            raise self._error("cannot read the team store", exc) from None

    # -- the store's primitives ------------------------------------------------------------

    def _raw_rows(self, evidence_digest: str | None = None) -> list[tuple[int, bytes]]:
        if evidence_digest is None:
            rows = self._query("SELECT seq, record_json FROM moderator_decisions ORDER BY seq")
        else:
            rows = self._query("SELECT seq, record_json FROM moderator_decisions WHERE "
                               "evidence_digest = %s ORDER BY seq", (evidence_digest,))
        return [(int(r[0]), bytes(r[1])) for r in rows]

    def _verify_rows(self) -> Iterator[tuple[dict[str, Any], Any]]:
        cols = ", ".join(MIRRORED)
        for row in self._query(f"SELECT {cols}, record_json FROM moderator_decisions "
                               "ORDER BY seq"):
            d = dict(zip(MIRRORED, row[:-1], strict=True))
            d["seq"] = int(d["seq"])
            yield d, bytes(row[-1])

    def _head_marker(self) -> str | None:
        rows = self._query("SELECT seq, hash FROM moderator_ledger_head WHERE id = 1")
        return f"{int(rows[0][0])} {rows[0][1]}" if rows else None

    def _walk_key(self) -> str | None:
        return "postgresql:" + self.display

    def _snapshot(self, known: int) -> tuple[bytes, int, bytes, int, list]:
        """(digest and count of the rows up to seq `known`, digest and count of all rows,
        the rows after `known` as `_verify_rows` gives them), read in one statement."""
        rows = self._query(_SNAPSHOT, {"known": known})
        if not rows:  # no ledger tables yet (the aggregates' CROSS JOIN always gives a row)
            raise LedgerError(f"the team store {self.display} holds no ledger")
        first = rows[0]
        tail = []
        for row in rows:
            if row[4] is None:  # no row after `known`: the LEFT JOIN's empty side
                continue
            d = dict(zip(MIRRORED, row[4:-1], strict=True))
            d["seq"] = int(d["seq"])
            tail.append((d, bytes(row[-1])))
        return bytes(first[0]), int(first[1]), bytes(first[2]), int(first[3]), tail

    def walked_before_append(self, cancel: CancelToken | None = None) -> VerifyOutcome:
        """`LedgerBase.walked_before_append` with the digest computed by the server: the
        rows this process walked are compared there (one SHA-256 over them, in the same
        statement that returns the rows after them), so an append reads over the
        connection only the records added since, not the whole chain."""
        key = self._walk_key()
        assert key is not None
        known = WALKS.get(key)
        outcome = None
        if known is not None:
            p_d, p_c, a_d, a_c, tail = self._snapshot(known.count)
            if (p_d, p_c) == (known.digest, known.count):
                outcome, _ = walk_from(polled(tail, cancel), None,
                                       start=(known.count, known.head))
        if outcome is None:
            _, _, a_d, a_c, tail = self._snapshot(0)
            outcome, _ = walk_from(polled(tail, cancel), None)
        assert outcome is not None
        outcome = check_head_marker(outcome, self._head_marker())
        whole = outcome.ok and outcome.count == a_c
        WALKS.put(key, WalkedPrefix(a_c, outcome.head, a_d) if whole else None)
        return outcome

    @contextlib.contextmanager
    def _write(self) -> Iterator[_PgTx]:
        """One append's transaction. The chain is walked (`walked_before_append`: the rows
        this process walked before are compared by digest, the rest checked) after the head
        row is locked and before anything is written, as the SQLite store does: a record
        edited, deleted or reordered on the shared server refuses the append, naming it
        (session 30; until then only `decisions verify` walked a team store)."""
        import psycopg

        self._usable_connection()
        tx = _PgTx(self._conn)
        committing = False
        try:
            with self._conn.transaction():
                self._conn.execute("SET LOCAL synchronous_commit = on")
                tx.head()  # the head row locked: no other append until this one ends
                walked = self.walked_before_append()
                if not walked.ok:
                    raise self.damaged_error(walked, f"the team store {self.display}")
                yield tx
                committing = True  # leaving the block commits
        except psycopg.Error as exc:
            # The COMMIT was sent but its answer was lost: find out whether it landed before
            # saying anything, so that a saved decision is never called refused.
            if committing and tx.inserted and self._landed(tx.inserted[-1]):
                return
            self.close()
            raise self._error("could not save to the team store", exc) from None

    def _usable_connection(self) -> None:
        """A connection that answers, before an append starts: one that the server dropped
        meanwhile (a restart while the submission was being verified) is replaced once.
        Nothing has been sent for the append yet, so trying again is safe."""
        import psycopg

        for attempt in (1, 2):
            try:
                if self._conn is None or self._conn.closed:
                    self._connect()
                if self._ready:
                    self._conn.execute("SELECT 1")
                else:
                    self._ensure_schema()
                return
            except (psycopg.OperationalError, LedgerError) as exc:
                self.close()
                self._ready = False
                if attempt == 2:
                    if isinstance(exc, LedgerError):
                        raise
                    raise self._error("could not save to the team store", exc) from None

    def _landed(self, hash_: str, wait_s: float = 10.0) -> bool:
        """After a lost COMMIT answer: is the record with `hash_` in the store? Raises when
        the store cannot tell us (the message says the outcome is unknown)."""
        import psycopg

        self.close()
        deadline = time.monotonic() + wait_s
        last: BaseException | None = None
        while time.monotonic() < deadline:
            try:
                self._connect()
                rows = self._conn.execute(
                    "SELECT 1 FROM moderator_decisions WHERE hash = %s", (hash_,)).fetchall()
                return bool(rows)
            except (LedgerError, psycopg.Error) as exc:
                last = exc
                self.close()
                time.sleep(0.5)
        raise OutcomeUnknown(
            f"the team store {self.display} went away while saving; it is NOT known whether "
            "the record was saved. Check with `moderator-app decisions list` before retrying"
            + (f" ({self._scrub(str(last)).splitlines()[0]})" if last else "")) from None


class _PgTx:
    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.inserted: list[str] = []

    def head(self) -> tuple[int, str]:
        row = self.conn.execute(
            "SELECT seq, hash FROM moderator_ledger_head WHERE id = 1 FOR UPDATE").fetchone()
        if row is None:
            raise LedgerError("the team store has no head row (moderator_ledger_head); it "
                              "was altered outside moderator-app")
        return int(row[0]), row[1]

    def raw_for(self, evidence_digest: str) -> list[bytes]:
        return [bytes(r[0]) for r in self.conn.execute(
            "SELECT record_json FROM moderator_decisions WHERE evidence_digest = %s "
            "ORDER BY seq", (evidence_digest,))]

    def insert(self, cols: dict[str, Any], raw: bytes) -> None:
        self.conn.execute(
            "INSERT INTO moderator_decisions (seq, decided_at, decision, reason, note, "
            "reviewer, submission, evidence_digest, record_json, prev_hash, hash) "
            "VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)",
            (cols["seq"], cols["decided_at"], cols["decision"], cols["reason"], cols["note"],
             cols["reviewer"], cols["submission"], cols["evidence_digest"], raw,
             cols["prev_hash"], cols["hash"]))
        self.inserted.append(cols["hash"])

    def set_head(self, seq: int, hash_: str) -> None:
        self.conn.execute("UPDATE moderator_ledger_head SET seq = %s, hash = %s WHERE id = 1",
                          (seq, hash_))
