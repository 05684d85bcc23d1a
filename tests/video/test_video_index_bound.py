"""The probe's frame index is bounded in frames, so a tiny video of very many frames cannot
take the video process's memory (session 13, issue 15: a 1x1 video of 10^7 frames, 70 MB,
made a 1.7 GB probe process and was "unreadable" after 130 s at load 16).

`VideoLimits.max_index_frames` is lowered here so that a small file shows the behaviour:
past the bound the stream is measured as one the time budget cut (its end read from its last
packets), with a note that names the bound, not the clock.
"""

from __future__ import annotations

from dataclasses import replace

from moderator_app.core.thresholds import DEFAULT_VIDEO_LIMITS
from moderator_app.core.video.probe import probe_video

FRAMES = 5_000  # at 1000 fps: 5.000 s


def _y4m(path):
    """A 1x1 grey (mono) Y4M at 1000 fps: 7 bytes a frame."""
    path.write_bytes(b"YUV4MPEG2 W1 H1 F1000:1 Ip A1:1 Cmono\n" + b"FRAME\n\x80" * FRAMES)
    return path


def test_a_stream_past_the_index_bound_is_indexed_to_it_and_measured_to_its_end(tmp_path):
    video = _y4m(tmp_path / "tiny.y4m")
    limits = replace(DEFAULT_VIDEO_LIMITS, max_index_frames=1_000)
    probe = probe_video(video, "tiny.y4m", limits)
    assert probe.ok
    assert probe.frame_count == 1_001  # the bound, and the packet that crossed it
    assert probe.duration_s == 5.0  # duration-ok: video time, from the file's end
    notes = [f for f in probe.findings if f.rule == "video.probe_incomplete"]
    assert len(notes) == 1 and notes[0].severity.value == "info", probe.findings
    assert notes[0].message.startswith(
        "stopped at frame 1001, the most frames the probe indexes (1.001 s): the duration "
        "5.000 s is "), notes[0].message
    assert "the index's frame bound" in probe.method


def test_a_stream_within_the_bound_is_indexed_whole(tmp_path):
    video = _y4m(tmp_path / "tiny.y4m")
    probe = probe_video(video, "tiny.y4m")
    assert probe.ok and probe.frame_count == FRAMES
    assert probe.duration_s == 5.0  # duration-ok: video time
    assert not [f for f in probe.findings if f.rule == "video.probe_incomplete"]
