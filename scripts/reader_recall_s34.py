"""The reaction reader's recall at the true offset on the wide set (issue 13, session 34).

    PYTHONPATH=. .venv/bin/python scripts/reader_recall_s34.py [OUT.jsonl] [--games g1,g2]
        [--kinds genuine,genuine2] [--sets wide,qa] [--table A.jsonl [B.jsonl]]
        [--per-game A.jsonl]

For every wide genuine run (`$MODERATOR_WIDE_DIR/sync/*-genuine*`), at the TRUE offset
(truth.json `offset_s` plus the file's shift, `wide_corpus.file_shift`: the product's clock),
each logged action's first reaction as the reader answers it, compared with the truth's
`actions[].shows_video_s` (the video time of the first frame that shows the press, plus the
same shift; null when never shown):

- recall: shown presses answered within one video frame of the truth's frame;
- false: answers for presses never shown, or more than one frame off.

Three readers, each the product's own call:
- `plain`: `reactions.measure` on the plain novelty at sync_reaction_z (the reader every
  stage starts from);
- `fixed`: `reading.analyze_at(fixed=True)` at the true offset, its `reactions` (the learned
  tile weights' novelty, `measure_all`: what the findings read);
- `answers`: `reactions.answers` (session 34): the plain reader or the onsets' surprise in
  their own tiles, within ANSWER_MAX_S, each frame's surprise judged against its own
  second (`surprise_null`, session 36). Read by the product since session 36
  (`Thresholds.sync_per_action_reader` on): `fixed` is then this reader on the learned
  weights' novelty.

`--sets qa` adds QA's kept genuine runs (the passes already judged, `judged_qa`: qa-s28 ...
qa-s34, never the session's own pass; held out, games outside the wide set; their truth's clock as `holds_sweep_s28` reads it, no file shift; their scans from QA's
caches, `appcache-holds`, or qa-s34's `appcache-764de5b`), marked `set: qa` and untuned.
Per run one JSON line; `--table` prints totals and the tuned / untuned split
(`wide_corpus.TUNED`) of one file, or two side by side with the rows that moved. Runs are
loaded as `holds_sweep_s28.load` loads them (the wide set's scan cache, `appcache`: no scan
is made, the analysis only). Deterministic. Nothing here is imported by the app or tests.

Baseline at 29c6c7b (session 34's start; 152 genuine and genuine2 runs, 4,090 actions, 2,393
of them shown by the truth; untuned: the 48 runs of the 24 games not in wide_corpus.TUNED,
720 shown presses):
    plain: right 762 (31.8 %), false 879 (518 never shown, 361 off: 338 late); untuned 206 of
           720 (28.6 %), false 284
    fixed: right 854 (35.7 %), false 880 (540 never shown, 340 off: 315 late); untuned 235 of
           720 (32.6 %), false 294
    answers: right 1,214 (50.7 %), false 512 (320 never shown, 192 off: 140 late); untuned
           328 of 720 (45.6 %), false 158; against plain, recall up in 101 runs, down in 5
           (basic_math 2, hero, human_cannonball, bank_heist: 1-4 each), false up in 29,
           down in 99; by game (76), recall up in 57, down in 4, false up in 14, down in 54
36 runs answer no shown press within a frame (`fixed`); 27 of them answer nothing at all.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import holds_sweep_s28 as holds  # noqa: E402
import wide_corpus  # noqa: E402

FRAME_TOL = 1.0  # frames: an answer this near the truth's first showing frame is right


def score(answers: list[float | None], shows: list[float | None], fps: float) -> dict:
    """Counts of one reader's answers against the truth's showing times (same clock)."""
    tol = (FRAME_TOL + 0.01) / fps
    shown = sum(s is not None for s in shows)
    right = sum(a is not None and s is not None and abs(a - s) <= tol
                for a, s in zip(answers, shows, strict=True))
    unshown = sum(a is not None and s is None for a, s in zip(answers, shows, strict=True))
    off = sum(a is not None and s is not None and abs(a - s) > tol
              for a, s in zip(answers, shows, strict=True))
    late = sum(a is not None and s is not None and a - s > tol
               for a, s in zip(answers, shows, strict=True))
    return {"shown": shown, "right": right, "false": unshown + off, "unshown": unshown,
            "off": off, "late": late, "answered": sum(a is not None for a in answers)}


def _cache(folder: Path) -> str:
    """The scan cache a run's scans are kept in (the wide set's, or its QA pass's)."""
    if folder.parents[1] == wide_corpus.WIDE:
        return str(wide_corpus.WIDE / "appcache")
    qa = folder.parents[1]
    own = qa / "appcache-holds"
    return str(own if own.is_dir() else qa / "appcache-764de5b")


