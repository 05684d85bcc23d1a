"""The integrity scan's `video.cut` on Kaboom! (issue 12's "each cut within 0.5 s", "no false
video warnings on honest files"; session 29, splice): the game's four-frame flash, every time a
bomb is caught, changes the same tiles by the same amounts each time, and was 16-32 "possible
hard cut" notes on each honest 40 s run. A change that recurs at two other candidates is the
game's own (core/video/scan_cuts._unique); so is a train of changes, four or more within
0.5 s either side (Beam Rider's explosion, 12 notes in 0.6 s: `_lone`); a splice joins two
moments once. Here, beside the sync tests, because session 26's Kaboom! runs and session 22's
Beam Rider are built here (test_sync_lone_insertion._kaboom, test_sync_capture_rates._run)."""

from __future__ import annotations

import corpus
import pytest
from test_sync_capture_rates import _run
from test_sync_lone_insertion import _kaboom

from moderator_app.core.video.scan import run_scan

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture(autouse=True)
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


def _cuts(run) -> list[float]:
    return [round(s.start_s, 3) for s in run_scan(run.video).spans if s.rule == "video.cut"]


def test_kaboom_insertion_is_cut_at_both_edges_and_its_flashes_are_not():
    # 4 s of the run's own later footage inserted at video 22.867 s (ends 26.867 s): on main
    # the two edges were among 23 candidates, 21 of them the flash's frames
    run = _kaboom("insert", 2613)
    t = run.truth["tamper"]
    cuts = _cuts(run)
    assert cuts == [22.867, 26.967]
    assert abs(cuts[0] - t["video_s"]) <= 0.5  # duration-ok: video time of the first edge
    assert abs(cuts[1] - t["video_end_s"]) <= 0.5  # duration-ok: video time of the second edge


@pytest.mark.parametrize("seed", [2613, 2611])
def test_genuine_kaboom_flashes_are_no_cut_candidates(seed):
    # the insertion's genuine twin (seed 2613: 16 candidates on main) and another (28)
    assert _cuts(_kaboom("genuine", seed)) == []


def test_a_genuine_beam_rider_explosion_is_no_cut_candidate(monkeypatch):
    # 12 candidates on main, a train every 2-4 frames at 42.83-43.43 s
    assert _cuts(_run(monkeypatch, "beam_rider", "genuine", 30)) == []
