"""The review loop at 1280x720 (issue 11, session 7): the event table's Content column is
readable on official and community runs, the side-by-side lines of a finding are readable
without moving the panels, the filter count counts events, and a `video.*` finding leads to
its span's first frame. Every test builds its own submission."""

from __future__ import annotations

import re

import pytest
from pytestqt.exceptions import TimeoutError as WaitTimeout
from test_ui_main_window import make_submission, open_and_wait
from ui_helpers import tooltip_shown, wait_idle, window_1280x720


@pytest.fixture
def window(qtbot, tmp_path):
    yield from window_1280x720(qtbot, tmp_path)


def blank_lines_after(line: int, count: int):
    """Tamper: `count` blank lines after line `line` (one row in the table, no event)."""
    def tamper(lines):
        return lines[:line] + [b""] * count + lines[line:]
    return tamper


def test_the_filter_count_counts_events_as_the_status_bar_does(qtbot, window, tmp_path):
    # Seen: beside "All types" the count said 43 where the status bar said 40 events: a run
    # of blank lines is a row of the table, not an event.
    folder, _ = make_submission(tmp_path / "sub", tamper=blank_lines_after(10, 3))
    open_and_wait(qtbot, window, folder)
    report = window.session.report
    assert report.events == 40
    assert window.table_model.rowCount() == 41  # the blank run has one row
    assert window.count_label.text() == "40"
    assert re.match(r"\w+ · 40 events", window.status_label.text())
    box = window.lane_filter
    box.setCurrentIndex(box.findData("invalid"))  # the blank run's lane: no event in it
    assert window.table_model.rowCount() == 1
    assert window.count_label.text() == "0 / 40"
    box.setCurrentIndex(box.findData("action"))
    actions = sum(1 for r in range(len(window.session.result.index))
                  if window.session.result.index.kind_of(r) == "action")
    assert window.count_label.text() == f"{actions} / 40"


def official_run(folder, n_events=600, step_s=0.25):
    """An official run (harness, agent, evaluator, proxy) with a numbered video."""
    from ui_helpers import make_numbered_video

    from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory

    folder.mkdir()
    write_trajectory(folder / "events.jsonl.zst",
                     make_run_events(n_events, seed=7, step_s=step_s))
    make_numbered_video(folder / "video.avi", 40, 10.0)
    return folder


def content_seen(window) -> int:
    """Pixels of the Content column inside the table's viewport (no scrolling)."""
    from moderator_app.ui.event_table import COL_CONTENT

    table = window.table
    x = table.columnViewportPosition(COL_CONTENT)
    return max(0, min(table.viewport().width(), x + table.columnWidth(COL_CONTENT)) - x)


@pytest.mark.parametrize("kind", ["official", "official-20000", "community"])
def test_content_is_readable_at_1280x720_beside_the_video(qtbot, window, tmp_path, kind):
    # Seen at 1280x720: an official run's Time, Producer and Type filled the table's 385 px
    # (Content: 7 px, behind a horizontal scroll); then 112 px (official) and 189 px
    # (community). Now the official Producer column is hidden by default (the timeline's
    # lanes are the producers), the docks are 288 px and the video at its 540 px minimum.
    from PySide6.QtWidgets import QApplication

    from moderator_app.ui.event_table import COL_LANE

    if kind == "official":
        folder = official_run(tmp_path / "official")
    elif kind == "official-20000":  # five-digit line numbers, as the 19,480 events
        folder = official_run(tmp_path / "official", n_events=20_000, step_s=0.03)  # 10 min
    else:
        folder, _ = make_submission(tmp_path / "community")
    open_and_wait(qtbot, window, folder)
    for _ in range(3):
        QApplication.processEvents()
    assert window.width() == 1280
    assert window.table.horizontalScrollBar().maximum() == 0  # nothing behind a scroll
    assert window.table.isColumnHidden(COL_LANE) == kind.startswith("official")
    print(kind, "Content", content_seen(window), "px")
    # Xvfb: 216 px (600 events), 200 px (20,000 events), 216 px (community)
    assert content_seen(window) >= 200
    # The video keeps its room: its controls' minimum (540 px on Xvfb, a 540x304 picture).
    assert window.player.width() >= max(520, window.player.minimumSizeHint().width())
    # The docks gave the table that room: their panels still fit them (nothing cut).
    sync_scroll = window.sync_dock.widget()
    assert sync_scroll.widget().minimumSizeHint().width() <= sync_scroll.viewport().width()
    # Times without hours (a run under an hour), names whole or elided, never a scroll.
    from moderator_app.ui.event_table import COL_TIME

    assert window.table_model.index(1, COL_TIME).data() == (
        "00:00.250" if kind == "official" else window.table_model.index(1, COL_TIME).data())
    assert len(window.table_model.index(1, COL_TIME).data()) == 9


