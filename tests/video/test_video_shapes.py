"""Frame truth on recordings of shapes the corpus had not tried (issue 12 QA, session 7):
each test encodes a small file with ffmpeg into its tmp_path, every picture carrying its own
source frame number (`video_corpus.draw_frame`), and compares what the workstation exports
with that number and with what ffmpeg itself shows."""

from __future__ import annotations

import random
import shutil

import pytest
import video_corpus as vc

from moderator_app.core.video.export import read_frames
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


def _codes(pictures) -> list[int | None]:
    return [None if img is None else vc.read_code(img) for img in pictures]


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
