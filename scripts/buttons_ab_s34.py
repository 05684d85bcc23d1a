"""Session 34's measure of the buttons test (`core/sync/buttons.py`, issue 13), in process, on
the cached runs `holds_sweep_s28.py` reads (its scans cached: no decode).

    PYTHONPATH=. .venv/bin/python scripts/buttons_ab_s34.py ab OUT.jsonl [--sets wide,corpus,qa]
        [--shard I/N]
    PYTHONPATH=. .venv/bin/python scripts/buttons_ab_s34.py report OUT.jsonl [...]
    PYTHONPATH=. .venv/bin/python scripts/buttons_ab_s34.py scales [SWEEP.jsonl]

`ab`: every run's analysis at auto with the test; where the test passed a stretch, again with
it off (elsewhere the two are the same, bit for bit: the test is asked only after every
reading before it suggested nothing), and both kept (suggestion, confidence, sync findings).
`report`: the runs whose analysis changed, in frames from the truth. `scales`: per wide
genuine run and tile scale (8x8, 4x4), the whole log's learned fit (frames from the truth), its
z over its shuffled logs (`fit.significance`) and the buttons test's (`buttons.null_z`): the
test alone, before any later gate. Deterministic; nothing here is imported by the app or the
tests.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import holds_sweep_s28 as holds  # noqa: E402


def _cache(name: str, folder: Path) -> None:
    if name.startswith("qa-"):
        os.environ["MODERATOR_APP_CACHE"] = str(folder.parents[1] / "appcache-holds")
    elif name.startswith("wide/"):
        os.environ["MODERATOR_APP_CACHE"] = str(holds.WIDE / "appcache")
    else:
        os.environ["MODERATOR_APP_CACHE"] = str(holds.CORPUS / "scan-cache")


def ab(out: Path, sets: list[str], shard: int, shards: int) -> None:
    from moderator_app.core.sync import reading
    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as th

    real = reading.buttons_null_z
    state = {"on": True, "fired": 0}

    def counted(*a, **kw):
        if not state["on"]:
            return 0.0
        z = real(*a, **kw)
        state["fired"] += z >= th.sync_min_null_z
        return z

    reading.buttons_null_z = counted

    def cell(kept, kinds, end, sig) -> dict:
        a = analyze(kept, sig, th, None, end, input_kinds=kinds)
        return {"sug": a.suggested_offset_s, "conf": round(a.confidence, 3),
                "sync": [(f.rule, f.video_start_s) for f in a.findings
                         if f.rule.startswith("sync.")]}

    with out.open("a") as fh:
        for j, (name, folder) in enumerate(holds.runs(sets)):
            if j % shards != shard:
                continue
            _cache(name, folder)
            truth, kept, kinds, end, sig, _scan, _v = holds.load(folder)
            rec: dict = {"run": name, "t0": float(truth["offset_s"]), "fps": sig.fps,
                         "kind": str(truth.get("tamper", {}).get("kind") or
                                     truth.get("kind") or "")}
            state["on"], state["fired"] = True, 0
            after = cell(kept, kinds, end, sig)
            if state["fired"]:
                state["on"] = False
                rec["before"], rec["after"] = cell(kept, kinds, end, sig), after
                state["on"] = True
            fh.write(json.dumps(rec) + "\n")
            fh.flush()


def report(paths: list[Path]) -> None:
    rows = [json.loads(x) for p in paths for x in p.read_text().splitlines() if x.strip()]
    fired = [r for r in rows if "after" in r]
    print(f"runs {len(rows)}, the test passed a stretch on {len(fired)}")
    for r in fired:
        b, a = r["before"], r["after"]

        fb, fa = (None if s is None else round((s - r["t0"]) * r["fps"], 2)
                  for s in (b["sug"], a["sug"]))
        print(f"{r['run']:48s} {r['kind']:9s} {'changed' if a != b else 'same   '} "
              f"{fb} f @ {b['conf']} -> {fa} f @ {a['conf']}; sync "
              f"new {[x for x in a['sync'] if x not in b['sync']]} "
              f"lost {[x for x in b['sync'] if x not in a['sync']]}")


def scales(sweep: Path) -> None:
    from moderator_app.core.sync import buttons, lookup, reactions
    from moderator_app.core.sync import kinds as kinds_mod
    from moderator_app.core.sync.fit import learned_fit, significance
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as th

    os.environ["MODERATOR_APP_CACHE"] = str(holds.WIDE / "appcache")
    for line in sweep.read_text().splitlines():
        r = json.loads(line)
        if r["kind"] not in ("genuine", "genuine2"):
            continue
        _t, kept, kinds, _end, sig, _s, _n = holds.load(holds.WIDE / "sync" / r["run"])
        run_s, ks = kinds_mod.in_order(kept, kinds)
        cells = []
        for s in [sig] + ([sig.coarser(4)] if sig.grid > 4 and not sig.grid % 4 else []):
            nov1 = reactions.novelty(s)
            look1 = lookup.Lookup(s, lookup.lookahead(s, nov1))
            q = reactions.background_rates(s, nov1)
            memo: dict = {}
            f = learned_fit(s, nov1, look1, q, run_s, 1.0, th, memo)[0]
            z = significance(s, nov1, look1, q, run_s, 1.0, th, memo)[1]
            zb = buttons.null_z(s, nov1, look1, q, run_s, ks, 1.0, th)
            cells.append(f"{s.grid}x{s.grid} fit {(f.offset_s - r['truth_s']) * s.fps:+8.1f} f "
                         f"z {z:5.2f} buttons {zb:5.2f}")
        sug = r["auto"]["sug"]
        out = "nosignal" if sug is None else \
            "within" if abs(sug - r["truth_s"]) * r["fps"] <= 1 else "wrong"
        print(f"{r['run']:44s} {out:8s} " + " | ".join(cells), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=("ab", "report", "scales"))
    ap.add_argument("paths", nargs="*")
    ap.add_argument("--sets", default="wide,corpus,qa")
    ap.add_argument("--shard", default="0/1")
    ns = ap.parse_args()
    if ns.cmd == "ab":
        i, n = (int(x) for x in ns.shard.split("/"))
        ab(Path(ns.paths[0]), ns.sets.split(","), i, n)
    elif ns.cmd == "report":
        report([Path(p) for p in ns.paths])
    else:
        scales(Path(ns.paths[0]) if ns.paths else
               holds.WIDE / "sweeps" / "base-764de5b.jsonl")


if __name__ == "__main__":
    main()
