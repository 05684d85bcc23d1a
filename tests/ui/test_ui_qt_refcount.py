"""Guard against the PySide6 6.12.0 / CPython < 3.12 reference-count bug.

That release drops one reference to None (and sometimes True/False) on every Qt method call
that returns void; after a few thousand calls the interpreter aborts with
"Fatal Python error: none_dealloc" - within a minute of playback. pyproject pins below 6.12;
this test fails on any installed PySide6 that has the bug, so an upgrade cannot bring it back.
"""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import os, sys
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from PySide6.QtWidgets import QApplication, QLabel
app = QApplication([])
label = QLabel()
before = sys.getrefcount(None)
for i in range(100_000):  # far more void calls than None has references
    label.setText("x")
    label.setEnabled(True)
    label.hide()
print("alive", sys.getrefcount(None) - before)
"""


def test_void_qt_calls_do_not_leak_references_to_none():
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    word, delta = out.stdout.split()
    assert word == "alive"
    assert abs(int(delta)) < 100  # a leaking build loses 300,000 references here
