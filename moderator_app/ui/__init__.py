"""The workstation (Qt). Importing this package applies the PySide6 6.12.0 reference-count
workaround first (see pyside_fix), so that every entry point and every test is covered."""

from . import pyside_fix as _pyside_fix

_pyside_fix.apply()
