"""The video probe on real files made with cv2.VideoWriter (and damaged on purpose): the frame
index from the demuxer, read in the isolated video process."""

from __future__ import annotations

import struct
import subprocess
import sys

import pytest

from moderator_app.core.samples.community import make_video
from moderator_app.core.thresholds import VideoLimits
from moderator_app.core.verify.sections import VideoSection
from moderator_app.core.video.probe import probe_video
from moderator_app.core.video.truncation import container_truncation

SMALL = (64, 36)


def rules(probe):
    return [(f.rule, f.severity.value) for f in probe.findings]


@pytest.fixture(scope="module")
def videos(tmp_path_factory):
    d = tmp_path_factory.mktemp("videos")
    out = {}
    for fourcc, ext in (("mp4v", ".mp4"), ("MJPG", ".avi"), ("XVID", ".avi"), ("VP80", ".webm")):
        out[fourcc] = make_video(d / f"v-{fourcc}{ext}", 6.0, fps=10, size=SMALL, fourcc=fourcc)
    return out


@pytest.mark.parametrize("fourcc", ["mp4v", "MJPG", "XVID", "VP80"])
def test_valid_video_is_measured(videos, fourcc):
    p = probe_video(videos[fourcc], "video")
    assert p.ok and p.findings == ()
    assert p.duration_s == pytest.approx(6.0, abs=1e-6)
    assert p.frame_count == 60 and p.fps == 10.0
    assert (p.width, p.height) == SMALL
    assert p.method == "indexed 60 frames from the demuxer"
    d = VideoSection.of(p).to_dict()
    assert d["ok"] is True and d["file"] == "video" and d["duration_s"] == p.duration_s
    assert set(d) == {"ok", "file", "fps", "frame_count", "width", "height", "duration_s",
                      "codec", "method", "header_frame_count", "header_fps", "footage_gaps",
                      "audio_streams"}
    assert d["footage_gaps"] == [] and d["audio_streams"] == 0


def _lying_avi(src, dst, frames):
    b = bytearray(src.read_bytes())
    for tag, at in ((b"avih", 16), (b"strh", 32)):  # dwTotalFrames, dwLength
        i = b.find(tag) + 8 + at
        b[i:i + 4] = struct.pack("<I", frames)
    dst.write_bytes(bytes(b))
    return dst


def test_header_that_lies_is_not_trusted(videos, tmp_path):
    lie = _lying_avi(videos["MJPG"], tmp_path / "lie.avi", 600)
    p = probe_video(lie, "lie.avi")
    assert p.ok and p.header_frame_count == 600
    assert p.duration_s == pytest.approx(6.0, abs=1e-6) and p.frame_count == 60
    assert rules(p) == [("video.header_mismatch", "warning")]


def test_header_that_undercounts(videos, tmp_path):
    lie = _lying_avi(videos["MJPG"], tmp_path / "short.avi", 40)
    p = probe_video(lie, "short.avi")
    assert p.duration_s == pytest.approx(6.0, abs=1e-6)
    assert rules(p) == [("video.header_mismatch", "warning")]


