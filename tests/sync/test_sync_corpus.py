"""Sync analysis on real Atari runs (tests/corpus: ale-py + ffmpeg), against their ground truth.

What issue 13 judges: the suggested offset within one frame of the truth on genuine runs, no
sync warning on them, each tampering reported at its place (+-1 s; speed as drift within 1 pp),
and "not enough signal" rather than a confident wrong answer.
"""

from __future__ import annotations

import json
import subprocess
import sys

import corpus
import numpy as np
import orjson
import pytest
from corpus.build import HELD_OUT

from moderator_app.core.sync.analysis import CHANCE_WORDS, analyze
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture(autouse=True)
def scan_cache(monkeypatch):
    """Sync reads the integrity scan; its cache lives beside the corpus (kept between runs,
    never in the user's cache)."""
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


def _run(name):
    run = corpus.build(name)
    e = run.action_times
    return run.truth, analyze(e, frame_signals(run.video), DEFAULT_THRESHOLDS), e, run


def _rules(a):
    return sorted(f.rule for f in a.findings)


@pytest.mark.parametrize("game", ["breakout", "pitfall", "pong"])
def test_genuine_offset_within_one_frame_and_no_warning(game):
    truth, a, _, _ = _run(f"{game}-genuine")
    assert a.suggested_offset_s is not None, a.reason
    assert abs(a.suggested_offset_s - truth["offset_s"]) <= 1 / truth["fps"]  # duration-ok: a measured video time, not a time taken
    assert a.findings == []
    assert a.drift_percent == 0.0


@pytest.mark.parametrize("name", [f"{g}-genuine{k}" for g in ("breakout", "pitfall", "pong")
                                  for k in (2, 3)]
                         + [f"{g}-pause" for g in ("breakout", "pitfall", "pong", "boxing")])
def test_other_genuine_runs_right_or_not_enough_signal(name):
    """Never a confident wrong answer, never a warning: Pong's third seed gives too little
    (its second gets its offset from the paddle's band, test_sync_band.py). A `pause` run is
    genuine (the agent idles 9 s): Pong's had a false -19.5 s offset jump, the 6 actions
    after the pause matched by chance at an offset that would show them before the actions
    ahead of them (track.out_of_order)."""
    truth, a, _, _ = _run(name)
    if a.suggested_offset_s is None:
        assert name.startswith("pong") and a.reason
    else:
        assert abs(a.suggested_offset_s - truth["offset_s"]) <= 1 / truth["fps"]  # duration-ok: a measured video time, not a time taken
    assert a.findings == []


@pytest.mark.parametrize("name", [f"{g}-genuine{k}" for g in HELD_OUT for k in ("", 2, 3)])
def test_held_out_games_never_a_confident_wrong_answer(name):
    """Games the analysis was not tuned on (a scroller, a maze): right or silent, no warning."""
    truth, a, _, _ = _run(name)
    if a.suggested_offset_s is not None:
        assert abs(a.suggested_offset_s - truth["offset_s"]) <= 1 / truth["fps"]  # duration-ok: a measured video time, not a time taken
    assert a.findings == []


def test_river_raid_genuine_offset_from_the_players_region():
    """The scroller's first genuine run: the fit leans on the tiles where reactions happen
    (FIT_WEIGHT_FLOOR 0.5), so its offset stands out (+0.33 frame); it was "not enough signal"
    while the scroll kept the say of a tile where the plane reacts."""
    truth, a, _, _ = _run("riverraid-genuine")
    assert a.suggested_offset_s is not None, a.reason
    assert abs(a.suggested_offset_s - truth["offset_s"]) <= 0.5 / truth["fps"]  # duration-ok: a measured video time, not a time taken
    assert a.findings == []


def test_pong_genuine_offset_within_two_thirds_of_a_frame():
    """Pong's genuine offset: +0.95 frame with the first weights, +0.55 with the fit on the
    player's region."""
    truth, a, _, _ = _run("pong-genuine")
    assert abs(a.suggested_offset_s - truth["offset_s"]) <= (2 / 3) / truth["fps"]  # duration-ok: a measured video time, not a time taken


