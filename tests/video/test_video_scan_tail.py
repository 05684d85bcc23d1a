"""verify --scan decodes the video once (issue 12 point 5, QA session 15 H5): the probe leaves
the decode of the last frames to the scan that follows it in the same process, and the video's
digest (the scan cache's key) is taken once. The report is the one `verify` without --scan
gives: the same frame count, duration and `video.tail_undecodable`."""

from __future__ import annotations

import shutil
import struct
import subprocess

import pytest

from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths
from moderator_app.core.video import child_probe, decoder, scan
from moderator_app.core.video.scan_cache import file_sha256

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


def _ffmpeg(*args: str) -> None:
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args], check=True)


def _zero_tail(avi, first: int) -> bytes:
    """An MJPEG AVI's bytes with the JPEG data of frames `first`.. zeroed (the container
    intact: its index still lists every frame)."""
    b = bytearray(avi.read_bytes())
    pos, end, chunks = b.find(b"movi"), b.find(b"idx1"), []
    while (pos := b.find(b"00dc", pos)) >= 0 and pos < end:
        chunks.append(pos)
        pos += 8 + struct.unpack("<I", b[pos + 4:pos + 8])[0]
    for c in chunks[first:]:
        size = struct.unpack("<I", b[c + 4:c + 8])[0]
        b[c + 8:c + 8 + size] = bytes(size)
    return bytes(b)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Submission folders: an honest MKV, the same with its last 100 of 400 frames zeroed
    (Matroska: frames known by their timestamps, the tail left to the scan) and that tail in
    AVI (frames known by their place: the probe decodes its tail itself)."""
    root = tmp_path_factory.mktemp("tail")
    avi = root / "src.avi"
    _ffmpeg("-f", "lavfi", "-i", "testsrc2=s=64x48:r=25:d=16", "-c:v", "mjpeg", str(avi))
    bad_avi = root / "bad.avi"
    bad_avi.write_bytes(_zero_tail(avi, 300))
    out = {}
    for name, src, ext in (("honest", avi, "mkv"), ("badtail", bad_avi, "mkv"),
                           ("badtail_avi", bad_avi, "avi")):
        d = root / name
        d.mkdir()
        make_agent_log(d / "agent-log.jsonl", n_events=12, seed=1)
        _ffmpeg("-i", str(src), "-c", "copy", str(d / f"run.{ext}"))
        out[name] = d
    return out


PROBE_RULES = {"video.tail_undecodable", "video.header_mismatch", "video.probe_incomplete",
               "video.empty", "video.unreadable", "video.truncated"}


def _video(report) -> tuple:
    """The probe's facts in a report: frames, duration and its findings, in order."""
    return (report.video.frame_count, report.video.duration_s,
            [(f.rule, f.message) for f in report.findings if f.rule in PROBE_RULES])


@pytest.mark.parametrize("name,frames", [("honest", 400), ("badtail", 300),
                                         ("badtail_avi", 300)])
@pytest.mark.parametrize("budget", [None, 1e-9])
def test_verify_scan_says_of_the_tail_what_verify_says(runs, name, frames, budget, tmp_path,
                                                       monkeypatch):
    # budget 1e-9: the scan stops at its first look (frame 256), so it cannot tell where the
    # decodable frames end; the probe then decodes the tail itself
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(tmp_path))
    alone = verify_paths([runs[name]]).report
    with_scan = verify_paths([runs[name]], VerifyOptions(scan_video=True,
                                                         scan_budget_s=budget)).report
    assert alone.video.frame_count == frames
    assert _video(with_scan) == _video(alone)
    tail = [f.message for f in alone.findings if f.rule == "video.tail_undecodable"]
    assert tail == ([] if name == "honest" else
                    ["the stream has frames up to 16.000 s but they decode only to 12.000 s "
                     "(frames 300-399 do not): the measured duration stops there"])
    assert with_scan.video_scan.complete is (budget is None)


def test_the_probe_leaves_the_tail_to_the_scan(runs, monkeypatch):
    # main: the probe decoded the last GOPs whatever followed it (1.95x -> 1.33x of the decode
    # floor with the 60-frame pass; still a second decode of the tail)
    def no_tail_pass(self, *_a, **_k):
        raise AssertionError("the tail was decoded by the probe")

    monkeypatch.setattr(decoder.ExactDecoder, "last_decodable", no_tail_pass)
    video = str(runs["badtail"] / "run.mkv")
    info, _ = child_probe.op_probe({"source": video, "tail": "scan"})
    assert info["ok"] and info["tail_deferred"] and "last_decodable" not in info
    # frames known by their place (AVI) are not left to the scan's timestamps
    with pytest.raises(AssertionError, match="decoded by the probe"):
        child_probe.op_probe({"source": str(runs["badtail_avi"] / "run.avi"), "tail": "scan"})


def test_verify_scan_digests_the_video_once(runs, tmp_path, monkeypatch):
    # main: the scan hashed the video for its cache key, and the report's digest read the
    # whole file again
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(tmp_path))

    def no_second_read(_path):
        raise AssertionError("the video was hashed again")

    monkeypatch.setattr(scan, "file_sha256", no_second_read)
    report = verify_paths([runs["honest"]], VerifyOptions(scan_video=True)).report
    assert report.video_scan.complete
    digest = report.digest_for("run.mkv")
    assert digest is not None and digest.sha256 == file_sha256(runs["honest"] / "run.mkv")
