"""Issue 13 (QA s30 T2, session 31): the Sync panel says what a suggestion dates. A game that
answers every press k frames later is suggested k frames later at the same confidence (no
reading of one video splits offset and lag: tests/sync/test_sync_constant_lag.py), so the
confidence cannot carry that lag: the suggestion's tooltip says it."""

from __future__ import annotations

from moderator_app.core.sync.records import SyncAnalysis
from moderator_app.ui.sync_lane import AutoSyncBox


class _Session:
    def set_offset(self, value: float, by: str | None = None) -> None:
        raise AssertionError("not applied here")


def test_a_suggestion_says_a_constant_lag_is_in_it(qtbot):
    b = AutoSyncBox(_Session())
    qtbot.addWidget(b)
    # Backgammon at 54 fps (QA s30): 2.4858 s at 0.906, 10 of 23 actions (truth 2.45)
    b.set_analysis(SyncAnalysis(2.4858, 0.906, 10, 23, 1.0, "", 2.4941))
    assert b.apply.isEnabled()
    tip = b.label.toolTip()
    assert "within 0-2 of its frames" in tip
    assert "cannot tell a constant lag from a later offset" in tip
    # nothing suggested: nothing dated
    b.set_analysis(SyncAnalysis(None, 0.0, 0, 23, 1.0, "too few reactions", None))
    assert b.label.toolTip() == ""
    b.set_analysis(None)
    assert b.label.toolTip() == ""
