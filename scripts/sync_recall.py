"""Session 13's recall table for issue 13 (docs/qa/session13-sync.md): for every tampered and
genuine real-game run of the low-signal games, which finding of ANY rule (sync.*, video.cut,
video.frozen, video.timestamp_gap, ...) lands at the tampering's place, and what else is said.

    .venv/bin/python scripts/sync_recall.py [--tree DIR] [--out FILE] [RUN...]
    .venv/bin/python scripts/sync_recall.py --build-held-out      # road_runner, berzerk

Runs: session 12 QA's Alien and Amidar (`.cache/qa-s12/sync`, or the session's shared cache),
session 11's Atlantis, Demon Attack, Q*bert and Bowling (`.cache/qa-s11/sync` or the cache),
and session 13's held-out Road Runner and Berzerk (`.cache/qa-s13/sync`, built here with the
corpus machinery; never tuned on). Each run is checked twice, as a moderator would:
`verify DIR --scan --json --offset auto` and `verify DIR --scan --sync --json --offset TRUTH`.
`--tree DIR` runs another checkout's code (a `git archive main` copy: the "before" column)
with this tree's .venv. Rows are JSON lines in `--out`; the table is printed as Markdown.

A warning is *at the place* when its video span is within 1 s of the tampering's (cut: the
splice; insert, freeze, deleted, human: the stretch's start or end; speed: a `sync.drift`
within 1 percentage point); the tampering is *found* when one of them is of a rule that says
what it is (FITS: a game's own still stretch next to a deleted stretch is not its finding). Any other warning is listed as *other*; on a genuine run every
warning is false. Nothing here is imported by the app or the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests")]
SHARED_CACHE = Path("/work/wt/s13-cache")
PY = str(REPO / ".venv" / "bin" / "python")
LIMIT = ["prlimit", "--as=1073741824", "timeout", "300"]
NEAR_S = 1.0
DRIFT_PP = 1.0

SETS = {  # folder under .cache (or the shared cache) -> games
    "qa-s12": ("alien", "amidar"),
    "qa-s11": ("atlantis", "demon_attack", "qbert", "bowling"),
    "qa-s13": ("road_runner", "berzerk"),
}


# -- session 13's held-out games: in no corpus set, no QA set, no engineer's set --------------
def road_runner(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Road Runner (the coyote and the trucks move on their own; the bird runs only on input,
    mostly left, and the road scrolls as it runs)."""
    r = rng.random()
    if r < 0.6:
        return [(rng.choice(("LEFT", "UPLEFT", "DOWNLEFT", "LEFT")), rng.randint(8, 24))]
    if r < 0.85:
        return [(rng.choice(("UP", "DOWN", "RIGHT")), rng.randint(6, 16))]
    return [("NOOP", rng.randint(6, 14))]


