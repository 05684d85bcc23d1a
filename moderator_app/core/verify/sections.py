"""Typed sections of the report: the run, its chain, its video and the video's integrity scan.

Each section is a frozen dataclass whose `to_dict()` is its part of the `moderator-app/report/v1`
JSON, member for member and in the same order as before the sections were typed (readers of
the JSON depend on neither, but the reports stay byte-identical). Code reads the attributes;
nothing guesses keys. `Report` (report.py) holds any object with a `to_dict()` as a section
(`Section`), so a section owned by a room above verify (`sync`: `core.sync.run.SyncSection`)
needs no import here: see docs/architecture.md, "A report section". Sections of rooms below
(`video`, `video_scan`) are built here from their producers' results (`VideoSection.of(probe)`,
`VideoScanSection.of(scan)`), so a producer never shapes report JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from moderator_app.core.video.probe import VideoProbe
    from moderator_app.core.video.scan import ScanResult


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


@dataclass(frozen=True)
class RunStart:
    """What a community log's run_start says (any JSON value, as found)."""

    game: Any
    category: Any
    model: Any
    scaffold: Any
    started_at: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "category": self.category, "model": self.model,
                "scaffold": self.scaffold, "started_at": self.started_at}


@dataclass(frozen=True)
class CommunityRun:
    """The run a community agent log records. `start` is None when the log has no usable
    run_start; `ended_first`: the log's run_end came before its run_start (the JSON then
    names `ended_at` first, as it always did)."""

    start: RunStart | None
    ended_at: str | None
    duration_s: float | None
    responses: int
    actions: int
    ended_first: bool = False

    def to_dict(self) -> dict[str, Any]:
        start = {} if self.start is None else self.start.to_dict()
        end = {"ended_at": self.ended_at}
        head = {**end, **start} if self.ended_first else {**start, **end}
        return {**head, "duration_s": self.duration_s, "responses": self.responses,
                "actions": self.actions}


@dataclass(frozen=True)
class VideoSection:
    """The video as the probe measured it (core/video/probe.py): the frame count and duration
    come from the frame index, the header's own claims beside them. `footage_gaps`: spans of
    video time without footage, no frame or a joined recording's frames that do not decode
    (they count as missing footage at any offset)."""

    ok: bool
    file: str
    fps: float | None
    frame_count: int | None
    width: int | None
    height: int | None
    duration_s: float | None
    codec: str | None
    method: str
    header_frame_count: int | None
    header_fps: float | None
    footage_gaps: tuple[tuple[float, float], ...]
    audio_streams: int

    @classmethod
    def of(cls, probe: VideoProbe) -> VideoSection:
        """The section of a probe (the probe also holds its findings and frame index, which
        the report keeps elsewhere or not at all)."""
        return cls(ok=probe.ok, file=probe.file, fps=probe.fps, frame_count=probe.frame_count,
                   width=probe.width, height=probe.height, duration_s=probe.duration_s,
                   codec=probe.codec, method=probe.method,
                   header_frame_count=probe.header_frame_count, header_fps=probe.header_fps,
                   footage_gaps=tuple((float(a), float(b)) for a, b in probe.gaps),
                   audio_streams=len(probe.audio))

    @property
    def measured_s(self) -> float | None:
        """The measured duration, or None when the video could not be read."""
        return self.duration_s if self.ok else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok, "file": self.file, "fps": self.fps, "frame_count": self.frame_count,
            "width": self.width, "height": self.height, "duration_s": self.duration_s,
            "codec": self.codec, "method": self.method,
            "header_frame_count": self.header_frame_count, "header_fps": self.header_fps,
            "footage_gaps": [[a, b] for a, b in self.footage_gaps],
            "audio_streams": self.audio_streams,
        }


@dataclass(frozen=True)
class ScanNotRun:
    """The `video_scan` section when there is a video but the integrity scan did not run."""

    reason: str
    ran: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"ran": False, "reason": self.reason}


@dataclass(frozen=True)
class ScanSpan:
    """One scan finding with its span of video time (end exclusive), as the JSON rounds it."""

    rule: str
    severity: str
    start_s: float
    end_s: float
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "severity": self.severity, "start_s": self.start_s,
                "end_s": self.end_s, "message": self.message}


@dataclass(frozen=True)
class VideoScanSection:
    """The `video_scan` section after `verify --scan` (core/video/scan.py): frames decoded,
    the decoded duration, the audio's span and the findings with their spans. `ran` is what
    tells a client the scan ran (`ScanNotRun` otherwise)."""

    version: int
    frames: int
    packets: int
    duration_s: float
    has_audio: bool
    audio_span_s: tuple[float | None, float | None] | None
    from_cache: bool
    findings: tuple[ScanSpan, ...]
    ran: bool = True
    complete: bool = True  # False: stopped at its CPU budget; `duration_s` is how far it got

    @classmethod
    def of(cls, scan: ScanResult) -> VideoScanSection:
        from moderator_app.core.video.scan import SCAN_VERSION

        sig = scan.signals
        return cls(
            version=SCAN_VERSION, frames=sig.frame_count, packets=scan.packets,
            duration_s=round(float(sig.times_s[-1]) + sig.frame_duration_s, 6)
            if sig.frame_count else 0.0,
            has_audio=scan.has_audio,
            audio_span_s=(scan.audio_start_s, scan.audio_end_s) if scan.has_audio else None,
            from_cache=scan.from_cache,
            findings=tuple(ScanSpan(s.rule, s.severity, round(s.start_s, 3), round(s.end_s, 3),
                                    s.message) for s in scan.spans),
            complete=scan.complete)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ran": True, "version": self.version, "frames": self.frames,
            "packets": self.packets, "duration_s": self.duration_s, "has_audio": self.has_audio,
            "audio_span_s": None if self.audio_span_s is None else list(self.audio_span_s),
            "from_cache": self.from_cache, "complete": self.complete,
            "findings": [s.to_dict() for s in self.findings],
        }
