"""Container shapes nobody had tried (issue 12, session 8, point 4), checked before any change:
each is a small file made by the real ffmpeg in the test's tmp_path, every picture carrying its
source frame number (`video_corpus.draw_frame`). The frame count is ffprobe's, the probe raises
no warning on these honest files, and 72 moments drawn at random over the footage export the
picture ffmpeg itself shows then (its decode, placed at its best-effort timestamps). All passed
when first run: they guard what works.

Session 21 (QA s20 M6) added Xvid's DivX-style packed B-frames in AVI, which failed (59 of 72
moments one frame late, every frame after the first keyframe group), and its relatives, which
passed: the same stream unpacked (`mpeg4_unpack_bframes`), MPEG-2 with B-frames in MPEG-PS
(VOB), and the packed stream remuxed to Matroska (`test_packed_mpeg4_remuxed_to_matroska`).
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
import video_corpus as vc

from moderator_app.core.rules import Severity

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

FRAMES = 150
X264 = list(vc.X264)


def _encoders() -> str:
    return subprocess.run(["ffmpeg", "-hide_banner", "-encoders"], capture_output=True,
                          text=True).stdout


def _ffmpeg(*args: str) -> None:
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args], check=True)


# libxvid with 2 B-frames: in AVI ffmpeg writes them packed (DivX-style, N-VOP placeholders)
XVID = ["-c:v", "libxvid", "-q:v", "3", "-bf", "2", "-g", "30", "-pix_fmt", "yuv420p"]
NEEDS = {"avi_xvid_packed": "libxvid", "avi_xvid_unpacked": "libxvid"}


def _make(shape: str, d) -> object:
    if shape == "mkv_vfr_nocues":  # a 2 s hole (frames 60-119 dropped), piped: no cues
        src = vc.encode(d / "src.mkv", ["-vf", "select='not(between(n\\,60\\,119))'",
                                        "-fps_mode", "vfr", *X264, "-f", "matroska"],
                        frames=FRAMES)
        out = d / "v.mkv"
        with open(out, "wb") as fh:
            subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", str(src), "-c", "copy",
                            "-f", "matroska", "-"], stdout=fh, check=True)
        return out
    if shape == "mov_edit_list":  # cut mid-GOP with -c copy: an edit list hides the head
        src = vc.encode(d / "src.mov", [*X264, "-f", "mov"], frames=FRAMES)
        _ffmpeg("-ss", "1.37", "-i", str(src), "-c", "copy", str(d / "v.mov"))
        return d / "v.mov"
    if shape == "mp4_delayed":  # the first frame 2.5 s into the file's clock
        src = vc.encode(d / "src.mp4", X264, frames=FRAMES)
        _ffmpeg("-itsoffset", "2.5", "-i", str(src), "-c", "copy", str(d / "v.mp4"))
        return d / "v.mp4"
    args = {
        "avi_mpeg4_bframes": ["-c:v", "mpeg4", "-bf", "2", "-q:v", "3", "-g", "30",
                              "-vtag", "DX50", "-f", "avi"],
        "flv_h264_bframes": [*X264, "-f", "flv"],
        "webm_av1": ["-c:v", "libsvtav1", "-preset", "12", "-g", "60", "-pix_fmt", "yuv420p",
                     "-f", "webm"],
        "webm_vp9_altref": ["-c:v", "libvpx-vp9", "-deadline", "good", "-cpu-used", "5",
                            "-auto-alt-ref", "1", "-lag-in-frames", "16", "-g", "90",
                            "-b:v", "300k", "-f", "webm"],
        "mkv_open_gop": ["-c:v", "libx264", "-preset", "ultrafast", "-x264-params",
                         "open-gop=1:bframes=3:b-pyramid=normal:keyint=45:min-keyint=45",
                         "-pix_fmt", "yuv420p", "-f", "matroska"],
        "avi_xvid_packed": [*XVID, "-f", "avi"],
        "avi_xvid_unpacked": [*XVID, "-bsf:v", "mpeg4_unpack_bframes", "-f", "avi"],
        "vob_mpeg2_bframes": ["-c:v", "mpeg2video", "-q:v", "3", "-bf", "2", "-g", "15",
                              "-f", "vob"],
    }[shape]
    return vc.encode(d / f"v.{args[-1]}", args, frames=FRAMES)


SHAPES = ["mkv_vfr_nocues", "mov_edit_list", "mp4_delayed", "avi_mpeg4_bframes",
          "flv_h264_bframes", "webm_av1", "webm_vp9_altref", "mkv_open_gop",
          "avi_xvid_packed", "avi_xvid_unpacked", "vob_mpeg2_bframes"]


def _needs(shape: str) -> None:
    need = {"webm_av1": "libsvtav1", **NEEDS}.get(shape)
    if need and need not in _encoders():
        pytest.skip(f"this ffmpeg has no {need} encoder")


@pytest.mark.parametrize("shape", SHAPES)
def test_72_moments_are_ffmpegs_pictures(tmp_path, shape):
    _needs(shape)
    path = _make(shape, tmp_path)
    p, codes, _, got, want = vc.pictures_at_moments(path, "v:0", 72, seed=72)
    assert p.frame_count == vc.ffprobe_frames(path) == len(codes)
    assert [f.rule for f in p.findings if f.severity is not Severity.INFO] == []
    assert got == want


def test_a_packed_keyframe_is_read_from_its_packet_without_fallback(tmp_path):
    """Packed Xvid in AVI: the packet of each keyframe after the first also holds the B-frame
    shown before it, and the N-VOP placeholder after it is flagged a keyframe. The frame
    before each keyframe's picture, the picture and the one after are ffmpeg's, each read
    from a fresh position with no fallback (a decode started at the placeholder gave a
    broken first frame, then the fallback numbered the keyframe's picture one too early)."""
    import numpy as np

    from moderator_app.core.video.isolate import VideoProcess
    from moderator_app.core.video.probe import probe_video

    _needs("avi_xvid_packed")
    path = _make("avi_xvid_packed", tmp_path)
    codes, _ = vc.ffmpeg_truth(path)
    idx = probe_video(path, path.name).index
    assert idx is not None and idx.ordinal
    starts = [idx.start_of(int(k)) for k in idx.keyframe_pts]
    # the first keyframe's packet holds only its picture; each later one's is packed
    assert starts[0] == 0 and len(starts) == 5 and [idx.lead(int(k)) for k in
                                                    idx.keyframe_pts] == [0, 1, 1, 1, 1]
    blob = idx.to_bytes()
    for s in starts[1:]:
        for n in (s + 1, s, s - 1):  # backwards: each read seeks afresh
            with VideoProcess(path) as vp:
                msg = vp.request({"op": "frame", "n": n, "keep": True,
                                  "index_len": len(blob)}, blob)
            h = msg.header
            img = np.frombuffer(msg.blobs[0], np.uint8).reshape(h["height"], h["width"], 3)
            assert (n, vc.read_code(img)) == (n, codes[n])
            assert h["fallbacks"] == 0, (n, h)


def test_packed_mpeg4_remuxed_to_matroska(tmp_path):
    """The packed stream stream-copied to Matroska (what a remux tool does; mkvmerge is not
    installed here): every frame is ffmpeg's picture of that place in its decode, at ffmpeg's
    time. Where ffmpeg's best-effort timestamp still takes the packets' reordered pts (before
    its guess turns to the decode times, and the flushed last frame) it stamps two frames
    with one time and shows the first of them for no time at all: those two frames are on
    the stream's frame grid here (checked against their neighbours), not at ffmpeg's time."""
    import numpy as np

    from moderator_app.core.video.export import read_frames
    from moderator_app.core.video.probe import probe_video

    _needs("avi_xvid_packed")
    src = _make("avi_xvid_packed", tmp_path)
    path = tmp_path / "v.mkv"
    _ffmpeg("-fflags", "+genpts", "-i", str(src), "-c", "copy", "-f", "matroska", str(path))
    codes, times = vc.ffmpeg_truth(path)
    p = probe_video(path, path.name)
    idx = p.index
    assert idx is not None and p.frame_count == vc.ffprobe_frames(path) == len(codes)
    assert [f.rule for f in p.findings if f.severity is not Severity.INFO] == []
    tied = [k for k in range(len(times) - 1) if times[k + 1] <= times[k]]
    assert len(tied) == 2  # ffmpeg 5.1's two
    off = [k for k in range(len(times)) if abs(idx.time_of(k) - times[k]) > 1e-6]
    assert set(off) <= {k + d for k in tied for d in (0, 1)}, off
    # the 30 fps grid ffmpeg's other frames are on, in Matroska's 1 ms ticks
    assert np.allclose(np.diff(idx.times_s), 1 / 30, rtol=0, atol=1.01e-3)
    frames = list(range(0, len(codes), 3)) + [k + d for k in tied for d in (0, 1)]
    got = [vc.read_code(img) for img in read_frames(path, idx, frames)]
    assert got == [codes[n] for n in frames]
