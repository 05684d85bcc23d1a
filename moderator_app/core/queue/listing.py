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

import os
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from typing import Any

from moderator_app.core.ledger.claims import claim_state
from moderator_app.core.ledger.config import open_store
from moderator_app.core.queue import (  # noqa: F401 - re-exported
    QUEUE_SCHEMA,
    STATES,
    SUBMISSION_TIME_LIMIT_S,
    VERDICTS,
)
from moderator_app.core.queue.cache import ReportCache, default_cache_path
from moderator_app.core.queue.scan import Candidate, scan_queue
from moderator_app.core.queue.workers import run_workers

ProgressCb = Callable[[int, int, str], None]


@dataclass(frozen=True, slots=True)
class QueueItem:
    name: str
    path: str
    submitted_at: str  # UTC ISO 8601
    verdict: str  # pass | fail | unreadable (exactly what `verify` gives) | timed_out
    errors: int
    warnings: int
    first_error_rule: str | None
    kind: str | None
    game: str | None
    category: str | None
    model: str | None
    evidence_digest: str | None
    state: str  # pending | claimed | accepted | rejected
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
                time_limit_s: float = SUBMISSION_TIME_LIMIT_S
                ) -> tuple[dict[str, dict[str, Any]], int]:
    """(fingerprint -> summary, how many were verified). Cached ones first (one query),
    then the rest in worker processes (digested; verified only when the evidence is new),
    each within `time_limit_s` (core/queue/workers.py: past it, `timed_out`)."""
    # Resolved here, once: the workers must use the very cache this process reads (a
    # forkserver started earlier may hold an older environment).
    cache_path = cache_path if cache_path is not None else str(default_cache_path())
    with ReportCache(cache_path) as cache:
        out = cache.lookup_many([c.fingerprint for c in cands])
    todo = [c for c in cands if c.fingerprint not in out]
    total, done = len(cands), len(out)
    if progress:
        progress(done, total, "")
    verified = 0
    if not todo:
        return out, verified

    def finished(c: Candidate, summary: dict[str, Any], did_verify: bool) -> None:
        nonlocal done, verified
        out[c.fingerprint] = summary
        verified += did_verify
        done += 1
        if progress:
            progress(done, total, c.name)

    workers = max(1, min(workers or os.cpu_count() or 1, len(todo)))
    run_workers(todo, cache_path, workers, time_limit_s, finished)
    return out, verified


def _iso(ts: float) -> str:
    t = datetime.fromtimestamp(ts, timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def ledger_states(store_spec: str | None, digests: set[str], now: datetime | None = None
                  ) -> dict[str, dict[str, Any]]:
    """digest -> state fields, from one read of the ledger."""
    now = now or datetime.now(timezone.utc)
    by_digest: dict[str, list] = {}
    with open_store(store_spec, create=False) as store:
        for e in store.entries():
            d = e.record.evidence_digest
            if d in digests:
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


def build_queue(folder: str | os.PathLike, store: str | None = None,
                cache_path: str | None = None, progress: ProgressCb | None = None,
                workers: int | None = None,
                time_limit_s: float = SUBMISSION_TIME_LIMIT_S) -> list[QueueItem]:
    """Every submission of `folder`, oldest first, with verdict and decision state.
    Raises OSError when the folder cannot be read, LedgerError when the store cannot."""
    cands = scan_queue(folder)
    cache_str = str(cache_path) if cache_path is not None else None
    summaries, _ = examine_all(cands, cache_str, workers, progress, time_limit_s)
    digests = {s["evidence_digest"] for s in summaries.values() if s.get("evidence_digest")}
    states = ledger_states(store, digests)
    first_of: dict[str, str] = {}
    items = []
    for c in cands:
        s = summaries[c.fingerprint]
        d = s.get("evidence_digest")
        dup = first_of.get(d) if d else None
        if d and dup is None:
            first_of[d] = c.name
        st = states.get(d, {"state": "pending"}) if d else {"state": "pending"}
        items.append(QueueItem(
            name=c.name, path=str(c.path), submitted_at=_iso(c.submitted_at),
            verdict=s["verdict"], errors=s["errors"], warnings=s["warnings"],
            first_error_rule=s.get("first_error_rule"), kind=s.get("kind"),
            game=s.get("game"), category=s.get("category"), model=s.get("model"),
            evidence_digest=d, duplicate_of=dup, error=s.get("error"), **st))
    return items


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
               if i.state == "pending" and i.verdict not in ("unreadable", "timed_out")]
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
