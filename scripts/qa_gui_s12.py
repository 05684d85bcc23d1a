"""Issue 11 QA of session 12 (docs/qa/session12.md): session 10's GUI check
(scripts/qa_gui_s10.py: the workstation's verdict, findings and recorded decision at three
offsets against `verify --offset --json` and `decide --offset`, then the loop walked at the
window's size) on a game no GUI pass opened (Alien) at offsets no pass used, then real input
on top (QTest mouse and keys, not the window's methods): a click on each line-less finding's
row must move the playhead to its moment, and a Reject typed into the Decision panel (reason
`other`, a note) must store what `decide --reject --reason other --note` stores. On a display:

    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python scripts/qa_gui_s12.py RUN OUT_DIR W H
    .venv/bin/python scripts/qa_gui_s12.py hostile .cache/qa-s12/hostile  # issue 15, offscreen
    .venv/bin/python scripts/qa_gui_s12.py frames DIR...  # issue 12: the picture the player shows
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import qa_gui_s10 as s10  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
NOTE = "QA s12: the flame at 0:14 is not in the log"
_walk = s10.walk


def offsets(truth: dict) -> tuple[float, ...]:
    """truth - 6.3 s (run start before the footage: fail), truth + 2.9 s (end past the footage,
    under the 5 s tolerance: pass with coverage.missing), truth + 8.2 s (fail)."""
    o = round(truth["offset_s"], 3)
    return (round(o - 6.3, 3), round(o + 2.9, 3), round(o + 8.2, 3))


def real_input(app, win, outd: Path, w: int, h: int) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from moderator_app.core.ledger.store import Ledger

    def settle(n: int = 40) -> None:
        for _ in range(n):
            app.processEvents()
            time.sleep(0.01)

    out: dict = {"clicks": []}
    view = win.findings.view
    model = view.model()
    for i, f in enumerate(win.findings.findings):
        if f.line is not None:
            continue
        win.select_event(0)
        settle()
        before = win.player.current_time
        rect = view.visualRect(model.index(i, 0))
        view.scrollTo(model.index(i, 0))
        settle(5)
        rect = view.visualRect(model.index(i, 0))
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        settle()
        m = win.findings.moment(i)
        out["clicks"].append({"rule": f.rule, "moment": str(m)[:100], "before": before,
                              "after": win.player.current_time,
                              "label": win.player.position_label.text(),
                              "in_footage": win.player.in_footage})
    win.grab().save(str(outd / f"real-click-finding-{w}x{h}.png"))
    # a Reject typed as a moderator does: reason `other`, a note, the Reject button
    panel = win.decision_panel
    panel.reason.setCurrentIndex(panel.reason.findData("other"))
    panel.note.setFocus()
    QTest.keyClicks(panel.note, NOTE)
    QTest.mouseClick(panel.reject_button, Qt.MouseButton.LeftButton)
    settle()
    win.grab().save(str(outd / f"real-reject-{w}x{h}.png"))
    with Ledger(outd / "gui.sqlite3", create=False) as led:
        gui_rec = [d.record.to_dict() for d in led.list()][-1]
    off = win.session.offset_s
    cli_store = outd / "cli-reject.sqlite3"
    cli_store.unlink(missing_ok=True)
    d = subprocess.run([str(REPO / ".venv/bin/moderator-app"), "decide", sys.argv[1], "--reject",
                        "--reason", "other", "--note", NOTE, "--reviewer", "qa", "--offset",
                        str(off), "--store", str(cli_store)], capture_output=True, text=True)
    with Ledger(cli_store, create=False) as led:
        cli_rec = [x.record.to_dict() for x in led.list()][-1]
    diff = {k: (gui_rec.get(k), cli_rec.get(k)) for k in set(gui_rec) | set(cli_rec)
            if k != "decided_at" and gui_rec.get(k) != cli_rec.get(k)}
    out.update(offset=off, decide_exit=d.returncode,
               gui_decision=gui_rec.get("decision"), gui_reason=gui_rec.get("reason"),
               note_cleared=panel.note.toPlainText() == "", record_diff=diff,
               records_equal=not diff)
    print(json.dumps({"real_input": out}), flush=True)


def walk(app, win, outd: Path, w: int, h: int) -> None:
    _walk(app, win, outd, w, h)
    real_input(app, win, outd, w, h)


s10.OFFSETS = offsets
s10.walk = walk



def open_one(path: str) -> None:
    """`hostile` mode, one input: open it in the window (offscreen), wait for the verification
    to end (a 90 s hang guard), let the player and the scan run 5 s more, print what the
    window says. Run by `hostile_all` in a process of its own (a crash is a row, not the end)."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from moderator_app.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    outd = Path(path).parent / "gui-tmp"
    outd.mkdir(exist_ok=True)
    win = MainWindow(settings=QSettings(str(outd / "s.ini"), QSettings.Format.IniFormat),
                     store_path=outd / "gui.sqlite3")
    win.resize(1280, 720)
    win.show()
    win.open_paths([Path(path)])
    t0 = time.monotonic()
    s10.wait(app, lambda: not win.is_verifying(), 90)
    t_verified = time.monotonic() - t0
    end = time.monotonic() + 5
    while time.monotonic() < end:  # the player and the background scan get 5 s
        app.processEvents()
        time.sleep(0.02)
    print(json.dumps({"input": Path(path).name, "verified_after_s": round(t_verified, 2),
                      "status": win.status_label.text()[:200],
                      "findings": win.findings.summary.text()[:200],
                      "player": win.player.position_label.text()[:100]}), flush=True)
    win.shutdown()


