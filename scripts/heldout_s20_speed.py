"""Session 20's held-out speed runs (issue 13, `sync.drift`): one game no corpus set or QA
pass used (Asterix), genuine / +4 % / -4 % at QA s19's two recorders (120 fps x264rgb and
23.976 fps VP9+Opus), built with QA s19's machinery under `.cache/heldout-s20/` and judged
with its judge. Measured once, after the session's speed work; never tuned on.

    .venv/bin/python scripts/heldout_s20_speed.py build|sync [RUN...]
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "scripts")]
import qa_session19 as s19  # noqa: E402

CACHE = REPO / ".cache" / "heldout-s20"
for _m in (s19, s19.s10, s19.s12, s19.s13, s19.s14, s19.s15, s19.s16, s19.s17, s19.s18):
    _m.CACHE = CACHE


def asterix(ram, rng: random.Random) -> list[tuple[str, int]]:
    """Asterix (lanes of objects scroll on their own; the joystick moves Asterix between
    lanes and along them)."""
    return [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT")), rng.randint(4, 12))]


GAMES = {"asterix": (asterix, 201)}
s19.GAMES.clear()
s19.GAMES.update(GAMES)
RUNS = [f"asterix-{k}@{r}" for r in s19.RECORDERS for k in ("genuine", "speed4", "slow")]


def main(argv: list[str]) -> int:
    what, names = (argv[0] if argv else ""), (argv[1:] or RUNS)
    for name in names:
        if what == "build":
            print(name, s19.build_sync_run(name), flush=True)
        elif what == "sync":
            print(json.dumps(s19.check_sync(name)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
