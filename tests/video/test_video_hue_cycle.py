"""A picture whose colours turn a step at a time is no held frame (QA s39 T3): synth_strobe's
hue cycle turns every colour 7.5 degrees every 8th frame, each step under every bar the
still test reads (at most 3.95 luma levels a point, no sample point past 12 levels), and in
an all-intra stream (ASV2) `video.frozen` warned over the whole cycle of an honest run. The
picture's mean luma drifts there (16.26 levels over 6 s) where a held frame repeats one mean
(`scan_holds._drifting`, `ScanThresholds.drift_max`).

The footage: white squares cross a pastel screen until 3 s; 3-9 s the screen is still but
its colours turn 7.5 degrees of hue every 8th frame (as they do all along: a game's cycle
runs through its moving footage too) (saturation 0.3: a point moves at most
~4 luma levels a step); from 9 s the squares cross again. `frozen`: 9-13 s show the frame
before 9 s (an edited freeze right after the cycle, the same picture as its last step), and
the squares cross from 13 s: the same-picture run of the scan is 3-13 s, the cycle and the
freeze, and the freeze alone is held."""

from __future__ import annotations

import colorsys
from pathlib import Path

import numpy as np
import pytest
import video_corpus as vc

from moderator_app.core.video.scan import run_scan

W, H, FPS = 320, 240, 30
CYCLE = range(90, 270)  # 3-9 s
HELD = range(270, 390)  # 9-13 s: the edited freeze
PALETTE = ((0.0, 0.30, 0.80), (0.33, 0.30, 0.65), (0.62, 0.30, 0.75))  # hue, sat, value


def _step(shown: int, every: int, on: bool) -> int:
    """The cycle's step at frame `shown`: a game's cycle turns through the whole footage
    (`on`: QA s39's synth_strobe, QA s40's synth_prism turn their palettes in the moving
    footage before the still too), an edit's only over the still `CYCLE`."""
    return (shown - CYCLE.start) // every if on else \
        (min(max(shown, CYCLE.start), CYCLE.stop - 1) - CYCLE.start) // every


