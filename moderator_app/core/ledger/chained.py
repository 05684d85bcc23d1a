"""The ledger's chain logic, the same for every store (SQLite, PostgreSQL).

Each entry (a decision, or a claim) is stored as its RFC 8785 canonical JSON, sealed with the
trajectory chain rule (`hash = SHA256(prev_hash || canonical_json(record_without_hash))`, the
first `prev_hash` is 64 zeros) and a `seq` that counts from 1. A store only has to provide a
serialised transaction (read the head, insert a row, move the head) and ordered reads; sealing,
claim checks, verification, listing and export live here once, so both stores hold the same
records with the same hashes and `decisions verify` means the same on both.
"""

from __future__ import annotations

import builtins
import contextlib
import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Protocol

from moderator_app.core.atomic import open_regular
from moderator_app.core.formats.canonical import canonical_json, canonical_json_fast
from moderator_app.core.formats.chain import ZERO_HASH, event_hash, seal
from moderator_app.core.ledger.claims import (
    CLAIM_SCHEMA,
    ClaimRecord,
    ClaimState,
    claim_state,
    guard,
)
from moderator_app.core.ledger.errors import LedgerError  # noqa: F401 - re-exported
from moderator_app.core.ledger.export import export_row, records_to_csv
from moderator_app.core.ledger.records import DecisionRecord
from moderator_app.core.ledger.walk_memo import WALKS, WalkedPrefix, feed_row
from moderator_app.core.progress import CancelToken
from moderator_app.core.text import terminal_safe_json, unescape_terminal_safe

#: Columns that mirror a member of the hashed JSON; `verify` compares each one.
MIRRORED = ("seq", "decided_at", "decision", "reason", "note", "reviewer", "submission",
            "evidence_digest", "prev_hash", "hash")



Entry = DecisionRecord | ClaimRecord


@dataclass(frozen=True, slots=True)
class StoredDecision:
    """An entry as stored: its place in the chain and the record (a decision or a claim)."""

    seq: int
    prev_hash: str
    hash: str
    record: Any  # DecisionRecord | ClaimRecord
    raw: bytes  # the stored canonical JSON (with seq, prev_hash, hash)

    @property
    def is_decision(self) -> bool:
        return isinstance(self.record, DecisionRecord)


@dataclass(frozen=True, slots=True)
class VerifyOutcome:
    """`ok`, how many records were checked, the head hash, and the first problem if any."""

    ok: bool
    count: int
    head: str
    bad_seq: int | None = None
    reason: str | None = None
    notes: tuple[str, ...] = ()  # what verify could not check (printed, not a failure)

    def describe(self, what: str = "ledger") -> str:
        if self.ok:
            return f"{what} intact: {self.count} decisions, head {self.head}"
        if self.bad_seq is None:  # no record is at fault (a head file that cannot be read)
            return f"{what} NOT intact: {self.reason}"
        return f"{what} NOT intact: first bad record seq {self.bad_seq}: {self.reason}"


def row_columns(d: dict[str, Any]) -> dict[str, Any]:
    """The query columns of a sealed entry (claims fill the decision columns with their
    action and time, so one table and one chain hold both)."""
    if d.get("schema") == CLAIM_SCHEMA:
        return {"seq": d.get("seq"), "decided_at": d.get("at"), "decision": d.get("action"),
                "reason": "", "note": d.get("note"), "reviewer": d.get("reviewer"),
                "submission": d.get("submission"), "evidence_digest": d.get("evidence_digest"),
                "prev_hash": d.get("prev_hash"), "hash": d.get("hash")}
    return {k: d.get(k) for k in MIRRORED}


def parse_entry(d: dict[str, Any]) -> Entry:
    if d.get("schema") == CLAIM_SCHEMA:
        return ClaimRecord.from_dict(d)
    return DecisionRecord.from_dict(d)


