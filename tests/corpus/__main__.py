"""Build every corpus run (`make corpus`): python -m corpus [NAME... | held-out] with tests/ on
sys.path (`held-out`: only the second held-out set, corpus.HELD_OUT_NAMES)."""

from __future__ import annotations

import sys
import time

from . import HELD_OUT_NAMES, NAMES, available, build, cache_dir


def main(argv: list[str]) -> int:
    why = available()
    if why:
        print(f"cannot build the corpus: {why}", file=sys.stderr)
        return 2
    names = argv or NAMES + HELD_OUT_NAMES
    if argv == ["held-out"]:
        names = list(HELD_OUT_NAMES)
    for name in names:
        t = time.perf_counter()
        run = build(name)
        print(f"{name:20s} {time.perf_counter() - t:6.1f} s  {run.folder}")
    print(f"corpus in {cache_dir()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
