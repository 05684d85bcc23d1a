"""A sync warning names the footage of the actions it names, and an insertion's span is the
inserted footage (issue 13, session 25, QA s25 S1 and S2; core/sync/stretch.py `place`,
core/sync/splices.py `inserted_start`).

S1: a stretch of actions answered at chance that ends the run (footage cut, the rest read
at the old offset) was given a video start at the largest picture change after its
earliest plausible boundary. Kaboom! flashes the screen over two frames whenever a bomb
lands, and its cut changes the picture no more than the game does: QA's cut run said "video
32.97 s to 37.44 s; run 15.21 s to 35.94 s", 14.8 s after the cut, where run 15.21 s is
video 16.61 s. Now the start is a splice's frame only when it stands out as one; else the
stretch's first action's footage.

S2: an insertion has two splices its size apart; the presses that bracket it may hold only
the second, which was taken as its start: Chopper Command's 4 s at 19.43-23.43 s was marked
23.43-27.43 s, none of it inserted.

Runs of our own (QA's agents for the two games, other seeds, a 30 fps MKV recorder), built
as `corpus.build_with` builds.
"""

from __future__ import annotations

import random

import corpus
import numpy as np
import pytest

from moderator_app.core.sync import splices, stretch
from moderator_app.core.sync.signals import frame_signals

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture(autouse=True)
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


def kaboom(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Kaboom! (the bomber runs and drops bombs on its own; LEFT/RIGHT move the buckets,
    FIRE starts a wave): QA s25's agent."""
    if rng.random() < 0.7:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(3, 10))]
    return [("FIRE", rng.randint(2, 4))]


def chopper_command(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Chopper Command (the trucks drive and the enemy choppers fly on their own): QA s25's
    agent."""
    r = rng.random()
    if r < 0.5:
        return [(rng.choice(("LEFT", "RIGHT", "UP", "DOWN", "UPLEFT", "DOWNRIGHT")),
                 rng.randint(6, 14))]
    if r < 0.85:
        return [(rng.choice(("FIRE", "LEFTFIRE", "RIGHTFIRE")), rng.randint(3, 6))]
    return [("NOOP", rng.randint(4, 10))]


def _run(game: str, kind: str, seed: int):
    from corpus.record import Recorder

    agent = kaboom if game == "kaboom" else chopper_command
    rec = Recorder(fps=30, scale=2, flags="bilinear", crf=28, container="mkv", lead_s=2.6)
    return corpus.build_with(f"s25-{game}-{kind}@r30mkvq28s{seed}", game, agent, kind, seed,
                             rec, "r30mkvq28")


def _tail(run, presses_before: int):
    """A stretch that ends the run, from `presses_before` presses before the splice: the
    presses before it answered, the rest not (at chance 0.2), expected at the truth."""
    t = run.truth
    acts = np.asarray(run.action_times, float)
    exp = acts + t["offset_s"]
    s = (acts < t["tamper"]["run_s"]).astype(float)
    i0 = int(np.searchsorted(acts, t["tamper"]["run_s"])) - presses_before
    return s, np.full(len(acts), 0.2), exp, i0


def test_a_stretch_ending_the_run_starts_at_its_first_actions_footage_without_a_splice():
    run = _run("kaboom", "cut", 4257)
    sig = frame_signals(run.video)
    s, chance, exp, i0 = _tail(run, 2)
    v0, v1 = stretch.place(sig, s, chance, exp, i0, len(exp))
    # on main: video 35.93 s, a two-frame flash 16.6 s after the cut (19.37 s)
    assert v0 == pytest.approx(float(exp[i0]), abs=1e-6)  # duration-ok: a video time
    assert v0 < run.truth["tamper"]["video_s"] < v1  # the cut within the span
    assert v1 == pytest.approx(float(exp[-1]) + stretch.WINDOW_S, abs=1e-6)  # duration-ok


def test_a_stretch_ending_the_run_still_starts_at_a_splice_that_stands_out():
    run = _run("chopper_command", "insert", 2253)
    sig = frame_signals(run.video)
    s, chance, exp, i0 = _tail(run, 2)
    v0, _ = stretch.place(sig, s, chance, exp, i0, len(exp))
    # the insertion's first splice (20.633 s, 1,527 points, 7 times its neighbours)
    assert abs(v0 - run.truth["tamper"]["video_s"]) <= 1 / 30  # duration-ok: a video time


def test_an_insertion_bracketed_at_its_second_splice_is_marked_on_the_inserted_footage():
    run = _run("chopper_command", "insert", 2253)
    sig = frame_signals(run.video)
    t = run.truth
    off, v_in, v_out = t["offset_s"], t["tamper"]["video_s"], t["tamper"]["video_end_s"]
    acts = np.asarray(run.action_times, float)
    # two presses that, at the old offset, bracket the insertion's end (24.63 s) alone
    a, b = (float(x) for x in acts[(acts + off > v_in + 1.0) & (acts + off < v_out + 2.0)][-2:])
    assert v_in < a + off < v_out < b + off
    f = splices.jump_finding(4.0, v_out, v_out + 4.0, a, b)
    g = splices.placed(f, sig, off)
    # on main: 24.633-28.633 s (the 4 s after the inserted footage)
    assert g.video_start_s is not None and g.video_end_s is not None
    assert abs(g.video_start_s - v_in) <= 1 / 30  # duration-ok: a video time
    assert abs(g.video_end_s - v_out) <= 1 / 30  # duration-ok: a video time
    assert f"near video {v_in:.2f} s" in g.message


def test_an_insertion_bracketed_at_its_first_splice_stays_there():
    run = _run("chopper_command", "insert", 2253)
    sig = frame_signals(run.video)
    t = run.truth
    off, v_in = t["offset_s"], t["tamper"]["video_s"]
    acts = np.asarray(run.action_times, float)
    a = float(acts[acts + off < v_in][-1])
    b = float(acts[acts + off > v_in][0])
    f = splices.jump_finding(4.0, v_in + 1.0, v_in + 5.0, a, b)
    g = splices.placed(f, sig, off)
    assert g.video_start_s is not None
    assert abs(g.video_start_s - v_in) <= 1 / 30  # duration-ok: a video time
