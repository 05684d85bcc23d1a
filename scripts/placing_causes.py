"""Why a tampering is not placed (issue 13, session 36): each tampered run of the wide set and
of QA passes' sync folders read at its true offset, and each one the product does not place
(wide_corpus.placed: a warning starting within 1 s of the tampering's start; speed / slow a
`sync.drift` within 1 point) given one cause, counted per kind.

    PYTHONPATH=<tree> python scripts/placing_causes.py [--qa 28,29,...,35] [--wide]

The causes, in the order they are tested (the first that holds is the row's):
  unread    no offset is read at the truth and the reactions answer fewer than half of the
            presses the truth shows before the tampering (the reader sees too little of the
            picture's answers for any stretch to stand: reactions.py's, not the track's)
  misdated  a warning of the tampering's rules starts within 3 s of its start, not within 1 s
  wrong     speed / slow: a `sync.drift` at another percent
  nostretch the presses before the tampering are read (an offset, or half their answers)
            and nothing after it stands at another offset or speed (the track's, band's,
            event_jump's, pace's: the stages this session's `placing` engineer owns)
Why a script and not the table: the table counts placements from a sweep's warnings; a cause
needs the reactions of the reading at the truth (verify's JSON), which the sweep does not keep.
Never run it on a QA pass that is still held out (the session's own qa-sNN).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import wide_corpus as wc  # noqa: E402  (the table's measures, one definition)

CACHE = Path("/work/main/.cache")
MISDATED_S = 3.0


def read_at(folder: Path, offset_s: float, appcache: Path) -> dict:
    """verify --json --scan --sync at `offset_s`: the report's sync section and the
    sweep row's `warnings` / `drift` (wide_corpus's parse of the same report)."""
    env = {**os.environ, "MODERATOR_APP_CACHE": str(appcache)}
    r = subprocess.run([*wc.CLI, "verify", str(folder), "--json", "--scan", "--sync", "--offset",
                        f"{offset_s:.4f}"], capture_output=True, text=True, env=env)
    try:
        rep = json.loads(r.stdout)
    except ValueError:
        return {}
    return {"sync": rep.get("sync") or {}, **wc.parse_report(rep, r)}


def _run_start(tam: dict) -> float | None:
    for k in ("run_s", "run_start_s"):
        if tam.get(k) is not None:
            return float(tam[k])
    return None


def cause(row: dict, truth: dict, sync: dict) -> str:
    """The row's cause (module docstring); `placed` when the product places it."""
    if wc.placed(row, "truth"):
        return "placed"
    tam = row["tamper"]
    if "percent" in tam:
        return "wrong" if row["truth"]["drift"] else "nostretch"
    sp = wc._span(row)
    rules = wc._rules(tam)
    if sp is not None and any(w[0].startswith(rules) and w[1] is not None and
                              abs(w[1] - sp[0]) <= MISDATED_S for w in row["truth"]["warnings"]):
        return "misdated"
    cut = _run_start(tam)
    shown = [a for a in truth["actions"] if a["shows_video_s"] is not None and
             (cut is None or a["elapsed_ms"] / 1000 < cut)]
    read = [x for x in sync.get("reactions", []) if x.get("video_s") is not None and
            (cut is None or x["run_s"] < cut)]
    if sync.get("suggested_offset_s") is None and 2 * len(read) < len(shown):
        return "unread"
    return "nostretch"


def rows_of(folders: list[Path], appcache: Path) -> list[tuple[dict, str]]:
    out = []
    for d in folders:
        t = json.loads((d / "truth.json").read_text())
        tam = t.get("tamper") or {}
        if tam.get("kind", "genuine").startswith("genuine"):
            continue
        shift = 0.0
        for memo in ("wide_shift.json", "file_shift.json"):
            if (d / memo).exists():
                shift = float(json.loads((d / memo).read_text()).get("shift_s", 0.0))
        T = float(t["offset_s"]) + shift
        got = read_at(d, T, appcache)
        row = {"run": d.name, "shift_s": shift, "tamper": tam, "truth": got or
               {"warnings": [], "drift": []}}
        out.append((row, cause(row, t, got.get("sync", {}))))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--qa", default="28,29,30,31,32,33,34,35")
    ap.add_argument("--wide", action="store_true")
    ns = ap.parse_args()
    sets: list[tuple[str, list[Path], Path]] = []
    if ns.wide:
        sets.append(("wide", sorted(p for p in (wc.WIDE / "sync").iterdir()
                                    if (p / "truth.json").exists()), wc.WIDE / "appcache"))
    for n in [x for x in ns.qa.split(",") if x]:
        q = CACHE / f"qa-s{n}"
        sets.append((f"qa-s{n}", sorted(p for p in (q / "sync").iterdir()
                                        if (p / "truth.json").exists()), q / "appcache-holds"))
    total: dict[str, Counter] = {}
    for name, folders, appcache in sets:
        for row, c in rows_of(folders, appcache):
            kind = wc.split(row["run"])[1].rstrip("0123456789")
            total.setdefault(kind, Counter())[c] += 1
            if c != "placed":
                print(f"{name}\t{row['run']}\t{c}", flush=True)
    for kind, cnt in sorted(total.items()):
        print(kind, dict(cnt))


if __name__ == "__main__":
    main()
