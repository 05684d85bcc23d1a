"""Team mode: the PostgreSQL store holds the same chain as SQLite, claims, copy, and never
shows a credential. Against a real server (tests/pghelp.py), no mocks."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

import psycopg
import pytest
from conftest import REPO
from pghelp import PASSWORD

from moderator_app.core.ledger.chained import LedgerError
from moderator_app.core.ledger.claims import ClaimConflict, new_claim
from moderator_app.core.ledger.config import open_store
from moderator_app.core.ledger.postgres import PostgresLedger
from moderator_app.core.ledger.records import build_record
from moderator_app.core.ledger.store import Ledger
from moderator_app.core.verify.report import FileDigest, Report

SAMPLE = REPO / "resources" / "samples" / "community-sample"


def rec(note: str, reviewer: str = "alice", digest_seed: str = "1", **kw):
    r = Report(kind="community", input_name="sub")
    r.files = [FileDigest("agent-log.jsonl", "agent_log", 1234, digest_seed * 64)]
    result = SimpleNamespace(report=r, submission=SimpleNamespace(display_name="sub"))
    return build_record(result, "accept", note=note, reviewer=reviewer,
                        decided_at="2026-12-01T10:00:00.000Z", **kw)


def cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    e = {**os.environ, **(env or {})}
    e.pop("MODERATOR_APP_STORE", None)
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "moderator_app", *args], cwd=REPO, env=e,
                          capture_output=True, text=True, timeout=120)


def test_same_records_same_chain_on_both_stores(pg_dsn, tmp_path):
    records = [rec(f"n{i}") for i in range(3)]
    with Ledger(tmp_path / "l.sqlite3") as lite, PostgresLedger(pg_dsn) as pg:
        a = [lite.append(r).hash for r in records]
        b = [pg.append(r).hash for r in records]
        assert a == b
        assert [e.raw for e in lite.entries()] == [e.raw for e in pg.entries()]
        assert pg.verify().ok and pg.verify().count == 3


def test_postgres_edit_and_gap_are_detected(pg_dsn):
    with PostgresLedger(pg_dsn) as pg:
        for i in range(4):
            pg.append(rec(f"n{i}"))
    with psycopg.connect(pg_dsn, autocommit=True) as c:
        c.execute("UPDATE moderator_decisions SET note = 'edited' WHERE seq = 2")
    with PostgresLedger(pg_dsn, create=False) as pg:
        out = pg.verify()
    assert (out.ok, out.bad_seq) == (False, 2) and "note" in out.reason
    with psycopg.connect(pg_dsn, autocommit=True) as c:
        c.execute("UPDATE moderator_decisions SET note = 'n1' WHERE seq = 2")
        c.execute("DELETE FROM moderator_decisions WHERE seq = 3")
    with PostgresLedger(pg_dsn, create=False) as pg:
        out = pg.verify()
    assert (out.ok, out.bad_seq) == (False, 4) and "gap" in out.reason


def test_claims_guard_decisions_and_expire(pg_dsn, tmp_path):
    now = datetime.now(timezone.utc)
    for spec in (pg_dsn, str(tmp_path / "l.sqlite3")):
        with open_store(spec) as store:
            d = rec("x").evidence_digest
            store.append(new_claim("claim", "alice", d, "sub", minutes=30, now=now), now=now)
            assert store.claim_state(d, now).holder == "alice"
            with pytest.raises(ClaimConflict, match="claimed by alice until"):
                store.append(rec("bob decides", reviewer="bob"), now=now)
            with pytest.raises(ClaimConflict):
                store.append(new_claim("claim", "bob", d, "sub", now=now), now=now)
            with pytest.raises(ClaimConflict):
                store.append(new_claim("release", "bob", d, "sub", now=now), now=now)
            # after expiry anyone may decide; before it, only with an override note
            later = now + timedelta(minutes=31)
            assert store.claim_state(d, later).holder is None
            s = store.append(rec("bob overrides", reviewer="bob",
                                 claim_override="alice is away"), now=now)
            assert s.record.claim_override == "alice is away"
            assert store.claim_state(d, now).holder is None  # a decision ends the claim
            kinds = [(e.record.decision, e.record.reviewer) for e in store.entries()]
            assert kinds == [("claim", "alice"), ("accept", "bob")]
            assert store.verify().ok


def test_concurrent_claims_one_winner(pg_dsn):
    """Two moderators claim the same run at the same moment: exactly one gets it."""
    code = ("import sys\nfrom moderator_app.core.ledger.config import open_store\n"
            "from moderator_app.core.ledger.claims import new_claim, ClaimConflict\n"
            "s = open_store(sys.argv[1])\n"
            "try:\n s.append(new_claim('claim', sys.argv[2], 'd'*64, 'sub'))\n print('WON')\n"
            "except ClaimConflict:\n print('LOST')\n")
    procs = [subprocess.Popen([sys.executable, "-c", code, pg_dsn, f"m{i}"],
                              stdout=subprocess.PIPE, text=True) for i in range(6)]
    results = sorted(p.communicate(timeout=120)[0].strip() for p in procs)
    assert results == ["LOST"] * 5 + ["WON"]


def test_copy_between_stores_keeps_the_chain(pg_dsn, tmp_path):
    src = tmp_path / "a.sqlite3"
    with Ledger(src) as led:
        for i in range(5):
            led.append(rec(f"n{i}"))
        raws = [e.raw for e in led.entries()]
    r = cli("decisions", "copy", "--from", str(src), "--to", pg_dsn)
    assert r.returncode == 0, r.stderr
    assert PASSWORD not in r.stdout + r.stderr
    back = tmp_path / "b.sqlite3"
    r = cli("decisions", "copy", "--from", pg_dsn, "--to", str(back))
    assert r.returncode == 0, r.stderr
    with Ledger(back, create=False) as led:
        assert [e.raw for e in led.entries()] == raws and led.verify().ok
    r = cli("decisions", "copy", "--from", str(src), "--to", pg_dsn)  # not empty: refused
    assert r.returncode == 2 and "empty" in r.stderr


def test_cli_on_postgres_never_shows_the_password(pg_dsn, tmp_path):
    r = cli("decide", str(SAMPLE), "--accept", "--reviewer", "carol", "--store", pg_dsn)
    assert r.returncode == 0, r.stderr
    for args in (("decisions", "list"), ("decisions", "verify"),
                 ("decisions", "export", "--format", "jsonl", "--out", str(tmp_path / "e"))):
        r = cli(*args, "--store", pg_dsn)
        assert r.returncode == 0, r.stderr
        assert PASSWORD not in r.stdout + r.stderr
    assert "intact: 1 decisions" in cli("decisions", "verify", "--store", pg_dsn).stdout
    assert PASSWORD.encode() not in (tmp_path / "e").read_bytes()
    with psycopg.connect(pg_dsn) as c:
        rows = c.execute("SELECT * FROM moderator_decisions").fetchall()
    assert PASSWORD not in repr(rows)


def test_wrong_password_and_unreachable_store_are_told_at_once(pg_dsn):
    bad = pg_dsn.replace(PASSWORD, PASSWORD + "x")
    r = cli("decide", str(SAMPLE), "--accept", "--reviewer", "c", "--store", bad)
    assert r.returncode == 2 and "NOT recorded" in r.stderr
    assert PASSWORD not in r.stdout + r.stderr
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there
    dead = f"postgresql://moderator:{PASSWORD}@127.0.0.1:{port}/db"
    r = cli("decisions", "verify", "--store", dead)
    assert r.returncode == 1 and "cannot reach the team store" in r.stderr
    assert PASSWORD not in r.stdout + r.stderr
    with pytest.raises(LedgerError) as info:
        PostgresLedger(dead)
    assert PASSWORD not in str(info.value) and "127.0.0.1" in str(info.value)


def test_sslmode_passes_through(pg_dsn):
    with pytest.raises(LedgerError, match="SSL") as info:
        PostgresLedger(pg_dsn + "?sslmode=require")  # the test server has no TLS
    assert PASSWORD not in str(info.value)


def test_store_file_must_be_owner_only(pg_dsn, tmp_path):
    f = tmp_path / "store.conf"
    f.write_text("# team ledger\n" + pg_dsn + "\n")
    os.chmod(f, 0o644)
    r = cli("decisions", "verify", "--store-file", str(f))
    # exit 2 since session 14 (an unusable store file: nothing was read from a ledger)
    assert r.returncode == 2 and "chmod 600" in r.stderr
    os.chmod(f, 0o600)
    r = cli("decisions", "verify", env={"MODERATOR_APP_STORE_FILE": str(f)})
    assert r.returncode == 0, r.stderr
    assert PASSWORD not in r.stdout + r.stderr


def test_cli_claims_and_overrides_on_the_team_store(pg_dsn):
    r = cli("claim", str(SAMPLE), "--reviewer", "alice", "--minutes", "20", "--store", pg_dsn)
    assert r.returncode == 0 and "Claimed" in r.stdout, r.stderr
    r = cli("claim", str(SAMPLE), "--reviewer", "bob", "--store", pg_dsn)
    assert r.returncode == 1 and "claimed by alice until" in r.stderr
    r = cli("decide", str(SAMPLE), "--accept", "--reviewer", "bob", "--store", pg_dsn)
    assert r.returncode == 2 and "NOT recorded" in r.stderr and "claimed by alice" in r.stderr
    r = cli("decide", str(SAMPLE), "--accept", "--reviewer", "bob", "--store", pg_dsn,
            "--override-claim", "alice is off today")
    assert r.returncode == 0 and "Recorded decision #2" in r.stdout, r.stderr
    r = cli("release", str(SAMPLE), "--reviewer", "alice", "--store", pg_dsn)
    assert r.returncode == 1 and "holds no claim" in r.stderr  # the decision ended it
    listing = cli("decisions", "list", "--store", pg_dsn).stdout
    assert "claim   alice" in listing and "claim override: alice is off today" in listing
    assert "1 decisions in" in listing and "(and 1 claim records)" in listing
    assert PASSWORD not in listing


@pytest.mark.parametrize("how, said", [
    ("edited", (2, "column 'note' differs from the sealed record")),
    ("deleted", (4, "sequence gap: expected seq 3, found 4")),
    ("swapped", (2, "prev_hash")),
    ("tail", (4, "the ledger head marker says seq 4")),
])
def test_a_damaged_team_store_refuses_the_append_naming_the_record(pg_dsn, how, said):
    """Session 30 (issue 15; s29 left open): the SQLite store refused to append to a chain
    `decisions verify` calls damaged, the team store appended. Now each append walks the
    chain after locking the head row, as `verify` does (rows this process walked before
    compared by digest): the damage is named, nothing is written, no password shown. The
    first decisions below are remembered as walked, so this also checks that an edit made
    after that walk is found."""
    from moderator_app.core.ledger import walk_memo

    walk_memo.WALKS.clear()
    with PostgresLedger(pg_dsn) as pg:
        for i in range(4):
            pg.append(rec(f"n{i}", digest_seed=str(i)))
    assert walk_memo.WALKS.get("postgresql:" + pg.display).count == 3
    with psycopg.connect(pg_dsn, autocommit=True) as c:
        if how == "edited":
            c.execute("UPDATE moderator_decisions SET note = 'edited' WHERE seq = 2")
        elif how == "deleted":
            c.execute("DELETE FROM moderator_decisions WHERE seq = 3")
        elif how == "tail":  # the last record deleted, the head row left as it was
            c.execute("DELETE FROM moderator_decisions WHERE seq = 4")
        else:
            two, three = (c.execute("SELECT record_json FROM moderator_decisions WHERE seq = %s",
                                    (n,)).fetchone()[0] for n in (2, 3))
            c.execute("UPDATE moderator_decisions SET record_json = %s WHERE seq = 2", (three,))
            c.execute("UPDATE moderator_decisions SET record_json = %s WHERE seq = 3", (two,))
        before = c.execute("SELECT seq, hash FROM moderator_decisions ORDER BY seq").fetchall()
    with PostgresLedger(pg_dsn) as pg:
        verdict = pg.verify()
        with pytest.raises(LedgerError) as err:
            pg.append(rec("refused", digest_seed="9"))
        assert (verdict.ok, verdict.bad_seq, verdict.reason[:len(said[1])]) == (False, *said)
        assert str(err.value).startswith(f"the team store {pg.display} is damaged (at seq "
                                          f"{verdict.bad_seq}: {verdict.reason[:60]}")
        assert "nothing was recorded" in str(err.value)
        assert PASSWORD not in str(err.value)
        # the connection is still usable: reading works after the refused append
        assert [e.seq for e in pg.entries()] == [s for s, _ in before]
    with psycopg.connect(pg_dsn, autocommit=True) as c:
        assert c.execute("SELECT seq, hash FROM moderator_decisions ORDER BY seq"
                         ).fetchall() == before
    r = cli("decide", str(SAMPLE), "--accept", "--reviewer", "qa", "--store", pg_dsn)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "decision NOT recorded: the team store" in r.stderr
    assert f"is damaged (at seq {verdict.bad_seq}: " in r.stderr
    assert PASSWORD not in r.stdout + r.stderr and "Traceback" not in r.stderr


def test_a_team_append_checks_only_the_records_added_since_this_process_walked(
        pg_dsn, monkeypatch):
    """Session 30: the rows a walk found intact are compared by a digest the server computes
    (in the statement that returns the newer rows), so an append reads and checks only the
    records added since: by this process, or by another moderator meanwhile."""
    from moderator_app.core.ledger import chained, walk_memo

    seen: list[int] = []
    real = chained.check_row

    def counting(cols, raw, prev, expected_seq):
        seen.append(cols["seq"])
        return real(cols, raw, prev, expected_seq)

    monkeypatch.setattr(chained, "check_row", counting)
    walk_memo.WALKS.clear()
    with PostgresLedger(pg_dsn) as pg:
        for i in range(5):
            pg.append(rec(f"n{i}", digest_seed=str(i)))
    walk_memo.WALKS.clear()  # a new process
    seen.clear()
    with PostgresLedger(pg_dsn) as pg:
        assert pg.append(rec("a", digest_seed="a")).seq == 6
        assert seen == [1, 2, 3, 4, 5]
        seen.clear()
        assert pg.append(rec("b", digest_seed="b")).seq == 7
        assert seen == [6]
        key = "postgresql:" + pg.display
        known = walk_memo.WALKS.get(key)
        for c in "cd":  # another moderator's two decisions: this process's memory kept
            pg.append(rec(c, digest_seed=c))
        walk_memo.WALKS.put(key, known)
        seen.clear()
        assert pg.append(rec("e", digest_seed="e")).seq == 10
        assert seen == [7, 8, 9]
        assert pg.verify().ok and pg.verify().count == 10