def record_dict(seq: int | str, raw: bytes) -> dict[str, Any]:
    """A stored record's JSON object; LedgerError (never a bare JSON error) when the row was
    damaged or edited: `decide` and the CSV export ended in an internal error on a
    `record_json` overwritten with zeros (issue 15)."""
    try:
        d = json.loads(raw)
    except (ValueError, TypeError) as exc:
        raise LedgerError(f"record seq {seq} cannot be read: {exc}; run "
                          "`moderator-app decisions verify`") from exc
    if not isinstance(d, dict):
        raise LedgerError(f"record seq {seq} is not a JSON object; run "
                          "`moderator-app decisions verify`")
    return d


# What reading a sealed record of the wrong shape raises: the chain has no key, so a record
# whose `summary.rules` is a list or whose `files` are numbers can carry a valid hash (issue
# 15: `decisions list` and the CSV export ended in internal errors on such a ledger, which
# `decisions verify` called intact).
UNREADABLE_ENTRY = (ValueError, KeyError, TypeError, AttributeError, IndexError)


def entry_from_raw(seq: int | str, raw: bytes) -> tuple[dict[str, Any], Entry]:
    """A stored record and its parsed entry; LedgerError when either cannot be read."""
    d = record_dict(seq, raw)
    try:
        return d, parse_entry(d)
    except UNREADABLE_ENTRY as exc:
        raise LedgerError(f"record seq {seq} cannot be read: {exc}; run "
                          "`moderator-app decisions verify`") from exc


def stored_from_raw(seq: int, raw: bytes) -> StoredDecision:
    d, rec = entry_from_raw(seq, raw)
    try:
        return StoredDecision(seq, d["prev_hash"], d["hash"], rec, bytes(raw))
    except KeyError as exc:
        raise LedgerError(f"record seq {seq} cannot be read: {exc}; run "
                          "`moderator-app decisions verify`") from exc


def check_row(cols: dict[str, Any], raw: Any, prev: str, expected_seq: int) -> str | None:
    """Why this row is bad, or None. Order matters: the most telling reason first."""
    seq = cols["seq"]
    if seq != expected_seq:
        return (f"sequence gap: expected seq {expected_seq}, found {seq} "
                "(a decision was deleted or inserted)")
    if not isinstance(raw, bytes | str | memoryview):
        return "record_json is not text"
    raw_b = raw.encode("utf-8") if isinstance(raw, str) else bytes(raw)
    try:
        d = json.loads(raw_b)
    except ValueError as exc:
        return f"record_json is not valid JSON: {exc}"
    if not isinstance(d, dict):
        return "record_json is not a JSON object"
    try:
        # the orjson engine: the same bytes as `canonical_json` (tests/verify/
        # test_trajectory_canonical.py, and every stored record shape in
        # tests/ledger/test_ledger_walk.py), ~5x less CPU; the walk runs before a store's
        # first append, on the panel's UI thread (2.6 s at 10,000 decisions with the reference)
        canon = _canonical(d)
    except ValueError as exc:
        return f"record_json cannot be canonicalised: {exc}"
    if canon != raw_b:
        return "record_json is not in canonical form (it was rewritten after sealing)"
    if d.get("prev_hash") != prev:
        return (f"prev_hash {str(d.get('prev_hash'))[:16]}… does not match the previous "
                f"record's hash {prev[:16]}… (a decision was deleted, inserted or reordered)")
    body = {k: v for k, v in d.items() if k != "hash"}
    # with the same engine as above (the body is `d` less one member, so it canonicalises
    # whenever `d` did)
    if event_hash(prev, body, _canonical) != d.get("hash"):
        return "hash mismatch: the record's content was edited after it was sealed"
    sealed = row_columns(d)
    for name in MIRRORED:
        if cols[name] != sealed[name]:
            return (f"column {name!r} differs from the sealed record "
                    "(the column was edited directly in the database)")
    return _unreadable(d)


