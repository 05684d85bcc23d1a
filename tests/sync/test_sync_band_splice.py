"""A cut on a screen that moves on its own, read per stretch in the player's band at the band's
own reaction delay, at the moderator's offset (issue 13, session 23, QA s20 M3;
core/sync/band_splice.py).

Phoenix (birds and stars move all the time; the ship's row answers the presses 0-1 frame
late) with 4 s cut at video 19.30 s, built by the corpus generator as QA builds its held-out
runs (QA s20's agent, seed 183, H.264 in MP4 at 48 fps, x2, a 3.3 s lead-in). No stage
suggests an offset, and on main the analysis at the true offset said nothing: the band's 0.1 s
window answers 9.5 % of frames at the ship's delay but far more in the whole window, so the 13
presses after the cut were answered as often at other shifts. Now the presses after the cut
are answered at -4.0 s in the ship's row (6 spreads over their shuffled gaps), and the cut is a
`sync.offset_jump` of -4.0 s at video 19.31 s. The genuine run of the same game and recorder
(its third seed: no offset suggested either, so the reading runs) has no sync finding at its
true offset, nor at an offset given 0.3 s late (where, without the head's own test at the
given offset, its tail lined up at -14.13 s).
"""

from __future__ import annotations

import sys

import corpus
import pytest

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture(autouse=True)
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


def _run(kind: str, fps: int) -> corpus.Run:
    """QA s20's Phoenix agent (tests/sync/test_sync_capture_rates.py), built once into the
    corpus cache."""
    from corpus.record import Recorder

    sys.path.insert(0, str(corpus.REPO / "tests" / "sync"))
    from test_sync_capture_rates import GAMES

    agent, seed = GAMES["phoenix"]
    return corpus.build_with(f"s23-phoenix-{kind}@r{fps}mp4", "phoenix", agent, kind, seed,
                             Recorder(fps=fps, scale=2, lead_s=3.3, container="mp4"),
                             f"r{fps}mp4")


def _at(run: corpus.Run, offset_s: float):
    return analyze(run.action_times, frame_signals(run.video), DEFAULT_THRESHOLDS, offset_s,
                   run_duration_s=run.run_end_s)


def test_a_cut_on_a_moving_screen_is_found_per_stretch_at_the_offset_given():
    run = _run("cut", 48)
    t = run.truth["tamper"]
    a = _at(run, run.truth["offset_s"])
    assert a.suggested_offset_s is None  # (nothing suggests: the path under test)
    assert [f.rule for f in a.findings] == ["sync.offset_jump"]
    [f] = a.findings
    assert f.video_start_s is not None and f.size_s is not None
    assert abs(f.video_start_s - t["video_s"]) <= 1.0  # duration-ok: a video time (+-1 s)
    assert abs(f.size_s - t["size_s"]) <= 2 / 48  # duration-ok: footage removed, 2 frames
    assert "per stretch in the player's band, row 7 of 8" in f.message


def test_the_genuine_run_at_its_offset_has_no_sync_finding():
    run = _run("genuine3", 48)
    a = _at(run, run.truth["offset_s"])
    assert a.suggested_offset_s is None  # (the reading runs on it)
    assert [f for f in a.findings if f.rule.startswith("sync.")] == []


def test_an_offset_given_late_reads_no_splice_on_a_genuine_run():
    """At the truth + 0.3 s the head's band answers the given offset 2.20 spreads over other
    offsets (band_jump.AT_MIN_Z 3): without that test, a -14.13 s jump at 18.30 s."""
    run = _run("genuine3", 60)
    a = _at(run, run.truth["offset_s"] + 0.3)
    assert [f for f in a.findings if f.rule == "sync.offset_jump"] == []
