"""A suggestion whose run head stands at another offset is not confident (issue 13, session 31,
core/sync/rival.py; QA s30 T3: crazy_climber-insert@r54qtrle, 4 s of another play inserted at
video 14.72 s, was offered 6.4325 s at 0.843, the offset after the insertion, truth 2.45 s).

The unit tests build the analysis' own record (`SyncAnalysis`: its reactions and track) and
read `rival.head_rival`, the seam `analysis.analyze` calls; the QA run is built by QA's
generator in a process of its own (`qa_runs.qa_run`).
"""

from __future__ import annotations

import json
import shutil

import pytest
from qa_runs import qa_run, share_scans

from moderator_app.cli import main as cli_main
from moderator_app.core.sync.reactions import Reaction
from moderator_app.core.sync.records import SyncAnalysis, SyncFinding
from moderator_app.core.sync.rival import head_rival, part_rival
from moderator_app.core.sync.track import TrackPoint
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

OFFSET = 6.45  # the offset the run's later part follows
RUN = [1.4, 3.5, 5.2, 6.6, 9.0, 11.1, 12.3, 13.7, 19.0, 20.1, 23.9, 25.9, 29.5, 32.6, 36.8]


def _analysis(track: list[tuple[float, float | None]], first_answered: float = 12.3,
              confidence: float = 0.84, findings=()) -> SyncAnalysis:
    """An analysis suggesting OFFSET, its actions answered 1 frame late from
    `first_answered` on (none before), with these track windows (centre, offset)."""
    reac = [Reaction(i, e, OFFSET + e, OFFSET + e + 0.018 if e >= first_answered else None,
                     0.018 if e >= first_answered else None, 1.0 if e >= first_answered else 0.0)
            for i, e in enumerate(RUN)]
    return SyncAnalysis(OFFSET, confidence, sum(e >= first_answered for e in RUN), len(RUN),
                        1.0, "", OFFSET, reac, [TrackPoint(c, o, 5.6) for c, o in track],
                        [(RUN[0], RUN[-1], OFFSET)], list(findings))


def test_a_head_window_at_an_earlier_offset_bounds_the_confidence():
    """The window about run 9 s stands 4 s earlier (an insertion after it), in the log's
    order: the head holds no answer at the suggested offset. Fails before session 31 (no
    such test: 0.84 kept)."""
    a = head_rival(_analysis([(9.0, 2.43), (17.0, 6.44), (23.0, 6.45)]), DEFAULT_THRESHOLDS)
    assert (a.suggested_offset_s, a.confidence) == (OFFSET, 0.4)
    assert "2.430 s (-4.02 s)" in a.confidence_note and "12.30 s" in a.confidence_note
    # the offset, reactions and findings stay: only the one-click apply goes
    assert a.reactions == _analysis([]).reactions and a.findings == []


@pytest.mark.parametrize(("track", "first"), [
    ([(5.0, 30.9), (13.0, 25.8), (19.0, 17.1)], 12.3),  # chance peaks later in the video
    ([(9.0, 2.43)], 5.0),      # the window is not in the unheld head
    ([(9.0, 6.30)], 12.3),     # a lag's disagreement, under sync_jump_s
    ([(5.0, OFFSET + 1.84)], 5.2),  # after a cut, shown past the first answer's footage
])
def test_no_rival_leaves_the_analysis_as_it_was(track, first):
    a = _analysis(track, first)
    assert head_rival(a, DEFAULT_THRESHOLDS) is a


def test_a_found_jump_or_a_low_confidence_is_left_as_it_was():
    jump = SyncFinding("sync.offset_jump", "x", 14.7, 14.7, 12.3, 12.3, size_s=4.0)
    for a in (_analysis([(9.0, 2.43)], findings=[jump]),
              _analysis([(9.0, 2.43)], confidence=0.4)):
        assert head_rival(a, DEFAULT_THRESHOLDS) is a


def test_a_part_of_the_picture_is_read_against_the_whole_pictures_head():
    """A reading of a part of the picture (the player's band) whose own windows hold no head
    window, made where the whole picture suggested nothing: the whole picture's window about
    run 9 s bounds it at auto; given an offset 4 s from it, the whole picture's reading at
    the offset given is the answer (a suggestion under the bar does not override it)."""
    th = DEFAULT_THRESHOLDS
    part = _analysis([(17.0, 6.44), (23.0, 6.45)])
    whole = SyncAnalysis(None, 0.3, 0, len(RUN), 1.0, "read at the offset given", 2.45)
    heads = [TrackPoint(9.0, 2.43, 5.6), TrackPoint(5.0, 30.9, 4.9)]
    assert head_rival(part, th) is part  # (its own windows: no rival)
    bounded = part_rival(part, whole, heads, th, None, 1.5)
    assert (bounded.suggested_offset_s, bounded.confidence) == (OFFSET, 0.4)
    assert part_rival(part, whole, heads, th, 2.45, 1.5) is whole
    assert part_rival(part, whole, heads, th, 6.0, 1.5) == bounded  # near it: read there
    assert part_rival(part, whole, heads[1:], th, 2.45, 1.5) is part  # a chance peak only


@pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")
def test_qa30_crazy_climber_insert_is_no_confident_start(capsys, tmp_path, monkeypatch):
    """QA s30 T3 at --offset auto: 6.4325 s stays named, at 0.4 (was 0.843): not applied."""
    share_scans(monkeypatch)
    folder = qa_run(30, "crazy_climber-insert@r54qtrle")
    truth = json.loads((folder / "truth.json").read_text())
    assert (truth["offset_s"], round(truth["tamper"]["video_s"], 2)) == (2.45, 14.72)
    cli_main(["verify", str(folder), "--scan", "--sync", "--offset", "auto", "--json"])
    rep = json.loads(capsys.readouterr().out)
    # --offset auto refuses a suggestion under the bar (before: the run read at 6.4325 s)
    assert rep["verdict"] == "unreadable" and "has confidence 0.40, under 0.50" in rep["error"]
    sync = rep["sync"]
    assert (sync["suggested_offset_s"], sync["confidence"]) == (6.4325, 0.4)
    assert "another offset, 2.429 s (-4.06 s)" in sync["confidence_note"]
    # given the truth, it is read there (before: 6.4325 s at 0.843 suggested and used)
    cli_main(["verify", str(folder), "--scan", "--sync", "--offset", "2.450", "--json"])
    sync = json.loads(capsys.readouterr().out)["sync"]
    assert (sync["suggested_offset_s"], sync["offset_used_s"]) == (None, 2.45)
