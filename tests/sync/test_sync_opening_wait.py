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
