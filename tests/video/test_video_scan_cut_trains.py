"""A hard cut inside a train of changes keeps its `video.cut` (session 30, issue 12: "each
inserted cut is reported within 0.5 s of where it was made").

Session 29's `scan_cuts._lone` dropped every candidate with three others within 0.5 s either
side (Beam Rider's explosion: 6-12 candidates in 0.6 s on every honest recording). A real cut
beside such an effect, or beside a forger's flickers, lost its `video.cut` with them. Now the
train's one change that stands out of it is kept: the whole picture changed where the effect
changes a part of it (TRAIN_WIDER), or its change far above theirs (TRAIN_STANDS).

Built here by ffmpeg from `draw_frame` pictures: a part of the picture inverted and back every
two frames six times in 0.4 s (the "explosion"; an inversion raises some points and lowers
others, so it is no flash), with the cut to the other scene at frame 152 in the middle of it."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
import video_corpus as vc

from moderator_app.core.video import scan_cuts
from moderator_app.core.video.scan import run_scan

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

TOGGLES = (146, 148, 150, 154, 156, 158)  # the region inverted from 146, back at 148, ...
CUT = 152  # 5.067 s at 30 fps
#: the region inverted (rows, columns of 320x240): 42 % of the picture, or 48 %
REGIONS = {"part": (40, 200, 60, 260), "half": (24, 240, 0, 170)}


class _Pictures:
    """What ffmpeg is given (`video_corpus._ffmpeg`): 300 frames at 30 fps."""

    frames, fps = 300, 30

    def __init__(self, region: tuple[int, int, int, int] | None, cut: int | None) -> None:
        self.region, self.cut = region, cut

    def picture(self, n: int) -> np.ndarray:
        img = vc.draw_frame(n, 1 if self.cut is not None and n >= self.cut else 0)
        if self.region is not None and sum(n >= t for t in TOGGLES) % 2:
            y0, y1, x0, x1 = self.region
            img[y0:y1, x0:x1] = 255 - img[y0:y1, x0:x1]
        return img


def _video(path: Path, pictures: _Pictures) -> Path:
    vc._ffmpeg(["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{vc.W}x{vc.H}", "-r", "30",
                "-i", "-", "-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-pix_fmt",
                "yuv420p", "-g", "60", "-threads", "1", str(path)], pictures)  # type: ignore[arg-type]
    return path


def _cuts(path: Path) -> list[float]:
    return [round(s.start_s, 3) for s in run_scan(path, cache=False).spans
            if s.rule == "video.cut"]


@pytest.mark.parametrize("region", sorted(REGIONS))
def test_a_cut_inside_a_train_of_changes_keeps_its_cut(tmp_path, region, monkeypatch):
    """The cut at 5.067 s (frame 152) is the one `video.cut`; the six inversions none. Without
    the rule that keeps it (session 29's `_lone`): no cut at all."""
    path = _video(tmp_path / "burst.mp4", _Pictures(REGIONS[region], CUT))
    assert _cuts(path) == [5.067]  # duration-ok: video time of the cut, frame 152
    monkeypatch.setattr(scan_cuts, "TRAIN_STANDS", float("inf"))
    monkeypatch.setattr(scan_cuts, "TRAIN_WIDER", float("inf"))
    assert _cuts(path) == []


def test_a_train_of_changes_alone_is_still_no_cut(tmp_path, monkeypatch):
    """The same inversions without the cut: none (session 29's rule); without the train rule
    each of the six is a candidate, one note for the six (session 32: candidates within 0.5 s
    of each other are one change's, `scan_cuts._merged`), six without the merge."""
    path = _video(tmp_path / "train.mp4", _Pictures(REGIONS["half"], None))
    assert _cuts(path) == []
    monkeypatch.setattr(scan_cuts, "TRAIN_OTHERS", 10**9)
    assert len(_cuts(path)) == 1
    monkeypatch.setattr(scan_cuts, "MERGE_S", 0.0)
    assert _cuts(path) == [round(t / 30, 3) for t in TOGGLES]  # duration-ok: their frames


def test_a_cut_without_a_train_is_a_cut(tmp_path):
    """The cut alone: one `video.cut` at its frame, as before."""
    assert _cuts(_video(tmp_path / "cut.mp4", _Pictures(None, CUT))) == [5.067]  # duration-ok: frame 152
