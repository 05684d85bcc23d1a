"""Session 31's lag sweep (issue 13, QA s30 T2): every cached real-game run with a truth, read
at `--offset auto` as the CLI reads it (`autosync_sweep.read_run`'s analysis), with each
press's reaction as the product measured it and the generator's truth beside it.

    .venv/bin/python scripts/lag_sweep_s31.py sweep OUT [--sets corpus,qa] [--only SUBSTR]
        [--list FILE]
    .venv/bin/python scripts/lag_sweep_s31.py table BEFORE AFTER [--all]   # per set, by game

Sets: `corpus` (.cache/corpus/v2, its scan-cache), `qa` (.cache/qa-s26 ... qa-s30 /sync: QA's
kept runs, each set's scans from its fullest `appcache-*`). The truth is in the file's own time
(truth.json's offset plus the run's `file_shift.json`, where QA measured one). Per run: the
suggestion, its confidence and note, the error in frames of the video, and per press the
product's reaction (video time, delay at the offset used) and the truth's `shows_video_s`: the
press's real lag, so a statistic of the reactions can be read against the error offline.
Nothing here is imported by the app or the tests.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

MAIN = Path("/work/main")
CORPUS = Path(os.environ.get("MODERATOR_CORPUS_DIR", MAIN / ".cache" / "corpus")) / "v2"
QA_SETS = [MAIN / ".cache" / f"qa-s{n}" / "sync" for n in (26, 27, 28, 29, 30)]
GENUINE = ("genuine", "pause")


def _appcache(d: Path) -> Path:
    """The set's appcache holding the most scans (QA kept one per commit it measured)."""
    best = max((p for p in d.parent.iterdir() if p.name.startswith("appcache-")),
               key=lambda p: len(list((p / "video-scan").glob("*")))
               if (p / "video-scan").is_dir() else -1)
    return best


def runs(sets: list[str]) -> list[tuple[str, Path, Path]]:
    out: list[tuple[str, Path, Path]] = []
    if "corpus" in sets:
        out += [(p.name, p, CORPUS / "scan-cache") for p in sorted(CORPUS.iterdir())
                if (p / "truth.json").exists()]
    if "qa" in sets:
        for d in QA_SETS:
            if d.is_dir():
                cache = _appcache(d)
                out += [(f"{d.parent.name}/{p.name}", p, cache) for p in sorted(d.iterdir())
                        if (p / "truth.json").exists()]
    return out


def row(name: str, d: Path) -> dict:
    """The run's row, with every latency spread the readings measured (`precede.spread_s`:
    grid, fps, the offset it was measured at, the spread) beside it."""
    from moderator_app.core.sync import precede

    spreads: list = []
    real = precede.spread_s

    def spy(run_s, sig, nov, suggested, speed, th):
        v = real(run_s, sig, nov, suggested, speed, th)
        spreads.append((int(sig.grid), round(float(sig.fps), 3), round(float(suggested), 4),
                        round(v, 5)))
        return v

    precede.spread_s = spy
    try:
        return _row(name, d, spreads)
    finally:
        precede.spread_s = real


def _row(name: str, d: Path, spreads: list) -> dict:
    from moderator_app.core.formats.submission import load_submission
    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.sync.inputs import idle_stretches, inputs
    from moderator_app.core.sync.run import within_reach
    from moderator_app.core.sync.signals import frame_signals
    from moderator_app.core.sync.silent import READ_FLOOR_S, with_silent
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as TH

    truth = json.loads((d / "truth.json").read_text())
    video = d / truth.get("video", "video.mp4")
    sub = load_submission([d / "agent-log.jsonl"])
    times, kinds = inputs(sub)
    idle = idle_stretches(sub, READ_FLOOR_S)
    ends = [json.loads(x)["elapsedMs"] / 1000 for x in (d / "agent-log.jsonl").read_bytes()
            .splitlines() if b'"run_end"' in x]
    sig = frame_signals(video)
    span = float(sig.times[-1] - sig.times[0]) if len(sig.times) else 0.0
    kept = within_reach(times, span)
    kinds = list(kinds) if kinds is not None and len(kept) == len(times) == len(kinds) else None
    a = with_silent(analyze(kept, sig, TH, None, ends[-1] if ends else None, input_kinds=kinds),
                    idle, TH.sync_activity_gap_s)
    shift = 0.0
    if (d / "file_shift.json").exists():
        shift = float(json.loads((d / "file_shift.json").read_text())["shift_s"])
    fps = float(truth["fps"])
    t0 = float(truth["offset_s"]) + shift
    tam = truth.get("tamper", {})
    out = {"run": name, "game": truth["game"],
           "kind": str(tam.get("kind") or truth.get("kind") or ""),
           "fps": fps, "sig_fps": float(sig.fps), "truth": t0, "sug": a.suggested_offset_s,
           "conf": a.confidence, "note": a.confidence_note, "support": a.supporting_actions,
           "used": a.offset_used_s, "speed": a.speed,
           "err": None if a.suggested_offset_s is None
           else round((a.suggested_offset_s - t0) * fps, 3),
           "findings": sorted((f.rule, None if f.video_start_s is None
                               else round(f.video_start_s, 2)) for f in a.findings),
           "reactions": [(r.run_s, r.expected_video_s, r.video_s, r.delay_s, r.confidence)
                         for r in a.reactions],
           "spreads": spreads}
    acts = truth.get("actions") or []
    if acts:
        out["truth_lag_frames"] = [
            None if x.get("shows_video_s") is None else
            round((x["shows_video_s"] + shift - t0 - x["elapsed_ms"] / 1000) * fps, 3)
            for x in acts]
    return out


