"""Work around a reference-count bug of PySide6 6.12.0 on Python < 3.12.

Measured here: with PySide6-Essentials 6.12.0 on CPython 3.11, every call of a Qt method that
returns void (`QLabel.setText`, `QWidget.hide`, ...) drops one reference to `None`, and some
drop one to `True`/`False`. After a few thousand such calls the interpreter aborts with
"Fatal Python error: none_dealloc" - during playback that is within a minute. Python 3.12 made
these objects immortal (PEP 683), which is why the bug does not show there.

The fix gives the three singletons a huge reference count once, which is what "immortal" means
in 3.12: they can then never reach zero (2**40 lost references at 10,000 per second is over
three years). It is applied only to the affected combination, and it is idempotent.
"""

from __future__ import annotations

import ctypes
import sys

BOOST = 1 << 40
_applied = False


def needs_fix() -> bool:
    if sys.version_info >= (3, 12):
        return False
    try:
        import PySide6
    except ImportError:
        return False
    return PySide6.__version__.startswith("6.12.")


def apply() -> bool:
    """Make None/True/False effectively immortal on affected versions; True if applied."""
    global _applied
    if _applied or not needs_fix():
        return _applied
    for obj in (None, True, False):
        ctypes.c_ssize_t.from_address(id(obj)).value += BOOST
    _applied = True
    return True
