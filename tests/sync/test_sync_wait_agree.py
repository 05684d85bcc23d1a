"""The button a game waits for, learned from the run's held pictures (issue 13, QA s26 T3;
core/sync/waits.py `game_waits`, core/sync/run.py `wait_note`).

Human Cannonball holds its picture until FIRE shoots the cannon, and takes no FIRE while it
shows where the man landed (~3 s). Session 26 said a scan's held picture as a note when it
ended, by itself, at a press of a button none of its presses had, with the game's next frame;
QA's genuine run kept 3 of 6 warnings at the truth and all 6 at auto (no suggestion). Here:
when several holds end at a press of one button at one offset (its reaction at one lag), the
game waits for that button, and any hold ending at it at that lag is the same wait; with no
offset suggested, their agreeing is itself the evidence of the offset. The runs: QA's seed
267 and agent (the same play as QA's MJPEG MOV run), recorded in H.264 MKV by the corpus.
"""

from __future__ import annotations

import json

import corpus
import pytest
from test_sync_wait_note import human_cannonball

from moderator_app.cli import main as cli_main
from moderator_app.core.formats.submission import load_submission
from moderator_app.core.rules import Finding, Severity
from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.inputs import inputs
from moderator_app.core.sync.records import GameWait, SyncAnalysis
from moderator_app.core.sync.run import wait_note
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture(autouse=True)
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


def _cannonball(kind: str = "genuine", seed: int = 267):
    from corpus.record import Recorder

    rec = Recorder(fps=25, scale=2, flags="bicubic", crf=28, container="mkv", lead_s=2.7)
    return corpus.build_with(f"s27-human_cannonball-{kind}@r25mkvq28s{seed}",
                             "human_cannonball", human_cannonball, kind, seed, rec, "r25mkvq28")


def _frozen(run, capsys, offset: str):
    """verify --scan --sync at `offset`: the report's `video.frozen` (severity, span,
    message). `--offset auto` with no suggestion exits 2 with the report (the workstation
    reads it with no offset used)."""
    code = cli_main(["verify", str(run.folder), "--scan", "--sync", "--offset", offset,
                     "--json"])
    rep = json.loads(capsys.readouterr().out)
    assert code == (2 if offset == "auto" and rep["sync"]["suggested_offset_s"] is None
                    else 0)
    return [(f["severity"], f["video_start_s"], f["video_end_s"], f["message"])
            for f in rep["findings"] if f["rule"] == "video.frozen"]


@pytest.mark.parametrize("off", [None, 0.0, 0.12, -0.12])
def test_holds_ending_at_the_games_button_are_notes_at_auto_and_near_the_truth(capsys, off):
    run = _cannonball()
    assert run.truth["kind"] == "genuine"
    at = "auto" if off is None else f"{run.truth['offset_s'] + off:.3f}"
    said = _frozen(run, capsys, at)
    # on main: auto warns all five; the truth and +-0.12 s warn (9.64, 12.72),
    # (21.92, 25.52), (34.44, 37.44)
    noted = [(a, b) for sev, a, b, m in said if sev == "info" and "held until FIRE" in m]
    assert noted == [(0.04, 8.32), (21.92, 25.52), (29.72, 33.04)]
    # left: the picture the game holds ~3 s where the man landed, ending with the game's own
    # move (the man back in the cannon, 121 / 83 points), at no press (the FIRE at 37.04 s
    # changes nothing on the emulator: its truth shows it nowhere)
    warned = [(a, b) for sev, a, b, _ in said if sev == "warning"]
    assert warned == [(9.64, 12.72), (34.44, 37.44)]
    if off is None:  # no offset suggested: the one the holds agree on, within a frame
        msg = next(m for sev, a, *_, m in said if a == 21.92)
        assert "held until FIRE, pressed at video 25.38 s at the offset 2.668 s (3 held " \
            "pictures of the run end 0.06 to 0.10 s after a FIRE at this offset" in msg
        assert "no offset suggested: the one those held pictures agree on" in msg


def _waits(run, offset):
    times, named = inputs(load_submission([run.log, run.video]))
    a = analyze(times, frame_signals(run.video), DEFAULT_THRESHOLDS, offset,
                run_duration_s=run.run_end_s, input_kinds=named)
    return a.waits


