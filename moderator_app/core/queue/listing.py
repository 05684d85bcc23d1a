"""The review queue: every submission of a folder with its verdict and its decision state.

    items = build_queue("incoming/", store=None, progress=print)

Cached submissions are listed from the cache alone; the others are digested and, when their
evidence is new, verified in worker processes (one per core; a verifier crash in one
submission becomes that submission's `unreadable` verdict, a hang past the time limit its
`timed_out` verdict, never the queue's failure). The
decision state comes from the ledger, by evidence digest: `accepted` / `rejected` (the latest
decision), `claimed` (by whom, until when), or `pending`.
"""

from __future__ import annotations

import bisect
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timezone
from typing import Any

from moderator_app.core.ledger.claims import claim_state
from moderator_app.core.ledger.config import open_store
from moderator_app.core.queue import (  # noqa: F401 - re-exported
    QUEUE_SCHEMA,
    STATES,
    SUBMISSION_TIME_LIMIT_S,
    UNKNOWN_STATE,
    UNVERIFIED,
    VERDICTS,
)
from moderator_app.core.queue.cache import ReportCache, default_cache_path
from moderator_app.core.queue.examine import CacheWrite
from moderator_app.core.queue.scan import Candidate, scan_queue
from moderator_app.core.queue.workers import WorkOrder, run_workers

#: The parent writes its workers' cache rows at least this often (rows, seconds): one
#: transaction a batch, and a listing stopped midway loses at most this much.
CACHE_BATCH, CACHE_BATCH_S = 256, 0.5

ProgressCb = Callable[[int, int, str], None]


@dataclass(frozen=True, slots=True)
class QueueItem:
    name: str
    path: str
    submitted_at: str  # UTC ISO 8601
    # pass | fail | unreadable (exactly what `verify` gives) | timed_out | unverified (not
    # examined yet: listed before its examination ended, or `queue --no-verify`)
    verdict: str
    errors: int | None  # None while unverified
    warnings: int | None
    first_error_rule: str | None
    kind: str | None
    game: str | None
    category: str | None
    model: str | None
    evidence_digest: str | None
    state: str  # pending | claimed | accepted | rejected | unknown (while unverified)
    claimed_by: str | None = None
    claimed_until: str | None = None
    decided_by: str | None = None
    decision_seq: int | None = None
    duplicate_of: str | None = None  # an older submission of the queue with the same bytes
    error: str | None = None  # why it is unreadable

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def examine_all(cands: Sequence[Candidate], cache_path: str | None, workers: int | None = None,
                progress: ProgressCb | None = None,
                time_limit_s: float = SUBMISSION_TIME_LIMIT_S, *,
                verify: bool = True,
                on_cached: Callable[[dict[str, dict[str, Any]]], None] | None = None,
                on_summary: Callable[[Candidate, dict[str, Any]], None] | None = None,
                cancel: Callable[[], bool] | None = None,
                order: WorkOrder | None = None,
                ) -> tuple[dict[str, dict[str, Any]], int]:
    """(fingerprint -> summary, how many were verified). Cached ones first (one query; handed
    to `on_cached` before any worker starts), then, with `verify`, the rest in worker
    processes (digested; verified only when the evidence is new), each within
    `time_limit_s` (core/queue/workers.py: past it, `timed_out`), in the order of `order`
    (oldest first unless it is told otherwise), each handed to `on_summary` as it ends.
    What the workers found is written to the cache in batches (one transaction each), and
    what was found before a cancel or an error is kept."""
    # Resolved here, once: the workers must use the very cache this process reads (a
    # forkserver started earlier may hold an older environment).
    cache_path = cache_path if cache_path is not None else str(default_cache_path())
    with ReportCache(cache_path) as cache:
        out = cache.lookup_many([c.fingerprint for c in cands])
        if on_cached:
            on_cached(out)
        todo = [c for c in cands if c.fingerprint not in out]
        total, done = len(cands), len(out)
        if progress:
            progress(done, total, "")
        verified = 0
        if not todo or not verify:
            return out, verified
        writes: list[CacheWrite] = []
        flushed = [time.monotonic()]

        def finished(c: Candidate, summary: dict[str, Any], did_verify: bool,
                     rows: list[CacheWrite]) -> None:
            nonlocal done, verified
            out[c.fingerprint] = summary
            verified += did_verify
            done += 1
            writes.extend(rows)
            if len(writes) >= CACHE_BATCH or time.monotonic() - flushed[0] >= CACHE_BATCH_S:
                cache.remember_many(writes)
                writes.clear()
                flushed[0] = time.monotonic()
            if on_summary:
                on_summary(c, summary)
            if progress:
                progress(done, total, c.name)

        if order is None:
            order = WorkOrder()
        order.fill(todo)
        workers = max(1, min(workers or os.cpu_count() or 1, len(todo)))
        try:
            run_workers(order, cache_path, workers, time_limit_s, finished, cancel)
        finally:
            cache.remember_many(writes)
    return out, verified


