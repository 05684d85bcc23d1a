"""Session 31's track sweep (issue 13, QA s30 T3 + T5): every cached real-game run with a
truth read by `analyze` at `--offset auto` (or at the truth's offset), one JSON line each
with what the head rival (core/sync/rival.py) and the drift readings move: the suggestion,
its confidence, the track's windows, each reaction and every `sync.*` finding.

    PYTHONPATH=. .venv/bin/python scripts/track_sweep_s31.py sweep OUT [--sets qa,corpus]
        [--given auto|truth]
    PYTHONPATH=. .venv/bin/python scripts/track_sweep_s31.py compare BEFORE AFTER
    PYTHONPATH=. .venv/bin/python scripts/track_sweep_s31.py rivals ROWS   # head windows

Runs and scans as `holds_sweep_s28.py` reads them (its `runs` and `load`). `compare` lists the
runs whose suggestion, confidence or findings changed. `rivals` lists, per run with a
suggestion, the track windows centred before the first supporting reaction that read
another offset (more than 0.25 s away), marked ORD when their footage comes before that
reaction's (the rule's order test). Nothing here is imported by the app or the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import holds_sweep_s28 as hs  # noqa: E402


def sweep(out_path: Path, sets: list[str], given: str) -> None:
    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as th

    done = set()
    if out_path.exists():
        done = {json.loads(x)["run"] for x in out_path.read_text().splitlines() if x.strip()}
    with out_path.open("a") as fh:
        for name, folder in hs.runs(sets):
            if name in done:
                continue
            os.environ["MODERATOR_APP_CACHE"] = str(
                folder.parents[1] / "appcache-holds" if name.startswith("qa-")
                else hs.CORPUS / "scan-cache")
            try:
                truth, kept, kinds, run_end, sig, _scan, _v = hs.load(folder)
                at = float(truth["offset_s"]) if given == "truth" else None
                a = analyze(kept, sig, th, at, run_end, input_kinds=kinds)
                tam = truth.get("tamper") or {}
                r = {"run": name, "kind": str(tam.get("kind") or truth.get("kind") or ""),
                     "t0": float(truth["offset_s"]), "fps": float(sig.fps), "tamper": tam,
                     "sug": a.suggested_offset_s, "conf": a.confidence,
                     "sup": a.supporting_actions, "used": a.offset_used_s, "speed": a.speed,
                     "track": [(p.run_s, p.offset_s, p.z) for p in a.track],
                     "reac": [(x.run_s, x.video_s, x.delay_s) for x in a.reactions],
                     "find": [(f.rule, f.video_start_s, f.video_end_s, f.percent)
                              for f in a.findings if f.rule.startswith("sync.")]}
            except Exception as exc:  # noqa: BLE001 - a run that cannot be read is a row
                r = {"run": name, "error": repr(exc)}
            fh.write(json.dumps(r) + "\n")
            fh.flush()


def _rows(p: Path) -> dict[str, dict]:
    return {json.loads(x)["run"]: json.loads(x) for x in p.read_text().splitlines()
            if x.strip()}


def compare(before: Path, after: Path) -> None:
    b, a = _rows(before), _rows(after)
    changed = 0
    for k in sorted(set(a) & set(b)):
        x, y = b[k], a[k]
        if "error" in x or "error" in y:
            if x.get("error") != y.get("error"):
                print(k, "error", x.get("error"), "->", y.get("error"))
            continue
        if (x["sug"], x["conf"], x["find"]) != (y["sug"], y["conf"], y["find"]):
            changed += 1
            print(k, x["kind"], "sug", x["sug"], "->", y["sug"], "conf", x["conf"], "->",
                  y["conf"], "findings", [f for f in x["find"] if f not in y["find"]], "->",
                  [f for f in y["find"] if f not in x["find"]])
    print("runs", len(set(a) & set(b)), "changed", changed)


def rivals(rows: Path) -> None:
    for r in _rows(rows).values():
        if "error" in r or r["sug"] is None:
            continue
        g = r["used"] if r["used"] is not None else r["sug"]
        sup = [e for e, _v, d in r["reac"] if d is not None and -1 / 60 <= d <= 0.08]
        if not sup:
            continue
        first = min(sup)
        heads = [(c, round(o - g, 2), z, "ORD" if o + c < g + first else "")
                 for c, o, z in r["track"] if o is not None and abs(o - g) > 0.25 and c < first]
        if heads:
            print(r["run"], r["kind"], "err", round((r["sug"] - r["t0"]) * r["fps"], 1),
                  "frames, conf", r["conf"], "first", first, heads)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=("sweep", "compare", "rivals"))
    ap.add_argument("args", nargs="+")
    ap.add_argument("--sets", default="qa,corpus")
    ap.add_argument("--given", default="auto", choices=("auto", "truth"))
    ns = ap.parse_args()
    if ns.cmd == "sweep":
        sweep(Path(ns.args[0]), ns.sets.split(","), ns.given)
    elif ns.cmd == "compare":
        compare(Path(ns.args[0]), Path(ns.args[1]))
    else:
        rivals(Path(ns.args[0]))


if __name__ == "__main__":
    main()
