"""The review loop walked on unseen submissions, session 11 (issue 11; docs/qa/session11-ui.md):
an official run's walkthrough in view at 1280x720, the Run tab's values readable there, the
submitter's text shown as text in every tooltip, and an official decision with walkthrough,
override and retime marks recorded as `moderator-app decide` records it at three offsets."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QLocale, QRect, Qt
from PySide6.QtWidgets import QApplication
from test_ui_main_window import make_submission, open_and_wait
from test_ui_review_fit import official_run
from ui_helpers import make_numbered_video, tooltip_shown, wait_idle, window_1280x720

from moderator_app.cli import main as cli_main
from moderator_app.core.ledger.records import ACCEPT, REJECT
from moderator_app.core.ledger.store import Ledger

HOSTILE = "<b>bold</b><img src='file:///etc/passwd'>"


@pytest.fixture
def window(qtbot, tmp_path):
    yield from window_1280x720(qtbot, tmp_path)


def settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


def inside(widget, viewport) -> bool:
    """The whole widget is in the viewport's visible rectangle (nothing scrolled out)."""
    top = widget.mapTo(viewport, widget.rect().topLeft())
    bottom = widget.mapTo(viewport, widget.rect().bottomRight())
    return (top.y() >= 0 and top.x() >= 0 and bottom.y() < viewport.height()
            and bottom.x() < viewport.width())


@pytest.mark.parametrize("retime", [False, True])
def test_the_official_walkthrough_is_in_view_at_1280x720_without_scrolling(
        qtbot, window, tmp_path, retime):
    # Seen on Xvfb at 1280x720: the Decision tab of an official run showed the title, the
    # verdict, the reason, the note and the reviewer; the walkthrough began at the fold (the
    # first box cut), its five items 556 px of scrolling away. A reviewer must see what they
    # attest. Now the walkthrough comes first, its hints are one line each, and the verdict
    # to record sits in the footer with Accept and Reject.
    open_and_wait(qtbot, window, official_run(tmp_path / "official"))
    if retime:
        window.session.set_retime_start(0.5)
        window.session.set_retime_end(3.5)
    window.decision_dock.raise_()
    settle()
    panel = window.decision_panel
    checklist = panel.checklist
    viewport = window.decision_scroll.viewport()
    assert window.decision_scroll.verticalScrollBar().value() == 0
    parts = [panel.title, checklist.override_edit]
    parts += [w for pair in zip(checklist.boxes.values(), checklist.hints.values(), strict=True)
              for w in pair]
    for widget in parts:
        assert widget.isVisible(), widget.objectName()
        assert inside(widget, viewport), (widget.objectName(), widget.geometry())
        assert widget.visibleRegion().boundingRect() == widget.rect(), widget.objectName()
    for item_id, hint in checklist.hints.items():
        assert hint.text(), item_id
        # one line, the whole line drawn or elided with its whole text one hover away
        assert hint.height() <= hint.fontMetrics().lineSpacing() + 4, item_id
        shown = hint.shown_text()
        assert shown == hint.text() or (shown.endswith("…") and len(shown) > 12), item_id
        assert tooltip_shown(hint.toolTip()) == f"What the verifier found: {hint.text()}"
    # the verdict that a click records, beside the buttons (this run is longer than its
    # video: it fails)
    assert panel.summary.text() == "FAIL · 1 error · offset +0.000 s" + (
        " · retime marks 0.500 s → 3.500 s" if retime else "")
    for widget in (panel.summary, panel.accept_button, panel.reject_button):
        assert widget.visibleRegion().boundingRect() == widget.rect(), widget.objectName()
    # a tick by a click where it is shown, then Accept with the override: recorded
    qtbot.mouseClick(checklist.boxes["chain-verified"], Qt.MouseButton.LeftButton)
    checklist.override_edit.setText("seeds not given to this reviewer")
    panel.reviewer.setText("mod")
    panel.confirm = lambda _t, _x: True
    qtbot.mouseClick(panel.accept_button, Qt.MouseButton.LeftButton)
    assert panel.last_saved is not None
    assert panel.last_saved.record.checklist == ("chain-verified",)


