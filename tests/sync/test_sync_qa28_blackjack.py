"""QA s28's Blackjack (a card table whose picture holds until a button), built by QA's
generator in the repository (`scripts/qa_session28.py`, deterministic: seed 281, one encoder
thread), and the lead's own recording of it: no drift from a weak line, the game's opening
wait said as a note, a freeze that resumes off the game's lag kept a warning (issue 13,
session 28 lead).

A drift is not said from a weak line through a minority of the presses: a reading that
answers under half of the run's actions at a confidence under 0.25 (`local_findings.
weak_line`, QA s28 T3), on the finer band's drift pass and on the whole picture's reading
alike. QA's run with 4 s frozen and no speed change, recorded as fragmented MP4 at 45 fps:
at auto, the finer band's drift pass (f7dba4e) read a line through 7 of its 25 actions and
said "the video runs 1.5 % faster than the log's clock" over the whole video, its offset 88
frames off at 0.14. The same game and agent recorded as ordinary MP4 at 30 fps read a false
+2.0 % on the whole picture's line through 8 of 25 at 0.16 (before f7dba4e too). Every speed
run of the corpus that reads its drift answers 12 of 21 to 24 of 33 (0.57-0.77), or fewer at
a firm confidence (Boxing's 150 s run: 55 of 123 at 0.83; tests/sync/
test_sync_finer_band_drift.py keeps the finer band's).
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from qa_runs import qa_run, share_scans

from moderator_app.cli import main as cli_main
from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")




def test_no_drift_from_a_band_line_through_a_minority_of_the_presses(capsys, tmp_path,
                                                                     monkeypatch):
    share_scans(monkeypatch)
    folder = qa_run(28, "blackjack-freeze@r45fmp4")
    code = cli_main(["verify", str(folder), "--scan", "--sync", "--offset", "auto", "--json"])
    rep = json.loads(capsys.readouterr().out)
    sync = rep["sync"]
    assert [f["rule"] for f in sync["findings"]] == []
    assert sync["drift_percent"] == 0.0
    # no offset singled out: exit 2 at auto, nothing suggested
    assert (code, sync["suggested_offset_s"]) == (2, None)
    # the freeze itself is still said by the scan (QA's truth: frozen 20.10-24.10 s, the
    # run's own hold before it)
    frozen = [(f["video_start_s"], f["video_end_s"]) for f in rep["findings"]
              if f["rule"] == "video.frozen"]
    assert any(s <= 24.10 + 0.5 and e >= 20.10 - 0.5 for s, e in frozen)  # duration-ok: video times


def _blackjack(ram, rng):
    """QA s28's agent (scripts/qa_session28.py): UP/DOWN change the bet, FIRE deals or hits."""
    r = rng.random()
    if r < 0.4:
        return [(rng.choice(("UP", "DOWN")), rng.randint(3, 8))]
    if r < 0.85:
        return [("FIRE", rng.randint(2, 4))]
    return [("NOOP", rng.randint(6, 12))]


def test_no_drift_from_the_whole_pictures_line_through_a_minority(monkeypatch):
    pytest.importorskip("ale_py")
    sys.path.insert(0, str(SCRIPTS.parent / "tests"))
    import corpus
    from corpus.record import Recorder

    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))
    rec = Recorder(fps=30, scale=2, flags="lanczos", crf=23, container="mp4", lead_s=3.7)
    run = corpus.build_with("s28-blackjack-freeze@r30mp4q23", "blackjack", _blackjack,
                            "freeze", 281, rec, "r30mp4q23")
    sig = frame_signals(run.video)
    a = analyze(run.action_times, sig, DEFAULT_THRESHOLDS, None, run_duration_s=run.run_end_s)
    # the line the whole picture reads at +2 % answers 8 of the 25 actions, at 0.16: no clock
    assert a.supporting_actions < a.actions / 2 and a.confidence < 0.25
    assert [f for f in a.findings if f.rule == "sync.drift"] == []


