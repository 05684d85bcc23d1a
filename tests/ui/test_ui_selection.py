"""Where the moderator may go next is warmed up (issue 11 point 8): selecting an event or a
finding hands the player the times of the neighbouring events and findings."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from test_ui_main_window import make_submission, open_and_wait

from moderator_app.ui.main_window import MainWindow


@pytest.fixture
def window(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings=settings, store_path=tmp_path / "gui.sqlite3")
    qtbot.addWidget(w)
    w.resize(1280, 720)
    w.show()
    yield w
    w.shutdown()


def test_selecting_an_event_warms_its_neighbours(qtbot, window, tmp_path, monkeypatch):
    folder, _ = make_submission(tmp_path / "sub")
    open_and_wait(qtbot, window, folder)
    index = window.session.result.index
    hinted = []
    monkeypatch.setattr(window.player, "prefetch_times", hinted.append)
    window.nav.select_event(20)
    assert hinted[-1] == pytest.approx([index.times[21], index.times[19]])
    # with a sync offset the hints are video times; the first row has no row before it
    window.session.set_offset(0.5)
    window.nav.select_event(0)
    assert hinted[-1] == pytest.approx([index.times[1] + 0.5])


def test_the_players_decoder_is_started_while_verifying(qtbot, window, tmp_path):
    """Opening a submission starts the decoder processes ahead (they import while the log is
    verified); the player takes one when the video loads, so its first picture costs an open
    and a decode, not a process start."""
    from moderator_app.core.video import isolate
    if not isolate.FD_PASSING:
        pytest.skip("processes are started ahead only where a descriptor can be passed")
    folder, _ = make_submission(tmp_path / "sub")
    window.open_paths([folder])
    started = [sp.proc.pid for sp in isolate._SPARES]
    assert len(started) == 2
    qtbot.waitUntil(lambda: window.player.has_video and window.player.shown_frame >= 0,
                    timeout=20000)
    assert window.player._worker.proc.proc.pid in started
