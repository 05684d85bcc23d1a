"""Recordings joined in one file whose timestamps restart earlier (MPEG-TS captures appended:
a capture tool that restarts, or `cat`): every frame is counted as ffprobe counts them, shown
in file order, and exported as the true picture; the scan says where the timestamps go back.
Before, the index kept one frame per raw timestamp: 240 of 600 frames vanished and the wrong
pictures were exported (issue 12 QA, session 5)."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys

import cv2
import numpy as np
import pytest
import video_corpus as vc

from moderator_app.core.video.audio import AudioTrack
from moderator_app.core.video.export import read_frames
from moderator_app.core.video.isolate import VideoProcess
from moderator_app.core.video.joined_timeline import Timeline
from moderator_app.core.video.probe import probe_video
from moderator_app.core.video.scan import run_scan

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

TWO = ((300, 0.0), (300, 2.0))  # the second capture restarts 8 s earlier
THREE = ((200, 0.0), (200, 0.0), (200, 1.0))  # each later one restarts earlier


@pytest.mark.parametrize("parts", [TWO, THREE], ids=["two", "three"])
def test_every_frame_is_counted_and_shown_in_file_order(parts):
    path = vc.build_joined_ts(parts)
    total = sum(f for f, _ in parts)
    p = probe_video(path, "joined.ts")
    assert p.ok and p.frame_count == total == vc.ffprobe_frames(path)
    assert p.duration_s == pytest.approx(total / 30, abs=1e-3)
    # the parts follow each other, one frame interval apart: no hole, no overlap
    assert p.index is not None
    gaps = [round(d * 30, 3) for d in (p.index.times_s[1:] - p.index.times_s[:-1])]
    assert set(gaps) == {1.0}
    assert "recordings joined" in p.method and len(p.index.segments) == len(parts) - 1
    assert [f.rule for f in p.findings] == ["video.header_mismatch"]  # the header's span


def test_the_exported_frames_are_the_true_ones_in_any_order():
    path = vc.build_joined_ts(THREE)
    p = probe_video(path, "joined.ts")
    assert p.index is not None
    rng = random.Random(12)
    frames = [*rng.sample(range(600), 40), 199, 200, 201, 399, 400, 401, 402, 0, 599, 198]
    pictures = read_frames(path, p.index, frames)
    assert [vc.read_code(img) if img is not None else None for img in pictures] == frames


def test_frame_cli_takes_a_transport_stream_by_its_bytes(tmp_path):
    path = vc.build_joined_ts(TWO)
    out = tmp_path / "f.png"
    r = subprocess.run([sys.executable, "-m", "moderator_app", "frame", str(path),
                        "--time", "10.51", "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    # 10.51 s: the second capture's 16th frame (source frame 300 + 15)
    assert vc.read_code(cv2.imread(str(out), cv2.IMREAD_COLOR)) == 315
    assert "frame 315" in r.stdout


def test_the_scan_reports_where_the_timestamps_go_back(tmp_path, monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(tmp_path / "cache"))
    r = run_scan(vc.build_joined_ts(THREE))
    assert r.signals.frame_count == 600
    got = [(s.rule, round(s.start_s, 3)) for s in r.spans]
    # the joins at 6.667 s and 13.333 s, and nothing else (the picture runs on across them)
    assert got == [("video.timestamp_backwards", 6.667), ("video.timestamp_backwards", 13.333)]
    assert "go back by 6.633 s" in r.spans[0].message
    assert "go back by 5.700 s" in r.spans[1].message


def test_timeline_shifts_each_restart_after_the_latest_frame():
    learn = Timeline()
    # (pts, dts) in decode order: B-frames, then a restart at dts 0, then a glitch of 1 tick
    packets = [(2, 0), (1, 1), (3, 2), (5, 3), (4, 4), (1, 0), (2, 1), (3, 2), (4, 1)]
    shifted = [p + learn.shift(p, d) for p, d in packets]
    assert shifted == [2, 1, 3, 5, 4, 6, 7, 8, 9]  # the glitch overlaps nothing: not shifted
    assert learn.offsets == [0, 5, 5] and learn.splices == [(6, 4), (9, 1)]
    # replaying from the second segment (a decode after a seek) gives the same timestamps
    replay = Timeline(learn.offsets, segment=1)
    assert [p + replay.shift(p, d) for p, d in packets[5:]] == shifted[5:]


def test_a_single_recording_is_not_shifted():
    t = Timeline()
    assert [t.shift(p, d) for p, d in [(2, 0), (1, 1), (3, 2), (None, 3), (4, None)]] == \
        [0] * 5
    assert t.offsets == [0] and t.splices == []


def _loud_ms(pcm: bytes) -> np.ndarray:
    """Which 10 ms of stereo s16 PCM hold sound (the tone peaks near 3,000)."""
    x = np.abs(np.frombuffer(pcm, np.int16).reshape(-1, 2)[:, 0]).reshape(-1, 480)
    return x.max(axis=1) > 100


def test_joined_recordings_play_their_sound_on_the_pictures_timeline():
    """The sound of two captures joined with restarting timestamps played silent in the player
    (a window sought by time could come from the other capture). Now a window is sought by the
    byte position of the picture's keyframe before it and each capture's sound is shifted as
    its picture is: the second capture's 1 s hole at its own 5 s is heard at 15-16 s of video
    time (where the scan puts it), in windows sought anywhere and in continuous play across
    the join at 10 s, which has no hole of its own; a single recording is unchanged."""
    path = vc.build_joined_ts(TWO, sound=("anull", "aselect='not(between(t\\,5\\,6))'"))
    joined = probe_video(path, "joined.ts")
    assert joined.index is not None and joined.index.segments
    track = AudioTrack.for_index(path, joined.index)
    try:
        assert track.failed is None
        sought = {t: bool(_loud_ms(track.pcm(t, t + 0.5)).all())
                  for t in (1.0, 9.0, 10.1, 14.3, 16.3, 19.0)}
        assert sought == dict.fromkeys(sought, True)  # sound everywhere but in the hole
        assert not _loud_ms(track.pcm(15.1, 15.9)).any()
        # continuous play (each window continues the last) from 8 s to 18 s
        loud = _loud_ms(b"".join(track.pcm(8.0 + 0.2 * k, 8.2 + 0.2 * k) for k in range(50)))
        quiet = np.nonzero(~loud)[0] * 0.01 + 8.0
        assert quiet[0] == pytest.approx(15.0, abs=0.05)  # duration-ok: video time
        assert quiet[-1] + 0.01 == pytest.approx(16.0, abs=0.05)  # duration-ok: video time
        assert quiet.shape[0] == pytest.approx(100, abs=5)  # one hole, 1 s: none at the join
    finally:
        track.close()
    single = probe_video(vc.build(vc.RECIPES["audio_short"]), "a.mp4")
    assert single.index is not None
    tone = AudioTrack.for_index(vc.build(vc.RECIPES["audio_short"]), single.index)
    try:
        assert tone.failed is None and tone.joined is None and any(tone.pcm(5.0, 5.2))
    finally:
        tone.close()


def test_a_seek_to_the_first_keyframe_of_a_later_recording_needs_no_fallback():
    """A byte seek starts at the packet before the keyframe's (session 7, for MPEG-PS), which
    in joined recordings is the previous recording's last: it must not be timed, or the
    timestamps going back from it to the keyframe count one restart too many and the frames
    carry another recording's shift (a fallback, 22 frames decoded for one)."""
    path = vc.build_joined_ts(THREE)
    p = probe_video(path, "joined.ts")
    assert p.index is not None
    blob = p.index.to_bytes()
    answers = []
    with VideoProcess(path) as vp:
        for k, n in enumerate([10, 200, 10, 400, 10, 201]):
            req = {"op": "frame", "n": n, "keep": True, **({"index_len": len(blob)} if k == 0
                                                            else {})}
            msg = vp.request(req, blob if k == 0 else b"")
            img = np.frombuffer(msg.blobs[0], np.uint8).reshape(
                int(msg.header["height"]), int(msg.header["width"]), 3)
            answers.append((vc.read_code(img), msg.header["fallbacks"]))
    assert answers == [(10, 0), (200, 0), (10, 0), (400, 0), (10, 0), (201, 0)]


