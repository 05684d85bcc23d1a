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


# `moderator-app` as its console script runs it (the same argv[0], so the same start), and at
# the end the main process's own CPU (getrusage SELF: start-up, decompression, the file's
# digest, the glue; not a forked worker's nor the video process's), written to the file named
# by MAIN_CPU_FILE. On two free cores verify's wall follows this process (its worker or its
# video process runs beside it), so the main process's CPU over the floor's is what the wall
# ratio tends to on a quiet machine. `import re` as the console script does. The note is
# written by an exit handler, registered first so it runs last: `main()` with no argument
# ends `verify` as the console script does, by its exit handlers and `os._exit` (no teardown).
MAIN_CPU_WRAPPER = """
import atexit, os, re, sys
sys.argv[0] = os.path.join(os.path.dirname(sys.executable), "moderator-app")
def _note():
    import resource
    me = resource.getrusage(resource.RUSAGE_SELF)
    with open(os.environ["MAIN_CPU_FILE"], "w") as fh:
        fh.write(repr(me.ru_utime + me.ru_stime))
atexit.register(_note)
from moderator_app.__main__ import main
sys.exit(main())
"""


def timed_verify(args: list[str], env: dict | None = None
                 ) -> tuple[float, float, int, bytes, float, float]:
    """`timed` of `moderator-app ARGS` (its whole process tree), and the main process's own
    CPU seconds (NaN if it wrote none)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        note = Path(tmp) / "main-cpu"
        t, rss, rc, out, cpu = timed([sys.executable, "-c", MAIN_CPU_WRAPPER, *args],
                                     {**(env or {}), "MAIN_CPU_FILE": str(note)})
        main_cpu = float(note.read_text()) if note.exists() else float("nan")
    return t, rss, rc, out, cpu, main_cpu


def compile_tree() -> None:
    """An installed package has its bytecode compiled; an editable tree may not (and with
    PYTHONDONTWRITEBYTECODE never will): compile it, as an install does, before timing."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "moderator_app")],
                   stdout=subprocess.DEVNULL, check=False)
