"""QA s30's Backgammon (a board whose picture holds until a button: each press moves a cursor or
a checker, or is ignored), read beside its log (issue 13, QA s30 T1; session 31).

Two ways a genuine hold of a game that waits for its buttons warned:
- no one button ends three holds (backgammon-genuine2@r54qtrle: three holds end 0.061-0.065 s
  after the first FIRE, RIGHT and FIRE inside them): the holds ending at one frame's lag after
  the first press of *any* button inside them are its waits, when so close an agreement of so
  many is unlikely by chance (`wait_lag.lag_agreed(pooled=True)`, `wait_lag.pooled_chance`);
- a press the game answered by a change under the still stretch's noise bar (8 points at 18
  fps, backgammon-genuine@r18divx's LEFT at 14.66 s) made the next press of that button, which
  ends the hold, "not the first inside it": an earlier press answered faintly at the game's lag
  is not one a freeze hid (`wait_lag._at_the_lag(faint=)`).
Runs built by QA's generator in a process of its own (tests/sync/qa_runs.py).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from qa_runs import qa_run, share_scans

from moderator_app.cli import main as cli_main
from moderator_app.core.formats.submission import load_submission
from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.inputs import inputs
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.sync.wait_lag import _at_the_lag, lag_agreed, pooled_chance
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

ffmpeg = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


def _said(folder: Path, offset: str, capsys) -> list[tuple]:
    assert cli_main(["verify", str(folder), "--scan", "--sync", "--offset", offset,
                     "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    return [(f["rule"], f["severity"], round(f["video_start_s"], 3), round(f["video_end_s"], 3))
            for f in rep["findings"]
            if f["rule"] == "video.frozen" or f["rule"].startswith("sync.no_reaction")]


@ffmpeg
def test_holds_ending_at_one_frames_lag_after_any_button_are_the_games_waits(
        capsys, tmp_path, monkeypatch):
    share_scans(monkeypatch)
    folder = qa_run(30, "backgammon-genuine2@r54qtrle")
    # on main: `video.frozen` 5.611-10.574 s a warning at the truth (and 0.019-5.611 s and
    # `sync.no_reaction` 10.593-18.315 s at auto): the scan's hold holds a checker's move of
    # 11 points at 8.44 s, and its end, 10.574 s, is 0.064 s after a RIGHT
    assert _said(folder, "2.450", capsys) == [
        ("video.frozen", "info", 0.019, 5.611), ("video.frozen", "info", 5.611, 10.574),
        ("video.frozen", "info", 10.574, 43.463)]  # the last: held to the video's end
    video = folder / "video.mov"
    times, named = inputs(load_submission([folder / "agent-log.jsonl", video]))
    a = analyze(times, frame_signals(video), DEFAULT_THRESHOLDS, None, run_duration_s=40.0,
                input_kinds=named)
    assert a.suggested_offset_s is None  # no offset suggested (QA's "not enough signal")
    assert [f.rule for f in a.findings] == []
    # the offset: the middle of those at which the three agree (the truth 2.45 s; the waits'
    # notes only, never a suggestion), the lags read there
    assert [(w.start_s, w.end_s, w.kind, w.agreed, w.lags, w.offset_s) for w in a.waits] == [
        (0.037, 5.611, "press button=FIRE", 3, (0.089, 0.093), 2.4262),
        (8.463, 10.574, "press button=RIGHT", 3, (0.089, 0.093), 2.4262),
        (10.593, 18.315, "press button=FIRE", 3, (0.089, 0.093), 2.4262)]


@ffmpeg
def test_a_press_answered_under_the_noise_bar_is_no_press_the_hold_hid(
        capsys, tmp_path, monkeypatch):
    share_scans(monkeypatch)
    folder = qa_run(30, "backgammon-genuine@r18divx")
    # on main: `video.frozen` 10.444-16.0 s and `sync.no_reaction` 11.549-13.059 s warnings
    # (a FIRE and a NOOP the game ignores) at every offset
    assert _said(folder, "5.150", capsys) == [
        ("video.frozen", "info", 0.111, 10.333), ("video.frozen", "info", 10.444, 16.0),
        ("video.frozen", "info", 21.722, 25.222), ("video.frozen", "info", 26.389, 39.611),
        ("video.frozen", "info", 41.111, 46.222)]


def test_pooled_chance_is_the_null_models_count():
    # C(8, 3) * 3 * (0.0185 / 5.94) ** 2: genuine2 at auto
    assert pooled_chance(8, 3, 0.0185, 5.94) == pytest.approx(56 * 3 * (0.0185 / 5.94) ** 2)
    assert pooled_chance(30, 3, 0.0185, 5.0) > 0.01  # many presses near many holds: chance
    assert pooled_chance(2, 3, 0.01, 1.0) == 1.0  # too few pairs to agree


def _holds(ends: list[float]) -> list[tuple[float, float]]:
    return [(e - 3.0, e) for e in ends]


def test_pooled_holds_agree_at_one_frame_not_at_two():
    fps = 50.0
    kinds = ["FIRE", "RIGHT", "FIRE", "UP"]
    x = np.array([4.9, 9.9, 14.9, 19.9])  # each the first of its button inside its hold
    # lags 0.1, 0.11, 0.105 and 0.15 at offset 0, a moderator's (searched 1 s either side)
    at_one = _holds([5.0, 10.01, 15.005, 20.05])
    got = lag_agreed(at_one, x, kinds, fps, 0.2, -1.0, 1.0, 0.0, 3, True, pooled=True)
    assert got is not None and got[1] == {0: 0, 1: 1, 2: 2} and got[2] == (0.1, 0.11)
    # one button per hold: no one button agrees
    assert lag_agreed(at_one, x, kinds, fps, 0.2, -1.0, 1.0, 0.0, 3, True) is None
    # 0.15: 2.5 frames from the others
    spread = _holds([5.0, 10.05, 15.005, 20.05])
    assert lag_agreed(spread, x, kinds, fps, 0.2, -1.0, 1.0, 0.0, 3, True, pooled=True) is None
    # the same three at the suggestion's offset alone: three lags in 0.22 s of reach agree
    # within a frame by chance 3 * (0.02 / 0.22) ** 2 = 2.5 % of the time: not taken
    assert lag_agreed(at_one, x, kinds, fps, 0.2, 0.0, 0.0, 0.0, 3, True, pooled=True) is None


def test_an_earlier_press_answered_faintly_at_the_lag_is_not_one_the_hold_hid():
    fps = 18.0
    kinds = ["LEFT", "FIRE", "LEFT"]
    v = np.array([11.0, 12.0, 15.89])  # video times at the agreed offset
    holds = [(10.5, 16.0)]
    band = (0.1, 0.12)
    # the first LEFT unanswered: the hold may hide it (a freeze over its answer)
    assert _at_the_lag(holds, {}, v, kinds, band, fps) == {}
    faintly: set[int] = set()
    assert _at_the_lag(holds, {}, v, kinds, band, fps, np.array([11.11]), faintly) == {0: 2}
    assert faintly == {0}
    # a faint change off the lag (0.5 s after the press) answers nothing
    assert _at_the_lag(holds, {}, v, kinds, band, fps, np.array([11.5])) == {}


# QA s29's Basic Math (digits a press changes) in FFV1, read beside its log: the scan's share
# counts its answers as codec noise (session 31, QA s29 T1's leftover)


@ffmpeg
def test_a_scan_hold_the_picture_answers_presses_inside_is_a_note(
        capsys, tmp_path, monkeypatch):
    share_scans(monkeypatch)
    # the sync's rule alone: since session 35 the scan itself reads this hold again at full
    # resolution and says it first (the next test)
    from moderator_app.core.video import held_finer
    monkeypatch.setattr(held_finer, "finer", lambda scan, path, *a, **kw: scan)
    folder = qa_run(29, "basic_math-genuine@r36ffv1")
    assert cli_main(["verify", str(folder), "--scan", "--sync", "--offset", "4.300",
                     "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    frozen = [f for f in rep["findings"] if f["rule"] == "video.frozen"]
    # on main: a warning 10.944-21.556 s at every offset (QA s29 T1)
    assert [(f["severity"], round(f["video_start_s"], 3), round(f["video_end_s"], 3))
            for f in frozen] == [("info", 0.0, 10.917), ("info", 10.944, 21.556),
                                 ("info", 21.583, 45.306)]  # the first frame's, the last's
    assert "answers 4 presses inside it (video 15.67, 16.75, 18.22, 19.89 s" in \
        frozen[1]["message"]
    section = [(f["severity"], f["start_s"]) for f in rep["video_scan"]["findings"]
               if f["rule"] == "video.frozen"]
    assert section == [("info", 0.0), ("info", 10.944), ("info", 21.583)]


def _analysis(reactions, used: float | None = 2.0):
    from moderator_app.core.sync.reactions import Reaction
    from moderator_app.core.sync.records import SyncAnalysis

    return SyncAnalysis(used, 0.9, len(reactions), len(reactions), 1.0, "", used,
                        reactions=[Reaction(i, v - 2.0 - d, v - d, v, d, c)
                                   for i, (v, d, c) in enumerate(reactions)])


def _frozen(a0: float, a1: float):
    from moderator_app.core.rules import Finding, Severity

    return Finding(Severity.WARNING, "video.frozen", "the picture is frozen",
                   video_start_s=a0, video_end_s=a1)


def test_presses_answered_at_the_runs_delay_inside_a_scan_hold():
    from moderator_app.core.sync.run import wait_note

    outside = [(2.0, 0.02, 0.9), (4.0, 0.01, 0.95), (30.0, 0.015, 0.8)]
    said = wait_note(_frozen(10.0, 20.0), _analysis(outside + [(12.0, 0.02, 0.9),
                                                              (15.0, 0.01, 0.8)]))
    assert said.severity.value == "info" and "video 12.00, 15.00 s" in said.message
    # one answer is not enough; nor answers off the run's delay (a splice's jump: 0.23 s);
    # nor a reaction at the hold's first frame or its end (the change into it, the press
    # that ends it); nor weak ones
    for inside in ([(12.0, 0.02, 0.9)], [(12.0, 0.23, 0.9), (15.0, 0.35, 0.9)],
                   [(10.0, 0.02, 0.9), (19.95, 0.02, 0.9)], [(12.0, 0.02, 0.6),
                                                             (15.0, 0.01, 0.6)]):
        assert wait_note(_frozen(10.0, 20.0), _analysis(outside + inside)).severity.value == \
            "warning", inside
    # with no offset used, nothing is read
    assert wait_note(_frozen(10.0, 20.0), _analysis(outside + [
        (12.0, 0.02, 0.9), (15.0, 0.01, 0.8)], used=None)).severity.value == "warning"


@ffmpeg
def test_the_scan_reads_basic_maths_digits_at_full_resolution(capsys, tmp_path, monkeypatch):
    """Session 35: the same hold decoded again at full resolution changes at each digit (FFV1:
    every frame a keyframe, every change counted), never 3 s the same: the scan's own note,
    with or without a log."""
    share_scans(monkeypatch)
    folder = qa_run(29, "basic_math-genuine@r36ffv1")
    assert cli_main(["verify", str(folder), "--scan", "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    frozen = [f for f in rep["findings"] if f["rule"] == "video.frozen"]
    assert [(f["severity"], round(f["video_start_s"], 3)) for f in frozen] == [
        ("info", 0.0), ("info", 10.944), ("info", 21.583)]
    assert "at full resolution the picture changes inside it (video 11.47, 11.72" in \
        frozen[1]["message"]
