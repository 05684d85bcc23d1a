"""Recordings joined byte for byte (`cat a.mkv b.mkv`, two fragmented MP4s) where the file is
played as one stream with the first recording's header (QA session 21, N3, N4, N6).

- Two H.264 MKVs of one encoder: FFmpeg guesses the second's decode timestamps from its
  presentation times, so they step back at every B-frame group; each step was read as a new
  recording ("24 recordings joined" where 2 are, 13.2 s for 10 s of frames, pictures up to a
  second early). A step back within the decoder's reorder depth is reordering, not a restart.
- An H.264 recording of another picture size joined after the first is decoded with the
  first's parameters: the decoder marks some of its frames damaged and passes the rest, all of
  them the other stream smeared. Its own header (read where it starts in the file) says what
  it is; its frames were no footage, from its first frame to its end, and the run failed.
  Since session 27 a Matroska one is read from its own header (`joined_chain.own_read`): its
  pictures its own at its size, the run passes; since session 28 the fragmented MP4 one
  too (`joined_chain.mp4_own`).
Files are built here by ffmpeg with the frame number drawn in each picture."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import av
import pytest
import video_corpus as vc

from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.verify.pipeline import verify_paths
from moderator_app.core.video import child_segments, joined_chain
from moderator_app.core.video.export import frame_for_time, read_frames
from moderator_app.core.video.index import build_index
from moderator_app.core.video.joined_headers import joined_reorder
from moderator_app.core.video.joined_timeline import Timeline
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

_H264 = ["-c:v", "libx264", "-preset", "veryfast", "-g", "60", "-bf", "2", "-pix_fmt",
         "yuv420p", "-threads", "1"]
_FRAG = ["-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-f", "mp4"]
_PAD = ["-vf", "pad=400:300:0:0"]  # the drawn 320x240 picture at the top left of 400x300


@pytest.fixture(scope="module")
def joined(tmp_path_factory) -> dict[str, Path]:
    """2 s (60 frames, 320x240, drawn 0-59) + 8 s (240 frames, drawn 0-239), H.264 with
    2 B-frames, 30 fps: `honest` both 320x240 MKVs of one encoder; `size_mkv` the second
    padded to 400x300; `size_mp4` the same as fragmented MP4s. Each with an 8.761 s run,
    `size_mp4` with a 9.9 s one (its footage ends at 2 s, and 2 s of its 10 are a hole:
    8.761 s would miss 4.761 s, within the 5 s tolerance)."""
    d = tmp_path_factory.mktemp("joined_params")
    parts = {"a.mkv": [*_H264, "-f", "matroska"], "b.mkv": [*_H264, "-f", "matroska"],
             "b400.mkv": [*_PAD, *_H264, "-f", "matroska"], "a.mp4": [*_H264, *_FRAG],
             "b400.mp4": [*_PAD, *_H264, *_FRAG]}
    for name, args in parts.items():
        vc.encode(d / name, args, frames=60 if name.startswith("a") else 240)
    out = {}
    for name, (a, b, ext) in {"honest": ("a.mkv", "b.mkv", "mkv"),
                              "size_mkv": ("a.mkv", "b400.mkv", "mkv"),
                              "size_mp4": ("a.mp4", "b400.mp4", "mp4")}.items():
        out[name] = d / name / f"video.{ext}"
        out[name].parent.mkdir()
        out[name].write_bytes((d / a).read_bytes() + (d / b).read_bytes())
        longer = 9.9 if name == "size_mp4" else 0.0
        run = make_agent_log(out[name].parent / "agent-log.jsonl", n_events=20, seed=2,
                             min_duration_s=longer)
        assert run == pytest.approx(8.761) if not longer else 9.9 <= run < 10.0
    return out


def test_a_b_frame_group_stepping_back_is_no_restart():
    """Decode timestamps as FFmpeg guesses them for the second MKV (= its presentation times,
    1/1000): I0 P100 B33 B67 P200 B133 B167: within (2 + 1) frames of reordering."""
    tl = Timeline(reorder=100)
    for dts in (1900, 1933, 0, 100, 33, 67, 200, 133, 167):
        tl.shift(dts, dts)
    assert tl.segment == 1 and len(tl.splices) == 1  # the join at 0 only
    # a decode timestamp of its own (MPEG-TS: pts 14000, dts 13933 after 13967) that goes
    # back is a restart however little: a capture appended with a frame of overlap
    ts = Timeline(reorder=100)
    for pts, dts in ((13933, 13900), (13967, 13967), (14000, 13933)):
        ts.shift(pts, dts)
    assert ts.segment == 1
    assert Timeline(reorder=0).shift(5, 5) == 0  # no reorder window: as before
    old = Timeline()
    for dts in (0, 100, 33):
        old.shift(dts, dts)
    assert old.segment == 1  # without the window, the B-frame read as a restart


def test_two_joined_mkvs_of_one_encoder_are_two_recordings_on_one_timeline(joined):
    path = joined["honest"]
    p = probe_video(path, "video.mkv")
    assert p.ok and p.frame_count == vc.ffprobe_frames(path) == 300
    assert p.index is not None and len(p.index.segments) == 1
    assert "the timestamps restart at 2.000 s: 2 recordings joined" in p.method
    assert p.duration_s == pytest.approx(10.0, abs=0.001)  # was 13.198 s
    assert "video.joined_undecodable" not in {f.rule for f in p.findings}
    # the pictures at a time: the first recording's frame 30, then the second's 15, 90, 237
    moments = [1.0, 2.5, 5.0, 9.9]
    frames = [frame_for_time(p.index, t, None) for t in moments]
    assert frames == [30, 75, 150, 297]
    got = [None if img is None else vc.read_code(img)
           for img in read_frames(path, p.index, frames)]
    assert got == [30, 15, 90, 237]
    report = verify_paths([path.parent]).report
    assert report.verdict == "pass", [f.to_dict() for f in report.findings]


def test_a_joined_mkv_of_another_picture_size_is_read_at_its_size(joined):
    """QA s21 N6: the 400x300 recording decoded with the 320x240 one's header passed on the
    frames the decoder did not mark damaged; sessions 21-26 refused it (no footage 2.0-10.0 s,
    FAIL). Now read from its own header: 300 frames, each the one drawn (the drawn 320x240
    at the top left of 400x300), PASS."""
    path = joined["size_mkv"]
    p = probe_video(path, "video.mkv")
    assert p.ok and p.frame_count == vc.ffprobe_frames(path) == 300
    assert [f.rule for f in p.findings] == ["video.header_mismatch"]
    assert p.gaps == ()
    assert p.index is not None
    frames = [0, 59, 60, 75, 150, 225, 299]
    images = read_frames(path, p.index, frames)
    assert [None if i is None else (i.shape[1], vc.read_code(i[:240, :320]))
            for i in images] == [(320, 0), (320, 59), (400, 0), (400, 15), (400, 90),
                                 (400, 165), (400, 239)]
    report = verify_paths([path.parent]).report
    assert report.verdict == "pass", [f.to_dict() for f in report.findings]
    assert report.video is not None and report.video.frame_count == 300


def test_a_joined_fragmented_mp4_of_another_picture_size_is_read_at_its_size(joined):
    """QA s21 N4 with fragmented MP4s: FFmpeg's demuxer gives 240 of the 300 packets
    (ffprobe's count: the second recording's first 60 lost, a 2 s hole) decoded with the
    first's header (session 22's check: no footage from 4.0 s, FAIL). Since session 28 each
    recording is read from its own header (`joined_chain.mp4_own`): 300 frames, the second
    at 400x300, no gap, PASS."""
    path = joined["size_mp4"]
    p = probe_video(path, "video.mp4")
    assert p.ok and p.frame_count == 300 and vc.ffprobe_frames(path) == 240
    assert [f.rule for f in p.findings] == ["video.header_mismatch"]
    assert p.gaps == ()
    frames = [frame_for_time(p.index, t, None) for t in (1.0, 2.05, 9.9)]
    assert [img.shape for img in read_frames(path, p.index, frames)] == \
        [(240, 320, 3), (300, 400, 3), (300, 400, 3)]
    report = verify_paths([path.parent]).report
    assert report.verdict == "pass", [f.to_dict() for f in report.findings]
    assert report.video is not None and report.video.frame_count == 300


def test_a_joined_fragmented_mp4_of_another_picture_size_played_so_is_no_footage(
        joined, monkeypatch):
    """The same file with `mp4_own` answering none (as before session 28): its own header
    says h264 400x300, played as one stream with the first's; the joined check refuses the
    second recording's 180 frames."""
    monkeypatch.setattr(joined_chain, "mp4_own", lambda source, joins: [])
    path = joined["size_mp4"]
    with av.open(str(path)) as c:
        st = c.streams.video[0]
        index = build_index(c, 10**6, None, joined_reorder(str(path), st),
                            joined_chain.demux(c, [st], str(path)))
    assert index.frame_count == vc.ffprobe_frames(path) == 240
    with av.open(str(path)) as c:
        kept, found = child_segments.check_joined(c, index, time.process_time() + 60,
                                                  str(path))
    assert [(s["recording"], s["packets"]) for s in found["stretches"]] == [(2, 180)]
    params = found["stretches"][0]["params"]
    assert (params["own"], params["shown"]) == ({"codec": "h264", "width": 400, "height": 300},
                                                {"codec": "h264", "width": 320, "height": 240})
