"""Session 29's speed runs off the whole percents and off the corpus' recorders (issue 13:
QA holds out speeds such as +3.7 % and -2.5 %, and recorders at other frame rates): corpus
kinds `speed37` (+3.7 %) and `slow25` (-2.5 %) on games whose whole-percent speed runs read
their drift, each through a recorder of another rate, built into the corpus cache and read
as `scripts/speed_runs.py` reads a run (at `--offset auto` and at the true offset).

    PYTHONPATH=. .venv/bin/python scripts/speed_offgrid_s29.py OUT.jsonl [SUBSTR...]

Nothing here is imported by the app or the tests.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "scripts"), str(REPO / "tests")]
import autosync_sweep as sw  # noqa: E402
import corpus  # noqa: E402
import speed_runs as sr  # noqa: E402

RUNS = ["breakout-speed37@r50", "pong-slow25@r30", "pitfall-speed37@webm",
        "boxing-slow25@r48mkv", "freeway-speed37@r30", "tennis-slow25@r50",
        "kangaroo-speed37@r48mkv", "frostbite-slow25@r30", "space_invaders-speed37@r50",
        "ms_pacman-slow25@r50", "asteroids-speed37", "skiing-speed37@r30",
        "breakout-slow25@r25drop", "pong-speed37",
        "kangaroo-slow25@r30", "frostbite-speed37@r48mkv", "space_invaders-slow25@r30",
        "tennis-speed37@r30", "boxing-speed37@r50", "pitfall-slow25@r50", "skiing-slow25@r50",
        "freeway-slow25@r48mkv", "asteroids-slow25@r30", "pong-speed37@r48mkv",
        "breakout-speed37@webm", "ms_pacman-speed37@r30"]


def main() -> None:
    out_path, only = sys.argv[1], sys.argv[2:]
    with open(out_path, "w") as out:
        for name in RUNS:
            if only and not any(s in name for s in only):
                continue
            t0 = time.time()
            d = corpus.build(name).folder
            built = round(time.time() - t0, 1)
            truth = json.loads((d / "truth.json").read_text())
            t0 = time.process_time()
            r = sw.read_run(d)
            a = sr.at_truth(d)
            row = {"run": name, "pct": truth["tamper"]["percent"], "fps": truth["fps"],
                   "auto_drift": [f[2] for f in r["findings"] if f[0] == "sync.drift"],
                   "auto_sugg": r["suggested"], "auto_err": r["err_frames"],
                   "auto_conf": r["confidence"], "auto_verdict": r["verdict"],
                   "reason": r["reason"],
                   "truth_drift": [(f.video_start_s, f.video_end_s, f.percent)
                                   for f in a.findings if f.rule == "sync.drift"],
                   "build_s": built, "cpu_s": round(time.process_time() - t0, 2)}
            print(json.dumps(row), flush=True)
            out.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
