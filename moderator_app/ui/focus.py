"""Keyboard focus without traps: after typing a value, the keys go back to the player.

A moderator types an offset or a search, presses Enter, and expects `.` to step a frame and
Space to play, not to type into the box. Enter and Escape in a box, and a click on the video
picture, give focus back to the player (issue 11, point 9).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QWidget

_RETURN_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape)


class _FocusReturner(QObject):
    def __init__(self, target: QWidget, give_back: Callable[[], None], on_click: bool) -> None:
        super().__init__(target)
        self._give_back = give_back
        self._on_click = on_click

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt override
        kind = event.type()
        if not self._on_click and kind == QEvent.Type.ShortcutOverride and _typed(event):
            event.accept()  # a character typed into the box is text, not a window shortcut
            return False
        if not self._on_click and kind == QEvent.Type.KeyPress and event.key() in _RETURN_KEYS:
            if isinstance(obj, QAbstractSpinBox):
                obj.interpretText()  # Enter commits what was typed before focus leaves
            self._give_back()
            return event.key() == Qt.Key.Key_Escape  # Escape: nothing else to do
        if self._on_click and kind == QEvent.Type.MouseButtonPress:
            self._give_back()
        return False


def _typed(event) -> bool:
    """A key that types a character (`.`, Space, digits), without Ctrl, Alt or Meta."""
    mods = event.modifiers() & (Qt.KeyboardModifier.ControlModifier
                                | Qt.KeyboardModifier.AltModifier
                                | Qt.KeyboardModifier.MetaModifier)
    return not mods and bool(event.text()) and event.text().isprintable()


def return_focus_on_enter_escape(box: QWidget, give_back: Callable[[], None]) -> None:
    """Enter or Escape in `box` (a line edit, a spin box) calls `give_back` after the box
    has taken the value; while it has focus, typed characters go into it, never to a
    one-key window shortcut."""
    returner = _FocusReturner(box, give_back, on_click=False)
    box.installEventFilter(returner)
    if isinstance(box, QAbstractSpinBox) and box.lineEdit() is not None:
        box.lineEdit().installEventFilter(returner)


def return_focus_on_click(widget: QWidget, give_back: Callable[[], None]) -> None:
    """A click on `widget` (the video picture) calls `give_back`."""
    widget.installEventFilter(_FocusReturner(widget, give_back, on_click=True))


class _Reactivator(QObject):
    """Makes `window` the active window again when one of its dialogs closes and nothing else
    took the keyboard. Without a window manager (Xvfb, some kiosk sessions) nobody does it:
    after Go to, a confirmation or a file dialog, every key was lost until a click. (Qt says
    so by `focusChanged(old, None)`; `focusWindowChanged` is not emitted then.)"""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._changed)

    def _changed(self, old: QWidget | None, new: QWidget | None) -> None:
        if new is not None or old is None:
            return
        dialog = old.window()
        if dialog is not self._window:
            # checked once the dialog is hidden (it is still visible while it loses focus); the
            # timer is this object's: it never fires after the window is gone (it did, into
            # the next test's event loop: "Internal C++ object (MainWindow) already deleted")
            QTimer.singleShot(0, self, lambda: self._reactivate(dialog))

    def _reactivate(self, dialog: QWidget) -> None:
        try:
            closed = not dialog.isVisible()
        except RuntimeError:  # the dialog is already deleted
            closed = True
        # not a switch to another application: that leaves the dialog open
        if closed and QApplication.activeWindow() is None and self._window.isVisible():
            self._window.activateWindow()


def reactivate_after_dialogs(window: QWidget) -> None:
    """When a dialog of `window` closes and no window has the keyboard, `window` takes it."""
    _Reactivator(window)
