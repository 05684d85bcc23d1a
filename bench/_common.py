"""What the benches share: timing a whole subprocess with its peak RSS, and compiling the tree
before timing it (one way to do each; bench/run.py runs only bench_*.py, not this module)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXE = ROOT / ".venv" / "bin" / "moderator-app"


def timed(cmd: list[str], env: dict | None = None) -> tuple[float, float, int, bytes, float]:
    """(seconds, peak RSS MiB, exit code, stdout, CPU seconds) of a subprocess, RSS and CPU
    from wait4 (CPU: the children it waited for too, such as a worker)."""
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env=None if env is None else {**os.environ, **env})
    assert proc.stdout is not None
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return (time.perf_counter() - t, usage.ru_maxrss / 1024, proc.returncode, out,
            usage.ru_utime + usage.ru_stime)


def compile_tree() -> None:
    """An installed package has its bytecode compiled; an editable tree may not (and with
    PYTHONDONTWRITEBYTECODE never will): compile it, as an install does, before timing."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "moderator_app")],
                   stdout=subprocess.DEVNULL, check=False)