def row(folder: Path) -> dict:
    """One run's counts for every reader at its true offset."""
    import numpy as np

    from moderator_app.core.sync import reactions, reading
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as th

    os.environ["MODERATOR_APP_CACHE"] = _cache(folder)
    truth, kept, kinds, _end, sig, _scan, _name = holds.load(folder)
    wide = folder.parents[1] == wide_corpus.WIDE
    shift = wide_corpus.file_shift(folder, float(truth["fps"]), str(truth.get("recorder"))) \
        if wide else 0.0
    t0 = float(truth["offset_s"]) + shift
    acts = truth["actions"]
    run_s = np.asarray(kept, float)
    # the truth's actions by their run time (the log's inputs are the same presses)
    by_ms: dict[int, float | None] = {}
    for a in acts:
        s = a.get("shows_video_s")
        by_ms.setdefault(int(a["elapsed_ms"]), None if s is None else float(s) + shift)
    shows = [by_ms.get(int(round(t * 1000))) for t in run_s.tolist()]
    matched = sum(int(round(t * 1000)) in by_ms for t in run_s.tolist())
    plain = reactions.measure(sig, reactions.novelty(sig), run_s, t0, 1.0, th.sync_reaction_z)
    new = reactions.answers(sig, run_s, t0, 1.0, th.sync_reaction_z)
    fixed = reading.analyze_at(run_s, sig, th, t0, input_kinds=kinds, fixed=True)
    fa: list[float | None] = [None] * len(run_s)
    for r in fixed.reactions:
        fa[r.index] = r.video_s
    game = truth["game"]
    return {"run": folder.name if wide else f"{folder.parents[1].name}/{folder.name}",
            "set": "wide" if wide else "qa", "game": game, "kind": truth["tamper"]["kind"],
            "tuned": wide and game in wide_corpus.TUNED, "fps": float(sig.fps), "actions": len(run_s),
            "matched": matched, "t0": round(t0, 6),
            "plain": score([r.video_s for r in plain], shows, sig.fps),
            "fixed": score(fa, shows, sig.fps),
            "answers": score([r.video_s for r in new], shows, sig.fps)}


QA_DOCS = Path(__file__).resolve().parents[1] / "docs" / "qa"


def judged_qa(cache: Path = holds.MAIN / ".cache") -> list[Path]:
    """The QA passes' sync folders whose pass is judged (its docs/qa/sessionNN.md holds its
    results: the "### Misses" heading every pass lands last), in session order. Why: a pass
    not yet judged is held out (session 35's qa-s35 while session 35 runs); session 34's
    measure read qa-s34 before its pass (review R6). A pass commits its doc with its
    expectations before any product run, so the doc's presence alone let the running pass in
    (session 35's review V1)."""
    out = []
    for d in cache.glob("qa-s*"):
        n = d.name[len("qa-s"):]
        doc = QA_DOCS / f"session{n}.md"
        if n.isdigit() and doc.is_file() and (d / "sync").is_dir() \
                and "\n### Misses" in doc.read_text(encoding="utf-8"):
            out.append((int(n), d / "sync"))
    return [d for _, d in sorted(out)]


