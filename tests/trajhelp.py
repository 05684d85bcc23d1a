"""Helpers shared by the trajectory tests: build small valid chains, verify bytes in memory."""

from __future__ import annotations

import io

import orjson
import zstandard

from moderator_app.core.rules import Severity
from moderator_app.core.samples.trajectory_writer import chain_events, make_run_events
from moderator_app.core.verify.report import Report
from moderator_app.core.verify.trajectory import check_stream


def chain_lines(n: int = 16, seed: int = 0, variety: float = 0.5, **kw) -> list[bytes]:
    """The lines (no newline) of a valid chain of `n` events."""
    return [orjson.dumps(e) for e in chain_events(make_run_events(n, seed=seed,
                                                                  variety=variety, **kw))]


def join(lines: list[bytes]) -> bytes:
    return b"".join(line + b"\n" for line in lines)


def zstd(data: bytes, frames: int = 1) -> bytes:
    cctx = zstandard.ZstdCompressor(write_checksum=True)
    if frames <= 1:
        return cctx.compress(data)
    step = -(-len(data) // frames)
    return b"".join(cctx.compress(data[i:i + step]) for i in range(0, len(data), step))


def verify_bytes(data: bytes, name: str = "events.jsonl", **kw) -> Report:
    report = Report(kind="official", input_name=name)
    check_stream(lambda: io.BytesIO(data), name, len(data), report, **kw)
    return report


def errors(report: Report) -> list:
    return [f for f in report.findings.sorted() if f.severity is Severity.ERROR]


def first_error(report: Report):
    errs = errors(report)
    return errs[0] if errs else None


def rules_at(report: Report, line: int) -> set[str]:
    return {f.rule for f in report.findings.sorted() if f.line == line}
