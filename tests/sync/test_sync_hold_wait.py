"""A game that holds its picture until a button is pressed is not frozen footage (issue 13,
session 25; core/sync/freeze.py `waits_for`).

Kaboom! holds its picture after a bucket is lost until FIRE is pressed. A genuine run
(seed 1257, s25-splice2's, H.264 MKV at 30 fps) held it at video 13.47-19.83 s under three
RIGHT presses and resumed 0.037 s after the FIRE: a `sync.no_reaction` "frozen or held
picture" on a genuine run. With the log's kinds of input, a held picture that resumes at a
press of a kind none of its held presses had, with the game's next frame (no larger than its
usual change), is the game's wait. River Raid's inserted freeze resumes 0.010 s after a press
too, but a RIGHT, like one it held; Ms. Pac-Man's 0.12 s after a press of a new kind, but
with a jump: both still found.
"""

from __future__ import annotations

import corpus
import numpy as np
import pytest
from test_sync_splice_span import kaboom

from moderator_app.core.formats.submission import load_submission
from moderator_app.core.sync import freeze
from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.inputs import inputs
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture(autouse=True)
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


def _kaboom_genuine():
    from corpus.record import Recorder

    rec = Recorder(fps=30, scale=2, flags="bilinear", crf=28, container="mkv", lead_s=2.6)
    return corpus.build_with("s25-kaboom-genuine@r30mkvq28s1257", "kaboom", kaboom, "genuine",
                             1257, rec, "r30mkvq28")


def _held(run, kinds: bool, off: float | None = 0.0):
    """The frozen-picture findings of the analysis at the truth offset plus `off` (None:
    `--offset auto`), read as the workstation reads the log (its times and, when `kinds`,
    the kinds beside them)."""
    times, named = inputs(load_submission([run.log, run.video]))
    at = None if off is None else run.truth["offset_s"] + off
    a = analyze(times, frame_signals(run.video), DEFAULT_THRESHOLDS, at,
                run_duration_s=run.run_end_s, input_kinds=named if kinds else None)
    return [(f.video_start_s, f.video_end_s) for f in a.findings
            if f.rule == "sync.no_reaction" and "frozen or held picture" in f.message]


# Freezes a reading offers its offset at `--offset auto`, whose own reactions then say the
# unanswered presses inside it (`sync.no_reaction`, within LATE_S of its first held frame: the
# held picture is not said twice): Space Invaders' since session 27 (the cannon's row on the
# grid half a tile down), as Boxing's and Breakout's always
FOUND_BY_REACTIONS_AT_AUTO = {"space_invaders-freeze"}


def _stopped(run):
    """The `sync.no_reaction` findings at `--offset auto` with the log's kinds: (start, end)."""
    times, named = inputs(load_submission([run.log, run.video]))
    a = analyze(times, frame_signals(run.video), DEFAULT_THRESHOLDS, None,
                run_duration_s=run.run_end_s, input_kinds=named)
    assert a.suggested_offset_s is not None
    return [(f.video_start_s, f.video_end_s) for f in a.findings if f.rule == "sync.no_reaction"]


def test_a_game_holding_its_picture_until_a_button_is_pressed_is_no_frozen_footage():
    run = _kaboom_genuine()
    assert run.truth["kind"] == "genuine"
    # the held picture is there, and without the kinds still reported (as on main)
    assert _held(run, kinds=False) == [(13.467, 19.833)]
    # on main: [(13.467, 19.833)], a warning on a genuine run
    assert _held(run, kinds=True) == []


def test_an_inserted_freeze_resuming_at_a_press_of_a_kind_it_held_is_still_found():
    run = corpus.build("riverraid-freeze")
    t = run.truth["tamper"]
    assert _held(run, kinds=True) == [(round(t["video_start_s"], 3), round(t["video_end_s"], 3))]


