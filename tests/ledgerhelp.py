"""Helpers shared by the ledger and decision tests: a verified result without running a
verifier (the ledger needs only the report)."""

from __future__ import annotations

from types import SimpleNamespace

from moderator_app.core.verify.report import FileDigest, Report
from moderator_app.core.verify.sections import ChainSection

SHA_LOG = "1" * 64
SHA_VIDEO = "2" * 64


def fake_result(kind: str = "community", files=None, name: str = "sub") -> SimpleNamespace:
    """A verified result without running a verifier: the ledger only needs the report."""
    r = Report(kind=kind, input_name=name)
    r.files = files if files is not None else [
        FileDigest("agent-log.jsonl", "agent_log", 1234, SHA_LOG),
        FileDigest("run.mp4", "video", 98765, SHA_VIDEO)]
    if kind == "official":
        r.chain = ChainSection(events=3, complete=True, valid=True, head="c" * 64,
                               first_break=None, breaks=0, unreadable_lines=0)
    return SimpleNamespace(report=r, submission=SimpleNamespace(display_name=name))