def _said(folder: Path, offset: str, capsys) -> list[tuple[str, str, float, float]]:
    """verify --scan --sync at `offset`: every `video.frozen` and `sync.*` finding
    (rule, severity, video span rounded to 0.01 s)."""
    cli_main(["verify", str(folder), "--scan", "--sync", "--offset", offset, "--json"])
    rep = json.loads(capsys.readouterr().out)
    return [(f["rule"], f["severity"], round(f["video_start_s"], 2), round(f["video_end_s"], 2))
            for f in rep["findings"] if f.get("video_start_s") is not None
            and (f["rule"] == "video.frozen" or f["rule"].startswith("sync."))]


# the truth in the file's own time: 3.7 s + the fragmented MP4's first frame lasting two
# frames (23.3 ms, QA s28's judge note)
TRUTH = "3.723"


def test_a_freeze_resuming_off_the_games_lag_stays_a_warning(capsys, tmp_path, monkeypatch):
    """The 4 s frozen at video 20.10 s resumes 0.64 s after an UP, while five of the run's
    holds end 0.02-0.07 s after a FIRE: at the truth it was said as the game waiting for UP
    (s26's one-hold rule); now a warning, as at auto (`run.wait_note`)."""
    share_scans(monkeypatch)
    folder = qa_run(28, "blackjack-freeze@r45fmp4")
    for offset in ("auto", TRUTH, "3.768", "3.634"):  # auto, the truth, +2 and -4 frames
        said = _said(folder, offset, capsys)
        assert ("video.frozen", "warning", 19.82, 24.13) in said, (offset, said)


def test_the_games_opening_wait_is_a_note(capsys, tmp_path, monkeypatch):
    """The genuine run's table is held from 0.91 s (the run starts at 3.72 s) to its first
    FIRE (4.76 s), answered at the lag four later holds agree on: the game's title waiting
    for its first button, no press of the log's before it (a warning before session 28's
    `run.wait_note`)."""
    share_scans(monkeypatch)
    folder = qa_run(28, "blackjack-genuine@r45fmp4")
    said = _said(folder, TRUTH, capsys)
    assert ("video.frozen", "info", 0.91, 4.78) in said
    # a hold that ignores a FIRE (38.30 s) and resumes after the next stays a warning
    assert [s for s in said if s[1] == "warning"] == [("video.frozen", "warning", 35.76, 39.71)]


# QA's near offsets: the truth, +2 and -4 frames (45 fps: 3.768, 3.634; 12 fps: the Ogg copy's
# truth 2.9, its lead-in whole frames)
NEAR = {"blackjack-genuine2@r45fmp4": ("auto", TRUTH, "3.768", "3.634"),
        "blackjack-genuine@r12ogv": ("auto", "2.9", "3.067", "2.567")}


def test_three_holds_at_one_lag_are_the_games_waits_at_auto_and_a_moderators_offset(
        capsys, tmp_path, monkeypatch):
    """genuine2's table holds three times before the round at 28.7 s that holds to the end:
    0.91-7.05, 9.71-17.58 and 21.49-26.11 s, each to the first FIRE inside it, at lags
    within 0.04 s of each other. Three agreed at a suggested offset only (four asked at a
    moderator's offset, searched a second either side, and with none): at auto, the truth,
    +2 and -4 frames the two later holds (and at auto the opening one) were `video.frozen`
    warnings. Now three agree at any of them (wait_lag.WAIT_LAG_AGREE_MIN)."""
    share_scans(monkeypatch)
    name = "blackjack-genuine2@r45fmp4"
    folder = qa_run(28, name)
    for offset in NEAR[name]:
        assert _said(folder, offset, capsys) == [
            ("video.frozen", "info", 0.91, 7.05), ("video.frozen", "info", 9.71, 17.58),
            ("video.frozen", "info", 21.49, 26.11),
            ("video.frozen", "info", 28.71, 44.73)], offset  # the last: to the video's end


