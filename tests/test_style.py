"""ruff is part of the suite: `make test` fails on a lint error."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from conftest import REPO


def test_ruff_clean():
    ruff = Path(sys.executable).with_name("ruff")
    exe = str(ruff) if ruff.exists() else shutil.which("ruff")
    assert exe, "ruff is a test dependency (pyproject [test] extra)"
    proc = subprocess.run([exe, "check", "--quiet", "."], cwd=REPO, capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
