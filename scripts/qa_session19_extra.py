"""Session 19 QA, a held-out extra (docs/qa/session19.md): Beam Rider pause / genuine2 / +4 %
at the corpus' own 60 fps x264 recorder (2.2 s lead-in), built after the 120 fps and 23.976 fps
fixes landed, judged by session 15's strict judge.

    .venv/bin/python scripts/qa_session19_extra.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import qa_session19 as q  # noqa: E402

q.RECORDERS["r60mp4"] = {"fps": 60, "scale": 2, "lead_s": 2.2}

if __name__ == "__main__":
    for name in ("beam_rider-pause@r60mp4", "beam_rider-genuine2@r60mp4",
                 "beam_rider-speed4@r60mp4"):
        q.build_sync_run(name)
        r = q.check_sync(name)
        a = r["auto"]
        print(json.dumps({"run": name, "met": r["met"], "sugg": a.get("suggested_offset_s"),
                          "conf": a.get("confidence"), "truth": r["truth_offset_s"],
                          "why": r["why"][:200]}), flush=True)