def run_rows(window):
    tree = window.run_summary.tree
    for i in range(tree.topLevelItemCount()):
        top = tree.topLevelItem(i)
        for j in range(top.childCount()):
            yield top.child(j)


@pytest.mark.parametrize("kind", ["official", "community"])
def test_run_values_are_readable_at_1280x720(qtbot, window, tmp_path, kind):
    # Seen on Xvfb at 1280x720: the Field column took 208 of the tree's 264 px (a section
    # title, "Producers (trust level, events)", sized it), so the values were cut
    # ("trusted_e…", "untruste"), and the head hash and the files' SHA-256 behind a
    # horizontal scroll bar. Now section titles span the row, the Field column is at most
    # half, values wrap (long hex too) and each has its whole text as a plain tooltip.
    from moderator_app.ui.run_summary import shown_value

    folder = (official_run(tmp_path / "official") if kind == "official"
              else make_submission(tmp_path / "community")[0])
    open_and_wait(qtbot, window, folder)
    window.run_dock.raise_()
    settle()
    tree = window.run_summary.tree
    viewport = tree.viewport().width()
    fm = tree.fontMetrics()
    rows = list(run_rows(window))
    assert len(rows) > 15
    values = {}
    for item in rows:
        value = item.text(1)
        values[item.text(0)] = value
        rect = tree.visualItemRect(item)
        cell = QRect(tree.columnViewportPosition(1), rect.y(), tree.columnWidth(1), rect.height())
        room = cell.width() - 2 * 4  # the style's text margins
        shown = shown_value(value)
        for word in shown.replace("\u200b", " ").split():
            assert fm.horizontalAdvance(word) <= room, (item.text(0), word)
        need = fm.boundingRect(QRect(0, 0, room, 10_000),
                               int(Qt.TextFlag.TextWordWrap), shown).height()
        assert need <= cell.height(), (item.text(0), value, need, cell.height())
        assert tooltip_shown(item.toolTip(1)) == value
    assert tree.columnWidth(0) <= viewport // 2
    assert tree.columnViewportPosition(1) + tree.columnWidth(1) <= viewport  # nothing beyond
    if kind == "official":
        assert values["agent"].startswith("untrusted_agent · ")
        assert values["evaluator"].startswith("trusted_evaluator · ")
        head = window.session.report.chain.head
        assert values["head hash"] == head
        item = next(i for i in rows if i.text(0) == "head hash")
        tree.setCurrentItem(item)
        assert window.run_summary.copy_value() == head  # no zero-width space copied
        assert QApplication.clipboard().text() == head


def test_the_submitters_text_in_tooltips_is_shown_as_text(qtbot, window, tmp_path):
    # Qt renders a tooltip as rich text when its first line holds a tag: the Run tab's value
    # tooltips and the next submission's name carried the submitter's text as it is, so a
    # model named `<b>bold</b><img src=…>` showed bold with an image request.
    from moderator_app.core.samples.community import make_agent_log

    folder = tmp_path / f"{HOSTILE.replace('/', '_')} next"
    folder.mkdir()
    duration = make_agent_log(folder / "agent-log.jsonl", n_events=30, seed=5)
    lines = (folder / "agent-log.jsonl").read_text().splitlines()
    lines[0] = lines[0].replace('"model":"', f'"model":"{HOSTILE.replace(chr(39), "")}')
    (folder / "agent-log.jsonl").write_text("\n".join(lines) + "\n")
    make_numbered_video(folder / "video.avi", int(duration * 10) + 30, 10.0)
    open_and_wait(qtbot, window, folder)
    model = {i.text(0): i for i in run_rows(window)}["model"]
    assert model.text(1).startswith(HOSTILE.replace("'", ""))
    assert tooltip_shown(model.toolTip(1)) == model.text(1)
    assert model.toolTip(1).startswith("<qt>")  # escaped on purpose, never raw markup
    assert "<img" not in model.toolTip(1) and "<b>" not in model.toolTip(1)
    # a bidi override is drawn as its escape, not obeyed (it drew "…/xxxledom")
    def drawn(text: str) -> str:  # as the delegate draws it, less its break opportunities
        shown = window.run_summary.tree.itemDelegate().displayText(text, QLocale())
        return shown.replace("\u200b", "")

    assert drawn("a/\u202emodel") == "a/\\u202emodel"
    assert drawn(model.text(1)) == model.text(1)  # markup is text already
    panel = window.decision_panel
    panel.offer_next(folder.name)
    assert tooltip_shown(panel.next_button.toolTip()) == f"Open {folder.name} (Ctrl+Shift+N)"
    assert "<b>" not in panel.next_button.toolTip()


