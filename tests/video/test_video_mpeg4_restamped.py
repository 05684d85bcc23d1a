"""MPEG-4 Part 2 B-frames outside AVI (issue 12, session 22, QA s21 N1 and N2).

N1: libxvid written by ffmpeg straight to Matroska, MP4, MOV or NUT stamps each packet with
the time of the source frame fed when it came out (I 0, P 3, B 4, B 5, P 6 ... for the
pictures I 0, B 1, B 2, P 3): by those pts the pictures were out of order, Matroska's guessed
decode times read as hundreds of joined recordings, and every moment showed the wrong picture
(`packed.restamped`, `joined_timeline.Timeline._later`). N2: the packed stream of an AVI copied to MP4
keeps the AVI's holes (the encoder's delay) in its timestamps, and was read 2 frames early
(`packed.packed_times`). The truth here is the frame number drawn in each picture at encode
time (frame n at n / fps), which is also the same stream's reading in AVI: ffmpeg's own
best-effort times on these files are not (3 frames off in MP4, not even rising in Matroska).
"""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest
import video_corpus as vc

from moderator_app.core.rules import Severity
from moderator_app.core.video.export import frame_for_time, read_frames
from moderator_app.core.video.joined_timeline import Timeline
from moderator_app.core.video.packed import B_VOP, restamped
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

FRAMES = 150


def _needs_xvid() -> None:
    out = subprocess.run(["ffmpeg", "-hide_banner", "-encoders"], capture_output=True,
                         text=True).stdout
    if "libxvid" not in out:
        pytest.skip("this ffmpeg has no libxvid encoder")


def _xvid(bf: int, g: int) -> list[str]:
    return ["-c:v", "libxvid", "-q:v", "3", "-bf", str(bf), "-g", str(g), "-pix_fmt", "yuv420p"]


def _pictures_at(path, fps: int, seed: int, count: int = 40, last: int = FRAMES - 3):
    """The probe of `path`, and at `count` moments drawn with `seed` before frame `last` the
    drawn numbers of the pictures the product shows (read in the drawn order: every read
    seeks afresh or goes on) and the numbers encoded for those moments."""
    p = probe_video(path, path.name)
    assert p.ok and p.index is not None
    rng = random.Random(seed)
    moments = [rng.uniform(0, last / fps) for _ in range(count)]
    frames = [frame_for_time(p.index, t, None) for t in moments]
    assert None not in frames
    got = [vc.read_code(img) for img in read_frames(path, p.index, frames)]
    want = [int(t * fps + 1e-6) for t in moments]
    return p, got, want


@pytest.mark.parametrize("fmt", ["matroska", "mp4", "mov", "nut"])
def test_libxvid_straight_to_a_container_shows_the_encoded_pictures(tmp_path, fmt):
    """On main: Matroska read "recordings joined" (a header mismatch) and MP4/MOV/NUT showed
    pictures 1-4 frames off at 48 of 48 moments."""
    _needs_xvid()
    path = vc.encode(tmp_path / f"v.{ {'matroska': 'mkv'}.get(fmt, fmt)}",
                     [*_xvid(2, 50), "-f", fmt], frames=FRAMES, fps="25")
    p, got, want = _pictures_at(path, 25, seed=22)
    assert p.frame_count == vc.ffprobe_frames(path) == 148
    assert [f.rule for f in p.findings if f.severity is not Severity.INFO] == []
    assert p.index.segments == () and p.index.ordinal
    assert got == want


def test_libxvid_three_b_frames_in_matroska(tmp_path):
    """`-bf 3` at 40 fps: libxvid holds a third B-frame now and then, and the packets' times
    skip a frame there; every picture still at its encoded moment (on main: 48 of 48 off).
    The decoder never gives 3 of the last 4 pictures (ffmpeg neither): moments before them."""
    _needs_xvid()
    path = vc.encode(tmp_path / "v.mkv", [*_xvid(3, 50), "-f", "matroska"], frames=FRAMES,
                     fps="40")
    p, got, want = _pictures_at(path, 40, seed=3, last=FRAMES - 5)
    assert p.frame_count == vc.ffprobe_frames(path)
    assert [f.rule for f in p.findings if f.severity is not Severity.INFO] == []
    assert got == want


