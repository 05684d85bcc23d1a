"""Every file of a submission is digested exactly once, and correctly, archives included."""

from __future__ import annotations

import hashlib
import zipfile

from conftest import SAMPLES

import moderator_app.core.formats.archive as archive
from moderator_app.core.verify.pipeline import verify_paths


def test_archived_video_is_read_once_and_digested(tmp_path, monkeypatch):
    sample = SAMPLES / "community-sample"
    bundle = tmp_path / "run.zip"
    with zipfile.ZipFile(bundle, "w") as zf:
        for f in sorted(sample.iterdir()):
            zf.write(f, f.name)
    opens: dict[str, int] = {}
    real = archive.open_archive

    def counting(path):
        members, findings = real(path)
        wrapped = []
        for m in members:
            def opener(m=m):
                opens[m.name] = opens.get(m.name, 0) + 1
                return m.opener()
            wrapped.append(type(m)(m.name, m.size, m.role, opener, m.local_path))
        return wrapped, findings

    monkeypatch.setattr(archive, "open_archive", counting)  # submission imports it on use
    report = verify_paths([bundle]).report
    assert report.verdict == "pass"
    video = report.digest_for("video.mp4")
    assert video.sha256 == hashlib.sha256((sample / "video.mp4").read_bytes()).hexdigest()
    assert [f.name for f in report.files] == ["agent-log.jsonl", "video.mp4"]
    assert opens["video.mp4"] == 1
