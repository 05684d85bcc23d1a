"""A game waiting to be started holds its picture from the video's first frame; the presses
it ignores there, and a later hold ending as that one did, are no sync warning (issue 13,
QA s27 section 1: Donkey Kong; core/sync/freeze.py `_opening_wait`).

Donkey Kong holds its picture through the lead-in until FIRE starts the game, ignoring the
joystick, and again after a lost life; each time the level is redrawn (a first changed frame
several times the usual change), so the first-frame ratio of session 26's wait rules does
not take them, and the opening hold (from frame 0) was never tested as a wait: the
reactions' "N actions in a row with no visible reaction" stayed over it at auto and at the
truth. A freeze inserted into the same game keeps its warning.
"""

from __future__ import annotations

import random

import corpus
import pytest

from moderator_app.core.formats.submission import load_submission
from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.inputs import inputs
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

pytestmark = pytest.mark.skipif(corpus.available() is not None,
                                reason=f"corpus cannot be built: {corpus.available()}")


@pytest.fixture(autouse=True)
def scan_cache(monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))


def donkey_kong(ram, rng: random.Random) -> list[tuple[str, int]]:
    """QA s27's agent (scripts/qa_session27.py): LEFT/RIGHT walk, UP/DOWN climb, FIRE jumps."""
    r = rng.random()
    if r < 0.55:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(6, 14))]
    if r < 0.75:
        return [(rng.choice(("UP", "DOWN")), rng.randint(6, 12))]
    if r < 0.92:
        return [(rng.choice(("FIRE", "LEFTFIRE", "RIGHTFIRE")), rng.randint(3, 6))]
    return [("NOOP", rng.randint(4, 10))]


def _dk(kind: str):
    from corpus.record import Recorder

    # a corpus recorder (H.264 MKV, 25 fps, x2 bicubic) and a seed of our own; QA's is AV1 at
    # 20 fps, seed 271; the lead-in is QA's 1.9 s
    rec = Recorder(fps=25, scale=2, flags="bicubic", crf=28, container="mkv", lead_s=1.9)
    return corpus.build_with(f"s27-donkey_kong-{kind}@r25mkvq28s2712", "donkey_kong",
                             donkey_kong, kind, 2712, rec, "r25mkvq28")


def _sync(run, off: float | None) -> list[tuple[str, float | None, float | None]]:
    """The sync findings (rule, video span) at the truth + `off` (None: auto)."""
    times, named = inputs(load_submission([run.log, run.video]))
    at = None if off is None else run.truth["offset_s"] + off
    a = analyze(times, frame_signals(run.video), DEFAULT_THRESHOLDS, at,
                run_duration_s=run.run_end_s, input_kinds=named)
    return [(f.rule, f.video_start_s, f.video_end_s) for f in a.findings]


def _no_reaction(run, off: float | None, kinds: bool = True):
    times, named = inputs(load_submission([run.log, run.video]))
    at = None if off is None else run.truth["offset_s"] + off
    a = analyze(times, frame_signals(run.video), DEFAULT_THRESHOLDS, at,
                run_duration_s=run.run_end_s, input_kinds=named if kinds else None)
    return [(f.video_start_s, f.video_end_s) for f in a.findings
            if f.rule == "sync.no_reaction"]


@pytest.mark.parametrize("off", [0.0, 0.12, -0.12, 0.3, -1.0])
def test_the_games_opening_wait_for_fire_is_no_sync_warning(off):
    # (at auto this run has no suggestion: the hold stays the frozen kind "at every offset",
    # left open; QA's AV1 copy of another seed has one, 1.898 s, and is cleared there)
    # the recorder's lead-in 0.0-2.0 s, then the game held 2.04-6.32 s under a RIGHT and a
    # LEFT until LEFTFIRE (6.304 s at the truth, shown 6.32 s: 363 points against a usual
    # ~100, the level starting)
    run = _dk("genuine")
    assert run.truth["kind"] == "genuine"
    # without the kinds the held picture is still said (as on main with them)
    assert _no_reaction(run, off, kinds=False) == [(2.04, 6.32)]
    # on main: [(2.04, 6.32)] at each of these offsets, a warning on a genuine run
    assert _no_reaction(run, off) == []


@pytest.mark.parametrize("name", ["space_invaders-freeze", "ms_pacman-freeze",
                                  "riverraid-freeze"])
