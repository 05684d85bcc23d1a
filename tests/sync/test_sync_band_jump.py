"""A cut on a screen that moves on its own, read in the player's band at the moderator's
offset (issue 13, session 19, QA s18 L2; core/sync/band_jump.py).

Frostbite (the corpus' held-out set: the floes move all the time, the jumper answers the
presses) with 4 s cut at video 19.28 s: the cut takes away the whole run's band test (margin
8.56 -> 0.18), so no stage suggests an offset. On main, at the true offset given, the analysis
said nothing at all: no finding. Now the band that answers the presses best at that offset
shows the two stretches, and the cut is a `sync.offset_jump` of -4.01 s at video 18.70 s.
The genuine run at its true offset still has no sync finding.
"""

from __future__ import annotations

import corpus
import pytest

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


def _at_truth(name: str, monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))
    run = corpus.build(name)
    a = analyze(run.action_times, frame_signals(run.video), DEFAULT_THRESHOLDS,
                run.truth["offset_s"], run_duration_s=run.run_end_s)
    return run, a


def test_a_cut_without_a_suggestion_is_found_at_the_offset_given(monkeypatch):
    run, a = _at_truth("frostbite-cut", monkeypatch)
    t = run.truth["tamper"]
    assert a.suggested_offset_s is None  # (nothing suggests: the path under test)
    jumps = [f for f in a.findings if f.rule == "sync.offset_jump"]
    assert len(jumps) == 1, a.findings
    [f] = jumps
    assert f.video_start_s is not None and f.size_s is not None
    assert abs(f.video_start_s - t["video_s"]) <= 1.0  # duration-ok: a video time (+-1 s)
    assert abs(f.size_s - t["size_s"]) <= 0.1  # duration-ok: footage removed, in seconds
    assert "player's band at the offset given" in f.message


def test_the_genuine_run_at_its_offset_has_no_sync_finding(monkeypatch):
    _, a = _at_truth("frostbite-genuine", monkeypatch)
    assert [f for f in a.findings if f.rule.startswith("sync.")] == []


def test_a_default_offset_the_band_does_not_answer_at_reads_nothing(monkeypatch):
    """`verify --sync` without --offset analyses at 0 s: Pong's third genuine run (truth
    2.2 s) got a false -14.89 s jump there before the band had to answer at the given offset
    more than at others (its band stands 2.85 spreads there; band_jump.AT_MIN_Z 3)."""
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))
    run = corpus.build("pong-genuine3")
    a = analyze(run.action_times, frame_signals(run.video), DEFAULT_THRESHOLDS, 0.0,
                run_duration_s=run.run_end_s)
    assert [f for f in a.findings if f.rule.startswith("sync.")] == []
