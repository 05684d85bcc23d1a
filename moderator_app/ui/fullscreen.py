"""Video full screen (`f`, as in mpv and YouTube): the video alone on the whole screen.

Entering hides every other part of the window and remembers the dock layout and the window
state; `f` again or Escape (an action enabled only meanwhile, so Escape means nothing else to
the window) brings them back exactly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence

if TYPE_CHECKING:
    from moderator_app.ui.main_window import MainWindow


class VideoFullScreen(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.w = window
        self._saved = None  # (dock state, window state, widgets hidden) while full screen
        self.leave = QAction("Leave full screen", window)
        self.leave.setShortcut(QKeySequence("Escape"))
        self.leave.setEnabled(False)
        self.leave.triggered.connect(self.toggle)
        window.addAction(self.leave)

    @property
    def active(self) -> bool:
        return self._saved is not None

    def toggle(self) -> None:
        w = self.w
        if self._saved is None:
            hidden = [x for x in (w.right_split, w.main_split.widget(1), w.menuBar(),
                                  w.statusBar(), w.findings_dock, w.sync_dock,
                                  w.decision_dock, w.run_dock) if x.isVisible()]
            self._saved = (w.saveState(), w.windowState(), hidden)
            for x in hidden:
                x.hide()
            self.leave.setEnabled(True)
            w.showFullScreen()
        else:
            state, window_state, hidden = self._saved
            self._saved = None
            self.leave.setEnabled(False)
            for x in hidden:
                x.show()
            w.restoreState(state)
            w.setWindowState(window_state)
        w.focus_player()
