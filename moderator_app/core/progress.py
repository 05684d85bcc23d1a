"""Progress reporting and cancellation for long verifications, without Qt.

The GUI passes a callback that emits a Qt signal from its worker thread; the CLI passes none.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable

from moderator_app.core.errors import Cancelled

# progress(done, total): bytes read so far and the total (0 when unknown).
ProgressFn = Callable[[int, int], None]


class CancelToken:
    """A flag set from the GUI thread and polled by the worker between chunks. Work that
    waits on something it cannot poll (a decoding process that answers every 256 frames)
    registers a hook (`when_cancelled`) that ends the wait at once."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._hooks: list[Callable[[], None]] = []

    def cancel(self) -> None:
        with self._lock:
            self._event.set()
            hooks, self._hooks = self._hooks, []
        for hook in hooks:
            hook()

    def when_cancelled(self, hook: Callable[[], None]) -> Callable[[], None]:
        """Call `hook` (on the cancelling thread) when cancelled, at once if already; returns
        the function that unregisters it (call it when the wait is over)."""
        with self._lock:
            if not self._event.is_set():
                self._hooks.append(hook)
                return lambda: self._forget(hook)
        hook()
        return lambda: None

    def _forget(self, hook: Callable[[], None]) -> None:
        with self._lock, contextlib.suppress(ValueError):
            self._hooks.remove(hook)

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def check(self) -> None:
        if self._event.is_set():
            raise Cancelled()
