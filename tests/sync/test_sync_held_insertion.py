"""Inserted footage that is a held picture: the jump is said at the picture (issue 13, session
28, QA s27 T5; core/sync/held_insert.py).

QA s27's Donkey Kong with 4 s inserted at video 15.8 s (a copy of the game's held opening,
AV1 at 20 fps, truth 1.9 s), read at 2.0 s: the player's band said "+3.90 s near video
26.40 s" (10.6 s after the insertion: 3 of the 7 presses after it answered at 2.0 s by
chance) beside a frozen picture 15.85-19.8 s. The signals here are that video's shape: a
busy picture at 20 fps whose frames 317-395 do not change; the analysis' findings are those
the reading made there.
Repro on QA's run: `verify .cache/qa-s27/sync/donkey_kong-insert@r20av1mkv --json --scan
--sync --offset 2.0` (`scripts/qa_session27.py sync-build` builds it).
"""

from __future__ import annotations

import numpy as np

from moderator_app.core.sync.held_insert import at_held
from moderator_app.core.sync.records import SyncAnalysis, SyncFinding
from moderator_app.core.sync.signals import FrameSignals

FPS = 20.0


def _signals(held: tuple[int, int] | None = (317, 395), n: int = 760) -> FrameSignals:
    """A busy picture (every tile changes a little every frame), still over `held`."""
    rng = np.random.default_rng(28)
    tiles = rng.integers(1, 40, size=(n, 64)).astype(np.uint16)
    tiles[0] = 0
    if held is not None:
        tiles[held[0]:held[1] + 1] = 0
    return FrameSignals(np.arange(n) / FPS, tiles, FPS)


def _jump(size: float = 3.9, at: float = 26.4, clock: float = 2.0) -> SyncFinding:
    # as band_jump dates it: the inserted span, its run times on the offset given's clock
    return SyncFinding(
        "sync.offset_jump", f"the offset jumps by {size:+.2f} s near video {at:.2f} s: footage "
        "inserted? (read in the player's band at the offset given, 2.000 s)", at,
        round(at + size, 3) if size > 0 else None, round(at - clock, 3),
        round(at + max(size, 0.0) - clock, 3), size_s=size)


FROZEN = SyncFinding("sync.no_reaction", "the picture does not change for 4.0 s while the log "
                     "holds 2 actions there (at the offset used; ...): a frozen or held picture",
                     15.85, 19.8, 13.85, 17.8, actions=2)


def _analysis(*findings: SyncFinding) -> SyncAnalysis:
    return SyncAnalysis(None, 0.0, 8, 21, 1.0, "the video's reactions do not single out one "
                        "offset", 2.0, findings=list(findings))


def test_an_insertion_read_late_is_said_at_the_held_picture_of_its_length():
    out = at_held(_analysis(FROZEN, _jump()), _signals())
    # on main: the jump at 26.40-30.30 s (run 24.40-28.30 s) and the frozen picture apart
    assert [f.rule for f in out.findings] == ["sync.offset_jump"]
    (f,) = out.findings
    assert (f.video_start_s, f.video_end_s) == (15.85, 19.8)  # duration-ok: video times (the held frames 317-395)
    assert (f.run_start_s, f.run_end_s) == (13.85, 17.8)  # duration-ok: run times on the 2.0 s clock
    assert f.size_s == 3.9
    assert f.message.startswith("the offset jumps by +3.90 s near video 15.85 s: footage "
                                "inserted? (read in the player's band at the offset given")
    assert "held picture 15.85-19.80 s" in f.message and "up to video 26.40 s" in f.message


def test_a_jump_already_at_its_held_picture_and_a_cut_are_left_as_they_are():
    at = _analysis(FROZEN, _jump(at=15.85))
    assert at_held(at, _signals()) is at
    cut = _analysis(FROZEN, _jump(size=-4.0))
    assert at_held(cut, _signals()) is cut


def test_a_held_picture_of_another_length_or_after_the_jump_is_not_the_insertion():
    other = _analysis(_jump())
    assert at_held(other, _signals(held=(317, 365))) is other   # 2.45 s held, a 3.9 s jump
    assert at_held(other, _signals(held=(600, 678))) is other   # 30.0-33.95 s, after it
    assert at_held(other, _signals(held=None)) is other
    # a hold as long as the jump from the video's first frame is the recording's start
    assert at_held(other, _signals(held=(0, 78))) is other
