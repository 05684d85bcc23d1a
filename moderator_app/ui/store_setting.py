"""File > Decision store: which ledger the workstation records to (QSettings
`decisions/store`).

An SQLite file (the default is the per-user file), or a PostgreSQL team store given as
`postgresql://USER@HOST:PORT/DB?sslmode=...`. The setting is stored in plain text in the
user's settings, so a connection string holding a password is refused here: the password
belongs in `~/.pgpass` (libpq's own, owner-only), in `$PGPASSWORD`, or in a store file named
by `$MODERATOR_APP_STORE_FILE` (owner-only; see docs/decisions-ledger.md). The choice is
checked by opening the store before it is saved, so an unreachable server is told at once.
"""

from __future__ import annotations

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QInputDialog, QLineEdit, QMessageBox

from moderator_app.core.ledger.chained import LedgerError
from moderator_app.core.ledger.config import describe_store, open_store
from moderator_app.core.ledger.postgres import is_postgres
from moderator_app.ui.decision_panel import SETTINGS_APP, SETTINGS_ORG

STORE_KEY = "decisions/store"


def saved_store(settings: QSettings | None = None) -> str | None:
    s = settings if settings is not None else QSettings(SETTINGS_ORG, SETTINGS_APP)
    value = s.value(STORE_KEY, "")
    return str(value) if value else None


def check_store(spec: str) -> str | None:
    """Why `spec` cannot be used as the workstation's store, or None when it can."""
    if is_postgres(spec):
        from psycopg.conninfo import conninfo_to_dict

        try:
            if conninfo_to_dict(spec).get("password"):
                return ("the address holds a password, which would be saved in plain text: "
                        "put it in ~/.pgpass or PGPASSWORD instead")
        except Exception:  # noqa: BLE001 - parse errors are reported by open_store below
            pass
    try:
        with open_store(spec, create=False) as store:
            store.count()
    except LedgerError as exc:
        return str(exc)
    return None


def apply_store(window, spec: str | None) -> str | None:
    """Use `spec` (None: the default SQLite file) from now on; returns a problem or None."""
    if spec:
        problem = check_store(spec)
        if problem:
            return problem
    window.settings.setValue(STORE_KEY, spec or "")
    window.session.set_store_path(spec or None)
    window.decision_panel.refresh()
    panel = getattr(window, "queue_panel", None)
    if panel is not None:
        panel.reload()
    return None


def store_setting_dialog(window) -> None:
    current = window.session.store_path
    text, ok = QInputDialog.getText(
        window, "Decision store",
        "SQLite file, or postgresql://USER@HOST:PORT/DB for a team store\n"
        "(empty: the default per-user file). Passwords go in ~/.pgpass.",
        QLineEdit.EchoMode.Normal, "" if current is None else str(current))
    if not ok:
        return
    spec = text.strip() or None
    problem = apply_store(window, spec)
    if problem:
        box = QMessageBox(QMessageBox.Icon.Warning, "Decision store", "", parent=window)
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setText(f"Not changed: {problem}")
        box.exec()
        return
    window.show_moment(f"Decisions are recorded in {describe_store(spec)}")