def sweep(out_path: Path, sets: list[str], only: str | None, listed: set[str] | None) -> None:
    done = set()
    if out_path.exists():
        done = {json.loads(x)["run"] for x in out_path.read_text().splitlines() if x.strip()}
    with out_path.open("a") as fh:
        for name, folder, cache in runs(sets):
            if name in done or (only and only not in name) or \
                    (listed is not None and name not in listed):
                continue
            os.environ["MODERATOR_APP_CACHE"] = str(cache)
            try:
                r = row(name, folder)
            except Exception as exc:  # noqa: BLE001 - a run that cannot be read is a row
                r = {"run": name, "error": repr(exc)}
            fh.write(json.dumps(r) + "\n")
            fh.flush()


def _rows(p: Path) -> dict[str, dict]:
    return {json.loads(x)["run"]: json.loads(x) for x in p.read_text().splitlines()
            if x.strip()}


def _set(name: str) -> str:
    return name.split("/")[0] if "/" in name else "corpus"


def verdict(r: dict) -> str:
    if r.get("sug") is None:
        return "none"
    ok = abs(r["err"]) <= 1.0
    used = r["conf"] >= 0.5
    return ("ok" if used else "low") if ok else ("WRONG" if used else "wrong-low")


def table(before: Path, after: Path, every: bool) -> None:
    b, a = _rows(before), _rows(after)
    names = sorted(set(b) & set(a))
    for s in sorted({_set(n) for n in names}):
        for part in ("genuine", "other"):
            sel = [n for n in names if _set(n) == s and "error" not in b[n] and
                   (b[n]["kind"].startswith(GENUINE) == (part == "genuine"))]
            if not sel:
                continue
            cnt = {}
            for side, rows in (("before", b), ("after", a)):
                c = {v: 0 for v in ("ok", "low", "WRONG", "wrong-low", "none")}
                for n in sel:
                    c[verdict(rows[n])] += 1
                cnt[side] = c
            print(f"{s:8s} {part:8s} runs {len(sel):3d}: " + ", ".join(
                f"{k} {cnt['before'][k]}->{cnt['after'][k]}" for k in cnt["before"]))
    changed = 0
    for n in names:
        x, y = b[n], a[n]
        if "error" in x or "error" in y:
            continue
        if (x["sug"], x["conf"]) != (y["sug"], y["conf"]) or every:
            changed += (x["sug"], x["conf"]) != (y["sug"], y["conf"])
            print(f"| {n} | {x['kind']} | {x['err']} at {x['conf']} ({verdict(x)}) -> "
                  f"{y['err']} at {y['conf']} ({verdict(y)}) |")
    print(f"runs {len(names)}, changed {changed}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=("sweep", "table"))
    ap.add_argument("args", nargs="*")
    ap.add_argument("--sets", default="corpus,qa")
    ap.add_argument("--only")
    ap.add_argument("--list")
    ap.add_argument("--all", action="store_true")
    ns = ap.parse_args()
    if ns.cmd == "sweep":
        listed = None if not ns.list else set(Path(ns.list).read_text().split())
        sweep(Path(ns.args[0]), ns.sets.split(","), ns.only, listed)
    else:
        table(Path(ns.args[0]), Path(ns.args[1]), ns.all)


if __name__ == "__main__":
    main()
