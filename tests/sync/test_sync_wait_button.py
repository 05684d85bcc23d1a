"""A game's wait for a button, seen at several offsets or at a moderator's offset near the
truth, is no frozen footage when the press that ends it is a button (issue 13, QA s26 T4;
core/sync/freeze.py `WAIT_BUTTON_RATIO`).

Human Cannonball holds its picture until FIRE shoots the cannon and ignores UP/DOWN/NOOP
while it waits. With no offset pinned down (auto; a moderator's +-1 s) a held picture was
cleared only when its first changed frame was under half the usual change
(`WAIT_FAR_RATIO`): the cannon's first frame is 0.6-0.7 of it, so genuine runs had a
`sync.no_reaction` "frozen or held picture" at auto and off the truth (QA's: 0.08-8.28 s).
A press of a new *button* (not NOOP) at the picture's resumption now takes the one-offset
rule's ratio (under 1.0); the corpus' inserted freezes resume at 1.07-93 times the usual
change, River Raid's at a RIGHT it held: still found.
"""

from __future__ import annotations

import corpus
import pytest
from test_sync_hold_wait import FOUND_BY_REACTIONS_AT_AUTO, _held, _stopped
from test_sync_wait_note import human_cannonball

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture(autouse=True)
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


def _cannonball():
    from corpus.record import Recorder

    # the recorder of test_sync_wait_note's run, another seed: the held picture at video
    # 29.52-35.20 s lies under a NOOP, a DOWN and an UP and resumes at a FIRE (35.16 s at the
    # truth) with 21 points changed against a usual 34 (0.62)
    rec = Recorder(fps=25, scale=2, flags="bicubic", crf=28, container="mkv", lead_s=2.7)
    return corpus.build_with("s26-human_cannonball-genuine@r25mkvq28s2682", "human_cannonball",
                             human_cannonball, "genuine", 2682, rec, "r25mkvq28")


@pytest.mark.parametrize("off", [None, 0.3, -0.5, -1.0])
def test_a_game_waiting_for_fire_is_no_frozen_footage_at_auto_or_off_the_truth(off):
    run = _cannonball()
    assert run.truth["kind"] == "genuine"
    # the held picture is there, and without the kinds still reported
    assert (29.52, 35.2) in _held(run, kinds=False, off=off)
    # on main: [(29.52, 35.2)] at each of these offsets, a warning on a genuine run
    assert _held(run, kinds=True, off=off) == []


@pytest.mark.parametrize("name", ["space_invaders-freeze", "ms_pacman-freeze",
                                  "riverraid-freeze"])
@pytest.mark.parametrize("off", [None, 0.3, -1.0])
def test_an_inserted_freeze_is_still_found_beside_a_button_press(name, off):
    # Space Invaders' freeze resumes at 1.07 of the usual change (the closest of the
    # corpus'), Ms. Pac-Man's 0.12 s after a RIGHT of a new kind at 2.4, River Raid's at a
    # RIGHT it held
    run = corpus.build(name)
    t = run.truth["tamper"]
    held = _held(run, kinds=True, off=off)
    if off is None and name in FOUND_BY_REACTIONS_AT_AUTO:
        # offered its offset at auto (session 27): the reactions' own finding says it
        assert held == []
        stopped = _stopped(run)
        assert len(stopped) == 1
        assert abs(stopped[0][0] - t["video_start_s"]) <= 1.0  # duration-ok: a video time
        assert abs(stopped[0][1] - t["video_end_s"]) <= 1.0  # duration-ok: a video time
        return
    assert len(held) == 1
    assert abs(held[0][0] - t["video_start_s"]) <= 0.05  # duration-ok: a video time on the video clock
    assert abs(held[0][1] - t["video_end_s"]) <= 0.05  # duration-ok: a video time on the video clock


def _explained(run, off: float, inside: tuple[float, float]) -> tuple[set[int], int]:
    """`frozen_findings` on the analysis at the truth + `off` with a run of unanswered
    presses from the reactions put inside `inside` (video times): the indices it finds the
    game's wait explains, and how many frozen-picture findings it makes."""
    from dataclasses import replace

    from moderator_app.core.formats.submission import load_submission
    from moderator_app.core.sync import freeze
    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.sync.inputs import inputs
    from moderator_app.core.sync.records import SyncFinding
    from moderator_app.core.sync.signals import frame_signals
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

    times, named = inputs(load_submission([run.log, run.video]))
    sig = frame_signals(run.video)
    a = analyze(times, sig, DEFAULT_THRESHOLDS, run.truth["offset_s"] + off,
                run_duration_s=run.run_end_s, input_kinds=named)
    g = SyncFinding("sync.no_reaction", "2 actions in a row with no visible reaction",
                    inside[0], inside[1], None, None, actions=2)
    explained: set[int] = set()
    held = freeze.frozen_findings(replace(a, findings=[g]), times, sig, DEFAULT_THRESHOLDS,
                                  run.run_end_s, {}, named, explained)
    return explained, len(held)


def test_unanswered_presses_inside_the_games_wait_are_explained_by_it():
    # QA s26 T4 at 2.82 s: 2 presses unanswered inside the opening hold, read on the
    # player's band; a still picture answers nothing, and the game ignores them while it waits
    assert _explained(_cannonball(), 0.3, (31.0, 34.0)) == ({0}, 0)


def test_unanswered_presses_inside_an_inserted_freeze_are_not_explained():
    run = corpus.build("riverraid-freeze")
    t = run.truth["tamper"]
    mid = (t["video_start_s"] + t["video_end_s"]) / 2
    explained, _ = _explained(run, 0.3, (mid - 1.0, mid + 1.0))
    assert explained == set()


def test_a_wait_ending_a_frame_past_the_fitted_offset_is_no_frozen_footage():
    # s2685: the opening hold 0.08-7.40 s under a NOOP and an UP ends at a FIRE expected at
    # 7.4415 s at the offset the analysis uses (2.7405 s for the truth 2.7): 0.0015 s past
    # one frame after the first changed frame (7.40 s, 1 point against a usual 38)
    from corpus.record import Recorder

    rec = Recorder(fps=25, scale=2, flags="bicubic", crf=28, container="mkv", lead_s=2.7)
    run = corpus.build_with("s26-human_cannonball-genuine@r25mkvq28s2685", "human_cannonball",
                            human_cannonball, "genuine", 2685, rec, "r25mkvq28")
    assert (0.08, 7.4) in _held(run, kinds=False)
    # on 138f167: [(0.08, 7.4)] at the truth, a warning on a genuine run
    assert (0.08, 7.4) not in _held(run, kinds=True)
