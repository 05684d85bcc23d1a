"""The moderator's decision as a record bound to the exact evidence that was judged.

A decision is the product's output. It must say *what* was judged (every file's name, size and
SHA-256, the chain head of an official run, the report summary at the time) and *how* (sync
offset, retime marks, walkthrough items ticked), so that anyone can later check that the
bytes in front of them are the bytes that were accepted or rejected. The record is a frozen
dataclass whose `to_dict()` is what the ledger canonicalises (RFC 8785) and hash-chains.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from moderator_app import __version__
from moderator_app.core.formats.canonical import canonical_json
from moderator_app.core.kinds import Kind
from moderator_app.core.rules import Severity

RECORD_SCHEMA = "moderator-app/decision/v1"

ACCEPT = "accept"
REJECT = "reject"
DECISIONS = (ACCEPT, REJECT)

REASON_OK = "ok"
REASON_VIDEO = "video-coverage"
REASON_LOG = "log-invalid"
REASON_CHAIN = "chain-broken"
REASON_HUMAN = "human-input"
REASON_LEAK = "withheld-leak"
REASON_OTHER = "other"

#: Reason codes allowed with each decision, in the order a menu shows them.
ACCEPT_REASONS: tuple[str, ...] = (REASON_OK,)
REJECT_REASONS: tuple[str, ...] = (REASON_VIDEO, REASON_LOG, REASON_CHAIN, REASON_HUMAN,
                                   REASON_LEAK, REASON_OTHER)

REASON_LABELS: dict[str, str] = {
    REASON_OK: "OK: the run is what it claims",
    REASON_VIDEO: "Video does not cover the run",
    REASON_LOG: "Log / trajectory invalid",
    REASON_CHAIN: "Hash chain broken",
    REASON_HUMAN: "Human input (action not from a model)",
    REASON_LEAK: "Withheld content or secret leaked",
    REASON_OTHER: "Other (explain in the note)",
}

#: The official-run walkthrough (docs/DESIGN.md: trusted reviewer). Ids are stored in records:
#: never rename one, add a new one instead.
CHECKLIST_ITEMS: tuple[tuple[str, str], ...] = (
    ("chain-verified", "Hash chain verified end to end"),
    ("score-reviewed", "Evaluator score reviewed against the agent's claims"),
    ("seeds-checked", "Seed commitments checked with the evaluator secret"),
    ("video-watched", "Video watched across the whole run span"),
    ("no-leaks", "No leaked seeds or secrets"),
)
CHECKLIST_IDS: tuple[str, ...] = tuple(i for i, _ in CHECKLIST_ITEMS)

MAX_NOTE_CHARS = 10_000  # a note is a human explanation, not a place for a log dump


class DecisionError(ValueError):
    """The decision cannot be recorded as asked (bad reason, missing override note...)."""


@dataclass(frozen=True, slots=True)
class FileEvidence:
    """One judged file: its name inside the submission, role, size and SHA-256."""

    name: str
    role: str
    size: int
    sha256: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "role": self.role, "size": self.size, "sha256": self.sha256}


@dataclass(frozen=True, slots=True)
class SummarySnapshot:
    """The report summary as it was when the decision was made (the report may change as
    the verifiers improve; the record keeps what the moderator saw)."""

    verdict: str
    errors: int
    warnings: int
    infos: int
    rules: tuple[tuple[str, int], ...] = ()  # (rule id, count), sorted by rule id
    first_error_rule: str | None = None
    first_error_line: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "errors": self.errors,
            "warnings": self.warnings,
            "infos": self.infos,
            "rules": dict(self.rules),
            "first_error_rule": self.first_error_rule,
            "first_error_line": self.first_error_line,
        }


@dataclass(frozen=True, slots=True)
class DecisionRecord:
    """What is written to the ledger. `to_dict()` is the hashed content (without the chain
    fields `seq`, `prev_hash` and `hash`, which the ledger adds)."""

    decision: str
    reason: str
    note: str
    reviewer: str
    decided_at: str  # UTC, ISO 8601 with milliseconds and `Z`
    app_version: str
    kind: str
    submission: str  # display name of what was opened (folder, archive or first file)
    files: tuple[FileEvidence, ...]
    evidence_digest: str
    chain_head: str | None
    summary: SummarySnapshot
    sync_offset_s: float
    retime_start_s: float | None = None
    retime_end_s: float | None = None
    checklist: tuple[str, ...] = ()
    override_note: str | None = None
    claim_override: str | None = None  # why this was decided over someone else's claim
    schema: str = field(default=RECORD_SCHEMA)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": self.schema,
            "decision": self.decision,
            "reason": self.reason,
            "note": self.note,
            "reviewer": self.reviewer,
            "decided_at": self.decided_at,
            "app_version": self.app_version,
            "kind": self.kind,
            "submission": self.submission,
            "files": [f.to_dict() for f in self.files],
            "evidence_digest": self.evidence_digest,
            "chain_head": self.chain_head,
            "summary": self.summary.to_dict(),
            "sync_offset_s": self.sync_offset_s,
            "retime_start_s": self.retime_start_s,
            "retime_end_s": self.retime_end_s,
            "checklist": list(self.checklist),
            "override_note": self.override_note,
            # Only when set: records without it keep the exact v1 shape they always had.
            **({"claim_override": self.claim_override} if self.claim_override else {}),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> DecisionRecord:
        """Rebuild a record read from the ledger (chain fields are ignored)."""
        s = d["summary"]
        return cls(
            decision=d["decision"], reason=d["reason"], note=d["note"], reviewer=d["reviewer"],
            decided_at=d["decided_at"], app_version=d["app_version"], kind=d["kind"],
            submission=d["submission"],
            files=tuple(FileEvidence(f["name"], f["role"], f["size"], f["sha256"])
                        for f in d["files"]),
            evidence_digest=d["evidence_digest"], chain_head=d.get("chain_head"),
            summary=SummarySnapshot(s["verdict"], s["errors"], s["warnings"], s["infos"],
                                    tuple(sorted(s.get("rules", {}).items())),
                                    s.get("first_error_rule"), s.get("first_error_line")),
            sync_offset_s=d["sync_offset_s"], retime_start_s=d.get("retime_start_s"),
            retime_end_s=d.get("retime_end_s"), checklist=tuple(d.get("checklist", ())),
            override_note=d.get("override_note"), claim_override=d.get("claim_override"),
            schema=d.get("schema", RECORD_SCHEMA))


def utc_now() -> str:
    """Now, UTC, millisecond precision: the form used in every record."""
    now = datetime.now(timezone.utc)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def evidence_digest(files: Iterable[Any]) -> str:
    """SHA-256 over the files' SHA-256 and sizes, independent of names and order.

    Names are left out on purpose: the same bytes submitted as a folder, as separate files or
    renamed are the same evidence, and a reopened submission must find its earlier decisions.
    """
    pairs = sorted([f.sha256, int(f.size)] for f in files)
    return hashlib.sha256(canonical_json({"files": pairs})).hexdigest()


def _finite(x: float | None, what: str) -> float | None:
    if x is None:
        return None
    x = float(x)
    if not math.isfinite(x):
        raise DecisionError(f"{what} must be a finite number, not {x!r}")
    return x


def error_rules(report: Any) -> list[str]:
    """Rule ids that produced at least one error, in reading order of their first finding."""
    seen: dict[str, None] = {}
    for f in report.findings.sorted():
        if f.severity is Severity.ERROR:
            seen.setdefault(f.rule, None)
    return list(seen)


# The reject reason of each rule family (the rule id's prefix, `core/catalogue.py`); the rules
# named in _REASON_OF_RULE and any `…leak…` rule point elsewhere. A family not named here
# (`audio`, `sync`: signals for the moderator's eyes, not grounds alone) is `other`.
_REASON_OF_GROUP = {
    "chain": REASON_CHAIN, "coverage": REASON_VIDEO, "video": REASON_VIDEO,
    "secret": REASON_LEAK, "log": REASON_LOG, "traj": REASON_LOG, "input": REASON_LOG,
    "archive": REASON_LOG, "seed": REASON_LOG,
}
_REASON_OF_RULE = {
    "log.action_not_requested": REASON_HUMAN, "log.action_unknown_call": REASON_HUMAN,
    "traj.hash_format": REASON_CHAIN, "input.no_video": REASON_VIDEO,
}


def reason_for_rule(rule_id: str) -> str:
    """The reject reason a rule id points to: its own, a leak, or its family's."""
    r = rule_id.lower()
    got = _REASON_OF_RULE.get(r)
    if got is not None:
        return got
    if "leak" in r:
        return REASON_LEAK
    return _REASON_OF_GROUP.get(r.split(".", 1)[0], REASON_OTHER)


