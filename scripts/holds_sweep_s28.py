"""Session 28's holds gate (issue 13 / 12): on every cached real-game run with a truth, the
sync analysis at `--offset auto` and at offsets given near the truth, with the log's kinds
(as the CLI and the workstation read them), and the scan's `video.frozen` warnings as the
report says them beside that analysis (`run.wait_note`).

    .venv/bin/python scripts/holds_sweep_s28.py sweep OUT [--sets corpus,qa,wide] [--only SUBSTR]
        [--list FILE]
    .venv/bin/python scripts/holds_sweep_s28.py table BEFORE AFTER    # changed cells
    .venv/bin/python scripts/holds_sweep_s28.py holds RUN [OFFSET]    # one run's held pictures

Sets: `corpus` (.cache/corpus/v2, scans cached in its scan-cache, as the tests cache them),
`wide` (.cache/wide/sync: session 32's wide training set, scripts/wide_corpus.py; scans in
its appcache, as that script's sweep caches them),
`qa` (.cache/qa-s26/sync ... .cache/qa-s31/sync: QA's kept sync runs; s23-s25
keep no log beside a video). Offsets: auto, the truth, and seconds or frames ("+2f") from it. A cell: the suggestion, every `sync.*` finding (rule, video span) and every scan
`video.frozen` warning left beside the analysis (and the ones said as notes). Rows are JSON
lines. The change of session 28 (waits.py `lag_waits`) only drops `sync.no_reaction` findings
and says `video.frozen` warnings as notes: a run whose before row has neither cannot change,
and the after sweep may be given those runs alone (`--list`). Nothing here is imported by the
app or the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

MAIN = Path("/work/main")
CORPUS = Path(os.environ.get("MODERATOR_CORPUS_DIR", MAIN / ".cache" / "corpus")) / "v2"


def _judged(n: int) -> bool:
    """Whether QA session n's pass is judged: its docs/qa/sessionNN.md holds its results (the
    "### Misses" heading each pass lands last), as scripts/reader_recall_s34.py's `judged_qa`
    reads it. Why: the running pass stays held out by construction, and no list of session
    numbers needs editing each session (it stopped at s33 in session 35's first half)."""
    doc = Path(__file__).resolve().parents[1] / "docs" / "qa" / f"session{n}.md"
    return doc.is_file() and "\n### Misses" in doc.read_text(encoding="utf-8")


QA_SETS = [MAIN / ".cache" / f"qa-s{n}" / "sync" for n in range(26, 100) if _judged(n)]
# session 32's wide training set (scripts/wide_corpus.py build; docs/qa/wide.md)
WIDE = Path(os.environ.get("MODERATOR_WIDE_DIR", MAIN / ".cache" / "wide"))
# seconds from the truth, or frames of the video's rate ("+2f": QA s28's near offsets)
OFFSETS = ("auto", "truth", "+0.12", "-0.2", "+0.3", "-1.0", "+2f", "-4f")


def runs(sets: list[str]) -> list[tuple[str, Path]]:
    out: list[tuple[str, Path]] = []
    if "corpus" in sets:
        out += [(p.name, p) for p in sorted(CORPUS.iterdir()) if (p / "truth.json").exists()]
    if "qa" in sets:
        for d in QA_SETS:
            if d.is_dir():
                out += [(f"{d.parent.name}/{p.name}", p) for p in sorted(d.iterdir())
                        if (p / "truth.json").exists()]
    if "wide" in sets and (WIDE / "sync").is_dir():
        out += [(f"wide/{p.name}", p) for p in sorted((WIDE / "sync").iterdir())
                if (p / "truth.json").exists()]
    return out


def _video(folder: Path) -> Path:
    return next(p for p in sorted(folder.iterdir()) if p.name.startswith("video."))


def load(folder: Path):
    """(truth, inputs' times, kinds, run_s, signals, scan) as `run.analyze_result` reads
    them."""
    from moderator_app.core.formats.submission import load_submission
    from moderator_app.core.sync.inputs import inputs
    from moderator_app.core.sync.run import within_reach
    from moderator_app.core.sync.signals import from_scan
    from moderator_app.core.video.scan import run_scan

    truth = json.loads((folder / "truth.json").read_text())
    video = _video(folder)
    sub = load_submission([folder / "agent-log.jsonl", video])
    times, kinds = inputs(sub)
    scan = run_scan(video)
    sig = from_scan(scan.signals)
    span = float(sig.times[-1] - sig.times[0])
    kept = within_reach(times, span)
    kinds = list(kinds) if kinds is not None and len(kept) == len(times) == len(kinds) else None
    lines = (folder / "agent-log.jsonl").read_bytes().splitlines()
    ends = [e["elapsedMs"] / 1000 for e in map(json.loads, lines) if e.get("type") == "run_end"]
    return truth, kept, kinds, (ends[-1] if ends else None), sig, scan, video.name


def cell(kept, kinds, run_end, sig, frozen, given, look=None):
    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.sync.run import wait_notes
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

    # the full-resolution look of a warned hold (session 40: core/sync/finer_beat.py), as
    # `run.analyze_result` passes it; a product before it takes none
    more = {"look": look} if look is not None else {}
    a = analyze(kept, sig, DEFAULT_THRESHOLDS, given, run_end, input_kinds=kinds, **more)
    said = wait_notes(frozen, a)
    return {"sug": a.suggested_offset_s,
            "sync": [(f.rule, f.video_start_s, f.video_end_s) for f in a.findings
                     if f.rule.startswith("sync.")],
            "frozen": [(f.video_start_s, f.video_end_s) for f in said
                       if f.severity.value == "warning"],
            "notes": [(f.video_start_s, f.video_end_s) for f in said
                      if f.severity.value == "info"],
            "waits": [(w.start_s, w.end_s, w.agreed) for w in a.waits]}


def row(name: str, folder: Path) -> dict:
    truth, kept, kinds, run_end, sig, scan, vname = load(folder)
    frozen = [f for f in scan.findings(vname)
              if f.rule == "video.frozen" and f.severity.value == "warning"]
    t0 = float(truth["offset_s"])
    tam = truth.get("tamper", {})
    out: dict = {"run": name, "kind": str(tam.get("kind") or truth.get("kind") or ""),
                 "t0": t0, "tamper": {k: tam.get(k) for k in
                                      ("video_s", "video_start_s", "video_end_s", "size_s")
                                      if tam.get(k) is not None}}
    look = _look(folder / vname, scan)
    for o in OFFSETS:
        given = None if o == "auto" else t0 if o == "truth" else t0 + (
            float(o[:-1]) / sig.fps if o.endswith("f") else float(o))
        out[o] = cell(kept, kinds, run_end, sig, frozen, given, look)
    return out


def _look(video: Path, scan):
    """The product's full-resolution look of the video (None before session 40 had one)."""
    try:
        from moderator_app.core.sync.finer_beat import video_look
    except ImportError:
        return None
    return video_look(video, lambda: scan)


def sweep(out_path: Path, sets: list[str], only: str | None,
          listed: set[str] | None = None) -> None:
    done = set()
    if out_path.exists():
        done = {json.loads(x)["run"] for x in out_path.read_text().splitlines() if x.strip()}
    with out_path.open("a") as fh:
        for name, folder in runs(sets):
            if name in done or (only and only not in name) or \
                    (listed is not None and name not in listed):
                continue
            if name.startswith("qa-"):  # QA's own cache, not the corpus' (its scans)
                os.environ["MODERATOR_APP_CACHE"] = str(folder.parents[1] / "appcache-holds")
            elif name.startswith("wide/"):  # the wide set's (scripts/wide_corpus.py sweep's)
                os.environ["MODERATOR_APP_CACHE"] = str(WIDE / "appcache")
            else:
                os.environ["MODERATOR_APP_CACHE"] = str(CORPUS / "scan-cache")
            try:
                r = row(name, folder)
            except Exception as exc:  # noqa: BLE001 - a run that cannot be read is a row
                r = {"run": name, "error": repr(exc)}
            fh.write(json.dumps(r) + "\n")
            fh.flush()


def _rows(p: Path) -> dict[str, dict]:
    return {r["run"]: r for r in map(json.loads, p.read_text().splitlines()) if r.strip()
            } if False else {json.loads(x)["run"]: json.loads(x)
                             for x in p.read_text().splitlines() if x.strip()}


def table(before: Path, after: Path) -> None:
    b, a = _rows(before), _rows(after)
    tot = {"sync": [0, 0], "frozen": [0, 0]}
    changed = 0
    for name in sorted(set(b) & set(a)):
        for o in OFFSETS:
            x, y = b[name].get(o), a[name].get(o)
            if x is None or y is None:
                continue
            for k in tot:
                tot[k][0] += len(x[k])
                tot[k][1] += len(y[k])
            if (x["sync"], x["frozen"], x["sug"]) != (y["sync"], y["frozen"], y["sug"]):
                changed += 1
                print(f"| {name} | {a[name]['kind']} | {o} | sync {x['sync']} -> {y['sync']}"
                      f" | frozen {x['frozen']} -> {y['frozen']} |"
                      + ("" if x["sug"] == y["sug"] else f" sug {x['sug']} -> {y['sug']} |"))
    print(f"runs {len(set(b) & set(a))}, cells changed {changed}; sync findings "
          f"{tot['sync'][0]} -> {tot['sync'][1]}; video.frozen warnings "
          f"{tot['frozen'][0]} -> {tot['frozen'][1]}")


def holds(folder: Path, offset: str) -> None:
    """The sync picture's held pictures (>= 1 s, inside) at an offset: presses inside, the
    press nearest before the end, its lag, and the first changed frame against the usual."""
    import numpy as np

    from moderator_app.core.sync.freeze import still_spans
    from moderator_app.core.video.resume import resumes_gradually

    truth, kept, kinds, run_end, sig, scan, vname = load(folder)
    t0 = float(truth["offset_s"]) if offset == "truth" else float(offset)
    fps = sig.fps
    t = np.asarray(sig.times, float)
    ch = np.asarray(sig.picture_change)
    v = np.asarray(kept) + t0
    for p, q in still_spans(sig).tolist():
        f0, f1 = float(t[p]), float(t[q]) + 1 / fps
        if f1 - f0 < 1.0:
            continue
        inside = [(round(float(v[c]), 2), (kinds or ["?"] * len(v))[c].split("=")[-1])
                  for c in range(len(v)) if f0 <= v[c] < f1 + 2 / fps]
        nxt = ch[q + 1: q + 1 + int(2 * fps)]
        usual = float(np.median(nxt[nxt > 0])) if (nxt > 0).any() else 0.0
        first = int(ch[q + 1]) if q + 1 < len(ch) else -1
        lag = round(f1 - inside[-1][0], 3) if inside else None
        print(f"{f0:7.2f}-{f1:7.2f} ({f1 - f0:4.1f} s) first {first} usual {usual:.0f} "
              f"ratio {first / usual if usual else 0:.2f} grad1.0 "
              f"{resumes_gradually(sig.picture_change, q, fps, ratio=1.0, frames=1)} "
              f"last-lag {lag} presses {inside}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=("sweep", "table", "holds"))
    ap.add_argument("args", nargs="*")
    ap.add_argument("--sets", default="corpus,qa")
    ap.add_argument("--only")
    ap.add_argument("--list", help="a file of run names, one a line: only those")
    ns = ap.parse_args()
    if ns.cmd == "sweep":
        listed = None if not ns.list else set(Path(ns.list).read_text().split())
        sweep(Path(ns.args[0]), ns.sets.split(","), ns.only, listed)
    elif ns.cmd == "table":
        table(Path(ns.args[0]), Path(ns.args[1]))
    else:
        folder = Path(ns.args[0])
        if str(folder).startswith(str(MAIN / ".cache" / "qa-")):
            os.environ["MODERATOR_APP_CACHE"] = str(folder.parents[1] / "appcache-holds")
        elif str(folder.resolve()).startswith(str(WIDE.resolve())):
            os.environ["MODERATOR_APP_CACHE"] = str(WIDE / "appcache")
        else:
            os.environ["MODERATOR_APP_CACHE"] = str(CORPUS / "scan-cache")
        holds(folder, ns.args[1] if len(ns.args) > 1 else "truth")


if __name__ == "__main__":
    sys.exit(main())
