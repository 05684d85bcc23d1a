"""A trajectory of French text written by `json.dumps(ensure_ascii=True)`: a `\\u00e9`-style
escape every ~12 bytes of its text (session 28). The shape of the escaped-secret markers'
cost: each `\\u00XX` escape shares its first four bytes with the escapes that can hide a
marker (`\\u004`, `\\u0020`), so the C search's candidates are checked by their fifth byte.

    python bench/latin_escapes.py OUT/events.jsonl.zst [EVENTS]
    python bench/jcs_ab.py A.so B.so OUT/events.jsonl.zst --repeat 5

Deterministic (seed 28); 40,000 events are 29 MiB, 5 MB compressed.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from moderator_app.core.samples.trajectory_writer import (  # noqa: E402
    make_run_events,
    write_trajectory,
)

WORDS = ["été", "château", "façade", "élève", "où", "très", "déjà", "garçon", "forêt",
         "hôpital", "naïve", "cœur", "Noël", "fenêtre"]


def main(out: str, n: int = 40_000) -> None:
    rng = random.Random(28)
    events = make_run_events(n, seed=28, variety=0.0, text_bytes=200)
    for e in events:
        if e["type"] in ("observation", "model_message"):
            e["payload"] = dict(e["payload"], text=" ".join(rng.choice(WORDS) for _ in range(40)))
    write_trajectory(out, events, encode=lambda e: json.dumps(
        e, ensure_ascii=True, separators=(",", ":")).encode())


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40_000)