def official_with_video(folder, seconds_of_video: float = 8.0):
    """An official run of 6 s (120 events, 0.05 s apart) beside an 8 s numbered video."""
    from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory

    folder.mkdir()
    write_trajectory(folder / "events.jsonl.zst", make_run_events(120, seed=23, step_s=0.05))
    make_numbered_video(folder / "video.avi", int(seconds_of_video * 10), 10.0)
    return folder


def records(path):
    with Ledger(path, create=False) as ledger:
        return [d.record.to_dict() for d in ledger.list()]


def test_official_decisions_with_walkthrough_and_retime_are_the_clis_at_three_offsets(
        qtbot, window, tmp_path):
    # Session 10 compared one community reject at one offset. Here: an official run, a
    # partial walkthrough with an override note, retime marks, at a covering offset, one
    # that leaves 2 s of the run without footage (within the 5 s limit) and one that leaves
    # 7 s (NOT COVERED): what the footer says is the verdict recorded, and each GUI record
    # equals the one `moderator-app decide` makes for the same input and offset.
    folder = official_with_video(tmp_path / "official")
    open_and_wait(qtbot, window, folder)
    panel = window.decision_panel
    panel.reviewer.setText("trusted")
    panel.confirm = lambda _t, _x: True
    window.session.set_retime_start(1.0)
    window.session.set_retime_end(6.5)
    gui_store, cli_store = tmp_path / "gui.sqlite3", tmp_path / "cli.sqlite3"
    cases = [(0.0, "pass", ACCEPT), (4.0, "pass", ACCEPT), (9.0, "fail", REJECT)]
    for offset, verdict, decision in cases:
        window.sync.spin.setValue(offset)
        # the analysis measured again there re-lists the findings the reason follows
        wait_idle(qtbot, window)
        assert window.session.report.verdict == verdict
        assert panel.summary.text().startswith(f"{verdict.upper()} · ")
        assert panel.summary.text().endswith(
            f" · offset {offset:+.3f} s · retime marks 1.000 s → 6.500 s")
        args = ["decide", str(folder), f"--{decision}", "--reviewer", "trusted",
                "--offset", str(offset), "--retime-start", "1.0", "--retime-end", "6.5",
                "--store", str(cli_store)]
        if decision == ACCEPT:
            panel.checklist.boxes["chain-verified"].setChecked(True)
            panel.checklist.boxes["video-watched"].setChecked(True)
            panel.checklist.override_edit.setText("no seeds for this run")
            args += ["--check", "video-watched", "--check", "chain-verified",
                     "--override-note", "no seeds for this run"]
        else:
            assert panel.reason.currentData() == "video-coverage"  # follows the findings
            panel.note.setPlainText("the run ends 7 s after the video")
            args += ["--reason", "video-coverage", "--note", "the run ends 7 s after the video"]
        stored = panel.decide(decision)
        assert stored is not None, panel.status.text()
        assert cli_main(args) == 0
    gui, cli = records(gui_store), records(cli_store)
    assert len(gui) == len(cli) == 3
    for (offset, verdict, decision), g, c in zip(cases, gui, cli, strict=True):
        assert g["decision"] == decision and g["summary"]["verdict"] == verdict
        assert g["sync_offset_s"] == offset
        g.pop("decided_at"), c.pop("decided_at")
        assert g == c, offset
    assert gui[0]["checklist"] == ["chain-verified", "video-watched"]
    assert "coverage.partial" in gui[1]["summary"]["rules"]
    assert gui[2]["summary"]["rules"]["coverage.missing"] == 1
