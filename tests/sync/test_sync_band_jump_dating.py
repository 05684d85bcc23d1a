"""A jump read in the player's band at the moderator's offset is dated where the whole picture
jumps (issue 13, session 23, QA s23 Q3; core/sync/band_jump.py `_placed`, splices.standout).

Carnival (rows of targets slide across on their own), QA s23's agent and seed, built by the
corpus generator at 25 fps H.264 MP4, x2, a 1.7 s lead-in (QA's own runs are MPEG-2 PS, read
the same). No stage suggests an offset; at the true offset `band_jump` reads the jump from
presses seconds apart, in the band's own change: on main the 4 s cut at video 18.38 s was
placed at 21.40 s (the last press read at the old offset, run 19.63 s, was one the cut
removed, answered there by chance) and the 4 s inserted at 15.6 s at 14.16 s. Now each is
dated at the frame between those presses whose whole picture changes most and stands out:
18.40 s and 15.60-19.60 s. The genuine run keeps no sync finding.
"""

from __future__ import annotations

import random

import corpus
import pytest

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture(autouse=True)
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


def carnival(ram, rng: random.Random) -> list[tuple[str, int]]:
    """QA s23's Carnival agent (scripts/qa_session23.py): LEFT/RIGHT move the gun, FIRE
    shoots."""
    r = rng.random()
    if r < 0.45:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(5, 12))]
    if r < 0.8:
        return [("FIRE", rng.randint(3, 6))]
    return [(rng.choice(("LEFTFIRE", "RIGHTFIRE")), rng.randint(4, 8))]


def _at_truth(kind: str):
    from corpus.record import Recorder

    run = corpus.build_with(f"s23-carnival-{kind}@r25mp4", "carnival", carnival, kind, 231,
                            Recorder(fps=25, scale=2, lead_s=1.7, container="mp4"), "r25mp4")
    a = analyze(run.action_times, frame_signals(run.video), DEFAULT_THRESHOLDS,
                run.truth["offset_s"], run_duration_s=run.run_end_s)
    return run, a


def _jump(run, a):
    assert a.suggested_offset_s is None  # (nothing suggests: the path under test)
    jumps = [f for f in a.findings if f.rule == "sync.offset_jump"]
    assert len(jumps) == 1, a.findings
    [f] = jumps
    assert "player's band at the offset given" in f.message  # band_jump's reading
    assert f.video_start_s is not None and f.size_s is not None
    assert abs(f.size_s - run.truth["tamper"]["size_s"]) <= 2 / 25  # duration-ok: 2 frames
    return f


def test_a_cut_read_in_the_band_is_dated_where_the_picture_jumps():
    run, a = _at_truth("cut")
    f = _jump(run, a)
    assert abs(f.video_start_s - run.truth["tamper"]["video_s"]) <= 1.0  # duration-ok: +-1 s
    assert f.video_end_s is None


def test_an_insertion_read_in_the_band_is_dated_where_the_picture_jumps():
    run, a = _at_truth("insert")
    f = _jump(run, a)
    t = run.truth["tamper"]
    assert abs(f.video_start_s - t["video_s"]) <= 1.0  # duration-ok: a video time (+-1 s)
    assert f.video_end_s is not None
    assert abs(f.video_end_s - t["video_end_s"]) <= 1.0  # duration-ok: a video time (+-1 s)


def test_the_genuine_run_at_its_offset_has_no_sync_finding():
    _, a = _at_truth("genuine")
    assert [f for f in a.findings if f.rule.startswith("sync.")] == []
