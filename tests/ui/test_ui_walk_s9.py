"""The review loop at 1280x720 with the review queue open (issue 11, session 9): the queue's tab
takes no width from the event table, and the four dock tabs' titles are whole."""

from __future__ import annotations

import shutil

import pytest
from test_ui_main_window import make_submission, open_and_wait
from test_ui_review_fit import content_seen, official_run
from ui_helpers import window_1280x720


@pytest.fixture
def window(qtbot, tmp_path):
    yield from window_1280x720(qtbot, tmp_path)


def shown_tabs(window):
    """(title as drawn, tab width, text width) of every tab of the right docks' tab bar."""
    from PySide6.QtWidgets import QTabBar

    out = []
    for bar in window.findChildren(QTabBar):
        if bar.isVisible():
            fm = bar.fontMetrics()
            for i in range(bar.count()):
                text = bar.tabText(i).replace("&&", "&")  # "&&" draws one "&"
                out.append((text, bar.tabRect(i).width(), fm.horizontalAdvance(text)))
    return out


@pytest.mark.parametrize("kind", ["official", "community"])
def test_the_queue_tab_takes_no_width_and_no_tab_title_is_cut_at_1280x720(
        qtbot, window, tmp_path, monkeypatch, kind):
    # Seen on Xvfb at 1280x720: raising the Review queue tab widened the docks from 288 to
    # 294 px (its three buttons at the style's 80 px minimum) and the event table's Content
    # lost 4 px (216 -> 212, 200 -> 196 on a five-digit official run); with four tabs in
    # 288 px Qt elided every title ("Sync & re…", "Review q…").
    from PySide6.QtWidgets import QApplication

    from moderator_app.ui.queue_panel import show_queue

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # the queue's report cache
    if kind == "official":
        folder = official_run(tmp_path / "one")
    else:
        folder, _ = make_submission(tmp_path / "one")
    queue = tmp_path / "queue"
    queue.mkdir()
    for name in ("run-a", "run-b"):
        shutil.copytree(folder, queue / name)
    open_and_wait(qtbot, window, queue / "run-a")
    for _ in range(3):
        QApplication.processEvents()
    content, dock = content_seen(window), window.findings_dock.width()
    panel = show_queue(window, queue)
    qtbot.waitUntil(lambda: len(panel.items) == 2 and not panel.listing, timeout=120_000)
    for _ in range(3):
        QApplication.processEvents()
    assert window.queue_dock.isVisible()
    # The docks are as wide as the Sync panel needs; the queue asks for no more.
    sync_panel = window.sync_dock.widget().widget()  # inside its scroll area
    print("queue panel", panel.minimumSizeHint().width(), "sync panel",
          sync_panel.minimumSizeHint().width(), "content", content_seen(window))
    assert panel.minimumSizeHint().width() <= sync_panel.minimumSizeHint().width()
    assert window.findings_dock.width() == dock
    assert content_seen(window) == content
    tabs = shown_tabs(window)
    assert [t for t, _, _ in tabs] == ["Sync", "Decision", "Run", "Queue"]
    for text, width, need in tabs:
        assert width >= need + 8, (text, width, need)  # whole, with the tab's margins
