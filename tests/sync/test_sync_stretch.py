"""A stretch the offset does not explain (core/sync/stretch.py): a second attempt spliced in.

Before, a Pong video spliced from two attempts was fitted whole: an offset 1.6 frames late
(confidence 0.64) and no finding. Now the stretch after the splice, whose player answers no
more often than chance, is a `sync.no_reaction` placed at the splice.
"""

from __future__ import annotations

import corpus
import numpy as np
import orjson
import pytest

from moderator_app.core.sync import stretch
from moderator_app.core.sync.analysis import CHANCE_WORDS, analyze
from moderator_app.core.sync.signals import FrameSignals, frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS


def _s(bits: str) -> np.ndarray:
    return np.array([int(c) for c in bits], float)


def test_a_tail_at_chance_after_an_answered_opening_is_found_where_it_starts():
    s = _s("1" * 14 + "01000100100010")
    assert stretch.unexplained(s, np.full(len(s), 0.25))[:2] == (14, 28)


def test_a_head_at_chance_before_an_answered_rest_is_found_too():
    s = _s("00100100010" + "1" * 14)
    assert stretch.unexplained(s, np.full(len(s), 0.25))[:2] == (0, 11)


def test_a_few_misses_in_a_row_or_a_busy_screen_are_no_stretch():
    """Pong's second genuine run misses 5 presses in a row (its paddle at the wall); a screen
    where half the windows hold an answer by chance makes a stretch of misses weak evidence."""
    genuine = _s("110001111111111111101100000111")
    assert stretch.unexplained(genuine, np.full(len(genuine), 0.28)) is None
    busy = _s("1" * 12 + "0101010101")
    assert stretch.unexplained(busy, np.full(len(busy), 0.5)) is None
    short = _s("1" * 20 + "0000")  # Pitfall through a dropping recorder: 3 at the end
    assert stretch.unexplained(short, np.full(len(short), 0.2)) is None


def test_the_splice_is_the_largest_change_from_the_earliest_plausible_boundary():
    """Answered up to action 9, at chance after it; the picture jumps at frame 700 (video
    11.67 s), after action 10's expected frame, and more at frame 100 (before the stretch)."""
    n = 1500
    change = np.zeros((n, 1), np.uint16)
    change[700, 0], change[100, 0], change[900, 0] = 500, 900, 300
    sig = FrameSignals(np.arange(n) / 60.0, change, 60.0)
    s = _s("1" * 10 + "0" * 10)
    exp = 1.0 + np.arange(20) * 1.0
    v0, v1 = stretch.place(sig, s, np.full(20, 0.2), exp, 10, 20)
    assert round(v0 * 60) == 700  # duration-ok: a video time (frame 700)
    assert v1 == pytest.approx(exp[-1] + stretch.WINDOW_S)  # duration-ok: a video time


@pytest.mark.skipif(corpus.available() is not None,
                    reason=f"corpus cannot be built: {corpus.available()}")
def test_pong_spliced_from_a_second_attempt_gets_a_finding_at_the_splice(monkeypatch):
    """The held-out Pong retake (built here): the splice at video 22.23 s, every action after
    it unanswered by the truth."""
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))
    run = corpus.build("pong-retake")
    truth = run.truth
    events = [orjson.loads(x) for x in run.log.read_bytes().splitlines()]
    e = [ev["elapsedMs"] / 1000 for ev in events if ev["type"] == "action"]
    a = analyze(e, frame_signals(run.video), DEFAULT_THRESHOLDS)
    assert a.suggested_offset_s is not None, a.reason
    [f] = a.findings
    assert f.rule == "sync.no_reaction" and CHANCE_WORDS in f.message
    splice = truth["tamper"]["video_s"]
    assert abs(f.video_start_s - splice) <= 1 / truth["fps"]  # duration-ok: a video time
    assert f.run_start_s > truth["tamper"]["run_s"]  # the stretch starts after the splice
    assert f.actions == sum(x["elapsed_ms"] / 1000 >= f.run_start_s for x in truth["actions"])
