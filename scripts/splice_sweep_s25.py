"""Session 25's splice gate (issue 13): the sync analysis on every cached real-game run at
`--offset auto` and at offsets given near the truth, each splice (cut / cutlong / insert)
judged found or not, and every sync warning on a genuine-like run counted.

    .venv/bin/python scripts/splice_sweep_s25.py build [RUN...]    # the fresh runs (below)
    .venv/bin/python scripts/splice_sweep_s25.py sweep [--out F] [--sets corpus,fresh,qa]
    .venv/bin/python scripts/splice_sweep_s25.py table F [G]       # F's table (G: before)

Runs (deterministic: fixed seeds, fixed encoder settings; signals cached as the tests cache
them, MODERATOR_APP_CACHE = the corpus' scan-cache):
- `corpus`: every run in .cache/corpus/v2 with a truth.json (the corpus, the held-out set as
  cached, s22's and s23's built runs, qa13-qa20's kept runs);
- `qa`: QA s21's and s23's kept sync runs (.cache/qa-s2{1,3}/sync); QA s24's (Assault, Name
  This Game) are held out and never read here;
- `fresh`: session 25's own runs (`build`), two games and a recorder no set used, into
  .cache/s25-splice/: Galaxian (the formation sways and dives on its own), Star Gunner
  (the enemies fly on their own) and Yars' Revenge (the shield shifts on its own), H.264 in Matroska at 30 fps, x2 bilinear, CRF 28, a 2.6 s
  lead-in; and Frostbite, Kangaroo and Carnival (whose splices `band_jump` reads at the
  truth) on new seeds through that recorder (`REPLAYED`).

Offsets: auto (None), the truth, the truth + 0.3 s, the truth - 0.5 s, the truth - 1.0 s.
A splice is *found* at an offset when a `sync.offset_jump` lies within 1 s of its place
(cut: the splice; insert: its start) and its size within 2 frames of the truth's; a
*misplaced* warning is any `sync.offset_jump` more than 1 s from it. On a genuine-like run
(genuine*, pause*: `GENUINE`; a human's stretch is a tampering) every sync warning
counts. Rows are JSON lines; the table is printed as Markdown. Nothing here is imported by the
app or the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "tests" / "sync")]
MAIN = Path("/work/main")
CORPUS = Path(os.environ.get("MODERATOR_CORPUS_DIR", MAIN / ".cache" / "corpus")) / "v2"
FRESH = MAIN / ".cache" / "s25-splice"
QA_SETS = [MAIN / ".cache" / "qa-s21" / "sync", MAIN / ".cache" / "qa-s23" / "sync"]
SPLICES = ("cut", "cutlong", "insert")
GENUINE = ("genuine", "genuine2", "genuine3", "genuinelong", "pause", "pauselong")
OFFSETS = ("auto", "truth", "+0.3", "-0.5", "-1.0")
NEAR_S = 1.0


# -- the fresh runs -------------------------------------------------------------------------
def galaxian(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Galaxian (the formation sways and its ships dive on their own; LEFT/RIGHT move the
    ship, FIRE shoots)."""
    r = rng.random()
    if r < 0.5:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(6, 14))]
    if r < 0.8:
        return [("FIRE", rng.randint(3, 6))]
    return [(rng.choice(("LEFTFIRE", "RIGHTFIRE")), rng.randint(4, 8))]