def berzerk(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Berzerk (the robots walk and shoot on their own; the player walks only on input and
    FIRE with a direction shoots instead of walking)."""
    r = rng.random()
    if r < 0.7:
        return [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT", "UPRIGHT", "DOWNLEFT")),
                 rng.randint(8, 22))]
    return [(rng.choice(("UPFIRE", "DOWNFIRE", "LEFTFIRE", "RIGHTFIRE")), rng.randint(3, 8))]


HELD_OUT = {"road_runner": (road_runner, 83), "berzerk": (berzerk, 89)}
HELD_OUT_KINDS = ("genuine", "genuine2", "cut", "insert", "freeze", "speed", "slow", "deleted",
                  "human")


def build_held_out(name: str) -> Path:
    """One held-out run into .cache/qa-s13/sync/NAME (deterministic: fixed seeds)."""
    from corpus import agents
    from corpus.build import generate
    from corpus.record import Recorder

    out = REPO / ".cache" / "qa-s13" / "sync" / name
    if (out / "truth.json").exists():
        return out
    game, _, kind = name.partition("-")
    agent, seed = HELD_OUT[game]
    agents.AGENTS[game] = agent
    generate(game, kind, out, seed=seed, rec=Recorder(fps=60, scale=2))
    return out


# -- the check ---------------------------------------------------------------------------------
def run_dirs(names: list[str]) -> list[Path]:
    found = []
    for folder, games in SETS.items():
        for base in (REPO / ".cache" / folder / "sync", SHARED_CACHE / folder / "sync"):
            if base.is_dir():
                for d in sorted(base.iterdir()):
                    if d.name.partition("-")[0] in games and (d / "truth.json").exists() \
                            and any(d.glob("video.*")) \
                            and not any(x.name == d.name for x in found):
                        found.append(d)
    return [d for d in found if not names or d.name in names]


def verify(tree: Path, folder: Path, extra: list[str]) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    r = subprocess.run([*LIMIT, PY, "-m", "moderator_app", "verify", str(folder), "--json",
                        "--scan", *extra], capture_output=True, text=True, env=env, cwd=tree)
    try:
        rep = json.loads(r.stdout)
    except ValueError:
        rep = {"verdict": "crash", "error": r.stderr[-300:]}
    return {"exit": r.returncode, "rep": rep}


def timed_warnings(rep: dict) -> list[dict]:
    """Every warning or error with a video span: the scan's and the sync analysis'."""
    out = []
    for f in (rep.get("video_scan") or {}).get("findings", []):
        if f.get("severity") != "info":
            out.append({"rule": f["rule"], "a": f.get("start_s"), "b": f.get("end_s")})
    for f in (rep.get("sync") or {}).get("findings", []):
        out.append({"rule": f["rule"], "a": f.get("video_start_s"), "b": f.get("video_end_s"),
                    "percent": f.get("percent")})
    return out


def _near(w: dict, t: float) -> float:
    a, b = w["a"], w["b"] if w["b"] is not None else w["a"]
    if a is None:
        return float("inf")
    return 0.0 if a <= t <= b else min(abs(a - t), abs(b - t))


# The rules that say what a tampering is: a warning of another rule at the place (a game's own
# still stretch beside a deleted stretch) is listed as a hit of "any rule", not counted found.
FITS = {
    "cut": ("sync.offset_jump", "sync.no_reaction", "video.cut", "video.timestamp_gap"),
    "insert": ("sync.offset_jump", "sync.no_reaction", "sync.activity_without_actions",
               "video.cut", "video.timestamp_gap"),
    "freeze": ("sync.no_reaction", "video.frozen"),
    "deleted": ("sync.activity_without_actions",),
    "human": ("sync.activity_without_actions",),
}


def judge(truth: dict, warns: list[dict]) -> tuple[bool | None, list[dict], list[dict]]:
    """(found, hits, others); found None for a genuine run, else whether a hit is of a rule
    that says what the tampering is (FITS)."""
    tp = truth["tamper"]
    kind = tp["kind"]
    if kind.startswith("genuine"):
        return None, [], warns
    if "percent" in tp:
        hits = [w for w in warns if w["rule"] == "sync.drift" and w.get("percent") is not None
                and abs(w["percent"] - tp["percent"]) <= DRIFT_PP]
    else:
        places = [tp.get("video_s", tp.get("video_start_s"))]
        if kind != "cut":
            places.append(tp.get("video_end_s"))
        hits = [w for w in warns if any(p is not None and _near(w, p) <= NEAR_S
                                        for p in places)]
    fit = FITS.get(kind, ("sync.drift",))
    return any(w["rule"] in fit for w in hits), hits, [w for w in warns if w not in hits]


def check(tree: Path, folder: Path) -> dict:
    truth = json.loads((folder / "truth.json").read_text())
    row: dict = {"run": folder.name, "kind": truth["tamper"]["kind"], "tamper": truth["tamper"],
                 "truth_offset_s": truth["offset_s"], "fps": truth["fps"]}
    for label, extra in (("auto", ["--offset", "auto"]),
                         ("truth", ["--sync", "--offset", str(truth["offset_s"])])):
        out = verify(tree, folder, extra)
        rep = out["rep"]
        sync = rep.get("sync") or {}
        off = sync.get("suggested_offset_s")
        warns = timed_warnings(rep)
        found, hits, others = judge(truth, warns)
        row[label] = {"exit": out["exit"], "verdict": rep.get("verdict"),
                      "error": rep.get("error"), "offset_err_frames": None if off is None
                      else round((off - truth["offset_s"]) * truth["fps"], 2),
                      "confidence": sync.get("confidence"), "found": found, "hits": hits,
                      "others": others}
    return row


def _w(ws: list[dict]) -> str:
    def one(w):
        p = f" {w['percent']:+.2f} %" if w.get("percent") is not None else ""
        a = "" if w["a"] is None else f" {w['a']:.2f}"
        return f"{w['rule']}{a}{p}"
    return ", ".join(one(w) for w in ws) or "-"


def place(tp: dict) -> str:
    if "percent" in tp:
        return f"{tp['percent']:+.2f} %"
    a = tp.get("video_s", tp.get("video_start_s"))
    b = tp.get("video_end_s")
    return "-" if a is None else f"{a:.2f}" + ("" if b is None else f"-{b:.2f}")


def table(rows: list[dict]) -> str:
    out = ["| run | place (video s) | auto: offset | auto: found by | --offset TRUTH: found by "
           "| other warnings (auto / truth) |", "|---|---|---|---|---|---|"]
    for r in rows:
        a, t = r["auto"], r["truth"]
        off = ("not enough signal" if a["exit"] == 2 and a["offset_err_frames"] is None
               else f"{a['offset_err_frames']:+.2f} fr" if a["offset_err_frames"] is not None
               else a["verdict"])

        def f(x):
            if x["found"] is None:
                return "(genuine)"
            if x["found"]:
                return "**" + _w(x["hits"]) + "**"
            return "missed" + (f" (at the place: {_w(x['hits'])})" if x["hits"] else "")
        out.append(f"| {r['run']} | {place(r['tamper'])} | {off} | {f(a)} | {f(t)} | "
                   f"{_w(a['others'])} / {_w(t['others'])} |")
    tam = [r for r in rows if r["auto"]["found"] is not None]
    gen = [r for r in rows if r["auto"]["found"] is None]
    wrong = [r["run"] for r in gen if r["auto"]["offset_err_frames"] is not None
             and abs(r["auto"]["offset_err_frames"]) > 1.0]
    def said(r, sync):
        return any(w["rule"].startswith("sync.") == sync
                   for w in r["auto"]["others"] + r["truth"]["others"])
    false = [r["run"] for r in gen if said(r, True)]
    scan = [r["run"] for r in gen if said(r, False)]
    out.append("")
    out.append(f"Tamperings found: auto {sum(bool(r['auto']['found']) for r in tam)} of "
               f"{len(tam)}, at the true offset {sum(bool(r['truth']['found']) for r in tam)} "
               f"of {len(tam)}, either {sum(bool(r['auto']['found'] or r['truth']['found']) for r in tam)}"
               f"; genuine runs {len(gen)}: wrong offsets {wrong or 'none'}, with a sync "
               f"warning {false or 'none'}, with a scan warning {scan or 'none'}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("runs", nargs="*")
    p.add_argument("--tree", type=Path, default=REPO)
    p.add_argument("--out", type=Path)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--build-held-out", action="store_true")
    p.add_argument("--rows", type=Path, action="append",
                   help="judge and print rows written by --out before (no verify run)")
    args = p.parse_args(argv)
    if args.rows:
        rows = [json.loads(line) for f in args.rows for line in f.read_text().splitlines()]
        for r in rows:
            for label in ("auto", "truth"):
                x = r[label]
                x["found"], x["hits"], x["others"] = judge({"tamper": r["tamper"]},
                                                           x["hits"] + x["others"])
        rows = [r for r in rows if not args.runs or r["run"] in args.runs]
        print(tables(rows))
        return 0
    if args.build_held_out:
        for g in HELD_OUT:
            for k in HELD_OUT_KINDS:
                print(build_held_out(f"{g}-{k}"), flush=True)
        return 0
    dirs = run_dirs(args.runs)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(args.jobs) as ex:
        rows = list(ex.map(lambda d: check(args.tree.resolve(), d), dirs))
    if args.out:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    print(tables(rows))
    return 0


def tables(rows: list[dict]) -> str:
    """One table per set (SETS), each with its summary line."""
    out = []
    for folder, games in SETS.items():
        mine = [r for r in rows if r["run"].partition("-")[0] in games]
        if mine:
            out.append(f"### {folder}: {', '.join(games)}\n\n{table(mine)}\n")
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
