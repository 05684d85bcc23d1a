"""A still picture that runs to the end of the footage is a note (a game-over screen), but one
whose cursor blinks under the scan's sample points and stops for seconds inside it holds an
edited freeze (QA s36 T3: Video Checkers' freeze 22.7-26.7 s inside the still 18.76-43.46 s,
said "at the end of the footage").

The footage: three white squares cross a grey screen 3 px a frame until 3 s; from there to
the end (12 s) the screen is still but for a cursor, a stroke one pixel wide, 120 pixels
tall, 30 levels brighter, on and off every 8 frames (too thin for the scan's 256x128 sample
points, as the Video Checkers cursor; 100 pixels or more, so its return to a picture shown
before counts, `held_finer.RETURN_POINTS`; shown before the screen stands still, so its
colour is one the footage held, `DRAWN`). Inserted: 6-10 s show the frame before 6 s (the
cursor stops; 10 s is a keyframe, -g 60, so the change counted is the next blink, 10.13 s)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import video_corpus as vc

from moderator_app.core.video import held_finer
from moderator_app.core.video.scan import run_scan

W, H, FPS, FRAMES = 640, 480, 30, 360
MOVING = range(0, 90)  # 0-3 s
HELD = range(180, 300)  # 6-10 s, inserted
S = 24


class _Footage:
    def __init__(self, inserted: bool, blink: bool = True, held: tuple[range, ...] = (HELD,),
                 frames: int = FRAMES, bursts: tuple[int, ...] = ()) -> None:
        self.inserted, self.blink, self.frames = inserted, blink, frames
        self.held, self.bursts = held, bursts

    def picture(self, n: int) -> np.ndarray:
        for r in self.held if self.inserted else ():
            if n in r:
                n = r.start - 1
        img = np.full((H, W, 3), 100, np.uint8)
        if n in MOVING:
            for i in range(3):
                x = (n * 3 + 150 * i) % (W - S)
                img[60 + 120 * i:60 + 120 * i + S, x:x + S] = 255
        if self.bursts:  # the cursor flips three frames running at each burst, else stays
            on = sum(1 for b in self.bursts for k in range(3) if b + k <= n) % 2 == 1
        else:
            on = self.blink and ((n + 8) // 8) % 2 == 0  # on in the frame before the still
        if on:
            img[41:161, 322] = 130
        return img


def _video(tmp_path: Path, inserted: bool, blink: bool = True, **kw) -> Path:
    out = tmp_path / f"cursor_{'inserted' if inserted else 'game'}_{int(blink)}_{len(kw)}.mp4"
    return vc.encode_pictures(out, _Footage(inserted, blink, **kw), (W, H), FPS)


@vc.needs_ffmpeg
def test_a_freeze_inside_a_blinking_still_to_the_end_of_the_footage_warns(tmp_path):
    """The scan alone: one note 3-12 s "at the end of the footage"; read at full resolution
    the cursor blinks every 0.27 s but from 6 to 10 s: a warning there, the note kept."""
    path = _video(tmp_path, inserted=True)
    [(sev, start, end)] = vc.frozen_spans(run_scan(path, finer=False))
    assert sev == "info" and end == 12.0
    spans = vc.frozen_spans(run_scan(path))
    assert spans[0] == ("info", start, 12.0)  # the note kept, the spans in the scan's order
    [(sev, a, b)] = spans[1:]
    assert sev == "warning"
    assert 5.8 <= a <= 6.0 and 10.0 <= b <= 10.2  # duration-ok: the freeze's place in the video


@vc.needs_ffmpeg
@pytest.mark.parametrize("blink", [True, False])
def test_a_blinking_or_dead_still_end_of_the_footage_stays_a_note(tmp_path, blink):
    """The genuine footage: the cursor blinks to the end (never 3 s unchanged), or the
    screen is dead still (nothing lives: an honest game-over screen): the note alone."""
    spans = vc.frozen_spans(run_scan(_video(tmp_path, inserted=False, blink=blink)))
    assert [s[0] for s in spans] == ["info"] and spans[0][2] == 12.0


def _blinks(start: float, end: float, every: float = 0.27) -> list[float]:
    """A cursor's changes every `every` s from `start` up to `end`."""
    return [round(start + every * i, 3) for i in range(int((end - start) / every) + 1)]


