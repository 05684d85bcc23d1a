"""The player in a span the probe declares without footage (QA s22 "O", issue 11 #2): a
joined recording decoded with another's header and a footage gap show no frame, say "no footage
at this time" with the finding's reason on the picture, refuse Save frame with it, and show the
right frame just before. Reached by time (seek_time, as a finding's jump) and frame by frame
(the frames of the joined recording are in the index: a step or the slider lands on them)."""

from __future__ import annotations

import shutil

import pytest
import video_corpus as vc
from ui_helpers import WAIT_MS, qimage_array
from video_corpus import GAP_7S_WHY as GAP
from video_corpus import JOINED_SIZES_WHY as JOINED
from video_corpus import build_gap_7s, build_joined_sizes

from moderator_app.ui.video_player import NO_FOOTAGE, VideoPlayer

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


@pytest.fixture
def player(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(tmp_path / "cache"))
    w = VideoPlayer()
    qtbot.addWidget(w)
    w.resize(640, 480)
    w.show()
    yield w
    w.unload()


def in_no_footage(w, why: str) -> None:
    assert not w.in_footage and w.shown_frame == -1 and w.view.image is None
    assert w.view.message == f"{NO_FOOTAGE}\n{why}" and w.no_footage_why == why
    assert w.position_label.text().startswith(NO_FOOTAGE)
    assert w.position_label.toolTip() == why


def test_a_joined_recording_decoded_with_another_header_is_no_footage(qtbot, player, tmp_path):
    assert player.load(build_joined_sizes(tmp_path), scan=False)
    player.seek_time(1.99)
    qtbot.waitUntil(lambda: player.shown_frame == 59, timeout=WAIT_MS)
    assert vc.read_code(qimage_array(player.view.image)) == 59 and player.in_footage
    player.seek_time(3.5)
    in_no_footage(player, JOINED)
    with pytest.raises(ValueError, match="video.joined_undecodable: recording 2"):
        player.save_frame(tmp_path / "f.png")
    assert not (tmp_path / "f.png").exists()
    qtbot.wait(200)  # a late answer for frame 59 must not come back on screen
    assert player.view.image is None
    # frame by frame: from 59 one step on is frame 60, the joined recording's first
    player.seek_time(1.99)
    qtbot.waitUntil(lambda: player.shown_frame == 59, timeout=WAIT_MS)
    player.step(1)
    assert player.current_frame == 60
    in_no_footage(player, JOINED)
    player.step(1)
    assert player.current_frame == 61 and not player.in_footage  # steps on, not stuck
    player.step(-2)
    qtbot.waitUntil(lambda: player.shown_frame == 59, timeout=WAIT_MS)
    assert player.in_footage and player.no_footage_why == ""
    player.slider.setValue(120)  # the slider, as a click on it
    assert player.current_frame == 120
    in_no_footage(player, JOINED)


def test_a_footage_gap_is_no_footage_from_the_last_frames_end(qtbot, player, tmp_path):
    """The frame before a 7 s hole was held for 5 s (frame_at's max_hold); coverage counts
    the hole missing from the frame's end: no footage from 2.000 s, as `frame` says."""
    assert player.load(build_gap_7s(tmp_path), scan=False)
    player.seek_time(3.0)
    in_no_footage(player, GAP)
    player.seek_time(9.0)
    qtbot.waitUntil(lambda: player.shown_frame == 60, timeout=WAIT_MS)
    assert vc.read_code(qimage_array(player.view.image)) == 270 and player.in_footage
