"""The report's sections of a video: what the probe measured (`video`) and what the integrity
scan found (`video_scan`), or why it did not run. Apart from `sections.py` so that an official
run without a video (and the `verify` of its trajectory alone) never creates these classes
(issue 15: each frozen dataclass costs ~0.5 ms of every start). `sections.py` still names
them, for readers that import them from there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from moderator_app.core.video.probe import VideoProbe
    from moderator_app.core.video.scan import ScanResult


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
