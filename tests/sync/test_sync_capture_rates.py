"""Real games captured at 24, 48 and 50 fps: a drift's sign the lines cannot tell, and the
capture's own delay (issue 13, session 22).

The runs are s22-sync's checks (/work/brief/s22/frag-sync.md), built by the corpus generator
as QA builds its held-out runs: QA s20's agents, H.264 in MP4, x2, a 3.3 s lead-in; a slowed
run holds one console frame in 25 (-4 %), a sped-up one drops one in 26 (+4 %).
- Beam Rider slowed 4 % at 24 fps: its strongest line, 7.198 Hz, is the 8-frame cycle slowed
  4.02 % or the 30 Hz cycle aliased and sped up 3.99 %. One weak line (a slower event's
  harmonic, 3.207 Hz) read +3.97 %, the holds' comb line at 9.593 Hz -4.07 %: main said a
  `sync.drift` of +3.98 %, a confident wrong sign (`pace._rival`).
- Frogger and Phoenix at 48 and 50 fps: a video frame shows a console frame only from the
  first frame taken at or after it, on average 0.40 (48 fps) and 0.42 (50 fps) of a video
  frame late, which the fit's latency prior (measured at 60 and 30 fps) did not take off:
  main suggested 1.07 and 1.06 frames late (`cadence.capture_lag_s`).
"""

from __future__ import annotations

import random
import sys

import corpus
import pytest

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.cadence import capture_lag_s
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

needs_corpus = pytest.mark.skipif(corpus.available() is not None,
                                  reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture(autouse=True)
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


def _frogger(ram, rng: random.Random) -> list[tuple[str, int]]:
    r = rng.random()
    if r < 0.55:
        return [("UP", rng.randint(4, 9))]
    if r < 0.85:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(4, 9))]
    return [("DOWN", rng.randint(4, 9))]


def _beam_rider(ram, rng: random.Random) -> list[tuple[str, int]]:
    r = rng.random()
    if r < 0.5:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(6, 14))]
    if r < 0.88:
        return [(rng.choice(("FIRE", "LEFTFIRE", "RIGHTFIRE")), rng.randint(3, 8))]
    return [("UP", rng.randint(3, 6))]


def _phoenix(ram, rng: random.Random) -> list[tuple[str, int]]:
    r = rng.random()
    if r < 0.55:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(6, 20))]
    if r < 0.85:
        return [(rng.choice(("FIRE", "LEFTFIRE", "RIGHTFIRE")), rng.randint(3, 8))]
    return [("DOWN", rng.randint(4, 8))]


GAMES = {"frogger": (_frogger, 201), "beam_rider": (_beam_rider, 191),
         "phoenix": (_phoenix, 183)}


def _run(monkeypatch, game: str, kind: str, fps: int) -> corpus.Run:
    """The run, built once into the corpus cache (speed4: +4 %, slow: -4 %)."""
    from corpus.record import Recorder

    cb = sys.modules["corpus.build"]  # the package's `build` is the function

    monkeypatch.setitem(cb.SPEEDUPS, "speed4", 0.04)
    monkeypatch.setattr(cb, "SLOWDOWN", 1 / 0.96 - 1)
    agent, seed = GAMES[game]
    return corpus.build_with(f"s22-{game}-{kind}@r{fps}mp4", game, agent, kind, seed,
                             Recorder(fps=fps, scale=2, lead_s=3.3, container="mp4"),
                             f"r{fps}mp4")


def _analysis(run: corpus.Run):
    return analyze(run.action_times, frame_signals(run.video), DEFAULT_THRESHOLDS,
                   run_duration_s=run.run_end_s)


def _found(a) -> list[tuple[str, float | None]]:
    return [(f.rule, f.percent) for f in a.findings]


@needs_corpus
def test_a_sign_two_lines_read_each_way_is_read_from_the_presses(monkeypatch):
    """Beam Rider slowed 4 % at 24 fps: the lines say no drift (session 22's main:
    `sync.drift` +3.98 %, a wrong sign). Since session 29 the player's band searched with
    the speed (`band.select_over_speeds`) reads it from the presses: -4.08 %, the offset
    0.09 frame early, shown under the one-click bar (before: no finding, no offset)."""
    run = _run(monkeypatch, "beam_rider", "slow", 24)
    a = _analysis(run)
    assert _found(a) == [("sync.drift", -4.08)]
    assert a.suggested_offset_s is not None
    assert abs(a.suggested_offset_s - run.truth["offset_s"]) * 24 < 0.5  # duration-ok: frames
    assert a.confidence < 0.5


@needs_corpus
def test_the_same_slowed_run_at_25_fps_keeps_its_sign(monkeypatch):
    """At 25 fps the same run's 7.201 Hz line reads slowed only: -3.99 % (sessions 22-28).
    Since session 29 the ship's band without its busy tiles (`band.calm_signals`) reads it
    from the presses first: -3.96 %, the offset 0.16 frame late at 0.956 (before: no
    offset)."""
    run = _run(monkeypatch, "beam_rider", "slow", 25)
    a = _analysis(run)
    assert _found(a) == [("sync.drift", -3.96)]
    assert abs(a.suggested_offset_s - run.truth["offset_s"]) * 25 < 0.5  # duration-ok: frames
    assert a.confidence >= 0.5


@needs_corpus
def test_a_sign_more_lines_read_is_kept_at_24_fps(monkeypatch):
    """Frogger sped up 4 % at 24 fps: three lines read +4 % and two -4 % (+3.97 %: a rule
    that silenced every line with two readings lost it). Since session 29 the frog's band
    searched with the speed reads +4.05 % from the presses first, and the offset 0.36
    frame late (before: +3.97 % from the lines, no offset)."""
    run = _run(monkeypatch, "frogger", "speed4", 24)
    a = _analysis(run)
    assert _found(a) == [("sync.drift", 4.05)]
    assert abs(a.suggested_offset_s - run.truth["offset_s"]) * 24 < 0.5  # duration-ok: frames


@needs_corpus
@pytest.mark.parametrize("game,kind,fps,frames", [
    ("frogger", "genuine2", 48, 0.67),   # main: 1.07
    ("phoenix", "genuine", 50, 0.65),    # main: 1.06
])
def test_the_offset_at_48_and_50_fps_is_within_a_frame(monkeypatch, game, kind, fps, frames):
    """The suggestion within a frame of the truth (the video time of run_start), no finding;
    the offset the reactions are measured at keeps the fit's."""
    run = _run(monkeypatch, game, kind, fps)
    a = _analysis(run)
    assert _found(a) == []
    off = (a.suggested_offset_s - run.truth["offset_s"]) * fps
    assert off == pytest.approx(frames, abs=0.01)
    assert abs(off) < 1.0
    assert round((a.offset_used_s - a.suggested_offset_s) * fps, 1) == \
        round(capture_lag_s(fps) * fps, 1)


@pytest.mark.parametrize("fps,frames", [
    (60, 0.0), (120, 0.0), (30, 0.0),      # each frame shows its own time's game frame
    (48, 0.4), (24, 0.4), (50, 5 / 12), (40, 1 / 3), (20, 1 / 3), (25, 11 / 24),
    (59.94, 0.5), (29.97, 0.5),            # no short common period: half a frame
])
def test_the_capture_lag_per_rate(fps, frames):
    assert capture_lag_s(fps) * fps == pytest.approx(frames, abs=1e-9)
