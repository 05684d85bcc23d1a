"""Examine one submission of a queue (runs in a worker process): digest, then verify only
when no report for that evidence is cached.

The summary kept per submission is what the queue shows: the verdict exactly as `verify`
gives it (`pass`, `fail`, or `unreadable` when the input cannot be read at all), the error
and warning counts, the first error rule, the kind, the run's game, category and model (from
the evidence's first line), and the evidence digest a decision on it would record.
"""

from __future__ import annotations

import io
import json
from typing import Any

from moderator_app.core.errors import InputError
from moderator_app.core.formats.streams import CHUNK, HashingReader
from moderator_app.core.formats.submission import Submission, load_submission
from moderator_app.core.ledger.records import evidence_digest
from moderator_app.core.queue.cache import ReportCache
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_submission

META_BYTES = 64 * 1024  # the first line of the evidence, bounded


class _Digest:
    def __init__(self, sha256: str, size: int) -> None:
        self.sha256, self.size = sha256, size


def digest_submission(sub: Submission) -> str:
    """The evidence digest of every member's bytes (what `decide` would record), computed
    without verifying: SHA-256 of each member, then `records.evidence_digest`."""
    digests = []
    for m in sub.members:
        with m.open() as raw:
            reader = HashingReader(raw, m.size)
            while reader.read(CHUNK):
                pass
            digests.append(_Digest(reader.hexdigest(), reader.bytes_read))
    return evidence_digest(digests)


def run_meta(sub: Submission) -> dict[str, str | None]:
    """game, category and model from the evidence's first line (`run_start`), if present.
    Untrusted text: shown as plain text, never interpreted."""
    meta: dict[str, str | None] = {"game": None, "category": None, "model": None}
    try:
        member = sub.evidence
        with member.open() as raw:
            fh: Any = raw
            if member.name.lower().endswith(".zst"):
                import zstandard

                fh = zstandard.ZstdDecompressor().stream_reader(raw)
            head = fh.read(META_BYTES)
        first = json.loads(io.BytesIO(head).readline())
    except Exception:  # noqa: BLE001 - metadata is a convenience; the verdict says the rest
        return meta
    if not isinstance(first, dict):
        return meta
    for holder in (first.get("data"), first.get("payload"), first):
        if isinstance(holder, dict):
            for k in meta:
                v = holder.get(k)
                if meta[k] is None and isinstance(v, str):
                    meta[k] = v[:200]
    return meta


def summarise(result: Any, meta: dict[str, str | None]) -> dict[str, Any]:
    report = result.report
    s = report.summary()
    return {
        "verdict": report.verdict, "verification_level": s["verification_level"],
        "errors": s["errors"], "warnings": s["warnings"],
        "first_error_rule": s["first_error_rule"], "first_error_line": s["first_error_line"],
        "kind": report.kind, **meta,
        "evidence_digest": evidence_digest(report.files), "error": None,
    }


def unreadable(message: str) -> dict[str, Any]:
    return {"verdict": "unreadable", "verification_level": None, "errors": 0, "warnings": 0,
            "first_error_rule": None, "first_error_line": None, "kind": None, "game": None,
            "category": None, "model": None, "evidence_digest": None, "error": message}


#: (fingerprint, digest, summary or None): one row the parent writes to the report cache.
CacheWrite = tuple[str, str, "dict[str, Any] | None"]


def examine(path: str, fingerprint: str, cache: ReportCache,
            memo: dict[str, dict[str, Any]] | None = None
            ) -> tuple[dict[str, Any], bool, list[CacheWrite]]:
    """(summary, verified, cache writes): the summary for the submission at `path`, from the
    cache (or `memo`, this worker's own summaries by digest, which may not be written yet)
    when its fingerprint or evidence digest is known, else by verifying it. The cache is
    only read here: the caller writes the rows returned, many in one transaction."""
    memo = {} if memo is None else memo
    known = cache.digest_for(fingerprint)
    if known is not None:
        cached = memo.get(known) or cache.summary(known)
        if cached is not None:
            return cached, False, []
    try:
        sub = load_submission([path])
        digest = digest_submission(sub)
    except (InputError, OSError) as exc:
        summary = unreadable(str(exc))
        return summary, False, [(fingerprint, "unreadable:" + fingerprint, summary)]
    cached = memo.get(digest) or cache.summary(digest)
    if cached is not None:
        return cached, False, [(fingerprint, digest, None)]
    try:
        result = verify_submission(sub, VerifyOptions())
    except InputError as exc:
        summary = unreadable(str(exc))
        return summary, True, [(fingerprint, "unreadable:" + fingerprint, summary)]
    summary = summarise(result, run_meta(sub))
    memo[digest] = summary
    writes: list[CacheWrite] = [(fingerprint, digest, summary)]
    if summary["evidence_digest"] != digest:  # a member unreadable while verifying
        writes.append((fingerprint, summary["evidence_digest"], summary))
    return summary, True, writes
