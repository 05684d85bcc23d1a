"""Writing valid official trajectories: for tests, the bench, samples and other engineers.

Stable API:

    events = make_run_events(200, seed=1)                 # realistic, not yet chained
    chained = chain_events(events)                        # prev_hash/hash set (list of dicts)
    stats = write_trajectory("events.jsonl.zst", events)  # chains and writes; .zst by suffix
    lines = encode_lines(chained)                         # the bytes of each line, no newline

Hashes are computed with `chain.seal`, i.e. the reference RFC 8785 `canonical_json`, never
the verifier's fast path: the writer is the independent oracle the verifier is tested against.
Lines are orjson's compact form in the event's own member order (not canonical order: a
verifier must not depend on lines being canonical).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import orjson
import zstandard

from moderator_app.core.formats.chain import ZERO_HASH, seal
from moderator_app.core.samples.payload_shapes import shaped_payload
from moderator_app.core.verify.seeds import commitment

SCHEMA = "ale-trajectory-event/v1"
TRUST = {
    "agent": "untrusted_agent",
    "harness": "trusted_harness",
    "evaluator": "trusted_evaluator",
    "proxy": "trusted_proxy",
}


@dataclass(frozen=True)
class WriteStats:
    path: Path
    events: int
    head: str  # hash of the last event
    bytes_written: int  # size of the file on disk


def chain_events(events: Iterable[dict], prev_hash: str = ZERO_HASH) -> list[dict]:
    """Each event sealed onto the previous one (any `prev_hash`/`hash` given are replaced)."""
    out = []
    for ev in events:
        sealed = seal(ev, prev_hash)
        prev_hash = sealed["hash"]
        out.append(sealed)
    return out


def iter_chain(events: Iterable[dict], prev_hash: str = ZERO_HASH) -> Iterator[dict]:
    """Streaming `chain_events` (flat memory for the bench's 200,000 events)."""
    for ev in events:
        sealed = seal(ev, prev_hash)
        prev_hash = sealed["hash"]
        yield sealed


def encode_lines(chained: Iterable[dict]) -> Iterator[bytes]:
    for ev in chained:
        yield orjson.dumps(ev)


def write_trajectory(path: str | Path, events: Iterable[dict], compress: bool | None = None,
                     frames: int = 1, level: int = 3, chained: bool = False,
                     encode: Callable[[dict], bytes] = orjson.dumps) -> WriteStats:
    """Chain `events` (unless `chained`) and write them, one line each, `\\n`-terminated.

    `compress`: zstd when True; by default when the name ends in `.zst`. `frames` > 1 splits
    the stream into that many concatenated zstd frames (all must be read back). `encode`
    spells a line (another writer's spelling: the bench's `--writer dumps`).
    """
    path = Path(path)
    if compress is None:
        compress = path.name.endswith(".zst")
    total = len(events) if isinstance(events, Sequence) else None
    frames = max(1, frames) if total else 1
    per = -(-total // frames) if total else 0
    seq = iter(events) if chained else iter_chain(events)
    n = 0
    head = ZERO_HASH
    cctx = zstandard.ZstdCompressor(level=level, write_checksum=True)
    with open(path, "wb") as fh:
        zw = cctx.stream_writer(fh, closefd=False) if compress else None
        out: Any = fh if zw is None else zw
        for ev in seq:
            if zw is not None and per and n and n % per == 0:
                zw.flush(zstandard.FLUSH_FRAME)  # end this frame; the next write starts one
            out.write(encode(ev) + b"\n")
            head = ev["hash"]
            n += 1
        if zw is not None:
            zw.flush(zstandard.FLUSH_FRAME)
    return WriteStats(path, n, head, path.stat().st_size)


_WORDS = ("train", "loss", "python", "config", "step", "reward", "episode", "level", "move",
          "jump", "left", "right", "score", "frame", "policy", "value", "grad", "batch")
_VARIETY_KEYS = ("clé", "日本語", "\U0001f600emoji", "\ue000private", "ümlaut", "𝄞clef")


def _wall(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def make_run_events(n: int, seed: int = 0, run_id: str | None = None,
                    start: str = "2026-07-10T14:00:00Z", step_s: float = 0.5,
                    text_bytes: int = 200, variety: float = 0.2,
                    seeds: Sequence[str] = (), secret: str | None = None,
                    shape: str = "plain") -> list[dict]:
    """A realistic run of exactly `n` (>= 4) unchained events.

    Event 1 is the harness's `run_start`, then one `seed_commitment` per seed (from the trusted
    evaluator; random commitments when no `secret` is given), then agent `tool_call` /
    harness `observation` / agent `model_message` / proxy `http_request` events, the
    evaluator's `eval_result` (referencing the first commitment) and the harness's `run_end`.
    `text_bytes` sizes the free-text payloads (~1.5 KB events need ~1100); a share `variety`
    of events carries floats (56.0, 9.5e-6, 1e+16, 0.1) and non-ASCII keys, BMP and not.
    `shape`: the body events' payloads (`payload_shapes.SHAPES`; `plain` is the mix above).
    """
    if n < 4:
        raise ValueError("a run needs at least 4 events")
    rng = random.Random(seed)
    run_id = run_id or f"run_{rng.getrandbits(64):016x}"
    t0 = datetime.fromisoformat(start.replace("Z", "+00:00")).astimezone(timezone.utc)
    seqs: dict[str, int] = {}
    out: list[dict] = []

    def text(k: int) -> str:
        words = []
        size = 0
        while size < k:
            w = rng.choice(_WORDS)
            words.append(w)
            size += len(w) + 1
        return " ".join(words)

    def emit(producer: str, etype: str, payload: dict) -> None:
        i = len(out)
        seq = seqs.get(producer, -1) + 1
        seqs[producer] = seq
        out.append({
            "schema": SCHEMA,
            "producer_sequence": seq,
            "wall_time": _wall(t0 + timedelta(seconds=i * step_s)),
            "run_id": run_id,
            "trust_level": TRUST[producer],
            "producer": producer,
            "type": etype,
            "payload": payload,
        })

    commitments = [commitment(s, run_id, secret) if secret is not None
                   else f"{rng.getrandbits(256):064x}" for s in seeds]
    if not commitments:
        commitments = [f"{rng.getrandbits(256):064x}"]
    emit("harness", "run_start", {"game": "ale/pong-v5", "model": "test-model-1",
                                  "config": {"episodes": len(commitments), "frameskip": 4}})
    body = n - 3 - len(commitments)
    if body < 0:
        raise ValueError("n too small for the number of seeds")
    for i, c in enumerate(commitments):
        emit("evaluator", "seed_commitment", {"seed_commitment": c, "episode": i})
    for i in range(body):
        kind = i % 4
        if kind == 0:
            payload: dict = {"tool": "shell", "command": "python train.py " + text(40),
                             "cwd": "/workspace", "note": text(text_bytes // 2)}
            producer, etype = "agent", "tool_call"
        elif kind == 1:
            payload = {"stdout": text(text_bytes), "exit_code": rng.choice((0, 0, 0, 1)),
                       "duration_ms": rng.randrange(1, 5000)}
            producer, etype = "harness", "observation"
        elif kind == 2:
            payload = {"text": text(text_bytes), "tokens_in": rng.randrange(100, 9000),
                       "tokens_out": rng.randrange(10, 900)}
            producer, etype = "agent", "model_message"
        else:
            payload = {"method": "POST", "url": "https://api.example.test/v1/chat",
                       "status": 200, "bytes": rng.randrange(100, 100000), "body": text(80)}
            producer, etype = "proxy", "http_request"
        if shape != "plain":
            payload = shaped_payload(shape, rng, text_bytes)
        elif rng.random() < variety:
            payload["metrics"] = {
                "latency_s": rng.choice((0.25, 56.0, 9.5e-6, 1e16, 0.1, 123.456, -0.0, 1e21)),
                "ratio": rng.random(),
                rng.choice(_VARIETY_KEYS): rng.choice(("värde", "値", "\U0001f680", "ok")),
                rng.choice(_VARIETY_KEYS): rng.randrange(-1000, 1000),
            }
        emit(producer, etype, payload)
    emit("evaluator", "eval_result", {"score": round(rng.random() * 100, 3),
                                      "seed_commitment": commitments[0],
                                      "episodes": len(commitments)})
    emit("harness", "run_end", {"status": "completed"})
    return out