@pytest.mark.parametrize("fourcc, ok", [("mp4v", False), ("MJPG", True), ("VP80", True)])
def test_truncated_video(videos, tmp_path, fourcc, ok):
    src = videos[fourcc]
    cut = tmp_path / f"cut{src.suffix}"
    data = src.read_bytes()
    cut.write_bytes(data[:len(data) // 2])
    assert container_truncation(src) is None
    assert container_truncation(cut)
    p = probe_video(cut, "cut")
    assert p.ok is ok
    assert ("video.truncated", "error") in rules(p)
    if ok:
        assert p.duration_s < 4.0  # duration-ok (a measured video time, not a time taken); what is really there


def test_empty_file(tmp_path):
    (tmp_path / "e.mp4").write_bytes(b"")
    p = probe_video(tmp_path / "e.mp4", "e.mp4")
    assert not p.ok and rules(p) == [("video.empty", "error")]
    assert p.findings[0].file == "e.mp4" and p.findings[0].line is None


def test_garbage_is_unreadable(tmp_path):
    (tmp_path / "g.mp4").write_bytes(b"this is not a video at all" * 100)
    p = probe_video(tmp_path / "g.mp4", "g.mp4")
    assert not p.ok and rules(p) == [("video.unreadable", "error")]


def test_a_refused_picture_size_is_named_not_a_misleading_errno(tmp_path):
    """Issue 15: a y4m header of W30000 H30000 was "OSError: [Errno 16] Device or resource
    busy" (the code FFmpeg's size check returns); the reason is FFmpeg's own."""
    (tmp_path / "big.y4m").write_bytes(
        b"YUV4MPEG2 W30000 H30000 F30:1 Ip A1:1 C420jpeg\nFRAME\n" + bytes(1000))
    p = probe_video(tmp_path / "big.y4m", "big.y4m")
    assert not p.ok and [(f.rule, f.message) for f in p.findings] == [
        ("video.unreadable", "the video cannot be read: FFmpeg refuses the file: "
                             "Picture size 30000x30000 is invalid")]


def test_missing_file_and_directory_never_raise(tmp_path):
    assert rules(probe_video(tmp_path / "nope.mp4", "x")) == [("video.unreadable", "error")]
    assert not probe_video(tmp_path, "dir").ok


def test_too_large(videos):
    p = probe_video(videos["mp4v"], "v", VideoLimits(max_side=32))
    assert not p.ok and rules(p) == [("video.too_large", "error")]
    p = probe_video(videos["mp4v"], "v", VideoLimits(max_duration_s=5.0))
    assert p.ok and rules(p) == [("video.too_large", "error")]


def test_time_budget_bounds_the_probe(tmp_path):
    long = make_video(tmp_path / "long.avi", 60.0, fps=10, size=(16, 16), fourcc="MJPG")
    p = probe_video(long, "v", VideoLimits(time_budget_s=0.0))
    # a note, and the header's 60 s is no mismatch against a lower bound: a probe cut by its
    # budget (a loaded machine) neither warns nor fails the file (it got probe_incomplete and
    # header_mismatch warnings)
    assert rules(p) == [("video.probe_incomplete", "info")]
    # the duration is where the stream ends (its last packet), not where the budget stopped
    assert p.duration_s == 60.0  # duration-ok (a measured video time, not a time taken)


@pytest.mark.parametrize("ext", ["mp4", "mkv"])
def test_a_cut_index_gives_no_false_coverage_missing(tmp_path, ext):
    """Issue 12/15: an index cut by the probe's budget measured a lower-bound duration, so
    whether a run was covered depended on how far a (loaded) machine got: a 30 s video beside
    a 25 s run was coverage.missing at a 0 s budget. The duration now comes from the last
    packet's timestamp, read from the end of the file (MP4 by its sample index, Matroska by
    byte), and the note says what was not checked."""
    from moderator_app.core.verify.coverage import compute_coverage

    out = tmp_path / f"v.{ext}"
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i",
                    "testsrc2=size=160x90:rate=30:duration=30", "-c:v", "libx264", "-preset",
                    "veryfast", "-g", "60", "-pix_fmt", "yuv420p", str(out)], check=True)
    full = probe_video(out, "v")
    cut = probe_video(out, "v", VideoLimits(time_budget_s=0.0))
    assert full.index.complete and not cut.index.complete
    assert round(full.duration_s, 3) == round(cut.duration_s, 3) == 30.0  # duration-ok: a video time
    assert [(f.rule, f.message) for f in cut.findings] == [
        ("video.probe_incomplete", "stopped after 0 s of probing at frame 1 (0.033 s): the "
         "duration 30.000 s is the last packet's timestamp; frames, gaps and decoding after "
         "0.033 s were not checked")]
    assert compute_coverage(25.0, cut.duration_s, 0.0, cut.gaps).covered