@pytest.mark.parametrize(("name", "frames"), [
    (f"{g}-{k}", 1) for g in ("breakout", "pitfall", "pong") for k in ("speed", "slow")
    if (g, k) != ("pong", "slow")] + [("pong-slow", 4)] + [
    (f"{g}-speed6", 1) for g in ("breakout", "pitfall", "boxing")] + [("pong-speed6", 2)])
def test_speed_is_a_drift_within_one_point(name, frames):
    """Sped up 4 % or 6 % or slowed 3 %: one drift finding. The offset (video time of
    run_start) is within a frame, except on Pong, 3.2 frames late slowed and 1.5 sped up 6 %:
    Pong's reactions are found late (docs/DECISIONS.md)."""
    truth, a, _, _ = _run(name)
    assert _rules(a) == ["sync.drift"]
    assert abs(a.findings[0].percent - truth["tamper"]["percent"]) <= 1.0
    assert abs(a.suggested_offset_s - truth["offset_s"]) <= frames / truth["fps"]  # duration-ok: a measured video time, not a time taken


@pytest.mark.parametrize("name", ["pitfall-genuinelong", "boxing-genuinelong"])
def test_genuine_long_run_is_silent_with_its_offset_within_a_frame(name):
    """150 s genuine. Pitfall's first 33 actions fall where the player's tiles (learnt from
    the rest of the run) are silent: "0 answered, 0.8 by chance" was a false
    `sync.no_reaction`; now such a stretch is no evidence (stretch.MAX_SILENT_SHARE).
    Boxing's last 89: 61 answered against 33.6 by chance, a false one too (only the
    opening's rate was compared with chance); now a stretch above chance is answered
    (stretch.ABOVE_CHANCE_Z), and the 4x4 scale's last 24 at chance are answered at 8x8
    (`analysis.combine`)."""
    truth, a, _, _ = _run(name)
    assert truth["run_s"] == 150.0 and truth["kind"] == "genuinelong"
    assert [f.rule for f in a.findings if f.rule.startswith("sync.")] == []
    assert a.findings == [] and a.drift_percent == 0.0
    assert abs(a.suggested_offset_s - truth["offset_s"]) <= 1 / truth["fps"]  # duration-ok: a measured video time, not a time taken


@pytest.mark.parametrize("name", ["breakout-speedlong", "pong-speedlong", "pitfall-speedlong",
                                  "boxing-speedlong"])
def test_long_run_sped_up_off_the_speed_grid_is_a_drift_over_the_whole_run(name):
    """150 s sped up 4.4 %, between the speed grid's 1.0425 and 1.045: before, Pong's fit
    tried speeds in 1 % steps first and kept 1.03, then speed 1 (no drift; its offset right
    at the run's start only), and Breakout's line stayed near the grid's. Every speed is
    searched on runs this long (align.EVERY_SPEED_SPAN_S) and the line is refined near the
    grid's (fit.fine_line): one drift within 0.1 point, over the whole video and run, and
    the offset within a frame. Pitfall and Boxing had a stray `sync.no_reaction` besides
    (as their genuine long runs, test above)."""
    truth, a, e, run = _run(name)
    assert truth["run_s"] == 150.0 and truth["tamper"]["percent"] == pytest.approx(4.4)
    assert _rules(a) == ["sync.drift"]
    f = a.findings[0]
    assert 4.3 <= f.percent <= 4.5
    sig = frame_signals(run.video)
    assert (f.video_start_s, f.video_end_s) == (float(sig.times[0]), float(sig.times[-1]))
    assert (f.run_start_s, f.run_end_s) == (0.0, max(e))
    assert abs(a.suggested_offset_s - truth["offset_s"]) <= 1 / truth["fps"]  # duration-ok: a measured video time, not a time taken


