"""A jump read in the player's band at the moderator's offset is dated where the whole picture
jumps (issue 13, session 23, QA s23 Q3; core/sync/band_jump.py, splices.placed and standout).

Carnival (rows of targets slide across on their own), QA s23's agent and seed, built by the
corpus generator at 25 fps H.264 MP4, x2, a 1.7 s lead-in (QA's own runs are MPEG-2 PS, read
the same). No stage suggests an offset; at the true offset `band_jump` reads the jump from
presses seconds apart, in the band's own change: on main the 4 s cut at video 18.38 s was
placed at 21.40 s (the last press read at the old offset, run 19.63 s, was one the cut
removed, answered there by chance) and the 4 s inserted at 15.6 s at 14.16 s. Now each is
dated at the frame between those presses whose whole picture changes most and stands out:
18.40 s and 15.60-19.60 s. The genuine run keeps no sync finding.

Session 24 (issue 13): a dated jump's run times are its dated place's, so that its message,
its span on the timeline and its mark (the click) name one place: the cut dated at 18.40 s
still said "run 19.63 s to 21.65 s" and a click went to video 21.33 s. And a jump out of a
first stretch read at another offset than the one given is no splice: a genuine Phoenix run
read its first 8 presses at +7.0 s by chance and was warned "-7.00 s near video 21.12 s".
"""

from __future__ import annotations

import random

import corpus
import pytest

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.run import sync_finding
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS
from moderator_app.core.verify.moments import finding_moment, finding_span

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


def _as_the_moderator_sees_it(f, offset_s: float):
    """The report's finding (`verify --sync`, the workstation's list), its mark (where a click
    takes the video) and its span on the timeline, in video time at `offset_s`."""
    g = sync_finding(f, "video.mp4")
    m = finding_moment(g, None, offset_s)
    span = finding_span(g, offset_s)
    assert m is not None and span is not None
    return g.message, m.video_s, (span[0] + offset_s, span[1] + offset_s)


def test_a_dated_cut_says_one_place_in_its_message_its_span_and_its_mark():
    """On 1b7754e: message "near video 18.40 s ... run 19.63 s to 21.65 s", mark at video
    21.33 s (2.95 s past the cut), span 21.33-23.35 s, which does not hold 18.40 s."""
    run, a = _at_truth("cut")
    f = _jump(run, a)
    off = run.truth["offset_s"]
    message, mark, (s0, s1) = _as_the_moderator_sees_it(f, off)
    assert f"near video {f.video_start_s:.2f} s" in message
    assert abs(mark - f.video_start_s) <= 1 / 25  # duration-ok: a video time (1 frame)
    assert abs(mark - run.truth["tamper"]["video_s"]) <= 1.0  # duration-ok: +-1 s
    # the span is the run's removed stretch: from the cut to where the run resumes
    assert abs(s0 - f.video_start_s) <= 1 / 25  # duration-ok: a video time (1 frame)
    assert abs((s1 - s0) + f.size_s) <= 1 / 25  # duration-ok: the size removed (1 frame)
    assert f"run {s0 - off:.2f} s to {s1 - off:.2f} s" in message


def test_a_dated_insertion_says_one_place_in_its_message_its_span_and_its_mark():
    """On 1b7754e: "video 15.60 s to 19.60 s; run 12.40 s to 14.28 s": mark at 14.10 s."""
    run, a = _at_truth("insert")
    f = _jump(run, a)
    off = run.truth["offset_s"]
    message, mark, (s0, s1) = _as_the_moderator_sees_it(f, off)
    assert f.video_end_s is not None
    assert abs(mark - f.video_start_s) <= 1 / 25  # duration-ok: a video time (1 frame)
    assert abs(s0 - f.video_start_s) <= 1 / 25  # duration-ok: a video time (1 frame)
    assert abs(s1 - f.video_end_s) <= 1 / 25  # duration-ok: a video time (1 frame)
    assert f"run {s0 - off:.2f} s to {s1 - off:.2f} s" in message


def test_a_genuine_run_read_at_another_offset_before_the_given_one_has_no_sync_warning():
    """s22-phoenix-genuine@r25mp4 (s22-sync's run: QA s20's Phoenix agent, 25 fps H.264 MP4,
    a 3.3 s lead-in) at its true offset: the player's band read its first 8 presses at
    10.30 s by chance and the rest at the 3.3 s given, and `band_jump` said "the offset
    jumps by -7.00 s near video 21.12 s: footage removed?" (on main). Now nothing."""
    from corpus.record import Recorder
    from test_sync_capture_rates import GAMES

    agent, seed = GAMES["phoenix"]
    run = corpus.build_with("s22-phoenix-genuine@r25mp4", "phoenix", agent, "genuine", seed,
                            Recorder(fps=25, scale=2, lead_s=3.3, container="mp4"), "r25mp4")
    a = analyze(run.action_times, frame_signals(run.video), DEFAULT_THRESHOLDS,
                run.truth["offset_s"], run_duration_s=run.run_end_s)
    assert [(f.rule, f.message) for f in a.findings if f.rule.startswith("sync.")] == []


@pytest.mark.parametrize("name,before", [("kangaroo-cut", 19.683), ("frostbite-cut", 18.70)])
def test_a_cut_bracketed_away_from_its_splice_is_dated_at_the_frame_that_stands_out(
        name, before, monkeypatch):
    """The corpus' held-out Kangaroo and Frostbite cuts (4 s at video 17.93 and 19.28 s, 60
    fps): the presses `band_jump`'s track puts around the jump are 4-5 s before the splice,
    and no frame stands out between them; the track's own place was kept, the largest change
    among its ties: Kangaroo's a two-frame flash at 19.683 s (1.75 s late: missed),
    Frostbite's 18.70 s. Now the strongest frame that stands out within the jump's size of
    that place: the splice's own frame."""
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))
    run = corpus.build(name)
    a = analyze(run.action_times, frame_signals(run.video), DEFAULT_THRESHOLDS,
                run.truth["offset_s"], run_duration_s=run.run_end_s)
    f = _jump(run, a)
    t, fps = run.truth["tamper"], run.truth["fps"]
    assert abs(f.video_start_s - t["video_s"]) <= 1 / fps, before  # duration-ok: video time
