"""Recordings of one codec and one picture size joined byte for byte, whose headers set the
decoder up otherwise (session 22, joins2; issue 15/12, the joins QA s21 N4/N6 left open).

- A first recording without B-frames (H.264 baseline) and a joined one with them (high,
  3 B-frames): FFmpeg guesses Matroska's decode timestamps from the first header, so the
  second's went back at every B-frame group and each read as a new recording (32 recordings
  for 2). The joined recording's own header gives its reordering depth.
- The same x264 preset at another CRF (its PPS: another initial QP), or another profile: the
  second recording is decoded with the first's PPS/SPS, every picture of it garbled, and
  H.264's concealment marks only some of them damaged: the run passed. Where its own header's
  bytes differ from the first's, its first pictures are decoded from its own header too:
  other pictures than the file shows are no footage, from its first frame to its end.
- Session 27 (QA s26 T9): in Matroska, such a second recording is read from its own header
  (`joined_chain.own_read`) by every reader: its pictures are its own and it is footage. The
  check above stays for what is still played with the first's header (a Matroska one not
  so decided). Session 28: a fragmented MP4's joined recordings are read from their own
  header (`joined_chain.mp4_own`).
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
from moderator_app.core.video.joined_headers import joined_reorder, matroska_joins
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

_X264 = ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-threads", "1", "-g", "60"]
_VF = [*_X264, "-preset", "veryfast", "-bf", "2"]  # the first recording's encoder
_MKV = ["-f", "matroska"]
_FRAG = ["-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-f", "mp4"]


@pytest.fixture(scope="module")
def joined(tmp_path_factory) -> dict[str, Path]:
    """2 s (60 frames, 320x240, drawn 0-59) + 8 s (240 frames, drawn 0-239), 30 fps, H.264:
    `bframes` baseline + high with 3 B-frames (MKV); `crf` veryfast CRF 23 + the same at CRF
    35 (MKV); `profile` high + main (fragmented MP4); `honest` two of one encoder (MKV);
    `level` the same encoder at level 4.1 (another SPS byte, the same pictures; fragmented
    MP4). Each with a run of 9.9 s or more."""
    d = tmp_path_factory.mktemp("joined_settings")
    parts = {"base.mkv": [*_X264, "-preset", "veryfast", "-profile:v", "baseline", *_MKV],
             "bf3.mkv": [*_X264, "-preset", "slow", "-profile:v", "high", "-bf", "3", *_MKV],
             "a.mkv": [*_VF, *_MKV], "b.mkv": [*_VF, *_MKV],
             "crf35.mkv": [*_VF, "-crf", "35", *_MKV], "a.mp4": [*_VF, *_FRAG],
             "main.mp4": [*_X264, "-preset", "veryfast", "-profile:v", "main", *_FRAG],
             "lvl41.mp4": [*_VF, "-level", "4.1", *_FRAG]}
    for name, args in parts.items():
        vc.encode(d / name, args, frames=60 if name in ("base.mkv", "a.mkv", "a.mp4") else 240)
    out = {}
    for name, (a, b) in {"bframes": ("base.mkv", "bf3.mkv"), "crf": ("a.mkv", "crf35.mkv"),
                         "profile": ("a.mp4", "main.mp4"),
                         "honest": ("a.mkv", "b.mkv"),
                         "level": ("a.mp4", "lvl41.mp4")}.items():
        out[name] = d / name / f"video{Path(a).suffix}"
        out[name].parent.mkdir()
        out[name].write_bytes((d / a).read_bytes() + (d / b).read_bytes())
        run = make_agent_log(out[name].parent / "agent-log.jsonl", n_events=20, seed=2,
                             min_duration_s=9.9)
        assert 9.9 <= run < 10.0
    return out


def test_a_joined_recording_with_b_frames_after_one_without_is_one_recording(joined):
    """QA s21 seg_mkv_h264_profile_change's timeline: the first header has no reordering;
    the second's B-frame groups were 31 more restarts (on the code before: "32 recordings
    joined", stretches of 0.17-0.7 s each). Played with the first's (baseline) header it
    gave no frame at all (60 frames, 2.001-10.001 s no footage, until session 27); read from
    its own header, each of its 240 pictures is its own."""
    path = joined["bframes"]
    p = probe_video(path, "video.mkv")
    assert p.ok and p.index is not None and len(p.index.segments) == 1
    assert "the timestamps restart at 2.001 s: 2 recordings joined" in p.method
    # where the joined recording's header is: after the first's Matroska Segment
    assert matroska_joins(str(path)) == [(path.parent.parent / "base.mkv").stat().st_size]
    assert [f.rule for f in p.findings] == ["video.header_mismatch"]
    assert p.frame_count == 300 and vc.ffprobe_frames(path) == 60
    frames = [frame_for_time(p.index, t, None) for t in (1.0, 2.05, 5.0, 9.9)]
    assert frames == [30, 61, 149, 296]
    assert [vc.read_code(img) for img in read_frames(path, p.index, frames)] == [30, 1, 89, 236]
    report = verify_paths([path.parent]).report
    assert report.verdict == "pass"


_SETTINGS = ("its own header (h264 320x240) sets the decoder up otherwise than the first "
             "recording's (h264 320x240), with which the file is played as one stream: ")


def test_a_joined_mkv_at_another_crf_is_read_from_its_own_header(joined):
    """One x264 preset, CRF 23 then CRF 35 (another initial QP in the PPS): played with the
    first's header the second recording's 240 frames all come out garbled (session 22: no
    footage, 2.0-10.0 s, FAIL); read from its own header (session 27), each is the frame
    drawn, and the run passes."""
    path = joined["crf"]
    p = probe_video(path, "video.mkv")
    assert p.ok and p.frame_count == vc.ffprobe_frames(path) == 300
    assert [f.rule for f in p.findings] == ["video.header_mismatch"]
    assert p.gaps == ()
    frames = [frame_for_time(p.index, t, None) for t in (1.0, 2.05, 5.0, 9.9)]
    assert frames == [30, 61, 150, 297]
    assert [vc.read_code(img) for img in read_frames(path, p.index, frames)] == [30, 1, 90, 237]
    report = verify_paths([path.parent]).report
    assert report.verdict == "pass"
    assert report.video is not None and report.video.frame_count == 300


def test_a_joined_fragmented_mp4_of_another_profile_is_read_from_its_own_header(joined):
    """High then main profile (CABAC without 8x8 transforms) in fragmented MP4: FFmpeg's
    demuxer gives 240 frames (ffprobe's; the second recording's first fragment lost, the rest
    decoded with the first's header). Since session 28 each recording is read from its own
    header (`joined_chain.mp4_own`): 300 frames, each the picture drawn, PASS."""
    path = joined["profile"]
    p = probe_video(path, "video.mp4")
    assert p.ok and p.frame_count == 300 and vc.ffprobe_frames(path) == 240
    assert [f.rule for f in p.findings] == ["video.header_mismatch"]
    assert p.gaps == ()
    frames = [frame_for_time(p.index, t, None) for t in (1.0, 2.05, 5.0, 9.9)]
    assert frames == [30, 61, 150, 297]
    assert [vc.read_code(img) for img in read_frames(path, p.index, frames)] == [30, 1, 90, 237]
    report = verify_paths([path.parent]).report
    assert report.verdict == "pass"


def test_a_joined_fragmented_mp4_played_with_the_first_header_is_no_footage(joined,
                                                                             monkeypatch):
    """The same file with `mp4_own` answering none (as before session 28): 240 frames
    (ffprobe's), and the joined check refuses the second recording's 180 frames (each of
    the 12 pictures compared is not what its own header gives)."""
    monkeypatch.setattr(joined_chain, "mp4_own", lambda source, joins: [])
    path = joined["profile"]
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
    assert params["own"] == params["shown"] == {"codec": "h264", "width": 320, "height": 240}
    assert params["pictures"] == [12, 12]  # all 12 compared differ


def _check(path: Path, monkeypatch) -> tuple[dict, int]:
    """`check_joined` in this process: what it found, and how many joined recordings' first
    pictures it decoded from their own header (the index read as the probe reads it)."""
    calls = []
    real = child_segments.own_pictures

    def counted(*a, **k):
        calls.append(a)
        return real(*a, **k)

    monkeypatch.setattr(child_segments, "own_pictures", counted)
    with av.open(str(path)) as c:
        st = c.streams.video[0]
        index = build_index(c, 10**6, None, joined_reorder(str(path), st),
                            joined_chain.demux(c, [st], str(path)))
    with av.open(str(path)) as c:
        _, found = child_segments.check_joined(c, index, time.process_time() + 60, str(path))
    return found, len(calls)


def test_identical_headers_cost_no_second_decode(joined, monkeypatch):
    """An honest join of one encoder setting (its header byte for byte the first's): no
    picture decoded twice, nothing found; another level (its header's bytes differ) and the
    CRF 35 join, both read from their own header (`joined_chain.later_starts`, sessions 27
    and 28): their pictures are that header's decode, not decoded again to compare (session
    28, fmp4rate: compared by time they matched none where the recording's clock is not the
    file's), nothing found; played with the first's header (`own_read` answering none):
    decoded, its pictures differ."""
    found, decoded = _check(joined["honest"], monkeypatch)
    assert decoded == 0 and found["stretches"] == []
    found, decoded = _check(joined["level"], monkeypatch)
    assert decoded == 0 and found["stretches"] == []
    found, decoded = _check(joined["crf"], monkeypatch)
    assert decoded == 0 and found["stretches"] == []
    monkeypatch.setattr(joined_chain, "own_read", lambda source, joins: ())
    found, decoded = _check(joined["crf"], monkeypatch)
    assert decoded == 1 and len(found["stretches"]) == 1
    params = found["stretches"][0]["params"]
    assert params["own"] == params["shown"] == {"codec": "h264", "width": 320, "height": 240}
    bad, compared = params["pictures"]
    assert 0 < bad <= compared <= 12


def test_a_joined_recording_of_another_level_is_footage(joined):
    """Header bytes that differ (level 4.1) but set the decoder up alike: the pictures are the
    drawn frames, the run passes. Read from its own header (session 28), the second
    recording's first fragment is footage too: 300 frames (ffprobe's 240: FFmpeg's demuxer
    drops it, a 2-4 s hole that showed the first recording's last picture)."""
    path = joined["level"]
    p = probe_video(path, "video.mp4")
    assert p.ok and p.frame_count == 300 and vc.ffprobe_frames(path) == 240
    assert "video.joined_undecodable" not in {f.rule for f in p.findings}
    frames = [frame_for_time(p.index, t, None) for t in (1.0, 3.0, 5.0, 9.9)]
    assert [vc.read_code(img) for img in read_frames(path, p.index, frames)] == \
        [30, 30, 90, 237]
    assert verify_paths([path.parent]).report.verdict == "pass"


def test_a_joined_recording_decoded_otherwise_is_decoded_to_its_end(tmp_path, monkeypatch):
    """veryfast + slow with 3 B-frames (MKV): the second recording's first 48 frames come out
    whole, so the check stopped decoding it there, and the 52 of its later packets that give
    no frame were counted as frames (288 where ffprobe counts 236). A recording judged to be
    decoded with another's parameters is decoded to its end. Since session 27 it is read
    from its own header (300 frames, each its own picture, no finding); the check is run
    here as it is where it is played with the first's header (`own_read` answering none)."""
    a = vc.encode(tmp_path / "vf.mkv", [*_VF, *_MKV], frames=60)
    b = vc.encode(tmp_path / "slow.mkv", [*_X264, "-preset", "slow", "-bf", "3", *_MKV],
                  frames=240)
    path = tmp_path / "join" / "video.mkv"
    path.parent.mkdir()
    path.write_bytes(a.read_bytes() + b.read_bytes())
    p = probe_video(path, "video.mkv")
    assert p.ok and p.frame_count == 300 and vc.ffprobe_frames(path) == 236
    assert [f.rule for f in p.findings] == ["video.header_mismatch"]
    frames = [frame_for_time(p.index, t, None) for t in (2.05, 5.0, 9.9)]
    assert [vc.read_code(img) for img in read_frames(path, p.index, frames)] == [1, 90, 237]
    monkeypatch.setattr(joined_chain, "own_read", lambda source, joins: ())
    with av.open(str(path)) as c:
        st = c.streams.video[0]
        index = build_index(c, 10**6, None, joined_reorder(str(path), st),
                            joined_chain.demux(c, [st], str(path)))
    with av.open(str(path)) as c:
        kept, found = child_segments.check_joined(c, index, time.process_time() + 60,
                                                  str(path))
    assert kept.frame_count == 236  # was 288
    assert [(s["recording"], s["packets"], s["none"], s["damaged"] + s["wrong"])
            for s in found["stretches"]] == [(2, 240, 64, 176)]
    assert found["stretches"][0]["params"]["pictures"][0] > 0