def unverified_item(c: Candidate) -> QueueItem:
    """A submission listed before it is examined: verdict `unverified`, state `unknown`
    (its evidence digest, which the ledger is searched by, is not known yet)."""
    return QueueItem(name=c.name, path=str(c.path), submitted_at=_iso(c.submitted_at),
                     verdict=UNVERIFIED, errors=None, warnings=None, first_error_rule=None,
                     kind=None, game=None, category=None, model=None, evidence_digest=None,
                     state=UNKNOWN_STATE)


class _Rows:
    """The queue's items as they are known, kept consistent as summaries arrive in any
    order: `duplicate_of` always names the oldest examined submission with the same bytes."""

    def __init__(self, cands: Sequence[Candidate], states: dict[str, dict[str, Any]]) -> None:
        self.cands = cands
        self.states = states
        self.items = [unverified_item(c) for c in cands]
        self.index = {c.fingerprint: i for i, c in enumerate(cands)}
        self.groups: dict[str, list[int]] = {}  # digest -> positions, oldest first

    def set(self, c: Candidate, s: dict[str, Any]) -> list[tuple[int, QueueItem]]:
        """Give `c` its summary; every (position, item) that changed, `c`'s last."""
        i = self.index[c.fingerprint]
        d = s.get("evidence_digest")
        changed: list[tuple[int, QueueItem]] = []
        dup = None
        if d:
            group = self.groups.setdefault(d, [])
            bisect.insort(group, i)
            if group[0] != i:
                dup = self.cands[group[0]].name
            else:
                for j in group[1:]:  # an older copy came last: the others name it now
                    if self.items[j].duplicate_of != c.name:
                        self.items[j] = replace(self.items[j], duplicate_of=c.name)
                        changed.append((j, self.items[j]))
        st = self.states.get(d, {"state": "pending"}) if d else {"state": "pending"}
        self.items[i] = QueueItem(
            name=c.name, path=str(c.path), submitted_at=_iso(c.submitted_at),
            verdict=s["verdict"], errors=s["errors"], warnings=s["warnings"],
            first_error_rule=s.get("first_error_rule"), kind=s.get("kind"),
            game=s.get("game"), category=s.get("category"), model=s.get("model"),
            evidence_digest=d, duplicate_of=dup, error=s.get("error"), **st)
        changed.append((i, self.items[i]))
        return changed


