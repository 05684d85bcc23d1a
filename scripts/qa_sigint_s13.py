"""Session 13: SIGINT at varied delays after a `moderator-app` start; count tracebacks.

    .venv/bin/python scripts/qa_sigint_s13.py [--tree DIR] [--runs N] [--max-delay S]

Each run starts the console script (`.venv/bin/moderator-app verify SAMPLE`) and
`python -m moderator_app verify SAMPLE`, sends SIGINT after a delay (N delays evenly spaced
in 0..max), and sorts the outcome: a KeyboardInterrupt traceback (Python's default, before
our code could hold the signal), exit 130 ("interrupted", our handling), killed by the
signal with no output (-2: before Python installed its handler), finished (0/1).
`--tree DIR` puts another tree first on PYTHONPATH (a `git archive main` copy) so both are
measured side by side under the same load. Not a test: a QA tool (docs/qa/session13-hostile.md).
"""

from __future__ import annotations

import argparse
import collections
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "resources" / "samples" / "community-sample"


def one(cmd: list[str], env: dict, delay: float) -> str:
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            cwd="/")  # not the repo: `-m` puts the cwd before PYTHONPATH
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    if b"Traceback" in err:
        return "traceback"
    if proc.returncode == 130:
        return "130"
    if proc.returncode == -signal.SIGINT:
        return "-2 silent" if not err else "-2 with output"
    return f"rc {proc.returncode}"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tree", action="append", default=[])
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--max-delay", type=float, default=0.2)
    args = ap.parse_args()
    trees = [("branch", None)] + [(t, t) for t in args.tree]
    bindir = Path(sys.executable).parent
    # pip's console script starts with `import re` (~35 % of the window before our code):
    # the same script without it shows what a hand-written launcher would gain.
    no_re = Path(os.environ.get("TMPDIR", "/tmp")) / "qa-sigint-no-re" / "moderator-app"
    no_re.parent.mkdir(exist_ok=True)
    no_re.write_text(f"#!{sys.executable}\nimport sys\nfrom moderator_app.__main__ import main\n"
                     "if __name__ == '__main__':\n    sys.exit(main())\n")
    no_re.chmod(0o755)
    entries = {"console script": [str(bindir / "moderator-app"), "verify", str(SAMPLE)],
               "python -m": [sys.executable, "-m", "moderator_app", "verify", str(SAMPLE)],
               "script, no re": [str(no_re), "verify", str(SAMPLE)]}
    results: dict = collections.defaultdict(collections.Counter)
    for i in range(args.runs):  # interleaved: the same load for every tree and entry
        delay = args.max_delay * i / max(1, args.runs - 1)
        for name, tree in trees:
            env = dict(os.environ)
            if tree:
                env["PYTHONPATH"] = tree
            for entry, cmd in entries.items():
                results[(name, entry)][one(cmd, env, delay)] += 1
    os.system("uptime")
    for (name, entry), counts in results.items():
        print(f"{name:>20} | {entry:<15} | " + ", ".join(f"{k}: {v}" for k, v in
                                                        sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