def test_unseekable_live_webm_is_measured_to_the_end(tmp_path):
    """A WebM recorded live (MediaRecorder, OBS) has no duration and no index."""
    out = tmp_path / "live.webm"
    proc = subprocess.run(
        ["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
         "testsrc=size=64x36:rate=10", "-t", "12", "-c:v", "libvpx", "-deadline", "realtime",
         "-live", "1", "-f", "webm", str(out)], capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip("ffmpeg with libvpx not available: " + proc.stderr[-200:])
    p = probe_video(out, "live.webm")
    assert p.ok and p.header_frame_count is None
    assert p.frame_count == 120 and p.duration_s == pytest.approx(12.0, abs=0.01)
    assert rules(p) == []


def test_variable_frame_rate_is_measured(tmp_path):
    """An H.264 VFR file made by ffmpeg: the duration comes from the timestamps."""
    src = make_video(tmp_path / "src.avi", 4.0, fps=10, size=SMALL, fourcc="MJPG")
    out = tmp_path / "vfr.mkv"
    # Drop every other frame in the second half: timestamps keep the real time.
    proc = subprocess.run(
        ["ffmpeg", "-loglevel", "error", "-y", "-i", str(src), "-vf",
         "select='lt(t,2)+mod(n,2)'", "-fps_mode", "vfr", "-c:v", "libx264", str(out)],
        capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip("ffmpeg with libx264 not available: " + proc.stderr[-200:])
    p = probe_video(out, "vfr.mkv")
    assert p.ok
    assert p.frame_count == 30
    assert p.duration_s == pytest.approx(4.0, abs=0.25)
    assert ("video.variable_rate", "info") in rules(p)


def test_probe_module_never_loads_a_decoder_in_process():
    """FFmpeg (PyAV) and OpenCV parse untrusted bytes only in the isolated video process."""
    code = ("import sys, moderator_app.core.video.probe, moderator_app.core.video.scan, "
            "moderator_app.core.video.export; print('cv2' in sys.modules, 'av' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "False False"


@pytest.mark.parametrize("damage, rule_id", [
    ("truncate", "video.truncated"), ("empty", "video.empty"), ("garbage", "video.unreadable"),
])
def test_damaged_video_fails_the_submission(videos, tmp_path, damage, rule_id):
    from moderator_app.core.samples.community import make_agent_log
    from moderator_app.core.verify.pipeline import verify_paths

    make_agent_log(tmp_path / "agent-log.jsonl", n_events=12, seed=1)
    data = videos["MJPG"].read_bytes()
    body = {"truncate": data[:len(data) * 2 // 3], "empty": b"", "garbage": b"x" * 5000}[damage]
    (tmp_path / "run.avi").write_bytes(body)
    report = verify_paths([tmp_path]).report
    assert report.verdict == "fail"
    errs = [(f.rule, f.file, f.line) for f in report.findings if f.severity.value == "error"]
    assert errs[0] == (rule_id, "run.avi", None)
    assert report.video.ok is (damage == "truncate")


def test_video_that_covers_the_run_passes(videos, tmp_path):
    from moderator_app.core.samples.community import make_agent_log
    from moderator_app.core.verify.pipeline import verify_paths

    dur = make_agent_log(tmp_path / "agent-log.jsonl", n_events=12, seed=1)
    make_video(tmp_path / "run.webm", dur, fps=10, size=SMALL, fourcc="VP80")
    report = verify_paths([tmp_path]).report
    assert report.verdict == "pass", [f.to_dict() for f in report.findings]
    assert report.video.duration_s == pytest.approx(round(dur * 10) / 10)


def _zeroed_frames(avi, frames: int, first: int) -> bytes:
    """An MJPEG AVI's bytes with the JPEG data of frames `first`.. zeroed (the container
    intact: its index still lists every frame); `frames`: how many it holds."""
    b = bytearray(avi.read_bytes())
    pos, end, chunks = b.find(b"movi"), b.find(b"idx1"), []
    while (pos := b.find(b"00dc", pos)) >= 0 and pos < end:
        chunks.append(pos)
        pos += 8 + struct.unpack("<I", b[pos + 4:pos + 8])[0]
    assert len(chunks) == frames
    for c in chunks[first:]:
        size = struct.unpack("<I", b[c + 4:c + 8])[0]
        b[c + 8:c + 8 + size] = bytes(size)
    return bytes(b)


def test_undecodable_tail_is_not_counted(videos, tmp_path):
    """The container is complete, but the last 20 frames' JPEG data is zeroed."""
    bad = tmp_path / "badtail.avi"
    bad.write_bytes(_zeroed_frames(videos["MJPG"], 60, 40))
    p = probe_video(bad, "badtail.avi")
    assert p.ok and p.frame_count == 40 and p.duration_s == pytest.approx(4.0)
    assert rules(p) == [("video.tail_undecodable", "warning"),
                        ("video.header_mismatch", "warning")]
    assert "frames 40-59 do not" in p.findings[0].message


def test_a_broken_tail_longer_than_the_first_pass_is_found(tmp_path):
    """The probe decodes the last 60 frames first (QA session 15, H5: a pass over the last 600
    made `verify --scan` 1.95x its decode floor) and the last 600 only when none of those
    decodes. 800 MJPEG frames, the last 100 zeroed: the first pass decodes nothing, the second
    finds frame 699, as one pass over the last 600 did."""
    good = tmp_path / "good.avi"
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc2=s=64x48:r=50:d=16", "-c:v", "mjpeg", str(good)], check=True)
    bad = tmp_path / "badtail.avi"
    bad.write_bytes(_zeroed_frames(good, 800, 700))
    p = probe_video(bad, "badtail.avi")
    assert p.ok and p.frame_count == 700 and p.duration_s == pytest.approx(14.0)
    assert "frames 700-799 do not" in p.findings[0].message
