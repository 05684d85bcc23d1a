"""The review loop walked again, session 13 (issue 11; QA's walk, docs/qa/session13.md): a sync
finding whose span starts before the view is drawn right of the lane names, never over them,
and a click on the names selects no finding."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor

from moderator_app.core.sync.records import SyncAnalysis, SyncFinding
from moderator_app.ui.sync_lane import SyncLane
from moderator_app.ui.timeline import LABEL_W, Timeline


@pytest.fixture
def lane(qtbot):
    timeline = Timeline()
    qtbot.addWidget(timeline)
    timeline.resize(LABEL_W + 400, 120)
    timeline.set_view(0.0, 4.0)
    lane = SyncLane(timeline)
    qtbot.addWidget(lane)
    lane.resize(timeline.width(), 40)
    lane.show()
    return lane


def picture(lane, findings):
    lane.set_analysis(SyncAnalysis(None, 0.0, 0, 4, 1.0, "", 13.5, findings=findings))
    img = lane.grab().toImage()
    return img


def test_a_span_before_the_view_stays_right_of_the_lane_names(qtbot, lane):
    before = SyncFinding("sync.no_reaction", "no reaction", video_start_s=-3.0, video_end_s=1.0)
    bare = picture(lane, [])
    marked = picture(lane, [before])
    names = [(x, y) for x in range(2, LABEL_W - 2, 7) for y in (1, 2, lane.height() - 2)]
    changed = [(x, y) for x, y in names if bare.pixelColor(x, y) != marked.pixelColor(x, y)]
    assert changed == []  # the names' column is as without the finding
    inside = int(lane._x(0.5))
    assert QColor(marked.pixelColor(inside, 1)) != QColor(bare.pixelColor(inside, 1))
    seeks: list[float] = []
    lane.seek_requested.connect(seeks.append)
    qtbot.mouseClick(lane, Qt.MouseButton.LeftButton, pos=QPoint(LABEL_W // 2, 5))
    qtbot.mouseClick(lane, Qt.MouseButton.LeftButton, pos=QPoint(inside, 5))
    assert seeks == [-3.0]  # only the click on the plot: the span's start