def test_the_side_by_side_lines_are_readable_and_move_neither_video_nor_docks(
        qtbot, window, tmp_path):
    # Seen at 1280x720: the requested and the sent actions were two 2-line boxes squeezed
    # into the findings dock ("model_response: c22 · provider/" and no more).
    from PySide6.QtWidgets import QApplication
    from test_ui_main_window import unrequested_action

    folder, _ = make_submission(tmp_path / "sub", tamper=unrequested_action)
    open_and_wait(qtbot, window, folder)
    panel = window.findings
    rules = [f.rule for f in panel.findings]

    def settle():
        for _ in range(3):
            QApplication.processEvents()

    def places():
        return (window.player.size(), window.top_split.sizes(), window.main_split.sizes(),
                window.findings_dock.geometry(), window.sync_dock.geometry())

    settle()
    before = places()
    # The finding's row at the table's bottom edge, as after scrolling down to it.
    from PySide6.QtWidgets import QAbstractItemView

    window.select_event(window.session.result.index.row_for_line(
        panel.findings[rules.index("log.action_not_requested")].line))
    window.table.scrollTo(window.table.currentIndex(),
                          QAbstractItemView.ScrollHint.PositionAtBottom)
    settle()
    window.select_finding(rules.index("log.action_not_requested"))
    settle()
    compare = panel.compare
    assert compare.isVisible()
    ls = compare.other_text.fontMetrics().lineSpacing()
    for box in (compare.other_text, compare.this_text):
        assert box.viewport().height() >= 4 * ls
        assert box.verticalScrollBar().maximum() == 0  # all of it shows, wrapped
    asked = compare.other_text.toPlainText()
    assert asked.startswith("model_response: ") and "1 action: press " in asked
    assert compare.this_text.toPlainText() == "action: press SELECT"
    assert compare.width() >= window.table.width() - 4  # the table's width, not the dock's
    assert places() == before
    # The finding's row stays in view in the table's new height (it was left below the fold
    # on Xvfb; the offscreen platform lays the splitter out at once, so here this is a guard).
    table = window.table
    row = table.visualRect(table.currentIndex())
    assert table.model().source_row(table.currentIndex().row()) == \
        window.session.result.index.row_for_line(panel.findings[
            rules.index("log.action_not_requested")].line)
    assert row.top() >= 0 and row.bottom() <= table.viewport().height()
    window.select_finding(rules.index("log.response_actions_unrun"))  # names no line
    settle()
    assert compare.isHidden()
    assert places() == before


