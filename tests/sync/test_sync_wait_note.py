"""A scan's held picture that the log shows ending at the button the game waits for is a
note beside the log, not a warning (issue 13, QA s26 T3; core/sync/freeze.py `game_waits`,
core/sync/run.py `wait_note`).

Human Cannonball holds its picture until FIRE shoots the cannon: QA s26's genuine run had
six `video.frozen` warnings at auto, at the truth and near it. The scan's own result (its
cache) stays as it is: a scan finding has no log; the report's `video_scan` section says it
as the findings list does (session 30: one report, one severity). Beside a log read at an offset
(the moderator's, `WAIT_REACH_S` either side, or the suggestion's), a hold whose presses were
of other kinds (NOOP, UP, DOWN), ending at a FIRE's reaction with the game's next frame, is
said as the game waiting. The corpus' freezes and Breakout's pauses keep their warnings.
"""

from __future__ import annotations

import json
import random

import corpus
import pytest

from moderator_app.cli import main as cli_main

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture(autouse=True)
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


def human_cannonball(ram, rng: random.Random) -> list[tuple[str, int]]:
    """QA s26's agent (scripts/qa_session26.py): UP/DOWN set the angle, FIRE shoots."""
    r = rng.random()
    if r < 0.45:
        return [(rng.choice(("UP", "DOWN")), rng.randint(4, 10))]
    if r < 0.8:
        return [("FIRE", rng.randint(2, 4))]
    return [("NOOP", rng.randint(6, 12))]


def _cannonball():
    from corpus.record import Recorder

    # a seed and recorder of this session's own (QA's run is MJPEG MOV, seed 267)
    rec = Recorder(fps=25, scale=2, flags="bicubic", crf=28, container="mkv", lead_s=2.7)
    return corpus.build_with("s26-human_cannonball-genuine@r25mkvq28s2681", "human_cannonball",
                             human_cannonball, "genuine", 2681, rec, "r25mkvq28")


def _frozen(run, capsys, offset: str):
    """verify --scan --sync at `offset`: the report's `video.frozen` findings (severity,
    span) and the scan section's, as the CLI writes them."""
    assert cli_main(["verify", str(run.folder), "--scan", "--sync", "--offset", offset,
                     "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    said = [(f["severity"], f["video_start_s"], f["video_end_s"], f["message"])
            for f in rep["findings"] if f["rule"] == "video.frozen"]
    scan = [(f["severity"], f["start_s"], f["end_s"]) for f in rep["video_scan"]["findings"]
            if f["rule"] == "video.frozen"]
    return said, scan


@pytest.mark.parametrize("off", [0.0, 0.3, -0.5, -1.0])
def test_a_hold_ending_at_the_button_the_game_waits_for_is_a_note_beside_the_log(capsys, off):
    run = _cannonball()
    assert run.truth["kind"] == "genuine"
    said, scan = _frozen(run, capsys, f"{run.truth['offset_s'] + off:.3f}")
    # on main all four held pictures are warnings: (0.04, 4.44), (5.72, 8.8), (11.12, 15.44),
    # (19.76, 25.52)
    # 19.76-25.52 s: the sync's picture splits it at a DOWN's 12-point change (24.44 s), and
    # its last 1.0 s ends at the FIRE at 25.42 s (shown 25.48 s): the game's button at the
    # lag two of the run's holds end at a FIRE (session 27, core/sync/waits.py: at 2.78 s,
    # which a moderator's offset reaches within 1 s; -1.0 s is 1.08 s from it); at -1.0 s,
    # 4 holds end at the first FIRE inside them at one lag at 2.564 s, within its reach
    # (session 28, `lag_waits`; a warning on main)
    learned = [(19.76, 25.52)]
    # 0.04-4.44 s: held from before the run starts (the 2.7 s lead-in) to the log's first
    # press, a FIRE, at the lag the run's other holds agree on: the game's title waiting for
    # its first button, no press of the log's before it to hold (session 28, lead:
    # `run.wait_note`; a warning before)
    opening = [(0.04, 4.44)]
    warned = [(a, b) for sev, a, b, _ in said if sev == "warning"]
    # 5.72-8.8 s: the man's landing shown, FIREs ignored: a warning at every offset (read
    # 1 s early no button is pressed under it, which hidden.py leaves to waits.py: review R14)
    assert warned == [(5.72, 8.8)]
    # 11.12-15.44 s: held under DOWN and NOOP, resumed 0.06 s after a FIRE (expected 15.34 s
    # at the truth) with a change 0.52 of the game's usual one
    noted = [(a, b, m) for sev, a, b, m in said if "held until" in m]
    assert [(a, b) for a, b, _ in noted] == [*opening, (11.12, 15.44), *learned]
    assert all(sev == "info" for sev, _, _, m in said if "held until" in m)
    assert f"held until FIRE, pressed at video {15.34 + off:.2f} s at the offset " \
        f"{run.truth['offset_s'] + off:.3f} s" in noted[1][2]
    assert noted[1][2].endswith("the game waiting for the button, not frozen footage")
    # the report's scan section says it as its findings do (session 30; a warning before)
    assert [(sev, a, b) for sev, a, b, _ in said] == scan
    assert ("info", 11.12, 15.44) in scan


def test_without_an_offset_the_scan_says_it_as_before(capsys):
    run = _cannonball()
    # --sync without an offset: no suggestion on this run, so no offset the notes could use
    assert cli_main(["verify", str(run.folder), "--scan", "--sync", "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["sync"]["suggested_offset_s"] is None
    said = [(f["severity"], f["video_start_s"]) for f in rep["findings"]
            if f["rule"] == "video.frozen" and f["severity"] == "warning"]
    assert len(said) == 4


@pytest.mark.parametrize("name", ["riverraid-freeze", "space_invaders-freeze",
                                  "ms_pacman-freeze", "breakout-pause"])
@pytest.mark.parametrize("off", [0.0, -1.0])
def test_a_tampered_freeze_or_pause_keeps_its_warning_beside_the_log(capsys, name, off):
    # River Raid's freeze resumes 0.010 s after a press of a kind it held, Ms. Pac-Man's
    # after a new kind with a jump (2.4x), Space Invaders' at 1.07x; Breakout's pause holds
    # no press but the one after it
    run = corpus.build(name)
    said, _ = _frozen(run, capsys, f"{run.truth['offset_s'] + off:.3f}")
    assert [sev for sev, *_ in said if sev == "warning"] == ["warning"]
    assert not any("held until" in m for *_, m in said)
