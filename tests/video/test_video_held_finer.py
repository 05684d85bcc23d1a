"""A still screen whose clock ticks below the scan's sample points is no freeze; an inserted
freeze in the same footage is (QA s34 T4: Flag Capture's clock, once a second, 26-30 luma
levels over 28-32 pixels, read `video.frozen` 29.94-33.03 s on a genuine run).

The footage: three white squares cross a grey screen 3 px a frame; from 3 s to 8 s they are
gone and the screen is still but for a clock: two strokes one pixel wide, 8 pixels tall, 30
levels brighter, that step right each second (too thin for the scan's 256x128 sample points,
which average each over 2.5 x 3.75 pixels; each tick a picture not shown before, as a clock's
next digit). At 8 s the squares are back. The same footage with 3-8 s showing the frame before
3 s is an inserted freeze: no tick inside it; with a faint 24x1 line blinking over it at 1 Hz
(review V6), two pictures shown by turns: still a freeze."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
import video_corpus as vc

from moderator_app.core.video import held_finer
from moderator_app.core.video.scan import run_scan

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

W, H, FPS, FRAMES = 640, 480, 30, 330
STILL = range(90, 240)  # 3-8 s
S = 24


class _Footage:
    def __init__(self, inserted: bool, line: bool = False, grow: int = 0) -> None:
        self.inserted, self.line, self.grow, self.frames = inserted, line, grow, FRAMES

    def picture(self, n: int) -> np.ndarray:
        img = self._picture(STILL.start - 1 if self.inserted and n in STILL else n)
        if self.line and n in STILL and 10 <= n % FPS < 25:  # on x.33-x.83 s, off keyframes
            img[300, 200:224] = 130  # drawn over the held frames: 24 pixels, 30 levels
        if self.grow and n >= 95 and n in STILL:  # 10 pixels more every 0.5 s, off keyframes
            img[300, 200:210 + 10 * ((n - 95) // 15)] = self.grow
        return img

    def _picture(self, n: int) -> np.ndarray:
        img = np.full((H, W, 3), 100, np.uint8)
        if n not in STILL:
            for i in range(3):
                x = (n * 3 + 150 * i) % (W - S)
                img[60 + 120 * i:60 + 120 * i + S, x:x + S] = 255
        # the clock, shown before the screen stands still too: two thin strokes that step
        # right each second
        sec = n // FPS
        for k in range(2):
            x = 481 + 5 * k + 3 * sec
            img[41:49, x] = 130
        return img


def _video(tmp_path: Path, inserted: bool, ext: str = "mp4", line: bool = False,
           grow: int = 0) -> Path:
    """H.264 in MP4; in AVI with 3 B-frames, whose frames carry their packets' pts, a few
    places off (the scan gives the decoder's order the sorted pts: `scan.frame_order`)."""
    out = tmp_path / (f"clock_{'inserted' if inserted else 'game'}{'_line' if line else ''}"
                      f"{f'_grow{grow}' if grow else ''}.{ext}")
    bf = ["-preset", "medium", "-bf", "3"] if ext == "avi" else ["-preset", "ultrafast"]
    enc = ["-c:v", "libx264", *bf, "-crf", "12", "-g", "60", "-pix_fmt", "yuv420p"]
    if ext == "mkv":  # FFV1 in RGB (bgr0): every frame a keyframe, colours read as RGB
        enc = ["-c:v", "ffv1", "-pix_fmt", "bgr0"]
    return vc.encode_pictures(out, _Footage(inserted, line, grow), (W, H), FPS, enc)


def _frozen(result) -> list:
    return [s for s in result.spans if s.rule == "video.frozen"]


@pytest.mark.parametrize("ext", ["mp4", "avi"])
def test_a_still_screen_whose_clock_ticks_under_the_sample_points_is_a_note(tmp_path, ext):
    """The scan's own signals hold it 3-8 s (a warning without `finer`); decoded again at
    full resolution, the clock's ticks at 5 and 7 s leave no 3 s unchanged (those at 4 and
    6 s come with a keyframe, -g 60, and are not counted: a keyframe re-quantises a held
    picture)."""
    path = _video(tmp_path, inserted=False, ext=ext)
    [coarse] = _frozen(run_scan(path, finer=False))
    assert coarse.severity == "warning"
    assert abs(coarse.start_s - 3.0) <= 0.5 and abs(coarse.end_s - 8.0) <= 0.5  # duration-ok: where the freeze lies in the video, not a time taken
    [f] = _frozen(run_scan(path))
    assert f.severity == "info" and "at full resolution the picture changes" in f.message
    assert "video 5.00, 7.00 s" in f.message


@pytest.mark.parametrize("ext", ["mp4", "avi"])
def test_an_inserted_freeze_in_the_same_footage_keeps_its_warning(tmp_path, ext):
    [f] = _frozen(run_scan(_video(tmp_path, inserted=True, ext=ext)))
    assert f.severity == "warning" and "full resolution" not in f.message
    assert abs(f.start_s - 3.0) <= 0.5 and abs(f.end_s - 8.0) <= 0.5  # duration-ok: the span's place in the video


def test_a_faint_line_blinking_over_an_inserted_freeze_keeps_its_warning(tmp_path):
    """Review V6: a 24x1 line 30 levels bright drawn over the held frames, on and off each
    second, changes the picture every 0.5 s at full resolution (main's rule at 60fc4ca made
    the warning a note); it only shows the two same pictures by turns, which no clock does."""
    [f] = _frozen(run_scan(_video(tmp_path, inserted=True, line=True)))
    assert f.severity == "warning" and "full resolution" not in f.message
    assert abs(f.start_s - 3.0) <= 0.5 and abs(f.end_s - 8.0) <= 0.5  # duration-ok: the span's place in the video


@pytest.mark.parametrize(("colour", "want", "ext"), [
    (180, "warning", "mp4"), (130, "info", "mp4"), (180, "warning", "mkv")])
def test_a_line_growing_over_an_inserted_freeze_warns_in_a_colour_the_footage_never_held(
        tmp_path, colour, want, ext):
    """Review V6's growing line (session 35's review, 4b0c4c1 made it a note): 10 pixels
    more every 0.5 s over the held frames, each a picture the hold never showed. Grey 180
    is a colour the frame before the hold does not hold (grey 100, white squares, the
    clock's 130): drawn over the picture, no change, the warning kept. In the clock's own
    colour the same line is a note: the rule's limit, a mark in the footage's colours. In
    FFV1's RGB the colours are read as R, G, B."""
    [f] = _frozen(run_scan(_video(tmp_path, inserted=True, ext=ext, grow=colour)))
    assert f.severity == want
    assert abs(f.start_s - 3.0) <= 0.5 and abs(f.end_s - 8.0) <= 0.5  # duration-ok: the span's place in the video
    if want == "info":
        assert "video 3.67, 4.17, 4.67, 5.17, 5.67, 6.17, ..." in f.message


@pytest.mark.parametrize(("end", "changed", "want"), [
    (7.0, [], False),            # 4 s identical: a freeze
    (7.0, [4.0, 5.5], True),     # ticks: 1.0 / 1.5 / 1.5 s still
    (8.0, [5.0], False),         # one change: 3 s still after it
    (6.1, [3.05, 3.2], False),   # the codec settling on the picture (under 0.3 s): 3.1 s
])
def test_a_hold_lives_when_no_stretch_between_its_changes_lasts_the_freeze(end, changed, want):
    assert held_finer.lives(3.0, end, changed, 3.0) is want


def test_a_change_is_packed_pixels_off_the_keyframes_refinement():
    times = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5]
    keys = [0, 0, 1, 0, 0, 0]
    # 0.1: a digit (16 pixels in 32); 0.2: a keyframe; 0.3: just after it; 0.4: scattered
    # refinement (52 in 11,562); 0.5: too few pixels
    points = [0, 16, 800, 40, 52, 7]
    areas = [0, 32, 231552, 60, 11562, 7]
    assert held_finer.changes(times, keys, points, areas) == [0.1]
    # every frame a keyframe (intra-coded): the keyframes are the frames (0.2 scattered)
    assert held_finer.changes(times, [1] * 6, points, areas) == [0.1, 0.3]
    assert held_finer.changes(times, keys, [0, -1, 0, 0, 0, 0], areas) is None
    # a picture the hold showed before (seen 0 pixels apart) is no change unless 100 pixels
    # or more moved (a digit redrawn); -1: not compared
    assert held_finer.changes(times, [1] * 6, points, areas, [-1, 0, -1, 9, -1, -1]) == [0.3]
    assert held_finer.changes(times, [1] * 6, points, areas, [-1, 7, -1, 8, -1, -1]) == [0.3]
    assert held_finer.changes(times, [1] * 6, [0, 100, 800, 99, 52, 7], areas,
                              [-1, 0, -1, 0, -1, -1]) == [0.1]
    # moved pixels mostly (500 per mille or more) in colours the frame before the hold did
    # not hold: drawn over it, no change; -1: not looked up
    seen = [-1, 99, -1, 99, -1, -1]
    assert held_finer.changes(times, [1] * 6, points, areas, seen,
                              [-1, 500, -1, 499, -1, -1]) == [0.3]
    assert held_finer.changes(times, [1] * 6, points, areas, seen,
                              [-1, -1, -1, 1000, -1, -1]) == [0.1]


@pytest.mark.parametrize("spoil", ["incomplete", "a frame short"])
def test_an_answer_not_read_whole_keeps_the_warning(tmp_path, monkeypatch, spoil):
    """One-sided: a span the video process did not read to its end (its CPU budget, its
    frame cap) or frames that do not match the scan's one for one say nothing."""
    from moderator_app.core.video import isolate

    real = isolate.VideoProcess.request

    def spoiled(self, req, *a, **kw):
        msg = real(self, req, *a, **kw)
        if req.get("op") == "held":
            for span in msg.header["spans"]:
                if spoil == "incomplete":
                    span["complete"] = False
                else:
                    i = len(span["pts"]) // 2  # a frame inside the hold lost
                    for k in ("pts", "key", "points", "area", "seen", "foreign"):
                        del span[k][i]
        return msg

    monkeypatch.setattr(isolate.VideoProcess, "request", spoiled)
    [f] = _frozen(run_scan(_video(tmp_path, inserted=False)))
    assert f.severity == "warning" and "full resolution" not in f.message
