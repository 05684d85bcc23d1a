"""Frame truth on recordings of shapes the corpus had not tried (issue 12 QA, session 7):
each test encodes a small file with ffmpeg into its tmp_path, every picture carrying its own
source frame number (`video_corpus.draw_frame`), and compares what the workstation exports
with that number and with what ffmpeg itself shows."""

from __future__ import annotations

import random
import shutil
import subprocess

import numpy as np
import pytest
import video_corpus as vc

from moderator_app.core.video.decoder import ExactDecoder
from moderator_app.core.video.export import frame_for_time, read_frames
from moderator_app.core.video.isolate import VideoProcess
from moderator_app.core.video.opening import open_container
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


def _codes(pictures, turns: int = 0) -> list[int | None]:
    return [None if img is None else vc.read_code(np.rot90(img, -turns)) for img in pictures]


def test_mpeg_ps_byte_seeks_land_on_the_true_keyframe(tmp_path):
    """MPEG-PS (a .mpg of MPEG-2, what DVD-style and old capture tools write): a byte seek
    straight onto a keyframe's packet hands the demuxer a stream it has not synced to, and
    it gave the keyframe the timestamps of the frame three later: frame k+3 exported the
    picture of keyframe k, for 10 of 20 keyframes (no fallback: the decoder was sure)."""
    path = vc.encode(tmp_path / "v.mpg", ["-c:v", "mpeg2video", "-bf", "2", "-g", "15",
                                          "-q:v", "4", "-f", "mpeg"], frames=300)
    p = probe_video(path, "v.mpg")
    assert p.ok and p.frame_count == 300 and p.findings == ()
    assert p.index is not None
    frames = list(range(300))
    random.Random(7).shuffle(frames)
    assert _codes(read_frames(path, p.index, frames)) == frames