def _canonical(value: Any) -> bytes:
    """`canonical_json_fast`, or the reference where it refuses: orjson stops at 255 levels
    of nesting, which the reference serialises (a forged record with a deep member would
    have become "cannot be canonicalised"), and a value neither can write gets the
    reference's own reason, as before session 29."""
    try:
        return canonical_json_fast(value)
    except ValueError:
        return canonical_json(value)


def _unreadable(d: dict[str, Any]) -> str | None:
    """Why a sealed record is no record this app can read (its members of the wrong type),
    or None: such a record verified as intact while `decisions list` could not show it."""
    try:
        parse_entry(d)
        if d.get("schema") != CLAIM_SCHEMA:
            export_row(d)
    except UNREADABLE_ENTRY as exc:
        return (f"the record is sealed but is no decision this app wrote ({type(exc).__name__}: "
                f"{str(exc)[:200]}): it was written or edited by something else")
    return None


def walk(rows: Iterable[tuple[dict[str, Any], Any]]) -> VerifyOutcome:
    """Check rows (columns, record_json) in seq order; the first bad one is reported."""
    prev, expected, count = ZERO_HASH, 1, 0
    for cols, raw in rows:
        bad = check_row(cols, raw, prev, expected)
        if bad:
            return VerifyOutcome(False, count, prev, cols.get("seq"), bad)
        prev = cols["hash"]
        expected += 1
        count += 1
    return VerifyOutcome(True, count, prev)


def polled(rows: Iterable[Any], cancel: CancelToken | None,
           every: int = 256) -> Iterable[Any]:
    """`rows`, with `cancel` checked before the first and then every `every` rows (a walk of
    10,000 decisions superseded in the panel ran to its end: session 30's review)."""
    if cancel is None:
        return rows
    return _polling(rows, cancel, every)


def _polling(rows: Iterable[Any], cancel: CancelToken, every: int) -> Iterator[Any]:
    for i, row in enumerate(rows):
        if not i % every:
            cancel.check()
        yield row


def walk_from(rows: Iterable[tuple[dict[str, Any], Any]], known: WalkedPrefix | None,
              start: tuple[int, str] | None = None) -> tuple[VerifyOutcome | None, bytes]:
    """`walk`, given a prefix walked before: its rows are only hashed and compared with the
    digest remembered, and the records after it are checked as `walk` checks them (from its
    head, at its seq). None when the rows no longer start with that prefix (a record in it
    edited, deleted, reordered; the file replaced): the caller walks everything again.
    Returns the outcome and the digest of every row read (for the next check). `start`
    (count, head): `rows` begin after a prefix the store itself found unchanged (the team
    store compares its digest on the server)."""
    h = hashlib.sha256()
    skip = known.count if known is not None else 0
    prev, expected, count = ZERO_HASH, 1, 0
    if start is not None:
        count, prev = start
        expected = count + 1
    for cols, raw in rows:
        if count < skip:
            feed_row(h, cols, raw)
            count += 1
            if count == skip:
                assert known is not None
                if h.digest() != known.digest:
                    return None, b""
                prev, expected = known.head, skip + 1
            continue
        bad = check_row(cols, raw, prev, expected)
        if bad:
            return VerifyOutcome(False, count, prev, cols.get("seq"), bad), b""
        feed_row(h, cols, raw)
        prev = cols["hash"]
        expected += 1
        count += 1
    if count < skip:  # records gone at the end
        return None, b""
    return VerifyOutcome(True, count, prev), h.digest()


