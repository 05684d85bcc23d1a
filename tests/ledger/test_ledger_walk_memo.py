"""The check before an append reads only what this process has not walked (session 30, issue
15): the decision panel opens a store for each decision, and walking the whole chain before
each one cost ~0.7 s of CPU at 10,000 decisions on the window's thread. The rows a walk found
intact are remembered by digest (`walk_memo.WALKS`); a later append checks the records added
since and compares the rest byte for byte, so a record edited, deleted or swapped after the
walk is still refused, at the seq `decisions verify` names."""

from __future__ import annotations

import json
import sqlite3
from types import SimpleNamespace

import pytest

from moderator_app.core.formats.canonical import canonical_json
from moderator_app.core.ledger import chained, walk_memo
from moderator_app.core.ledger.errors import LedgerError
from moderator_app.core.ledger.records import build_record
from moderator_app.core.ledger.store import Ledger
from moderator_app.core.verify.report import FileDigest, Report


def _rec(i: int):
    r = Report(kind="community", input_name=f"sub-{i}")
    r.files = [FileDigest("agent-log.jsonl", "agent_log", 1000 + i, f"{i:064x}")]
    return build_record(SimpleNamespace(report=r, submission=SimpleNamespace(
        display_name=f"sub {i}")), ("accept", "reject")[i % 2], note=f"n{i}", reviewer="qa")


@pytest.fixture
def checked(monkeypatch):
    """How many records `check_row` reads (each one is a record walked in full)."""
    seen: list[int] = []
    real = chained.check_row

    def counting(cols, raw, prev, expected_seq):
        seen.append(cols["seq"])
        return real(cols, raw, prev, expected_seq)

    monkeypatch.setattr(chained, "check_row", counting)
    walk_memo.WALKS.clear()
    yield seen
    walk_memo.WALKS.clear()


def _decide(store, i: int):
    """One decision as the panel and `decide` make it: a store opened for it alone."""
    with Ledger(store) as led:
        return led.append(_rec(i))


def test_each_decision_walks_only_the_records_added_since_the_last_walk(tmp_path, checked):
    store = tmp_path / "decisions.sqlite3"
    with Ledger(store) as led:
        for i in range(8):
            led.append(_rec(i))
    walk_memo.WALKS.clear()  # a new process: nothing walked yet
    checked.clear()
    _decide(store, 8)
    assert checked == list(range(1, 9))  # the first decision walks the chain
    checked.clear()
    assert _decide(store, 9).seq == 10
    assert checked == [9]  # the next one: only the record the last decision added
    # decisions made meanwhile by another process (this one's memory of seq 10 kept)
    key = "sqlite:" + str(store.resolve())
    known = walk_memo.WALKS.get(key)
    assert known is not None and known.count == 9
    with Ledger(store) as other:
        for i in range(10, 13):
            other.append(_rec(i))
    walk_memo.WALKS.put(key, known)
    checked.clear()
    assert _decide(store, 13).seq == 14
    assert checked == [10, 11, 12, 13]
    with Ledger(store, create=False) as led:
        assert led.verify().ok and led.verify().count == 14


def _damage(store, how: str) -> None:
    conn = sqlite3.connect(store)
    raw4 = conn.execute("SELECT record_json FROM decisions WHERE seq = 4").fetchone()[0]
    if how == "edited":
        conn.execute("UPDATE decisions SET decision = 'accept' WHERE seq = 4")  # was reject
    elif how == "note":  # re-serialised canonically: only the hash can tell
        d = json.loads(raw4)
        d["note"] += "!"
        conn.execute("UPDATE decisions SET record_json = ? WHERE seq = 4", (canonical_json(d),))
    elif how == "swapped":
        raw6 = conn.execute("SELECT record_json FROM decisions WHERE seq = 6").fetchone()[0]
        conn.execute("UPDATE decisions SET record_json = ? WHERE seq = 4", (raw6,))
        conn.execute("UPDATE decisions SET record_json = ? WHERE seq = 6", (raw4,))
    elif how == "deleted":
        conn.execute("DELETE FROM decisions WHERE seq = 5")
    else:  # the type of a column changed, its text the same
        conn.execute("UPDATE decisions SET note = CAST(note AS BLOB) WHERE seq = 4")
    conn.commit()
    conn.close()


