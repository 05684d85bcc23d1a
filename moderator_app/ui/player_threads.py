"""The player's threads and how they end: the integrity scan in the background (`ScanRunner`)
and `end_thread`, which never lets a QThread be destroyed while it runs.

Seen in session 11: "QThread: Destroyed while thread is still running" from a script that
closed a video during its scan. `unload` asked the scan to stop, waited 10 s for its thread and
dropped it; the scan noticed the request only at the decoding process's next answer (every 256
frames: many seconds of a long 1080p video decoded at low priority on a busy machine) or after
the other decode of the same file it was waiting for (the sync analysis') had ended. Now a stop
ends the decoding process at once and the wait for the other decode too (core/video/scan.py,
`CancelToken.when_cancelled`), and a thread that has still not ended after `END_WAIT_MS` is
kept (no parent, a reference here) until it has, and deleted then: never destroyed running.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QThread, Signal, Slot

from moderator_app.core.priority import BACKGROUND_NICE
from moderator_app.core.video.isolate import VideoProcessError

#: How long closing a video waits for one of its threads before leaving it to end on its own.
#: A stop is answered within milliseconds (the decoding process is killed); what cannot be cut
#: short is hashing the file or analysing its signals, seconds at most.
END_WAIT_MS = 30_000

# Threads asked to end that had not when their owner let go of them, with their workers: kept
# alive here until they finish (then deleted by Qt), so that none is destroyed while running.
_ENDING: set[tuple[QThread, QObject | None]] = set()


def end_thread(thread: QThread, worker: QObject | None = None) -> bool:
    """Ask `thread`'s event loop to end and wait up to END_WAIT_MS; True when it has ended.
    When it has not, it is detached from its parent and kept until it finishes: the caller may
    drop it, and the widget that owned it may be deleted, without destroying a running QThread."""
    thread.quit()
    if thread.wait(END_WAIT_MS):
        return True
    entry = (thread, worker)
    thread.setParent(None)
    _ENDING.add(entry)

    def finished() -> None:
        _ENDING.discard(entry)
        thread.deleteLater()

    thread.finished.connect(finished)
    if thread.isFinished():  # it ended between the wait and the connection
        finished()
    return False


def threads_ending() -> int:
    """How many threads asked to end are still running (after `end_thread` gave up waiting)."""
    return sum(1 for t, _ in _ENDING if t.isRunning())


class ScanWorker(QObject):
    """Runs the integrity scan (core/video/scan.py) once after load, in the isolated process
    at low CPU priority: progress, cancel on unload, the result for the timeline's lane."""

    progress = Signal(int, int)
    done = Signal(object)  # ScanResult, or a str reason when it could not run

    def __init__(self, path: Path, sha256: str | None, total: int) -> None:
        super().__init__()
        self.path, self.sha256, self.total = path, sha256, total
        from moderator_app.core.progress import CancelToken
        self.cancel = CancelToken()

    @Slot()
    def run(self) -> None:
        from moderator_app.core.video.scan import run_scan
        try:
            result: object = run_scan(self.path, sha256=self.sha256, total=self.total,
                                      progress=lambda d, t: self.progress.emit(d, t),
                                      cancel=self.cancel, nice=BACKGROUND_NICE)
        except VideoProcessError as exc:
            result = exc.reason
        except OSError as exc:
            result = f"cannot read the video: {exc.strerror or exc}"
        if not self.cancel.cancelled:
            self.done.emit(result)
        QThread.currentThread().quit()


class ScanRunner(QObject):
    """The player's one background scan at a time: `start` it for a loaded video, `stop` it
    (cancelled, its thread ended) when the video is closed. Progress and the result come as
    signals on the GUI thread, never from a stopped scan."""

    progress = Signal(int, int)  # frames scanned, frames in all
    done = Signal(object)  # ScanResult, or a str reason

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._worker: ScanWorker | None = None
        self._thread: QThread | None = None

    @property
    def running(self) -> bool:
        return self._worker is not None

    def start(self, path: Path, sha256: str | None, total: int) -> None:
        if self._worker is not None:
            return
        worker = self._worker = ScanWorker(path, sha256, total)
        thread = self._thread = QThread(self)
        worker.moveToThread(thread)
        thread.started.connect(worker.run)
        worker.progress.connect(self.progress)
        worker.done.connect(self._done)
        thread.start()

    @Slot(object)
    def _done(self, result: object) -> None:
        if self.sender() is self._worker:  # never a stopped scan's (it emits none anyway)
            self.done.emit(result)

    def stop(self) -> bool:
        """Cancel the scan (its decoding process ends at once) and end its thread; True when
        the thread has ended (else it is kept running until it does: `end_thread`)."""
        worker, thread = self._worker, self._thread
        self._worker = self._thread = None
        if worker is None or thread is None:
            return True
        worker.cancel.cancel()
        return end_thread(thread, worker)
