"""What the workstation opens at start (a newcomer's first start shows the bundled sample)."""

from __future__ import annotations

from pathlib import Path

from conftest import SAMPLES

from moderator_app.ui.app import initial_paths


def test_given_paths_win():
    assert initial_paths([Path("x")], ["y"]) == [Path("x")]


def test_first_start_opens_the_bundled_sample():
    assert initial_paths([], []) == [SAMPLES / "community-sample"]


def test_later_starts_open_nothing():
    assert initial_paths([], ["/some/earlier/submission"]) == []


def test_an_internal_errors_message_is_escaped_on_stderr_and_in_the_status_bar(
        qtbot, tmp_path, monkeypatch, capsys):
    """Session 16 hostile pass: the last-resort hook printed `{exc}` as it was: an exception
    whose message quotes submitted text (ESC ] 0;, U+202E) reached the terminal, the status
    bar and the error log raw."""
    from ui_helpers import ini_settings, shown_main_window

    from moderator_app.ui import app

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    w = shown_main_window(qtbot, ini_settings(tmp_path), size=None)
    try:
        app._install_excepthook(w)
        import sys
        try:
            raise ValueError("bad name run\x1b]0;own\x07\u202egnp")
        except ValueError as exc:
            sys.excepthook(type(exc), exc, exc.__traceback__)
        err = capsys.readouterr().err
        log = (tmp_path / "moderator-app" / "log" / "errors.log").read_text("utf-8")
        for text in (err, w.status_label.text(), log):
            assert "run\\u001b]0;own\\u0007\\u202egnp" in text, ascii(text)
            assert not [c for c in ("\x1b", "\x07", "\u202e") if c in text]
    finally:
        sys.excepthook = sys.__excepthook__
        w.shutdown()
