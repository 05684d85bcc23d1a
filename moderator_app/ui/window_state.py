"""What the window remembers between starts: geometry, dock and splitter layout, recent files.

Kept apart from the window's building so that "what is saved" and "View > Reset layout" are
in one place. A saved layout is only restored when it is sane: a findings list squeezed to a
few rows by one session must not become every later session's layout (issue 11, point 6).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtWidgets import QApplication, QMainWindow, QSplitter

MAX_RECENT = 10
LAYOUT_VERSION = 3  # bump when the default layout changes: older saved layouts are dropped
DEFAULT_SIZE = (1440, 900)
MIN_SIZE = (1024, 640)


class WindowState:
    def __init__(self, settings: QSettings, window: QMainWindow,
                 splitters: tuple[QSplitter, ...]) -> None:
        self.settings = settings
        self.window = window
        self.splitters = splitters
        self._default_state: QByteArray | None = None
        self._default_splits: list[QByteArray] = []
        self.restored = False

    def remember_defaults(self) -> None:
        """Call once the default layout is built: View > Reset layout returns to it."""
        self._default_state = self.window.saveState(LAYOUT_VERSION)
        self._default_splits = [s.saveState() for s in self.splitters]

    def set_minimum(self) -> None:
        """A minimum size below which panels would collapse, but never above the screen."""
        screen = self.window.screen() or QApplication.primaryScreen()
        w, h = MIN_SIZE
        if screen is not None:
            avail = screen.availableGeometry()
            w, h = min(w, avail.width()), min(h, avail.height())
        self.window.setMinimumSize(w, h)

    def fit_to_screen(self) -> None:
        """The default size, or the screen's free area when it is smaller (1280x720)."""
        screen = self.window.screen() or QApplication.primaryScreen()
        width, height = DEFAULT_SIZE
        if screen is not None:
            avail = screen.availableGeometry()
            frame_w = self.window.frameGeometry().width() - self.window.width()
            frame_h = self.window.frameGeometry().height() - self.window.height()
            width = min(width, avail.width() - max(frame_w, 0))
            height = min(height, avail.height() - max(frame_h, 0))
            if avail.width() >= 1600:  # 1920x1080, 2560x1440: use most of the screen
                width, height = int(avail.width() * 0.9), int(avail.height() * 0.9)
        self.window.resize(width, height)

    def restore(self) -> None:
        self.set_minimum()
        geo = self.settings.value("window/geometry")
        if isinstance(geo, QByteArray) and not geo.isEmpty():
            self.window.restoreGeometry(geo)
        else:
            self.fit_to_screen()
        self.restored = False  # True when a saved layout of this version was applied
        state = self.settings.value("window/state")
        if isinstance(state, QByteArray) and not state.isEmpty():
            self.restored = self.window.restoreState(state, LAYOUT_VERSION)
        if self.settings.value("window/layout_version") not in (LAYOUT_VERSION,
                                                                str(LAYOUT_VERSION)):
            return  # splitter sizes of an older layout: keep the defaults
        for split in self.splitters:
            s = self.settings.value(f"splitters/{split.objectName()}")
            if isinstance(s, QByteArray) and not s.isEmpty():
                split.restoreState(s)

    def save(self) -> None:
        self.settings.setValue("window/geometry", self.window.saveGeometry())
        self.settings.setValue("window/state", self.window.saveState(LAYOUT_VERSION))
        self.settings.setValue("window/layout_version", LAYOUT_VERSION)
        for split in self.splitters:
            self.settings.setValue(f"splitters/{split.objectName()}", split.saveState())
        self.settings.sync()

    def reset(self) -> None:
        """View > Reset layout: the docks and splitters as on a first start, sized to the
        screen; the saved layout is forgotten."""
        for key in ("window/geometry", "window/state", "window/layout_version"):
            self.settings.remove(key)
        for split in self.splitters:
            self.settings.remove(f"splitters/{split.objectName()}")
        if self._default_state is not None:
            self.window.restoreState(self._default_state, LAYOUT_VERSION)
        for split, s in zip(self.splitters, self._default_splits, strict=False):
            split.restoreState(s)
        if self.window.isMaximized() or self.window.isFullScreen():
            self.window.showNormal()
        self.fit_to_screen()
        self.restored = False

    # -- recent submissions ----------------------------------------------------------------

    def recent(self) -> list[str]:
        value = self.settings.value("recent", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or [])]

    def add_recent(self, path: Path) -> None:
        """Absolute paths only: `make run` passes a relative one, which would fail when the
        app is started from another folder."""
        try:
            p = str(Path(path).expanduser().resolve())
        except (OSError, RuntimeError):  # a symlink loop: resolve() raises RuntimeError
            p = str(Path(path).expanduser().absolute())
        items = [p] + [q for q in self.recent() if q != p]
        self.settings.setValue("recent", items[:MAX_RECENT])