def test_the_games_button_takes_a_hold_with_an_ignored_press_and_a_large_first_frame():
    run = _cannonball()
    waits = {(w.start_s, w.end_s): w for w in _waits(run, run.truth["offset_s"])}
    # held 14.52-17.56 s after the man landed: a FIRE at 15.89 s the game ignored, then the
    # FIRE at 17.53 s; the first changed frame is 5.0x the usual change (the one-hold rule
    # asks < 1.0x and a button none of its presses had). Three holds end 0.03-0.07 s after
    # a FIRE at the truth: the same wait
    w = waits[(14.52, 17.56)]
    assert (w.kind, w.press_s, w.held_s, w.agreed, w.lags) == \
        ("press button=FIRE", 17.531, 15.894, 3, (0.032, 0.065))
    # the one-hold rule's, as session 26 had them (agreed 0)
    assert [k for k, v in waits.items() if not v.agreed] == \
        [(0.08, 8.28), (21.96, 25.44), (29.76, 33.0)]
    # no offset: the three agree from 2.565 to 2.772 s, their middle 2.6685 s (truth 2.7:
    # 0.8 frame off)
    auto = _waits(run, None)
    assert {(w.offset_s, w.agreed, w.lags) for w in auto} == {(2.6685, 3, (0.064, 0.097))}
    assert [(w.start_s, w.end_s) for w in auto] == [
        (0.08, 8.28), (12.76, 13.12), (14.52, 17.56), (21.96, 25.44), (29.76, 33.0),
        (37.52, 38.4)]


@pytest.mark.parametrize("seed, hold", [(267, (21.92, 29.72)), (2681, (19.76, 29.76))])
@pytest.mark.parametrize("off", [None, 0.0, 0.12, -1.0])
def test_a_freeze_inserted_into_the_games_run_keeps_its_warning(capsys, seed, hold, off):
    # 4 s frozen at video 24.03 s of the same game (the corpus' `freeze`): the game's button
    # is learned from the holds around it, but the freeze ends at no FIRE at its lag
    run = _cannonball("freeze", seed)
    assert run.truth["tamper"]["video_start_s"] == pytest.approx(24.0333, abs=1e-3)  # duration-ok: the freeze's place
    at = "auto" if off is None else f"{run.truth['offset_s'] + off:.3f}"
    said = _frozen(run, capsys, at)
    assert [(a, b) for sev, a, b, _ in said if sev == "warning" and a == hold[0]] == [hold]


@pytest.mark.parametrize("name", ["riverraid-freeze", "space_invaders-freeze",
                                  "ms_pacman-freeze", "breakout-pause"])
def test_a_tampered_freeze_or_pause_keeps_its_warning_at_auto(capsys, name):
    run = corpus.build(name)
    said = _frozen(run, capsys, "auto")
    assert [sev for sev, *_ in said if sev == "warning"] == ["warning"]
    assert not any("held until" in m for *_, m in said)


def test_a_wait_learned_from_the_button_needs_a_press_inside_the_scans_hold():
    # a pause (the log and the picture held together) holds no press: a wait taken by the
    # game's button alone is no note over a scan's hold that held none of the log's presses
    frozen = Finding(Severity.WARNING, "video.frozen", "the picture is frozen",
                     video_start_s=10.0, video_end_s=14.04)
    a = SyncAnalysis(None, 0.0, 0, 10, 1.0, "", None, waits=(GameWait(
        12.0, 14.0, 13.95, "press button=FIRE", 2.7, 3, (0.03, 0.06), 9.5),))
    assert wait_note(frozen, a) == frozen
    inside = SyncAnalysis(None, 0.0, 0, 10, 1.0, "", None, waits=(GameWait(
        12.0, 14.0, 13.95, "press button=FIRE", 2.7, 3, (0.03, 0.06), 11.0),))
    said = wait_note(frozen, inside)
    assert said.severity is Severity.INFO
    assert said.message == (
        "the picture is frozen: held until FIRE, pressed at video 13.95 s at the offset "
        "2.700 s (3 held pictures of the run end 0.03 to 0.06 s after a FIRE at this "
        "offset: the button the game waits for, and its reaction; this one resumes at "
        "14.00 s; no offset suggested: the one those held pictures agree on): the game "
        "waiting for the button, not frozen footage")
