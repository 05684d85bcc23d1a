"""A splice halves each side's evidence (issue 13, session 18, QA s18 L2).

QA session 14's Video Pinball with 4 s cut at 20 fps (H.264 MKV, 3.3 s lead-in; QA's agent,
seed 147), built here with QA's scripted agent: the offset track splits the run right (14
presses before the cut, 9 after), but neither side alone stood the shuffled-log test of one
stretch, and the first stood under the two-stretch bar (2.82 against 3.0; the second 4.83):
"not enough signal" and no finding, automatically or at the true offset. Two stretches side
by side now count together (`reading._splice_pair`).
"""

from __future__ import annotations

import random

import corpus
import pytest

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

pytestmark = pytest.mark.skipif(bool(corpus.available()), reason=corpus.available() or "")


def _pinball(ram, rng: random.Random) -> list[tuple[str, int]]:
    """QA session 14's Video Pinball agent (scripts/qa_session14.py): the ball moves on its
    own; LEFT/RIGHT flip a flipper at once, FIRE pulls the plunger."""
    r = rng.random()
    if r < 0.75:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(4, 12))]
    if r < 0.9:
        return [("FIRE", rng.randint(10, 30))]
    return [("UP", rng.randint(3, 6))]


def _pinball_run(kind: str) -> corpus.Run:
    """QA's video_pinball-KIND@r20mkv (seed 147), built once into the corpus cache."""
    from corpus.record import Recorder

    return corpus.build_with(f"qa14-video_pinball-{kind}@r20mkv", "video_pinball", _pinball,
                             kind, 147, Recorder(fps=20, scale=2, lead_s=3.3, container="mkv"),
                             "r20mkv")


@pytest.mark.parametrize("offset", ["auto", "truth"])
def test_a_cut_whose_sides_stand_out_only_together_is_an_offset_jump(offset):
    """Before: no suggestion and no finding in either mode. Now: the jump at the cut's
    frame (truth 24.3 s) and run_start's offset within a frame."""
    run = _pinball_run("cut")
    truth, t = run.truth, run.truth["tamper"]
    given = truth["offset_s"] if offset == "truth" else None
    a = analyze(run.action_times, frame_signals(run.video), DEFAULT_THRESHOLDS, given,
                run_duration_s=run.run_end_s)
    jumps = [f for f in a.findings if f.rule == "sync.offset_jump"]
    assert len(jumps) == 1, a.findings
    [f] = jumps
    assert abs(f.video_start_s - t["video_s"]) <= 1.0  # duration-ok: a video time (+-1 s)
    assert f.size_s < 0  # duration-ok: footage removed (a video length, not a time taken)
    assert abs(a.suggested_offset_s - truth["offset_s"]) * truth["fps"] <= 1.0  # duration-ok


def test_the_genuine_run_is_unchanged():
    """The same agent and recorder, genuine: its offset within a frame and no sync finding
    (it stood as one stretch before; the pair rule is not reached)."""
    run = _pinball_run("genuine")
    truth = run.truth
    a = analyze(run.action_times, frame_signals(run.video), DEFAULT_THRESHOLDS,
                run_duration_s=run.run_end_s)
    assert a.suggested_offset_s is not None
    assert abs(a.suggested_offset_s - truth["offset_s"]) * truth["fps"] <= 1.0  # duration-ok
    assert not a.findings, a.findings