@pytest.mark.parametrize("rotate,turns", [(90, 1), (270, 3), (180, 2)])
def test_a_turned_recording_is_shown_as_players_show_it(tmp_path, rotate, turns):
    """A recording whose display matrix turns it (a phone held upright, a rotated capture):
    the exported frame is the picture ffmpeg (and mpv) shows, turned, and still the exact
    frame; the player asks for a fitted size of the turned picture and gets it."""
    src = vc.encode(tmp_path / "src.mp4", ["-c:v", "libx264", "-preset", "ultrafast",
                                           "-g", "30", "-pix_fmt", "yuv420p"], frames=60)
    path = tmp_path / "turned.mp4"
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", str(src), "-c", "copy",
                    "-metadata:s:v:0", f"rotate={rotate}", str(path)], check=True)
    p = probe_video(path, "turned.mp4")
    assert p.ok and p.frame_count == 60 and p.index is not None
    assert p.index.turns == turns
    assert p.index.display_size == ((vc.H, vc.W) if turns % 2 else (vc.W, vc.H))
    frames = [37, 0, 59, 12]
    pictures = read_frames(path, p.index, frames)
    assert _codes(pictures, turns) == frames
    shown = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", str(path),
                            "-frames:v", "1", "-pix_fmt", "rgb24", "-f", "rawvideo", "-"],
                           capture_output=True, check=True).stdout
    first = read_frames(path, p.index, [0])[0]
    assert first is not None
    assert np.array_equal(np.frombuffer(shown, np.uint8).reshape(first.shape), first)
    w, h = p.index.display_size
    with VideoProcess(path) as vp:  # as the player asks: the turned picture fitted in half
        blob = p.index.to_bytes()
        msg = vp.request({"op": "frame", "n": 5, "width": w // 2, "height": h // 2,
                          "index_len": len(blob)}, blob)
    assert (msg.header["width"], msg.header["height"]) == (w // 2, h // 2)
    img = np.frombuffer(msg.blobs[0], np.uint8).reshape(h // 2, w // 2, 3)
    assert vc.read_code(np.rot90(img, -turns)) == 5


def test_a_transport_stream_cut_mid_gop_starts_at_its_first_keyframe(tmp_path):
    """A transport stream cut at a byte offset (`dd`, `split`, a capture joined mid-stream)
    opens on frames whose references are gone: none of them decodes. They were counted as
    frames, and frame 0 (one of them) did not decode, so the probe said `video.empty`, an
    error, on a file ffmpeg plays. Now the footage starts at the first keyframe: counts as
    ffprobe counts them, no finding, exact frames."""
    whole = vc.encode(tmp_path / "whole.ts", [*vc.X264, "-f", "mpegts"], frames=150)
    data = whole.read_bytes()
    path = tmp_path / "cut.ts"
    path.write_bytes(data[len(data) // 3 // 188 * 188:])  # whole TS packets, mid-GOP
    p = probe_video(path, "cut.ts")
    assert p.ok and p.findings == ()
    assert p.frame_count == 90 == vc.ffprobe_frames(path)  # from source frame 60, a keyframe
    assert p.duration_s == pytest.approx(3.0, abs=1e-3)  # duration-ok: video time
    assert p.index is not None and p.index.time_of(0) == 0.0
    frames = [45, 0, 89, 1, 60, 30]
    assert _codes(read_frames(path, p.index, frames)) == [60 + n for n in frames]


def test_frames_that_share_a_timestamp_are_each_a_frame(tmp_path):
    """x264 at its default time base (1/30 s) fed a capture's jittered timestamps stores
    different pictures under one pts (ffmpeg 5.1 muxes them as they are): ffprobe counts and
    ffmpeg shows every one. The index kept one frame per pts (219 of 300 frames of such a
    file, the others' pictures never exported), and an MP4 read then failed on a byte seek
    MP4 refuses (EPERM). Now every frame is one, told apart by its order among the frames of
    its pts, and the one shown at their time is the last."""
    path = vc.encode(tmp_path / "jitter.mp4", [
        "-vf", "setpts='(N/30+0.006*sin(N*1.7))/TB'", "-fps_mode", "passthrough",
        "-video_track_timescale", "1000", *vc.X264], frames=90)
    p = probe_video(path, "jitter.mp4")
    assert p.ok and p.index is not None
    assert p.frame_count == vc.ffprobe_frames(path) == 90
    pts = p.index.pts
    shared = [n for n in range(1, 90) if pts[n] == pts[n - 1]]
    assert shared  # the shape under test: frames at one pts
    raw = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", str(path), "-fps_mode",
                          "passthrough", "-pix_fmt", "gray", "-f", "rawvideo", "-"],
                         capture_output=True, check=True).stdout
    shown = [vc.read_code(img) for img in
             np.frombuffer(raw, np.uint8).reshape(-1, vc.H, vc.W)]  # ffmpeg's output order
    frames = list(range(90))
    random.Random(5).shuffle(frames)
    assert _codes(read_frames(path, p.index, frames)) == [shown[n] for n in frames]
    n = shared[0]
    assert frame_for_time(p.index, p.index.time_of(n)) == n  # the later one is on screen


def test_a_demuxer_that_refuses_byte_seeks_is_sought_by_timestamp(tmp_path):
    """MP4 answers a byte seek with EPERM. A decoder that had switched to byte seeks (after a
    timestamp seek seen to land late) raised it as a failed read; it now seeks by timestamp."""
    path = vc.encode(tmp_path / "v.mp4", list(vc.X264), frames=150)
    p = probe_video(path, "v.mp4")
    assert p.index is not None
    dec = ExactDecoder(open_container(str(path)), p.index,
                       reopen=lambda: open_container(str(path)))
    dec.byte_seeks = True
    frames = [130, 10, 75, 140, 61]
    assert [vc.read_code(dec.read(n).to_ndarray(format="gray")) for n in frames] == frames


def test_the_last_decodable_frame_is_unknown_when_the_deadline_cuts_the_pass(tmp_path):
    """Seen on a sound 1080p60 HEVC MKV verified on a loaded machine: the probe's pass over the
    last GOPs ran out of time at some frame, which was then reported as the last frame that
    decodes (video.tail_undecodable, video.header_mismatch; the GUI's probe of the same file a
    minute earlier had none). A pass cut by the deadline now says "unknown" (None: the probe
    reports video.probe_incomplete), and one that reaches the end says the last frame."""
    import time

    path = vc.encode(tmp_path / "v.mp4", list(vc.X264), frames=150)
    p = probe_video(path, "v.mp4")
    assert p.index is not None and p.findings == ()

    def decoder():
        return ExactDecoder(open_container(str(path)), p.index,
                            reopen=lambda: open_container(str(path)))

    assert decoder().last_decodable(0, time.process_time() - 1.0) is None  # out of CPU time
    assert decoder().last_decodable(0, time.process_time() + 600.0) == 149  # CPU s


@pytest.mark.parametrize("ext,fmt,audio", [("mkv", "matroska", "libopus"),
                                           ("webm", "webm", "libopus")])
def test_an_audio_track_longer_than_the_video_is_no_header_mismatch(tmp_path, ext, fmt, audio):
    """Session 10 QA: an honest MKV of 24 s of video and 34 s of audio got
    `video.header_mismatch` ("the header says 34.008 s but the frames' timestamps measure
    24.000 s"): Matroska keeps no stream duration, and the container's duration (its longest
    stream's) was taken for the video's. The track's DURATION tag says what the video lasts."""
    video = tmp_path / f"v.{ext}"
    enc = ["-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8"] if ext == "webm" \
        else list(vc.X264)
    vc._ffmpeg(["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{vc.W}x{vc.H}", "-r", "30",
                "-i", "-", "-f", "lavfi", "-i", "sine=frequency=660:duration=12:sample_rate=48000",
                "-map", "0:v", "-map", "1:a", *enc, "-c:a", audio, "-f", fmt, str(video)],
               vc.Script(frames=150))
    p = probe_video(video, video.name)
    assert [f.rule for f in p.findings] == []
    assert p.frame_count == 150 == vc.ffprobe_frames(video)
    assert p.index is not None and p.index.header_duration_s == pytest.approx(5.0, abs=0.05)
    assert p.duration_s == pytest.approx(5.0, abs=0.001)  # duration-ok: video time, not wall

