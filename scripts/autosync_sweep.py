"""Issue 13's suggestion sweep (session 25): every cached real-game run with a true offset, read
at `--offset auto` as the CLI reads it, against its truth.

    PYTHONPATH=. .venv/bin/python scripts/autosync_sweep.py [--out FILE] [--only SUBSTR...]
    PYTHONPATH=. .venv/bin/python scripts/autosync_sweep.py --compare BEFORE.jsonl AFTER.jsonl
    PYTHONPATH=. .venv/bin/python scripts/autosync_sweep.py --mismatch [--splice] [--out FILE]

Runs: the corpus' `.cache/corpus/v2/*` and QA s21's and s23's kept runs
(`.cache/qa-s21/sync/*`, `.cache/qa-s23/sync/*`): every folder with a truth.json. QA s24's and
s25's inputs are held out and never read here. Each run: the log's inputs and their kinds and
idle stretches (`formats.input_events`, as `sync.run.analyze_result` reads them), the video's
signals (the integrity scan's cache: the corpus' own `scan-cache`, else `/tmp/autosync-scan`),
`analyze(..., offset_s=None)` and `with_silent`, i.e. `verify --offset auto`'s analysis.

Per run: the suggestion and its confidence, the error in frames of the video (truth.json's
`offset_s`, the first stretch's offset on a tampered run), and the verdict:
  ok      suggested, within 1 frame, confidence >= APPLY_MIN_CONFIDENCE (used at auto)
  low     within 1 frame, under the bar (the CLI refuses it: exit 2)
  WRONG   more than 1 frame off and used (the bar issue 13 forbids: a confident wrong answer)
  wrong-low  more than 1 frame off, under the bar (refused)
  none    no suggestion ("not enough signal")
and the sync warnings' rules. `--mismatch` (session 27): every genuine run's video read against
the next genuine run's log of another game (a log that does not belong to the video: no
suggestion may reach APPLY_MIN_CONFIDENCE); per pair the suggestion and its confidence, and
the count of suggestions and of those at the bar. Deterministic (the analysis is: fixed seeds in its shuffles).

Held-out games (decided before any run was read, session 25): every third of the 22 games
sorted by their name's SHA-256 (`HELD_OUT`). The summary counts them apart, so a change tuned on
the others is judged on them alone too. Nothing here is imported by the app or the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CACHE = Path("/work/main/.cache") if (Path("/work/main/.cache")).is_dir() else REPO / ".cache"
SETS = (CACHE / "corpus" / "v2", CACHE / "qa-s21" / "sync", CACHE / "qa-s23" / "sync")
# session 26: the splice sessions' fresh runs too (`--splice`), tampered and genuine
SPLICE_SETS = (CACHE / "s25-splice", CACHE / "s25-splice2")
GENUINE_KINDS = ("genuine", "pause")  # kind prefixes: genuine runs (no warning is right)
CLOCK_KINDS = ("human", "slow", "speed")  # genuine-like: a true offset, a warning expected


# every third of the sweep's 22 games sorted by their name's SHA-256 (hex), from the first
HELD_OUT = frozenset({"phoenix", "frostbite", "kangaroo", "seaquest", "pong", "ms_pacman",
                      "frogger", "tennis"})


def held_out(game: str) -> bool:
    """A third of the games, chosen by their name alone (no result read)."""
    return game in HELD_OUT


def runs(only: list[str], splice: bool = False) -> list[Path]:
    out = []
    for root in SETS + (SPLICE_SETS if splice else ()):
        if not root.is_dir():
            continue
        for d in sorted(root.iterdir()):
            if (d / "truth.json").is_file() and (not only or any(s in d.name for s in only)):
                out.append(d)
    return out


def read_run(d: Path, log: Path | None = None) -> dict:
    from moderator_app.core.formats.submission import load_submission
    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.sync.inputs import idle_stretches, inputs
    from moderator_app.core.sync.records import APPLY_MIN_CONFIDENCE
    from moderator_app.core.sync.run import within_reach
    from moderator_app.core.sync.signals import frame_signals
    from moderator_app.core.sync.silent import READ_FLOOR_S, with_silent
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as TH

    truth = json.loads((d / "truth.json").read_text())
    video = d / truth.get("video", "video.mp4")
    own = d.parent / "scan-cache"
    os.environ["MODERATOR_APP_CACHE"] = str(own if own.is_dir() else Path("/tmp/autosync-scan"))
    log = log or d  # --mismatch: another run's log beside this run's video
    sub = load_submission([log / "agent-log.jsonl"])
    times, kinds = inputs(sub)
    idle = idle_stretches(sub, READ_FLOOR_S)
    ends = [json.loads(x)["elapsedMs"] / 1000 for x in (log / "agent-log.jsonl").read_bytes()
            .splitlines() if b'"run_end"' in x]
    sig = frame_signals(video)
    span = float(sig.times[-1] - sig.times[0]) if len(sig.times) else 0.0
    kept = within_reach(times, span)
    kinds = list(kinds) if kinds is not None and len(kept) == len(times) == len(kinds) else None
    a = with_silent(analyze(kept, sig, TH, None, ends[-1] if ends else None, input_kinds=kinds),
                    idle, TH.sync_activity_gap_s)
    if log != d:
        return {"video": d.name, "log": log.name, "suggested": a.suggested_offset_s,
                "confidence": a.confidence, "note": a.confidence_note}
    fps = float(truth["fps"])
    kind = str(truth.get("kind", d.name.split("-", 1)[1].split("@")[0]))
    row = {"run": (f"{d.parent.parent.name}/" if d.parent.name == "sync" else
                   f"{d.parent.name}/" if d.parent in SPLICE_SETS else "") + d.name,
           "game": truth["game"], "kind": kind,
           "recorder": truth.get("recorder") or "default", "fps": fps,
           "truth": truth["offset_s"], "suggested": a.suggested_offset_s,
           "confidence": a.confidence, "support": a.supporting_actions, "actions": a.actions,
           "reason": a.reason, "note": a.confidence_note,
           "warnings": sorted(f.rule for f in a.findings), "drift": a.drift_percent,
           "findings": sorted((f.rule, None if f.video_start_s is None
                               else round(f.video_start_s, 2), f.percent) for f in a.findings)}
    if a.suggested_offset_s is None:
        row["err_frames"], row["verdict"] = None, "none"
    else:
        err = (a.suggested_offset_s - truth["offset_s"]) * fps
        row["err_frames"] = round(err, 2)
        used = a.confidence >= APPLY_MIN_CONFIDENCE
        row["verdict"] = ("ok" if used else "low") if abs(err) <= 1.0 else \
            ("WRONG" if used else "wrong-low")
    return row


def genuine(row: dict) -> bool:
    return row["kind"].startswith(GENUINE_KINDS)


def clock_or_human(row: dict) -> bool:
    return row["kind"].startswith(CLOCK_KINDS)


def tampered(row: dict) -> bool:
    return not genuine(row) and not clock_or_human(row)


def summary(rows: list[dict]) -> str:
    lines = []
    for title, pick in (("all games", lambda r: True),
                        ("tuning games", lambda r: not held_out(r["game"])),
                        ("held-out games", lambda r: held_out(r["game"]))):
        for part, sel in (("genuine", genuine), ("human/clock", clock_or_human),
                          ("tampered", tampered)):
            rs = [r for r in rows if pick(r) and sel(r)]
            c = {v: sum(r["verdict"] == v for r in rs) for v in
                 ("ok", "low", "WRONG", "wrong-low", "none")}
            warned = sum(bool(r["warnings"]) for r in rs)
            lines.append(f"{title:14s} {part:11s} runs {len(rs):3d}: ok {c['ok']:3d}, low "
                         f"{c['low']:2d}, none {c['none']:3d}, WRONG {c['WRONG']}, wrong-low "
                         f"{c['wrong-low']}; runs with a sync warning {warned}")
    return "\n".join(lines)


def per_game(rows: list[dict]) -> str:
    """Per game and recorder: runs, ok / low / none / WRONG (genuine-like runs)."""
    out = ["| game | recorder | held out | genuine-like runs | ok | low | none | WRONG |",
           "|---|---|---|---|---|---|---|---|"]
    keys = sorted({(r["game"], r["recorder"]) for r in rows})
    for g, rec in keys:
        rs = [r for r in rows if (r["game"], r["recorder"]) == (g, rec) and not tampered(r)]
        if not rs:
            continue
        c = {v: sum(r["verdict"] == v for r in rs) for v in ("ok", "low", "none", "WRONG")}
        out.append(f"| {g} | {rec} | {'yes' if held_out(g) else ''} | {len(rs)} | {c['ok']} | "
                   f"{c['low']} | {c['none']} | {c['WRONG']} |")
    return "\n".join(out)


def table(rows: list[dict]) -> str:
    out = ["| run | kind | rec | held out | truth | suggested | err (frames) | conf | "
           "verdict | warnings |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        s = "-" if r["suggested"] is None else f"{r['suggested']:.4f}"
        e = "-" if r["err_frames"] is None else f"{r['err_frames']:+.2f}"
        out.append(f"| {r['run']} | {r['kind']} | {r['recorder']} | "
                   f"{'yes' if held_out(r['game']) else ''} | {r['truth']} | {s} | {e} | "
                   f"{r['confidence']:.2f} | {r['verdict']} | {', '.join(r['warnings'])} |")
    return "\n".join(out)


def compare(a_path: str, b_path: str) -> None:
    a = {r["run"]: r for r in map(json.loads, Path(a_path).read_text().splitlines())}
    b = {r["run"]: r for r in map(json.loads, Path(b_path).read_text().splitlines())}
    changed = 0
    for k in sorted(a.keys() & b.keys()):
        x, y = a[k], b[k]
        keys = ("suggested", "confidence", "verdict", "findings")
        if any(x[q] != y[q] for q in keys):
            changed += 1
            print(f"{k}: {x['verdict']} {x['suggested']} ({x['err_frames']}, "
                  f"{x['confidence']}) -> {y['verdict']} {y['suggested']} ({y['err_frames']}, "
                  f"{y['confidence']})" + ("" if x["findings"] == y["findings"] else
                                           f"; findings {x['findings']} -> {y['findings']}"))
    print(f"{changed} of {len(a.keys() & b.keys())} runs changed")
    print("before:\n" + summary(list(a.values())))
    print("after:\n" + summary(list(b.values())))


def mismatched(splice: bool) -> list[tuple[Path, Path]]:
    """Each genuine run's video beside the next genuine run's log (in the sweep's order,
    wrapping) of another game."""
    gen = [d for d in runs([], splice)
           if json.loads((d / "truth.json").read_text()).get("kind", "").startswith(GENUINE_KINDS)]
    games = [json.loads((d / "truth.json").read_text())["game"] for d in gen]
    pairs = []
    for i, d in enumerate(gen):
        j = next((j for j in [*range(i + 1, len(gen)), *range(i)] if games[j] != games[i]),
                 None)
        if j is not None:
            pairs.append((d, gen[j]))
    return pairs


def mismatch_sweep(splice: bool, out_path: str | None) -> None:
    from moderator_app.core.sync.records import APPLY_MIN_CONFIDENCE
    out = open(out_path, "w") if out_path else None  # noqa: SIM115
    rows = []
    for d, log in mismatched(splice):
        try:
            row = read_run(d, log)
        except Exception as exc:  # a run that cannot be read is said, the sweep goes on
            print(f"{d}: {type(exc).__name__}: {exc}", file=sys.stderr)
            continue
        rows.append(row)
        if row["suggested"] is not None:
            print(f"{row['video']} + {row['log']}: {row['suggested']} at {row['confidence']}")
        if out:
            out.write(json.dumps(row) + "\n")
            out.flush()
    shown = [r for r in rows if r["suggested"] is not None]
    print(f"mismatched pairs {len(rows)}: suggestions {len(shown)}, at >= "
          f"{APPLY_MIN_CONFIDENCE} {sum(r['confidence'] >= APPLY_MIN_CONFIDENCE for r in shown)}")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--out", default=None)
    p.add_argument("--only", nargs="*", default=[])
    p.add_argument("--splice", action="store_true",
                   help="also .cache/s25-splice and s25-splice2 (session 26)")
    p.add_argument("--compare", nargs=2, default=None)
    p.add_argument("--table", action="store_true", help="print the per-run table")
    p.add_argument("--games", action="store_true", help="print the per-game table")
    p.add_argument("--rows", default=None, help="read the rows of an earlier --out")
    p.add_argument("--mismatch", action="store_true",
                   help="each genuine video against another game's genuine log")
    args = p.parse_args()
    if args.mismatch:
        mismatch_sweep(args.splice, args.out)
        return
    if args.compare:
        compare(*args.compare)
        return
    if args.rows:
        rows = [json.loads(x) for x in Path(args.rows).read_text().splitlines()]
        print((table(rows) + "\n\n" if args.table else "")
              + (per_game(rows) + "\n\n" if args.games else "") + summary(rows))
        return
    rows = []
    out = open(args.out, "w") if args.out else None  # noqa: SIM115
    for d in runs(args.only, args.splice):
        try:
            row = read_run(d)
        except Exception as exc:  # a run that cannot be read is said, the sweep goes on
            print(f"{d}: {type(exc).__name__}: {exc}", file=sys.stderr)
            continue
        rows.append(row)
        if out:
            out.write(json.dumps(row) + "\n")
            out.flush()
    if args.table:
        print(table(rows))
    if args.games:
        print(per_game(rows))
    print(summary(rows))


if __name__ == "__main__":
    main()
