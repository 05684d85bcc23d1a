"""`moderator-app [PATH] [--store PATH]`: the workstation's entry point.

Kept small: argument parsing, QApplication set-up (names for QSettings, theme, icon) and the
main window. The CLI router in `moderator_app/__main__.py` calls `run_app` only for the GUI path,
so the headless commands never import Qt.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
from pathlib import Path

from moderator_app.ui.main_window import APP_TITLE, SETTINGS_APP, SETTINGS_ORG


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="moderator-app", description=APP_TITLE)
    parser.add_argument("paths", nargs="*", type=Path,
                        help="a submission: folder, files, or archive (optional)")
    parser.add_argument("--store", default=None,
                        help="decision store to use instead of the default: an SQLite file, "
                             "or postgresql://USER@HOST/DB for a team store")
    args, _qt_args = parser.parse_known_args(argv)
    return args


def no_display_reason(env: dict[str, str] | None = None) -> str | None:
    """Why the workstation cannot open a window here, or None. Without a display Qt aborts
    with a hint about the xcb-cursor library, which sends people the wrong way: say "no
    display" plainly instead (Linux and BSD; macOS and Windows always have one)."""
    env = dict(os.environ) if env is None else env
    if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return None
    if env.get("QT_QPA_PLATFORM"):  # offscreen, vnc, wayland...: the caller chose
        return None
    if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return None
    return "DISPLAY and WAYLAND_DISPLAY are not set"


def run_app(argv: list[str]) -> int:
    args = parse_args(argv)
    problem = _store_arg_problem(args.store)
    if problem is not None:  # `--store ""` was not given at all (the saved store was used)
        sys.stderr.write(f"moderator-app: {problem}\n")
        return 2
    reason = no_display_reason()
    if reason is not None:
        sys.stderr.write(
            f"moderator-app: no display ({reason}): the workstation needs a graphical "
            "session.\nThe command line works without one, e.g. `moderator-app verify PATH`; "
            "or give it a virtual display: `xvfb-run moderator-app PATH`.\n")
        return 2
    from moderator_app.core.verify import isolated

    isolated.prestart()  # the first verification's process imports while Qt starts
    from PySide6.QtCore import QCoreApplication, QTimer
    from PySide6.QtWidgets import QApplication

    QCoreApplication.setOrganizationName(SETTINGS_ORG)
    QCoreApplication.setApplicationName(SETTINGS_APP)
    app = QApplication.instance() or QApplication([sys.argv[0]])
    app.setApplicationDisplayName(APP_TITLE)
    from moderator_app.ui.main_window import MainWindow

    window = MainWindow(store_path=args.store or _env_store() or _settings_store())
    window.opener.start_ahead = True
    theme = str(window.settings.value("theme", "dark"))
    try:
        from moderator_app.ui.theme import apply_theme

        apply_theme(app, theme)
    except Exception:  # noqa: BLE001 - theming is cosmetic
        pass
    try:
        from moderator_app.ui.icons import app_icon

        app.setWindowIcon(app_icon())
    except Exception:  # noqa: BLE001 - an icon is cosmetic
        pass
    _install_excepthook(window)
    window.show()
    paths = initial_paths(list(args.paths), window.recent())
    if paths:
        QTimer.singleShot(0, lambda: window.open_paths(paths))
    # Ctrl+C in the terminal quits cleanly: Python gets a chance to run every 200 ms.
    signal.signal(signal.SIGINT, lambda *_: window.close())
    tick = QTimer()
    tick.start(200)
    tick.timeout.connect(lambda: None)
    return app.exec()


def initial_paths(given: list[Path], recent: list[str]) -> list[Path]:
    """What to open at start: the paths given; else, on a first start (nothing opened before),
    the bundled sample submission, so that a newcomer who double-clicks the app sees a review
    rather than an empty window. Later starts with no path open nothing."""
    if given:
        return given
    if recent:
        return []
    from moderator_app.ui.icons import resource_path

    sample = resource_path("samples", "community-sample")
    return [sample] if sample is not None else []


def _install_excepthook(window) -> None:
    """An unexpected exception in a slot must not scroll a traceback over the moderator's
    terminal or leave them guessing: the full traceback goes to a log file, one line to
    stderr and to the status bar, and the workstation keeps running."""
    import traceback

    import platformdirs

    log_path = Path(platformdirs.user_log_dir("moderator-app")) / "errors.log"

    def hook(exc_type, exc, tb) -> None:
        from moderator_app.core.text import safe_output, safe_text

        # the message may quote submitted text (a name with ESC or U+202E): escaped in the
        # log, on stderr and in the status bar alike
        text = safe_output("".join(traceback.format_exception(exc_type, exc, tb)))
        try:
            log_path.parent.mkdir(parents=True, exist_ok=True)
            with open(log_path, "a", encoding="utf-8") as fh:
                fh.write(text + "\n")
        except OSError:
            pass
        line = safe_text(f"internal error {exc_type.__name__}: {exc} (details in {log_path})")
        sys.stderr.write(f"moderator-app: {line}\n")
        with contextlib.suppress(RuntimeError):  # the window may already be gone
            window.status_label.setText(line)

    sys.excepthook = hook


def _store_arg_problem(store: str | None) -> str | None:
    """Why `--store` cannot be used (escaped, never quoting a password), or None: an empty
    or blank path, a NUL, an address that is not postgresql://, a key=value string. The
    command line refuses the same with exit 2; here `--store ""` fell through to the saved
    store, and the others were taken as SQLite paths."""
    if store is None:
        return None
    from moderator_app.core.ledger.chained import LedgerError
    from moderator_app.core.ledger.config import store_spec
    from moderator_app.core.text import safe_text

    try:
        store_spec(store)
    except LedgerError as exc:
        return safe_text(str(exc))
    return None


def _env_store() -> str | None:
    """$MODERATOR_APP_STORE, else the store named in $MODERATOR_APP_STORE_FILE."""
    from moderator_app.core.ledger.config import store_spec

    try:
        return store_spec()
    except Exception as exc:  # noqa: BLE001 - a bad store file: said, then the default
        from moderator_app.core.text import safe_text

        sys.stderr.write(f"moderator-app: {safe_text(str(exc))}\n")
        return None


def _settings_store() -> str | None:
    """The store chosen in File > Decision store (QSettings `decisions/store`)."""
    from moderator_app.ui.store_setting import saved_store

    return saved_store()
