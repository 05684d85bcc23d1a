"""Long work off the GUI thread: verification with progress and cancel.

The worker is a QObject moved to a QThread; the core verifier knows nothing of Qt and reports
through a plain callback, which this module turns into a throttled Qt signal (queued to the GUI
thread), and cancels through `CancelToken`.
"""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from moderator_app.core.errors import Cancelled, InputError
from moderator_app.core.progress import CancelToken
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths


class VerifyWorker(QObject):
    """Runs `verify_paths` once. Emits `progress(done, total)`, then exactly one of
    `finished(result)`, `failed(message)` or `cancelled()`."""

    progress = Signal(int, int)
    finished = Signal(object)
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, paths: list[Path], options: VerifyOptions) -> None:
        super().__init__()
        self.paths = paths
        self.options = options
        self.token = CancelToken()
        self._last_emit = 0.0

    def _progress(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self._last_emit >= 0.05 or (total and done >= total):
            self._last_emit = now
            self.progress.emit(int(min(done, 2**31 - 1)), int(min(total, 2**31 - 1)))

    @Slot()
    def run(self) -> None:
        try:
            result = verify_paths(self.paths, self.options, self._progress, self.token)
        except Cancelled:
            self.cancelled.emit()
        except InputError as exc:
            self.failed.emit(str(exc))
        except Exception as exc:  # noqa: BLE001 - untrusted input must never crash the GUI
            self.failed.emit(f"{type(exc).__name__}: {exc}")
        else:
            if self.token.cancelled:
                self.cancelled.emit()
            else:
                self.finished.emit(result)

    def cancel(self) -> None:
        self.token.cancel()


def start_in_thread(worker: QObject, parent: QObject | None = None) -> QThread:
    """Move `worker` to a new thread, call its `run` when the thread starts, and stop the
    thread when the worker reports an outcome. The caller keeps both references."""
    thread = QThread(parent)
    worker.moveToThread(thread)
    thread.started.connect(worker.run)
    for name in ("finished", "failed", "cancelled"):
        sig = getattr(worker, name, None)
        if sig is not None:
            # Direct: quit from the worker thread itself, so that a GUI thread blocked in
            # thread.wait() is not waiting for a queued quit it can never deliver.
            sig.connect(thread.quit, Qt.ConnectionType.DirectConnection)
    thread.start()
    return thread