@pytest.mark.parametrize(("fmt", "bf", "g"), [("mp4", 1, 50), ("mov", 1, 50), ("mp4", 2, 12)])
def test_packed_avi_copied_shows_what_the_avi_shows(tmp_path, fmt, bf, g):
    """QA s21 N2's class: `ffmpeg -i packed.avi -c copy out.mp4`. On main every moment after
    the first frame showed the picture 2 frames after the AVI's (and the encoded one); with
    2 B-frames every read from a keyframe one more (`packed.later_leads`), and the last
    frame "did not decode" (147 of ffprobe's 148, a false `video.tail_undecodable`)."""
    _needs_xvid()
    avi = vc.encode(tmp_path / "v.avi", [*_xvid(bf, g), "-f", "avi"], frames=FRAMES, fps="25")
    out = tmp_path / f"v.{fmt}"
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", str(avi), "-c", "copy",
                    str(out)], check=True)
    pa, in_avi, want = _pictures_at(avi, 25, seed=2)
    p, got, _ = _pictures_at(out, 25, seed=2)
    assert p.frame_count == pa.frame_count == vc.ffprobe_frames(out) == FRAMES - bf
    assert [f.rule for f in p.findings if f.severity is not Severity.INFO] == []
    assert got == in_avi
    if g == 50:
        assert in_avi == want
    else:  # -g 12: a picture the decoder never gives (ffmpeg neither) is shown as the one before
        assert sum(a != b for a, b in zip(in_avi, want, strict=True)) == 1


def test_ffmpegs_own_mpeg4_encoder_is_left_as_stamped(tmp_path):
    """ffmpeg's `mpeg4` encoder stamps its B-frames honestly: its index is the container's
    timestamps, not an ordinal reading."""
    path = vc.encode(tmp_path / "v.mkv", ["-c:v", "mpeg4", "-q:v", "3", "-bf", "2", "-g", "50",
                                          "-f", "matroska"], frames=FRAMES, fps="25")
    p, got, want = _pictures_at(path, 25, seed=5)
    assert not p.index.ordinal
    assert got == want


def test_restamped_reads_display_order_and_rate():
    # I 0, P 3, B 4, B 5, P 6, B 7, B 8, P 9 (ticks of 10): libxvid straight to Matroska
    pts = [0, 30, 40, 50, 60, 70, 80, 90]
    types = [0, 1, B_VOP, B_VOP, 1, B_VOP, B_VOP, 1]
    order, stamps, step = restamped(pts, types)
    assert order == [0, 2, 3, 1, 5, 6, 4, 7]
    assert stamps == [0, 10, 20, 30, 40, 50, 60, 90]
    assert step == 10.0
    # the same pictures stamped honestly (display times on each packet): nothing to change
    assert restamped([0, 30, 10, 20, 60, 40, 50, 90], types) is None
    # no B-frames, or a packet with no picture header: not this reading's
    assert restamped([0, 10, 20], [0, 1, 1]) is None
    assert restamped(pts, [0, 1, B_VOP, B_VOP, 1, 255, B_VOP, 1]) is None


def test_a_guessed_decode_time_going_back_to_a_later_picture_is_no_restart():
    """N1's Matroska packets (pts, FFmpeg's guessed dts): the P-frame's dts goes back."""
    packets = [(25, -15), (145, 25), (185, 185), (225, 225), (265, 145), (305, 305)]
    tl = Timeline(guessed_dts=True)
    for pts, dts in packets:
        assert tl.shift(pts, dts) == 0
    assert tl.offsets == [0] and tl.splices == []
    # a recording joined after it restarts its presentation times too: still a restart
    tl.shift(0, 0)
    assert len(tl.offsets) == 2 and len(tl.splices) == 1
    # a container's own decode times going back: a restart however little (as before)
    own = Timeline()
    for pts, dts in packets:
        own.shift(pts, dts)
    assert len(own.splices) == 1


@pytest.mark.parametrize("shape", ["direct_mkv", "avi_copy_mp4"])
def test_the_scan_times_frames_as_the_index(tmp_path, monkeypatch, shape):
    """The scan (whose per-frame signals the sync reads) puts each frame at the index's time
    and finds no timestamp going back: on main it sorted the frames' own pts (every frame 2
    later than the index's picture) and, in Matroska, found 20 `video.timestamp_backwards`."""
    import numpy as np

    from moderator_app.core.video.scan import run_scan

    _needs_xvid()
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(tmp_path / "cache"))
    if shape == "direct_mkv":
        path = vc.encode(tmp_path / "v.mkv", [*_xvid(2, 50), "-f", "matroska"], frames=FRAMES,
                         fps="25")
    else:
        avi = vc.encode(tmp_path / "v.avi", [*_xvid(1, 50), "-f", "avi"], frames=FRAMES,
                        fps="25")
        path = tmp_path / "v.mp4"
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", str(avi), "-c", "copy",
                        str(path)], check=True)
    idx = probe_video(path, path.name).index
    scan = run_scan(path)
    assert scan.signals.frame_count == idx.frame_count
    assert np.allclose(scan.signals.times_s, idx.times_s, rtol=0, atol=1e-6)
    assert np.allclose(idx.times_s, np.arange(idx.frame_count) / 25, rtol=0, atol=1e-6)
    assert [s.rule for s in scan.spans if s.rule != "video.cut"] == []
