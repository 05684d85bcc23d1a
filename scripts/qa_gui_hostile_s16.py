"""The workstation under attack (issue 15, session 16): each hostile submission opened in the
offscreen window, one process per input, through the window's public seams (as tests/ui does):
open it, wait for the report, select event rows and every finding, export the findings,
record a decision, then read every text the window shows (window title, labels, buttons, line
and text edits, combo boxes, list and table models, tooltips rendered as Qt renders them, the
confirmation text) for raw control characters and for markup that Qt would render.

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/qa_gui_hostile_s16.py OUT PATH [PATH...]
    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/qa_gui_hostile_s16.py OUT --queue DIR

Each PATH runs in a child process of its own (`one`): a row of JSON per input with the seconds
from open to report, the child's peak RSS, tracebacks (sys.excepthook), Qt warnings, raw
control characters and rendered markup found, and whether a decision was recorded. A child
over 120 s is killed and reported as a hang. The hostile text used by the builders of
scripts/qa_hostile_s16.py holds `<b>BOLD</b>`: a widget that shows `BOLD` without its tags
rendered submitted markup.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO)]


# tests/hostile_corpus.py's list (that module imports cv2 through the sample makers: OpenCV's
# Qt beside PySide6's in one process aborts it). Raw bytes a terminal or a text widget would
# act on: C0 (but \n and \t), DEL, C1, bidi controls.
RAW_CONTROL = [chr(c) for c in (*range(0, 9), *range(11, 32), 127, *range(0x80, 0xA0))] + \
    ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"]
# and (session 29) the marks that reorder a line without drawing and the line separators,
# which core/text.py escapes too: LRM, RLM, ALM, U+2028, U+2029
RAW_CONTROL += ["\u200e", "\u200f", "\u061c", "\u2028", "\u2029"]


def _texts(app) -> list[tuple[str, str]]:
    """(where, text) for every text a visible or hidden widget holds, as it would be shown."""
    from PySide6.QtCore import QModelIndex
    from PySide6.QtGui import Qt
    from PySide6.QtWidgets import (
        QAbstractButton,
        QAbstractItemView,
        QComboBox,
        QLabel,
        QLineEdit,
        QMenu,
        QPlainTextEdit,
        QTextEdit,
        QWidget,
    )
    out: list[tuple[str, str]] = []
    for w in app.allWidgets():
        name = f"{type(w).__name__}:{w.objectName()}"
        if isinstance(w, QWidget) and w.isWindow():
            out.append((name + ".windowTitle", w.windowTitle()))
        if w.toolTip():
            out.append((name + ".toolTip", tooltip_shown(w.toolTip())))
        if isinstance(w, QLabel):
            t = w.text()
            rich = w.textFormat() == Qt.TextFormat.RichText or (
                w.textFormat() == Qt.TextFormat.AutoText and Qt.mightBeRichText(t))
            out.append((name + (".rich" if rich else ".text"), t))
        elif isinstance(w, (QAbstractButton, QLineEdit)):
            out.append((name + ".text", w.text()))
        elif isinstance(w, (QPlainTextEdit, QTextEdit)):
            out.append((name + ".text", w.toPlainText()[:200_000]))
        elif isinstance(w, QComboBox):
            out += [(name + ".item", w.itemText(i)) for i in range(min(w.count(), 500))]
        elif isinstance(w, QMenu):
            out += [(name + ".action", a.text()) for a in w.actions()]
        if isinstance(w, QAbstractItemView) and w.model() is not None:
            m = w.model()
            root = QModelIndex()
            rows = min(m.rowCount(root), 300)
            try:
                cols = m.columnCount(root)
            except TypeError:  # a list model: one column
                cols = 1
            for r in range(rows):
                for c in range(min(cols, 12)):
                    ix = m.index(r, c)
                    for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                        v = m.data(ix, role)
                        if isinstance(v, str) and v:
                            shown = tooltip_shown(v) if role == Qt.ItemDataRole.ToolTipRole \
                                else v
                            out.append((f"{name}.model[{r},{c}].{int(role.value)}", shown))
    return out


def tooltip_shown(tip: str) -> str:
    """The text Qt shows for a tooltip (tests/ui_helpers.py's, which imports cv2: two Qt
    builds in one process abort it)."""
    from PySide6.QtGui import Qt, QTextDocument

    if not Qt.mightBeRichText(tip):
        return tip
    doc = QTextDocument()
    doc.setHtml(tip)
    return doc.toPlainText()


def _rendered(where: str, text: str) -> bool:
    """True when the moderator would see submitted markup rendered (BOLD without its tag)."""
    if where.endswith(".rich"):
        from PySide6.QtGui import QTextDocument
        doc = QTextDocument()
        doc.setHtml(text)
        text = doc.toPlainText()
    return "BOLD" in text and "<b>BOLD" not in text.replace("&lt;", "<")


def one(out: Path, path: Path, queue: bool = False) -> dict:
    """Open `path` in a fresh window and drive it; the row of findings about the window."""
    from PySide6.QtCore import QSettings, QtMsgType, qInstallMessageHandler
    from PySide6.QtWidgets import QApplication

    row: dict = {"input": os.fsdecode(path)[-80:].encode("ascii", "backslashreplace").decode(),
                 "tracebacks": [], "qt_warnings": [], "raw": [], "rendered": []}

    def hook(kind, value, tb):
        row["tracebacks"].append("".join(traceback.format_exception(kind, value, tb))[-800:])
    sys.excepthook = hook

    def qt_message(mode, _ctx, message):
        if mode in (QtMsgType.QtWarningMsg, QtMsgType.QtCriticalMsg, QtMsgType.QtFatalMsg):
            row["qt_warnings"].append(message[:300])
    qInstallMessageHandler(qt_message)
    app = QApplication.instance() or QApplication([])
    from moderator_app.ui.export import export_findings
    from moderator_app.ui.main_window import MainWindow
    out.mkdir(parents=True, exist_ok=True)
    win = MainWindow(settings=QSettings(str(out / "settings.ini"), QSettings.Format.IniFormat),
                     store_path=out / "gui.sqlite3")
    win.resize(1280, 720)
    win.show()

    def pump(cond, limit: float) -> bool:
        end = time.monotonic() + limit
        while time.monotonic() < end:
            app.processEvents()
            if cond():
                return True
            time.sleep(0.01)
        return False

    t0 = time.monotonic()
    if queue:
        from moderator_app.ui.queue_panel import show_queue
        panel = show_queue(win, path)
        row["opened"] = pump(lambda: panel.model.rowCount() > 0 if hasattr(panel, "model")
                             else False, 110)
        row["seconds"] = round(time.monotonic() - t0, 1)
    else:
        win.open_paths([path])
        # done: a report, or a refusal in the status line ("Cannot open ...")
        row["opened"] = pump(lambda: not win.is_verifying() and (
            win.session.result is not None or win.status_label.text().startswith("Cannot")),
            110)
        row["status"] = win.status_label.text()[:160]
        row["seconds"] = round(time.monotonic() - t0, 1)
        pump(lambda: False, 1.0)
        n_rows = win.table_model.rowCount()
        for r in [*range(min(n_rows, 40)), *range(max(40, n_rows - 5), n_rows)]:
            win.select_event(r)
            app.processEvents()
        n_find = len(win.findings.findings)
        for i in range(min(n_find, 60)):
            win.select_finding(i)
            app.processEvents()
        row["events"], row["findings"] = n_rows, n_find
        if win.session.report is not None:
            written = export_findings(win, out / "export")
            for p in written or ():
                text = p.read_text("utf-8", "replace")
                bad = sorted({hex(ord(c)) for c in RAW_CONTROL if c in text})
                if bad:
                    row["raw"].append((p.name, bad))
            panel = win.decision_panel
            asked: list[str] = []
            panel.confirm = lambda title, text: asked.append(title + "\n" + text) or True
            panel.reason.setCurrentIndex(panel.reason.findData("other"))
            panel.note.setPlainText("note \x1b[2J\u202e <b>BOLD</b> \x85")
            panel.reviewer.setText("rev\u202e\x1b]0;x\x07")
            stored = panel.decide("reject")
            row["decided"] = stored is not None
            row["decide_status"] = panel.status.text()[:200]
            for t in asked:
                bad = sorted({hex(ord(c)) for c in RAW_CONTROL if c in t})
                if bad:
                    row["raw"].append(("confirm dialog", bad))
            pump(lambda: False, 0.5)
    try:
        texts = _texts(app)
    except Exception:  # noqa: BLE001 - the script's own bug, reported as one
        row["script_error"] = traceback.format_exc()[-600:]
        texts = []
    for where, text in texts:
        bad = sorted({hex(ord(c)) for c in RAW_CONTROL if c in text})
        if bad:
            row["raw"].append((where, bad, text[:120].encode("ascii", "backslashreplace")
                               .decode()))
        if _rendered(where, text):
            row["rendered"].append((where, text[:120]))
    win.grab().save(str(out / "window.png"))
    win.shutdown()
    win.close()
    app.processEvents()
    row["max_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    row["max_rss_children_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    return row


def main(argv: list[str]) -> int:
    out = Path(argv[0])
    queue = argv[1:2] == ["--queue"]
    paths = argv[2:] if queue else argv[1:]
    bad = 0
    for i, p in enumerate(paths):
        t0 = time.monotonic()
        args = [sys.executable, __file__, "one", str(out / f"{i:02d}"), p]
        if queue:
            args.append("--queue")
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        try:
            r = subprocess.run([os.fsencode(a) for a in args], capture_output=True, env=env,
                               timeout=150)
            lines = r.stdout.decode("utf-8", "replace").strip().splitlines()
            row = json.loads(lines[-1]) if lines else {"input": p, "exit": r.returncode,
                                                       "stderr": r.stderr[-500:].decode(
                                                           "utf-8", "replace")}
            if r.returncode:
                row["exit"] = r.returncode
        except subprocess.TimeoutExpired:
            row = {"input": p, "hang": True}
        row["wall"] = round(time.monotonic() - t0, 1)
        problems = [k for k in ("tracebacks", "raw", "rendered", "hang", "exit") if row.get(k)]
        if row.get("max_rss_mb", 0) > 512 or row.get("wall", 0) > 30 + 10:
            problems.append("bounds")
        row["problems"] = problems
        bad += bool(problems)
        print(json.dumps(row, ensure_ascii=True), flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["one"]:
        res = one(Path(sys.argv[2]), Path(os.fsdecode(os.fsencode(sys.argv[3]))),
                  queue="--queue" in sys.argv[4:])
        print(json.dumps(res, ensure_ascii=True), flush=True)
        sys.exit(0)
    sys.exit(main(sys.argv[1:]))
