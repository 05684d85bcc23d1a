"""The window's actions and menus, built from data (napari builds QActions from action data;
Picard keeps them in `ui/mainwindow/actions.py`).

Keys come from the one shortcut table (`ui/shortcuts.py`); what an action does comes from the
window's `handlers()` map; where it appears comes from `MENUS` below. To add a command: a row in
`SHORTCUTS` (with `keys=""` when it has no key), a handler, and its id in a menu here. An id in
`MENUS` without a handler is skipped, so a helper can add its action in one small edit.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from moderator_app.ui.shortcuts import SHORTCUTS

SEPARATOR = "-"

#: Menu title -> action ids in order. "-" is a separator; "@name" is a placeholder the window
#: fills itself (a submenu or a list of dock toggles), by `placeholders` in `build_menus`.
MENUS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("&File", ("open_file", "open_folder", "@recent", SEPARATOR, "next_submission",
               "open_queue", "set_store", SEPARATOR, "export_findings", "copy_finding", "save_frame",
               SEPARATOR, "quit")),
    ("&Playback", ("play_pause", "frame_back", "frame_forward", "frames_back_n",
                   "frames_forward_n", "slower", "pause", "faster", "back_1s", "forward_1s",
                   "back_5s", "forward_5s", "jump_start", "jump_end", "goto", SEPARATOR,
                   "mute", "fullscreen_video")),
    ("&Navigate", ("prev_event", "next_event", "prev_finding", "next_finding", "search",
                   "pin_detail", SEPARATOR, "offset_back", "offset_forward", "run_start_here",
                   "retime_start", "retime_end", "retime_clear")),
    ("&View", ("zoom_in", "zoom_out", "fit", SEPARATOR, "@docks", "show_plots", "@columns",
               SEPARATOR, "reset_layout",
               "@theme")),
    ("&Help", ("help_shortcuts", "@help")),
)


def build_actions(window: QMainWindow, handlers: dict[str, Callable[[], object]]
                  ) -> dict[str, QAction]:
    """One QAction per row of `SHORTCUTS` owned by the window that has a handler, with its
    keys, added to the window so the keys work wherever focus is (window shortcut)."""
    actions: dict[str, QAction] = {}
    for sc in SHORTCUTS:
        if sc.owner != "window" or sc.action not in handlers:
            continue
        if sc.per_key:  # 0-9: one action per key, the handler gets 0.0 ... 0.9
            for i, key in enumerate(sc.sequences):
                act = QAction(f"{sc.description} ({key})", window)
                act.setObjectName(f"{sc.action}_{i}")
                act.setShortcut(QKeySequence(key))
                act.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
                act.triggered.connect(
                    lambda _checked=False, h=handlers[sc.action], f=i / 10: h(f))
                window.addAction(act)
                actions[act.objectName()] = act
            continue
        act = QAction(sc.description, window)
        act.setObjectName(sc.action)
        act.setShortcuts([QKeySequence(k) for k in sc.sequences])
        act.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        if sc.checkable:
            act.setCheckable(True)
            act.toggled.connect(handlers[sc.action])
        else:
            act.triggered.connect(lambda _checked=False, h=handlers[sc.action]: h())
        window.addAction(act)
        actions[sc.action] = act
    return actions


def build_menus(window: QMainWindow, actions: dict[str, QAction],
                placeholders: dict[str, Callable[[QMenu], None]]) -> dict[str, QMenu]:
    """The menu bar from `MENUS`; returns the menus by title (without the `&`)."""
    menus: dict[str, QMenu] = {}
    bar = window.menuBar()
    for title, items in MENUS:
        menu = bar.addMenu(title)
        menus[title.replace("&", "")] = menu
        last_sep = True  # no separator at the top or twice in a row
        for item in items:
            if item == SEPARATOR:
                if not last_sep:
                    menu.addSeparator()
                    last_sep = True
            elif item.startswith("@"):
                fill = placeholders.get(item[1:])
                if fill is not None:
                    fill(menu)
                    last_sep = False
            elif item in actions:
                menu.addAction(actions[item])
                last_sep = False
    return menus
