"""A picture that moves in colour only is not a still picture (QA session 16, J1).

Adventure's player is a green square (RGB 88,195,134: luma 156) on a grey room (151: luma
151): the square crossing the room moves no luma sample by more than codec noise, and a
genuine run read as a `video.frozen` warning and a `sync.no_reaction` over seconds where the
square visibly moved. The footage here: a grey picture; a white square moves 0-2 s and 8-10 s
(the luma sees it); from 2 to 8 s only the green square moves, 4 px every 6 frames."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
import video_corpus as vc

from moderator_app.core.sync.signals import frame_signals as sync_signals
from moderator_app.core.video.scan import run_scan

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

GREY, GREEN, WHITE = (151, 151, 151), (88, 195, 134), (255, 255, 255)
FPS, FRAMES = 30, 300
COLOUR_ONLY = range(60, 240)  # frames 2-8 s: only the green square moves
STEP = 6  # the green square moves on every 6th frame


class _Footage:
    """The pictures, fed to ffmpeg as raw RGB (`video_corpus._ffmpeg`'s stdin frames)."""

    def __init__(self, w: int, h: int, held: range | None = None) -> None:
        self.w, self.h, self.held, self.frames = w, h, held, FRAMES

    def picture(self, n: int) -> np.ndarray:
        if self.held is not None and n in self.held:
            n = self.held.start  # a freeze: the held range shows its first frame
        img = np.empty((self.h, self.w, 3), np.uint8)
        img[:] = GREY
        s = self.w // 20  # the squares' side: 16 px at 320 wide
        if n not in COLOUR_ONLY:
            x = (n * 3) % (self.w - s)
            img[s:2 * s, x:x + s] = WHITE
        moves = (min(max(n, COLOUR_ONLY.start), COLOUR_ONLY.stop) - COLOUR_ONLY.start) // STEP
        gx = (s + moves * 4) % (self.w - 2 * s)
        img[self.h // 2:self.h // 2 + s, gx:gx + s] = GREEN
        return img


def _video(tmp_path: Path, w: int, h: int, held: range | None = None) -> Path:
    out = tmp_path / f"colour_{w}x{h}_{'held' if held else 'moving'}.mp4"
    return vc.encode_pictures(out, _Footage(w, h, held), (w, h), FPS, vc.H264_CRF18)


# 320x240: the planes are sampled; 160x120: smaller than the sample grid, scaled by swscale
SIZES = [(320, 240), (160, 120)]


@pytest.mark.parametrize("w, h", SIZES)
def test_a_square_that_moves_in_colour_only_is_not_a_frozen_picture(tmp_path, w, h):
    r = run_scan(_video(tmp_path, w, h))
    assert [s.rule for s in r.spans] == []


@pytest.mark.parametrize("w, h", SIZES)
def test_a_freeze_of_colour_only_footage_is_still_found(tmp_path, w, h):
    """Frames 3-7 s all show the frame at 3 s: held in luma and in colour."""
    r = run_scan(_video(tmp_path, w, h, held=range(90, 210)))
    got = [(s.rule, s.severity, round(s.start_s, 1), round(s.end_s, 1)) for s in r.spans]
    assert len(got) == 1 and got[0][:2] == ("video.frozen", "warning")
    assert abs(got[0][2] - 3.0) <= 0.5 and abs(got[0][3] - 7.0) <= 0.5


@pytest.mark.parametrize("w, h", SIZES)
def test_sync_sees_the_colour_move_as_a_change_of_the_picture(tmp_path, w, h):
    """The sync analysis' whole-picture change (what its still stretches and held pictures
    are judged on) is non-zero exactly on the frames where the green square moved."""
    sig = sync_signals(_video(tmp_path, w, h))
    change = np.asarray(sig.picture_change)
    inside = range(COLOUR_ONLY.start + 1, COLOUR_ONLY.stop)  # (the white square leaves at 60)
    assert [k for k in inside if change[k] > 0] == \
        [k for k in inside if (k - COLOUR_ONLY.start) % STEP == 0]