def runs(kinds: set[str], games: set[str] | None, sets: tuple[str, ...] = ("wide",)) -> list[Path]:
    """The genuine runs of these kinds (and games) of the wide set and / or QA's passes
    (`sets`), in name order."""
    out = []
    dirs = [wide_corpus.WIDE / "sync"] if "wide" in sets else []
    if "qa" in sets:
        dirs += judged_qa()
    for p in [p for d in dirs for p in sorted(d.iterdir()) if (p / "truth.json").exists()]:
        game, _, rest = p.name.partition("-")
        kind = rest.partition("@")[0]
        if kind in kinds and (games is None or game in games):
            out.append(p)
    return out


def totals(rows: list[dict], reader: str) -> dict:
    """Summed counts of one reader over rows."""
    keys = ("shown", "right", "false", "unshown", "off", "late", "answered")
    return {k: sum(r[reader][k] for r in rows) for k in keys}


def _line(label: str, t: dict) -> str:
    rec = t["right"] / t["shown"] if t["shown"] else 0.0
    return (f"{label:<26} shown {t['shown']:5d}  right {t['right']:5d} ({rec:6.1%})  false "
            f"{t['false']:5d} (unshown {t['unshown']}, off {t['off']}, late {t['late']})")


def table(paths: list[Path]) -> None:
    """Totals per file (all / tuned / untuned), and with two files the runs that moved."""
    sets = [{json.loads(x)["run"]: json.loads(x) for x in p.read_text().splitlines() if x}
            for p in paths]
    names = sorted(set.intersection(*(set(s) for s in sets)))
    for reader in ("plain", "fixed", "answers"):
        print(f"== reader {reader}")
        for label, sel in (("all", lambda r: True), ("tuned", lambda r: r["tuned"]),
                           ("untuned", lambda r: not r["tuned"] and r.get("set") != "qa"),
                           ("qa (held out)", lambda r: r.get("set") == "qa")):
            for i, s in enumerate(sets):
                rows = [s[n] for n in names if sel(s[n]) and reader in s[n]]
                print(_line(f"{label} ({len(rows)} runs) [{i}]", totals(rows, reader)))
        if len(sets) == 2:
            a, b = sets
            up = down = 0
            for n in names:
                if reader not in a[n] or reader not in b[n]:
                    continue
                ra, rb = a[n][reader], b[n][reader]
                if (ra["right"], ra["false"]) != (rb["right"], rb["false"]):
                    up += rb["right"] > ra["right"]
                    down += rb["right"] < ra["right"]
                    print(f"  {n:<40} {'untuned' if not a[n]['tuned'] else 'tuned':<8} "
                          f"right {ra['right']}->{rb['right']} of {ra['shown']}  false "
                          f"{ra['false']}->{rb['false']}")
            print(f"  runs with recall up {up}, down {down}")


def per_game(path: Path, before: str = "plain", after: str = "answers") -> None:
    """Per game (its runs summed), shown presses, right and false answers of two readers of
    one file: `before` -> `after`, untuned games marked *."""
    rows = [json.loads(x) for x in path.read_text().splitlines() if x]
    games: dict[str, list[dict]] = {}
    for r in rows:
        games.setdefault(r["game"], []).append(r)
    for g, rs in sorted(games.items()):
        a, b = totals(rs, before), totals(rs, after)
        print(f"{g}{'' if rs[0]['tuned'] else '*'} {a['shown']}: right {a['right']}->"
              f"{b['right']}, false {a['false']}->{b['false']}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?")
    ap.add_argument("--games")
    ap.add_argument("--kinds", default="genuine,genuine2")
    ap.add_argument("--sets", default="wide")
    ap.add_argument("--table", nargs="+")
    ap.add_argument("--per-game")
    a = ap.parse_args()
    if a.per_game:
        per_game(Path(a.per_game))
        return
    if a.table:
        table([Path(p) for p in a.table])
        return
    games = set(a.games.split(",")) if a.games else None
    fh = open(a.out, "w") if a.out else sys.stdout  # noqa: SIM115
    for folder in runs(set(a.kinds.split(",")), games, tuple(a.sets.split(","))):
        print(json.dumps(row(folder)), file=fh, flush=True)
    if a.out:
        fh.close()


if __name__ == "__main__":
    main()