def test_five_digit_line_numbers_side_by_side_leave_the_video_panel_alone(
        qtbot, window, tmp_path):
    """Session 23's walk on a 19,480-event log at 1280x720: choosing "not one the response on
    line 11003 asked for" showed the side-by-side pane, whose unwrapped titles and button
    needed 483 px; the video panel went from 526 to 508 px and its frame label was cut off."""
    import orjson
    from PySide6.QtWidgets import QApplication
    from ui_helpers import make_numbered_video

    from moderator_app.core.samples.community import make_agent_log

    folder = tmp_path / "sub"
    folder.mkdir()
    make_agent_log(folder / "agent-log.jsonl", 10100, seed=3)
    lines = (folder / "agent-log.jsonl").read_bytes().splitlines()
    k = next(k for k in range(10000, len(lines)) if orjson.loads(lines[k])["type"] == "action")
    ev = orjson.loads(lines[k])
    ev["data"]["args"] = {"button": "SELECT"}
    lines[k] = orjson.dumps(ev)
    (folder / "agent-log.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    make_numbered_video(folder / "video.avi", 40, 10.0)
    open_and_wait(qtbot, window, folder)

    def settle():
        for _ in range(3):
            QApplication.processEvents()

    settle()
    before = (window.player.size(), window.top_split.sizes())
    rules = [f.rule for f in window.findings.findings]
    i = rules.index("log.action_not_requested")
    assert window.findings.findings[i].line == k + 1 > 10000
    window.select_finding(i)
    settle()
    assert window.findings.compare.isVisible()
    assert f"Line {k} (named by the finding)" == window.findings.compare.other_title.text()
    assert (window.player.size(), window.top_split.sizes()) == before
    label = window.player.position_label
    assert label.geometry().right() < window.player.width()  # the frame label whole


@pytest.mark.skipif(__import__("shutil").which("ffmpeg") is None, reason="needs ffmpeg")
def test_each_video_finding_leads_to_its_span_and_its_first_frame(
        qtbot, window, tmp_path, monkeypatch):
    # Issue 11 point 3, walked end to end: a recording with a frozen stretch (frames
    # 300-419), a black one (600-689) and a cut (1200), opened with a log; after the scan,
    # a click on each video.* finding shows the span's first frame, the playhead at it and
    # the span marked on the timeline.
    import shutil

    import video_corpus as vc
    from PySide6.QtCore import Qt
    from ui_helpers import WAIT_MS, qimage_array

    from moderator_app.core.samples.community import make_agent_log

    monkeypatch.setenv("MODERATOR_APP_CACHE", str(tmp_path / "cache"))
    recipe = vc.RECIPES["scan"]
    sub = tmp_path / "run"
    sub.mkdir()
    make_agent_log(sub / "agent-log.jsonl", n_events=40, seed=3)
    shutil.copy(vc.build(recipe), sub / "video.mp4")
    with qtbot.waitSignal(window.player.scan_ready, timeout=180_000):
        window.open_paths([sub])
    wait_idle(qtbot, window)
    panel = window.findings
    assert {"video.frozen", "video.black"} <= {f.rule for f in panel.findings}
    window.sync.spin.setValue(1.5)  # run time = video time - 1.5 s
    offset = window.session.offset_s
    # With no suggestion the sync analysis runs again at the typed offset, and its findings
    # re-list the panel when it ends: wait for that, or a click made meanwhile lands on a row
    # that has become another finding (the flake of session 16's third run and of a session
    # 17 clean-clone run: about 1 run in 7 under load).
    wait_idle(qtbot, window)
    picked = [i for i, f in enumerate(panel.findings) if f.rule.startswith("video.")]
    assert {panel.findings[i].rule for i in picked} >= {"video.frozen", "video.black"}
    times = window.player.times
    for i in picked:
        f = panel.findings[i]
        span = window.nav.finding_span(i)
        assert span is not None, f.rule
        start, end = span[0] + offset, span[1] + offset  # video time
        proxy = panel.proxy.mapFromSource(panel.model.index(i, 0))
        panel.view.scrollTo(proxy)
        qtbot.mouseClick(panel.view.viewport(), Qt.MouseButton.LeftButton,
                         pos=panel.view.visualRect(proxy).center())
        frame = times.frame_at(start)
        try:
            qtbot.waitUntil(lambda frame=frame: window.player.shown_frame == frame,
                            timeout=WAIT_MS)
        except WaitTimeout:
            # The flake of sessions 16-18 (1 in 3 fresh-clone runs of tests/ui in session 18,
            # 3 in 31 runs of this file alone): say what the window was doing.
            p = window.player
            pytest.fail(f"{f.rule} (finding {i}): frame {frame} never shown; shown "
                        f"{p.shown_frame}, position {p.current_frame}, playing {p.playing}, "
                        f"busy {window.busy()}, current finding {panel.current()}, "
                        f"message {p.view.message!r}, pending {p.view.pending!r}")
        assert window.timeline.playhead == pytest.approx(start - offset, abs=1e-6)
        assert window.timeline.span == pytest.approx((start - offset, end - offset))
        assert window.timeline.v0 <= start - offset <= window.timeline.v1
        picture = qimage_array(window.player.view.image)
        if f.rule == "video.black":
            assert (round(start * 30), round(end * 30)) == (600, 690)
            assert picture.mean() < 16  # the first black frame, not the one before it
        elif f.rule == "video.frozen":
            assert round(start * 30) in (300, 301) and round(end * 30) in (419, 420)
            assert vc.read_code(picture) == 300  # the frozen picture
        else:
            assert vc.read_code(picture) == vc.expected_code(recipe.script, frame)
    # Another finding without a span: the mark goes.
    other = next(i for i, f in enumerate(panel.findings) if not f.rule.startswith("video."))
    window.select_finding(other)
    assert window.timeline.span is None


def test_after_a_decision_at_1280x720_what_was_recorded_is_in_view(qtbot, window, tmp_path):
    # Seen at 1280x720 on an official run: the walkthrough pushed "Recorded #1 …" and "Open
    # the next submission" below the Decision dock's fold; after Accept nothing seemed to
    # happen but a line in the status bar.
    from PySide6.QtWidgets import QApplication, QCheckBox

    folder = official_run(tmp_path / "official")
    open_and_wait(qtbot, window, folder)
    window.decision_dock.raise_()
    panel = window.decision_panel
    panel.reviewer.setText("mod")
    for box in panel.checklist.findChildren(QCheckBox):
        box.setChecked(True)
    panel.confirm = lambda _t, _x: True
    window.next_submission_provider = lambda: None  # a review queue's: the button is shown
    assert panel.decide("accept") is not None
    for _ in range(3):
        QApplication.processEvents()
    assert panel.next_button.isVisible()
    viewport = window.decision_scroll.viewport()
    for widget in (panel.status, panel.next_button):
        top = widget.mapTo(viewport, widget.rect().topLeft())
        bottom = widget.mapTo(viewport, widget.rect().bottomLeft())
        assert top.y() >= 0 and bottom.y() <= viewport.height(), widget.objectName()
    assert panel.status.text().startswith("Recorded #1: ACCEPT (ok)")


def test_a_selected_event_is_the_current_event_of_its_lane(qtbot, window, tmp_path):
    # Seen at 1280x720 on the bundled sample: selecting "c3" (8.370 s) showed frame 83
    # (8.300-8.400 s) and, in bold as its lane's current event, "c2" (6.282 s): the current
    # event was taken at the frame's start, before the selected event happened.
    from ui_helpers import WAIT_MS

    folder, _ = make_submission(tmp_path / "sub")
    open_and_wait(qtbot, window, folder)
    index = window.session.result.index
    times = window.player.times
    inside = [r for r in range(1, len(index))
              if index.times[r] > times.time_of(times.frame_at(index.times[r])) + 0.005]
    assert len(inside) >= 5
    for row in inside[:8]:
        window.select_event(row)
        frame = times.frame_at(index.times[row])
        qtbot.waitUntil(lambda frame=frame: window.player.shown_frame == frame, timeout=WAIT_MS)
        assert row in window.table_model.current_rows, row
        lane = window.timeline.lane_names.index(index.lane_of(row))
        assert int(window.timeline.lane_rows[lane][window.timeline.current[lane]]) == row


def test_a_whole_file_finding_takes_the_table_to_its_moment(qtbot, window, tmp_path):
    # Seen at 1280x720: after a line finding, selecting coverage.missing moved the playhead
    # to the first missing instant but left the table and the detail pane on the old line.
    from test_ui_main_window import unrequested_action

    folder, _ = make_submission(tmp_path / "sub", tamper=unrequested_action)
    open_and_wait(qtbot, window, folder)
    window.session.set_offset(10.0)  # the run's last 7 s have no footage
    wait_idle(qtbot, window)  # the analysis measured again at 10 s re-lists the findings
    findings = window.findings.findings
    window.select_finding(next(k for k, f in enumerate(findings)
                               if f.rule == "log.action_not_requested"))
    i = next(k for k, f in enumerate(findings) if f.rule == "coverage.missing")
    window.select_finding(i)
    t = window.nav.finding_time(i)
    row = window.nav.current_row_at(t)
    index = window.session.result.index
    assert row is not None and index.times[row] <= t < index.times[row + 1]
    assert window.table_model.source_row(window.table.currentIndex().row()) == row
    assert window.detail.row == row


def test_while_a_seek_decodes_the_old_picture_says_it_is_not_the_frame(qtbot, window, tmp_path):
    # Seen on Xvfb at 1920x1080, a 10-minute 720p run at load 20: selecting line 9000 set the
    # label to "frame 8960" at once, and for 1.9 s the picture was still frame 149.
    from ui_helpers import WAIT_MS

    folder, _ = make_submission(tmp_path / "sub")
    open_and_wait(qtbot, window, folder)
    player = window.player
    pending = 0
    for target in (5, 31, 12, 44, 20):
        player.seek_frame(target)
        if player.shown_frame != target:  # not served from the cache: a decode to wait for
            assert player.view.pending == f"frame {target}: decoding…"
            pending += 1
        qtbot.waitUntil(lambda target=target: player.shown_frame == target, timeout=WAIT_MS)
        assert player.view.pending is None
    assert pending >= 1


def column_action(window, menu, cid):
    """The checkable entry of column `cid` in a columns menu as the window fills it (the
    caller keeps `menu`: its actions go with it)."""
    window.columns.fill_menu(menu)
    return next(a for a in menu.actions() if a.objectName() == f"column-{cid}")


def test_columns_are_chosen_per_run_kind_and_reset_layout_restores_them(
        qtbot, window, tmp_path):
    # Issue 11 point 10 (session 8): a column show/hide menu (header context menu and View >
    # Columns), the choice kept per run kind in the settings, View > Reset layout undoes it.
    from PySide6.QtWidgets import QApplication, QMenu

    from moderator_app.ui.event_table import COL_CONTENT, COL_KIND, COL_LANE, COL_TIME

    view = window.menus["View"]
    sub = next(a.menu() for a in view.actions()
               if a.menu() is not None and a.menu().objectName() == "columnsMenu")
    official = official_run(tmp_path / "official")
    community, _ = make_submission(tmp_path / "community")
    open_and_wait(qtbot, window, official)
    sub.aboutToShow.emit()
    titles = [a.text() for a in sub.actions()]
    assert titles == ["Event number (#)", "Line", "Time", "Producer", "Type",
                      "Content (always shown)"]
    menu = QMenu()
    producer = column_action(window, menu, "lane")
    assert not producer.isChecked()
    before = content_seen(window)
    producer.setChecked(True)  # show Producer
    QApplication.processEvents()
    assert not window.table.isColumnHidden(COL_LANE)
    assert content_seen(window) < before
    column_action(window, menu, "time").setChecked(False)  # hide Time
    assert window.table.isColumnHidden(COL_TIME)
    assert window.settings.value("table/hidden_columns/official") == ["row", "time"]
    # A community run keeps its own columns (no second Type column is offered).
    open_and_wait(qtbot, window, community)
    assert not window.table.isColumnHidden(COL_TIME)
    assert window.table.isColumnHidden(COL_KIND)
    menu = QMenu()
    window.columns.fill_menu(menu)
    assert [a.text() for a in menu.actions()] == ["Event number (#)", "Line", "Time", "Type",
                                                  "Content (always shown)"]
    # The official choice persists for the next official run (and the next start).
    open_and_wait(qtbot, window, official)
    assert not window.table.isColumnHidden(COL_LANE) and window.table.isColumnHidden(COL_TIME)
    window.reset_layout()
    QApplication.processEvents()
    assert window.table.isColumnHidden(COL_LANE) and not window.table.isColumnHidden(COL_TIME)
    assert window.settings.value("table/hidden_columns/official") is None
    assert not window.table.isColumnHidden(COL_CONTENT)


def test_no_type_is_elided_at_1920x1080(qtbot, tmp_path):
    # Seen at 1920x1080 (the window takes 1728x972): Type was cut at the width of
    # `observation`, so seed_commitment and model_message read "seed_comm…", "model_mes…".
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QFont, QFontMetrics
    from PySide6.QtWidgets import QApplication
    from ui_helpers import ini_settings, shown_main_window

    from moderator_app.ui.event_table import COL_KIND

    window = shown_main_window(qtbot, ini_settings(tmp_path), size=(1728, 972),
                               store_path=tmp_path / "gui.sqlite3")
    try:
        open_and_wait(qtbot, window, official_run(tmp_path / "official"))
        for _ in range(3):
            QApplication.processEvents()
        bold = QFont(window.table.font())
        bold.setBold(True)  # the current event's row is bold
        fm = QFontMetrics(bold)
        index = window.session.result.index
        kinds = set(index.kind_names)
        assert {"seed_commitment", "model_message", "observation"} <= kinds
        from PySide6.QtWidgets import QStyle

        table = window.table  # the cell's text margins, as the item delegate takes them
        margin = table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None,
                                           table) + 1
        room = table.columnWidth(COL_KIND) - 2 * margin
        for name in kinds:
            assert fm.elidedText(name, Qt.TextElideMode.ElideRight, room) == name, name
        assert content_seen(window) >= 200
    finally:
        window.shutdown()


