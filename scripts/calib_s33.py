"""Session 33's calibration table of the sync suggestion's confidence (issue 13): on every
cached real-game genuine run with a truth, the analysis at `--offset auto` (in-process, as
`scripts/holds_sweep_s28.py` reads a run: the log's kinds, the scan's signals from the
product's cache), the error of its suggestion in frames of the video, and the evidence the
confidence is made of.

    PYTHONPATH=/work/wt/MINE nice .venv/bin/python scripts/calib_s33.py sweep OUT.jsonl \
        [--sets wide,qa,corpus] [--only SUBSTR] [--genuine-only | --tampered-only]
    .venv/bin/python scripts/calib_s33.py table OUT.jsonl [--by fps|half|set]

A row: run, set, game, fps, the truth in the file's time (`wide_corpus.file_shift`), the
suggestion, its confidence and note, the error in frames, the supporting actions and the
actions, the supporting reactions' delays in frames (p10 / p50 / p90), and the offset's
profile: the actions with a standing reaction in the support window at the suggestion moved
by k video frames, k = -4 .. +4 (unweighted novelty, `fit._supported`). The table: per frame
rate band and per half of the games (crc32(game) % 2), suggestions, within 1 frame, and
within / wrong at a confidence >= 0.5. Nothing here is imported by the app or the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import holds_sweep_s28 as hs  # noqa: E402
import wide_corpus as wc  # noqa: E402

PROFILE = range(-4, 5)


def half(game: str) -> int:
    """The held-out split of session 33: crc32 of the game's name, mod 2."""
    return zlib.crc32(game.encode()) % 2


def _game_kind(name: str) -> tuple[str, str]:
    base = name.split("/")[-1]
    base = base.split("-", 1)[1] if base.startswith("s") and base[1:3].isdigit() and \
        base[3:4] == "-" else base
    game, kind, _ = wc.split(base)
    return game, kind


def features(a, sig, kept, th) -> dict:
    """The evidence of a suggestion, read on the analysis and the signals."""
    import numpy as np

    from moderator_app.core.sync import fit, precede, reactions

    fps = float(sig.fps)
    d = sorted(r.delay_s * fps for r in a.reactions if r.delay_s is not None and
               -fit.SUPPORT_BEFORE_S - 1e-6 <= r.delay_s <= fit.SUPPORT_AFTER_S)

    def q(p):
        return round(float(np.percentile(d, p)), 3) if d else None

    prof, early, late, spread = [], None, None, None
    if a.suggested_offset_s is not None:
        nov = reactions.novelty(sig)
        run_s = np.asarray(sorted(kept), float)
        o = a.suggested_offset_s
        prof = [fit._supported(sig, nov, run_s, o + k / fps, a.speed, th) for k in PROFILE]
        steps = o + np.arange(-0.6, -0.1, 0.5 / fps)
        early = max(fit._supported(sig, nov, run_s, x, a.speed, th) for x in steps)
        late = max(fit._supported(sig, nov, run_s, x, a.speed, th) for x in -steps + 2 * o)
        spread = precede.spread_s(run_s, sig, nov, o, a.speed, th) * fps
    return {"support": a.supporting_actions, "actions": a.actions, "speed": a.speed,
            "note": a.confidence_note, "reason": a.reason, "segments": len(a.segments),
            "findings": sorted({f.rule for f in a.findings}),
            "d_n": len(d), "d10": q(10), "d50": q(50), "d90": q(90), "profile": prof,
            "early": early, "late": late, "spread_fr": None if spread is None else round(spread, 2),
            "grid": int(sig.grid)}


def row(name: str, folder: Path) -> dict:
    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as TH

    truth, kept, kinds, run_end, sig, _scan, _v = hs.load(folder)
    fps = float(truth["fps"])
    shift = wc.file_shift(folder, fps, "")
    t = float(truth["offset_s"]) + shift
    a = analyze(kept, sig, TH, None, run_end, input_kinds=kinds)
    game, kind = _game_kind(name)
    err = None if a.suggested_offset_s is None else \
        round((a.suggested_offset_s - t) * fps, 3)
    return {"run": name, "set": name.split("/")[0] if "/" in name else "corpus",
            "game": game, "kind": kind, "fps": fps, "truth_s": round(t, 6),
            "sug": a.suggested_offset_s, "conf": a.confidence, "err_fr": err,
            **features(a, sig, kept, TH)}


def sweep(out: Path, sets: list[str], only: str | None, genuine_only: bool | None) -> None:
    done = set()
    if out.exists():
        done = {json.loads(x)["run"] for x in out.read_text().splitlines() if x.strip()}
    with out.open("a") as fh:
        for name, folder in hs.runs(sets):
            if name in done or (only and only not in name):
                continue
            game, kind = _game_kind(name)
            if genuine_only is not None and genuine_only != kind.startswith("genuine"):
                continue
            if time.time() - (folder / "truth.json").stat().st_mtime < 120:
                continue  # (a run still being built)
            if name.startswith("qa-"):
                os.environ["MODERATOR_APP_CACHE"] = str(folder.parents[1] / "appcache-holds")
            elif name.startswith("wide/"):
                os.environ["MODERATOR_APP_CACHE"] = str(hs.WIDE / "appcache")
            else:
                os.environ["MODERATOR_APP_CACHE"] = str(hs.CORPUS / "scan-cache")
            try:
                r = row(name, folder)
            except Exception as exc:  # noqa: BLE001 - a run that cannot be read is a row
                r = {"run": name, "error": repr(exc)[:300]}
            fh.write(json.dumps(r) + "\n")
            fh.flush()
            print(name, r.get("err_fr"), r.get("conf"), flush=True)


def band(fps: float) -> str:
    return "<=30" if fps <= 30.5 else "31-47" if fps < 47.5 else ">=48"


def table(p: Path, by: str) -> None:
    rows = [json.loads(x) for x in p.read_text().splitlines() if x.strip()]
    rows = [r for r in rows if "error" not in r and r["kind"].startswith("genuine")]
    key = {"fps": lambda r: band(r["fps"]), "half": lambda r: f"{r['set']}/h{half(r['game'])}",
           "set": lambda r: r["set"]}[by]
    out: dict = {}
    for r in rows:
        c = out.setdefault(key(r), {"runs": 0, "sug": 0, "within": 0, "conf_within": 0,
                                    "conf_wrong": 0, "unconf_wrong": 0})
        c["runs"] += 1
        if r["sug"] is None:
            continue
        c["sug"] += 1
        ok = abs(r["err_fr"]) <= 1.0 + 1e-6
        c["within"] += ok
        if r["conf"] >= 0.5:
            c["conf_within" if ok else "conf_wrong"] += 1
        elif not ok:
            c["unconf_wrong"] += 1
    for k in sorted(out):
        print(k, json.dumps(out[k]))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=("sweep", "table"))
    ap.add_argument("out")
    ap.add_argument("--sets", default="wide,qa")
    ap.add_argument("--only")
    ap.add_argument("--genuine-only", action="store_const", const=True, dest="genuine")
    ap.add_argument("--tampered-only", action="store_const", const=False, dest="genuine")
    ap.add_argument("--by", default="fps")
    ns = ap.parse_args()
    if ns.cmd == "sweep":
        sweep(Path(ns.out), ns.sets.split(","), ns.only, ns.genuine)
    else:
        table(Path(ns.out), ns.by)


if __name__ == "__main__":
    main()
