"""Rotation by any angle and mirroring from the display matrix (issue 12, session 8).

Only quarter turns were applied: a recording whose display matrix turns it by 45 degrees or
mirrors it (a front camera, `ffmpeg -display_hflip`, an editor's flip) was shown and exported
as stored. Each test writes the matrix into a small MP4 made by ffmpeg
(`video_corpus.with_display_matrix`) and compares what the workstation exports with what ffmpeg
itself shows. ffmpeg 5.1's autorotation handles angles but no mirror (it turns a left-right
mirror by 180 degrees), so for a mirror the reference is ffmpeg told the same moves by hand.
"""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
import video_corpus as vc

from moderator_app.core.video.export import read_frames
from moderator_app.core.video.isolate import VideoProcess
from moderator_app.core.video.orient import Orientation, apply_moves, orientation
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

FRAMES = [37, 0, 59, 12, 30]


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    return vc.encode(tmp_path_factory.mktemp("orient") / "src.mp4",
                     ["-c:v", "libx264", "-preset", "ultrafast", "-g", "30",
                      "-pix_fmt", "yuv420p"], frames=60)


def _ffmpeg_rgb(path, vf: str | None) -> np.ndarray:
    """Every frame ffmpeg decodes as RGB: autorotated (`vf` None), or not autorotated and moved
    by the filter chain `vf`."""
    head = ["ffmpeg", "-nostdin", "-v", "error"]
    cmd = [*head, "-i", str(path)] if vf is None else \
        [*head, "-noautorotate", "-i", str(path), "-vf", vf]
    raw = subprocess.run([*cmd, "-pix_fmt", "rgb24", "-f", "rawvideo", "-"],
                         capture_output=True, check=True).stdout
    return np.frombuffer(raw, np.uint8)


def _exported(source, tmp_path, matrix):
    path = vc.with_display_matrix(source, tmp_path / "m.mp4", matrix)
    p = probe_video(path, "m.mp4")
    assert p.ok and p.frame_count == 60 and p.index is not None and p.findings == ()
    assert list(p.index.matrix) == matrix
    pictures = read_frames(path, p.index, FRAMES)
    assert all(img is not None for img in pictures)
    return path, p.index, pictures


def _same_as(reference: np.ndarray, pictures) -> None:
    frames = reference.reshape(60, *pictures[0].shape)
    for n, img in zip(FRAMES, pictures, strict=True):
        assert np.array_equal(frames[n], img), f"frame {n}: {np.abs(frames[n] - img).max()}"


@pytest.mark.parametrize("angle", [45, -30, 123])
def test_any_angle_is_shown_as_ffmpeg_autorotates_it(source, tmp_path, angle):
    """FFmpeg's `rotate` by the whole-degree angle, on the decoded picture, size kept: pixel for
    pixel ffmpeg's own autorotated frames (5 frames in a shuffled order)."""
    path, index, pictures = _exported(source, tmp_path, vc.display_matrix(angle))
    assert index.display_size == (vc.W, vc.H) and index.turns == 0
    assert pictures[0].shape == (vc.H, vc.W, 3)
    plain = _ffmpeg_rgb(path, "null").reshape(60, vc.H, vc.W, 3)
    assert not np.array_equal(plain[FRAMES[0]], pictures[0])  # it is turned
    _same_as(_ffmpeg_rgb(path, None), pictures)


# (angle, hflip, vflip) -> the moves ffmpeg is told by hand (what the matrix means: FFmpeg's
# av_display_matrix_flip mirrors after the turn), and how to read the code back
MIRRORS = {
    (0, True, False): ("hflip", lambda img: img[:, ::-1]),
    (0, False, True): ("vflip", lambda img: img[::-1]),
    (90, True, False): ("transpose=clock,hflip", lambda img: np.rot90(img[:, ::-1], 1)),
    (270, False, True): ("transpose=cclock,vflip", lambda img: np.rot90(img[::-1], -1)),
    (180, True, False): ("vflip", lambda img: img[::-1]),
}


@pytest.mark.parametrize("key", sorted(MIRRORS))
def test_a_mirrored_recording_is_shown_mirrored(source, tmp_path, key):
    """A mirror, alone or with a quarter turn: exact pixel moves, equal to ffmpeg's own `hflip`
    / `vflip` / `transpose`, and the exact frame (its code reads back once undone)."""
    vf, undo = MIRRORS[key]
    path, index, pictures = _exported(source, tmp_path, vc.display_matrix(*key))
    turned = "transpose" in vf
    assert index.display_size == ((vc.H, vc.W) if turned else (vc.W, vc.H))
    assert [vc.read_code(undo(img)) for img in pictures] == FRAMES
    _same_as(_ffmpeg_rgb(path, vf), pictures)
    w, h = index.display_size
    with VideoProcess(path) as vp:  # as the player asks: the shown picture fitted in half
        blob = index.to_bytes()
        msg = vp.request({"op": "frame", "n": 5, "width": w // 2, "height": h // 2,
                          "index_len": len(blob)}, blob)
    assert (msg.header["width"], msg.header["height"]) == (w // 2, h // 2)
    img = np.frombuffer(msg.blobs[0], np.uint8).reshape(h // 2, w // 2, 3)
    assert vc.read_code(undo(img)) == 5


def test_a_mirror_at_any_angle_keeps_the_mirror(source, tmp_path):
    """45 degrees and a mirror: ffmpeg's autorotation drops the mirror at such angles; here it is
    the stored picture mirrored, then turned by `rotate` (pixel for pixel ffmpeg's `hflip,rotate`
    chain), which is the matrix's map: within rounding of ffmpeg turning first and mirroring
    after (the other way to write the same map)."""
    path, index, pictures = _exported(source, tmp_path, vc.display_matrix(45, hflip=True))
    assert index.orientation.filters == "hflip,rotate=315.000000*PI/180"
    _same_as(_ffmpeg_rgb(path, "hflip,rotate=315*PI/180"), pictures)
    other = _ffmpeg_rgb(path, "rotate=45*PI/180,hflip").reshape(60, vc.H, vc.W, 3)
    diff = np.abs(other[FRAMES[0]].astype(int) - pictures[0].astype(int))
    assert diff.mean() < 2.0 and np.percentile(diff, 99) <= 40
    autorotated = _ffmpeg_rgb(path, None).reshape(60, vc.H, vc.W, 3)
    assert not np.array_equal(autorotated[FRAMES[0]], pictures[0])  # ffmpeg drops the mirror


def test_orientation_of_the_eight_right_angle_matrices():
    """Every turn and mirror of a rectangle maps a marked picture as the matrix says: the
    shown pixel (x', y') = (a x + c y, b x + d y) about the centre, for FFmpeg's layout."""
    img = np.arange(12).reshape(3, 4)
    for angle in (0, 90, 180, 270):
        for hflip in (False, True):
            m = vc.display_matrix(angle, hflip)
            o = orientation(m)
            assert not o.filters
            shown = apply_moves(img, o)
            a, b, c, d = (np.sign(m[i]) for i in (0, 1, 3, 4))
            h, w = img.shape
            for y in range(h):
                for x in range(w):
                    cx, cy = 2 * x - (w - 1), 2 * y - (h - 1)  # doubled, about the centre
                    sx, sy = a * cx + c * cy, b * cx + d * cy
                    hh, ww = shown.shape
                    assert shown[(sy + hh - 1) // 2, (sx + ww - 1) // 2] == img[y, x]
    assert orientation(None) == orientation([0] * 9) == Orientation()
    assert orientation([1, 2, 3]) == Orientation()
