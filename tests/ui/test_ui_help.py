"""Help > Keyboard shortcuts / Formats / About: real dialogs, offscreen, built from the code."""

from __future__ import annotations

import sys

import cv2
import orjson
import PySide6
import pytest
import zstandard
from PySide6.QtCore import Qt, qVersion
from PySide6.QtWidgets import QLabel, QTableWidget, QTreeWidget, QWidget

from moderator_app import __version__
from moderator_app.core.catalogue import all_rules
from moderator_app.core.rule_groups import group_title, ordered_groups
from moderator_app.ui import help as app_help
from moderator_app.ui.shortcuts import SHORTCUTS, Shortcut


@pytest.fixture
def parent(qtbot):
    w = QWidget()
    qtbot.addWidget(w)
    return w


def _table_rows(table: QTableWidget) -> list[list[str]]:
    return [[table.item(r, c).text() for c in range(table.columnCount())]
            for r in range(table.rowCount())]


def _tree_rows(tree: QTreeWidget) -> list[tuple[str, str, str]]:
    """(group title, column 0, column 1) of every child row, in display order."""
    out = []
    for g in range(tree.topLevelItemCount()):
        top = tree.topLevelItem(g)
        for i in range(top.childCount()):
            out.append((top.text(0), top.child(i).text(0), top.child(i).text(1)))
    return out


def _assert_plain_labels(dlg):
    labels = dlg.findChildren(QLabel)
    assert labels
    assert all(lb.textFormat() == Qt.TextFormat.PlainText for lb in labels)


# --- the shortcut table ----------------------------------------------------------------------


def test_shortcuts_dialog_lists_every_shortcut(parent):
    table = [Shortcut("Space", "play_pause", "Play / pause", "Video"),
             Shortcut("A", "accept", "Accept the submission", "Decision"),
             Shortcut("", "menu_only", "A menu entry without a key", "Decision"),
             Shortcut("Ctrl+Right; N", "next_finding", "Next finding", "Timeline"),
             Shortcut("K", "pause", "Pause", "Video")]
    dlg = app_help.show_shortcuts(parent, table)
    tree = dlg.findChild(QTreeWidget, "shortcut_tree")
    # Grouped by area, areas and keys in the table's own order; no row without a key.
    assert _tree_rows(tree) == [
        ("Video", "Space", "Play / pause"), ("Video", "K", "Pause"),
        ("Decision", "A", "Accept the submission"),
        ("Timeline", "Ctrl+Right or N", "Next finding")]
    assert dlg.isVisible() and dlg.windowTitle() == "Keyboard shortcuts"


def test_shortcuts_dialog_with_the_real_table(parent):
    dlg = app_help.show_shortcuts(parent)
    rows = app_help.shortcut_rows()
    assert rows, "the shortcut table is empty"
    shown = _tree_rows(dlg.findChild(QTreeWidget, "shortcut_tree"))
    assert sorted(shown) == sorted(rows)
    assert len(shown) == len([s for s in SHORTCUTS if s.sequences])  # menu-only: no key
    assert shown[0] == (SHORTCUTS[0].group, SHORTCUTS[0].keys, SHORTCUTS[0].description)


# --- formats --------------------------------------------------------------------------------


def test_formats_lists_every_rule_grouped(parent):
    rules = all_rules()
    assert any(r.id == "input.no_video" for r in rules)
    dlg = app_help.show_formats(parent)
    tree = dlg.findChild(QTreeWidget, "rule_tree")
    shown = {}
    for g in range(tree.topLevelItemCount()):
        top = tree.topLevelItem(g)
        for i in range(top.childCount()):
            ch = top.child(i)
            shown[ch.text(0)] = (top.text(0), ch.text(1), ch.text(2))

    def heading(group: str) -> str:
        return f"{group_title(group)}  ({group}, {sum(r.group == group for r in rules)})"

    assert shown == {r.id: (heading(r.group), r.severity.value, r.summary) for r in rules}
    # Groups in reading order (files, log/trajectory, video), as in docs/rules.md.
    order = [tree.topLevelItem(g).text(0) for g in range(tree.topLevelItemCount())]
    assert order == [heading(g) for g in ordered_groups({r.group for r in rules})]
    assert order[0].startswith("Submission  (input, ")
    _assert_plain_labels(dlg)
    assert str(len(rules)) + " rules" in " ".join(lb.text() for lb in dlg.findChildren(QLabel))


def test_formats_filter(parent, qtbot):
    dlg = app_help.show_formats(parent)
    tree = dlg.findChild(QTreeWidget, "rule_tree")
    dlg.findChild(app_help.QLineEdit, "rule_filter").setText("input.no_video")
    visible = [tree.topLevelItem(g).child(i).text(0)
               for g in range(tree.topLevelItemCount())
               for i in range(tree.topLevelItem(g).childCount())
               if not tree.topLevelItem(g).child(i).isHidden()
               and not tree.topLevelItem(g).isHidden()]
    assert visible == ["input.no_video"]
    dlg.findChild(app_help.QLineEdit, "rule_filter").setText("")
    hidden = [tree.topLevelItem(g).child(i) for g in range(tree.topLevelItemCount())
              for i in range(tree.topLevelItem(g).childCount())
              if tree.topLevelItem(g).child(i).isHidden()]
    assert hidden == []


# --- about ----------------------------------------------------------------------------------


def test_about_shows_versions(parent):
    dlg = app_help.show_about(parent)
    rows = dict(_table_rows(dlg.findChild(QTableWidget, "version_table")))
    assert rows["Moderator Workstation"] == __version__
    assert rows["Qt"] == qVersion()
    assert rows["PySide6"] == PySide6.__version__
    assert rows["OpenCV"] == cv2.__version__
    assert rows["zstandard"] == zstandard.__version__
    assert rows["orjson"] == orjson.__version__
    assert rows["Python"].startswith(f"{sys.version_info.major}.{sys.version_info.minor}.")
    _assert_plain_labels(dlg)


def test_about_copy_versions(parent, qapp):
    dlg = app_help.show_about(parent)
    dlg.findChild(app_help.QPushButton, "copy_versions").click()
    text = qapp.clipboard().text()
    assert f"Qt: {qVersion()}" in text and f"orjson: {orjson.__version__}" in text


def test_a_dialog_is_reused_per_parent(parent):
    first = app_help.show_about(parent)
    assert app_help.show_about(parent) is first
    assert len(parent.findChildren(app_help.QDialog, "help_about")) == 1


def test_broken_optional_module_does_not_break_about(monkeypatch):
    monkeypatch.setitem(sys.modules, "cv2", None)
    assert app_help._module_version("cv2").startswith("not available")
