"""A QA pass's held-out sync run, built by its generator in the repository, for tests.

The generator runs in a process of its own, never imported: QA's generators set the corpus
package's slowdown and speed-ups for their own runs (qa_session14's `SLOW25`), which would
build this test process' later corpus runs (`breakout-slow`) with QA's -5 % instead of the
corpus' -2.91 %. The run is deterministic (QA's fixed seeds, one encoder thread) and lands in
QA's cache folder (`.cache/qa-s<N>`), so a clean clone builds it once.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def qa_run(session: int, name: str) -> Path:
    """The folder of QA session `session`'s run `name` (`scripts/qa_session<N>.py sync-build`)."""
    pytest.importorskip("ale_py")
    out = subprocess.run([sys.executable, str(SCRIPTS / f"qa_session{session}.py"),
                          "sync-build", name], capture_output=True, text=True, check=True).stdout
    rows = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    return Path(next(r["folder"] for r in rows if r.get("run") == name))