def test_an_inserted_freeze_resuming_at_a_press_of_a_new_kind_with_a_jump_is_still_found():
    # Ms. Pac-Man's freeze (14.77-18.77 s) resumes 0.12 s after a RIGHT, a kind none of its
    # held presses had (LEFT, UP, LEFT), but with 756 points changed in one frame against
    # a usual 313: the game 4 s on, not its next frame
    run = corpus.build("ms_pacman-freeze")
    t = run.truth["tamper"]
    # its first held frame and first changed one (the truth's 14.75-18.75 s, a frame before)
    assert _held(run, kinds=True) == [(14.767, 18.767)]
    assert t["video_start_s"] == pytest.approx(14.75)  # duration-ok: a video time


def test_waits_for_reads_the_press_the_picture_resumes_at():
    x = np.array([10.0, 11.0, 12.0, 13.97])
    wait = ["RIGHT", "RIGHT", "LEFT", "FIRE"]
    assert freeze.waits_for(x, wait, 9.5, 14.0, 30.0, 0.2)
    # a FIRE among the held presses: the game did not wait for it
    assert not freeze.waits_for(x, ["RIGHT", "FIRE", "LEFT", "FIRE"], 9.5, 14.0, 30.0, 0.2)
    # the picture resumes 0.33 s after the press: not its reaction
    assert not freeze.waits_for(x, wait, 9.5, 14.3, 30.0, 0.2)
    # no press held before it
    assert not freeze.waits_for(x[3:], wait[3:], 13.5, 14.0, 30.0, 0.2)


@pytest.mark.parametrize("off", [None, 0.3, -0.5, -1.0])
def test_a_game_waiting_for_a_button_is_no_frozen_footage_at_auto_or_near_the_truth(off):
    # session 26: with no offset (every offset the video covers the run at) or one 0.3-1.0 s
    # off, the FIRE that ends Kaboom!'s wait is expected at one of the offsets near it, and
    # the picture resumes with 0.15 of its usual change (WAIT_FAR_RATIO 0.5)
    run = _kaboom_genuine()
    # on main: [(13.467, 19.833)] at each, a warning on a genuine run
    assert _held(run, kinds=True, off=off) == []


@pytest.mark.parametrize("name", ["frostbite-freeze", "ms_pacman-freeze", "riverraid-freeze",
                                  "skiing-freeze", "space_invaders-freeze"])
def test_an_inserted_freeze_is_still_found_at_auto_and_off_the_truth(name):
    # the corpus' freezes this module reports at every offset resume with a first changed
    # frame 1.07 (Space Invaders) to 93 times the usual change: none is a wait at any offset
    run = corpus.build(name)
    t = run.truth["tamper"]
    for off in (None, -1.0):
        held = _held(run, kinds=True, off=off)
        if off is None and name in FOUND_BY_REACTIONS_AT_AUTO:
            assert held == []
            held = _stopped(run)  # the reactions' finding says it, within a second
            assert len(held) == 1, held
            assert abs(held[0][0] - t["video_start_s"]) <= 1.0  # duration-ok: a video time
            assert abs(held[0][1] - t["video_end_s"]) <= 1.0  # duration-ok: a video time
            continue
        assert len(held) == 1, (off, held)
        assert abs(held[0][0] - t["video_start_s"]) <= 1 / 30  # duration-ok: a video time
        assert abs(held[0][1] - t["video_end_s"]) <= 1 / 30  # duration-ok: a video time


def test_waits_near_reads_the_press_at_the_offsets_given():
    x = np.array([10.0, 11.0, 12.0, 13.0])
    wait = ["RIGHT", "RIGHT", "LEFT", "FIRE"]
    # the FIRE at run 13.0 s ends a hold that resumes at video 14.0 s at offsets 0.8-1.03
    assert freeze.waits_near(x, wait, 9.5, 14.0, 30.0, 0.2, 0.0, 0.9)
    assert freeze.waits_near(x, wait, 9.5, 14.0, 30.0, 0.2, 0.9, 3.0)
    # no offset from 0 to 0.5 s puts it within 0.2 s before the resumed frame
    assert not freeze.waits_near(x, wait, 9.5, 14.0, 30.0, 0.2, 0.0, 0.5)
    # every press of a kind held before it
    assert not freeze.waits_near(x, ["RIGHT"] * 4, 9.5, 14.0, 30.0, 0.2, 0.0, 3.0)

