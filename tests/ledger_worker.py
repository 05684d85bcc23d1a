"""A ledger writer process for the load and fault tests: appends decisions and reports, one
line each, what it was told (flushed at once, so a killed writer's output is complete up to
its last acknowledgement).

    python tests/ledger_worker.py TAG COUNT [--retry] [--pause-after N]
                                                          (store from $MODERATOR_APP_STORE)

Lines: `ACK <seq> <hash> <note>`, `REFUSED <note>`, `UNKNOWN <note>` (the store went away
during the commit and could not say). With --retry a refused decision is tried again as a new
record (a new note) after a short pause, as a moderator would press the button again.
With --pause-after N the writer prints `PAUSED` after its Nth acknowledgement and waits for a
line on its stdin: a test can then be sure that every writer is mid-run when it acts.
"""

from __future__ import annotations

import sys
import time
from types import SimpleNamespace

from moderator_app.core.ledger.config import open_store, store_spec
from moderator_app.core.ledger.records import build_record
from moderator_app.core.verify.report import FileDigest, Report


def record(tag: str, i: int, attempt: int):
    r = Report(kind="community", input_name=f"{tag}-{i}")
    sha = f"{abs(hash((tag, i))) % 16**16:016x}".rjust(64, "0")
    r.files = [FileDigest("agent-log.jsonl", "agent_log", 1000 + i, sha)]
    result = SimpleNamespace(report=r, submission=SimpleNamespace(display_name=f"{tag}-{i}"))
    return build_record(result, "accept", note=f"{tag}:{i}:{attempt}", reviewer=tag)


def main() -> int:
    tag, count = sys.argv[1], int(sys.argv[2])
    retry = "--retry" in sys.argv
    pause = int(sys.argv[sys.argv.index("--pause-after") + 1]) if "--pause-after" in sys.argv else -1
    from moderator_app.core.ledger.errors import LedgerError, OutcomeUnknown

    spec = store_spec()
    store = None
    for i in range(count):
        if i == pause:
            print("PAUSED", flush=True)
            sys.stdin.readline()
        attempt = 0
        while True:
            rec = record(tag, i, attempt)
            try:
                if store is None:
                    store = open_store(spec)
                stored = store.append(rec)
            except LedgerError as exc:
                kind = "UNKNOWN" if isinstance(exc, OutcomeUnknown) else "REFUSED"
                print(f"{kind} {rec.note} {exc}", flush=True)
                if store is not None:
                    store.close()
                store = None
                if not retry:
                    break
                attempt += 1
                time.sleep(0.2)
                continue
            print(f"ACK {stored.seq} {stored.hash} {rec.note}", flush=True)
            break
    if store is not None:
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
