"""Issue 13 (QA s19 M3): a suggestion whose confidence the video's cadence bounds (each game
picture held for two video frames: `core/sync/cadence.py`) says why in the Sync panel, beside
the withheld one-click Apply."""

from __future__ import annotations

from PySide6.QtCore import Qt

from moderator_app.core.sync.cadence import CADENCE_BOUND, note
from moderator_app.core.sync.records import SyncAnalysis
from moderator_app.ui.sync_lane import AutoSyncBox


class _Session:
    def __init__(self) -> None:
        self.offsets: list[float] = []

    def set_offset(self, value: float, by: str | None = None) -> None:
        self.offsets.append(value)


def test_the_panel_says_the_cadence_bounds_the_offset(qtbot):
    session = _Session()
    b = AutoSyncBox(session)
    qtbot.addWidget(b)
    # Beam Rider at 120 fps (QA s19): 0.586 s, truth 0.6, 21 of 24 actions
    b.set_analysis(SyncAnalysis(0.586, CADENCE_BOUND, 21, 24, 1.0, "", 0.586,
                                confidence_note=note(2, 120.0)))
    assert not b.apply.isEnabled()
    # the button's tooltip too: at 1280x720 the dock squeezes the label to about 2 lines
    assert "holds each game picture for 2 of its frames" in b.apply.toolTip()
    qtbot.mouseClick(b.apply, Qt.MouseButton.LeftButton)
    assert session.offsets == []
    assert b.label.text() == (
        "auto-sync: run_start at 0.586 s (confidence 0.45, 21 of 24 actions); 0 sync findings\n"
        "low confidence (0.45, under 0.50): check the sync lanes before using it; one-click "
        "apply is withheld, the offset can be typed; the video holds each game picture for 2 "
        "of its frames (120 fps): a reaction shows only when the game draws, so the reactions "
        "place run_start only to within a game frame (2 video frames), not one video frame")
