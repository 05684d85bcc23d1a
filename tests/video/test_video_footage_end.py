"""Where the footage ends, whatever the float rounding (QA session 12: `coverage.missing` at
Alien's offset 10.033 showed the last frame at one screen size and "no footage at this time"
at the other). The rule (`FrameIndex.frame_at`, docs/DECISIONS.md): a moment at or past the
end of the last frame's display interval is no footage, boundaries compared at 1 µs."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from moderator_app.core.video.export import frame_for_time
from moderator_app.core.video.index import FrameIndex

# (frames, frames per second, stream time base) of common recordings
SHAPES = [(3168, Fraction(60), Fraction(1, 15360)), (2566, Fraction(30000, 1001), Fraction(1, 30000)),
          (1234, Fraction(25), Fraction(1, 1000)), (1000, Fraction(30), Fraction(1, 90000))]


def grid_index(frames: int, fps: Fraction, tb: Fraction) -> FrameIndex:
    pts = np.array([round(Fraction(i) / fps / tb) for i in range(frames)], dtype=np.int64)
    return FrameIndex(times_s=pts * float(tb), pts=pts, keyframe_pts=pts[:1],
                      pos=np.full(frames, -1, np.int64), time_base=tb,
                      frame_duration_s=float(1 / fps))


@pytest.mark.parametrize(("frames", "fps", "tb"), SHAPES)
def test_the_first_missing_instant_is_no_footage_at_every_offset(frames, fps, tb):
    index = grid_index(frames, fps, tb)
    end = round(index.duration_s, 6)  # the video's duration as the probe reports it
    last = frames - 1
    for k in range(0, 20_000, 7):
        offset = k / 1000
        video_s = (end - offset) + offset  # the coverage finding's moment on the video clock
        assert frame_for_time(index, video_s) is None, (offset, video_s)
        assert frame_for_time(index, video_s - index.frame_duration_s / 2) == last, offset


@pytest.mark.parametrize(("frames", "fps", "tb"), SHAPES)
def test_every_frame_is_its_own_from_its_start_to_the_next(frames, fps, tb):
    index = grid_index(frames, fps, tb)
    for n in range(0, frames, 97):
        start = index.time_of(n)
        assert frame_for_time(index, start) == n
        assert frame_for_time(index, start - 5e-7) == n  # within 1 µs: its later side
        assert frame_for_time(index, start + index.duration_of(n) / 2) == n
    assert frame_for_time(index, -5e-7) == 0 and frame_for_time(index, -2e-6) is None
