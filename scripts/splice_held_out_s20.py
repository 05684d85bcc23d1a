"""Session 20's held-out game for cuts and insertions (issue 13): Air Raid, the first ale-py
game (alphabetically) that neither the corpus nor QA sessions 13-19 used, built with the same
machinery as QA s19 (`qa_session19.build_sync_run`: the corpus generator, its two recorders)
before any tuning, and measured on only at the end (docs/DECISIONS.md, session 20).

    .venv/bin/python scripts/splice_held_out_s20.py build [RUN...]   # under .cache/s20-splice

Runs: air_raid-{genuine,genuine2,cut,insert}@{r2398vp9opus,r120rgb3x}. Air Raid: planes fly
on their own; LEFT/RIGHT move the gun at the bottom, FIRE shoots. Nothing here is imported by
the app or the tests.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "scripts"), str(REPO / "tests")]

import qa_session14 as s14  # noqa: E402
import qa_session19 as s19  # noqa: E402

CACHE = REPO / ".cache" / "s20-splice"


def air_raid(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Air Raid: move the gun (LEFT/RIGHT) or shoot (FIRE, with a move or not)."""
    r = rng.random()
    if r < 0.55:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(5, 14))]
    return [(rng.choice(("FIRE", "LEFTFIRE", "RIGHTFIRE")), rng.randint(3, 8))]


s19.GAMES["air_raid"] = (air_raid, 201)
RUNS = [f"air_raid-{k}@{r}" for r in s19.RECORDERS for k in ("genuine", "genuine2", "cut",
                                                                  "insert")]


def main(argv: list[str]) -> int:
    if not argv or argv[0] != "build":
        print(__doc__)
        return 2
    s14.CACHE = CACHE
    for name in argv[1:] or RUNS:
        print(name, s19.build_sync_run(name), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
