"""The sync analysis takes at most `MAX_ACTIONS` actions, in the CLI as in the workstation
(issue 15: a community log of 1,000,000 actions beside a 150 s video cost `verify --offset
auto` 74 s of CPU, and ran out of memory under the 512 MiB bound). The bound is about the
input: past it nothing is analysed or decoded, and every entry point says so in the same
words (the Sync panel's test is tests/ui/test_ui_sync_lane.py)."""

from __future__ import annotations

import json
from dataclasses import replace

import corpus
import pytest

from moderator_app.cli import main as cli_main
from moderator_app.core.sync import run as sync_run
from moderator_app.core.verify.pipeline import verify_paths

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")

WHY = ("actions, more than the 5 the sync analysis takes: none analysed (its time and memory "
       "grow with the actions; an honest run presses a few times a second)")


def test_the_default_bound_holds_without_the_window(tmp_path):
    """100,001 actions: refused before any decode, whoever calls (the CLI passes no cap)."""
    run = corpus.build("breakout-genuine")
    result = verify_paths([run.folder])
    with pytest.raises(sync_run.TooManyActions) as got:
        sync_run.analyze_result(replace(result, input_times=[0.5] * 100_001))
    assert (got.value.actions, got.value.cap) == (100_001, 100_000)
    assert str(got.value).startswith("100001 actions, more than the 100000 the sync analysis")


def test_verify_sync_past_the_bound_is_a_note_and_decodes_nothing(decodes, capsys,
                                                                 monkeypatch):
    run = corpus.build("breakout-genuine")
    monkeypatch.setattr(sync_run, "MAX_ACTIONS", 5)
    assert cli_main(["verify", str(run.folder), "--sync", "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    n = len(run.truth["actions"])
    assert n > 5
    got = [(f["rule"], f["severity"], f["message"]) for f in rep["findings"]
           if f["rule"].startswith("sync.")]
    assert got == [("sync.not_analysed", "info", f"sync analysis not run: {n} {WHY}")]
    assert rep["verdict"] == "pass" and rep["sync"] is None
    assert decodes == []


def test_offset_auto_past_the_bound_says_why_and_exits_2(decodes, capsys, monkeypatch):
    run = corpus.build("breakout-genuine")
    monkeypatch.setattr(sync_run, "MAX_ACTIONS", 5)
    assert cli_main(["verify", str(run.folder), "--offset", "auto", "--json"]) == 2
    out = capsys.readouterr()
    n = len(run.truth["actions"])
    why = f"--offset auto: {n} {WHY}; give --offset SECONDS"
    assert json.loads(out.out) == {"schema": "moderator-app/report/v1",
                                   "verdict": "unreadable", "error": why}
    assert out.err == f"moderator-app: {why}\n"
    assert decodes == []


def test_the_analysis_takes_the_actions_the_footage_could_show():
    """A run the footage covers is taken whole; actions no offset and speed searched can put
    on the footage are left out, keeping the densest stretch (issue 15: 63,000 years of
    elapsed time ran the analysis out of memory)."""
    times = [0.5 * i for i in range(100)]
    assert sync_run.within_reach(times, 48.0) == times
    assert sync_run.within_reach(times + [2e12, 2e12 + 0.001], 48.0) == times
    assert sync_run.within_reach([1e6, 0.0, 1e6 + 1, 1.0, 1e6 + 2], 10.0) == \
        [1e6, 1e6 + 1, 1e6 + 2]


def _signals(times):
    import numpy as np

    from moderator_app.core.sync.signals import GRID, FrameSignals, frame_period

    times = np.asarray(times, dtype=float)
    tiles = np.zeros((len(times), GRID * GRID), dtype=np.uint16)
    tiles[1::2, 5] = 40  # a tile that changes every other frame
    return FrameSignals(times, tiles, 1.0 / frame_period(times))


@pytest.mark.parametrize(("times", "frames", "fps"), [
    ([k * 1e-9 for k in range(100)], 100, "1e+09"),  # 100 frames 1 ns apart: 22 GB before
    ([k / 60 for k in range(10)] + [3000.0], 11, "60"),  # 180,000 periods: past 99 s before
])
def test_frames_finer_than_the_analysis_reads_are_not_analysed(monkeypatch, times, frames,
                                                               fps):
    """Session 25 hostile sweep: the analysis counts its windows, tables and correlations in
    frame periods of the span; a video of a few frames over many periods is refused before
    any of it (`TooFineFrames`), in the CLI's note and the Sync panel's words."""
    run = corpus.build("breakout-genuine")
    result = verify_paths([run.folder])
    monkeypatch.setattr(sync_run, "frame_signals", lambda *a, **k: _signals(times))

    def analysed(*a, **k):
        raise AssertionError("analysed")
    monkeypatch.setattr(sync_run, "analyze", analysed)
    with pytest.raises(sync_run.TooFineFrames) as got:
        sync_run.analyze_result(result, offset_s=0.0)
    assert got.value.frames == frames
    assert str(got.value).startswith(f"the video's {frames} frames are ")
    assert f"({fps} a second)" in str(got.value) and "none analysed" in str(got.value)


def test_verify_sync_on_frames_finer_than_it_reads_is_a_note(monkeypatch, capsys):
    run = corpus.build("breakout-genuine")
    monkeypatch.setattr(sync_run, "frame_signals",
                        lambda *a, **k: _signals([k * 1e-9 for k in range(100)]))
    assert cli_main(["verify", str(run.folder), "--sync", "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    got = [(f["rule"], f["message"][:61]) for f in rep["findings"]
           if f["rule"].startswith("sync.")]
    assert got == [("sync.not_analysed",
                    "sync analysis not run: the video's 100 frames are 1e-09 s apa")]


def test_a_recording_shorter_than_the_novelty_window_is_analysed(monkeypatch):
    """11 frames at 60 fps: the novelty's local window (121 frames) is longer than the
    recording; np.convolve(..., "same") answered 121 values for 11 and `verify --sync` ended
    in a ValueError (session 25)."""
    from moderator_app.core.sync import reactions

    sig = _signals([k / 60 for k in range(11)])
    nov = reactions.novelty(sig)
    assert len(nov.score) == len(nov.excess) == len(nov.spread) == 11
    one = reactions.novelty(_signals([0.0, 1 / 60]))
    assert len(one.score) == 2