_PRIORITY = (REASON_LEAK, REASON_HUMAN, REASON_CHAIN, REASON_VIDEO, REASON_LOG, REASON_OTHER)


def default_reason(report: Any | None) -> str:
    """A sensible default from the findings: `ok` when nothing is wrong, otherwise the most
    serious reject reason among the error rules (a leak or human input outweighs a malformed
    line, which outweighs nothing). The moderator can always change it."""
    if report is None:
        return REASON_OTHER
    rules = error_rules(report)
    if not rules:
        return REASON_OK if getattr(report, "complete", True) else REASON_LOG
    found = {reason_for_rule(r) for r in rules}
    return next(r for r in _PRIORITY if r in found)


def suggested_reason(report: Any | None, decision: str) -> str:
    """The reason to preselect for `decision`: `ok` for accept; for reject the default from
    the findings, or `other` when the findings give no reason to reject."""
    if decision == ACCEPT:
        return REASON_OK
    reason = default_reason(report)
    return REASON_OTHER if reason == REASON_OK else reason


def check_decision(decision: str, reason: str) -> None:
    if decision not in DECISIONS:
        raise DecisionError(f"decision must be accept or reject, not {decision!r}")
    allowed = ACCEPT_REASONS if decision == ACCEPT else REJECT_REASONS
    if reason not in allowed:
        raise DecisionError(
            f"reason {reason!r} is not valid for {decision}; use one of: " + ", ".join(allowed))


