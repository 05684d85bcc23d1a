"""A splice of the same scene is a `video.cut` candidate (session 31, issue 12: "each inserted
cut is reported within ±0.5 s of where it was made"; QA s30 T8).

The cut rule judged only changes above its motion floor (`cut_min_motion`, 20 of 255). A
splice inside one game's footage changes a few things at once (the sprites, a slowly falling
water line, the score): QA s30's Kool-Aid Man cut at 12.40 s was a change of 3.7, 10x the
local level, and nothing was reported, with or without a burst of flashes beside it. Now
`scan_cut_steps` reports an isolated change whose *step* (what changed where the picture
held still the half second either side) is 2.5x the file's second largest other step: the
file's own changes are the null model, so a change the game makes again is not reported.

Built here by ffmpeg: a still scene (a banner, a score of four blocks that counts every 2 s,
a water line that falls 1 px every 32 frames, five sprites moving to and fro), 20 s at 30
fps; the splice removes 240 frames at frame 300 (10.000 s)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import cachelock
import numpy as np
import pytest

from moderator_app.core.video.scan import run_scan

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

W, H, FPS, FRAMES = 320, 240, 30, 600
CUT, GONE = 300, 240  # the splice: frames 300-539 of the play removed
BURST = (290, 292, 294, 296, 298, 302, 304, 306)  # white frames around the splice
RESETS = (150, 300, 450)  # the game's own jumps: every sprite placed elsewhere


def _scene(n: int, jumped: int = 0) -> np.ndarray:
    """Play frame n (`jumped`: the sprites' own jumps so far, each 90 frames of their
    travel)."""
    img = np.full((H, W, 3), 200, np.uint8)
    img[0:30] = (220, 120, 200)
    v = (n // 60) % 16
    for b in range(4):
        if v >> b & 1:
            img[8:22, 140 + 10 * b:148 + 10 * b] = (200, 60, 40)
    img[170 + n // 32:, 20:300] = (90, 90, 220)
    for k, (y, speed) in enumerate(((40, 2), (65, 3), (90, 1), (115, 2), (140, 1))):
        q = (speed * (n + 90 * jumped) + 70 * k) % 480
        x = 30 + (q if q < 240 else 480 - q)  # to and fro: no wrap-around
        img[y:y + 22, x:x + 22] = (40 + 30 * k, 60, 40)
    return img


def _video(path: Path, cut: bool = False, burst: bool = False,
           resets: tuple[int, ...] = ()) -> Path:
    play = [n + (GONE if cut and n >= CUT else 0) for n in range(FRAMES)]
    pictures = [_scene(p, sum(n >= r for r in resets)) for n, p in enumerate(play)]
    for f in BURST if burst else ():
        pictures[f] = np.full_like(pictures[f], 255)
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt",
                    "rgb24", "-s", f"{W}x{H}", "-r", str(FPS), "-i", "-", "-c:v", "libx264",
                    "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p", "-g", "60",
                    "-threads", "1", str(path)], input=np.stack(pictures).tobytes(), check=True)
    return path


@pytest.fixture(scope="module")
def videos(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("cut_steps")
    return {"honest": _video(d / "honest.mp4"), "cut": _video(d / "cut.mp4", cut=True),
            "cut_burst": _video(d / "cut_burst.mp4", cut=True, burst=True),
            "honest_burst": _video(d / "honest_burst.mp4", burst=True),
            "resets": _video(d / "resets.mp4", resets=RESETS),
            "one_reset": _video(d / "one_reset.mp4", resets=RESETS[1:2])}


def _cuts(path: Path) -> list[tuple[float, str]]:
    return [(round(s.start_s, 3), s.message) for s in run_scan(path, cache=False).spans
            if s.rule == "video.cut"]


@pytest.mark.parametrize("name", ["cut", "cut_burst"])
def test_a_splice_of_the_same_scene_is_a_cut_candidate(videos, name):
    """The splice's frame, with or without white frames every other frame around it (on
    main: nothing; its change 7 of 255, under the cut rule's floor of 20), said with its
    step and how far it stands over the file's others."""
    cuts = _cuts(videos[name])
    assert [t for t, _ in cuts] == [10.0]  # duration-ok: video time of frame 300
    assert "possible hard cut at 10.000 s (frame 300): change " in cuts[0][1]
    assert "where the picture held still the 15 frames either side" in cuts[0][1]
    assert "x the file's next such step but one, 0." in cuts[0][1]


