"""Fixtures for the workstation tests: real files, real videos, a real EventIndex.

Videos encode their frame number in their pixels (10 black/white blocks = the bits of n), so a
test can tell from the picture on screen exactly which frame is shown.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import orjson

from moderator_app.core.formats.event_index import EventIndex

BITS = 10
BLOCK = 16

#: How long a test waits for something that only takes time (a frame decoded, a process
#: started, a verification done): a guard against a hang, never a bound on speed. A wait
#: ends as soon as its condition holds, so a generous guard costs a passing test nothing;
#: under load 10-20 a decoder process's start alone took several seconds, so 5 s guards
#: failed tests that were right (CI runs on a noisy machine).
WAIT_MS = 60_000


def make_numbered_video(path: Path, n_frames: int = 30, fps: float = 10.0,
                        fourcc: str = "MJPG") -> Path:
    """Frame n shows the bits of n as BITS blocks (white = 1), readable after lossy coding."""
    assert n_frames < 2 ** BITS
    w, h = BITS * BLOCK, BLOCK * 2
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*fourcc), fps, (w, h))
    assert writer.isOpened()
    for i in range(n_frames):
        img = np.zeros((h, w, 3), np.uint8)
        for b in range(BITS):
            if i >> b & 1:
                img[:, b * BLOCK:(b + 1) * BLOCK] = 255
        writer.write(img)
    writer.release()
    return path


def frame_number(img: np.ndarray) -> int:
    """Read the number back from a decoded frame (any scale: blocks are fractions of width)."""
    h, w = img.shape[:2]
    n = 0
    for b in range(BITS):
        x0, x1 = int((b + 0.25) * w / BITS), int((b + 0.75) * w / BITS)
        if img[h // 4: 3 * h // 4, x0:x1].mean() > 128:
            n |= 1 << b
    return n


def qimage_array(image) -> np.ndarray:
    """A QImage (any format) as an (h, w, 3) uint8 array."""
    from PySide6.QtGui import QImage

    img = image.convertToFormat(QImage.Format.Format_RGB888)
    ptr = img.constBits()
    arr = np.frombuffer(ptr, np.uint8, img.bytesPerLine() * img.height())
    return arr.reshape(img.height(), img.bytesPerLine())[:, : img.width() * 3].reshape(
        img.height(), img.width(), 3).copy()


def make_index(tmp: Path, events: list[dict], lane_key: str = "type",
               name: str = "events.jsonl") -> EventIndex:
    """Write `events` as JSON lines and index them as a verifier would (`t` in seconds)."""
    src = tmp / name
    index = EventIndex(src)
    with open(src, "wb") as fh:
        for i, ev in enumerate(events):
            raw = orjson.dumps(ev)
            offset = fh.tell()
            fh.write(raw + b"\n")
            index.add(offset, len(raw), i + 1, ev.get("t"), str(ev.get(lane_key, "?")),
                      str(ev.get("type", "?")))
    return index


def make_big_index(tmp: Path, n: int, lanes: tuple[str, ...] = ("model_request",
                   "model_response", "action", "observation")) -> EventIndex:
    """A large index quickly (lines are short; the GUI only reads visible ones)."""
    src = tmp / "big.jsonl"
    index = EventIndex(src)
    lines = []
    offset = 0
    for i in range(n):
        raw = b'{"seq":%d,"type":"%s"}' % (i, lanes[i % len(lanes)].encode())
        lines.append(raw)
        index.add(offset, len(raw), i + 1, i * 0.01, lanes[i % len(lanes)],
                  lanes[i % len(lanes)])
        offset += len(raw) + 1
    src.write_bytes(b"\n".join(lines) + b"\n")
    return index


def wait_idle(qtbot, window, timeout: int = WAIT_MS) -> None:
    """Waits until the main window has no background work left (`MainWindow.busy() == ()`):
    verification, integrity scan, sync analysis (also one due again after an offset move), a
    search, the queue's listing, a frame asked for. Each changes the screen when it ends, so a
    test waits for them before it acts and asserts, and leaves its window idle (checked by
    `make test-lag`, tests/conftest.py); never a fixed number of `processEvents`."""
    qtbot.waitUntil(lambda: window.busy() == (), timeout=timeout)


def ini_settings(folder: Path):
    """The workstation's settings in a file of the test's own (never the user's)."""
    from PySide6.QtCore import QSettings
    return QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)


def shown_main_window(qtbot, settings, size: tuple[int, int] | None = (1400, 900),
                      store_path: Path | None = None):
    """A shown MainWindow owned by qtbot, with no ledger unless `store_path` names one; the
    caller calls `shutdown()`."""
    from moderator_app.ui.main_window import MainWindow
    w = MainWindow(settings=settings, store_path=store_path)
    qtbot.addWidget(w)
    if size is not None:
        w.resize(*size)
    w.show()
    return w


def window_1280x720(qtbot, tmp_path: Path):
    """A shown 1280x720 MainWindow with its own settings and ledger under `tmp_path`, shut
    down after the test (a generator for a fixture: `yield from window_1280x720(...)`)."""
    w = shown_main_window(qtbot, ini_settings(tmp_path), size=(1280, 720),
                          store_path=tmp_path / "gui.sqlite3")
    yield w
    w.shutdown()


def tooltip_shown(tip: str) -> str:
    """The text Qt shows for a tooltip: rendered when Qt takes it for rich text (as it does
    for any tooltip whose first line holds a tag), as it is otherwise."""
    from PySide6.QtGui import Qt, QTextDocument

    if not Qt.mightBeRichText(tip):
        return tip
    doc = QTextDocument()
    doc.setHtml(tip)
    return doc.toPlainText()