@pytest.mark.parametrize("kind", ["official", "community"])
def test_accept_and_reject_are_in_view_at_1280x720_without_scrolling(
        qtbot, window, tmp_path, kind):
    # Seen at 1280x720: an official run's Accept and Reject sat 370 px below the Decision
    # dock's fold, under the walkthrough. They are pinned under the panel's scroll area.
    from PySide6.QtWidgets import QApplication

    folder = (official_run(tmp_path / "official") if kind == "official"
              else make_submission(tmp_path / "community")[0])
    open_and_wait(qtbot, window, folder)
    window.decision_dock.raise_()
    for _ in range(3):
        QApplication.processEvents()
    panel = window.decision_panel
    assert panel.checklist.isVisible() == (kind == "official")
    assert window.decision_scroll.verticalScrollBar().value() == 0  # nothing scrolled
    dock = window.decision_dock.geometry()
    for button in (panel.accept_button, panel.reject_button):
        assert button.isVisible() and button.isEnabled()
        top_left = button.mapTo(window, button.rect().topLeft())
        bottom_right = button.mapTo(window, button.rect().bottomRight())
        assert dock.contains(top_left) and dock.contains(bottom_right), button.objectName()
        assert bottom_right.y() < window.height()
        assert button.visibleRegion().boundingRect() == button.rect()  # nothing covers it
    # A click records the decision (the pinned row is the panel's own buttons).
    panel.confirm = lambda _t, _x: True
    panel.reviewer.setText("mod")
    panel.reason.setCurrentIndex(panel.reason.findData("other"))  # a passing run: none set
    panel.note.setPlainText("the video stops early")  # reason `other` needs a note
    from PySide6.QtCore import Qt

    qtbot.mouseClick(panel.reject_button, Qt.MouseButton.LeftButton)
    assert panel.last_saved is not None and panel.last_saved.record.decision == "reject"


