"""Typed sections of the report: the run, its chain, its video and the video's integrity scan.

Each section is a frozen dataclass whose `to_dict()` is its part of the `moderator-app/report/v1`
JSON, member for member and in the same order as before the sections were typed (readers of
the JSON depend on neither, but the reports stay byte-identical). Code reads the attributes;
nothing guesses keys. `Report` (report.py) holds any object with a `to_dict()` as a section
(`Section`), so a section owned by a room above verify (`sync`: `core.sync.run.SyncSection`)
needs no import here: see docs/architecture.md, "A report section". Sections of rooms below
(`video`, `video_scan`) are built here from their producers' results (`VideoSection.of(probe)`,
`VideoScanSection.of(scan)`), so a producer never shapes report JSON.

The sections an official run's report may lack are in their own modules, imported when first
used: the video's (`sections_video.py`) and a community run's (`sections_community.py`). An
official `verify` of a trajectory alone never builds them, and each frozen dataclass costs
~0.5 ms of every start to create (issue 15: the start-up is ~0.3x of a small file's floor).
Their names are still importable from here (`__getattr__` below).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from moderator_app.core.verify.sections_community import CommunityRun, RunStart
    from moderator_app.core.verify.sections_video import (
        ScanNotRun,
        ScanSpan,
        VideoScanSection,
        VideoSection,
    )

__all__ = ["ChainBreak", "ChainSection", "CommunityRun", "OfficialRun", "ProducerSummary",
           "RunStart", "ScanNotRun", "ScanSpan", "ScoreSection", "Section", "VideoScanSection",
           "VideoSection"]


class Section(Protocol):
    """A report section: it writes itself as the JSON object of its key."""

    def to_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class ChainBreak:
    """Where the chain first breaks: the line, and how (`edited`, `link`, `unreadable`)."""

    line: int
    kind: str

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "kind": self.kind}


@dataclass(frozen=True)
class ChainSection:
    """The hash chain of an official run, judged end to end."""

    events: int
    complete: bool  # the stream was read to its end
    valid: bool  # complete, at least one event, no break
    head: str | None  # the last event's recorded hash
    first_break: ChainBreak | None
    breaks: int
    unreadable_lines: int

    def to_dict(self) -> dict[str, Any]:
        return {"events": self.events, "complete": self.complete, "valid": self.valid,
                "head": self.head,
                "first_break": None if self.first_break is None else self.first_break.to_dict(),
                "breaks": self.breaks, "unreadable_lines": self.unreadable_lines}


@dataclass(frozen=True)
class ProducerSummary:
    events: int
    trust_level: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"events": self.events, "trust_level": self.trust_level}


@dataclass(frozen=True)
class ScoreSection:
    """The evaluator's score, apart from every score an untrusted producer claimed."""

    authoritative: dict | None  # the trusted eval_result's payload
    authoritative_line: int | None
    untrusted_claims: tuple[dict, ...]  # the first claims (line, producer, trust, type, score)
    untrusted_claims_total: int

    def to_dict(self) -> dict[str, Any]:
        return {"authoritative": self.authoritative,
                "authoritative_line": self.authoritative_line,
                "untrusted_claims": list(self.untrusted_claims),
                "untrusted_claims_total": self.untrusted_claims_total}


@dataclass(frozen=True)
class OfficialRun:
    """The run an official trajectory records."""

    run_id: str | None
    producers: dict[str, ProducerSummary]  # by name, sorted
    started_at: str | None
    ended_at: str | None
    duration_s: float | None
    span_from: str  # "run_start/run_end" or "first/last wall_time"
    score: ScoreSection
    seeds: dict[str, Any]  # `SeedCheck.summary()`: commitments seen, whether checked
    secrets_suspected: int

    def to_dict(self) -> dict[str, Any]:
        return {"run_id": self.run_id,
                "producers": {name: p.to_dict() for name, p in self.producers.items()},
                "started_at": self.started_at, "ended_at": self.ended_at,
                "duration_s": self.duration_s, "span_from": self.span_from,
                "score": self.score.to_dict(), "seeds": self.seeds,
                "secrets_suspected": self.secrets_suspected}


_ELSEWHERE = {"RunStart": "sections_community", "CommunityRun": "sections_community",
              "VideoSection": "sections_video", "ScanNotRun": "sections_video",
              "ScanSpan": "sections_video", "VideoScanSection": "sections_video"}


def __getattr__(name: str) -> Any:
    """The sections kept in their own modules (see the module's docstring), on first use."""
    module = _ELSEWHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"moderator_app.core.verify.{module}"), name)
