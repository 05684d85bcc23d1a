"""Every span without footage looks the same on the timeline all the time, and sounds like
nothing (session 23, issues 11 point 3 and 12 point 3).

- Before, the lanes showed nothing where the player says "no footage at this time"; a footage
  gap's or a joined recording's stretch was shaded only while its finding was selected (the
  coverage bar painted both red). Now the probe's spans (`VideoProbe.no_footage`) are hatched
  across the timeline's lanes whatever is selected, at the sync offset.
- The player played the file's sound inside a footage gap. Now its sink is fed silence there.
On a real ffmpeg-made file: no frame from 2.0 to 8.0 s (a 440 Hz tone goes on through it) and
a joined recording that does not decode from 10.0 to 13.0 s."""

from __future__ import annotations

import math
import shutil

import numpy as np
import pytest
from test_ui_main_window import open_and_wait
from ui_helpers import WAIT_MS, wait_idle, window_1280x720
from video_corpus import build_black_in_join, build_gap_and_join, build_gap_tone

from moderator_app.core.samples.community import make_agent_log

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(tmp_path / "cache"))
    yield from window_1280x720(qtbot, tmp_path)


def lane_pixel(timeline, lane: str, t: float):
    """The timeline's colour in the middle of lane `lane` at run time `t` (as painted)."""
    img = timeline.grab().toImage()
    i = timeline.lane_names.index(lane)
    y = int(timeline.lane_top(i) + timeline.lane_height() / 2)
    return img.pixelColor(int(timeline.x_of(t)), y).getRgb()


def test_every_span_without_footage_is_hatched_whatever_is_selected(qtbot, window, tmp_path):
    sub = tmp_path / "run"
    sub.mkdir()
    make_agent_log(sub / "agent-log.jsonl", n_events=40, seed=3)
    build_gap_and_join(tmp_path).rename(sub / "video.mkv")
    open_and_wait(qtbot, window, sub)
    tl, panel = window.timeline, window.findings
    assert [(s.rule, s.start_s, s.end_s) for s in tl.no_footage] == [
        ("video.footage_gap", 2.0, 8.0), ("video.joined_undecodable", 10.0, 13.0)]
    assert tl.span is None
    assert tl.no_footage_bands() == [(2.0, 8.0), (10.0, 13.0)]
    # painted: inside a span the lane is hatched, between them it is the lane's background
    # (run_end's lane holds one event, at the run's end)
    tl.set_view(0.0, 16.0)
    plain = lane_pixel(tl, "run_end", 9.0)
    assert lane_pixel(tl, "run_end", 5.0) != plain
    assert lane_pixel(tl, "run_end", 11.5) != plain
    # selecting one finding or another changes the selection's shade, never the bands
    for rule in ("video.footage_gap", "video.joined_undecodable", "video.header_mismatch"):
        window.nav.select_finding(next(i for i, f in enumerate(panel.findings)
                                       if f.rule == rule))
        assert tl.span is not None
        assert tl.no_footage_bands() == [(2.0, 8.0), (10.0, 13.0)]
    # at another offset the bands move with the video
    window.sync.spin.setValue(1.5)
    qtbot.waitUntil(lambda: window.session.offset_s == 1.5, timeout=WAIT_MS)
    wait_idle(qtbot, window)
    assert tl.no_footage_bands() == [(0.5, 6.5), (8.5, 11.5)]


class RecordingSink:
    """A sound device that keeps what it is given, with the video time each write ends at
    (the feeder's position after it: `feeder.written_to` + one chunk)."""

    name = "test"

    def __init__(self) -> None:
        self.feeder = None
        self.writes: list[tuple[float, bytes]] = []

    def prepare(self) -> None:
        pass

    def write(self, pcm: bytes) -> None:
        assert self.feeder is not None
        self.writes.append((self.feeder.written_to + self.feeder.chunk_s, pcm))

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass


def test_the_player_plays_no_sound_in_a_footage_gap(qtbot, tmp_path, monkeypatch):
    from moderator_app.core.video import audio
    from moderator_app.ui.video_player import VideoPlayer

    monkeypatch.setenv("MODERATOR_APP_CACHE", str(tmp_path / "cache"))
    sink = RecordingSink()
    monkeypatch.setattr(audio, "default_sink", lambda: sink)
    player = VideoPlayer()
    qtbot.addWidget(player)
    player.resize(640, 480)
    player.show()
    try:
        assert player.load(build_gap_tone(tmp_path), scan=False)
        assert player.audio is not None and player.audio.sink is sink
        sink.feeder = player.audio
        assert player.audio.silent == ((-math.inf, 0.0), (2.0, 8.0), (10.0, math.inf))
        player.seek_time(0.5)
        qtbot.waitUntil(lambda: player.shown_frame == 5, timeout=WAIT_MS)
        player.play()
        qtbot.waitUntil(lambda: player.playing and player.clock() >= 2.7, timeout=WAIT_MS)
        assert not player.in_footage  # the picture: no footage
        player.pause()
    finally:
        player.unload()
    # each write's samples on the video's clock, back from where it ends
    tone, gap = [], []
    for end, pcm in sink.writes:
        a = np.frombuffer(pcm, np.int16).reshape(-1, 2)
        t = end - (a.shape[0] - np.arange(a.shape[0])) / audio.RATE
        tone.append(a[t < 2.0 - 1e-4])
        gap.append(a[t >= 2.0 + 1e-4])
    heard, silent = np.concatenate(tone), np.concatenate(gap)
    assert heard.shape[0] and int(np.abs(heard).max()) == 2896  # the tone up to the gap
    assert silent.shape[0] >= int(0.5 * audio.RATE)  # fed on through the gap ...
    assert not silent.any()  # ... with silence


def test_the_bands_are_at_most_one_a_pixel_column_whatever_their_number():
    """A hostile video may hold tens of thousands of gaps, and the lanes under the timeline
    paint the bands on every playhead move: those less than a pixel apart are one."""
    from moderator_app.ui.no_footage_band import band_pixels

    starts = np.array([2.0, 10.0, 11.0])
    ends = np.array([8.0, 13.0, 12.0])  # overlapping spans (a gap in a joined stretch)
    # 0-20 s over 200 px from x = 120: 10 px a second
    assert band_pixels(starts, ends, 0.0, 20.0, 120, 200) == [(140.0, 200.0), (220.0, 250.0)]
    assert band_pixels(starts, ends, 9.0, 20.0, 0, 110) == [(10.0, 40.0)]  # only in view
    assert band_pixels(starts, ends, 14.0, 20.0, 0, 60) == []
    many = np.arange(30_000) * 6.0  # 30,000 gaps of 5 s, 1 s of footage between them
    bands = band_pixels(many, many + 5.0, 0.0, 180_000.0, 120, 800)
    # 1 s of footage between them is 0.004 px: one band, to the last gap's end (179,999 s)
    assert bands == [(120.0, pytest.approx(120 + 179_999 / 180_000 * 800))]
    near = band_pixels(many, many + 5.0, 0.0, 60.0, 0, 600)  # 10 px a second: all apart
    assert near[:2] == [(0.0, 50.0), (60.0, 110.0)] and len(near) == 10


def test_the_scan_lists_no_picture_finding_inside_a_span_without_footage(qtbot, window,
                                                                          tmp_path):
    """The window's scan findings are the CLI's: the joined recording's black pictures
    (3.0-5.0 s, inside its 2.0-5.0 s stretch) are no finding, the first recording's black
    second is one (tests/video/test_video_scan_no_footage.py says why)."""
    sub = tmp_path / "run"
    sub.mkdir()
    make_agent_log(sub / "agent-log.jsonl", n_events=20, seed=2)
    build_black_in_join(tmp_path).rename(sub / "video.mkv")
    open_and_wait(qtbot, window, sub)
    qtbot.waitUntil(lambda: window.player.scan_result is not None, timeout=WAIT_MS)
    wait_idle(qtbot, window)
    listed = [(f.rule, f.video_start_s) for f in window.findings.findings
              if f.rule in ("video.black", "video.joined_undecodable")]
    assert sorted(listed) == [("video.black", 1.0), ("video.joined_undecodable", 2.0)]