def check_head_marker(outcome: VerifyOutcome, marker: str | None,
                      where: str = "the ledger head marker") -> VerifyOutcome:
    """Compare a walked chain with a head marker `"SEQ HASH"` written with the last append:
    decisions deleted at the end, which no link can show, make them disagree."""
    if not outcome.ok:
        return outcome
    last, head = outcome.count, outcome.head
    if marker is None:
        if last:
            return VerifyOutcome(False, last, head, last, f"{where} is missing")
        return outcome
    if marker == f"{last} {head}":
        return outcome
    parts = marker.split(" ", 1)
    try:
        recorded_seq = int(parts[0])
    except ValueError:
        recorded_seq = last
    return VerifyOutcome(
        False, last, head, last + 1 if recorded_seq > last else last,
        f"{where} says seq {parts[0]} hash {parts[-1][:16]}… but the chain ends at seq {last} "
        f"hash {head[:16]}… (decisions were deleted at the end, or the marker was edited)")


def verify_jsonl(path: str | Path) -> VerifyOutcome:
    """Check a JSON Lines export on its own (no database): canonical lines, `seq` from 1,
    each `prev_hash` the hash before, each `hash` recomputed. An export that verifies can
    be trusted as far as its last `hash`; compare that with a head you noted earlier."""
    prev = ZERO_HASH
    count = 0
    with open_regular(path) as fh:  # not a FIFO or /dev/zero: no hang, no endless line
        for n, line in enumerate(fh, 1):
            raw = line[:-1] if line.endswith(b"\n") else line
            # the export writes DEL, C1 and bidi characters as escapes (`export`): the
            # canonical bytes it was made from are checked
            raw = unescape_terminal_safe(raw)
            try:
                d = json.loads(raw)
            except ValueError as exc:
                return VerifyOutcome(False, count, prev, n, f"line {n} is not JSON: {exc}")
            cols = row_columns(d) if isinstance(d, dict) else {"seq": None}
            bad = check_row(cols, raw, prev, n)
            if bad:
                return VerifyOutcome(False, count, prev, n, f"line {n}: {bad}")
            prev = d["hash"]
            count += 1
    return VerifyOutcome(True, count, prev)


class WriteTx(Protocol):
    """What a store offers inside its serialised append transaction."""

    def head(self) -> tuple[int, str]: ...
    def raw_for(self, evidence_digest: str) -> list[bytes]: ...
    def insert(self, cols: dict[str, Any], raw: bytes) -> None: ...
    def set_head(self, seq: int, hash_: str) -> None: ...


def _same_file(a: str | Path, b: Path) -> bool:
    """Whether `a` is `b`: one file by inode (a hard link, a symbolic link to it), or one
    path once resolved (`b` need not exist: a -wal written over would be read as one)."""
    try:
        if os.path.samefile(a, b):
            return True
    except (OSError, ValueError):
        pass
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):
        return False


def damaged(what: str, problem: str) -> LedgerError:
    """"WHAT is damaged (PROBLEM); nothing was recorded ...": the one refusal of an append
    to a damaged store, SQLite or PostgreSQL."""
    problem = "; ".join(line for line in problem.splitlines()[:4] if line.strip())
    return LedgerError(
        f"{what} is damaged ({problem[:300]}); nothing was recorded, so that no decision is "
        "added to a store whose records may be lost: see `moderator-app decisions verify` "
        "and Recovery in docs/decisions-ledger.md (record the decision in another ledger "
        "with --store, or once this one is restored)")


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