def test_a_long_queue_error_stays_inside_its_tab_at_1280x720(qtbot, window, tmp_path,
                                                             monkeypatch):
    # Seen on Xvfb at 1280x720: "Cannot list the queue: RuntimeError: An attempt has been
    # made to start a new process…" wrapped to 14 lines in the 294 px dock, the panel grew
    # taller than its tab and the text was drawn over the dock's tab bar.
    from PySide6.QtWidgets import QApplication, QTabBar
    from ui_helpers import WAIT_MS

    import moderator_app.ui.queue_panel as queue_panel

    message = "An attempt has been made to start a new process\n" + "\n".join(
        f"        detail line {i} of a long multiprocessing message" for i in range(14))

    def failing(*_a, **_k):
        raise RuntimeError(message)

    monkeypatch.setattr(queue_panel, "stream_queue", failing)
    (tmp_path / "queue").mkdir()
    panel = queue_panel.show_queue(window, tmp_path / "queue")
    qtbot.waitUntil(lambda: panel.status.text().startswith("Cannot list"), timeout=WAIT_MS)
    for _ in range(3):
        QApplication.processEvents()
    assert tooltip_shown(panel.status.toolTip()) == "RuntimeError: " + message  # whole
    assert panel.status.height() <= 3 * panel.status.fontMetrics().lineSpacing() + 4
    dock = window.queue_dock
    bottom = panel.mapTo(window, panel.rect().bottomLeft()).y()
    assert bottom <= dock.geometry().bottom()
    tabs = [t for t in window.findChildren(QTabBar) if t.isVisible()
            and any(t.tabText(i) == "Queue" for i in range(t.count()))]
    assert len(tabs) == 1
    assert bottom < tabs[0].mapTo(window, tabs[0].rect().topLeft()).y()


