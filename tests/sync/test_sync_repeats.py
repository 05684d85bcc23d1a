"""A slowed video is found from its evenly repeated frames, without a fitted offset (issue 13,
session 11, core/sync/repeats.py).

Before, a drift was found only through the fit, so on every game whose picture singles out no
offset a slowed video was silent (held-out Skiing, Freeway, Asteroids). A video slowed at a
constant frame rate shows one frame in every P twice, evenly; in a picture that otherwise
changes on every frame that is a drift of -100/P %, offset or not.
"""

from __future__ import annotations

import corpus
import numpy as np
import pytest

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.signals import FrameSignals, frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

FPS = 60.0
PRESSES = np.arange(0.5, 36.0, 1.0)  # run times: a press a second


def _moving(n: int, repeated=()) -> FrameSignals:
    """A picture that changes on every frame in one tile, in no step with the log (no offset
    stands out); the frames `repeated` show no change (a frame shown twice)."""
    rng = np.random.default_rng(11)
    tiles = np.zeros((n, 64), np.uint16)
    tiles[1:, 9] = rng.integers(5, 40, n - 1)
    tiles[np.asarray(list(repeated), int)] = 0
    return FrameSignals(np.arange(n) / FPS, tiles, FPS)


def _slowed(n: int, percent: float) -> list[int]:
    """The frames a constant-rate slowdown shows twice (the corpus' `slow` kind: frame k
    shows source frame floor(k * (1 + p)))."""
    src = np.floor(np.arange(n) * (1 + percent / 100)).astype(int)
    return [k for k in range(1, n) if src[k] == src[k - 1]]


def _drifts(a):
    return [f for f in a.findings if f.rule == "sync.drift"]


def test_evenly_repeated_frames_are_a_drift_with_no_offset():
    """40 s slowed 3 %: a repeat in every 34.33 frames, -2.91 %, over the whole video."""
    sig = _moving(2400, _slowed(2400, -100 * (1 - 1 / 1.03)))
    a = analyze(PRESSES, sig, DEFAULT_THRESHOLDS, run_duration_s=37.0)
    assert a.suggested_offset_s is None
    [f] = _drifts(a)
    assert f.percent == pytest.approx(-2.91, abs=0.01)
    assert (f.video_start_s, f.video_end_s) == (0.0, sig.times[-1])  # duration-ok: video times
    assert "one frame in every 34.3" in f.message


def test_the_drift_is_said_at_two_percent_too():
    """A 2 % slowdown repeats one frame in 51 (gaps all alike): -1.96 %."""
    [f] = _drifts(analyze(PRESSES, _moving(2400, _slowed(2400, -100 * (1 - 1 / 1.02))),
                          DEFAULT_THRESHOLDS, run_duration_s=37.0))
    assert f.percent == pytest.approx(-1.96, abs=0.01)


def test_repeats_lost_to_compression_leave_the_drift_said():
    """CRF 32 gives a third of the repeats a few changed points: their gaps are two or three
    periods, the period and the drift the same."""
    kept = _slowed(2400, -100 * (1 - 1 / 1.03))
    kept = [k for i, k in enumerate(kept) if i % 3 != 1]
    [f] = _drifts(analyze(PRESSES, _moving(2400, kept), DEFAULT_THRESHOLDS,
                          run_duration_s=37.0))
    assert f.percent == pytest.approx(-2.91, abs=0.01)


@pytest.mark.parametrize("why, repeated", [
    ("irregular still frames", sorted(np.random.default_rng(3).choice(
        np.arange(2, 2398), 70, replace=False).tolist())),
    ("a repeat in every 5 frames: a game's own pace, not a 20 % slowdown",
     range(5, 2400, 5)),
    ("a repeat in every 150 frames: under the 1 % a drift is said from", range(75, 4800, 150)),
    ("only the second half slowed", [k + 1200 for k in _slowed(1200, -2.91)]),
    ("too few repeats", range(34, 600, 34)),
])
def test_repeats_that_are_no_even_slowdown_are_not_a_drift(why, repeated):
    sig = _moving(4800 if "150" in why else 2400, repeated)
    assert _drifts(analyze(PRESSES, sig, DEFAULT_THRESHOLDS, run_duration_s=37.0)) == [], why


def test_repeats_hidden_among_the_games_own_still_frames_are_not_a_drift():
    """A game still one frame in four on its own: a repeat there tells nothing."""
    own = [k for k in range(3, 2400, 4)]
    sig = _moving(2400, sorted(set(own) | set(_slowed(2400, -2.91))))
    assert _drifts(analyze(PRESSES, sig, DEFAULT_THRESHOLDS, run_duration_s=37.0)) == []


needs_corpus = pytest.mark.skipif(corpus.available() is not None,
                                  reason=f"corpus cannot be built: {corpus.available()}")


@needs_corpus
@pytest.mark.parametrize("name, percent", [("skiing-slow", -2.91), ("skiing-genuine", None)])
def test_held_out_skiing_slowed_is_a_drift_and_its_genuine_run_silent(monkeypatch, name,
                                                                      percent):
    """Skiing's slope scrolls on every frame and no offset stands out: its slowed run was
    silent; its genuine run stays so."""
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))
    run = corpus.build(name)
    sig = frame_signals(run.video)
    a = analyze(run.action_times, sig, DEFAULT_THRESHOLDS, run_duration_s=run.run_end_s)
    assert a.suggested_offset_s is None
    if percent is None:
        assert a.findings == []
        return
    assert run.truth["tamper"]["percent"] == pytest.approx(percent, abs=0.01)
    [f] = a.findings
    assert f.rule == "sync.drift"
    assert f.percent == pytest.approx(percent, abs=0.01)
    assert (f.video_start_s, f.video_end_s) == (sig.times[0], sig.times[-1])  # duration-ok: video times
