"""Issue 13, "never a confident wrong answer" (QA s17 K2): the Sync panel does not apply a
suggestion under `APPLY_MIN_CONFIDENCE` in one click. Othello's genuine run at 29.97 fps was
offered at 2.009 s (truth 1.9 s, +3.26 frames) with Apply enabled; at the confidence the
analysis now gives it (0.43) the button is withheld and the panel says why, while a confident
suggestion still applies in one click."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from moderator_app.core.sync.records import APPLY_MIN_CONFIDENCE, SyncAnalysis
from moderator_app.ui.decision_text import AUTO_SYNC
from moderator_app.ui.sync_lane import AutoSyncBox


class _Session:
    """What AutoSyncBox asks of the session: the offset it sets, and who set it."""

    def __init__(self) -> None:
        self.offsets: list[float] = []
        self.by: list[str | None] = []

    def set_offset(self, value: float, by: str | None = None) -> None:
        self.offsets.append(value)
        self.by.append(by)


def _analysis(confidence: float) -> SyncAnalysis:
    return SyncAnalysis(suggested_offset_s=2.0087, confidence=confidence, supporting_actions=9,
                        actions=23, speed=1.0, reason="", offset_used_s=2.0504)


@pytest.fixture
def box(qtbot):
    session = _Session()
    b = AutoSyncBox(session)
    qtbot.addWidget(b)
    b.show()
    return b, session


def test_a_suggestion_under_the_bar_is_not_applied_in_one_click(qtbot, box):
    b, session = box
    b.set_analysis(_analysis(0.43))
    assert not b.apply.isEnabled()
    assert b.apply.text() == "Apply withheld: low confidence"
    assert "under 0.50" in b.apply.toolTip()
    qtbot.mouseClick(b.apply, Qt.MouseButton.LeftButton)
    b.apply_suggestion()  # a direct call (a shortcut, a script) does not apply it either
    assert session.offsets == []
    assert b.label.text() == (
        "auto-sync: run_start at 2.009 s (confidence 0.43, 9 of 23 actions); 0 sync findings\n"
        "low confidence (0.43, under 0.50): check the sync lanes before using it; one-click "
        "apply is withheld, the offset can be typed")


@pytest.mark.parametrize("confidence", [APPLY_MIN_CONFIDENCE, 0.879])
def test_a_confident_suggestion_applies_in_one_click(qtbot, box, confidence):
    b, session = box
    b.set_analysis(_analysis(confidence))
    assert b.apply.isEnabled()
    assert b.apply.text() == "Apply suggested offset" and not b.apply.toolTip()
    assert "low confidence" not in b.label.text()
    qtbot.mouseClick(b.apply, Qt.MouseButton.LeftButton)
    assert session.offsets == [2.0087]
    assert session.by == [AUTO_SYNC]  # the decision's confirmation says so (offset_origin)


def test_no_suggestion_offers_nothing_to_apply(qtbot, box):
    b, session = box
    b.set_analysis(SyncAnalysis(None, 0.2, 3, 23, 1.0, "the video's reactions do not single "
                                "out one offset", None))
    assert not b.apply.isEnabled() and b.apply.text() == "Apply suggested offset"
    b.apply_suggestion()
    assert session.offsets == []
