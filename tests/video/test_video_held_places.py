"""A still to the end of the footage read place by place (`held_finer.place_stops`): QA s37
T3's Glider docks from 25.98 s to the end, its picture alive only in a 4x4 beacon on and off
every 0.33 s; an edited freeze 31.15-35.15 s stops the beacon, and was said "at the end of the
footage" (info): the beacon shows two pictures by turns, each shown before, and 16 pixels
are under `RETURN_POINTS`, so `changes` counts none of its blinks and the still reads dead.

The footage: three white squares cross a grey screen until 3 s; from there to the end the
screen is still but for a 4x3 beacon 40 levels brighter, on and off every 8 frames (too small
for the scan's sample points: it lies between their rows). Inserted: 6-10 s show the frame before 6 s (the beacon stops;
10 s is a keyframe, -g 60, so the change counted is the next blink, 10.13 s). `drawn`: a
faint line grows over the frozen frames, 12 pixels each half second (QA s37's freezeenddraw):
a change of its own place each time, not the beacon's. `moved`: the honest beacon blinks at
another place for those frames (a cursor moved and back)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import video_corpus as vc

from moderator_app.core.video import held_finer
from moderator_app.core.video.scan import run_scan

W, H, FPS, FRAMES = 640, 480, 30, 360
MOVING = range(0, 90)  # 0-3 s
HELD = range(180, 300)  # 6-10 s


class _Footage:
    def __init__(self, inserted: bool, blink: bool = True, drawn: bool = False,
                 moved: range | None = None, size: tuple[int, int] = (3, 4)) -> None:
        self.inserted, self.blink, self.drawn, self.moved = inserted, blink, drawn, moved
        self.frames, self.size = FRAMES, size

    def picture(self, n: int) -> np.ndarray:
        shown = HELD.start - 1 if self.inserted and n in HELD else n
        img = np.full((H, W, 3), 100, np.uint8)
        if shown in MOVING:
            for i in range(3):
                x = (shown * 3 + 150 * i) % (W - 24)
                img[60 + 120 * i:84 + 120 * i, x:x + 24] = 255
        if self.blink and ((shown + 8) // 8) % 2 == 0:
            y, x = (305, 500) if self.moved and shown in self.moved else (99, 322)
            h, w = self.size
            img[y:y + h, x:x + w] = 140  # between the scan's sample rows
        if self.drawn and self.inserted and n in HELD:
            img[420, 100:100 + 12 * (1 + (n - HELD.start) // 15)] = 120
        return img


def _video(tmp_path: Path, name: str, footage: _Footage) -> Path:
    return vc.encode_pictures(tmp_path / f"{name}.mp4", footage, (W, H), FPS)


@vc.needs_ffmpeg
@pytest.mark.parametrize(("drawn", "size"), [(False, (3, 4)), (True, (3, 4)), (False, (2, 2)),
                                             (False, (1, 1))])
def test_a_freeze_that_stops_a_small_beacon_in_a_still_to_the_end_warns(tmp_path, drawn,
                                                                          size):
    """The scan alone: one note 3-12 s "at the end of the footage"; read place by place the
    beacon (4x3, 2x2 or one pixel) blinks every 0.27 s but from 6 to 10 s: a warning there,
    the note kept; a line drawn over the frozen frames changes another place and hides
    nothing."""
    path = _video(tmp_path, f"beacon_{int(drawn)}_{size[0]}x{size[1]}",
                  _Footage(inserted=True, drawn=drawn, size=size))
    [(sev, start, end)] = vc.frozen_spans(run_scan(path, finer=False))
    assert sev == "info" and end == 12.0
    spans = vc.frozen_spans(run_scan(path))
    assert spans[0] == ("info", start, 12.0)
    [(sev, a, b)] = spans[1:]
    assert sev == "warning"
    assert 5.8 <= a <= 6.0 and 10.0 <= b <= 10.2  # duration-ok: the freeze's place in the video


@vc.needs_ffmpeg
@pytest.mark.parametrize(("blink", "moved"), [(True, None), (False, None),
                                              (True, range(150, 300))])
def test_an_honest_beacon_dead_still_or_moved_beacon_stays_a_note(tmp_path, blink, moved):
    """The genuine footage: the beacon blinks to the end; the screen is dead still; the
    beacon blinks at another place 5-10 s and comes back (its first place stops 5 s while
    the picture lives elsewhere): the note alone."""
    path = _video(tmp_path, f"honest_{int(blink)}_{int(bool(moved))}",
                  _Footage(inserted=False, blink=blink, moved=moved))
    spans = vc.frozen_spans(run_scan(path))
    assert [s[0] for s in spans] == ["info"] and spans[0][2] == 12.0


def _at(box, *runs):
    """Changes of `box` at the times of each run (start, end, every)."""
    return [(round(a + e * i, 3), box) for a, b, e in runs for i in range(int((b - a) / e) + 1)]


BEACON, ELSE = (100, 322, 104, 326), (300, 500, 304, 504)


@pytest.mark.parametrize(("marked", "want"), [
    # the beacon stops 4 s and resumes; a line drawn elsewhere meanwhile, a new place a step
    (_at(BEACON, (0.5, 2.0, 0.25), (6.0, 8.0, 0.25))
     + [(2.5 + 0.5 * i, (420, 100 + 12 * i, 421, 112 + 12 * i)) for i in range(7)],
     [(2.0, 6.0)]),
    # a change over the beacon's place meanwhile (a box over it and more: QA s29's Basic
    # Math redraws the sum over its cycling answer digit): the place did not stop
    (_at(BEACON, (0.5, 2.0, 0.25), (6.0, 8.0, 0.25)) + [(4.0, (90, 300, 120, 360))], []),
    # a change beside it, not over it: stopped
    (_at(BEACON, (0.5, 2.0, 0.25), (6.0, 8.0, 0.25)) + [(4.0, (90, 300, 120, 321))],
     [(2.0, 6.0)]),
    # the beacon blinks elsewhere through the stop: a cursor moved, no freeze
    (_at(BEACON, (0.5, 2.0, 0.25), (6.0, 8.0, 0.25)) + _at(ELSE, (2.25, 5.75, 0.25)), []),
    # two blinks after the stop: a next screen, not the rhythm resumed
    (_at(BEACON, (0.5, 2.0, 0.25), (6.0, 6.25, 0.25)), []),
    # a place that changes now and then (1.5 s): no rhythm to stop
    (_at(BEACON, (0.5, 3.5, 1.5), (8.0, 12.5, 1.5)), []),
    # blinks only within SETTLE_S of the still's start, then from 4 s: nothing stopped
    (_at(BEACON, (0.0, 0.25, 0.25), (4.0, 6.0, 0.25)), []),
])
def test_place_stops(marked, want):
    got = held_finer.place_stops(0.0, sorted(marked), 3.0)
    assert [(round(a, 2), round(b, 2)) for a, b, _, _ in got] == want


def test_places_are_boxes_that_mostly_overlap():
    assert held_finer.places([(1.0, BEACON), (1.3, (101, 322, 105, 326)), (1.6, ELSE)]) == [
        (BEACON, [1.0, 1.3]), (ELSE, [1.6])]
    assert held_finer.places([(1.0, BEACON), (1.3, (90, 300, 120, 360))]) == [
        (BEACON, [1.0]), ((90, 300, 120, 360), [1.3])]
