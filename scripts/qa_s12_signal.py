"""Session 12 (s12-signal): two HELD-OUT games for the sync analysis (issue 13), in no corpus
set and no QA pass: Atlantis and Demon Attack. Built with session 11's QA machinery
(scripts/qa_session11.py: the corpus' `generate()`, same kinds, same recorders); their results
on main were recorded before any change and the analysis was never tuned on them. Heavy files
go to `.cache/qa-s11/sync/` beside Q*bert's and Bowling's (gitignored).

    .venv/bin/python scripts/qa_s12_signal.py [RUN...]   # e.g. atlantis-genuine demon_attack-cut
    .venv/bin/python scripts/qa_s12_signal.py --tree /tmp/main-copy [RUN...]  # main's code
    .venv/bin/python scripts/qa_s12_signal.py --tree /tmp/main-copy qbert-cut  # s11's runs too
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "scripts")]
import qa_session11 as s11  # noqa: E402 - the builder and the checks


def atlantis(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Atlantis (ships cross the sky on their own all the time; input only fires one of the
    three guns: a shot is a small sprite rising from a fixed place)."""
    return [(rng.choice(("FIRE", "LEFTFIRE", "RIGHTFIRE")), rng.randint(3, 8))]


def demon_attack(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Demon Attack (demons flap and dive on their own; the cannon slides left/right on input
    and fires a laser)."""
    r = rng.random()
    if r < 0.3:
        return [("FIRE", rng.randint(3, 6))]
    if r < 0.8:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(6, 20))]
    return [(rng.choice(("LEFTFIRE", "RIGHTFIRE")), rng.randint(4, 12))]


s11.GAMES.update({"atlantis": (atlantis, 71), "demon_attack": (demon_attack, 73)})
KINDS = ("genuine", "genuine2", "genuine@r25webm", "cut", "insert", "freeze", "speed45",
         "deleted", "human")
RUNS = [f"{g}-{k}" for g in ("atlantis", "demon_attack") for k in KINDS]


def main(argv: list[str]) -> int:
    if argv[:1] == ["--tree"]:  # another tree's code (a `git archive main` copy), same runs
        tree, argv = argv[1], argv[2:]
        # run from the tree: `python -m` puts the working directory first on sys.path
        s11.s10.CLI[:] = ["sh", "-c", f'cd "{tree}" && exec "$0" -m moderator_app "$@"',
                          sys.executable]
    for name in (argv or RUNS):
        print(json.dumps(s11.check_sync(name)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