def test_the_sound_of_joined_recordings_is_found_on_the_pictures_timeline():
    """The second capture's sound has a 1 s hole at its own 5 s, which the picture's file-order
    timeline places at 15 s. On raw timestamps the hole was reported at 6.9 s (inside the
    first capture), the join itself as a second `audio.discontinuity`, and the sound's end
    at 11.9 s of a 20 s video (issue 12 QA, session 7)."""
    path = vc.build_joined_ts(TWO, sound=("anull", "aselect='not(between(t\\,5\\,6))'"))
    scan = run_scan(path, cache=False)
    audio = [(s.rule, round(s.start_s, 1), round(s.end_s, 1)) for s in scan.spans
             if s.rule.startswith("audio.")]
    assert audio == [("audio.gap", 15.0, 16.0)]
    assert scan.audio_end_s == pytest.approx(20.0, abs=0.05)  # duration-ok: video time


def test_frame_cli_on_a_lone_file_that_is_no_video_says_so(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("not a video\n")
    r = subprocess.run([sys.executable, "-m", "moderator_app", "frame", str(notes),
                        "--time", "1", "-o", str(tmp_path / "f.png")],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "the video cannot be read" in r.stderr
    assert "Traceback" not in r.stderr and not (tmp_path / "f.png").exists()




@pytest.mark.parametrize("parts", [TWO, THREE], ids=["two", "three"])
def test_a_cut_index_of_joined_recordings_ends_where_the_full_one_does(parts):
    """A joined MPEG-TS whose index the probe's budget cut (a loaded machine) had the duration
    of its last packet's raw timestamp: 11.9 s (two parts) and 7.6 s (three) of 20 s, so a run
    of 15 s was coverage.missing. The packets read from the end are stitched on the index's
    timeline: the duration is the full index's, as ffprobe counts the frames (600 at 30 fps)."""
    from moderator_app.core.thresholds import VideoLimits
    from moderator_app.core.verify.coverage import compute_coverage

    path = vc.build_joined_ts(parts)
    full = probe_video(path, "joined.ts")
    cut = probe_video(path, "joined.ts", VideoLimits(time_budget_s=0.0))
    assert full.index.complete and not cut.index.complete
    assert vc.ffprobe_frames(path) == 600
    assert full.duration_s == pytest.approx(600 / 30, abs=1e-3)  # duration-ok: a video time
    assert cut.duration_s == pytest.approx(full.duration_s, abs=1e-3)  # duration-ok
    assert compute_coverage(19.5, cut.duration_s, 0.0, cut.gaps).covered


def test_a_restart_between_a_cut_index_and_the_tail_is_stitched_on():
    """The tail of a large file is read from its last 4 MiB: a restart of the timestamps
    between the point the index reached and that read shows as a first packet far before
    the index's latest time, and the tail is placed after it (`tail_end`); a read that
    starts at the index's last packet goes on where it stopped."""
    from fractions import Fraction

    from moderator_app.core.video.index import FrameIndex
    from moderator_app.core.video.joined_timeline import tail_end

    tb = Fraction(1, 90000)
    step = 3000  # 30 fps
    pts = np.arange(100, dtype=np.int64) * step + 126000  # 0 .. 3.3 s, then cut
    index = FrameIndex(times_s=(pts - pts[0]) / 90000.0, pts=pts, keyframe_pts=pts[::30],
                       pos=np.arange(100, dtype=np.int64) * 188, time_base=tb,
                       frame_duration_s=1 / 30)
    # the tail: a second recording whose timestamps restart at 1.4 s raw, 50 frames
    tail = [(126000 + k * step, 126000 + k * step, step) for k in range(50)]
    end = tail_end(index, tail)
    assert end is not None
    assert (end - pts[0]) / 90000 == pytest.approx((100 + 50) / 30)  # duration-ok: video time
    # the read starting at the index's last packet: no restart, the end is the last packet's
    same = [(int(pts[-1]), int(pts[-1]), step), *((int(pts[-1]) + k * step,) * 2 + (step,)
                                                  for k in range(1, 20))]
    end = tail_end(index, same)
    assert (end - pts[0]) / 90000 == pytest.approx((100 + 19) / 30)  # duration-ok: video time
    # and a restart inside the tail is stitched as the full index does
    inside = [*same, *((126000 + k * step,) * 2 + (step,) for k in range(10))]
    end = tail_end(index, inside)
    assert (end - pts[0]) / 90000 == pytest.approx((100 + 19 + 10) / 30)  # duration-ok
