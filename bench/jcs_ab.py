"""A/B of two builds of the C accelerator (`_jcs`): `summarise` per byte, in one process.

Both shared objects are loaded side by side (each from a copy, under the module's own name),
then every shape's blocks are summarised by A and by B in turn, `--repeat` rounds, the best
CPU time of each kept: on a shared machine noise only ever adds time, and interleaving puts
the same noise on both. The results must be equal on every block (`same=`); a change to the
C path that is not an A/B of equal outputs is a bug, not a speed-up.

Why here: sessions 26-28 measured every change to `_jcs.c` this way from a /tmp script; a
whole `verify --json` moves by a third of what the C summary does and is noisier.

Usage: python bench/jcs_ab.py A.so B.so FILE.jsonl.zst... [--repeat 5] [--mib 16]
(an A/A run of one build against itself shows the harness's own noise: under 1 %).
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import shutil
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

NAME = "moderator_app.core.formats._jcs"


def load(path: Path) -> ModuleType:
    """The extension at `path` as a module of its own (a second load of the same file would
    return the first)."""
    loader = importlib.machinery.ExtensionFileLoader(NAME, str(path))
    spec = importlib.util.spec_from_file_location(NAME, str(path), loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def blocks_of(path: Path, limit: int) -> list[bytes]:
    """The first `limit` bytes of the trajectory, cut in blocks of ~1 MiB of whole lines (the
    first and the last dropped: run_start and a partial line)."""
    import zstandard

    with open(path, "rb") as fh:
        data = zstandard.ZstdDecompressor().stream_reader(fh, read_across_frames=True).read(limit)
    out, i = [], 0
    while i < len(data):
        j = data.find(b"\n", i + (1 << 20))
        j = len(data) if j < 0 else j + 1
        out.append(data[i:j])
        i = j
    return out[1:-1]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("a", type=Path)
    ap.add_argument("b", type=Path)
    ap.add_argument("files", type=Path, nargs="+")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--mib", type=int, default=16, help="bytes of each file to summarise")
    args = ap.parse_args()
    from moderator_app.core.verify.trajectory.native_blocks import MARKERS, SCHEMA

    with tempfile.TemporaryDirectory() as tmp:
        mods = []
        for tag, so in (("a", args.a), ("b", args.b)):
            copy = Path(tmp) / f"{tag}_{so.name}"
            shutil.copy(so, copy)
            mods.append(load(copy))
        for path in args.files:
            blocks = blocks_of(path, args.mib << 20)
            size = sum(map(len, blocks))
            best = [float("inf"), float("inf")]
            same = True
            for _ in range(args.repeat):
                results = []
                for k, mod in enumerate(mods):
                    cpu = time.process_time()
                    results.append([mod.summarise(b, SCHEMA, MARKERS) for b in blocks])
                    best[k] = min(best[k], time.process_time() - cpu)
                same &= results[0] == results[1]
            declined = sum(r is None for r in results[0])
            print(f"{path.parent.name:14s} {size / 1e6:6.1f} MB  A {best[0] * 1e9 / size:.3f} "
                  f"B {best[1] * 1e9 / size:.3f} ns/B  B/A {best[1] / best[0]:.3f}  "
                  f"same={same} declined={declined}/{len(blocks)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