@pytest.mark.parametrize("name", ["breakout-cut", "breakout-insert", "pitfall-cut",
                                  "pitfall-insert", "pong-insert", "pong-cut"])
def test_splice_is_an_offset_jump_at_its_place(name):
    """Pong's cut too: the stretch after it aligns at no offset through the fit, but the
    paddle answers it at the offset 4 s earlier (track.stretch_jump); it was reported as 13
    actions without a reaction."""
    truth, a, _, _ = _run(name)
    t = truth["tamper"]
    assert _rules(a) == ["sync.offset_jump"]
    f = a.findings[0]
    # within a frame since the splice is searched where it explains the most actions
    # (_splice_frames) and the stretch's offset is refined as the global one is
    frame = 1 / truth["fps"] + 1e-6
    assert abs(f.video_start_s - t["video_s"]) <= frame  # duration-ok: a measured video time, not a time taken
    assert abs(f.size_s - t["size_s"]) <= frame  # duration-ok: a measured video time, not a time taken
    if "video_end_s" in t:
        assert abs(f.video_end_s - t["video_end_s"]) <= frame  # duration-ok: a measured video time, not a time taken


@pytest.mark.parametrize("name", ["breakout-cutlong", "boxing-cutlong", "pitfall-cutlong"])
def test_long_cut_is_the_stretch_the_video_does_not_follow(name):
    """14 s removed from 12-14 s of the 40 s run (kind `cutlong`): the 7 to 9 actions after
    the splice single out no offset of their own (the best shift of their answers scores no
    better than shuffled stretches'), so there is no offset jump to report; the actions from
    the splice on are reported as answered at chance, Breakout's and Boxing's from the splice
    frame. Pitfall's was silent (its last 7 actions, past the video's end, were "answered"
    by its last frames); its stretch is placed 5.3 s after the splice, at a screen change."""
    truth, a, e, _ = _run(name)
    t = truth["tamper"]
    assert abs(a.suggested_offset_s - truth["offset_s"]) <= 1 / truth["fps"]  # duration-ok: a measured video time, not a time taken
    assert _rules(a) == ["sync.no_reaction"]
    [f] = a.findings
    assert CHANCE_WORDS in f.message and f.run_end_s == round(max(e), 3)
    if name == "pitfall-cutlong":
        assert t["video_s"] < f.video_start_s < t["video_s"] + 6.0
    else:
        assert abs(f.video_start_s - t["video_s"]) <= 1 / truth["fps"] + 1e-6  # duration-ok: a measured video time, not a time taken


@pytest.mark.parametrize("name", ["pitfall-freeze", "breakout-freeze", "pong-freeze"])
def test_freeze_is_no_reaction_over_its_span(name):
    truth, a, _, _ = _run(name)
    t = truth["tamper"]
    assert _rules(a) == ["sync.no_reaction"]
    f = a.findings[0]
    assert t["video_start_s"] - 1.0 <= f.video_start_s <= t["video_end_s"]
    assert t["video_start_s"] <= f.video_end_s <= t["video_end_s"] + 1.0


@pytest.mark.parametrize("name", ["breakout-deleted", "pitfall-deleted", "breakout-human",
                                  "pitfall-human"])
def test_unlogged_inputs_are_activity_without_actions(name):
    truth, a, _, _ = _run(name)
    t = truth["tamper"]
    assert _rules(a) == ["sync.activity_without_actions"]
    f = a.findings[0]
    assert t["video_start_s"] - 1.0 <= f.video_start_s <= t["video_end_s"] + 1.0
    assert t["video_start_s"] - 1.0 <= f.video_end_s <= t["video_end_s"] + 1.0
    assert f.actions >= 3


