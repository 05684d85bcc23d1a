"""A scan's held picture whose colour alone answers the log's presses inside it is a note
(issue 12, QA s43 T2; core/sync/colour_answers.py, `run.wait_note`).

The figures are QA s43's synth_loom-genuine2@r31h261avi at its truth (0.9 s): the scan's
`video.frozen` 17.613-21.484 s over the honest dip to red, the lamp toggled by FIRE at 17.869 /
19.879 s expected, its colour moving in one or two chroma tiles at 17.903 and 19.968 s and
nowhere else; the run's confident gray reactions outside the still at -0.004, -0.018, 0.025 s.
"""

from __future__ import annotations

import numpy as np

from moderator_app.core.rules import Finding, Severity
from moderator_app.core.sync.colour_answers import LOCAL_TILES, marks
from moderator_app.core.sync.reactions import Reaction
from moderator_app.core.sync.records import SyncAnalysis
from moderator_app.core.sync.run import wait_note

HELD = (17.613, 21.484)
# (button, expected video s, answered at (gray), confidence)
PRESSES = [("FIRE", 10.0, 9.996, 1.0), ("FIRE", 12.0, 11.982, 1.0), ("FIRE", 30.0, 30.025, 1.0),
           ("NOOP", 14.0, None, 0.0), ("FIRE", 17.869, None, 0.0), ("FIRE", 19.879, None, 0.0),
           ("NOOP", 20.959, None, 0.0)]


def _analysis(colour_marks, offset=0.9, presses=PRESSES):
    reactions = [Reaction(k, e - offset, e, v, None if v is None else round(v - e, 3), c)
                 for k, (_, e, v, c) in enumerate(presses)]
    return SyncAnalysis(offset, 1.0, 3, len(presses), 1.0, "", offset, reactions=reactions,
                        kinds=tuple(f"press button={b}" for b, *_ in presses),
                        colour_marks=tuple(colour_marks))


def _held():
    return Finding(Severity.WARNING, "video.frozen", "the picture is frozen from 17.613 s to "
                   "21.484 s (3.9 s, 120 frames)", video_start_s=HELD[0], video_end_s=HELD[1])


def test_a_still_whose_lamp_answers_two_presses_in_colour_is_a_note():
    """The loom's two lamp toggles, each at a FIRE's answer: on main a warning."""
    said = wait_note(_held(), _analysis([5.0, 17.903, 19.968, 25.0]))
    assert said.severity is Severity.INFO
    assert "at video 17.90, 19.97 s and nowhere else" in said.message
    assert "offset 0.900 s" in said.message


def test_a_colour_mark_at_no_press_keeps_the_warning():
    """A third mark inside the still at 21.0 s answers no press: not the game's answers only
    (a mark blinking over a freeze)."""
    said = wait_note(_held(), _analysis([17.903, 19.968, 21.0]))
    assert said.severity is Severity.WARNING
    assert said.message == _held().message


def test_one_press_answered_in_colour_keeps_the_warning():
    said = wait_note(_held(), _analysis([17.903]))
    assert said.severity is Severity.WARNING


def test_marks_too_late_for_the_runs_delay_keep_the_warning():
    """The marks 0.3 s after each press's answer is due (the run's delay -0.004 s): not
    answers."""
    said = wait_note(_held(), _analysis([18.17, 20.18]))
    assert said.severity is Severity.WARNING


def test_no_offset_used_keeps_the_warning():
    a = _analysis([17.903, 19.968])
    said = wait_note(_held(), SyncAnalysis(None, 0.0, 0, a.actions, 1.0, "no signal", None,
                                           reactions=a.reactions, kinds=a.kinds,
                                           colour_marks=a.colour_marks))
    assert said.severity is Severity.WARNING


def test_marks_are_frames_whose_colour_moved_in_a_few_tiles():
    """A mark: 1 to LOCAL_TILES of the scan's chroma tiles moved; a dip or grade moving
    every tile is none, nor is a frame whose colour did not move."""
    times = np.arange(5) / 31.0
    hue = np.zeros((5, 16, 8), np.uint8)
    hue[1, 4, 3] = 16                      # the lamp: one tile
    hue[2].fill(3)                         # a dip over the whole picture
    hue[3, 0, :LOCAL_TILES] = 9            # LOCAL_TILES tiles
    hue[4, 0, :LOCAL_TILES + 1] = 9        # one more
    assert marks(times, hue) == (float(times[1]), float(times[3]))
    assert marks(times, None) == ()


def test_the_analysis_of_a_run_carries_its_colour_marks(tmp_path, monkeypatch):
    """Through the seam (`analyze_result`, as `verify --sync` and the window call it): the
    community sample's analysis holds the frames whose colour moved in a few tiles (review
    s44 R2: with the line that fills them deleted, the rule was disconnected and no test
    knew)."""
    from conftest import REPO

    from moderator_app.core.sync.run import analyze_result
    from moderator_app.core.verify.pipeline import verify_paths

    monkeypatch.setenv("MODERATOR_APP_CACHE", str(tmp_path / "cache"))
    a = analyze_result(verify_paths([REPO / "resources" / "samples" / "community-sample"]),
                       offset_s=1.5)
    assert len(a.colour_marks) == 269
    assert [round(t, 3) for t in a.colour_marks[:3]] == [0.1, 0.2, 0.3]
