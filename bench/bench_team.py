"""Team mode and the review queue (issue 14), each against a baseline timed in the same run.

- Append latency, median and p95 over 300 decisions, on SQLite and on a local PostgreSQL
  (started here, as tests/pghelp.py does), against the same store's bare durable commit of a
  row of the same size (the floor: what any durable append costs there).
- Listing a queue of 1,000 cached submissions (`build_queue`, ledger states included) against
  the stat walk of the same folder (the floor: finding out that nothing changed). The
  submissions are generated once into .cache/bench-queue (deterministic) and verified once
  into its report cache; later runs only list.
"""

from __future__ import annotations

import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))

N_APPENDS = 300
N_QUEUE = 1000


def _record(i: int):
    from moderator_app.core.ledger.records import build_record
    from moderator_app.core.verify.report import FileDigest, Report

    r = Report(kind="community", input_name=f"run-{i}")
    r.files = [FileDigest("agent-log.jsonl", "agent_log", 1000 + i, f"{i:064x}"),
               FileDigest("run.mp4", "video", 10_000 + i, f"{i + 1:064x}")]
    return build_record(SimpleNamespace(report=r, submission=SimpleNamespace(
        display_name=f"run-{i}")), "accept", note=f"bench {i}", reviewer="bench")


def _stats(lat: list[float]) -> tuple[float, float]:
    lat = sorted(lat)
    return statistics.median(lat) * 1e3, lat[int(0.95 * (len(lat) - 1))] * 1e3


def _interleaved(store, bare) -> tuple[list[float], list[float]]:
    """One append, then one bare durable insert, and so on: the machine's load hits both
    alike (the machine is shared; timings run in turns, not in blocks)."""
    ours, floor = [], []
    for i in range(N_APPENDS):
        rec = _record(i)
        t = time.perf_counter()
        store.append(rec)
        ours.append(time.perf_counter() - t)
        t = time.perf_counter()
        bare(i)
        floor.append(time.perf_counter() - t)
    return ours, floor


def bench_sqlite(tmp: Path) -> None:
    from moderator_app.core.ledger.store import Ledger

    conn = sqlite3.connect(tmp / "floor.sqlite3", isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("CREATE TABLE t (seq INTEGER PRIMARY KEY, body BLOB)")
    body = b"x" * 1500

    def bare(i: int) -> None:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO t VALUES (?, ?)", (i, body))
        conn.execute("COMMIT")

    with Ledger(tmp / "l.sqlite3") as led:
        ours, floor = _interleaved(led, bare)
    conn.close()
    _report("SQLite", ours, floor)


def bench_postgres() -> None:
    import psycopg
    from pghelp import PgServer, pg_bindir

    from moderator_app.core.ledger.postgres import PostgresLedger

    bindir = pg_bindir()
    if bindir is None:
        print("PostgreSQL: skipped (server binaries not installed)")
        return
    server = PgServer(bindir)
    try:
        server.init()
        server.start()
        dsn = server.dsn(server.create_db())
        body = b"x" * 1500
        with psycopg.connect(dsn, autocommit=True) as conn, PostgresLedger(dsn) as led:
            conn.execute("CREATE TABLE t (seq bigint PRIMARY KEY, body bytea)")

            def bare(i: int) -> None:
                with conn.transaction():
                    conn.execute("INSERT INTO t VALUES (%s, %s)", (i, body))

            ours, floor = _interleaved(led, bare)
        _report("PostgreSQL", ours, floor)
    finally:
        server.cleanup()


def _report(name: str, ours: list[float], floor: list[float]) -> None:
    m, p = _stats(ours)
    fm, fp = _stats(floor)
    print(f"{name:10s} append median {m:.2f} ms  p95 {p:.2f} ms   bare durable insert median "
          f"{fm:.2f} ms  p95 {fp:.2f} ms   ratio (median) {m / fm:.2f}x")


def make_queue(root: Path) -> Path:
    """1,000 small distinct community submissions (log only: verdict `fail`, no video),
    written once."""
    q = root / "bench-queue" / "queue"
    done = q.parent / "complete"
    if done.exists():
        return q
    shutil.rmtree(q.parent, ignore_errors=True)
    q.mkdir(parents=True)
    log = (REPO / "resources" / "samples" / "community-sample" / "agent-log.jsonl").read_bytes()
    for i in range(N_QUEUE):
        d = q / f"run-{i:04d}"
        d.mkdir()
        (d / "agent-log.jsonl").write_bytes(
            log.replace(b'"sample-agent"', f'"bench-agent-{i}"'.encode(), 1))
    done.write_text("ok\n")
    return q


def bench_queue(tmp: Path) -> None:
    from moderator_app.core.queue.listing import build_queue
    from moderator_app.core.queue.scan import scan_queue

    cache_root = REPO / ".cache"
    q = make_queue(cache_root)
    cache = str(q.parent / "report-cache.sqlite3")
    store = str(tmp / "queue-ledger.sqlite3")
    t = time.perf_counter()
    build_queue(q, store, cache)  # fills the cache the first time (verifies 1,000)
    first = time.perf_counter() - t
    listing = walk = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        scan_queue(q)
        walk = min(walk, time.perf_counter() - t)
        t = time.perf_counter()
        items = build_queue(q, store, cache)
        listing = min(listing, time.perf_counter() - t)
    assert len(items) == N_QUEUE
    print(f"queue      {N_QUEUE} cached submissions listed in {listing:.3f} s (best of 3; "
          f"target <= 1 s); stat walk alone {walk:.3f} s; ratio {listing / walk:.2f}x; "
          f"first listing (verifying) {first:.1f} s")


def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="bench-team-"))
    try:
        bench_sqlite(tmp)
        bench_postgres()
        bench_queue(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
