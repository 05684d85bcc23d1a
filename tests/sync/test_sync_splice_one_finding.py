"""A splice is one finding: the stretch after inserted footage answered at the offset after
it is the jump's consequence, not a `sync.no_reaction` of its own (issue 13, session 32; QA
s31 T3).

Two ways QA s31's insertions were said as a stretch "without reaction":
- venture-insert@r15vp9opus (4 s at video 19.85 s): Venture holds its picture 4.3 s at every
  door, and the presses there are answered at no offset; weighed as misses at the rest's
  answer rate they hid the offset after the insertion (5 of the 14 last actions answered
  there, 6 in holds). `insertion.find` now gives a miss in a held picture no weight
  (`stretch.held_at`), at the pair's shift and at its null's shifts alike.
- sir_lancelot-insert@r24mpeg1ts: the 4x4 scale read the jump and measured the rest at the
  offset after it, the 8x8 scale a stretch at chance starting 6 s after the jump's actions
  (`combine._after_jump`).
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from qa_runs import qa_run, share_scans

from moderator_app.cli import main as cli_main
from moderator_app.core.sync import insertion, stretch
from moderator_app.core.sync.combine import combine
from moderator_app.core.sync.records import CHANCE_WORDS, SyncAnalysis, SyncFinding
from moderator_app.core.sync.signals import FrameSignals

FPS = 15.0


def _signals(held: list[tuple[float, float]], splices: tuple[float, ...] = ()) -> FrameSignals:
    """50 s at 15 fps: every frame changes a little (5 points) but inside the `held` spans
    (video seconds, not one point changes), and the picture changes wholly (900 points) at
    the `splices`."""
    n = int(50 * FPS)
    tiles = np.zeros((n, 64), np.uint16)
    tiles[1:, 0] = 5
    t = np.arange(n) / FPS
    for a, b in held:
        tiles[(t >= a) & (t < b), :] = 0
    for s in splices:
        tiles[int(round(s * FPS)), :] = 900 // 64 + 1
    return FrameSignals(t, tiles, FPS)


def test_held_at_marks_the_answer_windows_inside_a_held_picture():
    at = stretch.held_at(_signals([(27.0, 31.4)]))
    v = np.array([26.9, 27.0, 27.2, 31.0, 31.2, 31.3, 40.0])
    # a window from the frame before to 0.1 s after (`band.WINDOW_S`) all held: 27.134-31.267
    assert at(v).tolist() == [False, False, True, True, True, False, False]
    assert at(v[None, :] + np.array([[0.0], [4.0]])).shape == (2, 7)


SPLICE = (19.867, 23.867)  # 4 s inserted, at frames 298 and 358
HOLDS = [(27.0, 31.4), (39.2, 43.5)]  # a game's own held pictures, after the insertion


def _run():
    """23 presses at the offset used; the first 9 answered there, the last 14 shown 4 s later
    (after the insertion), answered there unless the picture holds (6 of them) or the game
    ignores the press (2), at chance elsewhere: 6 of 14 answered after the insertion, as
    Venture's 5."""
    sig = _signals(HOLDS, SPLICE)
    exp = np.r_[np.linspace(6.6, 19.3, 9), np.linspace(20.8, 40.8, 14)]
    truth = np.r_[exp[:9], np.delete(exp[9:], [7, 8]) + 4.0]
    held = stretch.held_at(sig)

    def answer(v):
        v = np.asarray(v, float)
        hit = (np.abs(v[..., None] - truth).min(axis=-1) <= 0.05) & ~held(v)
        return hit, np.full(v.shape, 0.1)

    s, chance = answer(exp)
    return sig, exp, s, chance, answer, held


def test_the_misses_in_held_pictures_no_longer_hide_an_insertion():
    sig, exp, s, chance, answer, held = _run()
    assert s.tolist() == [True] * 9 + [False] * 14
    assert int(answer(exp + 4.0)[0].sum()) == 6 and int(held(exp + 4.0).sum()) == 6
    assert insertion.find(answer, exp, s, chance, sig, 3.0, 6) is None  # as before session 32
    ins = insertion.find(answer, exp, s, chance, sig, 3.0, 6, held)
    assert ins is not None and not ins.head
    assert (round(ins.start_s, 3), round(ins.end_s, 3)) == SPLICE
    assert ins.moved.tolist() == [False] * 9 + [True] * 14


def test_a_stretch_whose_answers_are_missing_everywhere_is_no_insertion():
    """The last 14 presses answered at no shift (another attempt's footage): the holds weigh
    nothing, and nothing else explains them."""
    sig, exp, s, chance, _, held = _run()

    def answer(v):
        v = np.asarray(v, float)
        return (v < 20.0) & (np.abs(v[..., None] - exp[:9]).min(axis=-1) <= 0.05), \
            np.full(v.shape, 0.1)

    assert insertion.find(answer, exp, answer(exp)[0], chance, sig, 3.0, 6, held) is None


def _analysis(findings, segments, answers=()) -> SyncAnalysis:
    return SyncAnalysis(3.072, 0.6, 8, 23, 1.0, "", 3.072, segments=segments,
                        findings=findings, answers=answers)


def test_a_stretch_at_chance_inside_the_other_scales_part_after_its_jump_is_dropped():
    """QA s31's sir_lancelot-insert@r24mpeg1ts, its two scales' findings: the 8x8 stretch
    at chance (run 24.21-37.76 s) lies in the 4x4 part after its jump (run 18.05 s on, at
    +3.99 s) although the jump's actions end 6 s before it (the old rule's reach: 5 s)."""
    gap = SyncFinding("sync.no_reaction", f"9 actions in a row {CHANCE_WORDS} (0 answered, "
                      "1.0 by chance)", 26.917, 40.927, 24.205, 37.755, actions=9)
    jump = SyncFinding("sync.offset_jump", "the offset jumps by +3.99 s", 22.917, 26.917,
                       16.672, 18.054, size_s=3.992)
    fine = _analysis([gap], [(1.785, 37.755, 3.072)])
    coarse = _analysis([jump], [(1.785, 16.672, 3.072), (18.054, 37.755, 7.064)])
    assert combine(fine, coarse, 1 / 24).findings == [jump]
    assert combine(coarse, fine, 1 / 24).findings == [jump]  # either way round
    # the same stretch beside a jump whose part ends before it: a finding of its own
    early = _analysis([jump], [(1.785, 16.672, 3.072), (18.054, 20.0, 7.064),
                               (21.0, 37.755, 3.072)])
    assert combine(fine, early, 1 / 24).findings == [jump, gap]


@pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")
def test_qa31_venture_insert_is_one_jump_at_its_place(capsys, tmp_path, monkeypatch):
    """QA s31 T3 at the truth (4.600 s): before session 32, no jump and a `sync.no_reaction`
    23.87-40.90 s from the insertion to the end; now the jump at the inserted footage's two
    ends (truth 19.85-23.85 s, a frame of 15 fps) and no other sync warning."""
    share_scans(monkeypatch)
    folder = qa_run(31, "venture-insert@r15vp9opus")
    tam = json.loads((folder / "truth.json").read_text())["tamper"]
    assert (tam["video_s"], tam["video_end_s"]) == (19.85, 23.85)
    cli_main(["verify", str(folder), "--scan", "--sync", "--offset", "4.600", "--json"])
    rep = json.loads(capsys.readouterr().out)
    said = [(f["rule"], f["video_start_s"], f["video_end_s"]) for f in rep["findings"]
            if f["rule"].startswith("sync.") and f["severity"] == "warning"]
    assert said == [("sync.offset_jump", 19.867, 23.867)]