def test_the_next_submission_button_names_it_whole_or_elided_at_1280x720(
        qtbot, window, tmp_path):
    # Seen on Xvfb at 1280x720: "Open the next submission (Ctrl+Shift+N):\nd-official-long"
    # was cut on both sides in the 288 px dock ("pen the next submission (Ctrl+Shift+N").
    from PySide6.QtWidgets import QApplication
    from ui_helpers import WAIT_MS

    from moderator_app.ui.queue_panel import show_queue

    queue = tmp_path / "queue"
    queue.mkdir()
    names = [f"{c}-" + "very-long-submission-name-" * 3 + "end" for c in "ab"]
    from test_ui_main_window import unrequested_action

    make_submission(queue / names[0])
    make_submission(queue / names[1], tamper=unrequested_action)  # other evidence
    panel = show_queue(window, queue)
    qtbot.waitUntil(lambda: len(panel.items) == 2 and not panel.listing, timeout=WAIT_MS)
    dp = window.decision_panel
    window.open_next_submission()
    wait_idle(qtbot, window)
    window.decision_dock.raise_()
    dp.reviewer.setText("mod")
    dp.confirm = lambda _t, _x: True
    assert dp.decide("accept") is not None
    opened = window.session.result.submission.display_name
    (other,) = [n for n in names if n != opened]
    qtbot.waitUntil(lambda: other in tooltip_shown(dp.next_button.toolTip()), timeout=WAIT_MS)
    for _ in range(3):
        QApplication.processEvents()
    button = dp.next_button
    assert button.isVisible() and button.isEnabled()
    fm = button.fontMetrics()
    first, second = button.text().split("\n")
    assert first == "Open the next submission:"
    assert second.startswith(other[:6]) and second.endswith("end") and "…" in second
    for line in (first, second):
        assert fm.horizontalAdvance(line) <= button.width() - 16, line
    assert tooltip_shown(button.toolTip()) == f"Open {other} (Ctrl+Shift+N)"
    # The next submission's form is read from its top: its title, not the place the last
    # record was scrolled to (seen at 1920x1080: the title was above the fold).
    scroll = window.decision_scroll.verticalScrollBar()
    assert scroll.value() > 0  # the record was scrolled into view
    button.click()
    qtbot.waitUntil(lambda: window.session.result is not None
                    and window.session.result.submission.display_name == other,
                    timeout=WAIT_MS)
    wait_idle(qtbot, window)
    for _ in range(3):
        QApplication.processEvents()
    assert scroll.value() == 0
    assert dp.title.text().endswith(other)
    assert dp.title.visibleRegion().boundingRect().height() == dp.title.height()