def _iso(ts: float) -> str:
    t = datetime.fromtimestamp(ts, timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def ledger_states(store_spec: str | None, digests: set[str] | None = None,
                  now: datetime | None = None) -> dict[str, dict[str, Any]]:
    """digest -> state fields, from one read of the ledger (every digest it holds when
    `digests` is None: a streamed listing learns its digests after this read)."""
    now = now or datetime.now(timezone.utc)
    by_digest: dict[str, list] = {}
    with open_store(store_spec, create=False) as store:
        for e in store.entries():
            d = e.record.evidence_digest
            if digests is None or d in digests:
                by_digest.setdefault(d, []).append(e)
    out: dict[str, dict[str, Any]] = {}
    for d, entries in by_digest.items():
        claim = claim_state([e.record for e in entries], now)
        decisions = [e for e in entries if e.is_decision]
        fields: dict[str, Any] = {"state": "pending"}
        if decisions:
            last = decisions[-1]
            fields = {"state": "accepted" if last.record.decision == "accept" else "rejected",
                      "decided_by": last.record.reviewer, "decision_seq": last.seq}
        if claim.holder:
            fields.update(state="claimed", claimed_by=claim.holder, claimed_until=claim.until)
        out[d] = fields
    return out


OnItems = Callable[[list[tuple[int, QueueItem]]], None]


def stream_queue(folder: str | os.PathLike, store: str | None = None,
                 cache_path: str | os.PathLike | None = None,
                 progress: ProgressCb | None = None, workers: int | None = None,
                 time_limit_s: float = SUBMISSION_TIME_LIMIT_S, *, verify: bool = True,
                 on_rows: Callable[[list[QueueItem]], None] | None = None,
                 on_items: OnItems | None = None,
                 cancel: Callable[[], bool] | None = None,
                 order: WorkOrder | None = None) -> list[QueueItem]:
    """Every submission of `folder`, oldest first, with verdict and decision state, told as
    it becomes known: `on_rows(items)` once, before any submission is examined (cached
    ones complete, the others `unverified`), then `on_items([(position, item), ...])` as
    each examination ends (an item whose `duplicate_of` changed with it is included).
    Without `verify`, nothing is examined (no submission byte is read). Returns the final
    items. Raises OSError when the folder cannot be read, LedgerError when the store cannot,
    Cancelled when `cancel()` says so."""
    cands = scan_queue(folder)
    states = ledger_states(store)
    rows = _Rows(cands, states)
    cache_str = str(cache_path) if cache_path is not None else None

    def cached(summaries: dict[str, dict[str, Any]]) -> None:
        for c in cands:  # oldest first: duplicates name the oldest cached copy
            s = summaries.get(c.fingerprint)
            if s is not None:
                rows.set(c, s)
        if on_rows:
            on_rows(list(rows.items))

    def examined(c: Candidate, summary: dict[str, Any]) -> None:
        changed = rows.set(c, summary)
        if on_items:
            on_items(changed)

    examine_all(cands, cache_str, workers, progress, time_limit_s, verify=verify,
                on_cached=cached, on_summary=examined, cancel=cancel, order=order)
    return rows.items


def build_queue(folder: str | os.PathLike, store: str | None = None,
                cache_path: str | os.PathLike | None = None,
                progress: ProgressCb | None = None, workers: int | None = None,
                time_limit_s: float = SUBMISSION_TIME_LIMIT_S) -> list[QueueItem]:
    """Every submission of `folder`, oldest first, with verdict and decision state, once all
    are examined (`stream_queue` without its callbacks).
    Raises OSError when the folder cannot be read, LedgerError when the store cannot."""
    return stream_queue(folder, store, cache_path, progress, workers, time_limit_s)


def filter_items(items: Sequence[QueueItem], state: str | None = None,
                 verdict: str | None = None, game: str | None = None,
                 category: str | None = None, kind: str | None = None) -> list[QueueItem]:
    return [i for i in items
            if (state is None or i.state == state) and (verdict is None or i.verdict == verdict)
            and (game is None or i.game == game) and (category is None or i.category == category)
            and (kind is None or i.kind == kind)]


def next_pending(items: Sequence[QueueItem], after: str | None = None) -> QueueItem | None:
    """The oldest pending submission (after `after`'s position when given, wrapping); not
    one that could not be read or timed out (it needs opening by hand, see the guide)."""
    pending = [i for i in items
               if i.state == "pending" and i.verdict not in ("unreadable", "timed_out",
                                                             UNVERIFIED)]
    if not pending:
        return None
    if after is not None:
        names = [i.name for i in items]
        if after in names:
            pos = names.index(after)
            later = [i for i in pending if names.index(i.name) > pos]
            if later:
                return later[0]
    return pending[0]