@pytest.mark.parametrize("name", ["honest", "honest_burst", "resets"])
def test_no_candidate_on_the_games_own_changes(videos, name):
    """The same play unspliced, with the flashes, or with three jumps of every sprite as
    large as the splice (each one's step is the others': the game's own change)."""
    assert _cuts(videos[name]) == []


def test_a_games_one_off_change_is_a_candidate(videos):
    """The cost, said: one jump of every sprite the game makes once in the file is what a
    splice is to the picture (a note for the moderator to look at, as a level's new screen
    is under the cut rule's floor's own rule)."""
    assert [t for t, _ in _cuts(videos["one_reset"])] == [10.0]  # duration-ok: frame 300


SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def _qa_cut(case: str) -> Path:
    """QA s30's cut case, built by its generator in a process of its own (never imported:
    tests/sync/qa_runs.py says why)."""
    pytest.importorskip("ale_py")
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import qa_session30 as q; "
            "print(q.build_cut30(sys.argv[2]))")
    with cachelock.qa_builds():  # one QA generator at a time across the suite's workers
        out = subprocess.run([sys.executable, "-c", code, str(SCRIPTS), case],
                             capture_output=True, text=True, check=True).stdout
    return Path(out.strip().splitlines()[-1])


@pytest.mark.parametrize("case", ["c30_cut_no_flashes", "c30_cut_after_flash_burst",
                                  "c30_cut_inside_flash_burst"])
def test_qa30_kool_aid_man_cut_is_reported(case):
    """QA s30 T8: Kool-Aid Man, 30 fps H.264, 8 s removed at 12.40 s (frame 372), with no
    flash, white frames every other frame at 11.2-12.0 s, or at 12.0-12.9 s around the cut:
    on main only the game's own screen change at 4.133 s (the cut rule's, motion 33); now
    the splice's frame too."""
    d = _qa_cut(case)
    truth = json.loads((d / "cut_truth.json").read_text())
    assert truth["cut_frame"] == 372
    cuts = _cuts(d / "video.mp4")
    assert [t for t, _ in cuts] == [4.133, 12.4]  # duration-ok: video times of frames 124, 372
    assert cuts[1][1].startswith("possible hard cut at 12.400 s (frame 372): change 3.7 ")


@pytest.mark.parametrize(("n", "half"), [(11, 15), (16, 15), (40, 15), (9000, 15), (300, 4),
                                         (50, 1)])
def test_steps_are_each_frames_change_beyond_each_tiles_largest_around_it(n, half):
    """`scan_cut_steps.steps` (windowed maxima by doubling, in blocks of 8192 frames) against
    its definition, frame by frame: the mean over tiles of the change beyond the tile's
    largest in the `half` frames before and after, of the frames `around` keeps."""
    from moderator_app.core.video.scan_cut_steps import steps

    rng = np.random.default_rng(n + half)
    grid = rng.random((n, 6)).astype(np.float32) * 4
    grid[rng.random((n, 6)) < 0.01] = np.nan
    around = rng.random(n) > 0.2
    clean = np.nan_to_num(grid, nan=0.0)
    ref = np.where(around[:, None], clean, 0.0)
    want = np.zeros(n)
    for i in range(n):
        near = np.r_[max(0, i - half):i, i + 1:min(n, i + half + 1)]
        most = ref[near].max(axis=0) if near.shape[0] else np.zeros(6)
        want[i] = np.clip(clean[i] - most, 0.0, None).mean()
    assert np.allclose(steps(grid, half, around), want, atol=1e-6)