def test_a_recording_stopped_before_run_end_and_a_scan_hold_inside_a_wait(
        capsys, tmp_path, monkeypatch):
    """The Ogg copy at 12 fps stops 1.2 s before run_end at the truth (41.67 s of video, a
    40 s run from 2.9 s): at auto the holds were searched only at the offsets the video
    covers run_end at (0-1.75 s), none agreed, three warnings. Now at the offsets it shows
    every press (`lag_waits`). And the scan's hold 20.58-24.00 s ends 4 frames before the
    sync's (20.67-24.33 s, the FIRE's redraw at 24.33 s): inside the game's wait, the same
    held picture (`run.wait_note`), a warning at every offset before."""
    share_scans(monkeypatch)
    name = "blackjack-genuine@r12ogv"
    folder = qa_run(28, name)
    for offset in NEAR[name]:
        assert _said(folder, offset, capsys) == [
            ("video.frozen", "info", 0.92, 4.0), ("video.frozen", "info", 20.58, 24.0),
            ("video.frozen", "info", 26.92, 31.67)], offset


def test_a_freeze_made_anywhere_in_genuine2_is_taken_only_where_the_game_resumed(
        tmp_path, monkeypatch):
    """With three holds enough, a freeze beside genuine2's three agreeing holds must still
    not agree with them: 4 s of one picture made at every frame from 5 s on (the signals as
    the footage would give them, as test_sync_wait_lag's Casino guard), read at auto. Of 867
    freezes that hide a change, the four taken end within two frames of where a genuine
    wait ended (17.58 and 26.11 s): nothing in the log or the timing tells them apart (a
    freeze ending at a FIRE the game answered, at the game's lag; docs/DECISIONS.md)."""
    import numpy as np

    from moderator_app.core.formats.submission import load_submission
    from moderator_app.core.sync.inputs import inputs
    from moderator_app.core.sync.signals import FrameSignals
    from moderator_app.core.sync.wait_lag import lag_waits

    share_scans(monkeypatch)
    folder = qa_run(28, "blackjack-genuine2@r45fmp4")
    video = next(p for p in sorted(folder.iterdir()) if p.name.startswith("video."))
    times, named = inputs(load_submission([folder / "agent-log.jsonl", video]))
    sig = frame_signals(video)
    a = analyze(times, sig, DEFAULT_THRESHOLDS, None, run_duration_s=40.0,
                input_kinds=named)
    n = int(round(4 * sig.fps))
    change = np.asarray(sig.picture_change).astype(np.int64)
    made, taken = 0, []
    for i in range(int(5 * sig.fps), len(sig) - n - int(3 * sig.fps)):
        if not change[i:i + n].any():
            continue
        c = change.copy()
        c[i + n] = min(int(c[i:i + n + 1].sum()), 5000)
        c[i:i + n] = 0
        made += 1
        frozen = FrameSignals(sig.times, sig.tiles, sig.fps, whole=c)
        end = float(sig.times[i + n])
        if any(abs(w.end_s - end) <= 2.5 / sig.fps and w.start_s <= float(sig.times[i])
               for w in lag_waits(a, times, frozen, DEFAULT_THRESHOLDS, named)):
            taken.append((round(float(sig.times[i]), 2), round(end, 2)))
    assert made == 867
    assert taken == [(13.6, 17.6), (13.62, 17.62), (22.13, 26.13), (22.16, 26.16)]


def test_a_freeze_taken_at_another_offset_than_the_games_lag_stays_a_warning(
        capsys, tmp_path, monkeypatch):
    """Given the truth + 0.3 s or - 1.0 s (a moderator's offset is searched a second either
    side), the freeze at 20.10 s was taken as the game waiting for UP at the offset given
    (the UP 0.37 s before it resumes), while four holds agree on FIRE at another offset
    (3.76 s), where it resumes at no press at their lag: a note, the freeze unreported
    (`waits._off_the_agreed_offset`). Now a warning there too."""
    share_scans(monkeypatch)
    folder = qa_run(28, "blackjack-freeze@r45fmp4")
    for offset in ("4.023", "2.723"):
        said = _said(folder, offset, capsys)
        assert [s for s in said if s[1] == "warning"] == [
            ("video.frozen", "warning", 19.82, 24.13),
            ("video.frozen", "warning", 35.76, 39.71)], offset  # the hold ignoring a FIRE