def star_gunner(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Star Gunner (the enemies fly on their own; the stick moves the ship, FIRE shoots)."""
    r = rng.random()
    if r < 0.55:
        return [(rng.choice(("LEFT", "RIGHT", "UP", "DOWN")), rng.randint(6, 14))]
    if r < 0.8:
        return [("FIRE", rng.randint(3, 6))]
    return [(rng.choice(("LEFTFIRE", "RIGHTFIRE", "UPFIRE", "DOWNFIRE")), rng.randint(4, 8))]


def yars_revenge(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Yars' Revenge (the shield shifts and the destroyer missile homes on its own; the stick
    flies Yar, FIRE shoots)."""
    r = rng.random()
    if r < 0.6:
        return [(rng.choice(("LEFT", "RIGHT", "UP", "DOWN", "UPRIGHT", "DOWNLEFT")),
                 rng.randint(6, 14))]
    return [(rng.choice(("FIRE", "UPFIRE", "DOWNFIRE")), rng.randint(3, 6))]


GAMES = {"galaxian": (galaxian, 251), "star_gunner": (star_gunner, 253),
         "yars_revenge": (yars_revenge, 257)}
RECORDER = "r30mkvq28"
KINDS = ("genuine", "genuine2", "cut", "insert", "cutlong")
FRESH_RUNS = [f"{g}-{k}@{RECORDER}" for g in GAMES for k in KINDS]
# Frostbite's long cut and insertion (the corpus' own runs, not kept in its cache; session 24
# built them into a private cache): built into the corpus' cache by `corpus.build`
CORPUS_EXTRA = ["frostbite-insert", "frostbite-cutlong"]


def _carnival(ram, rng: random.Random) -> list[tuple[str, int]]:
    from test_sync_band_jump_dating import carnival

    return carnival(ram, rng)


# The games whose splices `band_jump` reads at the truth (Frostbite, Kangaroo, Carnival), on
# new seeds through the same new recorder: presses at other times bracket their splices
# differently (the R3 rule's own gate). Agents: the corpus' and QA s23's.
REPLAYED = {"frostbite": 261, "kangaroo": 263, "carnival": 267}
REPLAYED_RUNS = [f"{g}-{k}@{RECORDER}" for g in REPLAYED for k in ("genuine", "cut", "insert")]


def build_fresh(name: str) -> Path:
    """One fresh run into FRESH/NAME, atomically (a half-built run is never read)."""
    from corpus import agents
    from corpus.build import generate
    from corpus.record import Recorder

    out = FRESH / name
    if (out / "truth.json").exists():
        return out
    game, _, kind = name.partition("-")
    kind = kind.partition("@")[0]
    if game in REPLAYED:
        seed = REPLAYED[game]
        if game == "carnival":
            agents.AGENTS[game] = _carnival
    else:
        agent, seed = GAMES[game]
        agents.AGENTS[game] = agent
    rec = Recorder(fps=30, scale=2, flags="bilinear", crf=28, container="mkv", lead_s=2.6)
    FRESH.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=FRESH))
    try:
        generate(game, kind, tmp, seed=seed, rec=rec, rec_name=RECORDER)
        tmp.rename(out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out


# -- the sweep ------------------------------------------------------------------------------
def runs(sets: list[str]) -> list[tuple[str, Path]]:
    out: list[tuple[str, Path]] = []
    if "corpus" in sets:
        out += [(p.name, p) for p in sorted(CORPUS.iterdir()) if (p / "truth.json").exists()]
    if "qa" in sets:
        for d in QA_SETS:
            if d.is_dir():
                out += [(f"{d.parent.name}/{p.name}", p) for p in sorted(d.iterdir())
                        if (p / "truth.json").exists()]
    if "fresh" in sets and FRESH.is_dir():
        out += [(f"s25/{p.name}", p) for p in sorted(FRESH.iterdir())
                if (p / "truth.json").exists() and not p.name.startswith(".")]
    return out


def _events(folder: Path, kind: str) -> list[float]:
    lines = (folder / "agent-log.jsonl").read_bytes().splitlines()
    return [e["elapsedMs"] / 1000 for e in map(json.loads, lines) if e["type"] == kind]


def _kind(truth: dict) -> str:
    return str(truth.get("tamper", {}).get("kind") or truth.get("kind") or "")


def _place(truth: dict) -> tuple[float | None, float | None]:
    t = truth.get("tamper", {})
    return t.get("video_s"), t.get("size_s")


def _inputs(folder: Path, video: Path) -> tuple[list[float], list[str] | None]:
    """The inputs' times and kinds as the app reads them (`run.analyze_result`: the log's
    presses and the button each names, `inputs.inputs`; the kinds beside whole runs only).
    Session 25's sweep read the `action` events' times alone and no kinds: the analysis the
    CLI and the workstation run also answers to the kind the game reacts to first."""
    from moderator_app.core.formats.submission import load_submission
    from moderator_app.core.sync.inputs import inputs

    times, kinds = inputs(load_submission([folder / "agent-log.jsonl", video]))
    return times, (list(kinds) if len(kinds) == len(times) else None)


def _edges(truth: dict) -> list[float]:
    t = truth.get("tamper", {})
    return [float(e) for e in (t.get("video_s"), t.get("video_end_s")) if e is not None]


def row(name: str, folder: Path) -> dict:
    from moderator_app.core.sync.analysis import analyze
    from moderator_app.core.sync.signals import frame_signals
    from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

    truth = json.loads((folder / "truth.json").read_text())
    kind = _kind(truth)
    video = folder / truth.get("video", "video.mp4")
    sig = frame_signals(video)
    acts, kinds = _inputs(folder, video)
    end = _events(folder, "run_end")[-1]
    t0 = float(truth["offset_s"])
    vs, size = _place(truth)
    fps = float(truth.get("fps") or sig.fps)
    out: dict = {"run": name, "kind": kind, "t0": t0, "splice": vs, "size": size}
    for o in OFFSETS:
        given = None if o == "auto" else t0 if o == "truth" else t0 + float(o)
        t1 = time.process_time()
        a = analyze(acts, sig, DEFAULT_THRESHOLDS, given, run_duration_s=end, input_kinds=kinds)
        cpu = round(time.process_time() - t1, 3)
        warns = [f for f in a.findings if f.rule.startswith("sync.")]  # all warnings
        jumps = [(f.video_start_s, f.size_s) for f in a.findings if f.rule == "sync.offset_jump"]
        cell: dict = {"sug": a.suggested_offset_s, "jumps": jumps,
                      "warns": sorted({f.rule for f in warns}), "n_warns": len(warns),
                      "cpu": cpu}
        if kind in SPLICES and vs is not None:
            near = [(v, s) for v, s in jumps if v is not None and abs(v - vs) <= NEAR_S]
            cell["found"] = any(s is not None and size is not None and
                                abs(s - size) <= 2 / fps + 1e-9 for _, s in near)
            cell["misplaced"] = sum(1 for v, _ in jumps if v is None or abs(v - vs) > NEAR_S)
            cell["err"] = (round(min(abs(v - vs) for v, _ in near), 3) if near else None)
            # every sync warning's span and its nearest edge to a splice's (QA's bar: an edge
            # within 1 s of the splice's, or no warning)
            edges = _edges(truth)
            cell["spans"] = [(f.rule, f.video_start_s, f.video_end_s,
                              round(min(abs(x - e) for x in (f.video_start_s, f.video_end_s)
                                        if x is not None for e in edges), 3)
                              if edges and f.video_start_s is not None else None)
                             for f in warns]
        out[o] = cell
    return out


def sweep(sets: list[str], out_path: Path) -> None:
    done = set()
    if out_path.exists():
        done = {json.loads(x)["run"] for x in out_path.read_text().splitlines() if x.strip()}
    with out_path.open("a") as fh:
        for name, folder in runs(sets):
            if name in done:
                continue
            try:
                r = row(name, folder)
            except Exception as exc:  # noqa: BLE001 - a run that cannot be read is a row
                r = {"run": name, "error": repr(exc)}
            fh.write(json.dumps(r) + "\n")
            fh.flush()


def _load(path: Path) -> dict[str, dict]:
    return {r["run"]: r for r in map(json.loads, path.read_text().splitlines()) if "error" not in r}


def table(path: Path, before: Path | None = None) -> None:
    rows = _load(path)
    old = _load(before) if before else {}
    spl = [r for r in rows.values() if r["kind"] in SPLICES]
    gen = [r for r in rows.values() if r["kind"] in GENUINE]
    print(f"{len(rows)} runs; {len(spl)} splices; {len(gen)} genuine-like\n")
    print("| offset | splices found | misplaced warnings | genuine-like sync warnings "
          "| splice warnings with no edge within 1 s |")
    print("|---|---|---|---|---|")
    for o in OFFSETS:
        def fig(rs: dict[str, dict], o: str = o) -> tuple[int, int, int, int]:
            s = [r for r in rs.values() if r["kind"] in SPLICES]
            g = [r for r in rs.values() if r["kind"] in GENUINE]
            far = sum(1 for r in s for sp in r[o].get("spans", [])
                      if sp[3] is None or sp[3] > NEAR_S)
            return (sum(r[o]["found"] for r in s), sum(r[o]["misplaced"] for r in s),
                    sum(r[o]["n_warns"] for r in g), far)
        now = fig(rows)
        was = fig({k: v for k, v in old.items() if k in rows}) if old else None
        cells = [f"{w} -> {n}" if was else str(n) for n, w in
                 zip(now, was or now, strict=True)]
        print(f"| {o} | {cells[0]} of {len(spl)} | {cells[1]} | {cells[2]} | {cells[3]} |")
    print("\n| run | " + " | ".join(OFFSETS) + " |")
    print("|---|" + "---|" * len(OFFSETS))
    for r in sorted(spl, key=lambda r: r["run"]):
        def cell(c: dict) -> str:
            mark = "**found**" if c["found"] else "-"
            j = ", ".join(f"{v:.2f}({s:+.2f})" for v, s in c["jumps"]
                          if v is not None and s is not None)
            return f"{mark} {j}".strip()
        print(f"| {r['run']} ({r['splice']:.2f}, {r['size']:+.1f}) | " +
              " | ".join(cell(r[o]) for o in OFFSETS) + " |")
    def same(a: dict, b: dict) -> bool:  # the CPU time aside
        return {k: v for k, v in a.items() if k != "cpu"} == \
            {k: v for k, v in b.items() if k != "cpu"}

    diff = [k for k in rows if k in old and
            any(not same(rows[k][o], old[k][o]) for o in OFFSETS)]
    if old:
        print(f"\nruns whose row changed: {len(diff)}")
        for k in sorted(diff):
            for o in OFFSETS:
                if not same(rows[k][o], old[k][o]):
                    print(f"- {k} @ {o}: {old[k][o]} -> {rows[k][o]}")
    cpu = sorted(c["cpu"] for r in rows.values() for o in OFFSETS
                 if "cpu" in (c := r[o]))
    if cpu:
        print(f"\nanalysis CPU: median {cpu[len(cpu) // 2]:.3f} s, max {cpu[-1]:.3f} s, "
              f"total {sum(cpu):.1f} s over {len(cpu)} analyses")
    bad = [(r["run"], o, r[o]["warns"]) for r in gen for o in OFFSETS if r[o]["n_warns"]]
    if bad:
        print("\ngenuine-like runs with a sync warning:")
        for b in bad:
            print(f"- {b[0]} @ {b[1]}: {b[2]}")


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("what", choices=("build", "sweep", "table"))
    p.add_argument("args", nargs="*")
    p.add_argument("--out", default="/tmp/s25splice/sweep.jsonl")
    p.add_argument("--sets", default="corpus,qa,fresh")
    a = p.parse_args(argv)
    if a.what == "build":
        import corpus

        for name in a.args or [*CORPUS_EXTRA, *FRESH_RUNS, *REPLAYED_RUNS]:
            where = corpus.build(name).folder if name in CORPUS_EXTRA else build_fresh(name)
            print(name, where, flush=True)
    elif a.what == "sweep":
        os.environ.setdefault("MODERATOR_APP_CACHE", str(CORPUS / "scan-cache"))
        out = Path(a.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        sweep(a.sets.split(","), out)
        table(out)
    else:
        table(Path(a.args[0]), Path(a.args[1]) if len(a.args) > 1 else None)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
