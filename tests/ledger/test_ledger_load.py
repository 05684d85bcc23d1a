"""Many writers, killed writers and a restarted server, against real stores.

Every writer is a separate process (`tests/ledger_worker.py`) that prints what it was told
for each decision. The ledger is then compared with those answers: every acknowledged decision
is there exactly once, nothing refused is there, no seq is missing or doubled, and the chain
verifies. The PostgreSQL server is a real one (tests/pghelp.py)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter

from conftest import REPO

from moderator_app.core.ledger.config import open_store

WORKER = REPO / "tests" / "ledger_worker.py"


def start(store: str, tag: str, count: int, *extra: str) -> subprocess.Popen:
    """A writer whose output pipes are unbuffered on our side (bytes, `bufsize=0`): a
    buffered text stream reads ahead, and `communicate()` reads the pipe's descriptor, not
    that buffer, so the lines read ahead were lost. Under load a writer prints many
    ACKs between two of our reads, and the lost ones made the ledger look as if it held
    decisions nobody was told about (90 stored against 74 acknowledged and 6 in flight)."""
    env = {**os.environ, "MODERATOR_APP_STORE": store}
    env.pop("MODERATOR_APP_STORE_FILE", None)
    return subprocess.Popen([sys.executable, str(WORKER), tag, str(count), *extra], env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, bufsize=0)


def readline(p: subprocess.Popen) -> str:
    """One line of the writer's output, read without reading ahead (a raw pipe's readline
    takes a byte at a time), so `finish` later sees everything after it."""
    assert p.stdout is not None
    return p.stdout.readline().decode()


def finish(p: subprocess.Popen, timeout: float) -> tuple[str, str]:
    out, err = p.communicate(timeout=timeout)
    return out.decode(), err.decode()


def read_until(p: subprocess.Popen, word: str) -> str:
    """The writer's output up to and including its first line starting with `word` (the
    writer is alive until then: an ended writer is a failure, never a wait)."""
    seen: list[str] = []
    while not seen or not seen[-1].startswith(word):
        line = readline(p)
        assert line, "".join(seen) + (p.stderr.read().decode() if p.stderr else "")
        seen.append(line)
    return "".join(seen)


def answers(lines: str) -> dict[str, list[tuple]]:
    out: dict[str, list[tuple]] = {"ACK": [], "REFUSED": [], "UNKNOWN": []}
    for line in lines.splitlines():
        kind, _, rest = line.partition(" ")
        if kind == "ACK":
            seq, hash_, note = rest.split(" ", 2)
            out["ACK"].append((int(seq), hash_, note))
        elif kind in out:
            out[kind].append((rest.split(" ", 1)[0],))
    return out


def ledger_notes(store: str) -> tuple[list, object]:
    with open_store(store, create=False) as led:
        entries = led.list()
        outcome = led.verify()
    return entries, outcome


def check_against(store: str, acked: list[tuple], refused: list[str]) -> list:
    entries, outcome = ledger_notes(store)
    assert outcome.ok, outcome.describe()
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
    notes = Counter(e.record.note for e in entries)
    assert max(notes.values(), default=1) == 1, "a decision was stored twice"
    by_seq = {e.seq: (e.hash, e.record.note) for e in entries}
    for seq, hash_, note in acked:
        assert by_seq.get(seq) == (hash_, note), f"acknowledged {note} is missing"
    for note in refused:
        assert note not in notes, f"refused {note} was stored"
    return entries


def run_load(store: str, processes: int = 8, each: int = 200) -> None:
    procs = [start(store, f"w{i}", each) for i in range(processes)]
    acked = []
    for p in procs:
        out, err = finish(p, timeout=600)
        assert p.returncode == 0, err
        a = answers(out)
        assert not a["REFUSED"] and not a["UNKNOWN"], out[-2000:]
        acked += a["ACK"]
    assert len(acked) == processes * each
    entries = check_against(store, acked, [])
    assert len(entries) == processes * each
    assert len({e.hash for e in entries}) == processes * each


def test_eight_writers_postgres(pg_dsn):
    run_load(pg_dsn)


def test_eight_writers_sqlite(tmp_path):
    run_load(str(tmp_path / "decisions.sqlite3"))


def kill_loop(store: str, rounds: int = 6) -> None:
    rng = random.Random(1234)
    acked, in_flight = [], 0
    for r in range(rounds):
        p = start(store, f"k{r}", 100_000)
        want = rng.randrange(3, 25)
        got = []
        while len(got) < want:
            line = readline(p)
            assert line, p.stderr.read().decode() if p.stderr else ""
            got.append(line)
        time.sleep(rng.random() * 0.01)  # somewhere inside a later append
        p.send_signal(signal.SIGKILL)
        rest, _ = finish(p, timeout=60)
        a = answers("".join(got) + rest)
        acked += a["ACK"]
        in_flight += 1
    entries = check_against(store, acked, [])
    assert len(acked) <= len(entries) <= len(acked) + in_flight


def test_kill_writer_mid_append_postgres(pg_dsn):
    kill_loop(pg_dsn)


def test_kill_writer_mid_append_sqlite(tmp_path):
    kill_loop(str(tmp_path / "decisions.sqlite3"))


def test_server_restart_mid_run(pg_server, pg_dsn):
    """Every writer is held after 10 decisions, the server crashes, the writers go on while
    it is down (each is refused, then retries), and it comes back. Holding the writers makes
    "mid-run" certain: before, they ran free while the test read 10 lines, and a loaded
    machine could let all four finish before the crash (no refusal, a failure)."""
    each = 150
    procs = [start(pg_dsn, f"r{i}", each, "--retry", "--pause-after", "10") for i in range(4)]
    seen = [read_until(p, "PAUSED") for p in procs]
    pg_server.stop("immediate")  # a crash: no goodbye to the clients
    for p in procs:
        assert p.stdin is not None
        p.stdin.write(b"go\n")
        p.stdin.flush()
    seen[0] += read_until(procs[0], "REFUSED")  # the down server was noticed
    pg_server.start()
    acked, refused, unknown = [], [], []
    for n, p in enumerate(procs):
        out, err = finish(p, timeout=300)
        assert p.returncode == 0, err
        a = answers(seen[n] + out)
        acked += a["ACK"]
        refused += [n for (n,) in a["REFUSED"]]
        unknown += [n for (n,) in a["UNKNOWN"]]
    assert refused, "the restart was not noticed by any writer"
    assert len({n.rsplit(":", 1)[0] for _, _, n in acked}) == 4 * each  # all done in the end
    check_against(pg_dsn, acked, refused)


def test_a_connection_the_server_dropped_is_replaced_before_appending(pg_server, pg_dsn):
    """decide opens the store, verifies (seconds), then appends: a server restart in between
    must not refuse the decision, since nothing of it had been sent yet."""
    sys.path.insert(0, str(REPO / "tests"))
    from ledger_worker import record

    from moderator_app.core.ledger.postgres import PostgresLedger

    with PostgresLedger(pg_dsn) as led:
        led.append(record("x", 1, 0))
        pg_server.stop("fast")
        pg_server.start()
        stored = led.append(record("x", 2, 0))
        assert stored.seq == 2 and led.verify().ok
