"""The video player widget: exact frames on screen, stepping, scrubbing, playback."""

from __future__ import annotations

import pytest
from ui_helpers import WAIT_MS, frame_number, make_numbered_video, qimage_array

from moderator_app.ui.video_player import VideoPlayer


@pytest.fixture
def player(qtbot, tmp_path):
    p = make_numbered_video(tmp_path / "n.avi", 60, 10.0)
    w = VideoPlayer()
    qtbot.addWidget(w)
    w.resize(640, 400)
    w.show()
    assert w.load(p)
    assert w.wait_for_timestamps(WAIT_MS)
    qtbot.waitUntil(lambda: w.shown_frame == 0 and w.times.complete, timeout=WAIT_MS)
    yield w
    w.unload()


def shown(w: VideoPlayer) -> int:
    return frame_number(qimage_array(w.view.image))


def test_seek_shows_that_exact_frame(qtbot, player):
    for n in (37, 3, 59, 20):
        player.seek_frame(n)
        qtbot.waitUntil(lambda n=n: player.shown_frame == n, timeout=WAIT_MS)
        assert shown(player) == n
        assert player.current_time == pytest.approx(n / 10, abs=1e-3)
        assert f"frame {n} / 59" in player.position_label.text()


def test_step_moves_exactly_one_frame_duration(qtbot, player):
    player.seek_frame(10)
    qtbot.waitUntil(lambda: player.shown_frame == 10, timeout=WAIT_MS)
    positions = []
    player.position_changed.connect(lambda f, t: positions.append((f, t)))
    player.step(1)
    player.step(1)
    player.step(-1)
    assert [f for f, _ in positions] == [11, 12, 11]
    assert positions[0][1] - 1.0 == pytest.approx(player.times.frame_duration_at(10), abs=1e-9)
    qtbot.waitUntil(lambda: player.shown_frame == 11, timeout=WAIT_MS)
    assert shown(player) == 11


def test_step_n_and_skip_seconds(qtbot, player):
    player.step_n.setValue(7)
    player.step_n_frames(1)
    assert player.current_frame == 7
    player.skip_seconds(2.0)
    assert player.current_frame == 27
    player.skip_seconds(-5.0)
    assert player.current_frame == 0
    player.seek_time(99)
    assert player.current_frame == 59  # clamped to the last frame


def test_scrub_shows_a_preview_then_the_exact_frame(qtbot, player):
    player._slider_pressed()
    player.slider.setSliderPosition(30)
    player._slider_moved(30)
    qtbot.waitUntil(lambda: player.view.approximate, timeout=WAIT_MS)
    assert shown(player) == 30  # the thumbnail at 3.0 s
    player.slider.setValue(31)
    player._slider_released()
    qtbot.waitUntil(lambda: player.shown_frame == 31 and not player.view.approximate,
                    timeout=WAIT_MS)
    assert shown(player) == 31


def test_play_advances_and_pause_stops(qtbot, player):
    player.set_speed(4.0)
    player.play()
    qtbot.waitUntil(lambda: player.current_frame >= 10, timeout=WAIT_MS)
    player.pause()
    frame = player.current_frame
    qtbot.wait(200)
    assert player.current_frame == frame
    assert not player.playing


def test_jkl(qtbot, player):
    player.faster()
    assert player.playing and player.speed == 1.0
    player.faster()
    assert player.speed == 1.5
    player.slower()
    assert player.speed == 1.0
    player.pause()
    player.seek_frame(30)
    player.slower()  # paused: back one second
    assert player.current_frame == 20


def test_unopenable_video_is_reported_not_raised(qtbot, tmp_path):
    bad = tmp_path / "bad.mp4"
    bad.write_bytes(b"\x00" * 100)
    w = VideoPlayer()
    qtbot.addWidget(w)
    assert w.load(bad) is False
    assert not w.has_video


def test_a_warmed_frame_is_shown_without_a_decode(qtbot, player):
    """Frames the moderator may go to next are decoded while the player is idle; going there
    then decodes nothing (issue 11 point 8)."""
    player.prefetch_times([3.7, 0.0])  # 0.0 is the frame on screen: nothing to warm
    qtbot.waitUntil(lambda: player._worker.warmed == [37], timeout=WAIT_MS)
    player.seek_frame(37)
    qtbot.waitUntil(lambda: player.shown_frame == 37, timeout=WAIT_MS)
    assert shown(player) == 37
    assert player._worker.last_decoded == 0
    player.seek_frame(45)  # not warmed: decoded
    qtbot.waitUntil(lambda: player.shown_frame == 45, timeout=WAIT_MS)
    assert shown(player) == 45 and player._worker.last_decoded >= 1


def test_while_playing_the_next_frame_is_read_while_this_one_is_shown(qtbot, player):
    """Playback pipelines its round trips (issue 11 point 8): once a frame is served, the
    frame the clock asks for next is read at once, and the request for it is answered
    from that read, the exact frame. Any other request reads as before."""
    worker = player._worker
    reads: list[int] = []
    request = worker.proc.request

    def counting(req, *args, **kwargs):
        if req.get("op") == "frame":
            reads.append(int(req["n"]))
        return request(req, *args, **kwargs)

    worker.proc.request = counting
    worker.playing = True
    player.seek_frame(20)
    qtbot.waitUntil(lambda: reads == [20, 21], timeout=WAIT_MS)
    player.seek_frame(21)
    qtbot.waitUntil(lambda: player.shown_frame == 21, timeout=WAIT_MS)
    assert shown(player) == 21
    qtbot.waitUntil(lambda: reads == [20, 21, 22], timeout=WAIT_MS)  # 21 was not read again
    player.seek_frame(30)
    qtbot.waitUntil(lambda: player.shown_frame == 30, timeout=WAIT_MS)
    assert shown(player) == 30
    assert reads[:4] == [20, 21, 22, 30]
    worker.playing = False
