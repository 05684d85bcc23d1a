"""The decision ledger's check before an append (issue 15, session 30), against its own
baseline in the same run: session 29's full walk of the chain.

For ledgers of 2,000 and 10,000 decisions (sealed here, deterministic, copied in with
`import_raw`), CPU seconds (min of 5, `time.process_time`, this thread only):
- full walk: what every decision of the panel (a store opened per decision) cost on the
  GUI thread until session 30, `walk_from(rows, None)` plus the head marker;
- check: `walked_before_append` once this process walked the chain (the panel walks it off
  the GUI thread when it shows a store): the rows compared by digest, no record new;
- decision, cold / warm: one panel-style decision (open the store, append, close) with
  nothing remembered (session 29's cost) and with the chain walked before.
Prints each and the ratio check / full walk and decision warm / cold.

Team mode (PostgreSQL started as tests/pghelp.py does; skipped without the server binaries),
wall seconds (the server does part of the work), min of 5, at 10,000 records: the check
with nothing walked (the rows read and walked) against the check once walked (the server's
digest of the rows compared, no row sent).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))

SIZES = (2_000, 10_000)
REPEAT = 5


def _record(i: int):
    from moderator_app.core.ledger.records import build_record
    from moderator_app.core.verify.report import FileDigest, Report

    r = Report(kind="community", input_name=f"run-{i}")
    r.files = [FileDigest("agent-log.jsonl", "agent_log", 1000 + i, f"{i:064x}"),
               FileDigest("run.mp4", "video", 10_000 + i, f"{i + 1:064x}")]
    return build_record(SimpleNamespace(report=r, submission=SimpleNamespace(
        display_name=f"run-{i}")), ("accept", "reject")[i % 2], note=f"bench note {i}",
        reviewer="bench", decided_at="2026-12-05T10:00:00.000Z")


def _sealed(n: int) -> list[bytes]:
    from moderator_app.core.formats.canonical import canonical_json
    from moderator_app.core.formats.chain import ZERO_HASH, seal

    prev, raws = ZERO_HASH, []
    for i in range(n):
        sealed = seal({**_record(i).to_dict(), "seq": i + 1}, prev)
        raws.append(canonical_json(sealed))
        prev = sealed["hash"]
    return raws


def _cpu(fn) -> float:
    best = float("inf")
    for _ in range(REPEAT):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def _wall(fn) -> float:
    best = float("inf")
    for _ in range(REPEAT):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def bench_postgres(n: int = SIZES[-1]) -> None:
    from pghelp import PgServer, pg_bindir

    from moderator_app.core.ledger import walk_memo
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
        with PostgresLedger(dsn) as led:
            led.import_raw(_sealed(n))

            def cold(led=led) -> None:
                walk_memo.WALKS.clear()
                assert led.walked_before_append().ok

            cold_s = _wall(cold)
            warm_s = _wall(lambda led=led: led.walked_before_append())
        print(f"{n:>6} records, PostgreSQL: check nothing walked {cold_s * 1e3:7.1f} ms, "
              f"once walked {warm_s * 1e3:6.1f} ms ({warm_s / cold_s:.3f}x)")
    finally:
        server.cleanup()


def main() -> int:
    from moderator_app.core.ledger import walk_memo
    from moderator_app.core.ledger.chained import check_head_marker, walk_from
    from moderator_app.core.ledger.store import Ledger

    root = Path(tempfile.mkdtemp(prefix="bench-ledger-walk-"))
    try:
        for n in SIZES:
            path = root / f"l{n}" / "decisions.sqlite3"
            with Ledger(path) as led:
                led.import_raw(_sealed(n))
            with Ledger(path, create=False) as led:
                def full(led=led) -> None:
                    out, _ = walk_from(led._verify_rows(), None)
                    assert out is not None and out.ok
                    assert check_head_marker(out, led._head_marker()).ok

                full_s = _cpu(full)
                walk_memo.WALKS.clear()
                assert led.walked_before_append().ok
                check_s = _cpu(lambda led=led: led.walked_before_append())
            seq = [n]

            def decide(cold: bool, path=path, seq=seq) -> None:
                if cold:
                    walk_memo.WALKS.clear()
                with Ledger(path) as led:
                    seq[0] = led.append(_record(seq[0])).seq

            cold_s = _cpu(lambda: decide(True))
            warm_s = _cpu(lambda: decide(False))
            print(f"{n:>6} decisions: full walk {full_s * 1e3:7.1f} ms, check "
                  f"{check_s * 1e3:6.1f} ms ({check_s / full_s:.3f}x); decision cold "
                  f"{cold_s * 1e3:7.1f} ms, warm {warm_s * 1e3:6.1f} ms "
                  f"({warm_s / cold_s:.3f}x)")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    bench_postgres()
    return 0


if __name__ == "__main__":
    sys.exit(main())