class LedgerBase:
    """Sealing, claims, listing, verifying and exporting over a store's primitives.

    A store implements `_write()` (a context manager yielding a `WriteTx` whose exit commits,
    durably, or rolls back), `_raw_rows(digest)` (seq, record_json in seq order),
    `_verify_rows()` (columns and record_json in seq order), `_head_marker()`, `_integrity()`
    and `close()`. `display` is a name safe to print (no password)."""

    display: str = "ledger"

    # -- primitives (stores override) ------------------------------------------------------

    @contextlib.contextmanager
    def _write(self) -> Iterator[WriteTx]:  # pragma: no cover - abstract
        raise NotImplementedError
        yield

    def _raw_rows(self, evidence_digest: str | None = None) -> list[tuple[int, bytes]]:
        raise NotImplementedError  # pragma: no cover

    def _verify_rows(self) -> Iterator[tuple[dict[str, Any], Any]]:
        raise NotImplementedError  # pragma: no cover

    def _head_marker(self) -> str | None:
        raise NotImplementedError  # pragma: no cover

    def _integrity(self) -> str | None:
        """A problem the storage engine itself reports, or None."""
        return None

    def _extra_checks(self, outcome: VerifyOutcome) -> VerifyOutcome:
        return outcome

    def close(self) -> None:  # pragma: no cover - stores override
        pass

    def __enter__(self) -> LedgerBase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------

    def append(self, record: Entry, now: datetime | None = None) -> StoredDecision:
        """Seal and store `record`; returns only after the commit is durable. Raises
        `ClaimConflict` (nothing written) when it acts over someone else's claim."""
        body = record.to_dict()
        with self._write() as tx:
            seq, prev = tx.head()
            earlier = [entry_from_raw("(an earlier one on this evidence)", r)[1]
                       for r in tx.raw_for(record.evidence_digest)]
            guard(record, earlier, now or utc_now())
            sealed = seal({**body, "seq": seq + 1}, prev)
            raw = canonical_json(sealed)
            tx.insert(row_columns(sealed), raw)
            tx.set_head(seq + 1, sealed["hash"])
        return StoredDecision(seq + 1, prev, sealed["hash"], record, raw)

    def import_raw(self, raws: Iterable[bytes]) -> int:
        """Copy a verified chain into this EMPTY store, byte for byte (same seq, prev_hash,
        hash), in one transaction. Refuses a store that already holds records."""
        n, last = 0, ZERO_HASH
        with self._write() as tx:
            seq, _ = tx.head()
            if seq != 0:
                raise LedgerError(f"{self.display} already holds {seq} records; copy only "
                                  "into an empty store (the chain would fork)")
            for raw in raws:
                d = json.loads(raw)
                cols = row_columns(d)
                if cols["seq"] != n + 1 or d.get("prev_hash") != last:
                    raise LedgerError(f"record {n + 1} does not follow the chain; not copied")
                tx.insert(cols, bytes(raw))
                n, last = n + 1, d["hash"]
            if n:
                tx.set_head(n, last)
        return n

    # -- reading ---------------------------------------------------------------------------

    def entries(self, evidence_digest: str | None = None) -> list[StoredDecision]:
        """Every record (decisions and claims), in chain order."""
        return [stored_from_raw(s, r) for s, r in self._raw_rows(evidence_digest)]

    def list(self) -> list[StoredDecision]:
        """The decisions (claims left out), in chain order."""
        return [e for e in self.entries() if e.is_decision]

    def by_evidence(self, digest: str) -> builtins.list[StoredDecision]:
        """Earlier decisions on the same evidence (see `records.evidence_digest`)."""
        return [e for e in self.entries(digest) if e.is_decision]

    def claim_state(self, digest: str, now: datetime | None = None) -> ClaimState:
        return claim_state([e.record for e in self.entries(digest)], now or utc_now())

    def count(self) -> int:
        return len(self._raw_rows())

    def iter_raw(self) -> Iterator[tuple[int, bytes]]:
        yield from self._raw_rows()

    # -- verifying -------------------------------------------------------------------------

    def verify(self) -> VerifyOutcome:
        """Walk the whole chain; the first record that does not check out is reported."""
        problem = self._integrity()
        if problem:
            return VerifyOutcome(False, 0, ZERO_HASH, None, problem)
        return self._extra_checks(self._walked())

    def _walked(self) -> VerifyOutcome:
        """The chain walked and the head marker checked, as `verify` reads it."""
        return check_head_marker(walk(self._verify_rows()), self._head_marker())

    def _walk_key(self) -> str | None:
        """Which store this is, for `WALKS` (None: nothing remembered)."""
        return None

    def walked_before_append(self, cancel: CancelToken | None = None) -> VerifyOutcome:
        """What `verify` says of the chain, read as cheaply as this process can: the rows a
        walk in this process found intact (`WALKS`) are hashed and compared, byte for byte,
        and only the records added since are checked; a prefix that changed is walked again
        whole. Every append runs it (inside its write transaction), and the panel runs it
        off the window's thread when a store is shown (`decision_panel`), so a decision on
        a 10,000-decision ledger costs the new records, not the chain. `cancel` (the panel's
        walk ahead, superseded): Cancelled between rows, nothing remembered."""
        key = self._walk_key()
        known = WALKS.get(key) if key is not None else None
        outcome, digest = walk_from(polled(self._verify_rows(), cancel), known)
        if outcome is None:
            outcome, digest = walk_from(polled(self._verify_rows(), cancel), None)
        assert outcome is not None
        outcome = check_head_marker(outcome, self._head_marker())
        if key is not None:
            WALKS.put(key, WalkedPrefix(outcome.count, outcome.head, digest)
                      if outcome.ok else None)
        return outcome

    def damaged_error(self, outcome: VerifyOutcome, what: str) -> LedgerError:
        """The refusal of an append to a chain `verify` calls damaged; `what` names the
        store ("the decision ledger PATH", "the team store postgresql://...")."""
        at = f"at seq {outcome.bad_seq}: " if outcome.bad_seq is not None else ""
        return damaged(what, at + (outcome.reason or "not intact"))

    # -- exporting -------------------------------------------------------------------------

    def own_files(self) -> builtins.list[Path]:
        """The files this store keeps its records in (none for a server)."""
        return []

    def export(self, fmt: str, out: str | Path) -> int:
        """Write every record to `out` atomically (temp file + rename); returns the count.
        LedgerError when `out` is one of the store's own files: `decisions export --out
        decisions.sqlite3` (meant as `--store`) replaced the ledger with its CSV, every
        decision gone (session 15)."""
        from moderator_app.core.atomic import atomic_write

        for own in self.own_files():
            if _same_file(out, own):
                raise LedgerError(f"{out} is the ledger's own file ({own.name}): an export "
                                  "never replaces the ledger it reads; give another --out")
        data, n = self.export_bytes(fmt)
        atomic_write(Path(out), data)
        return n

    def export_bytes(self, fmt: str) -> tuple[bytes, int]:
        """Every record in `fmt` and the count (what `export` writes; `--out -` prints it).

        `jsonl`: the stored canonical JSON, one record per line, with `seq`, `prev_hash` and
        `hash`, so the export can be re-verified without the database (DEL, C1 and bidi
        characters written as escapes: `text.terminal_safe_json`). `csv`: one row per
        decision for spreadsheets (claims are in the JSONL), formula-like cells neutralised.
        """
        rows = list(self.iter_raw())
        if fmt == "jsonl":
            # DEL, C1 and bidi characters of a note as `\uXXXX` (the same JSON value): the
            # export may go to /dev/stdout, a terminal (`verify_jsonl` undoes it exactly)
            data = b"".join(terminal_safe_json(raw) + b"\n" for _, raw in rows)
            n = len(rows)
        elif fmt == "csv":
            docs = [(seq, record_dict(seq, raw)) for seq, raw in rows]
            decisions = [(seq, d) for seq, d in docs if d.get("schema") != CLAIM_SCHEMA]
            for seq, d in decisions:  # a record of the wrong shape is named, never a crash
                if (why := _unreadable(d)) is not None:
                    raise LedgerError(f"record seq {seq} cannot be exported: {why}; run "
                                      "`moderator-app decisions verify`")
            data = records_to_csv([d for _, d in decisions]).encode("utf-8")
            n = len(decisions)
        else:
            raise ValueError(f"unknown export format {fmt!r} (jsonl or csv)")
        return data, n
