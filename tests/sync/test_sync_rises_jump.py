"""A splice only the screen's motion rises read is said (issue 13, session 45, place).

The wide set's tennis-cut@vfr (4 s of footage cut at video 18.783 s): no onset reading, band,
head or calmed reading singles out an offset; the rises' reading (`analysis._rising`) does,
and reads the cut's -4.00 s jump at 18.783 s, the truth's frame. `_rising` passed on only
its stretches played with no action and its drift, so the cut was read and dropped. A jump's
seconds and the splice frame `splices.jumps` dates it at do not hang on the 0-4 frames a rise
lags a press by (the reason the rises' offset is named, not suggested). The rises' answers are
weak, so the jump joins only where its splice frame stands alone in the picture
(`splices.alone`): a genuine Kaboom!@r50 run's rises read a -4.57 s jump at 20.84 s, a frame
of the game's flash (25,384 points, 28,047 two frames later).
"""

from __future__ import annotations

import numpy as np

from moderator_app.core.sync import analysis, rise
from moderator_app.core.sync.analysis import SyncAnalysis, SyncFinding
from moderator_app.core.sync.signals import FrameSignals
from moderator_app.core.thresholds import Thresholds

FPS, N, K = 60.0, 2400, 1127  # the splice's frame: 18.783 s
CUT = SyncFinding("sync.offset_jump", "the offset jumps by -4.00 s near video 18.78 s",
                  K / FPS, None, 16.345, 17.844, size_s=-4.0)
HUMAN = SyncFinding("sync.activity_without_actions", "h", 30.0, 33.0, 28.3, 31.3, actions=0)


def _a(offset, *findings):
    return SyncAnalysis(offset, 0.8 if offset is not None else 0.0, 10, 26, 1.0,
                        "" if offset is not None else "no", offset, findings=list(findings))


def _analyze_with_rises(monkeypatch, *read: SyncFinding, flash: bool = False):
    """`analysis.analyze` at the truth's offset where every reading singles out nothing but
    the rises' (8x8 scale), which reads `read` at 1.735 s; the picture changes at the
    splice's frame alone, or (`flash`) again two frames later, more (a game's flash)."""
    risen: list[int] = []

    def rising(sig):
        got = real_rising(sig)
        risen.append(id(got)) if sig.grid == 8 else None
        return got

    def reading(run, sig, th, offset_s=None, *args, **kw):
        return _a(1.735, *read) if id(sig) in risen else _a(None)

    real_rising = rise.rising
    monkeypatch.setattr(rise, "rising", rising)
    monkeypatch.setattr(analysis, "analyze_at", reading)
    tiles = np.zeros((N, 64), np.uint16)
    tiles[1:, 0] = 19
    tiles[K, :] = 325  # the splice moves the whole picture
    if flash:
        tiles[K + 2, :] = 350
    sig = FrameSignals(np.arange(N) / FPS, tiles, FPS)
    return analysis.analyze(np.arange(2.0, 38.0, 1.4), sig, Thresholds(), 1.7333)


def test_a_cut_only_the_rises_read_is_said_at_its_frame(monkeypatch):
    got = _analyze_with_rises(monkeypatch, CUT, HUMAN)
    jumps = [f for f in got.findings if f.rule == "sync.offset_jump"]
    assert len(jumps) == 1
    assert abs(jumps[0].video_start_s - 18.783) < 1 / FPS and jumps[0].size_s == -4.0  # duration-ok: a frame position
    assert "at the offset the screen's motion rises single out, 1.735 s, not suggested" \
        in jumps[0].message
    assert got.suggested_offset_s is None  # the rises' offset is still named, not suggested
    assert [f.rule for f in got.findings if f.rule == "sync.activity_without_actions"] \
        == ["sync.activity_without_actions"]


def test_a_rises_reading_without_a_jump_adds_none(monkeypatch):
    got = _analyze_with_rises(monkeypatch, HUMAN)
    assert [f.rule for f in got.findings if f.rule == "sync.offset_jump"] == []


def test_a_jump_the_rises_read_at_a_flash_is_none(monkeypatch):
    got = _analyze_with_rises(monkeypatch, CUT, HUMAN, flash=True)
    assert [f.rule for f in got.findings if f.rule == "sync.offset_jump"] == []
    assert [f.rule for f in got.findings if f.rule == "sync.activity_without_actions"] \
        == ["sync.activity_without_actions"]


def test_a_frame_alone_must_change_the_picture_as_a_splice_does():
    """Review s45 R3: one point of change on a still screen is alone among zeros, but under
    the video's LONE_PCT percentile of change: no splice (`splices.alone`)."""
    from moderator_app.core.sync import splices

    tiles = np.zeros((N, 64), np.uint16)
    tiles[1:, 0] = np.where(np.arange(1, N) % 7 == 0, 40, 0)  # the game's own changes ...
    tiles[K - 40:K + 41, 0] = 0  # ... none within a second of the frame
    tiles[K, 0] = 1
    sig = FrameSignals(np.arange(N) / FPS, tiles, FPS)
    assert not splices.alone(sig, K / FPS)
    tiles[K, 0] = 400
    assert splices.alone(FrameSignals(np.arange(N) / FPS, tiles, FPS), K / FPS)