class _Footage:
    def __init__(self, frozen: bool, ramp: bool = False, game: bool = True) -> None:
        self.frozen, self.ramp, self.game = frozen, ramp, game
        self.frames = 450 if frozen else 330

    def picture(self, n: int) -> np.ndarray:
        shown = HELD.start - 1 if self.frozen and n in HELD else n
        step = _step(shown, 8, self.game)
        img = np.empty((H, W, 3), np.uint8)
        for k, (hue, sat, val) in enumerate(PALETTE):  # three bands of colour
            rgb = colorsys.hsv_to_rgb((hue + step * 7.5 / 360) % 1.0, sat, val)
            img[k * H // 3:(k + 1) * H // 3] = np.round(np.array(rgb) * 255).astype(np.uint8)
        if shown not in CYCLE:  # the squares cross before and after the cycle
            for i in range(3):
                x = (shown * 4 + 100 * i) % (W - 20)
                img[30 + 70 * i:50 + 70 * i, x:x + 20] = 255
        if self.ramp and n in HELD:  # review s40 R2: the held frame faded 2 levels a second
            img = np.clip(img.astype(np.int16) + (n - HELD.start) * 2 // FPS, 0, 255
                          ).astype(np.uint8)
        return img


def _video(tmp_path: Path, name: str, footage: _Footage, codec: str) -> Path:
    out = tmp_path / f"{name}.{'nut' if codec == 'asv2' else 'avi'}"
    opts = ["-c:v", "asv2", "-q:v", "3"] if codec == "asv2" else \
        ["-c:v", "mjpeg", "-q:v", "3"]
    return vc.encode_pictures(out, footage, (W, H), FPS,
                              [*opts, "-pix_fmt", "yuv420p" if codec == "asv2" else "yuvj420p"])


@vc.needs_ffmpeg
@pytest.mark.parametrize("codec", ["asv2", "mjpeg"])
def test_a_hue_cycle_in_an_all_intra_stream_is_a_note_not_a_warning(tmp_path, codec):
    """Main warned `video.frozen` 3.00-9.00: every step's change is under the bars, so the
    six seconds of the cycle were the same picture, identical frame to frame. Now a note
    that says the drift (the lead's call on review s40 R2: said, not dropped)."""
    video = _video(tmp_path, "cycle", _Footage(False), codec)
    plain = run_scan(video, finer=False)
    assert plain.complete
    assert vc.frozen_spans(plain) == [("info", 3.0, 9.0)]
    assert "but for a brightness drift" in next(
        s.message for s in plain.spans if s.rule == "video.frozen")
    # at full resolution its colours turn (held_colour.py): a note that says so
    result = run_scan(video)
    assert vc.frozen_spans(result) == [("info", 3.0, 9.0)]
    assert "but its colours turn" in next(
        s.message for s in result.spans if s.rule == "video.frozen")


@vc.needs_ffmpeg
@pytest.mark.parametrize("codec", ["asv2", "mjpeg"])
def test_an_edited_freeze_after_the_hue_cycle_still_warns(tmp_path, codec):
    """The freeze 9-13 s repeats the cycle's last picture: one same-picture run 3-13 s; its
    mean luma drifts to the last step (8.87 s) and not after, so the warning is the
    freeze's: from half `held_window_s` after the last step, 9.37 s, to its end; the cycle
    a note from its first drifting frame (3.30 s) to there. Main said 3.00-13.00, the cycle and the
    freeze as one."""
    result = run_scan(_video(tmp_path, "frozen", _Footage(True), codec))
    assert vc.frozen_spans(result) == [("info", 3.3, 9.37), ("warning", 9.37, 13.0)]


@vc.needs_ffmpeg
def test_an_edited_freeze_faded_by_a_brightness_ramp_stays_said(tmp_path):
    """Review s40 R2: the freeze 9-13 s faded 2 levels a second drifts like the cycle; at
    scan level the whole held stretch 3-13 s stays a `video.frozen` span, a note that names
    the drift (a drifting still dropped would let a forger hide any freeze). At full
    resolution the fade turns no colour where the cycle turned them every 8th frame
    (`held_colour`): the freeze warns again from the cycle's last step (8.87 s), the cycle
    a note. Session 40's tip said the note 3.00-13.00 alone."""
    video = _video(tmp_path, "ramp", _Footage(True, ramp=True), "mjpeg")
    assert vc.frozen_spans(run_scan(video, finer=False)) == [("info", 3.0, 13.0)]
    assert vc.frozen_spans(run_scan(video)) == [("info", 3.0, 8.87), ("warning", 8.87, 13.0)]


class _FixedLuma:
    """QA s40 T2's class (synth_prism at RealVideo 2): 3-9 s the screen is still in gray,
    three bands whose chroma turns 7.5 degrees every 6th frame at a fixed luma (a radius of
    40 levels: each step moves U and V 5 levels at most, under every bar of the scan, and
    the mean luma not at all); squares cross before and after, under the same cycle (a
    game's: `game`; else it turns over the still only, as an edit recolours a freeze, review
    s41 R3). `frozen`: 9-13 s show the frame before 9 s (an edited freeze right after the
    cycle). YUV 4:4:4 planes, fed as they are: no RGB rounding moves the luma."""

    BANDS = ((80, 20.0), (120, 140.0), (160, 260.0))  # luma, chroma angle (degrees)

    def __init__(self, frozen: bool, game: bool = True) -> None:
        self.frozen, self.game = frozen, game
        self.frames = 450 if frozen else 330

    def picture(self, n: int) -> np.ndarray:
        shown = HELD.start - 1 if self.frozen and n in HELD else n
        step = _step(shown, 6, self.game)
        img = np.empty((3, H, W), np.uint8)
        for k, (y, angle) in enumerate(self.BANDS):
            a = np.radians(angle + 7.5 * step)
            rows = slice(k * H // 3, (k + 1) * H // 3)
            img[0, rows] = y
            img[1, rows] = int(round(128 + 40 * np.cos(a)))
            img[2, rows] = int(round(128 + 40 * np.sin(a)))
        if shown not in CYCLE:
            for i in range(3):
                x = (shown * 4 + 100 * i) % (W - 20)
                img[:, 30 + 70 * i:50 + 70 * i, x:x + 20] = np.array((235, 128, 128),
                                                                     np.uint8)[:, None, None]
        return img


def _inter(tmp_path: Path, name: str, footage: _FixedLuma) -> Path:
    """MPEG-4 Part 2 with a keyframe every 2 s: inter-coded, as RealVideo 2 is."""
    out = tmp_path / f"{name}.avi"
    vc._ffmpeg(["-f", "rawvideo", "-pix_fmt", "yuv444p", "-s", f"{W}x{H}", "-r", str(FPS),
                "-i", "-", "-c:v", "mpeg4", "-q:v", "3", "-g", "60", "-bf", "0",
                "-pix_fmt", "yuv420p", str(out)], footage)
    return out


@vc.needs_ffmpeg
def test_a_fixed_luma_colour_cycle_is_a_note_not_a_warning(tmp_path):
    """QA s40 T2: the cycle keeps the luma, so neither the scan's rows nor the drift rule see
    it (`finer=False`: a warning 3.00-9.00, as main said with the full-resolution pass
    too); at full resolution most of the chroma moves at each step (`held_colour`): a
    note that says the colours turn."""
    video = _inter(tmp_path, "fixed", _FixedLuma(False))
    assert vc.frozen_spans(run_scan(video, finer=False)) == [("warning", 3.0, 9.0)]
    result = run_scan(video)
    assert vc.frozen_spans(result) == [("info", 3.0, 9.0)]
    assert "but its colours turn" in next(
        s.message for s in result.spans if s.rule == "video.frozen")


@vc.needs_ffmpeg
def test_an_edited_freeze_after_a_fixed_luma_colour_cycle_still_warns(tmp_path):
    """The freeze 9-13 s repeats the cycle's last picture: one held stretch 3-13 s at scan
    level; at full resolution the colours turn until the last step (8.80 s) and not after,
    so the warning is the freeze's, from that step, and the cycle before it a note."""
    result = run_scan(_inter(tmp_path, "frozen", _FixedLuma(True)))
    assert vc.frozen_spans(result) == [("info", 3.0, 8.8), ("warning", 8.8, 13.0)]


@vc.needs_ffmpeg
def test_a_still_recoloured_only_while_it_holds_warns(tmp_path):
    """Review s41 R3: an edit recolours a held frame, its hue stepped over the freeze only
    (luma kept), and main said a note "but its colours turn" 3.00-9.00, no warning left. A
    game's cycle beats on past the still's edges (the test above); these colours turn
    neither in the 1.5 s before 3 s nor after 9 s (`held_colour.beyond`): a warning
    3.00-9.00 that says the frame was recoloured."""
    result = run_scan(_inter(tmp_path, "recoloured", _FixedLuma(False, game=False)))
    assert vc.frozen_spans(result) == [("warning", 3.0, 9.0)]
    assert "a held frame recoloured" in next(
        s.message for s in result.spans if s.rule == "video.frozen")


@vc.needs_ffmpeg
def test_a_colour_cycle_to_the_end_of_the_footage_stays_a_note(tmp_path):
    """A drift note whose colours turn only from its start but run to the footage's last
    frame: nothing after it to read, and the scan keeps a still to the end a note (a
    game-over screen), so `held_finer._turns_on` takes it as turning on: the colour note
    3.00-9.00 stays (the mutant that reads the missing side as "not turning" warns)."""
    footage = _Footage(False, game=False)
    footage.frames = CYCLE.stop
    video = _video(tmp_path, "tail", footage, "mjpeg")
    result = run_scan(video)
    assert vc.frozen_spans(result) == [("info", 3.0, 9.0)]
    assert "but its colours turn" in next(
        s.message for s in result.spans if s.rule == "video.frozen")


class _FadedFreeze(_Footage):
    """Review s41 R4: no cycle at all. The squares cross; 3-8 s show the frame before 3 s,
    faded 2 levels a second (an edited freeze under a brightness ramp); then they cross
    again."""

    def __init__(self) -> None:
        super().__init__(False)
        self.frames = 330

    def picture(self, n: int) -> np.ndarray:
        shown = 89 if 90 <= n < 240 else n
        img = np.full((H, W, 3), 90, np.uint8)
        for i in range(3):
            x = (shown * 4 + 100 * i) % (W - 20)
            img[30 + 70 * i:50 + 70 * i, x:x + 20] = 255
        if 90 <= n < 240:
            img = np.clip(img.astype(np.int16) + (n - 90) * 2 // FPS, 0, 255).astype(np.uint8)
        return img


@vc.needs_ffmpeg
def test_a_freeze_faded_alone_is_a_note_that_says_no_colour_turns(tmp_path):
    """A drift note whose colours do not turn (`held_colour.faded`): the scan's note over the
    freeze 2.97-8.00 stays a note at full resolution and says that no colour turns there (a
    fade, a game's or an edit's: review s41 R6, an honest fade to black reads the same), where
    a palette's note says its colours turn."""
    video = _video(tmp_path, "faded", _FadedFreeze(), "mjpeg")
    assert vc.frozen_spans(run_scan(video, finer=False)) == [("info", 2.97, 8.0)]
    result = run_scan(video)
    assert vc.frozen_spans(result) == [("info", 2.97, 8.0)]
    assert "no colour turns: a fade" in next(
        s.message for s in result.spans if s.rule == "video.frozen")
