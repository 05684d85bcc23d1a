"""Every recording of a cat-joined Matroska read, past the two FFmpeg's demuxer reads (session
26, issue 12; QA s25 S3: three H.264 recordings of one size, "recording 3 of the 3 joined ...
is never read", `frame --time 17.06` refused, 375 frames of 600).

Each recording from the third on is read from its own header (`joined_chain`): counted in the
index, decoded by the scan and the joined check, shown and exported, its pictures exact. Files
are built here by ffmpeg: `draw_frame` pictures numbered on across the recordings (frame n
shows n), of several B-frame and GOP settings, H.264 and VP9 (WebM)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
import video_corpus as vc

from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths
from moderator_app.core.video.decoder import ExactDecoder
from moderator_app.core.video.export import frame_for_time, read_frames
from moderator_app.core.video.opening import open_container
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


def _h264(bf: int, g: int) -> list[str]:
    return ["-c:v", "libx264", "-preset", "ultrafast", "-g", str(g), "-bf", str(bf),
            "-pix_fmt", "yuv420p", "-threads", "1", "-f", "matroska"]


_VP9 = ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "40",
        "-b:v", "300k", "-threads", "1", "-f", "webm"]

#: name -> (each recording's encoder args and frame count, container suffix)
_FILES = {
    # QA s25 S3's shape: one size and settings, long GOPs with B-frames
    "h264_same_x3": ([(_h264(3, 150), 40), (_h264(3, 150), 55), (_h264(3, 150), 45)], "mkv"),
    # another GOP in the second (read with the first's header by FFmpeg's demuxer, as
    # ffmpeg plays it: one B-frame depth, one SPS), and another B-frame depth and GOP in
    # the third and fourth (each read with its own header: another SPS)
    "h264_mixed_x4": ([(_h264(2, 60), 30), (_h264(2, 250), 40), (_h264(0, 25), 35),
                       (_h264(3, 12), 25)], "mkv"),
    "vp9_x3": ([(_VP9, 30), (_VP9, 40), (_VP9, 35)], "webm"),
    "vp9_x4": ([(_VP9, 25), (_VP9, 30), (_VP9, 20), (_VP9, 35)], "webm"),
}


def _joined(d: Path, name: str) -> tuple[Path, int]:
    """The recordings of `name` (25 fps, numbered on) joined byte for byte into
    d/joined/video.EXT next to a run's log; and how many frames they hold."""
    parts, ext = _FILES[name]
    blobs, first = [], 0
    for k, (args, n) in enumerate(parts):
        blobs.append(vc.encode(d / f"{k}.{ext}", args, frames=n, fps="25",
                               first=first).read_bytes())
        first += n
    out = d / "joined" / f"video.{ext}"
    out.parent.mkdir()
    out.write_bytes(b"".join(blobs))
    make_agent_log(out.parent / "agent-log.jsonl", n_events=20, seed=2)
    return out, first


@pytest.mark.parametrize("name", list(_FILES))
def test_every_joined_recording_is_counted_and_each_picture_is_its_own(tmp_path, name):
    """The probe counts every recording's frames (before: the first two's, and "recording
    3 of the N joined ... is never read"), and 24 frames read in random order (a seek after
    a seek) by one decoder each show their own number."""
    path, total = _joined(tmp_path, name)
    p = probe_video(path, path.name)
    assert p.ok and p.index is not None
    assert p.frame_count == total, [f.message for f in p.findings]
    assert not [f.message for f in p.findings if "never read" in f.message
                or f.rule in ("video.joined_undecodable", "video.probe_incomplete")]
    assert len(p.index.segments) == len(_FILES[name][0]) - 1
    dec = ExactDecoder(open_container(str(path)), p.index,
                       reopen=lambda: open_container(str(path)))
    frames = random.Random(26).sample(range(total), 24)
    got = [(n, None if (f := dec.read(n)) is None else
            vc.read_code(f.to_ndarray(format="rgb24"))) for n in frames]
    assert got == [(n, n) for n in frames]


@pytest.mark.parametrize("name", ["h264_same_x3", "vp9_x4"])
def test_the_exported_frame_in_every_joined_recording(tmp_path, name):
    """What `moderator-app frame` and File > Save frame read (`read_frames`): at 16 moments
    over the whole file, the frame drawn then (before: refused past the second recording,
    QA s25 S3's `frame --time 17.06` exit 1)."""
    path, total = _joined(tmp_path, name)
    p = probe_video(path, path.name)
    assert p.index is not None
    rng = random.Random(17)
    moments = sorted(rng.uniform(0, total / 25) for _ in range(16))
    frames = [frame_for_time(p.index, t, no_footage=p.no_footage) for t in moments]
    assert frames == [int(t * 25 + 1e-9) for t in moments]
    got = [None if img is None else vc.read_code(img)
           for img in read_frames(path, p.index, frames)]  # type: ignore[arg-type]
    assert got == frames


def test_the_scan_reads_every_joined_recording(tmp_path):
    """verify --scan: the video's frames and duration are every recording's (140 frames,
    5.6 s: before 95 and 3.8 s), no recording said unread or undecodable."""
    path, total = _joined(tmp_path, "h264_same_x3")
    report = verify_paths([path.parent], VerifyOptions(scan_video=True)).report
    assert report.video is not None
    assert (report.video.frame_count, report.video.duration_s) == (total, total / 25)
    assert not [f.message for f in report.findings if f.rule == "video.joined_undecodable"]


def test_a_third_recording_follows_the_second_one_frame_after_its_last(tmp_path):
    """Three 4 s H.264 (2 B-frames) + AAC recordings: FFmpeg guesses the second one's decode
    times as its presentation times, whose forward steps go from anchor to anchor (120 ms),
    and the third was placed one such step after the second's last frame (restart at
    8.080 s, "frame intervals vary from 40.0 to 120.0 ms"): at 8.000 s, every interval 40
    ms."""
    import subprocess
    parts = []
    for k in range(3):
        out = tmp_path / f"{k}.mkv"
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                        "testsrc=s=64x48:r=25:d=4", "-f", "lavfi", "-i",
                        f"sine=f={440 + 200 * k}:d=4", "-c:v", "libx264", "-preset",
                        "ultrafast", "-bf", "2", "-g", "50", "-pix_fmt", "yuv420p",
                        "-threads", "1", "-c:a", "aac", "-shortest", str(out)], check=True)
        parts.append(out.read_bytes())
    path = tmp_path / "video.mkv"
    path.write_bytes(b"".join(parts))
    p = probe_video(path, path.name)
    assert p.index is not None and p.frame_count == 300
    first = int(p.index.pts[0])
    assert [round((a - first) * float(p.index.time_base), 3) for a, _ in p.index.segments] \
        == [4.0, 8.0]  # duration-ok: video times of the restarts
    assert not [f.message for f in p.findings if f.rule == "video.variable_rate"]