def test_play_moves_neither_the_video_nor_the_table_at_1280x720(qtbot, window, tmp_path):
    # Seen on Xvfb at 1280x720: Play turned "▶" into the 10 px wider "❚❚"; the video, at its
    # controls' minimum width there, grew 540 -> 550 px, the table lost 10 px, and both stayed.
    from PySide6.QtWidgets import QApplication

    folder, _ = make_submission(tmp_path / "sub")
    open_and_wait(qtbot, window, folder)

    def places():
        for _ in range(3):
            QApplication.processEvents()
        return (window.player.width(), window.top_split.sizes(), window.table.width(),
                window.player.minimumSizeHint().width())

    before = places()
    window.player.toggle_play()
    assert window.player.playing
    playing = places()
    window.player.pause()
    assert playing == before
    assert places() == before


def test_the_queue_shows_name_verdict_and_state_without_scrolling_at_1280x720(
        qtbot, window, tmp_path, monkeypatch):
    # Session 10 on Xvfb at 1280x720: the queue's first column was "Submitted (UTC)", shown
    # as "ubmitted (UT"; the verdict was behind a horizontal scroll. Name, verdict and state
    # come first, in view in the 288 px dock beside the table's vertical scroll bar (with
    # four rows the state column was cut there); the queue stays sorted oldest first.
    import os
    import shutil
    from pathlib import Path

    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication
    from ui_helpers import WAIT_MS

    from moderator_app.ui.queue_panel import COLUMNS, show_queue

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    sample = Path(__file__).resolve().parents[2] / "resources" / "samples" / "community-sample"
    q = tmp_path / "queue"
    q.mkdir()
    names = ["z-oldest-run", "a-newer-run-with-a-longer-name"] + [f"m-run-{i}" for i in range(8)]
    for i, name in enumerate(names):
        shutil.copytree(sample, q / name)
        for p in [q / name, *(q / name).rglob("*")]:
            os.utime(p, (1_700_000_000 + i * 60,) * 2)
    panel = show_queue(window, q)
    qtbot.waitUntil(lambda: len(panel.visible_names()) == len(names) and not panel.listing,
                    timeout=WAIT_MS)
    for _ in range(3):
        QApplication.processEvents()
    assert panel.visible_names() == names
    view = panel.view
    assert view.verticalScrollBar().isVisible()  # ten rows: the viewport beside the scroll bar
    heads = [h for h, _ in COLUMNS]
    for head in ("Submission", "Verdict", "State"):
        col = heads.index(head)
        x = view.columnViewportPosition(col)
        assert x >= 0 and x + view.columnWidth(col) <= view.viewport().width(), head
    verdict = heads.index("Verdict")
    text = view.model().index(0, verdict).data()
    assert text == "pass"
    assert view.columnWidth(verdict) >= view.fontMetrics().horizontalAdvance(text)
    assert tooltip_shown(view.model().index(1, 0).data(Qt.ItemDataRole.ToolTipRole)) == \
        "a-newer-run-with-a-longer-name"
    # With room (a wider dock, as at 1920x1080), names and states are whole, not elided.
    window.resizeDocks([window.queue_dock], [560], Qt.Orientation.Horizontal)
    for _ in range(3):
        QApplication.processEvents()
    name = heads.index("Submission")
    assert view.columnWidth(name) >= view.fontMetrics().horizontalAdvance(
        "a-newer-run-with-a-longer-name")
