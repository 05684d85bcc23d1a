"""Help inside the application: Help > Keyboard shortcuts, Help > Formats, Help > About.

Moderators are not Python developers: what a key does, what each rule id in a report means and
which versions of Qt, OpenCV, zstandard and orjson are in the bundle must be one click away.
Every dialog is built from the code itself (the shortcut table of `ui.shortcuts`, the rule
catalogue of `core.rules`), so the help can never drift from the application. All text is set
as plain text: rule text is ours, but no help widget ever interprets markup.

Each `show_*` function opens a non-modal dialog (one per parent, raised if already open) and
returns it, so the main window can bind it to a menu action and tests can inspect it.
"""

from __future__ import annotations

import platform
import sys
from collections.abc import Iterable

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from moderator_app import __version__
from moderator_app.ui.shortcuts import SHORTCUTS, Shortcut
from moderator_app.ui.theme import MARGIN, SPACING, severity_color

APP_NAME = "Moderator Workstation"

# --- data, Qt-free in spirit so tests and docs can use it ------------------------------------


def shortcut_rows(shortcuts: Iterable[Shortcut] = SHORTCUTS) -> list[tuple[str, str, str]]:
    """`(group, keys, what)` rows of the shortcut table, in its order; an entry without a key
    (a menu-only action) is not listed."""
    return [(s.group, " or ".join(s.sequences), s.description) for s in shortcuts
            if s.sequences]


def _module_version(name: str) -> str:
    try:
        mod = __import__(name)
    except Exception as exc:  # noqa: BLE001 - a broken optional module must not break Help
        return f"not available ({type(exc).__name__})"
    return str(getattr(mod, "__version__", "unknown"))


def about_versions() -> list[tuple[str, str]]:
    """(component, version) pairs shown in Help > About and copied into bug reports."""
    import PySide6
    from PySide6.QtCore import qVersion

    return [
        (APP_NAME, __version__),
        ("Python", f"{platform.python_version()} ({platform.python_implementation()})"),
        ("Qt", qVersion()),
        ("PySide6", PySide6.__version__),
        ("OpenCV", _module_version("cv2")),
        ("zstandard", _module_version("zstandard")),
        ("orjson", _module_version("orjson")),
        ("Platform", f"{platform.system()} {platform.release()} {platform.machine()}"),
        ("Frozen bundle", "yes" if getattr(sys, "frozen", False) else "no"),
    ]


# --- dialogs ------------------------------------------------------------------------------------


def _reuse(parent: QWidget | None, name: str) -> QDialog | None:
    if parent is None:
        return None
    existing = parent.findChild(QDialog, name)
    if existing is not None:
        existing.show()
        existing.raise_()
        existing.activateWindow()
    return existing


def _dialog(parent: QWidget | None, name: str, title: str) -> tuple[QDialog, QVBoxLayout]:
    dlg = QDialog(parent)
    dlg.setObjectName(name)
    dlg.setWindowTitle(title)
    dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    lay = QVBoxLayout(dlg)
    lay.setContentsMargins(MARGIN, MARGIN, MARGIN, MARGIN)
    lay.setSpacing(SPACING)
    return dlg, lay


def _plain_label(text: str, wrap: bool = True) -> QLabel:
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(text)
    label.setWordWrap(wrap)
    return label


def _close_buttons(dlg: QDialog, lay: QVBoxLayout) -> QDialogButtonBox:
    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    box.rejected.connect(dlg.reject)
    lay.addWidget(box)
    return box


def _item(text: str) -> QTableWidgetItem:
    it = QTableWidgetItem(text)
    it.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
    return it


def _group_item(tree: QTreeWidget, title: str) -> QTreeWidgetItem:
    top = QTreeWidgetItem(tree, [title])
    font = top.font(0)
    font.setBold(True)
    top.setFont(0, font)
    top.setFirstColumnSpanned(True)
    top.setFlags(Qt.ItemFlag.ItemIsEnabled)
    return top


def show_shortcuts(parent: QWidget | None = None,
                   shortcuts: Iterable[Shortcut] = SHORTCUTS) -> QDialog:
    """Help > Keyboard shortcuts: the table the main window binds its keys from."""
    existing = _reuse(parent, "help_shortcuts")
    if existing is not None:
        return existing
    dlg, lay = _dialog(parent, "help_shortcuts", "Keyboard shortcuts")
    tree = QTreeWidget(dlg)
    tree.setObjectName("shortcut_tree")
    tree.setColumnCount(2)
    tree.setHeaderLabels(["Keys", "Action"])
    tree.setAlternatingRowColors(True)
    tree.setRootIsDecorated(False)
    tree.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    mono = QFont("monospace")
    mono.setStyleHint(QFont.StyleHint.Monospace)
    groups: dict[str, QTreeWidgetItem] = {}
    for group, keys, what in shortcut_rows(shortcuts):  # grouped, in the table's own order
        parent_item = groups.get(group)
        if parent_item is None:
            parent_item = _group_item(tree, group or "General")
            groups[group] = parent_item
        child = QTreeWidgetItem(parent_item, [keys, what])
        child.setFont(0, mono)
    tree.expandAll()
    tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
    tree.header().setStretchLastSection(True)
    lay.addWidget(tree)
    _close_buttons(dlg, lay)
    dlg.resize(600, 680)
    dlg.show()
    return dlg


