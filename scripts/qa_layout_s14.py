"""Issue 11 (O4 of docs/qa/session13.md): what a moderator sees of each panel at a screen size.

Opens a submission in the real window at the screen's size (Xvfb), optionally with the review
queue's dock (the fourth tab), selects the first finding and an event, prints one JSON line of
widget geometries (findings rows in view, the detail pane, the video view, the dock tab titles
and whether any is elided) and saves a screenshot.

    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python scripts/qa_layout_s14.py SUB OUT.png [--queue]
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path


def geometry(win) -> dict:
    """The figures the layout is judged by (also used by tests/ui/test_ui_layout_720.py)."""
    from PySide6.QtWidgets import QTabBar

    view = win.findings.view
    row_h = view.verticalHeader().defaultSectionSize()
    rows = view.viewport().height() // row_h if row_h else 0
    tabs = []
    for bar in win.findChildren(QTabBar):
        if not bar.isVisible() or bar.count() < 2:
            continue
        fm = bar.fontMetrics()
        for i in range(bar.count()):
            text = bar.tabText(i)
            tabs.append({"title": text, "width": bar.tabRect(i).width(),
                         "text_px": fm.horizontalAdvance(text),
                         "elided": bar.sizeHint().width() > bar.width()})
    detail = win.detail.text if hasattr(win.detail, "text") else win.detail
    return {
        "window": [win.width(), win.height()],
        "findings_rows": rows,
        "findings_view": [view.viewport().width(), view.viewport().height()],
        "findings_dock": [win.findings_dock.width(), win.findings_dock.height()],
        "detail": [detail.width(), detail.height()],
        "table": [win.table.viewport().width(), win.table.viewport().height()],
        "video_view": [win.player.view.width(), win.player.view.height()],
        "timeline": [win.timeline.width(), win.timeline.height()],
        "tabs": tabs,
        "splits": {s.objectName(): s.sizes() for s in (win.main_split, win.top_split,
                                                      win.right_split)},
        "bottom_min": win.main_split.widget(1).minimumSizeHint().height(),
        "player_min": [win.player.minimumSizeHint().width(),
                       win.player.minimumSizeHint().height()],
    }


def main(argv: list[str]) -> int:
    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication

    from moderator_app.ui.main_window import MainWindow

    sub, out = Path(argv[0]), Path(argv[1])
    queue = "--queue" in argv
    app = QApplication.instance() or QApplication([])
    tmp = Path(tempfile.mkdtemp(prefix="qa-layout-"))
    settings = QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=settings, store_path=tmp / "gui.sqlite3")
    screen = QGuiApplication.primaryScreen()
    win.setGeometry(screen.availableGeometry())
    win.show()

    def settle(s: float = 0.3) -> None:
        end = time.monotonic() + s
        while time.monotonic() < end:
            app.processEvents()
            time.sleep(0.01)

    win.open_paths([sub])
    end = time.monotonic() + 120
    while (win.session.result is None or win.is_verifying()) and time.monotonic() < end:
        settle(0.05)
    end = time.monotonic() + 60
    while not (win.player.has_video and win.player.shown_frame >= 0) and time.monotonic() < end:
        settle(0.05)
    if queue:
        from moderator_app.ui.queue_panel import show_queue
        show_queue(win, sub.parent)
        settle(1.0)
        win.decision_dock.raise_()
    if win.findings.findings:
        win.select_finding(0)
    settle(1.0)
    print(json.dumps({"sub": sub.name, **geometry(win)}), flush=True)
    screen.grabWindow(0).save(str(out))
    win.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