@pytest.mark.parametrize("how, said", [
    ("edited", (4, "column 'decision' differs from the sealed record")),
    ("note", (4, "hash mismatch: the record's content was edited")),
    ("swapped", (4, "prev_hash")),
    ("deleted", (6, "sequence gap: expected seq 5, found 6")),
    ("retyped", (4, "column 'note' differs from the sealed record")),
])
def test_a_record_damaged_after_the_walk_is_refused_where_verify_says(tmp_path, checked, how,
                                                                      said):
    """Damage made between two decisions of one process, inside the part already walked:
    trusting the memory alone would have appended (each of these fails without the
    digest's comparison)."""
    store = tmp_path / "decisions.sqlite3"
    with Ledger(store) as led:
        for i in range(7):
            led.append(_rec(i))
    _decide(store, 7)  # walked: seq 1-7 remembered
    _damage(store, how)
    before = sqlite3.connect(store).execute("SELECT count(*) FROM decisions").fetchone()
    with Ledger(store) as led:
        verdict = led.verify()
        with pytest.raises(LedgerError) as err:
            led.append(_rec(99))
    assert (verdict.ok, verdict.bad_seq, verdict.reason[:len(said[1])]) == (False, *said)
    assert f"is damaged (at seq {verdict.bad_seq}: {verdict.reason[:60]}" in str(err.value)
    assert "nothing was recorded" in str(err.value)
    assert sqlite3.connect(store).execute("SELECT count(*) FROM decisions").fetchone() == before
    key = "sqlite:" + str(store.resolve())
    assert walk_memo.WALKS.get(key) is None  # forgotten: the next check walks everything


def test_a_ledger_put_back_at_the_same_path_is_walked_whole(tmp_path, checked):
    """Another file at the path (a backup restored, another ledger copied there) shares no
    prefix with what was walked: it is walked whole, and taken when intact."""
    store = tmp_path / "decisions.sqlite3"
    other = tmp_path / "other" / "decisions.sqlite3"
    for path, base in ((store, 0), (other, 100)):
        with Ledger(path) as led:
            for i in range(4):
                led.append(_rec(base + i))
    _decide(store, 4)
    for suffix in ("", ".head"):
        (tmp_path / f"decisions.sqlite3{suffix}").write_bytes(
            (other.parent / f"decisions.sqlite3{suffix}").read_bytes())
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"decisions.sqlite3{suffix}").unlink(missing_ok=True)
    checked.clear()
    assert _decide(store, 5).seq == 5
    assert checked == [1, 2, 3, 4]


def test_a_cancelled_walk_ahead_stops_between_rows_and_remembers_nothing(tmp_path, checked):
    """The panel's walk ahead ignored its cancel token: a walk superseded by another store ran
    to its end (session 30's review). `walk_ahead(store, cancel)` checks the token every 256
    rows: cancelled after the first, it stops at row 256 and leaves no memo, so the next
    append walks the chain whole."""
    from moderator_app.core.errors import Cancelled
    from moderator_app.core.ledger.config import walk_ahead
    from moderator_app.core.progress import CancelToken

    store = tmp_path / "decisions.sqlite3"
    with Ledger(store) as led:
        for i in range(600):
            led.append(_rec(i))
    walk_memo.WALKS.clear()
    checked.clear()
    token = CancelToken()
    real = chained.check_row

    walked = []

    def cancel_at_first(cols, raw, prev, expected_seq):
        token.cancel()
        walked.append(cols["seq"])
        return real(cols, raw, prev, expected_seq)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(chained, "check_row", cancel_at_first)
        with pytest.raises(Cancelled):
            walk_ahead(store, token)
    assert walked == list(range(1, 257))  # the token is polled every 256 rows
    checked.clear()
    assert walk_ahead(store).count == 600
    assert checked == list(range(1, 601))  # walked whole: nothing was remembered
    checked.clear()
    assert walk_ahead(store, CancelToken()).count == 600 and checked == []
