"""Claims: "I am reviewing this submission until T", recorded in the ledger's chain.

A claim names the evidence digest (the same bytes however they are packaged), who holds it
and until when. Claims are records like decisions: sealed into the same hash chain, so who
claimed what, and who overrode whose claim, is as tamper-evident as the verdicts. A claim
ends when its holder releases it, when a decision on the same evidence is recorded, or when
its time runs out (expiry is computed, not written: nobody has to be online to expire it).

Whether a new record may be written is decided by `guard`, which each store calls INSIDE its
serialised append transaction, so two moderators racing for the same run cannot both win.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

from moderator_app.core.ledger.errors import ClaimConflict  # noqa: F401 - re-exported

CLAIM_SCHEMA = "moderator-app/claim/v1"
CLAIM, RELEASE = "claim", "release"
DEFAULT_CLAIM_MINUTES = 30
MAX_CLAIM_MINUTES = 24 * 60  # a claim is a working session, not a reservation for the week



def parse_time(text: str) -> datetime:
    """A record time (`YYYY-MM-DDTHH:MM:SS.mmmZ`) as an aware UTC datetime."""
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)


def format_time(t: datetime) -> str:
    t = t.astimezone(timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


@dataclass(frozen=True, slots=True)
class ClaimRecord:
    """A claim or a release, as written to the ledger (chain fields added by the store)."""

    action: str  # "claim" | "release"
    reviewer: str
    at: str  # UTC, the record time format
    expires_at: str | None  # claims only
    evidence_digest: str
    submission: str
    app_version: str
    note: str = ""
    override_note: str | None = None  # taking over or releasing someone else's claim
    schema: str = field(default=CLAIM_SCHEMA)

    def to_dict(self) -> dict[str, Any]:
        return {"schema": self.schema, "action": self.action, "reviewer": self.reviewer,
                "at": self.at, "expires_at": self.expires_at,
                "evidence_digest": self.evidence_digest, "submission": self.submission,
                "app_version": self.app_version, "note": self.note,
                "override_note": self.override_note}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ClaimRecord:
        return cls(action=d["action"], reviewer=d["reviewer"], at=d["at"],
                   expires_at=d.get("expires_at"), evidence_digest=d["evidence_digest"],
                   submission=d["submission"], app_version=d["app_version"],
                   note=d.get("note", ""), override_note=d.get("override_note"),
                   schema=d.get("schema", CLAIM_SCHEMA))

    # The columns beside the sealed JSON (the decisions table is shared with decisions).
    @property
    def decision(self) -> str:
        return self.action

    @property
    def decided_at(self) -> str:
        return self.at


@dataclass(frozen=True, slots=True)
class ClaimState:
    """Who holds a submission now: `holder` and `until`, or nobody (`holder is None`)."""

    holder: str | None = None
    until: str | None = None
    since: str | None = None

    def describe(self) -> str:
        return f"claimed by {self.holder} until {self.until}" if self.holder else "not claimed"


def claim_state(entries: list[Any], now: datetime) -> ClaimState:
    """The claim in force over `entries` (records on ONE evidence digest, in chain order).

    A decision ends any claim; a release by the holder (or an override) ends it; a claim
    whose `expires_at` is past has expired."""
    state = ClaimState()
    for rec in entries:
        if isinstance(rec, ClaimRecord):
            if rec.action == CLAIM:
                state = ClaimState(rec.reviewer, rec.expires_at, rec.at)
            elif rec.action == RELEASE:
                state = ClaimState()
        else:  # a decision: the review is over
            state = ClaimState()
    if state.holder and state.until and parse_time(state.until) <= now:
        return ClaimState()
    return state


def guard(record: Any, entries: list[Any], now: datetime) -> None:
    """Refuse `record` when it would act over someone else's claim without an override note.
    Called by the stores inside the append transaction (with the chain's head locked)."""
    state = claim_state(entries, now)
    if isinstance(record, ClaimRecord):
        override = record.override_note
        if record.action == RELEASE and state.holder != record.reviewer and not override:
            raise ClaimConflict(
                f"{record.reviewer} holds no claim on this submission ({state.describe()})")
        if record.action == CLAIM and state.holder not in (None, record.reviewer) \
                and not override:
            raise ClaimConflict(
                f"{state.describe()}; taking it over needs an override note")
        return
    override = getattr(record, "claim_override", None)
    if state.holder not in (None, record.reviewer) and not override:
        raise ClaimConflict(
            f"{state.describe()}; deciding it needs an explicit override with a note "
            "(--override-claim NOTE)")


def new_claim(action: str, reviewer: str, evidence_digest: str, submission: str,
              minutes: float = DEFAULT_CLAIM_MINUTES, note: str = "",
              override_note: str | None = None, now: datetime | None = None) -> ClaimRecord:
    from moderator_app import __version__

    reviewer = (reviewer or "").strip()
    if not reviewer:
        raise ValueError("a reviewer name is required")
    if action not in (CLAIM, RELEASE):
        raise ValueError(f"unknown claim action {action!r}")
    if not 0 < minutes <= MAX_CLAIM_MINUTES:
        raise ValueError(f"a claim lasts more than 0 and at most {MAX_CLAIM_MINUTES} minutes")
    now = now or datetime.now(timezone.utc)
    expires = format_time(now + timedelta(minutes=minutes)) if action == CLAIM else None
    return ClaimRecord(action, reviewer, format_time(now), expires, evidence_digest,
                       submission, __version__, note, (override_note or "").strip() or None)
