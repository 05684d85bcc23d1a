"""How many of a chain's lines, and of their payloads, are already spelled as RFC 8785 spells them.

Why: a verifier that checks a line is canonical and then hashes its bytes as they stand (no
parse, no canonical form built) only pays where producers write canonical lines (session 36,
issue 15: 0 of 2,000 lines, and 0 payloads, in each of QA s32-s35's held-out chains; 0 of 500
lines on each of nine bench shapes, whose writer puts `hash` last, where no canonical line has
it). Run it on a new producer's file before building on such a path.

A line counts when it equals `canonical_json` of its event (the `hash` member included, where
RFC 8785 puts it: first); a payload when its canonical bytes stand in the line as they are.

Usage: python bench/canonical_lines.py FILE.jsonl[.zst]... [--lines 2000]
"""

from __future__ import annotations

import argparse
import io
import itertools
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from moderator_app.core.formats.canonical import canonical_json  # noqa: E402


def shares(path: Path, limit: int) -> tuple[int, int, int]:
    """(lines read, lines canonical, payloads canonical as they stand) of the first `limit`."""
    import zstandard

    with open(path, "rb") as fh:
        raw = (zstandard.ZstdDecompressor().stream_reader(fh, read_across_frames=True)
               if path.suffix == ".zst" else fh)
        n = whole = payload = 0
        for line in itertools.islice(io.BufferedReader(raw), limit):  # type: ignore[arg-type]
            text = line.rstrip(b"\n")
            event = json.loads(text)
            n += 1
            whole += canonical_json(event) == text
            payload += canonical_json(event.get("payload")) in text
    return n, whole, payload


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--lines", type=int, default=2000)
    args = ap.parse_args()
    for path in args.files:
        n, whole, payload = shares(path, args.lines)
        print(f"{path}: {n} lines, {whole} canonical, {payload} payloads canonical as they stand")
    return 0


if __name__ == "__main__":
    sys.exit(main())
