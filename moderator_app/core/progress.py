"""Progress reporting and cancellation for long verifications, without Qt.

The GUI passes a callback that emits a Qt signal from its worker thread; the CLI passes none.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from moderator_app.core.errors import Cancelled

# progress(done, total): bytes read so far and the total (0 when unknown).
ProgressFn = Callable[[int, int], None]


class CancelToken:
    """A flag set from the GUI thread and polled by the worker between chunks."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def check(self) -> None:
        if self._event.is_set():
            raise Cancelled()
