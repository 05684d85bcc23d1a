"""One helper for work off the GUI thread: worker, thread, progress, cancel, "newest wins".

The window has two kinds of background work, loading a submission (seconds to minutes, with
progress and cancel) and searching a large log (a scan of the raw bytes). Both have the same
lifecycle, so both go through `BackgroundOp` (the pattern of Anki's `QueryOp` and Picard's
`run_task`): `run(fn, on_done)` starts `fn(progress, cancel)` on its own thread; a newer `run`
cancels the older one, and whatever an older run hands back is never shown (it is given to
`discard`, e.g. to close a file it opened). The callbacks run on the GUI thread, delivered
through a queued Qt signal, and never for a superseded run.

The core knows nothing of Qt: `fn` reports through a plain callback and checks a
`CancelToken`, exactly like `verify_paths`. Every run's thread lowers its own priority
(`core/priority.py`): what the moderator watches (the player's decoder, painting) comes first.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, Signal

from moderator_app.core.errors import Cancelled, InputError
from moderator_app.core.priority import lower_this_thread
from moderator_app.core.progress import CancelToken

Work = Callable[[Callable[[int, int], None], CancelToken], Any]
PROGRESS_EVERY_S = 0.05  # at most 20 progress signals a second reach the GUI thread


@dataclass(frozen=True)
class _Run:
    generation: int
    on_done: Callable[[Any], None]
    on_failed: Callable[[str], None] | None
    on_cancelled: Callable[[], None] | None
    discard: Callable[[Any], None] | None


class BackgroundOp(QObject):
    """One lane of background work. At most one run is current; `busy` says whether it is
    still working. Signals are for the current run only."""

    progress = Signal(int, int)  # done, total (total 0: unknown)
    busy_changed = Signal(bool)
    _outcome = Signal(int, str, object)  # generation, "done"|"failed"|"cancelled", payload
    _progress = Signal(int, int, int)  # generation, done, total

    def __init__(self, name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self._generation = 0
        self._runs: dict[int, _Run] = {}
        self._token: CancelToken | None = None
        self._superseded: set[int] = set()
        self._thread: threading.Thread | None = None
        self._outcome.connect(self._deliver)
        self._progress.connect(self._relay_progress)

    @property
    def busy(self) -> bool:
        """True from `run` until its outcome has been delivered on the GUI thread (not merely
        until the thread ends: a result on its way is still work in progress)."""
        return self._generation in self._runs

    @property
    def in_flight(self) -> int:
        """Runs whose outcome has not been delivered yet, superseded ones included: 0 once
        every thread this lane started has handed its result over (`MainWindow.busy`; a
        superseded run's result is discarded, but its thread still holds what it opened)."""
        return len(self._runs)

    @property
    def generation(self) -> int:
        return self._generation

    def run(self, fn: Work, on_done: Callable[[Any], None],
            on_failed: Callable[[str], None] | None = None,
            on_cancelled: Callable[[], None] | None = None,
            discard: Callable[[Any], None] | None = None) -> int:
        """Start `fn(progress, cancel)`; the newest run wins. Returns its generation."""
        self.drop()  # the older run is superseded: cancelled, never shown
        self._generation += 1
        gen = self._generation
        self._runs[gen] = _Run(gen, on_done, on_failed, on_cancelled, discard)
        token = self._token = CancelToken()
        last = [0.0]

        def progress(done: int, total: int) -> None:
            now = time.monotonic()
            if now - last[0] >= PROGRESS_EVERY_S or (total and done >= total):
                last[0] = now
                self._progress.emit(gen, int(min(done, 2**31 - 1)), int(min(total, 2**31 - 1)))

        def work() -> None:
            # Background work never starves playback: this thread (and what it starts, e.g.
            # the sync analysis's decoder threads, the queue's workers) at low priority.
            lower_this_thread()
            try:
                value = fn(progress, token)
            except Cancelled:
                outcome = (gen, "cancelled", None)
            except InputError as exc:
                outcome = (gen, "failed", str(exc))
            except Exception as exc:  # noqa: BLE001 - untrusted input must never crash the GUI
                outcome = (gen, "failed", f"{type(exc).__name__}: {exc}")
            else:
                outcome = (gen, "cancelled" if token.cancelled else "done", value)
            # The owner may have been deleted meanwhile (the window closed while a review
            # queue was still being listed): nobody to tell, and no traceback on the terminal
            # (seen as "Exception in thread queue-1 … Signal source has been deleted").
            with contextlib.suppress(RuntimeError):
                self._outcome.emit(*outcome)

        self._thread = threading.Thread(target=work, name=f"{self.name}-{gen}", daemon=True)
        self._thread.start()
        self.busy_changed.emit(True)
        return gen

    def drop(self) -> None:
        """Forget the current run: it is cancelled and nothing it returns is shown (a newer
        answer was computed on the GUI thread, e.g. a search of a small log)."""
        if self._token is not None:
            self._token.cancel()
        self._superseded.add(self._generation)

    def cancel(self, wait: bool = False, timeout_s: float = 10.0) -> None:
        """Ask the current run to stop (its `on_cancelled` follows); with `wait`, join its
        thread so that nothing it holds is still open (closing the window, opening another)."""
        if self._token is not None:
            self._token.cancel()
        if wait and self._thread is not None:
            self._thread.join(timeout_s)

    def _current(self, gen: int) -> bool:
        return gen == self._generation and gen not in self._superseded

    def _relay_progress(self, gen: int, done: int, total: int) -> None:
        if self._current(gen):
            self.progress.emit(done, total)

    def _deliver(self, gen: int, kind: str, payload: object) -> None:
        run = self._runs.pop(gen, None)
        current = self._current(gen)
        self._superseded.discard(gen)
        if gen == self._generation:
            self.busy_changed.emit(False)
        if run is None:
            return
        if not current or kind == "cancelled":
            # What a superseded or cancelled run made is never shown, but it may hold files.
            if kind != "failed" and payload is not None and run.discard is not None:
                run.discard(payload)
            if current and run.on_cancelled is not None:
                run.on_cancelled()
            return
        if kind == "done":
            run.on_done(payload)
        elif run.on_failed is not None:
            run.on_failed(str(payload))