@pytest.mark.parametrize("off", [None, 0.0, 0.3, -1.0])
def test_an_inserted_freeze_keeps_its_warning_beside_the_opening_wait(name, off):
    run = corpus.build(name)
    t = run.truth["tamper"]
    # said by the picture (its held frames) or by the reactions (its unanswered presses,
    # at auto where the run's suggestion now reads them): one warning, on the freeze
    said = _no_reaction(run, off)
    on = [h for h in said if h[1] is not None and h[0] >= t["video_start_s"] - 0.1  # duration-ok: a video time on the video clock
          and h[1] <= t["video_end_s"] + 0.1]  # duration-ok: a video time on the video clock
    assert len(on) == 1 and len(said) == 1


def _kong_signals(freeze: tuple[float, float] | None = None, again: str = "FIRE"):
    """QA s27's Donkey Kong human run in miniature (20 fps, 40 s, a usual change of ~32
    points a frame): held 0.0-11.65 s (the lead-in and the game waiting for FIRE, resuming
    with 560 points: the level drawn) and 29.65-33.2 s (after a lost life, 360 points), and
    the log's presses (FIRE at 9.713 and 31.28 s run: 11.613 and 33.18 s at the offset 1.9);
    `freeze`: a held picture inserted there, resuming with 360 points at no press; `again`:
    the press that ends the second hold."""
    import numpy as np

    from moderator_app.core.sync.signals import FrameSignals

    fps = 20
    n = 40 * fps + 60
    rng = np.random.default_rng(5)
    tiles = rng.integers(0, 3, size=(n, 64)).astype(np.uint16)
    tiles[rng.random((n, 64)) < 0.5] = 0
    holds = [(0.0, 11.65, 560), (29.65, 33.2, 360)] + ([(*freeze, 360)] if freeze else [])
    for a, b, first in holds:
        k0, k1 = int(round(a * fps)), int(round(b * fps))
        tiles[k0:k1 + 1] = 0
        tiles[k1, :first // 10] = 10
    log = [(1.675, "DOWN"), (3.498, "UP"), (5.577, "RIGHT"), (7.45, "LEFT"), (9.713, "FIRE"),
           (11.2, "RIGHT"), (13.5, "RIGHT"), (15.5, "LEFT"), (17.4, "UP"), (19.0, "RIGHT"),
           (21.0, "LEFT"), (23.1, "RIGHT"), (25.0, "LEFT"), (27.4, "RIGHT"), (29.5, "DOWN"),
           (31.0, "UP"), (31.28, again), (33.0, "LEFT"), (35.0, "RIGHT")]
    return (FrameSignals(np.arange(n) / fps, tiles, float(fps)), [t for t, _ in log],
            [f"press button={k}" for _, k in log])


@pytest.mark.parametrize("again", ["FIRE", "LEFTFIRE"])
@pytest.mark.parametrize("off", [1.9, 2.0, 1.4])
def test_a_hold_ending_at_the_button_the_game_was_started_with_is_its_wait(off, again):
    # LEFTFIRE gives the game its FIRE too (QA s27 donkey_kong-genuine2: started by FIRE,
    # resumed by LEFTFIRE after a lost life)
    sig, run_s, kinds = _kong_signals(again=again)
    bare = analyze(run_s, sig, DEFAULT_THRESHOLDS, off, run_duration_s=40.0)
    # without the kinds: the hold after the lost life is a frozen picture (QA's warning)
    assert [(f.rule, f.video_start_s, f.video_end_s) for f in bare.findings] == \
        [("sync.no_reaction", 29.65, 33.2)]
    a = analyze(run_s, sig, DEFAULT_THRESHOLDS, off, run_duration_s=40.0, input_kinds=kinds)
    assert a.findings == []
    # the scan's video.frozen over it is a note: the wait, learned from the game's start
    (w,) = a.waits
    assert (w.start_s, w.end_s, w.kind, w.opening_s) == (29.65, 33.2, f"press button={again}", 11.65)


@pytest.mark.parametrize("at", [(14.55, 21.55), (20.55, 27.55)])
def test_a_freeze_in_the_game_that_waits_for_fire_keeps_its_warning(at):
    # 7 s (twice the game's own 3.55 s hold: `reactions.FROZEN_RATIO`), resuming at no
    # press (21.55 s) or 0.15 s after a RIGHT (27.4 s at 1.9), neither the game's FIRE
    sig, run_s, kinds = _kong_signals(at)
    a = analyze(run_s, sig, DEFAULT_THRESHOLDS, 1.9, run_duration_s=40.0, input_kinds=kinds)
    assert [(f.rule, f.video_start_s, f.video_end_s) for f in a.findings] == \
        [("sync.no_reaction", at[0], at[1])]
    assert [w.end_s for w in a.waits] == [33.2]
