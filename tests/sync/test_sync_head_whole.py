"""The first half's offset (analysis._from_head, for a video spliced from a second attempt)
must leave a mark on the whole run: Amidar sped up 5 % (session 12's QA, F2; built here with
the QA's agent, seed and recorder through the corpus generator) had its first 10 actions
stand out at 14.26 s by chance (truth 1.68 s), the whole run there only 2.05 spreads: a
confident offset 755 frames off, a false `sync.offset_jump` and `sync.no_reaction`. Pitfall's
retake, the one corpus run that takes its head's offset (7.22 spreads), keeps it."""

from __future__ import annotations

import json
import random

import corpus
import pytest

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


def _amidar(ram, rng: random.Random) -> list[tuple[str, int]]:
    """scripts/qa_session12.py's Amidar agent (reads no RAM)."""
    if rng.random() < 0.9:
        return [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT", "LEFT", "RIGHT")),
                 rng.randint(10, 26))]
    return [("FIRE", rng.randint(3, 5))]


@pytest.fixture
def amidar_speed5(monkeypatch):
    from corpus import agents
    from corpus.build import SPEEDUPS, generate
    from corpus.record import Recorder

    monkeypatch.setitem(agents.AGENTS, "amidar", _amidar)
    monkeypatch.setitem(SPEEDUPS, "speed5", 0.05)
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))
    out = corpus.cache_dir() / "s12" / "amidar-speed5"
    if not (out / "truth.json").exists():
        generate("amidar", "speed5", out, seed=73, rec=Recorder(fps=60, scale=2))
    return out


def test_a_head_offset_the_whole_run_does_not_show_is_no_suggestion(amidar_speed5):
    truth = json.loads((amidar_speed5 / "truth.json").read_text())
    e = [ev["elapsedMs"] / 1000 for ev in map(json.loads, (amidar_speed5 / "agent-log.jsonl")
                                              .read_text().splitlines())
         if ev["type"] == "action"]
    a = analyze(e, frame_signals(amidar_speed5 / "video.mp4"), DEFAULT_THRESHOLDS)
    assert truth["offset_s"] == 1.68254
    assert a.suggested_offset_s is None
    assert a.reason == "the video's reactions do not single out one offset"
    assert a.findings == []


def test_pitfall_retake_keeps_its_head_offset(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))
    run = corpus.build("pitfall-retake")
    a = analyze(run.action_times, frame_signals(run.video), DEFAULT_THRESHOLDS)
    assert a.suggested_offset_s is not None
    assert abs(a.suggested_offset_s - run.truth["offset_s"]) * run.truth["fps"] <= 0.2  # duration-ok: frames of video, not a time taken
    assert [f.rule for f in a.findings] == ["sync.offset_jump"]
