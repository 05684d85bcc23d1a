"""A still whose only life is a small beacon, read at full resolution (`held_finer.beaten`,
`held_finer.placed`; QA s39 T4 and human@r57).

`beaten`: a still to the end whose beacon beats through it is no held picture, however the
picture's larger changes fall (QA s39's synth_strobe human@r57: a sprite's two moves of a
few frames made a "rhythm" of one frame, and the beacon-lit stretches between them warned).
`placed`: a held stretch inside the run whose beacon beats in part of it and stops 3 s or
more is held at the stop (QA s39 T4: freezeend@r41's warning 26.49-35.61 s for the edit
31.60-35.60 s, the still's honest start read with it).

The footage: white squares cross a grey screen until 3 s; from there the screen is still
but for a 4x3 beacon 40 levels brighter, on and off every 8 frames (between the scan's
sample rows). `sprite`: a 6x6 square steps right 2 px a frame for 6 frames at 8 s and for 4
at 13 s (two moves of a small sprite, too small for the scan). `inserted`: 8-12 s show the
frame before 8 s (the beacon stops), and the squares cross again from 12 s."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import video_corpus as vc

from moderator_app.core.video import held_finer
from moderator_app.core.video.scan import run_scan

W, H, FPS = 640, 480, 30
HELD = range(240, 360)  # 8-12 s
MOVES = (range(240, 246), range(390, 394))  # 8.0-8.17 s, 13.0-13.1 s


class _Footage:
    def __init__(self, inserted: bool, sprite: bool, blink: bool = True) -> None:
        self.inserted, self.sprite, self.blink = inserted, sprite, blink
        self.frames = 480

    def picture(self, n: int) -> np.ndarray:
        shown = HELD.start - 1 if self.inserted and n in HELD else n
        img = np.full((H, W, 3), 100, np.uint8)
        if shown < 90 or (self.inserted and shown >= HELD.stop):
            for i in range(3):
                x = (shown * 3 + 150 * i) % (W - 24)
                img[60 + 120 * i:84 + 120 * i, x:x + 24] = 255
        if self.blink and ((shown + 8) // 8) % 2 == 0:
            img[99:102, 322:326] = 140
        if self.sprite:
            x = 200 + 2 * sum(min(max(shown - m.start + 1, 0), len(m)) for m in MOVES)
            img[400:406, x:x + 6] = 255
        return img


def _video(tmp_path: Path, name: str, footage: _Footage) -> Path:
    return vc.encode_pictures(tmp_path / f"{name}.mp4", footage, (W, H), FPS)


@vc.needs_ffmpeg
def test_a_beacon_lit_still_with_a_sprite_moved_twice_stays_a_note(tmp_path):
    """Main: warnings 3.0-8.0 and 8.17-13.0 beside the note (the sprite's moves, a frame
    apart, were the picture's rhythm); the beacon beats through both: the note alone."""
    spans = vc.frozen_spans(run_scan(_video(tmp_path, "sprite", _Footage(False, True))))
    assert spans == [("info", 3.0, 16.0)]


@vc.needs_ffmpeg
def test_an_edited_freeze_that_stops_the_beacon_mid_run_is_placed(tmp_path):
    """The scan holds 3-12 s (the beacon under its sample points); at full resolution the
    beacon toggles every 8 frames from 3.3 s, the last time at 7.73 s (frame 232; the
    freeze shows frame 239), and stops to the stretch's end: the warning is the stop,
    where main said 3.00-12.00."""
    spans = vc.frozen_spans(run_scan(_video(tmp_path, "placed", _Footage(True, False))))
    assert spans == [("warning", 7.73, 12.0)]


@vc.needs_ffmpeg
def test_a_dead_still_then_a_freeze_keeps_one_warning_whole(tmp_path):
    """No beacon: nothing to place by; the scan's warning stands as it was, 3-12 s."""
    spans = vc.frozen_spans(run_scan(_video(tmp_path, "dead", _Footage(True, False, blink=False))))
    assert spans == [("warning", 3.0, 12.0)]


def _beat(a: float, b: float, every: float = 1 / 3) -> list[float]:
    return [round(a + every * i, 3) for i in range(int((b - a) / every + 1e-9) + 1)]


BEACON = (80, 300, 82, 302)


@pytest.mark.parametrize(("beat", "a", "b", "want"), [
    # human@r57: the beacon from 25.67 s to the end; the stretches before the sprite's moves
    (_beat(25.67, 43.0), 25.491, 30.895, True),
    (_beat(25.67, 43.0), 30.982, 38.211, True),
    # the beat stops 3 s or more inside the stretch: held there (`place_stops`' case)
    (_beat(25.67, 32.0) + _beat(35.5, 43.0), 30.982, 38.211, False),
    # a beat drawn only over the stretch, not after it: a mark over a freeze
    (_beat(31.0, 38.0), 30.982, 38.211, False),
    # nor before it, the stretch not the still's first
    (_beat(31.0, 43.0), 30.982, 38.211, False),
    # a slow place (every 1.5 s): no beat
    (_beat(25.67, 43.0, 1.5), 30.982, 38.211, False),
])
def test_beaten(beat, a, b, want):
    where = held_finer.places([(t, BEACON) for t in beat])
    assert held_finer.beaten(25.491, a, b, where, 3.0) is want


@pytest.mark.parametrize(("marked", "changed", "want"), [
    # freezeend@r41: the beacon 27.32-31.32 s, then nothing to the stretch's end
    ([(t, BEACON) for t in _beat(27.32, 31.32)], [], [(31.32, 35.61)]),
    # the beacon first stops, then beats (a freeze, then the game's still)
    ([(t, BEACON) for t in _beat(30.0, 35.5)], [], [(26.488, 30.0)]),
    # a stop of 3 s or more between two beats
    ([(t, BEACON) for t in _beat(27.0, 29.0) + _beat(32.5, 35.5)], [], [(29.0, 32.5)]),
    # the beacon throughout: no stop, the warning stays whole (a blink over a freeze)
    ([(t, BEACON) for t in _beat(26.8, 35.5)], [], []),
    # a stop under 3 s: nothing placed
    ([(t, BEACON) for t in _beat(26.8, 33.0)], [], []),
    # a counted change inside the stop: no still stop
    ([(t, BEACON) for t in _beat(27.32, 31.32)], [33.0], []),
    # another place beating through the stop: the cursor moved
    ([(t, BEACON) for t in _beat(27.32, 31.32)]
     + [(t, (200, 100, 202, 102)) for t in _beat(31.5, 35.5)], [], []),
    # two beats before the stop: no rhythm to stop
    ([(t, BEACON) for t in _beat(30.98, 31.32)], [], []),
])
def test_placed(marked, changed, want):
    got = held_finer.placed(26.488, 35.61, changed, sorted(marked), 3.0)
    assert [(round(x, 3), round(y, 3)) for x, y, _, _ in got] == want
