"""Hostile inputs and conditions of session 15 (issue 15; docs/qa/session15-hostile.md).

Every test asserts the exact outcome (finding, file, message). Durations are never asserted.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest
from conftest import SAMPLES

from moderator_app.core.ledger.records import DecisionError, build_record
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths

COMMUNITY = SAMPLES / "community-sample"


def _folder(tmp_path: Path) -> Path:
    d = tmp_path / "sub"
    shutil.copytree(COMMUNITY, d)
    return d


def _swap(path: Path, data: bytes, keep_times: bool = False) -> None:
    """Replace `path` by a new file (a rename, as an editor or a sync tool does)."""
    st = path.stat()
    tmp = path.with_name(path.name + ".new")
    tmp.write_bytes(data)
    if keep_times:  # `touch -r`: the modification time is forgeable, the inode is not
        os.utime(tmp, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(tmp, path)


def _rules(report) -> list[tuple[str, str | None]]:
    return [(f.rule, f.file) for f in report.findings if f.rule == "input.changed"]


def test_video_swapped_between_probe_and_digest_is_found(tmp_path, monkeypatch):
    """The video is probed by path, then digested in another read: swapped in between, the
    report judged one file and bound the digest of another (main: PASS, no finding)."""
    import moderator_app.core.video.probe as probe_mod

    d = _folder(tmp_path)
    video = d / "video.mp4"
    honest = video.read_bytes()
    other = honest[:-4096] + bytes(4096)  # same size, other bytes
    real = probe_mod.probe_video

    def probe_then_swap(*args, **kwargs):
        probe = real(*args, **kwargs)
        _swap(video, other, keep_times=True)
        return probe

    monkeypatch.setattr(probe_mod, "probe_video", probe_then_swap)
    report = verify_paths([d], VerifyOptions(offset=0.0)).report
    assert _rules(report) == [("input.changed", "video.mp4")]
    assert report.verdict == "fail"
    digest = report.digest_for("video.mp4")
    assert digest is not None and digest.sha256 == hashlib.sha256(other).hexdigest()


def test_log_rewritten_in_place_while_read_is_found(tmp_path):
    """The log rewritten in place (same inode) while its first lines are read."""
    d = _folder(tmp_path)
    log = d / "agent-log.jsonl"
    data = log.read_bytes()
    done = []

    def progress(_done: int, _total: int) -> None:
        if not done:
            done.append(1)
            with open(log, "r+b") as fh:  # same size and inode; mtime and ctime move
                fh.seek(len(data) - 2)
                fh.write(b" \n")

    report = verify_paths([d], VerifyOptions(offset=0.0), progress=progress).report
    assert done, "the progress callback was never called"
    assert _rules(report) == [("input.changed", "agent-log.jsonl")]
    assert report.verdict == "fail"


def test_decision_refused_when_the_video_changed_since_verification(tmp_path):
    """The workstation verifies, the moderator watches and decides minutes later: a video
    swapped in between (same size, same modification time) must not be bound silently to
    the digest of the verified one (main: recorded)."""
    d = _folder(tmp_path)
    result = verify_paths([d], VerifyOptions(offset=0.0))
    assert result.report.verdict == "pass"
    video = d / "video.mp4"
    data = video.read_bytes()
    _swap(video, data[:-1] + bytes([data[-1] ^ 1]), keep_times=True)
    with pytest.raises(DecisionError, match=r"video\.mp4 changed since the submission was "
                                            r"verified .*verify it again before deciding"):
        build_record(result, "accept", reviewer="alice")


def test_decision_refused_when_the_archive_changed_since_verification(tmp_path):
    """An archive is stamped as a whole: rewritten after verification, no decision."""
    import zipfile

    z = tmp_path / "run.zip"
    with zipfile.ZipFile(z, "w") as zf:
        for p in sorted(COMMUNITY.iterdir()):
            zf.write(p, p.name)
    result = verify_paths([z], VerifyOptions(offset=0.0))
    assert result.report.verdict == "pass"
    assert build_record(result, "accept", reviewer="alice").decision == "accept"
    with open(z, "ab") as fh:
        fh.write(b"\0")
    with pytest.raises(DecisionError, match=r"run\.zip changed since"):
        build_record(result, "accept", reviewer="alice")


def test_unchanged_submission_records(tmp_path):
    d = _folder(tmp_path)
    result = verify_paths([d], VerifyOptions(offset=0.0))
    assert _rules(result.report) == []
    record = build_record(result, "accept", reviewer="alice")
    assert [f.name for f in record.files] == ["agent-log.jsonl", "video.mp4"]