@vc.needs_ffmpeg
@pytest.mark.parametrize(("held", "frames", "want"), [
    # a second 4 s freeze, 13-17 s: both warn (review s37 R1: the note alone before)
    ((HELD, range(390, 510)), 600, [(5.87, 10.13), (12.8, 17.0)]),
    # a 1.5 s hold 12-13.5 s besides the freeze: the freeze still warns
    ((HELD, range(360, 405)), 480, [(5.87, 10.13)]),
])
def test_a_second_edit_in_the_still_to_the_end_silences_no_freeze(tmp_path, held, frames,
                                                                   want):
    """Two edits in the blinking still (3 s to the end): each held stretch of 3 s or more
    around which the cursor blinks warns; the note to the end is kept."""
    spans = vc.frozen_spans(run_scan(_video(tmp_path, inserted=True, held=held, frames=frames)))
    assert spans[0] == ("info", 3.0, frames / FPS)
    warned = [(a, b) for sev, a, b in spans[1:] if sev == "warning"]
    assert len(warned) == len(want) == len(spans) - 1
    for (a, b), (wa, wb) in zip(warned, want, strict=True):
        assert abs(a - wa) <= 0.1 and abs(b - wb) <= 0.1  # duration-ok: places in the video


@vc.needs_ffmpeg
def test_a_cursor_that_moves_in_bursts_between_waits_stays_a_note(tmp_path):
    """Honest waits: the cursor flips in bursts of three frames 1.5 s apart, and once 4.5 s
    apart (Adventure's player standing still, then stepping): no rhythm, the note alone."""
    bursts = (120, 165, 210, 345, 390, 435)
    spans = vc.frozen_spans(run_scan(_video(tmp_path, inserted=False, bursts=bursts, frames=480)))
    assert spans == [("info", 3.0, 16.0)]


@pytest.mark.parametrize(("changed", "want"), [
    ([0.5, 1.0, 1.5, 2.0, 6.0, 6.5, 7.0, 7.5], [(2.0, 6.0)]),  # the rhythm stops 4 s, resumes
    ([4.0, 4.5, 5.0, 5.5], [(0.0, 4.0)]),  # held from the still's first frame
    ([1.0, 1.5, 2.0, 6.0, 6.5], []),  # two changes after it: a next screen, no rhythm
    ([1.0, 3.0, 7.0, 8.5, 10.0, 11.0], []),  # changes now and then (1-2 s): no rhythm
    # a player who moves in bursts of frames and stands 1-5 s between (Adventure m2d3):
    # the plain median of its gaps is 0.04 s, its rhythm 1.5 s
    ([t + d for t in (1.0, 2.5, 4.0, 9.0, 10.5, 12.0) for d in (0.0, 0.04, 0.08)], []),
    ([1.0, 1.5, 2.0, 2.5], []),  # still from its last change to the end: the end
    ([0.1, 3.2, 3.5, 3.8, 4.1], [(0.0, 3.2)]),  # the change at 0.1 s is the codec settling
    ([0.1, 3.2, 3.5, 3.8], []),  #                 (SETTLE_S) after the jump into the still
    # review s37 R1: a second edit voids neither: two freezes; a freeze and a 1.5 s hold
    (_blinks(0.3, 2.0) + _blinks(6.0, 8.0) + _blinks(12.0, 14.0), [(1.92, 6.0), (7.89, 12.0)]),
    (_blinks(0.3, 2.0) + _blinks(6.0, 8.0) + _blinks(9.5, 11.0), [(1.92, 6.0)]),
    # changes 1-1.5 s apart before the wait, 0.8 s after it (wide's blackjack-speed33)
    ([1.28, 2.8, 2.84, 3.8, 3.84, 9.08, 9.88, 10.72, 11.52, 11.6], []),
    # the rhythm resumes for a moment only: two blinks, then 1-2 s apart
    (_blinks(0.3, 4.0) + [8.0, 8.27, 9.5, 11.5, 13.0, 14.5], []),
])
def test_held_inside(changed, want):
    got = held_finer.held_inside(0.0, changed, 3.0)
    assert [(round(a, 2), round(b, 2)) for a, b in got] == want


def test_rhythm_is_the_gap_the_middle_moment_of_the_living_time_lies_in():
    assert held_finer.rhythm([0.27] * 60 + [4.0, 4.0, 1.5], 3.0) == 0.27
    assert held_finer.rhythm([0.04] * 40 + [1.5, 2.0, 2.5, 5.2], 3.0) == 2.0
    assert held_finer.rhythm([4.0], 3.0) == float("inf")
