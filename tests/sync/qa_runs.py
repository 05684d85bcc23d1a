"""A QA pass's held-out sync run, built by its generator in the repository, for tests.

The generator runs in a process of its own, never imported: QA's generators set the corpus
package's slowdown and speed-ups for their own runs (qa_session14's `SLOW25`), which would
build this test process' later corpus runs (`breakout-slow`) with QA's -5 % instead of the
corpus' -2.91 %. The run is deterministic (QA's fixed seeds, one encoder thread) and lands in
QA's cache folder (`.cache/qa-s<N>`), so a clean clone builds it once.

Its scan is shared the same way (`share_scans`): each test verified a run with a scan cache of
its own (`tmp_path`), so a run that five tests verify, or one test at two offsets, was decoded
five times in a clean clone's CI (session 42: the glider run, 34 CPU-s a verify with its scan,
12 s without).
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path

import cachelock
import corpus
import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


@functools.cache
def qa_run(session: int, name: str) -> Path:
    """The folder of QA session `session`'s run `name` (`scripts/qa_session<N>.py sync-build`).
    Asked once a test process: the generator's process costs 0.4-0.7 CPU-s (2-4 s on a busy
    machine) to find a run built already."""
    pytest.importorskip("ale_py")
    with cachelock.qa_builds():  # one generator at a time across the suite's workers
        out = subprocess.run([sys.executable, str(SCRIPTS / f"qa_session{session}.py"),
                              "sync-build", name], capture_output=True, text=True,
                             check=True).stdout
    rows = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    return Path(next(r["folder"] for r in rows if r.get("run") == name))


def share_scans(monkeypatch) -> None:
    """Verify with the scan cache the corpus' tests share (`corpus.cache_dir()/scan-cache`,
    by each video's SHA-256 and `scan_cache.CACHE_VERSION`) rather than one of the test's
    own: the first test to verify a QA run decodes it, the others read its signals. What the
    tests assert (the findings, their spans, the offsets) is the scan's and the sync's
    reading of those signals, the same cached or not; a scan change that keeps the cache
    version is read afresh by the clean clone's CI, which has no cache."""
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))
