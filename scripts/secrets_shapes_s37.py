"""The cost shapes of session 37's two decoded views (issue 15, QA s36 T5; secrets): 128 MiB
logs a view reads every line of, so that `verify` / `withhold` of each can be timed against
issue 15's bar (30 s of CPU per 512 MiB):

- e_octal_128mb: QA s35's e_xescape_128mb with each `\\xHH` written `\\NNN` (octal), its key on
  the last line so too (the octal view, `secrets_decode`);
- e_odc_128mb: 128 MiB of `od -c` dumps of honest text, 4 KB an observation, then a RubyGems
  key's dump (the character-dump view, `secrets_chars`).

    .venv/bin/python scripts/secrets_shapes_s37.py OUT_DIR
    /usr/bin/time -f "%U %S %M" .venv/bin/python -m moderator_app verify --json OUT_DIR/e_odc_128mb/agent-log.jsonl

Session 37 measured (user+sys, machine at load ~25): e_octal 5.59 / 6.03 s verify / withhold,
e_odc 9.27 / 9.18 s (over the bar: DECISIONS "Session 37, secrets").
"""

from __future__ import annotations

import json
import random
import re
import shutil
import sys
from pathlib import Path

CACHE = Path("/work/main/.cache")  # (the QA passes' logs, as scripts/qa_session36.py's)
XESCAPE = CACHE / "qa-s35" / "escape" / "e_xescape_128mb"
KEY = "rubygems_" + "3f6a9c0e2b4d8f1a7c5e3b9d0f2a4c6e8b1d3f5a7c9e0b2d"
WORDS = ["left", "right", "up", "down", "jump", "fire", "level", "score", "frame", "player",
         "ship", "piece", "board", "drop", "rotate", "menu"]
_ESC = {10: "\\n", 0: "\\0", 9: "\\t", 13: "\\r", 92: "\\\\"}


def _cell(b: int) -> str:
    if b in _ESC:
        return f"{_ESC[b]:>4}"
    return f"{chr(b):>4}" if 32 <= b < 127 else f" {b:03o}"


def od_c(data: bytes, width: int = 16) -> str:
    """`od -c` of `data`: octal offsets, `width` cells a row, the end's offset last."""
    rows = [f"{i:07o}" + "".join(map(_cell, data[i:i + width]))
            for i in range(0, len(data), width)]
    return "\n".join([*rows, f"{len(data):07o}"])


def _event(seq: int, summary: str) -> bytes:
    return json.dumps({"seq": seq, "at": "2026-10-22T18:00:01.000Z", "elapsedMs": 1000 + seq,
                       "type": "observation", "data": {"summary": summary}},
                      separators=(",", ":")).encode() + b"\n"


def build_octal(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    hx = re.compile(rb"\\\\x([0-9a-fA-F]{2})")
    with (XESCAPE / "agent-log.jsonl").open("rb") as src, \
            (out / "agent-log.jsonl").open("wb") as dst:
        for line in src:
            dst.write(hx.sub(lambda m: b"\\\\%03o" % int(m.group(1), 16), line))
    shutil.copy(XESCAPE / "video.mp4", out / "video.mp4")


def build_odc(out: Path, size: int = 128 << 20) -> None:
    out.mkdir(parents=True, exist_ok=True)
    rnd = random.Random(37)
    with (XESCAPE / "agent-log.jsonl").open("rb") as src:
        head = src.readline()
    with (out / "agent-log.jsonl").open("wb") as dst:
        dst.write(head)
        used, seq = len(head), 1
        while used < size - 20000:
            text = " ".join(rnd.choice(WORDS) if rnd.random() < .8 else str(rnd.randint(0, 9999))
                            for _ in range(700))[:4096] + "\n"
            line = _event(seq, "$ od -c notes.txt\n" + od_c(text.encode()) + "\n")
            dst.write(line)
            used, seq = used + len(line), seq + 1
        dst.write(_event(seq, "$ od -An -c ~/.gem/key\n" + od_c((KEY + "\n").encode()) + "\n"))
        dst.write(json.dumps({"seq": seq + 1, "at": "2026-10-22T18:00:01.000Z",
                              "elapsedMs": 1001 + seq, "type": "run_end",
                              "data": {"reason": "done"}}, separators=(",", ":")).encode() + b"\n")
    shutil.copy(XESCAPE / "video.mp4", out / "video.mp4")


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else CACHE / "s37-secrets"
    build_octal(root / "e_octal_128mb")
    build_odc(root / "e_odc_128mb")
    print(json.dumps({"octal": str(root / "e_octal_128mb"), "odc": str(root / "e_odc_128mb")}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