def show_formats(parent: QWidget | None = None) -> QDialog:
    """Help > Formats: every rule the verifiers check, grouped, with the id used in reports."""
    existing = _reuse(parent, "help_formats")
    if existing is not None:
        return existing
    from moderator_app.core.catalogue import all_rules
    from moderator_app.core.rule_groups import group_summary, group_title, ordered_groups

    dlg, lay = _dialog(parent, "help_formats", "Formats and rules")
    rules = all_rules()
    lay.addWidget(_plain_label(
        "Every check run on a submission, by area. The rule id is what the report, the "
        "findings table and `moderator-app verify --json` show. An error fails the "
        "submission; warnings and notes are moderation signals and never fail it. "
        f"{len(rules)} rules."))
    filt = QLineEdit(dlg)
    filt.setObjectName("rule_filter")
    filt.setPlaceholderText("Filter by id or text…")
    filt.setClearButtonEnabled(True)
    lay.addWidget(filt)
    tree = QTreeWidget(dlg)
    tree.setObjectName("rule_tree")
    tree.setColumnCount(3)
    tree.setHeaderLabels(["Rule id", "Severity", "What it checks"])
    tree.setAlternatingRowColors(True)
    tree.setUniformRowHeights(False)
    tree.setWordWrap(True)
    groups: dict[str, QTreeWidgetItem] = {}
    for g in ordered_groups({r.group for r in rules}):  # the reading order of docs/rules.md
        n = sum(r.group == g for r in rules)
        groups[g] = _group_item(tree, f"{group_title(g)}  ({g}, {n})")
        groups[g].setToolTip(0, group_summary(g))
    for r in rules:  # all_rules() is sorted by (group, id)
        top = groups[r.group]
        child = QTreeWidgetItem(top, [r.id, r.severity.value, r.summary])
        child.setForeground(1, severity_color(r.severity, text=True))
        child.setToolTip(2, r.summary)
    tree.expandAll()
    tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
    tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
    tree.header().setStretchLastSection(True)
    lay.addWidget(tree)

    def apply_filter(text: str) -> None:
        needle = text.strip().casefold()
        for top in groups.values():
            visible = 0
            for i in range(top.childCount()):
                ch = top.child(i)
                hit = not needle or any(needle in ch.text(c).casefold() for c in range(3))
                ch.setHidden(not hit)
                visible += hit
            top.setHidden(visible == 0)

    filt.textChanged.connect(apply_filter)
    _close_buttons(dlg, lay)
    dlg.resize(820, 600)
    dlg.show()
    return dlg


def show_about(parent: QWidget | None = None) -> QDialog:
    """Help > About: what this is, and the exact versions inside it (for bug reports)."""
    existing = _reuse(parent, "help_about")
    if existing is not None:
        return existing
    dlg, lay = _dialog(parent, "help_about", f"About {APP_NAME}")
    title = _plain_label(f"{APP_NAME} {__version__}", wrap=False)
    font = title.font()
    font.setPointSizeF(font.pointSizeF() * 1.4)
    font.setBold(True)
    title.setFont(font)
    lay.addWidget(title)
    lay.addWidget(_plain_label(
        "Verify and judge AI-agent game runs: a frame-accurate video player beside the event "
        "timeline, every rule checked on load, and decisions bound to the exact evidence in a "
        "tamper-evident local ledger. The same checks run headless with `moderator-app "
        "verify`."))
    versions = about_versions()
    table = QTableWidget(len(versions), 2, dlg)
    table.setObjectName("version_table")
    table.setHorizontalHeaderLabels(["Component", "Version"])
    table.verticalHeader().setVisible(False)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 8)
    for r, (name, version) in enumerate(versions):
        table.setItem(r, 0, _item(name))
        table.setItem(r, 1, _item(version))
    table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
    table.horizontalHeader().setStretchLastSection(True)
    lay.addWidget(table)
    box = _close_buttons(dlg, lay)
    copy = QPushButton("Copy versions")
    copy.setObjectName("copy_versions")
    copy.setToolTip("Copy these versions to the clipboard, for a bug report")
    box.addButton(copy, QDialogButtonBox.ButtonRole.ActionRole)
    copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(
        "\n".join(f"{n}: {v}" for n, v in versions)))
    dlg.resize(520, 440)
    dlg.show()
    return dlg