def missing_checklist(kind: str, ticked: Sequence[str]) -> list[str]:
    """Walkthrough items not ticked (official runs only; community runs have no checklist)."""
    if not Kind.named(kind).has_checklist:
        return []
    return [i for i in CHECKLIST_IDS if i not in set(ticked)]


def build_record(result: Any, decision: str, reason: str | None = None, note: str = "",
                 reviewer: str = "", offset_s: float | None = None,
                 retime_start_s: float | None = None, retime_end_s: float | None = None,
                 checklist: Sequence[str] = (), override_note: str | None = None,
                 require_checklist: bool = False, decided_at: str | None = None,
                 claim_override: str | None = None) -> DecisionRecord:
    """The record for a decision on a verified submission (`core.verify.VerifyResult`).

    `reason` defaults to `ok` for accept and to `default_reason` for reject. With
    `require_checklist` (the GUI walkthrough), accepting an official run with items unticked
    needs an `override_note`; the CLI records the ticked items without enforcing it.
    """
    report = result.report
    reason = reason or suggested_reason(report, decision)
    check_decision(decision, reason)
    reviewer = (reviewer or "").strip()
    if not reviewer:
        raise DecisionError("a reviewer name is required")
    note = note or ""
    if len(note) > MAX_NOTE_CHARS:
        raise DecisionError(f"the note is longer than {MAX_NOTE_CHARS} characters")
    if decision == REJECT and reason == REASON_OTHER and not note.strip():
        # `other` names no cause: the submitter can only learn why from the note.
        raise DecisionError("a reject with reason 'other' needs a note saying why "
                            "(--note TEXT): the submitter must be able to read it")
    unknown = [c for c in checklist if c not in CHECKLIST_IDS]
    if unknown:
        raise DecisionError("unknown checklist item(s): " + ", ".join(unknown)
                            + "; known: " + ", ".join(CHECKLIST_IDS))
    ticked = tuple(i for i in CHECKLIST_IDS if i in set(checklist))
    override = (override_note or "").strip() or None
    if (require_checklist and decision == ACCEPT and missing_checklist(report.kind, ticked)
            and override is None):
        raise DecisionError("accepting with walkthrough items unticked needs an override note: "
                            + ", ".join(missing_checklist(report.kind, ticked)))
    changed_files = getattr(result.submission, "changed_files", None)  # None: no listing
    changed = changed_files() if changed_files is not None else []
    if changed:
        # the moderator judged what was verified (and watched what the player showed): a file
        # replaced since then would bind the decision to bytes nobody looked at
        from moderator_app.core.text import printable_name

        raise DecisionError(
            f"{printable_name(changed[0].rsplit('/', 1)[-1])} changed since the submission was "
            "verified (replaced, rewritten or removed): verify it again before deciding")
    files = tuple(FileEvidence(f.name, f.role, int(f.size), f.sha256) for f in report.files)
    s = report.summary()
    summary = SummarySnapshot(
        verdict=s["verdict"], errors=int(s["errors"]), warnings=int(s["warnings"]),
        infos=int(s.get("infos", 0)),
        rules=tuple(sorted((str(k), int(v)) for k, v in s.get("findings_by_rule", {}).items())),
        first_error_rule=s.get("first_error_rule"), first_error_line=s.get("first_error_line"))
    chain_head = None
    if report.kind.has_chain and report.chain is not None:
        head = report.chain.head
        chain_head = str(head) if head else None
    offset = report.offset if offset_s is None else offset_s
    return DecisionRecord(
        decision=decision, reason=reason, note=note, reviewer=reviewer,
        decided_at=decided_at or utc_now(), app_version=__version__, kind=report.kind,
        submission=result.submission.display_name if result.submission else report.input_name,
        files=files, evidence_digest=evidence_digest(files), chain_head=chain_head,
        summary=summary, sync_offset_s=_finite(offset, "the sync offset") or 0.0,
        retime_start_s=_finite(retime_start_s, "the retime start"),
        retime_end_s=_finite(retime_end_s, "the retime end"),
        checklist=ticked, override_note=override,
        claim_override=(claim_override or "").strip() or None)
