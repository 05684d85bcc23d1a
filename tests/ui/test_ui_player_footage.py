"""The player on real recordings (tests/video_corpus.py): no frame from another moment outside
the footage, the exact frame saved as evidence, keyframe previews while dragging, and the
integrity scan in the background."""

from __future__ import annotations

import shutil

import cv2
import pytest
import video_corpus as vc
from ui_helpers import WAIT_MS, qimage_array

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


def code_on_screen(w):
    return vc.read_code(qimage_array(w.view.image))


@pytest.mark.parametrize("t", [30.0, 45.0, -0.5])
def test_no_footage_outside_the_video(qtbot, player, t):
    assert player.load(vc.build(vc.RECIPES["mp4"]), scan=False)
    player.seek_time(12.5)
    qtbot.waitUntil(lambda: player.shown_frame == 375, timeout=WAIT_MS)
    assert code_on_screen(player) == 375
    moments = []
    player.position_changed.connect(lambda f, vt: moments.append(vt))
    player.seek_time(t)
    assert player.shown_frame == -1 and player.view.image is None
    assert player.view.message == f"{NO_FOOTAGE}\nthe video spans 0.000-30.000 s"
    assert not player.in_footage
    assert player.position_label.text().startswith(NO_FOOTAGE)
    assert moments == [t] and player.current_time == t
    with pytest.raises(ValueError, match=NO_FOOTAGE):
        player.save_frame(player.path.with_suffix(".png"))
    # a late answer for the frame shown before must not come back on screen
    qtbot.wait(200)
    assert player.view.image is None
    player.seek_time(29.99)  # the last frame is footage again
    qtbot.waitUntil(lambda: player.shown_frame == 899, timeout=WAIT_MS)
    assert code_on_screen(player) == 899 and player.in_footage


def test_save_frame_writes_the_exact_frame_at_full_size(qtbot, player, tmp_path):
    assert player.load(vc.build(vc.RECIPES["mkv_nocues"]), scan=False)
    player.seek_time(22.2)
    qtbot.waitUntil(lambda: player.shown_frame == 666, timeout=WAIT_MS)
    out = tmp_path / "ev.png"
    assert "frame 666" in player.save_frame(out)
    img = cv2.imread(str(out), cv2.IMREAD_COLOR)
    assert img.shape == (240, 320, 3) and vc.read_code(img) == 666


def test_keyframe_preview_while_dragging_exact_frame_on_release(qtbot, player):
    assert player.load(vc.build(vc.RECIPES["mp4"]), scan=False)
    qtbot.waitUntil(lambda: player.shown_frame == 0, timeout=WAIT_MS)
    player._slider_pressed()
    player.slider.setValue(400)
    player._slider_moved(400)
    qtbot.waitUntil(lambda: player.view.approximate, timeout=WAIT_MS)
    assert code_on_screen(player) == 360  # the keyframe before 400 (a GOP of 60)
    player._slider_released()
    qtbot.waitUntil(lambda: player.shown_frame == 400 and not player.view.approximate,
                    timeout=WAIT_MS)
    assert code_on_screen(player) == 400


def test_timeline_scrub_shows_keyframes_then_the_exact_frame(qtbot, player):
    """Issue 11 point 8: a drag on the timeline (set_scrubbing) moves the position at once and
    shows the keyframe before it (a preview); the exact frame follows on release."""
    assert player.load(vc.build(vc.RECIPES["mp4"]), scan=False)
    qtbot.waitUntil(lambda: player.shown_frame == 0, timeout=WAIT_MS)
    player.set_scrubbing(True)
    for n in (130, 250, 400):
        player.seek_frame(n)
        assert player.current_frame == n  # the playhead follows the drag at once
    qtbot.waitUntil(lambda: player.view.approximate and code_on_screen(player) == 360,
                    timeout=WAIT_MS)  # the keyframe before 400 (a GOP of 60)
    assert player.shown_frame == 0  # no exact frame was decoded during the drag
    player.set_scrubbing(False)
    qtbot.waitUntil(lambda: player.shown_frame == 400 and not player.view.approximate,
                    timeout=WAIT_MS)
    assert code_on_screen(player) == 400


def test_scan_runs_in_the_background_after_load(qtbot, player):
    with qtbot.waitSignal(player.scan_ready, timeout=120000) as sig:
        assert player.load(vc.build(vc.RECIPES["scan"]))
    result = sig.args[0]
    rules = [(s.rule, round(s.start_s)) for s in result.spans]
    assert ("video.frozen", 10) in rules and ("video.black", 20) in rules
    assert player.scan_result is result


def test_a_decoder_crash_is_a_message_not_the_end(qtbot, player, monkeypatch):
    assert player.load(vc.build(vc.RECIPES["mp4"]), scan=False)
    qtbot.waitUntil(lambda: player.shown_frame == 0, timeout=WAIT_MS)
    player._worker.close()  # the next request starts a new decoder process, which crashes
    monkeypatch.setenv("MODERATOR_VIDEO_FAULT", "crash")
    with qtbot.waitSignal(player.decoder_error, timeout=WAIT_MS) as sig:
        player.seek_frame(100)
    assert "crashed (SIGSEGV)" in sig.args[0]
    assert player.view.image is None and "crashed" in player.view.message


def test_frames_come_fitted_to_the_view_and_are_painted_unscaled(qtbot, player):
    """Issue 11 point 8: the decoder scales each frame to fit the view (both sides), so the
    GUI thread paints it 1:1 (a scaled paint costs ~20x more)."""
    assert player.load(vc.build(vc.RECIPES["mp4"]), scan=False)  # 320x240
    player.resize(320, 260)  # the picture gets less than 240 px of height
    qtbot.waitUntil(lambda: player.view.height() < 240, timeout=WAIT_MS)
    player.seek_frame(123)
    qtbot.waitUntil(lambda: player.shown_frame == 123, timeout=WAIT_MS)
    img, view = player.view.image, player.view
    assert img.height() <= view.height() and img.width() <= view.width()
    assert view.height() - img.height() < 2  # fitted to the height, the narrower side
    assert abs(img.width() / img.height() - 4 / 3) < 0.02  # the aspect kept
    assert code_on_screen(player) == 123
