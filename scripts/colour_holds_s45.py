"""Session 45's measure of issue 12 (review s44 R1, QA s44 T3 / T2): what the scan says of a
held picture under a global colour change (a dip, fade, tint, grade), and what two candidate
picture-only rules would say of it. No product change; nothing here is imported by the app or
the tests.

    PYTHONPATH=. .venv/bin/python scripts/colour_holds_s45.py FOLDER...

Per folder (truth.json and video.*, as the QA passes and the reviewer's edits keep them), with
the scans cached (MODERATOR_APP_CACHE):
- `raw`: the scan's `video.frozen` spans from its signals (`run_scan(finer=False)`), `w` a
  warning, `i` a note; `fin`: the same after the full-resolution pass (`held_finer.finer`);
- per drift note (`held_colour.drift_note`: still but for a brightness drift) the stretch read
  again at full resolution (`held_finer.spans_rows`): the frames where the picture changes
  (`held_finer.changes`), whether it lives (`held_finer.lives`), the frames whose colours turn
  (`held_colour.turns`, None: not comparable, e.g. RGB or palette pixels), and the verdict of
  candidate rule A (a fade that does not live at full resolution and whose colours do not turn
  is a warning: "a held frame under a fade") and B (the same, only where the picture changes
  nowhere at full resolution).
The class of each edited freeze follows from `raw`: no span (the still is broken by the
codec's catch-up frames under the colour change), a drift note, or a warning.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from moderator_app.core.video import held_finer
from moderator_app.core.video.held_colour import drift_note, turns
from moderator_app.core.video.scan import NEIGHBOUR_SLIP, run_scan


def _said(spans) -> list[tuple[str, float, float]]:
    return [(s.severity[0], round(s.start_s, 2), round(s.end_s, 2)) for s in spans
            if s.rule == "video.frozen"]


def measure(folder: Path) -> dict:
    """The row of one folder (see the module's docstring)."""
    video = next(iter(sorted(folder.glob("video.*"))))
    tamper = json.loads((folder / "truth.json").read_text()).get("tamper") or {}
    scan = run_scan(video, finer=False)
    row: dict = {"run": folder.name, "truth": [tamper.get("video_start_s"),
                                               tamper.get("video_end_s")],
                 "raw": _said(scan.spans), "fin": _said(run_scan(video).spans), "fades": []}
    notes = [s for s in scan.spans if s.rule == "video.frozen" and drift_note(s)]
    rows = held_finer.spans_rows(scan, video, NEIGHBOUR_SLIP,
                                 [(s.start_s, s.end_s) for s in notes])
    freeze_s = scan.thresholds.freeze_s
    for s, r in zip(notes, rows, strict=True):
        if r is None:
            row["fades"].append({"span": [s.start_s, s.end_s], "read": False})
            continue
        changed = held_finer.changes(r["times"], r["key"], r["points"], r["area"], r["seen"],
                                     r["foreign"])
        turned = turns(r["times"], r["key"], r["hue"], s.start_s)
        lives = held_finer.lives(s.start_s, s.end_s, changed, freeze_s)
        still = turned is not None and not turned and not lives
        row["fades"].append({"span": [round(s.start_s, 2), round(s.end_s, 2)], "read": True,
                             "changes": [round(c, 2) for c in changed], "lives": lives,
                             "turns": None if turned is None else len(turned),
                             "A": "warning" if still else "note",
                             "B": "warning" if still and not changed else "note"})
    return row


def main(argv: list[str]) -> int:
    for f in argv:
        print(json.dumps(measure(Path(f))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
