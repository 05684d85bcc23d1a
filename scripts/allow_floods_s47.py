"""Floods that spend or fund a file's allowance of inflated bytes (`secrets_inflate.Allowance`),
deterministic, for session 47's measures (allow; issue 15, review s46 R3's residual, QA s46 T6).

Shapes (each an agent log of observation lines, `DIR/<name>/agent-log.jsonl`):
- `fund_<MB>`: the reviewer's (review s46 R3, after 7105883) pairs of a funding line (base64
  of a 25-byte gzip member of "hello" and 1 MB of random junk after it: credited 4x the run on
  main, inflating 5 bytes) and a spending line (11.9 KB: gzip of 3.9 MB of base64 text, read
  through the detectors), to about MB megabytes;
- `fundonly_<MB>`: the funding lines alone;
- `combfund_<MB>`: the pairs with the funding member's junk in its gzip header's comment
  (FCOMMENT): bytes a decoder consumes and inflates to nothing (what crediting consumed bytes
  still pays for; measured, not refused);
- `gz<N>`: N lines each a 1 KB gzip bomb (1 MiB of zeros; session 46's flood).

Usage: python scripts/allow_floods_s47.py [--dir DIR] NAME... (default DIR: .cache/allow-s47)
"""

from __future__ import annotations

import argparse
import base64
import gzip
import random
import struct
import zlib
from pathlib import Path

import orjson

START = b'{"seq":0,"at":"2026-12-06T06:00:00.000Z","elapsedMs":0,"type":"run_start","data":{}}'


def _line(i: int, summary: str) -> bytes:
    return orjson.dumps({"seq": i + 1, "at": "2026-12-06T06:00:01.000Z", "elapsedMs": 1000 + i,
                         "type": "observation", "data": {"summary": summary}})


def _fund(rng: random.Random) -> str:
    return "$ tar c save | base64 -w0\n" + base64.b64encode(
        gzip.compress(b"hello", mtime=0) + rng.randbytes(1_000_000)).decode()


def _comment_member(body: bytes, comment: bytes) -> bytes:
    """A gzip member of `body` whose header carries `comment` (no NUL in it): RFC 1952's
    FCOMMENT, consumed by every decoder, inflating to nothing."""
    deflated = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = deflated.compress(body) + deflated.flush()
    return (b"\x1f\x8b\x08\x10" + bytes(6) + comment + b"\x00" + data
            + struct.pack("<II", zlib.crc32(body), len(body)))


def _combfund(rng: random.Random) -> str:
    comment = bytes(rng.randrange(1, 256) for _ in range(1_000_000))
    return "$ tar c save | base64 -w0\n" + base64.b64encode(
        _comment_member(b"hello", comment)).decode()


def _spend() -> str:
    m = base64.b64encode(gzip.compress(bytes(1 << 20), 9, mtime=0) * 3).decode()
    text = (m + "\n") * (3_900_000 // (len(m) + 1))
    return "$ gzip -c dump.b64 | base64 -w0\n" + base64.b64encode(
        gzip.compress(text.encode(), 9, mtime=0)).decode()


def build(root: Path, name: str) -> Path:
    """Writes `root/name/agent-log.jsonl` (above) and returns it."""
    kind, _, size = name.partition("_")
    rng = random.Random(3)
    if kind in ("fund", "fundonly", "combfund"):
        fund = _fund(rng) if kind != "combfund" else _combfund(rng)
        unit = [fund] if kind == "fundonly" else [fund, _spend()]
        each = sum(len(u) for u in unit)
        summaries = unit * max(1, int(size) * 1_000_000 // each)
    elif kind.startswith("gz"):
        bomb = base64.b64encode(gzip.compress(bytes(1 << 20), 9, mtime=0)).decode()
        summaries = [f"$ gzip -c dump.bin | base64 -w0\n{bomb}"] * int(kind[2:])
    else:
        raise SystemExit(f"unknown shape {name!r}")
    out = root / name / "agent-log.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "wb") as f:
        f.write(START + b"\n")
        for i, summary in enumerate(summaries):
            f.write(_line(i, summary) + b"\n")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", default=".cache/allow-s47")
    ap.add_argument("names", nargs="+")
    args = ap.parse_args()
    for name in args.names:
        path = build(Path(args.dir), name)
        print(path, path.stat().st_size)


if __name__ == "__main__":
    main()
