"""`verify --offset auto` with no suggestion still says what holds at every offset (issue 13,
session 13, cli/verify.py `_no_suggestion`).

Before, "not enough signal" threw the whole report away: the one `unreadable` object, exit 2,
and nothing else, though the sync analysis had found a held picture at every offset at which
the video covers the run and `--scan` a frozen stretch. Session 13's recall table
(docs/qa/session13-sync.md): 1 of 44 tamperings of six low-signal games reported by
`--scan --offset auto`. Now the refusal (exit 2, `verdict: unreadable`, the same error) carries
the findings that need no offset (`findings`, `sync`, `video_scan`); coverage's, which hang on
the offset, are left out.
"""

from __future__ import annotations

import json
import subprocess
import sys

import corpus
import pytest

needs_corpus = pytest.mark.skipif(corpus.available() is not None,
                                  reason=f"corpus cannot be built: {corpus.available()}")


def _verify(folder, *extra, env_cache):
    import os

    env = {**os.environ, "MODERATOR_APP_CACHE": str(env_cache)}
    return subprocess.run([sys.executable, "-m", "moderator_app", "verify", str(folder),
                           "--offset", "auto", *extra], capture_output=True, text=True,
                          env=env)


@needs_corpus
def test_a_freeze_on_a_game_without_an_offset_is_reported_by_offset_auto():
    """Skiing (held out, the slope scrolls): no offset stands out, and its 4 s freeze
    (video 21.45-25.45 s) is a held picture at every offset from 0 to 3.03 s and a frozen
    stretch for the scan. Main printed `{"schema", "verdict", "error"}` alone."""
    run = corpus.build("skiing-freeze")
    cache = corpus.cache_dir() / "scan-cache"
    out = _verify(run.folder, "--scan", "--json", env_cache=cache)
    assert out.returncode == 2
    rep = json.loads(out.stdout)
    assert rep["verdict"] == "unreadable"
    assert rep["error"].startswith("--offset auto: not enough signal to suggest an offset")
    sync = rep["sync"]
    assert sync["suggested_offset_s"] is None and sync["not_enough_signal"] is True
    [held] = sync["findings"]
    assert held["rule"] == "sync.no_reaction"
    assert (held["video_start_s"], held["video_end_s"]) == pytest.approx(
        (21.45, 25.45), abs=1e-3)  # duration-ok: video times of the frozen frames
    rules = [f["rule"] for f in rep["findings"]]
    assert "sync.no_reaction" in rules and "sync.not_enough_signal" in rules
    assert not [r for r in rules if r.startswith("coverage.")]  # they need the offset
    frozen = [f for f in rep["video_scan"]["findings"] if f["rule"] == "video.frozen"]
    # the held picture's video times (a place in the footage, not a duration)
    held_at = [(f["start_s"] <= 21.5, f["end_s"] >= 25.4) for f in frozen]  # duration-ok
    assert held_at == [(True, True)]


@needs_corpus
def test_the_human_report_lists_them_before_the_refusal():
    run = corpus.build("skiing-freeze")
    out = _verify(run.folder, env_cache=corpus.cache_dir() / "scan-cache")
    assert out.returncode == 2
    lines = out.stdout.splitlines()
    assert lines[0] == "Found without an offset:"
    assert len(lines) == 2 and "sync.no_reaction" in lines[1] and "video 21.45 s" in lines[1]
    assert "not enough signal" in out.stderr


@needs_corpus
def test_a_suggestion_under_the_one_click_bar_is_not_used_for_a_verdict():
    """Session 18: the workstation withholds one-click Apply under confidence 0.5
    (`records.APPLY_MIN_CONFIDENCE`); `--offset auto` used any suggestion for its verdict.
    pong-freeze's suggestion is right (1.769 s, truth 1.767) but at confidence 0.42: main
    printed PASS at that offset, exit 0. Now the same refusal as with no suggestion, the
    suggestion and what was found at it kept in the one JSON object."""
    run = corpus.build("pong-freeze")
    cache = corpus.cache_dir() / "scan-cache"
    out = _verify(run.folder, "--json", env_cache=cache)
    assert out.returncode == 2
    rep = json.loads(out.stdout)
    assert rep["verdict"] == "unreadable"
    assert rep["error"].startswith("--offset auto: the suggestion, run_start at video 1.769 s, "
                                   "has confidence 0.42, under 0.50")
    sync = rep["sync"]
    assert sync["suggested_offset_s"] == pytest.approx(run.truth["offset_s"], abs=1 / 60)  # duration-ok
    assert sync["confidence"] < 0.5  # duration-ok: a confidence, not a time
    assert [f["rule"] for f in rep["findings"]] == ["sync.no_reaction"]
    human = _verify(run.folder, env_cache=cache)
    assert human.returncode == 2
    assert human.stdout.splitlines()[0] == \
        "Found at the suggested offset 1.769 s (confidence 0.42):"
    assert "under 0.50" in human.stderr
