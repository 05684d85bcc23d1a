"""The scan's per-frame signals on packed B-frames (issue 13, session 21, QA s20 M1;
core/video/scan.py `frame_order`).

libxvid with B-frames in AVI packs a P and a B picture in one packet (DivX style): the decoder
gives its frames in display order, each carrying a packet's pts, permuted in threes (5 6 8 7 9
11 10 ...). The scan computes each frame's change against the frame the decoder gave before
it, then sorted the rows by those pts: two of every three change values stood one frame from
their pictures (QA s20's frogger-genuine2@r40xvidavi: a false `sync.drift` of -4.55 %).
H.264 with B-frames in AVI (no pts in the container) does the same up to its reorder depth.
"""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
import video_corpus as vc

from moderator_app.core.video.scan import frame_order, run_scan

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


def _has_xvid() -> bool:
    out = subprocess.run(["ffmpeg", "-hide_banner", "-encoders"], capture_output=True,
                         text=True).stdout
    return "libxvid" in out


EVENTS = (17, 40, 62, 85, 101, 130)  # source frames where a white band turns on or off


class _Flashes:
    """The corpus' moving picture (`video_corpus.draw_frame`) with a white band across it
    that turns on or off at EVENTS: the picture changes far more there than anywhere else."""

    frames = 160

    def picture(self, n: int) -> np.ndarray:
        img = vc.draw_frame(n)
        if sum(e <= n for e in EVENTS) % 2:
            img[60:140] = 255
        return img


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(tmp_path / "cache"))


SHAPES = {
    # libxvid, 2 B-frames, packed in AVI: on main 4 of 6 one frame early (16, 39, 62, 84, 101, 129)
    "xvid_avi_40": ("40", ["-c:v", "libxvid", "-q:v", "3", "-bf", "2", "-g", "80",
                           "-pix_fmt", "yuv420p", "-f", "avi"]),
    # libx264, 3 B-frames (B-pyramid) in AVI: pts up to 3 slots off; with 2 allowed: 3 of 6 off
    "h264_avi_30_bf3": ("30", ["-c:v", "libx264", "-bf", "3", "-g", "60", "-pix_fmt", "yuv420p",
                               "-f", "avi"]),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_b_frame_change_in_avi_is_on_its_own_frame(tmp_path, shape):
    """The band's changes on exactly its frames, at frame / fps s."""
    fps, args = SHAPES[shape]
    if "libxvid" in args and not _has_xvid():
        pytest.skip("needs ffmpeg with libxvid")
    out = tmp_path / f"{shape}.avi"
    vc._ffmpeg(["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{vc.W}x{vc.H}", "-r", fps,
                "-i", "-", *args, str(out)], _Flashes())
    sig = run_scan(out).signals
    changed = np.nan_to_num(np.asarray(sig.changed, float))
    big = np.nonzero(changed > 0.2)[0]
    assert [(int(i), round(float(sig.times_s[i]), 3)) for i in big] == \
        [(e, round(e / int(fps), 3)) for e in EVENTS]


def test_pts_swapped_among_neighbours_keep_the_decoders_order():
    order, pts = frame_order(np.array([5, 6, 8, 7, 9, 11, 10, 12], np.int64))
    assert order.tolist() == list(range(8))
    assert pts.tolist() == [5, 6, 7, 8, 9, 10, 11, 12]


def test_a_larger_reordering_is_sorted_as_before():
    """A file written twice end to end (pts 0-39, then 0-39 again: frames 40 places off):
    sorted, as before."""
    raw = np.r_[np.arange(40), np.arange(40)].astype(np.int64)
    order, pts = frame_order(raw)
    assert order.tolist() == np.argsort(raw, kind="stable").tolist()
    assert pts.tolist() == sorted(raw.tolist())
    ordered = np.arange(5, dtype=np.int64)
    assert frame_order(ordered)[0].tolist() == list(range(5))
    assert frame_order(np.zeros(0, np.int64))[0].tolist() == []