@pytest.mark.parametrize("name", ["breakout-deletedlong", "pitfall-deletedlong"])
def test_thirty_seconds_of_log_removed_is_activity_without_actions(name):
    """The issue's own example (kind `deletedlong`): 30 s of the log's model calls removed
    from a 70 s run and `seq` renumbered, while the video shows the play (Breakout: 20
    unlogged presses). Breakout's was silent: its gap's input-like onset frames stood 3.96x
    the idle time's at 4x4 against the 4x asked (ACTIVITY_DENSITY, now 3.5). The finding
    spans the log's gap (the actions on either side of it) and the footage played in it."""
    truth, a, e, _ = _run(name)
    t = truth["tamper"]
    assert abs(a.suggested_offset_s - truth["offset_s"]) <= 1 / truth["fps"]  # duration-ok: a measured video time, not a time taken
    assert _rules(a) == ["sync.activity_without_actions"]
    [f] = a.findings
    before = max(x for x in e if x < t["run_start_s"])
    after = min(x for x in e if x >= t["run_end_s"])
    assert (f.run_start_s, f.run_end_s) == (round(before, 3), round(after, 3))
    # from the first unlogged input to the last (the span of the removed calls, +-1 s)
    assert t["video_start_s"] - 1.0 <= f.video_start_s <= t["video_start_s"] + 1.0
    assert t["video_start_s"] + 20.0 <= f.video_end_s <= t["video_end_s"] + 1.0  # duration-ok: video times
    assert f.actions >= 10


def test_three_actions_are_not_enough_signal():
    truth, _, e, run = _run("breakout-genuine")
    a = analyze(e[5:8], frame_signals(run.video), DEFAULT_THRESHOLDS)
    assert a.suggested_offset_s is None and "3 action" in a.reason
    assert a.findings == []


def test_static_screen_is_not_enough_signal():
    truth, _, e, run = _run("breakout-genuine")
    sig = frame_signals(run.video)
    still = type(sig)(sig.times, np.zeros_like(sig.tiles), sig.fps)
    a = analyze(e, still, DEFAULT_THRESHOLDS)
    assert a.suggested_offset_s is None
    assert a.findings == []


def test_cli_offset_auto_json_sync_section(tmp_path):
    run = corpus.build("breakout-genuine")
    out = subprocess.run([sys.executable, "-m", "moderator_app", "verify", str(run.folder),
                          "--offset", "auto", "--json"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    rep = json.loads(out.stdout)
    s = rep["sync"]
    assert abs(rep["sync_offset_s"] - run.truth["offset_s"]) <= 1 / 60  # duration-ok: a measured video time, not a time taken
    assert s["suggested_offset_s"] == rep["sync_offset_s"]
    assert s["supporting_actions"] >= 6 and 0 < s["confidence"] <= 1
    assert len(s["reactions"]) == len(run.truth["actions"])
    assert s["offset_track"] and all(p["offset_s"] is None or
                                     abs(p["offset_s"] - s["suggested_offset_s"]) < 0.1
                                     for p in s["offset_track"])
    assert rep["summary"]["warnings"] == 0 and rep["verdict"] == "pass"


def test_cli_offset_auto_fails_clearly_without_signal(tmp_path):
    run = corpus.build("breakout-genuine")
    lines = run.log.read_bytes().splitlines()
    keep, n = [], 0
    for line in lines:  # keep 3 actions only (and their calls), seq renumbered
        ev = orjson.loads(line)
        if ev["type"] in ("model_request", "model_response", "action", "observation") \
                and n >= 3 and ev["type"] != "run_end":
            continue
        n += ev["type"] == "action"
        ev["seq"] = len(keep)
        keep.append(orjson.dumps(ev))
    (tmp_path / "agent-log.jsonl").write_bytes(b"\n".join(keep) + b"\n")
    (tmp_path / "video.mp4").write_bytes(run.video.read_bytes())
    out = subprocess.run([sys.executable, "-m", "moderator_app", "verify", str(tmp_path),
                          "--offset", "auto"], capture_output=True, text=True)
    assert out.returncode == 2
    assert "not enough signal" in out.stderr