def hostile_all(root: str) -> None:
    import os

    names = ["h01.zip", "h02.zip", "h03.tar.gz", "h04", "h05", "h06", "h07", "h09", "h10", "h11"]
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    for n in names:
        tfile = Path(root) / "gui-time.txt"
        r = subprocess.run(["timeout", "120", "/usr/bin/time", "-o", str(tfile), "-f", "%e %M",
                            sys.executable, __file__, "open-one", str(Path(root) / n)],
                           capture_output=True, text=True, env=env)
        t = tfile.read_text().split() if tfile.exists() else []
        print(json.dumps({"input": n, "exit": r.returncode, "wall_s": t[-2:-1],
                          "max_rss_kb": t[-1:], "traceback": "Traceback" in r.stderr,
                          "out": r.stdout.strip()[-600:], "err": r.stderr.strip()[-300:]}),
              flush=True)


def shown_frames(folder: str, offset: float = 1.5) -> None:
    """`frames` mode (issue 12, the player's own path): each event of a video_corpus submission
    selected in a shuffled order (seeks back and forth, as a moderator does), the picture the
    player shows read back (its frame code) against ffmpeg's own decode at offset + elapsed;
    an event past the footage must show the no-footage state. Offscreen."""
    import random
    from bisect import bisect_right

    import numpy as np
    import qa_session10 as q10
    import video_corpus as vc
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from moderator_app.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    root = Path(folder)
    video = next(root.glob("run.*"))
    codes, times = q10.truth_codes(video)
    step = (times[-1] - times[0]) / max(1, len(times) - 1)
    src_w, src_h = q10._dims(video)
    log = [json.loads(x) for x in (root / "agent-log.jsonl").read_bytes().splitlines()]
    outd = root / "gui-tmp"
    outd.mkdir(exist_ok=True)
    win = MainWindow(settings=QSettings(str(outd / "s.ini"), QSettings.Format.IniFormat),
                     store_path=outd / "gui.sqlite3")
    win.resize(1280, 720)
    win.show()
    win.open_paths([root])
    s10.wait(app, lambda: win.session.result is not None)
    s10.wait(app, lambda: win.player.has_video and win.player.times.complete
             and win.player.shown_frame >= 0)
    win.sync.spin.setValue(offset)
    s10.wait(app, lambda: win.session.report.offset == offset)
    order = list(range(len(log)))
    random.Random(12).shuffle(order)
    bad, rows, sample = [], 0, []
    for i in order:
        t = offset + log[i]["elapsedMs"] / 1000
        want = codes[bisect_right(times, t + 1e-6) - 1] if t < times[-1] + step else None
        win.select_event(win.session.result.index.row_for_line(i + 1))
        if want is None:
            s10.wait(app, lambda: not win.player.in_footage, 30)
            got = None if win.player.view.image is None else "an image"
        else:
            s10.wait(app, lambda: win.player.shown_frame == win.player.current_frame
                     and win.player.view.image is not None
                     and not win.player.view.approximate and not win.player.view.pending, 30)
            img = win.player.view.image.convertToFormat(win.player.view.image.Format.Format_RGB888)
            arr = np.frombuffer(img.constBits(), np.uint8).reshape(
                img.height(), img.bytesPerLine())[:, :img.width() * 3].reshape(
                img.height(), img.width(), 3)
            # frames come scaled to the view: the coded 320x240 corner, scaled alike
            sh, sw = arr.shape[0] / src_h, arr.shape[1] / src_w
            got = vc.read_code(arr[:round(vc.H * sh), :round(vc.W * sw)])
        rows += 1
        if len(sample) < 4:
            sample.append((i + 1, want, got))
        if got != want:
            bad.append({"line": i + 1, "t": round(t, 4), "want": want, "got": got,
                        "label": win.player.position_label.text()})
    print(json.dumps({"folder": root.name, "events": rows, "sample_line_want_got": sample,
                      "with_footage": sum(offset + e["elapsedMs"] / 1000 < times[-1] + step
                                          for e in log), "errors": bad[:10],
                      "n_errors": len(bad)}), flush=True)
    win.shutdown()


if __name__ == "__main__":
    if sys.argv[1] == "open-one":
        open_one(sys.argv[2])
    elif sys.argv[1] == "frames":
        sys.path[:0] = [str(REPO / "tests")]
        for f in sys.argv[2:]:
            shown_frames(f)
    elif sys.argv[1] == "hostile":
        hostile_all(sys.argv[2])
    else:
        s10.main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
