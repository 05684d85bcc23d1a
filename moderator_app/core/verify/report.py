"""The verification report: one object for the CLI's human output, `--json`, the GUI and the
decision record. `Report.to_dict()` is the `moderator-app/report/v1` contract of docs/DESIGN.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from moderator_app import __version__
from moderator_app.core.errors import TooManyErrors
from moderator_app.core.findings import FindingLog
from moderator_app.core.kinds import Kind
from moderator_app.core.rules import Finding
from moderator_app.core.verify.coverage import Coverage

if TYPE_CHECKING:  # types only: a run's report may hold none of them (sections.py)
    from moderator_app.core.verify.sections import ChainSection, OfficialRun, Section
    from moderator_app.core.verify.sections_community import CommunityRun
    from moderator_app.core.verify.sections_video import (
        ScanNotRun,
        VideoScanSection,
        VideoSection,
    )

REPORT_SCHEMA = "moderator-app/report/v1"


@dataclass(frozen=True, slots=True)
class FileDigest:
    """A file of the submission as judged: its name inside the submission, size and SHA-256."""

    name: str
    role: str
    size: int
    sha256: str

    def to_dict(self) -> dict:
        return {"name": self.name, "role": self.role, "size": self.size, "sha256": self.sha256}


@dataclass
class Report:
    """Mutable while a verifier fills it; treated as read-only once `verify_submission` returns.

    Every section is typed: `run`, `chain`, `video` and `video_scan` are in `sections.py`,
    `coverage` is `coverage.Coverage`, and `sync` is `core.sync.run.SyncSection`, held as a
    `Section` because sync sits above verify. A new section is one field
    here and one line in `to_dict` (docs/architecture.md, "A report section").
    """

    kind: Kind  # written as its name, "community" or "official"
    input_name: str
    findings: FindingLog = field(default_factory=FindingLog)
    events: int = 0
    files: list[FileDigest] = field(default_factory=list)
    video: VideoSection | None = None  # None: no video, or it was not probed
    coverage: Coverage | None = None  # None: no run span or no readable video
    chain: ChainSection | None = None  # official runs
    sync: Section | None = None  # core.sync.run.SyncSection (verify --sync), None when not run
    # after verify --scan; ScanNotRun when there is a video but no scan ran; None: no video
    video_scan: VideoScanSection | ScanNotRun | None = None
    run: OfficialRun | CommunityRun | None = None  # None: the evidence could not be read
    offset: float = 0.0
    complete: bool = True  # False when reading stopped early (truncated stream, cancel)

    error_budget: int | None = None  # raise TooManyErrors past this many errors (pipeline)

    def __post_init__(self) -> None:
        self.kind = Kind.named(self.kind)  # a name read back from JSON becomes the Kind

    def add(self, finding: Finding) -> None:
        self.findings.add(finding)
        if self.error_budget is not None and self.findings.errors > self.error_budget:
            self.error_budget = None  # raised once: the pipeline words the finding
            raise TooManyErrors(finding.line)

    @property
    def passed(self) -> bool:
        return self.findings.errors == 0 and self.complete

    @property
    def verdict(self) -> str:
        return "pass" if self.passed else "fail"

    @property
    def verification_level(self) -> str:
        """`validated` only when chain/log are valid; `officially_verified` is never ours."""
        return "validated" if self.passed else "self_reported"

    def digest_for(self, name: str) -> FileDigest | None:
        return next((f for f in self.files if f.name == name), None)

    def summary(self) -> dict[str, Any]:
        first = self.findings.first_error()
        return {
            "verdict": self.verdict,
            "verification_level": self.verification_level,
            "errors": self.findings.errors,
            "warnings": self.findings.warnings,
            "infos": self.findings.infos,
            "first_error_line": first.line if first else None,
            "first_error_rule": first.rule if first else None,
            "findings_by_rule": dict(sorted(self.findings.by_rule.items())),
            "findings_not_listed": self.findings.dropped,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": REPORT_SCHEMA,
            "app_version": __version__,
            "kind": self.kind,
            "input": self.input_name,
            "verdict": self.verdict,
            "verification_level": self.verification_level,
            "events": self.events,
            "complete": self.complete,
            "findings": [f.on_run_clock(self.offset).to_dict() for f in self.findings.sorted()],
            "files": [f.to_dict() for f in self.files],
            "run": {} if self.run is None else self.run.to_dict(),
            "video": None if self.video is None else self.video.to_dict(),
            "coverage": None if self.coverage is None else self.coverage.to_dict(),
            "chain": None if self.chain is None else self.chain.to_dict(),
            "sync": None if self.sync is None else self.sync.to_dict(),
            "video_scan": None if self.video_scan is None else self.video_scan.to_dict(),
            "sync_offset_s": self.offset,
            "summary": self.summary(),
        }
