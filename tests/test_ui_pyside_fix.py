"""The PySide6 6.12.0 / Python 3.11 None-refcount workaround keeps a long session alive."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import os
os.environ["QT_QPA_PLATFORM"] = "offscreen"
import moderator_app.ui  # applies the workaround
from PySide6.QtWidgets import QApplication, QLabel
app = QApplication([])
label = QLabel()
for i in range(200_000):  # far more void calls than None has references without the fix
    label.setText("x")
    label.setEnabled(True)
print("alive")
"""


def test_many_void_calls_do_not_abort_the_interpreter():
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "alive"
