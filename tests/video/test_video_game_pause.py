"""A game's own pause that resumes gradually is a note, an inserted freeze a warning (QA
session 16, J3: Kung-Fu Master holds an empty floor 4.75 s after Thomas dies, then he walks in
from the edge; a `video.frozen` warning on an honest file).

The footage: three white squares cross a grey screen 3 px a frame; from 3 s to 8 s the screen
is empty and still (the game's pause); at 8 s a square walks in from the right edge 2 px a
frame, and the three come back at 8.33 s. The same footage with 3-8 s showing the frame
before 3 s is an inserted freeze: where the footage comes back the picture jumps."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
import video_corpus as vc

from moderator_app.core.video.scan import run_scan

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

W, H, FPS, FRAMES = 320, 240, 30, 330
PAUSE = range(90, 240)  # 3-8 s: the screen empty and still
BACK = 250              # the three squares move again
S = 16                  # the squares' side


class _Footage:
    """The pictures, fed to ffmpeg as raw RGB (`video_corpus._ffmpeg`'s stdin frames)."""

    def __init__(self, inserted: bool) -> None:
        self.inserted, self.frames = inserted, FRAMES

    def picture(self, n: int) -> np.ndarray:
        if self.inserted and n in PAUSE:
            n = PAUSE.start - 1  # an inserted freeze: the frame before held
        img = np.full((H, W, 3), 120, np.uint8)
        if n < PAUSE.start or n >= BACK:
            for i in range(3):
                x = (n * 3 + 90 * i) % (W - S)
                img[40 + 60 * i:40 + 60 * i + S, x:x + S] = 255
        if n >= PAUSE.stop:  # the player walks in from the right edge
            x = W - 2 * (n - PAUSE.stop + 1)
            img[200:200 + S, max(x, 0):min(x + S, W)] = 255
        return img


def _video(tmp_path: Path, inserted: bool) -> Path:
    out = tmp_path / f"pause_{'inserted' if inserted else 'game'}.mp4"
    return vc.encode_pictures(out, _Footage(inserted), (W, H), FPS, vc.H264_CRF18)


def _frozen(path: Path) -> list[tuple[str, float, float]]:
    return [(s.severity, round(s.start_s, 1), round(s.end_s, 1)) for s in run_scan(path).spans
            if s.rule == "video.frozen"]


def test_a_games_own_pause_that_resumes_gradually_is_a_note(tmp_path):
    """Before: a `video.frozen` warning 3.0-7.7 s (the small changes from 8 s on end the
    held stretch early, as before)."""
    r = run_scan(_video(tmp_path, inserted=False))
    [f] = [s for s in r.spans if s.rule == "video.frozen"]
    assert f.severity == "info" and "resumes gradually" in f.message
    assert abs(f.start_s - 3.0) <= 0.5 and abs(f.end_s - 8.0) <= 0.5  # duration-ok: a span placed within the scan's +-0.5 s


def test_an_inserted_freeze_that_ends_with_a_jump_is_a_warning(tmp_path):
    [(severity, start, end)] = _frozen(_video(tmp_path, inserted=True))
    assert severity == "warning"
    assert abs(start - 3.0) <= 0.5 and abs(end - 8.0) <= 0.5
