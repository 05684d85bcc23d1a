"""Issue 11 QA of session 11 (docs/qa/session11.md): session 10's GUI check
(scripts/qa_gui_s10.py: the workstation's verdict, findings and recorded decision at three
offsets against `verify --offset --json` and `decide --offset`, then the loop walked at the
window's size) on a game new to every corpus (Q*bert) and at offsets no pass used: the run
starting 8.1 s BEFORE the video (its start not covered: fail), inside the footage, and its end
3.7 s past the video's (partial, within the 5 s tolerance). Run on a display:

    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python scripts/qa_gui_s11.py RUN OUT_DIR W H
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import qa_gui_s10 as s10  # noqa: E402


def offsets(truth: dict) -> tuple[float, ...]:
    o = round(truth["offset_s"], 3)
    return (round(o - 10.1, 3), round(o - 1.7, 3), round(o + 3.7, 3))


s10.OFFSETS = offsets

if __name__ == "__main__":
    s10.main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
