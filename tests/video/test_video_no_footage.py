"""A span the product declares without footage is no footage everywhere (issues 11 #2, 12 #2,
15; QA s22 "O"): `moderator-app frame` exits 1 with the finding's rule and text there, and
writes the right frame just before it.

- A joined recording of another picture size (`video.joined_undecodable`): its frames are the
  other stream decoded with the first's parameters, a smear; `frame` wrote one, exit 0.
- A hole of more than 5 s between frames (`video.footage_gap`): coverage counts it missing
  from the frame's end, but the picture held the frame before it for 5 s.
Files are built here by ffmpeg with the frame number drawn in each picture."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import pytest
import video_corpus as vc
from video_corpus import GAP_7S_WHY as GAP
from video_corpus import JOINED_SIZES_WHY as JOINED
from video_corpus import build_gap_7s, build_joined_sizes

from moderator_app.core.video.export import frame_for_time, no_footage_reason
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("no_footage")
    return {"joined": build_joined_sizes(d), "gap": build_gap_7s(d)}


def cli(*args):
    return subprocess.run([sys.executable, "-m", "moderator_app", *map(str, args)],
                          capture_output=True, text=True)


def test_the_probe_names_each_span_without_footage_and_why(files):
    p = probe_video(files["joined"], "joined.mkv")
    assert [(s.start_s, s.rule) for s in p.no_footage] == [(2.0, "video.joined_undecodable")]
    assert p.index is not None
    assert frame_for_time(p.index, 1.99, no_footage=p.no_footage) == 59
    for t in (2.0, 3.5, 4.99):
        assert frame_for_time(p.index, t, no_footage=p.no_footage) is None, t
        assert no_footage_reason(p.index, t, no_footage=p.no_footage) == JOINED
    assert no_footage_reason(p.index, 1.99, no_footage=p.no_footage) is None
    assert no_footage_reason(p.index, 6.0, no_footage=p.no_footage) == \
        "the video spans 0.000-5.000 s"
    g = probe_video(files["gap"], "gap.mp4")
    assert g.index is not None and g.gaps == ((2.0, 9.0),)
    assert frame_for_time(g.index, 1.99, no_footage=g.no_footage) == 59
    assert frame_for_time(g.index, 3.0, no_footage=g.no_footage) is None  # held 59 before
    assert no_footage_reason(g.index, 3.0, no_footage=g.no_footage) == GAP
    assert frame_for_time(g.index, 9.0, no_footage=g.no_footage) == 60


@pytest.mark.parametrize("t", ["2.0", "3.5", "4.9"])
def test_frame_in_a_joined_recording_decoded_with_another_header_exits_1(files, tmp_path, t):
    """QA s22 "O": a smeared picture was written, exit 0."""
    out = tmp_path / "f.png"
    r = cli("frame", files["joined"], "--time", t, "-o", out)
    assert r.returncode == 1, r.stdout
    assert r.stderr.strip() == f"moderator-app frame: no footage at video time " \
        f"{float(t):.3f} s ({JOINED})"
    assert not out.exists()


def test_frame_just_before_the_joined_recording_is_the_right_picture(files, tmp_path):
    out = tmp_path / "f.png"
    r = cli("frame", files["joined"], "--time", "1.99", "-o", out)
    assert r.returncode == 0, r.stderr
    assert vc.read_code(cv2.imread(str(out), cv2.IMREAD_COLOR)) == 59
    assert "frame 59 (video time 1.967 s, 320x240)" in r.stdout


def test_frame_in_a_footage_gap_exits_1_and_after_it_is_footage(files, tmp_path):
    out = tmp_path / "f.png"
    r = cli("frame", files["gap"], "--time", "3", "-o", out)
    assert r.returncode == 1 and not out.exists()
    assert r.stderr.strip() == f"moderator-app frame: no footage at video time 3.000 s ({GAP})"
    r = cli("frame", files["gap"], "--time", "9.0", "-o", out)
    assert r.returncode == 0, r.stderr
    assert vc.read_code(cv2.imread(str(out), cv2.IMREAD_COLOR)) == 270
