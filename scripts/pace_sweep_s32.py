"""Session 32's drift gate (issue 13, QA s31 T1 / T5): what the game's animation clock
(`core/sync/pace.py`, `pace_drift`) says on every cached real-game run, at a base commit's
pace.py and at the tree's, side by side. `pace_drift` reads no offset (it is consulted when
the fit reports no drift): one call a run covers every offset the holds sweep tries.

    .venv/bin/python scripts/pace_sweep_s32.py OUT.jsonl [--sets corpus,qa,wide] [--base REV]
        [--only SUBSTR] [--wide DIR]
    .venv/bin/python scripts/pace_sweep_s32.py table OUT.jsonl     # rows that differ, misses

A row: the run, its kind, the truth's percent (speed kinds), the base's and the tree's
`sync.drift` percent from pace (None: silent). Scans come from each set's cache as the
holds sweep reads them (`holds_sweep_s28.load`). Nothing here is imported by the app or the
tests.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import holds_sweep_s28 as hs  # noqa: E402


def _base_pace(rev: str):
    """The base revision's pace.py, as a module of the sync package (its relative imports)."""
    src = subprocess.run(["git", "show", f"{rev}:moderator_app/core/sync/pace.py"],
                         check=True, capture_output=True, text=True).stdout
    name = "moderator_app.core.sync._pace_base"
    spec = importlib.util.spec_from_loader(name, loader=None)
    mod = importlib.util.module_from_spec(spec)
    mod.__package__ = "moderator_app.core.sync"
    sys.modules[name] = mod
    exec(compile(src, f"{rev}:pace.py", "exec"), mod.__dict__)
    return mod


def _wide_runs(root: Path) -> list[tuple[str, Path]]:
    return [(f"wide/{p.name}", p) for p in sorted(root.rglob("truth.json")) for p in [p.parent]
            if (p / "agent-log.jsonl").exists()]


def _said(mod, a, run_s, sig, th) -> float | None:
    got = mod.pace_drift(a, run_s, sig, th)
    return got[0].percent if got else None


def sweep(out: Path, sets: list[str], base: str, only: str | None, wide: Path | None) -> None:
    from moderator_app.core.sync import pace
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as th

    old = _base_pace(base)
    todo = hs.runs([s for s in sets if s != "wide"])
    if "wide" in sets and wide is not None:
        todo += _wide_runs(wide)
    done = set()
    if out.exists():
        done = {json.loads(x)["run"] for x in out.read_text().splitlines() if x.strip()}
    with out.open("a") as fh:
        for name, folder in todo:
            if name in done or (only and only not in name):
                continue
            if name.startswith("qa-"):
                os.environ["MODERATOR_APP_CACHE"] = str(folder.parents[1] / "appcache-holds")
            elif name.startswith("wide/"):  # the wide set's shared product cache
                os.environ["MODERATOR_APP_CACHE"] = str(folder.parents[1] / "appcache")
            try:
                truth, kept, _k, _e, sig, _scan, _v = hs.load(folder)
            except Exception as e:  # noqa: BLE001 - a run the sweep cannot read: said, skipped
                print(name, "unreadable:", e, file=sys.stderr)
                continue
            a = _empty()
            tam = truth.get("tamper", {})
            row = {"run": name, "kind": str(tam.get("kind") or truth.get("kind") or ""),
                   "fps": round(float(sig.fps), 3), "truth": tam.get("percent"),
                   "base": _said(old, a, kept, sig, th), "tree": _said(pace, a, kept, sig, th)}
            fh.write(json.dumps(row) + "\n")
            fh.flush()


def _empty():
    """An analysis with no finding: `pace_drift` asks only whether one is a drift."""
    class _A:
        findings: list = []
    return _A()


def table(path: Path) -> None:
    rows = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    moved = [r for r in rows if r["base"] != r["tree"]]
    for r in moved:
        print("moved ", r["run"], r["kind"], r["fps"], "truth", r["truth"], r["base"], "->",
              r["tree"])
    for side in ("base", "tree"):
        false = [r["run"] for r in rows if r["truth"] is None and r[side] is not None]
        met = [r for r in rows if r["truth"] is not None and r[side] is not None and
               abs(r[side] - r["truth"]) <= 1.0]
        speed = [r for r in rows if r["truth"] is not None]
        print(f"{side}: {len(rows)} runs; drift on runs with no speed change {len(false)}"
              f" {false}; speed runs met {len(met)} of {len(speed)}")


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "table":
        table(Path(sys.argv[2]))
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path)
    ap.add_argument("--sets", default="corpus,qa")
    ap.add_argument("--base", default="1527a01")
    ap.add_argument("--only")
    ap.add_argument("--wide", type=Path)
    ns = ap.parse_args()
    sweep(ns.out, ns.sets.split(","), ns.base, ns.only, ns.wide)


if __name__ == "__main__":
    main()
