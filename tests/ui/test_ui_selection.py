"""Where the moderator may go next is warmed up (issue 11 point 8): selecting an event or a
finding hands the player the times of the neighbouring events and findings."""

from __future__ import annotations

import pytest
from test_ui_main_window import make_submission, open_and_wait
from ui_helpers import WAIT_MS, wait_idle, window_1280x720

from moderator_app.core.video.scan import ScanResult


@pytest.fixture
def window(qtbot, tmp_path):
    yield from window_1280x720(qtbot, tmp_path)


def test_selecting_an_event_warms_its_neighbours(qtbot, window, tmp_path, monkeypatch):
    folder, _ = make_submission(tmp_path / "sub")
    open_and_wait(qtbot, window, folder)
    index = window.session.result.index
    hinted = []
    monkeypatch.setattr(window.player, "prefetch_times", hinted.append)
    findings = window.findings.findings
    assert window.findings.current() is None and findings
    # no current finding: after the table's neighbours, the first findings (a review starts
    # there)
    firsts = [window.nav._finding_run_time(j) for j in range(min(6, len(findings)))]
    window.nav.select_event(20)
    assert hinted[-1] == pytest.approx([index.times[21], index.times[19]]
                                       + [t for t in firsts if t is not None])
    # with a sync offset the hints are video times; the first row has no row before it
    window.session.set_offset(0.5)
    window.nav.select_event(0)
    assert hinted[-1][:1] == pytest.approx([index.times[1] + 0.5])
    wait_idle(qtbot, window)  # the analysis the offset started again


def test_every_decoder_of_an_open_was_started_while_verifying(qtbot, window, tmp_path,
                                                             monkeypatch):
    """Opening a submission starts the decoder processes ahead (they import while the log is
    verified): the player's, its sound's and the scan's on the GUI thread (the probe's is
    started by the verification's own process, core/verify/isolated.py). Each of them then
    takes one started ahead, whichever thread asks first (the sync analysis's scan and the
    player's decoder ask at the same moment), and the player one the GUI thread started: its
    first picture costs an open and a decode, not a process start."""
    import threading

    from moderator_app.core.video import isolate
    from moderator_app.core.video.audio import plays_sound
    if not isolate.FD_PASSING:
        pytest.skip("processes are started ahead only where a descriptor can be passed")
    # a scan of its own (not one an earlier test cached), asked for before the spares start
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(tmp_path / "cache"))
    folder, _ = make_submission(tmp_path / "sub")
    isolate.discard_spares()  # none left over from an earlier test in this process
    taken = []
    take = isolate._take_spare

    def recording_take():
        spare = take()
        taken.append((threading.current_thread().name, spare))
        return spare

    monkeypatch.setattr(isolate, "_take_spare", recording_take)
    window.open_paths([folder])
    gui = threading.get_ident()
    started = [sp.proc.pid for sp in isolate._SPARES if sp.owner == gui]
    qtbot.waitUntil(lambda: window.player.has_video and window.player.shown_frame >= 0,
                    timeout=WAIT_MS)
    qtbot.waitUntil(lambda: window.player.scan_result is not None, timeout=120000)
    wait_idle(qtbot, window)  # the sync analysis took its decoder (or read the scan) too
    assert isinstance(window.player.scan_result, ScanResult)
    assert len(started) == 2 + plays_sound()
    assert window.player._worker.proc.proc.pid in started
    # the player, the scan (the sync analysis's or the player's, the other reads its cache)
    # and the sound where it plays: none started cold; no probe in the window's process
    assert len(taken) >= 2 and all(spare is not None for _, spare in taken), taken
    assert not [name for name, _ in taken if name.startswith("verify")], taken


def test_selecting_a_finding_warms_the_findings_around_it(qtbot, window, tmp_path,
                                                          monkeypatch):
    """A moderator walks the findings list: the findings on either side, nearest first, come
    after the table's neighbours."""
    import orjson

    def break_lines(lines):
        for k in (6, 14, 22, 30):
            ev = orjson.loads(lines[k])
            ev["type"] = "unknown"  # an error on line k + 1
            lines[k] = orjson.dumps(ev)
        return lines

    folder, _ = make_submission(tmp_path / "bad", tamper=break_lines)
    open_and_wait(qtbot, window, folder)
    index = window.session.result.index
    findings = window.findings.findings
    at = {f.line: k for k, f in enumerate(findings) if f.severity.value == "error"}
    assert {7, 15, 23, 31} <= set(at) and at[15] >= 3
    hinted = []
    monkeypatch.setattr(window.player, "prefetch_times", hinted.append)
    window.select_finding(at[15])
    assert window.detail.row == 14
    got = hinted[-1]
    assert got[:2] == pytest.approx([index.times[15], index.times[13]])  # the table's
    # the findings around it, nearest first: +1, -1, +2, -2, +3, -3 in the list's order (in
    # run-time order since session 41: a finding of the file, with no line, may stand among
    # them; it is warmed at its moment, or not at all without one)
    around = [at[15] + d for d in (1, -1, 2, -2, 3, -3)]
    times = [index.times[findings[k].line - 1] if findings[k].line is not None
             else window.nav.finding_time(k) for k in around]
    assert sum(findings[k].line is not None for k in around) >= 3
    assert got[2:] == pytest.approx([t for t in times if t is not None and t == t])


def test_the_table_scrolls_to_the_selected_event(qtbot, window, tmp_path):
    """The event table shows the selected row: its index was in the hidden first column,
    where QTableView.scrollTo does nothing, and the table stayed at the top (seen on Xvfb)."""
    folder, _ = make_submission(tmp_path / "sub", n_events=200)
    open_and_wait(qtbot, window, folder)
    table = window.table
    for row in (150, 20, 190):
        window.nav.select_event(row)
        prow = window.table_model.proxy_row(row)
        assert table.currentIndex().row() == prow
        qtbot.waitUntil(lambda: table.rowAt(table.viewport().height() // 2) != -1,
                        timeout=WAIT_MS)
        top = table.rowAt(0)
        bottom = table.rowAt(table.viewport().height() - 1)
        bottom = window.table_model.rowCount() - 1 if bottom == -1 else bottom
        assert top <= prow <= bottom, (row, top, bottom)
